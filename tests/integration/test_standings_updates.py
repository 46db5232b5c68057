"""When the standings are updated, and what an update costs.

Only a change of a result queues an update (a match finished, a finished match corrected or
unfinished again, a confirmation where the tournament asks for one), never a deal of a match in
play; with no broker (Celery eager, as here) the update runs after the deal's response has been
sent; the standings are computed from the results' columns in a number of queries that does not
grow with the tournament, and what is stored is always what a full recomputation gives.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
import urllib.request
from unittest import mock

import pytest
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authtoken.models import Token

from scoring import engine
from scoring import services as scoring
from scoring.models import Match
from scoring.signals import MatchResult
from tournaments import after_response, services, standings
from tournaments.models import Round, StandingsSnapshot, Table
from tournaments.selectors import standings_get

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
WIN_1 = {"maker": 1, "card_points": [62, 90], "last_trick": 1}  # 62 v 100
BIG_0 = {"maker": 0, "card_points": [132, 20], "last_trick": 0}  # 142 v 20
MESA_0 = {"maker": 0, "card_points": [60, 92], "last_trick": 1}  # team 0 fails: mesa, 0 v 162


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def running(organizer, teams=4, **settings):
    settings.setdefault("deals_per_match", 1)
    settings.setdefault("swiss_rounds", 3)
    t = services.tournament_create(organizer=organizer, name="Club night", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def next_round(tournament, user=None):
    rnd = services.round_generate(tournament=tournament)
    services.round_start(rnd=rnd, user=user)
    return rnd


def matches(rnd):
    return [table.match for table in rnd.tables.select_related("match") if table.match is not None]


def version(tournament):
    return StandingsSnapshot.objects.get(tournament=tournament).version


@pytest.fixture
def queued():
    """Every standings update asked for (the receiver's and the services' calls), counted."""
    spy = mock.Mock(wraps=services.standings_request)
    with (
        mock.patch.object(services, "standings_request", spy),
        mock.patch.object(services.queue, "standings_request", spy),
    ):
        yield spy


# Which changes queue an update ----------------------------------------------------------------


def test_a_deal_of_a_match_in_play_queues_nothing(organizer, queued):
    t = running(organizer, deals_per_match=3)
    match = matches(next_round(t))[0]
    before = version(t)
    queued.reset_mock()
    with CaptureQueriesContext(connection) as queries:
        deal = scoring.deal_record(match=match, deal=WIN_0)
        scoring.deal_correct(deal=deal, data=WIN_1)
        scoring.deal_record(match=match, deal=WIN_0)
        scoring.deal_undo_last(match=match)
    assert queued.call_count == 0
    assert version(t) == before
    # The table is read with the match (its round's clock), never looked up on its own.
    lookups = [q["sql"] for q in queries.captured_queries if "tournaments_table" in q["sql"]]
    assert all(sql.startswith('SELECT "scoring_match"."id"') for sql in lookups), lookups


def test_the_deal_that_finishes_a_match_queues_once(organizer, queued):
    t = running(organizer, deals_per_match=2)
    rnd = next_round(t)
    match = matches(rnd)[0]
    queued.reset_mock()
    scoring.deal_record(match=match, deal=WIN_0)
    assert queued.call_count == 0
    before = version(t)
    scoring.deal_record(match=match, deal=WIN_0)  # the second of two deals: the match is over
    assert queued.call_args_list == [mock.call(t.pk)]
    assert version(t) == before + 1
    rows = {row["entry"]: row for row in StandingsSnapshot.objects.get(tournament=t).rows}
    table = Table.objects.get(match=match)
    assert rows[table.entry0_id]["values"]["match_points"] == 2


def test_a_match_ended_by_agreement_queues(organizer, queued):
    t = running(organizer, deals_per_match=5)
    match = matches(next_round(t))[0]
    scoring.deal_record(match=match, deal=WIN_0)
    queued.reset_mock()
    scoring.match_finish(match=match)
    assert queued.call_count == 1


@pytest.mark.parametrize(
    "correction",
    [
        pytest.param(lambda deal: scoring.deal_correct(deal=deal, data=WIN_1), id="the-winner-changes"),
        pytest.param(lambda deal: scoring.deal_correct(deal=deal, data=BIG_0), id="the-totals-change"),
        pytest.param(lambda deal: scoring.deal_correct(deal=deal, data=MESA_0), id="a-mesa-suffered"),
        pytest.param(lambda deal: scoring.deal_delete(deal=deal), id="unfinished-again"),
    ],
)
def test_a_correction_of_a_finished_match_queues_and_reaches_the_standings(organizer, queued, correction):
    t = running(organizer)
    match = matches(next_round(t))[0]
    deal = scoring.deal_record(match=match, deal=WIN_0)
    before = version(t)
    queued.reset_mock()
    correction(deal)
    assert queued.call_count == 1
    assert version(t) == before + 1
    assert StandingsSnapshot.objects.get(tournament=t).rows == snapshot_rows_from_scratch(t)


def test_a_correction_that_leaves_the_result_as_it_was_queues_nothing(organizer, queued):
    t = running(organizer)
    match = matches(next_round(t))[0]
    deal = scoring.deal_record(match=match, deal=WIN_0)
    queued.reset_mock()
    scoring.deal_correct(deal=deal, data={**WIN_0, "melds": [[], []]})  # the same deal, said otherwise
    assert queued.call_count == 0


def test_a_confirmation_queues_where_the_tournament_asks_for_one(organizer, queued):
    t = running(organizer, confirmation=True)
    rnd = next_round(t)
    first, second = matches(rnd)
    for match in (first, second):
        scoring.deal_record(match=match, deal=WIN_0)
    table = Table.objects.get(match=first)
    rows = {row["entry"]: row for row in StandingsSnapshot.objects.get(tournament=t).rows}
    assert rows[table.entry0_id]["values"]["match_points"] == 0  # finished, not confirmed: not counted
    queued.reset_mock()
    scoring.match_confirm(match=first, team=1)
    assert queued.call_count == 1
    rows = {row["entry"]: row for row in StandingsSnapshot.objects.get(tournament=t).rows}
    assert rows[table.entry0_id]["values"]["match_points"] == 2
    # A correction of the confirmed result asks for a new confirmation: the result counts no more.
    scoring.deal_correct(deal=first.deals.get(), data={**WIN_0, "melds": [[], []]})
    assert queued.call_count == 2
    rows = {row["entry"]: row for row in StandingsSnapshot.objects.get(tournament=t).rows}
    assert rows[table.entry0_id]["values"]["match_points"] == 0
    scoring.match_confirm(match=second, team=1)  # the round's last confirmation closes it
    scoring.match_confirm(match=first, team=1)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINISHED


def test_a_confirmation_queues_nothing_where_results_count_unconfirmed(organizer, queued):
    t = running(organizer)
    match = matches(next_round(t))[0]
    scoring.deal_record(match=match, deal=WIN_0)
    queued.reset_mock()
    scoring.match_confirm(match=match, team=1)
    assert queued.call_count == 0


def test_the_last_result_of_a_round_still_closes_it(organizer):
    t = running(organizer, deals_per_match=2)
    rnd = next_round(t)
    first, last = matches(rnd)
    for match in (first, last):
        scoring.deal_record(match=match, deal=WIN_0)
    scoring.deal_record(match=first, deal=WIN_0)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.STARTED
    scoring.deal_record(match=last, deal=WIN_0)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINISHED


def test_the_organizer_sees_the_live_totals_of_a_match_in_play(organizer, client):
    t = running(organizer, deals_per_match=3)
    rnd = next_round(t, user=organizer)
    match = matches(rnd)[0]
    before = version(t)
    scoring.deal_record(match=match, deal=BIG_0)
    assert version(t) == before  # the standings did not move
    client.force_login(organizer)
    table = Table.objects.get(match=match)
    for page in (
        reverse("tournaments:round", args=[t.slug, rnd.number]),
        reverse("tournaments:entry", args=[t.slug, table.entry0_id]),
    ):
        assert "142" in client.get(page).text, page  # the match's totals, read from the match


@pytest.mark.parametrize(
    ("before", "after", "confirmation", "affected"),
    [
        (("in_progress", None, (0, 0), False), ("in_progress", None, (100, 62), False), True, False),
        (("tie_break", None, (990, 990), False), ("in_progress", None, (990, 990), False), True, False),
        (("in_progress", None, (900, 62), False), ("finished", 0, (1000, 62), False), True, True),
        (("finished", 0, (1000, 62), False), ("in_progress", None, (900, 62), False), True, True),
        (("finished", 0, (1000, 62), False), ("finished", 1, (62, 1000), False), False, True),
        (("finished", 0, (1000, 62), False), ("finished", 0, (1010, 62), False), False, True),
        (("finished", 0, (1000, 62), False), ("finished", 0, (1000, 62), True), True, True),
        (("finished", 0, (1000, 62), True), ("finished", 0, (1000, 62), False), True, True),
        (("finished", 0, (1000, 62), False), ("finished", 0, (1000, 62), True), False, False),
        (("finished", 0, (1000, 62), False), ("finished", 0, (1000, 62), False), True, False),
    ],
    ids=[
        "a-deal-in-play",
        "out-of-a-tie-break-in-play",
        "finished",
        "unfinished-again",
        "winner-corrected",
        "totals-corrected",
        "confirmed",
        "unconfirmed",
        "confirmed-where-not-asked",
        "nothing-changed",
    ],
)
def test_which_changes_affect_the_standings(before, after, confirmation, affected):
    def result(status, winner, totals, confirmed):
        return MatchResult(status=status, winner=winner, totals=totals, suffered=(0, 0), confirmed=confirmed)

    assert services.standings_affected(result(*before), result(*after), confirmation=confirmation) is affected


# After the response, with no broker ----------------------------------------------------------


def api_deal(match, user):
    """A deal POSTed to the API as a WSGI server would hand it to Django: the environ."""
    token = Token.objects.create(user=user)
    request = RequestFactory().post(
        f"/api/v1/matches/{match.pk}/deals/",
        data=json.dumps(WIN_0),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token.key}",
    )
    return request.environ


def test_the_deal_request_answers_before_the_standings_are_recomputed(organizer):
    t = running(organizer)
    match = matches(next_round(t, user=organizer))[0]
    before = version(t)
    environ = api_deal(match, organizer)
    statuses = []
    # As a WSGI server does: call the application, send the body, then close the response. (Django's
    # test client would close it before returning; connections stay as the test has them.)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        with CaptureQueriesContext(connection) as request_queries:
            response = WSGIHandler()(environ, lambda status, headers: statuses.append(status))
            body = b"".join(response)
        answered = version(t)  # the answer has gone
        with CaptureQueriesContext(connection) as after_queries:
            response.close()  # the server is done with the response: request_finished
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert statuses == ["201 Created"] and body  # the deal was recorded and answered
    assert not any("standingssnapshot" in q["sql"] for q in request_queries.captured_queries)
    assert answered == before  # the standings had not moved when the answer went
    assert any("standingssnapshot" in q["sql"] for q in after_queries.captured_queries)
    assert version(t) == before + 1
    assert standings_get(tournament=t)["version"] == before + 1  # the cache too


def test_through_a_real_server_the_answer_does_not_wait_for_the_standings(organizer, live_server):
    t = running(organizer)
    match = matches(next_round(t, user=organizer))[0]
    before = version(t)
    token = Token.objects.create(user=organizer)
    release, started = threading.Event(), threading.Event()
    refresh = services.standings_refresh

    def held_refresh(**kwargs):
        started.set()
        assert release.wait(20), "the test never let the recomputation run"
        return refresh(**kwargs)

    request = urllib.request.Request(
        f"{live_server.url}/api/v1/matches/{match.pk}/deals/",
        data=json.dumps(WIN_0).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token.key}"},
        method="POST",
    )
    with mock.patch.object(services, "standings_refresh", side_effect=held_refresh):
        try:
            # Were the recomputation inside the request, no answer would come until it is released.
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.status == 201
            assert started.wait(10)  # the recomputation began, after the answer
            assert version(t) == before
        finally:
            release.set()
        deadline = time.monotonic() + 10
        while version(t) == before and time.monotonic() < deadline:
            time.sleep(0.05)
    assert version(t) == before + 1
    requests_done(timeout=10)  # the server's thread ends its request before the test's database goes


def requests_done(*, timeout: float) -> None:
    """Wait for the live server's request threads (socketserver's ``process_request_thread``) to
    end: the work after the response runs in them, and the request's end still reads the database."""
    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        target = getattr(thread, "_target", None)
        if getattr(target, "__name__", "") == "process_request_thread":
            thread.join(max(0.0, deadline - time.monotonic()))


