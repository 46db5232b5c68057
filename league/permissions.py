"""Who may decide about a person's records: approve or refuse a claim, merge two records, split a
merge, take a decision back. The services (``players.identity_services``) check what the records allow; these
say who may ask. The rule (the README's "Who decides about a record", the help's #records):

No account gains a say over a record by anything it does alone: entering a player in its own
tournament, or adding one to its own club, gives it none. A *decider* for a person (every record of
theirs: the root and the records merged into it) is:

- a staff account or a superuser, always; they alone take a decision back (``may_revert``: a claim's
  approval or refusal; a merge is taken back by splitting it);
- an admin of a club the person is a member of today, when that membership stands on more than the
  admin's word: the record was made by the club (the membership is the first thing known of it: no
  entry, match or other membership of the record is older), or the person's account accepted it
  (``Membership.consented_by`` is the account that stands behind the person now; a claimed record is
  only invited until it does). To approve or refuse a claim, the membership also began before the
  claim was made;
- the organizer of a finished public tournament, for the records that tournament made: records made
  after it was created, whose first trace is their entry in it (no older entry, match or
  membership elsewhere). Every record of the person must be such a record of that one tournament.

A merge joins two people, so its decider decides for both in the same way: a staff account; an
admin of one club both stand in; the organizer of one event that made every record of both. A split
is decided as the merge was, for the records it moved and for those that stay with the survivor.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import timezone

from players import identity_services as identity
from players.models import Membership, Player, PlayerClaim, PlayerMerge
from scoring.models import Match
from scoring.permissions import club_of
from scoring.selectors import seated
from tournaments.models import Entry, Tournament


@dataclass(frozen=True)
class _Person:
    """Records of one person: ``account`` the id of the account that stands behind them, if any."""

    ids: list[int]
    account: int | None


def _signed_in(user: Any) -> bool:
    return user is not None and user.is_authenticated


def _staff(user: Any) -> bool:
    return _signed_in(user) and (user.is_superuser or user.is_staff)


def _person(player: Player) -> _Person:
    """The person as the database has them now (not as ``player`` was loaded)."""
    root = identity.root_of(Player.objects.get(pk=player.pk))
    return _Person(ids=identity.records_of(root), account=root.user_id)


def _entered(record: Any) -> Q:
    return Q(team__player_a=record) | Q(team__player_b=record) | Q(player=record)


def _nothing_older(
    record: int, moment: datetime.datetime, *, tournament: int | None = None, membership: int | None = None
) -> bool:
    """Is nothing known of this record before ``moment`` (no entry, match seat or membership), but
    in ``tournament`` or ``membership``: was the record made there?"""
    entries = Entry.objects.filter(_entered(record), created_at__lt=moment)
    matches = Match.objects.filter(seated(record), created_at__lt=moment)
    if tournament is not None:
        entries = entries.exclude(tournament_id=tournament)
        matches = matches.exclude(table__round__tournament_id=tournament)
    memberships = Membership.objects.filter(player_id=record, created_at__lt=moment)
    if membership is not None:
        memberships = memberships.exclude(pk=membership)
    return not (entries.exists() or matches.exists() or memberships.exists())


def _standing_clubs(user: Any, person: _Person, *, before: datetime.datetime | None = None) -> set[int]:
    """The clubs this account runs whose membership of the person gives it a say (see the module)."""
    today = timezone.localdate()
    rows = Membership.objects.filter(
        Q(left_on__isnull=True) | Q(left_on__gt=today),
        player_id__in=person.ids,
        club__admins=user,
        status=Membership.Status.ACTIVE,
    )
    if before is not None:
        rows = rows.filter(created_at__lt=before)
    clubs: set[int] = set()
    for row in rows.order_by("pk"):
        if row.club_id in clubs:
            continue
        consented = person.account is not None and row.consented_by_id == person.account
        standing = consented or _nothing_older(row.player_id, row.created_at, membership=row.pk)
        if standing:
            clubs.add(row.club_id)
    return clubs


def _making_events(user: Any, record: int) -> set[int]:
    """The finished public tournaments this account organized that made this record."""
    made = Player.objects.filter(pk=record).values_list("created_at", flat=True).first()
    if made is None:
        return set()
    entries = Entry.objects.filter(
        _entered(record),
        tournament__organizer=user,
        tournament__public=True,
        tournament__status=Tournament.Status.FINISHED,
        tournament__created_at__lte=made,
    ).order_by("tournament_id", "created_at", "pk")
    events: set[int] = set()
    for entry in entries:
        if entry.tournament_id not in events and _nothing_older(
            record, entry.created_at, tournament=entry.tournament_id
        ):
            events.add(entry.tournament_id)
    return events


def _decides(user: Any, people: list[_Person], *, before: datetime.datetime | None = None) -> bool:
    """Does this account decide for all these people together (one club, or one event)?"""
    if not _signed_in(user):
        return False
    if _staff(user):
        return True
    if not people or not all(person.ids for person in people):
        return False
    clubs: set[int] | None = None
    for person in people:
        found = _standing_clubs(user, person, before=before)
        clubs = found if clubs is None else clubs & found
        if not clubs:
            break
    if clubs:
        return True
    events: set[int] | None = None
    for person in people:
        for record in person.ids:
            found = _making_events(user, record)
            events = found if events is None else events & found
            if not events:
                return False
    return bool(events)


def may_claim(user: Any) -> bool:
    """May this account claim a player? A person's account: signed in, and not a club's API account."""
    return _signed_in(user) and club_of(user) is None


def may_decide_claim(user: Any, player: Player, *, before: datetime.datetime | None = None) -> bool:
    """May this account decide for this person (any record of theirs)? With ``before`` (a claim's
    ``created_at``): may it approve or refuse that claim, its club membership older than the claim."""
    return _decides(user, [_person(player)], before=before)


def may_decide(user: Any, claim: PlayerClaim) -> bool:
    """May this account approve or refuse this claim?"""
    return may_decide_claim(user, claim.player, before=claim.created_at)


def may_merge(user: Any, a: Player, b: Player) -> bool:
    """May this account merge these two records (their people)? A decider for both together."""
    return _decides(user, [_person(a), _person(b)])


def may_split(user: Any, merge: PlayerMerge) -> bool:
    """May this account undo this merge? A decider for the records it moved and for the others of
    the survivor's person together: whoever could have made it."""
    root = identity.root_of(Player.objects.get(pk=merge.survivor_id))
    moved = [int(pk) for pk in merge.records]
    staying = [pk for pk in identity.records_of(root) if pk not in moved]
    return _decides(user, [_Person(moved, root.user_id), _Person(staying, root.user_id)])


