"""The deal as the table tells it: taps and one number (the pad's rows, ``DealForm``); the rules are
the engine's."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .. import engine
from ..engine.rulesets.base import DECK_TOTALS, DECLARATION_POINTS
from ..engine.rulesets.bulgarian import SEQUENCE_LENGTH
from ..engine.rulesets.coinche import SEQUENCES as COINCHE_SEQUENCES
from ..engine.rulesets.coinche import Coinche
from ..engine.rulesets.mpourloto import MELD_POINTS
from ..messages import engine_sentence
from .pad import (
    BID_CHIPS,
    BID_WORDS,
    COINCHE_MULTIPLIERS,
    LAST_TRICK_CHOICES,
    MULTIPLIERS,
    PADS,
    SUIT_LABELS,
    SUIT_NAMES,
    TEAM_CHOICES,
    TOUT_ATOUT_BELOTES,
    Chip,
    pad_chips,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def rules_options(ruleset: str, options: dict[str, Any] | None) -> Any:
    """The rule set's options of a match (its defaults where the stored ones do not read)."""
    rules = engine.get_ruleset(ruleset)
    try:
        return rules.options(options or {})
    except engine.ScoringError:
        return rules.options()


def _count_field(most: int) -> forms.IntegerField:
    return forms.IntegerField(
        min_value=0,
        max_value=most,
        initial=0,
        required=False,
        error_messages={"max_value": _("at most %(limit_value)s"), "min_value": _("not below 0")},
    )


def _count(bound: Any) -> int:
    """A meld chip's count as the pad shows it (what was typed, or 0 when it is not a number)."""
    try:
        return int(bound.value() or 0)
    except (TypeError, ValueError):
        return 0


# The pad's rows in the order the table announces a deal, and the row of each field (the error of
# a field shows at its row and, in this order, beside Record; pad.js knows the same rows).
PAD_ROWS = (
    "maker", "bid", "generale", "suit", "multiplier", "melds", "declarations_winner", "card_points",
    "last_trick",
)  # fmt: skip
FIELD_ROWS = {
    "bid_more": "bid",
    "points_team": "card_points",
    "solo_capot": "last_trick",
    "thrown_in": "maker",
}


def pad_row(field: str) -> str:
    """The pad row a form field is shown in."""
    if field.startswith(("melds", "belote")):
        return "melds"
    return FIELD_ROWS.get(field, field)


