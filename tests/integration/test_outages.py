"""Outages degrade, they don't break: with the cache's Redis unreachable every page and API path
answers, the limits and cached pages fail open with a warning in the log (web/cache.py), and a
deal is stored and its standings recomputed; ``/health/`` tells the database, the cache and the
broker apart (web/health.py)."""

from __future__ import annotations

import logging
import socket
import time
import uuid

import pytest
import redis
from django.db import OperationalError
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import web.cache
import web.health
from scoring.models import Deal
from tournaments import services
from tournaments.models import StandingsSnapshot, Tournament
from web.cache import FailOpenRedisCache

pytestmark = pytest.mark.django_db

DEAD = "redis://127.0.0.1:1/0"  # nothing listens on port 1: refused at once
LIVE_REDIS = "redis://127.0.0.1:6379/13"
WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


def redis_up() -> bool:
    try:
        return bool(redis.Redis.from_url(LIVE_REDIS, socket_connect_timeout=0.5, socket_timeout=0.5).ping())
    except redis.RedisError:
        return False


needs_redis = pytest.mark.skipif(not redis_up(), reason="needs Redis on 127.0.0.1:6379")


@pytest.fixture
def cache_down(settings):
    """The cache (and the big screens' pub/sub, on the same Redis by default) unreachable."""
    web.cache.reset()
    settings.CACHES = {"default": {"BACKEND": "web.cache.FailOpenRedisCache", "LOCATION": DEAD}}
    settings.LIVE_REDIS_URL = DEAD
    yield
    web.cache.reset()


@pytest.fixture
def organizer(django_user_model):
    user = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    user.token = Token.objects.create(user=user).key
    return user


@pytest.fixture
def night(organizer) -> Tournament:
    """A running Swiss of one deal a match, round 1 started, its standings computed."""
    t = services.tournament_create(organizer=organizer, name="Club night", swiss_rounds=3, deals_per_match=1)
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    services.tournament_start(tournament=t, user=organizer)
    services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    services.standings_refresh(tournament_id=t.pk)
    return Tournament.objects.get(pk=t.pk)


def table_match(t: Tournament, number: int):
    return t.rounds.get(number=1).tables.get(number=number).match


def cache_warnings(caplog) -> list[str]:
    records = caplog.records
    return [r.getMessage() for r in records if r.name == "web.cache" and r.levelno == logging.WARNING]


# With the cache down --------------------------------------------------------------------------


def test_every_page_answers_with_the_cache_down(cache_down, client, night, caplog):
    web.cache.reset()  # the fixtures' own failures forgotten: this test's warning is counted
    caplog.set_level(logging.WARNING, logger="web.cache")
    match = table_match(night, 1)
    pages = [
        reverse("scoring:home"),
        reverse("scoring:match", args=[match.pk]),
        reverse("tournaments:home", args=[night.slug]),
        reverse("tournaments:standings", args=[night.slug]),
        reverse("tournaments:embed_standings", args=[night.slug]),
        reverse("tournaments:embed_round_current", args=[night.slug]),
        reverse("tournaments:round", args=[night.slug, 1]),
        "/api/v1/tournaments/",
        f"/api/v1/tournaments/{night.slug}/standings/",
    ]
    for page in pages:
        for _ in range(2):  # the second time too: nothing was kept, nothing breaks
            assert client.get(page).status_code == 200, page
    assert len(cache_warnings(caplog)) == 1  # one warning, not one a request
    assert "Redis unreachable" in cache_warnings(caplog)[0]


def test_logging_in_answers_and_its_limit_fails_open(cache_down, client, organizer):
    """The login limit counts in the cache: down, it lets attempts through rather than refuse all."""
    for _ in range(12):  # past the limit of 10 a minute: not counted, not refused
        assert client.post(reverse("login"), {"username": "org", "password": "wrong"}).status_code == 200
    response = client.post(reverse("login"), {"username": "org", "password": "pw-org-12345"})
    assert response.status_code == 302


def test_an_api_deal_is_stored_and_the_standings_follow(
    cache_down, organizer, night, django_capture_on_commit_callbacks, caplog
):
    """The throttle, the standings' queue flag and the screens' push all fail open: the deal is
    stored, and the standings are recomputed (queued without coalescing)."""
    web.cache.reset()
    caplog.set_level(logging.WARNING)
    match = table_match(night, 1)
    before = StandingsSnapshot.objects.get(tournament=night).version
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {organizer.token}")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/matches/{match.pk}/deals/", WIN_0, format="json")
    assert response.status_code == 201, response.content
    assert Deal.objects.filter(match=match).count() == 1
    assert StandingsSnapshot.objects.get(tournament=night).version > before
    assert cache_warnings(caplog)
    assert any("live: could not publish" in r.getMessage() for r in caplog.records)  # a warning, no error


def test_a_pad_deal_is_stored(cache_down, client, organizer, night, django_capture_on_commit_callbacks):
    match = table_match(night, 2)
    client.force_login(organizer)
    pad = {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "card_points": "90",
           "last_trick": "0"}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("scoring:deal_create", args=[match.pk]), pad, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert Deal.objects.filter(match=match).count() == 1


def test_the_embeds_rendered_page_is_just_not_kept(cache_down, client, night):
    url = reverse("tournaments:embed_standings", args=[night.slug])
    first = client.get(url)
    assert first.status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


