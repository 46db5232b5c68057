"""A tournament table's sheet (issue 25, "A table knows where it is"): opened from the table's link it
says where it is (event, round, table, the two team numbers) in place of the site menu; a match of a
fixed number of deals counts its deals and says which is the last, shows no target; a timed one says
"last deal" once time is called; "End the match" is the organizer's, confirmation only where the
tournament asks; once the match is over the sheet says what happens next, and asks again every 15 s
until the next round is drawn."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring import services as scoring
from tests.factories import made
from tournaments import services
from tournaments.models import Round, Table

pytestmark = pytest.mark.django_db

WIN_0 = made()  # 100 v 62: team 0 makes it
WIN_1 = made(maker=1, cards=(62, 90), last_trick=1)


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("director", password="pw-director-123")


def concours(organizer, *, deals=3, teams=4, rounds=3, **settings):
    t = services.tournament_create(
        organizer=organizer, name="Friday Concours", format="concours", swiss_rounds=rounds,
        deals_per_match=deals, **settings,
    )  # fmt: skip
    for n in range(teams):
        services.entry_register(tournament=t, name=f"Team {'ABCDEFGH'[n]}", players=[f"a{n}", f"b{n}"])
    return services.tournament_start(tournament=t, user=organizer)


def next_round(t, organizer) -> Round:
    return services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)


def table_of(rnd: Round, number: int = 1) -> Table:
    return rnd.tables.select_related("match", "entry0", "entry1").get(number=number)


def tablet(table: Table) -> tuple[Client, str]:
    """A tablet without an account that opened the table's link: the sheet's page."""
    client = Client()
    response = client.get(reverse("tournaments:scorekeeper", args=[table.token]), follow=True)
    assert response.status_code == 200
    return client, response.content.decode()


def place_of(page: str) -> str:
    found = re.search(r'<p class="table-place" data-testid="table-place">(.*?)</p>', page, flags=re.S)
    assert found, "no place on the page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", found.group(1))).strip()


def test_the_table_link_opens_a_sheet_that_says_where_it_is_without_the_site_menu(organizer):
    t = concours(organizer)
    rnd = next_round(t, organizer)
    table = table_of(rnd, 2)
    _, page = tablet(table)
    numbers = {pk: n for n, pk in enumerate(t.participants, start=1)}
    a, b = numbers[table.entry0_id], numbers[table.entry1_id]
    assert place_of(page) == f"Friday Concours · Round 1 · Table 2 · Teams {a} – {b}"
    assert re.search(rf'data-testid="team-number-0" title="{table.entry0.name}">{a}<', page)
    assert 'class="topbar at-table"' in page
    assert 'class="mainnav"' not in page and "Log in" not in page  # no site menu, no account
    assert 'class="brand"' in page and "Leave the sheet" in page  # the way out, small
    assert 'data-testid="language-switcher"' in page and 'id="net-status"' in page
    assert "tournaments/table.css" in page


def test_a_casual_match_and_a_follower_keep_the_site_menu(organizer, match):
    casual = Client().get(reverse("scoring:match", args=[match.pk])).content.decode()
    assert 'class="mainnav"' in casual and 'data-testid="table-place"' not in casual
    assert "at-table" not in casual and "tournaments/table.css" not in casual
    t = concours(organizer)
    table = table_of(next_round(t, organizer))
    follower = Client().get(reverse("scoring:match", args=[table.match_id])).content.decode()
    assert 'class="mainnav"' in follower and "at-table" not in follower
    assert place_of(follower).startswith("Friday Concours · Round 1 · Table 1 · Teams ")


def test_a_match_of_fixed_deals_counts_them_and_shows_no_target(organizer):
    t = concours(organizer, deals=3)
    table = table_of(next_round(t, organizer))
    client, page = tablet(table)
    sheet = reverse("scoring:match", args=[table.match_id])
    assert 'data-testid="deal-of">Deal 1 of 3<' in page
    assert "to go" not in page and "reached" not in page
    scoring.deal_record(match=table.match, deal=WIN_0)
    scoring.deal_record(match=table.match, deal={"thrown_in": True})  # does not count
    page = client.get(sheet).content.decode()
    assert 'data-testid="deal-of">Deal 2 of 3<' in page
    scoring.deal_record(match=table.match, deal=WIN_1)
    page = client.get(sheet).content.decode()
    assert 'data-testid="deal-of">Last deal<' in page and "Deal 3 of 3" not in page
    assert "to go" not in page


def test_a_match_to_a_target_keeps_its_deal_number_and_to_go(organizer):
    t = concours(organizer, deals=0)
    table = table_of(next_round(t, organizer))
    _, page = tablet(table)
    assert 'data-testid="deal-of"' not in page
    assert "to go" in page and "Deal 1 · deals" in page


def test_a_timed_match_says_last_deal_once_time_is_called(organizer):
    t = concours(organizer, deals=0, time_limit=40)
    rnd = next_round(t, organizer)
    table = table_of(rnd)
    client, page = tablet(table)
    assert 'data-testid="round-clock"' in page and "Last deal" not in page
    services.round_clock(rnd=rnd, action="start", user=organizer)
    services.round_clock(rnd=rnd, action="extend", minutes=-40, user=organizer)
    page = client.get(reverse("scoring:match", args=[table.match_id])).content.decode()
    assert "Time is up: this deal is the last" in page
    assert 'data-testid="deal-of">Last deal<' in page


def test_end_the_match_is_the_organizers_at_a_tournament_table(organizer):
    t = concours(organizer, deals=5)
    table = table_of(next_round(t, organizer))
    client, _ = tablet(table)
    scoring.deal_record(match=table.match, deal=WIN_0)
    table.match.refresh_from_db()
    sheet = reverse("scoring:match", args=[table.match_id])
    page = client.get(sheet).content.decode()
    assert "Record deal" in page and "End the match" not in page
    response = client.post(
        reverse("scoring:match_end", args=[table.match_id]), {"version": table.match.version}, follow=True
    )
    assert "At a tournament table, the organizer ends the match." in response.content.decode()
    table.match.refresh_from_db()
    assert table.match.status == "in_progress"
    director = Client()
    director.force_login(organizer)
    assert "End the match" in director.get(sheet).content.decode()


def test_the_api_leaves_the_end_of_a_tournament_match_to_the_organizer_too(organizer):
    t = concours(organizer, deals=5)
    table = table_of(next_round(t, organizer))
    client, _ = tablet(table)
    scoring.deal_record(match=table.match, deal=WIN_0)
    finish = f"/api/v1/matches/{table.match_id}/finish/"
    refused = client.post(finish, content_type="application/json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "At a tournament table, the organizer ends the match."
    table.match.refresh_from_db()
    assert table.match.status == "in_progress"
    director = Client()
    director.force_login(organizer)
    assert director.post(finish, content_type="application/json").status_code == 200
    table.match.refresh_from_db()
    assert table.match.status == "finished"


@pytest.mark.parametrize("asked", [False, True])
def test_confirmation_buttons_only_where_the_tournament_asks_for_them(organizer, asked):
    t = concours(organizer, deals=1, confirmation=asked)
    table = table_of(next_round(t, organizer))
    client, _ = tablet(table)
    scoring.deal_record(match=table.match, deal=WIN_0)
    page = client.get(reverse("scoring:match", args=[table.match_id])).content.decode()
    assert "The match is over" in page
    assert ("confirm-form" in page) is asked


def test_the_finished_table_says_what_happens_next(organizer):
    t = concours(organizer, deals=1, rounds=3)
    rnd = next_round(t, organizer)
    first, second = table_of(rnd, 1), table_of(rnd, 2)
    client, _ = tablet(first)
    sheet = reverse("scoring:match", args=[first.match_id])
    page = client.get(sheet).content.decode()
    assert 'data-testid="table-next"' not in page  # in play: nothing yet

    scoring.deal_record(match=first.match, deal=WIN_0)
    page = client.get(sheet).content.decode()
    assert "Team " in page and "win 100–62" in page  # the result
    assert "Waiting for round 2." in page and "1 table still playing." in page
    assert f'hx-get="{reverse("tournaments:table_next", args=[first.match_id])}"' in page
    assert 'hx-trigger="every 15s"' in page

    # What the sheet asks every 15 s: the same part, still waiting, then the next tables.
    poll = reverse("tournaments:table_next", args=[first.match_id])
    scoring.deal_record(match=second.match, deal=WIN_1)
    part = client.get(poll, HTTP_HX_REQUEST="true").content.decode()
    assert "Waiting for round 2." in part and "still playing" not in part
    following = services.round_generate(tournament=t, user=organizer)
    part = client.get(poll, HTTP_HX_REQUEST="true").content.decode()
    assert "every 15s" not in part  # drawn: no more asking
    for entry in (first.entry0, first.entry1):
        there = following.tables.get(
            pk__in=[x.pk for x in following.tables.all() if entry.pk in (x.entry0_id, x.entry1_id)]
        )
        opponent = there.entry1 if there.entry0_id == entry.pk else there.entry0
        assert f"{entry.name} · Round 2: table {there.number} against {opponent.name}" in part
    # Once the round starts, each line leads to that table's sheet.
    services.round_start(rnd=following, user=organizer)
    part = client.get(poll).content.decode()
    for there in following.tables.all():
        assert reverse("scoring:match", args=[there.match_id]) in part


def test_the_last_round_waits_for_the_organizer_then_the_tournament_is_over(organizer):
    t = concours(organizer, deals=1, rounds=1, teams=2)
    table = table_of(next_round(t, organizer))
    client, _ = tablet(table)
    scoring.deal_record(match=table.match, deal=WIN_0)
    sheet = reverse("scoring:match", args=[table.match_id])
    page = client.get(sheet).content.decode()
    assert "Waiting for the organizer: the next round or the final standings." in page
    services.tournament_finish(tournament=t, reason="The café closes", user=organizer)
    page = client.get(sheet).content.decode()
    assert "The tournament is over." in page and reverse("tournaments:standings", args=[t.slug]) in page
    assert "every 15s" not in page


def test_the_next_part_is_not_for_a_casual_match_nor_a_hidden_one(organizer, match):
    assert Client().get(reverse("tournaments:table_next", args=[match.pk])).status_code == 404
    t = concours(organizer, deals=1, public=False)
    table = table_of(next_round(t, organizer))
    poll = reverse("tournaments:table_next", args=[table.match_id])
    assert Client().get(poll).status_code == 404
    client, _ = tablet(table)
    assert client.get(poll).status_code == 200


def test_the_link_before_the_round_starts_says_where_and_asks_again(organizer):
    t = concours(organizer)
    rnd = services.round_generate(tournament=t, user=organizer)
    table = table_of(rnd, 1)
    link = reverse("tournaments:scorekeeper", args=[table.token])
    client = Client()
    page = client.get(link).content.decode()
    assert place_of(page) == "Friday Concours · Round 1"
    assert f'hx-get="{link}"' in page and 'hx-trigger="every 15s"' in page
    services.round_start(rnd=rnd, user=organizer)
    table.refresh_from_db()
    asked = client.get(link, HTTP_HX_REQUEST="true")
    assert asked.status_code == 204
    assert asked["HX-Redirect"] == reverse("scoring:match", args=[table.match_id])
    assert client.get(reverse("scoring:match", args=[table.match_id])).context["at_table"]


def test_an_individual_table_says_each_partnerships_numbers_and_each_players_next_table(organizer):
    t = services.tournament_create(
        organizer=organizer,
        name="Whist drive",
        format="individual",
        swiss_rounds=2,
        deals_per_match=1,
        seed=2026,
    )
    for i in range(4):
        services.entry_register(tournament=t, name=f"P{i + 1}", players=[f"P{i + 1}"])
    t = services.tournament_start(tournament=t, user=organizer)
    table = table_of(next_round(t, organizer))
    numbers = {pk: n for n, pk in enumerate(t.participants, start=1)}
    client, page = tablet(table)
    side0 = f"{numbers[table.entry0_id]} & {numbers[table.partner0_id]}"
    side1 = f"{numbers[table.entry1_id]} & {numbers[table.partner1_id]}"
    assert place_of(page) == f"Whist drive · Round 1 · Table 1 · Players {side0} – {side1}"
    scoring.deal_record(match=table.match, deal=WIN_0)
    services.round_generate(tournament=t, user=organizer)
    page = client.get(reverse("scoring:match", args=[table.match_id])).content.decode()
    lines = re.findall(r"<li>(.*?)</li>", page.split('data-testid="moves"')[1], flags=re.S)
    assert len(lines) == 4  # each player of the table, where they sit next
    assert all(" · Round 2: table 1 against " in re.sub(r"<[^>]+>", "", line) for line in lines)
