"""The account's API tokens page (/account/tokens/): make a scoped token, see its key once, revoke.

A new token's key is in the answer to the form's POST only (never stored, not even in the session,
and that answer is not cached): reloading the page does not show it again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from players import tokens
from players.errors import PlayerError
from players.models import ApiToken

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # django-stubs' (dev only): str or a lazy translation

# Each scope on the page: its value, its name and what a token of it may do.
SCOPES = [
    (
        ApiToken.Scope.READ,
        _("Read"),
        _("Reads what your account may see, nothing more: for a club's website showing standings."),
    ),
    (
        ApiToken.Scope.SCORE,
        _("Score"),
        _(
            "Reads, and keeps the matches your account keeps: starts or imports a match, records, corrects "
            "and deletes deals, finishes a match. No tournament, club or account changes."
        ),
    ),
    (
        ApiToken.Scope.FULL,
        _("Full"),
        _("Whatever your account may do through the API, making and revoking tokens included."),
    ),
]
SCOPE_NAMES: dict[str, StrOrPromise] = {value: name for value, name, _line in SCOPES}


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=tokens.NAME_MAX_LENGTH,
        label=_("Name"),
        help_text=_("What it is for, e.g. the club's website"),
    )
    scope = forms.ChoiceField(
        choices=[(value, name) for value, name, _line in SCOPES],
        initial=ApiToken.Scope.READ,
        label=_("What it may do"),
        widget=forms.RadioSelect,
    )


def _page(
    request: HttpRequest, form: TokenForm, *, made: tuple | None = None, status: int = 200
) -> HttpResponse:
    listed = [(token, SCOPE_NAMES.get(token.scope, token.scope)) for token in tokens.tokens_of(request.user)]
    context = {"form": form, "scopes": SCOPES, "tokens": listed, "made": made}
    return render(request, "league/tokens.html", context, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def token_list(request: HttpRequest) -> HttpResponse:
    """The account's tokens, and the form that makes one; the new key is shown in the answer to it."""
    if request.method != "POST":
        return _page(request, TokenForm())
    form = TokenForm(request.POST)
    if form.is_valid():
        try:
            made = tokens.token_create(user=request.user, **form.cleaned_data)
        except PlayerError as refusal:
            form.add_error(refusal.field if refusal.field in form.fields else None, refusal.message)
        else:
            return _page(request, TokenForm(), made=made)
    return _page(request, form, status=422)


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the account's own tokens (another account's is not found)."""
    token = get_object_or_404(tokens.tokens_of(request.user), pk=pk)
    name = token.name
    tokens.token_revoke(token=token)
    messages.success(request, gettext("Token “%(name)s” revoked: its key no longer works.") % {"name": name})
    return redirect("league:tokens")
