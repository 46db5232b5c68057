"""The organizer's console of the current round: each table's state at a glance, live.

``console_state`` reads it (a constant number of queries whatever the number of tables: the round,
its tables with their teams and matches, the round's decisions, the open director's calls, the
unchecked deals; when each tablet was last heard from comes from the cache in one ``get_many``).
The views: the full page (``console``, for a tablet), the partial the manage page and that page
swap with htmx (``console_part``), its event stream (``console_events``), a table's director's call
(``director_call``, from its sheet) and its acknowledgement (``call_acknowledge``).

The pace of a round: a table is flagged "slow" when it has sent nothing (no deal, since the round
or its clock started) for longer than ``SLACK`` times the time a deal takes: a timed round's time
divided by its number of deals, else ``DEAL_MINUTES`` minutes a deal. A table's tablet is flagged
"not heard from" when neither its sheet, a deal nor its sheet's heartbeat (every minute) has been
heard for ``presence.SILENT_SECONDS``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from web.http import HtmxHttpRequest
from web.ratelimits import client_ip, failed_lookups_limited

from . import clock, live, presence, selectors, services
from .models import Adjustment, DirectorCall, Round, Table, Tournament
from .services.results import DECISIONS
from .templatetags.tournament_tags import clock_time
from .views import organizer_only

DEAL_MINUTES = 5  # an untimed round (or a timed one without a number of deals): a deal's pace
SLACK = 2  # a table is slow past twice its pace without sending anything
COUNTER_SECONDS = 1.0  # how often an open console's stream reads the cache's counter of changes

SHOWN_DECISIONS = (Adjustment.Kind.FORFEIT, Adjustment.Kind.AWARD, Adjustment.Kind.PAPER)
DONE_DECISIONS = frozenset({*DECISIONS, Adjustment.Kind.PAPER})  # a decided table waits for nothing


# The read ------------------------------------------------------------------------------------


def current_round(tournament: Tournament) -> Round | None:
    """The round being played or about to be: the latest that is not a tie-break play-off."""
    return tournament.rounds.exclude(kind=Round.Kind.PLAYOFF).order_by("-number").first()


def pace_seconds(tournament: Tournament, rnd: Round) -> int:
    """How long a deal may take at this round's tables (see the module's docstring)."""
    deals = tournament.deals_per_match
    if clock.timed(rnd) and deals:
        return max(60, tournament.time_limit * 60 // deals)
    return DEAL_MINUTES * 60


def _side(entry: Any, partner: Any) -> dict[str, Any] | None:
    if entry is None:
        return None
    names = [entry.name] + ([partner.name] if partner is not None else [])
    numbers = [e.number for e in (entry, partner) if e is not None and e.number is not None]
    return {"name": " & ".join(names), "numbers": numbers, "number": " & ".join(str(n) for n in numbers)}


def _paper_url(tournament: Tournament, rnd: Round) -> Any:
    """The paper result's link maker (``tournaments:table_paper``), or None if there is no such page."""
    try:
        reverse("tournaments:table_paper", args=[tournament.slug, rnd.number, 1])
    except NoReverseMatch:
        return None
    return lambda number: reverse("tournaments:table_paper", args=[tournament.slug, rnd.number, number])


def _replaced(match: Any, tournament: Tournament) -> bool:
    """A table's deals have finished its match (and it is confirmed, where that is asked)."""
    if match is None or match.status != "finished":
        return False
    return not tournament.confirmation or match.confirmed_at is not None


