"""The tournaments API: Check-in: all at once, and each team's own link while check-in is open.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from .. import services
from ..checkin import checkin_state, checkin_url, slip_entries
from ..models import Entry, Tournament


class CheckinMissingSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The entry's id")
    number = serializers.IntegerField(allow_null=True, help_text="The entry's number")
    name = serializers.CharField(help_text="The team's (or the player's) name")


class CheckinLinkSerializer(CheckinMissingSerializer):
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    checkin_url = serializers.URLField(
        help_text="The team's own check-in link (a secret: print it, or its QR code, for that team only)"
    )


class CheckinSerializer(serializers.Serializer):
    open = serializers.BooleanField(help_text="Self check-in is open: each team's own link checks it in")
    checked_in = serializers.IntegerField(help_text="Entries checked in")
    registered = serializers.IntegerField(help_text="Entries that play (registered or checked in)")
    pending = serializers.IntegerField(help_text="Sign-ups awaiting the organizer's approval")
    withdrawn = serializers.IntegerField(help_text="Entries withdrawn")
    missing = CheckinMissingSerializer(many=True, help_text="Registered, not checked in yet, by number")
    entries = CheckinLinkSerializer(
        many=True, help_text="The entries that play, by number, each with its own check-in link"
    )


class CheckinAllSerializer(CheckinSerializer):
    checked_in_now = serializers.IntegerField(help_text="Entries this request checked in")


class CheckinOpenSerializer(serializers.Serializer):
    open = serializers.BooleanField(help_text="true: open self check-in; false: close it")


def _entry(entry: Entry) -> dict:
    return {"id": entry.pk, "number": entry.number, "name": entry.name}


def _state(request, tournament: Tournament) -> dict:
    state = checkin_state(tournament=tournament)
    return {
        "open": state.open,
        "checked_in": state.checked_in,
        "registered": state.registered,
        "pending": state.pending,
        "withdrawn": state.withdrawn,
        "missing": [_entry(e) for e in state.missing],
        "entries": [
            {**_entry(e), "status": e.status, "checkin_url": checkin_url(request, e)}
            for e in slip_entries(tournament)
        ],
    }


class CheckinActions:
    @extend_schema(
        methods=["GET"],
        summary="Who is checked in, who is missing, and each team's own check-in link",
        responses={200: CheckinSerializer},
        tags=["tournaments"],
    )
    @extend_schema(
        methods=["POST"],
        summary="Open or close self check-in (before the start)",
        request=CheckinOpenSerializer,
        responses={200: CheckinSerializer},
        tags=["tournaments"],
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def checkin(self, request, slug=None):
        """The organizer's check-in: the counts (``registered`` counts the entries that play, of which
        ``checked_in`` are checked in), the missing entries, whether self check-in is open, and each
        entry's own link. POST ``{"open": true}`` opens self check-in (``false`` closes it): while it
        is open and the tournament has not started, a team's link checks it in."""
        tournament = self._managed()
        if request.method == "POST":
            data = CheckinOpenSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            tournament = services.checkin_open_set(
                tournament=tournament, open=data.validated_data["open"], user=request.user
            )
        return Response(CheckinSerializer(_state(request, tournament)).data)

    @extend_schema(
        summary="Check in every registered entry at once",
        request=None,
        responses={200: CheckinAllSerializer},
        tags=["tournaments"],
    )
    @action(detail=True, methods=["post"], url_path="checkin/all")
    def checkin_all(self, request, slug=None):
        """Every registered entry checked in at once (not the sign-ups awaiting approval, nor the
        withdrawn), before the start; ``checked_in_now`` says how many this request checked in."""
        tournament = self._managed()
        n = services.checkin_all(tournament=tournament, user=request.user)
        return Response(CheckinAllSerializer({**_state(request, tournament), "checked_in_now": n}).data)
