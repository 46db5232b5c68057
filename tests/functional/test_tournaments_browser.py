"""An organizer runs a Swiss tournament and a round robin in a real browser.

Everything is done through the pages, as on the night: the organizer logs in,
sets the tournament up, enters teams, approves a public sign-up, checks teams
in, starts the tournament, draws each round (and swaps two teams of a draft),
starts it and hands out the scorekeeper links; a scorekeeper opens each link
and enters the match's one deal by tapping on the pad; the public standings
page follows the results. The ORM is only used to create the organizer's
account and, at the end, to cross-check what was stored.

Every match is played for one deal, so its winner is that deal's winner.
Standings columns: #, Team, Played, W–D–L, then the tie-breaks in the default
order: match points (win 2, loss 0), head-to-head, point difference, game
points. The expected values are worked out by hand in the comments.

Deal points (Mpourloto and French Belote alike): card points + 10 for the last
trick; the makers (or taker) score more than the others, so each team adds its
own. The number typed on the keypad is the makers' card points (of 152).

Celery runs eagerly in the tests: the standings are recomputed as soon as the
response to the deal that finished a match has been sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.functional.test_mpourloto_sheet import Pad

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

USERNAME, PASSWORD = "organizer", "pw-organizer-123"
POLL_MS = 15_000  # the standings page polls every 5 s: a change shows within one or two polls


# Fixtures ------------------------------------------------------------------------


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username=USERNAME, password=PASSWORD)


@pytest.fixture
def public(browser: Browser, page: Page) -> Iterator[BrowserContext]:
    """A second browser, never logged in: the teams, the scorekeepers, the public.

    A JavaScript error on any of its pages fails the test, as on ``page``.
    """
    context = browser.new_context(viewport=page.viewport_size)
    context.set_default_timeout(10_000)
    js_errors: list[str] = []
    context.on("page", lambda tab: tab.on("pageerror", lambda error: js_errors.append(str(error))))
    try:
        yield context
    finally:
        context.close()
    assert not js_errors, f"JavaScript errors on a public page: {js_errors}"


# The organizer's pages ---------------------------------------------------------------


def log_in(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.get_by_label("Username").fill(USERNAME)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{base_url}/tournaments/")
    expect(page.locator(".topbar .who")).to_have_text(USERNAME)


def create_tournament(page: Page, *, name: str, game: str, fmt: str, swiss_rounds: int = 5) -> str:
    """From the tournament list, "New tournament", filled in by hand; returns the slug."""
    page.get_by_role("link", name="New tournament").click()
    expect(page).to_have_url(re.compile(r"/tournaments/new/$"))
    form = page.locator("form.match-new")
    form.locator('input[name="name"]').fill(name)
    form.locator('select[name="ruleset"]').select_option(label=game)
    expect(form.locator('input[name="public"]')).to_be_checked()  # public by default
    form.locator('input[name="signup_open"]').check()
    # The format's radios sit inside the "Format" label: tap the one whose label reads ``fmt``.
    form.locator("#id_format label").filter(has_text=fmt).click()
    expect(form.locator("#id_format label").filter(has_text=fmt).get_by_role("radio")).to_be_checked()
    form.locator('input[name="swiss_rounds"]').fill(str(swiss_rounds))
    form.locator('input[name="deals_per_match"]').fill("1")
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/tournaments/[\w-]+/manage/$"))
    expect(page.locator("h1")).to_have_text(f"{name} Registration")
    return re.search(r"/tournaments/([\w-]+)/manage/$", page.url).group(1)


def entries_table(page: Page):
    return page.get_by_test_id("entries").locator("tbody tr")


def team_row(page: Page, team: str):
    return entries_table(page).filter(has=page.get_by_role("cell", name=team, exact=True))


def enter_team(page: Page, team: str, player: str, partner: str) -> None:
    form = page.locator("form.inline-form").filter(has=page.locator('input[name="player_a"]'))
    form.get_by_label("Team").fill(team)
    form.get_by_label("Player").fill(player)
    form.get_by_label("Partner").fill(partner)
    form.get_by_role("button", name="Enter").click()
    expect(page.locator(".messages")).to_have_text(f"{team} entered.")
    expect(team_row(page, team).locator("td").nth(3)).to_have_text("Registered")


def set_status(page: Page, team: str, button: str, status: str) -> None:
    team_row(page, team).get_by_role("button", name=button).click()
    expect(team_row(page, team).locator("td").nth(3)).to_have_text(status)


def start_tournament(page: Page, name: str) -> None:
    page.get_by_role("button", name="Start the tournament").click()
    expect(page.locator(".messages")).to_have_text("The tournament has started: draw the first round.")
    expect(page.locator("h1")).to_have_text(f"{name} Running")


def draw_round(page: Page, number: int, tables: list[tuple[str, str]]) -> None:
    page.get_by_role("button", name=re.compile(r"^Draw (round \d+|the next round)$")).click()
    expect(page.locator(".messages")).to_contain_text("Round drawn")
    expect_draft(page, tables)
    expect(page.get_by_role("button", name=f"Start round {number}")).to_be_visible()


def expect_draft(page: Page, tables: list[tuple[str, str]]) -> None:
    rows = page.get_by_test_id("draft").locator("tbody tr")
    expect(rows).to_have_count(len(tables))
    for number, (a, b) in enumerate(tables, start=1):
        expect(rows.nth(number - 1).locator("td")).to_have_text([str(number), numbered(a), numbered(b)])


def numbered(team: str) -> re.Pattern:
    """A team's cell: its number (given in order of entry), then its name."""
    return re.compile(rf"^(\d+ )?{re.escape(team)}$")


