import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.core.cache import cache
from django.db.backends.postgresql.operations import DatabaseOperations as PostgreSQLOperations
from django.db.backends.sqlite3.base import DatabaseOperations as SQLiteOperations
from django.utils import translation

from tests.factories import TEAMS
from tournaments import after_response

# The tables the flush between transactional tests (pytest-django's ``transactional_db``, the live
# server's) leaves as they are: its post_migrate would only write the content types and the
# permissions again, as they were, row by row (no test makes its own).
KEPT_BY_THE_FLUSH = {"django_content_type", "auth_permission"}


def _emptied_by_delete(ops, style, tables, *, reset_sequences=False, allow_cascade=False):
    """PostgreSQL's flush as DELETEs in one transaction, not Django's TRUNCATE: TRUNCATE gives
    each of the hundred-odd tables new files, to be synced on commit, and took 2–10 s a test where
    the DELETEs of tables a test left nearly empty take milliseconds. Django's foreign keys are
    DEFERRABLE, checked at the commit, when every table is empty. With ``reset_sequences`` (no test
    asks for it) or ``allow_cascade``, Django's own."""
    tables = [t for t in tables if t not in KEPT_BY_THE_FLUSH]
    if reset_sequences or allow_cascade or not tables:
        return _truncate(ops, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
    return [
        "SET CONSTRAINTS ALL DEFERRED;",
        *(f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(ops.quote_name(t))};" for t in tables),
    ]


def _sqlite_kept(ops, style, tables, *, reset_sequences=False, allow_cascade=False):
    """SQLite's flush (DELETEs already), the kept tables left out."""
    tables = [t for t in tables if t not in KEPT_BY_THE_FLUSH]
    return _sqlite_flush(ops, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)


_truncate, _sqlite_flush = PostgreSQLOperations.sql_flush, SQLiteOperations.sql_flush
PostgreSQLOperations.sql_flush = _emptied_by_delete
SQLiteOperations.sql_flush = _sqlite_kept


@pytest.fixture(autouse=True)
def _fresh_rate_limits(monkeypatch):
    """Rate limits count per address in the cache, and every test client is 127.0.0.1: each test
    starts with none used (tests of the limits themselves use them up on purpose). Their clock
    stands still during a test: django-ratelimit counts in fixed windows of a minute, and a window
    that ended halfway through a test of a limit would start its count again (a flaky 404 for a 429)."""
    cache.clear()
    frozen = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: frozen))


@pytest.fixture(autouse=True)
def _english_outside_requests():
    """Each test starts in English: a page asked for in another language leaves that language active
    in the thread (the locale middleware activates it and nothing switches back), so a later test's
    service message would come in Bulgarian."""
    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _outside_a_request():
    """Each test starts outside a request: a streamed response a test leaves unread never sends
    request_finished, and the work ``after_response`` keeps for it would otherwise stay kept in the
    thread, so that a later test's standings (in the same process) were never recomputed."""
    token = after_response._pending.set(None)
    yield
    after_response._pending.reset(token)


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="keeper", password="pw-keeper-123")


@pytest.fixture
def match(db, user):
    """A fresh Mpourloto match to 1000; Nikos (seat 0) deals first."""
    from scoring import services

    return services.match_create(teams=TEAMS, first_dealer=0, created_by=user)


def pytest_addoption(parser):
    parser.addoption(
        "--only-database-tests",
        action="store_true",
        help="run only the tests that use the database (CI's pass on PostgreSQL: a test that never "
        "touches the database cannot tell one database from another, and has run on SQLite)",
    )


# The fixtures through which a test reaches the database (pytest-django's; any fixture of ours that
# needs the database asks for one of them, so they are among the test's fixtures too).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}


def _uses_the_database(item) -> bool:
    return bool(
        item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def pytest_collection_modifyitems(config, items):
    """The browser tests last. Playwright's sync API keeps an event loop running in the main thread
    for the rest of the session once a browser has started, and Django's ``async_to_sync`` (an async
    view called through the test client, the big screen's stream tests) cannot run in a thread with
    a running loop. The order is otherwise kept. With ``--only-database-tests``, the others are
    deselected."""
    if config.getoption("only_database_tests"):
        deselected = [item for item in items if not _uses_the_database(item)]
        if deselected:
            items[:] = [item for item in items if _uses_the_database(item)]
            config.hook.pytest_deselected(items=deselected)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


def pytest_collection_finish(session):
    """Every test module imported, the process settles as the app's processes do once started
    (``config.startup.settled``: what starting made moves to the collector's permanent generation),
    so the tests run the app as it runs, and a full collection walks only what the tests make, not
    Django, the apps and the test modules each time (tests/api in one process: 72.7–78.8 s of CPU
    without it, 70.4 s with it)."""
    from config.startup import settled

    settled()


# Web Push (notifications/): the site's VAPID keys, and a local push service that checks each
# message's VAPID signature and keeps what it received (tests/push_fakes.py).
@pytest.fixture
def vapid(settings):
    from notifications import services as push

    public, private = push.vapid_keys_new()
    settings.TSOXA_VAPID_PUBLIC_KEY = public
    settings.TSOXA_VAPID_PRIVATE_KEY = private
    settings.TSOXA_VAPID_SUBJECT = "mailto:club@example.org"
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True  # the local push service, on 127.0.0.1 over http
    push._vapid_tokens.clear()
    return public


@pytest.fixture
def receiver(vapid):
    from tests.push_fakes import PushReceiver

    server = PushReceiver()
    yield server
    server.stop()
