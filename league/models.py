"""Seasons and the ratings' history: what results say about people across events."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from players.models import Club, Player
from scoring.models import Match
from tournaments.models import Tournament

DEFAULT_SCALE = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]  # points by final rank: 1st, 2nd …


class Season(models.Model):
    """A club's (or a league's, run by its owner over several clubs) season: the events held from
    ``starts_on`` to ``ends_on`` that count, and its table: points per event by the player's final
    rank (``scale``; a rank past its end earns ``participation``), the best ``best_of`` results."""

    class Events(models.TextChoices):
        CLUB = "club", "Every finished event of the club in the dates"
        CHOSEN = "chosen", "The events chosen"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True, allow_unicode=True)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="seasons")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    starts_on = models.DateField()
    ends_on = models.DateField()
    events = models.CharField(max_length=10, choices=Events.choices, default=Events.CLUB)
    tournaments = models.ManyToManyField(Tournament, blank=True, related_name="seasons")
    scale = models.JSONField(default=list, help_text="Points by final rank: [1st, 2nd, …]")
    participation = models.PositiveSmallIntegerField(default=0, help_text="Points for a rank past the scale")
    best_of = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Only a player's best N results count (none: all)"
    )
    public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")), name="season_dates"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RatingPoint(models.Model):
    """A player's rating after one rated match: the history the chart draws. Written by the rating
    run (``league.ratings``), all at once, in the order the matches finished."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_points")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(help_text="The match's place in the run, from 1")
    at = models.DateTimeField(help_text="When the match finished")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(help_text="mu − 3 sigma")

    class Meta:
        ordering = ["player", "position"]
        indexes = [models.Index(fields=["player", "position"], name="rating_point_player")]
        constraints = [models.UniqueConstraint(fields=["player", "match"], name="rating_point_once")]

    def __str__(self) -> str:
        return f"{self.player} · {self.rating:.1f}"


class MatchConfirmation(models.Model):
    """A person's answer about a match played under their claimed record (``league.counting``):
    "this was me" (the match counts for them) or "not me" (it stays unconfirmed, counted for nobody,
    and is marked so). The answer is the account's. For a tournament's match it is about the event
    (``tournament`` set): one answer stands for every match of theirs in it; changed, it is kept
    once, with the moment of the last change."""

    class Answer(models.TextChoices):
        ME = "me", "This was me"
        NOT_ME = "not_me", "Not me"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="+", help_text="The match answered"
    )
    tournament = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The match's event: the answer stands for all of the person's matches in it",
    )
    answer = models.CharField(max_length=10, choices=Answer.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-answered_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "match"],
                condition=models.Q(tournament__isnull=True),
                name="confirmation_match_once",
            ),
            models.UniqueConstraint(
                fields=["user", "tournament"],
                condition=models.Q(tournament__isnull=False),
                name="confirmation_event_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.match_id} · {self.answer}"
