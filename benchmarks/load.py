"""The deal path, and load and faults: 100 tablets on 50 matches through gunicorn and PostgreSQL.

First, in this process, against the same throw-away database (issue 12's targets):

- the SQL queries of a deal POST, through the API (a token) and the tablet (htmx, a signed-in
  scorekeeper), at the match's deal 1 and deal 40 (target: at most 8, whatever the match's length;
  the transaction's BEGIN and COMMIT, which Django does not log on PostgreSQL, are not counted);
- the CPU of a deal: ``time.process_time`` around API POSTs called on the WSGI application, in
  rounds of TSOXA_LOAD_CPU_DEALS (100) deals on one match growing from 40 deals (target ≤ 5 ms; the
  median round), beside a trivial view's and a minimal write's.

Then gunicorn (TSOXA_LOAD_WORKERS workers, 3, of TSOXA_LOAD_THREADS threads, 4) serves the
throw-away database, DEBUG off, Celery eager, the local memory cache, and:

1. Faults, for TSOXA_LOAD_SECONDS (20): every tablet loops without pause, a random valid deal with a
   fresh Idempotency-Key POSTed to /api/v1/matches/{id}/deals/ (two tablets a match race on it: the
   match row lock serialises them), with, at random:
   - a dropped answer (10%): the connection is closed as soon as the request is sent, and the deal
     is sent again with the same key (the server goes on with the first one: the two race); one
     time in five the tablet gives the deal up instead (switched off, its outbox lost): that deal
     is never acknowledged, and stored or not;
   - a double tap (10%): the same deal sent twice at once, on two connections;
   - a late resend (3%): a deal answered long ago sent again (a tablet's outbox after a reconnection);
   - connection errors and 5xx answers are retried with the same key.
2. Steady arrival, for TSOXA_LOAD_STEADY_SECONDS (20): the 100 tablets each send a deal every
   100 / TSOXA_LOAD_RATE seconds (50 deals/s in all), on a schedule spread over the interval, not as
   fast as they can; each latency runs from the time the deal was due (a tablet still waiting for
   its last answer sends late, and that wait counts). Target: p99 ≤ 100 ms.
3. Saturation, for TSOXA_LOAD_SATURATION_SECONDS (10): the tablets as fast as they can, no faults:
   deals per second.
4. The minimal write, for TSOXA_LOAD_CEILING_SECONDS (10): the same 100 clients as fast as they can
   on a view that authenticates with the token and inserts one row in a transaction (served by the
   benchmark's server only: benchmarks/load_wsgi.py). Target: deals ≥ 50 % of its throughput. 3 and
   4 take turns, two each, so that whatever else the machine runs weighs on both alike.
5. The trivial view, for half as long: GET /api/v1/, the API's root (no query;
   TSOXA_LOAD_CEILING_PATH to change it), for comparison.

Then the server is stopped and the database is checked against what the tablets sent: every
acknowledged deal stored (lost = 0), none stored twice (duplicates = 0), each as sent, at the id
every answer gave, and each match's totals, version and stored state those the engine computes
from its stored deals. The command fails on any of these, on more than 8 queries a deal, and on a
throughput ratio under the target; absolute times are printed beside their targets, not enforced
(the machine is shared).

It needs PostgreSQL (SQLite serialises every write): without DATABASE_URL it runs itself again
on TSOXA_LOAD_DATABASE_URL (postgres://postgres@127.0.0.1:5432/tsoxa) when that answers.
gunicorn serves the throw-away database with DATABASE_URL's connection options (e.g.
?conn_max_age=60). The CPU figures are Linux's (/proc), PostgreSQL's for the whole server.
"""

from __future__ import annotations

import http.client
import io
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
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from rest_framework.authtoken.models import Token

from benchmarks import load_wsgi
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
NO_FAULTS = (0.0, 0.0, 0.0)
# Issue 12's targets for the deal path.
QUERIES_TARGET = 8  # SQL queries a deal POST, whatever the match's length (enforced)
CPU_TARGET_MS = 5.0  # CPU of a deal POST in the web process (printed)
RATIO_TARGET = 0.5  # deals/s at saturation ÷ minimal writes/s on the same server (enforced)
P99_TARGET_MS = 100.0  # at a steady 50 deals/s from 100 tablets (printed)
SLICES = 2  # saturation and the minimal write alternate, in this many turns each
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
    "matches whose stored state disagrees with a replay of their deals",
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