def swap(page: Page, first: str, second: str) -> None:
    page.locator('input[name="first"]').fill(first)
    page.locator('input[name="second"]').fill(second)
    page.get_by_role("button", name="Swap", exact=True).click()
    expect(page.locator(".messages")).to_have_text("Teams swapped.")


def start_round(page: Page, number: int, kind: str) -> None:
    page.get_by_role("button", name=f"Start round {number}").click()
    expect(page.locator(".messages")).to_have_text(f"Round {number} started: hand out the scorekeeper links.")
    expect(page.get_by_test_id("draft")).to_have_count(0)
    expect(page.locator("li", has_text=f"{kind} {number} ·")).to_contain_text(f"{kind} {number} · Playing")


def scorekeeper_links(page: Page, base_url: str, number: int, kind: str, tables: list[str]) -> list[str]:
    """The printable links page of a round: one card per table, its teams, QR code and link.

    ``tables`` are the expected "A – B" lines, table 1 first; returns the links as printed.
    """
    page.locator("li", has_text=f"{kind} {number} ·").get_by_role(
        "link", name="scorekeeper links and QR codes"
    ).click()
    expect(page).to_have_url(re.compile(rf"/manage/rounds/{number}/links/$"))
    expect(page.locator("h1")).to_contain_text(f"{kind} {number}: scorekeeper links")
    cards = page.locator(".link-card")
    expect(cards).to_have_count(len(tables))
    expect(cards.locator("h2")).to_have_text([f"Table {n}" for n in range(1, len(tables) + 1)])
    expect(cards.locator("p:not(.url)")).to_have_text(tables)
    expect(cards.locator("img.qr")).to_have_count(len(tables))  # a QR code on each card
    urls = [url.strip() for url in cards.locator("p.url").all_inner_texts()]
    for url in urls:
        assert re.fullmatch(rf"{re.escape(base_url)}/s/[\w-]+/", url), url
    assert len(set(urls)) == len(tables)
    return urls


# The scorekeeper's sheet -------------------------------------------------------------


