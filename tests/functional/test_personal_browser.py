"""A team's own page on a phone (390×844): the team opens its link and sees its table; a deal
recorded at its table (elsewhere: the tablet) shows on the page without a reload; a round drawn
shows too; nothing scrolls sideways. And "find your table" answers as one types."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scoring import services as scoring
from scoring.models import Match
from tournaments import personal, services
from tournaments.models import Entry, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
MADE_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="organizer", password="pw-organizer-123")


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    context.set_default_timeout(10_000)
    js_errors: list[str] = []
    context.on("page", lambda tab: tab.on("pageerror", lambda error: js_errors.append(str(error))))
    try:
        yield context
    finally:
        context.close()
    assert not js_errors, f"JavaScript errors on the phone: {js_errors}"


def shot(tab: Page, name: str) -> None:
    folder = os.environ.get("TSOXA_SCREENSHOTS")
    if folder:
        tab.screenshot(path=str(Path(folder) / f"personal-{name}.png"), full_page=True)


def no_sideways_scroll(tab: Page) -> None:
    assert tab.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_a_team_follows_its_table_and_live_score_on_a_phone(phone, live_server, organizer, monkeypatch):
    monkeypatch.setattr(personal, "POLL_SECONDS", 2)  # the page asks every 2 s while in play (20 s in use)
    t = services.tournament_create(
        organizer=organizer, name="Friday concours with a rather long name", swiss_rounds=3, deals_per_match=3
    )
    names = ["Κύμα", "Limani", "Ζέφυρος του Βορρά και της Δύσης", "Porto"]
    for i, name in enumerate(names):
        services.entry_register(tournament=t, name=name, players=[f"Νίκος Παππαδόπουλος {i}", f"Marie {i}"])
    t = services.tournament_start(tournament=t)
    entry = Entry.objects.get(tournament=t, team__name="Κύμα")
    tab = phone.new_page()
    tab.goto(live_server.url + personal.personal_url(None, entry))
    expect(tab.get_by_test_id("personal-name")).to_have_text("Κύμα")
    expect(tab.get_by_test_id("personal-now")).to_contain_text("not drawn yet")
    no_sideways_scroll(tab)

    rnd = services.round_generate(tournament=Tournament.objects.get(pk=t.pk))  # pushed: the stream says so
    table = next(x for x in rnd.tables.all() if entry.pk in (x.entry0_id, x.entry1_id))
    expect(tab.get_by_test_id("personal-table")).to_have_text(str(table.number), timeout=15_000)
    services.round_start(rnd=rnd)
    table.refresh_from_db()  # its match is made when the round starts
    expect(tab.get_by_test_id("personal-live")).to_contain_text("Deal 1 of 3", timeout=15_000)

    scoring.deal_record(match=Match.objects.get(pk=table.match_id), deal=MADE_0)  # at the table's tablet
    expect(tab.get_by_test_id("personal-live")).to_contain_text("Deal 2 of 3", timeout=15_000)
    totals = Match.objects.get(pk=table.match_id).totals
    side = 0 if table.entry0_id == entry.pk else 1
    expect(tab.get_by_test_id("personal-live")).to_contain_text(f"{totals[side]}–{totals[1 - side]}")
    no_sideways_scroll(tab)
    shot(tab, "playing")

    # the partner scans the code: the player's own page, the player first
    tab.goto(live_server.url + personal.personal_url(None, entry, entry.team.player_b))
    expect(tab.get_by_test_id("personal-name")).to_have_text("Marie 0")
    expect(tab.get_by_test_id("personal-table")).to_have_text(str(table.number))
    no_sideways_scroll(tab)


def test_find_your_table_as_one_types(phone, live_server, organizer):
    t = services.tournament_create(organizer=organizer, name="Friday", swiss_rounds=3)
    for i, name in enumerate(["Κύμα", "Limani", "Ζέφυρος", "Porto"]):
        services.entry_register(tournament=t, name=name, players=[f"Νίκος Παππάς {i}", f"Hélène {i}"])
    t = services.tournament_start(tournament=t)
    services.round_generate(tournament=t)
    tab = phone.new_page()
    tab.goto(f"{live_server.url}/tournaments/{t.slug}/find/")
    tab.get_by_test_id("finder-q").press_sequentially("νικος παππας 2", delay=30)
    expect(tab.get_by_test_id("finder-results")).to_contain_text("Νίκος Παππάς 2")
    expect(tab.get_by_test_id("finder-results")).to_contain_text("table")
    no_sideways_scroll(tab)
    shot(tab, "finder")