# The backend itself ----------------------------------------------------------------------------


def dead_cache() -> FailOpenRedisCache:
    return FailOpenRedisCache(DEAD, {})


def test_an_unreachable_cache_answers_as_a_miss():
    web.cache.reset()
    cache = dead_cache()
    assert cache.get("k") is None and cache.get("k", 7) == 7
    assert cache.add("k", 1) is True  # as for a key nobody holds: the work it guards goes ahead
    assert cache.set("k", 1) is False and cache.delete("k") is False
    assert cache.get_many(["k"]) == {} and cache.has_key("k") is False
    with pytest.raises(ValueError):  # a missing key: a rate's caller starts a new count
        cache.incr("k")
    with pytest.raises(redis.ConnectionError):
        cache.ping()  # /health/ asks Redis itself


def test_one_warning_a_minute_however_many_failures(caplog, monkeypatch):
    web.cache.reset()
    monkeypatch.setattr(web.cache, "RETRY_SECONDS", 0)  # Redis asked, and failing, every time
    caplog.set_level(logging.WARNING, logger="web.cache")
    cache = dead_cache()
    for _ in range(20):
        cache.get("k")
    assert len(cache_warnings(caplog)) == 1
    web.cache.reset()


def test_a_redis_that_does_not_answer_costs_a_quarter_second_then_nothing():
    """Connected but silent (a hung Redis): the read times out, and Redis is not asked again for a
    few seconds, so the next operations are misses at once."""
    web.cache.reset()
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # the kernel accepts connections; nobody ever answers
    try:
        cache = FailOpenRedisCache(f"redis://127.0.0.1:{silent.getsockname()[1]}/0", {})
        started = time.monotonic()
        assert cache.get("k", "miss") == "miss"
        assert time.monotonic() - started < 1.0
        started = time.monotonic()
        for _ in range(50):
            assert cache.get("k", "miss") == "miss"
        assert time.monotonic() - started < 0.1
    finally:
        silent.close()
        web.cache.reset()


@needs_redis
def test_a_reachable_redis_is_used_as_usual():
    web.cache.reset()
    cache = FailOpenRedisCache(LIVE_REDIS, {"KEY_PREFIX": f"h3-{uuid.uuid4()}"})
    assert cache.add("k", 0, 10) is True and cache.add("k", 0, 10) is False
    assert cache.incr("k") == 1 and cache.get("k") == 1
    assert cache.delete("k") is True
    cache.ping()


def test_a_redis_cache_url_gets_the_fail_open_backend():
    import subprocess
    import sys

    from tests.integration.test_deploy import ROOT

    code = (
        "import django; django.setup(); from django.conf import settings; c = settings.CACHES['default']; "
        "print(c['BACKEND'], c['LOCATION'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**__import__("os").environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "CACHE_URL": DEAD},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.split() == ["web.cache.FailOpenRedisCache", DEAD], done.stderr


# /health/ ----------------------------------------------------------------------------------------


def health(client):
    response = client.get("/health/")
    return response.status_code, response.json()


def test_health_with_everything_up(client):
    code, body = health(client)
    assert code == 200 and body["status"] == "ok"
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["cache"]["status"] == "ok"
    assert body["checks"]["broker"]["status"] == "eager"  # no broker configured: tasks run in-process
    assert all(isinstance(check["ms"], float) for check in body["checks"].values())


def test_health_is_never_cached(client):
    assert "no-cache" in client.get("/health/")["Cache-Control"]


def test_health_with_the_cache_down_is_degraded_but_200(cache_down, client):
    code, body = health(client)
    assert code == 200 and body["status"] == "degraded"
    assert body["checks"]["cache"]["status"] == "down"
    assert body["checks"]["cache"]["error"] == "ConnectionError"
    assert body["checks"]["database"]["status"] == "ok"


def test_health_with_the_broker_down_is_degraded_but_200(client, settings):
    settings.CELERY_BROKER_URL = DEAD
    settings.CELERY_TASK_ALWAYS_EAGER = False
    started = time.monotonic()
    code, body = health(client)
    assert time.monotonic() - started < 3
    assert code == 200 and body["status"] == "degraded"
    assert body["checks"]["broker"]["status"] == "down"
    assert body["checks"]["cache"]["status"] == "ok"


@needs_redis
def test_health_with_a_real_cache_and_broker_up(client, settings):
    web.cache.reset()
    settings.CACHES = {"default": {"BACKEND": "web.cache.FailOpenRedisCache", "LOCATION": LIVE_REDIS}}
    settings.CELERY_BROKER_URL = LIVE_REDIS
    settings.CELERY_TASK_ALWAYS_EAGER = False
    code, body = health(client)
    assert code == 200 and body["status"] == "ok"
    assert {name: check["status"] for name, check in body["checks"].items()} == {
        "database": "ok",
        "cache": "ok",
        "broker": "ok",
    }


def test_health_with_the_database_down_is_503(client, monkeypatch):
    class Unreachable:
        def cursor(self):
            raise OperationalError("connection refused")

    monkeypatch.setattr(web.health, "connection", Unreachable())
    code, body = health(client)
    assert code == 503 and body["status"] == "down"
    assert body["checks"]["database"] == {
        "status": "down",
        "error": "OperationalError",  # its class only: the page is public
        "ms": body["checks"]["database"]["ms"],
    }
    assert body["checks"]["cache"]["status"] == "ok"
