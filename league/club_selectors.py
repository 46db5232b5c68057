"""Reads about clubs for their pages and the API: the list, a club's members as this person may see
them, its events and its seasons. The writes are the people app's (``players.club_services``)."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import F, OuterRef, Q, QuerySet, Subquery

from players import club_services as clubs
from players.models import Club, Membership, Player
from scoring.selectors import visible_players
from tournaments.models import Tournament
from tournaments.selectors import tournament_list

from .models import Season


def club_list() -> QuerySet[Club]:
    return Club.objects.order_by("name", "pk")


def _since(club: Club) -> Subquery:
    """The day a member (through any of their records) joined: the earliest present row's."""
    rows = Membership.objects.filter(club=club, left_on__isnull=True, status=Membership.Status.ACTIVE).filter(
        Q(player=OuterRef("pk")) | Q(player__merged_into=OuterRef("pk"))
    )
    return Subquery(rows.order_by(F("joined_on").asc(nulls_last=True)).values("joined_on")[:1])


def club_members(*, club: Club, user: Any = None) -> QuerySet[Player]:
    """The club's present members that this person may see, as their root records (a merged record
    is listed as the record it was merged into), by name, each with ``joined_on``."""
    members = clubs.current_members(club).values("pk")
    return (
        visible_players(user).filter(pk__in=members).annotate(joined_on=_since(club)).order_by("name", "pk")
    )


def former_members(*, club: Club, user: Any = None) -> QuerySet[Membership]:
    """The rows of members who left (and are not members again through another record), newest
    departure first: the club's history, for its admins."""
    present = clubs.current_members(club).values("pk")
    return (
        club.memberships.filter(
            left_on__isnull=False, status=Membership.Status.ACTIVE, player__in=visible_players(user)
        )
        .exclude(player__in=present)
        .exclude(player__merged_into__in=present)
        .select_related("player")
        .order_by("-left_on", "player__name")
    )


def invited_members(*, club: Club, user: Any = None) -> QuerySet[Membership]:
    """The invitations still waiting for a claimed player's answer, oldest first: for its admins."""
    return (
        club.memberships.filter(
            status=Membership.Status.INVITED, left_on__isnull=True, player__in=visible_players(user)
        )
        .select_related("player")
        .order_by("created_at", "pk")
    )


def club_events(*, club: Club, user: Any = None) -> QuerySet[Tournament]:
    """The club's tournaments this person may list (the tournament list's rule: the public ones, and
    the private ones to their organizer), newest first."""
    return (
        tournament_list(user=user)
        .filter(club=club)
        .order_by(F("starts_on").desc(nulls_last=True), "-created_at", "-pk")
    )


def club_seasons(*, club: Club, user: Any = None) -> QuerySet[Season]:
    """The club's seasons, newest first: the public ones, and every one to the club's admins and to
    the season's owner."""
    seasons = club.seasons.order_by("-starts_on", "name")
    if clubs.is_admin(club, user):
        return seasons
    mine = Q(owner=user) if user is not None and user.is_authenticated else Q(pk__in=[])
    return seasons.filter(Q(public=True) | mine)


def current_season(seasons: list[Season], today: datetime.date) -> Season | None:
    """The season a club's page shows the table of: the one under way today (the latest to start if
    two are), else the newest (``seasons`` newest first, as ``club_seasons`` gives them)."""
    running = [s for s in seasons if s.starts_on <= today <= s.ends_on]
    return running[0] if running else (seasons[0] if seasons else None)
