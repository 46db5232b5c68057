"""What a scoped API token may do (``players.ApiToken.scope``), on top of what its account may do.

- ``read``: safe methods only (GET, HEAD, OPTIONS): whatever the account may read.
- ``score``: reads, and the scorekeeper's writes: the actions a view names in its
  ``scorekeeping_actions`` (``scoring.api.MatchViewSet``: start a match, import one, record, correct
  and delete deals, finish a match). Any other write is refused (403), whatever the account may do.
- ``full``: whatever the account may do.

A scope never adds a right: the view's own permissions still ask about the account. The account's
DRF token (``Authorization: Token …``) and a signed-in session are not scoped: they may do all the
account may.

The check runs in ``api.authentication.ScopedTokenAuthentication``, as soon as a scoped key is
accepted, rather than as a default permission class: most viewsets name their own
``permission_classes``, which replace the defaults, so a default would be skipped on exactly the
views that write. Run on authentication, no view can accept a scoped key without the check.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from players.models import ApiToken

# The name of the view attribute that lists the actions a ``score`` token may write through.
SCOREKEEPING_ACTIONS = "scorekeeping_actions"


def scope_refusal(scope: str, *, method: str, view: Any) -> str | None:
    """Why a token of this scope may not make this request; none if it may (as far as the scope goes)."""
    if method in SAFE_METHODS or scope == ApiToken.Scope.FULL:
        return None
    action = getattr(view, "action", None)
    if scope == ApiToken.Scope.SCORE:
        if action is not None and action in getattr(view, SCOREKEEPING_ACTIONS, ()):
            return None
        return gettext(
            "This token's scope is “score”: it reads, and keeps matches (starts, imports and finishes "
            "them, records and corrects deals), nothing else."
        )
    return gettext("This token's scope is “read”: it only reads.")


class ManagesTokens(BasePermission):
    """Tokens are listed, made and revoked by a signed-in session, the account's own DRF token or a
    ``full`` token; a ``read`` or ``score`` token may not even list them."""

    message = _("Only a signed-in session, the account's token or a “full” token manages tokens.")

    def has_permission(self, request: Any, view: Any) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        return not isinstance(request.auth, ApiToken) or request.auth.scope == ApiToken.Scope.FULL
