"""The big screen: a tournament on the café's TV or projector, across the room.

Three views: the page (``screen``: rendered at once from the data, right without JavaScript), its
data as JSON (``screen_data``: what the page's script renders again after a change) and the
stream that says when the data has changed (``screen_events``: an async view, pushed by
``tournaments.live``). The page fetches the data once per change, never on a timer; the round's
clock counts down in the browser from the time it ends.

A deal recorded at a table does not publish (a hundred tables would make every screen read
everything after each deal): it counts in the cache's counter of ``tournaments.presence`` that the
organizer's console reads too. The screen's stream reads that counter once a second (one read per
tournament per process, whatever the number of its screens) and says ``what: "tables"`` when it
moved; the page then fetches only its tables' running scores (``screen_data?part=tables``). The
version the page holds is ``<live stamp>~<counter>``.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import io
import json
import logging
import math
import time
import weakref
from collections.abc import AsyncGenerator, AsyncIterator
from datetime import UTC, datetime
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext, pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from scoring import messages as catalogue
from web.ratelimits import client_ip

from . import live, presence, selectors
from . import messages as words
from .models import Round, Tournament
from .standings import METRICS
from .templatetags.tournament_tags import reached_name

logger = logging.getLogger(__name__)


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


def _players(entry: Any, partner: Any) -> list[str] | None:
    """A team's two players (a line under its name); None at an individual table, whose side's
    name is already its two players'."""
    if entry is None or partner is not None or entry.team_id is None:
        return None
    team = entry.team
    return [p.name for p in (team.player_a, team.player_b) if p is not None]


def _running(table: Any, tournament: Tournament, timed: bool) -> dict[str, Any]:
    """A table still playing: its running score and how far it is (``deal`` of ``deals``, or the
    target), or in a timed round only the totals (the page adds the round's time left)."""
    match = table.match
    if match is None or table.is_bye or table.left_out:
        return {"playing": False}
    played = int((match.state or {}).get("played") or 0)
    totals = list((match.totals or [0, 0])[:2])
    if played == 0:
        return {"playing": False}
    # the match's own number of deals (0: to its target, as a knockout's), else the tournament's
    deals = (match.options or {}).get("deals", tournament.deals_per_match)
    out = {"playing": True, "running": totals, "deal": None, "deals": None, "target": None, "timed": timed}
    if timed:
        return out
    if deals:
        return out | {"deal": min(played + 1, deals), "deals": deals}
    return out | {"target": match.target}


def _table(
    table: Any, paper: Any = None, tournament: Tournament | None = None, timed: bool = False
) -> dict[str, Any]:
    match = table.match
    finished = match is not None and match.status == "finished"
    if paper is not None and not finished:  # a result typed from the paper sheet, until the deals finish
        return {**_table(table), "score": list(paper.scores), "finished": True, "paper": True}
    out = {
        "number": table.number,
        "teams": [_side(table.entry0, table.partner0), _side(table.entry1, table.partner1)],
        # each side's number ("7"; "3 & 8" at an individual table), None for a bye
        "numbers": [_side_number(table.entry0, table.partner0), _side_number(table.entry1, table.partner1)],
        # a team's players, a line under its name (None at an individual table, and for a bye)
        "players": [_players(table.entry0, table.partner0), _players(table.entry1, table.partner1)],
        "bye": table.is_bye,
        "score": list(match.totals[:2]) if finished and match.totals else None,
        "finished": finished,
        "playing": False,
    }
    if not finished and tournament is not None:  # in play: the running score, deal by deal
        out |= _running(table, tournament, timed)
    return out


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


def _points_columns(table: dict[str, Any]) -> list[dict[str, Any]]:
    """The final ranking's points: the format's first two ranking columns that are points (not the
    head-to-head, which only separates teams level)."""
    return [c for c in table["columns"] if c["key"] != "head_to_head"][:2]


def _bracket(tournament: Tournament) -> dict[str, Any] | None:
    from .bracket import bracket_state

    return bracket_state(tournament=tournament)


