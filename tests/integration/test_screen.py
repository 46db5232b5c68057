"""The big screen: who sees it, the data it renders from, and the stream that pushes changes.

The stream is driven here as the servers drive it: the async generator awaited with a time limit
(``tournaments.live.events``), the view through Django's ASGI application (``config.asgi``) and
through the WSGI path of the test client. With Redis on 127.0.0.1:6379 (as on CI) the push goes
through its pub/sub; without Redis the stream's database check is tested, and the Redis tests are
skipped.
"""

from __future__ import annotations

import asyncio
import importlib.machinery
import json
import logging
import os
import socket
import subprocess
import sys
import time
import types
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from unittest import mock

import pytest
import redis
import yaml
from asgiref.sync import async_to_sync, sync_to_async
from asgiref.testing import ApplicationCommunicator
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.test import override_settings
from django.urls import reverse

from scoring import services as scoring
from tournaments import live, presence, prizes, screen, selectors, services
from tournaments.models import StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = "redis://127.0.0.1:6379/15"
WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
STEP = 6.0  # seconds an awaited chunk may take (the database check runs every 2 s)


def redis_up() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


needs_redis = pytest.mark.skipif(not redis_up(), reason="needs Redis on 127.0.0.1:6379")


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def night(organizer):
    """A running Swiss of 6 one-deal matches a round, round 1 started, table 1 finished."""
    t = services.tournament_create(
        organizer=organizer, name="Screen night", swiss_rounds=3, deals_per_match=1
    )
    for i in range(6):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    scoring.deal_record(match=rnd.tables.get(number=1).match, deal=WIN_0)  # the standings follow
    return Tournament.objects.get(pk=t.pk)


@pytest.fixture
def private(night):
    Tournament.objects.filter(pk=night.pk).update(public=False)
    return night


def urls(t: Tournament) -> dict[str, str]:
    return {
        name: reverse(f"tournaments:{name}", args=[t.slug])
        for name in ("screen", "screen_data", "screen_events")
    }


def finish_table(t: Tournament, number: int) -> None:
    rnd = t.rounds.get(number=1)
    scoring.deal_record(match=rnd.tables.get(number=number).match, deal=WIN_0)


@pytest.fixture
def fake_clock(monkeypatch):
    """``tournaments.clock`` as the timed rounds will have it: ``round_clock(rnd)``."""
    module = types.ModuleType("tournaments.clock")
    module.__spec__ = importlib.machinery.ModuleSpec("tournaments.clock", None)
    state = {"clock": None}
    module.round_clock = lambda rnd: state["clock"] and {"round": rnd.number, **state["clock"]}
    monkeypatch.setitem(sys.modules, "tournaments.clock", module)
    return state


# Who sees it ---------------------------------------------------------------------------------


