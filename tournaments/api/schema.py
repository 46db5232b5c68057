"""The shapes of the tournament API's answers, as named components of the OpenAPI schema.

The standings (a row with its rank and every tie-break value), the play-offs at the cuts, the final
ranking, a round's clock and its tables: the views answer with the stored snapshot's dicts
(``services.refresh``) and ``clock.state``; these serializers say what those hold. The tie-break values
are read from ``standings.METRICS``: a new metric is in the schema at once.
"""

from __future__ import annotations

from rest_framework import serializers

from scoring.api_schema import pair, team_field
from scoring.models import Match

from .. import standings
from ..models import Entry, Tournament


class RoundClockSerializer(serializers.Serializer):
    """A timed round's clock (``clock.state``)."""

    round = serializers.IntegerField(help_text="The round's number")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When time is up (null: not running)")
    left = serializers.IntegerField(help_text="Seconds left, rounded up")
    state = serializers.ChoiceField(choices=["ready", "running", "paused", "over"])
    paused_left = serializers.IntegerField(
        allow_null=True, help_text="Seconds left while ready or paused (null: running or over)"
    )


class TableSideSerializer(serializers.Serializer):
    """One side of a table: an entry and its name; at an individual table, a partnership."""

    entry = serializers.IntegerField(help_text="The entry (an individual table: its first player's)")
    number = serializers.IntegerField(
        allow_null=True, help_text="The entry's number (an individual table: its first player's)"
    )
    team = serializers.CharField(help_text='The team\'s name; at an individual table "Nikos & Eleni"')
    entries = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="An individual table: both players' entries (left out at a team table)",
    )
    players = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="An individual table: both players' names (left out at a team table)",
    )


class TableMatchSerializer(serializers.Serializer):
    """A table's match, where it stands (GET /api/v1/matches/{id}/ has the rest)."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Match.Status.choices)
    winner = team_field("The winning side; null while in play, and for a draw", allow_null=True)
    totals = pair(serializers.IntegerField(), "Both sides' totals")


def _values_serializer() -> type[serializers.Serializer]:
    fields = {
        key: serializers.IntegerField(
            help_text=f"{metric.name} ({'fewer' if metric.ascending else 'more'} is better)"
        )
        for key, metric in standings.METRICS.items()
    }
    doc = (
        "Every tie-break's value for the team, whether the tournament's order uses it or not; "
        "head-to-head counts among the teams level on the metrics before it."
    )
    return type("TiebreakValuesSerializer", (serializers.Serializer,), {**fields, "__doc__": doc})


TiebreakValuesSerializer = _values_serializer()


class StandingsRowSerializer(serializers.Serializer):
    """A team's line of the standings: its rank, its record and every tie-break value."""

    entry = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True, required=False, help_text="The entry's number")
    rank = serializers.IntegerField(help_text="1-based; teams equal on every tie-break of the order share it")
    team = serializers.CharField(help_text="The team's name; in an individual event, the player's")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="The team's two players; in an individual event, the player"
    )
    withdrawn = serializers.BooleanField()
    played = serializers.IntegerField(help_text="Matches at the table (byes not included)")
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    values = TiebreakValuesSerializer()
    penalty = pair(
        serializers.IntegerField(),
        "The director's penalties, already taken from the values: [game points, match points]",
    )
    pool = serializers.CharField(required=False, help_text="Pools: the team's pool (left out otherwise)")


class PlayoffSerializer(serializers.Serializer):
    """Teams level across a cut: a play-off decides their order."""

    cut = serializers.IntegerField(help_text="The place of the cut")
    entries = serializers.ListField(child=serializers.IntegerField(), help_text="The level teams")
    pending = serializers.BooleanField()
    teams = serializers.ListField(child=serializers.CharField(), help_text="Their names")


class RankingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="1 … n, the order of the list")
    rank = serializers.IntegerField(help_text="Shared by teams the ranking cannot separate (3, 3)")
    entry = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True, required=False, help_text="The entry's number")
    team = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    withdrawn = serializers.BooleanField()
    reached = serializers.CharField(
        help_text="champion, final, third_place, fourth_place, semi_final, quarter_final, round_of_16 …, "
        "the same prefixed consolation_ in a consolation bracket, or stage (did not reach the knockout)"
    )
    stage_rank = serializers.IntegerField(allow_null=True, help_text="The team's rank in the stage")


class RankingSerializer(serializers.Serializer):
    final = serializers.BooleanField(help_text="True once the tournament is finished; until then provisional")
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    finished_at = serializers.DateTimeField(allow_null=True)
    finish_reason = serializers.CharField(help_text="Set when the organizer finished it early")
    finish_in_play = serializers.CharField(help_text="totals, left_out, or empty")
    version = serializers.IntegerField()
    rows = RankingRowSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    """The standings as last computed: the rows best first, the play-offs due at the cuts and the final
    ranking so far."""

    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(standings.METRICS)), help_text="The order of tie-breaks"
    )
    version = serializers.IntegerField(help_text="Raised by every recomputation (0: never computed)")
    computed_at = serializers.DateTimeField(allow_null=True)
    rows = StandingsRowSerializer(many=True)
    playoffs = PlayoffSerializer(many=True)
    ranking = RankingRowSerializer(many=True, help_text="The final ranking (GET …/ranking/), provisional")


class EntrySerializer(serializers.ModelSerializer):
    """An entry as ``GET …/entries/`` lists it (and the answers of its writes: ``api.py``,
    ``api_entries.py``)."""

    team = serializers.CharField(
        source="name", read_only=True, help_text="The team's name; in an individual event, the player's"
    )
    players = serializers.SerializerMethodField()
    player_id = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="An individual event's entry: its player's id (else null)"
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "number",
            "team",
            "players",
            "player_id",
            "status",
            "seed",
            "pool",
            "joined_round",
            "created_at",
            "withdrawn_at",
        ]

    def get_players(self, entry: Entry) -> list[str]:
        """The team's two players; an individual event's entry: its one player."""
        if entry.team is None:
            assert entry.player is not None  # entry_team_or_player: no team, so a player
            return [entry.player.name]
        return [entry.team.player_a.name, entry.team.player_b.name]
