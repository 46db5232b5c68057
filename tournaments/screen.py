"""The big screen: a tournament on the café's TV or projector, across the room.

Three views: the page (``screen``: rendered at once from the data, right without JavaScript), its
data as JSON (``screen_data``: what the page's script renders again after a change) and the
stream that says when the data has changed (``screen_events``: an async view, pushed by
``tournaments.live``). The page fetches the data once per change, never on a timer; the round's
clock counts down in the browser from the time it ends.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.ratelimits import client_ip
from scoring import messages as catalogue

from . import live, selectors
from . import messages as words
from .models import Round, Tournament
from .standings import METRICS
from .templatetags.tournament_tags import reached_name


def _visible(request: HttpRequest, slug: str) -> Tournament:
    """The tournament's pages' rule: public, or its organizer's (and staff's); a 404 for others."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)
    if not selectors.tournament_visible(tournament, request.user):
        raise Http404("No such tournament.")
    return tournament


# The data ------------------------------------------------------------------------------------


def round_label(rnd: Round) -> str:
    if rnd.kind == Round.Kind.PLAYOFF:
        return gettext("Play-off %(number)s") % {"number": rnd.number}
    if rnd.kind == Round.Kind.KNOCKOUT:  # named by its size: "Final" … (tournaments/bracket.py)
        from .bracket import knockout_round_label

        return knockout_round_label(rnd)
    return gettext("Round %(number)s") % {"number": rnd.number}


def round_clock(rnd: Round | None) -> dict[str, Any] | None:
    """The round's clock from ``tournaments.clock`` where the timed rounds are (None without them):
    ``{"round", "ends_at" (ISO 8601, UTC), "paused_left" (seconds), "state"}``."""
    if rnd is None or importlib.util.find_spec("tournaments.clock") is None:
        return None
    from tournaments.clock import round_clock as clock_of  # a timed round's own module

    clock = clock_of(rnd)
    if clock is None:
        return None
    ends_at = clock.get("ends_at")
    if isinstance(ends_at, datetime):
        ends_at = ends_at.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return {
        "round": clock.get("round", rnd.number),
        "ends_at": ends_at,
        "paused_left": clock.get("paused_left"),
        "state": clock.get("state"),
    }


def _side(entry: Any, partner: Any) -> str | None:
    """A side's name: the team's, or an individual table's two players'."""
    if entry is None:
        return None
    return f"{entry.name} & {partner.name}" if partner is not None else entry.name


def _side_number(entry: Any, partner: Any) -> str | None:
    """A side's number as the screen shows it: the entry's, or both players' at an individual table."""
    numbers = [str(e.number) for e in (entry, partner) if e is not None and e.number is not None]
    return " & ".join(numbers) or None


def _table(table: Any, paper: Any = None) -> dict[str, Any]:
    match = table.match
    finished = match is not None and match.status == "finished"
    if paper is not None and not finished:  # a result typed from the paper sheet, until the deals finish
        return {**_table(table), "score": list(paper.scores), "finished": True, "paper": True}
    return {
        "number": table.number,
        "teams": [_side(table.entry0, table.partner0), _side(table.entry1, table.partner1)],
        # each side's number ("7"; "3 & 8" at an individual table), None for a bye
        "numbers": [_side_number(table.entry0, table.partner0), _side_number(table.entry1, table.partner1)],
        "bye": table.is_bye,
        # A finished match's result; one in play is followed on its tablet, not pushed deal by deal.
        "score": list(match.totals[:2]) if finished and match.totals else None,
        "finished": finished,
    }


