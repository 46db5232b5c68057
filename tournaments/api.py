"""REST API (v1) for tournaments: read for everyone (public ones), write for their organizer."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

import django_filters
from django.db import transaction
from django.db.models import Q
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import http_date
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from config import spreadsheet
from config.sync import SyncPagination, UpdatedSinceFilter
from players.models import Club
from scoring import api_schema as scoring_schema
from scoring import selectors as scoring_selectors
from scoring.models import RULESET_KEYS
from scoring.permissions import can_write

from . import api_schema, clock, selectors, services, standings
from .api_bracket import BracketActions
from .api_bulk import BulkActions
from .api_checkin import CheckinActions
from .api_console import ConsoleActions
from .api_entries import EntryActions, entry_by_number, entry_pairs_by_number
from .api_paper import PaperActions, PaperResultSerializer, paper_answers, paper_results
from .api_personal import FinderActions
from .api_prizes import PrizeActions, PrizeListSerializer
from .api_schema import EntrySerializer, RankingSerializer
from .models import Adjustment, Entry, Round, Table, Tournament
from .prizes import prize_list
from .services.individual import partnership_name


class TournamentSerializer(serializers.ModelSerializer):
    organizer = serializers.CharField(source="organizer.username", read_only=True)
    club = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="The club that holds it (its slug), or null",
    )
    embed_origins = serializers.SerializerMethodField(
        help_text="The websites (origins) whose pages may frame the embeds (/tournaments/{slug}/embed/…)"
    )
    finish_in_play = serializers.ChoiceField(
        choices=Tournament.InPlay.choices,
        allow_blank=True,
        read_only=True,
        help_text="Finished early: what became of the matches in play (empty: not finished early)",
    )
    options = scoring_schema.options_field(help_text="The rule set's options for every match")
    tiebreaks = scoring_schema.typed_json(
        serializers.ListField(child=serializers.ChoiceField(choices=list(standings.METRICS))),
        help_text="Metric keys in order, fixed when the tournament starts",
    )
    cuts = scoring_schema.typed_json(
        serializers.ListField(child=serializers.IntegerField()),
        help_text="Places where a tie is played off, e.g. [3, 8]",
    )
    avoid = scoring_schema.typed_json(
        serializers.ListField(child=scoring_schema.pair(serializers.IntegerField(), "Two entry ids")),
        help_text="Pairs of entries kept apart while the pairing allows (same club, same family)",
    )

    class Meta:
        model = Tournament
        read_only_fields = [
            "slug",
            "organizer",
            "status",
            "checkin_open",
            "created_at",
            "started_at",
            "finished_at",
            "finish_reason",
            "finish_in_play",
            "avoid",
            "updated_at",
        ]
        fields = [*read_only_fields[:2], *services.SETTINGS, *services.EMBED_SETTINGS, *read_only_fields[2:]]

    def get_embed_origins(self, tournament: Tournament) -> list[str]:
        return tournament.embed_origins.split()


class TournamentWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    ruleset = serializers.ChoiceField(
        choices=RULESET_KEYS, required=False, help_text="Left out: the preset's game, else mpourloto"
    )
    options = scoring_schema.OptionsInputField(
        required=False, default=dict, help_text="With a preset: changes over the preset's options"
    )
    preset = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        help_text="A named preset (GET /api/v1/presets/), by name or slug: it sets the game and the options "
        "of every match, and the minutes a round when time_limit is left out or 0",
    )
    format = serializers.ChoiceField(choices=Tournament.Format.values, default="swiss")
    swiss_rounds = serializers.IntegerField(
        min_value=1, max_value=30, default=5, help_text="Rounds of a Swiss, a concours or an individual event"
    )
    seed = serializers.IntegerField(
        min_value=1,
        max_value=999_999,
        required=False,
        help_text="The draw's seed (round 1 of a concours, an individual movement); random when left out",
    )
    time_limit = serializers.IntegerField(
        min_value=0,
        max_value=600,
        default=0,
        help_text="Minutes a stage round lasts once its clock is started (0: untimed). When time is up, the "
        "next deal recorded at a table is its last: the match ends on its totals",
    )
    bye_game_points = serializers.IntegerField(
        min_value=0, max_value=100_000, default=0, help_text="Game points a bye is worth (rankings on points)"
    )
    knockout_size = serializers.IntegerField(min_value=0, max_value=256, default=0)
    pool_size = serializers.IntegerField(
        min_value=3, max_value=8, default=4, help_text="Pools: teams a pool, each a round robin (3 to 8)"
    )
    consolation = serializers.BooleanField(
        default=False, help_text="The teams that miss the knockout play a consolation bracket of their own"
    )
    third_place = serializers.BooleanField(
        default=False, help_text="The losing semi-finalists play a match for third place (a knockout of 4+)"
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(standings.METRICS)), required=False
    )
    deals_per_match = serializers.IntegerField(min_value=0, max_value=100, default=0)
    points_win = serializers.IntegerField(min_value=0, max_value=10, default=2)
    points_draw = serializers.IntegerField(min_value=0, max_value=10, default=1)
    points_loss = serializers.IntegerField(min_value=0, max_value=10, default=0)
    points_bye = serializers.IntegerField(min_value=0, max_value=10, default=2)
    playoff_deals = serializers.IntegerField(min_value=1, max_value=12, default=2)
    cuts = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=500), required=False)
    public = serializers.BooleanField(default=True)
    club = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Club.objects.all(),
        required=False,
        allow_null=True,
        help_text="The club that holds it, by its slug: one the organizer runs (null: none)",
        error_messages={"does_not_exist": gettext_lazy("No club has the slug {value}.")},
    )
    confirmation = serializers.BooleanField(default=False)
    deal_check = serializers.BooleanField(
        default=False,
        help_text="After each deal the tablet shows its line to the other team for one tap OK; an unchecked "
        "deal shows on the organizer's console (POST /api/v1/matches/{id}/deals/{deal_id}/check/)",
    )
    rated = serializers.BooleanField(default=True, help_text="Its matches count in the players' ratings")
    seed_by_rating = serializers.BooleanField(
        default=False,
        help_text="Swiss or concours: round 1 seeded by the players' ratings (the best against the middle of "
        "the field) instead of drawn",
    )
    signup_open = serializers.BooleanField(default=False)
    starts_on = serializers.DateField(required=False, allow_null=True)
    # The embeds on a club's own website: may change at any time, once started too.
    embed_origins = serializers.ListField(
        child=serializers.CharField(max_length=300),
        max_length=20,
        required=False,
        help_text="The websites whose pages may frame the embeds (/tournaments/{slug}/embed/standings/, "
        "…/embed/round/, …/embed/rounds/{n}/), as origins: https://club.example[:port], no path "
        "(http:// only for localhost and 127.0.0.1; a wildcard only as https://*.club.example); "
        "[] for none (this site only)",
    )
    colour = serializers.RegexField(
        r"^(#[0-9a-fA-F]{6})?$",
        required=False,
        allow_blank=True,
        help_text="The embeds' main colour, #rrggbb; empty: the site's green",
    )
    background = serializers.RegexField(
        r"^(#[0-9a-fA-F]{6})?$",
        required=False,
        allow_blank=True,
        help_text="The embeds' background, #rrggbb; empty: white",
    )

    def validate_embed_origins(self, origins: list[str]) -> list[str]:
        try:
            return services.embed_origins_parse(origins)
        except services.TournamentError as error:
            raise serializers.ValidationError(str(error).split("\n")) from None


class EntryWriteSerializer(serializers.Serializer):
    """A team (``name`` and two ``players``), or in an individual event one player: ``players: [name]``
    (or ``name`` alone). ``context["individual"]`` says which."""

    name = serializers.CharField(
        max_length=80, required=False, help_text="The team's name; in an individual event, the player's"
    )
    players = serializers.ListField(
        child=serializers.CharField(max_length=80),
        min_length=1,
        max_length=2,
        required=False,
        help_text="A team's two players; in an individual event, the one player",
    )
    player_ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, allow_null=True),
        min_length=1,
        max_length=2,
        required=False,
        help_text="Existing players picked by id, beside their names (null: a new player of that name): two "
        "for a team, one in an individual event. Names alone always make new players.",
    )
    points_per_missed_round = serializers.IntegerField(
        min_value=0,
        max_value=10_000,
        default=0,
        help_text="A late entry (the tournament has started): game points given for each round it missed",
    )
    match_points_per_missed_round = serializers.IntegerField(
        min_value=0, max_value=10_000, default=0, help_text="A late entry: match points for each round missed"
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        individual = bool(self.context.get("individual"))
        if individual and "players" not in data and "name" in data:
            data["players"] = [data["name"]]
        required = [self.fields["name"].error_messages["required"]]
        missing = [key for key in (() if individual else ("name",)) + ("players",) if key not in data]
        if missing:
            raise serializers.ValidationError(dict.fromkeys(missing, required))
        count = 1 if individual else 2
        if len(data["players"]) != count:
            message = (
                gettext("An individual event's entry is one player: players is [name].")
                if individual
                else gettext("A team has two players.")
            )
            raise serializers.ValidationError({"players": [message]})
        if "player_ids" in data and len(data["player_ids"]) != count:
            message = gettext("One id (or null) beside each player's name: %(n)s.") % {"n": count}
            raise serializers.ValidationError({"player_ids": [message]})
        if individual:
            name, player = (
                " ".join(n.split()).casefold() for n in (data.get("name", ""), data["players"][0])
            )
            if name and name != player:
                raise serializers.ValidationError(
                    {"name": [gettext("An individual event's entry is named after its player.")]}
                )
            data["name"] = data["players"][0]
        return data


class AvoidSerializer(serializers.Serializer):
    pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=2),
        max_length=500,
        help_text="Pairs of entry ids, e.g. [[3, 7], [4, 9]]; [] clears the list",
    )
    number_pairs = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(min_value=1), min_length=2, max_length=2),
        max_length=500,
        required=False,
        help_text="The same pairs by the entries' numbers, e.g. [[1, 12]]: added to ``pairs``",
    )


class FinishSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, help_text="Why the tournament finishes early (audited)")
    in_play = serializers.ChoiceField(
        choices=Tournament.InPlay.values,
        default=Tournament.InPlay.TOTALS,
        help_text="Matches still in play: finished on their totals, or left out (counted for nobody)",
    )


class EntryStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=[s for s in Entry.Status.values if s != Entry.Status.PENDING])


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
        return paper_results(self.context, table)

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
        return [
            {
                "entry": e.pk,
                "number": e.number,
                "team": partnership_name(e.name, p.name),
                "entries": [e.pk, p.pk],
                "players": [e.name, p.name],
            }
            for e, p in ((table.entry0, table.partner0), (table.entry1, table.partner1))
        ]

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
        return TableSerializer(selectors.round_tables(rnd=rnd), many=True, context=self.context).data


paper_answers(table=TableSerializer, rnd=RoundSerializer)  # its actions answer with these


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


class ClockSerializer(serializers.Serializer):
    action = serializers.ChoiceField(
        choices=list(services.clock.ACTIONS),
        help_text="start (the round's clock), pause, resume, extend (by minutes: negative takes time away)",
    )
    minutes = serializers.IntegerField(min_value=-120, max_value=120, default=0)
    table = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="One table (pause, resume, extend); else all"
    )


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


class TournamentFilter(UpdatedSinceFilter):
    club = django_filters.CharFilter(
        method="by_club", help_text="The club's slug (its tournaments), or the organizing club's account"
    )
    ruleset = django_filters.ChoiceFilter(choices=[(k, k) for k in RULESET_KEYS])
    status = django_filters.ChoiceFilter(choices=Tournament.Status.choices)
    date_from = django_filters.DateFilter(field_name="starts_on", lookup_expr="gte")
    date_to = django_filters.DateFilter(field_name="starts_on", lookup_expr="lte")
    player = django_filters.CharFilter(method="by_player", help_text="A player's id or exact name")

    class Meta:
        model = Tournament
        fields = ["club", "ruleset", "status", "date_from", "date_to", "player"]

    def by_club(self, queryset, name, value):
        return queryset.filter(Q(club__slug=value) | Q(organizer__username=value))

    def by_player(self, queryset, name, value):
        """By a person's id (the records merged into it too: ``Player.merged_into``) or a record's name."""
        keys = ["pk", "merged_into"] if re.fullmatch(r"[0-9]{1,18}", value) else ["name__iexact"]
        entered = Q()
        for key in keys:
            for who in ("entries__team__player_a", "entries__team__player_b", "entries__player"):
                entered |= Q(**{f"{who}__{key}": value})
        return queryset.filter(entered).distinct()


class OrganizerOrReadOnly(permissions.BasePermission):
    message = "Only the tournament's organizer may change it."

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or can_write(request.user)

    def has_object_permission(self, request, view, obj) -> bool:
        return request.method in permissions.SAFE_METHODS or selectors.can_manage(obj, request.user)


@extend_schema(tags=["tournaments"])
class TournamentViewSet(
    BulkActions,
    EntryActions,
    CheckinActions,
    ConsoleActions,
    PaperActions,
    BracketActions,
    PrizeActions,
    FinderActions,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    """Tournaments, their rounds and pairings, standings with every tie-break value, and exports.

    No ``destroy``: a tournament is not deleted through the API (its results are a record), so its
    path answers DELETE with a 405 and does not list it in ``Allow``."""

    serializer_class = TournamentSerializer
    permission_classes = [OrganizerOrReadOnly]
    filterset_class = TournamentFilter
    pagination_class = SyncPagination  # updated_since: pages continue after their last tournament
    lookup_field = "slug"
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return selectors.tournament_list(user=self.request.user).select_related("organizer").order_by("-id")

    def _managed(self) -> Tournament:
        tournament = self.get_object()
        if not selectors.can_manage(tournament, self.request.user):
            raise PermissionDenied(OrganizerOrReadOnly.message)
        return tournament

    @extend_schema(
        request=TournamentWriteSerializer,
        responses={201: TournamentSerializer},
        examples=[
            OpenApiExample(
                "A concours under a named preset",
                value={
                    "name": "Contrée du vendredi",
                    "preset": "Cannes 2001 points or 40 minutes",
                    "format": "concours",
                    "swiss_rounds": 5,
                },
                request_only=True,
            )
        ],
    )
    def create(self, request):
        data = TournamentWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        embed = {name: values.pop(name) for name in services.EMBED_SETTINGS if name in values}
        with transaction.atomic():
            tournament = services.tournament_create(organizer=request.user, **values)
            if embed:
                tournament = services.tournament_embed_update(
                    tournament=tournament, user=request.user, **embed
                )
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=TournamentWriteSerializer, responses={200: TournamentSerializer})
    def partial_update(self, request, slug=None):
        tournament = self._managed()
        data = TournamentWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        embed = {name: values.pop(name) for name in services.EMBED_SETTINGS if name in values}
        with transaction.atomic():  # the embeds' settings alone may change once started
            if values or not embed:
                tournament = services.tournament_update(tournament=tournament, user=request.user, **values)
            if embed:
                tournament = services.tournament_embed_update(
                    tournament=tournament, user=request.user, **embed
                )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=None, responses={200: TournamentSerializer})
    @action(detail=True, methods=["post"])
    def start(self, request, slug=None):
        tournament = services.tournament_start(tournament=self._managed(), user=request.user)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(methods=["GET"], responses={200: EntrySerializer(many=True)})
    @extend_schema(methods=["POST"], request=EntryWriteSerializer, responses={201: EntrySerializer})
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def entries(self, request, slug=None):
        tournament = self.get_object()
        if request.method == "GET":
            return Response(EntrySerializer(selectors.entries(tournament=tournament), many=True).data)
        tournament = self._managed()
        individual = tournament.format == Tournament.Format.INDIVIDUAL
        data = EntryWriteSerializer(data=request.data, context={"individual": individual})
        data.is_valid(raise_exception=True)
        d = data.validated_data
        if tournament.status == Tournament.Status.REGISTRATION:
            entry = services.entry_register(
                tournament=tournament,
                name=d["name"],
                players=d["players"],
                player_ids=d.get("player_ids"),
                user=request.user,
            )
        else:  # a late entry: it plays from the next round drawn
            entry = services.entry_register_late(
                tournament=tournament,
                name=d["name"],
                players=d["players"],
                player_ids=d.get("player_ids"),
                points_per_missed_round=d["points_per_missed_round"],
                match_points_per_missed_round=d["match_points_per_missed_round"],
                user=request.user,
            )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=AvoidSerializer, responses={200: TournamentSerializer})
    @action(detail=True, methods=["post"])
    def avoid(self, request, slug=None):
        """The pairs of entries to keep apart (same club, same family), replacing the earlier list: the
        pairing treats them as if they had met, so they meet only when nothing else avoids a rematch."""
        tournament = self._managed()
        data = AvoidSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pairs = [*data.validated_data["pairs"], *entry_pairs_by_number(tournament, data.validated_data)]
        tournament = services.tournament_avoid(tournament=tournament, pairs=pairs, user=request.user)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(request=EntryStatusSerializer, responses={200: EntrySerializer})
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>\d+)/status")
    def entry_status(self, request, slug=None, entry_id=None):
        tournament = self._managed()
        entry = get_object_or_404(tournament.entries, pk=entry_id)
        data = EntryStatusSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = services.entry_set_status(
            entry=entry, status=data.validated_data["status"], user=request.user
        )
        return Response(EntrySerializer(entry).data)

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

    @extend_schema(
        responses={200: api_schema.StandingsSerializer},
        description="The standings as last computed: the rows best first, each with its rank and every "
        "tie-break value, the play-offs due at the cuts and the final ranking so far.",
    )
    @action(detail=True, methods=["get"])
    def standings(self, request, slug=None):
        tournament = self.get_object()
        data = selectors.standings_get(tournament=tournament)
        numbers = selectors.entry_numbers(tournament=tournament)  # the rows' entries' numbers
        response = Response(
            {
                "tiebreaks": tournament.tiebreaks,
                "version": data["version"],
                "computed_at": data["computed_at"],
                "rows": [{**r, "number": numbers.get(r["entry"])} for r in data["rows"]],
                "playoffs": data["playoffs"],
                "ranking": [{**r, "number": numbers.get(r["entry"])} for r in data.get("ranking", [])],
            }
        )
        if data["computed_at"]:
            response["Last-Modified"] = http_date(data["computed_at"].timestamp())
        return response

    @extend_schema(responses={200: RankingSerializer})
    @action(detail=True, methods=["get"])
    def ranking(self, request, slug=None):
        """The final ranking: the knockout's result (champion, finalist, losing semi-finalists …, each
        group in the stage's order), then the teams that did not reach it in the stage's order; without
        a knockout, the standings after the last round and its play-offs. ``final`` is false until the
        tournament is finished."""
        tournament = self.get_object()
        data = selectors.standings_get(tournament=tournament)
        numbers = selectors.entry_numbers(tournament=tournament)
        return Response(
            RankingSerializer(
                {
                    "final": tournament.status == Tournament.Status.FINISHED,
                    "status": tournament.status,
                    "finished_at": tournament.finished_at,
                    "finish_reason": tournament.finish_reason,
                    "finish_in_play": tournament.finish_in_play,
                    "version": data["version"],
                    "rows": [{**r, "number": numbers.get(r["entry"])} for r in data.get("ranking", [])],
                }
            ).data
        )

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="ranking.csv")
    def ranking_csv(self, request, slug=None):
        tournament = self.get_object()
        out = io.StringIO()
        writer = spreadsheet.writer(out)
        writer.writerow(
            [
                *("position", "rank", "team", "player_a", "player_b", "reached", "stage_rank", "withdrawn"),
                *("prize_amount", "prize", "special_prizes"),  # amount in units ("177.00"), text, categories
            ]
        )
        prizes = _prizes_by_place(tournament)
        for r in selectors.standings_get(tournament=tournament).get("ranking", []):
            writer.writerow(
                [
                    r["position"],
                    r["rank"],
                    r["team"],
                    *_two(r["players"]),
                    r["reached"],
                    r["stage_rank"],
                    r["withdrawn"],
                    *prizes(r["position"], r["entry"]),
                ]
            )
        return _csv(out, f"{tournament.slug}-ranking.csv")

    @extend_schema(request=FinishSerializer, responses={200: TournamentSerializer})
    @action(detail=True, methods=["post"])
    def finish(self, request, slug=None):
        """Finish a running tournament early, with a reason (audited). Matches in play are finished on
        their totals or left out; rounds drawn but not started are removed. Afterwards the tournament is
        read-only, except for the organizer's corrections of results."""
        tournament = self._managed()
        data = FinishSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_finish(
            tournament=tournament, user=request.user, **data.validated_data
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"], url_path="standings.csv")
    def standings_csv(self, request, slug=None):
        tournament = self.get_object()
        rows = selectors.standings_get(tournament=tournament)["rows"]
        metrics = list(standings.METRICS)
        out = io.StringIO()
        writer = spreadsheet.writer(out)  # names cannot become formulas
        writer.writerow(
            ["rank", "team", "player_a", "player_b", "played", "won", "drawn", "lost", "withdrawn", *metrics]
        )
        for r in rows:
            writer.writerow(
                [
                    r["rank"],
                    r["team"],
                    *_two(r["players"]),
                    r["played"],
                    r["won"],
                    r["drawn"],
                    r["lost"],
                    r["withdrawn"],
                    *(r["values"].get(m, "") for m in metrics),
                ]
            )
        return _csv(out, f"{tournament.slug}-standings.csv")

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


def _prizes_by_place(tournament: Tournament):
    """The ranking CSV's prize columns of a place and its entry: the amount in units, the text, the
    names of the categories it won."""
    found = prize_list(tournament=tournament)
    places = {p["position"]: p for p in found["places"]}
    won: dict[int, list[str]] = {}
    for category in found["categories"]:
        for team in category["winners"]:
            won.setdefault(team["entry"], []).append(category["name"])

    def columns(position: int, entry: int) -> list[str]:
        place = places.get(position) or {}
        amount = place.get("amount")
        return [
            f"{amount // 100}.{amount % 100:02d}" if amount else "",
            place.get("text", ""),
            "; ".join(won.get(entry, [])),
        ]

    return columns


def _two(players: list[str]) -> list[str]:
    """The player_a and player_b columns: an individual event's entry fills the first."""
    return [*players, "", ""][:2]


def _csv(out: io.StringIO, filename: str) -> HttpResponse:
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
