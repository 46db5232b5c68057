"""The opt-in's endpoints: a browser's push subscription posted from the personal page (push.js),
and an address for the same words by e-mail (a plain form). Both are rate-limited per client
address; a refusal is a 422 with the reason in words, nothing saved."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.decorators import ratelimit

from . import services

SUBSCRIBE_RATE = "20/m"  # subscriptions (and unsubscriptions) per client address
EMAIL_RATE = "5/h"  # addresses given per client address
BODY_MAX = 8 * 1024


def _refused(message: str, status: int = 422) -> JsonResponse:
    return JsonResponse({"ok": False, "error": message}, status=status)


@require_http_methods(["POST", "DELETE"])
@ratelimit(group="tsoxa.push", key="ip", rate=SUBSCRIBE_RATE, method=["POST", "DELETE"], block=True)
def subscribe(request: HttpRequest) -> HttpResponse:
    """POST ``{token, subscription: {endpoint, keys: {p256dh, auth}}}``: follow the token's entry.
    DELETE ``{endpoint}`` (or the same body): stop. JSON in, JSON out; CSRF as every fetch post."""
    if len(request.body) > BODY_MAX:
        return _refused(gettext("The browser's subscription is too long."), 413)
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        return _refused(gettext("The browser's subscription is missing."), 400)
    if not isinstance(data, dict):
        return _refused(gettext("The browser's subscription is missing."), 400)
    if request.method == "DELETE":
        endpoint = data.get("endpoint") or (data.get("subscription") or {}).get("endpoint") or ""
        deleted = services.subscription_delete(endpoint=str(endpoint))
        return JsonResponse({"ok": True, "deleted": deleted})
    try:
        services.subscription_save(
            token=data.get("token") or "", subscription=data.get("subscription"), language=get_language()
        )
    except services.Refused as refused:
        return _refused(str(refused))
    return JsonResponse({"ok": True}, status=201)


@require_POST
@ratelimit(group="tsoxa.push.email", key="ip", rate=EMAIL_RATE, method="POST", block=True)
def email(request: HttpRequest) -> HttpResponse:
    """A form's post: ``token``, ``email`` (and ``next``, the page to go back to)."""
    from django.contrib import messages

    try:
        services.email_follow_save(
            token=request.POST.get("token", ""), email=request.POST.get("email", ""), language=get_language()
        )
    except services.Refused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, gettext("You will get the same words by e-mail."))
    back = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = "/"
    return redirect(back)
