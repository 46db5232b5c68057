"""Every list of the API costs the same number of SQL queries whatever it holds (issue 12): each
endpoint is read at two sizes and must run as many queries at both."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from players.models import Player
from scoring import services as scoring
from tests.api.conftest import client_for
from tests.factories import made, swiss_night

pytestmark = pytest.mark.django_db


def queries(client, url):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
        if response.streaming:  # an export reads as it streams: count what it reads
            b"".join(response.streaming_content)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


def standalone_matches(user, player, count):
    """``count`` matches in which ``player`` sits, each with three deals, by an account (they count)."""
    for i in range(count):
        teams = [(f"A{i}", (player, f"a{i}")), (f"B{i}", (f"b{i}", f"c{i}"))]
        match = scoring.match_create(teams=teams, created_by=user)
        for deal in (made(), made(maker=1, cards=(62, 90), last_trick=1), {"thrown_in": True}):
            scoring.deal_record(match=match, deal=deal, user=user)


def club_night(organizer, teams, rounds=2):
    return swiss_night(organizer, teams, rounds)


@pytest.fixture
def nikos(scorekeeper):
    return Player.objects.create(name="Nikos Q")


MATCH_LISTS = [
    "/api/v1/matches/",
    "/api/v1/players/",
    "/api/v1/teams/",
    "/api/v1/players/{player}/history/",
    "/api/v1/players/{player}/",
]


@pytest.mark.parametrize("path", MATCH_LISTS)
@pytest.mark.parametrize("who", ["anonymous", "scorekeeper"])
def test_match_and_people_lists_cost_the_same_at_any_size(path, who, scorekeeper, nikos):
    client = APIClient() if who == "anonymous" else client_for(scorekeeper)
    url = path.format(player=nikos.pk)
    standalone_matches(scorekeeper, nikos, 2)
    small = queries(client, url)
    standalone_matches(scorekeeper, nikos, 5)
    assert queries(client, url) == small, url


def test_a_match_costs_the_same_with_more_deals(scorekeeper, nikos):
    client = client_for(scorekeeper)
    standalone_matches(scorekeeper, nikos, 1)
    match = scorekeeper.kept_matches.get()
    small = {
        rest: queries(client, f"/api/v1/matches/{match.pk}/{rest}")
        for rest in ("", "deals/", "sheet/", "file/")
    }
    for _ in range(6):
        scoring.deal_record(match=match, deal={"thrown_in": True}, user=scorekeeper)
    large = {
        rest: queries(client, f"/api/v1/matches/{match.pk}/{rest}")
        for rest in ("", "deals/", "sheet/", "file/")
    }
    assert large == small


TOURNAMENT_READS = [
    "/api/v1/tournaments/",
    "/api/v1/tournaments/{slug}/",
    "/api/v1/tournaments/{slug}/entries/",
    "/api/v1/tournaments/{slug}/rounds/",
    "/api/v1/tournaments/{slug}/rounds/1/",
    "/api/v1/tournaments/{slug}/standings/",
    "/api/v1/tournaments/{slug}/standings.csv",
    "/api/v1/tournaments/{slug}/deals.csv",
    "/api/v1/tournaments/{slug}/export/",
    "/api/v1/matches/?tournament={slug}",
]


@pytest.mark.parametrize("path", TOURNAMENT_READS)
def test_tournament_reads_cost_the_same_at_any_size(path, organizer):
    from django.core.cache import cache

    client = client_for(organizer)
    small_t = club_night(organizer, 4, rounds=2)
    cache.clear()
    small = queries(client, path.format(slug=small_t.slug))
    large_t = club_night(organizer, 10, rounds=3)
    cache.clear()
    assert queries(client, path.format(slug=large_t.slug)) == small, path
