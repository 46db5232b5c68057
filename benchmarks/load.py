"""Load and faults: 100 tablets on 50 matches entering deals at once through gunicorn and PostgreSQL.

Two tablets keep each match and race on it (the match row lock serialises them). Every tablet
loops without pause for a fixed time (TSOXA_LOAD_SECONDS, 30 by default): a random valid deal
with a fresh Idempotency-Key, POSTed to /api/v1/matches/{id}/deals/. Faults, at random:

- a dropped answer (10%): the connection is closed as soon as the request is sent, and the deal
  is sent again with the same key (the server goes on with the first one: the two race); one
  time in five the tablet gives the deal up instead (switched off, its outbox lost): that deal
  is never acknowledged, and stored or not;
- a double tap (10%): the same deal sent twice at once, on two connections;
- a late resend (3%): a deal answered long ago sent again (a tablet's outbox after a reconnection);
- connection errors and 5xx answers are retried with the same key.

Then, against the same server, the ceiling: the same 100 clients on the cheapest view there is,
for TSOXA_LOAD_CEILING_SECONDS (10): GET /api/v1/, the API's root (no query; it measured cheaper
than /help/, a template without a query; TSOXA_LOAD_CEILING_PATH to change it). Then the server
is stopped and the database is checked against what the tablets sent: every acknowledged deal
stored (lost = 0), none stored twice (duplicates = 0), each as sent, at the id every answer
gave, and each match's totals those the engine computes from its stored deals. The command
fails otherwise.

It needs PostgreSQL (SQLite serialises every write): without DATABASE_URL it runs itself again
on TSOXA_LOAD_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tsoxa) when that answers.
gunicorn (TSOXA_LOAD_WORKERS workers, 3, of TSOXA_LOAD_THREADS threads, 4) serves the
throw-away database with DATABASE_URL's connection options (e.g. ?conn_max_age=60), DEBUG off,
Celery eager and the local memory cache. The CPU figures are Linux's (/proc), PostgreSQL's for
the whole server.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from urllib.parse import quote, urlencode

import gunicorn.config
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authtoken.models import Token

from benchmarks.swiss import random_deal
from scoring import engine, services
from scoring.api import IDEMPOTENCY_NAMESPACE
from scoring.models import Deal, Match

DEFAULT_DATABASE_URL = os.environ.get("TSOXA_LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tsoxa")
MATCHES = 50
TABLETS_PER_MATCH = 2
P_DROP = 0.10
P_ABANDON = 0.20  # of the dropped answers: the tablet does not send the deal again
P_DOUBLE = 0.10
P_LATE = 0.03
DROPPED = -1  # an exchange whose answer the tablet dropped
MAX_ATTEMPTS = 30  # a deal still unanswered after this many tries is given up (and reported)
TIMEOUT = 60.0  # seconds a client waits for an answer
FAILING = (  # any of these fails the benchmark
    "duplicates",
    "lost",
    "stored other than sent",
    "answers naming another deal",
    "matches with more deals than keys sent",
    "matches with gaps or doubles in positions",
    "matches whose totals or version disagree with their deals",
    "matches the API shows otherwise",
)
NOTED = ("deleted", "keys answered 201 (created) more than once", "gave up", "refused (4xx)")


def setting(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


# The server ------------------------------------------------------------------------------------


def database_url() -> str:
    """The URL of the database this process uses, the throw-away one made by benchmarks/__main__,
    with the connection settings DATABASE_URL gave (e.g. ?conn_max_age=60)."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    port = f":{db['PORT']}" if db["PORT"] else ""
    query = {k: v for k, v in db["OPTIONS"].items() if isinstance(v, str | int)}
    if db["CONN_MAX_AGE"] != 0:
        query["conn_max_age"] = db["CONN_MAX_AGE"]  # None (for ever) is read back as None
    if db["CONN_HEALTH_CHECKS"]:
        query["conn_health_checks"] = True
    url = f"postgres://{user}{password}@{db['HOST']}{port}/{quote(db['NAME'], safe='')}"
    return f"{url}?{urlencode(query)}" if query else url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """gunicorn on a free port of 127.0.0.1, serving the throw-away database; always stopped."""

    def __init__(self, workers: int, threads: int) -> None:
        self.workers, self.threads = workers, threads
        self.port = free_port()
        self.log_path = Path(tempfile.mkstemp(prefix="tsoxa-load-gunicorn-", suffix=".log")[1])
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Gunicorn:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_DEBUG": "false",
        }
        for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL"):
            env.pop(name, None)  # Celery eager, the cache in each process: nothing but PostgreSQL
        command = [
            sys.executable, "-m", "gunicorn", "benchmarks.load_wsgi:application",
            "--bind", f"127.0.0.1:{self.port}", "--workers", str(self.workers),
            "--threads", str(self.threads), "--graceful-timeout", "20", "--error-logfile", "-",
        ]  # fmt: skip
        if any(s.name == "control_socket_disable" for s in gunicorn.config.KNOWN_SETTINGS):
            command.append("--no-control-socket")  # gunicorn 27's ~/.gunicorn/gunicorn.ctl: not ours to take
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=settings.BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"gunicorn exited ({self.proc.returncode}):\n{self.log()[-3000:]}")
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
            try:
                conn.request("GET", "/api/v1/", headers={"Accept": "application/json"})
                if conn.getresponse().status == 200:
                    return
            except OSError:
                pass
            finally:
                conn.close()
            time.sleep(0.2)
        raise SystemExit(f"gunicorn did not answer within 60 s:\n{self.log()[-3000:]}")

    def stop(self) -> None:
        """Graceful: the requests in flight are finished first."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __exit__(self, *exc) -> None:
        self.stop()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def cpu_seconds(pid: int | None) -> float | None:
    """CPU time of a process and its children, alive (their /proc) or ended (its cutime): Linux only."""

    def fields(pid):
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return None
        return text[text.rindex(")") + 2 :].split()  # from the state on: ppid [1], utime… cstime [11:15]

    own = fields(pid) if pid else None
    if own is None:
        return None
    ticks = sum(int(x) for x in own[11:15])
    for entry in os.scandir("/proc"):
        child = fields(entry.name) if entry.name.isdigit() else None
        if child is not None and child[1] == str(pid):
            ticks += int(child[11]) + int(child[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def postmaster_pid() -> int | None:
    """PostgreSQL's main process when it runs on this machine (its backends are its children)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    try:
        ppid = int(Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()[1])
        return ppid if b"postgres" in Path(f"/proc/{ppid}/cmdline").read_bytes() else None
    except (OSError, ValueError, IndexError):
        return None


