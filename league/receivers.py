"""A change of a rated tournament match's result asks for the ratings; a merge of two player records
leaves a tombstone for each record gone from the lists (nothing more happens here)."""

from django.dispatch import receiver

from players.models import PlayerMerge
from players.signals import player_merged
from scoring import removals
from scoring.signals import MatchResult, match_changed
from tournaments.models import Table

from . import ratings


@receiver(match_changed, dispatch_uid="league-ratings")
def queue_ratings(sender, match, previous: MatchResult | None = None, **kwargs) -> None:
    """Only a change of what the rating reads queues a run: a match finished, unfinished again, its
    winner corrected, or (where the tournament asks for it) confirmed or unconfirmed. A deal of a
    match in play costs no query here. A sender that does not say what the match was queues."""
    now = MatchResult.of(match)
    if previous is not None and not any(
        ratings.rating_affected(previous, now, confirmation=asked) for asked in (False, True)
    ):
        return
    found = (
        Table.objects.filter(match=match, round__tournament__rated=True)
        .values_list("round__tournament__confirmation", flat=True)
        .first()
    )
    if found is None:
        return
    # A result confirmed (or no longer) by a claimed player at the table may make it count for
    # them (``league.counting``), whether the tournament asks for confirmations or not.
    confirmed = previous is not None and previous.confirmed != now.confirmed
    if previous is None or confirmed or ratings.rating_affected(previous, now, confirmation=found):
        ratings.ratings_request()


@receiver(player_merged, dispatch_uid="league-merge-removals")
def merged_records_removed(sender, merge: PlayerMerge, **kwargs) -> None:
    """The records a merge moved are no longer in the lists of players (people are): each is told
    gone, merged ``into`` the survivor, in the merge's transaction (``GET /api/v1/changes/``)."""
    removals.removals_record(
        kind=removals.Kind.PLAYER,
        object_ids=merge.records,
        reason=removals.Reason.MERGED,
        into_id=merge.survivor_id,
    )
