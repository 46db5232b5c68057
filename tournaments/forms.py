"""Forms of the tournament pages: they collect; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from players import club_services as clubs
from players.models import Club
from scoring import engine, presets
from scoring.messages import GAME_NAMES, game_name

from . import standings
from .models import Tournament
from .services import TournamentError, embed


def _metric_choices() -> list[tuple[str, StrOrPromise]]:
    # The metrics' names are marked for translation in tournaments/messages.py.
    return [(key, _(metric.name)) for key, metric in standings.METRICS.items()]


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120, label=_("Name"))
    ruleset = forms.ChoiceField(
        choices=[(k, _(GAME_NAMES.get(k, r.name))) for k, r in engine.RULESETS.items()], label=_("Game")
    )
    preset = forms.ChoiceField(
        choices=[],
        required=False,
        label=_("Preset"),
        help_text=_(
            "A named set of rules: it sets the game and its options (a target typed goes over its own)"
        ),
    )
    target = forms.IntegerField(
        min_value=1, required=False, label=_("Play to"), help_text=_("Blank: the game's usual")
    )
    format = forms.ChoiceField(
        choices=[(value, _(name)) for value, name in Tournament.Format.choices],
        widget=forms.RadioSelect,
        initial="swiss",
        label=_("Format"),
    )
    swiss_rounds = forms.IntegerField(
        min_value=1, max_value=30, initial=5, label=_("Rounds"), help_text=_("Swiss, concours or individual")
    )
    time_limit = forms.IntegerField(
        min_value=0,
        max_value=600,
        initial=0,
        required=False,
        label=_("Minutes a round"),
        help_text=_("0: no time limit"),
    )
    seed = forms.IntegerField(
        min_value=1,
        max_value=999_999,
        required=False,
        label=_("Draw number"),
        help_text=_("Blank: drawn at random; the same number draws the same first round"),
    )
    knockout_size = forms.IntegerField(
        min_value=0, max_value=256, initial=0, label=_("Knockout: top N (0: none)")
    )
    pool_size = forms.IntegerField(
        min_value=3,
        max_value=8,
        initial=4,
        required=False,
        label=_("Teams a pool"),
        help_text=_("Pools: 3 to 8"),
    )
    consolation = forms.BooleanField(
        required=False, label=_("A consolation bracket"), help_text=_("For the teams that miss the knockout")
    )
    third_place = forms.BooleanField(
        required=False, label=_("A match for third place"), help_text=_("A knockout of 4 or more")
    )
    deals_per_match = forms.IntegerField(
        min_value=0,
        max_value=100,
        initial=0,
        label=_("Deals per match"),
        help_text=_("0: each match to the target"),
    )
    points_win = forms.IntegerField(min_value=0, max_value=10, initial=2, label=_("Points win"))
    points_draw = forms.IntegerField(min_value=0, max_value=10, initial=1, label=_("Points draw"))
    points_loss = forms.IntegerField(min_value=0, max_value=10, initial=0, label=_("Points loss"))
    points_bye = forms.IntegerField(min_value=0, max_value=10, initial=2, label=_("Points bye"))
    bye_game_points = forms.IntegerField(
        min_value=0, max_value=100_000, initial=0, required=False, label=_("Game points for a bye")
    )
    tiebreak_1 = forms.ChoiceField(
        choices=lambda: [("", _("The format's usual")), *_metric_choices()],
        required=False,
        label=_("Rank by"),
        help_text=_(
            "Usual: match points, head-to-head, difference, points; a concours or an individual event: "
            "cumulative points, wins, difference"
        ),
    )
    tiebreak_2 = forms.ChoiceField(choices=[("", "—"), *_metric_choices()], required=False, label=_("then"))
    tiebreak_3 = forms.ChoiceField(choices=[("", "—"), *_metric_choices()], required=False, label=_("then"))
    tiebreak_4 = forms.ChoiceField(choices=[("", "—"), *_metric_choices()], required=False, label=_("then"))
    cuts = forms.CharField(required=False, label=_("Play off ties at places"), help_text=_("e.g. 3, 8"))
    playoff_deals = forms.IntegerField(min_value=1, max_value=12, initial=2, label=_("Deals in a play-off"))
    confirmation = forms.BooleanField(
        required=False, label=_("The other team confirms each result on the tablet before it counts")
    )
    deal_check = forms.BooleanField(
        required=False, label=_("The other team checks each deal on the tablet (one tap OK)")
    )
    public = forms.BooleanField(required=False, initial=True, label=_("Public"))
    rated = forms.BooleanField(
        required=False, initial=True, label=_("Rated: its matches count in the players' ratings")
    )
    seed_by_rating = forms.BooleanField(
        required=False,
        label=_("Seed round 1 by rating"),
        help_text=_("Swiss or concours: the best-rated teams against the middle of the field, not drawn"),
    )
    club = forms.ModelChoiceField(
        queryset=Club.objects.none(),
        required=False,
        label=_("Club"),
        empty_label=_("No club"),
        help_text=_("Listed on the club's page"),
        to_field_name="slug",
        error_messages={"invalid_choice": _("Choose one of the clubs you run.")},
    )
    signup_open = forms.BooleanField(required=False, label=_("Open a public sign-up"))
    starts_on = forms.DateField(
        required=False, widget=forms.DateInput(attrs={"type": "date"}), label=_("Starts on")
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A tournament belongs to a club its organizer runs (a superuser: any); the page shows the choice
        # only to those who run one, and any other club posted is refused.
        club, preset = self.fields["club"], self.fields["preset"]
        assert isinstance(club, forms.ModelChoiceField)  # as declared above
        assert isinstance(preset, forms.ChoiceField)
        club.queryset = clubs.administered(user)
        self.club_choices = club.queryset.exists()
        preset.choices = preset_choices()
        if not self.is_bound:
            for i in range(4):
                self.initial.setdefault(f"tiebreak_{i + 1}", "")

    def clean_cuts(self) -> list[int]:
        raw = self.cleaned_data["cuts"].replace(";", ",")
        try:
            return [int(part) for part in raw.split(",") if part.strip()]
        except ValueError:
            raise forms.ValidationError(
                _("Places are whole numbers separated by commas, e.g. 3, 8.")
            ) from None

    def settings(self) -> dict[str, Any]:
        d = self.cleaned_data
        options = {"target": d["target"]} if d.get("target") else {}
        tiebreaks = [d[f"tiebreak_{i}"] for i in range(1, 5) if d.get(f"tiebreak_{i}")]
        if not d.get("tiebreak_1"):
            tiebreaks = []  # the format's usual order (services.setup.default_order)
        if d["format"] == Tournament.Format.INDIVIDUAL and tuple(tiebreaks) == standings.DEFAULT_ORDER:
            tiebreaks = []  # the form's order left as it came: an individual event's own (on points)
        keys = (
            "ruleset",
            "format",
            "swiss_rounds",
            "time_limit",
            "knockout_size",
            "third_place",
            "consolation",
            "pool_size",
            "deals_per_match",
            "points_win",
            "points_draw",
            "points_loss",
            "points_bye",
            "bye_game_points",
            "cuts",
            "playoff_deals",
            "public",
            "signup_open",
            "starts_on",
            "confirmation",
            "deal_check",
            "rated",
            "seed_by_rating",
        )
        seed = {"seed": d["seed"]} if d.get("seed") else {}
        d = {
            **d,
            "time_limit": d.get("time_limit") or 0,
            "bye_game_points": d.get("bye_game_points") or 0,
            "pool_size": d.get("pool_size") or 4,
        }
        club = {"club": d["club"]} if d.get("club") else {}
        values = {**{k: d[k] for k in keys}, **seed, **club, "options": options, "tiebreaks": tiebreaks}
        if d.get("preset"):  # the preset sets the game
            values.update(preset=d["preset"], ruleset=None)
        return values


def preset_choices() -> list:
    """The presets by game (a group each), after "none": the game and the options chosen here."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for preset in presets.preset_list():
        groups.setdefault(preset.ruleset, []).append((preset.name, preset.name))
    return [("", _("None: the game and its usual rules")), *((game_name(k), groups[k]) for k in groups)]


class EntryForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Team"))
    player_a = forms.CharField(max_length=80, label=_("Player"))
    player_b = forms.CharField(max_length=80, label=_("Partner"))
    contact = forms.CharField(max_length=200, required=False, label=_("Phone or e-mail (for the organizer)"))

    def players(self) -> list[str]:
        return [self.cleaned_data["player_a"], self.cleaned_data["player_b"]]


class PlayerEntryForm(forms.Form):
    """An individual event's entry: one player."""

    name = forms.CharField(max_length=80, label=_("Player"))
    contact = forms.CharField(max_length=200, required=False, label=_("Phone or e-mail (for the organizer)"))

    def players(self) -> list[str]:
        return [self.cleaned_data["name"]]


class PickedEntryForm(EntryForm):
    """The organizer's team form: a player may be an existing record, picked from the suggestions
    (its id in a hidden field, ``player_ids()``); a name typed and not picked is a new record."""

    player_a_id = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    player_b_id = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def player_ids(self) -> list[int | None] | None:
        """The records picked (an id or None beside each name), None if none was: as
        ``services.entry_register(player_ids=...)`` takes them."""
        ids = [self.cleaned_data.get("player_a_id"), self.cleaned_data.get("player_b_id")]
        return ids if any(ids) else None


class PickedPlayerEntryForm(PlayerEntryForm):
    """The organizer's form of an individual event: the player may be an existing record, picked."""

    player_id = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def player_ids(self) -> list[int | None] | None:
        return [self.cleaned_data["player_id"]] if self.cleaned_data.get("player_id") else None


