"""Bulk entry in a real browser: twelve teams pasted, one name matching existing records (the
organizer picks which), previewed, confirmed: twelve entries. And the team form's player picker."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from players.models import Player
from tournaments import services
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "organizer", "pw-organizer-123"
TEAMS = [
    ("Kyma", "Nikos Papas", "Eleni Kosta"),
    ("Limani", "Maria Dimou", "Kostas Vlachos"),
    ("Asteri", "Yannis Georgiou", "Sofia Nikolaou"),
    ("Fegari", "Petros Ioannou", "Rena Pappa"),
    ("Thalassa", "Giorgos Lekkas", "Vaso Karra"),
    ("Ilios", "Dimitra Sotiriou", "Stavros Antoniou"),
    ("Vouno", "Anna Christou", "Manolis Vrettos"),
    ("Kampos", "Irini Zerva", "Lefteris Doukas"),
    ("Pyrgos", "Katerina Ralli", "Thanos Kallis"),
    ("Elia", "Despina Mavrou", "Michalis Roussos"),
    ("Ampeli", "Zoe Kanellou", "Christos Fotiou"),
    ("Plaka", "Lena Arvaniti", "Vasilis Pappas"),
]


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)


def log_in(page: Page, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".topbar .who")).to_have_text(USERNAME)


def namesakes(organizer) -> tuple[Player, Player]:
    """Two people called Nikos Papas: one played the winter cup, the other the spring cup (last)."""
    for event, team, partner in (("Winter cup", "Old", "Anna"), ("Spring cup", "Older", "Irini")):
        past = services.tournament_create(organizer=organizer, name=event)
        services.entry_register(tournament=past, name=team, players=["Nikos Papas", partner])
    first, last = Player.objects.filter(name="Nikos Papas").order_by("pk")
    return first, last


def test_twelve_teams_pasted_previewed_and_entered(page: Page, live_server, organizer):
    first, last = namesakes(organizer)
    t = services.tournament_create(organizer=organizer, name="Friday concours", format="concours")
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.slug}/manage/")
    page.get_by_role("link", name="Paste a list or upload a CSV").click()
    page.get_by_test_id("bulk-text").fill("\n".join("\t".join(team) for team in TEAMS))
    page.get_by_role("button", name="Preview").click()
    table = page.get_by_test_id("bulk-preview")
    expect(table.locator("tbody tr")).to_have_count(12)
    pick = page.get_by_test_id("pick-1-0")
    expect(pick).to_have_value(str(last.pk))  # who played last, by default
    expect(pick.locator("option")).to_have_count(3)  # the two namesakes and "a new record"
    expect(pick.locator("option").nth(1)).to_contain_text("last: Winter cup")
    assert not Entry.objects.filter(tournament=t).exists()  # nothing before the confirmation
    pick.select_option(str(first.pk))
    page.get_by_role("button", name="Enter these 12 teams").click()
    expect(page.locator(".messages")).to_contain_text("12 teams entered.")
    entries = list(Entry.objects.filter(tournament=t).select_related("team").order_by("number"))
    assert [(e.number, e.team.name) for e in entries] == [
        (n, team[0]) for n, team in enumerate(TEAMS, start=1)
    ]
    assert entries[0].team.player_a_id == first.pk
    assert Player.objects.filter(name="Nikos Papas").count() == 2  # no third Nikos


def test_a_wrong_line_is_shown_and_nothing_is_entered(page: Page, live_server, organizer):
    t = services.tournament_create(organizer=organizer, name="Friday concours", format="concours")
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.slug}/manage/entries/bulk/")
    page.get_by_test_id("bulk-text").fill("Kyma;Nikos;Eleni\nLimani;Maria")
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_test_id("line-error")).to_contain_text("found 2 fields")
    expect(page.get_by_test_id("bulk-confirm")).to_have_count(0)
    assert not Entry.objects.exists()


def test_the_team_form_suggests_a_record_and_picks_it(page: Page, live_server, organizer):
    first, _ = namesakes(organizer)  # neither played a match: the search lists them by name, then by age
    t = services.tournament_create(organizer=organizer, name="Friday concours", format="concours")
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.slug}/manage/")
    page.locator("#id_player_a").press_sequentially("nikos p")
    picks = page.get_by_test_id("pick-player_a")
    expect(picks).to_have_count(2)
    picks.first.click()
    expect(page.get_by_test_id("picked-player_a")).to_be_visible()
    expect(page.locator("#id_player_a")).to_have_value("Nikos Papas")
    expect(page.locator("#id_player_a_id")).to_have_value(str(first.pk))
    # htmx binds the swapped-in field once it has settled: a key pressed before that sends nothing.
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    # Typing again forgets the record picked: the name is a new player's.
    page.locator("#id_player_a").press_sequentially("x")
    expect(page.locator("#id_player_a_id")).to_have_value("")
