"""Who may change a match: its scorekeepers, its tournament's organizer, a club granted writes.

A match read by ``services.match_lock`` for a person (with its tournament's table, its seats, and
``access_user``, ``access_keeps`` and ``access_read_only``: whether that person keeps it and is a
read-only club) answers every question here about them without a query more; any other match is
asked what it needs.
"""

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


def _read_with(user: Any, match: Match | None) -> bool:
    """Was ``match`` read with what the checks need to know about this (signed-in) user?"""
    return match is not None and getattr(match, "access_user", None) == user.pk


def can_write(user: Any, match: Match | None = None) -> bool:
    """Signed in, and not a read-only club."""
    if not user.is_authenticated:
        return False
    if match is not None and _read_with(user, match):
        return not match.access_read_only
    club = club_of(user)
    return club is None or club.can_write


def keeps(user: Any, match: Match) -> bool:
    """Is this signed-in person one of the match's keeper accounts?"""
    if _read_with(user, match):
        return match.access_keeps
    return match.keepers.filter(pk=user.pk).exists()


def table_of(match: Match):
    try:
        return match.table
    except ObjectDoesNotExist:
        return None


def tournament_of(match: Match):
    table = table_of(match)
    return None if table is None else table.round.tournament


def organizes(user: Any, match: Match) -> bool:
    """The match's tournament's organizer (or a superuser): may correct it whenever, audited."""
    if not user.is_authenticated:
        return False
    tournament = tournament_of(match)
    if tournament is None or not can_write(user, match):
        return False
    return user.is_superuser or tournament.organizer_id == user.pk


def can_end(user: Any, match: Match) -> bool:
    """May this person end the match early ("End the match", ``POST …/finish/``)? Anyone who keeps a
    casual match; at a tournament's table only its organizer, who decides when a match stops."""
    return table_of(match) is None or organizes(user, match)


def open_at_the_table(match: Match) -> bool:
    """May the table still change the result? A tournament's match while its round is being played
    and the tournament runs; any match until its result has been confirmed. After that only the
    organizer changes it (every change is in the history and on the audit page)."""
    if match.status == Match.Status.FINISHED and match.confirmed_at is not None:
        return False
    table = table_of(match)
    if table is None:
        return True
    return table.open_for_scoring  # the tournament's own rule (tournaments builds on scoring)


def can_keep(user: Any, match: Match, session: Any = None) -> bool:
    """May this person record, correct or delete the match's deals now?"""
    if organizes(user, match):
        return True
    is_open = open_at_the_table(match)
    if is_open and session is not None and match.pk in session.get(SESSION_KEY, []):
        return True
    if not can_write(user, match) or not (user.is_superuser or keeps(user, match)):
        return False
    # An account that keeps a match outside any tournament may still correct it once confirmed (the
    # change asks for a new confirmation); a tournament's match is the organizer's then.
    return is_open or table_of(match) is None


def settled_for(user: Any, match: Match, session: Any = None) -> bool:
    """Was this a scorekeeper of the match (its table's tablet, a keeper account) whose writes are now
    closed, the round over or the result confirmed? Their sheet says so."""
    if can_keep(user, match, session):
        return False
    at_table = session is not None and match.pk in session.get(SESSION_KEY, [])
    return at_table or (user.is_authenticated and keeps(user, match))


SEATS = (Match.seat0.field, Match.seat1.field, Match.seat2.field, Match.seat3.field)


def seated_team(user: Any, match: Match) -> int | None:
    """The team of the signed-in player, if they sit at this match."""
    if not user.is_authenticated:
        return None
    if all(seat.is_cached(match) for seat in SEATS):  # read with the match: who sits there is known
        return next((s % 2 for s, player in enumerate(match.seats) if player.user_id == user.pk), None)
    player = getattr(user, "player", None)
    if player is None:
        return None
    seats = (match.seat0_id, match.seat1_id, match.seat2_id, match.seat3_id)
    return seats.index(player.pk) % 2 if player.pk in seats else None


def confirm_teams(user: Any, match: Match, session: Any = None) -> tuple[int, ...]:
    """The teams this person may confirm the result for: a signed-in player only their own team; the
    tablet at the table (or the organizer) either, as the team that checks it taps; nobody once the
    result is confirmed."""
    if match.confirmed_at is not None:
        return ()
    team = seated_team(user, match)
    if team is not None:
        return (team,)
    return (0, 1) if can_keep(user, match, session) else ()


def can_confirm(user: Any, match: Match, session: Any = None) -> bool:
    return bool(confirm_teams(user, match, session))


def can_check(user: Any, match: Match, session: Any = None) -> bool:
    """May this person check a deal's line for the other team (a match that asks for it)? The table's
    tablet (the other team taps on it) or the organizer, and a player of the match with their own
    account."""
    if not match.deal_check:
        return False
    if can_keep(user, match, session):
        return True
    return open_at_the_table(match) and seated_team(user, match) is not None


def can_see(user: Any, match: Match, session: Any = None) -> bool:
    """Everyone sees standalone matches and public tournaments' ones; a private tournament's are seen
    by its organizer and by those who keep or play them."""
    tournament = tournament_of(match)
    if tournament is None or tournament.public:
        return True
    if session is not None and match.pk in session.get(SESSION_KEY, []):
        return True
    if seated_team(user, match) is not None:
        return True
    return user.is_authenticated and (
        user.pk == tournament.organizer_id or user.is_superuser or keeps(user, match)
    )
