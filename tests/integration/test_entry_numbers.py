"""Team numbers (issue 26): given in order of entry, editable before the start, shown wherever a team
is and accepted wherever a team is picked."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services as scoring
from tournaments import screen, selectors, services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.fixture
def running(organizer):
    """Four teams, renumbered before the start (Team 1 is No. 41 …), round 1 played, round 2 drawn."""
    t = services.tournament_create(organizer=organizer, name="Friday", deals_per_match=1, swiss_rounds=3)
    for i in range(4):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    for e in Entry.objects.filter(tournament=t).order_by("pk"):
        services.entry_edit(entry=e, number=40 + e.number, user=organizer)
    t = services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t)
    services.round_start(rnd=rnd)
    for table in rnd.tables.select_related("match"):
        scoring.deal_record(match=table.match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    services.round_generate(tournament=t)
    return Tournament.objects.get(pk=t.pk)


def test_numbers_are_given_in_order_of_entry(organizer):
    t = services.tournament_create(organizer=organizer, name="Order")
    made = [services.entry_register(tournament=t, name=f"T{i}", players=[f"a{i}", f"b{i}"]) for i in range(3)]
    assert [e.number for e in made] == [1, 2, 3]


def test_entry_numbers_reads_entry_number_in_one_query(running):
    expected = dict(Entry.objects.filter(tournament=running).values_list("pk", "number"))
    t = Tournament.objects.get(pk=running.pk)
    with CaptureQueriesContext(connection) as queries:
        assert selectors.entry_numbers(tournament=t) == expected
        assert selectors.entry_numbers(tournament=t) == expected  # kept: no second query
    assert len(queries) == 1
    entries = list(Entry.objects.filter(tournament=t))
    with CaptureQueriesContext(connection) as queries:
        assert selectors.entry_numbers(tournament=t, entries=entries) == expected
    assert len(queries) == 0
    assert set(expected.values()) == {41, 42, 43, 44}  # not the participants' order (1 … 4)


def test_the_sheet_header_shows_the_entries_numbers(running):
    table = running.rounds.get(number=1).tables.select_related("round__tournament").first()
    place = selectors.table_place(table=table)
    assert place["numbers"] == [
        [Entry.objects.get(pk=table.entry0_id).number],
        [Entry.objects.get(pk=table.entry1_id).number],
    ]


def test_pages_show_the_numbers(client, organizer, running):
    kyma = Entry.objects.get(tournament=running, team__name="Team 1")
    slug = running.slug
    number = f'<small class="no" data-testid="number">{kyma.number}</small>'
    for name in ("round", "round_print", "embed_round"):
        page = client.get(reverse(f"tournaments:{name}", args=[slug, 1]))
        assert page.status_code == 200
        assert str(kyma.number) in text(page) and "Team 1" in text(page), name
    assert number in text(client.get(reverse("tournaments:round", args=[slug, 1])))
    assert number in text(client.get(reverse("tournaments:standings", args=[slug])))
    assert number in text(client.get(reverse("tournaments:embed_standings", args=[slug])))
    assert "No. 41" in text(client.get(reverse("tournaments:entry", args=[slug, kyma.pk])))
    print_page = text(client.get(reverse("tournaments:round_print", args=[slug, 1])))
    assert f'<span class="no">{kyma.number}</span> Team 1' in print_page
    client.force_login(organizer)
    manage = text(client.get(reverse("tournaments:manage", args=[slug])))
    assert f"{kyma.number} · Team 1</option>" in manage  # the director's forms pick "41 · Team 1"
    assert f'<small class="no">{kyma.number}</small> Team 1' in manage  # the drawn round
    assert f'data-testid="entry-number">{kyma.number}</td>' in manage


def test_the_prize_list_shows_the_numbers(client, running):
    running.rounds.filter(number=2).delete()
    Tournament.objects.filter(pk=running.pk).update(swiss_rounds=1)
    services.standings_refresh(tournament_id=running.pk)
    page = text(client.get(reverse("tournaments:prizes", args=[running.slug])))
    numbers = dict(Entry.objects.filter(tournament=running).values_list("team__name", "number"))
    assert f'<small class="no" data-testid="number">{numbers["Team 1"]}</small>' in page


def test_the_big_screen_has_the_numbers(running):
    state = screen.screen_state(Tournament.objects.get(pk=running.pk))
    numbers = dict(Entry.objects.filter(tournament=running).values_list("pk", "number"))
    names = dict(Entry.objects.filter(tournament=running).values_list("team__name", "number"))
    for table in state["round"]["tables"]:
        if not table["bye"]:
            assert [names[n] for n in table["teams"]] == [int(x) for x in table["numbers"]]
    assert {row["number"] for row in state["standings"]["rows"]} == set(numbers.values())


def test_the_penalty_form_still_picks_by_entry(client, organizer, running):
    kyma = Entry.objects.get(tournament=running, team__name="Team 1")
    client.force_login(organizer)
    url = reverse("tournaments:adjustment_add", args=[running.slug])
    client.post(url, {"kind": "penalty", "entry": kyma.pk, "points": "10", "reason": "Late"})
    assert running.adjustments.get().entry == kyma


def test_a_swap_takes_a_teams_number_typed_alone(running):
    from tournaments.forms import SwapForm

    rnd = running.rounds.get(number=2)
    table = rnd.tables.select_related("entry0", "entry1").order_by("number").first()
    form = SwapForm({"first": str(table.entry1.number), "second": "1A"}, rnd=rnd)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["first"] == (table.number, 1)
    unknown = SwapForm({"first": "999", "second": "1A"}, rnd=rnd)
    assert not unknown.is_valid() and "No team has the number 999" in str(unknown.errors)
    assert not SwapForm({"first": "7", "second": "1A"}).is_valid()  # without the round: a place only