class Served:
    """A server of the app started by a benchmark on a free port of 127.0.0.1, its output in a log
    file; stopped gracefully (the requests in flight finished first) when the ``with`` ends."""

    STOP_WAIT = 40

    def __init__(self, name: str) -> None:
        self.port = free_port()
        self.log_path = Path(tempfile.mkstemp(prefix=f"tsoxa-{name}-", suffix=".log")[1])
        self.proc: subprocess.Popen | None = None

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=self.STOP_WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def __exit__(self, *exc) -> None:
        self.stop()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


class Gunicorn(Served):
    """gunicorn serving the throw-away database; always stopped."""

    def __init__(self, workers: int, threads: int) -> None:
        super().__init__("load-gunicorn")
        self.workers, self.threads = workers, threads

    def __enter__(self) -> Gunicorn:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_DEBUG": "false",
            "TSOXA_LOAD_BENCHMARK": "1",  # benchmarks/load_wsgi.py: the minimal write's view too
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

    def __add__(self, other: CPU) -> CPU:
        both = CPU.__new__(CPU)
        both.wall = self.wall + other.wall
        both.used = {name: s + other.used.get(name, 0.0) for name, s in self.used.items()}
        return both


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
    """A tablet sending deals as fast as it can, with faults (``faults``: the chances of a dropped
    answer, a double tap and a late resend; ``NO_FAULTS`` for none)."""

    def __init__(
        self,
        match: int,
        port: int,
        token: str,
        deadline: float,
        rng: Random,
        faults: tuple[float, float, float] = (P_DROP, P_DOUBLE, P_LATE),
    ) -> None:
        self.match, self.port, self.deadline, self.rng = match, port, deadline, rng
        self.p_drop, self.p_double, self.p_late = faults
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
            if self.acked and rng.random() < self.p_late:
                self.counts["late resends"] += 1
                key = rng.choice(self.acked)
                self.deliver(key, self.sent[key])
                continue
            key = str(uuid.uuid4())
            deal = random_deal(rng)
            sent = self.sent[key] = Sent(self.match, deal, json.dumps(deal).encode())
            if rng.random() < self.p_double:
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
        if self.rng.random() < self.p_drop:
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


class SteadyTablet(Tablet):
    """A tablet sending a deal every ``interval`` seconds from ``first`` on, on schedule (a table
    plays at its own pace, whatever the server does): its latencies run from the time each deal was
    due, so that an answer that came late delays the next deal and counts in its latency too."""

    def __init__(self, match, port, token, deadline, rng, *, first: float, interval: float) -> None:
        super().__init__(match, port, token, deadline, rng, NO_FAULTS)
        self.first, self.interval = first, interval
        self.from_due: list[float] = []  # seconds from the time each deal was due to its answer

    def loop(self) -> None:
        due = self.first
        while due < self.deadline:
            time.sleep(max(0.0, due - time.monotonic()))
            key = str(uuid.uuid4())
            deal = random_deal(self.rng)
            sent = self.sent[key] = Sent(self.match, deal, json.dumps(deal).encode())
            self.deliver(key, sent)
            if sent.answers or sent.refused:
                self.from_due.append(time.monotonic() - due)
            if sent.answers:
                self.acked.append(key)
            due += self.interval


class Requester:
    """A client that sends one request again and again, as fast as it can, until the deadline: the
    minimal write (benchmarks/load_wsgi.py, with the token) or the ceiling's trivial page."""

    def __init__(self, port: int, deadline: float, method: str, path: str, body=None, headers=None) -> None:
        self.port, self.deadline = port, deadline
        self.method, self.path, self.body, self.headers = method, path, body, headers or {}
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.errors = 0

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        while time.monotonic() < self.deadline:
            started = time.perf_counter()
            try:
                conn.request(self.method, self.path, body=self.body, headers=self.headers)
                response = conn.getresponse()
                response.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                self.errors += 1
                continue
            self.latencies.append(time.perf_counter() - started)
            self.statuses[response.status] += 1
        conn.close()


def minimal_writer(port: int, token: str, deadline: float) -> Requester:
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    body = json.dumps(random_deal(Random(port))).encode()
    return Requester(port, deadline, "POST", f"/{load_wsgi.MINIMAL_WRITE_PATH}", body, headers)


