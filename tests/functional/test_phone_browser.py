"""The public pages a player opens, on a phone: 390×844, touch, device scale 2 (issue 27).

A concours (ranked on its points) and a cup (a Swiss round, then a knockout of four), with a long
Greek team name and a long Greek player's name. On each page a player opens — the tournament's
home, the standings, a round's pairings, a team's page, the bracket, the final ranking and prizes,
a match sheet as a follower, the player's record, the club's page:

- nothing scrolls sideways (the document is no wider than the window);
- the site's header takes at most a fifth of the first screen;
- names wrap between words, never letter by letter (each word of a name stays on one line);
- the standings show the rank, the team and the columns the format ranks by; the other columns
  come with one tap on "More columns" (a checkbox and its label: no JavaScript needed).

Then every format at once (a concours, a Swiss then a knockout, pools then a final, an individual
event), every page of each: the header with the tournament's menu under it (one line that scrolls
in itself, the current page in view) still within a fifth of the screen; the standings and the
final ranking show the rank, the team and what ranks them, the rest one tap away.

Screenshots of each page at 390×844 and 1280×800 go to $TSOXA_SHOTS (default /tmp) to be looked at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from players.models import Club, Player
from scoring import services as scoring
from scoring.models import Match
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.personal import personal_token
from tournaments.templatetags.tournament_tags import column_abbr, metric_abbr

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "has_touch": True,
    "is_mobile": True,
}
TABLET = {"viewport": {"width": 1280, "height": 800}}
SHOTS = Path(os.environ.get("TSOXA_SHOTS", "/tmp"))
LONG_TEAM = "Ομάδα Παλαιοπαντοπωλείου Θεσσαλονίκης"
LONG_PLAYER = "Παναγιωτοπούλου-Χατζηγεωργίου Αικατερίνη"
WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}
WIN_1 = {"maker": 1, "card_points": [62, 90], "last_trick": 1}


def _play_round(t: Tournament, organizer) -> None:
    rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
    for k, table in enumerate(rnd.tables.filter(match__isnull=False).order_by("number")):
        scoring.deal_record(match=table.match, deal=WIN_0 if k % 2 else WIN_1, user=organizer)
    services.standings_refresh(tournament_id=t.pk)


@pytest.fixture
def evening() -> dict[str, str]:
    """A club's concours of six teams, two rounds played, finished; and the club's cup: a Swiss
    round, then the semi-finals, one played, one in play. The paths of the pages a player opens."""
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    club = Club.objects.create(
        name="Σύλλογος Φίλων της Μπουρλότας Καλαμαριάς", slug="kalamaria", city="Θεσσαλονίκη"
    )
    club.admins.add(organizer)
    concours = services.tournament_create(
        organizer=organizer, name="Κονκούρ του Αγίου Δημητρίου", format="concours", swiss_rounds=2,
        deals_per_match=1, club=club,
    )  # fmt: skip
    names = [
        LONG_TEAM,
        "Οι Άσσοι του Πειραιά",
        "Kafeneio Platanos",
        "Les Belotiers de Lyon",
        "Τα Γαλάζια",
        "Zorba",
    ]
    for i, name in enumerate(names):
        services.entry_register(
            tournament=concours,
            name=name,
            players=[LONG_PLAYER if i == 0 else f"Παίκτης Α{i}", f"Παίκτρια Β{i}"],
        )
    concours = services.tournament_start(tournament=concours, user=organizer)
    for _ in range(2):
        _play_round(concours, organizer)
    assert (
        Tournament.objects.get(pk=concours.pk).status == Tournament.Status.FINISHED
    )  # the last round played

    cup = services.tournament_create(
        organizer=organizer,
        name="Κύπελλο Καλαμαριάς",
        swiss_rounds=1,
        knockout_size=4,
        deals_per_match=1,
        club=club,
    )
    for i, name in enumerate(names[:4]):
        services.entry_register(
            tournament=cup, name=name, players=[LONG_PLAYER if i == 0 else f"Παίκτης Γ{i}", f"Παίκτρια Δ{i}"]
        )
    cup = services.tournament_start(tournament=cup, user=organizer)
    _play_round(cup, organizer)
    semis = services.round_start(rnd=services.round_generate(tournament=cup, user=organizer), user=organizer)
    followed = semis.tables.get(Q(entry0__team__name=LONG_TEAM) | Q(entry1__team__name=LONG_TEAM))
    scoring.deal_record(match=followed.match, deal=WIN_0, user=organizer)  # in play: one deal of many
    long_entry = Entry.objects.get(tournament=concours, team__name=LONG_TEAM)
    player = Player.objects.filter(name=LONG_PLAYER).first()
    return {
        "home": f"/tournaments/{concours.slug}/",
        "standings": f"/tournaments/{concours.slug}/standings/",
        "round": f"/tournaments/{concours.slug}/rounds/2/",
        "team": f"/tournaments/{concours.slug}/teams/{long_entry.pk}/",
        "prizes": f"/tournaments/{concours.slug}/prizes/",
        "cup": f"/tournaments/{cup.slug}/",
        "cup standings": f"/tournaments/{cup.slug}/standings/",
        "cup round": f"/tournaments/{cup.slug}/rounds/2/",
        "bracket": f"/tournaments/{cup.slug}/bracket/",
        "sheet": f"/matches/{followed.match_id}/",
        "player": f"/players/{player.pk}/",
        "club": f"/clubs/{club.slug}/",
    }


def phone(browser: Browser, lang: str = "el"):
    ctx = browser.new_context(**PHONE, extra_http_headers={"Accept-Language": lang})
    ctx.set_default_timeout(10_000)
    return ctx


def sideways(page: Page) -> list[int]:
    """The document's width and the window's. A phone's browser zooms out to show a page wider than
    the screen (the window then widens with it): the screen's width is the one to keep to."""
    width, window = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    return [width, min(window, page.viewport_size["width"])]


