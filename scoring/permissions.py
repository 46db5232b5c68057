"""Who may change a match: its scorekeepers, its tournament's organizer, a club granted writes."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist

from .models import Match

SESSION_KEY = "scorekeeper_matches"  # matches a tablet opened through a table's secret link


def club_of(user: Any):
    try:
        return user.club
    except (ObjectDoesNotExist, AttributeError):
        return None


def can_write(user: Any) -> bool:
    """Signed in, and not a read-only club."""
    if not user.is_authenticated:
        return False
    club = club_of(user)
    return club is None or club.can_write


def tournament_of(match: Match):
    try:
        return match.table.round.tournament
    except ObjectDoesNotExist:
        return None


def can_keep(user: Any, match: Match, session: Any = None) -> bool:
    """May this person record, correct or delete the match's deals?"""
    if session is not None and match.pk in session.get(SESSION_KEY, []):
        return True
    if not can_write(user):
        return False
    if user.is_superuser or match.keepers.filter(pk=user.pk).exists():
        return True
    tournament = tournament_of(match)
    return tournament is not None and tournament.organizer_id == user.pk


def can_confirm(user: Any, match: Match, session: Any = None) -> bool:
    """The tablet at the table, or a player of the match signed in with their own account."""
    if can_keep(user, match, session):
        return True
    player = getattr(user, "player", None) if user.is_authenticated else None
    return player is not None and player.pk in {
        match.seat0_id,
        match.seat1_id,
        match.seat2_id,
        match.seat3_id,
    }


def can_see(user: Any, match: Match, session: Any = None) -> bool:
    """Everyone sees standalone matches and public tournaments' ones; a private tournament's are seen
    by its organizer and by those who keep or play them."""
    tournament = tournament_of(match)
    if tournament is None or tournament.public:
        return True
    if can_confirm(user, match, session):
        return True
    return user.is_authenticated and (user.pk == tournament.organizer_id or user.is_superuser)
