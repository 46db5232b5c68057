"""Who may change a match on the tablet pages: its scorekeepers only."""

import uuid

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Deal, Match
from tests.factories import TEAMS, made
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def post_deal(client, match):
    data = {
        "client_key": str(uuid.uuid4()),
        "maker": "0",
        "points_team": "0",
        "card_points": "90",
        "last_trick": "0",
    }
    return client.post(reverse("scoring:deal_create", args=[match.pk]), data)


def test_the_tablet_that_started_a_match_keeps_it_without_an_account(client):
    form = {"team0_name": "A", "team0_player_a": "Nikos", "team0_player_b": "Eleni", "team1_name": "B",
            "team1_player_a": "Giorgos", "team1_player_b": "Maria", "first_dealer": "0"}  # fmt: skip
    client.post(reverse("scoring:match_new"), form)
    match = Match.objects.get()
    assert post_deal(client, match).status_code == 302
    assert Deal.objects.count() == 1


def test_another_visitor_only_follows_the_sheet(client, match):
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert "You are following this match" in page and "Record deal" not in page
    response = post_deal(client, match)
    assert response.status_code == 403
    assert "Nothing was changed" in response.text
    deal = services.deal_record(match=match, deal=made())
    for url in (
        reverse("scoring:deal_undo", args=[match.pk]),
        reverse("scoring:deal_remove", args=[match.pk, deal.pk]),
        reverse("scoring:deal_edit", args=[match.pk, deal.pk]),
    ):
        assert client.post(url, {"client_key": str(uuid.uuid4()), "thrown_in": "1"}).status_code == 403
    assert Deal.objects.filter(deleted_at__isnull=True).count() == 1
    assert client.get(reverse("scoring:deal_edit", args=[match.pk, deal.pk])).status_code == 200


def test_the_creator_keeps_it_and_another_account_does_not(client, match, user, django_user_model):
    client.force_login(user)
    assert post_deal(client, match).status_code == 302
    client.force_login(django_user_model.objects.create_user("other", password="pw-other-123"))
    assert post_deal(client, match).status_code == 403
    assert Deal.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_tables_link_grants_that_tables_match_only(client, django_user_model):
    organizer = django_user_model.objects.create_user("org", password="pw-org-12345")
    t = tournaments.tournament_create(organizer=organizer, name="Night", swiss_rounds=1, deals_per_match=3)
    for name, players in [*TEAMS, ("C", ("Kostas", "Sofia")), ("D", ("Yannis", "Katerina"))]:
        tournaments.entry_register(tournament=t, name=name, players=players)
    tournaments.tournament_start(tournament=t)
    rnd = tournaments.round_generate(tournament=t)
    tournaments.round_start(rnd=rnd)
    first, second = rnd.tables.order_by("number")
    assert post_deal(client, first.match).status_code == 403
    response = client.get(reverse("tournaments:scorekeeper", args=[first.token]))
    assert response.url == reverse("scoring:match", args=[first.match_id])
    assert post_deal(client, first.match).status_code == 302
    assert post_deal(client, second.match).status_code == 403
    client.force_login(organizer)
    assert post_deal(client, second.match).status_code == 302
