"""The tournaments API: rounds (drawn, started, their clock, two teams swapped) and their tables.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from scoring import api_schema as scoring_schema

from .. import clock, selectors, services
from ..models import Round, Table
from ..services.individual import partnership_name
from . import schema as api_schema
from .paper import PaperResultSerializer, paper_answers, paper_results


class TableSerializer(serializers.ModelSerializer):
    teams = serializers.SerializerMethodField()
    match = serializers.SerializerMethodField()
    paper = serializers.SerializerMethodField()

    class Meta:
        model = Table
        fields = ["number", "bracket", "teams", "match", "left_out", "paper"]

    @extend_schema_field(PaperResultSerializer(allow_null=True))
    def get_paper(self, table: Table) -> dict[str, Any] | None:
        """The table's result typed from its paper sheet (``source``: "paper", ``totals``, ``winner``,
        ``counts``: false once its deals finished the match and replaced it); null: none."""
        context = self.context
        assert isinstance(context, dict)  # DRF's context is the root serializer's dict (the stubs: a Mapping)
        return paper_results(context, table)

    @extend_schema_field(
        scoring_schema.pair(
            scoring_schema.nullable(api_schema.TableSideSerializer), "Side 0, side 1 (null: a bye)"
        )
    )
    def get_teams(self, table: Table) -> list[dict[str, Any] | None]:
        """Each side's entry and name (None: a bye); at an individual table, a side is a partnership:
        ``team`` is its name ("Nikos & Eleni", as the match's), ``entry`` its first player,
        ``entries`` and ``players`` both players."""
        if table.partner0_id is None:
            return [
                {"entry": e.pk, "number": e.number, "team": e.name} if e else None
                for e in (table.entry0, table.entry1)
            ]
        sides: list[dict[str, Any] | None] = []
        for e, p in ((table.entry0, table.partner0), (table.entry1, table.partner1)):
            assert e is not None and p is not None  # an individual table seats four (a sit-out: no partner0)
            sides.append(
                {
                    "entry": e.pk,
                    "number": e.number,
                    "team": partnership_name(e.name, p.name),
                    "entries": [e.pk, p.pk],
                    "players": [e.name, p.name],
                }
            )
        return sides

    @extend_schema_field(api_schema.TableMatchSerializer(allow_null=True))
    def get_match(self, table: Table) -> dict[str, Any] | None:
        m = table.match
        return None if m is None else {"id": m.pk, "status": m.status, "winner": m.winner, "totals": m.totals}


class RoundSerializer(serializers.ModelSerializer):
    tables = serializers.SerializerMethodField()
    clock = serializers.SerializerMethodField(
        help_text="A timed round's clock: round, ends_at, left (seconds), state (ready, running, paused, "
        "over); null when untimed"
    )

    class Meta:
        model = Round
        fields = ["number", "kind", "status", "cut", "created_at", "started_at", "clock", "tables"]

    @extend_schema_field(api_schema.RoundClockSerializer(allow_null=True))
    def get_clock(self, rnd: Round) -> dict[str, Any] | None:
        return clock.state(rnd)

    @extend_schema_field(TableSerializer(many=True))
    def get_tables(self, rnd: Round) -> list[dict[str, Any]]:
        tables = TableSerializer(selectors.round_tables(rnd=rnd), many=True, context=self.context)
        return tables.data  # type: ignore[return-value]  # many=True: a list (the stubs see one dict)


paper_answers(table=TableSerializer, rnd=RoundSerializer)  # its actions answer with these


class ClockSerializer(serializers.Serializer):
    action = serializers.ChoiceField(
        choices=list(services.clock.ACTIONS),
        help_text="start (the round's clock), pause, resume, extend (by minutes: negative takes time away)",
    )
    minutes = serializers.IntegerField(min_value=-120, max_value=120, default=0)
    table = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="One table (pause, resume, extend); else all"
    )


class SwapSerializer(serializers.Serializer):
    first = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=2,
        max_length=2,
        help_text="[table number, side 0 or 1]; in an individual round [table number, seat 0-3]: seats 0 "
        "and 2 are partners against 1 and 3, a player sitting out is in seat 0",
    )
    second = serializers.ListField(child=serializers.IntegerField(min_value=0), min_length=2, max_length=2)
    force = serializers.BooleanField(
        default=False,
        help_text="Make the swap even though it makes a rematch or a second bye (refused otherwise, the "
        "problems named); the audit keeps that it was forced",
    )


class RoundActions:
    @extend_schema(methods=["GET"], responses={200: RoundSerializer(many=True)})
    @extend_schema(methods=["POST"], request=None, responses={201: RoundSerializer})
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def rounds(self, request, slug=None):
        tournament = self.get_object()
        if request.method == "GET":
            return Response(
                RoundSerializer(selectors.rounds_with_tables(tournament=tournament), many=True).data
            )
        rnd = services.round_generate(tournament=self._managed(), user=request.user)
        return Response(RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: RoundSerializer})
    @action(detail=True, methods=["get"], url_path=r"rounds/(?P<number>\d+)")
    def round(self, request, slug=None, number=None):
        rnd = get_object_or_404(self.get_object().rounds, number=number)
        return Response(RoundSerializer(rnd).data)

    @extend_schema(
        summary="Delete a drawn round",
        request=None,
        responses={204: None},
        description="The last round, drawn and not started, and its tables (the audit keeps them). "
        "Refused (400) once the round has started or if it is not the last.",
    )
    @round.mapping.delete
    def round_delete(self, request, slug=None, number=None):
        return self._round_delete(request, number)  # tournaments/api_paper.py

    @extend_schema(request=None, responses={200: RoundSerializer})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>\d+)/start")
    def round_start(self, request, slug=None, number=None):
        rnd = get_object_or_404(self._managed().rounds, number=number)
        rnd = services.round_start(rnd=rnd, user=request.user)
        return Response(RoundSerializer(rnd).data)

    @extend_schema(request=ClockSerializer, responses={200: RoundSerializer})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>\d+)/clock")
    def round_clock(self, request, slug=None, number=None):
        """A timed round's clock: start it, pause or resume it, add or take minutes (every table, or one
        ``table``). When a table's time is up, the next deal recorded there ends its match on the totals."""
        rnd = get_object_or_404(self._managed().rounds, number=number)
        data = ClockSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_clock(rnd=rnd, user=request.user, **data.validated_data)
        return Response(RoundSerializer(rnd).data)

    @extend_schema(request=SwapSerializer, responses={200: RoundSerializer})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>\d+)/swap")
    def round_swap(self, request, slug=None, number=None):
        """Swap two teams (players) of a drawn round. A swap that makes a rematch or a second bye is
        refused (400, the problems named in ``detail``) unless ``force`` is true."""
        rnd = get_object_or_404(self._managed().rounds, number=number)
        data = SwapSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = services.round_swap(
            rnd=rnd,
            first=tuple(data.validated_data["first"]),
            second=tuple(data.validated_data["second"]),
            user=request.user,
            force=data.validated_data["force"],
        )
        return Response(RoundSerializer(rnd).data)