def header_bottom(page: Page) -> float:
    """Where the header ends: the site's header and, on a tournament's page, the tournament's menu
    just under it (0 on a print page, which has neither)."""
    return page.evaluate(
        """Math.max(0, ...[...document.querySelectorAll("body > header, main > nav.subnav")]
            .map(e => e.getBoundingClientRect().bottom))"""
    )


def split_words(page: Page) -> list[str]:
    """The words of the long names on the page that a line break cuts in two: each text node of a
    name laid out line by line (a Range per character), a word cut when its letters sit on two
    different lines."""
    return page.evaluate(
        """names => {
            const cut = [];
            const root = document.querySelector("main") || document.body;
            const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (!names.some(n => node.textContent.includes(n.split(" ")[0]))) continue;
                if (!node.parentElement.getClientRects().length) continue;
                // for screen readers only (clipped to a pixel: .sr-only, a stacked table's head)
                let clipped = false;
                for (let e = node.parentElement; e && !clipped; e = e.parentElement) {
                    const style = getComputedStyle(e);
                    clipped = style.position === "absolute" && style.clip !== "auto";
                    clipped ||= style.clipPath !== "none";
                }
                if (clipped) continue;
                const text = node.textContent;
                const range = document.createRange();
                let start = 0;
                for (const word of text.split(/(\\s+|(?<=-))/)) {  // a hyphen may end a line
                    if (word === undefined) continue;
                    if (word.trim()) {
                        const tops = [];
                        let height = 0;
                        for (let i = 0; i < word.length; i++) {
                            range.setStart(node, start + i); range.setEnd(node, start + i + 1);
                            const r = range.getClientRects()[0];
                            if (r) { tops.push(r.top); height = Math.max(height, r.height); }
                        }
                        // on another line: lower by more than half a line (a fallback font's glyph
                        // may sit a pixel or two off)
                        if (tops.length && Math.max(...tops) - Math.min(...tops) > height / 2) cut.push(word);
                    }
                    start += word.length;
                }
            }
            return cut;
        }""",
        [LONG_TEAM, LONG_PLAYER],
    )


