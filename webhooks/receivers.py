"""The tournaments' events become deliveries (``services.event_queue``): nothing more happens here.

Each receiver runs inside the transaction of the change; an event of a tournament that no active
subscription listens to costs no query (``selectors.watched``, cached)."""

from __future__ import annotations

from django.dispatch import receiver

from tournaments import signals

from . import payloads, services
from .models import Event


@receiver(signals.round_started, dispatch_uid="webhooks-round-started")
def round_started(sender, tournament, round, **kwargs) -> None:
    services.event_queue(
        event=Event.ROUND_STARTED, tournament=tournament, data=lambda: payloads.round_data(tournament, round)
    )


@receiver(signals.round_finished, dispatch_uid="webhooks-round-finished")
def round_finished(sender, tournament, round, **kwargs) -> None:
    services.event_queue(
        event=Event.ROUND_FINISHED, tournament=tournament, data=lambda: payloads.round_data(tournament, round)
    )


@receiver(signals.match_finished, dispatch_uid="webhooks-match-finished")
def match_finished(sender, tournament, table, match, **kwargs) -> None:
    services.event_queue(
        event=Event.MATCH_FINISHED,
        tournament=tournament,
        data=lambda: payloads.match_data(tournament, table, match),
    )


@receiver(signals.standings_updated, dispatch_uid="webhooks-standings-updated")
def standings_updated(sender, tournament, snapshot, **kwargs) -> None:
    services.event_queue(
        event=Event.STANDINGS_UPDATED,
        tournament=tournament,
        data=lambda: payloads.standings_data(tournament, snapshot),
    )


@receiver(signals.tournament_finished, dispatch_uid="webhooks-tournament-finished")
def tournament_finished(sender, tournament, **kwargs) -> None:
    services.event_queue(
        event=Event.TOURNAMENT_FINISHED,
        tournament=tournament,
        data=lambda: payloads.finished_data(tournament),
    )
