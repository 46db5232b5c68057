"""Writes for players and teams."""

from django.db import transaction

from scoring.engine import ScoringError

from .models import Player, Team


def player_get_or_create(*, name: str) -> Player:
    """The player of that name (case does not matter), made if new."""
    name = " ".join(name.split())
    if not name:
        raise ScoringError("a player needs a name", field="players")
    if not name.isprintable():
        raise ScoringError("a name has no control characters", field="players")
    if len(name) > 80:
        raise ScoringError("a name has at most 80 characters", field="players")
    player = Player.objects.filter(name__iexact=name).first()
    return player or Player.objects.create(name=name)


@transaction.atomic
def team_get_or_create(*, name: str, players: tuple[Player, Player]) -> Team:
    """The team of that name with these two partners, made if new."""
    name = " ".join(name.split())
    if not name:
        raise ScoringError("a team needs a name", field="teams")
    if not name.isprintable():
        raise ScoringError("a name has no control characters", field="teams")
    if len(name) > 80:
        raise ScoringError("a team name has at most 80 characters", field="teams")
    a, b = players
    pair = {a.pk, b.pk}
    for team in Team.objects.filter(name__iexact=name):
        if {team.player_a_id, team.player_b_id} == pair:
            return team
    return Team.objects.create(name=name, player_a=a, player_b=b)
