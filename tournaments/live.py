"""Push to the big screens: what changed in a tournament reaches every open screen at once.

A service that changed what a screen shows calls ``publish(tournament_id, what)``; once the
transaction commits, a small JSON message goes out on the Redis pub/sub channel
``tsoxa:tournament:<id>`` (``LIVE_REDIS_URL``). Each open screen holds one event stream
(``events``, served by an async view: ``tournaments/screen.py``), subscribed to that channel; on a
message it tells its page that the data has changed, and the page fetches it once.

Without Redis (a laptop: ``LIVE_REDIS_URL`` empty) nothing is published: each stream reads the
tournament's *stamp* (``stamp``: one cheap query) every 2 seconds instead, and speaks when it
changes. Either way the browser never polls, and no process keeps anything in memory that another
must see.

The stamp is also the data's version: the screen's data carries the one it was read at, and a
stream that starts (or starts again, with the ``Last-Event-ID`` the browser sends back) from an
older version speaks at once, so that nothing is missed between the page and its stream.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import aclosing
from typing import Any

import redis
import redis.asyncio as aredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models import Max, OuterRef, Subquery

from .models import Round, Table, Tournament

logger = logging.getLogger(__name__)

WHAT = frozenset({"standings", "round", "clock", "finished"})
CHECK_SECONDS = 2.0  # without Redis: how often a stream reads the stamp
HEARTBEAT_SECONDS = 15.0  # a comment line: proxies keep the connection, a gone client is noticed
STREAM_SECONDS = 30 * 60  # then the browser opens it again (and who may see the tournament is checked again)
RETRY_MS = 3000  # how long the browser waits before it opens a dropped stream again


def channel(tournament_id: int) -> str:
    return f"tsoxa:tournament:{tournament_id}"


# Publishing ----------------------------------------------------------------------------------


def publish(tournament_id: int, what: str) -> None:
    """Tell the open screens of a tournament that ``what`` changed, once the transaction commits
    (at once outside one). A failure is logged, never raised: a screen is never worth a result."""
    if what not in WHAT:
        raise ValueError(f"unknown change {what!r}: one of {sorted(WHAT)}")
    transaction.on_commit(lambda: _send(tournament_id, what))


def _send(tournament_id: int, what: str) -> None:
    url = settings.LIVE_REDIS_URL
    if not url:
        return  # the streams read the database instead
    message = json.dumps({"tournament": tournament_id, "what": what})
    try:
        _client(url).publish(channel(tournament_id), message)
    except Exception:
        logger.warning("live: could not publish %s of tournament %s", what, tournament_id, exc_info=True)


@functools.cache
def _client(url: str) -> redis.Redis:
    """One connection pool per process and URL; a Redis that is down costs a second at most."""
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


# The stamp -----------------------------------------------------------------------------------


def stamp_parts(tournament_id: int) -> tuple[str, int, int, int] | None:
    """What a screen shows can only change if one of these does: the tournament's status, the
    standings' version, the latest change of any of its rounds (drawn, started, finished, its clock:
    each is a new row of the round's history) and of the latest round's tables (a swap). One query;
    None if there is no such tournament."""
    round_history = Round.history.model.objects.filter(tournament_id=OuterRef("pk")).order_by()
    latest_round = Round.objects.filter(tournament_id=OuterRef(OuterRef("pk"))).order_by("-number")
    table_history = Table.history.model.objects.filter(
        round_id=Subquery(latest_round.values("pk")[:1])
    ).order_by()
    found = (
        Tournament.objects.filter(pk=tournament_id)
        .annotate(
            rounds_changed=Subquery(
                round_history.values("tournament_id").annotate(last=Max("history_id")).values("last")
            ),
            tables_changed=Subquery(
                table_history.values("round_id").annotate(last=Max("history_id")).values("last")
            ),
        )
        .values_list("status", "standings__version", "rounds_changed", "tables_changed")
        .first()
    )
    if found is None:
        return None
    status, standings, rounds_changed, tables_changed = found
    return status, standings or 0, rounds_changed or 0, tables_changed or 0


def version(parts: tuple[str, int, int, int]) -> str:
    return ".".join(str(part) for part in parts)


def stamp(tournament_id: int) -> str | None:
    parts = stamp_parts(tournament_id)
    return None if parts is None else version(parts)


def _stamp_checked(tournament_id: int) -> str | None:
    """The stamp, read every few seconds by a stream: its database connection follows the rules
    Django applies between requests (closed if broken or older than ``CONN_MAX_AGE``)."""
    if not connection.in_atomic_block:
        close_old_connections()
    return stamp(tournament_id)


def _stamp_and_let_go(tournament_id: int) -> str | None:
    """The stamp, read from a stream that then waits a long time: its database connection is not
    kept meanwhile."""
    try:
        return stamp(tournament_id)
    finally:
        _let_go()


def _let_go() -> None:
    """Close the stream's database connection (unless a transaction holds it: a test's)."""
    if not connection.in_atomic_block:
        connection.close()


# The stream ----------------------------------------------------------------------------------


def changed(version: str, what: str = "") -> str:
    """An event of the stream (text/event-stream): the page fetches the data at ``version``."""
    data = json.dumps({"version": version, "what": what})
    return f"id: {version}\nevent: changed\ndata: {data}\n\n"


HEARTBEAT = ": still here\n\n"


async def events(tournament_id: int, *, since_version: str = "") -> AsyncIterator[str]:
    """The event stream of one screen, as text/event-stream chunks: first the reconnection delay,
    then ``changed`` whenever the tournament changes (at once if it has since ``since_version``),
    a heartbeat comment after 15 s of silence. The first chunk comes once the stream is listening
    and has read where the tournament stands. It ends after ``STREAM_SECONDS`` (the browser opens
    it again), if the tournament is gone, or when the client goes away (the server then closes or
    cancels it: the subscription is let go)."""
    pubsub = await _subscribe(tournament_id)  # before the first read: nothing falls in between
    try:
        read = sync_to_async(_stamp_checked if pubsub is None else _stamp_and_let_go)
        current = await read(tournament_id)
        if current is None:
            return
        yield f"retry: {RETRY_MS}\n\n"
        if current != since_version:
            yield changed(current)
        if pubsub is None:
            stream = _checking(read, tournament_id, current)
        else:
            stream = _listening(pubsub, read, tournament_id)
        deadline = time.monotonic() + STREAM_SECONDS
        async with aclosing(stream):
            async for chunk in stream:
                yield chunk
                if time.monotonic() > deadline:
                    break
    finally:
        if pubsub is not None:
            await _unsubscribe(pubsub)
        await sync_to_async(_let_go)()


async def _subscribe(tournament_id: int) -> aredis.client.PubSub | None:
    url = settings.LIVE_REDIS_URL
    if not url:
        return None
    client = aredis.Redis.from_url(url, socket_connect_timeout=2)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        await pubsub.subscribe(channel(tournament_id))
    except Exception:
        logger.warning("live: Redis unavailable, this stream reads the database", exc_info=True)
        await _unsubscribe(pubsub)
        return None
    return pubsub


async def _unsubscribe(pubsub: aredis.client.PubSub) -> None:
    try:
        await pubsub.aclose()
        await pubsub.connection_pool.disconnect()
    except Exception:
        logger.debug("live: closing a subscription failed", exc_info=True)


async def _checking(
    read: Callable[[int], Awaitable[str | None]], tournament_id: int, last: str
) -> AsyncIterator[str]:
    """Without Redis: the stamp every ``CHECK_SECONDS``."""
    quiet = time.monotonic()
    while True:
        await asyncio.sleep(CHECK_SECONDS)
        current = await read(tournament_id)
        if current is None:
            return
        if current != last:
            last, quiet = current, time.monotonic()
            yield changed(current)
        elif time.monotonic() - quiet >= HEARTBEAT_SECONDS:
            quiet = time.monotonic()
            yield HEARTBEAT


async def _listening(
    pubsub: aredis.client.PubSub, read: Callable[[int], Awaitable[str | None]], tournament_id: int
) -> AsyncIterator[str]:
    """With Redis: the stamp again on each message (a burst of them is one event)."""
    quiet_until = time.monotonic() + HEARTBEAT_SECONDS
    while True:
        try:
            message = await pubsub.get_message(timeout=max(0.0, quiet_until - time.monotonic()))
        except Exception:  # Redis went away: end here, the browser opens the stream again
            logger.warning("live: lost Redis, the stream ends", exc_info=True)
            return
        if message is None:  # the time is up, or Redis's own answer (to the subscription) was read
            if time.monotonic() >= quiet_until:
                quiet_until = time.monotonic() + HEARTBEAT_SECONDS
                yield HEARTBEAT
            continue
        what = {_what(message)}
        while (more := await pubsub.get_message(timeout=0)) is not None:  # the rest of a burst
            what.add(_what(more))
        current = await read(tournament_id)
        if current is None:
            return
        quiet_until = time.monotonic() + HEARTBEAT_SECONDS
        yield changed(current, ",".join(sorted(w for w in what if w)))


def _what(message: dict[str, Any]) -> str:
    try:
        what = json.loads(message["data"])["what"]
    except (KeyError, TypeError, ValueError):
        return ""
    return what if what in WHAT else ""


# Under WSGI ----------------------------------------------------------------------------------


def served_synchronously(stream: AsyncIterator[str]) -> Iterator[str]:
    """The stream for a WSGI server (``runserver``, the tests' live server): it holds a thread of
    its own while the screen is open, which a laptop can afford (production serves the stream
    from the ASGI ``live`` service: README, Deploying). Each chunk is awaited in a private event
    loop; when the server closes the response (the client went away) the stream is closed too."""
    loop = asyncio.new_event_loop()
    try:
        while True:
            try:
                yield loop.run_until_complete(anext(stream))
            except StopAsyncIteration:
                return
    finally:
        loop.run_until_complete(stream.aclose())
        loop.close()
