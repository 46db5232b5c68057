"""Celery tasks of the notifications: thin, take ids, safe to run twice (each subscription remembers
the last moment it was sent)."""

from celery import shared_task

from . import services

# The final ranking waits for the worker's last recomputation of the standings (a tournament
# finished early queues one just before it): told a few seconds later. Eager mode: at once.
FINAL_DELAY = 10


@shared_task(acks_late=True)
def round_drawn_notify(round_id: int) -> dict[str, int]:
    return services.round_drawn_send(round_id=round_id)


@shared_task(acks_late=True)
def round_started_notify(round_id: int) -> dict[str, int]:
    return services.round_started_send(round_id=round_id)


@shared_task(acks_late=True)
def final_ranking_notify(tournament_id: int) -> dict[str, int]:
    return services.final_ranking_send(tournament_id=tournament_id)
