"""Tournament pages: public ones anyone may read, organizer ones behind login."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import wraps
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_ratelimit.decorators import ratelimit

from scoring.models import Match
from scoring.permissions import can_see, table_of
from web.http import HtmxHttpRequest
from web.ratelimits import failed_lookups_limited

from . import clock, embed, selectors, services
from .forms import EmbedForm, SwapForm, TournamentForm, entry_form
from .models import Entry, Round, Table, Tournament


def _visible(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("organizer", "club"), slug=slug)
    if not selectors.tournament_visible(tournament, request.user):
        raise Http404("No such tournament.")
    return tournament


def organizer_only(view: Callable) -> Callable:
    """The tournament's organizer only; anyone else gets a 404 (nothing is revealed)."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        if not selectors.can_manage(tournament, request.user):
            raise Http404("No such tournament.")
        return view(request, tournament, *args, **kwargs)

    return wrapped


# Where each action's form is on the manage page: after it, the page opens there again (a browser
# sends no fragment in the Referer, so each action names its own section).
MANAGE_ANCHORS = {
    "manage": "enter",
    "start": "rounds",
    "entry_status": "entries",
    "entry_edit": "entries",
    "entry_withdraw": "entries",
    "entry_reinstate": "entries",
    "entries_bulk": "entries",
    "checkin_all": "checkin",
    "checkin_open": "checkin",
    "round_generate": "rounds",
    "round_swap": "rounds",
    "round_start": "rounds",
    "round_redraw": "rounds",
    "round_delete": "rounds",
    "round_clock": "director",
    "table_paper": "console",
    "call_acknowledge": "console",
    "deal_check": "director",
    "adjustment_add": "director",
    "adjustment_delete": "director",
    "entry_late": "director",
    "keep_apart": "director",
    "finish": "finish",
    "embed_settings": "embed",
}


def manage_url(tournament: Tournament, anchor: str = "") -> str:
    """The manage page, opened at ``anchor`` (a section's id) if given."""
    url = reverse("tournaments:manage", args=[tournament.slug])
    return f"{url}#{anchor}" if anchor else url


def _done(
    request: HttpRequest, tournament: Tournament, action: Callable, success: str, *, anchor: str | None = None
) -> HttpResponse:
    """Run a service; its refusal becomes a message; back to the organizer page, at the section of
    the action's form (``anchor``, else the one ``MANAGE_ANCHORS`` names for the view)."""
    try:
        action()
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, success)
    if anchor is None:
        match = getattr(request, "resolver_match", None)
        anchor = MANAGE_ANCHORS.get(match.url_name if match else "", "")
    return redirect(manage_url(tournament, anchor))


# Public -------------------------------------------------------------------------


@require_safe
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(
        request, "tournaments/list.html", {"tournaments": selectors.tournament_list(user=request.user)}
    )


