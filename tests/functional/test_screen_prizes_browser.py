"""The big screen's prize-giving (issue 27) in a real browser at a TV's 1920×1080: a finished
concours with a pot of 437 € split 40/25/15/12/8 % (down to the euro), a place's prize in words
and a category of the organizer's: after the final ranking, a "Prizes" panel with each place's
team, its points and its amount, then the category with its winner; many prizes are paged
evenly, never one line alone. Screenshots are written to
$TSOXA_SHOTS (default /tmp), to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from scoring import services as scoring
from tournaments import prizes, services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TV, PROJECTOR = {"width": 1920, "height": 1080}, {"width": 1280, "height": 720}
NAMES = ["Kafeneio Platanos", "Oi Asoi tou Pirea", "Ta Galazia Trapoula", "Les Belotiers de Lyon"]
FIRST = ["Giorgos", "Maria", "Nikos", "Eleni", "Dimitra", "Kostas", "Sofia"]
LAST = ["Papadopoulos", "Georgiou", "Ioannou", "Nikolaidis", "Vlachou"]
SHOTS = Path(os.environ.get("TSOXA_SHOTS", "/tmp"))
PUSH_MS = 12_000  # the WSGI stream is asked again every 3 s; then one fetch
NBSP = "\u00a0"


def player(i: int) -> str:
    return f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]} {i}"


APART = [110, 105, 100, 95, 90]  # table n's side 0 makes these card points: every team's points apart


def concours_over(teams: int, cards: list[int] = APART) -> Tournament:
    """A one-round concours of ``teams`` teams, every table played to the end (table n's side 0
    making ``cards[n - 1]`` card points a deal, and the last trick), finished."""
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(
        organizer=organizer, name="Friday concours", swiss_rounds=1, deals_per_match=3, format="concours"
    )
    for i in range(teams):
        services.entry_register(
            tournament=t, name=f"{NAMES[i % 4]} {i + 1}", players=[player(2 * i), player(2 * i + 1)]
        )
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for table in rnd.tables.select_related("match").order_by("number"):
        made = cards[(table.number - 1) % len(cards)]
        deal = {"maker": 0, "card_points": [made, 152 - made], "last_trick": 0}
        while table.match is not None and table.match.status != "finished":
            scoring.deal_record(match=table.match, deal=deal)
            table.match.refresh_from_db()
    t = Tournament.objects.get(pk=t.pk)
    if t.status != Tournament.Status.FINISHED:
        services.tournament_finish(tournament=t, reason="The café closes", user=organizer)
    return Tournament.objects.get(pk=t.pk)


def open_screen(page: Page, base: str, t: Tournament, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    page.goto(f"{base}/tournaments/{t.slug}/screen/")
    expect(page.locator(".screen-live")).to_have_class("screen-live is-live")


def show(page: Page, kind: str) -> None:
    """Bring the first panel of ``kind`` to the front (as the 15 s turn would), for a screenshot."""
    page.evaluate(
        """kind => document.querySelectorAll('.panel').forEach(p =>
            p.classList.toggle('current', p === document.querySelector('.panel-' + kind)))""",
        kind,
    )
    page.wait_for_timeout(700)  # the fade


def test_a_pot_split_on_the_big_screen(page: Page, live_server):
    t = concours_over(10)
    organizer = t.organizer
    prizes.prizes_update(
        tournament=t,
        user=organizer,
        pot_cents=43700,
        percentages=["40", "25", "15", "12", "8"],
        rounding="unit",
    )
    prizes.prize_lines_update(tournament=t, lines=[(1, "The Platanos cup", None)], user=organizer)
    last = t.entries.select_related("team__player_a", "team__player_b").order_by("-number").first()
    prizes.prize_category_save(
        tournament=t, name="Best mixed team", text="A bottle of tsipouro", winners=[last], user=organizer
    )
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    open_screen(page, live_server.url, t, TV)

    # The final ranking, then the prizes: one panel, each place with its team, points and amount.
    kinds = page.eval_on_selector_all(".panel", "els => els.map(e => e.dataset.panel)")
    assert kinds[0] == "podium" and kinds[-1] == "prizes" and "ranking" in kinds
    panel = page.locator(".panel-prizes")
    expect(panel).to_have_count(1)
    expect(panel.locator(".panel-title")).to_have_text("Prizes")
    amounts = panel.locator(".amount").all_text_contents()
    assert amounts == [f"177{NBSP}€", f"109{NBSP}€", f"65{NBSP}€", f"52{NBSP}€", f"34{NBSP}€"]
    expect(panel.locator("tr[data-place='1'] .prize-cell")).to_have_text(f"177{NBSP}€ · The Platanos cup")
    ranking = page.locator(".panel-ranking tbody tr").first
    first_team = ranking.locator(".team-cell").text_content()
    expect(panel.locator("tr[data-place='1'] .team-cell")).to_have_text(first_team)
    points = panel.locator("tr[data-place] td.num:nth-child(3)").all_text_contents()
    assert len(points) == 5 and all(p.isdigit() for p in points)
    # the points column is the one the final ranking is ranked by (a concours: its game points)
    ranked_by = page.locator(".panel-ranking th.ranked").first.text_content()
    assert panel.locator("th").all_text_contents()[2] == ranked_by
    # The category after the places: its name, its winner (number, name, players), its prize.
    category = panel.locator("tr.prize-category")
    expect(category).to_have_count(1)
    expect(category.locator(".category-name")).to_have_text("Best mixed team")
    expect(category.locator(".team-cell")).to_have_text(
        f"Best mixed team {last.number} {last.name} {last.team.player_a.name} & {last.team.player_b.name}"
    )
    expect(category.locator(".prize-cell")).to_have_text("A bottle of tsipouro")
    show(page, "prizes")
    expect(panel).to_be_visible()
    assert panel.evaluate("p => p.scrollHeight <= p.clientHeight + 1")  # nothing cut off
    page.screenshot(path=str(SHOTS / "screen_prizes.png"))

    assert refused == []


@pytest.mark.parametrize("viewport", [TV, PROJECTOR], ids=["1920x1080", "1280x720"])
def test_many_prizes_are_paged_evenly(page: Page, live_server, viewport):
    teams = 24
    t = concours_over(teams)
    lines = [(n, f"A voucher of the café no. {n}", None) for n in range(1, teams + 1)]
    prizes.prize_lines_update(tournament=t, lines=lines, user=t.organizer)
    open_screen(page, live_server.url, t, viewport)
    pages = page.eval_on_selector_all(
        ".panel-prizes", "els => els.map(e => e.querySelectorAll('tbody tr').length)"
    )
    assert sum(pages) == teams and len(pages) > 1
    assert max(pages) - min(pages) <= 1 and min(pages) > 1, pages
    fits = page.eval_on_selector_all(
        ".panel-prizes",
        "els => els.map(e => { e.classList.add('current'); const b = e.querySelector('.panel-body');"
        " const ok = b.scrollHeight <= b.clientHeight + 1; e.classList.remove('current'); return ok; })",
    )
    assert all(fits), fits
    titles = page.locator(".panel-prizes .panel-page").all_text_contents()
    assert titles == [f"{n}/{len(pages)}" for n in range(1, len(pages) + 1)]
    if viewport is PROJECTOR:
        show(page, "prizes")
        page.screenshot(path=str(SHOTS / "screen_prizes_720.png"))


def test_a_shared_place_on_the_big_screen(page: Page, live_server):
    """Second and third tied after every tie-break (and fourth and fifth): "=2" on both lines, the
    money of the two places pooled, (109 + 65) / 2 = 87 € each; a prize in words stays per place."""
    t = concours_over(6, cards=[110, 90, 90])  # 120 v 42 at table 1, 100 v 62 at tables 2 and 3
    prizes.prizes_update(
        tournament=t, user=t.organizer, pot_cents=43700, percentages=["40", "25", "15", "12", "8"],
        rounding="unit",
    )  # fmt: skip
    prizes.prize_lines_update(tournament=t, lines=[(2, "The silver cup", None)], user=t.organizer)
    open_screen(page, live_server.url, t, TV)
    panel = page.locator(".panel-prizes")
    expect(panel).to_have_count(1)
    places = panel.locator("tr[data-place] td.num:first-child").all_text_contents()
    assert places == ["1", "=2", "=2", "=4", "=4"]
    amounts = panel.locator(".amount").all_text_contents()
    assert amounts == [f"177{NBSP}€", f"87{NBSP}€", f"87{NBSP}€", f"43{NBSP}€", f"43{NBSP}€"]
    expect(panel.locator("tr[data-place='2'] .prize-cell")).to_have_text(f"87{NBSP}€ · The silver cup")
    expect(panel.locator("tr[data-place='3'] .prize-cell")).to_have_text(f"87{NBSP}€")
    # the podium before it writes the shared place the same way
    podium = page.get_by_test_id("screen-podium").locator(".podium-rank").all_text_contents()
    assert podium == ["1", "=2", "=2"]
    show(page, "prizes")
    page.screenshot(path=str(SHOTS / "screen_prizes_shared.png"))
