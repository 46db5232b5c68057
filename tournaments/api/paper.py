"""The tournaments API: a table's result typed from its paper sheet; a drawn round redrawn or deleted
before it starts.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``. A round's DELETE shares
its path with the round's GET: ``api.py`` maps it (``round.mapping.delete``) to ``_round_delete``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from scoring import api_schema as scoring_schema

from .. import services
from ..models import Adjustment, Table, Tournament
from ..services.paper import MAX_TOTAL


class PaperWriteSerializer(serializers.Serializer):
    totals = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_TOTAL),
        min_length=2,
        max_length=2,
        help_text="The two totals from the paper sheet: side 0's, side 1's",
    )
    winner = serializers.IntegerField(
        min_value=0,
        max_value=1,
        allow_null=True,
        required=False,
        default=None,
        help_text="On level totals, the side the rules give the match (a knockout needs one); null: a "
        "draw. With different totals, the higher total wins (a winner given must agree).",
    )
    reason = serializers.CharField(
        max_length=300,
        required=False,
        allow_blank=True,
        default="",
        help_text='Blank: "From the paper sheet"',
    )


class PaperResultSerializer(serializers.Serializer):
    """A table's result typed from its paper sheet (``TableSerializer.paper``)."""

    source = serializers.ChoiceField(  # type: ignore[assignment]  # a declared field: DRF's metaclass takes it off the class
        choices=["paper"], help_text="Always paper: from the paper sheet"
    )
    totals = scoring_schema.pair(serializers.IntegerField(), "Both sides' totals, from the paper sheet")
    winner = serializers.IntegerField(allow_null=True, help_text="The side given the match; null: a draw")
    counts = serializers.BooleanField(
        help_text="True while it counts; false once the table's deals have finished its match (and it "
        "is confirmed, where asked): the deals replace the paper result"
    )
    reason = serializers.CharField()


def paper_results(context: dict[str, Any], table: Table) -> dict[str, Any] | None:
    """``table``'s paper result as the API shows it (``PaperResultSerializer``), or None. The paper
    results of the table's whole tournament are read once per response (kept in ``context``)."""
    key = "_paper_results"
    tournament_id = table.round.tournament_id
    found = context.get(key)
    if found is None or found[0] != tournament_id:
        rows = (
            Adjustment.objects.filter(tournament_id=tournament_id, kind=Adjustment.Kind.PAPER)
            .order_by("created_at", "pk")
            .values_list("table_id", "scores", "winner", "reason", "tournament__confirmation")
        )
        found = (tournament_id, {row[0]: row[1:] for row in rows})
        context[key] = found
    row = found[1].get(table.pk)
    if row is None:
        return None
    scores, winner, reason, confirmation = row
    match = table.match
    by_deals = (
        match is not None
        and match.status == "finished"
        and (not confirmation or match.confirmed_at is not None)
    )
    return {"source": "paper", "totals": scores, "winner": winner, "counts": not by_deals, "reason": reason}


def paper_answers(*, table: type[serializers.Serializer], rnd: type[serializers.Serializer]) -> None:
    """The schema of the answers, given by ``api.py`` once its serializers exist (this module cannot
    import them: ``api.py`` imports it)."""
    extend_schema(methods=["POST"], responses={201: table})(PaperActions.table_paper)
    extend_schema(responses={201: rnd})(PaperActions.round_redraw)


class PaperActions:
    if TYPE_CHECKING:

        def _managed(self) -> Tournament: ...  # TournamentViewSet's (viewset.py)

    @extend_schema(
        methods=["POST"],
        summary="Enter a table's result from its paper sheet",
        request=PaperWriteSerializer,
        tags=["tournaments"],
        description="The organizer types the two totals from the table's paper sheet (the tablet failed). "
        "Stored as a result without deals, counted in the standings like any other and shown as from the "
        "paper sheet (the table's ``paper``); it replaces an earlier paper result of the table. The deals "
        "replace it once they finish the match. Refused (400) for a bye, a round not started, a table left "
        "out or decided by a forfeit or an award, a match finished by its deals, a knockout tie without a "
        "winner, a winner with the lower total.",
        examples=[
            OpenApiExample("Level totals, the rules give side 1", value={"totals": [812, 812], "winner": 1})
        ],
    )
    @extend_schema(
        methods=["DELETE"],
        summary="Remove a table's paper result",
        request=None,
        responses={204: None},
        tags=["tournaments"],
        description="The table counts its deals again, once its match is finished (the audit keeps it).",
    )
    @action(
        detail=True,
        methods=["post", "delete"],
        url_path=r"rounds/(?P<number>\d+)/tables/(?P<table>\d+)/paper",
    )
    def table_paper(self, request, slug=None, number=None, table=None):
        from .rounds import TableSerializer

        tournament = self._managed()
        found = get_object_or_404(
            Table.objects.select_related("round", "match", "entry0__team", "entry1__team"),
            round__tournament=tournament,
            round__number=number,
            number=table,
        )
        if request.method == "DELETE":
            services.table_paper_remove(table=found, user=request.user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = PaperWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        services.table_paper_result(
            table=found, totals=d["totals"], winner=d["winner"], reason=d["reason"], user=request.user
        )
        found = Table.objects.select_related(
            "round", "match", "entry0__team", "entry0__player", "entry1__team", "entry1__player"
        ).get(pk=found.pk)
        return Response(TableSerializer(found).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Draw a drawn round again",
        request=None,
        tags=["tournaments"],
        description="The last round, drawn and not started, is deleted and drawn again. Where the format "
        "draws by lot (a concours's or an individual event's first round) a new seed is stored and the "
        "pairings differ; elsewhere they follow from the standings, the schedule or the bracket and come "
        "again the same, which undoes the swaps made. Refused (400) once the round has started or if it "
        "is not the last.",
    )
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>\d+)/redraw")
    def round_redraw(self, request, slug=None, number=None):
        from .rounds import RoundSerializer

        rnd = get_object_or_404(self._managed().rounds, number=number)
        rnd = services.round_redraw(rnd=rnd, user=request.user)
        return Response(RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)

    def _round_delete(self, request, number) -> Response:
        """DELETE …/rounds/{n}/: the last round, drawn and not started, and its tables (the audit keeps
        them)."""
        rnd = get_object_or_404(self._managed().rounds, number=number)
        services.round_delete(rnd=rnd, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
