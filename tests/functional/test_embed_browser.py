"""The embeds in a real browser, framed by a page of another origin, as a club's website frames them.

The club's website is a tiny server of its own (``http://127.0.0.1:<port>``, a thread of the test);
its page frames the embed from the tests' live server (``http://localhost:<other port>``): another
origin. The frame is shown only if the tournament lists the club's origin; otherwise Chromium
refuses it under the embed's ``frame-ancestors``. (A page made up by Playwright's routing would not
do: Chromium treats it as public and refuses it any frame on this computer, whatever the policy.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scoring import services as scoring
from tournaments import embed, services
from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}  # 100 v 62
CLUB_PAGE = "/a-club-page-that-frames-the-standings/"


@pytest.fixture
def night() -> Tournament:
    """A running Swiss of 4 teams in the club's colours, round 1 started, its table 1 finished."""
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(organizer=organizer, name="Club night", swiss_rounds=3, deals_per_match=1)
    for i, name in enumerate(["Kafeneio Platanos", "Oi Asoi tou Pirea", "Ta Galazia Trapoula", "Limani"]):
        services.entry_register(tournament=t, name=name, players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=t, user=organizer)
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    scoring.deal_record(match=rnd.tables.get(number=1).match, deal=WIN_0)
    services.standings_refresh(tournament_id=t.pk)
    return services.tournament_embed_update(
        tournament=t, user=organizer, colour="#7a1f5c", background="#fdf6e3"
    )


