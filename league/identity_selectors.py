"""Reads about who a player is, for the player pages and the API: the merges that made a person of
several records, what an account may do about a record (claim it, decide claims, merge, split), and
a record's counts for the merge page's preview. The writes are ``players.identity_services``'s; who may ask
for them, ``league.permissions``'."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext

from players.club_services import invitations
from players.identity_services import records_of, root_of, split_blocker
from players.models import Membership, Player, PlayerClaim, PlayerMerge
from scoring.models import Match
from scoring.selectors import match_visibility, seated_person, visible_players

from . import permissions
from .counting import counted_for_person


def person_merges(*, player: Player, user: Any = None) -> QuerySet[PlayerMerge]:
    """The merges, not undone, that made this person (a root) of several records, the latest first,
    but those of records this account may not see (known only from private events it does not see:
    a merge never shows their names). Every record of the person but the root was absorbed by one of
    them (a record carried along by a later merge was absorbed first by its own). One query."""
    merges = PlayerMerge.objects.filter(undone_at__isnull=True, absorbed__merged_into=player)
    merges = merges.filter(absorbed__in=visible_players(user).values("pk"))
    return merges.select_related("survivor", "absorbed", "by").order_by("-pk")


def seen_records(*, ids: list[int], user: Any = None) -> set[int]:
    """Which of these records this account may see (a merge's ``records``, as the API lists them)."""
    return set(visible_players(user).filter(pk__in=ids).values_list("pk", flat=True))


def merge_problem(*, survivor: Player, absorbed: Player) -> str | None:
    """Why these two records may not be merged this way round, whoever asks: a record known only from
    private events does not give its name to a person seen in public (merge the other way)."""
    public = visible_players(None)
    if public.filter(pk=root_of(survivor).pk).exists():
        return None
    if public.filter(pk__in=records_of(absorbed)).exists():
        return gettext(
            "%(survivor)s is known only from private events: keep %(absorbed)s's name (merge the other way)."
        ) % {"survivor": survivor.name, "absorbed": absorbed.name}
    return None


@dataclass(frozen=True)
class MergeLine:
    merge: PlayerMerge
    may_split: bool
    blocked_by: PlayerMerge | None  # a later merge to split first


@dataclass(frozen=True)
class IdentityPanel:
    """What the player page shows about who the player is, for this account."""

    player: Player  # a root
    merges: list[MergeLine] = field(default_factory=list)
    claimed: bool = False  # an account stands behind this record
    is_you: bool = False
    may_claim: bool = False  # "This is me": signed in, no player of their own, nothing waiting
    waiting: PlayerClaim | None = None  # this account's claim on this record, waiting
    waiting_elsewhere: PlayerClaim | None = None  # this account's claim on another record, waiting
    decider: bool = False  # may decide claims on this record and merge it
    claims_waiting: int = 0  # claims on this record a decider may decide
    invitations: list[Membership] = field(default_factory=list)  # clubs waiting for this person's answer

    @property
    def also_recorded_as(self) -> list[str]:
        """The names of the person's other records, each once, the root's own left out."""
        names: list[str] = []
        for line in self.merges:
            name = line.merge.absorbed.name
            if name != self.player.name and name not in names:
                names.append(name)
        return names


def identity_panel(*, player: Player, user: Any = None) -> IdentityPanel:
    """The identity part of a person's page (``player`` a root). For a visitor, one query (the
    merges); for a signed-in account a few more (its player and claims, whether it decides)."""
    merges = list(person_merges(player=player, user=user))
    signed_in = user is not None and user.is_authenticated
    if not signed_in:
        lines = [MergeLine(m, False, None) for m in merges]
        return IdentityPanel(player=player, merges=lines, claimed=player.user_id is not None)
    decider = permissions.may_decide_claim(user, player)
    lines = []
    for merge in merges:
        may = decider and permissions.may_split(user, merge)
        lines.append(MergeLine(merge, may, split_blocker(merge) if may else None))
    own = Player.objects.filter(user=user).exists()
    mine = PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING).select_related("player")
    waiting = mine.first()
    claims = PlayerClaim.objects.filter(player=player, status=PlayerClaim.Status.PENDING)
    waiting_here = 0
    if decider:
        waiting_here = sum(1 for claim in claims if permissions.may_decide(user, claim))
    return IdentityPanel(
        player=player,
        merges=lines,
        claimed=player.user_id is not None,
        is_you=player.user_id == user.pk,
        may_claim=permissions.may_claim(user) and not own and player.user_id is None and waiting is None,
        waiting=waiting if waiting is not None and waiting.player_id == player.pk else None,
        waiting_elsewhere=waiting if waiting is not None and waiting.player_id != player.pk else None,
        decider=decider,
        claims_waiting=waiting_here,
        invitations=list(invitations(user)) if player.user_id == user.pk else [],
    )


@dataclass(frozen=True)
class RecordCounts:
    """A person as the merge page previews them: matches listed and finished matches counted."""

    player: Player
    matches: int
    counted: int
    records: int  # the root and the records merged into it


def record_counts(*, player: Player, user: Any = None) -> RecordCounts:
    """The matches of this person (a root, with its merged records) this account may see, and the
    finished ones that count for them (``counted_for_person``)."""
    root = root_of(player)
    seen = Match.objects.filter(match_visibility(user))
    return RecordCounts(
        player=root,
        matches=seen.filter(seated_person(root)).count(),
        counted=seen.filter(counted_for_person(root), status=Match.Status.FINISHED).count(),
        records=1 + Player.objects.filter(merged_into=root).count(),
    )
