"""A change of a tournament match's result queues the standings, and a match that has just finished
is announced (``signals.match_finished``); nothing more happens here."""

from django.dispatch import receiver

from scoring.signals import MatchResult, match_changed

from . import (
    after_response,  # noqa: F401 - connects the request signals it listens to
    presence,  # noqa: F401 - the console's receiver: a deal heard from its table
    services,
    signals,
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


@receiver(match_changed, dispatch_uid="tournaments-match-finished")
def announce_finished(sender, match, previous: MatchResult | None = None, **kwargs) -> None:
    """A tournament's match that was not finished and now is: ``signals.match_finished``, with its
    table, round and tournament (one query, only then). A finished match corrected is not a finish
    (the standings it changes are announced); a sender that does not say what the match was is not
    taken for one."""
    if previous is None or previous.finished or not MatchResult.of(match).finished:
        return
    table = Table.objects.select_related("round__tournament").filter(match=match).first()
    if table is not None:
        signals.match_finished.send(sender=Table, tournament=table.round.tournament, table=table, match=match)