def test_every_page_a_player_opens_fits_a_phone(browser: Browser, live_server, evening):
    ctx = phone(browser)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    wide, tall, cut = {}, {}, {}
    for name, path in evening.items():
        page.goto(live_server.url + path)
        if name == "prizes" and not page.locator("link[href$='tournaments/phone.css']").count():
            continue  # a print page: see test_the_prize_list_fits_a_phone
        expect(page.locator("html")).to_have_attribute("lang", "el")
        page.screenshot(path=str(SHOTS / f"phone_{name.replace(' ', '_')}.png"), full_page=True)
        width, window = sideways(page)
        if width > window:  # what reaches past the window's right edge, deepest first
            wide[name] = page.evaluate(
                """[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 391
                    && e.parentElement.getBoundingClientRect().right <= 391 && !(function inBox(p) {
                        for (; p; p = p.parentElement)
                            if (getComputedStyle(p).overflowX !== "visible") return true;
                        return false; })(e.parentElement))
                    .concat([...document.querySelectorAll("body *")].filter(
                        e => e.getBoundingClientRect().right > 391
                            && getComputedStyle(e).position === "absolute"))
                    .slice(0, 5).map(e => `${e.tagName}.${e.className} ${e.getBoundingClientRect().right}`)"""
            )
        if header_bottom(page) > 844 / 5:
            tall[name] = header_bottom(page)
        words = split_words(page)
        if words:
            cut[name] = words
    ctx.close()
    assert wide == {}
    assert tall == {}
    assert cut == {}
    assert not errors, errors


def test_the_prize_list_fits_a_phone(browser: Browser, live_server, evening):
    """The prize list is a print page of its own (print.css, no site header): its phone rules are in
    static/tournaments/phone.css, which prizes.html links."""
    ctx = phone(browser)
    page = ctx.new_page()
    page.goto(live_server.url + evening["prizes"])
    if not page.locator("link[href$='tournaments/phone.css']").count():
        ctx.close()
        pytest.skip("prizes.html does not link tournaments/phone.css yet")
    width, window = sideways(page)
    assert width <= window
    assert split_words(page) == []
    ctx.close()


def test_the_long_names_are_on_the_pages(browser: Browser, live_server, evening):
    """The pages above do show the long names (else "names wrap between words" checks nothing)."""
    ctx = phone(browser)
    page = ctx.new_page()
    for name in ("standings", "round", "team", "prizes", "bracket", "sheet", "cup round"):
        page.goto(live_server.url + evening[name])
        assert LONG_TEAM in page.locator("main, body.print-page").first.inner_text(), name
    page.goto(live_server.url + evening["team"])
    assert LONG_PLAYER in page.locator("main").inner_text()
    page.goto(live_server.url + evening["player"])
    assert LONG_PLAYER in page.locator("main").inner_text()
    ctx.close()


def test_the_tablet_pages_look_the_same(browser: Browser, live_server, evening):
    """At 1280×800 every column of the standings shows, no "More columns" toggle, nothing sideways."""
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    for name, path in evening.items():
        page.goto(live_server.url + path)
        page.screenshot(path=str(SHOTS / f"tablet_{name.replace(' ', '_')}.png"), full_page=True)
        width, window = sideways(page)
        assert width <= window, name
    page.goto(live_server.url + evening["standings"])
    table = page.get_by_test_id("standings")
    heads = table.locator("thead th")
    for i in range(heads.count()):
        expect(heads.nth(i)).to_be_visible()
    expect(page.get_by_test_id("more-columns")).to_be_hidden()
    ctx.close()


def _visible_heads(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "[data-testid=standings] thead th",
        "els => els.filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')"
        ".map(e => e.textContent.trim())",
    )


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_the_standings_show_the_ranking_columns_and_the_rest_behind_a_tap(
    browser: Browser, live_server, evening, js
):
    ctx = browser.new_context(**PHONE, java_script_enabled=js, extra_http_headers={"Accept-Language": "en"})
    page = ctx.new_page()
    # A concours ranks on its points (then wins): those show, played and W–D–L wait behind the tap.
    page.goto(live_server.url + evening["standings"])
    assert _visible_heads(page) == ["#", "Team", "GP", "W"]
    row = page.get_by_test_id("standings").locator("tbody tr").first
    assert row.locator("td").first.inner_text().strip() == "1"
    expect(row.get_by_test_id("number")).to_be_visible()  # the team's number beside its name
    toggle = page.get_by_test_id("more-columns")
    expect(toggle).to_be_visible()
    checkbox = page.get_by_role("checkbox", name="More columns")
    expect(checkbox).not_to_be_checked()
    toggle.click()  # a tap on the label
    expect(checkbox).to_be_checked()
    assert _visible_heads(page) == ["#", "Team", "Played", "W–D–L", "GP", "W", "Diff"]
    assert sideways(page)[0] <= 390  # the table scrolls in its own box, never the page
    page.screenshot(path=str(SHOTS / f"phone_standings_more_{'js' if js else 'nojs'}.png"), full_page=True)
    toggle.click()
    assert _visible_heads(page) == ["#", "Team", "GP", "W"]
    # A Swiss ranks on match points, then its first tie-break.
    page.goto(live_server.url + evening["cup standings"])
    assert _visible_heads(page) == ["#", "Team", "Pts", "H2H"]
    ctx.close()