def play_table(
    keeper: Page, url: str, *, teams: tuple[str, str], maker: int, cards: int, banner: str
) -> None:
    """Open a table's link and enter its one deal: the makers' team, their card points,
    their last trick; the match is then over."""
    keeper.goto(url)
    expect(keeper).to_have_url(re.compile(r"/matches/\d+/$"))  # /s/<token>/ redirected to the sheet
    expect(keeper.locator(".score .team-name")).to_have_text(list(teams))
    pad = Pad(keeper)
    pad.trumps(maker)
    pad.key_in(cards)
    pad.last_trick(str(maker))
    pad.record()
    expect(keeper.get_by_test_id("match-state").locator(".winner-banner")).to_have_text(banner)
    expect(keeper.locator(".entry .done")).to_contain_text("The match is over")


# The standings ---------------------------------------------------------------------


def expect_standings(page: Page, rows: list[tuple], timeout: int | None = None) -> None:
    """Rows of (rank, team, played, W–D–L, match points, point difference, game points)."""
    body = page.get_by_test_id("standings").locator("tbody tr")
    kwargs = {"timeout": timeout} if timeout else {}
    expect(body).to_have_count(len(rows), **kwargs)
    columns = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 7: 5, 8: 6}  # nth-child → field of a row
    for child, field in columns.items():
        cells = body.locator(f"td:nth-child({child})")
        if child == 2:
            cells = cells.locator("a")
        expect(cells).to_have_text([str(row[field]) for row in rows], **kwargs)


# Swiss ---------------------------------------------------------------------------


