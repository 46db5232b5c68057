"""The tournaments API: An entry edited (name, players, number), withdrawn and reinstated.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from .. import selectors, services
from ..models import Entry, Tournament
from ..services.entries import NUMBER_MAX
from .schema import EntrySerializer
from .tournaments import TournamentSerializer


def entry_by_number(tournament: Tournament, number: int, field: str = "entry_number") -> Entry:
    """The tournament's entry of that number; else a 400 naming ``field``."""
    entry = tournament.entries.filter(number=number).first()
    if entry is None:
        raise serializers.ValidationError(
            {field: [gettext("No entry has the number %(n)s.") % {"n": number}]}
        )
    return entry


def entry_pairs_by_number(tournament: Tournament, data: dict[str, Any]) -> list[list[int]]:
    """``number_pairs`` (pairs of entries' numbers) as pairs of entry ids, in one query."""
    pairs = data.get("number_pairs") or []
    if not pairs:
        return []
    wanted = {n for pair in pairs for n in pair}
    ids = dict(tournament.entries.filter(number__in=wanted).values_list("number", "pk"))
    missing = sorted(wanted - set(ids))
    if missing:
        raise serializers.ValidationError(
            {"number_pairs": [gettext("No entry has the number %(n)s.") % {"n": missing[0]}]}
        )
    return [[ids[a], ids[b]] for a, b in pairs]


class EntryEditSerializer(serializers.Serializer):
    """Any of the entry's name, players and number; what is left out stays."""

    name = serializers.CharField(
        max_length=80, required=False, help_text="The team's name (in an individual event, the player's)"
    )
    players = serializers.ListField(
        child=serializers.CharField(max_length=80),
        min_length=1,
        max_length=2,
        required=False,
        help_text="The team's two players (an individual event: the one player). A name unchanged keeps "
        "its player; another name is a new player unless picked by ``player_ids``",
    )
    player_ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, allow_null=True),
        min_length=1,
        max_length=2,
        required=False,
        help_text="Existing players picked by id, beside their names (null: a new player of that name, or "
        "the same one if the name is unchanged)",
    )
    number = serializers.IntegerField(
        min_value=1,
        max_value=NUMBER_MAX,
        required=False,
        help_text="The entry's number: unique in the tournament, editable before the start only",
    )


def _answer(entry: Entry) -> Response:
    entry = Entry.objects.select_related("team__player_a", "team__player_b", "player").get(pk=entry.pk)
    return Response(EntrySerializer(entry).data)


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


class EntryStatusSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=[s for s in Entry.Status.values if s != Entry.Status.PENDING])


class EntryActions:
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

    @extend_schema(
        summary="Edit an entry: its name, its players, its number (before the start)",
        description="Any of ``name``, ``players``, ``player_ids``, ``number``. A renamed team is renamed "
        "in place when only this tournament uses it, else a team of the new name with the same players "
        "replaces it here (other events keep theirs). Players: the same checks as a registration. A "
        "number taken is refused (400) naming the team that has it. Audited (the entry's history).",
        request=EntryEditSerializer,
        responses={200: EntrySerializer},
        tags=["tournaments"],
    )
    @action(detail=True, methods=["patch"], url_path=r"entries/(?P<entry_id>\d+)")
    def entry_edit(self, request, slug=None, entry_id=None):
        tournament = self._managed()
        entry = get_object_or_404(tournament.entries, pk=entry_id)
        data = EntryEditSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        try:
            entry = services.entry_edit(entry=entry, user=request.user, **d)
        except services.entries.NumberRefused as error:
            raise serializers.ValidationError({"number": [str(error)]}) from None
        return _answer(entry)

    @extend_schema(
        summary="Reinstate a withdrawn entry",
        description="Back to registered (checked in if it had been) before the start; once the tournament "
        "runs, checked in and paired again from the next round drawn, its missed rounds counted as the "
        "withdrawal left them. Refused (400) if the entry has not withdrawn or the tournament is finished.",
        request=None,
        responses={200: EntrySerializer},
        tags=["tournaments"],
    )
    @action(detail=True, methods=["post"], url_path=r"entries/(?P<entry_id>\d+)/reinstate")
    def entry_reinstate(self, request, slug=None, entry_id=None):
        tournament = self._managed()
        entry = get_object_or_404(tournament.entries, pk=entry_id)
        return _answer(services.entry_reinstate(entry=entry, user=request.user))
