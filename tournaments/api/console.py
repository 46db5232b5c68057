"""The tournaments API: the organizer's console of the current round, and the tables' calls for the director.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from scoring import api_schema as scoring_schema

from .. import console, services
from ..models import DirectorCall


class ConsoleSideSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The team's name (an individual round: the two players')")
    numbers = serializers.ListField(child=serializers.IntegerField(), help_text="The entries' numbers")
    number = serializers.CharField(help_text="The numbers as shown, e.g. '7' or '7 & 12'")


# The choice sets by name (settings' ENUM_NAME_OVERRIDES names their schema enums after them).
TABLE_STATES = [
    "bye",
    "left_out",
    "forfeit",
    "award",
    "paper",
    "not_started",
    "playing",
    "unconfirmed",
    "finished",
]
CLOCK_STATES = ["ready", "running", "paused", "over"]


class ConsoleTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    teams = scoring_schema.pair(
        scoring_schema.nullable(ConsoleSideSerializer), "Side 0 and side 1 (null: a bye)"
    )
    state = serializers.ChoiceField(
        choices=TABLE_STATES,
        help_text="unconfirmed: finished, waiting for the other team's confirmation",
    )
    label = serializers.CharField(  # type: ignore[assignment]  # a declared field: DRF's metaclass takes it off the class
        help_text="The state in words, in the request's language"
    )
    done = serializers.BooleanField(help_text="The next round waits for this table no more")
    played = serializers.IntegerField(help_text="Deals played")
    totals = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    time_left = serializers.IntegerField(
        allow_null=True, help_text="A timed round: seconds left at this table"
    )
    match = serializers.IntegerField(allow_null=True)
    slow_minutes = serializers.IntegerField(
        allow_null=True, help_text="Flag: minutes since the table last sent anything, past the round's pace"
    )
    silent = serializers.BooleanField(help_text="Flag: the table's tablet has not been heard from")
    unchecked_deals = serializers.ListField(child=serializers.IntegerField(), help_text="Deals not checked")
    call = serializers.IntegerField(allow_null=True, help_text="The table's open director's call")


class ConsoleCallSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    since = serializers.DateTimeField()


class ConsoleRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    kind = serializers.CharField()


class ConsoleClockSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When the round's time ends (running)")
    left = serializers.IntegerField(help_text="Seconds left, rounded up")
    state = serializers.ChoiceField(choices=CLOCK_STATES)
    paused_left = serializers.IntegerField(allow_null=True, help_text="Seconds left while paused")


class ConsoleSerializer(serializers.Serializer):
    version = serializers.CharField(help_text="Changes whenever what the console shows may have")
    round = ConsoleRoundSerializer(
        allow_null=True, help_text="The current round (the latest, play-offs aside)"
    )
    clock = ConsoleClockSerializer(allow_null=True, help_text="A timed round's clock (tournaments.clock)")
    pace_seconds = serializers.IntegerField(allow_null=True, help_text="How long a deal may take")
    slow_after_seconds = serializers.IntegerField(allow_null=True, help_text="Flagged slow past this silence")
    silent_after_seconds = serializers.IntegerField(help_text="A tablet unheard for this long is flagged")
    tables = ConsoleTableSerializer(many=True)
    calls = ConsoleCallSerializer(many=True, help_text="Open director's calls, oldest first")
    waiting = serializers.ListField(
        child=serializers.IntegerField(), help_text="Tables the next round waits for"
    )
    playing = serializers.IntegerField(help_text="Tables that play (byes aside)")


class ConsoleActions:
    @extend_schema(
        summary="The console of the current round: each table's state and flags, the open calls",
        responses={200: ConsoleSerializer},
        tags=["tournaments"],
    )
    @action(detail=True, methods=["get"], url_path="console", pagination_class=None, filter_backends=[])
    def console(self, request, slug=None):
        return Response(console.console_json(self._managed()))

    @extend_schema(
        summary="Acknowledge a table's call for the director: it leaves the console",
        request=None,
        responses={200: ConsoleCallSerializer},
        tags=["tournaments"],
    )
    @action(detail=True, methods=["post"], url_path=r"calls/(?P<call_id>\d+)/acknowledge")
    def call_acknowledge(self, request, slug=None, call_id=None):
        tournament = self._managed()
        call = get_object_or_404(
            DirectorCall.objects.select_related("table__round"), tournament=tournament, pk=call_id
        )
        try:
            call = services.call_acknowledge(call=call, user=request.user)
        except services.TournamentError as error:
            raise ValidationError({"call": [str(error)]}) from None
        return Response(
            {
                "id": call.pk,
                "round": call.table.round.number,
                "table": call.table.number,
                "since": call.created_at,
            }
        )
