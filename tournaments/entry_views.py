"""The organizer's pages for one entry: edit it (name, players, number), withdraw it after a
confirmation, reinstate it (issue 26)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from . import services
from .models import Entry, Tournament
from .services.entries import NUMBER_MAX, NumberRefused
from .views import organizer_only


class EntryEditForm(forms.Form):
    """A team's name, its two players and its number; in an individual event, the player's name."""

    name = forms.CharField(max_length=80, label=_("Team"))
    player_a = forms.CharField(max_length=80, label=_("Player"))
    player_b = forms.CharField(max_length=80, label=_("Partner"))
    number = forms.IntegerField(min_value=1, max_value=NUMBER_MAX, required=False, label=_("No."))

    def __init__(self, *args, entry: Entry, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.entry = entry
        individual = entry.team_id is None
        if individual:
            del self.fields["player_a"], self.fields["player_b"]
            self.fields["name"].label = _("Player")
        if entry.tournament.status != Tournament.Status.REGISTRATION:
            del self.fields["number"]  # fixed once the tournament has started
        if not self.is_bound:
            self.initial = {"name": entry.name, "number": entry.number}
            if entry.team is not None:  # not individual
                self.initial.update(player_a=entry.team.player_a.name, player_b=entry.team.player_b.name)

    def changes(self) -> dict:
        """The service's arguments: only what is given."""
        d = self.cleaned_data
        if self.entry.team_id is None:
            values = {"players": [d["name"]]}
        else:
            values = {"name": d["name"], "players": [d["player_a"], d["player_b"]]}
        if d.get("number") is not None:
            values["number"] = d["number"]
        return values


def _entry(tournament: Tournament, entry_pk: int) -> Entry:
    entries = tournament.entries.select_related("tournament", "team__player_a", "team__player_b", "player")
    return get_object_or_404(entries, pk=entry_pk)


def _back(tournament: Tournament) -> str:
    return reverse("tournaments:manage", args=[tournament.slug]) + "#entries"


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def entry_edit(request: HttpRequest, tournament: Tournament, entry_pk: int) -> HttpResponse:
    """Edit an entry at any time: its name, its players, its number (before the start). A refusal
    shows the form again with its errors (422), nothing changed."""
    entry = _entry(tournament, entry_pk)
    form = EntryEditForm(request.POST or None, entry=entry)
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_edit(entry=entry, user=request.user, **form.changes())
        except NumberRefused as error:
            form.add_error("number" if "number" in form.fields else None, str(error))
        except services.TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, gettext("%(team)s is saved.") % {"team": form.cleaned_data["name"]})
            return redirect(_back(tournament))
    context = {"tournament": tournament, "entry": entry, "form": form}
    return render(request, "tournaments/entry_edit.html", context, status=422 if form.errors else 200)


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def entry_withdraw(request: HttpRequest, tournament: Tournament, entry_pk: int) -> HttpResponse:
    """GET: "Withdraw Kyma (No. 7)?" with an optional reason; POST: the entry withdraws."""
    entry = _entry(tournament, entry_pk)
    if request.method == "POST":
        reason = request.POST.get("reason", "")[:100]
        try:
            services.entry_set_status(
                entry=entry, status=Entry.Status.WITHDRAWN, user=request.user, reason=reason
            )
        except services.TournamentError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, gettext("%(team)s has withdrawn.") % {"team": entry.name})
        return redirect(_back(tournament))
    if entry.status == Entry.Status.WITHDRAWN or tournament.status == Tournament.Status.FINISHED:
        messages.error(
            request,
            gettext("%(team)s has withdrawn.") % {"team": entry.name}
            if entry.status == Entry.Status.WITHDRAWN
            else gettext("The tournament is finished: only a result can still be corrected."),
        )
        return redirect(_back(tournament))
    return render(request, "tournaments/entry_withdraw.html", {"tournament": tournament, "entry": entry})


@organizer_only
@require_POST
def entry_reinstate(request: HttpRequest, tournament: Tournament, entry_pk: int) -> HttpResponse:
    """A withdrawn entry back: it is paired again from the next round drawn."""
    entry = _entry(tournament, entry_pk)
    try:
        services.entry_reinstate(entry=entry, user=request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, gettext("%(team)s is back.") % {"team": entry.name})
    return redirect(_back(tournament))
