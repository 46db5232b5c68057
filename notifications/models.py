"""Who is told: a browser's push subscription, or an e-mail address, following one entry (a team, or
a player of an individual event) and, when the personal page was a player's, that player."""

from __future__ import annotations

from django.db import models

ENDPOINT_MAX = 1000  # characters of a push service's URL (FCM's, Mozilla's, Apple's: ~200-400)


class PushSubscription(models.Model):
    """A browser's Web Push subscription (PushSubscription.toJSON()): where the push service takes
    the message and the keys it is encrypted for. One endpoint follows one entry at a time."""

    endpoint = models.CharField(max_length=ENDPOINT_MAX, unique=True)
    p256dh = models.CharField(max_length=200, help_text="The browser's P-256 public key, base64url")
    auth = models.CharField(max_length=100, help_text="The browser's authentication secret, base64url")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    language = models.CharField(max_length=10, default="en", help_text="The words are sent in it")
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0, help_text="Failed sends in a row")
    last_event = models.CharField(max_length=80, blank=True, help_text="The last moment sent (sent once)")

    class Meta:
        indexes = [models.Index(fields=["entry"], name="push_entry")]

    def __str__(self) -> str:
        return f"push for entry {self.entry_id}"


class EmailFollow(models.Model):
    """An address a player gave on their page: the same words by e-mail (no confirmation asked; at
    most ``TSOXA_EMAIL_FOLLOWS_PER_ENTRY`` per entry, and rate-limited per client address)."""

    email = models.EmailField(max_length=254)
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        "players.Player", on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    language = models.CharField(max_length=10, default="en")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["entry", "email"], name="email_follow_once")]

    def __str__(self) -> str:
        return f"{self.email} for entry {self.entry_id}"
