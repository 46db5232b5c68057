"""SQLite, the embedded default, takes a club's tablets all at once (issue 24).

- Whether SQLite is the default or named by a ``sqlite:///`` DATABASE_URL, every connection waits
  for the write lock (a busy timeout), takes it when a transaction begins (IMMEDIATE) and journals
  in WAL: the settings are built in a fresh interpreter with that environment and printed.
- Twelve tablets record at once through a live server, each its own match, half through the pad's
  HTTP path (a session, a form, htmx) and half through the API (a token): every answer is a
  success, and every deal is stored exactly once, in the order its tablet sent it, even the one each
  tablet sends twice (a retry with the same key).

The live-server test runs only when the tests' database is SQLite (PostgreSQL has no such lock).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from http.cookiejar import CookieJar

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring import services
from scoring.api import IDEMPOTENCY_NAMESPACE
from scoring.models import Deal, Match
from tests.factories import TEAMS

WAL = "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL"
ON_SQLITE = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
TABLETS = 12
DEALS = 10  # each tablet's, one after the other, as a scorekeeper taps Record
LONG = {"target": 1_000_000}  # no match ends here
BUDGET_S = 20


def settings_with(database_url: str | None, **more: str) -> dict:
    """DATABASES['default'] as config.settings.base builds it from this environment (a new process:
    the environment is read once, at import), with ``more`` variables set."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DB_PREPARED_STATEMENTS")}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    env.update(more)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    code = (
        "import json; from django.conf import settings; "
        "print(json.dumps(settings.DATABASES['default'], default=str))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize(
    "database_url", [None, "sqlite:///x.sqlite3", "sqlite:////tmp/tsoxa-club.sqlite3"], ids=str
)
def test_every_sqlite_database_waits_for_the_lock_takes_it_at_once_and_journals_in_wal(database_url):
    dotenv = settings.BASE_DIR / ".env"
    if database_url is None and dotenv.exists() and "DATABASE_URL" in dotenv.read_text():
        pytest.skip("this checkout's .env names a database")
    database = settings_with(database_url)
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["OPTIONS"] == {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": WAL}


def test_options_given_in_a_sqlite_url_win_and_postgresql_gets_none_of_them():
    tuned = settings_with("sqlite:///x.sqlite3?timeout=60")["OPTIONS"]
    assert tuned == {"timeout": 60, "transaction_mode": "IMMEDIATE", "init_command": WAL}
    postgres = settings_with("postgres://postgres@127.0.0.1:5432/tsoxa")
    assert postgres["ENGINE"] == "django.db.backends.postgresql"
    assert not {"transaction_mode", "init_command", "timeout"} & set(postgres.get("OPTIONS", {}))


def test_a_postgresql_that_does_not_answer_is_waited_for_five_seconds_unless_the_url_says():
    # The deal path's statements are prepared (prepare_threshold set, so only those asking are).
    assert settings_with("postgres://postgres@127.0.0.1:5432/tsoxa")["OPTIONS"] == {
        "connect_timeout": 5,
        "prepare_threshold": 1_000_000_000,
    }
    given = settings_with("postgres://postgres@127.0.0.1:5432/tsoxa?connect_timeout=2")["OPTIONS"]
    assert int(given["connect_timeout"]) == 2


def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them():
    off = settings_with("postgres://postgres@127.0.0.1:5432/tsoxa", DB_PREPARED_STATEMENTS="false")
    assert off["OPTIONS"] == {"connect_timeout": 5, "prepare_threshold": None}


class Tablet:
    """One table's tablet: its own match, and its own way in (the pad's form, or the API's token)."""

    def __init__(self, base: str, match: Match, user, *, pad: bool) -> None:
        self.base, self.match, self.pad = base, match, pad
        self.keys = [str(uuid.uuid4()) for _ in range(DEALS)]
        self.answers: list[int | str] = []
        if pad:  # logged in, and the sheet opened once: its CSRF cookie comes with it
            client = Client()
            client.force_login(user)
            jar = CookieJar()
            self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            session = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
            with self.opener.open(self.request(f"/matches/{match.pk}/", {"Cookie": session})) as sheet:
                assert sheet.status == 200
            csrf = next(c.value for c in jar if c.name == settings.CSRF_COOKIE_NAME)
            self.headers = {
                "Cookie": f"{session}; {settings.CSRF_COOKIE_NAME}={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            }
        else:
            self.opener = urllib.request.build_opener()
            self.headers = {
                "Authorization": f"Token {Token.objects.create(user=user).key}",
                "Content-Type": "application/json",
            }

    def request(self, path: str, headers: dict, data: bytes | None = None) -> urllib.request.Request:
        return urllib.request.Request(self.base + path, data=data, headers=headers)

    @staticmethod
    def points(i: int) -> int:
        return 80 + i  # team 0's card points, each deal its own, so that the order can be read back

    def stored_keys(self) -> list[str]:
        """The client keys the server stores for this tablet's deals (the API's are derived)."""
        return self.keys if self.pad else [str(uuid.uuid5(IDEMPOTENCY_NAMESPACE, k)) for k in self.keys]

    def send(self, i: int) -> None:
        if self.pad:
            path = f"/matches/{self.match.pk}/deals/"
            headers = self.headers
            pad = {"client_key": self.keys[i], "maker": "0", "points_team": "0", "last_trick": "0"}
            body = urllib.parse.urlencode({**pad, "card_points": str(self.points(i))})
        else:
            path = f"/api/v1/matches/{self.match.pk}/deals/"
            headers = {**self.headers, "Idempotency-Key": self.keys[i]}
            body = json.dumps(
                {"maker": 0, "card_points": [self.points(i), 152 - self.points(i)], "last_trick": 0}
            )
        try:
            with self.opener.open(self.request(path, headers, body.encode()), timeout=BUDGET_S) as answer:
                answer.read()
                self.answers.append(answer.status)
        except urllib.error.HTTPError as error:
            self.answers.append(f"{error.code} {error.read()[:300]!r}")
        except Exception as error:
            self.answers.append(repr(error))

    def play(self, start: threading.Barrier) -> None:
        start.wait()
        for i in range(DEALS):
            self.send(i)
            if i == DEALS // 2:
                self.send(i)  # the answer was lost on the way: the tablet sends the same deal again


@pytest.mark.skipif(not ON_SQLITE, reason="the lock under test is SQLite's")
@pytest.mark.django_db(transaction=True)
def test_twelve_tablets_recording_at_once_on_sqlite_store_every_deal_once(live_server, django_user_model):
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"  # the test database too, as every SQLite database
    tablets = []
    for n in range(TABLETS):
        user = django_user_model.objects.create_user(f"table{n}", password=f"pw-table{n}-12345")
        match = services.match_create(teams=TEAMS, options=LONG, created_by=user)
        tablets.append(Tablet(live_server.url, match, user, pad=n % 2 == 0))
    start = threading.Barrier(TABLETS)
    threads = [threading.Thread(target=t.play, args=(start,), daemon=True) for t in tablets]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.1, began + BUDGET_S - time.monotonic()))
    took = time.monotonic() - began
    assert not any(thread.is_alive() for thread in threads), f"tablets still waiting after {BUDGET_S} s"

    problems = {f"table{n}": [a for a in t.answers if a not in (200, 201)] for n, t in enumerate(tablets)}
    assert not any(problems.values()), problems
    for t in tablets:
        assert len(t.answers) == DEALS + 1
        stored = list(Deal.objects.filter(match=t.match).order_by("position"))
        assert [str(d.client_key) for d in stored] == t.stored_keys()
        assert [d.data["card_points"][0] for d in stored] == [t.points(i) for i in range(DEALS)]
    assert took < BUDGET_S
