"""Who may decide about a person's records: approve or refuse a claim, merge two records, split a
merge. The services (``players.identity``) check what the records allow; these say who may ask.

A *decider* for a record is:

- a superuser;
- an admin of a club the person is a member of today (under any of their records);
- the organizer of a tournament the person entered (in a team, or alone in an individual event)
  or played a match of, under any of their records.

Deciding is about the person: a record merged into another is decided for with it, by whoever may
decide for any record of that person. A merge joins two people's records, so its decider must be
one for both (a club admin merges two of the club's members, an organizer two of the event's
players; anyone else asks a superuser). A split is decided as the merge was: by whoever may decide
both for the records it moved and for the records that stay with the survivor.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from players import identity
from players.models import Membership, Player, PlayerClaim, PlayerMerge
from scoring.models import Match
from scoring.permissions import club_of
from scoring.selectors import seated
from tournaments.models import Entry


def _signed_in(user: Any) -> bool:
    return user is not None and user.is_authenticated


def _decided_by(user: Any) -> Q:
    """Records (a ``Player`` query) that this account decides for on their own: members of a club it
    runs, entrants and players of a tournament it organizes."""
    today = timezone.localdate()
    current = Q(left_on__isnull=True) | Q(left_on__gt=today)
    member = Membership.objects.filter(current, player=OuterRef("pk"), club__admins=user)
    entered = Entry.objects.filter(tournament__organizer=user).filter(
        Q(team__player_a=OuterRef("pk")) | Q(team__player_b=OuterRef("pk")) | Q(player=OuterRef("pk"))
    )
    played = Match.objects.filter(table__round__tournament__organizer=user).filter(seated(OuterRef("pk")))
    return Q(Exists(member)) | Q(Exists(entered)) | Q(Exists(played))


def _decides_for(user: Any, ids: list[int]) -> bool:
    if not _signed_in(user):
        return False
    if user.is_superuser:
        return True
    return bool(ids) and Player.objects.filter(pk__in=ids).filter(_decided_by(user)).exists()


def may_claim(user: Any) -> bool:
    """May this account claim a player? A person's account: signed in, and not a club's API account."""
    return _signed_in(user) and club_of(user) is None


def may_decide_claim(user: Any, player: Player) -> bool:
    """May this account approve or refuse a claim on this player (any record of the person)?"""
    return _decides_for(user, identity.records_of(player))


def may_merge(user: Any, a: Player, b: Player) -> bool:
    """May this account merge these two records (their people)? A decider for both."""
    return _decides_for(user, identity.records_of(a)) and _decides_for(user, identity.records_of(b))


def may_split(user: Any, merge: PlayerMerge) -> bool:
    """May this account undo this merge? A decider for the records it moved and for the others of
    the survivor's person: whoever could have made it."""
    moved = [int(pk) for pk in merge.records]
    staying = [pk for pk in identity.records_of(merge.survivor) if pk not in moved]
    return _decides_for(user, moved) and _decides_for(user, staying)


def decidable_claims(user: Any) -> QuerySet[PlayerClaim]:
    """The claims waiting that this account may decide, the oldest first, with their player (and
    its root) and claimant."""
    if not _signed_in(user):
        return PlayerClaim.objects.none()
    claims = PlayerClaim.objects.filter(status=PlayerClaim.Status.PENDING)
    if not user.is_superuser:
        person = Coalesce(OuterRef("player__merged_into"), OuterRef("player"))
        records = Player.objects.filter(Q(pk=person) | Q(merged_into=person)).filter(_decided_by(user))
        claims = claims.filter(Exists(records))
    return claims.select_related("player", "player__merged_into", "user").order_by("created_at", "pk")
