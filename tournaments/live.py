"""Push to the big screens: what changed in a tournament reaches every open screen at once.

A service that changed what a screen shows calls ``publish(tournament_id, what)``; once the
transaction commits, a small JSON message goes out on the Redis pub/sub channel
``tsoxa:tournament:<id>`` (``LIVE_REDIS_URL``). Each open screen holds one event stream
(``events``, served by an async view: ``tournaments/screen.py``); the streams of a process share
its one subscription (``hub``: a pattern over every tournament's channel), which on a message
reads the tournament's *stamp* (``stamp``: one cheap query) once for all that tournament's
streams; each then tells its page that the data has changed, and the page fetches it once. A
waiting stream holds no thread and no database connection, and an address holds at most
``TSOXA_STREAMS_PER_ADDRESS`` streams (``slot_take``).

Without Redis (a laptop: ``LIVE_REDIS_URL`` empty), or while it is away, nothing is heard: the hub
reads each watched tournament's stamp every 2 seconds instead, and its streams speak when it
changes. Either way the browser never polls, and no process keeps anything in memory that another
must see. Under WSGI there is no stream: ``at_once`` answers at once and the browser asks again.

The stamp is also the data's version: the screen's data carries the one it was read at, and a
stream that starts (or starts again, with the ``Last-Event-ID`` the browser sends back) from an
older version speaks at once, so that nothing is missed between the page and its stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import os
import time
import uuid
from collections.abc import AsyncGenerator
from typing import Any, Literal

import redis
import redis.asyncio as aredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max, OuterRef, Subquery

from .models import PlacePrize, PrizeCategory, PrizeSettings, Round, Table, Tournament

logger = logging.getLogger(__name__)

WHAT = frozenset({"standings", "round", "clock", "finished"})
CHECK_SECONDS = 2.0  # without Redis: how often a stream reads the stamp
HEARTBEAT_SECONDS = 15.0  # a comment line: proxies keep the connection, a gone client is noticed
STREAM_SECONDS = 30 * 60  # then the browser opens it again (and who may see the tournament is checked again)
RETRY_MS = 3000  # how long the browser waits before it opens a dropped stream again


def channel(tournament_id: int | Literal["*"]) -> str:
    """A tournament's channel; ``"*"``: the pattern over every tournament's."""
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
    except Exception as error:
        global _warned_at
        now = time.monotonic()
        if _warned_at is None or now - _warned_at >= PUBLISH_WARN_EVERY:
            _warned_at = now  # an outage is one line a minute in the log, not one per change
            logger.warning("live: could not publish %s of tournament %s (%r)", what, tournament_id, error)


PUBLISH_WARN_EVERY = 60.0
_warned_at: float | None = None


@functools.cache
def _client(url: str) -> redis.Redis:
    """One connection pool per process and URL; a Redis that is down or hangs costs the organizer's
    request a quarter of a second at most (the screens catch up from the database)."""
    return redis.Redis.from_url(url, socket_connect_timeout=0.25, socket_timeout=0.25)


# The stamp -----------------------------------------------------------------------------------


def stamp_parts(tournament_id: int) -> tuple[str, int, int, int, int] | None:
    """What a screen shows can only change if one of these does: the tournament's status, the
    standings' version, the latest change of any of its rounds (drawn, started, finished, its clock:
    each is a new row of the round's history), of the latest round's tables (a swap) and of its
    prizes (the settings, a place's line, a category: the screen's prize panel). One query; None if
    there is no such tournament."""
    round_history = Round.history.model.objects.filter(tournament_id=OuterRef("pk")).order_by()
    latest_round = Round.objects.filter(tournament_id=OuterRef(OuterRef("pk"))).order_by("-number")
    table_history = Table.history.model.objects.filter(
        round_id=Subquery(latest_round.values("pk")[:1])
    ).order_by()
    prize_models: tuple[type[PrizeSettings | PlacePrize | PrizeCategory], ...] = (
        PrizeSettings,
        PlacePrize,
        PrizeCategory,
    )
    prizes = {
        f"prizes_{n}": Subquery(
            model.history.model.objects.filter(tournament_id=OuterRef("pk"))
            .order_by()
            .values("tournament_id")
            .annotate(last=Max("history_id"))
            .values("last")
        )
        for n, model in enumerate(prize_models)
    }
    found = (
        Tournament.objects.filter(pk=tournament_id)
        .annotate(
            rounds_changed=Subquery(
                round_history.values("tournament_id").annotate(last=Max("history_id")).values("last")
            ),
            tables_changed=Subquery(
                table_history.values("round_id").annotate(last=Max("history_id")).values("last")
            ),
            **prizes,
        )
        .values_list("status", "standings__version", "rounds_changed", "tables_changed", *prizes)
        .first()
    )
    if found is None:
        return None
    status, standings, rounds_changed, tables_changed, *prize_changes = found
    # Each model's history counts on its own, so the three ids are summed: any new row moves it.
    prizes_changed = sum(n or 0 for n in prize_changes)
    return status, standings or 0, rounds_changed or 0, tables_changed or 0, prizes_changed


def version(parts: tuple[str, int, int, int, int]) -> str:
    return ".".join(str(part) for part in parts)


def stamp(tournament_id: int) -> str | None:
    parts = stamp_parts(tournament_id)
    return None if parts is None else version(parts)


def _stamp_and_let_go(tournament_id: int) -> str | None:
    """The stamp, read for the streams in a worker thread that then lets its database connection go:
    no connection is kept while a stream waits, whatever ``CONN_MAX_AGE`` says."""
    try:
        return stamp(tournament_id)
    finally:
        let_go()


def let_go() -> None:
    """Close this thread's database connection (unless a transaction holds it: a test's)."""
    if not connection.in_atomic_block:
        connection.close()


read_stamp = sync_to_async(_stamp_and_let_go, thread_sensitive=False)


# The process's one subscription --------------------------------------------------------------
#
# Every stream of a process waits on a ``_Watch`` of its own, in the ``_Room`` of its tournament;
# the process's ``_Hub`` holds one Redis pub/sub connection (a pattern subscription to every
# tournament's channel) and, on a message, reads the tournament's stamp once for all its streams.
# Without Redis (or while it is away) the hub reads the stamp of each watched tournament every
# ``CHECK_SECONDS`` instead, once for all its streams too.

PING_SECONDS = 15.0  # the subscription pings Redis when it has heard nothing for this long
BACKOFF_SECONDS = (0.5, 1, 2, 5, 10, 30)  # between attempts to subscribe again after a loss
LINGER_SECONDS = 60.0  # the hub stops listening this long after its last stream closed
READY_SECONDS = 2.0  # how long a new stream waits for the subscription before it reads the stamp
READS_AT_ONCE = 2  # reads of the database at once for the streams (per process): its connections


class _Watch:
    """One stream's mailbox: the latest stamp its room read, and what was said to have changed."""

    __slots__ = ("after", "event", "pushed", "version", "what")

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.version: str | None = ""
        self.what: set[str] = set()
        self.pushed = False
        self.after = 0  # its room's reads up to this one were asked for before the stream's own read

    def tell(self, version: str | None, what: set[str], pushed: bool, read: int) -> None:
        if read <= self.after:
            return
        self.version = version
        self.what |= what
        self.pushed = self.pushed or pushed
        self.event.set()

    def take(self) -> tuple[str | None, set[str], bool]:
        self.event.clear()
        taken = self.version, self.what, self.pushed
        self.what, self.pushed = set(), False
        return taken


