"""The new-match pickers in a real browser: typing a name finds the people of that name, tapping one
picks that person; a name typed and not picked is a new player."""

from __future__ import annotations

import re

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


# Fewer taps: the tablet's recent teams, play again, the game's way round the table ---------------


def start_by_typing(page: Page, base: str, game: str = "Mpourloto") -> Match:
    page.goto(f"{base}/matches/new/")
    page.locator("fieldset.game label.choice").filter(has_text=game).click()
    names = {"team0_name": "Alpha", "team0_player_a": "Anna", "team0_player_b": "Chris",
             "team1_name": "Beta", "team1_player_a": "Babis", "team1_player_b": "Dora"}  # fmt: skip
    for field, name in names.items():
        page.locator(f'input[name="{field}"]').fill(name)
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    return Match.objects.latest("pk")


def test_one_tap_on_a_recent_team_fills_in_its_two_players(page: Page, live_server):
    first = start_by_typing(page, live_server.url)
    page.goto(f"{live_server.url}/matches/new/")
    team0, team1 = page.locator(".team0 .team-card"), page.locator(".team1 .team-card")
    team0.filter(has_text="Beta").click()  # one tap: the team, its name and its two players
    expect(page.locator('input[name="team0_name"]')).to_have_value("Beta")
    expect(page.locator('input[name="team0_player_a"]')).to_have_value("Babis")
    expect(page.locator('input[name="team0_player_b"]')).to_have_value("Dora")
    expect(team1.filter(has_text="Beta").locator("input")).to_be_disabled()  # not on both sides
    team1.filter(has_text="Alpha").click()
    expect(page.locator("fieldset.dealer label.choice")).to_have_text(["Babis", "Anna", "Dora", "Chris"])
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    again = Match.objects.latest("pk")
    assert (again.team0, again.team1) == (first.team1, first.team0)
    assert (again.seat0, again.seat1) == (first.seat1, first.seat0) and Player.objects.count() == 4

    # Typed over, a picked team is a new team again.
    page.goto(f"{live_server.url}/matches/new/")
    team0.filter(has_text="Alpha").click()
    page.locator('input[name="team0_player_b"]').fill("Christos")
    expect(page.locator(".team0 .new-team input")).to_be_checked()


def test_play_again_starts_the_same_teams_at_the_same_game_in_two_taps(page: Page, live_server):
    first = start_by_typing(page, live_server.url, game="Pilotta")
    page.goto(f"{live_server.url}/matches/new/")
    page.get_by_test_id("rematches").get_by_role("link").filter(has_text="Alpha").click()
    expect(page.locator('input[name="ruleset"][value="pilotta"]')).to_be_checked()
    expect(page.locator('input[name="team1_player_b"]')).to_have_value("Dora")
    page.get_by_role("button", name="Start the match").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    again = Match.objects.latest("pk")
    assert again.pk != first.pk
    assert (again.team0, again.team1, again.ruleset) == (first.team0, first.team1, "pilotta")


def test_the_way_round_the_table_follows_the_game(page: Page, live_server):
    page.goto(f"{live_server.url}/matches/new/")
    left, right = page.get_by_text("to the left)"), page.get_by_text("to the right)")
    seat = {n: page.locator(f"label.seat{n}") for n in range(4)}

    def x(n: int) -> float:
        return seat[n].bounding_box()["x"]

    expect(left).to_be_visible()  # Mpourloto: play passes to the left, clockwise round the table
    expect(right).to_be_hidden()
    assert x(1) < x(0) < x(3)  # seat 1 nearest; seat 2 on its left, seat 4 on its right
    for game in ("Pilotta", "Bulgarian Belote", "French Belote", "Belote Classic"):
        page.locator("fieldset.game label.choice").filter(has_text=game).click()
        expect(right).to_be_visible()
        expect(left).to_be_hidden()
        assert x(3) < x(0) < x(1), game
    page.locator("fieldset.game label.choice").filter(has_text="Mpourloto").click()
    expect(left).to_be_visible()
    seat[2].click()  # the dealer, tapped at the table
    expect(page.locator('input[name="first_dealer"][value="2"]')).to_be_checked()