class CPU:
    """CPU used during a phase by the clients (this process), gunicorn and PostgreSQL."""

    def __init__(self, server: Gunicorn, postmaster: int | None) -> None:
        self.pids = {"gunicorn": server.proc.pid, "PostgreSQL": postmaster}

    def __enter__(self) -> CPU:
        self.started = time.perf_counter()
        self.clients = time.process_time()
        self.others = {name: cpu_seconds(pid) for name, pid in self.pids.items()}
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self.started
        used = {"clients": time.process_time() - self.clients}
        for name, pid in self.pids.items():
            before, after = self.others[name], cpu_seconds(pid)
            if before is not None and after is not None:
                used[name] = after - before
        self.used = used

    def __str__(self) -> str:
        parts = " · ".join(f"{name} {s:.1f} s" for name, s in self.used.items())
        return f"{parts} (of {os.cpu_count()} cores × {self.wall:.1f} s = {os.cpu_count() * self.wall:.0f} s)"


# The tablets -----------------------------------------------------------------------------------


@dataclass
class Sent:
    """One deal (one Idempotency-Key) as the tablet knows it."""

    match: int
    deal: dict
    body: bytes
    answers: list[tuple[int, int]] = field(default_factory=list)  # (status, deal id) of each 2xx
    refused: list[tuple[int, bytes]] = field(default_factory=list)  # 4xx
    abandoned: bool = False  # after a dropped answer
    gave_up: bool = False  # after MAX_ATTEMPTS