def test_the_round_pairings_stack_on_a_phone(browser: Browser, live_server, evening):
    """Each table of the round is one block: its number, both teams and the score, all on screen."""
    ctx = phone(browser, lang="en")
    page = ctx.new_page()
    page.goto(live_server.url + evening["cup round"])
    rows = page.locator("table.pairings tbody tr")
    assert rows.count() >= 2
    for i in range(rows.count()):
        for cell in rows.nth(i).locator("td").all():
            if not cell.is_visible():
                continue
            box = cell.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (i, cell.inner_text())
    score = page.locator("table.pairings tbody tr").first.locator("td.score, td.num").first
    expect(score).to_be_visible()
    ctx.close()


def test_the_pages_stay_under_100_kb_of_css_and_javascript(browser: Browser, live_server, evening):
    """The phone's stylesheets count in each page's budget (tests/functional/test_design_browser.py),
    the follower's sheet of a tournament's table too (about 68 kB in Greek: no pad, pad.css nor pad.js;
    every variant of the sheet in every language: tests/functional/test_sheet_weight_browser.py). The
    site-wide phone.css adds 2 kB at most."""
    heavy = {}
    for name in ("standings", "round", "bracket", "home", "sheet"):
        ctx = browser.new_context(
            **PHONE, extra_http_headers={"Accept-Language": "el"}, service_workers="block"
        )
        page = ctx.new_page()
        ctx.new_cdp_session(page).send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.goto(live_server.url + evening[name])
        page.wait_for_load_state("load")
        loaded = dict(
            page.evaluate(
                """performance.getEntriesByType("resource")
                    .filter(e => ["link", "script", "css"].includes(e.initiatorType))
                    .filter(e => !e.name.includes("htmx"))
                    .map(e => [e.name.split("/static/").pop(), e.decodedBodySize])"""
            )
        )
        loaded["inline"] = page.evaluate(
            "[...document.querySelectorAll('script:not([src]), style')]"
            ".reduce((n, el) => n + el.textContent.length, 0)"
        )
        ctx.close()
        assert loaded["scoring/phone.css"] <= 2_000, name
        if name == "sheet":
            assert "tournaments/phone.css" not in loaded
        if sum(loaded.values()) > 100_000:
            heavy[name] = loaded
    assert heavy == {}


def test_the_header_stays_short_signed_in(browser: Browser, live_server, evening):
    """Signed in, in Greek (the longest "Log out"): the account's name goes to screen readers only,
    the header still takes at most a fifth of the screen."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="org"))
    ctx = phone(browser)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    ctx.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = ctx.new_page()
    for name in ("standings", "club"):
        page.goto(live_server.url + evening[name])
        expect(page.locator(".topbar .linklike")).to_be_visible()  # log out
        header = page.locator("header.topbar").bounding_box()
        assert header["y"] + header["height"] <= 844 / 5, name
        assert header_bottom(page) <= 844 / 5, name  # with the tournament's menu, "Manage" in it
        assert sideways(page)[0] <= 390, name
    ctx.close()


def test_the_sheet_its_keeper_opens_fits_a_phone(browser: Browser, live_server, evening):
    """The organizer's sheet has the edit column, its header's words for screen readers placed
    absolutely: they stay inside the table's own scroll, the page does not scroll sideways."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="org"))
    ctx = phone(browser)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    ctx.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = ctx.new_page()
    page.goto(live_server.url + evening["sheet"])
    expect(page.locator("th.edit-col")).to_have_count(1)  # the keeper's sheet
    page.wait_for_load_state("load")
    assert page.evaluate("document.querySelector('.sheet-table').scrollWidth") > 390  # it needs its scroll
    assert sideways(page)[0] <= 390
    ctx.close()


