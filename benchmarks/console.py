"""The organizer's console of a 100-table round: its read, and a deal reaching an open console.

A 200-team Swiss, round 1 started (100 tables), some deals recorded, deal checks on, two calls
for the director open. Printed:

- the console's read (``tournaments.console.console_state``) and its partial rendered, each the
  median and worst of a few runs, and their SQL queries, which must not grow with the round (a
  10-table round is measured alongside: the command fails if they differ). Target: ≤ 200 ms.
- a deal recorded at a table reaching an open console: one uvicorn process (config.asgi) with
  Redis as the cache and the pub/sub (as in production) serves the console's event stream to
  the organizer; a deal is recorded through the services in this process; the time until the
  stream says "changed". Target: ≤ 2 s.

It needs PostgreSQL and Redis (TSOXA_SCREENS_REDIS_URL, by default redis://127.0.0.1:6379/10):
without DATABASE_URL on PostgreSQL it runs itself again on TSOXA_CONSOLE_DATABASE_URL
(postgres://postgres@127.0.0.1:5432/tsoxa_bench_console).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time

import redis
from django.contrib.auth import get_user_model
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext, override_settings

from benchmarks import load
from benchmarks.screens import REDIS_URL, Live, Screen
from scoring import services as scoring
from scoring.models import Match
from tournaments import console, services
from tournaments.models import Tournament

DEFAULT_DATABASE_URL = os.environ.get(
    "TSOXA_CONSOLE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tsoxa_bench_console"
)
TABLES = 100
REPEATS = 7
READ_TARGET_MS = 200
LIVE_TARGET_S = 2.0
DEAL = {"maker": 0, "card_points": [90, 62], "last_trick": 0}
REDIS_CACHE = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}


def figure(label: str, value: str, target: str = "", ok: bool | None = None) -> None:
    load.figure(label, value, target, ok, width=40)


def set_up(organizer, tables: int, name: str) -> Tournament:
    t = services.tournament_create(organizer=organizer, name=name, swiss_rounds=3, deals_per_match=12)
    for i in range(tables * 2):
        services.entry_register(tournament=t, name=f"{name} {i}", players=[f"{name}-{i}a", f"{name}-{i}b"])
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    services.tournament_deal_check(tournament=t, on=True)
    played = list(rnd.tables.exclude(match=None).order_by("number"))
    for table in played[::3]:
        scoring.deal_record(match=Match.objects.get(pk=table.match_id), deal=DEAL)
    for table in played[1:3]:
        services.call_create(table=table)
    return Tournament.objects.get(pk=t.pk)


def measure(tournament: Tournament, organizer) -> dict:
    request = RequestFactory().get("/")
    request.user = organizer
    request.htmx = True

    def read():
        return console.console_state(tournament=tournament)

    def rendered():
        return render_to_string(
            "tournaments/_console.html", console.console_context(request, tournament), request=request
        )

    out = {}
    for name, work in (("read", read), ("render", rendered)):
        work()  # warm
        times = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            work()
            times.append((time.perf_counter() - started) * 1000)
        with CaptureQueriesContext(connection) as queries:
            work()
        out[name] = (statistics.median(times), max(times), len(queries))
    return out


async def hear_deal(port: int, path: str, cookie: str, record) -> float:
    screen = Screen(port, path)
    screen.reader, screen.writer = await asyncio.open_connection("127.0.0.1", port)
    screen.writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        f"Cookie: {cookie}\r\n\r\n".encode()
    )
    await screen.writer.drain()
    head = await screen.reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if status != 200:
        raise RuntimeError(f"{path} answered {status}")
    await asyncio.wait_for(screen.until(b"retry:"), 30)
    await asyncio.sleep(0.5)  # listening
    started = time.perf_counter()
    waiting = asyncio.ensure_future(asyncio.wait_for(screen.until(b"event: changed"), 30))
    await asyncio.to_thread(record)
    await waiting
    screen.close()
    return time.perf_counter() - started


def run() -> None:
    if connection.vendor != "postgresql":
        return load.elsewhere("console", DEFAULT_DATABASE_URL)
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        raise SystemExit(f"the console benchmark needs Redis at {REDIS_URL} ({error})") from None
    print(
        f"Console: a {TABLES}-table round (and a 10-table one), PostgreSQL {connection.settings_dict['NAME']}"
    )
    organizer = get_user_model().objects.create_user("console-organizer")
    small = set_up(organizer, 10, "Small")
    big = set_up(organizer, TABLES, "Big")
    failures = []
    few, many = measure(small, organizer), measure(big, organizer)
    for name, label in (("read", "console read"), ("render", "console read and rendered")):
        median, worst, queries = many[name]
        figure(
            f"{label}, {TABLES} tables",
            f"median {median:.0f} ms, worst {worst:.0f} ms, {queries} queries "
            f"(10 tables: {few[name][0]:.0f} ms, {few[name][2]} queries)",
            f"≤ {READ_TARGET_MS} ms, constant queries",
            median <= READ_TARGET_MS and queries == few[name][2],
        )
        if queries != few[name][2]:
            failures.append(f"{label}: queries grow with the tables")
        if median > READ_TARGET_MS:
            failures.append(label)

    client = Client()
    client.force_login(organizer)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    version = console.console_version(big.pk)
    path = f"/tournaments/{big.slug}/manage/console/events/?v={version}"
    table = big.rounds.get(number=1).tables.exclude(match=None).order_by("number").last()
    connection.close()
    with Live() as server:

        def record():
            with override_settings(CACHES=REDIS_CACHE, LIVE_REDIS_URL=REDIS_URL):
                scoring.deal_record(match=Match.objects.get(pk=table.match_id), deal=DEAL)
            connection.close()

        try:
            with override_settings(CACHES=REDIS_CACHE):
                path = f"/tournaments/{big.slug}/manage/console/events/?v={console.console_version(big.pk)}"
            seconds = asyncio.run(hear_deal(server.port, path, cookie, record))
        except BaseException:
            print(server.log()[-3000:], file=sys.stderr)
            raise
    figure(
        "a deal reaches an open console",
        f"{seconds * 1000:.0f} ms (uvicorn, Redis)",
        f"≤ {LIVE_TARGET_S:.0f} s",
        seconds <= LIVE_TARGET_S,
    )
    if seconds > LIVE_TARGET_S:
        failures.append("the deal's way to the console")
    if failures:
        raise SystemExit(f"console: missed {', '.join(failures)}")
