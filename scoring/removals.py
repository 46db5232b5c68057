"""Writes of tombstones (``Removal``): what a client mirroring the API holds that is gone from what it
may read. Each is written in the transaction of the change itself (a deal deleted, an entry
withdrawn, a tournament made private, a player merged into another record), so that the change and
its tombstone are committed together or not at all. Ids only: never the object's data.

Read through ``GET /api/v1/changes/`` (``league.api.changes``); the objects that stay, or come back
(a tournament public again, a merge split), only move their ``updated_at``."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ObjectDoesNotExist

from .models import Match, Removal

Kind = Removal.Kind
Reason = Removal.Reason


def removal_record(
    *,
    kind: str,
    object_id: int,
    reason: str,
    match_id: int | None = None,
    tournament_id: int | None = None,
    into_id: int | None = None,
) -> Removal:
    """One tombstone, in the caller's transaction."""
    return Removal.objects.create(
        kind=kind,
        object_id=object_id,
        reason=reason,
        match_id=match_id,
        tournament_id=tournament_id,
        into_id=into_id,
    )


def removals_record(
    *,
    kind: str,
    object_ids: Iterable[int],
    reason: str,
    tournament_id: int | None = None,
    into_id: int | None = None,
) -> list[Removal]:
    """A tombstone for each of ``object_ids`` (of one kind, for one reason), in one statement."""
    rows = [
        Removal(kind=kind, object_id=pk, reason=reason, tournament_id=tournament_id, into_id=into_id)
        for pk in object_ids
    ]
    return Removal.objects.bulk_create(rows) if rows else []


def tournament_of(match: Match) -> int | None:
    """The id of the tournament whose table plays ``match``, or None for a standalone match. Read
    from what the match was loaded with (``services._locked`` and ``match_lock`` read its table,
    round and tournament with it): no query then."""
    try:
        table = match.table
    except ObjectDoesNotExist:
        return None
    return None if table is None else table.round.tournament_id
