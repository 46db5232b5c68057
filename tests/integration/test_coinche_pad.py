"""A whole Coinche match kept on the tablet's pages: started on the new-match page, each deal posted
as the pad posts it, one corrected, the sheet and the winner checked against totals worked by hand
(RULES.md §6, docs/games/coinche.md's worked examples; the engine is never asked)."""

import re
import uuid

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Deal, Match
from tests.factories import TEAMS

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
NEW_MATCH = {
    "ruleset": "coinche", "team0_name": "Alpha", "team0_player_a": "Anna", "team0_player_b": "Chris",
    "team1_name": "Beta", "team1_player_a": "Babis", "team1_player_b": "Dora", "first_dealer": "0",
    "target": "", "coinche_target": "1000", "coinche_litige": "failed", "coinche_base": "160",
    "coinche_made_scoring": "points_plus_bid", "coinche_surcoinche": "4", "coinche_max_bid": "160",
}  # fmt: skip


@pytest.fixture(autouse=True)
def referee(client, django_user_model):
    """The pages, not who may use them (tests/integration/test_keepers.py): a superuser keeps every match."""
    client.force_login(django_user_model.objects.create_superuser("referee", password="pw-referee-1"))


def pad(**fields) -> dict[str, str]:
    """What the pad posts: a fresh client key, the number for the takers unless said, the taps."""
    data = {"client_key": str(uuid.uuid4()), "points_team": str(fields.get("maker", 0)), "multiplier": "1"}
    data.update({k: str(v) for k, v in fields.items()})
    return data


def post(client, match, **fields):
    return client.post(reverse("scoring:deal_create", args=[match.pk]), pad(**fields), **HTMX)


def record(client, match, **fields):
    """A deal the pad records: the sheet's parts it changed come back (200)."""
    response = post(client, match, **fields)
    assert response.status_code == 200, response.text[-3000:]
    return response


def sheet(match):
    return selectors.match_sheet(match=Match.objects.get(pk=match.pk)).sheet


def start(client, **fields) -> Match:
    response = client.post(reverse("scoring:match_new"), {**NEW_MATCH, **fields})
    assert response.status_code == 302, response.text[:2000]
    return Match.objects.latest("pk")