# Every format, every page (issue 27, "On a phone") --------------------------------------------


def _play_out(t: Tournament, organizer) -> Tournament:
    """Rounds played to the end of each match (a knockout's is played to its target), until the
    tournament finishes."""
    for _ in range(12):
        if Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED:
            return Tournament.objects.get(pk=t.pk)
        rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        for k, table in enumerate(rnd.tables.filter(match__isnull=False).order_by("number")):
            while Match.objects.get(pk=table.match_id).status != Match.Status.FINISHED:
                scoring.deal_record(match=table.match, deal=WIN_0 if k % 2 else WIN_1, user=organizer)
        services.standings_refresh(tournament_id=t.pk)
    raise AssertionError(f"{t.name} did not finish")


@pytest.fixture
def four_formats() -> dict[str, tuple[Tournament, dict[str, str]]]:
    """Four finished events, the long team (or player) in each: a concours of eight teams over three
    rounds; a Swiss round then a knockout of four; two pools of three then a final; an individual
    event of eight over two rounds. Each with the paths of its pages."""
    organizer = get_user_model().objects.create_user(username="org", password="pw-org-12345")
    names = [LONG_TEAM, "Οι Άσσοι του Πειραιά", "Kafeneio Platanos", "Les Belotiers de Lyon", "Τα Γαλάζια",
             "Zorba", "Οι Μπουρλοτιέρηδες της Τούμπας", "Άγιος Παύλος"]  # fmt: skip
    short = {"target": 100}  # a knockout's match is played to its target: here one deal
    settings = {
        "concours": ({"format": "concours", "swiss_rounds": 3}, 8),
        "swiss then knockout": ({"swiss_rounds": 1, "knockout_size": 4, "options": short}, 4),
        "pools then knockout": ({"format": "pools", "pool_size": 3, "knockout_size": 2, "options": short}, 6),
        "individual": ({"format": "individual", "swiss_rounds": 2}, 8),
    }
    found = {}
    for label, (options, size) in settings.items():
        title = f"Τουρνουά Μπουρλότας Θεσσαλονίκης: {label}"
        t = services.tournament_create(organizer=organizer, name=title, deals_per_match=1, **options)
        for i, name in enumerate(names[:size]):
            if options.get("format") == "individual":
                name = LONG_PLAYER if i == 0 else f"Παίκτης Η{i}"
                services.entry_register(tournament=t, name=name, players=[name])
            else:
                player = LONG_PLAYER if i == 0 else f"Παίκτης Α{i}"
                services.entry_register(tournament=t, name=name, players=[player, f"Παίκτρια Β{i}"])
        t = _play_out(services.tournament_start(tournament=t, user=organizer), organizer)
        entry = Entry.objects.select_related("team__player_a").get(
            Q(team__name=LONG_TEAM) | Q(player__name=LONG_PLAYER), tournament=t
        )
        base = f"/tournaments/{t.slug}/"
        last = t.rounds.order_by("-number").first().number
        paths = {
            "home": base,
            "standings": base + "standings/",
            "first round": base + "rounds/1/",
            "last round": base + f"rounds/{last}/",
            "prizes": base + "prizes/",
            "team": base + f"teams/{entry.pk}/",
            "personal": f"/me/{personal_token(entry, entry.team.player_a if entry.team else None)}/",
            "finder": base + "find/?q=Παναγ",
        }
        if t.knockout_size:
            paths["bracket"] = base + "bracket/"
        found[label] = (t, paths)
    return found


def _heads(page: Page, testid: str) -> list[dict]:
    """The headings of a table that show (text, left and right edges on the screen)."""
    return page.eval_on_selector_all(
        f"[data-testid={testid}] thead th",
        """els => els.filter(e => e.getClientRects().length).map(e => {
            const r = e.getBoundingClientRect();
            return {text: e.textContent.trim(), left: r.left, right: r.right};
        })""",
    )


def _ranked_by(t: Tournament, testid: str) -> list[str]:
    """The headings a phone shows first: the rank, the team, and what ranks them (the first two
    tie-breaks of the stage; after a knockout, how far each team went)."""
    with translation.override("el"):
        team = translation.gettext("Team")
        if t.format == "individual":  # the standings and the ranking alike
            team = translation.gettext("Player")
        if testid == "ranking" and t.knockout_size:
            return ["#", team, translation.gettext("Went out in")]
        return ["#", team, *(column_abbr(metric_abbr(key)) for key in t.tiebreaks[:2])]


