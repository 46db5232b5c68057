"""The rate limits on the ways in: who is asking (address, username) and the limits themselves.

Logging in (the login page, the admin's login, the API's token endpoint) is limited per client
address and per username tried; the three share their counts, so trying passwords on one and then
the other gains nothing. A table's secret link counts failed look-ups only: a tablet that opens
its own link again and again is never slowed down, someone guessing links is. Creating an account
is limited per address, asking for a password reset per address and per e-mail address asked for
(whether an account has it or not: the limit tells nothing either), so that nobody's mailbox is
flooded from here.

The client address is REMOTE_ADDR, unless ``TSOXA_TRUSTED_PROXIES`` says how many proxies stand in
front (docs/deploy/index.md, "The proxy in front"): then it is the entry of X-Forwarded-For that
the outermost trusted proxy added, which the client cannot choose.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.http.request import RawPostDataException
from django_ratelimit.core import get_usage
from django_ratelimit.decorators import ratelimit
from django_ratelimit.exceptions import Ratelimited

LOGIN_RATE_PER_ADDRESS = "10/m"
LOGIN_RATE_PER_USERNAME = "10/m"
LINK_FAILURES_PER_ADDRESS = "30/m"
SIGNUP_RATE_PER_ADDRESS = "10/m"
RESET_RATE_PER_ADDRESS = "10/m"
RESET_RATE_PER_EMAIL = "3/15m"


def client_ip(request: HttpRequest) -> str:
    """The client's address (django-ratelimit's RATELIMIT_IP_META_KEY).

    With N trusted proxies, each proxy appends the address it was reached from to
    X-Forwarded-For: the N-th entry from the right is the client as the outermost proxy saw it;
    anything to its left was sent by the client and is ignored. A missing, short or malformed
    header (a request that did not come through the proxies) falls back to REMOTE_ADDR.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = getattr(settings, "TSOXA_TRUSTED_PROXIES", 0)
    if proxies <= 0:
        return remote
    entries = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(entries) < proxies:
        return remote
    candidate = entries[-proxies]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def username(group: str, request: HttpRequest) -> str:
    """The username tried, from a form or a JSON body (the API's token endpoint takes both).

    Case-folded, so that "Nikos" and "nikos" count as one.
    """
    if request.content_type != "application/json":
        return request.POST.get("username", "").strip().casefold()
    try:
        data = json.loads(request.body)
    except (ValueError, RecursionError, RawPostDataException):
        return ""  # the view answers 400 to a body it cannot read
    value = data.get("username") if isinstance(data, dict) else None
    return value.strip().casefold() if isinstance(value, str) else ""


def email(group: str, request: HttpRequest) -> str:
    """The e-mail address a password reset is asked for, case-folded ("Ana@X.org" is "ana@x.org")."""
    return request.POST.get("email", "").strip().casefold()


def login_limited(view: Callable) -> Callable:
    """Attempts to log in (POST), counted per address and per username across every way in."""
    per_username = ratelimit(
        group="tsoxa.login.username",
        key="web.ratelimits.username",
        rate=LOGIN_RATE_PER_USERNAME,
        method="POST",
    )
    per_address = ratelimit(group="tsoxa.login.address", key="ip", rate=LOGIN_RATE_PER_ADDRESS, method="POST")
    return per_address(per_username(view))


def signup_limited(view: Callable) -> Callable:
    """Attempts to create an account (POST), counted per address."""
    return ratelimit(group="tsoxa.signup", key="ip", rate=SIGNUP_RATE_PER_ADDRESS, method="POST")(view)


def reset_limited(view: Callable) -> Callable:
    """Password reset requests (POST), counted per address and per e-mail address asked for."""
    per_email = ratelimit(
        group="tsoxa.reset.email", key="web.ratelimits.email", rate=RESET_RATE_PER_EMAIL, method="POST"
    )
    per_address = ratelimit(group="tsoxa.reset.address", key="ip", rate=RESET_RATE_PER_ADDRESS, method="POST")
    return per_address(per_email(view))


def failed_lookups_limited(group: str, rate: str = LINK_FAILURES_PER_ADDRESS) -> Callable:
    """Only look-ups that find nothing (a 404) count; past the rate, every look-up from that
    address is refused (429) until the minute is over."""

    def decorator(view: Callable) -> Callable:
        def usage(request: HttpRequest, increment: bool) -> dict | None:
            return get_usage(request, group=group, key="ip", rate=rate, increment=increment)

        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            now = usage(request, increment=False)
            if now is not None and (now["should_limit"] or now["count"] >= now["limit"]):
                raise Ratelimited()
            try:
                response = view(request, *args, **kwargs)
            except Http404:
                usage(request, increment=True)
                raise
            if response.status_code == 404:
                usage(request, increment=True)
            return response

        return wrapped

    return decorator