class DealForm(forms.Form):
    """A deal as the table tells it: taps and one number. The fields follow the game's pad."""

    client_key = forms.UUIDField(widget=forms.HiddenInput)
    version = forms.IntegerField(
        required=False, min_value=0, widget=forms.HiddenInput
    )  # the sheet it was entered on
    thrown_in = forms.BooleanField(required=False, widget=forms.HiddenInput)
    maker = forms.TypedChoiceField(
        coerce=int, choices=TEAM_CHOICES, widget=forms.RadioSelect, required=False, empty_value=None
    )
    points_team = forms.TypedChoiceField(
        coerce=int,
        choices=TEAM_CHOICES,
        widget=forms.RadioSelect,
        initial=0,
        required=False,
        label=_("Card points of"),
    )
    card_points = forms.IntegerField(
        min_value=0,
        required=False,
        label=_("Card points"),
        error_messages={"min_value": _("Card points are not below 0.")},
    )
    last_trick = forms.ChoiceField(
        choices=LAST_TRICK_CHOICES, widget=forms.RadioSelect, label=_("Last trick"), required=False
    )
    declarations_winner = forms.ChoiceField(
        choices=[("0", _("Team 1")), ("1", _("Team 2")), ("equal", _("Equal"))],
        widget=forms.RadioSelect,
        required=False,
    )

    def __init__(
        self, *args: Any, ruleset: str = "mpourloto", options: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.pad = PADS[ruleset]
        self.match_options = options or {}
        self.rules_options = rules_options(ruleset, self.match_options)
        pad, opts = self.pad, self.rules_options
        with_sa_ta = bool(pad.option_suits) and opts.sa_ta
        self.suits = (*pad.suits, *(pad.option_suits if with_sa_ta else ()))
        self.chips = pad_chips(ruleset, opts)
        self.belotes = TOUT_ATOUT_BELOTES if with_sa_ta else pad.belotes
        if self.suits:
            self.fields["suit"] = forms.ChoiceField(
                choices=[(s, SUIT_NAMES[s]) for s in self.suits], widget=forms.RadioSelect, required=False
            )
        if pad.bid_words:
            self.fields["bid"] = forms.ChoiceField(
                choices=self.bid_choices(), widget=forms.RadioSelect, required=False
            )
            self.fields["generale"] = forms.TypedChoiceField(
                coerce=int,
                choices=[(seat, seat) for seat in range(4)],
                widget=forms.RadioSelect,
                required=False,
                empty_value=None,
            )
        elif pad.bids:
            self.fields["bid"] = forms.IntegerField(min_value=80, max_value=1000, required=False)
            self.fields["bid_more"] = forms.IntegerField(min_value=80, max_value=1000, required=False)
        if pad.doubling:
            multipliers = MULTIPLIERS
            if pad.bid_words:  # Coinche's words, and its factors (surcoinché may be ×3)
                multipliers = [
                    (1, "×1"),
                    (2, f"{COINCHE_MULTIPLIERS[2]} ×{opts.coinche_multiplier}"),
                    (4, f"{COINCHE_MULTIPLIERS[4]} ×{opts.surcoinche_multiplier}"),
                ]
            self.fields["multiplier"] = forms.TypedChoiceField(
                coerce=int, choices=multipliers, widget=forms.RadioSelect, initial=1, required=False
            )
        for team in (0, 1):
            for chip in self.chips:
                self.fields[f"melds{team}_{chip.code}"] = _count_field(chip.most)
            if self.belotes:
                self.fields[f"belote{team}"] = _count_field(self.belotes)
        if pad.solo_capot:
            self.fields["solo_capot"] = forms.BooleanField(required=False, label=_("Solo capot (one player)"))
        if not self.is_bound and not self.initial.get("client_key"):
            self.initial["client_key"] = uuid.uuid4()

    def refreshed(self, version: int) -> DealForm:
        """The same pad, as typed, now on the sheet's current version."""
        # a posted pad's QueryDict (a dict in tests); ``Form.data`` is typed as any Mapping
        data = self.data.copy() if isinstance(self.data, QueryDict) else dict(self.data)
        data["version"] = str(version)
        form = DealForm(data, ruleset=self.ruleset, options=self.match_options)
        form.is_valid()
        return form

    @property
    def shows_contest(self) -> bool:
        contest = self.pad.contest
        if contest == "announcements":  # Coinche: only the best team's count (unless each team's do)
            return bool(self.chips) and self.rules_options.melds_scoring == "best_team"
        return contest in ("declarations", "sequences") or (
            contest == "melds" and bool(self.match_options.get("best_melds_only"))
        )

    @classmethod
    def initial_from(
        cls, ruleset: str, deal: engine.Deal, options: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Form values showing a recorded deal, for its correction (``options``: the match's)."""
        initial: dict[str, Any] = {"client_key": uuid.uuid4()}
        if deal.thrown_in:
            return initial
        pad = PADS[ruleset]
        # a deal not thrown in has both (engine.Deal's own check)
        assert deal.maker is not None and deal.card_points is not None
        initial.update(maker=deal.maker, points_team=deal.maker, card_points=deal.card_points[deal.maker])
        initial["last_trick"] = f"capo{deal.capot}" if deal.capot is not None else str(deal.last_trick)
        if deal.declarations_winner is not None:
            initial["declarations_winner"] = str(deal.declarations_winner)
        if deal.contract is not None:
            initial.update(suit=deal.contract.suit, multiplier=deal.contract.multiplier)
            if pad.bid_words and deal.contract.bid is not None:
                initial["bid"] = str(deal.contract.bid)
            elif deal.contract.bid in BID_CHIPS:
                initial["bid"] = deal.contract.bid
            elif deal.contract.bid is not None:
                initial["bid_more"] = deal.contract.bid
        if deal.generale is not None:
            initial["generale"] = deal.generale
        chips = {chip.code for chip in pad_chips(ruleset, rules_options(ruleset, options))}
        for team, melds in enumerate(deal.melds):
            for code in melds:
                key = f"melds{team}_{code if code in chips else 'four'}"  # Mpourloto: any four is one chip
                initial[key] = initial.get(key, 0) + 1
            initial[f"belote{team}"] = deal.belote[team]
        initial["solo_capot"] = deal.solo_capot
        return initial

    def meld_rows(self) -> list[tuple[int, list[tuple[Any, Chip, int, int | str]]]]:
        """Per team, the bound meld fields with their chips, their rank in the contest and, where it
        differs in sans-atout (Coinche's fours by rank), their rank there ("" where it does not)."""
        sans_atout = "notrump" in self.suits and self.pad.contest == "announcements"
        rows = []
        for t in (0, 1):
            chips = []
            for chip in self.chips:
                rank = self.contest_rank(chip.code)
                notrump = self.contest_rank(chip.code, "notrump") if sans_atout else rank
                chips.append((self[f"melds{t}_{chip.code}"], chip, rank, "" if notrump == rank else notrump))
            rows.append((t, chips))
        return rows

    def contest_rank(self, code: str, suit: str | None = None) -> int:
        """What a meld weighs in this game's contest of equal best melds (0: it takes no part):
        Bulgarian compares the longest sequences, Pilotta and Mpourloto the best meld's points,
        Coinche the best announcement's points in the contract's ``suit``, a four over a sequence."""
        contest = self.pad.contest
        if contest == "announcements":
            rules = engine.get_ruleset(self.ruleset)
            assert isinstance(rules, Coinche)  # only Coinche's pad has the announcements contest
            points = rules.announcement_value(code, suit or "hearts", self.rules_options)
            return 2 * points + (code not in COINCHE_SEQUENCES) if points else 0
        if contest == "sequences":
            return SEQUENCE_LENGTH.get(code, 0)
        if contest == "declarations":
            return DECLARATION_POINTS.get(code, 0)
        if contest == "melds" and code != "mpourloto":
            return MELD_POINTS.get(code, 0)
        return 0

    @property
    def contest_needed(self) -> bool:
        """Does the deal as tapped so far need the table's word on the contest? Only when both teams'
        best melds weigh the same (and something was declared): the engine asks for it then."""
        if not self.shows_contest:
            return False
        best = []
        suit = self["suit"].value() if "suit" in self.fields else None
        for t in (0, 1):
            ranks = [
                self.contest_rank(chip.code, suit)
                for chip in self.chips
                if _count(self[f"melds{t}_{chip.code}"])
            ]
            best.append(max(ranks, default=0))
        return best[0] == best[1] > 0

    @property
    def missing(self) -> dict[str, str]:
        """What the pad says when a required tap is missing, per field (the server's and the page's)."""
        pad = self.pad
        messages = {"maker": str(pad.maker_missing)}
        if pad.bid_words:
            messages["bid"] = gettext("Tap the bid: 80 to %(most)s, capot or générale.") % {
                "most": self.rules_options.max_bid
            }
        elif pad.bids:
            messages["bid"] = gettext("Tap the bid (80, 90, 100 …) or type a higher one.")
        if pad.suits:
            messages["suit"] = gettext("Tap the contract's suit.")
        messages["card_points"] = gettext("Type one team's card points.")
        messages["last_trick"] = gettext("Tap the team that won the last trick (or took %(capot)s).") % {
            "capot": pad.capot_word
        }
        return messages

    @property
    def pad_errors(self) -> list[tuple[str, str]]:
        """Every error of the bound pad as (field, message), the form's own first, then in the pad's
        order: shown beside Record, where the eye is when the tap seemed to do nothing."""
        errors = [("", str(e)) for e in self.non_field_errors()]
        if self["client_key"].errors:
            errors.append(("", gettext("The form expired; reload the page.")))
        titles = {f"melds{t}_{chip.code}": str(chip.title) for t in (0, 1) for chip in self.chips}
        titles.update({f"belote{t}": gettext("Belote") for t in (0, 1)})
        fields = sorted(
            (name for name in self.fields if name not in ("client_key", "version") and self[name].errors),
            key=lambda name: PAD_ROWS.index(pad_row(name)) if pad_row(name) in PAD_ROWS else len(PAD_ROWS),
        )
        for name in fields:
            for e in self[name].errors:
                errors.append((pad_row(name), f"{titles[name]}: {e}" if name in titles else str(e)))
        return errors

    def bid_choices(self) -> list[tuple[str, str]]:
        """(value, label) of each bid tap: 80 to 160 (Pilotta types a higher one); Coinche's to the
        match's highest bid, then capot and générale."""
        if not self.pad.bid_words:
            return [(str(bid), str(bid)) for bid in BID_CHIPS]
        numbers = [(str(bid), str(bid)) for bid in range(80, self.rules_options.max_bid + 1, 10)]
        return [*numbers, *((word, str(label)) for word, label in BID_WORDS.items())]

    @staticmethod
    def generale_seats() -> list[tuple[int, int]]:
        """(seat, team) of the seats, for Coinche's générale: the player who took every trick alone, of
        either team (FORMAT.md; only a générale bid by the takers scores it). pad.js offers the takers'
        two on a générale bid; the form takes any seat of the capot team."""
        return [(seat, engine.team_of(seat)) for seat in range(4)]

    def belote_fields(self) -> list[Any]:
        return [self[f"belote{t}"] for t in (0, 1)] if self.belotes else []

    def deck(self, suit: str | None) -> int:
        """Card points in the cards of a contract as the scorekeeper counts them: 152, 120 in no
        trumps and 248 in all trumps (Coinche: 152 in every contract under the federation's values)."""
        rules = engine.get_ruleset(self.ruleset)
        if suit and isinstance(rules, Coinche):
            return rules.deck(suit, self.rules_options)
        return DECK_TOTALS[suit] if suit else 152

    def suit_choices(self) -> list[tuple[str, StrOrPromise, StrOrPromise, int]]:
        """(value, symbol, name, deck total) of each suit the pad offers."""
        return [(s, SUIT_LABELS[s], SUIT_NAMES[s], self.deck(s)) for s in self.suits]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if data.get("thrown_in"):
            data["deal"] = {"thrown_in": True}
            return data
        pad = self.pad
        missing = self.missing
        generale = data.get("generale")
        if generale is not None and not data.get("last_trick"):
            data["last_trick"] = f"capo{engine.team_of(generale)}"  # a générale is its player's team's capot
        for name in ("maker", "suit", "last_trick"):
            if name in missing and data.get(name) in (None, "") and name not in self.errors:
                self.add_error(name, missing[name])
        bid = None
        if pad.bids:
            bid = data.get("bid_more") or data.get("bid") or None
            if isinstance(bid, str) and bid.isdigit():
                bid = int(bid)  # Coinche's taps: a number, or capot or générale
            if bid is None and "bid" not in self.errors and "bid_more" not in self.errors:
                self.add_error("bid", missing["bid"])
        if self.errors:
            return data
        suit = data.get("suit")
        total = self.deck(suit)
        last = data["last_trick"]
        capot = int(last[-1]) if last.startswith("capo") else None
        typed, team = data.get("card_points"), data.get("points_team") or 0
        if typed is not None and typed > total:
            self.add_error(
                "card_points",
                gettext("Card points are between 0 and %(total)s: one deal has %(total)s in the cards.")
                % {"total": total},
            )
            return data
        if capot is not None:
            cards = [0, 0]
            cards[capot] = total
            if typed is not None and typed != cards[team]:
                self.add_error(
                    "card_points",
                    gettext(
                        "With %(capot)s, team %(team)s has all %(total)s card points and the other team "
                        "none; clear the number or change the last trick."
                    )
                    % {"capot": pad.capot_word, "team": capot + 1, "total": total},
                )
                return data
        elif typed is None:
            self.add_error("card_points", missing["card_points"])
            return data
        else:
            cards = [total - typed, total - typed]
            cards[team] = typed
        deal: dict[str, Any] = {"maker": data["maker"]}
        if self.suits:
            deal["contract"] = {"suit": suit, "multiplier": data.get("multiplier") or 1}
            if pad.bids:
                deal["contract"]["bid"] = bid
        deal["card_points"] = cards
        if capot is not None:
            deal["capot"] = capot
            if data.get("solo_capot"):
                deal["solo_capot"] = True
        else:
            deal["last_trick"] = int(last)
            if data.get("solo_capot"):
                self.add_error(
                    "solo_capot",
                    gettext("A solo %(capot)s is a %(capot)s: tap it in Last trick.")
                    % {"capot": pad.capot_word},
                )
                return data
        if generale is not None:
            deal["generale"] = generale
        deal["melds"] = [
            [chip.code for chip in self.chips for _ in range(data.get(f"melds{t}_{chip.code}") or 0)]
            for t in (0, 1)
        ]
        if self.belotes:
            deal["belote"] = [data.get(f"belote{t}") or 0 for t in (0, 1)]
        winner = data.get("declarations_winner")
        if winner and self.shows_contest:
            if winner != "equal":
                deal["declarations_winner"] = int(winner)
            elif pad.contest != "announcements":  # Coinche: equal and none count is no winner (null)
                deal["declarations_winner"] = winner
        data["deal"] = deal
        return data

    def add_scoring_error(self, error: engine.ScoringError) -> None:
        """Show the engine's refusal next to the field it concerns."""
        field = (error.field or "").split("[")[0]
        target = {
            "card_points": "card_points",
            "last_trick": "last_trick",
            "maker": "maker",
            "declarations_winner": "declarations_winner",
            "contract.suit": "suit",
            "contract.bid": "bid",
            "contract.multiplier": "multiplier",
            "solo_capot": "solo_capot",
            "generale": "generale",
            "capot": "last_trick",
        }.get(field)
        if target not in self.fields:
            target = None
        self.add_error(target, engine_sentence(error.message))
