"""A change of a tournament match's result queues the standings (nothing more happens here)."""

from django.dispatch import receiver

from scoring.signals import MatchResult, match_changed

from . import (
    after_response,  # noqa: F401 - connects the request signals it listens to
    services,
)
from .models import Table


@receiver(match_changed)
def queue_standings(sender, match, previous: MatchResult | None = None, **kwargs) -> None:
    """Only a change of a result queues: a match finished, a finished one corrected or unfinished
    again, or (when the tournament asks for it) confirmed or unconfirmed; a deal of a match in play
    does not, and costs no query here. A sender that does not say what the match was queues."""
    now = MatchResult.of(match)
    if previous is not None and not services.standings_affected(previous, now):
        return
    found = (
        Table.objects.filter(match=match)
        .values_list("round__tournament_id", "round__tournament__confirmation")
        .first()
    )
    if found is None:
        return
    tournament_id, confirmation = found
    if previous is None or services.standings_affected(previous, now, confirmation=confirmation):
        services.standings_request(tournament_id)
