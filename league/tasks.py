"""Celery tasks of the league: thin, safe to run twice."""

from celery import shared_task
from celery.signals import worker_ready

from . import ratings


@shared_task(acks_late=True)
def ratings_recompute() -> int:
    """Rate every rated result again and store the ratings; the number of matches rated."""
    ratings.ratings_started()
    return len({step.match for step in ratings.ratings_refresh().steps})


@worker_ready.connect
def ratings_when_a_worker_starts(sender=None, **kwargs) -> None:
    """Results recorded while no worker (or no broker) was there reach the ratings now."""
    ratings.ratings_request()