def test_a_whole_coinche_match_to_1000_on_the_tablet(client):
    match = start(client)
    assert (match.ruleset, match.target) == ("coinche", 1000)
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert "Coinche to 1000" in page  # the federation's rules: no option to list

    # 1. Alpha bid 100 ♥, count 92 and the last trick, hold the belote: 92 + 10 + 20 = 122 ≥ 100 and
    # more than Beta's 60: made, 122 + 100 = 222 → 220; Beta 60.
    record(client, match, maker=0, bid=100, suit="hearts", card_points=92, last_trick=0, belote0=1)
    assert sheet(match).totals == (220, 60)
    # 2. Beta bid 80 ♠ (the table said 120: corrected below), count 72 and the last trick: 82 ≥ 80 and
    # more than Alpha's 80: made, 82 + 80 = 162 → 160; Alpha 80.
    record(client, match, maker=1, bid=80, suit="spades", card_points=72, last_trick=1)
    assert sheet(match).totals == (300, 220)
    # 3. All passed.
    record(client, match, thrown_in="true")
    # 4. Beta bid 90 ♦, Alpha coinche; Beta count 100 and the last trick, Alpha hold the belote:
    # 110 ≥ 90, made coinché: Beta (160 + 90) × 2 = 500, Alpha their belote 20.
    response = record(client, match, maker=1, bid=90, suit="diamonds", multiplier=2, card_points=100,
                      last_trick=1, belote0=1)  # fmt: skip
    assert sheet(match).totals == (320, 720)
    assert "90 ♦ coinché" in response.text

    # Deal 2 corrected: the bid was 120. 82 < 120: failed, Alpha 160 + 120 = 280, Beta nothing.
    second = Deal.objects.get(match=match, position=2)
    edit = reverse("scoring:deal_edit", args=[match.pk, second.pk])
    page = client.get(edit).text
    assert re.search(r'name="bid" value="80"\s+checked', page)
    version = Match.objects.get(pk=match.pk).version
    response = client.post(
        edit, pad(maker=1, bid=120, suit="spades", card_points=72, last_trick=1, version=version)
    )
    assert response.status_code == 302
    assert Deal.objects.get(pk=second.pk).data["contract"] == {"suit": "spades", "bid": 120, "multiplier": 1}
    assert sheet(match).totals == (520, 560)  # 220 + 280 + 0 + 20; 60 + 0 + 0 + 500

    # 5. Beta bid 80 ♠ and show a tierce, count 80 and the last trick; Alpha show a cinquante: only
    # Alpha's 50 counts, 90 is not more than 72 + 50: failed, Alpha 160 + 80 + 50 = 290.
    record(client, match, maker=1, bid=80, suit="spades", card_points=80, last_trick=1,
                melds1_seq3=1, melds0_seq4=1)  # fmt: skip
    assert sheet(match).totals == (810, 560)
    # 6. Alpha bid 80 ♣, count 71 and the last trick: 81 and 81, the litige is failed: Beta 160 + 80.
    record(client, match, maker=0, bid=80, suit="clubs", card_points=71, last_trick=0)
    assert sheet(match).totals == (810, 800)
    # 7. Alpha bid a générale in hearts and Chris (seat 3) takes every trick alone: the pad asks only
    # the seat (the takers' capot, all the card points): 252 + 500 = 752 → 750. Alpha pass 1,000.
    record(client, match, maker=0, bid="generale", suit="hearts", generale=2)
    assert Deal.objects.get(match=match, position=7).data == {
        "maker": 0, "contract": {"suit": "hearts", "bid": "generale", "multiplier": 1},
        "card_points": [152, 0], "capot": 0, "generale": 2, "melds": [[], []],
    }  # fmt: skip

    final = sheet(match)
    assert final.totals == (1560, 800)
    assert [row.result for row in final.rows] == [
        "made", "failed", "thrown_in", "made", "failed", "failed", "made"
    ]  # fmt: skip
    assert [row.scores for row in final.rows] == [
        (220, 60), (280, 0), (0, 0), (20, 500), (290, 0), (0, 240), (750, 0)
    ]  # fmt: skip
    assert (final.status, final.winner) == ("finished", 0)
    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.winner, stored.totals) == ("finished", 0, [1560, 800])
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert "Alpha win 1560–800" in page
    assert "générale ♥" in page and ">générale</span>" in page  # the bid, and the badge of the cards
    printed = client.get(reverse("scoring:match_print", args=[match.pk])).text
    assert "générale ♥" in printed and "90 ♦ coinché" in printed and "1560" in printed
    history = client.get(reverse("scoring:match_history", args=[match.pk])).text
    assert "120 ♠" in history and "80 ♠" in history  # the correction, as it was and as it is
    # The générale's correction page shows it as tapped: the bid, the seat, the takers' capot.
    seventh = Deal.objects.get(match=match, position=7)
    page = client.get(reverse("scoring:deal_edit", args=[match.pk, seventh.pk])).text
    for name, value in (("bid", "generale"), ("generale", "2"), ("last_trick", "capo0"), ("suit", "hearts")):
        assert re.search(rf'name="{name}" value="{value}"[^>]*checked', page), name


def test_the_coinche_pad_asks_what_the_table_announces(client):
    match = services.match_create(teams=TEAMS, ruleset="coinche")
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    bids = re.findall(r'name="bid" value="([^"]+)"', page)
    assert bids == ["80", "90", "100", "110", "120", "130", "140", "150", "160", "capot", "generale"]
    assert 'name="bid_more"' not in page  # every bid is a tap
    assert re.findall(r'name="suit" value="([^"]+)"', page) == ["clubs", "diamonds", "hearts", "spades"]
    assert ">coinché ×2<" in page and ">surcoinché ×4<" in page
    assert re.findall(r'name="generale" value="(\d)"', page) == ["0", "1", "2", "3"]
    assert 'name="melds0_four"' in page and 'name="melds0_fourA"' not in page
    assert re.search(r'name="belote1"[^>]* max="1"', page)
    assert 'name="declarations_winner" value="equal"' in page  # equal and none count: nobody's
    assert ">Taker<" in page


