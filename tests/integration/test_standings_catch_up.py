"""A broker outage degrades, it does not break (issue 24): a deal is stored and answered while the
broker is down, the standings catch up by themselves (Celery beat's periodic catch-up), and the next
round is drawn as soon as the last result is in, from fresh standings, whether or not the worker
has recomputed them."""

from __future__ import annotations

import logging
import uuid
from contextlib import contextmanager
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from kombu.exceptions import OperationalError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.celery import app
from scoring import services as scoring
from scoring.models import Match
from tests.factories import WIN_0, WIN_1
from tournaments import services, tasks
from tournaments.models import Round, StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: tasks are queued on commit

HTMX = {"HTTP_HX_REQUEST": "true"}
LOG = "tournaments.services"


@pytest.fixture
def organizer(django_user_model):
    user = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    user.token = Token.objects.create(user=user).key
    return user


@contextmanager
def broker_down():
    """A real broker configured (not eager) and down: every task queued raises kombu's error, as
    ``apply_async`` does when Redis refuses the connection."""
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with mock.patch(
            "celery.app.task.Task.apply_async", side_effect=OperationalError("Error 111 connecting to redis")
        ) as queued:
            yield queued
    finally:
        app.conf.task_always_eager = eager


def make(organizer, teams=4, **settings):
    settings.setdefault("deals_per_match", 1)
    t = services.tournament_create(organizer=organizer, name="Outage night", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def drawn(tournament, user=None):
    return services.round_start(rnd=services.round_generate(tournament=tournament, user=user), user=user)


def points(tournament) -> dict[int, int]:
    rows = StandingsSnapshot.objects.get(tournament=tournament).rows
    return {row["entry"]: row["values"]["match_points"] for row in rows}


def pad() -> dict[str, str]:
    """The tablet's pad: team 0 makes 90 + last trick against 62."""
    return {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "card_points": "90",
            "last_trick": "0"}  # fmt: skip


# The periodic catch-up ------------------------------------------------------------------------


def test_celery_beat_runs_the_catch_up_every_minute():
    entry = app.conf.beat_schedule["standings-catch-up"]
    assert entry["task"] == tasks.standings_catch_up.name
    assert entry["task"] in app.tasks and entry["schedule"] <= 60


def test_the_catch_up_recomputes_stale_standings_once(organizer):
    t = make(organizer)
    rnd = drawn(t)
    before = StandingsSnapshot.objects.get(tournament=t).version
    with broker_down():
        for table in rnd.tables.select_related("match"):
            scoring.deal_record(match=table.match, deal=WIN_0)  # stored; nothing recomputed
    assert set(points(t).values()) == {0}
    assert services.standings_stale() == [t.pk]

    assert tasks.standings_catch_up() == [t.pk]  # what beat runs every minute
    winners = {table.entry0_id for table in rnd.tables.all()}
    assert {e for e, p in points(t).items() if p == 2} == winners
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED
    version = StandingsSnapshot.objects.get(tournament=t).version
    assert version == before + 1

    assert tasks.standings_catch_up() == []  # idempotent: nothing stale, nothing recomputed
    assert StandingsSnapshot.objects.get(tournament=t).version == version


def test_the_catch_up_counts_a_decision_and_a_finished_events_correction(organizer):
    t = make(organizer, swiss_rounds=1)
    rnd = drawn(t)
    first, second = rnd.tables.order_by("number").select_related("match")
    with broker_down():
        scoring.deal_record(match=first.match, deal=WIN_0)
        tasks.standings_catch_up()
        services.table_decide(
            table=second, kind="forfeit", winner=1, scores=[0, 162], reason="No show", user=organizer
        )
        assert services.standings_stale() == [t.pk]
        tasks.standings_catch_up()
        t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED  # the last table decided: the catch-up finished it
        assert points(t)[second.entry1_id] == 2

        scoring.deal_correct(deal=first.match.deals.get(), data=WIN_1, user=organizer)  # after the end
        assert services.standings_stale() == [t.pk]
        assert tasks.standings_catch_up() == [t.pk]
    assert points(t)[first.entry1_id] == 2 and points(t)[first.entry0_id] == 0


# A deal while the broker is down --------------------------------------------------------------


def test_an_api_deal_is_stored_and_answered_while_the_broker_is_down(organizer, caplog):
    t = make(organizer)
    table = drawn(t).tables.order_by("number").select_related("match").first()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {organizer.token}")
    with broker_down() as queued, caplog.at_level(logging.WARNING, logger=LOG):
        response = client.post(f"/api/v1/matches/{table.match_id}/deals/", WIN_0, format="json")
    assert response.status_code == 201, response.content
    assert Match.objects.get(pk=table.match_id).deals.count() == 1
    assert queued.called  # it did try to queue the standings
    assert any("could not queue" in r.getMessage() for r in caplog.records if r.name == LOG)
    assert services.standings_stale() == [t.pk]
    tasks.standings_catch_up()
    assert points(t)[table.entry0_id] == 2


def test_a_pad_deal_is_stored_and_answered_while_the_broker_is_down(organizer, caplog):
    t = make(organizer)
    table = drawn(t).tables.order_by("number").select_related("match").first()
    browser = Client()
    browser.force_login(organizer)
    with broker_down(), caplog.at_level(logging.WARNING, logger=LOG):
        response = browser.post(reverse("scoring:deal_create", args=[table.match_id]), pad(), **HTMX)
    assert response.status_code == 200
    assert 'data-number="1"' in response.text
    assert Match.objects.get(pk=table.match_id).deals.count() == 1
    assert any("could not queue" in r.getMessage() for r in caplog.records if r.name == LOG)
    tasks.standings_catch_up()
    assert points(t)[table.entry0_id] == 2


# The next round, right after the last result ---------------------------------------------------


def test_the_next_round_is_drawn_right_after_the_last_result_from_fresh_standings(organizer):
    t = make(organizer, teams=8, swiss_rounds=3)
    rnd = drawn(t)
    with broker_down():
        for table in rnd.tables.select_related("match"):
            scoring.deal_record(match=table.match, deal=WIN_0)
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.STARTED  # nothing recomputed: the round still looks open
        assert set(points(t).values()) == {0}

        second = services.round_generate(tournament=t, user=organizer)  # no refusal, no waiting
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED
    winners = {table.entry0_id for table in rnd.tables.all()}
    pairs = [{table.entry0_id, table.entry1_id} for table in second.tables.all()]
    assert len(pairs) == 4 and all(pair <= winners or not pair & winners for pair in pairs)  # 2 v 2, 0 v 0
    assert {e for e, p in points(t).items() if p == 2} == winners  # recomputed for the draw
    assert services.standings_stale() == []


def test_a_round_still_in_play_is_not_finished_by_the_draw(organizer):
    t = make(organizer)
    rnd = drawn(t)
    with broker_down():
        scoring.deal_record(match=rnd.tables.order_by("number").first().match, deal=WIN_0)
        with pytest.raises(services.TournamentError, match="not finished"):
            services.round_generate(tournament=t, user=organizer)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.STARTED


@contextmanager
def worker_behind():
    """A broker that takes the tasks, and no worker running them yet."""
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        with mock.patch("celery.app.task.Task.apply_async") as queued:
            yield queued
    finally:
        app.conf.task_always_eager = eager


@pytest.mark.parametrize(
    ("outage", "made_here"),
    [(broker_down, True), (worker_behind, False)],
    ids=["broker-down", "worker-behind"],
)
def test_a_tie_at_the_cut_brings_its_play_off_not_the_final(organizer, outage, made_here):
    """A round robin of three, each winning once: all level, and the cut at 2 needs a play-off
    before the final. The draw right after the last result never draws the final over the tie:
    with the broker down the play-off is made there and then; with the worker behind it is queued."""
    t = make(organizer, teams=3, format=Tournament.Format.ROUND_ROBIN, knockout_size=2, cuts=[2])
    wins: dict[int, int] = {}
    with outage():
        for _ in range(3):
            rnd = drawn(t, organizer)
            for table in rnd.tables.filter(match__isnull=False).select_related("match"):
                a, b = table.entry0_id, table.entry1_id
                first_wins = wins.get(a, 0) <= wins.get(b, 0)
                scoring.deal_record(match=table.match, deal=WIN_0 if first_wins else WIN_1)
                winner = a if first_wins else b
                wins[winner] = wins.get(winner, 0) + 1
        assert sorted(wins.values()) == [1, 1, 1]
        with pytest.raises(services.TournamentError, match="play-off"):
            services.round_generate(tournament=t, user=organizer)
    assert t.rounds.filter(kind=Round.Kind.PLAYOFF).exists() == made_here
    assert not t.rounds.filter(kind=Round.Kind.KNOCKOUT).exists()