def _standings(tournament: Tournament, standings: dict[str, Any]) -> dict[str, Any]:
    columns = [
        {
            "key": key,
            "abbr": words.metric_abbr(METRICS[key].abbr) if key in METRICS else key,
            "name": catalogue.label(METRICS[key].name) if key in METRICS else key,
        }
        for key in tournament.tiebreaks
    ]
    numbers = selectors.entry_numbers(tournament=tournament)
    rows = [
        {
            "rank": row["rank"],
            "number": numbers.get(row["entry"]),
            "team": row["team"],
            "players": row.get("players", []),
            "played": row["played"],
            "record": f"{row['won']}–{row['drawn']}–{row['lost']}",
            "values": [row.get("values", {}).get(key, "") for key in tournament.tiebreaks],
            "withdrawn": bool(row.get("withdrawn")),
        }
        for row in standings["rows"]
    ]
    notes = []
    for tie in standings.get("playoffs", []):  # the words of the standings pages (_standings_table.html)
        parts = {"place": tie.get("cut"), "teams": ", ".join(tie.get("teams", []))}
        if tie.get("pending"):
            note = gettext(
                "Level at place %(place)s: %(teams)s. A tie-break play-off decides (to be played)."
            )
        else:
            note = gettext("Level at place %(place)s: %(teams)s. A tie-break play-off decides.")
        notes.append(note % parts)
    return {"columns": columns, "rows": rows, "notes": notes}


def _bracket(tournament: Tournament) -> dict[str, Any] | None:
    from .bracket import bracket_state

    return bracket_state(tournament=tournament)


def screen_state(tournament: Tournament) -> dict[str, Any]:
    """Everything the screen shows, and the version it was read at: never newer than what it holds
    (the stamp is read before the rounds; the standings' own version is the one served)."""
    parts = live.stamp_parts(tournament.pk) or (tournament.status, 0, 0, 0)
    standings = selectors.standings_get(tournament=tournament)
    version = live.version((tournament.status, standings["version"], parts[2], parts[3]))
    rnd = tournament.rounds.order_by("-number").first()
    finished = tournament.status == Tournament.Status.FINISHED
    ranking = standings.get("ranking") if finished else None
    numbers = selectors.entry_numbers(tournament=tournament) if ranking else {}
    return {
        "version": version,
        "now": timezone.now().astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "status": tournament.status,
            "status_label": catalogue.label(tournament.get_status_display()),
            "game": catalogue.game_name(tournament.ruleset),
        },
        "clock": None if finished else round_clock(rnd),
        "round": None
        if rnd is None
        else {
            "number": rnd.number,
            "label": round_label(rnd),
            "status": rnd.status,
            "status_label": catalogue.label(rnd.get_status_display()),
            "tables": _tables(rnd),
        },
        "standings": _standings(tournament, standings),
        # during the knockout, its bracket instead of the standings (tournaments/bracket.py)
        "bracket": _bracket(tournament) if rnd is not None and rnd.kind == Round.Kind.KNOCKOUT else None,
        "ranking": [
            {
                "position": row.get("position"),
                "rank": row.get("rank"),
                "number": numbers.get(row.get("entry")),
                "team": row.get("team"),
                "players": row.get("players", []),
                # how far the team went ("Champion", "Semi-final" …); nothing for the stage's teams
                "stage": row.get("stage") or reached_name(row.get("reached") or ""),
            }
            for row in ranking
        ]
        if ranking
        else None,
    }


def _tables(rnd: Any) -> list[dict[str, Any]]:
    """The round's tables; a table with a result from its paper sheet shows it (one query more)."""
    tables = list(selectors.round_tables(rnd=rnd))
    paper = selectors.paper_by_table(table_ids=[t.pk for t in tables])
    return [_table(t, paper.get(t.pk)) for t in tables]


def screen_labels() -> dict[str, str]:
    """The words the page's script writes, in the page's language."""
    return {
        "pairings": gettext("Pairings"),
        "standings": gettext("Standings"),
        "final_ranking": gettext("Final ranking"),
        "table": gettext("Table"),
        "team": gettext("Team"),
        "played": gettext("Played"),
        "record": gettext("W–D–L"),
        "bye": gettext("bye"),
        "withdrawn": gettext("withdrawn"),
        "last_deal": pgettext("round clock", "Last deal"),
        "paused": pgettext("round clock", "Paused"),
        "offline": gettext("Reconnecting…"),
        "not_drawn": gettext("Not drawn yet."),
        "no_result": gettext("No result yet."),
        "bracket": gettext("Bracket"),
        "third_place": pgettext("knockout", "Match for third place"),
        "playing": gettext("playing"),
        "paper": gettext("From the paper sheet"),
    }


