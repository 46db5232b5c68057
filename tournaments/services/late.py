"""Late entries: a team (or a player) that arrives once the tournament has started.

It plays from the next round drawn; for each round it missed it is given the score the organizer
chooses (no rulebook sets one: nothing, a loss's, a bye's …), recorded as one decision with its
reason, like the director's other decisions (shown and audited; ``Adjustment.Kind.LATE``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from .. import live
from ..models import Adjustment, Entry, Tournament
from . import queue
from .common import STAGE_KINDS, TournamentError
from .entries import entry_register
from .stage import stage_rounds


@transaction.atomic
def entry_register_late(
    *,
    tournament: Tournament,
    name: str,
    players: Sequence[str],
    player_ids: Sequence[int | None] | None = None,
    points_per_missed_round: int = 0,
    match_points_per_missed_round: int = 0,
    user: Any = None,
) -> Entry:
    """Enter a team after the start: it plays from the next round drawn, and is given
    ``points_per_missed_round`` game points and ``match_points_per_missed_round`` match points for
    each round already drawn."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(gettext("A late entry joins a running tournament."))
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        raise TournamentError(gettext("A round robin's schedule is fixed at the start: no late entry."))
    stage = tournament.rounds.filter(kind__in=STAGE_KINDS)
    missed = stage.count()
    if missed >= stage_rounds(tournament) or tournament.rounds.exclude(kind__in=STAGE_KINDS).exists():
        raise TournamentError(gettext("Every round has been drawn: there is no round left to join."))
    for value in (points_per_missed_round, match_points_per_missed_round):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10_000:
            raise TournamentError(gettext("The score for a missed round is a whole number from 0 to 10,000."))
    entry = entry_register(
        tournament=tournament, name=name, players=players, player_ids=player_ids, user=user, late=True
    )
    entry.joined_round = missed + 1
    entry._history_user = user
    entry.save(update_fields=["joined_round"])
    tournament.participants = [*tournament.participants, entry.pk]
    tournament._history_user = user
    tournament.save(update_fields=["participants", "updated_at"])
    if missed and (points_per_missed_round or match_points_per_missed_round):
        Adjustment.objects.create(
            tournament=tournament,
            kind=Adjustment.Kind.LATE,
            entry=entry,
            points=points_per_missed_round * missed,
            match_points=match_points_per_missed_round * missed,
            reason=gettext("Late entry: %(n)s round(s) missed") % {"n": missed},
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )
    queue.standings_request(tournament.pk)
    live.publish(tournament.pk, "standings")
    return entry
