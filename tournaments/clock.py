"""The clock of a timed round, read from its round and table rows (the writes: services/clock.py).

A tournament with a ``time_limit`` (minutes) times its stage rounds (Swiss, concours, round robin,
individual; a knockout or play-off match is played to its target, for it needs a winner). The
organizer starts a round's clock once the tables are seated; it can pause and resume it (for every
table) and add or take time, for every table or for one (a table that started late). A table's
time ends at::

    clock started + time limit + the round's pauses + the round's extra time
                               + the table's pauses + the table's extra time

When it is up, the deal in play is the last one: the next deal recorded at that table ends its
match on the totals (higher total wins, equal is a draw), as "2001 points or 40 minutes" is
played. Nothing is stored per second: each reader works the time out from these rows.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from .models import Round, Table

TIMED_KINDS = (Round.Kind.SWISS, Round.Kind.ROUND_ROBIN, Round.Kind.CONCOURS, Round.Kind.INDIVIDUAL)


def timed(rnd: Round) -> bool:
    return rnd.tournament.time_limit > 0 and rnd.kind in TIMED_KINDS


def _paused(since: dt.datetime | None, before: int, now: dt.datetime) -> float:
    return before + ((now - since).total_seconds() if since is not None else 0.0)


def ends_at(rnd: Round, table: Table | None = None, now: dt.datetime | None = None) -> dt.datetime | None:
    """When the round's time (or one table's) ends, as things stand ``now`` (a running pause pushes
    it later); None before the clock is started or in an untimed round."""
    if rnd.clock_started_at is None or not timed(rnd):
        return None
    now = now or timezone.now()
    seconds: float = rnd.tournament.time_limit * 60 + rnd.clock_extra_seconds
    seconds += _paused(rnd.clock_paused_at, rnd.clock_paused_seconds, now)
    if table is not None:
        seconds += table.extra_seconds + _paused(table.paused_at, table.paused_seconds, now)
    return rnd.clock_started_at + dt.timedelta(seconds=seconds)


def paused(rnd: Round, table: Table | None = None) -> bool:
    return rnd.clock_paused_at is not None or (table is not None and table.paused_at is not None)


def time_is_up(table: Table, now: dt.datetime | None = None) -> bool:
    """Whether time has been called at ``table``: its clock ran out (not while paused)."""
    rnd = table.round
    end = ends_at(rnd, table, now)
    return end is not None and not paused(rnd, table) and (now or timezone.now()) >= end


def state(rnd: Round, table: Table | None = None, now: dt.datetime | None = None) -> dict[str, Any] | None:
    """The clock as a page shows it: ``{"round", "ends_at", "left" (seconds, rounded up), "state":
    "ready" | "running" | "paused" | "over", "paused_left"}``; None for an untimed round."""
    if not timed(rnd):
        return None
    now = now or timezone.now()
    if rnd.clock_started_at is None:
        limit = rnd.tournament.time_limit * 60
        return {"round": rnd.number, "ends_at": None, "left": limit, "state": "ready", "paused_left": limit}
    end = ends_at(rnd, table, now)
    assert end is not None  # a timed round whose clock has started always ends
    left = max(0, int(-(-(end - now).total_seconds() // 1)))
    if paused(rnd, table):
        return {"round": rnd.number, "ends_at": None, "left": left, "state": "paused", "paused_left": left}
    return {
        "round": rnd.number,
        "ends_at": end,
        "left": left,
        "state": "over" if left == 0 else "running",
        "paused_left": None,
    }


def round_clock(rnd: Round) -> dict[str, Any] | None:
    """The round's clock for the big screen (every table's own extra time left aside)."""
    found = state(rnd)
    if found is None or found["state"] == "ready":
        return None
    return found