def _table_state(
    table: Table, rnd: Round, tournament: Tournament, decision: Adjustment | None, now
) -> dict[str, Any]:
    """A table's state and its words: bye, left_out, forfeit/award/paper, not_started, playing,
    unconfirmed, finished; ``done``: the next round waits for it no more."""
    match = table.match
    totals = list((match.totals or [0, 0])[:2]) if match is not None else None
    score = f"{totals[0]}–{totals[1]}" if totals else ""
    played = int((match.state or {}).get("played") or 0) if match is not None else 0
    out: dict[str, Any] = {"done": False, "totals": totals, "played": played, "left": None}
    if table.is_bye:
        return out | {"state": "bye", "label": gettext("Bye"), "done": True, "totals": None}
    if table.left_out:
        return out | {"state": "left_out", "label": gettext("Left out"), "done": True}
    if decision is not None and decision.kind == Adjustment.Kind.PAPER and _replaced(match, tournament):
        decision = None  # the deals have replaced the paper result
    if decision is not None:
        scores = decision.scores or []
        if decision.kind == Adjustment.Kind.PAPER:
            text = gettext("From the paper sheet")
            state = "paper"
        elif decision.kind == Adjustment.Kind.FORFEIT:
            text, state = gettext("Forfeit"), "forfeit"
        else:
            text, state = gettext("Awarded"), "award"
        if len(scores) == 2:
            text = f"{text} {scores[0]}–{scores[1]}"
            out["totals"] = list(scores)
        return out | {"state": state, "label": text, "done": decision.kind in DONE_DECISIONS}
    if match is None or (played == 0 and match.status != "finished"):
        return out | {"state": "not_started", "label": gettext("Not started")}
    if match.status == "finished":
        if tournament.confirmation and match.confirmed_at is None:
            label = gettext("%(score)s: waiting for the other team's confirmation") % {"score": score}
            return out | {"state": "unconfirmed", "label": label}
        return out | {
            "state": "finished",
            "label": gettext("Finished %(score)s") % {"score": score},
            "done": True,
        }
    deals = (match.options or {}).get("deals") or tournament.deals_per_match
    clock_now = clock.state(rnd, table, now) if rnd.status == Round.Status.STARTED else None
    if clock_now is not None and clock_now["state"] != "ready":
        if clock_now["state"] == "over":
            label = gettext("%(score)s · time is up: last deal") % {"score": score}
        elif clock_now["state"] == "paused":
            label = gettext("%(score)s · clock paused, %(left)s left") % {
                "score": score,
                "left": clock_time(clock_now["left"]),
            }
        else:
            label = gettext("%(score)s · %(left)s left") % {
                "score": score,
                "left": clock_time(clock_now["left"]),
            }
        return out | {
            "state": "playing",
            "label": label,
            "left": clock_now["left"],
            "clock": clock_now["state"],
        }
    if deals:
        label = gettext("Deal %(n)s of %(of)s") % {"n": min(played + 1, deals), "of": deals}
        return out | {"state": "playing", "label": f"{label} · {score}", "deals": deals}
    label = gettext("%(score)s of %(target)s") % {"score": score, "target": match.target}
    return out | {"state": "playing", "label": label, "target": match.target}