def test_a_swiss_tournament_from_registration_to_final_standings(
    page: Page, public: BrowserContext, live_server, organizer
) -> None:
    base = live_server.url
    name = "Club night Swiss"

    # The organizer logs in and sets up: Mpourloto, Swiss, 2 rounds, one deal a match.
    log_in(page, base)
    slug = create_tournament(page, name=name, game="Mpourloto", fmt="Swiss", swiss_rounds=2)
    manage_url = f"{base}/tournaments/{slug}/manage/"
    standings_url = f"{base}/tournaments/{slug}/standings/"

    # Three teams entered by the organizer.
    enter_team(page, "Aces", "Anna", "Aris")
    enter_team(page, "Bears", "Babis", "Bella")
    enter_team(page, "Cats", "Chris", "Clio")

    # A fourth signs up on the public page, from another browser (nobody logged in there).
    visitor = public.new_page()
    visitor.goto(f"{base}/tournaments/{slug}/")
    visitor.get_by_role("link", name="Sign up a team").click()
    expect(visitor).to_have_url(f"{base}/tournaments/{slug}/signup/")
    visitor.get_by_label("Team").fill("Dogs")
    visitor.get_by_label("Player").fill("Dora")
    visitor.get_by_label("Partner").fill("Dimos")
    visitor.get_by_label("Phone or e-mail").fill("dogs@example.com")
    visitor.get_by_role("button", name="Send").click()
    expect(visitor).to_have_url(f"{base}/tournaments/{slug}/")
    expect(visitor.locator(".messages")).to_have_text("Thank you: the organizer will confirm your entry.")
    expect(visitor.get_by_role("heading", name="Teams (3)")).to_be_visible()  # not listed until approved

    # The organizer sees it waiting, approves it, and checks every team in.
    page.goto(manage_url)
    expect(team_row(page, "Dogs").locator("td").nth(3)).to_have_text("Awaiting approval")
    expect(team_row(page, "Dogs")).to_contain_text("dogs@example.com")
    set_status(page, "Dogs", "Approve", "Registered")
    for team in ("Aces", "Bears", "Cats", "Dogs"):
        set_status(page, team, "Check in", "Checked in")
    expect(entries_table(page).locator("td:nth-child(2)")).to_have_text(["Aces", "Bears", "Cats", "Dogs"])
    start_tournament(page, name)

    # Round 1: everybody on 0, so the draw follows the entry order: 1 v 2, 3 v 4.
    draw_round(page, 1, [("Aces", "Bears"), ("Cats", "Dogs")])
    # The organizer swaps 1B (Bears) with 2A (Cats): Aces v Cats, Bears v Dogs.
    swap(page, "1B", "2A")
    round_1 = [("Aces", "Cats"), ("Bears", "Dogs")]
    expect_draft(page, round_1)
    start_round(page, 1, "Swiss")
    links = scorekeeper_links(page, base, 1, "Swiss", ["Aces – Cats", "Bears – Dogs"])

    keeper = public.new_page()
    # Table 1: Aces take trumps, 90 card points (Cats 62), last trick: Aces 100, Cats 62.
    play_table(keeper, links[0], teams=("Aces", "Cats"), maker=0, cards=90, banner="Aces win 100–62")
    # Table 2: Dogs take trumps, 110 (Bears 42), last trick: Dogs 120, Bears 42.
    play_table(keeper, links[1], teams=("Bears", "Dogs"), maker=1, cards=110, banner="Dogs win 120–42")

    # The public standings after round 1. Aces and Dogs 2 points each, Cats and Bears 0;
    # head-to-head leaves them level (they have not met), the point difference decides:
    # Dogs 120 − 42 = +78 before Aces 100 − 62 = +38; Cats −38 before Bears −78.
    visitor.goto(standings_url)
    standings = visitor.locator("#standings")
    expect(standings).to_have_attribute("hx-trigger", re.compile(r"every 5s"))
    expect_standings(
        visitor,
        [
            (1, "Dogs", 1, "1–0–0", 2, 78, 120),
            (2, "Aces", 1, "1–0–0", 2, 38, 100),
            (3, "Cats", 1, "0–0–1", 0, -38, 62),
            (4, "Bears", 1, "0–0–1", 0, -78, 42),
        ],
    )

    # Round 2: Dogs and Aces (2 points) meet, Cats and Bears (0) meet; none met in round 1.
    page.goto(manage_url)
    expect(page.locator("li", has_text="Swiss 1 ·")).to_contain_text("Swiss 1 · Finished")
    round_2 = [("Dogs", "Aces"), ("Cats", "Bears")]
    draw_round(page, 2, round_2)
    assert not {frozenset(p) for p in round_1} & {frozenset(p) for p in round_2}  # no rematch
    start_round(page, 2, "Swiss")
    links = scorekeeper_links(page, base, 2, "Swiss", ["Dogs – Aces", "Cats – Bears"])

    # The standings page stays open: it follows the results without a reload.
    visitor.evaluate("window.tsoxaSamePage = 'yes'")

    # Table 1: Aces take trumps, 90 (Dogs 62), last trick: Aces 100, Dogs 62.
    play_table(keeper, links[0], teams=("Dogs", "Aces"), maker=1, cards=90, banner="Aces win 100–62")
    # Aces 4 points, +38 + 38 = +76, 100 + 100 = 200; Dogs 2, +78 − 38 = +40, 120 + 62 = 182.
    expect_standings(
        visitor,
        [
            (1, "Aces", 2, "2–0–0", 4, 76, 200),
            (2, "Dogs", 2, "1–0–1", 2, 40, 182),
            (3, "Cats", 1, "0–0–1", 0, -38, 62),
            (4, "Bears", 1, "0–0–1", 0, -78, 42),
        ],
        timeout=POLL_MS,
    )

    # Table 2: Cats take trumps, 100 (Bears 52), last trick: Cats 110, Bears 52.
    play_table(keeper, links[1], teams=("Cats", "Bears"), maker=0, cards=100, banner="Cats win 110–52")
    # Final: Aces 4; Dogs and Cats 2 each, they have not met, the difference decides:
    # Dogs +40 before Cats −38 + 58 = +20 (62 + 110 = 172); Bears 0, −78 − 58 = −136, 42 + 52 = 94.
    final = [
        (1, "Aces", 2, "2–0–0", 4, 76, 200),
        (2, "Dogs", 2, "1–0–1", 2, 40, 182),
        (3, "Cats", 2, "1–0–1", 2, 20, 172),
        (4, "Bears", 2, "0–0–2", 0, -136, 94),
    ]
    expect_standings(visitor, final, timeout=POLL_MS)
    # The tournament is over: the page stops polling.
    expect(standings).not_to_have_attribute("hx-trigger", re.compile(".*"), timeout=POLL_MS)
    expect(standings.locator(".hint")).not_to_contain_text("follows the results")
    assert visitor.evaluate("window.tsoxaSamePage") == "yes"

    # The tournament's page says Finished; so does the organizer's.
    visitor.goto(f"{base}/tournaments/{slug}/")
    expect(visitor.locator("p.hint")).to_contain_text("· Finished")
    expect(visitor.get_by_role("link", name="Sign up a team")).to_have_count(0)
    expect(visitor.locator("section li", has_text="Swiss 2")).to_have_text("Swiss 2 · Finished")
    expect_standings(visitor, final)
    page.goto(manage_url)
    expect(page.locator("h1")).to_have_text(f"{name} Finished")
    expect(page.get_by_role("button", name=re.compile(r"^Draw (round \d+|the next round)$"))).to_have_count(0)
    expect_standings(page, final)

    # Cross-check what was stored.
    from tournaments.models import Entry, Round, Tournament

    tournament = Tournament.objects.get(slug=slug)
    assert (tournament.status, tournament.format, tournament.ruleset) == ("finished", "swiss", "mpourloto")
    assert (tournament.swiss_rounds, tournament.deals_per_match, tournament.public) == (2, 1, True)
    assert tournament.organizer == organizer and tournament.finished_at is not None
    entries = {e.team.name: e for e in tournament.entries.all()}
    assert {e.status for e in entries.values()} == {Entry.Status.CHECKED_IN}
    assert entries["Dogs"].contact == "dogs@example.com"
    assert tournament.participants == [entries[t].pk for t in ("Aces", "Bears", "Cats", "Dogs")]
    pairs = []
    for rnd in tournament.rounds.order_by("number"):
        assert (rnd.kind, rnd.status) == (Round.Kind.SWISS, Round.Status.FINISHED)
        for table in rnd.tables.select_related("match"):
            assert table.match.status == "finished" and table.match.options["deals"] == 1
            assert table.match.deals.count() == 1
            pairs.append(frozenset((table.entry0.team.name, table.entry1.team.name)))
    assert pairs == [
        frozenset({"Aces", "Cats"}),
        frozenset({"Bears", "Dogs"}),
        frozenset({"Dogs", "Aces"}),
        frozenset({"Cats", "Bears"}),
    ]
    rows = tournament.standings.rows
    assert [(r["rank"], r["team"], r["values"]["match_points"]) for r in rows] == [
        (1, "Aces", 4),
        (2, "Dogs", 2),
        (3, "Cats", 2),
        (4, "Bears", 0),
    ]


