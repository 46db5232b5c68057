"""The end of an event on its pages: the organizer's early finish, the finished page, the prize list."""

import re

import pytest
from django.urls import reverse

from scoring import services as scoring
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def running(organizer, teams=6, **settings):
    t = services.tournament_create(
        organizer=organizer, name="Club night", swiss_rounds=2, deals_per_match=2, **settings
    )
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    for table in rnd.tables.exclude(match=None):
        scoring.deal_record(match=table.match, deal=WIN_0)
        scoring.deal_record(match=table.match, deal=WIN_0)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    scoring.deal_record(match=rnd.tables.get(number=1).match, deal=WIN_0)  # one match in play
    return t


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_organizer_finishes_early_from_the_manage_page(client, organizer):
    t = running(organizer)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:manage", args=[t.slug]))
    assert 'data-testid="finish-form"' in page.content.decode()
    url = reverse("tournaments:finish", args=[t.slug])
    refused = client.post(url, {"reason": "", "in_play": "totals"}, follow=True)
    assert "Say why the tournament finishes early" in text(refused)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING
    done = client.post(url, {"reason": "The café closes", "in_play": "left_out"}, follow=True)
    assert "The tournament is finished." in text(done)
    t.refresh_from_db()
    assert (t.status, t.finish_in_play) == ("finished", "left_out")
    page = text(client.get(reverse("tournaments:manage", args=[t.slug])))
    assert 'data-testid="finish-form"' not in page and "Draw the next round" not in page
    assert "draw-next" not in page
    assert "Withdraw" not in page


def test_someone_else_cannot_finish_it(client, organizer, django_user_model):
    t = running(organizer)
    client.force_login(django_user_model.objects.create_user(username="x", password="pw-x-1234567"))
    response = client.post(reverse("tournaments:finish", args=[t.slug]), {"reason": "x", "in_play": "totals"})
    assert response.status_code == 404
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING


def test_the_finished_page_says_why_and_which_and_shows_the_podium(client, organizer):
    t = running(organizer)
    services.tournament_finish(tournament=t, reason="Power cut", in_play="totals", user=organizer)
    page = text(client.get(reverse("tournaments:home", args=[t.slug])))
    assert "Finished early by the organizer: Power cut." in page
    assert "finished on their totals" in page
    assert 'data-testid="podium"' in page and 'data-testid="ranking"' in page
    first = services.standings_compute(Tournament.objects.get(pk=t.pk))[0].entry
    assert f"/teams/{first}/" in page.split('data-testid="ranking"')[1].split("</tr>")[1]


def test_the_prize_list_shows_the_first_n_places(client, organizer):
    t = running(organizer)
    services.tournament_finish(tournament=t, reason="Late", user=organizer)
    url = reverse("tournaments:prizes", args=[t.slug])
    page = client.get(url, {"places": 4})
    assert page.status_code == 200
    table = page.content.decode().split('data-testid="ranking"')[1].split("</table>")[0]
    assert table.count("<tr") == 1 + 4  # the heading and four places
    assert "The first 4 places" in text(page)
    for bad in ("x", "-3", "999"):
        assert client.get(url, {"places": bad}).status_code == 200


def test_the_prize_list_in_greek(client, organizer):
    t = running(organizer)
    services.tournament_finish(tournament=t, reason="Late", user=organizer)
    page = text(client.get(reverse("tournaments:prizes", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="el"))
    assert "Prize list" not in page and "Print" not in page


def test_a_private_tournaments_prize_list_is_not_found(client, organizer):
    t = running(organizer, public=False)
    assert client.get(reverse("tournaments:prizes", args=[t.slug])).status_code == 404


def test_a_new_tournament_with_a_match_for_third_place(client, organizer):
    client.force_login(organizer)
    form = {
        "name": "Cup",
        "ruleset": "mpourloto",
        "format": "swiss",
        "swiss_rounds": 3,
        "knockout_size": 4,
        "third_place": "on",
        "deals_per_match": 0,
        "points_win": 2,
        "points_draw": 1,
        "points_loss": 0,
        "points_bye": 2,
        "tiebreak_1": "match_points",
        "playoff_deals": 2,
        "public": "on",
    }
    response = client.post(reverse("tournaments:new"), form)
    assert response.status_code == 302, text(response)
    assert Tournament.objects.get(name="Cup").third_place is True