def _prizes(tournament: Tournament) -> dict[str, Any] | None:
    """The prize-giving's panel (``tournaments.prizes.prize_list``), once the tournament is
    finished and it has prizes (a place with a prize, or a category); else None. Amounts are
    written with the currency ("177 €"). A constant number of queries (one when none is set)."""
    from .prizes import money, prize_list

    found = prize_list(tournament=tournament)
    if not (found["places"] or found["categories"]):
        return None
    currency = found["currency"]
    key = found["points_key"]

    def team(side: dict[str, Any] | None) -> dict[str, Any] | None:
        if side is None:
            return None
        players = list(side.get("players") or [])
        return {
            "number": side.get("number"),
            "name": side["name"],
            "players": players if len(players) > 1 else [],
        }

    return {
        "points": None
        if not key
        else {
            "key": key,
            "abbr": words.metric_abbr(METRICS[key].abbr) if key in METRICS else key,
            "name": catalogue.label(METRICS[key].name) if key in METRICS else key,
        },
        "places": [
            {
                "position": place["position"],
                "place": place["label"],  # "2", or "=2" for a shared place (tournaments/prizes.py)
                "team": team(place["team"]),
                "withdrawn": place["withdrawn"],
                "points": "" if place["points"] is None else place["points"],
                "amount": money(place["amount"], currency) if place["amount"] else "",
                "text": place["text"],
            }
            for place in found["places"]
        ],
        "categories": [
            {
                "name": category["name"],
                "winners": [team(w) for w in category["winners"]],
                "amount": money(category["amount"], currency) if category["amount"] else "",
                "text": category["text"],
            }
            for category in found["categories"]
        ],
    }


def screen_state(tournament: Tournament) -> dict[str, Any]:
    """Everything the screen shows, and the version it was read at: never newer than what it holds
    (the stamp is read before the rounds; the standings' own version is the one served)."""
    count = presence.changes(tournament.pk)  # before the tables: never newer than what is served
    parts = live.stamp_parts(tournament.pk) or (tournament.status, 0, 0, 0, 0)
    standings = selectors.standings_get(tournament=tournament)
    version = live.version((tournament.status, standings["version"], parts[2], parts[3], parts[4]))
    rnd = tournament.rounds.order_by("-number").first()
    finished = tournament.status == Tournament.Status.FINISHED
    ranking = standings.get("ranking") if finished else None
    numbers = selectors.entry_numbers(tournament=tournament) if ranking else {}
    clock = None if finished else round_clock(rnd)
    table = _standings(tournament, standings)
    points = {row["entry"]: row.get("values", {}) for row in standings["rows"]} if ranking else {}
    club = tournament.club
    return {
        "version": f"{version}~{count}",
        "now": timezone.now().astimezone(UTC).isoformat().replace("+00:00", "Z"),
        "tournament": {
            "name": tournament.name,
            "slug": tournament.slug,
            "status": tournament.status,
            "status_label": catalogue.label(tournament.get_status_display()),
            "game": catalogue.game_name(tournament.ruleset),
            "club": club.name if club is not None else "",
            "accent": accent(tournament),
        },
        "clock": clock,
        "round": None
        if rnd is None
        else {
            "number": rnd.number,
            "label": round_label(rnd),
            "status": rnd.status,
            "status_label": catalogue.label(rnd.get_status_display()),
            "tables": _tables(rnd, tournament, clock is not None) if not finished else [],
        },
        "standings": table,
        "ranking_columns": _points_columns(table) if points else [],
        # "find your table", while a round is drawn or played: everyone, alphabetically
        "finder": [] if finished else _finder_rows(tournament, rnd),
        "qr": _qr_codes(tournament, screen_labels()),
        # during the knockout, its bracket instead of the standings (tournaments/bracket.py)
        "bracket": _bracket(tournament) if rnd is not None and rnd.kind == Round.Kind.KNOCKOUT else None,
        # the prize-giving, once finished and when the organizer set prizes (tournaments/prizes.py)
        "prizes": _prizes(tournament) if finished else None,
        "ranking": [
            {
                "position": row.get("position"),
                "rank": row.get("rank"),
                "number": numbers.get(row.get("entry")),
                "team": row.get("team"),
                "players": row.get("players", []),
                # how far the team went ("Champion", "Semi-final" …); nothing for the stage's teams
                "stage": row.get("stage") or reached_name(row.get("reached") or ""),
                # the points it is ranked by (the standings' first columns), none for a knockout
                "values": [points.get(row.get("entry"), {}).get(c["key"], "") for c in _points_columns(table)]
                if points.get(row.get("entry"))
                else [],
            }
            for row in ranking
        ]
        if ranking
        else None,
    }


TEAM_PLAYERS = tuple(f"{side}__team__{p}" for side in ("entry0", "entry1") for p in ("player_a", "player_b"))