def test_outside_a_request_the_update_runs_at_once_and_held_work_waits(organizer):
    t = running(organizer, rated=False)  # the standings' work alone (a rated one's queue the ratings too)
    first, second = matches(next_round(t))
    before = version(t)
    scoring.deal_record(match=first, deal=WIN_0)  # a service called from a shell, a command, a test
    assert version(t) == before + 1
    with after_response.held() as work:
        scoring.deal_record(match=second, deal=WIN_0)
    assert len(work) == 1 and version(t) == before + 1
    work[0]()
    assert version(t) == before + 2


def test_a_failing_update_after_the_response_is_logged_and_the_rest_still_runs(caplog):
    done = []
    with after_response.held() as work:
        after_response.run_after_response(lambda: 1 / 0)
        after_response.run_after_response(lambda: done.append(True))
    after_response._pending.set(work)
    try:
        after_response._run()
    finally:
        after_response._pending.set(None)
    assert done == [True]
    assert "work after the response failed" in caplog.text


# Queries and exactness -------------------------------------------------------------------------


def play_rounds(tournament, rounds, rng):
    for _ in range(rounds):
        rnd = next_round(tournament)
        for match in matches(rnd):
            scoring.deal_record(match=match, deal=rng.choice([WIN_0, WIN_1, BIG_0, MESA_0]))


