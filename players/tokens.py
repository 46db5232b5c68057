"""Scoped API tokens: made, found from their key, revoked.

A key is ``tsx_`` and 43 characters of ``secrets.token_urlsafe(32)`` (256 random bits). Only its
SHA-256 is stored (``ApiToken.key_hash``) with its first 12 characters (``prefix``) to tell tokens
apart on the page: the key itself is shown once, when it is made, and can never be shown again. A
token is found by the hash of the key presented, so the lookup walks no secret; the stored hash is
compared once more in constant time. Revoking deletes the row: the key is unknown from then on.

``last_used_at`` is written at most once a minute per token (``LAST_USED_EVERY``): reading through a
token costs no write on every request.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from .errors import PlayerError
from .models import ApiToken

KEY_PREFIX = "tsx_"
KEY_BYTES = 32
PREFIX_LENGTH = 12  # "tsx_" and 8 characters of the random part
KEY_MAX_LENGTH = 100  # anything longer is no key of ours: not even hashed
LAST_USED_EVERY = timedelta(minutes=1)
TOKENS_PER_ACCOUNT = 50
NAME_MAX_LENGTH = 80


def key_hash(key: str) -> str:
    """The SHA-256 of a key, in hex: what is stored and looked up."""
    return hashlib.sha256(key.encode()).hexdigest()


def tokens_of(user: Any) -> QuerySet[ApiToken]:
    """The account's scoped tokens, newest first."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


@transaction.atomic
def token_create(*, user: Any, name: str, scope: str) -> tuple[ApiToken, str]:
    """A new token for the account: the token and its key, which the caller shows once (it is not
    stored and cannot be found again)."""
    name = " ".join(name.split())
    if not name:
        raise PlayerError(gettext("A token needs a name: what is it for?"), field="name")
    if not name.isprintable():
        raise PlayerError(
            gettext("%(field)s: no control characters.") % {"field": gettext("Name")}, field="name"
        )
    if len(name) > NAME_MAX_LENGTH:
        raise PlayerError(
            gettext("%(field)s: at most %(most)s characters.")
            % {"field": gettext("Name"), "most": NAME_MAX_LENGTH},
            field="name",
        )
    if scope not in ApiToken.Scope.values:
        raise PlayerError(gettext("Choose what the token may do: read, score or full."), field="scope")
    # The account's row, locked: two tokens made at once are counted one after the other.
    get_user_model().objects.select_for_update().values_list("pk", flat=True).get(pk=user.pk)
    if ApiToken.objects.filter(user=user).count() >= TOKENS_PER_ACCOUNT:
        raise PlayerError(
            gettext("An account holds at most %(most)s tokens: revoke one it no longer uses.")
            % {"most": TOKENS_PER_ACCOUNT},
            field="name",
        )
    key = KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)
    token = ApiToken.objects.create(
        user=user, name=name, scope=scope, prefix=key[:PREFIX_LENGTH], key_hash=key_hash(key)
    )
    return token, key


def token_revoke(*, token: ApiToken) -> None:
    """The token is deleted: its key is refused (401) from the next request on."""
    token.delete()


def token_find(*, key: str) -> ApiToken | None:
    """The token of this key, with its account; none for a key of another shape or unknown (revoked)."""
    if not key.startswith(KEY_PREFIX) or len(key) > KEY_MAX_LENGTH or not key.isascii():
        return None
    digest = key_hash(key)
    token = ApiToken.objects.select_related("user").filter(key_hash=digest).first()
    if token is None or not hmac.compare_digest(token.key_hash, digest):
        return None
    return token


def token_used(*, token: ApiToken, now: Any = None) -> None:
    """Note that the token was used now, unless that was noted less than a minute ago. The update
    asks the same of the row, so that requests at once through one token write it once."""
    now = now or timezone.now()
    since = now - LAST_USED_EVERY
    if token.last_used_at is not None and token.last_used_at > since:
        return
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lte=since)
    ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now)
    token.last_used_at = now
