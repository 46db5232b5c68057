"""Celery tasks: thin, take ids, call a service, safe to run twice."""

from celery import shared_task
from celery.signals import worker_ready

from . import services


@shared_task(acks_late=True)
def standings_recompute(tournament_id: int) -> int | None:
    services.standings_started(tournament_id)
    snapshot = services.standings_refresh(tournament_id=tournament_id)
    return None if snapshot is None else snapshot.version


@shared_task(acks_late=True)
def playoffs_create(tournament_id: int) -> list[int]:
    return [rnd.pk for rnd in services.playoffs_create(tournament_id=tournament_id)]


@shared_task(acks_late=True)
def standings_catch_up() -> list[int]:
    """Recompute every tournament whose standings are older than its results (``standings_stale``):
    run every minute by Celery beat (CELERY_BEAT_SCHEDULE) and when a worker starts, so the
    standings catch up after a broker outage by themselves. Safe to run twice or at once."""
    stale = services.standings_stale()
    for tournament_id in stale:
        services.standings_refresh(tournament_id=tournament_id)
    return stale


@worker_ready.connect
def catch_up_when_a_worker_starts(sender=None, **kwargs) -> None:
    """Deals recorded while no worker (or no broker) was there reach the standings now."""
    standings_catch_up.delay()
