"""Where the stage (Swiss or round robin rounds) stands."""

from __future__ import annotations

from typing import Any

from .. import pairing, standings
from ..models import Entry, Round, Tournament
from .common import STAGE_KINDS


def stage_rounds(tournament: Tournament) -> int:
    if tournament.format == Tournament.Format.POOLS:  # every pool's round robin, side by side
        return max((len(pairing.round_robin(pool)) for pool in pools(tournament).values()), default=0)
    if tournament.format != Tournament.Format.ROUND_ROBIN:  # Swiss, concours, individual
        return tournament.swiss_rounds
    return len(pairing.round_robin(tournament.participants))


def pools(tournament: Tournament) -> dict[str, list[int]]:
    """Each pool's entries, in the order they were drawn into it (one query)."""
    found: dict[str, list[int]] = {}
    entries = Entry.objects.filter(pk__in=tournament.participants).exclude(pool="")
    for pk, pool in entries.values_list("pk", "pool"):
        found.setdefault(pool, []).append(pk)
    order = {entry: i for i, entry in enumerate(tournament.participants)}
    return {pool: sorted(members, key=order.__getitem__) for pool, members in sorted(found.items())}


def stage_complete(tournament: Tournament) -> bool:
    stage = tournament.rounds.filter(kind__in=STAGE_KINDS)
    return (
        stage.count() >= stage_rounds(tournament) and not stage.exclude(status=Round.Status.FINISHED).exists()
    )


def pending_playoffs(tournament: Tournament) -> bool:
    return tournament.rounds.filter(kind=Round.Kind.PLAYOFF).exclude(status=Round.Status.FINISHED).exists()


def ties_at_cuts(tournament: Tournament, rows: list[standings.Row]) -> list[dict[str, Any]]:
    if tournament.format == Tournament.Format.POOLS:  # pools are ranked each on its own: no cut across them
        return []
    ties = []
    for cut in tournament.cuts:
        level = standings.level_at_cut(rows, cut)
        if level:
            ties.append({"cut": cut, "entries": level})
    return ties
