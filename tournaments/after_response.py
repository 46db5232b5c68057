"""Work that waits until the response has been sent: with no broker, the task queue's stand-in.

With no broker configured (the laptop default: ``CELERY_TASK_ALWAYS_EAGER``) a Celery task runs
where it is queued. Queued while a request is served, it would run inside that request, and the
scorer at the table would wait for the standings of the whole tournament. ``run_after_response``
keeps such work until the server has sent the response: a WSGI server calls the response's
``close()`` once it has written the body (PEP 3333), and Django's ``HttpResponse.close()`` then
sends ``request_finished``; Django's ASGI handler closes the response after its last body message
too. The work runs there, in the same worker, before that worker takes its next request.

Outside a request (a shell, a management command, a Celery worker, a test calling the services)
the work runs at once. Django's test client closes every response before it returns it, so a
test that posts a deal finds the standings updated when ``client.post`` returns.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.signals import request_finished, request_started
from django.db import connections
from django.dispatch import receiver

logger = logging.getLogger(__name__)

# The work waiting for the current request's response; None outside a request.
_pending: ContextVar[list[Callable[[], object]] | None] = ContextVar("tsoxa_after_response", default=None)


def run_after_response(work: Callable[[], object]) -> None:
    """Run ``work`` once the current request's response has been sent, or now outside a request."""
    pending = _pending.get()
    if pending is None:
        work()
    else:
        pending.append(work)


@contextmanager
def held() -> Iterator[list[Callable[[], object]]]:
    """Inside the block, work waits as in a request; the list it yields holds it, for the caller
    to look at or to run (tests and benchmarks: what a request leaves for after its response)."""
    pending: list[Callable[[], object]] = []
    token = _pending.set(pending)
    try:
        yield pending
    finally:
        _pending.reset(token)


@receiver(request_started, dispatch_uid="tsoxa-after-response-start")
def _collect(**kwargs: object) -> None:
    _pending.set([])


@receiver(request_finished, dispatch_uid="tsoxa-after-response-run")
def _run(**kwargs: object) -> None:
    """The response has been sent: run what waited for it. A failure is logged (the response is
    gone, nobody is left to tell) and the rest still runs."""
    pending = _pending.get()
    _pending.set(None)  # work queued by this work runs at once
    if not pending:
        return
    already_open = {conn.alias for conn in connections.all(initialized_only=True) if conn.connection}
    for work in pending:
        try:
            work()
        except Exception:
            logger.exception("work after the response failed: %r", work)
    # Django closed or kept the request's connections just before (close_old_connections); one this
    # work opened follows the same rule (CONN_MAX_AGE), instead of staying open until the next request.
    for conn in connections.all(initialized_only=True):
        if conn.alias not in already_open and conn.connection is not None:
            conn.close_if_unusable_or_obsolete()
