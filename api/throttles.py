"""The API's request rates (DRF throttling), counted in the cache that every web process shares.

Each request counts in one bucket:

- a scoped token (``Authorization: Bearer tsx_…``): its own, at its scope's rate (``read``,
  ``score``; a ``full`` token at the account's rate, ``user``). Two tokens of one account count
  apart: a club's website reading does not slow its scorekeeping tablet down;
- the account's DRF token or a signed-in session: the account's (``user``);
- anything else: the client's address (``anon``), found as the login limits find it
  (``web.ratelimits.client_ip``, with ``TSOXA_TRUSTED_PROXIES``).

The rates are ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (``TSOXA_API_RATE_*`` in the environment).
A bucket counts in fixed windows of the rate's period (a minute for ``…/min``) with one atomic
``incr`` of the cache (Redis in production), so that every process sees one count and no request
rewrites a list of times. Past the rate: 429 with ``Retry-After``, the seconds until the window ends.

A request refused for its credentials (a wrong or revoked token, a bad ``Authorization`` header,
none where one is needed: 401) is refused before DRF asks the throttle; it counts all the same, in
its address's ``anon`` bucket (``refused_credentials_counted``, called by the API's exception
handler), so that guessing tokens is held to the anonymous rate. Past it, the answer is the 429.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.core.cache import cache
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from players.models import ApiToken
from web.ratelimits import client_ip

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
RATE_OF_SCOPE: dict[str, str] = {
    ApiToken.Scope.READ: "read",
    ApiToken.Scope.SCORE: "score",
    ApiToken.Scope.FULL: "user",
}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"600/min"`` → (600, 60): the number of requests and the period in seconds."""
    count, period = rate.split("/")
    return int(count), PERIODS[period.strip()[0]]


def bucket(request: Any) -> tuple[str, str]:
    """Who a request counts for, and the name of the rate that applies."""
    if isinstance(request.auth, ApiToken):
        return f"token:{request.auth.pk}", RATE_OF_SCOPE[request.auth.scope]
    if request.user and request.user.is_authenticated:
        return f"user:{request.user.pk}", "user"
    return f"anon:{client_ip(request)}", "anon"


class ApiRateThrottle(BaseThrottle):
    """One count per bucket and window; the request past the rate is refused until the window ends."""

    timer = staticmethod(time.time)

    def __init__(self) -> None:
        self.retry_after: float | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        who, rate_name = bucket(request)
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(rate_name)
        if not rate:
            return True
        limit, period = parse_rate(rate)  # type: ignore[arg-type]  # "600/min": the stubs say a number
        now = self.timer()
        window = math.floor(now / period)
        key = f"tsoxa.api.rate.{who}.{window}"
        request.tsoxa_rate_counted = True
        cache.add(key, 0, timeout=period + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between the two: this request starts the window's count again
            cache.set(key, 1, timeout=period + 1)
            count = 1
        if count <= limit:
            return True
        self.retry_after = max(1.0, (window + 1) * period - now)
        return False

    def wait(self) -> float | None:
        return self.retry_after


def refused_credentials_counted(request: Any, view: Any) -> Throttled | None:
    """Count a request whose credentials were refused (401) at its address's ``anon`` rate, unless
    the throttle already counted it; the 429 to answer instead when that rate is used up."""
    if getattr(request, "tsoxa_rate_counted", False):
        return None
    throttle = ApiRateThrottle()
    if throttle.allow_request(request, view):
        return None
    return Throttled(wait=throttle.wait())
