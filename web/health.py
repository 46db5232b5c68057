"""What ``/health/`` checks: the database, the cache and the broker, each apart, each quickly.

Each check answers ``{"status": …, "ms": …}`` and, when it failed, ``"error"``: the exception's
class only (the page is public; its message could name a host or a port). The site serves
without its cache (``web/cache.py``: a miss, the rate limits off) and without its broker (a deal
is stored; the standings catch up later), but not without its database: so the whole is
``"down"`` (503) when the database is, ``"degraded"`` (200) when only the cache or the broker is,
``"ok"`` (200) otherwise. A broker that is not configured (Celery eager: the tasks run in the web
process) is ``"eager"``, and counts as ok.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import connection

TIMEOUT_SECONDS = 0.5  # the most the broker's check waits to connect or for an answer
OK, DOWN, DEGRADED, EAGER = "ok", "down", "degraded", "eager"


def _timed(probe: Callable[[], str | None]) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        status = probe() or OK
    except Exception as error:  # whatever it is, the dependency is not usable
        result: dict[str, Any] = {"status": DOWN, "error": type(error).__name__}
    else:
        result = {"status": status}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def cache() -> None:
    """The default cache answers: its Redis pinged itself (a fail-open cache never raises), or a
    value written and read back (a process's own memory, a laptop)."""
    backend = caches["default"]
    ping = getattr(backend, "ping", None)
    if ping is not None:
        ping()  # within the cache's own timeouts (0.25 s)
        return
    backend.set("tsoxa:health", 1, timeout=10)
    if backend.get("tsoxa:health") != 1:
        raise RuntimeError("the cache did not keep a value")


def broker() -> str | None:
    """A connection to the broker opened (and closed), or ``"eager"`` without one."""
    if settings.CELERY_TASK_ALWAYS_EAGER or not settings.CELERY_BROKER_URL:
        return EAGER
    from kombu import Connection

    options = {"socket_timeout": TIMEOUT_SECONDS, "socket_connect_timeout": TIMEOUT_SECONDS, "max_retries": 0}
    with Connection(
        settings.CELERY_BROKER_URL, connect_timeout=TIMEOUT_SECONDS, transport_options=options
    ) as conn:
        conn.ensure_connection(
            max_retries=1,
            interval_start=0,
            interval_step=0,
            timeout=TIMEOUT_SECONDS,  # type: ignore[arg-type]  # kombu takes a float (the stubs: int)
        )
    return None


CHECKS: dict[str, Callable[[], str | None]] = {"database": database, "cache": cache, "broker": broker}


def report() -> tuple[dict[str, Any], int]:
    """The body of ``/health/`` and its HTTP status."""
    checks = {name: _timed(probe) for name, probe in CHECKS.items()}
    if checks["database"]["status"] == DOWN:
        status, code = DOWN, 503
    elif any(check["status"] == DOWN for check in checks.values()):
        status, code = DEGRADED, 200
    else:
        status, code = OK, 200
    return {"status": status, "checks": checks}, code
