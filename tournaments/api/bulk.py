"""The tournaments API: Bulk entry: a pasted list or a CSV previewed, then saved all or nothing.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response

from api.errors import REFUSED, Problem

from .. import services
from ..models import Entry
from ..services.bulk import MOST_BYTES


class BulkRequestSerializer(serializers.Serializer):
    """A list pasted (``text``) or a CSV file (``file``, multipart), what to do with it."""

    text = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="One team a line: its name and its two players, separated by a tab, a semicolon or a "
        "comma (decided per line); in an individual event one player's name a line. Blank lines and a "
        "header line (team, player, partner) are skipped. At most 500 lines and 200 kB.",
    )
    file = serializers.FileField(
        required=False, help_text="A CSV file (UTF-8, with or without a BOM), instead of ``text``"
    )
    choices = serializers.JSONField(
        required=False,
        help_text='The records chosen, by line number (from 1, as the preview numbers them): {"3": [12, '
        "null]} picks player 12 for the first player of line 3 and a new record for the second. An id "
        "must be one of the preview's matches for that name; null makes a new record. A line not given "
        "keeps the preview's choices (the one match; of several, who played last).",
    )
    dry_run = serializers.BooleanField(
        default=False, help_text="true: answer the preview and save nothing; false: enter every line or none"
    )

    def validate_choices(self, value):
        if value in (None, ""):
            return {}
        if not isinstance(value, dict):
            raise serializers.ValidationError(gettext("A mapping of line numbers to lists of ids or nulls."))
        choices = {}
        for line, ids in value.items():
            if not str(line).isdigit() or not isinstance(ids, list) or not 1 <= len(ids) <= 2:
                raise serializers.ValidationError(
                    gettext("Line %(line)s: a list of one or two ids (or nulls).") % {"line": str(line)[:10]}
                )
            for pk in ids:
                if pk is not None and (isinstance(pk, bool) or not isinstance(pk, int) or pk < 1):
                    raise serializers.ValidationError(
                        gettext("Line %(line)s: a player's id or null.") % {"line": str(line)[:10]}
                    )
            choices[int(line)] = ids
        return choices

    def validate(self, data):
        if "file" not in data and "text" not in data:
            raise serializers.ValidationError({"text": [gettext("Send the list as text or a CSV file.")]})
        return data


class BulkMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The player's id, to pass in ``choices``")
    name = serializers.CharField()
    club = serializers.CharField(help_text="The player's clubs (empty if none)")
    last_event = serializers.CharField(help_text="The last tournament they entered (empty if none)")
    last_seen = serializers.DateTimeField(allow_null=True, help_text="When they last played or entered")


class BulkPlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    chosen = serializers.IntegerField(allow_null=True, help_text="The record used; null: a new record")
    matches = BulkMatchSerializer(many=True, help_text="The existing records of that name, last seen first")


class BulkLineSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="The line's number in the text, from 1")
    text = serializers.CharField()
    team = serializers.CharField(help_text="The team's name; in an individual event, the player's")
    ok = serializers.BooleanField()
    errors = serializers.ListField(  # type: ignore[assignment]  # a declared field: DRF's metaclass takes it off the class
        child=serializers.CharField(), help_text="What is wrong, in words"
    )
    players = BulkPlayerSerializer(many=True)


class BulkPreviewSerializer(serializers.Serializer):
    ok = serializers.BooleanField(help_text="Every line is right: it can be entered")
    individual = serializers.BooleanField()
    errors = serializers.ListField(  # type: ignore[assignment]  # a declared field: DRF's metaclass takes it off the class
        child=serializers.CharField(), help_text="What is wrong with the whole (registration closed)"
    )
    lines = BulkLineSerializer(many=True)


class BulkEntrySerializer(serializers.ModelSerializer):
    team = serializers.CharField(source="name", read_only=True, help_text="The team's (or player's) name")
    players = serializers.SerializerMethodField()
    player_ids = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = ["id", "number", "team", "players", "player_ids", "status"]

    def get_players(self, entry: Entry) -> list[str]:
        return [p.name for p in _people(entry)]

    def get_player_ids(self, entry: Entry) -> list[int]:
        return [p.pk for p in _people(entry)]


class BulkCreatedSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    entries = BulkEntrySerializer(many=True)


def _people(entry: Entry):
    return [entry.player] if entry.team is None else [entry.team.player_a, entry.team.player_b]


EXAMPLE = {
    "text": "Aces;Nikos Papas;Eleni Kosta\nBees;Maria Ioannou;Kostas Dimou",
    "choices": {"1": [12, None]},
    "dry_run": True,
}


class BulkActions:
    @extend_schema(
        summary="Enter many teams at once, from a pasted list or a CSV file",
        description="A list of teams (a line each: the team's name and its two players) or, in an "
        "individual event, of players. Each name is matched with the existing player records the "
        "organizer may see (the same name, case and spaces aside). With `dry_run` the answer is the "
        "preview, line by line (its matches, the record chosen, what is wrong) and nothing is saved. "
        "Without it every line is entered, numbered in order after the last entry, or none: a 400 "
        "whose `lines` says what is wrong, line by line. The organizer's only.",
        request={"application/json": BulkRequestSerializer, "multipart/form-data": BulkRequestSerializer},
        responses={200: BulkPreviewSerializer, 201: BulkCreatedSerializer},
        examples=[
            OpenApiExample("Two teams, the first one's first player picked", value=EXAMPLE, request_only=True)
        ],
        tags=["tournaments"],
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="entries/bulk",
        parser_classes=[JSONParser, MultiPartParser, FormParser],
    )
    def entries_bulk(self, request, slug=None):
        tournament = self._managed()
        data = BulkRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        upload = d.get("file")
        text = services.bulk_text_from_file(upload.read(MOST_BYTES + 1)) if upload else d.get("text", "")
        choices = d.get("choices") or {}
        if d["dry_run"]:
            preview = services.entries_bulk_preview(
                tournament=tournament, text=text, choices=choices, user=request.user
            )
            return Response(BulkPreviewSerializer(preview.as_dict()).data)
        try:
            entries = services.entries_bulk_create(
                tournament=tournament, text=text, choices=choices, user=request.user
            )
        except services.BulkRefused as refused:
            preview = refused.preview.as_dict()
            raise Problem(
                REFUSED, str(refused), code="refused", lines=preview["lines"], problems=preview["errors"]
            ) from None
        entries = Entry.objects.filter(pk__in=[e.pk for e in entries]).select_related(
            "player", "team__player_a", "team__player_b"
        )
        body = {
            "count": len(entries),
            "entries": BulkEntrySerializer(entries.order_by("number"), many=True).data,
        }
        return Response(body, status=status.HTTP_201_CREATED)
