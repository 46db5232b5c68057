"""Webhooks: subscriptions to a tournament's (or a club's) events, the deliveries queued for them
and each attempt at sending one."""

from __future__ import annotations

import secrets
import uuid
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models

from players.models import Club
from tournaments.models import Tournament

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # django-stubs' (dev only): str or a lazy translation


class Event(models.TextChoices):
    """What a subscription may ask for (the value is the payload's ``type`` and ``Tsoxa-Event``)."""

    MATCH_FINISHED = "match.finished", "A match finished"
    ROUND_STARTED = "round.started", "A round started"
    ROUND_FINISHED = "round.finished", "A round finished"
    STANDINGS_UPDATED = "standings.updated", "The standings were updated"
    TOURNAMENT_FINISHED = "tournament.finished", "The tournament finished"


def new_secret() -> str:
    return secrets.token_urlsafe(32)


class Subscription(models.Model):
    """An HTTPS address told of the chosen events of one tournament, or of every public tournament of
    one club. Each delivery is signed with ``secret``; after too many failed deliveries in a row it
    is paused (``active`` false, ``paused_reason`` says why) until its owner resumes it."""

    url = models.URLField(max_length=500, help_text="Where the events are posted (https://…)")
    events = models.JSONField(default=list, help_text="The events sent (Event values)")
    tournament = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The tournament whose events are sent (its organizer registers it)",
    )
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="Or the club: the events of each of its public tournaments (its admins register it)",
    )
    secret = models.CharField(max_length=100, default=new_secret, help_text="Signs every delivery")
    active = models.BooleanField(default=True, help_text="Paused: no delivery is queued")
    paused_reason = models.CharField(max_length=300, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    consecutive_failures = models.PositiveIntegerField(
        default=0, help_text="Deliveries failed in a row (every attempt); a success starts again from 0"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Not stored: what the webhooks pages (views.py) set for their templates.
    event_labels: list[StrOrPromise]

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=True) ^ models.Q(club__isnull=True),
                name="webhook_tournament_or_club",
            ),
        ]

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One event for one subscription: the body as it is signed and sent (the same on a retry or a
    redelivery), and where its sending stands."""

    class Status(models.TextChoices):
        PENDING = "pending", "Being delivered"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40, choices=Event.choices)
    body = models.TextField(help_text="The JSON body, exactly as signed and posted")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Attempts made (the last one's number)")
    next_attempt_at = models.DateTimeField(null=True, blank=True, help_text="A retry waiting: when")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    # Not stored: what the subscription's page (views.py) sets for its delivery log.
    last: Attempt | None
    attempt_rows: list[Attempt]
    status_label: StrOrPromise
    event_label: StrOrPromise
    pretty: str

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "deliveries"

    def __str__(self) -> str:
        return f"{self.event} · {self.id}"


class Attempt(models.Model):
    """One POST of a delivery: its answer (or the error met), how long it took."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="log")
    number = models.PositiveSmallIntegerField()
    manual = models.BooleanField(default=False, help_text="A redelivery asked for by the owner")
    at = models.DateTimeField()
    ok = models.BooleanField(null=True, help_text="Answered 2xx; empty while it is being made")
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True)
    response = models.CharField(max_length=500, blank=True, help_text="The start of the answer's body")
    duration_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["delivery", "number"]
        constraints = [models.UniqueConstraint(fields=["delivery", "number"], name="attempt_number_once")]

    def __str__(self) -> str:
        return f"{self.delivery_id} #{self.number}"
