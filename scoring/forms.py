"""Forms of the tablet pages. They turn taps into a deal; the rules are the engine's."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms

from players.models import Team

from . import engine

TEAM_CHOICES = [(0, "Team 1"), (1, "Team 2")]
LAST_TRICK_CHOICES = [("0", "Team 1"), ("1", "Team 2"), ("capo0", "Team 1 capo"), ("capo1", "Team 2 capo")]

# The meld chips of the Mpourloto pad, in the order they are shown.
MPOURLOTO_CHIPS = [
    ("seq3", "+20", "sequence of 3"),
    ("seq4", "+50", "sequence of 4"),
    ("seq5", "+100 seq", "sequence of 5 or more"),
    ("four", "+100 four", "four of a kind"),
    ("mpourloto", "K+Q", "mpourloto: K+Q of trumps (20)"),
]


def _meld_field(code: str) -> forms.IntegerField:
    limit = 1 if code == "mpourloto" else 4
    return forms.IntegerField(
        min_value=0,
        max_value=limit,
        initial=0,
        required=False,
        error_messages={"max_value": f"at most {limit}", "min_value": "not below 0"},
    )


class MatchForm(forms.Form):
    """Start a match: two teams, four players in their seats, the first dealer, the options."""

    team0_pick = forms.ModelChoiceField(
        queryset=Team.objects.none(), required=False, label="Earlier team", empty_label="(a new team)"
    )
    team0_name = forms.CharField(max_length=80, required=False, label="Team 1")
    team0_player_a = forms.CharField(max_length=80, required=False, label="Seat 1")
    team0_player_b = forms.CharField(max_length=80, required=False, label="Seat 3")
    team1_pick = forms.ModelChoiceField(
        queryset=Team.objects.none(), required=False, label="Earlier team", empty_label="(a new team)"
    )
    team1_name = forms.CharField(max_length=80, required=False, label="Team 2")
    team1_player_a = forms.CharField(max_length=80, required=False, label="Seat 2")
    team1_player_b = forms.CharField(max_length=80, required=False, label="Seat 4")
    first_dealer = forms.TypedChoiceField(
        coerce=int,
        choices=[(0, "Seat 1"), (1, "Seat 2"), (2, "Seat 3"), (3, "Seat 4")],
        initial=0,
        widget=forms.RadioSelect,
        label="First dealer",
    )
    target = forms.IntegerField(min_value=1, max_value=100_000, initial=1000, label="Play to")
    ties_hang = forms.BooleanField(required=False, label="Ties hang (kremamena)")
    best_melds_only = forms.BooleanField(required=False, label="Only the best melds count")
    capo_100 = forms.BooleanField(required=False, label="Capo is worth 100")
    partner_relief = forms.BooleanField(required=False, label="No need to beat a partner's winning card")

    OPTION_FIELDS = ("target", "ties_hang", "best_melds_only", "capo_100", "partner_relief")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        teams = Team.objects.select_related("player_a", "player_b").order_by("name")
        self.fields["team0_pick"].queryset = teams
        self.fields["team1_pick"].queryset = teams
        for name in ("team0_pick", "team1_pick"):
            self.fields[name].label_from_instance = lambda t: f"{t.name} ({t.player_a} & {t.player_b})"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for t in (0, 1):
            picked = data.get(f"team{t}_pick")
            if picked is not None:
                data.setdefault(f"team{t}_name", "")
                data[f"team{t}_name"] = data.get(f"team{t}_name") or picked.name
                data[f"team{t}_player_a"] = data.get(f"team{t}_player_a") or picked.player_a.name
                data[f"team{t}_player_b"] = data.get(f"team{t}_player_b") or picked.player_b.name
            for part, what in (("name", "a team name"), ("player_a", "a player"), ("player_b", "a player")):
                if not (data.get(f"team{t}_{part}") or "").strip() and f"team{t}_{part}" not in self.errors:
                    self.add_error(f"team{t}_{part}", f"Type {what}, or pick an earlier team.")
        return data

    def teams(self) -> list[tuple[str, tuple[str, str]]]:
        d = self.cleaned_data
        return [(d[f"team{t}_name"], (d[f"team{t}_player_a"], d[f"team{t}_player_b"])) for t in (0, 1)]

    def options(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.OPTION_FIELDS}


class DealForm(forms.Form):
    """A Mpourloto deal as the table tells it: taps and one number."""

    client_key = forms.UUIDField(widget=forms.HiddenInput)
    thrown_in = forms.BooleanField(required=False, widget=forms.HiddenInput)
    maker = forms.TypedChoiceField(
        coerce=int, choices=TEAM_CHOICES, widget=forms.RadioSelect, label="Trumps", required=False,
        empty_value=None,
    )  # fmt: skip
    points_team = forms.TypedChoiceField(
        coerce=int, choices=TEAM_CHOICES, widget=forms.RadioSelect, initial=0, required=False,
        label="Card points of",
    )  # fmt: skip
    card_points = forms.IntegerField(
        min_value=0, max_value=152, required=False, label="Card points",
        error_messages={
            "min_value": "Card points are between 0 and 152.",
            "max_value": "Card points are between 0 and 152: one deal has 152 in the cards.",
        },
    )  # fmt: skip
    last_trick = forms.ChoiceField(
        choices=LAST_TRICK_CHOICES, widget=forms.RadioSelect, label="Last trick", required=False
    )
    declarations_winner = forms.TypedChoiceField(
        coerce=int, choices=TEAM_CHOICES, widget=forms.RadioSelect, required=False, empty_value=None,
        label="Equal best melds: whose count",
    )  # fmt: skip

    CHIPS = MPOURLOTO_CHIPS

    def __init__(self, *args: Any, options: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match_options = options or {}
        for team in (0, 1):
            for code, _, _ in self.CHIPS:
                self.fields[f"melds{team}_{code}"] = _meld_field(code)
        if not self.is_bound and not self.initial.get("client_key"):
            self.initial["client_key"] = uuid.uuid4()

    @classmethod
    def initial_from(cls, deal: engine.Deal, client_key: uuid.UUID | None = None) -> dict[str, Any]:
        """Form values showing a recorded deal, for its correction."""
        initial: dict[str, Any] = {"client_key": client_key or uuid.uuid4()}
        if deal.thrown_in:
            return initial
        initial.update(maker=deal.maker, points_team=deal.maker, card_points=deal.card_points[deal.maker])
        initial["last_trick"] = f"capo{deal.capot}" if deal.capot is not None else str(deal.last_trick)
        if deal.declarations_winner in (0, 1):
            initial["declarations_winner"] = deal.declarations_winner
        chips = {code for code, _, _ in cls.CHIPS}
        for team, melds in enumerate(deal.melds):
            for code in melds:
                key = f"melds{team}_{code if code in chips else 'four'}"  # fourJ, four9…: one chip
                initial[key] = initial.get(key, 0) + 1
        return initial

    def meld_rows(self) -> list[tuple[int, list[tuple[Any, str, str]]]]:
        """Per team, the bound meld fields with their chip labels, for the template."""
        return [
            (t, [(self[f"melds{t}_{code}"], label, title) for code, label, title in self.CHIPS])
            for t in (0, 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("thrown_in"):
            data["deal"] = {"thrown_in": True}
            return data
        if data.get("maker") is None and "maker" not in self.errors:
            self.add_error("maker", "Tap the team that made trumps.")
        if not data.get("last_trick") and "last_trick" not in self.errors:
            self.add_error("last_trick", "Tap the team that won the last trick (or took capo).")
        if self.errors:
            return data
        last = data["last_trick"]
        capot = int(last[-1]) if last.startswith("capo") else None
        typed, team = data.get("card_points"), data.get("points_team") or 0
        if capot is not None:
            cards = [0, 0]
            cards[capot] = 152
            if typed is not None and typed != cards[team]:
                self.add_error(
                    "card_points",
                    f"With capo, team {capot + 1} has all 152 card points and the other team none; "
                    "clear the number or change the last trick.",
                )
        elif typed is None:
            self.add_error("card_points", "Type one team's card points.")
            return data
        else:
            cards = [152 - typed, 152 - typed]
            cards[team] = typed
        melds = [
            [code for code, _, _ in self.CHIPS for _ in range(data.get(f"melds{t}_{code}") or 0)]
            for t in (0, 1)
        ]
        deal: dict[str, Any] = {"maker": data["maker"], "card_points": cards, "melds": melds}
        if capot is not None:
            deal["capot"] = capot
        else:
            deal["last_trick"] = int(last)
        if data.get("declarations_winner") is not None:
            deal["declarations_winner"] = data["declarations_winner"]
        data["deal"] = deal
        return data

    def add_scoring_error(self, error: engine.ScoringError) -> None:
        """Show the engine's refusal next to the field it concerns."""
        field = (error.field or "").split("[")[0].split(".")[0]
        target = {
            "card_points": "card_points",
            "last_trick": "last_trick",
            "maker": "maker",
            "declarations_winner": "declarations_winner",
        }.get(field)
        self.add_error(target, error.message[:1].upper() + error.message[1:] + ".")