class Club:
    """The club's website: one page framing ``embed_url`` in a ``width`` px column."""

    embed_url = ""
    width = 300

    def __init__(self) -> None:
        club = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = (
                    "<!doctype html><html><head><title>The club</title></head><body><h1>Our club</h1>"
                    f'<iframe src="{club.embed_url}" title="Standings" width="{club.width}" height="500" '
                    'style="border: 0"></iframe></body></html>'
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def club() -> Iterator[Club]:
    site = Club()
    try:
        yield site
    finally:
        site.server.shutdown()
        site.server.server_close()


def listen(page: Page) -> list[str]:
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    return console


def test_a_listed_origin_shows_the_live_standings_in_a_narrow_column(
    page: Page, live_server, night, club, monkeypatch
):
    services.tournament_embed_update(tournament=night, user=night.organizer, embed_origins=[club.url])
    monkeypatch.setattr(embed, "POLL_SECONDS", 1)  # the live server runs in this process
    club.embed_url = f"{live_server.url}/tournaments/{night.slug}/embed/standings/"
    console = listen(page)
    page.goto(club.url)

    frame = page.frame_locator("iframe")
    standings = frame.get_by_test_id("standings")
    expect(standings).to_be_visible()
    winner = night.rounds.get(number=1).tables.select_related("entry0__team").get(number=1).entry0.name
    expect(standings.locator("tbody tr").first).to_contain_text(winner)
    expect(frame.locator("body")).to_have_css("background-color", "rgb(253, 246, 227)")  # #fdf6e3
    expect(frame.locator(".embed-title")).to_have_css("color", "rgb(122, 31, 92)")  # #7a1f5c
    expect(frame.locator(".topbar")).to_have_count(0)
    # 300 px wide: nothing runs off to the side; the rank, the team and the points stay.
    content = page.frames[1]
    assert content.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    expect(standings.locator("thead th:visible")).to_have_count(3)

    # Followed while the tournament runs: a result recorded now appears without a reload.
    rnd = night.rounds.get(number=1)
    scoring.deal_record(match=rnd.tables.get(number=2).match, deal=WIN_0)
    services.standings_refresh(tournament_id=night.pk)
    expect(standings.locator("tbody tr td:nth-child(5)").first).to_have_text("2")
    expect(standings.locator("tbody tr td:nth-child(5)").nth(1)).to_have_text("2")
    assert not [line for line in console if "Content Security Policy" in line], console

    # The current round, in the same column: every table, both teams, the scores.
    club.embed_url = f"{live_server.url}/tournaments/{night.slug}/embed/round/"
    page.reload()
    pairings = page.frame_locator("iframe").get_by_test_id("pairings")
    expect(pairings.locator("tbody tr")).to_have_count(2)
    expect(pairings.locator("tbody tr").first).to_contain_text("100–62")
    assert page.frames[1].evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def test_an_origin_not_listed_is_refused_the_frame(page: Page, live_server, night, club):
    services.tournament_embed_update(
        tournament=night, user=night.organizer, embed_origins=["https://club.example"]
    )
    club.embed_url = f"{live_server.url}/tournaments/{night.slug}/embed/standings/"
    console = listen(page)
    with page.expect_response(club.embed_url) as answer:
        page.goto(club.url)
    assert answer.value.status == 200  # sent, and refused by the browser
    expect(page.get_by_role("heading", name="Our club")).to_be_visible()
    expect(page.frame_locator("iframe").get_by_test_id("standings")).to_have_count(0)
    page.wait_for_timeout(300)
    assert any("frame-ancestors" in line for line in console), console


@pytest.fixture
def organizer_page(browser: Browser, live_server, night) -> Iterator[Callable[..., Page]]:
    """``organizer_page(clipboard=…, script=…)``: the tournament's organizer page at 1280×800, the
    organizer logged in; ``clipboard`` grants it the clipboard, ``script`` runs before the page's
    own. A JavaScript error on it fails the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []
    client = Client()
    client.force_login(night.organizer)
    session = client.cookies[settings.SESSION_COOKIE_NAME]

    def open_page(*, clipboard: bool = False, script: str = "") -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        contexts.append(context)
        if clipboard:
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        if script:
            context.add_init_script(script)
        context.add_cookies([{"name": session.key, "value": session.value, "url": live_server.url}])
        tab = context.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.goto(f"{live_server.url}/tournaments/{night.slug}/manage/")
        return tab

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, errors


def test_the_organizer_copies_the_snippet(organizer_page, live_server, night):
    page = organizer_page(clipboard=True)
    section = page.get_by_test_id("embed-settings")
    section.get_by_label("Websites that may show them").fill("https://club.example/\nhttp://localhost:8000")
    section.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("saved")
    night.refresh_from_db()
    assert night.embed_origins == "https://club.example\nhttp://localhost:8000"
    button = page.get_by_test_id("embed-settings").locator('button[data-copy="#embed-code-standings"]')
    page.bring_to_front()  # the clipboard is written only from the focused page
    button.click()
    expect(button).to_have_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == (
        f'<iframe src="{live_server.url}/tournaments/{night.slug}/embed/standings/" '
        'title="Standings · Club night" width="100%" height="600" loading="lazy" '
        'style="border: 0"></iframe>'
    )
    expect(button).to_have_text("Copy", timeout=4000)


# A browser that copies nothing: the clipboard refuses, or never answers; the old copy command
# copies nothing.
NO_COPY = {
    "refused": "navigator.clipboard.writeText = () => Promise.reject(new Error('refused'));",
    "no answer": "navigator.clipboard.writeText = () => new Promise(() => {});",
}


@pytest.mark.parametrize("clipboard", NO_COPY)
def test_a_snippet_the_browser_will_not_copy_is_left_selected_and_the_button_says_so(
    organizer_page, clipboard
):
    """The clipboard refusing or never answering, and the old copy command copying nothing (a
    locked-down browser): the button says so, and the snippet is selected, to copy by hand. It says
    "Copy" again later."""
    page = organizer_page(script=NO_COPY[clipboard] + "document.execCommand = () => false;")
    button = page.get_by_test_id("embed-settings").locator('button[data-copy="#embed-code-standings"]')
    button.click()
    expect(button).to_have_text("Selected: copy it by hand")
    snippet = page.get_by_test_id("embed-code-standings").text_content()
    assert "<iframe" in snippet
    assert page.evaluate("window.getSelection().toString()") == snippet
    button.click()  # again: the same words, then the button's own label (not its last words)
    expect(button).to_have_text("Selected: copy it by hand")
    expect(button).to_have_text("Copy", timeout=9000)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh page; a JavaScript error on it (the club's page or the frame) fails the test."""
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        context.close()
    assert not errors, errors
