"""The tournaments API: the exports streamed as they are read (every deal as CSV, the whole
tournament as one JSON document).

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.utils.encoders import JSONEncoder

from api import spreadsheet
from scoring import api_schema as scoring_schema
from scoring import selectors as scoring_selectors

from .. import selectors
from ..models import Table, Tournament
from ..prizes import prize_list
from . import schema as api_schema
from .prizes import PrizeListSerializer
from .rounds import RoundSerializer
from .schema import EntrySerializer
from .tournaments import TournamentSerializer


class TournamentExportSerializer(serializers.Serializer):
    """The whole tournament as one document (``_export_parts`` writes it), for the schema."""

    tournament = TournamentSerializer()
    entries = EntrySerializer(many=True)
    rounds = RoundSerializer(many=True)
    standings = api_schema.StandingsRowSerializer(many=True)
    ranking = api_schema.RankingRowSerializer(many=True)
    prizes = PrizeListSerializer(help_text="The prize list (tournaments/prizes.py prize_list)")
    matches = serializers.DictField(
        child=scoring_schema.ExportedMatchSerializer(),
        help_text="Every match of the tournament's tables, by its id: its match file and its sheet",
    )


class ExportActions:
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="deals.csv")
    def deals_csv(self, request, slug=None):
        """Every deal of every match, one row each, with what it gave; streamed as it is read."""
        tournament = self.get_object()
        return _csv_stream(_deal_rows(tournament), f"{tournament.slug}-deals.csv")

    @extend_schema(
        responses={200: TournamentExportSerializer}, description="The whole tournament as one document."
    )
    @action(detail=True, methods=["get"])
    def export(self, request, slug=None):
        """Streamed: the head at once, then the matches as they are read, a batch of tables at a time."""
        tournament = self.get_object()
        response = StreamingHttpResponse(_export_parts(tournament), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
        return response


TABLES_A_BATCH = 200  # tables (with their matches and deals) read at a time by the exports


def _tables(tournament: Tournament) -> Iterator[Table]:
    """The tournament's tables with a match, in playing order, read ``TABLES_A_BATCH`` at a time
    (each batch in two queries: the tables with their teams, and every deal of their matches), so
    that an export starts at once and never holds a whole big tournament in memory."""
    ids = list(
        Table.objects.filter(round__tournament=tournament, match__isnull=False)
        .order_by("round__number", "number")
        .values_list("pk", flat=True)
    )
    for start in range(0, len(ids), TABLES_A_BATCH):
        chunk = ids[start : start + TABLES_A_BATCH]
        tables = _tables_read().in_bulk(chunk)
        yield from (tables[pk] for pk in chunk)


def _tables_read():
    return Table.objects.select_related(
        "round",
        "entry0__team",
        "entry1__team",
        "match__team0__player_a",
        "match__team0__player_b",
        "match__team1__player_a",
        "match__team1__player_b",
    ).prefetch_related(scoring_selectors.prefetch_active_deals("match__deals"))


DEALS_CSV_HEAD = [
    "round",
    "table",
    "match",
    "team_0",
    "team_1",
    "deal",
    "dealer",
    "result",
    "maker",
    "card_points_0",
    "card_points_1",
    "last_trick",
    "capot",
    "melds_0",
    "melds_1",
    "belote_0",
    "belote_1",
    "contract",
    "score_0",
    "score_1",
    "total_0",
    "total_1",
]


def _deal_rows(tournament: Tournament) -> Iterator[list[Any]]:
    yield DEALS_CSV_HEAD
    for table in _tables(tournament):
        data = scoring_selectors.match_sheet(match=table.match)
        for line in data.lines:
            d, row = line.deal.data, line.row
            contract = d.get("contract") or {}
            yield [
                table.round.number,
                table.number,
                table.match_id,
                table.match.team0.name,  # the entries' teams, or an individual table's partnerships
                table.match.team1.name,
                row.number,
                row.dealer,
                row.result,
                d.get("maker", ""),
                *(d.get("card_points") or ["", ""]),
                d.get("last_trick", ""),
                d.get("capot", ""),
                " ".join(d.get("melds", [[], []])[0]),
                " ".join(d.get("melds", [[], []])[1]),
                *(d.get("belote") or [0, 0]),
                " ".join(str(contract[k]) for k in ("bid", "suit", "multiplier") if contract.get(k)),
                *row.scores,
                *row.totals,
            ]


def _csv_stream(rows: Iterable[list[Any]], filename: str) -> StreamingHttpResponse:
    """CSV rows sent as they are made, in pieces of a few hundred rows (names cannot become formulas)."""

    def pieces() -> Iterator[str]:
        out = io.StringIO()
        writer = spreadsheet.writer(out)
        for n, row in enumerate(rows, start=1):
            writer.writerow(row)
            if n % 500 == 0:
                yield out.getvalue()
                out.seek(0)
                out.truncate()
        yield out.getvalue()

    response = StreamingHttpResponse(pieces(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _export_parts(tournament: Tournament) -> Iterator[str]:
    """The export document (tournament, entries, rounds, standings, matches by id) as JSON text, the
    matches one by one as their batch is read."""

    def dump(value: Any) -> str:
        return json.dumps(value, cls=JSONEncoder, ensure_ascii=False)

    standings_now = selectors.standings_get(tournament=tournament)
    numbers = selectors.entry_numbers(tournament=tournament)
    head = {
        "tournament": TournamentSerializer(tournament).data,
        "entries": EntrySerializer(selectors.entries(tournament=tournament), many=True).data,
        "rounds": RoundSerializer(selectors.rounds_with_tables(tournament=tournament), many=True).data,
        "standings": [{**r, "number": numbers.get(r["entry"])} for r in standings_now["rows"]],
        "ranking": [{**r, "number": numbers.get(r["entry"])} for r in standings_now.get("ranking", [])],
        "prizes": prize_list(tournament=tournament),
    }
    yield dump(head)[:-1] + ', "matches": {'
    for n, table in enumerate(_tables(tournament)):
        match = scoring_selectors.match_file(match=table.match) | {
            "sheet": scoring_selectors.match_sheet(match=table.match).sheet.to_dict()
        }
        yield ("" if n == 0 else ", ") + f'"{table.match_id}": ' + dump(match)
    yield "}}"
