"""The organizer's page for club events: the round clock, decisions, a late entry, pairs kept apart."""

import re

import pytest
from django.urls import reverse

from scoring import services as scoring
from tournaments import services
from tournaments.models import Adjustment, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def timed(organizer):
    t = services.tournament_create(
        organizer=organizer, name="Timed", format="concours", swiss_rounds=3, time_limit=30, deals_per_match=2
    )
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    t = services.tournament_start(tournament=t)
    services.round_start(rnd=services.round_generate(tournament=t))
    return Tournament.objects.get(pk=t.pk)


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_organizer_starts_and_sets_the_clock_from_the_page(client, organizer, timed):
    client.force_login(organizer)
    manage = reverse("tournaments:manage", args=[timed.slug])
    assert "30:00 once started." in text(client.get(manage))
    url = reverse("tournaments:round_clock", args=[timed.slug, 1])
    assert "The clock is set." in text(client.post(url, {"action": "start"}, follow=True))
    page = text(client.post(url, {"action": "extend", "minutes": "5", "table": "2"}, follow=True))
    assert "The clock is set." in page and "Time left" in page
    refused = text(client.post(url, {"action": "extend", "minutes": "x"}, follow=True))
    assert "whole numbers" in refused
    assert Round.objects.get(tournament=timed, number=1).clock_started_at is not None
    round_page = text(client.get(reverse("tournaments:round", args=[timed.slug, 1])))
    assert 'data-testid="round-clock"' in round_page and "Time left" in round_page


def test_decisions_from_the_page_show_on_the_round_and_the_standings(client, organizer, timed):
    client.force_login(organizer)
    url = reverse("tournaments:adjustment_add", args=[timed.slug])
    entry = timed.entries.first()
    client.post(
        url,
        {"kind": "penalty", "entry": entry.pk, "points": "162", "match_points": "0", "reason": "Renounce"},
    )
    answer = client.post(
        url,
        {
            "kind": "forfeit",
            "round": "1",
            "table": "2",
            "winner": "1",
            "score0": "0",
            "score1": "1100",
            "reason": "Late",
        },
        follow=True,
    )
    assert "The decision is recorded." in text(answer)
    assert Adjustment.objects.filter(tournament=timed).count() == 2
    round_page = text(client.get(reverse("tournaments:round", args=[timed.slug, 1])))
    assert "Forfeit" in round_page and "0–1100" in round_page
    standings = text(client.get(reverse("tournaments:standings", args=[timed.slug])))
    assert 'data-testid="penalty"' in standings and "−162" in standings
    missing = text(
        client.post(url, {"kind": "penalty", "entry": entry.pk, "points": "10", "reason": ""}, follow=True)
    )
    assert "Give the reason" in missing
    first = Adjustment.objects.filter(tournament=timed).first()
    client.post(reverse("tournaments:adjustment_delete", args=[timed.slug, first.pk]))
    assert Adjustment.objects.filter(tournament=timed).count() == 1


def test_a_late_entry_and_a_pair_kept_apart_from_the_page(client, organizer, timed):
    client.force_login(organizer)
    for table in Round.objects.get(tournament=timed, number=1).tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
        scoring.deal_record(match=table.match, deal=WIN_0)
    late = {"name": "Latecomers", "player_a": "L1", "player_b": "L2", "points": "50", "match_points": "0"}
    answer = client.post(reverse("tournaments:entry_late", args=[timed.slug]), late, follow=True)
    assert "Latecomers entered late." in text(answer)
    a, b = timed.entries.values_list("pk", flat=True)[:2]
    client.post(reverse("tournaments:keep_apart", args=[timed.slug]), {"a": a, "b": b})
    timed.refresh_from_db()
    assert timed.avoid == [sorted([a, b])]
    assert "Latecomers" in text(client.get(reverse("tournaments:manage", args=[timed.slug])))


def test_one_table_is_paused_and_resumed_from_the_page(client, organizer, timed):
    client.force_login(organizer)
    url = reverse("tournaments:round_clock", args=[timed.slug, 1])
    client.post(url, {"action": "start"})
    client.post(url, {"action": "pause", "table": "1", "minutes": "5"})
    one, two = Round.objects.get(tournament=timed, number=1).tables.order_by("number")
    assert one.paused_at is not None and two.paused_at is None
    client.post(url, {"action": "resume", "table": "1", "minutes": "5"})
    one.refresh_from_db()
    assert one.paused_at is None


@pytest.mark.parametrize(
    ("typed", "spot"), [("3A", (3, 0)), ("3α", (3, 0)), ("5Δ", (5, 3)), ("2В", (2, 2)), ("7d", (7, 3))]
)
def test_seats_are_typed_in_the_pages_letters(typed, spot):
    from tournaments.forms import SwapForm

    form = SwapForm({"first": typed, "second": "1B"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["first"] == spot