def console_state(*, tournament: Tournament, rnd: Round | None = None) -> dict[str, Any]:
    """The console of ``rnd`` (by default the current round: the latest that is not a play-off).
    ``tables``: each with ``number``, ``teams`` (two sides or one and None: a bye), ``state``,
    ``label``, ``done`` and ``flags`` (``slow``, ``silent``, ``unchecked``: deal numbers, ``call``:
    the open call's id); ``calls``: the tournament's open director's calls, oldest first;
    ``waiting``: the numbers of the tables the next round waits for; ``playing``: the tables that
    play (byes left aside)."""
    now = timezone.now()
    if rnd is None:
        rnd = current_round(tournament)
    calls = [
        {"id": c.pk, "table": c.table.number, "round": c.table.round.number, "since": c.created_at}
        for c in DirectorCall.objects.filter(tournament=tournament, acknowledged_at__isnull=True)
        .select_related("table__round")
        .order_by("created_at", "pk")
    ]
    state: dict[str, Any] = {"round": rnd, "calls": calls, "tables": [], "waiting": [], "playing": 0}
    if rnd is None:
        return state
    rnd.tournament = tournament
    if tournament.format == Tournament.Format.INDIVIDUAL:  # players, two a side
        related = ["match", *(f"{seat}__player" for seat in ("entry0", "entry1", "partner0", "partner1"))]
    else:
        related = ["match", "entry0__team", "entry1__team"]
    tables = list(rnd.tables.select_related(*related).order_by("number"))
    decisions: dict[int, Adjustment] = {}
    for a in Adjustment.objects.filter(table__round=rnd, kind__in=SHOWN_DECISIONS).order_by(
        "created_at", "pk"
    ):
        assert a.table_id is not None  # table__round: a table's decision
        decisions[a.table_id] = a  # the latest
    unchecked = {
        row["table"]: row["deals"]
        for row in (
            selectors.unchecked_deals(tournament=tournament, rnd=rnd) if rnd.status != "draft" else []
        )
    }
    call_of = {c["table"]: c["id"] for c in calls if c["round"] == rnd.number}
    heard = presence.heard_many(t.pk for t in tables) if rnd.status == Round.Status.STARTED else {}
    pace = pace_seconds(tournament, rnd)
    since_start = rnd.clock_started_at or rnd.started_at
    paper = _paper_url(tournament, rnd) if rnd.status != Round.Status.DRAFT else None
    epoch = now.timestamp()
    # A round just started: its tablets are opening their sheets; none is "not heard from" yet.
    started_epoch = rnd.started_at.timestamp() if rnd.started_at else 0
    for table in tables:
        table.round = rnd
        row = _table_state(table, rnd, tournament, decisions.get(table.pk), now)
        in_play = rnd.status == Round.Status.STARTED and row["state"] in ("not_started", "playing")
        flags: dict[str, Any] = {"slow": None, "silent": False, "unchecked": unchecked.get(table.number, []),
                                 "call": call_of.get(table.number)}  # fmt: skip
        if in_play and not clock.paused(rnd, table):
            last = table.match.updated_at if table.match is not None and row["played"] else since_start
            if last is not None and (now - last).total_seconds() > SLACK * pace:
                flags["slow"] = int((now - last).total_seconds() // 60)
        if in_play:  # unheard since the round started (or since last heard) for the silent delay
            seen = max(heard.get(table.pk) or 0, started_epoch)
            flags["silent"] = epoch - seen > presence.SILENT_SECONDS
        row |= {
            "pk": table.pk,
            "number": table.number,
            "teams": [_side(table.entry0, table.partner0), _side(table.entry1, table.partner1)],
            "match_id": table.match_id,
            "flags": flags,
            "heard": heard.get(table.pk),
            "paper_url": paper(table.number) if paper is not None and not table.is_bye else None,
        }
        state["tables"].append(row)
        if not table.is_bye:
            state["playing"] += 1
            if not row["done"]:
                state["waiting"].append(table.number)
    state["pace"] = pace
    state["slow_after"] = SLACK * pace
    state["clock"] = clock.state(rnd, None, now) if rnd.status == Round.Status.STARTED else None
    state["counts"] = {}
    for row in state["tables"]:
        state["counts"][row["state"]] = state["counts"].get(row["state"], 0) + 1
    return state


def console_version(tournament_id: int) -> str:
    """The console's version: the live stamp (rounds, standings, clock) and the counter of what
    only the console shows (deals in play, calls)."""
    return f"{live.stamp(tournament_id) or ''}~{presence.changes(tournament_id)}"


def console_context(request: HttpRequest, tournament: Tournament, state: dict[str, Any] | None = None):
    """What ``_console.html`` needs (the manage page calls this too)."""
    if state is None:
        state = console_state(tournament=tournament)
    return {
        "tournament": tournament,
        "console": state,
        "console_version": console_version(tournament.pk),
        "console_events": reverse("tournaments:console_events", args=[tournament.slug]),
        "pace_minutes": max(1, round(state.get("pace", DEAL_MINUTES * 60) / 60)),
        "slow_minutes": max(1, round(state.get("slow_after", SLACK * DEAL_MINUTES * 60) / 60)),
        "silent_minutes": presence.SILENT_SECONDS // 60,
    }


# The JSON (the API's) ------------------------------------------------------------------------


def console_json(tournament: Tournament) -> dict[str, Any]:
    state = console_state(tournament=tournament)
    rnd = state["round"]
    return {
        "version": console_version(tournament.pk),
        "round": None if rnd is None else {"number": rnd.number, "status": rnd.status, "kind": rnd.kind},
        "clock": None
        if not state.get("clock")
        else {k: v for k, v in state["clock"].items() if k != "ends_at"}
        | {"ends_at": state["clock"]["ends_at"].isoformat() if state["clock"].get("ends_at") else None},
        "pace_seconds": state.get("pace"),
        "slow_after_seconds": state.get("slow_after"),
        "silent_after_seconds": presence.SILENT_SECONDS,
        "tables": [
            {
                "number": t["number"],
                "teams": t["teams"],
                "state": t["state"],
                "label": t["label"],
                "done": t["done"],
                "played": t["played"],
                "totals": t["totals"],
                "time_left": t["left"],
                "match": t["match_id"],
                "slow_minutes": t["flags"]["slow"],
                "silent": t["flags"]["silent"],
                "unchecked_deals": t["flags"]["unchecked"],
                "call": t["flags"]["call"],
            }
            for t in state["tables"]
        ],
        "calls": [
            {"id": c["id"], "round": c["round"], "table": c["table"], "since": c["since"].isoformat()}
            for c in state["calls"]
        ],
        "waiting": state["waiting"],
        "playing": state["playing"],
    }


# The views -----------------------------------------------------------------------------------


@organizer_only
@require_safe
def console(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The console on its own page: a tablet at the director's desk."""
    return render(request, "tournaments/console.html", console_context(request, tournament))


@never_cache
@organizer_only
@require_safe
def console_part(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The console's live part, swapped by htmx whenever its stream says something changed."""
    return render(request, "tournaments/_console.html", console_context(request, tournament))


@organizer_only
@require_POST
def call_acknowledge(request: HtmxHttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """The director has seen a table's call: it leaves the console."""
    call = get_object_or_404(DirectorCall, tournament=tournament, pk=pk)
    try:
        services.call_acknowledge(call=call, user=request.user)
    except services.TournamentError as error:
        if not request.htmx:
            messages.error(request, str(error))
    if request.htmx:
        return render(request, "tournaments/_console.html", console_context(request, tournament))
    if request.POST.get("back") == "console":
        return redirect("tournaments:console", slug=tournament.slug)
    return redirect(reverse("tournaments:manage", args=[tournament.slug]) + "#console")


@failed_lookups_limited(group="tsoxa.scorekeeper_link")
@require_http_methods(["GET", "HEAD", "POST"])
def director_call(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A table's sheet calls the director (POST: one tap, silent), or asks how its call stands
    (GET: the button, every minute: the tablet's heartbeat)."""
    table = get_object_or_404(Table.objects.select_related("round__tournament"), token=token)
    presence.heard(table.pk)
    error = None
    if request.method == "POST":
        try:
            services.call_create(table=table)
        except services.TournamentError as refused:
            error = str(refused)
        if not request.htmx:
            if error:
                messages.error(request, error)
            if table.match_id:
                return redirect("scoring:match", pk=table.match_id)
            return redirect("tournaments:scorekeeper", token=token)
    context = {"table": table, "called": services.call_open(table=table) is not None, "error": error}
    return render(request, "tournaments/_call_button.html", context, status=422 if error else 200)


# The stream ------------------------------------------------------------------------------------


def _opened(request: HttpRequest, slug: str, *, let_go: bool) -> tuple[int, str, int]:
    """The organizer's only (a 404 for anyone else); the tournament's id, live stamp and counter."""
    try:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None or not selectors.can_manage(tournament, request.user):
            raise Http404("No such tournament.")
        return tournament.pk, live.stamp(tournament.pk) or "", presence.changes(tournament.pk)
    finally:
        if let_go:
            live.let_go()


@require_safe
async def console_events(request: HttpRequest, slug: str) -> HttpResponse | StreamingHttpResponse:
    """The console's event stream: the big screen's (``live.events``: rounds, standings, clock) and
    the cache's counter of what only the console shows (a deal in play, a call), read every
    second. Under WSGI (runserver, the tests) it answers at once with the hint to ask again, as the
    screen's does."""
    from .screen import _event_stream, _too_many

    since = (request.headers.get("Last-Event-ID") or request.GET.get("v", ""))[:100]
    since_stamp, _, since_count = since.partition("~")
    if not isinstance(request, ASGIRequest):
        _, stamp, count = await sync_to_async(_opened)(request, slug, let_go=False)
        return _event_stream(live.at_once(f"{stamp}~{count}", since))
    slot = await live.slot_take(client_ip(request))
    if slot is None:
        return _too_many(settings.TSOXA_STREAMS_PER_ADDRESS)
    try:
        shared = live.hub()
        await shared.ready()
        mark = shared.mark()
        async with shared.reading:
            tournament_id, stamp, count = await sync_to_async(_opened, thread_sensitive=False)(
                request, slug, let_go=True
            )
        stream = live.events(tournament_id, since_version=since_stamp, slot=slot, opened=(stamp, mark))
        first = await anext(stream, None)
    except BaseException:
        await slot.release()
        raise
    if first is None:
        raise Http404("No such tournament.")
    return _event_stream(_merged(first, stream, tournament_id, stamp, count, since_count))


async def _merged(
    first: str,
    stream: AsyncGenerator[str, None],
    tournament_id: int,
    stamp: str,
    count: int,
    since_count: str,
) -> AsyncIterator[str]:
    yield first
    if since_count != str(count):
        yield live.changed(f"{stamp}~{count}", "table")
    read = sync_to_async(presence.changes, thread_sensitive=False)
    pending = asyncio.ensure_future(anext(stream, None))
    try:
        while True:
            done, _ = await asyncio.wait({pending}, timeout=COUNTER_SECONDS)
            if pending in done:
                chunk = pending.result()
                if chunk is None:
                    return
                if chunk.startswith("id: "):  # the live stamp moved: the console's version with it
                    stamp = chunk[4 : chunk.index("\n")]
                    chunk = live.changed(f"{stamp}~{count}", "round")
                yield chunk
                pending = asyncio.ensure_future(anext(stream, None))
                continue
            now = await read(tournament_id)
            if now != count:
                count = now
                yield live.changed(f"{stamp}~{count}", "table")
    finally:
        pending.cancel()
        with contextlib.suppress(BaseException):
            await pending
        with contextlib.suppress(BaseException):
            await stream.aclose()
