"""Every page costs the same number of SQL queries whatever it shows (issue 12): each is read for a
small and a larger tournament or match, and must run as many queries for both."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from players.models import Player
from scoring import services as scoring
from tests.factories import made, swiss_night

pytestmark = pytest.mark.django_db

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}
WIN_1 = {"maker": 1, "card_points": [62, 90], "last_trick": 1}


def queries(client, url):
    cache.clear()  # the standings pages come from the cache when warm: count the cold read
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(captured)


def night(organizer, teams, rounds):
    """A Swiss of ``teams`` teams (the first with the player "Zoe"), ``rounds`` rounds played."""
    zoe = Player.objects.create(name="Zoe")
    return swiss_night(organizer, teams, rounds, first_player=zoe, more_rounds=1), zoe


def pages(t, zoe):
    entry = t.entries.order_by("pk").first()
    return {
        "home": reverse("scoring:home"),
        "tournaments": reverse("tournaments:list"),
        "tournament": reverse("tournaments:home", args=[t.slug]),
        "standings": reverse("tournaments:standings", args=[t.slug]),
        "round": reverse("tournaments:round", args=[t.slug, 1]),
        "round print": reverse("tournaments:round_print", args=[t.slug, 1]),
        "entry": reverse("tournaments:entry", args=[t.slug, entry.pk]),
        "manage": reverse("tournaments:manage", args=[t.slug]),
        "links": reverse("tournaments:round_links", args=[t.slug, 1]),
        "players": reverse("players:list"),
        "player": reverse("players:detail", args=[zoe.pk]),
        "leaderboard": reverse("players:leaderboard") + "?min=1",  # a board with rows at both sizes
    }


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("organizer", password="pw-organizer-123")


def test_every_page_costs_the_same_for_a_larger_tournament(client, organizer):
    client.force_login(organizer)
    small = {name: queries(client, url) for name, url in pages(*night(organizer, 4, 2)).items()}
    large = {name: queries(client, url) for name, url in pages(*night(organizer, 12, 3)).items()}
    assert large == small


def test_a_sheet_and_its_pages_cost_the_same_with_more_deals(client, organizer):
    client.force_login(organizer)
    match = scoring.match_create(teams=[("A", ("a1", "a2")), ("B", ("b1", "b2"))], created_by=organizer)
    urls = {
        name: reverse(f"scoring:{name}", args=[match.pk])
        for name in ("match", "match_history", "match_print", "match_chart_svg")
    }
    scoring.deal_record(match=match, deal=made(), user=organizer)
    small = {name: queries(client, url) for name, url in urls.items()}
    for _ in range(5):
        scoring.deal_record(match=match, deal=made(cards=(40, 112), last_trick=1, maker=1), user=organizer)
    first = match.deals.order_by("position").first()
    small_edit = queries(client, reverse("scoring:deal_edit", args=[match.pk, first.pk]))
    large = {name: queries(client, url) for name, url in urls.items()}
    assert large == small
    scoring.deal_record(match=match, deal=made(), user=organizer)
    assert queries(client, reverse("scoring:deal_edit", args=[match.pk, first.pk])) == small_edit
