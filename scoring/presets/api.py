"""Presets through the API: every preset for everyone (built-in ones and the organizers'), a copy with
changes made by a signed-in account, changed or deleted by its owner. Refusals are the engine's
(400 with ``detail`` and ``field``, api/errors.py)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from .. import presets
from ..api_schema import OptionsInputField, options_field
from ..models import RULESET_KEYS, RulePreset
from ..permissions import can_write

# Request examples: the docs show them, and the schema-driven test run sends them (scoring/api.py).
CREATE_EXAMPLES = [
    OpenApiExample(
        "A club's coinche, copied from the federation's",
        value={
            "based_on": "FFB 2016",
            "name": "Kafeneio coinche 162",
            "options": {"base": 162, "rounding": "none"},
            "about": "Our Friday nights: failed contracts give 162, nothing rounded.",
        },
        request_only=True,
    ),
    OpenApiExample(
        "A timed Pilotta, from the game's usual rules",
        value={
            "based_on": "pilotta",
            "name": "Pilotta 251 in 45 minutes",
            "options": {"target": 251},
            "time_limit": 45,
        },
        request_only=True,
    ),
]
UPDATE_EXAMPLES = [
    OpenApiExample("Sans-atout and tout-atout too", value={"options": {"sa_ta": True}}, request_only=True),
]


class PresetSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="What a match, a tournament and a match file call it")
    slug = serializers.CharField()
    ruleset = serializers.ChoiceField(choices=RULESET_KEYS)
    options = options_field(help_text="Every option of the rule set, spelt out (FORMAT.md)")
    time_limit = serializers.IntegerField(
        allow_null=True, help_text="Minutes a timed match or round; null: untimed"
    )
    about = serializers.CharField()
    based_on = serializers.CharField(help_text="The preset it was copied from (empty: a game's usual rules)")
    built_in = serializers.BooleanField(help_text="Every site has it; it cannot be changed, only copied")
    owner = serializers.SerializerMethodField(help_text="The account that made it (null: built in)")

    def get_owner(self, preset: presets.Preset) -> str | None:
        return preset.owner.username if preset.owner is not None else None


def preset_data(preset: presets.Preset) -> dict[str, Any]:
    data = PresetSerializer(preset).data
    return {**data, "about": str(preset.about), "options": dict(preset.options)}


class PresetWriteSerializer(serializers.Serializer):
    based_on = serializers.CharField(
        max_length=presets.NAME_MAX,
        required=False,
        help_text="What it copies: a preset (its name or slug) or a game's usual rules (its key, e.g. "
        "coinche). Needed to make one; fixed afterwards",
    )
    name = serializers.CharField(
        max_length=presets.NAME_MAX,
        required=False,
        help_text="Unique among every preset, whatever the case. Needed to make one; kept afterwards",
    )
    options = OptionsInputField(
        required=False,
        default=dict,
        help_text="Changes over the copied preset's options (or over its own, to change it)",
    )
    about = serializers.CharField(max_length=presets.ABOUT_MAX, required=False, allow_blank=True)
    time_limit = serializers.IntegerField(
        min_value=0,
        max_value=presets.TIME_LIMIT_MAX,
        required=False,
        allow_null=True,
        help_text="Minutes a match or round (null or 0: untimed); left out: the copied preset's",
    )


class SignedInOrReadOnly(permissions.BasePermission):
    message = "Only a signed-in account that may write makes presets; only a preset's owner changes it."

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or can_write(request.user)


SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The preset's slug")


@extend_schema(tags=["presets"])
class PresetViewSet(viewsets.GenericViewSet):
    """Named rule presets: built-in ones, then the organizers', by game and name. Every preset is public."""

    permission_classes = [SignedInOrReadOnly]
    lookup_field = "slug"
    lookup_value_regex = "[^/]+"
    serializer_class = PresetSerializer
    queryset = RulePreset.objects.none()  # the schema's; the presets are read through scoring.presets
    filter_backends: list = []

    def _found(self, slug: str) -> presets.Preset:
        preset = presets.preset_get(slug)
        if preset is None or preset.slug != slug:
            raise NotFound("No such preset.")
        return preset

    def _owned(self, slug: str) -> presets.Preset:
        preset = self._found(slug)
        if not preset.may_change(self.request.user):
            raise PermissionDenied("Only the preset's owner may change it (a built-in one is only copied).")
        return preset

    @extend_schema(
        parameters=[
            OpenApiParameter("ruleset", str, enum=RULESET_KEYS, description="One game's presets only")
        ],
        responses={200: PresetSerializer(many=True)},
    )
    def list(self, request):
        ruleset = request.query_params.get("ruleset")
        found = presets.preset_list(ruleset=ruleset if ruleset in RULESET_KEYS else None)
        page = self.paginate_queryset(found)  # a list, paginated as the other lists are
        if page is not None:
            return self.get_paginated_response([preset_data(p) for p in page])
        return Response([preset_data(p) for p in found])

    @extend_schema(parameters=[SLUG], responses={200: PresetSerializer})
    def retrieve(self, request, slug=None):
        return Response(preset_data(self._found(slug)))

    @extend_schema(request=PresetWriteSerializer, responses={201: PresetSerializer}, examples=CREATE_EXAMPLES)
    def create(self, request):
        """A copy with changes of a preset (or of a game's usual rules), named."""
        data = PresetWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        missing = [key for key in ("based_on", "name") if not d.get(key)]
        if missing:
            raise serializers.ValidationError({key: ["This field is required."] for key in missing})
        preset = presets.preset_create(
            owner=request.user,
            base=d["based_on"],
            name=d["name"],
            changes=d["options"],
            about=d.get("about", ""),
            time_limit=d.get("time_limit", presets.INHERIT),
        )
        return Response(preset_data(preset), status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[SLUG],
        request=PresetWriteSerializer,
        responses={200: PresetSerializer},
        examples=UPDATE_EXAMPLES,
    )
    def partial_update(self, request, slug=None):
        """Change its options (changes over its own), description or time limit; its name and game stay."""
        preset = self._owned(slug)
        data = PresetWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        if "based_on" in d and d["based_on"] != preset.based_on:
            raise serializers.ValidationError({"based_on": ["A preset stays a copy of what it copied."]})
        preset = presets.preset_update(
            preset=preset,
            user=request.user,
            changes=d.get("options"),
            about=d.get("about"),
            time_limit=d.get("time_limit", presets.INHERIT),
            name=d.get("name"),
        )
        return Response(preset_data(preset))

    @extend_schema(parameters=[SLUG], responses={204: None})
    def destroy(self, request, slug=None):
        """Delete it: the matches and tournaments played under it keep its name and their rules."""
        presets.preset_delete(preset=self._owned(slug), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