class _Room:
    """The streams of one tournament in this process; a burst of messages is one read."""

    def __init__(self, hub: _Hub, tournament_id: int) -> None:
        self.hub = hub
        self.tournament_id = tournament_id
        self.watches: set[_Watch] = set()
        self.pending: tuple[set[str], bool, int] | None = None
        self.reading: asyncio.Task | None = None
        self.reads = 0  # reads asked for (each covers the pokes before it)

    def poke(self, what: str = "", *, pushed: bool = False) -> None:
        if self.pending is None:
            self.reads += 1
            self.pending = (set(), False, self.reads)
        whats, was_pushed, read = self.pending
        self.pending = (whats | ({what} if what else set()), was_pushed or pushed, read)
        if self.reading is None or self.reading.done():
            self.reading = asyncio.create_task(self._read(), context=contextvars.Context())

    async def _read(self) -> None:
        while self.pending is not None:
            (what, pushed, read), self.pending = self.pending, None
            try:
                async with self.hub.reading:
                    current = await read_stamp(self.tournament_id)
            except Exception:  # the database away: the streams carry on, the next poke reads again
                logger.warning("live: could not read tournament %s", self.tournament_id, exc_info=True)
                continue
            for watch in list(self.watches):
                watch.tell(current, what, pushed, read)


