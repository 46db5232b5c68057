"""The account's scoped API tokens, through the API: list, make (the key answered once), revoke.

Managed by a signed-in session, the account's own DRF token or a ``full`` scoped token
(``api.permissions.ManagesTokens``); each account sees and revokes only its own tokens.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.response import Response

from api.permissions import ManagesTokens
from players import tokens
from players.models import ApiToken


class TokenSerializer(serializers.ModelSerializer):
    scope = serializers.ChoiceField(choices=ApiToken.Scope.choices, help_text="read, score or full")
    prefix = serializers.CharField(help_text="The key's first characters, to tell tokens apart")

    class Meta:
        model = ApiToken
        fields = ["id", "name", "scope", "prefix", "created_at", "last_used_at"]


class TokenCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=tokens.NAME_MAX_LENGTH, help_text="What it is for")
    scope = serializers.ChoiceField(
        choices=ApiToken.Scope.choices,
        help_text="`read`: GET only; `score`: reads, and keeping matches; `full`: what the account may do",
    )


class TokenCreatedSerializer(TokenSerializer):
    key = serializers.CharField(
        help_text="The key, for `Authorization: Bearer <key>`. Shown this once: only its hash is kept"
    )

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "key"]


TOKEN_EXAMPLE = OpenApiExample(
    "The club's website", value={"name": "Club website", "scope": "read"}, request_only=True
)


@extend_schema(tags=["tokens"])
@extend_schema_view(
    list=extend_schema(description="The account's scoped tokens, newest first (never their keys)."),
    destroy=extend_schema(description="Revoke the token: its key is refused (401) from the next request."),
)
class TokenViewSet(mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """The account's scoped tokens (``Authorization: Bearer tsx_…``)."""

    permission_classes = [ManagesTokens]
    serializer_class = TokenSerializer
    filter_backends: list = []
    lookup_value_regex = r"[0-9]{1,18}"

    def get_queryset(self):
        return tokens.tokens_of(self.request.user)

    @extend_schema(
        request=TokenCreateSerializer,
        responses={201: TokenCreatedSerializer},
        examples=[TOKEN_EXAMPLE],
        description="Make a token. The answer holds its `key`, shown this once: keep it, it cannot be "
        "read again (only its hash is stored). At most 50 tokens an account.",
    )
    def create(self, request):
        data = TokenCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token, key = tokens.token_create(user=request.user, **data.validated_data)
        # The key is no attribute of the token (it is not stored): it joins the answer here, once.
        # Kept by no cache, like the page's (/account/tokens/): the key is shown this once.
        return Response(
            {**TokenSerializer(token).data, "key": key},
            status=status.HTTP_201_CREATED,
            headers={"Cache-Control": "no-store"},
        )

    def perform_destroy(self, instance: ApiToken) -> None:
        tokens.token_revoke(token=instance)