def may_revert(user: Any) -> bool:
    """May this account take a claim's decision back? The site's staff."""
    return _staff(user)


def decidable_claims(user: Any) -> list[PlayerClaim]:
    """The claims waiting that this account may decide, the oldest first, with their player (and
    its root) and claimant."""
    if not _signed_in(user):
        return []
    claims = PlayerClaim.objects.filter(status=PlayerClaim.Status.PENDING)
    claims = claims.select_related("player", "player__merged_into", "user").order_by("created_at", "pk")
    if _staff(user):
        return list(claims)
    # Only claims on people this account has some tie to are looked at, each then by the rule.
    person = Q(player__merged_into__isnull=True, player__in=_tied(user)) | Q(
        player__merged_into__in=_tied(user)
    )
    return [claim for claim in claims.filter(person) if may_decide(user, claim)]


def _tied(user: Any) -> Any:
    """Roots with a record in one of this account's clubs or finished public events."""
    events = Entry.objects.filter(
        tournament__organizer=user, tournament__public=True, tournament__status=Tournament.Status.FINISHED
    )
    records = Q(memberships__club__admins=user, memberships__status=Membership.Status.ACTIVE)
    records |= Q(pk__in=events.values("player")) | Q(pk__in=events.values("team__player_a"))
    records |= Q(pk__in=events.values("team__player_b"))
    tied = Player.objects.filter(records)
    return Player.objects.filter(Q(pk__in=tied.values("pk")) | Q(absorbed__in=tied)).values("pk")