class _Hub:
    """The streams of this process (of its event loop), their one subscription and its fallback."""

    def __init__(self, url: str, pattern: str) -> None:
        self.url = url
        self.pattern = pattern
        self.loop = asyncio.get_running_loop()
        self.rooms: dict[int, _Room] = {}
        self.connected = asyncio.Event()  # subscribed: the streams wait for messages
        self.tried = asyncio.Event()  # the first attempt to subscribe is over, whatever its outcome
        self.reading = asyncio.Semaphore(READS_AT_ONCE)
        self.heard = 0  # messages heard: one a stream opening meanwhile may have missed
        self.subscriptions = 0  # how many times it subscribed (the tests count them)
        self.listener: asyncio.Task | None = None
        self.checker: asyncio.Task | None = None
        self.idle: asyncio.TimerHandle | None = None
        self._counter: aredis.Redis | None = None
        self._to_free: list[tuple[str, str]] = []
        self._freeing: asyncio.Task | None = None

    # Streams come and go.

    def watch(self, tournament_id: int) -> _Watch:
        if self.idle is not None:
            self.idle.cancel()
            self.idle = None
        room = self.rooms.get(tournament_id)
        if room is None:
            room = self.rooms[tournament_id] = _Room(self, tournament_id)
        watch = _Watch()
        room.watches.add(watch)
        self._start()
        return watch

    def unwatch(self, tournament_id: int, watch: _Watch) -> None:
        room = self.rooms.get(tournament_id)
        if room is not None:
            room.watches.discard(watch)
            if not room.watches:
                del self.rooms[tournament_id]
        if not self.rooms and self.idle is None:
            self.idle = self.loop.call_later(LINGER_SECONDS, self._stop_if_idle)

    def streams(self) -> int:
        return sum(len(room.watches) for room in self.rooms.values())

    def mark(self) -> tuple[int, int] | None:
        """Where the subscription stands: a stream that read the database before it watched
        reads again unless the mark is the same after (no message heard, no new subscription)."""
        return (self.subscriptions, self.heard) if self.connected.is_set() else None

    async def ready(self) -> None:
        """Wait (a moment at most) for the subscription, so that nothing falls between it and a
        new stream's first read."""
        self._start()
        if not self.rooms and self.idle is None:  # should no stream follow
            self.idle = self.loop.call_later(LINGER_SECONDS, self._stop_if_idle)
        if self.url and not self.connected.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(READY_SECONDS):
                    await self.tried.wait()

    # The tasks.

    def _start(self) -> None:
        fresh = contextvars.Context()  # not the request's (its thread, its ThreadSensitiveContext)
        if self.url and (self.listener is None or self.listener.done()):
            self.tried.clear()
            self.listener = self.loop.create_task(self._listen(), context=fresh)
        if self.checker is None or self.checker.done():
            self.checker = self.loop.create_task(self._check(), context=fresh)

    def _stop_if_idle(self) -> None:
        self.idle = None
        if not self.rooms:
            for task in (self.listener, self.checker):
                if task is not None:
                    task.cancel()
            self.listener = self.checker = None
            if self._counter is not None:
                self.loop.create_task(self._counter.aclose(close_connection_pool=True))
                self._counter = None

    async def _listen(self) -> None:
        """The subscription: started with the first stream, started again after a loss (with a
        growing pause), stopped a while after the last stream closed."""
        attempt = 0
        while True:
            client = aredis.Redis.from_url(
                self.url, socket_connect_timeout=2, client_name=f"tsoxa-live-{os.getpid()}"
            )
            pubsub = client.pubsub()
            try:
                await pubsub.psubscribe(self.pattern)
                self.subscriptions += 1
                self.connected.set()
                self.tried.set()
                attempt = 0
                for room in list(self.rooms.values()):  # anything missed while away: read again
                    room.poke()
                await self._dispatch(pubsub)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning(
                    "live: Redis subscription lost or refused; the streams read the database meanwhile",
                    exc_info=attempt == 0,
                )
            finally:
                self.connected.clear()
                self.tried.set()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS) - 1)])
            attempt += 1

    async def _dispatch(self, pubsub: aredis.client.PubSub) -> None:
        heard = time.monotonic()
        while True:
            message = await pubsub.get_message(timeout=PING_SECONDS)
            if message is not None:
                heard = time.monotonic()
                if message["type"] == "pmessage":
                    self.heard += 1
                    tournament_id, what = _parse(message.get("data"))
                    room = self.rooms.get(tournament_id) if tournament_id is not None else None
                    if room is not None:
                        room.poke(what, pushed=True)
                continue
            if time.monotonic() - heard > 2 * PING_SECONDS:
                raise ConnectionError("Redis did not answer a ping")
            await pubsub.ping()

    async def _check(self) -> None:
        """Without a subscription: every watched tournament's stamp, every ``CHECK_SECONDS``."""
        while True:
            await asyncio.sleep(CHECK_SECONDS)
            if self.connected.is_set():
                continue
            for room in list(self.rooms.values()):
                room.poke()

    # The count of open streams per address, in the same Redis.

    def counter(self) -> aredis.Redis:
        if self._counter is None:
            pool = aredis.BlockingConnectionPool.from_url(
                self.url, max_connections=1, timeout=10, socket_connect_timeout=1, socket_timeout=2
            )
            self._counter = aredis.Redis(connection_pool=pool)
        return self._counter

    async def free(self, key: str, token: str) -> None:
        """Free a stream's slot: the slots freed meanwhile go together, in one pipeline (a
        thousand screens closing at once are one round trip, or a few)."""
        self._to_free.append((key, token))
        if self._freeing is None or self._freeing.done():
            self._freeing = self.loop.create_task(self._free(), context=contextvars.Context())
        await asyncio.shield(self._freeing)

    async def _free(self) -> None:
        while self._to_free:
            batch, self._to_free = self._to_free, []
            try:
                async with self.counter().pipeline(transaction=False) as pipe:
                    for key, token in batch:
                        pipe.zrem(key, token)
                    await pipe.execute()
            except Exception:
                logger.warning(
                    "live: could not free %s streams' slots (they expire)", len(batch), exc_info=True
                )