def _tables(rnd: Any, tournament: Tournament, timed: bool = False) -> list[dict[str, Any]]:
    """The round's tables with their teams' players and running scores; a table with a result from
    its paper sheet shows it. Two queries, whatever the number of tables."""
    tables = list(rnd.tables.select_related(*selectors.TABLE_RELATED, *TEAM_PLAYERS).order_by("number"))
    paper = selectors.paper_by_table(table_ids=[t.pk for t in tables])
    return [_table(t, paper.get(t.pk), tournament, timed) for t in tables]


def tables_state(tournament: Tournament) -> dict[str, Any]:
    """The light part the page fetches after a deal (the counter moved, nothing was published):
    the latest round's tables, and the counter they were read at; during the knockout its bracket
    too (its matches' running scores)."""
    count = presence.changes(tournament.pk)
    rnd = tournament.rounds.order_by("-number").first()
    timed = rnd is not None and round_clock(rnd) is not None
    found: dict[str, Any] = {
        "count": count,
        "round": None if rnd is None else rnd.number,
        "tables": [] if rnd is None else _tables(rnd, tournament, timed),
        "now": timezone.now().astimezone(UTC).isoformat().replace("+00:00", "Z"),
    }
    if rnd is not None and rnd.kind == Round.Kind.KNOCKOUT:  # the bracket follows its deals too
        found["bracket"] = _bracket(tournament)
    return found


# "Find your table": every player and team of the drawn round, alphabetically ----------------------


def _finder_rows(tournament: Tournament, rnd: Round | None) -> list[dict[str, Any]]:
    """The finder's rows for the screen: ``tournaments.personal.finder_rows`` where it is,
    else the same read here (name, team, number, table, side; players and teams alike)."""
    if rnd is None or rnd.status not in (Round.Status.DRAFT, Round.Status.STARTED):
        return []
    if importlib.util.find_spec("tournaments.personal") is not None:
        from tournaments import personal

        rows = getattr(personal, "finder_rows", None)
        if rows is not None:
            return [
                {k: row.get(k) for k in ("name", "team", "number", "table", "side")}
                for row in rows(tournament=tournament)
                if row.get("table") is not None  # seated in this round
            ]
    out: list[dict[str, Any]] = []
    tables = rnd.tables.select_related(*selectors.TABLE_RELATED, *TEAM_PLAYERS).order_by("number")
    for table in tables:
        if table.left_out:
            continue
        for side, seats in enumerate(((table.entry0, table.partner0), (table.entry1, table.partner1))):
            for entry in seats:
                if entry is None:
                    continue
                where = {"number": entry.number, "table": table.number, "side": "AB"[side]}
                team = entry.team
                if team is not None:
                    out.append({"name": team.name, "team": None, **where})
                    for player in (team.player_a, team.player_b):
                        out.append({"name": player.name, "team": team.name, **where})
                else:
                    assert entry.player is not None  # entry_team_or_player: no team, so a player
                    out.append({"name": entry.player.name, "team": None, **where})
    out.sort(key=lambda row: (row["name"].casefold(), row["table"] or 0))
    return out


# The club's colours and the QR codes ---------------------------------------------------------------


def _hex(colour: str) -> tuple[int, int, int] | None:
    colour = (colour or "").strip()
    if len(colour) != 7 or not colour.startswith("#"):
        return None
    try:
        return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    except ValueError:
        return None


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


WHITE, DARK = (255, 255, 255), (0x1B, 0x14, 0x00)
SCREEN_BG = (0x07, 0x14, 0x0F)


def accent(tournament: Tournament) -> dict[str, str] | None:
    """The screen's accent from the tournament's colours (the embed's): the bar's colour and a text
    colour readable on it (white or dark, whichever contrasts more: at least 4.5:1, else the
    screen's own green); the background colour where the colour is too close to the screen's dark
    background for the highlights. None: the screen's own green."""
    main = _hex(tournament.colour)
    if main is None:
        return None
    ink = WHITE if contrast(main, WHITE) >= contrast(main, DARK) else DARK
    if contrast(main, ink) < 4.5:
        return None  # a colour nothing reads on: the screen's green
    highlight = main if contrast(main, SCREEN_BG) >= 3 else (_hex(tournament.background) or WHITE)
    if contrast(highlight, SCREEN_BG) < 3:
        highlight = WHITE
    return {
        "bar": tournament.colour.lower(),
        "ink": "#{:02x}{:02x}{:02x}".format(*ink),
        "highlight": "#{:02x}{:02x}{:02x}".format(*highlight),
    }


QR_TARGETS = ("standings", "finder")