@require_safe
def tournament_home(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _visible(request, slug)
    standings = selectors.standings_get(tournament=tournament)
    finished = tournament.status == Tournament.Status.FINISHED
    context = {
        "tournament": tournament,
        "rounds": selectors.rounds(tournament=tournament),
        "entries": selectors.entries(tournament=tournament).exclude(status=Entry.Status.PENDING),
        "standings": standings,
        "ranking": standings.get("ranking", []) if finished else [],
        "podium": selectors.podium(standings) if finished else [],
        "can_manage": selectors.can_manage(tournament, request.user),
    }
    return render(request, "tournaments/home.html", context)


@require_safe
def prizes(request: HttpRequest, slug: str) -> HttpResponse:
    """The prize list: the podium, each place's prize and the categories' winners (tournaments/prizes.py),
    and the first N places (``?places=N``, 8 by default), to print."""
    from .prizes import prize_list  # it reads this module's organizer_only

    tournament = _visible(request, slug)
    standings = selectors.standings_get(tournament=tournament)
    ranking = standings.get("ranking", [])
    try:
        places = int(request.GET.get("places", 8))
    except ValueError:
        places = 8
    places = max(1, min(places, len(ranking) or 1))
    context = {
        "tournament": tournament,
        "ranking": ranking,
        "places": places,
        "podium": selectors.podium(standings),
        "prizes": prize_list(tournament=tournament),
        "can_manage": selectors.can_manage(tournament, request.user),
    }
    return render(request, "tournaments/prizes.html", context)


@require_safe
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _visible(request, slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    context: dict[str, Any] = {
        "tournament": tournament,
        "round": rnd,
        "tables": selectors.round_tables(rnd=rnd),
        "clock": clock.state(rnd) if rnd.status == Round.Status.STARTED else None,
        "decisions": selectors.decisions_by_table(rnd=rnd),
    }
    if rnd.status != Round.Status.DRAFT and selectors.can_manage(tournament, request.user):
        context["deal_checks"] = selectors.unchecked_deals(tournament=tournament, rnd=rnd)  # the organizer's
    return render(request, "tournaments/round.html", context)


@require_safe
def standings_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = _visible(request, slug)
    context = {"tournament": tournament, "standings": selectors.standings_get(tournament=tournament)}
    template = "tournaments/standings.html#table" if request.htmx else "tournaments/standings.html"
    return render(request, template, context)


@require_safe
def entry_detail(request: HttpRequest, slug: str, entry_pk: int) -> HttpResponse:
    tournament = _visible(request, slug)
    entry = get_object_or_404(selectors.entries(tournament=tournament), pk=entry_pk)
    context = {"tournament": tournament, "entry": entry, "rounds": selectors.entry_rounds(entry=entry)}
    return render(request, "tournaments/entry.html", context)


@ratelimit(key="ip", rate="10/h", method="POST", block=True)  # sign-ups from one address: 10 an hour
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _visible(request, slug)
    form = entry_form(tournament)(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.entry_signup(
                tournament=tournament, name=d["name"], players=form.players(), contact=d["contact"]
            )
        except services.TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, gettext("Thank you: the organizer will confirm your entry."))
            return redirect("tournaments:home", slug=tournament.slug)
    status = 422 if form.errors else 200
    return render(request, "tournaments/signup.html", {"tournament": tournament, "form": form}, status=status)


# A table's secret is not to be guessed: failed look-ups are limited per address, a tablet opening
# its own link is not.
@failed_lookups_limited(group="tsoxa.scorekeeper_link")
@require_safe
def scorekeeper_link(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The secret link of one table: it opens that table's sheet (and only grants that one)."""
    table = get_object_or_404(Table.objects.select_related("match", "round__tournament"), token=token)
    if table.match is None:  # it says where it is, and asks again every 15 s (htmx) until it starts
        context = {"table": table, "place": selectors.table_place(table=table)}
        return render(request, "tournaments/table_waiting.html", context, status=200)
    allowed = set(request.session.get("scorekeeper_matches", []))
    allowed.add(table.match_id)
    request.session["scorekeeper_matches"] = sorted(allowed)
    if request.htmx:  # the waiting page asking: the round has started, the whole page goes to the sheet
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("scoring:match", args=[table.match_id])
        return response
    return redirect("scoring:match", pk=table.match_id)


@require_safe
def table_next(request: HttpRequest, pk: int) -> HttpResponse:
    """What happens next for a tournament table whose match is over (its sheet asks every 15 s
    while its teams wait for the next round): the part of the sheet that says it."""
    match = get_object_or_404(Match.objects.select_related("table__round__tournament"), pk=pk)
    if table_of(match) is None or not can_see(request.user, match, request.session):
        raise Http404
    coming = selectors.table_next(table=match.table) if match.status == Match.Status.FINISHED else None
    return render(request, "tournaments/_table_next.html", {"match": match, "coming": coming})


# Organizer ----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(
                organizer=request.user, name=form.cleaned_data["name"], **form.settings()
            )
        except services.TournamentError as error:
            form.add_error(None, str(error))
        else:
            return redirect("tournaments:manage", slug=tournament.slug)
    return render(request, "tournaments/new.html", {"form": form}, status=422 if form.errors else 200)


@organizer_only
@require_http_methods(["GET", "HEAD", "POST"])
def manage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = entry_form(tournament)(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.entry_register(
                tournament=tournament,
                name=d["name"],
                players=form.players(),
                player_ids=form.player_ids(),
                user=request.user,
            )
        except services.TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, gettext("%(team)s entered.") % {"team": d["name"]})
            return redirect(manage_url(tournament, "enter"))
    return manage_page(request, tournament, form=form)


def _optional_context(module: str, function: str, tournament: Tournament) -> dict:
    """A part's own context for the manage page (``<part>_context(tournament)``), if that part is
    there: the page works without it."""
    import importlib

    try:
        found = getattr(importlib.import_module(f"tournaments.{module}"), function)
    except (ImportError, AttributeError):
        return {}
    return found(tournament)


def manage_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form=None,
    embed_form: EmbedForm | None = None,
    swap_form: SwapForm | None = None,
) -> HttpResponse:
    """The organizer page, built around "what now": during a round its console and the round's
    actions first, then the set-up in sections (entries, rounds, decisions, settings); before the
    start, the entries first. Its forms as sent (a refused one shows its errors: a 422)."""
    from . import console

    if swap_form is None:
        swap_form = SwapForm()
    if form is None:
        form = entry_form(tournament)()
    if embed_form is None:
        embed_form = EmbedForm(tournament=tournament)
    rounds = list(selectors.rounds(tournament=tournament))
    current = next((r for r in reversed(rounds) if r.kind != Round.Kind.PLAYOFF), None)
    context = {
        "tournament": tournament,
        "form": form,
        "entries": selectors.entries(tournament=tournament),
        "rounds": rounds,
        "current": current,
        "current_tables": selectors.round_tables(rnd=current) if current else [],
        "swap_form": swap_form,
        "standings": selectors.standings_get(tournament=tournament),
        "unconfirmed": selectors.unconfirmed(tournament=tournament) if tournament.confirmation else [],
        "current_clock": clock.state(current) if current else None,
        "adjustments": selectors.adjustments(tournament=tournament),
        "kept_apart": selectors.kept_apart(tournament=tournament),
        "embed_form": embed_form,
        "embed_snippets": embed.snippets(request, tournament),
    }
    if tournament.status == Tournament.Status.RUNNING:  # the other team's check of each deal
        context["deal_check_asked"] = services.deal_check_asked(tournament)
        context["deal_checks"] = selectors.unchecked_deals(tournament=tournament)
    if tournament.status == Tournament.Status.RUNNING and current is not None:
        state = console.console_state(tournament=tournament, rnd=current)
        context |= console.console_context(request, tournament, state)
        # The next round's button says what it waits for (services.round_generate's conditions).
        context["next_waiting"] = state["waiting"] if current.status != Round.Status.DRAFT else []
        context["next_playing"] = state["playing"]
    if tournament.status == Tournament.Status.RUNNING:
        context["next_number"] = (rounds[-1].number if rounds else 0) + 1
    if tournament.status == Tournament.Status.REGISTRATION:
        context |= _optional_context("checkin", "checkin_context", tournament)
    status = 422 if form.errors or embed_form.errors or swap_form.errors else 200
    return render(request, "tournaments/manage.html", context, status=status)


@organizer_only
@require_POST
def deal_check(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Ask the other team to check each deal on the tablets, or stop asking."""
    on = request.POST.get("on") == "1"
    if on:
        success = gettext("The other team now checks each deal.")
    else:
        success = gettext("Deals are no longer checked.")

    def action() -> None:
        services.tournament_deal_check(tournament=tournament, on=on, user=request.user)

    return _done(request, tournament, action, success)


@organizer_only
@require_POST
def embed_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The embeds' settings (who may frame them, their colours); refused, the page with the errors."""
    form = EmbedForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            services.tournament_embed_update(tournament=tournament, user=request.user, **form.settings())
        except services.TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, gettext("The embeds' settings are saved."))
            return redirect(reverse("tournaments:manage", args=[tournament.slug]) + "#embed")
    return manage_page(request, tournament, embed_form=form)


@organizer_only
@require_POST
def entry_status(request: HttpRequest, tournament: Tournament, entry_pk: int) -> HttpResponse:
    entry = get_object_or_404(tournament.entries, pk=entry_pk)
    status = request.POST.get("status")
    if status not in Entry.Status.values or status == Entry.Status.PENDING:
        messages.error(request, gettext("Unknown change."))
        return redirect(manage_url(tournament, "entries"))
    label = gettext(Entry.Status(status).label).lower()  # marked in tournaments/messages.py
    return _done(
        request,
        tournament,
        lambda: services.entry_set_status(entry=entry, status=status, user=request.user),
        gettext("%(team)s: %(status)s.") % {"team": entry.name, "status": label},
    )


@organizer_only
@require_POST
def start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _done(
        request,
        tournament,
        lambda: services.tournament_start(tournament=tournament, user=request.user),
        gettext("The tournament has started: draw the first round."),
    )


@organizer_only
@require_POST
def round_generate(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _done(
        request,
        tournament,
        lambda: services.round_generate(tournament=tournament, user=request.user),
        gettext("Round drawn: check the tables, swap teams if needed, then start it."),
    )


@organizer_only
@require_POST
def round_swap(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    rnd = get_object_or_404(tournament.rounds, number=number)
    form = SwapForm(request.POST, rnd=rnd)
    if not form.is_valid():
        messages.error(
            request, gettext("Write two places as table and side, e.g. 3A and 5B, or a team's number.")
        )
        return redirect(manage_url(tournament, "rounds"))
    first, second, force = form.cleaned_data["first"], form.cleaned_data["second"], form.cleaned_data["force"]
    try:
        services.round_swap(rnd=rnd, first=first, second=second, user=request.user, force=force)
    except services.SwapRefused as refused:  # the problems named, the places kept, and "Swap anyway"
        form.add_error(None, str(refused))
        form.refused = True
        return manage_page(request, tournament, swap_form=form)
    except services.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, gettext("Teams swapped."))
    return redirect(manage_url(tournament, "rounds"))


@organizer_only
@require_POST
def round_start(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    rnd = get_object_or_404(tournament.rounds, number=number)
    return _done(
        request,
        tournament,
        lambda: services.round_start(rnd=rnd, user=request.user),
        gettext("Round %(number)s started: hand out the scorekeeper links.") % {"number": number},
    )


@organizer_only
@require_safe
def round_links(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Printable: every table's scorekeeper link and its QR code. The codes are images of their own
    (``table_qr``), drawn in parallel by the browser, so the page comes at once at any size."""
    rnd = get_object_or_404(tournament.rounds, number=number)
    tables = [
        {
            "table": table,
            "url": request.build_absolute_uri(reverse("tournaments:scorekeeper", args=[table.token])),
            "qr": None
            if table.is_bye
            else reverse("tournaments:table_qr", args=[tournament.slug, rnd.number, table.number]),
        }
        for table in selectors.round_tables(rnd=rnd)
    ]
    return render(
        request, "tournaments/links.html", {"tournament": tournament, "round": rnd, "tables": tables}
    )


@organizer_only
@require_safe
def table_qr(request: HttpRequest, tournament: Tournament, number: int, table: int) -> HttpResponse:
    """A table's scorekeeper link as a QR code (SVG): the organizer's only, as the link is a secret."""
    found = get_object_or_404(Table, round__tournament=tournament, round__number=number, number=table)
    if found.is_bye:
        raise Http404("A bye has no sheet.")
    url = request.build_absolute_uri(reverse("tournaments:scorekeeper", args=[found.token]))
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, xmldecl=False)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"  # a table's link never changes
    response["Content-Security-Policy"] = "default-src 'none'"  # only a picture: nothing in it runs
    response["X-Content-Type-Options"] = "nosniff"
    return response


@organizer_only
@require_POST
def round_clock(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    rnd = get_object_or_404(tournament.rounds, number=number)
    try:
        minutes = int(request.POST.get("minutes") or 0)
        table = int(request.POST["table"]) if request.POST.get("table") else None
    except ValueError:
        messages.error(request, gettext("Minutes and the table are whole numbers."))
        return redirect(manage_url(tournament, "director"))
    action = request.POST.get("action", "")
    return _done(
        request,
        tournament,
        lambda: services.round_clock(rnd=rnd, action=action, minutes=minutes, table=table, user=request.user),
        gettext("The clock is set."),
    )


@organizer_only
@require_POST
def adjustment_add(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A penalty to a team, or a table decided (a forfeit, a match awarded), with its reason."""
    post = request.POST

    def number(name: str, default: int | None = 0) -> int | None:
        value = post.get(name, "")
        if value == "":
            return default
        try:
            return int(value)
        except ValueError:
            labels = {
                "entry": gettext("Penalty to"),
                "points": gettext("Points"),
                "match_points": gettext("Match points"),
                "round": gettext("Round"),
                "table": gettext("Table"),
                "winner": gettext("Given to side"),
                "score0": gettext("Score A"),
                "score1": gettext("Score B"),
            }
            raise services.TournamentError(
                gettext("%(field)s is a whole number.") % {"field": labels.get(name, name)}
            ) from None

    def decide():
        if post.get("kind") == "penalty":
            entry = tournament.entries.filter(pk=number("entry", None)).first()
            if entry is None:
                raise services.TournamentError(gettext("Choose the team."))
            return services.penalty_add(
                tournament=tournament,
                entry=entry,
                points=number("points"),
                match_points=number("match_points"),
                reason=post.get("reason", ""),
                user=request.user,
            )
        table = Table.objects.filter(
            round__tournament=tournament, round__number=number("round", None), number=number("table", None)
        ).first()
        if table is None:
            raise services.TournamentError(gettext("No such table."))
        winner = number("winner", None)
        return services.table_decide(
            table=table,
            kind=post.get("kind", ""),
            winner=winner,
            scores=[number("score0"), number("score1")],
            reason=post.get("reason", ""),
            user=request.user,
        )

    return _done(request, tournament, decide, gettext("The decision is recorded."))


@organizer_only
@require_POST
def entry_late(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    post = request.POST
    name = post.get("name", "").strip()
    if tournament.format == Tournament.Format.INDIVIDUAL:
        players = [name]
    else:
        players = [post.get("player_a", "").strip(), post.get("player_b", "").strip()]

    def enter():
        try:
            points, match_points = int(post.get("points") or 0), int(post.get("match_points") or 0)
        except ValueError:
            raise services.TournamentError(
                gettext("The score for a missed round is a whole number.")
            ) from None
        return services.entry_register_late(
            tournament=tournament,
            name=name,
            players=players,
            points_per_missed_round=points,
            match_points_per_missed_round=match_points,
            user=request.user,
        )

    return _done(request, tournament, enter, gettext("%(name)s entered late.") % {"name": name})


@organizer_only
@require_POST
def keep_apart(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    def save():
        if request.POST.get("clear"):
            pairs = []
        else:
            try:
                pair = [int(request.POST.get("a", "")), int(request.POST.get("b", ""))]
            except ValueError:
                raise services.TournamentError(gettext("Choose two entries.")) from None
            pairs = [*tournament.avoid, pair]
        return services.tournament_avoid(tournament=tournament, pairs=pairs, user=request.user)

    return _done(request, tournament, save, gettext("Saved: the next draws keep them apart."))


@organizer_only
@require_POST
def adjustment_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    adjustment = get_object_or_404(tournament.adjustments, pk=pk)
    return _done(
        request,
        tournament,
        lambda: services.adjustment_delete(adjustment=adjustment, user=request.user),
        gettext("The decision is taken back."),
    )


@organizer_only
@require_POST
def finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Finish the tournament early, with a reason; the matches in play finished on their totals or
    left out, as the organizer chose."""
    return _done(
        request,
        tournament,
        lambda: services.tournament_finish(
            tournament=tournament,
            reason=request.POST.get("reason", ""),
            in_play=request.POST.get("in_play", ""),
            user=request.user,
        ),
        gettext("The tournament is finished."),
    )


@organizer_only
@require_safe
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Who changed what, and when, in sentences (tournaments/audit.py), grouped by round; the latest
    changes first, ``?before=`` for earlier ones."""
    from .audit import audit_page, parse_before

    page = audit_page(tournament=tournament, before=parse_before(request.GET.get("before")))
    return render(request, "tournaments/audit.html", {"tournament": tournament, "page": page})


@require_safe
def round_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round on A4 to pin up: pairings by table and the standings. Public: no scorekeeper link on it
    (those are on the organizer's links page)."""
    tournament = _visible(request, slug)
    rnd = get_object_or_404(tournament.rounds, number=number)
    found = selectors.round_tables(rnd=rnd)
    assert isinstance(found, QuerySet)  # a round read alone: its tables' query, not a prefetched list
    tables = found.select_related(
        "entry0__team__player_a", "entry0__team__player_b", "entry1__team__player_a", "entry1__team__player_b"
    )
    context = {
        "tournament": tournament,
        "round": rnd,
        "tables": tables,
        "standings": selectors.standings_get(tournament=tournament),
    }
    return render(request, "tournaments/print_round.html", context)