def ceiling_reader(port: int, path: str, deadline: float) -> Requester:
    return Requester(port, deadline, "GET", path, headers={"Accept": "application/json"})


def run_threads(workers: list, target: str) -> float:
    threads = [threading.Thread(target=getattr(w, target), daemon=True) for w in workers]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


# Set-up and checks -----------------------------------------------------------------------------


def new_match(user, name: str) -> Match:
    return services.match_create(
        teams=[(f"{name} A", [f"{name}-1", f"{name}-3"]), (f"{name} B", [f"{name}-2", f"{name}-4"])],
        options={"deals": 0, "target": 1_000_000},  # no match ends while the tablets play (~300 a deal)
        created_by=user,
    )


def set_up() -> tuple[object, list[Match], str]:
    user = get_user_model().objects.create_user("load-keeper")
    token = Token.objects.create(user=user).key
    return user, [new_match(user, f"Load {i}") for i in range(MATCHES)], token


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
        if match.state != sheet.state.to_dict():
            r["matches whose stored state disagrees with a replay of their deals"] += 1
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


# In this process: queries and CPU of a deal -------------------------------------------------------

TRANSACTION = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")


class App:
    """The project's WSGI application called in this process, as gunicorn would call it."""

    def __init__(self, token: str) -> None:
        self.handler = WSGIHandler()
        self.token = token

    def __call__(self, method: str, path: str, body: bytes = b"", **headers: str) -> str:
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80", "HTTP_HOST": "testserver", "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": "application/json", "wsgi.errors": sys.stderr, "HTTP_ACCEPT": "application/json",
            "HTTP_AUTHORIZATION": f"Token {self.token}",
            **{f"HTTP_{name.upper()}": value for name, value in headers.items()},
        }  # fmt: skip
        status = []
        answer = self.handler(environ, lambda s, h, exc_info=None: status.append(s))
        try:
            b"".join(answer)
        finally:
            answer.close()
        return status[0]


def queries(request) -> int:
    """The SQL queries one request runs (its BEGIN and COMMIT, not logged on PostgreSQL, apart)."""
    with CaptureQueriesContext(connection) as captured:
        request()
    return sum(1 for q in captured if not q["sql"].startswith(TRANSACTION))


def deal_body(rng: Random) -> bytes:
    return json.dumps(random_deal(rng)).encode()