_hub_now: _Hub | None = None


def hub() -> _Hub:
    """This process's hub, made with its first stream (one per event loop: the tests run several)."""
    global _hub_now
    loop = asyncio.get_running_loop()
    url, pattern = settings.LIVE_REDIS_URL, channel("*")
    current = _hub_now
    if current is None or current.loop is not loop or current.url != url or current.pattern != pattern:
        if current is not None and current.loop is loop:
            current._stop_if_idle()
        _hub_now = current = _Hub(url, pattern)
    return current


def _parse(data: Any) -> tuple[int | None, str]:
    try:
        message = json.loads(data)
        tournament_id = int(message["tournament"])
    except (KeyError, TypeError, ValueError):
        return None, ""
    what = message.get("what")
    return tournament_id, what if what in WHAT else ""


# Open streams per client address ---------------------------------------------------------------

SLOT_KEY = "tsoxa:streams:"  # + the address: a sorted set of the open streams, scored by expiry
SLOT_SECONDS = 30 * 60 + 120  # a stream's slot expires by itself (a process killed keeps none)
RETRY_AFTER_SECONDS = 60
_TAKE = """
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[3]), ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[3]) - now) + 1)
return 1
"""
_local_slots: dict[str, dict[str, float]] = {}  # without Redis: this process's count


class Slot:
    """One open stream of an address, counted until ``release``."""

    def __init__(self, address: str, token: str, shared: _Hub | None) -> None:
        self.address, self.token, self.shared = address, token, shared
        self.released = False

    async def release(self) -> None:
        if self.released:
            return
        self.released = True
        _local_slots.get(self.address, {}).pop(self.token, None)
        if not _local_slots.get(self.address, True):
            del _local_slots[self.address]
        if self.shared is not None:
            await self.shared.free(SLOT_KEY + self.address, self.token)


