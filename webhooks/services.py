"""Writes: subscriptions registered, changed, paused, resumed, their secret rotated; an event queued
as one delivery per subscription that asked for it; an attempt at a delivery made and recorded.

How a delivery goes:

1. A tournament's signal (``receivers``) calls ``event_queue`` inside the transaction of the change:
   one ``Delivery`` per active subscription that listens (its body written now, as it will be
   sent), and after the commit one task each (``tasks.delivery_send``).
2. ``delivery_attempt`` claims the attempt (its number, once: a task run twice sends once), posts
   the body signed with a fresh timestamp (``transport.post``, the address checked again), and
   records the answer. A 2xx delivers it. Otherwise it is retried after ``retry_delay(n)``, up to
   ``ATTEMPTS`` attempts; then it has failed, and ``TSOXA_WEBHOOKS_PAUSE_AFTER`` deliveries failed
   in a row pause the subscription.
3. The owner may send a delivery again (``delivery_redeliver``): one attempt more, the same body,
   signed anew.
"""

from __future__ import annotations

import datetime
import json
import logging
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from players.models import Club
from tournaments import after_response
from tournaments.models import Tournament

from . import guard, payloads, selectors, signing, transport
from .models import Attempt, Delivery, Event, Subscription, new_secret

logger = logging.getLogger(__name__)

# Seconds to wait after each failed attempt before the next: 1 min, 5 min, 30 min, 2 h, 8 h. The
# sixth attempt is the last (about 10 h 36 min after the first).
RETRY_DELAYS = (60, 5 * 60, 30 * 60, 2 * 3600, 8 * 3600)
ATTEMPTS = len(RETRY_DELAYS) + 1


class WebhookError(Exception):
    """A refused change of a subscription: what is wrong, and the field it is about."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message, self.field = message, field


def retry_delay(attempt: int) -> int | None:
    """Seconds to wait after failed attempt number ``attempt`` (from 1) before the next one; none
    after the last."""
    if 1 <= attempt <= len(RETRY_DELAYS):
        return RETRY_DELAYS[attempt - 1]
    return None


def pause_after() -> int:
    return max(1, int(settings.TSOXA_WEBHOOKS_PAUSE_AFTER))


# Subscriptions ---------------------------------------------------------------------------------


def url_clean(url: str) -> str:
    """The URL as it is stored, once the guard has let it through (its host resolved now)."""
    url = (url or "").strip()
    max_length = Subscription._meta.get_field("url").max_length
    assert max_length is not None  # a URLField has one (500)
    if len(url) > max_length:
        raise WebhookError(gettext("The address is too long (500 characters at most)."), "url")
    try:
        guard.check(url)
    except guard.Refused as refused:
        raise WebhookError(str(refused), "url") from None
    return url


def events_clean(events: Any) -> list[str]:
    """The events asked for, each once, in the order of ``Event``; at least one, each a known one."""
    if isinstance(events, str) or not isinstance(events, list | tuple) or not events:
        raise WebhookError(gettext("Choose at least one event."), "events")
    unknown = [e for e in events if e not in Event.values]
    if unknown:
        raise WebhookError(gettext("Unknown event: %(event)s.") % {"event": unknown[0]}, "events")
    return [e for e in Event.values if e in events]


def per_owner() -> int:
    return max(1, int(settings.TSOXA_WEBHOOKS_PER_OWNER))


def _room_for_one_more(*, tournament: Tournament | None, club: Club | None) -> None:
    """Refused when the tournament (or the club) already has ``TSOXA_WEBHOOKS_PER_OWNER`` webhooks,
    paused ones included. The owner's row is locked first: two registrations at once count in turn."""
    cap = per_owner()
    if tournament is not None:
        Tournament.objects.select_for_update().only("pk").get(pk=tournament.pk)
        if Subscription.objects.filter(tournament=tournament).count() >= cap:
            message = ngettext(
                "A tournament has %(count)s webhook at most: delete one before adding another.",
                "A tournament has %(count)s webhooks at most: delete one before adding another.",
                cap,
            )
            raise WebhookError(message % {"count": cap}, "tournament")
    elif club is not None:
        Club.objects.select_for_update().only("pk").get(pk=club.pk)
        if Subscription.objects.filter(club=club).count() >= cap:
            message = ngettext(
                "A club has %(count)s webhook at most: delete one before adding another.",
                "A club has %(count)s webhooks at most: delete one before adding another.",
                cap,
            )
            raise WebhookError(message % {"count": cap}, "club")


