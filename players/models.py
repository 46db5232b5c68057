"""People at the tables and the teams they form."""

from django.conf import settings
from django.db import models
from django.utils.text import slugify


class Player(models.Model):
    """A person. Two players may share a name: a typed name makes a new player, and an existing one
    is only ever picked (by its id)."""

    name = models.CharField(max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="absorbed",
        help_text="The record this one was merged into (its matches are that player's); none if its own",
    )
    # The rating across rated events, written by the league's worker (league/ratings.py) and read
    # where a player is shown or seeded: mu and sigma of Weng–Lin (OpenSkill), and the number the
    # tables show and sort by, mu − 3σ (the "ordinal": a rating the player is almost surely above).
    rating_mu = models.FloatField(null=True, blank=True)
    rating_sigma = models.FloatField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True, db_index=True, help_text="mu − 3 sigma")
    rated_matches = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(
        auto_now=True, db_index=True, help_text="The last change a client mirroring the API must fetch"
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(merged_into=models.F("pk")), name="player_not_merged_into_itself"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """Two partners, sitting opposite each other."""

    name = models.CharField(max_length=80)
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(
        auto_now=True, db_index=True, help_text="The last change a client mirroring the API must fetch"
    )

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
    """A club: its members (players), its admins (accounts that run it), its public page, its
    tournaments and seasons. Its API account, if it has one, reads everything public and writes only
    when granted."""

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True, allow_unicode=True)
    city = models.CharField(max_length=80, blank=True)
    about = models.TextField(blank=True, max_length=2000)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="club",
        help_text="The club's API account",
    )
    can_write = models.BooleanField(default=False, help_text="May create matches and record their deals")
    admins = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="administered_clubs", help_text="Run the club"
    )
    members = models.ManyToManyField(Player, through="Membership", related_name="clubs", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        if not self.slug:  # a club made without one (the admin, a test) gets one from its name
            base = slugify(self.name, allow_unicode=True)[:120] or "club"
            self.slug, n = base, 1
            while Club.objects.filter(slug=self.slug).exclude(pk=self.pk).exists():
                n += 1
                self.slug = f"{base}-{n}"
        super().save(*args, **kwargs)


class Membership(models.Model):
    """A player in a club, since a day (and until one, once they leave). A claimed record's
    membership is first an invitation its account accepts (or declines): until then it is no
    membership at all (``players.club_services``)."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Member"
        INVITED = "invited", "Invited, waiting for the player's answer"
        DECLINED = "declined", "Declined by the player"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    joined_on = models.DateField(null=True, blank=True)
    left_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    consented_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The player's account that accepted the membership (a claimed record's)",
    )
    consented_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "player__name"]
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="membership_once")]

    def __str__(self) -> str:
        return f"{self.player} · {self.club}"


class PlayerClaim(models.Model):
    """An account asking to be a player record: a club admin or an organizer decides."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    message = models.CharField(
        max_length=300, blank=True, help_text="From the claimant: how to tell it is them"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=models.Q(status="pending"),
                name="claim_one_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.player}"


class PlayerMerge(models.Model):
    """Two records of one person made one: ``absorbed`` (and the records merged into it before)
    point to ``survivor``; no match is rewritten, so undoing it (a split) gives every record back
    its own matches. ``records`` lists the records that moved, ``moved_user`` the claim that moved."""

    survivor = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges_in")
    absorbed = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges_out")
    records = models.JSONField(default=list, help_text="Ids of the records moved to the survivor")
    moved_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=300, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self) -> str:
        return f"{self.absorbed} → {self.survivor}"


class RecordEvent(models.Model):
    """One decision about a person's record, kept for good: who, when, what (``players.audit``).
    Claims decided and reverted, merges and splits, memberships of claimed records; the claim and
    the merge rows keep their own state, this keeps the history."""

    class Action(models.TextChoices):
        CLAIM_APPROVED = "claim_approved", "Claim approved"
        CLAIM_REFUSED = "claim_refused", "Claim refused"
        CLAIM_REVERTED = "claim_reverted", "Claim decision reverted"
        MERGED = "merged", "Records merged"
        SPLIT = "split", "Merge split"
        MEMBER_ADDED = "member_added", "Member added"
        MEMBER_INVITED = "member_invited", "Member invited"
        MEMBER_ACCEPTED = "member_accepted", "Membership accepted"
        MEMBER_DECLINED = "member_declined", "Membership declined"
        MEMBER_LEFT = "member_left", "Member left"

    action = models.CharField(max_length=20, choices=Action.choices)
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="record_events")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    claim = models.ForeignKey(PlayerClaim, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    merge = models.ForeignKey(PlayerMerge, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.player}"


class ApiToken(models.Model):
    """A named API token with a scope, made by an account for one use (a club's website reads, a
    scorekeeping tablet writes deals). Only a hash of the key is stored: the key is shown once."""

    class Scope(models.TextChoices):
        READ = "read", "Read only"
        SCORE = "score", "Scorekeeping"
        FULL = "full", "Everything the account may do"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=80, help_text="What it is for, e.g. the club's website")
    scope = models.CharField(max_length=10, choices=Scope.choices, default=Scope.READ)
    prefix = models.CharField(max_length=12, help_text="The key's first characters, to tell tokens apart")
    key_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, in hex")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.scope})"
