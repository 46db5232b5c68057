"""Seasons through the API: read for everyone (the public ones), written by who runs them (a club's
admins, a league's owner); and a season's table, counted as ``league.season_points`` says."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from league import seasons as selectors
from league import services
from league.models import DEFAULT_SCALE, Season
from league.season_points import MAX_SCALE
from players.models import Club
from scoring.api_schema import typed_json
from tournaments.models import Tournament

# Request examples: the docs show them, and the schema-driven test run sends them (scoring/api.py).
CREATE_EXAMPLES = [
    OpenApiExample(
        "A league of chosen events",
        value={
            "name": "Winter league 2025",
            "starts_on": "2025-01-01",
            "ends_on": "2025-12-31",
            "events": "chosen",
            "tournaments": [],
            "scale": DEFAULT_SCALE,
            "participation": 1,
            "best_of": 8,
        },
        request_only=True,
    ),
    OpenApiExample(
        "A club's season (by one of its admins)",
        value={
            "name": "Kafeneio season 2025",
            "club": "kafeneio",
            "starts_on": "2025-09-01",
            "ends_on": "2026-06-30",
            "events": "club",
            "scale": [10, 8, 6, 5, 4, 3, 2, 1],
        },
        request_only=True,
    ),
]
UPDATE_EXAMPLES = [
    OpenApiExample(
        "Count the best six", value={"best_of": 6, "scale": [12, 10, 8, 6, 4, 2]}, request_only=True
    ),
]


class SeasonSerializer(serializers.ModelSerializer):
    club: serializers.SlugRelatedField[Club] = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, allow_null=True, help_text="None: a league's"
    )
    owner = serializers.CharField(source="owner.username", read_only=True)
    tournaments = serializers.SerializerMethodField(
        help_text="The events chosen (slugs; those this account may see), for a season of chosen events"
    )
    scale = typed_json(
        serializers.ListField(child=serializers.IntegerField()),
        help_text="Points by final rank: [1st, 2nd, …]",
    )

    class Meta:
        model = Season
        fields = [
            "slug",
            "name",
            "club",
            "owner",
            "starts_on",
            "ends_on",
            "events",
            "tournaments",
            "scale",
            "participation",
            "best_of",
            "public",
            "created_at",
        ]
        read_only_fields = fields

    def get_tournaments(self, season: Season) -> list[str]:
        user = self.context["request"].user if "request" in self.context else None
        return [t.slug for t in season.tournaments.all() if selectors.may_choose(t, user)]


class SeasonWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    club = serializers.CharField(
        max_length=140,
        required=False,
        allow_null=True,
        help_text="The club's slug (its admins run the season); left out or null: a league you own. "
        "Fixed once the season is made",
    )
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    events = serializers.ChoiceField(
        choices=Season.Events.values,
        required=False,
        help_text="club: every finished event of the club in the dates; chosen: the tournaments listed. "
        "Default: club for a club's season, chosen for a league's",
    )
    tournaments = serializers.ListField(
        child=serializers.CharField(max_length=140),
        required=False,
        max_length=500,
        help_text="Slugs of the events chosen (finished or not: one counts once it has finished)",
    )
    scale = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=services.MAX_POINTS),
        min_length=1,
        max_length=MAX_SCALE,
        required=False,
        help_text="Points by final rank, the winner's first, never rising; "
        "default [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]",
    )
    participation = serializers.IntegerField(
        min_value=0,
        max_value=services.MAX_POINTS,
        required=False,
        help_text="Points for a rank past the scale",
    )
    best_of = serializers.IntegerField(
        min_value=1,
        max_value=services.MAX_BEST_OF,
        required=False,
        allow_null=True,
        help_text="Only a player's best N results count; null: all",
    )
    public = serializers.BooleanField(required=False)


class SeasonEventSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    day = serializers.DateField(help_text="The day it started (or else finished)")


class SeasonResultSerializer(serializers.Serializer):
    event = serializers.CharField(help_text="The tournament's slug")
    rank = serializers.IntegerField(help_text="The final rank (shared ranks repeat)")
    points = serializers.IntegerField()
    counted = serializers.BooleanField(help_text="False: dropped (not among the best N)")


class SeasonRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Shared by players level on total, wins and best finish")
    player = serializers.IntegerField(help_text="The player's id (the record merged ones count as)")
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="The points of the results counted")
    played = serializers.IntegerField(help_text="Events played")
    wins = serializers.IntegerField(help_text="Events won (final rank 1)")
    best_finish = serializers.IntegerField(help_text="The best final rank")
    results = SeasonResultSerializer(many=True, help_text="The events played, in the season's order")


class SeasonTableSerializer(serializers.Serializer):
    season = serializers.CharField(help_text="The season's slug")
    scale = serializers.ListField(child=serializers.IntegerField())
    participation = serializers.IntegerField()
    best_of = serializers.IntegerField(allow_null=True)
    events = SeasonEventSerializer(many=True, help_text="The events counted, oldest first")
    rows = SeasonRowSerializer(many=True)


def table_data(table: selectors.SeasonTable) -> dict[str, Any]:
    slugs: dict[Hashable, str] = {t.pk: t.slug for t in table.events}  # by Result.event
    season = table.season
    return {
        "season": season.slug,
        "scale": season.scale,
        "participation": season.participation,
        "best_of": season.best_of,
        "events": [{"slug": t.slug, "name": t.name, "day": t.day} for t in table.events],
        "rows": [
            {
                "rank": row.rank,
                "player": row.player,
                "name": row.name,
                "total": row.total,
                "played": row.played,
                "wins": row.wins,
                "best_finish": row.best_finish,
                "results": [
                    {"event": slugs[r.event], "rank": r.rank, "points": r.points, "counted": r.counted}
                    for r in row.results
                ],
            }
            for row in table.rows
        ],
    }


class RunsOrReadOnly(permissions.BasePermission):
    message = "Only who runs the season (the club's admins, a league's owner) may change it."

    def has_object_permission(self, request, view, obj) -> bool:
        return request.method in permissions.SAFE_METHODS or selectors.can_manage(obj, request.user)


@extend_schema(tags=["seasons"])
class SeasonViewSet(viewsets.ModelViewSet):
    """Seasons: a club's or a league's events over some dates, and their table."""

    serializer_class = SeasonSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, RunsOrReadOnly]
    lookup_field = "slug"
    lookup_value_regex = "[^/]+"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    filter_backends: list = []

    def get_queryset(self):
        return (
            selectors.season_list(user=self.request.user)
            .select_related("owner")
            .prefetch_related("tournaments")
            .order_by("-starts_on", "name", "pk")
        )

    def _events(self, slugs: list[str] | None) -> list[Tournament] | None:
        if slugs is None:
            return None
        found = {t.slug: t for t in Tournament.objects.filter(slug__in=slugs)}
        missing = [slug for slug in slugs if slug not in found]
        if missing:
            raise services.SeasonError(gettext("No such tournament."), "tournaments")
        return [found[slug] for slug in slugs]

    @extend_schema(request=SeasonWriteSerializer, responses={201: SeasonSerializer}, examples=CREATE_EXAMPLES)
    def create(self, request):
        data = SeasonWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        # A SeasonError is answered 400 with its words and field (api/errors.py).
        club = None
        if values.get("club"):
            club = Club.objects.filter(slug=values["club"]).first()
            if club is None:
                raise services.SeasonError(gettext("No such club."), "club")
        values["club"] = club
        values["tournaments"] = self._events(values.get("tournaments")) or []
        season = services.season_create(user=request.user, **values)
        return Response(SeasonSerializer(season, context={"request": request}).data, status=201)

    @extend_schema(request=SeasonWriteSerializer, responses={200: SeasonSerializer}, examples=UPDATE_EXAMPLES)
    def partial_update(self, request, slug=None):
        season = self.get_object()
        data = SeasonWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        club = season.club.slug if season.club_id else None
        if "club" in values and values.pop("club") != club:
            refusal = gettext("A season stays with its club: make a new season for another.")
            raise services.SeasonError(refusal, "club")
        if "tournaments" in values:
            values["tournaments"] = self._events(values["tournaments"])
        season = services.season_update(season=season, user=request.user, **values)
        return Response(SeasonSerializer(season, context={"request": request}).data)

    def destroy(self, request, slug=None):
        services.season_delete(season=self.get_object(), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={200: SeasonTableSerializer})
    @action(detail=True, methods=["get"])
    def table(self, request, slug=None):
        """The season's table: each player's total of the results counted, events played and won, and
        every result (rank, points, counted or dropped); ordered by total, then wins, then the best
        finish (players level on all three share a rank)."""
        season = self.get_object()
        return Response(SeasonTableSerializer(table_data(selectors.season_table(season))).data)