def test_the_screen_of_a_public_tournament_shows_anyone_the_round_and_the_standings(client, night):
    page = client.get(urls(night)["screen"])
    assert page.status_code == 200
    html = page.text
    # Rendered at once, without JavaScript: the pairings by table and the standings.
    assert 'data-testid="screen-pairings"' in html and 'data-testid="screen-standings"' in html
    table1 = night.rounds.get(number=1).tables.select_related("entry0__team", "entry1__team").get(number=1)
    assert table1.entry0.team.name in html and table1.entry1.team.name in html
    assert "Round 1 · Pairings" in html
    assert "100–62" in html  # table 1's finished result
    # Its own page: no site navigation, its script by the request's nonce, its data beside it.
    assert 'class="mainnav"' not in html
    nonce = page["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'src="/static/tournaments/screen.js" nonce="{nonce}"' in html
    assert 'id="screen-data" type="application/json"' in html
    assert f'data-events-url="{urls(night)["screen_events"]}"' in html


def test_the_tournament_page_links_to_its_big_screen(client, night):
    home = client.get(reverse("tournaments:home", args=[night.slug])).text
    assert f'href="{urls(night)["screen"]}"' in home
    assert "Big screen" in home


def test_a_private_tournament_screen_is_its_organizers_only(client, django_user_model, organizer, private):
    for name, url in urls(private).items():
        assert client.get(url).status_code == 404, name
    django_user_model.objects.create_user(username="other", password="pw-other-12345")
    client.login(username="other", password="pw-other-12345")
    for name, url in urls(private).items():
        assert client.get(url).status_code == 404, name
    client.login(username="org", password="pw-org-12345")
    assert client.get(urls(private)["screen"]).status_code == 200
    assert client.get(urls(private)["screen_data"]).status_code == 200
    events = client.get(urls(private)["screen_events"])
    assert events.status_code == 200
    events.close()


def test_an_unknown_tournament_has_no_screen(client):
    for name in ("screen", "screen_data", "screen_events"):
        assert client.get(reverse(f"tournaments:{name}", args=["nope"])).status_code == 404


# The data ------------------------------------------------------------------------------------


def test_the_data_is_what_the_page_shows_and_its_version(client, night):
    response = client.get(urls(night)["screen_data"])
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    data = response.json()
    assert set(data) == {
        "version", "now", "tournament", "clock", "round", "standings", "bracket", "ranking",
        "ranking_columns", "finder", "qr", "prizes",
    }  # fmt: skip
    assert data["version"] == f"{live.stamp(night.pk)}~{presence.changes(night.pk)}"
    assert data["tournament"] == {
        "name": "Screen night",
        "slug": night.slug,
        "status": "running",
        "status_label": "Running",
        "game": "Mpourloto",
        "club": "",
        "accent": None,
    }
    assert data["clock"] is None and data["ranking"] is None  # no timed rounds here; not finished
    rnd = data["round"]
    assert (rnd["number"], rnd["label"], rnd["status"], rnd["status_label"]) == (
        1,
        "Round 1",
        "started",
        "Playing",
    )
    assert [t["number"] for t in rnd["tables"]] == [1, 2, 3]
    first = rnd["tables"][0]
    assert first["finished"] and first["score"] == [100, 62] and not first["bye"]
    assert all(t["score"] is None and not t["finished"] for t in rnd["tables"][1:])
    assert len(first["teams"]) == 2 and all(first["teams"])
    standings = data["standings"]
    assert [c["key"] for c in standings["columns"]] == night.tiebreaks
    assert standings["columns"][0]["abbr"] == "Pts"
    assert len(standings["rows"]) == 6
    leader = standings["rows"][0]
    assert leader["team"] == first["teams"][0] and leader["record"] == "1–0–0" and leader["played"] == 1
    assert len(leader["values"]) == len(night.tiebreaks)
    assert standings["notes"] == []


def test_the_data_follows_a_result(client, night):
    before = client.get(urls(night)["screen_data"]).json()
    finish_table(night, 2)
    after = client.get(urls(night)["screen_data"]).json()
    assert after["version"] != before["version"]
    assert after["round"]["tables"][1]["score"] == [100, 62]
    assert sum(row["played"] for row in after["standings"]["rows"]) == 4


def test_the_clock_comes_from_the_timed_rounds_when_they_exist(client, night, fake_clock):
    assert client.get(urls(night)["screen_data"]).json()["clock"] is None  # the round has no clock
    ends = datetime(2026, 11, 21, 20, 30, tzinfo=UTC)
    fake_clock["clock"] = {"ends_at": ends, "paused_left": None, "state": "running"}
    data = client.get(urls(night)["screen_data"]).json()
    assert data["clock"] == {
        "round": 1,
        "ends_at": "2026-11-21T20:30:00Z",
        "paused_left": None,
        "state": "running",
    }
    fake_clock["clock"] = {"ends_at": None, "paused_left": 754, "state": "paused"}
    assert client.get(urls(night)["screen_data"]).json()["clock"]["paused_left"] == 754
    page = client.get(urls(night)["screen"]).text
    assert 'data-testid="screen-clock">12:34<' in page  # 754 s, paused, as first shown


def test_the_first_paint_of_the_clock():
    labels = {"last_deal": "Last deal"}
    soon = (datetime.now(UTC) + timedelta(minutes=9, seconds=58)).isoformat()
    assert screen.clock_text({"state": "running", "ends_at": soon, "paused_left": None}, labels) == "9:58"
    late = (datetime.now(UTC) + timedelta(hours=1, minutes=5)).isoformat()
    assert screen.clock_text({"state": "running", "ends_at": late, "paused_left": None}, labels) == "1:05:00"
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
    assert (
        screen.clock_text({"state": "running", "ends_at": past, "paused_left": None}, labels) == "Last deal"
    )
    assert screen.clock_text({"state": "over", "ends_at": past, "paused_left": None}, labels) == "Last deal"
    assert screen.clock_text({"state": "paused", "ends_at": None, "paused_left": 65}, labels) == "1:05"
    assert screen.clock_text(None, labels) == ""


def test_a_finished_tournament_shows_its_final_ranking_when_there_is_one(client, night, monkeypatch):
    Tournament.objects.filter(pk=night.pk).update(status=Tournament.Status.FINISHED)
    real = selectors.standings_get

    def standings_with(**more):
        def get(*, tournament):
            data = {k: v for k, v in real(tournament=tournament).items() if k != "ranking"}
            return {**data, **more}

        return get

    monkeypatch.setattr(selectors, "standings_get", standings_with())
    data = client.get(urls(night)["screen_data"]).json()
    assert data["ranking"] is None and data["clock"] is None  # no "ranking" in the standings: nothing
    page = client.get(urls(night)["screen"]).text
    assert 'data-testid="screen-podium"' not in page and 'data-testid="screen-pairings"' not in page
    assert 'data-testid="screen-standings"' in page
    ranking = [  # as the snapshot keeps it: how far each team went, as a key
        {
            "position": 1,
            "rank": 1,
            "entry": 4,
            "team": "Team 4",
            "players": ["P3a", "P3b"],
            "reached": "champion",
        },
        {
            "position": 2,
            "rank": 2,
            "entry": 2,
            "team": "Team 2",
            "players": ["P1a", "P1b"],
            "reached": "final",
        },
        {
            "position": 3,
            "rank": 3,
            "entry": 6,
            "team": "Team 6",
            "players": ["P5a", "P5b"],
            "reached": "semi_final",
        },
        {
            "position": 4,
            "rank": 3,
            "entry": 1,
            "team": "Team 1",
            "players": ["P0a", "P0b"],
            "reached": "semi_final",
        },
        {
            "position": 5,
            "rank": 5,
            "entry": 3,
            "team": "Team 3",
            "players": ["P2a", "P2b"],
            "reached": "stage",
        },
    ]
    ids = {e.name: e.pk for e in night.entries.select_related("team", "player")}
    for row in ranking:  # the teams' own ids (the database's sequence goes on from other tests)
        row["entry"] = ids.get(row["team"], row["entry"])
    monkeypatch.setattr(selectors, "standings_get", standings_with(ranking=ranking))
    shown = client.get(urls(night)["screen_data"]).json()["ranking"]
    assert [(r["position"], r["rank"], r["team"], r["players"]) for r in shown] == [
        (r["position"], r["rank"], r["team"], r["players"]) for r in ranking
    ]
    assert [r["stage"] for r in shown] == ["Champion", "Finalist", "Semi-final", "Semi-final", ""]
    page = client.get(urls(night)["screen"]).text
    podium = page.split('data-testid="screen-podium"')[1].split("</ol>")[0]
    assert [name in podium for name in ("Team 4", "Team 2", "Team 6", "Team 1")] == [True, True, True, False]
    numbered = [r for r in shown[:3] if r["number"] is not None]  # the podium shows the teams' numbers
    assert numbered
    assert all(f'<small class="no">{r["number"]}</small> {r["team"]}' in podium for r in numbered)
    assert "Champion" in page.split('data-testid="screen-ranking"')[1]
    assert 'data-testid="screen-ranking"' in page and 'data-testid="screen-standings"' not in page


# The stamp -----------------------------------------------------------------------------------


def test_the_stamp_moves_with_what_the_screen_shows(night, organizer):
    seen = {live.stamp(night.pk)}

    def moved() -> bool:
        now = live.stamp(night.pk)
        fresh = now not in seen
        seen.add(now)
        return fresh

    finish_table(night, 2)  # the standings
    assert moved()
    assert not moved()  # nothing else changed
    finish_table(night, 3)  # the last table: the round closes
    assert night.rounds.get(number=1).status == "finished"
    assert moved()
    services.round_generate(tournament=night, user=organizer)  # a new round drawn
    assert moved()
    rnd = night.rounds.get(number=2)
    services.round_swap(rnd=rnd, first=(1, 0), second=(2, 1), user=organizer)  # a swap at its tables
    assert moved()
    services.round_start(rnd=rnd, user=organizer)
    assert moved()
    Tournament.objects.filter(pk=night.pk).update(status=Tournament.Status.FINISHED)
    assert moved()
    # The prize panel's data: the split, a place's line, a category and its removal.
    prizes.prizes_update(tournament=night, user=organizer, pot_cents=43700, percentages=["60", "40"])
    assert moved()
    prizes.prize_lines_update(tournament=night, lines=[(1, "A ham", None)], user=organizer)
    assert moved()
    category = prizes.prize_category_save(tournament=night, name="Best newcomers", user=organizer)
    assert moved()
    prizes.prize_category_delete(category=category, user=organizer)
    assert moved()
    assert live.stamp(0) is None


def test_the_stamp_is_one_query(night, django_assert_num_queries):
    with django_assert_num_queries(1):
        live.stamp(night.pk)


# Publishing ----------------------------------------------------------------------------------


def test_publish_waits_for_the_commit_and_sends_nothing_for_a_rollback(night):
    with mock.patch.object(live, "_send") as send:
        with transaction.atomic():
            live.publish(night.pk, "standings")
            assert send.call_count == 0
        assert send.call_args_list == [mock.call(night.pk, "standings")]
        send.reset_mock()
        with pytest.raises(RuntimeError), transaction.atomic():
            live.publish(night.pk, "round")
            raise RuntimeError("rolled back")
        assert send.call_count == 0


def test_publish_knows_what_may_change():
    with pytest.raises(ValueError):
        live.publish(1, "deal")


@override_settings(LIVE_REDIS_URL="redis://127.0.0.1:1/0")  # nothing listens there
def test_a_failure_to_publish_is_logged_never_raised(night, caplog, monkeypatch):
    monkeypatch.setattr(live, "_warned_at", None)
    with caplog.at_level(logging.WARNING, logger="tournaments.live"):
        live.publish(night.pk, "clock")
    assert "could not publish clock" in caplog.text


@override_settings(LIVE_REDIS_URL="redis://127.0.0.1:1/0")
def test_an_outage_is_one_warning_a_minute_not_one_per_change(night, caplog, monkeypatch):
    monkeypatch.setattr(live, "_warned_at", None)
    with caplog.at_level(logging.WARNING, logger="tournaments.live"):
        for what in ("clock", "standings", "round"):
            live.publish(night.pk, what)
    assert caplog.text.count("could not publish") == 1


@override_settings(LIVE_REDIS_URL="")
def test_without_redis_publish_sends_nothing():
    with mock.patch.object(live, "_client") as client:
        live.publish(1, "standings")
    assert client.call_count == 0


@needs_redis
@override_settings(LIVE_REDIS_URL=REDIS_URL)
def test_publish_sends_a_small_message_on_the_tournaments_channel(night):
    subscriber = redis.Redis.from_url(REDIS_URL).pubsub()
    subscriber.subscribe(live.channel(night.pk))
    try:
        assert subscriber.get_message(timeout=3)["type"] == "subscribe"
        live.publish(night.pk, "round")
        message = subscriber.get_message(timeout=3)
    finally:
        subscriber.close()
    assert message["channel"] == f"tsoxa:tournament:{night.pk}".encode()
    assert json.loads(message["data"]) == {"tournament": night.pk, "what": "round"}


# The stream ----------------------------------------------------------------------------------


def drive(scenario):
    """Run an async scenario from this (sync) test: the database calls it makes from the stream
    come back to this thread, on the test's connection."""
    return async_to_sync(scenario)()


async def step(stream, seconds: float = STEP) -> str:
    return await asyncio.wait_for(anext(stream), seconds)


def parse(chunk: str) -> dict[str, str]:
    fields = dict(line.split(": ", 1) for line in chunk.strip().splitlines() if not line.startswith(":"))
    return fields


@override_settings(LIVE_REDIS_URL="")
def test_without_redis_the_stream_says_changed_after_a_result(night):
    since = live.stamp(night.pk)

    async def scenario():
        stream = live.events(night.pk, since_version=since)
        try:
            assert await step(stream) == "retry: 3000\n\n"
            waiting = asyncio.ensure_future(anext(stream))
            done, _ = await asyncio.wait({waiting}, timeout=2.5)
            assert not done  # nothing changed: nothing said
            await sync_to_async(finish_table)(night, 2)
            await sync_to_async(live.publish)(night.pk, "standings")
            return await asyncio.wait_for(waiting, STEP)
        finally:
            await stream.aclose()

    chunk = drive(scenario)
    event = parse(chunk)
    assert event["event"] == "changed"
    assert event["id"] == live.stamp(night.pk) != since
    assert json.loads(event["data"])["version"] == event["id"]


@override_settings(LIVE_REDIS_URL="")
def test_the_stream_says_at_once_what_changed_since_the_version_it_was_given(night):
    async def scenario():
        stream = live.events(night.pk, since_version="running.0.0.0")
        try:
            await step(stream)
            return await step(stream, 1.0)
        finally:
            await stream.aclose()

    assert parse(drive(scenario))["id"] == live.stamp(night.pk)


@pytest.mark.parametrize(
    "url", ["", pytest.param(REDIS_URL, marks=needs_redis)], ids=["without Redis", "with Redis"]
)
def test_a_quiet_stream_sends_a_heartbeat(night, monkeypatch, settings, url):
    settings.LIVE_REDIS_URL = url
    token = uuid.uuid4().hex  # a channel nobody else publishes on
    monkeypatch.setattr(live, "channel", lambda tournament_id: f"tsoxa:test:{token}:{tournament_id}")
    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.2)
    since = live.stamp(night.pk)

    async def scenario():
        stream = live.events(night.pk, since_version=since)
        try:
            await step(stream)
            return await step(stream, 2.0)
        finally:
            await stream.aclose()

    assert drive(scenario).startswith(":")


