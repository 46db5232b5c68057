"""Writes for players and teams."""

from django.db import transaction

from .errors import PlayerError
from .models import Player, Team


def player_name_clean(name: str) -> str:
    """A player's name as stored: spaces collapsed; refused if empty, too long or with control characters."""
    name = " ".join(name.split())
    if not name:
        raise PlayerError("a player needs a name", field="players")
    if not name.isprintable():
        raise PlayerError("a name has no control characters", field="players")
    if len(name) > 80:
        raise PlayerError("a name has at most 80 characters", field="players")
    return name


def player_create(*, name: str) -> Player:
    """A new player of that name, even if someone of that name exists: a typed name never becomes an
    existing person (that one is picked by id, where the caller may see them)."""
    return Player.objects.create(name=player_name_clean(name))


@transaction.atomic
def team_get_or_create(*, name: str, players: tuple[Player, Player]) -> Team:
    """The team of that name with these two partners, made if new. The partners are people already
    decided on (picked or just made), so finding their team by its name adds no one to it."""
    name = " ".join(name.split())
    if not name:
        raise PlayerError("a team needs a name", field="teams")
    if not name.isprintable():
        raise PlayerError("a name has no control characters", field="teams")
    if len(name) > 80:
        raise PlayerError("a team name has at most 80 characters", field="teams")
    a, b = players
    pair = {a.pk, b.pk}
    for team in Team.objects.filter(name__iexact=name):
        if {team.player_a_id, team.player_b_id} == pair:
            return team
    return Team.objects.create(name=name, player_a=a, player_b=b)
