"""People at the tables and the teams they form."""

from django.conf import settings
from django.db import models


class Player(models.Model):
    """A person. Two players may share a name: a typed name makes a new player, and an existing one
    is only ever picked (by its id)."""

    name = models.CharField(max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """Two partners, sitting opposite each other."""

    name = models.CharField(max_length=80)
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player_a=models.F("player_b")), name="team_two_players"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.player_a, self.player_b)


class Club(models.Model):
    """A club's account for the API: reads everything public; writes only when granted."""

    name = models.CharField(max_length=120)
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club")
    can_write = models.BooleanField(default=False, help_text="May create matches and record their deals")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name
