"""Player pages: the list, a player's record and the club's leaderboard, public and read only; and
the claimed player's own answer about a match of theirs ("this was me" / "not me")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST, require_safe

from league import confirmations
from league import records as selectors
from league.views.identity import identity_context
from league.views.ratings import rating_panel
from players.errors import PlayerError
from players.models import Player
from scoring import charts
from scoring.models import Match
from scoring.selectors import match_visibility


class PeriodForm(forms.Form):
    """The leaderboard's period, as ``?from=YYYY-MM-DD&to=YYYY-MM-DD``, and its minimum of matches."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        date = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        # "from" cannot be a class attribute's name: the fields are added here.
        self.fields["from"] = forms.DateField(label=_("From"), required=False, widget=date)
        self.fields["to"] = forms.DateField(label=_("To"), required=False, widget=date)
        self.fields["min"] = forms.IntegerField(
            label=_("Minimum matches"),
            required=False,
            min_value=1,
            max_value=1000,
            widget=forms.NumberInput(attrs={"placeholder": selectors.LEADERBOARD_MIN_MATCHES}),
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if data.get("from") and data.get("to") and data["from"] > data["to"]:
            raise forms.ValidationError(_("The period ends before it starts: swap the two dates."))
        return data


@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    search = request.GET.get("q", "")[:80]
    players = selectors.player_list(search=search, user=request.user)
    page = Paginator(players, 50).get_page(request.GET.get("page"))
    return render(request, "players/list.html", {"page": page, "search": search})


@require_safe
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        player = selectors.player_get(pk=pk, user=request.user)
    except Player.DoesNotExist:
        raise Http404(gettext("No such player.")) from None
    if player.merged_into_id is not None:  # a merged record's page is its person's (its root's)
        return redirect("players:detail", pk=player.merged_into_id)
    record = selectors.player_record(player=player, user=request.user)
    chart = None
    if (last := record.last_charted) is not None:
        sheet = last.sheet
        chart = charts.score_chart_svg(
            [row.totals for row in sheet.rows],
            [team.name for team in last.match.teams],
            None if last.match.options.get("deals") else sheet.target,
            chart_id=f"player-chart-{last.match.pk}",
            translate=gettext,
        )
    context = {"player": player, "record": record, "stats": record.stats, "chart": chart, "last": last}
    context["rating"] = rating_panel(player=player, user=request.user, played=record.stats.record.played)
    context["identity"] = identity_context(player=player, user=request.user)
    return render(request, "players/detail.html", context)


@login_required
@require_POST
def match_answer(request: HttpRequest, pk: int, match: int) -> HttpResponse:
    """The player's own account says of a match of theirs "this was me" (it counts for them) or "not
    me" (it stays unconfirmed): ``answer`` is ``me`` or ``not_me``. Anyone else: 403."""
    try:
        player = selectors.player_get(pk=pk, user=request.user)
    except Player.DoesNotExist:
        raise Http404(gettext("No such player.")) from None
    person = selectors.person(player)
    if person.user_id is None or person.user_id != request.user.pk:
        raise PermissionDenied(gettext("Only the player's own account may confirm their matches."))
    found = Match.objects.filter(match_visibility(request.user), pk=match).first()
    if found is None:
        raise Http404(gettext("No such match."))
    try:
        confirmations.match_answer(match=found, user=request.user, answer=request.POST.get("answer", ""))
    except PlayerError as error:
        messages.error(request, error.message)
    else:
        if request.POST.get("answer") == "me":
            messages.success(request, gettext("Confirmed: the match counts for you."))
        else:
            messages.success(request, gettext("Noted: not you. The match counts for nobody."))
    return redirect("players:detail", pk=person.pk)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    form = PeriodForm(request.GET)
    context: dict[str, Any] = {"form": form, "rows": None, "min_matches": selectors.LEADERBOARD_MIN_MATCHES}
    if not form.is_valid():
        return render(request, "players/leaderboard.html", context, status=422)
    data = form.cleaned_data
    context["min_matches"] = data["min"] or selectors.LEADERBOARD_MIN_MATCHES
    context.update(start=data["from"], end=data["to"])
    context["rows"] = selectors.leaderboard(
        start=data["from"], end=data["to"], min_matches=context["min_matches"]
    )
    return render(request, "players/leaderboard.html", context)
