"""Forms of the tablet pages. They turn taps into a deal; the rules are the engine's."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from players.models import Player, Team

from . import engine, presets, selectors
from .engine.rulesets.base import DECK_TOTALS, DECLARATION_POINTS
from .engine.rulesets.bulgarian import SEQUENCE_LENGTH
from .engine.rulesets.coinche import SEQUENCES as COINCHE_SEQUENCES
from .engine.rulesets.coinche import Coinche
from .engine.rulesets.mpourloto import MELD_POINTS
from .messages import GAME_NAMES, engine_sentence

TEAM_CHOICES = [(0, _("Team 1")), (1, _("Team 2"))]
LAST_TRICK_CHOICES = [
    ("0", _("Team 1")),
    ("1", _("Team 2")),
    ("capo0", _("Team 1 capot")),
    ("capo1", _("Team 2 capot")),
]
SUIT_LABELS = {
    "clubs": "♣",
    "diamonds": "♦",
    "hearts": "♥",
    "spades": "♠",
    "notrump": pgettext_lazy("short for no trumps", "NT"),
    "alltrump": pgettext_lazy("short for all trumps", "AT"),
}
SUIT_NAMES = {
    "clubs": _("clubs"),
    "diamonds": _("diamonds"),
    "hearts": _("hearts"),
    "spades": _("spades"),
    "notrump": _("no trumps"),
    "alltrump": _("all trumps"),
}
BID_CHIPS = tuple(range(80, 170, 10))  # higher bids are typed
MULTIPLIERS = [(1, "×1"), (2, _("×2 contra")), (4, _("×4 re-contra"))]
# Coinche's bids beyond the numbers, and its words for ×2 and ×4 (the sheet shows them too).
BID_WORDS = {"capot": _("capot"), "generale": _("générale")}
COINCHE_MULTIPLIERS = {2: _("coinché"), 4: _("surcoinché")}
TOUT_ATOUT_BELOTES = 4  # one a suit


@dataclass(frozen=True)
class Chip:
    code: str
    label: str
    title: str
    most: int = 4


@dataclass(frozen=True)
class Pad:
    """What a game's deal pad asks, in the order the table announces it."""

    maker_label: str
    capot_word: str
    maker_missing: str  # the error when no team is tapped
    chips: tuple[Chip, ...] = ()
    suits: tuple[str, ...] = ()  # the contract's suits to tap; none: no contract asked
    bids: bool = False
    doubling: bool = False
    belotes: int = 0  # at most this many belotes a team; 0: no belote chip
    contest: str | None = None  # "melds" (option), "declarations", "sequences" or "announcements"
    solo_capot: bool = False
    # Coinche: the bids are taps up to the match's highest bid, capot and générale (with the seat of the
    # player who took every trick alone), none typed; sans-atout and tout-atout only with its option sa_ta;
    # the announcements follow its options (none in contrée, the fours by rank with sans-atout).
    bid_words: bool = False
    option_suits: tuple[str, ...] = ()


MPOURLOTO_CHIPS = (
    Chip("seq3", "+20", _("sequence of 3")),
    Chip("seq4", "+50", _("sequence of 4")),
    Chip("seq5", _("+100 seq"), _("sequence of 5 or more")),
    Chip("four", _("+100 four"), _("four of a kind")),
    Chip("mpourloto", _("K+Q"), _("mpourloto: K+Q of trumps (20)"), most=1),
)
DECLARATION_CHIPS = (
    Chip("seq3", "+20", _("tierce: sequence of 3")),
    Chip("seq4", "+50", _("quarte: sequence of 4")),
    Chip("seq5", _("+100 seq"), _("quint: sequence of 5 or more")),
    Chip("four", "+100 4×", _("four A, K, Q or 10")),
    Chip("four9", "+150 4×9", _("four 9s"), most=1),
    Chip("fourJ", _("+200 4×J"), _("four Jacks"), most=1),
)
# Coinche with sans-atout (its option sa_ta): a four's rank decides its value there (four Aces 200, four
# 10s 150, the others 100), so each rank has its chip; the labels leave the points out.
NAMED_FOUR_CHIPS = (
    *DECLARATION_CHIPS[:3],
    Chip("fourA", _("4×A"), _("four Aces"), most=1),
    Chip("four10", "4×10", _("four 10s"), most=1),
    Chip("fourK", _("4×K"), _("four Kings"), most=1),
    Chip("fourQ", _("4×Q"), _("four Queens"), most=1),
    Chip("four9", "4×9", _("four 9s"), most=1),
    Chip("fourJ", _("4×J"), _("four Jacks"), most=1),
)
SUITS = ("clubs", "diamonds", "hearts", "spades")
PADS = {
    "mpourloto": Pad(
        _("Trumps"), _("capo"), _("Tap the team that made trumps."), MPOURLOTO_CHIPS, contest="melds"
    ),
    "pilotta": Pad(
        _("Declarers"),
        _("capot"),
        _("Tap the declarers team."),
        DECLARATION_CHIPS,
        SUITS,
        bids=True,
        doubling=True,
        belotes=1,
        contest="declarations",
    ),
    "bulgarian": Pad(
        _("Contract"),
        _("valat"),
        _("Tap the contract team."),
        DECLARATION_CHIPS,
        (*SUITS, "notrump", "alltrump"),
        doubling=True,
        belotes=4,
        contest="sequences",
    ),
    "french": Pad(_("Taker"), _("capot"), _("Tap the taker team."), DECLARATION_CHIPS, belotes=1),
    "classic": Pad(_("Taker"), _("capot"), _("Tap the taker team."), belotes=1, solo_capot=True),
    "coinche": Pad(
        _("Taker"),
        _("capot"),
        _("Tap the taker team."),
        DECLARATION_CHIPS,
        SUITS,
        bids=True,
        doubling=True,
        belotes=1,
        contest="announcements",
        bid_words=True,
        option_suits=("notrump", "alltrump"),
    ),
}


