"""The big screens: 1,000 event streams open on one live process (uvicorn serving config.asgi).

Ten running tournaments (a hundred screens each) in the throw-away PostgreSQL database; one
uvicorn process serves them with Redis pub/sub (``LIVE_REDIS_URL`` and ``CACHE_URL``, by default
redis://127.0.0.1:6379/10) and the database's usual ``CONN_MAX_AGE`` (60 s). The benchmark opens
TSOXA_SCREENS_STREAMS (1,000) streams from this process (raw asyncio sockets, the file-descriptor
limit raised for them), 100 at a time, and, once every stream has said it listens, prints:

- the PostgreSQL connections the process holds (pg_stat_activity for the database, this
  benchmark's own connection left out), while they wait and the most seen while they opened
  (target ≤ 5);
- its Redis connections (CLIENT LIST, matched to the process's own sockets; target ≤ 3);
- its memory (RSS, from /proc; target < 200 MB), beside the same before the first stream, and
  its threads;
- a result recorded in one tournament and published: how long until each of its 100 streams heard
  it, and a publish to every tournament: all 1,000 streams hear it (enforced).

It needs PostgreSQL, Redis and Linux (/proc): without DATABASE_URL on PostgreSQL it runs itself
again on TSOXA_SCREENS_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tsoxa_bench_screens). The
command fails on any target missed.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import override_settings

from benchmarks import load
from benchmarks.load import database_url
from tournaments import live, services
from tournaments.models import Tournament

DEFAULT_DATABASE_URL = os.environ.get(
    "TSOXA_SCREENS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tsoxa_bench_screens"
)
REDIS_URL = os.environ.get("TSOXA_SCREENS_REDIS_URL", "redis://127.0.0.1:6379/10")
STREAMS = int(os.environ.get("TSOXA_SCREENS_STREAMS", 1000))
TOURNAMENTS = 10
AT_ONCE = 100  # streams opening at the same time
PG_TARGET, REDIS_TARGET, RSS_TARGET_MB = 5, 3, 200
TIMEOUT = 60.0


def raise_file_limit(wanted: int) -> int:
    """This process's (and so uvicorn's) open-file limit, raised for ``wanted`` sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raise SystemExit(
            f"the open-file limit is {soft} (hard {hard}); {wanted} are needed: ulimit -n {wanted}"
        )
    return soft


# The live process ------------------------------------------------------------------------------


class Live(load.Served):
    """uvicorn serving config.asgi, as docker-compose.yml's live service does."""

    STOP_WAIT = 30

    def __init__(self) -> None:
        super().__init__("screens-uvicorn")

    def __enter__(self) -> Live:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_DEBUG": "false",
            "LIVE_REDIS_URL": REDIS_URL,
            "CACHE_URL": REDIS_URL,
            "TSOXA_STREAMS_PER_ADDRESS": str(STREAMS + 100),  # every screen here has one address
        }
        env.pop("CELERY_BROKER_URL", None)
        command = [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(self.port), "--no-access-log", "--log-level", "warning",
            "--backlog", str(STREAMS * 2),
        ]  # fmt: skip
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"uvicorn exited ({self.proc.returncode}):\n{self.log()[-3000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise SystemExit(f"uvicorn did not start within 60 s:\n{self.log()[-3000:]}")

    def status(self, field: str) -> int:
        """A field of /proc/<pid>/status (VmRSS in kB, Threads)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
        raise KeyError(field)

    def redis_ports(self) -> set[int]:
        """The local ports of this process's TCP connections to Redis's port."""
        inodes = set()
        for fd in Path(f"/proc/{self.proc.pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
        redis_port = redis.connection.ConnectionPool.from_url(REDIS_URL).connection_kwargs.get("port", 6379)
        ports = set()
        for table in ("tcp", "tcp6"):
            for line in Path(f"/proc/{self.proc.pid}/net/{table}").read_text().splitlines()[1:]:
                fields = line.split()
                local, remote, inode = fields[1], fields[2], fields[9]
                if inode in inodes and int(remote.rsplit(":", 1)[1], 16) == redis_port:
                    ports.add(int(local.rsplit(":", 1)[1], 16))
        return ports


def redis_connections(live_process: Live) -> tuple[int, list[str]]:
    """The live process's connections as Redis's CLIENT LIST shows them (and their names)."""
    ports = live_process.redis_ports()
    mine = [
        c for c in redis.Redis.from_url(REDIS_URL).client_list() if int(c["addr"].rsplit(":", 1)[1]) in ports
    ]
    return len(mine), sorted(f"{c.get('name') or '-'} ({c.get('cmd')})" for c in mine)


def pg_connections(cursor, database: str) -> int:
    cursor.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [database]
    )
    return cursor.fetchone()[0]


class PeakSampler(threading.Thread):
    """The most PostgreSQL connections to the database seen, every 20 ms, while it runs (with the
    backends of connections just closed, which pg_stat_activity shows until they have exited)."""

    def __init__(self, database: str) -> None:
        super().__init__(daemon=True)
        self.database, self.peak, self.running = database, 0, True

    def run(self) -> None:
        import psycopg

        # autocommit: pg_stat_activity is read once per transaction
        with psycopg.connect(DEFAULT_DATABASE_URL.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            while self.running:
                count = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [self.database]
                ).fetchone()[0]
                self.peak = max(self.peak, count)
                time.sleep(0.02)


# The screens ---------------------------------------------------------------------------------


class Screen:
    def __init__(self, port: int, path: str) -> None:
        self.port, self.path = port, path
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.status = 0

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await self.writer.drain()
        head = await self.reader.readuntil(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        if self.status != 200:
            raise RuntimeError(f"{self.path} answered {self.status}")
        await self.until(b"retry:")  # listening: its subscription and first read are done

    async def until(self, marker: bytes) -> str:
        """Read the chunked body until a piece containing ``marker`` arrives."""
        while True:
            line = await self.reader.readline()
            if not line:
                raise ConnectionError("the stream ended")
            size = int(line.strip() or b"0", 16)
            piece = await self.reader.readexactly(size + 2)
            if marker in piece:
                return piece.decode()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def open_all(screens: list[Screen]) -> float:
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(screen: Screen) -> None:
        async with gate:
            await asyncio.wait_for(screen.open(), TIMEOUT)

    started = time.perf_counter()
    await asyncio.gather(*(one(s) for s in screens))
    return time.perf_counter() - started


async def hear(screens: list[Screen], publish) -> list[float]:
    """Publish (in a thread) and wait for every screen's ``changed``: the seconds each took."""
    started = time.perf_counter()

    async def one(screen: Screen) -> float:
        await asyncio.wait_for(screen.until(b"event: changed"), TIMEOUT)
        return time.perf_counter() - started

    waiting = [asyncio.ensure_future(one(s)) for s in screens]
    await asyncio.to_thread(publish)
    return list(await asyncio.gather(*waiting))


