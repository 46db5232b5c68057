"""Deals recorded at the tables reach the standings through a real worker."""

import time

import pytest
from django.conf import settings

from scoring import services as scoring
from tournaments import services
from tournaments.models import StandingsSnapshot

pytestmark = pytest.mark.worker

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


def wait_for(condition, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("the worker did not update the standings in time")


def test_recorded_deals_reach_the_standings_through_the_worker(worker, django_user_model):
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    tournament = services.tournament_create(organizer=organizer, name="Worker night", swiss_rounds=1,
                                            deals_per_match=1)  # fmt: skip
    for i in range(4):
        services.entry_register(tournament=tournament, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=tournament)
    rnd = services.round_generate(tournament=tournament)
    services.round_start(rnd=rnd)
    wait_for(lambda: StandingsSnapshot.objects.filter(tournament=tournament, version__gte=1).exists())

    winners = []
    for table in rnd.tables.select_related("match"):
        scoring.deal_record(match=table.match, deal=WIN_0)
        winners.append(table.entry0_id)

    def settled():
        snapshot = StandingsSnapshot.objects.get(tournament=tournament)
        points = {row["entry"]: row["values"]["match_points"] for row in snapshot.rows}
        return snapshot if all(points.get(w) == 2 for w in winners) else None

    snapshot = wait_for(settled)
    assert sorted(row["values"]["match_points"] for row in snapshot.rows) == [0, 0, 2, 2]
    rnd.refresh_from_db()
    assert rnd.status == "finished"
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_deals_recorded_while_the_worker_is_down_reach_the_standings_when_it_returns(
    worker, django_user_model
):
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    tournament = services.tournament_create(organizer=organizer, name="Outage night", swiss_rounds=1,
                                            deals_per_match=1)  # fmt: skip
    for i in range(4):
        services.entry_register(tournament=tournament, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=tournament)
    rnd = services.round_generate(tournament=tournament)
    services.round_start(rnd=rnd)
    wait_for(lambda: StandingsSnapshot.objects.filter(tournament=tournament, version__gte=1).exists())

    worker.stop()
    winners = []
    for table in rnd.tables.select_related("match"):
        scoring.deal_record(match=table.match, deal=WIN_0)  # recorded with no worker running
        winners.append(table.entry0_id)
    assert sum(t.match.deals.count() for t in rnd.tables.select_related("match")) == 2
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    assert all(row["values"]["match_points"] == 0 for row in snapshot.rows)

    worker.start()

    def caught_up():
        rows = StandingsSnapshot.objects.get(tournament=tournament).rows
        points = {row["entry"]: row["values"]["match_points"] for row in rows}
        return all(points.get(w) == 2 for w in winners)

    wait_for(caught_up)


def test_a_knockout_finishes_with_its_final_through_the_worker(worker, django_user_model):
    """The tournament is finished, and its final ranking made, by the worker's recomputation."""
    from tournaments.models import Tournament

    capot = {"maker": 0, "card_points": [152, 0], "capot": 0}
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    tournament = services.tournament_create(organizer=organizer, name="Cup night", swiss_rounds=1,
                                            deals_per_match=1, knockout_size=2)  # fmt: skip
    for i in range(4):
        services.entry_register(tournament=tournament, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=tournament)
    rnd = services.round_start(rnd=services.round_generate(tournament=tournament))
    for table in rnd.tables.select_related("match"):
        scoring.deal_record(match=table.match, deal=WIN_0)
    rnd.refresh_from_db()
    wait_for(lambda: (rnd.refresh_from_db(), rnd.status == "finished")[1])
    final = services.round_start(rnd=services.round_generate(tournament=tournament))
    table = final.tables.select_related("match").get()
    while table.match.status != "finished":
        scoring.deal_record(match=table.match, deal=capot)
        table.match.refresh_from_db()
    finished = wait_for(lambda: Tournament.objects.filter(pk=tournament.pk, status="finished").first())
    assert finished.finished_at is not None
    ranking = StandingsSnapshot.objects.get(tournament=tournament).ranking
    assert [row["entry"] for row in ranking[:2]] == [table.entry0_id, table.entry1_id]
    assert ranking[0]["reached"] == "champion"