def entry_form(tournament: Tournament) -> type[PickedEntryForm] | type[PickedPlayerEntryForm]:
    """A team's form, or a player's in an individual event; the ids picked (``player_ids()``) are
    the organizer's to pass (a public sign-up never picks anyone)."""
    return PickedPlayerEntryForm if tournament.format == Tournament.Format.INDIVIDUAL else PickedEntryForm


# Seats as the Greek and Bulgarian pages write them (Α Β Γ Δ, А Б В Г) are A B C D.
SEAT_LETTERS = str.maketrans("ΑΒΓΔАБВГ", "ABCDABCD")


class SwapForm(forms.Form):
    first = forms.CharField(help_text=_("table and side, e.g. 3A"), label=_("First"))
    second = forms.CharField(label=_("Second"))
    force = forms.BooleanField(required=False, label=_("Swap anyway"))
    refused = False  # the swap was refused for a rematch or a second bye: "Swap anyway" is offered

    def __init__(self, *args, rnd=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rnd = rnd  # given: a team's number typed alone (7) picks its place in this round

    def _spot(self, value: str) -> tuple[int, int]:
        """Table and side: 3A is table 3, side 0. An individual round also has seats C and D (2 and
        3): A and C are partners against B and D. With the round known, a number alone is a team's
        (an entry's) number: its place in the round."""
        value = value.strip().upper().translate(SEAT_LETTERS)
        if self.rnd is not None and value.isdigit():
            return self._place_of(int(value))
        if len(value) < 2 or value[-1] not in "ABCD" or not value[:-1].isdigit():
            raise forms.ValidationError(_("Write a table number and A or B, e.g. 3A."))
        return int(value[:-1]), "ABCD".index(value[-1])

    def _place_of(self, number: int) -> tuple[int, int]:
        seats = ("entry0", "entry1", "partner0", "partner1")  # sides 0-3, as the swap takes them
        for table in self.rnd.tables.select_related(*seats):
            for side, seat in enumerate(seats):
                entry = getattr(table, seat)
                if entry is not None and entry.number == number:
                    return table.number, side
        raise forms.ValidationError(_("No team has the number %(n)s in this round.") % {"n": number})

    def clean_first(self) -> tuple[int, int]:
        return self._spot(self.cleaned_data["first"])

    def clean_second(self) -> tuple[int, int]:
        return self._spot(self.cleaned_data["second"])


class EmbedForm(forms.Form):
    """The embeds' settings on the organizer page: the websites that may show them, their colours.
    A colour input always holds a colour: the site's own chosen there is kept as none (the site's)."""

    embed_origins = forms.CharField(
        required=False,
        label=_("Websites that may show them"),
        help_text=_(
            "One a line, as https://club.example (the address of the site, without a page). "
            "None: only this site."
        ),
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                "placeholder": "https://club.example",
                "spellcheck": "false",
                "autocapitalize": "none",
            }
        ),
    )
    colour = forms.CharField(
        required=False, label=_("Colour"), widget=forms.TextInput(attrs={"type": "color"})
    )
    background = forms.CharField(
        required=False, label=_("Background"), widget=forms.TextInput(attrs={"type": "color"})
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        kwargs["initial"] = {
            "embed_origins": tournament.embed_origins,
            "colour": tournament.colour or embed.DEFAULT_COLOUR,
            "background": tournament.background or embed.DEFAULT_BACKGROUND,
        }
        super().__init__(*args, **kwargs)

    def clean_embed_origins(self) -> list[str]:
        try:
            return embed.embed_origins_parse(self.cleaned_data["embed_origins"])
        except TournamentError as error:
            raise forms.ValidationError(str(error).split("\n")) from None

    def _colour(self, name: str, default: str) -> str:
        try:
            colour = embed.colour_parse(self.cleaned_data[name])
        except TournamentError as error:
            raise forms.ValidationError(str(error)) from None
        return "" if colour == default else colour

    def clean_colour(self) -> str:
        return self._colour("colour", embed.DEFAULT_COLOUR)

    def clean_background(self) -> str:
        return self._colour("background", embed.DEFAULT_BACKGROUND)

    def settings(self) -> dict[str, Any]:
        """The service's arguments; "The site's colours" (the button) puts both colours back."""
        values = dict(self.cleaned_data)
        if self.data.get("site_colours"):
            values.update(colour="", background="")
        return values
