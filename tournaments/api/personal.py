"""The tournaments API: find your table.

Its action joins ``TournamentViewSet`` (viewset.py) as a mixin: the path stays under
/api/v1/tournaments/{slug}/, public as the tournament is."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from ..personal import finder_rows, finder_search

FOUND_AT_MOST = 100


class FinderOpponentSerializer(serializers.Serializer):
    name = serializers.CharField()
    number = serializers.IntegerField(allow_null=True)


class FinderRowSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="A team's or a player's name")
    kind = serializers.ChoiceField(choices=["team", "player"])
    team = serializers.CharField(
        allow_null=True, help_text="A player's team (null: a team, an individual event)"
    )
    number = serializers.IntegerField(allow_null=True, help_text="The entry's number")
    round = serializers.IntegerField(
        allow_null=True, help_text="The current round's number (null: none drawn)"
    )
    table = serializers.IntegerField(allow_null=True, help_text="The table in that round (null: not seated)")
    side = serializers.CharField(allow_null=True, help_text="A or B; A–D at an individual round's table")
    bye = serializers.BooleanField(help_text="A bye (a sit-out in an individual round)")
    partner = serializers.CharField(allow_null=True, help_text="An individual round: the partner's name")
    opponents = FinderOpponentSerializer(many=True)


class FinderAnswerSerializer(serializers.Serializer):
    query = serializers.CharField()
    results = FinderRowSerializer(many=True, help_text=f"Alphabetical, at most {FOUND_AT_MOST}")


class FinderActions:
    @extend_schema(
        summary="Find your table",
        parameters=[
            OpenApiParameter(
                "q",
                OpenApiTypes.STR,
                description="A player's or team's name, or part of it (accents and "
                "case ignored); empty: every team and player",
            )
        ],
        responses={200: FinderAnswerSerializer},
        tags=["tournaments"],
        description="The teams and players whose name holds every word of ``q``, with their table and side "
        "in the current round (the latest drawn), alphabetical.",
    )
    @action(detail=True, methods=["get"], url_path="find")
    def find(self, request, slug=None):
        tournament = self.get_object()
        query = request.query_params.get("q", "")[:80].strip()
        rows = finder_rows(tournament=tournament)
        found = finder_search(rows, query) if query else rows
        return Response(FinderAnswerSerializer({"query": query, "results": found[:FOUND_AT_MOST]}).data)