@override_settings(LIVE_REDIS_URL="")
def test_a_stream_ends_after_its_time_and_when_the_tournament_is_gone(night, monkeypatch):
    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.1)
    monkeypatch.setattr(live, "STREAM_SECONDS", 0.3)

    async def collect(tournament_id):
        return [chunk async for chunk in live.events(tournament_id, since_version="")]

    chunks = async_to_sync(asyncio.wait_for)(collect(night.pk), 5)
    assert chunks[0].startswith("retry:") and chunks[1].startswith("id:") and chunks[-1].startswith(":")
    assert async_to_sync(asyncio.wait_for)(collect(0), 5) == []


def bump_standings(tournament):
    """A change of the stamp made behind the services' back: nothing publishes it."""
    StandingsSnapshot.objects.filter(tournament=tournament).update(version=F("version") + 1)


@needs_redis
@override_settings(LIVE_REDIS_URL=REDIS_URL)
def test_with_redis_the_stream_speaks_on_a_publish_and_reads_the_database_only_then(night, monkeypatch):
    token = uuid.uuid4().hex  # test runs in parallel share this Redis: a channel of this test's own
    monkeypatch.setattr(live, "channel", lambda tournament_id: f"tsoxa:test:{token}:{tournament_id}")
    since = live.stamp(night.pk)

    async def scenario():
        stream = live.events(night.pk, since_version=since)
        try:
            await step(stream)
            waiting = asyncio.ensure_future(anext(stream))
            await sync_to_async(bump_standings)(night)  # a change, not published: no check finds it
            done, _ = await asyncio.wait({waiting}, timeout=2.5)
            assert not done
            await sync_to_async(live.publish)(night.pk, "standings")
            return await asyncio.wait_for(waiting, STEP)
        finally:
            await stream.aclose()

    event = parse(drive(scenario))
    assert event["event"] == "changed" and event["id"] == live.stamp(night.pk) != since
    assert json.loads(event["data"]) == {"version": event["id"], "what": "standings"}


