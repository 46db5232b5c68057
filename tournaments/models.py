"""Tournaments: teams entered, rounds of pairings at numbered tables, standings.

A table's match is an ordinary scoring Match; results are read from the
matches (whose totals the engine works out), and the standings are a stored
snapshot, recomputed by a Celery task whenever a result changes.
"""

import random
import secrets

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords

from players.history import Historied
from players.models import Team
from scoring.models import RULESET_CHOICES, Match

from .fields import DocumentField


def new_token() -> str:
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 1_000_000)


class Tournament(Historied, models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round_robin", "Round robin"
        CONCOURS = "concours", "Concours"
        INDIVIDUAL = "individual", "Individual"
        POOLS = "pools", "Pools"

    class InPlay(models.TextChoices):
        TOTALS = "totals", "Finished on their totals"
        LEFT_OUT = "left_out", "Left out"

    class Status(models.TextChoices):
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    ruleset = models.CharField(max_length=20, choices=RULESET_CHOICES, default="mpourloto")
    options = models.JSONField(default=dict, blank=True, help_text="The rule set's options for every match")
    preset = models.CharField(max_length=80, blank=True, help_text="The named preset the options came from")
    format = models.CharField(max_length=20, choices=Format.choices, default=Format.SWISS)
    swiss_rounds = models.PositiveSmallIntegerField(
        default=5, help_text="The number of rounds of a Swiss, a concours or an individual event"
    )
    seed = models.PositiveIntegerField(
        default=new_seed, help_text="The draw's seed: round 1 of a concours, an individual movement"
    )
    time_limit = models.PositiveSmallIntegerField(
        default=0, help_text="Minutes a round lasts once its clock is started; 0: no limit"
    )
    knockout_size = models.PositiveSmallIntegerField(
        default=0, help_text="Top N to a knockout stage; 0: none"
    )
    pool_size = models.PositiveSmallIntegerField(
        default=4, help_text="Pools: teams a pool (3 to 8), each a round robin, before the knockout"
    )
    consolation = models.BooleanField(
        default=False, help_text="The teams that miss the knockout play a knockout of their own"
    )
    third_place = models.BooleanField(
        default=False, help_text="The losing semi-finalists play a match for third place"
    )
    tiebreaks = models.JSONField(
        default=list, help_text="Metric keys in order, fixed when the tournament starts"
    )
    deals_per_match = models.PositiveSmallIntegerField(default=0, help_text="0: to the rule set's target")
    points_win = models.PositiveSmallIntegerField(default=2)
    points_draw = models.PositiveSmallIntegerField(default=1)
    points_loss = models.PositiveSmallIntegerField(default=0)
    points_bye = models.PositiveSmallIntegerField(default=2)
    bye_game_points = models.PositiveIntegerField(
        default=0, help_text="Game points a bye (or a sit-out) is worth, for rankings on points"
    )
    playoff_deals = models.PositiveSmallIntegerField(default=2)
    cuts = models.JSONField(
        default=list, blank=True, help_text="Places where a tie is played off, e.g. [3, 8]"
    )
    avoid = models.JSONField(
        default=list,
        blank=True,
        help_text="Pairs of entries kept apart while the pairing allows (same club, same family)",
    )
    confirmation = models.BooleanField(
        default=False, help_text="A finished match counts once the other team has confirmed it on the tablet"
    )
    deal_check = models.BooleanField(
        default=False,
        help_text="After each deal the tablet shows its line to the other team for one tap OK (as bridge "
        "tablets do); an unchecked deal shows on the organizer's console",
    )
    public = models.BooleanField(default=True)
    club = models.ForeignKey(
        "players.Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
        help_text="The club that holds it: listed on the club's page, counted in its seasons",
    )
    rated = models.BooleanField(default=True, help_text="Its matches count in the players' ratings")
    seed_by_rating = models.BooleanField(
        default=False, help_text="Swiss: round 1 drawn by the players' ratings (highest against the middle)"
    )
    signup_open = models.BooleanField(default=False)
    checkin_open = models.BooleanField(
        default=False, help_text="Each team's own link (and QR code) checks it in while this is on"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    participants = models.JSONField(
        default=list, blank=True, help_text="Entry ids playing, fixed at the start"
    )
    starts_on = models.DateField(null=True, blank=True)
    embed_origins = models.TextField(
        blank=True,
        help_text="Origins (https://club.example) whose pages may show the embedded standings, one a line",
    )
    colour = models.CharField(
        max_length=7, blank=True, help_text="The embed's main colour (#rrggbb); empty: the site's green"
    )
    background = models.CharField(
        max_length=7, blank=True, help_text="The embed's background (#rrggbb); empty: white"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(
        auto_now=True, db_index=True, help_text="The last change a client mirroring the API must fetch"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    finish_reason = models.CharField(
        max_length=300, blank=True, help_text="Why the organizer finished the tournament early"
    )
    finish_in_play = models.CharField(
        max_length=20,
        choices=InPlay.choices,
        blank=True,
        help_text="Finished early: what became of the matches in play",
    )
    history = HistoricalRecords()
    # Not stored: what is read once and kept on the tournament object: the director's decisions as
    # the standings read them (services.refresh.standings_refresh, for services.results.adjustments)
    # and each entry's number by entry id (selectors.entry_numbers).
    _adjustment_rows: list[tuple]
    _entry_numbers: dict[int, int]

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def ruleset_name(self) -> str:
        from scoring import engine

        return engine.RULESETS[self.ruleset].name


class Entry(Historied, models.Model):
    """A team in a tournament, or a player in an individual one (``team`` empty, ``player`` set)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting approval"
        REGISTERED = "registered", "Registered"
        CHECKED_IN = "checked_in", "Checked in"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries", null=True, blank=True)
    player = models.ForeignKey(
        "players.Player",
        on_delete=models.PROTECT,
        related_name="entries",
        null=True,
        blank=True,
        help_text="An individual event's entrant",
    )
    pool = models.CharField(max_length=2, blank=True, help_text="Pools: the entry's pool (A, B …)")
    joined_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="A late entry: the first round it plays"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    number = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="The entry's number: given in order of entry, editable before the start, shown wherever "
        "the team is and accepted wherever a team is picked",
    )
    checkin_token = models.CharField(
        max_length=40, unique=True, default=new_token, help_text="The team's own check-in link's secret"
    )
    seed = models.PositiveIntegerField(null=True, blank=True)
    contact = models.CharField(max_length=200, blank=True, help_text="From a public sign-up")
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "pk"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "team"], name="entry_team_once"),
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_once"),
            models.CheckConstraint(
                condition=models.Q(team__isnull=True) ^ models.Q(player__isnull=True),
                name="entry_team_or_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "number"],
                condition=models.Q(number__isnull=False),
                name="entry_number_once",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.team is not None:
            return self.team.name
        assert self.player is not None  # entry_team_or_player: an entry without a team has a player
        return self.player.name


class Round(Historied, models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", "Swiss"
        ROUND_ROBIN = "round_robin", "Round robin"
        CONCOURS = "concours", "Round"
        POOL = "pool", "Pool round"
        INDIVIDUAL = "individual", "Individual round"
        KNOCKOUT = "knockout", "Knockout"
        PLAYOFF = "playoff", "Tie-break play-off"

    class Status(models.TextChoices):
        DRAFT = "draft", "Pairings drawn"
        STARTED = "started", "Playing"
        FINISHED = "finished", "Finished"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    cut = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Play-off: the place decided")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True, help_text="A timed round's clock")
    clock_paused_at = models.DateTimeField(null=True, blank=True, help_text="Paused since")
    clock_paused_seconds = models.PositiveIntegerField(default=0, help_text="Pauses before the current one")
    clock_extra_seconds = models.IntegerField(
        default=0, help_text="Time added to (or taken from) every table"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once")]

    def __str__(self) -> str:
        return f"{self.tournament} · round {self.number}"


class Table(Historied, models.Model):
    """One pairing of a round, at a numbered table; ``entry1`` empty is a bye."""

    class Bracket(models.TextChoices):
        MAIN = "main", "Main"
        THIRD_PLACE = "third_place", "Match for third place"
        CONSOLATION = "consolation", "Consolation"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    entry0 = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    entry1 = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    match = models.OneToOneField(Match, on_delete=models.PROTECT, null=True, blank=True, related_name="table")
    partner0 = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="An individual round: entry0's partner",
    )
    partner1 = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        help_text="An individual round: entry1's partner",
    )
    extra_seconds = models.IntegerField(default=0, help_text="A timed round: time added to this table")
    paused_at = models.DateTimeField(
        null=True, blank=True, help_text="A timed round: this table paused since"
    )
    paused_seconds = models.PositiveIntegerField(
        default=0, help_text="This table's pauses before the current one"
    )
    bracket = models.CharField(
        max_length=20, choices=Bracket.choices, default=Bracket.MAIN, help_text="In a knockout round"
    )
    token = models.CharField(
        max_length=40, unique=True, default=new_token, help_text="The scorekeeper link's secret"
    )
    left_out = models.BooleanField(
        default=False,
        help_text="The tournament finished without this table's match (left out by an early finish, never "
        "begun): it counts for nobody and takes no deal, the organizer's neither",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_once")]

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"

    @property
    def is_bye(self) -> bool:
        return self.entry1_id is None

    @property
    def time_is_up(self) -> bool:
        """A timed round's time has run out at this table: the deal in play is its last."""
        from .clock import time_is_up

        return time_is_up(self)

    @property
    def open_for_scoring(self) -> bool:
        """The table's link writes only while its round is being played and the tournament runs."""
        return (
            self.round.status == Round.Status.STARTED
            and self.round.tournament.status == Tournament.Status.RUNNING
        )

    @property
    def event_over(self) -> bool:
        """Its tournament is finished: only the organizer corrects the table's result, unless its
        match was ``left_out`` at the end (then nobody changes it)."""
        return self.round.tournament.status == Tournament.Status.FINISHED

    @property
    def confirmation_asked(self) -> bool:
        """Its tournament counts a finished match once the other team has confirmed it."""
        return self.round.tournament.confirmation


class StandingsSnapshot(models.Model):
    """The standings as last computed; pages and the API serve this, never a fresh computation."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="standings")
    # Documents written and read whole, stored as written (PostgreSQL's json, not jsonb: fields.py).
    rows = DocumentField(default=list)
    playoffs = DocumentField(default=list, help_text="Ties at a cut and their play-off state")
    ranking = DocumentField(
        default=list, help_text="The final ranking: the knockout's result, then the stage's order"
    )
    version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Standings of {self.tournament} (v{self.version})"


class Adjustment(Historied, models.Model):
    """A director's decision: a penalty in points to a team, or a table's result decided without (or
    against) its play: a forfeit with the score the organizer sets, or a match awarded."""

    class Kind(models.TextChoices):
        PENALTY = "penalty", "Penalty"
        FORFEIT = "forfeit", "Forfeit"
        AWARD = "award", "Match awarded"
        LATE = "late", "Late entry: missed rounds"
        PAPER = "paper", "From the paper sheet"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="adjustments",
        null=True,
        blank=True,
        help_text="A penalty's team",
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        related_name="adjustments",
        null=True,
        blank=True,
        help_text="A forfeit's or award's table",
    )
    points = models.IntegerField(
        default=0, help_text="A penalty: game points taken away; a late entry: game points given"
    )
    match_points = models.IntegerField(
        default=0, help_text="A penalty: match points taken away; a late entry: match points given"
    )
    winner = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="A forfeit or award: the side (0 or 1) given the match"
    )
    scores = models.JSONField(
        default=list, blank=True, help_text="A forfeit or award: the game points of each side"
    )
    reason = models.CharField(max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.reason}"


class DirectorCall(models.Model):
    """A table asks for the director (one silent tap on its sheet); it shows on the organizer's
    console with the table's number until the director acknowledges it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="calls")
    created_at = models.DateTimeField(auto_now_add=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, related_name="+", null=True, blank=True
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["tournament", "acknowledged_at"], name="call_open")]

    def __str__(self) -> str:
        return f"{self.table} · call at {self.created_at:%H:%M}"


class PrizeSettings(Historied, models.Model):
    """The prize-giving's money: a pot split over the first places by the organizer's percentages,
    rounded down as they choose, the remainder to the first place (tournaments/prizes.py)."""

    class Rounding(models.TextChoices):
        CENT = "cent", "To the cent"
        UNIT = "unit", "Down to the unit (the euro)"
        FIVE = "five", "Down to 5"
        TEN = "ten", "Down to 10"

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="prize_settings")
    pot_cents = models.PositiveIntegerField(default=0, help_text="The pot, in cents")
    percentages = models.JSONField(
        default=list, blank=True, help_text="The pot's percent for each place from the first, as decimal text"
    )
    rounding = models.CharField(max_length=10, choices=Rounding.choices, default=Rounding.UNIT)
    currency = models.CharField(max_length=8, default="€", help_text="The symbol written after an amount")
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = "prize settings"

    def __str__(self) -> str:
        return f"Prizes of {self.tournament}"


class PlacePrize(Historied, models.Model):
    """The prize of one place: a text (a trophy, a ham …) and/or an amount the organizer edited; an
    empty amount is the split's."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="place_prizes")
    place = models.PositiveSmallIntegerField(help_text="1 for the first place")
    text = models.CharField(max_length=200, blank=True)
    amount_cents = models.PositiveIntegerField(
        null=True, blank=True, help_text="Edited by the organizer, kept as edited; empty: the split's amount"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "place"]
        constraints = [models.UniqueConstraint(fields=["tournament", "place"], name="place_prize_once")]

    def __str__(self) -> str:
        return f"{self.tournament} · place {self.place}"


class PrizeCategory(Historied, models.Model):
    """A prize of the organizer's own (the best mixed team, the best junior pair …), its winners
    picked by the organizer among the entries."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="prize_categories")
    name = models.CharField(max_length=120)
    text = models.CharField(max_length=200, blank=True)
    amount_cents = models.PositiveIntegerField(null=True, blank=True)
    winners = models.ManyToManyField(Entry, blank=True, related_name="prize_categories")
    order = models.PositiveSmallIntegerField(default=0)
    history = HistoricalRecords(m2m_fields=[winners])

    class Meta:
        ordering = ["tournament", "order", "pk"]
        verbose_name_plural = "prize categories"

    def __str__(self) -> str:
        return f"{self.tournament} · {self.name}"