class Tablet:
    def __init__(self, match: int, port: int, token: str, deadline: float, rng: Random) -> None:
        self.match, self.port, self.deadline, self.rng = match, port, deadline, rng
        self.path = f"/api/v1/matches/{match}/deals/"
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.conn = self.connect()
        self.sent: dict[str, Sent] = {}
        self.acked: list[str] = []
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.counts: Counter[str] = Counter()
        self.error: BaseException | None = None

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)

    def run(self) -> None:
        try:
            self.loop()
        except BaseException as error:  # reported by the benchmark, not lost in a thread
            self.error = error
        finally:
            self.conn.close()

    def loop(self) -> None:
        rng = self.rng
        while time.monotonic() < self.deadline:
            if self.acked and rng.random() < P_LATE:
                self.counts["late resends"] += 1
                key = rng.choice(self.acked)
                self.deliver(key, self.sent[key])
                continue
            key = str(uuid.uuid4())
            deal = random_deal(rng)
            sent = self.sent[key] = Sent(self.match, deal, json.dumps(deal).encode())
            if rng.random() < P_DOUBLE:
                self.counts["double taps"] += 1
                self.double_tap(key, sent)
            else:
                self.deliver(key, sent)
            if sent.answers:
                self.acked.append(key)

    def send(self, conn: http.client.HTTPConnection, key: str, sent: Sent) -> bool:
        self.counts["requests"] += 1
        try:
            conn.request("POST", self.path, body=sent.body, headers={**self.headers, "Idempotency-Key": key})
            return True
        except (OSError, http.client.HTTPException):
            conn.close()
            self.counts["connection errors"] += 1
            return False

    def answer(self, conn: http.client.HTTPConnection, sent: Sent, started: float | None) -> int | None:
        """Read one answer (its latency from ``started``); None when the connection failed."""
        try:
            response = conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            self.counts["connection errors"] += 1
            return None
        if started is not None:
            self.latencies.append(time.perf_counter() - started)
        self.statuses[response.status] += 1
        if 200 <= response.status < 300:
            sent.answers.append((response.status, json.loads(data)["deal"]["id"]))
        elif response.status < 500:
            sent.refused.append((response.status, data[:300]))
        return response.status

    def exchange(self, key: str, sent: Sent) -> int | None:
        """One request: its status, DROPPED, or None when the connection failed."""
        started = time.perf_counter()
        if not self.send(self.conn, key, sent):
            return None
        if self.rng.random() < P_DROP:
            self.conn.close()  # the answer is lost; the server carries on
            self.counts["dropped answers"] += 1
            return DROPPED
        return self.answer(self.conn, sent, started)

    def deliver(self, key: str, sent: Sent) -> None:
        """Send until an answer comes: the same key every time."""
        for attempt in range(MAX_ATTEMPTS):
            if attempt:
                self.counts["retries"] += 1
            status = self.exchange(key, sent)
            if status == DROPPED and self.rng.random() < P_ABANDON:
                sent.abandoned = True
                self.counts["deals given up after a drop"] += 1
                return
            if status is not None and 0 <= status < 500:
                return  # recorded (2xx) or refused (4xx: the application's answer, not retried)
            time.sleep(self.rng.uniform(0, 0.02) * min(attempt + 1, 5))
        sent.gave_up = True

    def double_tap(self, key: str, sent: Sent) -> None:
        """The same deal twice at once on two connections, both answers read (the first timed)."""
        started = time.perf_counter()
        second = self.connect()
        try:
            sent_on = [c for c in (self.conn, second) if self.send(c, key, sent)]
            statuses = [self.answer(c, sent, started if c is self.conn else None) for c in sent_on]
        finally:
            second.close()
        if not any(s is not None and s < 500 for s in statuses):
            self.deliver(key, sent)


def run_threads(workers: list, target: str) -> float:
    threads = [threading.Thread(target=getattr(w, target), daemon=True) for w in workers]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


class Reader:
    """A client of the ceiling: GETs the trivial page until the deadline."""

    def __init__(self, port: int, path: str, deadline: float) -> None:
        self.port, self.path, self.deadline = port, path, deadline
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.errors = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        while time.monotonic() < self.deadline:
            started = time.perf_counter()
            try:
                conn.request("GET", self.path, headers={"Accept": "application/json"})
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                self.errors += 1
                continue
            self.latencies.append(time.perf_counter() - started)
            self.statuses[response.status] += 1
        conn.close()


# Set-up and checks -----------------------------------------------------------------------------


def set_up() -> tuple[list[Match], str]:
    user = get_user_model().objects.create_user("load-keeper")
    token = Token.objects.create(user=user).key
    matches = [
        services.match_create(
            teams=[(f"Load {i} A", [f"L{i}-1", f"L{i}-3"]), (f"Load {i} B", [f"L{i}-2", f"L{i}-4"])],
            options={"deals": 0, "target": 1_000_000},  # no match ends while the tablets play (~300 a deal)
            created_by=user,
        )
        for i in range(MATCHES)
    ]
    return matches, token


def api_counts(port: int, matches: list[Match]) -> dict[int, tuple[int, list[int]]]:
    """Each match as GET /api/v1/matches/{id}/ shows it: its deals and totals."""
    out = {}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        for match in matches:
            conn.request("GET", f"/api/v1/matches/{match.pk}/", headers={"Accept": "application/json"})
            response = conn.getresponse()
            body = response.read()
            if response.status != 200:
                raise SystemExit(
                    f"GET /api/v1/matches/{match.pk}/ answered {response.status}: {body[:300]!r}"
                )
            data = json.loads(body)
            out[match.pk] = (len(data["deals"]), data["sheet"]["totals"])
    finally:
        conn.close()
    return out