@needs_redis
@override_settings(LIVE_REDIS_URL="redis://127.0.0.1:1/0")
def test_with_redis_down_the_stream_reads_the_database(night):
    async def scenario():
        stream = live.events(night.pk, since_version="")
        try:
            await step(stream)
            return await step(stream)
        finally:
            await stream.aclose()

    assert parse(drive(scenario))["id"] == live.stamp(night.pk)


# The view, as the servers run it ------------------------------------------------------------


@override_settings(LIVE_REDIS_URL="")
def test_the_events_view_under_asgi_streams_and_stops_when_the_client_goes_away(night):
    from config.asgi import application

    path = urls(night)["screen_events"]

    async def scenario():
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"v=running.0.0.0",
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1"), (b"accept", b"text/event-stream")],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
        }
        app = ApplicationCommunicator(application, scope)
        await app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await app.receive_output(STEP)
        first = await app.receive_output(STEP)
        second = await app.receive_output(STEP)
        await app.send_input({"type": "http.disconnect"})
        await app.wait(STEP)  # the application has finished: the stream was let go
        return start, first, second

    start, first, second = async_to_sync(scenario)()
    assert start["status"] == 200
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    assert headers["content-type"].startswith("text/event-stream")
    assert "no-cache" in headers["cache-control"]
    assert headers["x-accel-buffering"] == "no"
    assert first["body"] == b"retry: 3000\n\n"
    assert parse(second["body"].decode())["event"] == "changed"


