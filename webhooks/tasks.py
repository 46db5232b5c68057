"""Celery tasks of the webhooks: thin, take ids, safe to run twice (an attempt is made once)."""

from celery import shared_task
from celery.signals import worker_ready

from . import services


@shared_task(bind=True, acks_late=True, max_retries=None)
def delivery_send(self, delivery_id: str, attempt: int = 1, manual: bool = False) -> int:
    """Make one attempt at a delivery; after a failure, this task again with the next attempt's
    number, ``services.retry_delay`` seconds later. With no broker (Celery's eager mode: a laptop,
    the tests) nothing could run it later: the next attempt is made at once."""
    while True:
        delay = services.delivery_attempt(delivery_id=delivery_id, attempt=attempt, manual=manual)
        if delay is None:
            return attempt
        if not self.request.is_eager:
            raise self.retry(args=(delivery_id, attempt + 1), kwargs={"manual": False}, countdown=delay)
        attempt, manual = attempt + 1, False


@shared_task(acks_late=True)
def deliveries_catch_up() -> int:
    """Queue the pending deliveries whose attempt is overdue (the broker was down when they were
    queued): each attempt is still made once."""
    overdue = services.deliveries_overdue()
    for delivery_id, attempt in overdue:
        services.delivery_queue(delivery_id, attempt)
    return len(overdue)


@worker_ready.connect
def deliveries_when_a_worker_starts(sender=None, **kwargs) -> None:
    deliveries_catch_up.delay()