def test_a_recomputation_costs_the_same_queries_whatever_the_size(organizer):
    rng = random.Random(7)
    small = running(organizer, teams=4, swiss_rounds=4)
    play_rounds(small, 2, rng)
    big = running(organizer, teams=14, swiss_rounds=4)
    play_rounds(big, 3, rng)
    counts = []
    for tournament in (small, big):
        with CaptureQueriesContext(connection) as queries:
            services.standings_refresh(tournament_id=tournament.pk)
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]
    assert counts[0] <= 11  # one of them moves the tournament's updated_at (for the API's mirrors)


def snapshot_rows_from_scratch(tournament):
    """The rows as a recomputation from whole objects gives them: every table, its match, its teams."""
    tournament.refresh_from_db()
    results = []
    for table in Table.objects.filter(round__tournament=tournament, round__kind__in=("swiss", "round_robin")):
        if table.entry1_id is None:
            results.append(standings.Result(a=table.entry0_id, b=None, points=(0, 0), winner=0))
            continue
        match = table.match
        counts = match.status == Match.Status.FINISHED and (
            not tournament.confirmation or match.confirmed_at is not None
        )
        if counts:
            results.append(
                standings.Result(
                    a=table.entry0_id,
                    b=table.entry1_id,
                    points=tuple(match.totals),
                    winner=match.winner,
                    suffered=tuple(match.suffered),
                )
            )
    scoring_ = services.results._scoring(tournament)
    rows = standings.compute_standings(tournament.participants, results, tournament.tiebreaks, scoring_)
    entries = {e.pk: e for e in tournament.entries.select_related("team__player_a", "team__player_b")}
    return [
        {
            "entry": row.entry,
            "rank": row.rank,
            "team": entries[row.entry].team.name,
            "players": [entries[row.entry].team.player_a.name, entries[row.entry].team.player_b.name],
            "withdrawn": entries[row.entry].status == "withdrawn",
            "played": row.played,
            "won": row.won,
            "drawn": row.drawn,
            "lost": row.lost,
            "values": dict(row.values),
            "penalty": [0, 0],
        }
        for row in rows
    ]


