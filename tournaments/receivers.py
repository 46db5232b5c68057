"""A match of a tournament changed: queue the standings (nothing more happens here)."""

from django.dispatch import receiver

from scoring.signals import match_changed

from . import services
from .models import Table


@receiver(match_changed)
def queue_standings(sender, match, **kwargs) -> None:
    tournament_id = Table.objects.filter(match=match).values_list("round__tournament_id", flat=True).first()
    if tournament_id is not None:
        services.standings_request(tournament_id)
