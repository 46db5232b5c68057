"""The tournaments' moments become notification tasks, queued after the commit (the change may still
be rolled back; the sender is often an organizer's request). A tournament nobody follows queues
nothing (one query)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction
from django.dispatch import receiver

from tournaments import signals
from tournaments.after_response import run_after_response

from . import services, tasks

logger = logging.getLogger(__name__)


def _queue(tournament_id: int, send: Callable[[], object]) -> None:
    def queue() -> None:
        if not services.anyone_follows(tournament_id):
            return
        try:
            if tasks.round_drawn_notify.app.conf.task_always_eager:
                run_after_response(send)  # no broker: after the organizer's response is sent
            else:
                send()
        except Exception:  # the broker is down: these words are not sent (the page still shows them)
            logger.warning("notifications: could not queue for tournament %s", tournament_id, exc_info=True)

    transaction.on_commit(queue)


@receiver(signals.round_drawn, dispatch_uid="notifications-round-drawn")
def round_drawn(sender, tournament, round, **kwargs) -> None:
    _queue(tournament.pk, lambda: tasks.round_drawn_notify.delay(round.pk))


@receiver(signals.round_started, dispatch_uid="notifications-round-started")
def round_started(sender, tournament, round, **kwargs) -> None:
    _queue(tournament.pk, lambda: tasks.round_started_notify.delay(round.pk))


@receiver(signals.tournament_finished, dispatch_uid="notifications-tournament-finished")
def tournament_finished(sender, tournament, **kwargs) -> None:
    _queue(
        tournament.pk,
        lambda: tasks.final_ranking_notify.apply_async((tournament.pk,), countdown=tasks.FINAL_DELAY),
    )
