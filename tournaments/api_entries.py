"""The tournaments API: An entry edited (name, players, number), withdrawn and reinstated.

Its actions join ``TournamentViewSet`` (tournaments/api.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from . import services
from .api_schema import EntrySerializer
from .models import Entry, Tournament
from .services.entries import NUMBER_MAX


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


class EntryActions:
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