@override_settings(LIVE_REDIS_URL="")
def test_the_events_view_under_wsgi_answers_at_once_with_a_retry_hint(client, night):
    """A WSGI server (runserver, gunicorn by mistake) holds no thread: what changed, then the end."""
    response = client.get(urls(night)["screen_events"], HTTP_LAST_EVENT_ID="running.0.0.0")
    assert not response.streaming and response["Content-Type"] == "text/event-stream"
    retry, change, hint = response.text.split("\n\n")[:3]
    assert retry == "retry: 3000"
    assert parse(change)["id"] == f"{live.stamp(night.pk)}~{presence.changes(night.pk)}"  # a change missed
    assert parse(hint)["event"] == "reconnect" and json.loads(parse(hint)["data"]) == {"retry": 3000}


def test_a_snapshot_version_makes_the_stamp(night):
    snapshot = StandingsSnapshot.objects.get(tournament=night)
    assert live.stamp_parts(night.pk)[:2] == ("running", snapshot.version)


# The live service, as docker compose starts it ---------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{port}/{db['NAME']}"


def read_event(stream) -> str:
    """The next event (or comment) of a text/event-stream, up to its blank line."""
    lines = []
    while (line := stream.readline().decode()) not in ("\n", ""):
        lines.append(line)
    return "".join(lines)


