"""REST API (v1) for matches, deals, players and teams. Deals and sheets have FORMAT.md's shapes."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from typing import Any, cast

import django_filters
from django.db import transaction
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.utils.http import http_date
from django.utils.timezone import localtime
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.authentication import CSRFCheck
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response

from api.sync import SyncPagination, UpdatedSinceFilter
from players.models import Player, Team

from . import api_schema, engine, selectors, services
from .models import RULESET_KEYS, Deal, Match
from .permissions import SESSION_KEY, can_check, can_end, can_keep, can_see, can_write

IDEMPOTENCY_NAMESPACE = uuid.UUID("8f5b8f0e-3c57-4f43-9a63-5d2f8f0c9b1e")
# Request examples: the docs show them, and the schema-driven test run sends them, so that the write
# endpoints are exercised with data they accept, not only with data they refuse.
EXAMPLE_TEAMS = [
    {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
    {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]},
]
EXAMPLE_DEAL = {"maker": 0, "card_points": [90, 62], "last_trick": 0, "melds": [["seq3"], []]}
# Coinche (RULES.md §6): a bid is 80–160 in tens, "capot" or "generale"; a générale names the seat of the
# player who took every trick alone (its team is the capot); in sans-atout the fours are named by rank.
EXAMPLE_COINCHE_DEAL = {
    "maker": 0,
    "contract": {"suit": "hearts", "bid": "generale", "multiplier": 1},
    "card_points": [152, 0],
    "capot": 0,
    "generale": 2,
    "melds": [["seq3"], []],
    "belote": [1, 0],
}
DEAL_EXAMPLES = [
    OpenApiExample("A made deal", value=EXAMPLE_DEAL, request_only=True),
    OpenApiExample("All passed", value={"thrown_in": True}, request_only=True),
    OpenApiExample(
        "Coinche: a générale bid, made by seat 2",
        value=EXAMPLE_COINCHE_DEAL,
        request_only=True,
        description="A Coinche match's deal: the bid may also be a number (80 to 160 in tens) or "
        '"capot"; coinché is `multiplier` 2, surcoinché 4.',
    ),
]
MATCH_EXAMPLE = OpenApiExample(
    "A Mpourloto match", value={"ruleset": "mpourloto", "teams": EXAMPLE_TEAMS}, request_only=True
)
COINCHE_MATCH_EXAMPLE = OpenApiExample(
    "A Coinche match to 2001, sans-atout and tout-atout allowed",
    value={"ruleset": "coinche", "options": {"target": 2001, "sa_ta": True}, "teams": EXAMPLE_TEAMS},
    request_only=True,
)
PRESET_MATCH_EXAMPLE = OpenApiExample(
    "A match under a named preset",
    value={"preset": "Cypriot café 351", "teams": EXAMPLE_TEAMS},
    request_only=True,
)
IMPORT_EXAMPLE = OpenApiExample(
    "A match file",
    value={
        "ruleset": "mpourloto",
        "teams": EXAMPLE_TEAMS,
        "first_dealer": 0,
        "deals": [{"thrown_in": True}, EXAMPLE_DEAL],
    },
    request_only=True,
)
COINCHE_IMPORT_EXAMPLE = OpenApiExample(
    "A Coinche match file",
    value={
        "ruleset": "coinche",
        "options": {"target": 1000},
        "teams": EXAMPLE_TEAMS,
        "first_dealer": 0,
        "deals": [
            {
                "maker": 0,
                "contract": {"suit": "hearts", "bid": 100, "multiplier": 1},
                "card_points": [92, 60],
                "last_trick": 0,
                "melds": [[], []],
                "belote": [1, 0],
            },
            {
                "maker": 1,
                "contract": {"suit": "spades", "bid": "capot", "multiplier": 2},
                "card_points": [0, 152],
                "capot": 1,
                "melds": [[], []],
            },
        ],
    },
    request_only=True,
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The match\'s `version` the client last saw (`"7"`, `W/"7"` or `7`): the change is made only '
    "if the match is still at that version, else 412 with the current version and nothing changed.",
)


# Serializers -------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "updated_at"]


class TeamSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "name", "players", "updated_at"]

    def get_players(self, team: Team) -> list[str]:
        return [team.player_a.name, team.player_b.name]


def player_ids_field(help_text: str) -> serializers.ListField:
    """Two players picked by id beside their names (null: a new player of that name)."""
    return serializers.ListField(
        child=serializers.IntegerField(min_value=1, allow_null=True),
        min_length=2,
        max_length=2,
        required=False,
        help_text=help_text,
    )


class MatchTeamSerializer(serializers.Serializer):
    """A team as in a match file; ``id`` and ``player_ids`` pick existing people, names alone make new
    players (a typed name never becomes someone who exists)."""

    name = serializers.CharField(max_length=80)
    players = serializers.ListField(child=serializers.CharField(max_length=80), min_length=2, max_length=2)
    id = serializers.IntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        help_text="An existing team picked by id (GET /api/v1/teams/): its name and players must be the "
        "ones given.",
    )
    player_ids = player_ids_field(
        "Existing players picked by id, in the order of ``players`` (null: a new player of that name); each "
        "picked player's name must be the one given."
    )


class MatchCreateSerializer(serializers.Serializer):
    """The head of a match file: what a match starts with."""

    ruleset = serializers.ChoiceField(
        choices=RULESET_KEYS, required=False, help_text="Left out: the preset's game, else mpourloto"
    )
    options = api_schema.OptionsInputField(
        required=False, default=dict, help_text="With a preset: changes over the preset's options"
    )
    preset = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        default="",
        help_text="A named preset (GET /api/v1/presets/), by name or slug: its game and options",
    )
    teams = MatchTeamSerializer(many=True)
    first_dealer = serializers.IntegerField(min_value=0, max_value=3, default=0)

    def validate_teams(self, teams: list[dict]) -> list[dict]:
        if len(teams) != 2:
            raise serializers.ValidationError("a match has two teams")
        return teams


class MatchListSerializer(serializers.ModelSerializer):
    options = api_schema.options_field(help_text="Every option of the game, spelt out (FORMAT.md)")
    teams = serializers.SerializerMethodField()
    totals = api_schema.typed_json(
        api_schema.pair(serializers.IntegerField(), "Both teams' totals"), help_text="Both teams' totals"
    )
    tournament = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "ruleset",
            "options",
            "preset",
            "teams",
            "first_dealer",
            "status",
            "winner",
            "totals",
            "tournament",
            "created_at",
            "updated_at",
            "finished_at",
            "version",
        ]

    @extend_schema_field(api_schema.MatchFileTeamSerializer(many=True))
    def get_teams(self, match: Match) -> list[dict[str, Any]]:
        return [{"name": t.name, "players": [t.player_a.name, t.player_b.name]} for t in match.teams]

    def get_tournament(self, match: Match) -> str | None:
        table = getattr(match, "table", None)
        return table.round.tournament.slug if table is not None else None


class MatchDetailSerializer(MatchListSerializer):
    deals = serializers.SerializerMethodField()
    sheet = serializers.SerializerMethodField()

    class Meta(MatchListSerializer.Meta):
        fields = [*MatchListSerializer.Meta.fields, "deals", "sheet"]

    def _sheet(self, match: Match) -> selectors.MatchSheet:
        # The view's context, a dict (the stubs say a read-only Mapping): a sheet is worked out once.
        cache = cast("dict[str, Any]", self.context).setdefault("sheets", {})
        if match.pk not in cache:
            cache[match.pk] = selectors.match_sheet(match=match)
        return cache[match.pk]

    @extend_schema_field(api_schema.RecordedDealSerializer(many=True))
    def get_deals(self, match: Match) -> list[dict[str, Any]]:
        return [deal_out(line.deal, line.row.number) for line in self._sheet(match).lines]

    @extend_schema_field(api_schema.SheetSerializer)
    def get_sheet(self, match: Match) -> dict[str, Any]:
        return self._sheet(match).sheet.to_dict()


def sheet_head(sheet: engine.Sheet) -> dict[str, Any]:
    """The sheet but its rows: totals, held points, status, winner, next dealer and leader, rule set
    and options (FORMAT.md's sheet without ``deals``)."""
    head = sheet.to_dict()
    del head["deals"]
    return head


def deal_out(deal: Deal, number: int | None) -> dict[str, Any]:
    """A recorded deal: FORMAT.md's deal plus its id, its number on the sheet and when it was entered."""
    return {
        **deal.data,
        "id": deal.pk,
        "number": number,
        "entered_at": localtime(deal.entered_at).isoformat(),
    }


DEAL_SCHEMA = api_schema.DealInputSerializer


class MatchImportSerializer(api_schema.MatchFileInputSerializer):
    """A match file to import, for the schema (the engine reads and checks the body): its teams may pick
    existing people, as a new match's do."""

    teams = MatchTeamSerializer(many=True)


# Filters -------------------------------------------------------------------------------


class MatchFilter(UpdatedSinceFilter):
    ruleset = django_filters.ChoiceFilter(choices=[(k, k) for k in RULESET_KEYS])
    status = django_filters.ChoiceFilter(choices=Match.Status.choices)
    created_after = django_filters.IsoDateTimeFilter(method="created_from", help_text="ISO 8601, inclusive")
    created_before = django_filters.IsoDateTimeFilter(method="created_until", help_text="ISO 8601, exclusive")
    player = django_filters.CharFilter(method="by_player", help_text="A player's id or exact name")
    tournament = django_filters.CharFilter(field_name="table__round__tournament__slug")

    class Meta:
        model = Match
        fields = ["ruleset", "status", "player", "tournament"]

    @staticmethod
    def _utc(value):
        try:
            return value.astimezone(dt.UTC)
        except (OverflowError, ValueError):
            raise ValidationError({"detail": "that date is out of range"}) from None

    def created_from(self, queryset, name, value):
        return queryset.filter(created_at__gte=self._utc(value))

    def created_until(self, queryset, name, value):
        return queryset.filter(created_at__lt=self._utc(value))

    def by_player(self, queryset, name, value):
        if re.fullmatch(r"[0-9]{1,18}", value):  # a person's id: the records merged into it too
            return queryset.filter(selectors.seated_person(int(value)))
        seats = Q()
        for seat in ("seat0", "seat1", "seat2", "seat3"):
            seats |= Q(**{f"{seat}__name__iexact": value})
        return queryset.filter(seats)


class TeamFilter(UpdatedSinceFilter):
    class Meta:
        model = Team
        fields = {"name": ["exact", "icontains"]}


def visible_matches(user):
    """Standalone matches, those of public tournaments, and of the private ones this account organizes,
    keeps or plays in (``selectors.match_visibility``: the one rule for lists)."""
    return selectors.visible_matches(user)


# Views -----------------------------------------------------------------------------------


def _enforce_csrf(request) -> None:
    """A write from a browser's session (a table's tablet, no account) needs the page's CSRF token,
    as DRF's SessionAuthentication asks of signed-in sessions."""
    # As DRF's own check: a get_response never called and no view (Django reads only a view's
    # csrf_exempt), which the stubs' types leave out.
    check = CSRFCheck(lambda _request: None)  # type: ignore[arg-type]  # never called: returns no response
    check.process_request(request._request)
    reason = check.process_view(request._request, None, (), {})  # type: ignore[arg-type]  # None: no view
    if reason:
        raise PermissionDenied(f"CSRF failed: {reason}")


def _an_id(pk: Any) -> int:
    """A match id from the URL; anything else is no match (404)."""
    if not re.fullmatch(r"[0-9]{1,18}", str(pk)):
        raise NotFound
    return int(pk)


def _scored(match: Match, deal: Deal) -> tuple[Any, Any, engine.MatchState]:
    """The rule set, options and state the match's sheet now stands at: those the new deal was
    scored with and left (``deal_record``), else (a deal that ended a timed match) the match's."""
    scored = getattr(deal, "scored", None)
    if scored is not None:
        return scored
    rules = engine.get_ruleset(match.ruleset)
    return rules, rules.options(match.options), engine.MatchState.from_dict(match.state)


def actor(request):
    """Who is writing, for the history: the account, or nobody (a table's tablet)."""
    return request.user if request.user.is_authenticated else None


class KeeperOrReadOnly(permissions.BasePermission):
    """Reads for anyone who may see the match; writes for its scorekeepers: an account, or the
    session of a tablet that opened a table's link (with its CSRF token), for that table's match."""

    message = "Only this match's scorekeepers (or its tournament's organizer) may change it."
    ACCOUNT_ONLY = ("create", "import_file")  # a new match needs an account
    # Asked on the match itself, read and locked with what the question needs (``can_keep`` holds
    # ``can_write``): nothing to ask before.
    ON_THE_MATCH = ("deals", "deal_check")

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        if request.user.is_authenticated:
            return getattr(view, "action", None) in self.ON_THE_MATCH or can_write(request.user)
        if getattr(view, "action", None) in self.ACCOUNT_ONLY or not request.session.get(SESSION_KEY):
            return False
        _enforce_csrf(request)
        return True

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        match = obj if isinstance(obj, Match) else obj.match
        return can_keep(request.user, match, request.session)


@extend_schema(tags=["matches"])
class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Matches with their deals and score sheets. Writes need a scorekeeper's token."""

    permission_classes = [KeeperOrReadOnly]
    # The writes a "score" token may make (api/permissions.py); the match's keepers still decide.
    scorekeeping_actions = frozenset({"create", "import_file", "deals", "deal", "finish", "deal_check"})
    filterset_class = MatchFilter
    pagination_class = SyncPagination  # updated_since: pages continue after their last match
    ordering = ["-id"]

    def get_queryset(self):
        return (
            visible_matches(self.request.user).select_related(*selectors.MATCH_LIST_RELATED).order_by("-id")
        )

    def get_serializer_class(self):
        return MatchDetailSerializer if self.action == "retrieve" else MatchListSerializer

    def retrieve(self, request, *args, **kwargs):
        match = self.get_object()  # once: the answer and its Last-Modified come from the same row
        response = Response(MatchDetailSerializer(match, context=self.get_serializer_context()).data)
        response["Last-Modified"] = http_date(match.updated_at.timestamp())
        return response

    def _writable(self, match: Match) -> Match:
        if not can_keep(self.request.user, match, self.request.session):
            raise PermissionDenied(KeeperOrReadOnly.message)
        return match

    def _if_match(self) -> int | None:
        """The match version the client last saw, from ``If-Match`` (``"7"``, ``W/"7"`` or ``7``);
        ``*`` or none: no check. A value that is no version never matches (412)."""
        header = self.request.headers.get("If-Match", "").strip()
        if not header or header == "*":
            return None
        value = header.removeprefix("W/").strip().strip('"')
        return int(value) if re.fullmatch(r"[0-9]{1,9}", value) else -1

    @extend_schema(
        request=MatchCreateSerializer,
        responses={201: MatchDetailSerializer},
        examples=[MATCH_EXAMPLE, COINCHE_MATCH_EXAMPLE, PRESET_MATCH_EXAMPLE],
    )
    def create(self, request):
        """Start a match: rule set and options (or a named preset and changes over it), two teams (seated
        0/2 and 1/3), the first dealer."""
        data = MatchCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        teams = [
            selectors.team_entry(
                name=t["name"],
                players=t["players"],
                player_ids=t.get("player_ids"),
                team_id=t.get("id"),
                user=request.user,
                field=f"teams[{i}]",
            )
            for i, t in enumerate(d["teams"])
        ]
        match = services.match_create(
            teams=teams,
            ruleset=d.get("ruleset"),
            options=d["options"],
            preset=d["preset"],
            first_dealer=d["first_dealer"],
            created_by=request.user,
        )
        return Response(MatchDetailSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=MatchImportSerializer,
        responses={201: MatchDetailSerializer},
        examples=[IMPORT_EXAMPLE, COINCHE_IMPORT_EXAMPLE],
        description="A match file (FORMAT.md) with its deals: the same checks as the tablet; a bad file "
        "saves nothing and the error names the deal and the field.",
    )
    @action(detail=False, methods=["post"], url_path="import")
    def import_file(self, request):
        match = services.match_import(data=request.data, created_by=request.user)
        match.refresh_from_db()
        return Response(MatchDetailSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        responses={200: api_schema.SheetSerializer}, description="The score sheet (FORMAT.md output)."
    )
    @action(detail=True, methods=["get"])
    def sheet(self, request, pk=None):
        return Response(selectors.match_sheet(match=self.get_object()).sheet.to_dict())

    @extend_schema(
        responses={200: api_schema.MatchFileSerializer},
        description="The match file (FORMAT.md input): it replays to the same sheet, and POST …/import/ "
        "takes it back.",
    )
    @action(detail=True, methods=["get"], url_path="file")
    def match_file(self, request, pk=None):
        match = self.get_object()
        response = Response(selectors.match_file(match=match))
        response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
        return response

    @extend_schema(request=None, responses={200: MatchDetailSerializer}, parameters=[IF_MATCH])
    @action(detail=True, methods=["post"])
    def finish(self, request, pk=None):
        """End the match now (by agreement): the higher total wins, equal totals are a draw. At a
        tournament's table only its organizer may (403 for the table's scorekeeper)."""
        match = self._writable(self.get_object())
        if not can_end(request.user, match):
            raise PermissionDenied(gettext("At a tournament table, the organizer ends the match."))
        services.match_finish(match=match, user=actor(request), expected_version=self._if_match())
        match.refresh_from_db()
        return Response(MatchDetailSerializer(match).data)

    @extend_schema(
        methods=["GET"],
        responses={200: api_schema.RecordedDealSerializer(many=True)},
        description="The deals in playing order.",
    )
    @extend_schema(
        methods=["POST"],
        request=DEAL_SCHEMA,
        examples=DEAL_EXAMPLES,
        responses={
            201: api_schema.DealWrittenSerializer,
            200: OpenApiResponse(
                api_schema.DealWrittenSerializer,
                description="A resend with a used `Idempotency-Key`: the deal first recorded, the sheet now",
            ),
        },
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="A client key: the same deal sent again with it is recorded once (200 and the "
                "first result); the key sent with a different deal is refused (409) and nothing is stored.",
            ),
            IF_MATCH,
        ],
        description="Record a deal (FORMAT.md's deal) at the end of the match. The answer: the deal with "
        "its `number`, its `row` on the sheet (`scores`, `result`, `totals`, `dealer`, …), the sheet's head "
        "(`sheet`: `totals`, `held`, `status`, `winner`, `next_dealer`, … but not its rows: "
        "`GET …/sheet/` has them) and the match's `version`.",
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def deals(self, request, pk=None):
        if request.method == "GET":
            match = self.get_object()
            return Response(
                [deal_out(line.deal, line.row.number) for line in selectors.match_sheet(match=match).lines]
            )
        key = request.headers.get("Idempotency-Key")
        client_key = uuid.uuid5(IDEMPOTENCY_NAMESPACE, key) if key else None
        with transaction.atomic():
            # One query: the match, locked, with what the permission asks; asked once.
            match = services.match_lock(pk=_an_id(pk), user=request.user, client_key=client_key, names=False)
            if match is None or not can_see(request.user, match, request.session):
                raise NotFound
            self._writable(match)
            deal = services.deal_record(
                match=match,
                deal=request.data,
                client_key=client_key,
                user=actor(request),
                expected_version=self._if_match(),
            )
        if deal.created:  # answered from the state the deal left: nothing read again
            sheet, row = engine.sheet_of(*_scored(match, deal)), deal.row
        else:  # a resend: the deal first recorded (its row, if still in play) and the sheet as it is now
            data = selectors.match_sheet(match=match)
            sheet = data.sheet
            row = next((line.row for line in data.lines if line.deal.pk == deal.pk), None)
        answer = {
            "deal": deal_out(deal, row.number if row else None),
            "row": row.to_dict() if row else None,
            "sheet": sheet_head(sheet),
            "version": match.version,
        }
        return Response(answer, status=status.HTTP_201_CREATED if deal.created else 200)

    def _deal_reply(self, match: Match, deal: Deal) -> dict[str, Any]:
        """The deal and the sheet as they are now, replayed (a correction, a resent deal)."""
        match = Match.objects.get(pk=match.pk)
        data = selectors.match_sheet(match=match)
        row = next((line.row for line in data.lines if line.deal.pk == deal.pk), None)
        return {
            "deal": deal_out(deal, row.number if row else None),
            "row": row.to_dict() if row else None,
            "sheet": data.sheet.to_dict(),
            "version": match.version,
        }

    @extend_schema(
        methods=["PUT"],
        request=DEAL_SCHEMA,
        examples=DEAL_EXAMPLES,
        responses={200: api_schema.DealCorrectedSerializer},
        parameters=[IF_MATCH],
        description="Correct a deal; the earlier version stays in its history. Of two corrections sent "
        "with the same `If-Match`, one is made and the other answered 412. The answer: the deal, its `row`, "
        "the whole `sheet` replayed (its rows too) and the match's `version`.",
    )
    @extend_schema(
        methods=["DELETE"],
        responses={204: None},
        parameters=[IF_MATCH],
        description="Delete a deal (kept in its history).",
    )
    @action(detail=True, methods=["put", "delete"], url_path=r"deals/(?P<deal_id>\d+)")
    def deal(self, request, pk=None, deal_id=None):
        match = self._writable(self.get_object())
        deal = get_object_or_404(match.deals.filter(deleted_at__isnull=True), pk=deal_id)
        if request.method == "DELETE":
            services.deal_delete(deal=deal, user=actor(request), expected_version=self._if_match())
            return Response(status=status.HTTP_204_NO_CONTENT)
        deal = services.deal_correct(
            deal=deal, data=request.data, user=actor(request), expected_version=self._if_match()
        )
        return Response(self._deal_reply(match, deal))

    @extend_schema(
        request=None,
        responses={200: api_schema.DealCheckedSerializer},
        description="The other team checks a deal's line (`deal_id`: the deal's id), where the match's "
        "tournament asks for it: the table's tablet, the organizer, or a player of the match with their "
        "own account. Checking a checked deal again changes nothing; a correction of the deal undoes its "
        "check. A match that does not ask for checks: 400. A check does not change the sheet or its "
        "version.",
    )
    @action(detail=True, methods=["post"], url_path=r"deals/(?P<deal_id>\d+)/check")
    def deal_check(self, request, pk=None, deal_id=None):
        match = get_object_or_404(self.get_queryset(), pk=_an_id(pk))
        if not can_see(request.user, match, request.session):
            raise NotFound
        if not match.deal_check:
            raise engine.ScoringError("this match's deals are not checked by the other team")
        if not can_check(request.user, match, request.session):
            raise PermissionDenied(KeeperOrReadOnly.message)
        deal = get_object_or_404(match.deals.filter(deleted_at__isnull=True), pk=deal_id)
        deal = services.deal_check(deal=deal, user=actor(request))
        match.refresh_from_db(fields=["version"])
        row = next(line.row for line in selectors.match_sheet(match=match).lines if line.deal.pk == deal.pk)
        return Response(
            {
                "id": deal.pk,
                "number": row.number,
                "checked_at": localtime(deal.checked_at).isoformat(),
                "version": match.version,
            }
        )


@extend_schema(tags=["players"])
class TeamViewSet(viewsets.ReadOnlyModelViewSet):
    """Teams, but those known only from private tournaments this account does not organize."""

    serializer_class = TeamSerializer
    queryset = Team.objects.select_related("player_a", "player_b").order_by("id")
    filterset_class = TeamFilter
    pagination_class = SyncPagination

    def get_queryset(self):
        teams = selectors.visible_teams(self.request.user)
        return teams.select_related("player_a", "player_b").order_by("id")
