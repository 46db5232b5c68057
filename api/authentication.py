"""Scoped API tokens on the wire: ``Authorization: Bearer tsx_…``.

The key (made on /account/tokens/ or by ``POST /api/v1/tokens/``, shown once) authenticates as its
account, with the token as ``request.auth``; then its scope is checked against the request
(``api.permissions``): a write its scope does not allow is a 403 that names the scope. An unknown
key (a revoked token is deleted), a malformed header or an inactive account is a 401.

The account's DRF token (``Authorization: Token <40 hex>``, from ``POST /api/v1/token/``) and the
session stay as they were, unscoped.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from api.permissions import scope_refusal
from players import tokens
from players.models import ApiToken

KEYWORD = "Bearer"


class ScopedTokenAuthentication(BaseAuthentication):
    """``Authorization: Bearer tsx_…``: a scoped token (``players.ApiToken``)."""

    def authenticate(self, request: Any) -> tuple[Any, ApiToken] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != KEYWORD.lower().encode():
            return None  # another scheme (Token, none): for the other classes
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(
                gettext("Invalid token header: “Bearer” and the key, one space apart.")
            )
        try:
            key = words[1].decode("ascii")
        except UnicodeDecodeError:
            key = ""
        token = tokens.token_find(key=key) if key else None
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(gettext("Invalid or revoked token."))
        tokens.token_used(token=token)
        view = (getattr(request, "parser_context", None) or {}).get("view")
        refusal = scope_refusal(token.scope, method=request.method, view=view)
        if refusal is not None:
            raise exceptions.PermissionDenied(refusal)
        return token.user, token

    def authenticate_header(self, request: Any) -> str:
        return f'{KEYWORD} realm="api"'


class ScopedTokenScheme(OpenApiAuthenticationExtension):
    """The schema's ``securitySchemes`` entry for the scoped tokens."""

    target_class = ScopedTokenAuthentication
    name = "scopedToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "tsx_…",
            "description": (
                "A scoped token, made on /account/tokens/ or with POST /api/v1/tokens/ (its key is shown "
                "once). Scope `read`: GET only; `score`: reads, and keeping matches (create, import, "
                "deals, finish); `full`: what the account may do. The account's own rights still apply."
            ),
        }
