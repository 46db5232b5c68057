"""Who a player is, through the API: a claim by an account, a merge of two records, its split. The
actions are on ``league.api.players.PlayerViewSet``; these are their bodies, answers and examples.

An absorbed record's id still answers (``GET /players/{id}/``, its history, its rating): as the
person it was merged into, whose ``id`` the answer gives. The lists show people (roots) only."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema_field
from rest_framework import serializers

from players.identity_services import MESSAGE_MOST
from players.models import PlayerClaim, PlayerMerge

ID_MOST = 2**31 - 1  # a larger id is no record's (and would overflow the database's integer)


class ClaimRequestSerializer(serializers.Serializer):
    message = serializers.CharField(
        max_length=MESSAGE_MOST,
        required=False,
        allow_blank=True,
        default="",
        help_text="How the club can tell it is you",
    )


class ClaimSerializer(serializers.ModelSerializer):
    class Meta:
        model = PlayerClaim
        fields = ["id", "player", "status", "message", "created_at"]


class MergeRequestSerializer(serializers.Serializer):
    absorbed = serializers.IntegerField(
        min_value=1, max_value=ID_MOST, help_text="The other record's id: it becomes this player's"
    )
    reason = serializers.CharField(max_length=MESSAGE_MOST, required=False, allow_blank=True, default="")


class SplitRequestSerializer(serializers.Serializer):
    merge = serializers.IntegerField(min_value=1, max_value=ID_MOST, help_text="The merge's id, to undo")


class MergeSerializer(serializers.ModelSerializer):
    absorbed_name = serializers.CharField(source="absorbed.name", read_only=True)
    records = serializers.SerializerMethodField(
        help_text="The records the merge moved to the survivor (those this account may see)"
    )

    class Meta:
        model = PlayerMerge
        fields = ["id", "survivor", "absorbed", "absorbed_name", "records", "reason", "at", "undone_at"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_records(self, merge: PlayerMerge) -> list[int]:
        ids = [int(pk) for pk in merge.records]
        seen = self.context.get("seen")
        return ids if seen is None else [pk for pk in ids if pk in seen]


CLAIM_EXAMPLE = OpenApiExample(
    "This is me", value={"message": "Kafeneio club, I play with Eleni"}, request_only=True
)
MERGE_EXAMPLE = OpenApiExample(
    "The same person, typed twice", value={"absorbed": 2, "reason": "Typed twice"}, request_only=True
)
SPLIT_EXAMPLE = OpenApiExample("Undo a merge", value={"merge": 1}, request_only=True)
