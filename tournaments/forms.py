"""Forms of the tournament pages: they collect; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms

from scoring import engine

from . import standings
from .models import Tournament


def _metric_choices() -> list[tuple[str, str]]:
    return [(key, metric.name) for key, metric in standings.METRICS.items()]


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120)
    ruleset = forms.ChoiceField(choices=[(k, r.name) for k, r in engine.RULESETS.items()], label="Game")
    target = forms.IntegerField(
        min_value=1, required=False, label="Play to", help_text="Blank: the game's usual"
    )
    format = forms.ChoiceField(choices=Tournament.Format.choices, widget=forms.RadioSelect, initial="swiss")
    swiss_rounds = forms.IntegerField(min_value=1, max_value=30, initial=5, label="Swiss rounds")
    knockout_size = forms.IntegerField(
        min_value=0, max_value=256, initial=0, label="Knockout: top N (0: none)"
    )
    deals_per_match = forms.IntegerField(
        min_value=0,
        max_value=100,
        initial=0,
        label="Deals per match",
        help_text="0: each match to the target",
    )
    points_win = forms.IntegerField(min_value=0, max_value=10, initial=2)
    points_draw = forms.IntegerField(min_value=0, max_value=10, initial=1)
    points_loss = forms.IntegerField(min_value=0, max_value=10, initial=0)
    points_bye = forms.IntegerField(min_value=0, max_value=10, initial=2)
    tiebreak_1 = forms.ChoiceField(choices=_metric_choices, initial="match_points", label="Rank by")
    tiebreak_2 = forms.ChoiceField(choices=[("", "—"), *_metric_choices()], required=False, label="then")
    tiebreak_3 = forms.ChoiceField(choices=[("", "—"), *_metric_choices()], required=False, label="then")
    tiebreak_4 = forms.ChoiceField(choices=[("", "—"), *_metric_choices()], required=False, label="then")
    cuts = forms.CharField(required=False, label="Play off ties at places", help_text="e.g. 3, 8")
    playoff_deals = forms.IntegerField(min_value=1, max_value=12, initial=2, label="Deals in a play-off")
    confirmation = forms.BooleanField(
        required=False, label="The other team confirms each result on the tablet before it counts"
    )
    public = forms.BooleanField(required=False, initial=True)
    signup_open = forms.BooleanField(required=False, label="Open a public sign-up")
    starts_on = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            order = [*standings.DEFAULT_ORDER, "", "", "", ""]
            for i in range(4):
                self.initial.setdefault(f"tiebreak_{i + 1}", order[i])

    def clean_cuts(self) -> list[int]:
        raw = self.cleaned_data["cuts"].replace(";", ",")
        try:
            return [int(part) for part in raw.split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError("Places are whole numbers separated by commas, e.g. 3, 8.") from None

    def settings(self) -> dict[str, Any]:
        d = self.cleaned_data
        options = {"target": d["target"]} if d.get("target") else {}
        tiebreaks = [d[f"tiebreak_{i}"] for i in range(1, 5) if d.get(f"tiebreak_{i}")]
        keys = (
            "ruleset",
            "format",
            "swiss_rounds",
            "knockout_size",
            "deals_per_match",
            "points_win",
            "points_draw",
            "points_loss",
            "points_bye",
            "cuts",
            "playoff_deals",
            "public",
            "signup_open",
            "starts_on",
            "confirmation",
        )
        return {**{k: d[k] for k in keys}, "options": options, "tiebreaks": tiebreaks}


class EntryForm(forms.Form):
    name = forms.CharField(max_length=80, label="Team")
    player_a = forms.CharField(max_length=80, label="Player")
    player_b = forms.CharField(max_length=80, label="Partner")
    contact = forms.CharField(max_length=200, required=False, label="Phone or e-mail (for the organizer)")


class SwapForm(forms.Form):
    first = forms.CharField(help_text="table and side, e.g. 3A")
    second = forms.CharField()

    def _spot(self, value: str) -> tuple[int, int]:
        value = value.strip().upper()
        if len(value) < 2 or value[-1] not in "AB" or not value[:-1].isdigit():
            raise forms.ValidationError("Write a table number and A or B, e.g. 3A.")
        return int(value[:-1]), "AB".index(value[-1])

    def clean_first(self) -> tuple[int, int]:
        return self._spot(self.cleaned_data["first"])

    def clean_second(self) -> tuple[int, int]:
        return self._spot(self.cleaned_data["second"])
