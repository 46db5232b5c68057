"""What every tournament write shares: the error an organizer reads, the entry states that play."""

from __future__ import annotations

import logging

from ..models import Entry, Round

logger = logging.getLogger("tournaments.services")
ACTIVE = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)
STAGE_KINDS = (
    Round.Kind.SWISS,
    Round.Kind.ROUND_ROBIN,
    Round.Kind.CONCOURS,
    Round.Kind.INDIVIDUAL,
    Round.Kind.POOL,
)
PLAYOFF_ORDER = ("match_points", "point_difference", "game_points")


class TournamentError(ValueError):
    """An organizer's request that cannot be done now, in plain words."""