def deal_queries(user, token: str) -> dict[str, tuple[int, int]]:
    """SQL queries of a deal POST at deal 1 and deal 40: the API (a token) and the tablet (htmx,
    the scorekeeper signed in), each on a match of its own."""
    app, rng = App(token), Random(1)
    api_match, tablet_match = new_match(user, "Queries API"), new_match(user, "Queries tablet")
    api_path = f"/api/v1/matches/{api_match.pk}/deals/"

    def api_post(n):
        status = app("POST", api_path, deal_body(rng), idempotency_key=f"q-{n}")
        assert status.startswith("201"), status

    tablet = Client()
    tablet.force_login(user)

    def tablet_post(n):
        pad = {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "card_points": "90",
               "last_trick": "0", "version": str(n)}  # fmt: skip
        response = tablet.post(f"/matches/{tablet_match.pk}/deals/", pad, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.status_code

    out = {}
    for name, post in (("API", api_post), ("tablet", tablet_post)):
        first = queries(lambda post=post: post(0))
        for n in range(1, 39):
            post(n)
        out[name] = (first, queries(lambda post=post: post(39)))
    return out


def cpu_per_request(app: App, rounds: int, n: int, request) -> list[float]:
    """Milliseconds of this process's CPU a request, in ``rounds`` rounds of ``n``."""
    request(-1)  # warm
    times = []
    for r in range(rounds):
        started = time.process_time()
        for i in range(n):
            request(r * n + i)
        times.append((time.process_time() - started) / n * 1000)
    return times


def deal_cpu(user, token: str, n: int) -> dict[str, list[float]]:
    """CPU of an API deal POST on one match (from 40 deals on, growing), of the trivial view and of
    the minimal write, called on the WSGI application in this process."""
    app, rng = App(token), Random(2)
    match = new_match(user, "CPU")
    path = f"/api/v1/matches/{match.pk}/deals/"
    for i in range(40):
        app("POST", path, deal_body(rng), idempotency_key=f"warm-{i}")
    out = {
        "deal": cpu_per_request(
            app, 5, n, lambda i: app("POST", path, deal_body(rng), idempotency_key=f"c-{i}")
        )
    }
    out["trivial"] = cpu_per_request(app, 3, n, lambda i: app("GET", "/api/v1/"))
    with override_settings(ROOT_URLCONF=load_wsgi.__name__):
        write = f"/{load_wsgi.MINIMAL_WRITE_PATH}"
        out["minimal write"] = cpu_per_request(app, 3, n, lambda i: app("POST", write, deal_body(rng)))
    return out


def ms_rounds(times: list[float]) -> str:
    median, low, high = statistics.median(times), min(times), max(times)
    return f"{median:.2f} ms (median of {len(times)} rounds; {low:.2f}–{high:.2f})"


# The benchmark ---------------------------------------------------------------------------------


def elsewhere(name: str = "load", database: str = DEFAULT_DATABASE_URL) -> None:
    """Not on PostgreSQL: run the benchmark ``name`` again on ``database`` when its PostgreSQL
    answers, else say how (the load and the screens benchmarks need PostgreSQL)."""
    how = f"DATABASE_URL={database} ./run bench {name}"
    if os.environ.get("DATABASE_URL"):
        raise SystemExit(f"the {name} benchmark needs PostgreSQL, not {connection.vendor}: {how}")
    import psycopg

    try:
        psycopg.connect(database.rsplit("/", 1)[0] + "/postgres", connect_timeout=3).close()
    except psycopg.Error as error:
        raise SystemExit(
            f"the {name} benchmark needs PostgreSQL, and none answers at {database} "
            f"({str(error).strip().splitlines()[0]}): start one, or give yours: {how}"
        ) from None
    print(f"{name.capitalize()}: no DATABASE_URL, so on PostgreSQL at {database} (a throw-away database)")
    sys.stdout.flush()
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", name],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DATABASE_URL": database},
        check=False,
    )
    if done.returncode:
        raise SystemExit(done.returncode)


def figure(label: str, value: str, target: str = "", ok: bool | None = None, *, width: int = 34) -> None:
    """One figure, its target beside it."""
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    print(f"{label:<{width}} {value}" + (f"  [target {target}]{mark}" if target else ""))


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds else 0.0


def p99(values: list[float]) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[98] * 1000
        if len(values) > 1
        else float("nan")
    )


