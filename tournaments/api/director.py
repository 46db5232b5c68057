"""The tournaments API: the director's decisions (penalties, forfeits, matches awarded).

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from scoring import api_schema as scoring_schema

from .. import services
from ..models import Adjustment, Table
from .entries import entry_by_number


class AdjustmentSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry_id", allow_null=True, required=False)
    round = serializers.IntegerField(
        source="table.round.number",
        read_only=True,
        default=None,
        allow_null=True,
        help_text="null: a penalty",
    )
    table = serializers.IntegerField(
        source="table.number", read_only=True, default=None, allow_null=True, help_text="null: a penalty"
    )
    created_by = serializers.CharField(
        source="created_by.username", read_only=True, default=None, allow_null=True
    )
    scores = scoring_schema.typed_json(
        serializers.ListField(child=serializers.IntegerField()),
        help_text="A forfeit or award: the game points of each side ([] for a penalty)",
    )

    class Meta:
        model = Adjustment
        fields = [
            "id",
            "kind",
            "entry",
            "round",
            "table",
            "points",
            "match_points",
            "winner",
            "scores",
            "reason",
            "created_by",
            "created_at",
        ]


class AdjustmentWriteSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Adjustment.Kind.values)
    reason = serializers.CharField(max_length=300)
    entry = serializers.IntegerField(required=False, help_text="A penalty: the team's entry id")
    entry_number = serializers.IntegerField(
        required=False, min_value=1, help_text="A penalty: the team by its number, instead of ``entry``"
    )
    points = serializers.IntegerField(default=0, help_text="A penalty: game points taken away (162 is usual)")
    match_points = serializers.IntegerField(default=0, help_text="A penalty: match points taken away")
    round = serializers.IntegerField(required=False, help_text="A forfeit or award: the round's number")
    table = serializers.IntegerField(required=False, help_text="A forfeit or award: the table's number")
    winner = serializers.IntegerField(
        min_value=0,
        max_value=1,
        required=False,
        allow_null=True,
        help_text="The side given the match (0 or 1)",
    )
    scores = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=2,
        max_length=2,
        required=False,
        help_text="A forfeit or award: the game points of side 0 and side 1",
    )


class DirectorActions:
    @extend_schema(methods=["GET"], responses={200: AdjustmentSerializer(many=True)})
    @extend_schema(methods=["POST"], request=AdjustmentWriteSerializer, responses={201: AdjustmentSerializer})
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def adjustments(self, request, slug=None):
        """The director's decisions: penalties (points taken from a team), forfeits and matches awarded
        (a table decided with the scores the organizer sets), each with its reason."""
        tournament = self.get_object()
        if request.method == "GET":
            found = tournament.adjustments.select_related("table__round", "created_by")
            return Response(AdjustmentSerializer(found, many=True).data)
        tournament = self._managed()
        data = AdjustmentWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        if d["kind"] == Adjustment.Kind.PENALTY:
            if "entry" not in d and "entry_number" not in d:
                raise serializers.ValidationError({"entry": ["A penalty names the team's entry."]})
            if "entry" in d:
                entry = get_object_or_404(tournament.entries, pk=d["entry"])
            else:
                entry = entry_by_number(tournament, d["entry_number"])
            adjustment = services.penalty_add(
                tournament=tournament,
                entry=entry,
                points=d["points"],
                match_points=d["match_points"],
                reason=d["reason"],
                user=request.user,
            )
        else:
            missing = [name for name in ("round", "table", "scores") if name not in d]
            if missing:
                raise serializers.ValidationError({name: ["This field is required."] for name in missing})
            table = get_object_or_404(
                Table, round__tournament=tournament, round__number=d["round"], number=d["table"]
            )
            adjustment = services.table_decide(
                table=table,
                kind=d["kind"],
                winner=d.get("winner"),
                scores=d["scores"],
                reason=d["reason"],
                user=request.user,
            )
        return Response(AdjustmentSerializer(adjustment).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"adjustments/(?P<adjustment_id>\d+)")
    def adjustment_delete(self, request, slug=None, adjustment_id=None):
        """Take a decision back (the audit keeps it)."""
        adjustment = get_object_or_404(self._managed().adjustments, pk=adjustment_id)
        services.adjustment_delete(adjustment=adjustment, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
