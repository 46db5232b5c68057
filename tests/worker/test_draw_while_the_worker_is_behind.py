"""With a real broker and worker: the next round is drawn as soon as the last result is in, while
the worker has not recomputed the standings (it is stopped), and the recomputation it then runs
from the queue changes nothing the draw had not already counted."""

import pytest

from scoring import services as scoring
from tournaments import services, tasks
from tournaments.models import Round, StandingsSnapshot

from .test_standings_through_worker import WIN_0, wait_for

pytestmark = pytest.mark.worker


def test_the_next_round_is_drawn_while_the_worker_is_down(worker, django_user_model):
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    tournament = services.tournament_create(organizer=organizer, name="Busy night", swiss_rounds=3,
                                            deals_per_match=1)  # fmt: skip
    for i in range(8):
        services.entry_register(tournament=tournament, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=tournament)
    rnd = services.round_start(rnd=services.round_generate(tournament=tournament))
    wait_for(lambda: StandingsSnapshot.objects.filter(tournament=tournament, version__gte=1).exists())

    worker.stop()
    for table in rnd.tables.select_related("match"):
        scoring.deal_record(match=table.match, deal=WIN_0)  # queued in Redis; nobody runs it
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.STARTED
    second = services.round_generate(tournament=tournament)  # at once
    winners = {table.entry0_id for table in rnd.tables.all()}
    pairs = [{table.entry0_id, table.entry1_id} for table in second.tables.all()]
    assert all(pair <= winners or not pair & winners for pair in pairs)
    drawn = StandingsSnapshot.objects.get(tournament=tournament)
    assert {row["entry"] for row in drawn.rows if row["values"]["match_points"] == 2} == winners

    worker.start()  # the recomputation queued by the deals runs now: the same standings
    after = wait_for(
        lambda: StandingsSnapshot.objects.filter(tournament=tournament, version__gt=drawn.version).first()
    )
    assert after.rows == drawn.rows
    assert services.standings_stale() == [] and tasks.standings_catch_up() == []