@transaction.atomic
def subscription_create(
    *,
    user: Any,
    url: str,
    events: list[str],
    tournament: Tournament | None = None,
    club: Club | None = None,
) -> Subscription:
    """Register ``url`` for ``events`` of one tournament (its organizer) or of one club (its admins);
    its secret is made now."""
    if (tournament is None) == (club is None):
        raise WebhookError(gettext("Name one tournament or one club."), "tournament")
    if tournament is not None and not selectors.may_manage_tournament(user, tournament):
        raise WebhookError(gettext("Only the tournament's organizer registers its webhooks."), "tournament")
    if club is not None and not selectors.may_manage_club(user, club):
        raise WebhookError(gettext("Only the club's admins register its webhooks."), "club")
    _room_for_one_more(tournament=tournament, club=club)
    subscription = Subscription.objects.create(
        url=url_clean(url),
        events=events_clean(events),
        tournament=tournament,
        club=club,
        created_by=user if user is not None and user.is_authenticated else None,
    )
    selectors.watched_changed()
    return subscription


@transaction.atomic
def subscription_update(
    *,
    subscription: Subscription,
    url: str | None = None,
    events: list[str] | None = None,
    active: bool | None = None,
) -> Subscription:
    """Change the address or the events; pause (``active=False``) or resume it."""
    subscription = Subscription.objects.select_for_update().get(pk=subscription.pk)
    fields = ["updated_at"]
    if url is not None and url.strip() != subscription.url:
        subscription.url = url_clean(url)
        fields.append("url")
    if events is not None:
        subscription.events = events_clean(events)
        fields.append("events")
    if active is not None and active != subscription.active:
        subscription.active = active
        subscription.paused_at = None if active else timezone.now()
        subscription.paused_reason = ""
        if active:  # resumed: its count of failures starts again
            subscription.consecutive_failures = 0
        fields += ["active", "paused_at", "paused_reason", "consecutive_failures"]
    subscription.save(update_fields=fields)
    selectors.watched_changed()
    return subscription


def subscription_pause(*, subscription: Subscription) -> Subscription:
    return subscription_update(subscription=subscription, active=False)


def subscription_resume(*, subscription: Subscription) -> Subscription:
    return subscription_update(subscription=subscription, active=True)


@transaction.atomic
def subscription_rotate(*, subscription: Subscription) -> Subscription:
    """A new secret: the deliveries from now on are signed with it (the old one stops at once)."""
    subscription = Subscription.objects.select_for_update().get(pk=subscription.pk)
    subscription.secret = new_secret()
    subscription.save(update_fields=["secret", "updated_at"])
    return subscription


@transaction.atomic
def subscription_delete(*, subscription: Subscription) -> None:
    """Gone, with its deliveries and their log (a delivery waiting for a retry is not sent)."""
    subscription.delete()
    selectors.watched_changed()


# Events ----------------------------------------------------------------------------------------


def body_of(*, delivery_id: uuid.UUID, event: str, tournament: Tournament, data: dict[str, Any]) -> str:
    """The delivery's JSON body, as it is signed and sent."""
    document = {
        "id": str(delivery_id),
        "type": event,
        "created": timezone.now().isoformat(),
        "tournament": payloads.tournament_part(tournament),
        "data": data,
    }
    return json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))


def event_queue(*, event: str, tournament: Tournament, data: Callable[[], dict[str, Any]]) -> list[Delivery]:
    """One delivery of this event to each active subscription that asked for it, queued once the
    current transaction commits. ``data`` is called only when someone listens: an event of a
    tournament nobody listens to costs no query (``selectors.watched``)."""
    subscriptions = selectors.listeners(tournament, event)
    if not subscriptions:
        return []
    shared = data()
    deliveries = []
    for subscription in subscriptions:
        delivery_id = uuid.uuid4()
        body = body_of(delivery_id=delivery_id, event=event, tournament=tournament, data=shared)
        deliveries.append(Delivery(id=delivery_id, subscription=subscription, event=event, body=body))
    Delivery.objects.bulk_create(deliveries)
    for delivery in deliveries:
        transaction.on_commit(partial(delivery_queue, delivery.pk, 1))
    return deliveries


def delivery_queue(delivery_id: uuid.UUID | str, attempt: int, manual: bool = False) -> None:
    """Hand attempt ``attempt`` of a delivery to the worker. With no broker (tasks run in this
    process) it waits until the current request's response has been sent, as the standings do
    (``tournaments.after_response``): a scorer never waits for a club's server."""
    from .tasks import delivery_send

    def send() -> None:
        try:
            delivery_send.apply_async((str(delivery_id), attempt), {"manual": manual})
        except Exception:  # the broker is down: the delivery stays pending (the worker catches up)
            logger.warning("webhooks: could not queue delivery %s", delivery_id, exc_info=True)

    if delivery_send.app.conf.task_always_eager:
        after_response.run_after_response(send)
    else:
        send()


# Deliveries ------------------------------------------------------------------------------------


