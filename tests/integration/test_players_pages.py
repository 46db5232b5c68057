"""The player pages and the leaderboard, over matches recorded through the services.

Nikos's three finished matches are the ones worked out by hand in tests/unit/test_player_stats.py,
here recorded as a club would (two played deals each, option ``deals``):

1. A (Nikos, Eleni) – B (Giorgos, Maria): made 100–62, then A's mesa: +0 / +162. 100–224, B wins.
2. C (Nikos, Maria) – D (Giorgos, Eleni): thrown in; D's mesa: +162 / +0; C makes 110–72 (a
   sequence of three). 272–72, C wins.
3. E (Giorgos, Eleni) – F (Maria, Nikos): 100–62, then 62–100. 162–162, a draw.

Nikos: 3 played, 1–1–1, 33.3 %; 100 + 272 + 162 = 534 points over 6 played deals, 89.0 a deal;
one mesa suffered (1), one made (2); partners Maria twice (1 won, 1 drawn), Eleni once (lost).
A fourth match, A – B to 1000, is under way: listed, not counted. The matches are started by an
account (the club's keeper) with the four players picked, so they count in the records.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from league import records as selectors
from players.models import Player
from scoring import services
from scoring.models import Match
from tests.factories import made

pytestmark = pytest.mark.django_db
TWO_DEALS = {"deals": 2}
FINISHED_ON = (datetime.date(2026, 1, 10), datetime.date(2026, 2, 10), datetime.date(2026, 3, 10))


PEOPLE = ("Nikos", "Eleni", "Giorgos", "Maria")


def record(people, teams, deals, options=None, created_by=None):
    """A match of these people (picked: ``people`` maps names to players), its deals recorded."""
    teams = [(name, tuple(people[p] for p in pair)) for name, pair in teams]
    match = services.match_create(teams=teams, options=options, created_by=created_by)
    for deal in deals:
        services.deal_record(match=match, deal=deal)
    match.refresh_from_db()
    return match


@pytest.fixture
def club(user):
    """The three finished matches and the one under way; finished on 10 January, February, March."""
    people = {name: Player.objects.create(name=name) for name in PEOPLE}
    matches = [
        record(
            people,
            [("A", ("Nikos", "Eleni")), ("B", ("Giorgos", "Maria"))],
            [made(0, (90, 62), 0), made(0, (60, 92), 1)],
            TWO_DEALS,
            user,
        ),
        record(
            people,
            [("C", ("Nikos", "Maria")), ("D", ("Giorgos", "Eleni"))],
            [{"thrown_in": True}, made(1, (100, 52), 0), made(0, (80, 72), 0, melds=(("seq3",), ()))],
            TWO_DEALS,
            user,
        ),
        record(
            people,
            [("E", ("Giorgos", "Eleni")), ("F", ("Maria", "Nikos"))],
            [made(0, (90, 62), 0), made(1, (62, 90), 1)],
            TWO_DEALS,
            user,
        ),
    ]
    for match, day in zip(matches, FINISHED_ON, strict=True):
        noon = timezone.make_aware(datetime.datetime.combine(day, datetime.time(12)))
        Match.objects.filter(pk=match.pk).update(finished_at=noon)
    under_way = record(
        people, [("A", ("Nikos", "Eleni")), ("B", ("Giorgos", "Maria"))], [made(0, (90, 62), 0)], None, user
    )
    return {"finished": matches, "under_way": under_way, "nikos": people["Nikos"]}


def test_the_matches_end_as_worked_out(club):
    assert [(m.status, m.winner, m.totals) for m in club["finished"]] == [
        ("finished", 1, [100, 224]),
        ("finished", 0, [272, 72]),
        ("finished", None, [162, 162]),
    ]
    assert club["under_way"].status == "in_progress"


def test_nikos_record_from_the_selector(club):
    result = selectors.player_record(player=club["nikos"])
    s = result.stats
    assert (s.record.played, s.record.won, s.record.drawn, s.record.lost) == (3, 1, 1, 1)
    assert s.record.win_rate == pytest.approx(33.333, abs=1e-3)
    assert (s.points, s.deals, s.points_per_deal) == (534, 6, 89)
    assert (s.suffered_kinds, s.made_kinds) == ((("mesa", 1),), (("mesa", 1),))
    partners = [(p.partner.name, p.record.played, p.record.won) for p in s.partners]
    assert partners == [("Maria", 2, 1), ("Eleni", 1, 0)]
    assert len(result.matches) == 4  # the one under way is listed
    assert [m.outcome for m in result.matches] == [None, "drawn", "won", "lost"]  # newest first
    assert result.last_charted.match == club["finished"][2]  # the newest with two deals or more


def test_the_record_costs_two_queries_however_many_matches(club, django_assert_num_queries):
    with django_assert_num_queries(2):  # the matches with their seats and teams, then their deals
        selectors.player_record(player=club["nikos"])


def test_player_page_shows_the_record(client, club):
    page = client.get(reverse("players:detail", args=[club["nikos"].pk]))
    assert page.status_code == 200
    text = page.text

    def cell(testid):
        return re.search(rf'data-testid="{testid}">(.*?)</td>', text, re.S).group(1)

    assert cell("played") == "3"
    assert cell("wdl") == "1–1–1"
    assert cell("win-rate") == "33.3 %"
    assert cell("points-per-deal").startswith("89.0 ")
    assert cell("suffered").startswith("1 <small>(mesa 1)")
    assert cell("made").startswith("1 <small>(mesa 1)")


def test_player_page_lists_partners_and_matches_with_links(client, club):
    text = client.get(reverse("players:detail", args=[club["nikos"].pk])).text
    partners = text[text.index('data-testid="partners"') :]
    assert partners.index("Maria") < partners.index("Eleni")
    for match in [*club["finished"], club["under_way"]]:
        assert reverse("scoring:match", args=[match.pk]) in text
        assert reverse("scoring:match_print", args=[match.pk]) in text
    assert ">Won<" in text and ">Lost<" in text and ">Drawn<" in text and ">In progress<" in text


def test_player_page_draws_the_last_match(client, club):
    text = client.get(reverse("players:detail", args=[club["nikos"].pk])).text
    chart = text[text.index("<svg") : text.index("</svg>")]
    assert chart.count("<polyline") == 2
    # The draw E – F over two deals: 0 → 100 → 162 and 0 → 62 → 162. No target (a fixed number of
    # deals): the axis runs 0–200 in steps of 50, y = 310 − v × 270 / 200.
    assert 'points="60,310 380,175 700,91.3"' in chart
    assert 'points="60,310 380,226.3 700,91.3"' in chart
    assert 'class="target"' not in chart
    chart_id = f"player-chart-{club['finished'][2].pk}"
    assert f'aria-labelledby="{chart_id}-title {chart_id}-desc"' in chart


def test_a_player_without_matches(client, db):
    player = Player.objects.create(name="Sofia")
    page = client.get(reverse("players:detail", args=[player.pk]))
    assert page.status_code == 200
    assert "No finished match yet." in page.text and "<svg" not in page.text


def test_unknown_player_is_404(client, db):
    assert client.get(reverse("players:detail", args=[999])).status_code == 404


def test_player_list_and_search(client, club):
    page = client.get(reverse("players:list"))
    assert page.status_code == 200
    assert all(name in page.text for name in ("Nikos", "Eleni", "Giorgos", "Maria"))
    nikos_row = re.search(r'>Nikos</a></td><td class="num">(\d+)</td>', page.text)
    assert nikos_row.group(1) == "3"  # finished matches
    found = client.get(reverse("players:list"), {"q": "ni"}).text
    assert "Nikos" in found and "Eleni" in found and "Giorgos" not in found
    assert "No player" in client.get(reverse("players:list"), {"q": "zzz"}).text


def leaders(page):
    return re.findall(r'<td>(\d+)</td>\s*<td><a href="/players/\d+/">(\w+)</a></td>', page.text)


def test_leaderboard_all_time(client, club):
    # Maria 2 of 3 (won 1 and 2, drew 3); Giorgos and Nikos 1 of 3; Eleni none of 3.
    page = client.get(reverse("players:leaderboard"))
    assert page.status_code == 200
    assert leaders(page) == [("1", "Maria"), ("2", "Giorgos"), ("2", "Nikos"), ("4", "Eleni")]
    assert "66.7 %" in page.text and "0.0 %" in page.text


def test_leaderboard_over_a_period(client, club):
    # February holds only match 2: C (Nikos, Maria) beat D (Giorgos, Eleni).
    page = client.get(reverse("players:leaderboard"), {"from": "2026-02-01", "to": "2026-02-28", "min": "1"})
    assert page.status_code == 200
    assert leaders(page) == [("1", "Maria"), ("1", "Nikos"), ("3", "Eleni"), ("3", "Giorgos")]
    assert 'value="2026-02-01"' in page.text  # the form keeps the period


def test_leaderboard_minimum_of_matches(client, club):
    page = client.get(reverse("players:leaderboard"), {"from": "2026-02-01"})  # two matches each: under 3
    assert leaders(page) == []
    assert "Nobody has played enough" in page.text
    page = client.get(reverse("players:leaderboard"), {"from": "2026-02-01", "min": "2"})
    # Maria and Nikos won 2 and drew 3 (50 %); Giorgos and Eleni lost 2 and drew 3.
    assert leaders(page) == [("1", "Maria"), ("1", "Nikos"), ("3", "Eleni"), ("3", "Giorgos")]


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"from": "2026-03-01", "to": "2026-02-01"}, "ends before it starts"),
        ({"from": "yesterday"}, "Enter a valid date"),
        ({"min": "0"}, "greater than or equal to 1"),
    ],
)
def test_leaderboard_refuses_a_bad_period(client, db, query, words):
    page = client.get(reverse("players:leaderboard"), query)
    assert page.status_code == 422
    assert words in page.text
    assert 'data-testid="leaderboard"' not in page.text


def test_the_sheet_shows_the_chart_from_the_second_deal(client, match):
    url = reverse("scoring:match", args=[match.pk])
    chart_url = reverse("scoring:match_chart_svg", args=[match.pk])
    services.deal_record(match=match, deal=made(0))
    assert chart_url not in client.get(url).text
    services.deal_record(match=match, deal=made(1, (62, 90), 1))
    text = client.get(url).text
    assert f'src="{chart_url}?v=2"' in text  # the version: a new deal, a new picture
    assert "The score after each of 2 deals: Kafeneio A 162, Kafeneio B 162." in text
    htmx = client.get(url, HTTP_HX_REQUEST="true").text  # the match area swapped in place keeps it
    assert chart_url in htmx


def test_the_chart_as_an_image(client, match):
    services.deal_record(match=match, deal=made(0))
    services.deal_record(match=match, deal=made(0, (60, 92), 1))
    response = client.get(reverse("scoring:match_chart_svg", args=[match.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert "default-src 'none'" in response["Content-Security-Policy"]
    svg = response.content.decode()
    assert svg.startswith("<svg xmlns=") and svg.count("<polyline") == 2
    assert 'points="60,310 380,283 700,283"' in svg  # A: 0, 100, 100 on a 0–1000 axis
    assert 'class="target"' in svg  # to 1000


def test_the_chart_of_an_unknown_match_is_404(client, db):
    assert client.get(reverse("scoring:match_chart_svg", args=[999])).status_code == 404


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_a_private_tournament_stays_off_the_player_pages(client, db, django_user_model, public):
    """A private tournament is its organizer's only: its matches are neither listed nor counted."""
    from tournaments import services as tournaments

    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    night = tournaments.tournament_create(organizer=organizer, name="Night", public=public, deals_per_match=1)
    tournaments.entry_register(tournament=night, name="A", players=["Nikos", "Eleni"])
    tournaments.entry_register(tournament=night, name="B", players=["Giorgos", "Maria"])
    tournaments.tournament_start(tournament=night)
    rnd = tournaments.round_generate(tournament=night)
    tournaments.round_start(rnd=rnd)
    match = rnd.tables.get().match
    services.deal_record(match=match, deal=made(0))
    nikos = Player.objects.get(name="Nikos")
    page = client.get(reverse("players:detail", args=[nikos.pk]))
    assert page.status_code == (200 if public else 404)  # known only from a private tournament: nobody
    assert (reverse("scoring:match", args=[match.pk]) in page.text) == public
    assert len(selectors.player_record(player=nikos).matches) == (1 if public else 0)
    listed = selectors.player_list().filter(pk=nikos.pk)
    assert [p.finished_matches for p in listed] == ([1] if public else [])
    assert len(selectors.leaderboard(min_matches=1)) == (4 if public else 0)