# Round robin -----------------------------------------------------------------------


def test_a_round_robin_from_registration_to_final_standings(
    page: Page, public: BrowserContext, live_server, organizer
) -> None:
    base = live_server.url
    name = "Spring round robin"
    log_in(page, base)
    slug = create_tournament(page, name=name, game="French Belote", fmt="Round robin")
    for team, player, partner in (
        ("Owls", "Olga", "Orestis"),
        ("Hawks", "Hara", "Hector"),
        ("Kites", "Kostas", "Kiki"),
        ("Crows", "Costa", "Cleo"),
    ):
        enter_team(page, team, player, partner)
    # Nobody checked in: every registered team plays.
    start_tournament(page, name)
    keeper = public.new_page()

    # Berger tables for 4 (Owls 1, Hawks 2, Kites 3, Crows 4): 1-4 2-3, 4-3 1-2, 2-4 3-1.
    # Each table: (teams, the makers' side, their card points, the sheet's banner).
    # 132 card points (others 20) + last trick: 142 v 20; 80 (others 72) + last trick: 90 v 72.
    rounds = [
        [
            (("Owls", "Crows"), 0, 132, "Owls win 142–20"),
            (("Hawks", "Kites"), 1, 132, "Kites win 142–20"),
        ],
        [
            (("Crows", "Kites"), 0, 80, "Crows win 90–72"),
            (("Owls", "Hawks"), 1, 80, "Hawks win 90–72"),
        ],
        [
            (("Hawks", "Crows"), 0, 80, "Hawks win 90–72"),
            (("Kites", "Owls"), 1, 132, "Owls win 142–20"),
        ],
    ]
    for number, tables in enumerate(rounds, start=1):
        page.goto(f"{base}/tournaments/{slug}/manage/")
        draw_round(page, number, [teams for teams, *_ in tables])
        start_round(page, number, "Round robin")
        links = scorekeeper_links(page, base, number, "Round robin", [" – ".join(t) for t, *_ in tables])
        for (teams, maker, cards, banner), url in zip(tables, links, strict=True):
            play_table(keeper, url, teams=teams, maker=maker, cards=cards, banner=banner)

    # Final, by hand. Owls beat Crows and Kites, lost to Hawks: 4 points,
    # +122 − 18 + 122 = +226, 142 + 72 + 142 = 356. Hawks lost to Kites, beat Owls and
    # Crows: 4 points, −122 + 18 + 18 = −86, 20 + 90 + 90 = 200. Level on 4: head-to-head,
    # Hawks beat Owls, so Hawks are first despite the difference. Kites beat Hawks, lost
    # to Crows and Owls: 2, +122 − 18 − 122 = −18, 142 + 72 + 20 = 234. Crows lost to
    # Owls, beat Kites, lost to Hawks: 2, −122 + 18 − 18 = −122, 20 + 90 + 72 = 182.
    # Level on 2: Crows beat Kites, so Crows are third.
    final = [
        (1, "Hawks", 3, "2–0–1", 4, -86, 200),
        (2, "Owls", 3, "2–0–1", 4, 226, 356),
        (3, "Crows", 3, "1–0–2", 2, -122, 182),
        (4, "Kites", 3, "1–0–2", 2, -18, 234),
    ]
    keeper.goto(f"{base}/tournaments/{slug}/standings/")
    expect_standings(keeper, final)
    # Head-to-head among the teams level on points: 2 for the winner of their match, 0 for the loser.
    expect(keeper.get_by_test_id("standings").locator("tbody td:nth-child(6)")).to_have_text(
        ["2", "0", "2", "0"]
    )
    expect(keeper.locator("#standings")).not_to_have_attribute("hx-trigger", re.compile(".*"))

    page.goto(f"{base}/tournaments/{slug}/manage/")
    expect(page.locator("h1")).to_have_text(f"{name} Finished")
    expect(page.get_by_role("button", name=re.compile(r"^Draw (round \d+|the next round)$"))).to_have_count(0)
    expect_standings(page, final)
    keeper.goto(f"{base}/tournaments/{slug}/")
    expect(keeper.locator("p.hint")).to_contain_text("Round robin · win 2, draw 1, loss 0, bye 2")
    expect(keeper.locator("p.hint")).to_contain_text("· Finished")

    from tournaments.models import Round, Tournament

    tournament = Tournament.objects.get(slug=slug)
    assert (tournament.status, tournament.format, tournament.ruleset) == ("finished", "round_robin", "french")
    stage = list(tournament.rounds.order_by("number"))
    assert [(r.kind, r.status) for r in stage] == [(Round.Kind.ROUND_ROBIN, Round.Status.FINISHED)] * 3
    pairs = {
        frozenset((t.entry0.team.name, t.entry1.team.name))
        for r in stage
        for t in r.tables.select_related("match", "entry0__team", "entry1__team")
        if t.match.status == "finished" and t.match.deals.count() == 1
    }
    assert len(pairs) == 6  # every team met every other once, each match one deal
    rows = tournament.standings.rows
    assert [(r["rank"], r["team"], r["values"]["match_points"]) for r in rows] == [
        (1, "Hawks", 4),
        (2, "Owls", 4),
        (3, "Crows", 2),
        (4, "Kites", 2),
    ]