def _claim(delivery_id: str, attempt: int, manual: bool) -> tuple[Delivery, Attempt] | None:
    """Take attempt number ``attempt`` of a pending delivery, once: a task run again (the broker
    gave it twice, a worker died after sending) finds it taken and sends nothing. A delivery of a
    paused subscription is not sent (unless its owner asked for this attempt): it has failed."""
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update().select_related("subscription").filter(pk=delivery_id).first()
        )
        if delivery is None or delivery.status != Delivery.Status.PENDING or delivery.attempts >= attempt:
            return None
        if not manual and not delivery.subscription.active:
            delivery.status, delivery.next_attempt_at = Delivery.Status.FAILED, None
            delivery.save(update_fields=["status", "next_attempt_at"])
            return None
        delivery.attempts, delivery.next_attempt_at = attempt, None
        delivery.save(update_fields=["attempts", "next_attempt_at"])
        row = Attempt.objects.create(delivery=delivery, number=attempt, manual=manual, at=timezone.now())
    return delivery, row


def headers_for(delivery: Delivery, body: bytes) -> dict[str, str]:
    """The headers of a POST: the event, the delivery's id, and its signature made now."""
    return {
        "Content-Type": "application/json",
        "Tsoxa-Event": delivery.event,
        "Tsoxa-Delivery": str(delivery.pk),
        signing.HEADER: signing.sign(delivery.subscription.secret, body),
    }


def delivery_attempt(*, delivery_id: str, attempt: int, manual: bool = False) -> int | None:
    """Make attempt number ``attempt`` of a delivery and record it; the seconds to wait before the
    next attempt, or none (delivered, failed for good, or not this task's to make)."""
    claimed = _claim(delivery_id, attempt, manual)
    if claimed is None:
        return None
    delivery, row = claimed
    body = delivery.body.encode()
    # Outside any transaction: the POST may take seconds, and holds no lock meanwhile.
    answer = transport.post(delivery.subscription.url, body, headers_for(delivery, body))
    return _record(delivery, row, answer, manual)


@transaction.atomic
def _record(delivery: Delivery, row: Attempt, answer: transport.Answer, manual: bool) -> int | None:
    subscription = Subscription.objects.select_for_update().filter(pk=delivery.subscription_id).first()
    locked = Delivery.objects.select_for_update().filter(pk=delivery.pk).first()
    row.ok, row.status_code, row.error = answer.ok, answer.status_code, answer.error
    row.response, row.duration_ms = answer.response, answer.duration_ms
    row.save(update_fields=["ok", "status_code", "error", "response", "duration_ms"])
    if subscription is None or locked is None:  # deleted meanwhile
        return None
    delivery = locked
    now = timezone.now()
    if answer.ok:
        delivery.status, delivery.delivered_at, delivery.next_attempt_at = (
            Delivery.Status.DELIVERED,
            now,
            None,
        )
        delivery.save(update_fields=["status", "delivered_at", "next_attempt_at"])
        if subscription.consecutive_failures and subscription.active:  # paused: it stays as it was
            subscription.consecutive_failures = 0
            subscription.save(update_fields=["consecutive_failures", "updated_at"])
        return None
    delay = None if manual else retry_delay(row.number)
    if delay is not None and subscription.active:
        delivery.next_attempt_at = now + datetime.timedelta(seconds=delay)
        delivery.save(update_fields=["next_attempt_at"])
        return delay
    delivery.status, delivery.next_attempt_at = Delivery.Status.FAILED, None
    delivery.save(update_fields=["status", "next_attempt_at"])
    if not manual and subscription.active:  # the owner's own try does not count against it
        subscription.consecutive_failures += 1
        fields = ["consecutive_failures", "updated_at"]
        if subscription.consecutive_failures >= pause_after():
            last = f"HTTP {answer.status_code}" if answer.status_code else answer.error
            subscription.active, subscription.paused_at, subscription.paused_reason = False, now, last[:300]
            fields += ["active", "paused_at", "paused_reason"]
            selectors.watched_changed()
        subscription.save(update_fields=fields)
    return None


@transaction.atomic
def delivery_redeliver(*, delivery: Delivery) -> Delivery:
    """Send a delivered or failed delivery again: one attempt more, of the same body, signed anew
    (its own timestamp), queued after the commit. Also while the subscription is paused: a way to
    try the receiver before resuming it."""
    delivery = Delivery.objects.select_for_update().get(pk=delivery.pk)
    if delivery.status == Delivery.Status.PENDING:
        raise WebhookError(gettext("This delivery is still being sent: wait for its attempts to end."))
    delivery.status, delivery.next_attempt_at = Delivery.Status.PENDING, None
    delivery.save(update_fields=["status", "next_attempt_at"])
    transaction.on_commit(partial(delivery_queue, delivery.pk, delivery.attempts + 1, True))
    return delivery


def deliveries_overdue(*, now: datetime.datetime | None = None) -> list[tuple[str, int]]:
    """Pending deliveries whose next attempt should have been made a while ago (the broker was down
    when they were queued, or lost their retry): (id, the attempt to make)."""
    now = now or timezone.now()
    late = now - datetime.timedelta(minutes=5)
    pending = Delivery.objects.filter(status=Delivery.Status.PENDING)
    never = pending.filter(attempts=0, created_at__lt=late)
    retry = pending.filter(next_attempt_at__lt=late)
    return [(str(pk), attempts + 1) for pk, attempts in (never | retry).values_list("pk", "attempts")]