def run() -> None:
    if connection.vendor != "postgresql":
        return elsewhere()
    seconds = setting("TSOXA_LOAD_SECONDS", 20)
    steady_seconds = setting("TSOXA_LOAD_STEADY_SECONDS", 20)
    steady_rate = setting("TSOXA_LOAD_RATE", 50)
    saturation_seconds = setting("TSOXA_LOAD_SATURATION_SECONDS", 10)
    ceiling_seconds = setting("TSOXA_LOAD_CEILING_SECONDS", 10)
    ceiling_path = os.environ.get("TSOXA_LOAD_CEILING_PATH", "/api/v1/")
    cpu_deals = int(setting("TSOXA_LOAD_CPU_DEALS", 100))
    workers, threads = int(setting("TSOXA_LOAD_WORKERS", 3)), int(setting("TSOXA_LOAD_THREADS", 4))
    tablets_n = MATCHES * TABLETS_PER_MATCH
    print(f"Load: {tablets_n} tablets on {MATCHES} matches, gunicorn {workers} workers × {threads} threads, "
          f"PostgreSQL {connection.settings_dict['NAME']}, {os.cpu_count()} cores")  # fmt: skip
    user, matches, token = set_up()
    with connection.cursor() as cursor:
        cursor.execute(load_wsgi.MINIMAL_WRITE_DDL)

    print("The deal path, in this process:")
    counted = deal_queries(user, token)
    most = max(max(pair) for pair in counted.values())
    figure(
        "  SQL queries a deal POST",
        " · ".join(f"{name} {a} at deal 1, {b} at deal 40" for name, (a, b) in counted.items()),
        f"≤ {QUERIES_TARGET} (BEGIN and COMMIT apart)",
        most <= QUERIES_TARGET,
    )
    cpu = deal_cpu(user, token, cpu_deals)
    figure(f"  CPU a deal (API POST, ×{cpu_deals})", ms_rounds(cpu["deal"]), f"≤ {CPU_TARGET_MS:g} ms",
           statistics.median(cpu["deal"]) <= CPU_TARGET_MS)  # fmt: skip
    figure("  CPU a minimal write (for scale)", ms_rounds(cpu["minimal write"]))
    figure("  CPU a trivial view (for scale)", ms_rounds(cpu["trivial"]))
    sys.stdout.flush()

    postmaster = postmaster_pid()
    rng = Random(100)
    server = Gunicorn(workers, threads)

    def tablets_at(deadline, **kwargs):
        return [
            Tablet(
                matches[i // TABLETS_PER_MATCH].pk,
                server.port,
                token,
                deadline,
                Random(rng.getrandbits(64)),
                **kwargs,
            )
            for i in range(tablets_n)
        ]

    try:
        with server:
            faulty = tablets_at(time.monotonic() + seconds)
            with CPU(server, postmaster) as load_cpu:
                load_time = run_threads(faulty, "run")
            interval = tablets_n / steady_rate
            start = time.monotonic() + 1.0
            steady = [
                SteadyTablet(
                    matches[i // TABLETS_PER_MATCH].pk, server.port, token, start + steady_seconds,
                    Random(rng.getrandbits(64)), first=start + interval * i / tablets_n, interval=interval,
                )
                for i in range(tablets_n)
            ]  # fmt: skip
            with CPU(server, postmaster) as steady_cpu:
                run_threads(steady, "run")
            # Saturation and the minimal write take turns (SLICES each): whatever else the machine
            # runs meanwhile weighs on both sides of their ratio alike.
            saturating, writers, saturation_time, write_time = [], [], 0.0, 0.0
            saturation_cpu = write_cpu = None
            for _ in range(SLICES):
                tablets = tablets_at(time.monotonic() + saturation_seconds / SLICES, faults=NO_FAULTS)
                with CPU(server, postmaster) as used:
                    saturation_time += run_threads(tablets, "run")
                saturating += tablets
                saturation_cpu = used if saturation_cpu is None else saturation_cpu + used
                clients = [
                    minimal_writer(server.port, token, time.monotonic() + ceiling_seconds / SLICES)
                    for _ in range(tablets_n)
                ]
                with CPU(server, postmaster) as used:
                    write_time += run_threads(clients, "run")
                writers += clients
                write_cpu = used if write_cpu is None else write_cpu + used
            deadline = time.monotonic() + ceiling_seconds / 2
            readers = [ceiling_reader(server.port, ceiling_path, deadline) for _ in range(tablets_n)]
            with CPU(server, postmaster) as ceiling_cpu:
                ceiling_time = run_threads(readers, "run")
            api = api_counts(server.port, matches)
        log = server.log()
    except BaseException:
        print(f"gunicorn's log ends:\n{server.log()[-3000:]}")
        raise
    finally:
        server.log_path.unlink(missing_ok=True)
    everyone = [*faulty, *steady, *saturating]
    for tablet in everyone:
        if tablet.error is not None:
            raise SystemExit(f"a tablet failed: {tablet.error!r}")

    sent = {key: s for t in everyone for key, s in t.sent.items()}
    counts = sum((t.counts for t in faulty), Counter())
    statuses = sum((t.statuses for t in faulty), Counter())
    latencies = [x for t in faulty for x in t.latencies]
    r = check(sent, matches, api)
    errors_logged, first_error = server_errors(log)
    fives = sum(n for status, n in sum((t.statuses for t in everyone), Counter()).items() if status >= 500)
    answers = ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))

    print(f"Through gunicorn, {tablets_n} tablets on {MATCHES} matches:")
    print(f"  1. faults, {seconds:g} s, each tablet as fast as it can:")
    print(
        f"     deals sent (requests):      {counts['requests']} in {load_time:.1f} s "
        f"({rate(counts['requests'], load_time):.0f}/s)"
    )
    print(
        f"       of which faults:          {counts['dropped answers']} answers dropped, "
        f"{counts['double taps']} double taps, {counts['late resends']} late resends, "
        f"{counts['retries']} retries, {counts['connection errors']} connection errors, "
        f"{counts['deals given up after a drop']} deals given up after a drop"
    )
    print(f"     distinct keys (deals):      {sum(len(t.sent) for t in faulty)}")
    print(f"     answers:                    {answers}")
    print(f"     latency (answered POSTs):   {percentiles(latencies)}")
    print(f"     CPU used:                   {load_cpu}")

    on_time = [x for t in steady for x in t.from_due]
    steady_answers = sum((t.statuses for t in steady), Counter())
    print(f"  2. steady arrival, {steady_seconds:g} s: each tablet a deal every {interval:g} s, "
          f"{steady_rate:g} deals/s in all")  # fmt: skip
    figure("     latency from the time due", percentiles(on_time), f"p99 ≤ {P99_TARGET_MS:g} ms",
           p99(on_time) <= P99_TARGET_MS)  # fmt: skip
    print(f"     deals answered:             {len(on_time)} ({rate(len(on_time), steady_seconds):.1f}/s); "
          f"answers {dict(sorted(steady_answers.items()))}")  # fmt: skip
    print(f"     CPU used:                   {steady_cpu}")

    saturated = sum(len(t.latencies) for t in saturating)
    deals_rate = rate(saturated, saturation_time)
    writes = sum(len(w.latencies) for w in writers)
    writes_rate = rate(writes, write_time)
    ratio = deals_rate / writes_rate if writes_rate else 0.0
    print(f"  3. saturation, {saturation_seconds:g} s in {SLICES} turns, no faults:")
    figure("     deals/s", f"{deals_rate:.0f} ({percentiles([x for t in saturating for x in t.latencies])})")
    print(f"     CPU used:                   {saturation_cpu}")
    print(f"  4. the minimal write (token, one row in a transaction), {ceiling_seconds:g} s in {SLICES} "
          "turns between those of 3:")  # fmt: skip
    write_statuses = dict(sorted(sum((w.statuses for w in writers), Counter()).items()))
    figure("     writes/s", f"{writes_rate:.0f} ({percentiles([x for w in writers for x in w.latencies])}); "
           f"answers {write_statuses}, {sum(w.errors for w in writers)} connection errors")  # fmt: skip
    figure("     deals ÷ minimal writes", f"{ratio:.0%}", f"≥ {RATIO_TARGET:.0%}", ratio >= RATIO_TARGET)
    print(f"     CPU used:                   {write_cpu}")
    reads = [x for reader in readers for x in reader.latencies]
    read_statuses = sum((reader.statuses for reader in readers), Counter())
    read_errors = sum(x.errors for x in readers)
    print(f"  5. the trivial view, GET {ceiling_path}, {ceiling_seconds / 2:g} s:")
    figure("     requests/s", f"{rate(len(reads), ceiling_time):.0f} ({percentiles(reads)}); answers "
           f"{dict(sorted(read_statuses.items()))}, {read_errors} connection errors")  # fmt: skip
    print(f"     CPU used:                   {ceiling_cpu}")

    print("The database against what every tablet sent (all phases):")
    print(f"  distinct keys (deals):        {len(sent)}")
    print(f"  acknowledged (2xx):           {r['acknowledged']}")
    print(f"  stored:                       {r['stored']} (a match: min {r['deals a match']})")
    print(
        f"  never acknowledged:           {r['never acknowledged']} "
        f"({r['never acknowledged, stored anyway']} stored anyway: fine, the request got there)"
    )
    figure("  duplicates", str(r["duplicates"]), "0", r["duplicates"] == 0)
    figure("  lost", str(r["lost"]), "0", r["lost"] == 0)
    for name in (*FAILING[2:], *NOTED):
        if r[name]:
            print(f"  {name}: {r[name]}")
    for s in sent.values():
        if s.refused:
            print(f"  first refusal: {s.refused[0][0]} {s.refused[0][1]!r} for {s.deal}")
            break
    if errors_logged or fives:
        print(f"server errors: {fives} answers 5xx, {errors_logged} logged; the first:\n{first_error}")

    failures = [f"{name} {r[name]}" for name in FAILING if r[name]]
    if most > QUERIES_TARGET:
        failures.append(f"a deal POST runs {most} SQL queries (target ≤ {QUERIES_TARGET})")
    if ratio < RATIO_TARGET:
        failures.append(
            f"deals reach {ratio:.0%} of the minimal write's throughput (target ≥ {RATIO_TARGET:.0%})"
        )
    if failures:
        raise SystemExit(f"the load benchmark failed: {', '.join(failures)}")
