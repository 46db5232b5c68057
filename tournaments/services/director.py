"""The director's decisions: a penalty in points, a forfeit, a match awarded; each with a reason,
saved with its history (who and when), shown on the standings and the round's page, and taken back
only by deleting it (the history keeps it too).

- A **penalty** takes game points (162 is the usual: a deal's total) and, if the organizer says so,
  match points from one team's standings.
- A **forfeit** decides a table without play: the team that did not forfeit is given the match with
  the score the organizer sets (for instance 1,100 – 0, or the target), whatever was played there.
- A **match awarded** decides a table against its play (a team disqualified at that table): the
  winner and both scores as the organizer sets them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from .. import live
from ..models import Adjustment, Entry, Round, Table, Tournament
from . import queue, sync
from .common import TournamentError

MAX_POINTS = 100_000


def _open_to_decisions(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.REGISTRATION:
        raise TournamentError(gettext("The tournament has not started: there is nothing to decide."))


def _reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise TournamentError(gettext("Give the reason: it is shown with the decision."))
    if len(reason) > 300:
        raise TournamentError(gettext("The reason is too long (300 characters at most)."))
    return reason


def _points(value: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > MAX_POINTS:
        raise TournamentError(
            gettext("%(what)s: a whole number up to %(max)s.") % {"what": what, "max": MAX_POINTS}
        )
    return value


def _saved(adjustment: Adjustment, user: Any) -> Adjustment:
    adjustment.created_by = user if getattr(user, "is_authenticated", False) else None
    adjustment._history_user = adjustment.created_by
    adjustment.save()
    sync.tournament_touch(adjustment.tournament_id)
    queue.standings_request(adjustment.tournament_id)
    live.publish(adjustment.tournament_id, "standings")
    return adjustment


@transaction.atomic
def penalty_add(
    *, tournament: Tournament, entry: Entry, points: int, reason: str, match_points: int = 0, user: Any = None
) -> Adjustment:
    """Take ``points`` game points (and ``match_points``) from ``entry``'s standings."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _open_to_decisions(tournament)
    if entry.tournament_id != tournament.pk:
        raise TournamentError(gettext("That team is not in this tournament."))
    points, match_points = _points(points, gettext("Points")), _points(match_points, gettext("Match points"))
    if not points and not match_points:
        raise TournamentError(gettext("A penalty takes some points: say how many."))
    adjustment = Adjustment(
        tournament=tournament,
        kind=Adjustment.Kind.PENALTY,
        entry=entry,
        points=points,
        match_points=match_points,
        reason=_reason(reason),
    )
    return _saved(adjustment, user)


@transaction.atomic
def table_decide(
    *,
    table: Table,
    kind: str,
    winner: int | None,
    scores: Sequence[int],
    reason: str,
    user: Any = None,
) -> Adjustment:
    """Decide a table: a forfeit (``winner`` is the side that did not forfeit) or a match awarded
    (``winner`` 0, 1, or None for a draw), with the ``scores`` (game points of side 0 and side 1)
    the standings count for it instead of what was played."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    rnd, tournament = table.round, table.round.tournament
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    _open_to_decisions(tournament)
    if kind not in (Adjustment.Kind.FORFEIT, Adjustment.Kind.AWARD):
        raise TournamentError(gettext("A table is decided by a forfeit or a match awarded."))
    if table.is_bye:
        raise TournamentError(gettext("A bye has no match to decide."))
    if rnd.status == Round.Status.DRAFT:
        raise TournamentError(gettext("Start the round first: a drawn round's tables are not played yet."))
    decided = table.adjustments.filter(kind__in=(Adjustment.Kind.FORFEIT, Adjustment.Kind.AWARD)).exists()
    if table.left_out and not decided:  # a decision taken before the end may still be corrected
        raise TournamentError(
            gettext(
                "The tournament finished without this table's match: it counts for nobody, and a decision "
                "after the end only corrects a result that counts."
            )
        )
    if rnd.kind == Round.Kind.KNOCKOUT and winner is None:
        raise TournamentError(gettext("A knockout match needs a winner."))
    if winner not in (0, 1, None) or (kind == Adjustment.Kind.FORFEIT and winner is None):
        raise TournamentError(gettext("Say which side (0 or 1) is given the match."))
    scores = list(scores or [])
    if len(scores) != 2 or any(not isinstance(s, int) or isinstance(s, bool) or s < 0 for s in scores):
        raise TournamentError(gettext("The scores are two whole numbers, one per side, 0 or more."))
    for score in scores:
        _points(score, gettext("Scores"))
    if winner is not None and scores[winner] < scores[1 - winner]:
        raise TournamentError(gettext("The side given the match cannot have the lower score."))
    adjustment = Adjustment(
        tournament=tournament,
        kind=kind,
        table=table,
        winner=winner,
        scores=scores,
        reason=_reason(reason),
    )
    return _saved(adjustment, user)


@transaction.atomic
def adjustment_delete(*, adjustment: Adjustment, user: Any = None) -> None:
    """Take a decision back (its history keeps it, and who took it back)."""
    adjustment = Adjustment.objects.select_related("tournament").get(pk=adjustment.pk)
    _open_to_decisions(adjustment.tournament)
    tournament_id = adjustment.tournament_id
    adjustment._history_user = user if getattr(user, "is_authenticated", False) else None
    adjustment.delete()
    sync.tournament_touch(tournament_id)
    queue.standings_request(tournament_id)
    live.publish(tournament_id, "standings")