async def slot_take(address: str) -> Slot | None:
    """A slot for one more stream from ``address``, or None past ``TSOXA_STREAMS_PER_ADDRESS``.
    Counted in Redis (every process sees it) when there is one, else in this process."""
    limit = settings.TSOXA_STREAMS_PER_ADDRESS
    token, now = uuid.uuid4().hex, time.time()
    current = hub()
    if current.url:
        try:
            taken = await current.counter().eval(
                _TAKE, 1, SLOT_KEY + address, now, limit, now + SLOT_SECONDS, token
            )
        except Exception:
            logger.warning(
                "live: Redis away, the streams per address are counted in this process", exc_info=True
            )
        else:
            return Slot(address, token, current) if taken else None
    mine = _local_slots.setdefault(address, {})
    for other, until in list(mine.items()):
        if until < now:
            del mine[other]
    if len(mine) >= limit:
        return None
    mine[token] = now + SLOT_SECONDS
    return Slot(address, token, None)


# The stream ----------------------------------------------------------------------------------


def changed(version: str, what: str = "") -> str:
    """An event of the stream (text/event-stream): the page fetches the data at ``version``."""
    data = json.dumps({"version": version, "what": what})
    return f"id: {version}\nevent: changed\ndata: {data}\n\n"


HEARTBEAT = ": still here\n\n"


async def events(
    tournament_id: int,
    *,
    since_version: str = "",
    slot: Slot | None = None,
    opened: tuple[str | None, tuple[int, int] | None] | None = None,
) -> AsyncGenerator[str, None]:
    """The event stream of one screen, as text/event-stream chunks: first the reconnection delay,
    then ``changed`` whenever the tournament changes (at once if it has since ``since_version``),
    a heartbeat comment after 15 s of silence. The first chunk comes once the stream is listening
    and has read where the tournament stands. It ends after ``STREAM_SECONDS`` (the browser opens
    it again), if the tournament is gone, or when the client goes away (the server then closes or
    cancels it). Its ``slot`` is freed as it ends. ``opened``: the stamp the view read already,
    with the hub's ``mark`` from before that read (the stream then reads again only if a message
    may have been missed meanwhile)."""
    shared = hub()
    watch = shared.watch(tournament_id)  # before the first read: nothing falls in between
    try:
        if opened is None:
            await shared.ready()
            mark = shared.mark()
            watch.after = shared.rooms[tournament_id].reads  # this read is newer than theirs
            async with shared.reading:  # a thousand screens opening at once take two connections
                current = await read_stamp(tournament_id)
        else:
            current, mark = opened
        if shared.url and mark != shared.mark():  # a message may have been missed meanwhile
            shared.rooms[tournament_id].poke()
        if current is None:
            return
        yield f"retry: {RETRY_MS}\n\n"
        if current != since_version:
            yield changed(current)
        deadline = time.monotonic() + STREAM_SECONDS
        quiet_until = time.monotonic() + HEARTBEAT_SECONDS
        while True:
            try:
                async with asyncio.timeout(max(0.0, quiet_until - time.monotonic())):
                    await watch.event.wait()
            except TimeoutError:
                chunk = HEARTBEAT
            else:
                version, what, pushed = watch.take()
                if version is None:
                    return  # the tournament is gone
                if version == current and not pushed:
                    continue  # read again, unchanged: nothing to say
                current, chunk = version, changed(version, ",".join(sorted(what)))
            quiet_until = time.monotonic() + HEARTBEAT_SECONDS
            yield chunk
            if time.monotonic() > deadline:
                break
    finally:
        shared.unwatch(tournament_id, watch)
        if slot is not None:
            await slot.release()


# Under WSGI ----------------------------------------------------------------------------------

WSGI_RETRY_MS = 3000


def at_once(current: str, since_version: str) -> str:
    """The whole answer of a stream asked of a WSGI server (``runserver``, or gunicorn by mistake):
    what changed since ``since_version``, then the end, with the hint to ask again in 3 s. No
    thread waits; the browser's reconnections do the waiting (a laptop's screen is 3 s late at
    most)."""
    parts = [f"retry: {WSGI_RETRY_MS}\n\n"]
    if current != since_version:
        parts.append(changed(current))
    parts.append(": no stream here (a WSGI server): ask again\n")
    parts.append(f"event: reconnect\ndata: {json.dumps({'retry': WSGI_RETRY_MS})}\n\n")
    return "".join(parts)