def pad_chips(ruleset: str, opts: Any) -> tuple[Chip, ...]:
    """The meld chips of a game's pad under a match's options (``opts``: the rule set's options)."""
    pad = PADS[ruleset]
    if pad.contest != "announcements":
        return pad.chips
    if not opts.annonces:
        return ()  # contrée: only the belote
    if opts.sa_ta and opts.sa_carres == "ffb":
        return NAMED_FOUR_CHIPS
    return pad.chips


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


def _team_pick() -> forms.ModelChoiceField:
    """An existing team, picked: its name and its two players. Any team the person may see is
    accepted (the search offers them); the page lists only this tablet's recent ones."""
    return forms.ModelChoiceField(
        queryset=Team.objects.none(),
        required=False,
        label=_("Earlier team"),
        empty_label=_("(a new team)"),
        error_messages={
            "invalid_choice": _("That team cannot be picked here: pick another or type a new team.")
        },
    )


def _player_pick() -> forms.ModelChoiceField:
    """An existing player, picked by the search (a hidden id beside the typed name)."""
    return forms.ModelChoiceField(
        queryset=Player.objects.none(),
        required=False,
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("That player cannot be picked here: type the name again.")},
    )


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


COINCHE_TARGETS = (1000, 1500, 2000, 2001)
# The new-match form's Coinche fields and the options they set (``coinche_contree`` sets annonces off).
COINCHE_FIELDS = {
    "coinche_target": "target",
    "coinche_litige": "litige",
    "coinche_base": "base",
    "coinche_made_scoring": "made_scoring",
    "coinche_surcoinche": "surcoinche_multiplier",
    "coinche_max_bid": "max_bid",
    "coinche_sa_ta": "sa_ta",
}