def change(match, deals, roll, rng, confirmation):
    """One change at a table, at random: a deal, a correction, a deletion, an early end, a confirmation."""
    deal = rng.choice([WIN_0, WIN_1, BIG_0, MESA_0])
    if match.status == Match.Status.FINISHED:
        if roll < 0.25 and confirmation and match.confirmed_at is None:
            scoring.match_confirm(match=match, team=1)
        elif roll < 0.55:
            scoring.deal_correct(deal=rng.choice(deals), data=deal)
        elif roll < 0.7:
            scoring.deal_delete(deal=rng.choice(deals))
    elif deals and roll < 0.15:
        scoring.match_finish(match=match)
    elif deals and roll < 0.3:
        scoring.deal_correct(deal=rng.choice(deals), data=deal)
    else:
        scoring.deal_record(match=match, deal=deal)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_after_any_sequence_of_results_the_standings_are_a_full_recomputation(organizer, seed):
    """Deals recorded, corrected, deleted, matches ended and confirmed in a random order: after
    each change, the snapshot and the cache hold exactly what a recomputation from scratch gives."""
    rng = random.Random(seed)
    confirmation = seed == 3
    order = ["match_points", "buchholz", "head_to_head", "suffered", "game_points"]
    t = running(organizer, teams=7, deals_per_match=2, confirmation=confirmation, tiebreaks=order)
    for _ in range(2):
        rnd = next_round(t)
        in_play = matches(rnd)
        for _ in range(30):
            match = rng.choice(in_play)
            match.refresh_from_db()
            deals = list(match.deals.filter(deleted_at__isnull=True))
            with contextlib.suppress(engine.ScoringError):  # a change the engine refuses saves nothing
                change(match, deals, rng.random(), rng, confirmation)
            expected = snapshot_rows_from_scratch(t)
            assert StandingsSnapshot.objects.get(tournament=t).rows == expected
            assert standings_get(tournament=t)["rows"] == expected
        for match in in_play:  # the round ends: every match finished (and confirmed)
            match.refresh_from_db()
            while match.status != Match.Status.FINISHED:
                scoring.deal_record(match=match, deal=WIN_0)
                match.refresh_from_db()
            if confirmation and match.confirmed_at is None:
                scoring.match_confirm(match=match, team=1)
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINISHED
        assert StandingsSnapshot.objects.get(tournament=t).rows == snapshot_rows_from_scratch(t)
