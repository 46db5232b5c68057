"""The new-match pickers in a real browser: typing a name finds the people of that name, tapping one
picks that person; a name typed and not picked is a new player."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from players.models import Player
from scoring import services
from scoring.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_and_a_team_picked_by_search_sit_at_the_new_match(
    page: Page, live_server, django_user_model
):
    keeper = django_user_model.objects.create_user("keeper", password="pw-keeper-123")
    old = services.match_create(
        teams=[("Kafeneio A", ("Nikos", "Eleni")), ("Kafeneio B", ("Giorgos", "Maria"))], created_by=keeper
    )
    services.match_create(teams=[("Limani", ("Nikos", "Sofia")), ("Kastro", ("Petros", "Rena"))])
    page.goto(f"{live_server.url}/matches/new/")

    # Team 1: typed, with Nikos of Kafeneio A picked among the two of that name.
    page.locator('input[name="team0_name"]').fill("Newcomers")
    seat = page.locator('input[name="team0_player_a"]')
    seat.press_sequentially("Nik")
    picks = page.locator("#picks-team0_player_a button.pick")
    expect(picks).to_have_count(2)
    picks.filter(has_text="Kafeneio A").click()
    expect(page.locator('input[name="team0_player_a_id"]')).to_have_value(str(old.seat0.pk))
    page.locator('input[name="team0_player_b"]').fill("Yannis")  # a new player

    # Team 2: an earlier team, found by a player's name.
    page.locator('input[name="team1_name"]').press_sequentially("Mar")
    page.locator("#picks-team1_name button.pick").filter(has_text="Kafeneio B").click()
    expect(page.locator('input[name="team1_player_a"]')).to_have_value("Giorgos")
    expect(page.locator("fieldset.dealer label.choice")).to_have_text(["Nikos", "Giorgos", "Yannis", "Maria"])

    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(f"{live_server.url}/matches/{old.pk + 2}/")
    match = Match.objects.get(pk=old.pk + 2)
    assert match.seat0 == old.seat0 and match.team1 == old.team1
    assert match.seat2.name == "Yannis" and Player.objects.filter(name="Yannis").count() == 1


def test_a_picked_name_changed_by_hand_is_a_new_player(page: Page, live_server):
    old = services.match_create(teams=[("A", ("Nikos", "Eleni")), ("B", ("Giorgos", "Maria"))])
    page.goto(f"{live_server.url}/matches/new/")
    seat = page.locator('input[name="team0_player_a"]')
    seat.press_sequentially("Nik")
    page.locator("#picks-team0_player_a button.pick").click()
    expect(page.locator('input[name="team0_player_a_id"]')).to_have_value(str(old.seat0.pk))
    seat.press_sequentially("olas")
    expect(page.locator('input[name="team0_player_a_id"]')).to_have_value("")
    expect(page.locator("#picks-team0_player_a")).to_contain_text("Nobody of that name yet")
