"""The history of the decisions about people's records (``RecordEvent``): who decided what, when.
Written by the services that decide (``players.identity_services``, ``players.club_services``) in their own
transaction, so that a decision and its line are kept together or not at all."""

from __future__ import annotations

from typing import Any

from .models import Club, Player, PlayerClaim, PlayerMerge, RecordEvent

Action = RecordEvent.Action


def record_event(
    *,
    action: str,
    player: Player,
    by: Any = None,
    club: Club | None = None,
    claim: PlayerClaim | None = None,
    merge: PlayerMerge | None = None,
    note: str = "",
) -> RecordEvent:
    """One line of the history, in the caller's transaction."""
    account = by if by is not None and getattr(by, "is_authenticated", False) else None
    return RecordEvent.objects.create(
        action=action, player=player, by=account, club=club, claim=claim, merge=merge, note=note[:300]
    )
