"""Finished is finished on the pages (issue 24): the organizer's pad refuses a deal in a match the
finished tournament left out, saying why; the organizer page starts nothing once finished; a swap
that makes a rematch shows the problems and a second button, "Swap anyway"."""

import re
import uuid

import pytest
from django.urls import reverse

from scoring import services as scoring
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def signed_in(client, organizer):
    client.force_login(organizer)
    return client


def running(organizer, teams=4):
    """Round 1 played (the team listed first winning), round 2 drawn but not started."""
    t = services.tournament_create(organizer=organizer, name="Club night", swiss_rounds=3, deals_per_match=2)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    for table in rnd.tables.exclude(match=None):
        scoring.deal_record(match=table.match, deal=WIN_0)
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.round_generate(tournament=t)
    return t


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def pad():
    return {
        "client_key": str(uuid.uuid4()),
        "maker": "0",
        "points_team": "0",
        "card_points": "90",
        "last_trick": "0",
    }


def test_the_organizers_pad_refuses_a_deal_in_a_match_left_out_and_says_why(signed_in, organizer):
    t = running(organizer)
    rnd = services.round_start(rnd=t.rounds.get(number=2), user=organizer)
    match = rnd.tables.get(number=1).match
    scoring.deal_record(match=match, deal=WIN_0)
    services.tournament_finish(tournament=t, reason="Power cut", in_play="left_out", user=organizer)
    assert signed_in.get(reverse("scoring:match", args=[match.pk])).status_code == 200
    response = signed_in.post(reverse("scoring:deal_create", args=[match.pk]), pad(), **HTMX)
    assert response.status_code == 422
    assert "counts for nobody" in text(response)
    assert match.deals.count() == 1
    undo = signed_in.post(reverse("scoring:deal_undo", args=[match.pk]), follow=True)
    assert "counts for nobody" in text(undo) and match.deals.filter(deleted_at=None).count() == 1


def test_a_finished_tournaments_pages_start_nothing_not_even_a_match_not_begun(signed_in, organizer):
    t = running(organizer)
    rnd = services.round_start(rnd=t.rounds.get(number=2), user=organizer)
    scoring.deal_record(match=rnd.tables.get(number=1).match, deal=WIN_0)
    not_begun = rnd.tables.get(number=2).match
    services.tournament_finish(tournament=t, reason="The café closes", in_play="totals", user=organizer)
    page = text(signed_in.get(reverse("tournaments:manage", args=[t.slug])))
    assert "Draw the next round" not in page and "Start round" not in page and "draw-next" not in page
    answer = signed_in.post(reverse("tournaments:round_generate", args=[t.slug]), follow=True)
    assert "finished" in text(answer)
    assert list(t.rounds.values_list("number", flat=True)) == [1, 2]
    response = signed_in.post(reverse("scoring:deal_create", args=[not_begun.pk]), pad(), **HTMX)
    assert response.status_code == 422 and "counts for nobody" in text(response)
    assert not not_begun.deals.exists()


def test_a_swap_that_makes_a_rematch_asks_then_swap_anyway_makes_it(signed_in, organizer):
    t = running(organizer)
    rnd = t.rounds.get(number=2)
    one, two = rnd.tables.order_by("number")
    met = {frozenset((x.entry0_id, x.entry1_id)) for x in t.rounds.get(number=1).tables.all()}
    assert frozenset((one.entry0_id, two.entry0_id)) in met  # 1B <-> 2A makes two rematches
    url = reverse("tournaments:round_swap", args=[t.slug, 2])
    asked = signed_in.post(url, {"first": "1B", "second": "2A"})
    assert asked.status_code == 422
    page = text(asked)
    assert "already met in round 1" in page and 'data-testid="swap-anyway"' in page
    assert 'value="1B"' in page and 'value="2A"' in page  # the places typed are kept
    assert Table.objects.get(pk=one.pk).entry1_id == one.entry1_id
    done = signed_in.post(url, {"first": "1B", "second": "2A", "force": "1"})
    assert done.status_code == 302
    swapped = Table.objects.get(pk=one.pk)
    assert {swapped.entry0_id, swapped.entry1_id} == {one.entry0_id, two.entry0_id}
    audit = text(signed_in.get(reverse("tournaments:audit", args=[t.slug])))
    assert "Swapped anyway" in audit