def clock_text(clock: dict[str, Any] | None, labels: dict[str, str]) -> str:
    """The clock as the page first shows it (the script counts down from there)."""
    if clock is None:
        return ""
    if clock["state"] == "over":
        return labels["last_deal"]
    seconds = clock["paused_left"]
    if clock["state"] != "paused" and clock["ends_at"]:
        ends_at = datetime.fromisoformat(clock["ends_at"].replace("Z", "+00:00"))
        seconds = (ends_at - timezone.now()).total_seconds()
    if seconds is None:
        return "–"
    if seconds <= 0:
        return labels["last_deal"]
    minutes, secs = divmod(math.ceil(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


# The views -----------------------------------------------------------------------------------


@require_safe
def screen(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _visible(request, slug)
    data = screen_state(tournament)
    labels = screen_labels()
    context = {
        "tournament": tournament,
        "data": data,
        "labels": labels,
        "clock_text": clock_text(data["clock"], labels),
        "data_url": reverse("tournaments:screen_data", args=[tournament.slug]),
        "events_url": reverse("tournaments:screen_events", args=[tournament.slug]),
    }
    return render(request, "tournaments/screen.html", context)


@never_cache
@require_safe
def screen_data(request: HttpRequest, slug: str) -> JsonResponse:
    return JsonResponse(screen_state(_visible(request, slug)))


def _opened(request: HttpRequest, slug: str, *, let_go: bool) -> tuple[int, str | None]:
    """Who may open the stream, and where the tournament stands: the tournament's id and stamp
    (Http404 for a tournament this visitor may not see). Run in a worker thread; under ASGI its
    database connection is closed before the stream starts waiting."""
    try:
        tournament = _visible(request, slug)
        return tournament.pk, live.stamp(tournament.pk)
    finally:
        if let_go:
            live.let_go()


def _too_many(limit: int) -> HttpResponse:
    body = gettext(
        "Too many open screens from this address (at most %(limit)s). Close one and try again later."
    ) % {"limit": limit}
    response = HttpResponse(body + "\n", status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(live.RETRY_AFTER_SECONDS)
    return response


def _event_stream(content: Any) -> HttpResponse:
    kind = StreamingHttpResponse if not isinstance(content, str) else HttpResponse
    response = kind(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@require_safe
async def screen_events(request: HttpRequest, slug: str) -> HttpResponse:
    """The screen's event stream, served by the ASGI ``live`` service: it waits without a thread
    and without a database connection, at most ``TSOXA_STREAMS_PER_ADDRESS`` at once per client
    address. A WSGI server (``runserver``, or gunicorn by mistake) answers at once instead, with
    what changed and the hint to ask again (``live.at_once``): no thread is held."""
    since = (request.headers.get("Last-Event-ID") or request.GET.get("v", ""))[:100]
    if not isinstance(request, ASGIRequest):
        tournament_id, current = await sync_to_async(_opened)(request, slug, let_go=False)
        return _event_stream(live.at_once(current or "", since))
    slot = await live.slot_take(client_ip(request))
    if slot is None:
        return _too_many(settings.TSOXA_STREAMS_PER_ADDRESS)
    try:
        shared = live.hub()
        await shared.ready()  # subscribed (a moment at most) before the database is read
        mark = shared.mark()
        async with shared.reading:  # one read (one connection) per stream opening, two at once
            tournament_id, current = await sync_to_async(_opened, thread_sensitive=False)(
                request, slug, let_go=True
            )
        stream = live.events(tournament_id, since_version=since, slot=slot, opened=(current, mark))
        first = await anext(stream, None)  # listening: the slot is now the stream's
    except BaseException:
        await slot.release()
        raise
    if first is None:
        raise Http404("No such tournament.")
    return _event_stream(_from(first, stream))


async def _from(first: str, stream: AsyncIterator[str]) -> AsyncIterator[str]:
    yield first
    async for chunk in stream:
        yield chunk