def check(sent: dict[str, Sent], matches: list[Match], api: dict) -> Counter:
    """The database against what the tablets sent and were answered."""
    by_uuid = {uuid.uuid5(IDEMPOTENCY_NAMESPACE, key): key for key in sent}
    rows = list(Deal.objects.filter(match__in=matches).order_by("match_id", "position"))
    found = {}  # key -> its stored row
    r: Counter[str] = Counter()
    for row in rows:
        key = by_uuid.get(row.client_key)
        if key is None or sent[key].match != row.match_id or key in found:
            r["duplicates"] += 1  # a second row for a key, or a row no tablet sent
            continue
        found[key] = row
        if row.data != engine.Deal.from_dict(sent[key].deal).to_dict():
            r["stored other than sent"] += 1
        if row.deleted_at is not None:
            r["deleted"] += 1
    per_match = defaultdict(list)
    for row in rows:
        per_match[row.match_id].append(row)
    keys_per_match = Counter(s.match for s in sent.values())
    for match in Match.objects.filter(pk__in=[m.pk for m in matches]):
        stored = per_match[match.pk]
        if len(stored) > keys_per_match[match.pk]:
            r["matches with more deals than keys sent"] += 1
        if [d.position for d in stored] != list(range(1, len(stored) + 1)):
            r["matches with gaps or doubles in positions"] += 1
        sheet = engine.replay(
            match.ruleset, [d.as_engine() for d in stored], options=match.options,
            first_dealer=match.first_dealer,
        )  # fmt: skip
        if list(sheet.totals) != match.totals or match.version != len(stored):
            r["matches whose totals or version disagree with their deals"] += 1
        if api[match.pk] != (len(stored), match.totals):
            r["matches the API shows otherwise"] += 1
    for key, s in sent.items():
        row = found.get(key)
        if s.answers and row is None:
            r["lost"] += 1
        if not s.answers:
            r["never acknowledged"] += 1
            r["never acknowledged, stored anyway"] += row is not None
        if row is not None and any(deal_id != row.pk for _, deal_id in s.answers):
            r["answers naming another deal"] += 1
        if [status for status, _ in s.answers].count(201) > 1:
            r["keys answered 201 (created) more than once"] += 1
        r["gave up"] += s.gave_up
        r["refused (4xx)"] += bool(s.refused)
    r["stored"] = len(rows)
    r["acknowledged"] = sum(1 for s in sent.values() if s.answers)
    sizes = sorted(len(per_match[m.pk]) for m in matches)
    r["deals a match"] = f"{sizes[0]}, median {statistics.median(sizes):g}, max {sizes[-1]}"
    return r


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "too few answers"
    q = statistics.quantiles(values, n=100, method="inclusive")
    return (f"p50 {q[49] * 1000:.0f} ms · p95 {q[94] * 1000:.0f} ms · p99 {q[98] * 1000:.0f} ms · "
            f"max {max(values) * 1000:.0f} ms")  # fmt: skip


def server_errors(log: str) -> tuple[int, str]:
    """The 5xx Django logged, and the first traceback."""
    lines = log.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("[django] ERROR")]
    first = "\n".join(lines[starts[0] : starts[0] + 40]) if starts else ""
    return len(starts), first


# The benchmark ---------------------------------------------------------------------------------


def elsewhere() -> None:
    """Not on PostgreSQL: run again on the default PostgreSQL when it answers, else say how."""
    how = f"DATABASE_URL={DEFAULT_DATABASE_URL} ./run bench load"
    if os.environ.get("DATABASE_URL"):
        raise SystemExit(f"the load benchmark needs PostgreSQL, not {connection.vendor}: {how}")
    import psycopg

    try:
        psycopg.connect(DEFAULT_DATABASE_URL.rsplit("/", 1)[0] + "/postgres", connect_timeout=3).close()
    except psycopg.Error as error:
        raise SystemExit(
            f"the load benchmark needs PostgreSQL, and none answers at {DEFAULT_DATABASE_URL} "
            f"({str(error).strip().splitlines()[0]}): start one, or give yours: {how}"
        ) from None
    print(f"Load: no DATABASE_URL, so on PostgreSQL at {DEFAULT_DATABASE_URL} (its own throw-away database)")
    sys.stdout.flush()
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "load"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DATABASE_URL": DEFAULT_DATABASE_URL},
        check=False,
    )
    if done.returncode:
        raise SystemExit(done.returncode)