# Set-up ----------------------------------------------------------------------------------------


def set_up() -> list[Tournament]:
    organizer = get_user_model().objects.create_user("screens-organizer")
    nights = []
    for n in range(TOURNAMENTS):
        t = services.tournament_create(
            organizer=organizer, name=f"Screens {n}", swiss_rounds=3, deals_per_match=1
        )
        for i in range(4):
            services.entry_register(tournament=t, name=f"S{n} team {i}", players=[f"S{n}-{i}a", f"S{n}-{i}b"])
        services.tournament_start(tournament=t, user=organizer)
        services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        nights.append(Tournament.objects.get(pk=t.pk))
    return nights


def figure(label: str, value: str, target: str = "", ok: bool | None = None) -> None:
    load.figure(label, value, target, ok, width=44)


def run() -> None:
    if connection.vendor != "postgresql":
        return load.elsewhere("screens", DEFAULT_DATABASE_URL)
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        raise SystemExit(f"the screens benchmark needs Redis at {REDIS_URL} ({error})") from None
    limit = raise_file_limit(STREAMS * 2 + 256)
    database = connection.settings_dict["NAME"]
    print(
        f"Screens: {STREAMS} streams on {TOURNAMENTS} tournaments, one uvicorn process, PostgreSQL "
        f"{database} (CONN_MAX_AGE {connection.settings_dict['CONN_MAX_AGE']}), Redis {REDIS_URL}, "
        f"{os.cpu_count()} cores, open-file limit {limit}"
    )
    nights = set_up()
    slots = redis.Redis.from_url(REDIS_URL)
    slots.delete(f"{live.SLOT_KEY}127.0.0.1")  # the screens' address: no slot left by an earlier run
    paths = [f"/tournaments/{t.slug}/screen/events/?v={live.stamp(t.pk)}" for t in nights]
    connection.close()  # the benchmark's own connection: not counted, not kept meanwhile
    failures = []
    with Live() as server:

        async def scenario():
            import psycopg

            warm = Screen(server.port, paths[0])  # Django imported and warmed by one stream
            await warm.open()
            warm.close()
            await asyncio.sleep(0.5)
            rss_before, threads_before = server.status("VmRSS"), server.status("Threads")
            screens = [Screen(server.port, paths[i % TOURNAMENTS]) for i in range(STREAMS)]
            sampler = PeakSampler(database)
            sampler.start()
            try:
                opened = await open_all(screens)
            finally:
                sampler.running = False
            await asyncio.sleep(1.0)
            with psycopg.connect(DEFAULT_DATABASE_URL.rsplit("/", 1)[0] + "/postgres") as conn:
                cursor = conn.cursor()
                pg_waiting = pg_connections(cursor, database)
            redis_count, redis_names = redis_connections(server)
            rss, threads = server.status("VmRSS"), server.status("Threads")

            def one_result():  # a table of the first tournament finishes: its screens hear it
                from scoring import services as scoring

                table = nights[0].rounds.get(number=1).tables.get(number=1)
                with override_settings(LIVE_REDIS_URL=REDIS_URL):
                    scoring.deal_record(
                        match=table.match, deal={"maker": 0, "card_points": [90, 62], "last_trick": 0}
                    )
                connection.close()

            first = screens[0::TOURNAMENTS]
            heard_one = await hear(first, one_result)

            def one_deal():  # a deal in play at the second tournament: no publish, its counter moves
                from django.core.cache import cache

                from tournaments import presence

                key = cache.make_key(presence.changes_key(nights[1].pk))
                redis.Redis.from_url(REDIS_URL).incr(key)  # as presence.changed does, in the live Redis

            heard_deal = await hear(screens[1::TOURNAMENTS], one_deal)

            def to_all():
                client = redis.Redis.from_url(REDIS_URL)
                for t in nights:
                    client.publish(live.channel(t.pk), json.dumps({"tournament": t.pk, "what": "clock"}))

            heard_all = await hear(screens, to_all)
            with psycopg.connect(DEFAULT_DATABASE_URL.rsplit("/", 1)[0] + "/postgres") as conn:
                pg_after = pg_connections(conn.cursor(), database)
            for screen in screens:
                screen.close()
            deadline = time.monotonic() + 30
            while (left := slots.zcard(f"{live.SLOT_KEY}127.0.0.1")) and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            return {
                "slots_left": left,
                "opened": opened,
                "pg_peak": sampler.peak,
                "pg_waiting": pg_waiting,
                "pg_after": pg_after,
                "redis": redis_count,
                "redis_names": redis_names,
                "rss_before": rss_before,
                "rss": rss,
                "threads_before": threads_before,
                "threads": threads,
                "heard_one": heard_one,
                "heard_deal": heard_deal,
                "heard_all": heard_all,
            }

        try:
            r = asyncio.run(scenario())
        except BaseException:
            print(server.log()[-3000:], file=sys.stderr)
            raise
        errors = [line for line in server.log().splitlines() if "Traceback" in line or "ERROR" in line]

    pg_worst = max(r["pg_peak"], r["pg_waiting"], r["pg_after"])
    rss_mb = r["rss"] / 1024
    figure("streams open", f"{STREAMS} in {r['opened']:.1f} s ({AT_ONCE} at a time)")
    figure(
        "PostgreSQL connections",
        f"{r['pg_waiting']} waiting, {r['pg_peak']} at most while opening, "
        f"{r['pg_after']} after the publishes",
        f"≤ {PG_TARGET}",
        pg_worst <= PG_TARGET,
    )
    figure(
        "Redis connections",
        f"{r['redis']}: {', '.join(r['redis_names'])}",
        f"≤ {REDIS_TARGET}",
        r["redis"] <= REDIS_TARGET,
    )
    figure(
        "memory (RSS)",
        f"{rss_mb:.0f} MB ({r['rss_before'] / 1024:.0f} MB before the first of them)",
        f"< {RSS_TARGET_MB} MB",
        rss_mb < RSS_TARGET_MB,
    )
    figure("threads of the process", f"{r['threads']} ({r['threads_before']} before)")
    one = sorted(r["heard_one"])
    figure(
        "a result reaches its 100 screens",
        f"{len(one)} heard it, median {one[len(one) // 2] * 1000:.0f} ms, last {one[-1] * 1000:.0f} ms",
    )
    deal = sorted(r["heard_deal"])
    figure(
        "a deal (no publish) reaches 100 screens",
        f"{len(deal)} heard it, median {deal[len(deal) // 2] * 1000:.0f} ms, last {deal[-1] * 1000:.0f} ms",
    )
    every = sorted(r["heard_all"])
    figure(
        "a publish to every tournament",
        f"{len(every)} of {STREAMS} heard it, median {every[len(every) // 2] * 1000:.0f} ms, "
        f"last {every[-1] * 1000:.0f} ms",
        f"{STREAMS}",
        len(every) == STREAMS,
    )
    figure("slots left in Redis once they closed", str(r["slots_left"]), "0", r["slots_left"] == 0)
    if errors:
        figure("errors in the live process's log", str(len(errors)), "0", False)
    if pg_worst > PG_TARGET:
        failures.append("PostgreSQL connections")
    if r["redis"] > REDIS_TARGET:
        failures.append("Redis connections")
    if rss_mb >= RSS_TARGET_MB:
        failures.append("memory")
    if errors:
        failures.append("errors")
    if r["slots_left"]:
        failures.append("slots freed")
    if failures:
        raise SystemExit(f"screens: missed {', '.join(failures)}")