class MatchForm(forms.Form):
    """Start a match: two teams, four players in their seats, the first dealer, the options.

    Each team is an earlier team picked (``team0_pick``) or a name and two players; each player is
    one picked by the search (``team0_player_a_id``, set beside the name) or a typed name, which makes
    a new player: a typed name never becomes someone who exists."""

    team0_pick = _team_pick()
    team0_name = forms.CharField(max_length=80, required=False, label=_("Team 1"))
    team0_player_a = forms.CharField(max_length=80, required=False, label=_("Seat 1"))
    team0_player_a_id = _player_pick()
    team0_player_b = forms.CharField(max_length=80, required=False, label=_("Seat 3"))
    team0_player_b_id = _player_pick()
    team1_pick = _team_pick()
    team1_name = forms.CharField(max_length=80, required=False, label=_("Team 2"))
    team1_player_a = forms.CharField(max_length=80, required=False, label=_("Seat 2"))
    team1_player_a_id = _player_pick()
    team1_player_b = forms.CharField(max_length=80, required=False, label=_("Seat 4"))
    team1_player_b_id = _player_pick()
    first_dealer = forms.TypedChoiceField(
        coerce=int,
        choices=[(0, _("Seat 1")), (1, _("Seat 2")), (2, _("Seat 3")), (3, _("Seat 4"))],
        initial=0,
        widget=forms.RadioSelect,
        label=_("First dealer"),
    )
    ruleset = forms.ChoiceField(
        choices=[(key, _(GAME_NAMES.get(key, rules.name))) for key, rules in engine.RULESETS.items()],
        initial="mpourloto",
        widget=forms.RadioSelect,
        label=_("Game"),
        required=False,
    )
    target = forms.IntegerField(
        min_value=1,
        max_value=100_000,
        required=False,
        label=_("Play to"),
        help_text=_("Blank: the game's usual target."),
    )
    ties_hang = forms.BooleanField(required=False, label=_("Ties hang (kremamena)"))
    best_melds_only = forms.BooleanField(required=False, label=_("Only the best melds count"))
    capo_100 = forms.BooleanField(required=False, label=_("Capo is worth 100"))
    partner_relief = forms.BooleanField(required=False, label=_("No need to beat a partner's winning card"))
    capot_bonus = forms.TypedChoiceField(
        coerce=int, choices=[(90, "90"), (100, "100")], initial=90, required=False, label=_("Capot bonus")
    )
    kirtik = forms.BooleanField(required=False, label=_("Kirtik: −10 for going inside or suffering a valat"))
    litige = forms.BooleanField(
        required=False, label=_("Litige: a tie is not dedans, the taker's points are held")
    )
    # Coinche: the rules a club sets most (every other one: a preset), named apart from the other games'
    # options (its litige is not French Belote's).
    coinche_target = forms.TypedChoiceField(
        coerce=int,
        choices=[(t, str(t)) for t in COINCHE_TARGETS],
        initial=COINCHE_TARGETS[0],
        widget=forms.RadioSelect,
        required=False,
        label=_("Play to"),
    )
    coinche_litige = forms.ChoiceField(
        choices=[
            ("failed", pgettext_lazy("deal result", "failed")),
            ("made", pgettext_lazy("deal result", "made")),
            ("held", _("held for the next winner")),
        ],
        initial="failed",
        required=False,
        label=_("Equal totals (litige)"),
    )
    coinche_base = forms.TypedChoiceField(
        coerce=int,
        choices=[(160, "160"), (162, "162")],
        initial=160,
        required=False,
        label=_("A failed contract: the defence writes the bid +"),
    )
    coinche_made_scoring = forms.ChoiceField(
        choices=[("points_plus_bid", _("its points + the bid")), ("bid_only", _("the bid alone"))],
        initial="points_plus_bid",
        required=False,
        label=_("A made contract writes"),
    )
    coinche_surcoinche = forms.TypedChoiceField(
        coerce=int, choices=[(4, "×4"), (3, "×3")], initial=4, required=False, label=_("Surcoinché")
    )
    coinche_max_bid = forms.TypedChoiceField(
        coerce=int, choices=[(160, "160"), (180, "180")], initial=160, required=False, label=_("Highest bid")
    )
    coinche_sa_ta = forms.BooleanField(required=False, label=_("Sans-atout and tout-atout may be bid"))
    coinche_contree = forms.BooleanField(
        required=False, label=_("Contrée: no announcements, only the belote")
    )

    def __init__(
        self, *args: Any, user: Any = None, recent_teams: Sequence[Team] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        # What may be picked: whoever this person may see (a private tournament's people are not).
        teams = selectors.visible_teams(user).select_related("player_a", "player_b")
        players = selectors.visible_players(user)
        for t in (0, 1):
            self.fields[f"team{t}_pick"].queryset = teams
            self.fields[f"team{t}_player_a_id"].queryset = players
            self.fields[f"team{t}_player_b_id"].queryset = players
        self.recent_teams = list(recent_teams)
        # A preset select per game (``preset_coinche``): only the chosen game's counts.
        named: dict[str, list[tuple[str, str]]] = {key: [] for key in engine.RULESETS}
        for preset in presets.preset_list():
            named[preset.ruleset].append((preset.name, preset.name))
        for key, choices in named.items():
            self.fields[f"preset_{key}"] = forms.ChoiceField(
                choices=[("", _("None: the options below")), *choices], required=False, label=_("Preset")
            )

    @property
    def preset_fields(self) -> list[tuple[str, Any]]:
        """Each game's preset select, with its game's key."""
        return [(key, self[f"preset_{key}"]) for key in engine.RULESETS]

    def preset(self) -> str:
        """The preset chosen for the chosen game ("" for none)."""
        return self.cleaned_data.get(f"preset_{self.cleaned_data['ruleset']}") or ""

    def pick_choices(self, t: int) -> list[tuple[Team, bool]]:
        """The earlier teams offered for team ``t``, each with whether it is the one chosen: this
        tablet's recent ones, and the one picked by the search if it is not among them."""
        chosen = str(self[f"team{t}_pick"].value() or "")
        teams = list(self.recent_teams)
        picked = getattr(self, "cleaned_data", {}).get(f"team{t}_pick")
        if picked is not None and picked.pk not in {team.pk for team in teams}:
            teams.insert(0, picked)
        return [(team, str(team.pk) == chosen) for team in teams]

    @property
    def pick_options(self) -> list[list[tuple[Team, bool]]]:
        return [self.pick_choices(0), self.pick_choices(1)]

    @property
    def seat_fields(self) -> list[list[tuple[Any, Any, int]]]:
        """Per team, its two players' (name field, picked id field, seat), for the template."""
        return [
            [
                (self[f"team{t}_{part}"], self[f"team{t}_{part}_id"], seat)
                for part, seat in (("player_a", t), ("player_b", t + 2))
            ]
            for t in (0, 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["ruleset"] = data.get("ruleset") or "mpourloto"
        for t in (0, 1):
            if data.get(f"team{t}_pick") is not None or f"team{t}_pick" in self.errors:
                continue  # a picked team is its name and its two players
            if not (data.get(f"team{t}_name") or "").strip() and f"team{t}_name" not in self.errors:
                self.add_error(f"team{t}_name", str(_("Type a team name, or pick an earlier team.")))
            for part in ("player_a", "player_b"):
                field = f"team{t}_{part}"
                if f"{field}_id" in self.errors or field in self.errors:
                    continue
                if data.get(f"{field}_id") is None and not (data.get(field) or "").strip():
                    self.add_error(field, str(_("Type a player, or pick an earlier team.")))
        return data

    def _player(self, field: str) -> Player | str:
        """The picked player, unless the name beside the pick was changed since: what is typed is
        what counts (a new player of that name)."""
        picked, typed = self.cleaned_data.get(f"{field}_id"), self.cleaned_data.get(field) or ""
        if picked is not None and (not typed.strip() or _same_name(typed, picked.name)):
            return picked
        return typed

    def teams(self) -> list[tuple[str, tuple[Player | str, Player | str]]]:
        """The two teams as ``services.match_create`` takes them."""
        d = self.cleaned_data
        teams = []
        for t in (0, 1):
            picked = d.get(f"team{t}_pick")
            if picked is not None:
                teams.append((picked.name, (picked.player_a, picked.player_b)))
            else:
                players = (self._player(f"team{t}_player_a"), self._player(f"team{t}_player_b"))
                teams.append((d[f"team{t}_name"], players))
        return teams

    def options(self) -> dict[str, Any]:
        """The chosen game's options only; a blank target is the game's own. Under a preset, only the
        options changed from the game's usual ones, and a target typed (they go over the preset's)."""
        rules = engine.RULESETS[self.cleaned_data["ruleset"]]
        usual = dataclasses.asdict(rules.options()) if self.preset() else {}
        if self.cleaned_data.get("target"):
            usual.pop("target", None)  # a target typed always counts, even the game's usual one
        given = self.coinche_options() if self.cleaned_data["ruleset"] == "coinche" else self.cleaned_data
        options = {}
        for field in dataclasses.fields(rules.Options):
            value = given.get(field.name)
            if value is not None and value != "" and not (field.name in usual and value == usual[field.name]):
                options[field.name] = value
        return options

    def coinche_options(self) -> dict[str, Any]:
        """Coinche's options from its own fields (as ``options`` reads the other games' from theirs); a
        target typed in "Play to" wins over the one tapped."""
        d = self.cleaned_data
        options = {option: d.get(name) for name, option in COINCHE_FIELDS.items()}
        options["annonces"] = not d.get("coinche_contree")
        if d.get("target"):
            options["target"] = d["target"]
        return options

    @staticmethod
    def initial_options(ruleset: str, options: dict[str, Any]) -> dict[str, Any]:
        """The form's option fields filled in as a match's ``options`` were ("play again")."""
        initial: dict[str, Any] = {}
        if ruleset == "coinche":
            initial.update({name: options[o] for name, o in COINCHE_FIELDS.items() if o in options})
            initial["coinche_contree"] = not options.get("annonces", True)
            if options.get("target") not in COINCHE_TARGETS:
                initial.pop("coinche_target", None)
                initial["target"] = options.get("target")
            return initial
        usual = engine.RULESETS[ruleset].options().target
        for name, value in options.items():
            if name in MatchForm.base_fields and not (name == "target" and value == usual):
                initial[name] = value
        return initial


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
        data = self.data.copy()
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

    def suit_choices(self) -> list[tuple[str, str, str, int]]:
        """(value, symbol, name, deck total) of each suit the pad offers."""
        return [(s, SUIT_LABELS[s], SUIT_NAMES[s], self.deck(s)) for s in self.suits]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
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
