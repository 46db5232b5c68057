"""Asking for the standings: one task per burst of results, after the commit."""

from __future__ import annotations

import dataclasses
import datetime

from django.core.cache import cache
from django.db import transaction
from django.db.models import Max, OuterRef, Q, Subquery
from django.utils import timezone
from kombu.exceptions import OperationalError

from scoring.models import Match
from scoring.signals import MatchResult

from .. import after_response
from ..models import Adjustment, Tournament
from .common import logger


def standings_cache_key(tournament_id: int) -> str:
    return f"standings-page:{tournament_id}"


def _queue_key(tournament_id: int) -> str:
    return f"standings-queued:{tournament_id}"


def standings_affected(before: MatchResult, after: MatchResult, *, confirmation: bool = True) -> bool:
    """Whether a change of a match can change the standings: it finished, or it was finished and
    is corrected (its totals, winner or suffered deals), unfinished again, or, when the tournament
    asks for confirmation, confirmed or unconfirmed. A deal of a match in play changes nothing."""
    if not (before.finished or after.finished):
        return False
    if not confirmation:
        before = dataclasses.replace(before, confirmed=False)
        after = dataclasses.replace(after, confirmed=False)
    return before != after


def standings_request(tournament_id: int) -> None:
    """Ask for a recomputation once the current transaction commits.

    A burst of results queues one task per tournament: the first request after
    the commit sets a flag the task clears when it starts (and reads the results
    after that); requests meanwhile find the flag set. With no broker (the task
    runs eagerly, in this process) it waits until the response of the request
    that asked has been sent (``after_response``). Neither a cache nor a broker
    that is down stops a deal from being recorded: the failure is logged, and
    the standings catch up with the next result, when a worker starts, and every
    minute through Celery beat (``standings_catch_up``); the next round can be
    drawn meanwhile (``round_generate`` counts what is missing first).
    """
    transaction.on_commit(lambda: _queue_standings(tournament_id))


def _queue_standings(tournament_id: int) -> None:
    from ..tasks import standings_recompute

    try:
        first = cache.add(_queue_key(tournament_id), 1, timeout=30)
    except Exception:  # the cache is down: queue anyway, the task is safe to run twice
        logger.warning("standings: cache unavailable, queueing without coalescing", exc_info=True)
        first = True
    if not first:
        return
    if standings_recompute.app.conf.task_always_eager:
        after_response.run_after_response(lambda: _send_standings(tournament_id))
    else:
        _send_standings(tournament_id)


def _send_standings(tournament_id: int) -> None:
    from ..tasks import standings_recompute

    try:
        standings_recompute.apply_async((tournament_id,), countdown=1)
    except Exception:  # the broker is down (kombu's OperationalError): the deal is saved; the catch-up
        # (beat, a worker start, a later deal) recomputes the standings
        logger.warning("standings: could not queue tournament %s", tournament_id, exc_info=True)
        try:
            cache.delete(_queue_key(tournament_id))
        except Exception:
            logger.warning("standings: cache unavailable", exc_info=True)


def standings_started(tournament_id: int) -> None:
    """The task has begun: later changes must queue a new run."""
    try:
        cache.delete(_queue_key(tournament_id))
    except Exception:
        logger.warning("standings: cache unavailable", exc_info=True)


# A finished tournament's result corrected while the broker was down is caught up within this time.
CATCH_UP_FINISHED = datetime.timedelta(days=7)


def standings_stale(*, tournament_id: int | None = None) -> list[int]:
    """Tournaments whose stored standings are older than their last result: a match changed (a deal,
    a correction, a confirmation) or a director's decision taken after the snapshot was computed,
    or no snapshot at all. Every running tournament is looked at, and a finished one whose match
    changed in the last ``CATCH_UP_FINISHED``; ``tournament_id``: that one only. One query."""
    last_match = (
        Match.objects.filter(table__round__tournament=OuterRef("pk"))
        .order_by()
        .values("table__round__tournament")
        .annotate(last=Max("updated_at"))
        .values("last")
    )
    last_decision = (
        Adjustment.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(last=Max("created_at"))
        .values("last")
    )
    corrected = Match.objects.filter(
        updated_at__gte=timezone.now() - CATCH_UP_FINISHED,
        table__round__tournament__status=Tournament.Status.FINISHED,
    ).values("table__round__tournament")
    candidates = Tournament.objects.filter(Q(status=Tournament.Status.RUNNING) | Q(pk__in=corrected))
    if tournament_id is not None:
        candidates = candidates.filter(pk=tournament_id)
    candidates = candidates.annotate(  # the dates only, not the stored rows
        last_match=Subquery(last_match), last_decision=Subquery(last_decision)
    ).order_by("pk")
    stale = []
    for pk, *changes, computed_at in candidates.values_list(
        "pk", "last_match", "last_decision", "standings__computed_at"
    ):
        last = max((c for c in changes if c is not None), default=None)
        if last is not None and (computed_at is None or computed_at < last):
            stale.append(pk)
    return stale


def queue_playoffs(tournament_id: int) -> None:
    from ..tasks import playoffs_create

    try:
        playoffs_create.delay(tournament_id)
    except (OperationalError, OSError):  # the broker is down: made here and now, as with no broker
        logger.warning("standings: could not queue the play-offs of %s", tournament_id, exc_info=True)
        from .rounds import playoffs_create as create

        create(tournament_id=tournament_id)
