"""Matches and their deals.

Only what the table reported is stored (a deal in the FORMAT.md shape); the
sheet is worked out from the deals by the engine. ``state`` is the engine's
state after the last deal (``engine.MatchState``: totals, held points, status,
winner, tie-break deals, deals played and dealt, the next dealer), so that a new
deal is scored by one ``engine.step`` instead of a replay of the match; ``status``,
``winner``, ``totals`` and ``suffered`` are kept on the match for lists and
standings. All are rewritten by the services from the engine's verdict in the same
transaction as every change (a correction or a deletion replays the whole match),
and the tests check the stored state against a full replay. Every change to a deal or a
match is kept in its history (django-simple-history: who, when, what).
"""

import functools
import uuid

from django.conf import settings
from django.db import models
from simple_history.manager import HistoryManager
from simple_history.models import HistoricalRecords

from players.history import Historied
from players.models import Player, Team
from scoring import engine


class History(HistoryManager):
    """django-simple-history's manager, its class made once: the library's descriptor makes it
    anew (``from_queryset``, which inspects every queryset method) each time a history is read or
    a history row written through ``save()``, a fifth of the CPU of a small write."""

    @classmethod
    @functools.cache
    def from_queryset(cls, queryset_class, class_name=None):
        return super().from_queryset(queryset_class, class_name)


RULESET_CHOICES = [(key, rules.name) for key, rules in engine.RULESETS.items()]
RULESET_KEYS = list(engine.RULESETS)


class Match(Historied, models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        TIE_BREAK = "tie_break", "Tie-break deals"
        FINISHED = "finished", "Finished"

    ruleset = models.CharField(max_length=20, choices=RULESET_CHOICES, default="mpourloto")
    options = models.JSONField(default=dict, blank=True, help_text="The rule set's options, as in FORMAT.md")
    preset = models.CharField(
        max_length=80, blank=True, help_text="The named preset the options came from (its name), if any"
    )
    target = models.PositiveIntegerField(default=1000)
    team0 = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    team1 = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    seat0 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    seat3 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    first_dealer = models.PositiveSmallIntegerField(default=0, choices=[(s, f"Seat {s}") for s in range(4)])
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    totals = models.JSONField(
        default=list, blank=True, help_text="The engine's totals, rewritten on every change"
    )
    suffered = models.JSONField(
        default=list,
        blank=True,
        help_text="Deals each team lost as the contracting side (mesa, failed, inside…)",
    )
    state = models.JSONField(
        default=dict,
        blank=True,
        help_text="The engine's state after the last deal (engine.MatchState), rewritten on every change",
    )
    version = models.PositiveIntegerField(default=0, help_text="Raised by every change to the deals")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by_team = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The team that confirmed the finished result (0 or 1)"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    keepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="kept_matches", help_text="May record its deals"
    )
    deal_check = models.BooleanField(
        default=False,
        help_text="The other team checks each deal on the tablet (a tournament that asks for it)",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords(excluded_fields=["keepers"], history_manager=History)
    # Not stored: what a match read by services.match_lock for a signed-in person carries (deal_sql.py)
    # for permissions.py: that person's id, whether they keep it and whether their club is read-only.
    access_user: int
    access_keeps: bool
    access_read_only: bool
    # Not stored either: services.match_lock marks the match it locked (``row_locked``, also set by
    # services._deal_record before finishing a match it locked) with the client key it was read for
    # (``locked_key``); deal_sql.read_locked sets ``deal_facts`` (the last position and the id of the
    # deal recorded with that key; None: another change committed meanwhile, ask again).
    row_locked: bool
    locked_key: uuid.UUID | None
    deal_facts: tuple[int | None, int | None] | None

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(condition=models.Q(first_dealer__lte=3), name="match_first_dealer_seat"),
            models.CheckConstraint(
                condition=models.Q(winner__isnull=True) | models.Q(winner__in=[0, 1]),
                name="match_winner_team",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team0} – {self.team1}"

    @property
    def teams(self) -> tuple[Team, Team]:
        return (self.team0, self.team1)

    @property
    def seats(self) -> tuple[Player, Player, Player, Player]:
        return (self.seat0, self.seat1, self.seat2, self.seat3)

    @property
    def ruleset_name(self) -> str:
        return engine.RULESETS[self.ruleset].name


class RulePreset(models.Model):
    """An organizer's preset: a named copy of a preset (or of a rule set's defaults) with changes.
    The presets every site has are code (``scoring.presets.BUILT_IN``); a preset's name is unique
    among both, since a match file names its preset by name."""

    name = models.CharField(max_length=80, unique=True)
    slug = models.SlugField(max_length=100, unique=True, allow_unicode=True)
    ruleset = models.CharField(max_length=20, choices=RULESET_CHOICES)
    options = models.JSONField(default=dict, help_text="Every option of the rule set, spelt out")
    time_limit = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Minutes a timed match or round lasts (a tournament's clock)"
    )
    based_on = models.CharField(max_length=80, blank=True, help_text="The preset it was copied from")
    about = models.TextField(blank=True, max_length=2000)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presets")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ruleset", "name"]

    def __str__(self) -> str:
        return self.name


class Deal(Historied, models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    position = models.PositiveIntegerField(
        help_text="Playing order within the match; deleted deals keep theirs"
    )
    data = models.JSONField(help_text="The deal as in FORMAT.md")
    client_key = models.UUIDField(
        null=True, blank=True, help_text="Sent with the form: a resend records once"
    )
    client_fingerprint = models.CharField(
        max_length=64, blank=True, default="", help_text="What the deal said when first sent with its key"
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    deleted_at = models.DateTimeField(null=True, blank=True)
    checked_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the other team checked it (a match with deal_check); a correction undoes it",
    )
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    history = HistoricalRecords(history_manager=History)
    # Not stored: what services.deal_record says of the deal it returns: recorded now (not a key sent
    # again), and then its sheet row and number (None for a deal sent again), and the rule set, options
    # and state the match's sheet stands at after it (None: read the match).
    created: bool
    row: engine.SheetRow | None
    number: int | None
    scored: tuple[engine.RuleSet, object, engine.MatchState] | None

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="deal_position_unique"),
            models.UniqueConstraint(fields=["match", "client_key"], name="deal_client_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match} · deal at {self.position}"

    def as_engine(self) -> engine.Deal:
        return engine.Deal.from_dict(self.data)


class Removal(models.Model):
    """A tombstone: something a client mirroring the API holds that is gone from what it may read
    (a deal deleted, a match or a tournament made private, a team withdrawn, a player merged into
    another record). Read through ``GET /api/v1/changes/`` so that a mirror never keeps what is gone.
    Ids only, never the object's data: the object itself may be gone or no longer public."""

    class Kind(models.TextChoices):
        DEAL = "deal", "Deal"
        MATCH = "match", "Match"
        TEAM = "team", "Team"
        PLAYER = "player", "Player"
        ENTRY = "entry", "Entry"
        TOURNAMENT = "tournament", "Tournament"

    class Reason(models.TextChoices):
        DELETED = "deleted", "Deleted"
        PRIVATE = "private", "Made private"
        WITHDRAWN = "withdrawn", "Withdrawn"
        MERGED = "merged", "Merged into another record"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    object_id = models.PositiveBigIntegerField()
    reason = models.CharField(max_length=12, choices=Reason.choices)
    match_id = models.PositiveBigIntegerField(null=True, blank=True, help_text="The deal's match")
    tournament_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The tournament it belonged to, if any (who may read the removal)"
    )
    into_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="A merged player: the record it is part of now"
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} {self.reason}"
