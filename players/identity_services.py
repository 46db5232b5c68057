"""Who a player record is: an account's claim on it, and two records of one person merged (and a
wrong merge split).

People only: no match is read or written here. A merge never rewrites a match: the absorbed record,
and every record merged into it before, point to the survivor (``Player.merged_into``), which is
always a *root* (a record merged into nobody); whoever reads matches about a person reads the
matches of all its records (``records_of``). A split undoes one merge: the records it moved point
back to the absorbed record, and the claim it moved goes back, so every record has its own matches
again, exactly as before.

Which merges may be split, and in what order: any merge not undone yet, except one whose records
were since merged elsewhere on their own (A into B, B into C, A split from B, A into C: B cannot be
split from C until A is split from C, or B would take A back). Splits in any other order give every
record what it had: a chain A into B, B into C split at B–C leaves A in B.

Who may claim, approve, merge or split is the caller's question (``league.permissions``): these
services check what the records allow, whoever asks. Every decision is kept in the records'
history (``players.audit``), and a staff account may take one back: a split undoes a merge,
``claim_revert`` a claim's approval or refusal.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from .audit import Action, record_event
from .errors import PlayerError
from .models import Membership, Player, PlayerClaim, PlayerMerge
from .signals import player_merged

MESSAGE_MOST = 300  # characters of a claim's message or a merge's reason


def root_of(player: Player) -> Player:
    """The record that stands for this person: the record itself, or the one it was merged into."""
    root = player
    # once at most by design (merges point to roots); followed further, kept safe
    while root.merged_into_id is not None:
        merged_into = root.merged_into
        assert merged_into is not None  # its id is set
        root = merged_into
    return root


def records_of(player: Player) -> list[int]:
    """The ids of every record of this person: its root first, then those merged into it."""
    root = root_of(player)
    return [root.pk, *Player.objects.filter(merged_into=root).order_by("pk").values_list("pk", flat=True)]


def _text(value: str, *, field: str) -> str:
    text = " ".join((value or "").split())
    if not text.isprintable():
        raise PlayerError(gettext("The text has a character that cannot be shown."), field=field)
    if len(text) > MESSAGE_MOST:
        raise PlayerError(
            gettext("At most %(most)s characters, please.") % {"most": MESSAGE_MOST}, field=field
        )
    return text


def _locked(*players: Player) -> dict[int, Player]:
    """The records read again and locked, in the order of their ids (two merges at once wait for
    each other rather than deadlock)."""
    rows = Player.objects.select_for_update().filter(pk__in=[p.pk for p in players]).order_by("pk")
    return {row.pk: row for row in rows}


def _merged_refusal(player: Player) -> PlayerError:
    return PlayerError(
        gettext("%(player)s was merged into %(root)s: use %(root)s instead.")
        % {"player": player.name, "root": root_of(player).name},
        field="player",
    )


# Claims ------------------------------------------------------------------------------------------


@transaction.atomic
def claim_request(*, player: Player, user: Any, message: str = "") -> PlayerClaim:
    """The account asks to be this player. Refused when the record is claimed already, when the
    account is a player already or waits on another claim, and for a merged record (its root is the
    one to claim)."""
    message = _text(message, field="message")
    player = _locked(player)[player.pk]
    if player.merged_into_id is not None:
        raise _merged_refusal(player)
    if player.user_id is not None:
        if player.user_id == user.pk:
            raise PlayerError(gettext("This player is already you."), field="player")
        raise PlayerError(gettext("This player is already claimed by an account."), field="player")
    if Player.objects.filter(user=user).exists():
        raise PlayerError(gettext("Your account is already a player."), field="player")
    waiting = PlayerClaim.objects.filter(user=user, status=PlayerClaim.Status.PENDING).first()
    if waiting is not None:
        if waiting.player_id == player.pk:
            raise PlayerError(gettext("Your claim on this player is already waiting."), field="player")
        raise PlayerError(
            gettext("Your claim on %(player)s is waiting: withdraw it first.")
            % {"player": waiting.player.name},
            field="player",
        )
    return PlayerClaim.objects.create(player=player, user=user, message=message)


def _pending(claim: PlayerClaim) -> PlayerClaim:
    claim = PlayerClaim.objects.select_for_update().select_related("player").get(pk=claim.pk)
    if claim.status != PlayerClaim.Status.PENDING:
        raise PlayerError(gettext("This claim has already been decided."), field="claim")
    return claim


def _decide(claim: PlayerClaim, status: str, by: Any) -> PlayerClaim:
    claim.status, claim.decided_by, claim.decided_at = status, by, timezone.now()
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    return claim


@transaction.atomic
def claim_approve(*, claim: PlayerClaim, by: Any) -> PlayerClaim:
    """The claimant's account becomes the player (``Player.user``): from now on that record counts
    only the matches the person stood behind (``league.counting``: their account started, kept or
    confirmed it, organized its event, said "this was me", or it finished before now). The other claims
    waiting on the record are refused with it. Refused if the record was merged meanwhile (the
    claimant asks again for its root) or either side was taken meanwhile."""
    claim = _pending(claim)
    player = _locked(claim.player)[claim.player_id]
    if player.merged_into_id is not None:
        raise _merged_refusal(player)
    if player.user_id is not None:
        raise PlayerError(gettext("This player is already claimed by an account."), field="claim")
    if Player.objects.filter(user_id=claim.user_id).exists():
        raise PlayerError(gettext("That account is already a player."), field="claim")
    player.user_id = claim.user_id
    player.save(update_fields=["user"])
    others = PlayerClaim.objects.filter(player=player, status=PlayerClaim.Status.PENDING).exclude(pk=claim.pk)
    for other in others.select_related("player"):
        note = gettext("Another claim was approved.")
        record_event(action=Action.CLAIM_REFUSED, player=player, by=by, claim=other, note=note)
    others.update(status=PlayerClaim.Status.REFUSED, decided_by=by, decided_at=timezone.now())
    record_event(action=Action.CLAIM_APPROVED, player=player, by=by, claim=claim)
    return _decide(claim, PlayerClaim.Status.APPROVED, by)


@transaction.atomic
def claim_refuse(*, claim: PlayerClaim, by: Any) -> PlayerClaim:
    """The claim is refused: the record stays as it was."""
    claim = _pending(claim)
    record_event(action=Action.CLAIM_REFUSED, player=claim.player, by=by, claim=claim)
    return _decide(claim, PlayerClaim.Status.REFUSED, by)


@transaction.atomic
def claim_revert(*, claim: PlayerClaim, by: Any) -> PlayerClaim:
    """Take a claim's decision back (a staff account's remedy): the claim waits again, to be decided
    anew. An approved claim's account is no longer the player (the record of the person it is on
    now, after any merge), and what it consented to for them (club memberships) is no longer
    consented. Refused when the claim is not decided, when the account no longer is this
    person, or (a refused claim) when the account is a player or waits on another claim now."""
    claim = PlayerClaim.objects.select_for_update().select_related("player", "user").get(pk=claim.pk)
    if claim.status not in (PlayerClaim.Status.APPROVED, PlayerClaim.Status.REFUSED):
        raise PlayerError(gettext("Only an approved or refused claim can be reverted."), field="claim")
    was = claim.get_status_display()
    if claim.status == PlayerClaim.Status.APPROVED:
        records = records_of(claim.player)
        held = Player.objects.select_for_update().filter(pk__in=records, user_id=claim.user_id).first()
        if held is None:
            raise PlayerError(gettext("That account is no longer this player."), field="claim")
        held.user = None
        held.save(update_fields=["user", "updated_at"])
        Membership.objects.filter(player_id__in=records, consented_by_id=claim.user_id).update(
            consented_by=None, consented_at=None
        )
    else:
        if Player.objects.filter(user_id=claim.user_id).exists():
            raise PlayerError(gettext("That account is already a player."), field="claim")
        if PlayerClaim.objects.filter(user_id=claim.user_id, status=PlayerClaim.Status.PENDING).exists():
            raise PlayerError(gettext("That account waits on another claim."), field="claim")
    claim.status, claim.decided_by, claim.decided_at = PlayerClaim.Status.PENDING, None, None
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    record_event(action=Action.CLAIM_REVERTED, player=claim.player, by=by, claim=claim, note=was)
    return claim


@transaction.atomic
def claim_withdraw(*, claim: PlayerClaim, user: Any) -> PlayerClaim:
    """The claimant takes a waiting claim back (only their own)."""
    claim = _pending(claim)
    if claim.user_id != user.pk:
        raise PlayerError(gettext("Only the claimant may withdraw a claim."), field="claim")
    claim.status = PlayerClaim.Status.WITHDRAWN
    claim.save(update_fields=["status"])
    return claim


# Merges and splits -------------------------------------------------------------------------------


@transaction.atomic
def player_merge(*, survivor: Player, absorbed: Player, by: Any, reason: str = "") -> PlayerMerge:
    """``absorbed`` (with the records merged into it before) becomes ``survivor``'s: they point to
    it, their matches count for it, and the absorbed record's claim moves to it if it has none. No
    match changes. Refused for one record twice, for a record that was itself merged (merge its
    root), and for two records claimed by different accounts (two people, not one)."""
    reason = _text(reason, field="reason")
    if survivor.pk == absorbed.pk:
        raise PlayerError(gettext("A record cannot be merged into itself."), field="absorbed")
    rows = _locked(survivor, absorbed)
    survivor, absorbed = rows[survivor.pk], rows[absorbed.pk]
    if absorbed.merged_into_id == survivor.pk:
        raise PlayerError(
            gettext("%(player)s is already merged into %(root)s.")
            % {"player": absorbed.name, "root": survivor.name},
            field="absorbed",
        )
    if survivor.merged_into_id == absorbed.pk:
        raise PlayerError(
            gettext("%(player)s was merged into %(root)s: merge the other way, or split it first.")
            % {"player": survivor.name, "root": absorbed.name},
            field="survivor",
        )
    for player, field in ((survivor, "survivor"), (absorbed, "absorbed")):
        if player.merged_into_id is not None:
            error = _merged_refusal(player)
            error.field = field
            raise error
    if survivor.user_id is not None and absorbed.user_id is not None:
        raise PlayerError(
            gettext("Both records are claimed, by different accounts: they are two people."), field="absorbed"
        )
    records = [
        absorbed.pk,
        *Player.objects.filter(merged_into=absorbed).order_by("pk").values_list("pk", flat=True),
    ]
    Player.objects.filter(pk__in=records).update(merged_into=survivor)
    moved_user_id = absorbed.user_id  # the claim follows the person (the survivor has none)
    if moved_user_id is not None:
        Player.objects.filter(pk=absorbed.pk).update(user=None)  # one record per account: this first
        Player.objects.filter(pk=survivor.pk).update(user=moved_user_id)
    # What a client mirroring the API must read again (QuerySet.update leaves updated_at as it was).
    Player.objects.filter(pk__in=[survivor.pk, *records]).update(updated_at=timezone.now())
    merge = PlayerMerge.objects.create(
        survivor=survivor,
        absorbed=absorbed,
        records=records,
        moved_user_id=moved_user_id,
        reason=reason,
        by=by,
    )
    record_event(action=Action.MERGED, player=survivor, by=by, merge=merge, note=reason)
    player_merged.send(sender=PlayerMerge, merge=merge)
    return merge


def split_blocker(merge: PlayerMerge) -> PlayerMerge | None:
    """A later merge, not undone, that took one of this merge's records elsewhere on its own: it is
    to be split first (see the module's note)."""
    later = PlayerMerge.objects.filter(pk__gt=merge.pk, undone_at__isnull=True, absorbed_id__in=merge.records)
    return later.select_related("survivor", "absorbed").order_by("-pk").first()


@transaction.atomic
def player_split(*, merge: PlayerMerge, by: Any) -> PlayerMerge:
    """Undo one merge: the records it moved that are still with the survivor's person point back to
    the absorbed record (a root again), and the claim it moved goes back to it. Every match is then
    the record's it was played under, as before the merge."""
    merge = PlayerMerge.objects.select_for_update().select_related("survivor", "absorbed").get(pk=merge.pk)
    if merge.undone_at is not None:
        raise PlayerError(gettext("This merge has already been split."), field="merge")
    if (blocker := split_blocker(merge)) is not None:
        raise PlayerError(
            gettext("%(player)s was merged into %(root)s since: split that merge first.")
            % {"player": blocker.absorbed.name, "root": blocker.survivor.name},
            field="merge",
        )
    root = root_of(merge.survivor)
    rows = _locked(root, *Player.objects.filter(pk__in=merge.records))
    root = rows[root.pk]
    moving = [pk for pk in merge.records if pk in rows and rows[pk].merged_into_id == root.pk]
    if merge.absorbed_id not in moving:  # never so by design: the absorbed stays with the person
        raise PlayerError(gettext("This merge can no longer be split."), field="merge")
    Player.objects.filter(pk=merge.absorbed_id).update(merged_into=None)
    Player.objects.filter(pk__in=[pk for pk in moving if pk != merge.absorbed_id]).update(
        merged_into=merge.absorbed_id
    )
    if merge.moved_user_id is not None and root.user_id == merge.moved_user_id:  # still with the person
        Player.objects.filter(pk=root.pk).update(user=None)
        Player.objects.filter(pk=merge.absorbed_id).update(user=merge.moved_user_id)
    # Each record a person again (the absorbed one) or its records changed: mirrors read them again.
    Player.objects.filter(pk__in=[root.pk, *moving]).update(updated_at=timezone.now())
    merge.undone_by, merge.undone_at = by, timezone.now()
    merge.save(update_fields=["undone_by", "undone_at"])
    record_event(action=Action.SPLIT, player=merge.absorbed, by=by, merge=merge)
    return merge


def merges_of(player: Player) -> list[PlayerMerge]:
    """The merges, not undone, that made this person (its root) out of several records, the latest
    first: ``also recorded as``."""
    root = root_of(player)
    ids = [root.pk, *Player.objects.filter(merged_into=root).values_list("pk", flat=True)]
    merges = PlayerMerge.objects.filter(undone_at__isnull=True, absorbed_id__in=ids)
    return list(merges.select_related("survivor", "absorbed", "by").order_by("-pk"))
