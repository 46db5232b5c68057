"""A claimed player's matches through the API: what counts for them, what waits on their word, and
their "this was me" / "not me" (``league.counting``, ``league.confirmations``). The actions are on
``league.api.players.PlayerViewSet`` (``history``, ``confirm``); these are their bodies, answers
and examples."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from league.api.identity import ID_MOST
from league.models import MatchConfirmation
from players.models import Player
from scoring import engine
from scoring.api import MatchListSerializer
from scoring.models import Match


def _team_of(match: Match, person: Player) -> int | None:
    """The side the person (a root) sat on, under any of their records."""
    for seat, record in enumerate(match.seats):
        if person.pk in (record.pk, record.merged_into_id):
            return engine.team_of(seat)
    return None


class PlayerMatchSerializer(MatchListSerializer):
    """One of the player's matches, and what it counts for them (``context["person"]``)."""

    counted = serializers.SerializerMethodField(
        help_text="It counts in this player's record, statistics and leaderboard place"
    )
    unconfirmed = serializers.BooleanField(
        read_only=True,
        help_text="A player at the table has an account and has not stood behind the match yet: it "
        "counts for nobody until they do",
    )
    awaiting = serializers.BooleanField(
        read_only=True, help_text="This player (an account's) has not stood behind it: theirs to confirm"
    )
    confirmation = serializers.ChoiceField(
        source="answer",
        choices=MatchConfirmation.Answer.choices,
        read_only=True,
        allow_null=True,
        help_text="This player's answer about it, if any: me (it counts for them) or not_me",
    )

    class Meta(MatchListSerializer.Meta):
        fields = [*MatchListSerializer.Meta.fields, "counted", "unconfirmed", "awaiting", "confirmation"]

    def get_counted(self, match: Match) -> bool:
        team = _team_of(match, self.context["person"])
        return bool(team is not None and getattr(match, f"counted{team}", False))


class ConfirmRequestSerializer(serializers.Serializer):
    match = serializers.IntegerField(min_value=1, max_value=ID_MOST, help_text="The match's id")
    answer = serializers.ChoiceField(
        choices=MatchConfirmation.Answer.choices,
        help_text="me: it was this player (the match counts for them; for a tournament's match, every "
        "match of theirs in that event); not_me: it was not (it stays unconfirmed, counted for nobody)",
    )


class ConfirmationSerializer(serializers.ModelSerializer):
    tournament = serializers.SerializerMethodField(help_text="The event the answer stands for, if any")

    class Meta:
        model = MatchConfirmation
        fields = ["match", "tournament", "answer", "answered_at"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_tournament(self, confirmation: MatchConfirmation) -> str | None:
        return confirmation.tournament.slug if confirmation.tournament is not None else None


CONFIRM_EXAMPLE = OpenApiExample(
    "This was me", value={"match": 1, "answer": "me"}, request_only=True, media_type="application/json"
)