@pytest.fixture
def live_service():
    """docker-compose.yml's ``live`` command, on a free port of the loopback, on the test database
    (Redis's pub/sub when it is up, else the database check); yields its base URL."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    command = list(compose["services"]["live"]["command"])
    assert command[:2] == ["uvicorn", "config.asgi:application"]
    port = free_port()
    command[command.index("--host") + 1] = "127.0.0.1"
    command[command.index("--port") + 1] = str(port)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_URL", "LIVE_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=database_url(),
        LIVE_REDIS_URL=REDIS_URL if redis_up() else "",
        DB_CONN_MAX_AGE="0",
    )
    process = subprocess.Popen(
        [sys.executable, "-m", *command], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"uvicorn did not start: {process.stdout.read().decode()}") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=20)
        process.stdout.close()


def test_the_live_service_serves_the_stream_and_a_publish_from_another_process_reaches_it(
    night, live_service
):
    url = f"{live_service}{urls(night)['screen_events']}?v={live.stamp(night.pk)}"
    with urllib.request.urlopen(url, timeout=10) as stream:
        assert stream.status == 200
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert stream.headers["X-Accel-Buffering"] == "no"
        assert read_event(stream) == "retry: 3000\n"
        finish_table(night, 2)
        with override_settings(LIVE_REDIS_URL=REDIS_URL if redis_up() else ""):
            live.publish(night.pk, "standings")  # this process; the stream is in uvicorn's
        event = parse(read_event(stream))
    assert event["event"] == "changed" and event["id"] == f"{live.stamp(night.pk)}~0"
    if redis_up():  # pushed through Redis: the message says what changed
        assert json.loads(event["data"])["what"] == "standings"


def test_an_individual_events_screen_names_the_partnerships(client, organizer):
    t = services.tournament_create(
        organizer=organizer, name="Whist drive", format="individual", swiss_rounds=2
    )
    for name in ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]:
        services.entry_register(tournament=t, name=name, players=[name])
    t = services.tournament_start(tournament=t)
    services.round_start(rnd=services.round_generate(tournament=t))
    data = client.get(reverse("tournaments:screen_data", args=[t.slug])).json()
    sides = [side for table in data["round"]["tables"] for side in table["teams"] if side]
    assert len(sides) == 4 and all(" & " in side for side in sides)


def test_a_timed_rounds_clock_reaches_the_screen(client, organizer):
    t = services.tournament_create(organizer=organizer, name="Timed night", format="concours", time_limit=40)
    for i in range(4):
        services.entry_register(tournament=t, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    url = reverse("tournaments:screen_data", args=[t.slug])
    assert client.get(url).json()["clock"] is None  # not started yet
    services.round_clock(rnd=rnd, action="start")
    clock = client.get(url).json()["clock"]
    assert clock["state"] == "running" and clock["round"] == 1 and clock["ends_at"].endswith("Z")


# The screen for a room (issue 27): players, running scores, the finder, points, colours, codes ------


@pytest.fixture
def long_night(organizer):
    """A running Swiss of 6 three-deal matches, round 1 started, one deal played at table 2."""
    t = services.tournament_create(organizer=organizer, name="Long night", swiss_rounds=3, deals_per_match=3)
    for i in range(6):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"Zoe{i}", f"Adam{i}"])
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    scoring.deal_record(match=rnd.tables.get(number=2).match, deal=WIN_0)
    return Tournament.objects.get(pk=t.pk)


def test_the_pairings_carry_the_team_numbers_and_the_players(client, long_night):
    data = client.get(urls(long_night)["screen_data"]).json()
    table = (
        long_night.rounds.get(number=1)
        .tables.select_related("entry0__team__player_a", "entry0__team__player_b", "entry1")
        .get(number=1)
    )
    first = data["round"]["tables"][0]
    assert first["players"][0] == [table.entry0.team.player_a.name, table.entry0.team.player_b.name]
    assert first["numbers"] == [str(table.entry0.number), str(table.entry1.number)]
    html = client.get(urls(long_night)["screen"]).text
    assert (
        f'<span class="players">{table.entry0.team.player_a.name} & {table.entry0.team.player_b.name}' in html
    )
    assert f'<small class="no">{table.entry0.number}</small> {table.entry0.team.name}' in html


def test_a_table_in_play_shows_its_running_score_and_its_deal(client, long_night):
    data = client.get(urls(long_night)["screen_data"]).json()
    second = data["round"]["tables"][1]
    assert second["playing"] and not second["finished"] and second["score"] is None
    assert second["running"] == [100, 62] and (second["deal"], second["deals"]) == (2, 3)
    assert not data["round"]["tables"][0]["playing"]  # no deal yet: nothing running
    html = client.get(urls(long_night)["screen"]).text
    assert "100–62" in html
    assert screen.screen_labels()["deal_of"] % {"n": 2, "of": 3} == "Deal 2 of 3"


def test_a_deal_moves_the_counter_and_the_tables_part_follows_it(client, long_night):
    before = client.get(urls(long_night)["screen_data"]).json()
    stamp, count = before["version"].split("~")
    match = long_night.rounds.get(number=1).tables.get(number=2).match
    scoring.deal_record(match=match, deal=WIN_0)  # no publish: the cache's counter moves
    assert live.stamp(long_night.pk) == stamp
    assert presence.changes(long_night.pk) == int(count) + 1
    part = client.get(urls(long_night)["screen_data"] + "?part=tables").json()
    assert set(part) == {"count", "round", "tables", "now"} and part["count"] == int(count) + 1
    assert part["round"] == 1 and part["tables"][1]["running"] == [200, 124]
    assert part["tables"][1]["deal"] == 3
    # The stream (here its WSGI answer) says it as a change of the tables only.
    events = client.get(urls(long_night)["screen_events"] + f"?v={before['version']}")
    change = parse(events.text.split("\n\n")[1])
    assert change["id"] == f"{stamp}~{int(count) + 1}"
    assert json.loads(change["data"]) == {"version": change["id"], "what": "tables"}
    # Up to date: nothing to say.
    events = client.get(urls(long_night)["screen_events"] + f"?v={change['id']}")
    assert "event: changed" not in events.text


def test_the_tables_part_is_a_constant_number_of_queries(client, organizer, django_assert_max_num_queries):
    def reads(teams: int) -> int:
        t = services.tournament_create(
            organizer=organizer, name=f"Q{teams}", swiss_rounds=3, deals_per_match=3
        )
        for i in range(teams):
            services.entry_register(
                tournament=t, name=f"T{teams}-{i}", players=[f"A{teams}-{i}", f"B{teams}-{i}"]
            )
        services.tournament_start(tournament=t, user=organizer)
        services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as seen:
            assert client.get(urls(t)["screen_data"] + "?part=tables").status_code == 200
        return len(seen)

    assert reads(4) == reads(24) <= 8


def test_the_counter_is_read_once_a_second_for_all_the_screens_of_a_tournament(monkeypatch):
    reads = []

    async def counter(tournament_id, counts):
        reads.append(tournament_id)
        await asyncio.sleep(0.05)
        return 7

    monkeypatch.setattr(screen, "_read_counter", counter)

    async def scenario():
        counts = screen._Counts()
        first = await asyncio.gather(*(counts.get(1) for _ in range(100)), counts.get(2))
        again = await counts.get(1)  # within the second: no read
        return first, again

    first, again = async_to_sync(scenario)()
    assert set(first) == {7} and again == 7
    assert sorted(reads) == [1, 2]


def test_the_merged_stream_says_tables_when_the_counter_moves(monkeypatch):
    monkeypatch.setattr(screen, "COUNTER_SECONDS", 0.05)
    values = iter([3, 3, 4, 4])

    class Counts:
        async def get(self, tournament_id):
            return next(values, 4)

    async def live_stream():
        await asyncio.sleep(0.5)
        yield live.changed("running.2.0.0", "standings")
        await asyncio.sleep(10)

    async def scenario():
        out = []
        merged = screen._merged("retry: 3000\n\n", live_stream(), 1, "running.1.0.0", 3, "3", Counts())
        async for chunk in merged:
            out.append(chunk)
            if len(out) == 3:
                break
        await merged.aclose()
        return out

    first, tables, published = async_to_sync(scenario)()
    assert first == "retry: 3000\n\n"
    assert parse(tables)["id"] == "running.1.0.0~4"
    assert json.loads(parse(tables)["data"])["what"] == "tables"
    assert parse(published)["id"] == "running.2.0.0~4"
    assert json.loads(parse(published)["data"])["what"] == "standings"


def test_the_finder_lists_every_player_and_team_alphabetically_with_its_table(client, long_night):
    data = client.get(urls(long_night)["screen_data"]).json()
    rows = data["finder"]
    assert len(rows) == 6 * 3  # each team and its two players
    names = [row["name"] for row in rows]
    assert names == sorted(names, key=str.casefold)
    tables = long_night.rounds.get(number=1).tables.select_related("entry0__team__player_a", "entry1__team")
    where = {}
    for table in tables:
        for side, entry in enumerate((table.entry0, table.entry1)):
            if entry is not None:
                where[entry.team.name] = (table.number, "AB"[side], entry.number)
    for row in rows:  # a team's row, or a player's with their team (tournaments.personal.finder_rows)
        assert (row["table"], row["side"], row["number"]) == where[row["team"] or row["name"]]
    assert 'data-testid="screen-finder"' in client.get(urls(long_night)["screen"]).text


def test_the_finder_is_not_there_once_the_round_is_over_or_before_a_draw(client, organizer):
    t = services.tournament_create(organizer=organizer, name="Early", swiss_rounds=3)
    for i in range(4):
        services.entry_register(tournament=t, name=f"E{i}", players=[f"Ea{i}", f"Eb{i}"])
    assert client.get(urls(t)["screen_data"]).json()["finder"] == []


def test_the_qr_codes_lead_to_the_live_standings_and_the_finder(client, night):
    data = client.get(urls(night)["screen_data"]).json()
    assert [code["to"] for code in data["qr"]] == ["standings", "finder"]
    assert data["qr"][0]["path"] == reverse("tournaments:standings", args=[night.slug])
    assert data["qr"][1]["path"] == f"/tournaments/{night.slug}/find/"
    for code in data["qr"]:
        response = client.get(code["src"])
        assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
        assert response.content.lstrip().startswith(b"<svg")
        assert response["Content-Security-Policy"] == "default-src 'none'"
    assert client.get(reverse("tournaments:screen_qr", args=[night.slug, "elsewhere"])).status_code == 404
    html = client.get(urls(night)["screen"]).text
    assert 'data-testid="qr-standings"' in html and 'data-testid="qr-finder"' in html


def test_a_private_tournament_has_no_codes_to_scan(client, organizer, private):
    assert client.get(reverse("tournaments:screen_qr", args=[private.slug, "standings"])).status_code == 404
    client.login(username="org", password="pw-org-12345")
    assert client.get(urls(private)["screen_data"]).json()["qr"] == []


def test_the_club_and_its_colours_with_a_readable_contrast(client, night):
    from players.models import Club

    club = Club.objects.create(name="Kafeneio Club", slug="kafeneio-club")
    Tournament.objects.filter(pk=night.pk).update(club=club, colour="#FFD700", background="#000000")
    data = client.get(urls(night)["screen_data"]).json()["tournament"]
    assert data["club"] == "Kafeneio Club"
    assert data["accent"] == {"bar": "#ffd700", "ink": "#1b1400", "highlight": "#ffd700"}  # dark ink on gold
    assert "Kafeneio Club" in client.get(urls(night)["screen"]).text
    Tournament.objects.filter(pk=night.pk).update(colour="#0a1a12")  # as dark as the screen
    accent = client.get(urls(night)["screen_data"]).json()["tournament"]["accent"]
    assert accent["ink"] == "#ffffff" and accent["highlight"] == "#ffffff"  # highlights stay readable
    Tournament.objects.filter(pk=night.pk).update(colour="#7a7a7a")  # grey: neither reads at 4.5:1
    assert client.get(urls(night)["screen_data"]).json()["tournament"]["accent"] is None
    Tournament.objects.filter(pk=night.pk).update(colour="#zzzzzz")
    assert client.get(urls(night)["screen_data"]).json()["tournament"]["accent"] is None


def test_contrast_is_wcags():
    assert round(screen.contrast((0, 0, 0), (255, 255, 255)), 1) == 21.0
    assert screen.contrast((10, 10, 10), (10, 10, 10)) == 1.0


def test_the_final_ranking_carries_the_points_it_was_ranked_by(client, night, organizer):
    for number in (2, 3):
        finish_table(night, number)
    services.tournament_finish(tournament=night, reason="The café closes", user=organizer)
    data = client.get(urls(night)["screen_data"]).json()
    assert data["ranking"], "a finished tournament has its ranking"
    keys = [k for k in night.tiebreaks if k != "head_to_head"][:2]
    assert [c["key"] for c in data["ranking_columns"]] == keys
    rows = {row["entry"]: row for row in selectors.standings_get(tournament=night)["rows"]}
    ranked = data["ranking"]
    assert all(len(row["values"]) == 2 for row in ranked)
    winner = next(r for r in rows.values() if r["team"] == ranked[0]["team"])
    assert ranked[0]["values"] == [winner["values"][k] for k in keys]
    html = client.get(urls(night)["screen"]).text.split('data-testid="screen-ranking"')[1]
    assert f'<td class="num ranked">{ranked[0]["values"][0]}</td>' in html


# The prize-giving (tournaments/prizes.py) ------------------------------------------------------


def concours_over(organizer, teams: int = 6, name: str = "Prize night") -> Tournament:
    """A one-round concours, every table played (table n's side 0 making 115 − 4n card points: no
    two teams level, no shared place on the prize list), finished."""
    t = services.tournament_create(
        organizer=organizer, name=name, swiss_rounds=1, deals_per_match=1, format="concours"
    )
    for i in range(teams):
        services.entry_register(
            tournament=t, name=f"{name} {i + 1}", players=[f"{name} A{i}", f"{name} B{i}"]
        )
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    for table in rnd.tables.exclude(match=None):
        cards = 115 - 4 * table.number
        deal = {"maker": 0, "card_points": [cards, 152 - cards], "last_trick": 0}
        scoring.deal_record(match=table.match, deal=deal)
    services.standings_refresh(tournament_id=t.pk)
    t = Tournament.objects.get(pk=t.pk)
    if t.status != Tournament.Status.FINISHED:
        services.tournament_finish(tournament=t, reason="Done", in_play="totals", user=organizer)
    return Tournament.objects.get(pk=t.pk)


def set_prizes(t: Tournament, organizer) -> None:
    from tournaments import prizes

    prizes.prizes_update(
        tournament=t,
        user=organizer,
        pot_cents=43700,
        percentages=["40", "25", "15", "12", "8"],
        rounding="unit",
    )
    prizes.prize_lines_update(tournament=t, lines=[(2, "A ham", None)], user=organizer)
    last = t.entries.order_by("-number").first()
    prizes.prize_category_save(
        tournament=t, name="Best mixed team", text="A cup", amount_cents=2050, winners=[last], user=organizer
    )


def test_the_prizes_come_only_once_finished_and_set(client, organizer, night):
    from tournaments import prizes

    prizes.prizes_update(tournament=night, user=organizer, pot_cents=10000, percentages=["60", "40"])
    data = client.get(urls(night)["screen_data"]).json()
    assert data["prizes"] is None  # still running: no prize-giving yet
    assert 'data-testid="screen-prizes"' not in client.get(urls(night)["screen"]).text
    over = concours_over(organizer)
    data = client.get(urls(over)["screen_data"]).json()
    assert data["ranking"] and data["prizes"] is None  # finished, no prize set: no panel
    assert 'data-testid="screen-prizes"' not in client.get(urls(over)["screen"]).text
    prizes.prizes_update(tournament=over, user=organizer, pot_cents=0)  # a settings row, still no prize
    assert client.get(urls(over)["screen_data"]).json()["prizes"] is None


def test_a_finished_tournament_with_prizes_carries_them(client, organizer):
    over = concours_over(organizer)
    set_prizes(over, organizer)
    data = client.get(urls(over)["screen_data"]).json()
    shown = data["prizes"]
    assert [(p["position"], p["amount"], p["text"]) for p in shown["places"]] == [
        (1, "177\u00a0€", ""),
        (2, "109\u00a0€", "A ham"),
        (3, "65\u00a0€", ""),
        (4, "52\u00a0€", ""),
        (5, "34\u00a0€", ""),
    ]
    ranking = {r["position"]: r for r in data["ranking"]}
    for place in shown["places"]:  # the final ranking's teams, numbers and players at each place
        team, row = place["team"], ranking[place["position"]]
        assert (team["name"], team["number"], team["players"]) == (row["team"], row["number"], row["players"])
    rows = {r["team"]: r for r in selectors.standings_get(tournament=over)["rows"]}
    key = over.tiebreaks[0]
    assert shown["points"]["key"] == key
    assert all(p["points"] == rows[p["team"]["name"]]["values"][key] for p in shown["places"])
    last = over.entries.select_related("team__player_a", "team__player_b").order_by("-number").first()
    assert shown["categories"] == [
        {
            "name": "Best mixed team",
            "amount": "20.50\u00a0€",
            "text": "A cup",
            "winners": [
                {
                    "number": last.number,
                    "name": last.name,
                    "players": [last.team.player_a.name, last.team.player_b.name],
                }
            ],
        }
    ]
    # The page shows them without JavaScript: each place's team and prize, the category's winner.
    page = client.get(urls(over)["screen"]).text
    panel = page.split('data-testid="screen-prizes"')[1].split("</table>")[0]
    first = shown["places"][0]["team"]
    assert (
        f'<small class="no">{first["number"]}</small> <span class="team-name">{first["name"]}</span>' in panel
    )
    assert '<strong class="amount">177\u00a0€</strong>' in panel
    assert '<strong class="amount">109\u00a0€</strong> · A ham' in panel
    assert '<span class="category-name">Best mixed team</span>' in panel and last.name in panel
    assert '<strong class="amount">20.50\u00a0€</strong> · A cup' in panel
    assert screen.screen_labels()["prizes"] == "Prizes"


def test_a_category_alone_is_a_prize_giving_too(client, organizer):
    from tournaments import prizes

    over = concours_over(organizer)
    prizes.prize_category_save(tournament=over, name="Best junior pair", text="A trophy", user=organizer)
    shown = client.get(urls(over)["screen_data"]).json()["prizes"]
    assert shown["places"] == [] and [c["name"] for c in shown["categories"]] == ["Best junior pair"]
    assert shown["categories"][0]["winners"] == [] and shown["categories"][0]["amount"] == ""
    assert "Not chosen yet" in client.get(urls(over)["screen"]).text


def test_the_prizes_are_a_constant_number_of_queries(client, organizer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def reads(teams: int) -> int:
        t = concours_over(organizer, teams=teams, name=f"Q{teams}")
        set_prizes(t, organizer)
        from tournaments import prizes

        everyone = list(t.entries.all())
        prizes.prize_category_save(tournament=t, name="Everyone", winners=everyone, user=organizer)
        client.get(urls(t)["screen_data"])  # the standings' cache filled
        with CaptureQueriesContext(connection) as seen:
            data = client.get(urls(t)["screen_data"]).json()
        assert len(data["prizes"]["categories"][1]["winners"]) == teams
        return len(seen)

    assert reads(6) == reads(16)


@needs_redis
@override_settings(LIVE_REDIS_URL=REDIS_URL)
def test_a_prize_change_is_pushed_to_the_open_screens(client, organizer, monkeypatch):
    """A prize changes no stamp: its publish alone tells the streams (ASGI with Redis), and the data
    the screen then fetches carries it."""
    from tournaments import prizes

    token = uuid.uuid4().hex
    monkeypatch.setattr(live, "channel", lambda tournament_id: f"tsoxa:test:{token}:{tournament_id}")
    over = concours_over(organizer)
    since = live.stamp(over.pk)

    async def scenario():
        stream = live.events(over.pk, since_version=since)
        try:
            await step(stream)
            waiting = asyncio.ensure_future(anext(stream))
            await sync_to_async(prizes.prize_category_save)(
                tournament=over, name="Best junior pair", text="A cup", user=organizer
            )
            return await asyncio.wait_for(waiting, STEP)
        finally:
            await stream.aclose()

    event = parse(drive(scenario))
    assert event["event"] == "changed" and json.loads(event["data"])["what"] == "standings"
    shown = client.get(urls(over)["screen_data"]).json()["prizes"]
    assert [c["name"] for c in shown["categories"]] == ["Best junior pair"]