def test_the_pad_follows_the_matchs_options(client):
    """sa_ta: sans-atout and tout-atout, the fours by rank, four belotes; bids to 180; surcoinché ×3;
    contrée: no announcements, only the belote."""
    options = {"sa_ta": True, "max_bid": 180, "surcoinche_multiplier": 3}
    match = services.match_create(teams=TEAMS, ruleset="coinche", options=options)
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert re.findall(r'name="suit" value="([^"]+)" data-deck="(\d+)"', page)[-2:] == [
        ("notrump", "152"), ("alltrump", "152")
    ]  # fmt: skip
    assert re.findall(r'name="bid" value="([^"]+)"', page)[-4:] == ["170", "180", "capot", "generale"]
    assert ">surcoinché ×3<" in page
    for code in ("fourA", "four10", "fourK", "fourQ", "four9", "fourJ"):
        assert f'name="melds0_{code}"' in page
    assert 'name="melds0_four"' not in page
    assert re.search(r'name="belote0"[^>]* max="4"', page)
    assert 'data-rank-notrump="401"' in page  # four Aces: 200 in sans-atout (a four: one more)
    assert "sans-atout and tout-atout" in page and "surcoinché ×3" in page and "bids to 180" in page

    # Sans-atout, four Aces for Alpha against four Kings for Beta: 200 against 100. Alpha bid 100,
    # count 90 and the last trick: 100 + 200 = 300 ≥ 100 and more than 62 (Beta's 100 does not count):
    # made, 300 + 100 = 400; Beta 62 → 60.
    record(client, match, maker=0, bid=100, suit="notrump", card_points=90, last_trick=0,
           melds0_fourA=1, melds1_fourK=1)  # fmt: skip
    assert sheet(match).totals == (400, 60)

    contree = services.match_create(teams=TEAMS, ruleset="coinche", options={"annonces": False})
    page = client.get(reverse("scoring:match", args=[contree.pk])).text
    assert 'name="melds0_' not in page and 'name="belote0"' in page
    assert 'name="declarations_winner"' not in page
    assert "contrée: no announcements" in page


def test_equal_announcements_count_for_the_team_named_or_for_nobody(client):
    match = services.match_create(teams=TEAMS, ruleset="coinche")
    # Both teams show a tierce. Alpha bid 80 ♥, count 100 and the last trick.
    deal = {"maker": 0, "bid": 80, "suit": "hearts", "card_points": 100, "last_trick": 0,
            "melds0_seq3": 1, "melds1_seq3": 1}  # fmt: skip
    # "Equal: none count": neither tierce; 110 + 80 = 190; Beta 52 → 50.
    record(client, match, **deal, declarations_winner="equal")
    assert Deal.objects.get().data.get("declarations_winner") is None
    assert sheet(match).rows[-1].scores == (190, 50)
    # Beta's counts: Alpha 110 + 80 = 190, Beta 52 + 20 = 72 → 70.
    record(client, match, **deal, declarations_winner=1)
    assert sheet(match).rows[-1].scores == (190, 70)


def test_a_generale_of_either_team_is_recorded_as_that_teams_capot(client):
    """FORMAT.md: the générale is the seat of whichever player took every trick alone; only a générale
    bid by the takers scores it. The pad's seat alone says the capot (the seat's team)."""
    match = services.match_create(teams=TEAMS, ruleset="coinche")
    # Alpha bid 100 ♥ and Dora (seat 3, Beta) takes every trick alone: Beta's capot, the bid failed,
    # Beta 160 + 100 = 260 (the générale is recorded, not scored).
    record(client, match, maker=0, bid=100, suit="hearts", generale=3)
    first = Deal.objects.get(match=match, position=1)
    assert first.data == {
        "maker": 0, "contract": {"suit": "hearts", "bid": 100, "multiplier": 1},
        "card_points": [0, 152], "capot": 1, "generale": 3, "melds": [[], []],
    }  # fmt: skip
    # Alpha bid a générale in spades and Babis (seat 1, Beta) takes every trick alone: failed,
    # Beta 160 + 500 = 660.
    record(client, match, maker=0, bid="generale", suit="spades", generale=1)
    played = sheet(match)
    assert [(row.result, row.scores) for row in played.rows] == [("failed", (0, 260)), ("failed", (0, 660))]
    assert played.totals == (0, 920)
    # The correction page shows the defender's seat and Beta's capot as tapped.
    page = client.get(reverse("scoring:deal_edit", args=[match.pk, first.pk])).text
    for name, value in (("generale", "3"), ("last_trick", "capo1"), ("bid", "100")):
        assert re.search(rf'name="{name}" value="{value}"[^>]*checked', page), name


