"""Start a match: two teams picked or typed, four players in their seats, the first dealer, the
options (``MatchForm``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from players.models import Player, Team

from .. import engine, presets, selectors
from ..messages import GAME_NAMES


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
            for name, queryset in (
                (f"team{t}_pick", teams),
                (f"team{t}_player_a_id", players),
                (f"team{t}_player_b_id", players),
            ):
                field = self.fields[name]
                assert isinstance(field, forms.ModelChoiceField)  # _team_pick()'s and _player_pick()'s
                field.queryset = queryset
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
        assert data is not None  # Form.clean returns cleaned_data
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
