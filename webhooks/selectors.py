"""Reads: who may manage a subscription, the subscriptions an account sees, a delivery log, and the
tournaments and clubs someone listens to (cached, so that an event nobody asked for costs no query)."""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q, QuerySet

from players import club_services as clubs
from players.models import Club
from tournaments.models import Tournament
from tournaments.selectors import can_manage

from .models import Delivery, Subscription

logger = logging.getLogger(__name__)

WATCHED_KEY = "webhooks:watched"
WATCHED_TIMEOUT = 60  # seconds: the most a process with a cache of its own could miss a change


def may_manage_tournament(user: Any, tournament: Tournament) -> bool:
    """Its organizer (and a superuser) registers a tournament's webhooks."""
    return can_manage(tournament, user)


def may_manage_club(user: Any, club: Club) -> bool:
    """Its admins (and a superuser) register a club's webhooks."""
    return clubs.is_admin(club, user)


def may_manage(user: Any, subscription: Subscription) -> bool:
    if subscription.tournament is not None:
        return may_manage_tournament(user, subscription.tournament)
    assert subscription.club is not None  # the table's constraint: a tournament or a club
    return may_manage_club(user, subscription.club)


def subscription_list(*, user: Any) -> QuerySet[Subscription]:
    """The subscriptions this account manages: its tournaments', its clubs' (a superuser: all),
    newest first."""
    found = Subscription.objects.select_related("tournament", "club", "created_by")
    if not (user and user.is_authenticated):
        return found.none()
    if not user.is_superuser:
        found = found.filter(Q(tournament__organizer=user) | Q(club__admins=user)).distinct()
    return found.order_by("-created_at", "-pk")


def delivery_log(*, subscription: Subscription) -> QuerySet[Delivery]:
    """A subscription's deliveries, newest first, each with its attempts."""
    return subscription.deliveries.prefetch_related("log").order_by("-created_at", "-pk")


def watched() -> tuple[frozenset[int], frozenset[int]]:
    """The tournaments and the clubs that an active subscription listens to. Cached: a change of a
    subscription clears it (``watched_changed``), and it is read again at most a minute later."""
    try:
        found = cache.get(WATCHED_KEY)
    except Exception:  # the cache is down: read the database
        logger.warning("webhooks: cache unavailable", exc_info=True)
        found = None
    if found is None:
        rows = list(Subscription.objects.filter(active=True).values_list("tournament_id", "club_id"))
        found = (frozenset(t for t, _ in rows if t), frozenset(c for _, c in rows if c))
        try:
            cache.set(WATCHED_KEY, found, timeout=WATCHED_TIMEOUT)
        except Exception:
            logger.warning("webhooks: cache unavailable", exc_info=True)
    return found


def is_watched(tournament: Tournament) -> bool:
    """May an active subscription listen to this tournament (its own, or its club's if it is public)?"""
    tournaments, club_ids = watched()
    return tournament.pk in tournaments or (tournament.public and tournament.club_id in club_ids)


def listeners(tournament: Tournament, event: str) -> list[Subscription]:
    """The active subscriptions this event of this tournament goes to: the tournament's own, and its
    club's when the tournament is public (a private one's events go to its organizer only)."""
    if not is_watched(tournament):
        return []
    scope = Q(tournament=tournament)
    if tournament.public and tournament.club_id:
        scope |= Q(club_id=tournament.club_id)
    return [s for s in Subscription.objects.filter(scope, active=True).order_by("pk") if event in s.events]


def watched_changed() -> None:
    """A subscription was made, changed or deleted: forget the cached ``watched`` now and again once
    the change is committed (a reader in between may have cached what was there before)."""

    def forget() -> None:
        try:
            cache.delete(WATCHED_KEY)
        except Exception:
            logger.warning("webhooks: cache unavailable", exc_info=True)

    forget()
    transaction.on_commit(forget)
