"""The cache's Redis, failing open: a Redis that is down or slow is a miss, never an error page.

Everything kept in the cache can be done without: the rate limits' counts (``api/throttles.py``,
``web/ratelimits.py``), the standings pages and their coalescing flag
(``tournaments/selectors.py``, ``tournaments/services/queue.py``), the embeds' rendered pages
(``tournaments/embed.py``). So when ``CACHE_URL``'s Redis cannot be reached, every operation of
this backend answers as if the key were not there: ``get`` its default; ``add`` True, as for a
key nobody holds (so that a flag that coalesces work, the standings' or the ratings' queue, lets
the work be queued rather than dropped; a count starts again from nothing); ``set`` and ``delete``
False; ``incr`` the ``ValueError`` of a missing key (the callers then start a new count, so no limit
is reached). No Redis error reaches the callers. A warning goes to the log, at most one every
``WARN_EVERY`` seconds per process, so that an outage does not flood it.

Connecting and each answer wait ``TIMEOUT_SECONDS`` at most (unless ``CACHE_URL`` sets
``socket_connect_timeout`` or ``socket_timeout``), and after a failure Redis is not asked again
for ``RETRY_SECONDS`` (every operation meanwhile is a miss at once): a Redis that does not answer
costs one request of a process a quarter of a second every few seconds, not every request.

``config/settings/base.py`` uses it for every ``redis://`` (or ``rediss://``) ``CACHE_URL``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 0.25
RETRY_SECONDS = 5.0  # after a failure, Redis is not asked again for this long: each answer is a miss
WARN_EVERY = 60.0  # seconds between two warnings of one process while the cache stays down
# Refused, timed out, or answered by something that is not a working Redis (a full one, a proxy).
UNREACHABLE = (RedisError, OSError)


@dataclass
class Outage:
    """What a process knows of one Redis being down (Django gives each thread its own backend, so
    this is kept per process and Redis address: one warning a minute per process, not per thread)."""

    down_until: float = 0.0
    warned_at: float | None = None


OUTAGES: dict[str, Outage] = {}


def reset() -> None:
    """Forget every outage: the next operation asks Redis again (and warns again if it fails)."""
    OUTAGES.clear()


def _answer(miss: Any, error: Exception | None) -> Any:
    """The miss an operation answers: a value, or an exception raised (``incr``'s missing key)."""
    if isinstance(miss, BaseException):
        raise miss from error
    return miss


class FailOpenRedisCache(RedisCache):
    """Django's RedisCache whose operations answer as a miss when Redis cannot be reached."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = {"socket_connect_timeout": TIMEOUT_SECONDS, "socket_timeout": TIMEOUT_SECONDS}
        params = {**params, "OPTIONS": {**options, **params.get("OPTIONS", {})}}
        super().__init__(server, params)
        servers = self._servers  # type: ignore[attr-defined]  # RedisCache's own, not in the stubs
        self._where = ",".join(servers) if isinstance(servers, list) else str(servers)

    def _unreachable(self, operation: str, error: Exception) -> None:
        now = time.monotonic()
        outage = OUTAGES.setdefault(self._where, Outage())
        outage.down_until = now + RETRY_SECONDS
        if outage.warned_at is not None and now - outage.warned_at < WARN_EVERY:
            return
        outage.warned_at = now
        logger.warning(
            "cache: Redis unreachable (%s: %s); answering as a miss, rate limits and cached pages are "
            "off until it is back (asked again every %d s; this warning at most every %d s)",
            operation,
            error,
            RETRY_SECONDS,
            WARN_EVERY,
        )

    def _open(self, operation: str, miss: Any, call: Callable[..., Any], *args: Any) -> Any:
        outage = OUTAGES.get(self._where)
        if outage is not None and time.monotonic() < outage.down_until:
            return _answer(miss, None)  # down a moment ago: not asked again yet
        try:
            result = call(*args)
        except UNREACHABLE as error:
            self._unreachable(operation, error)
            return _answer(miss, error)
        if outage is not None:
            OUTAGES.pop(self._where, None)
            logger.info("cache: Redis answers again")
        return result

    def ping(self) -> None:
        """Ask Redis itself, not failing open: raises when it does not answer (``/health/``)."""
        self._cache.get_client(None, write=True).ping()

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._open("add", True, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._open("get", default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._open("set", False, super().set, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._open("touch", False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._open("delete", False, super().delete, key, version)

    def get_many(self, keys, version=None):
        return self._open("get_many", {}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._open("has_key", False, super().has_key, key, version)

    def incr(self, key, delta=1, version=None):
        missing = ValueError(f"Key {key!r} not found (the cache is unreachable).")
        return self._open("incr", missing, super().incr, key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._open("set_many", list(data), super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._open("delete_many", None, super().delete_many, keys, version)

    def clear(self):
        return self._open("clear", False, super().clear)
