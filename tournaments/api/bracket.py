"""The tournaments API: A knockout's bracket, its rounds named.

Its actions join ``TournamentViewSet`` (viewset.py) as a mixin: the paths stay under
/api/v1/tournaments/{slug}/, with the viewset's permission and ``_managed()``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response

from ..bracket import bracket_state

# The choice set by name (settings' ENUM_NAME_OVERRIDES names its schema enum after it).
SLOT_STATES = ["empty", "drawn", "playing", "finished", "bye"]
RESULT_KINDS = ["deals", "paper", "forfeit", "award", "bye"]


class BracketSideSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="The entry's id")
    name = serializers.CharField(help_text="The team's (or the player's) name")
    number = serializers.IntegerField(allow_null=True, help_text="The entry's number")
    seed = serializers.IntegerField(allow_null=True, help_text="Its seed in the knockout (none for pools)")


class BracketMatchSerializer(serializers.Serializer):
    table = serializers.IntegerField(allow_null=True, help_text="The table's number; null: not drawn yet")
    round = serializers.IntegerField(allow_null=True, help_text="The round's number; null: not drawn yet")
    sides = serializers.ListField(
        child=BracketSideSerializer(allow_null=True),
        help_text="The two sides (null: not known yet, or the empty side of a bye); a slot not drawn yet "
        "holds the winners already known of the two matches that feed it",
    )
    score = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="A result's score, side 0 first: the deals' final totals (also while a finished match "
        "waits for its confirmation), a decision's or a paper result's scores; null for a match not "
        "begun or still in play (see running)",
    )
    winner = serializers.IntegerField(allow_null=True, help_text="The side (0 or 1) that went through")
    state = serializers.ChoiceField(
        choices=SLOT_STATES,
        help_text="empty: not drawn yet; drawn: its round not started; playing; finished; bye",
    )
    paper = serializers.BooleanField(help_text="The result was typed from the table's paper sheet")
    decided = serializers.BooleanField(help_text="The director decided the result (a forfeit, an award)")
    result_kind = serializers.ChoiceField(
        choices=RESULT_KINDS,
        allow_null=True,
        help_text="What gave the result: deals (played out), paper (the paper sheet), forfeit, award (the "
        "director's decision), bye; null while there is none",
    )
    running = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="A match in play: its running totals after the deals recorded, side 0 first (as the big "
        "screen's pairings); null before its first deal and once it has a result",
    )
    deal = serializers.IntegerField(
        allow_null=True, help_text="A match in play over a set number of deals: the deal being played"
    )
    deals = serializers.IntegerField(allow_null=True, help_text="…and the number of deals it is played over")
    target = serializers.IntegerField(
        allow_null=True, help_text="A match in play to a target (no set number of deals): the target"
    )
    note = serializers.CharField(
        allow_blank=True,
        help_text="The line the bracket writes under the match, in the request's language: \"Deal 7 of 12 · "
        '532–410", "532–410 of 1000", "playing", "Forfeit", "Match awarded", "From the paper sheet", '
        '"Waiting for confirmation"; empty otherwise',
    )


class BracketColumnSerializer(serializers.Serializer):
    name = serializers.CharField(help_text='The round\'s name: "Round of 16", "Quarter-finals", "Final" …')
    teams = serializers.IntegerField(help_text="The places in this round")
    matches = BracketMatchSerializer(many=True, help_text="Its matches, top to bottom of the bracket")


class ConsolationSerializer(serializers.Serializer):
    places = serializers.IntegerField()
    columns = BracketColumnSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    places = serializers.IntegerField(help_text="The bracket's places: a power of two (byes fill the rest)")
    size = serializers.IntegerField(help_text="The teams the knockout takes (Tournament.knockout_size)")
    columns = BracketColumnSerializer(many=True, help_text="The rounds, first to the final")
    third_place = BracketMatchSerializer(allow_null=True, help_text="The match for third place, if played")
    consolation = ConsolationSerializer(allow_null=True, help_text="The consolation bracket, if any")
    champion = BracketSideSerializer(allow_null=True, help_text="The final's winner, once known")


class BracketActions:
    @extend_schema(
        summary="The knockout's bracket",
        responses={200: BracketSerializer},
        tags=["tournaments"],
        description="The knockout as a bracket, public as the standings are: its rounds as columns named "
        "by their size, every match with its teams (number, seed), result (score, winner, what gave it) "
        "and state, a match in play with its running score and deal (as the big screen's pairings); "
        "rounds not drawn yet as empty slots, so the bracket's whole shape is there from the start. A "
        "tournament without a knockout has an empty bracket (no columns, 0 places).",
    )
    @action(detail=True, methods=["get"], url_path="bracket")
    def bracket(self, request, slug=None):
        tournament = self.get_object()
        state = bracket_state(tournament=tournament) or {
            "places": 0, "size": 0, "columns": [], "third_place": None, "consolation": None, "champion": None,
        }  # fmt: skip
        return Response(BracketSerializer(state).data)
