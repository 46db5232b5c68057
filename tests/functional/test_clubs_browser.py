"""A club's admins' page in a real browser: typing a name finds the players of that name (the new-match
pickers), tapping one adds that person; a name typed and not picked is a new player."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, expect

from players import club_services as clubs
from players.models import Player
from scoring import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_adds_a_picked_player_and_a_typed_one(browser: Browser, live_server, django_user_model):
    staff = django_user_model.objects.create_user("staff", password="pw-staff-12345", is_staff=True)
    club = clubs.club_create(name="Kafeneio", by=staff, city="Athens")
    old = services.match_create(teams=[("Kafeneio A", ("Nikos", "Eleni")), ("B", ("Giorgos", "Maria"))])
    services.match_create(teams=[("Limani", ("Nikos", "Sofia")), ("Kastro", ("Petros", "Rena"))])
    client = Client()
    client.force_login(staff)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    session = client.cookies[settings.SESSION_COOKIE_NAME]
    ctx.add_cookies([{"name": session.key, "value": session.value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(f"{live_server.url}/clubs/{club.slug}/manage/")

    name = page.locator('input[name="member-name"]')
    name.press_sequentially("Nik")
    picks = page.locator("#picks-member-name button.pick")
    expect(picks).to_have_count(2)
    picks.filter(has_text="Kafeneio A").click()
    expect(page.locator('input[name="member-player"]')).to_have_value(str(old.seat0.pk))
    page.get_by_role("button", name="Add a member").click()
    expect(page.get_by_test_id("members")).to_contain_text("Nikos")
    assert list(clubs.current_members(club)) == [old.seat0]

    page.locator('input[name="member-name"]').fill("Yannis")  # typed: a new player
    page.get_by_role("button", name="Add a member").click()
    expect(page.get_by_test_id("members")).to_contain_text("Yannis")
    assert Player.objects.filter(name="Yannis").count() == 1
    assert sorted(p.name for p in clubs.current_members(club)) == ["Nikos", "Yannis"]

    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    expect(page.get_by_test_id("members").get_by_role("link")).to_have_text(["Nikos", "Yannis"])
    expect(page.locator(".mainnav a[aria-current]")).to_have_text("Clubs")
    ctx.close()