def run() -> None:
    if connection.vendor != "postgresql":
        return elsewhere()
    seconds = setting("TSOXA_LOAD_SECONDS", 30)
    ceiling_seconds = setting("TSOXA_LOAD_CEILING_SECONDS", 10)
    ceiling_path = os.environ.get("TSOXA_LOAD_CEILING_PATH", "/api/v1/")
    workers, threads = int(setting("TSOXA_LOAD_WORKERS", 3)), int(setting("TSOXA_LOAD_THREADS", 4))
    tablets_n = MATCHES * TABLETS_PER_MATCH
    print(f"Load: {tablets_n} tablets on {MATCHES} matches for {seconds:g} s, gunicorn {workers} workers × "
          f"{threads} threads, PostgreSQL {connection.settings_dict['NAME']}")  # fmt: skip
    matches, token = set_up()
    postmaster = postmaster_pid()
    rng = Random(100)
    server = Gunicorn(workers, threads)
    try:
        with server:
            deadline = time.monotonic() + seconds
            tablets = [
                Tablet(
                    matches[i // TABLETS_PER_MATCH].pk,
                    server.port,
                    token,
                    deadline,
                    Random(rng.getrandbits(64)),
                )
                for i in range(tablets_n)
            ]
            with CPU(server, postmaster) as load_cpu:
                load_time = run_threads(tablets, "run")
            deadline = time.monotonic() + ceiling_seconds
            readers = [Reader(server.port, ceiling_path, deadline) for _ in range(tablets_n)]
            with CPU(server, postmaster) as ceiling_cpu:
                ceiling_time = run_threads(readers, "run")
            api = api_counts(server.port, matches)
        log = server.log()
    except BaseException:
        print(f"gunicorn's log ends:\n{server.log()[-3000:]}")
        raise
    finally:
        server.log_path.unlink(missing_ok=True)
    for tablet in tablets:
        if tablet.error is not None:
            raise SystemExit(f"a tablet failed: {tablet.error!r}")

    sent = {key: s for t in tablets for key, s in t.sent.items()}
    counts = sum((t.counts for t in tablets), Counter())
    statuses = sum((t.statuses for t in tablets), Counter())
    latencies = [x for t in tablets for x in t.latencies]
    r = check(sent, matches, api)
    errors_logged, first_error = server_errors(log)
    fives = sum(n for status, n in statuses.items() if status >= 500)
    answers = ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
    reads = [x for reader in readers for x in reader.latencies]
    read_statuses = sum((reader.statuses for reader in readers), Counter())

    print(
        f"deals sent (requests):        {counts['requests']} in {load_time:.1f} s "
        f"({counts['requests'] / load_time:.0f}/s)"
    )
    print(
        f"  of which faults:            {counts['dropped answers']} answers dropped, "
        f"{counts['double taps']} double taps, {counts['late resends']} late resends, "
        f"{counts['retries']} retries, {counts['connection errors']} connection errors, "
        f"{counts['deals given up after a drop']} deals given up after a drop"
    )
    print(f"distinct keys (deals):        {len(sent)}")
    print(f"acknowledged (2xx):           {r['acknowledged']}")
    print(
        f"stored:                       {r['stored']} ({r['stored'] / load_time:.1f} deals/s; "
        f"a match: min {r['deals a match']})"
    )
    print(
        f"never acknowledged:           {r['never acknowledged']} "
        f"({r['never acknowledged, stored anyway']} stored anyway: fine, the request got there)"
    )
    print(f"duplicates:                   {r['duplicates']}")
    print(f"lost:                         {r['lost']}")
    print(f"answers:                      {answers}")
    print(f"latency (answered POSTs):     {percentiles(latencies)}")
    print(f"CPU used:                     {load_cpu}")
    read_errors = sum(x.errors for x in readers)
    print(
        f"ceiling, GET {ceiling_path} on the same server, {len(readers)} clients: "
        f"{len(reads) / ceiling_time:.0f} requests/s, {percentiles(reads)}; answers "
        f"{dict(sorted(read_statuses.items()))}, {read_errors} connection errors"
    )
    print(f"  CPU used:                   {ceiling_cpu}")
    for name in (*FAILING[2:], *NOTED):
        if r[name]:
            print(f"  {name}: {r[name]}")
    for s in sent.values():
        if s.refused:
            print(f"  first refusal: {s.refused[0][0]} {s.refused[0][1]!r} for {s.deal}")
            break
    if errors_logged or fives:
        print(f"server errors: {fives} answers 5xx, {errors_logged} logged; the first:\n{first_error}")

    failures = [name for name in FAILING if r[name]]
    if failures:
        raise SystemExit(f"the load benchmark failed: {', '.join(f'{n} {r[n]}' for n in failures)}")