def _finder_path(tournament: Tournament) -> str:
    try:
        return reverse("tournaments:finder", args=[tournament.slug])
    except NoReverseMatch:  # the finder's page not there yet: its path, as agreed
        return f"/tournaments/{tournament.slug}/find/"


def qr_target(tournament: Tournament, to: str) -> str:
    if to == "standings":
        return reverse("tournaments:standings", args=[tournament.slug])
    return _finder_path(tournament)


def _qr_codes(tournament: Tournament, labels: dict[str, str]) -> list[dict[str, str]]:
    if not tournament.public:
        return []  # a private tournament's pages are its organizer's: nothing to scan
    return [
        {
            "to": to,
            "label": labels[f"qr_{to}"],
            "path": qr_target(tournament, to),
            "src": reverse("tournaments:screen_qr", args=[tournament.slug, to]),
        }
        for to in QR_TARGETS
    ]


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
        "deal_of": gettext("Deal %(n)s of %(of)s"),
        "of_target": gettext("%(score)s of %(target)s"),
        "find_table": gettext("Find your table"),
        "qr_standings": gettext("Live standings"),
        "qr_finder": gettext("Find your table"),
        "prizes": gettext("Prizes"),
        "place": gettext("Place"),
        "prize": gettext("Prize"),
        "not_decided": gettext("Not decided yet"),
        "not_chosen": gettext("Not chosen yet"),
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
    """The screen's data; ``?part=tables``: only the latest round's tables (after a deal)."""
    tournament = _visible(request, slug)
    if request.GET.get("part") == "tables":
        return JsonResponse(tables_state(tournament))
    return JsonResponse(screen_state(tournament))


@require_safe
def screen_qr(request: HttpRequest, slug: str, to: str) -> HttpResponse:
    """A QR code (SVG) to the live standings (``standings``) or "find your table" (``finder``)."""
    import segno

    tournament = _visible(request, slug)
    if to not in QR_TARGETS:
        raise Http404("No such code.")
    out = io.BytesIO()
    url = request.build_absolute_uri(qr_target(tournament, to))
    segno.make(url, error="m").save(
        out, kind="svg", scale=6, border=2, dark="#000", light="#fff", xmldecl=False
    )
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=3600"
    response["Content-Security-Policy"] = "default-src 'none'"  # only a picture: nothing in it runs
    response["X-Content-Type-Options"] = "nosniff"
    return response


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


def _event_stream(content: Any) -> HttpResponse | StreamingHttpResponse:
    kind = StreamingHttpResponse if not isinstance(content, str) else HttpResponse
    response = kind(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@require_safe
async def screen_events(request: HttpRequest, slug: str) -> HttpResponse | StreamingHttpResponse:
    """The screen's event stream, served by the ASGI ``live`` service: it waits without a thread
    and without a database connection, at most ``TSOXA_STREAMS_PER_ADDRESS`` at once per client
    address. A WSGI server (``runserver``, or gunicorn by mistake) answers at once instead, with
    what changed and the hint to ask again (``live.at_once``): no thread is held. Its versions are
    ``<stamp>~<counter>``: a change of the stamp is published (``what``: standings, round …), one
    of the counter is a deal (``what``: ``tables``), read once a second."""
    since = (request.headers.get("Last-Event-ID") or request.GET.get("v", ""))[:100]
    since_stamp, _, since_count = since.partition("~")
    if not isinstance(request, ASGIRequest):
        tournament_id, current = await sync_to_async(_opened)(request, slug, let_go=False)
        count = await sync_to_async(presence.changes)(tournament_id)
        return _event_stream(_at_once(current or "", count, since_stamp, since_count))
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
        stream = live.events(tournament_id, since_version=since_stamp, slot=slot, opened=(current, mark))
        first = await anext(stream, None)  # listening: the slot is now the stream's
    except BaseException:
        await slot.release()
        raise
    if first is None:
        raise Http404("No such tournament.")
    counts = _counts_here()
    try:  # after the stamp: a deal between the two is said once more at worst, never missed
        count = await counts.get(tournament_id)
    except BaseException:
        await stream.aclose()  # frees the slot
        raise
    return _event_stream(_merged(first, stream, tournament_id, current or "", count, since_count, counts))


def _at_once(stamp: str, count: int, since_stamp: str, since_count: str) -> str:
    """Under WSGI: what changed since the page's version (a deal only: ``tables``)."""
    since_count = since_count or str(count)  # a version without a counter: the stamp only
    answer = live.at_once(f"{stamp}~{count}", f"{since_stamp}~{since_count}")
    if stamp == since_stamp and since_count != str(count):
        answer = answer.replace('"what": ""', '"what": "tables"')
    return answer


COUNTER_SECONDS = 1.0  # how often the streams of a tournament read its counter of deals


class _Counts:
    """The counters of deals of the tournaments this process's screens show (one event loop's):
    read at most once per ``COUNTER_SECONDS`` per tournament, however many screens wait for it."""

    def __init__(self) -> None:
        self.values: dict[int, tuple[float, int]] = {}
        self.reads: dict[int, asyncio.Future[int]] = {}
        self.redis: Any = None  # the cache's Redis when it is not the live one (one connection)

    async def get(self, tournament_id: int) -> int:
        hit = self.values.get(tournament_id)
        if hit is not None and time.monotonic() - hit[0] < COUNTER_SECONDS * 0.9:
            return hit[1]
        reading = self.reads.get(tournament_id)
        if reading is None:
            reading = self.reads[tournament_id] = asyncio.ensure_future(self._read(tournament_id))
        return await asyncio.shield(reading)

    async def _read(self, tournament_id: int) -> int:
        try:
            value = await _read_counter(tournament_id, self)
            if len(self.values) > 1000:  # tournaments long gone
                old = time.monotonic() - 60
                self.values = {k: v for k, v in self.values.items() if v[0] > old}
            self.values[tournament_id] = (time.monotonic(), value)
            return value
        finally:
            self.reads.pop(tournament_id, None)


_counts_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Counts] = weakref.WeakKeyDictionary()


