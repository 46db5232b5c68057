"""Season pages: the list, a season with its table (and the table as CSV), and the form that starts
or changes one. Everyone sees a public season; a private one, and the forms, only who runs it."""

from __future__ import annotations

import io
import re
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from api import spreadsheet
from league import seasons as selectors
from league import services
from league.models import DEFAULT_SCALE, Season
from league.seasons import SeasonTable
from players import club_services as clubs
from players.models import Club
from tournaments.models import Tournament

CHOOSABLE = 200  # the newest events offered to choose from (with those already chosen)
EVENT_CHOICES = [
    (Season.Events.CLUB, _("Every finished event of the club in the dates")),
    (Season.Events.CHOSEN, _("The events chosen below (those in the dates, once finished)")),
]


class EventChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, t: Tournament) -> str:
        day = t.starts_on or (timezone.localdate(t.finished_at) if t.finished_at else None)
        return f"{t.name} · {day.isoformat()}" if day else t.name


class SeasonForm(forms.Form):
    """A season's settings; the scale is typed as points separated by spaces ("25 18 15 …")."""

    name = forms.CharField(max_length=120, label=_("Name"))
    club = forms.ModelChoiceField(
        queryset=Club.objects.none(),
        required=False,
        label=_("Club"),
        empty_label=_("None: a league I run"),
        help_text=_("A club's season is run by the club's admins"),
    )
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Starts on"))
    ends_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Ends on"))
    events = forms.ChoiceField(choices=EVENT_CHOICES, widget=forms.RadioSelect, label=_("Events that count"))
    tournaments = EventChoice(
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Events chosen"),
    )
    scale = forms.CharField(
        max_length=400,
        label=_("Points by final rank"),
        help_text=_("1st, 2nd, 3rd … separated by spaces, e.g. 25 18 15 12 10 8 6 4 2 1"),
    )
    participation = forms.IntegerField(
        min_value=0,
        max_value=services.MAX_POINTS,
        initial=0,
        required=False,
        label=_("Points for a rank past the scale"),
        help_text=_("Blank: 0"),
    )
    best_of = forms.IntegerField(
        min_value=1,
        max_value=services.MAX_BEST_OF,
        required=False,
        label=_("Best results counted"),
        help_text=_("Blank: every result counts"),
    )
    public = forms.BooleanField(required=False, initial=True, label=_("Public"))

    def __init__(self, *args: Any, user: Any, season: Season | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if season is None:
            club_field = self.fields["club"]
            assert isinstance(club_field, forms.ModelChoiceField)  # declared above
            club_field.queryset = clubs.administered(user)
            self.initial.setdefault("scale", " ".join(map(str, DEFAULT_SCALE)))
        else:
            del self.fields["club"]  # a season stays with its club
        chosen = list(season.tournaments.values_list("pk", flat=True)) if season else []
        newest = list(selectors.choosable_events(user).values_list("pk", flat=True)[:CHOOSABLE])
        tournaments_field = self.fields["tournaments"]
        assert isinstance(tournaments_field, forms.ModelChoiceField)  # an EventChoice, declared above
        tournaments_field.queryset = Tournament.objects.filter(Q(pk__in=newest) | Q(pk__in=chosen)).order_by(
            "-starts_on", "-created_at", "-pk"
        )

    def clean_scale(self) -> list[int]:
        parts = re.split(r"[\s,;]+", self.cleaned_data["scale"].strip())
        if not all(re.fullmatch(r"[0-9]{1,6}", part) for part in parts):
            raise forms.ValidationError(
                _("Type the points as whole numbers separated by spaces, e.g. 25 18 15 12 10.")
            )
        return [int(part) for part in parts]

    def settings(self) -> dict[str, Any]:
        d = dict(self.cleaned_data)
        d.pop("club", None)
        d["participation"] = d["participation"] or 0
        d["tournaments"] = list(d["tournaments"]) if d["events"] == Season.Events.CHOSEN else []
        return d


def _managed(request: HttpRequest, slug: str) -> Season:
    """The season if this person runs it; a 404 otherwise (nothing is revealed)."""
    season = Season.objects.select_related("club").filter(slug=slug).first()
    if season is None or not selectors.can_manage(season, request.user):
        raise Http404(gettext("No such season."))
    return season


def _visible(request: HttpRequest, slug: str) -> Season:
    try:
        return selectors.season_get(slug=slug, user=request.user)
    except Season.DoesNotExist:
        raise Http404(gettext("No such season.")) from None


@require_safe
def season_list(request: HttpRequest) -> HttpResponse:
    seasons = selectors.season_list(user=request.user)
    return render(request, "league/seasons.html", {"seasons": seasons})


@require_safe
def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = _visible(request, slug)
    context = {
        "season": season,
        "table": selectors.season_table(season),
        "can_manage": selectors.can_manage(season, request.user),
    }
    return render(request, "league/season.html", context)


def table_csv(table: SeasonTable) -> str:
    """The table as CSV: a column per event, its points in brackets where dropped, blank where not
    played. Names cannot become formulas (``api.spreadsheet``)."""
    out = io.StringIO()
    writer = spreadsheet.writer(out)
    writer.writerow(["rank", "player", "total", "played", "wins", *(t.name for t in table.events)])
    for row in table.rows:
        cells = ["" if c is None else (c.points if c.counted else f"({c.points})") for c in row.cells]
        writer.writerow([row.rank, row.name, row.total, row.played, row.wins, *cells])
    return out.getvalue()


@require_safe
def season_csv(request: HttpRequest, slug: str) -> HttpResponse:
    season = _visible(request, slug)
    response = HttpResponse(table_csv(selectors.season_table(season)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, f"{season.slug}-table.csv")
    return response


def _form_page(request: HttpRequest, form: SeasonForm, season: Season | None) -> HttpResponse:
    status = 422 if form.errors else 200
    return render(request, "league/season_form.html", {"form": form, "season": season}, status=status)


def _refused(form: SeasonForm, error: services.SeasonError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, str(error))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_new(request: HttpRequest) -> HttpResponse:
    form = SeasonForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(
                user=request.user, club=form.cleaned_data["club"], **form.settings()
            )
        except services.SeasonError as error:
            _refused(form, error)
        except PermissionDenied as error:
            form.add_error("club", str(error))
        else:
            return redirect("league:season", slug=season.slug)
    return _form_page(request, form, None)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request: HttpRequest, slug: str) -> HttpResponse:
    season = _managed(request, slug)
    initial = {
        "name": season.name,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
        "events": season.events,
        "tournaments": list(season.tournaments.all()),
        "scale": " ".join(map(str, season.scale)),
        "participation": season.participation,
        "best_of": season.best_of,
        "public": season.public,
    }
    form = SeasonForm(request.POST or None, user=request.user, season=season, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_update(season=season, user=request.user, **form.settings())
        except services.SeasonError as error:
            _refused(form, error)
        else:
            return redirect("league:season", slug=season.slug)
    return _form_page(request, form, season)


@login_required
@require_POST
def season_delete(request: HttpRequest, slug: str) -> HttpResponse:
    season = _managed(request, slug)
    services.season_delete(season=season, user=request.user)
    return redirect("league:seasons")
