"""Results of a rated tournament reach the players' ratings through a real worker."""

import pytest
from django.conf import settings

from league.models import RatingPoint
from players.models import Player
from scoring import services as scoring
from tests.worker.test_standings_through_worker import WIN_0, wait_for
from tournaments import services

pytestmark = pytest.mark.worker


def test_finished_matches_reach_the_ratings_through_the_worker(worker, django_user_model):
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    tournament = services.tournament_create(organizer=organizer, name="Rated night", swiss_rounds=1,
                                            deals_per_match=1)  # fmt: skip
    for i in range(4):
        services.entry_register(tournament=tournament, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=tournament)
    rnd = services.round_start(rnd=services.round_generate(tournament=tournament))
    for table in rnd.tables.select_related("match"):
        scoring.deal_record(match=table.match, deal=WIN_0)

    wait_for(lambda: RatingPoint.objects.count() == 8)
    rated = wait_for(lambda: list(Player.objects.filter(rated_matches=1)) or None)
    assert len(rated) == 8
    winners = {p.pk for t in rnd.tables.select_related("match") for p in (t.match.seat0, t.match.seat2)}
    assert all((p.rating_mu > 25) == (p.pk in winners) for p in rated)