def _counts_here() -> _Counts:
    loop = asyncio.get_running_loop()
    counts = _counts_by_loop.get(loop)
    if counts is None:
        counts = _counts_by_loop[loop] = _Counts()
    return counts


_read_in_thread = sync_to_async(presence.changes, thread_sensitive=False)


async def _read_counter(tournament_id: int, counts: _Counts) -> int:
    """The counter. With the cache in Redis, read there without a thread and on one connection
    of this process (the live hub's own when it is the same Redis): Django's cache, read from the
    streams' worker threads, would open a connection per stream. Else from the cache in a thread."""
    backend = settings.CACHES["default"]
    location = backend.get("LOCATION")
    location = location[0] if isinstance(location, list | tuple) else location
    if not backend["BACKEND"].endswith("RedisCache") or not location:
        return await _read_in_thread(tournament_id)
    try:
        shared = live.hub()
        if location == shared.url:
            client = shared.counter()
        else:
            if counts.redis is None:
                import redis.asyncio as aredis

                pool = aredis.BlockingConnectionPool.from_url(
                    location, max_connections=1, timeout=10, socket_connect_timeout=1, socket_timeout=2
                )
                counts.redis = aredis.Redis(connection_pool=pool)
            client = counts.redis
        value = await client.get(cache.make_key(presence.changes_key(tournament_id)))
    except Exception:  # fail open: the last value read, a deal shows once Redis is back
        logger.warning("screen: could not read the counter of tournament %s", tournament_id, exc_info=True)
        return counts.values.get(tournament_id, (0, 0))[1]
    return int(value or 0)


async def _merged(
    first: str,
    stream: AsyncGenerator[str, None],
    tournament_id: int,
    stamp: str,
    count: int,
    since_count: str,
    counts: _Counts,
) -> AsyncIterator[str]:
    """The live stream with the counter's changes in it: every version ``<stamp>~<counter>``."""
    yield first
    if since_count and since_count != str(count):  # a deal since the page's version
        yield live.changed(f"{stamp}~{count}", "tables")
    pending = asyncio.ensure_future(anext(stream, None))
    try:
        while True:
            done, _ = await asyncio.wait({pending}, timeout=COUNTER_SECONDS)
            if pending in done:
                chunk = pending.result()
                if chunk is None:
                    return
                if chunk.startswith("id: "):  # the stamp moved: the screen's version with it
                    stamp = chunk[4 : chunk.index("\n")]
                    what = chunk[chunk.index("data: ") + 6 : chunk.rindex("\n\n")]
                    try:
                        said = json.loads(what).get("what", "")
                    except ValueError:
                        said = ""
                    chunk = live.changed(f"{stamp}~{count}", said)
                yield chunk
                pending = asyncio.ensure_future(anext(stream, None))
                continue
            now = await counts.get(tournament_id)
            if now != count:
                count = now
                yield live.changed(f"{stamp}~{count}", "tables")
    finally:
        pending.cancel()
        with contextlib.suppress(BaseException):
            await pending
        with contextlib.suppress(BaseException):
            await stream.aclose()
