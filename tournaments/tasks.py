"""Celery tasks: thin, take ids, call a service, safe to run twice."""

from celery import shared_task

from . import services


@shared_task(acks_late=True)
def standings_recompute(tournament_id: int) -> int | None:
    services.standings_started(tournament_id)
    snapshot = services.standings_refresh(tournament_id=tournament_id)
    return None if snapshot is None else snapshot.version


@shared_task(acks_late=True)
def playoffs_create(tournament_id: int) -> list[int]:
    return [rnd.pk for rnd in services.playoffs_create(tournament_id=tournament_id)]