def test_a_refused_coinche_deal_says_why_at_its_field(client):
    match = services.match_create(teams=TEAMS, ruleset="coinche")
    # A générale is a seat of the capot team: Beta's seat with Alpha's capot is refused, nothing saved.
    response = post(client, match, maker=0, bid="generale", suit="hearts", generale=1, last_trick="capo0")
    assert response.status_code == 422
    assert (
        "A générale is every trick taken by one player: a seat of the capot team (team 0)." in response.text
    )
    assert re.search(r'generale-row needed has-error"', response.text)
    # No bid tapped: the pad asks for one, in Coinche's words.
    response = post(client, match, maker=0, suit="hearts", card_points=90, last_trick=0)
    assert response.status_code == 422
    assert "Tap the bid: 80 to 160, capot or générale." in response.text
    # Sans-atout without the option: not offered, and refused.
    response = post(client, match, maker=0, bid=80, suit="notrump", card_points=90, last_trick=0)
    assert response.status_code == 422
    assert not Deal.objects.exists()


def test_the_new_match_page_offers_coinche_and_its_options(client):
    page = client.get(reverse("scoring:match_new")).text
    assert 'name="ruleset" value="coinche"' in page
    assert re.findall(r'name="coinche_target" value="(\d+)"', page) == ["1000", "1500", "2000", "2001"]
    match = start(client, coinche_target="2001", coinche_litige="held", coinche_sa_ta="on",
                  coinche_contree="on", coinche_surcoinche="3")  # fmt: skip
    assert match.target == 2001
    chosen = {"target": 2001, "litige": "held", "sa_ta": True, "annonces": False, "surcoinche_multiplier": 3}
    assert {name: match.options[name] for name in chosen} == chosen
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    summary = re.search(r'<p class="rules">(.*?)</p>', page, re.S).group(1)
    assert "Coinche to 2001" in summary
    for words in ("litige held", "surcoinché ×3", "contrée: no announcements", "sans-atout and tout-atout"):
        assert words in summary
    assert "base" not in summary and "rounded" not in summary  # the defaults are not listed
    # A target typed goes over the one tapped; "play again" offers the same game and options.
    other = start(client, target="1200", coinche_target="1500")
    assert other.target == 1200
    again = client.get(reverse("scoring:match_new") + f"?again={match.pk}").text
    assert re.search(r'name="coinche_target" value="2001"[^>]*checked', again)
    assert re.search(r'<option value="held" selected>', again)


def test_the_help_says_how_to_key_a_coinche_deal(client):
    page = client.get(reverse("scoring:help")).text
    assert 'href="#coinche"' in page and 'id="coinche"' in page
    section = page[page.index('id="coinche"') : page.index('id="mistakes"')]
    for words in ("générale", "coinché", "Equal: none count", "160 + the bid", 'href="/docs/games/coinche/"'):
        assert words in section, words
    assert f'href="{reverse("scoring:presets")}"' in section


def test_the_tournament_form_offers_coinche_to_its_usual_targets(client):
    from tournaments.models import Tournament

    page = client.get(reverse("tournaments:new")).text
    assert '<option value="coinche">Coinche</option>' in page
    form = {
        "name": "Concours de coinche", "ruleset": "coinche", "target": "2001", "format": "swiss",
        "swiss_rounds": "3", "knockout_size": "0", "deals_per_match": "0", "points_win": "2",
        "points_draw": "1", "points_loss": "0", "points_bye": "2", "playoff_deals": "2", "public": "on",
    }  # fmt: skip
    response = client.post(reverse("tournaments:new"), form)
    assert response.status_code == 302, response.text[-2000:]
    tournament = Tournament.objects.get(name="Concours de coinche")
    assert (tournament.ruleset, tournament.options["target"]) == ("coinche", 2001)