def _all_heads(t: Tournament, testid: str) -> int:
    if testid == "ranking" and t.knockout_size:
        return 4  # and the place in the stage before the knockout
    return 4 + len(t.tiebreaks)  # and the played, the W–D–L, every tie-break


def test_every_format_every_page_on_a_phone(browser: Browser, live_server, four_formats):
    ctx = phone(browser)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    wide, tall, cut, columns, menu = {}, {}, {}, {}, {}
    for label, (t, paths) in four_formats.items():
        for name, path in paths.items():
            where = f"{label}: {name}"
            page.goto(live_server.url + path)
            page.screenshot(path=str(SHOTS / f"phone_{label}_{name}.png".replace(" ", "_")))
            if sideways(page)[0] > 390:
                wide[where] = sideways(page)[0]
            if header_bottom(page) > 844 / 5:
                tall[where] = header_bottom(page)
            if split_words(page):
                cut[where] = split_words(page)
            current = page.locator("nav.subnav [aria-current]")
            if current.count():  # the menu's current page on screen, the menu one line
                box = current.bounding_box()
                links = page.locator("nav.subnav a").evaluate_all("els => els.map(e => e.offsetTop)")
                if box["x"] < 0 or box["x"] + box["width"] > 390 or len(set(links)) > 1:
                    menu[where] = (box, links)
            for testid in ("standings", "ranking"):
                if not page.get_by_test_id(testid).count():
                    continue
                heads = _heads(page, testid)
                shown = [h["text"] for h in heads]
                if shown != _ranked_by(t, testid) or any(h["left"] < 0 or h["right"] > 390 for h in heads):
                    columns[f"{where}: {testid}"] = heads
    ctx.close()
    assert wide == {}
    assert tall == {}
    assert cut == {}
    assert menu == {}
    assert columns == {}
    assert not errors, errors
    # Each page was looked at: the final ranking where the tournament is finished, the menu on each.
    assert all(t.status == Tournament.Status.FINISHED for t, _ in four_formats.values())


@pytest.mark.parametrize("js", [True, False], ids=["js", "no-js"])
def test_the_hidden_columns_come_with_a_tap(browser: Browser, live_server, four_formats, js):
    """On the home page of each finished event (the final ranking, then the standings) and on its
    prize list: one tap on "More columns" shows every column, in a box that scrolls sideways by
    itself (its last column reachable, the page never wider than the screen); another hides them.
    The tournament's menu shows its current page, the last round's at its far end, with or without
    JavaScript."""
    ctx = browser.new_context(**PHONE, java_script_enabled=js, extra_http_headers={"Accept-Language": "el"})
    page = ctx.new_page()
    for label, (t, paths) in four_formats.items():
        page.goto(live_server.url + paths["last round"])
        box = page.locator("nav.subnav [aria-current]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, label
        for name, testid, toggle in (
            ("home", "ranking", "ranking-more-columns"),
            ("home", "standings", "more-columns"),
            ("prizes", "ranking", "ranking-more-columns"),
        ):
            where = f"{label}: {name}, {testid}"
            page.goto(live_server.url + paths[name])
            assert [h["text"] for h in _heads(page, testid)] == _ranked_by(t, testid), where
            page.get_by_test_id(toggle).click()
            heads = _heads(page, testid)
            assert len(heads) == _all_heads(t, testid), where
            assert [h["text"] for h in heads][:2] == _ranked_by(t, testid)[:2], where  # the rank, the team
            assert sideways(page)[0] <= 390, where
            box = page.get_by_test_id(testid).locator("xpath=..")  # the box that scrolls
            box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
            last = _heads(page, testid)[-1]
            assert last["left"] >= 0 and last["right"] <= 390, where
            if name == "prizes" and label == "pools then knockout":
                page.screenshot(path=str(SHOTS / f"phone_prizes_more_{'js' if js else 'nojs'}.png"))
            page.get_by_test_id(toggle).click()
            assert [h["text"] for h in _heads(page, testid)] == _ranked_by(t, testid), where
    ctx.close()
