"""Check-in pages and their read: the organizer's count of who is still missing (a partial of the
manage page), "check in all", self check-in opened or closed, the printable slips (each team's own
link as a QR code), and the team's own page behind that link (``c/<token>/``, public, phone-first).

The writes are ``services/checkin.py``.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps

import segno
from django.contrib import messages
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from web.ratelimits import failed_lookups_limited

from . import services
from .models import Entry, Tournament
from .personal import personal_token, personal_url

MISSING_SHOWN = 30  # the partial names at most this many missing teams, then "and n more"


# The read -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckinState:
    """Who is there: ``registered`` counts the entries that play (registered or checked in), of
    which ``checked_in`` are checked in; ``missing`` are the others, by number. ``pending`` await
    the organizer's approval; ``withdrawn`` have withdrawn."""

    open: bool
    checked_in: int
    registered: int
    pending: int
    withdrawn: int
    missing: list[Entry] = field(default_factory=list)

    @property
    def missing_count(self) -> int:
        return self.registered - self.checked_in


def _by_number(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (e.number is None, e.number or 0, e.pk))


def checkin_state(*, tournament: Tournament) -> CheckinState:
    """The counts and the missing entries (registered, not checked in), in two queries."""
    S = Entry.Status
    counts = Entry.objects.filter(tournament=tournament).aggregate(
        checked_in=Count("pk", filter=Q(status=S.CHECKED_IN)),
        registered=Count("pk", filter=Q(status__in=(S.REGISTERED, S.CHECKED_IN))),
        pending=Count("pk", filter=Q(status=S.PENDING)),
        withdrawn=Count("pk", filter=Q(status=S.WITHDRAWN)),
    )
    missing = Entry.objects.filter(tournament=tournament, status=S.REGISTERED)
    missing = missing.select_related("team", "player")
    return CheckinState(open=tournament.checkin_open, missing=_by_number(list(missing)), **counts)


def checkin_context(tournament: Tournament) -> dict:
    """What ``_checkin.html`` needs on the manage page (nothing once the tournament has started)."""
    if tournament.status != Tournament.Status.REGISTRATION:
        return {"checkin": None}
    state = checkin_state(tournament=tournament)
    return {
        "checkin": state,
        "checkin_missing_shown": state.missing[:MISSING_SHOWN],
        "checkin_missing_more": max(0, len(state.missing) - MISSING_SHOWN),
    }


def checkin_url(request: HttpRequest, entry: Entry) -> str:
    """The team's own check-in link, absolute (it is printed and scanned)."""
    return request.build_absolute_uri(reverse("tournaments:checkin_self", args=[entry.checkin_token]))


def slip_entries(tournament: Tournament) -> list[Entry]:
    """The teams that get a slip: those that play (registered or checked in), by number."""
    entries = Entry.objects.filter(tournament=tournament, status__in=services.ACTIVE).select_related(
        "team__player_a", "team__player_b", "player"
    )
    return _by_number(list(entries))


# The team's own page ------------------------------------------------------------------------


def _self_page(request: HttpRequest, entry: Entry, *, status: int = 200, refusal=None) -> HttpResponse:
    if refusal is None:
        refusal = services.checkin_refusal(entry)
    done = entry.status == Entry.Status.CHECKED_IN
    context = {
        "entry": entry,
        "tournament": entry.tournament,
        "state": refusal.reason if refusal else ("done" if done else "open"),
        "reason": str(refusal) if refusal else "",
    }
    response = render(request, "tournaments/checkin_self.html", context, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Cache-Control"] = "private, no-store"  # its state changes; its address is a secret
    return response


# A team's secret is not to be guessed: failed look-ups are limited per address (as a table's link).
@failed_lookups_limited(group="tsoxa.checkin_link")
@require_http_methods(["GET", "HEAD", "POST"])
def checkin_self(request: HttpRequest, token: str) -> HttpResponse:
    """A team's own check-in link (its slip's QR code). A GET only shows where the team stands and the
    button; the POST of that button checks it in, while check-in is open."""
    entry = get_object_or_404(
        Entry.objects.select_related("tournament", "team__player_a", "team__player_b", "player"),
        checkin_token=token,
    )
    if request.method != "POST":
        return _self_page(request, entry)
    try:
        entry, now = services.checkin_self(token=token)
    except services.CheckinRefused as refusal:
        entry.refresh_from_db()
        return _self_page(request, entry, status=422, refusal=refusal)
    if not now:
        messages.info(request, gettext("%(team)s was already checked in.") % {"team": entry.name})
    return redirect("tournaments:checkin_self", token=token)


# The organizer's ----------------------------------------------------------------------------


def organizer_only(view: Callable) -> Callable:
    """``views.organizer_only``, looked up when called: views.py may import this module's
    ``checkin_context`` for the manage page without a circular import."""

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        from .views import organizer_only as guard

        return guard(view)(request, slug, *args, **kwargs)

    return wrapped


def _back(tournament: Tournament) -> HttpResponse:
    return redirect(reverse("tournaments:manage", args=[tournament.slug]) + "#checkin")


@organizer_only
@require_POST
def checkin_all(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        n = services.checkin_all(tournament=tournament, user=request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        if n:
            messages.success(
                request, ngettext("%(n)d team checked in.", "%(n)d teams checked in.", n) % {"n": n}
            )
        else:
            messages.info(request, gettext("Every registered team is already checked in."))
    return _back(tournament)


@organizer_only
@require_POST
def checkin_open(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    on = request.POST.get("open") == "1"
    try:
        services.checkin_open_set(tournament=tournament, open=on, user=request.user)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            gettext("Self check-in is open: each team's link checks it in.")
            if on
            else gettext("Self check-in is closed."),
        )
    return _back(tournament)


@organizer_only
@require_safe
def checkin_slips(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Printable: a slip per team with its number, name, players and its own check-in link as a QR
    code. The codes are images of their own (``checkin_qr``): the page costs the same at any size."""
    slips = [
        {
            "entry": entry,
            "url": checkin_url(request, entry),
            "qr": reverse("tournaments:checkin_qr", args=[tournament.slug, entry.pk]),
            # the team's own page for the evening (tournaments/personal.py), its link and QR code
            "personal_url": personal_url(request, entry),
            "personal_qr": reverse("tournaments:personal_qr", args=[personal_token(entry)]),
        }
        for entry in slip_entries(tournament)
    ]
    response = render(request, "tournaments/checkin_slips.html", {"tournament": tournament, "slips": slips})
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@organizer_only
@require_safe
def checkin_qr(request: HttpRequest, tournament: Tournament, entry_pk: int) -> HttpResponse:
    """A team's check-in link as a QR code (SVG): the organizer's only, as the link is a secret."""
    entry = get_object_or_404(Entry.objects.only("checkin_token"), tournament=tournament, pk=entry_pk)
    if not entry.checkin_token:
        raise Http404("No check-in link.")
    out = io.BytesIO()
    segno.make(checkin_url(request, entry), error="m").save(out, kind="svg", scale=4, xmldecl=False)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"  # a team's link never changes
    response["Content-Security-Policy"] = "default-src 'none'"  # only a picture: nothing in it runs
    response["X-Content-Type-Options"] = "nosniff"
    return response
