"""A change of a rated tournament match's result asks for the ratings (nothing more happens here)."""

from django.dispatch import receiver

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
    if previous is None or ratings.rating_affected(previous, now, confirmation=found):
        ratings.ratings_request()
