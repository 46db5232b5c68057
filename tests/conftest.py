import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.core.cache import cache
from django.utils import translation

from tests.factories import TEAMS


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


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user(username="keeper", password="pw-keeper-123")


@pytest.fixture
def match(db, user):
    """A fresh Mpourloto match to 1000; Nikos (seat 0) deals first."""
    from scoring import services

    return services.match_create(teams=TEAMS, first_dealer=0, created_by=user)


def pytest_collection_modifyitems(config, items):
    """The browser tests last. Playwright's sync API keeps an event loop running in the main thread
    for the rest of the session once a browser has started, and Django's ``async_to_sync`` (an async
    view called through the test client, the big screen's stream tests) cannot run in a thread with
    a running loop. The order is otherwise kept."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


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
