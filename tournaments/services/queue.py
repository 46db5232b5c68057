"""Asking for the standings: one task per burst of results, after the commit."""

from __future__ import annotations

import dataclasses

from django.core.cache import cache
from django.db import transaction

from scoring.models import Match
from scoring.signals import MatchResult

from .. import after_response
from ..models import Tournament
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
    the standings catch up when a worker starts (``standings_catch_up``) or with
    the next result.
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
    except Exception:  # the broker is down: the deal is saved; a later deal or a worker start catches up
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


def standings_stale() -> list[int]:
    """Running tournaments whose standings are older than one of their matches."""
    from django.db.models import Max, OuterRef, Subquery

    latest = (
        Match.objects.filter(table__round__tournament=OuterRef("pk"))
        .values("table__round__tournament")
        .annotate(last=Max("updated_at"))
        .values("last")
    )
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    running = running.annotate(last_change=Subquery(latest))  # the dates only, not the stored rows
    return [
        pk
        for pk, last_change, computed_at in running.values_list("pk", "last_change", "standings__computed_at")
        if last_change is not None and (computed_at is None or computed_at < last_change)
    ]


def queue_playoffs(tournament_id: int) -> None:
    from ..tasks import playoffs_create

    playoffs_create.delay(tournament_id)
