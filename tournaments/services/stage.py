"""Where the stage (Swiss or round robin rounds) stands."""

from __future__ import annotations

from typing import Any

from .. import pairing, standings
from ..models import Round, Tournament
from .common import STAGE_KINDS


def stage_rounds(tournament: Tournament) -> int:
    if tournament.format == Tournament.Format.SWISS:
        return tournament.swiss_rounds
    return len(pairing.round_robin(tournament.participants))


def stage_complete(tournament: Tournament) -> bool:
    stage = tournament.rounds.filter(kind__in=STAGE_KINDS)
    return (
        stage.count() >= stage_rounds(tournament) and not stage.exclude(status=Round.Status.FINISHED).exists()
    )


def pending_playoffs(tournament: Tournament) -> bool:
    return tournament.rounds.filter(kind=Round.Kind.PLAYOFF).exclude(status=Round.Status.FINISHED).exists()


def ties_at_cuts(tournament: Tournament, rows: list[standings.Row]) -> list[dict[str, Any]]:
    ties = []
    for cut in tournament.cuts:
        level = standings.level_at_cut(rows, cut)
        if level:
            ties.append({"cut": cut, "entries": level})
    return ties
