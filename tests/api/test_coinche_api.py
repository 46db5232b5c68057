"""Coinche through the REST API: a match made, deals with the bid words (capot, générale) and the
named fours, a refused deal naming its field, the match file out and in again. The expected numbers
are worked by hand from RULES.md §6 (docs/games/coinche.md)."""

import json
from pathlib import Path

import pytest
from django.conf import settings

from scoring.models import Deal, Match

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches/"
TEAMS = [{"name": "Les Carreaux", "players": ["Camille", "Hugo"]},
         {"name": "Les Piques", "players": ["Léa", "Julien"]}]  # fmt: skip
SAMPLE = Path(settings.BASE_DIR) / "docs" / "examples" / "coinche-match.json"


def deals_url(match_id: int) -> str:
    return f"{MATCHES}{match_id}/deals/"


@pytest.fixture
def coinche(api, users):
    """A Coinche match to 2001 with sans-atout and tout-atout, kept by the club's writer account."""
    response = api("club_writer").post(
        MATCHES,
        {"ruleset": "coinche", "options": {"target": 2001, "sa_ta": True}, "teams": TEAMS},
        format="json",
    )
    assert response.status_code == 201, response.content[:500]
    return response.json()


def test_a_coinche_match_takes_a_capot_bid_and_a_generale_bid(api, coinche):
    client = api("club_writer")
    assert coinche["ruleset"] == "coinche"
    assert (coinche["options"]["target"], coinche["options"]["sa_ta"], coinche["options"]["litige"]) == (
        2001, True, "failed"
    )  # fmt: skip

    # Les Piques bid capot ♠ and take every trick, Les Carreaux coinche: (250 + 250) × 2 = 1000.
    capot = {"maker": 1, "contract": {"suit": "spades", "bid": "capot", "multiplier": 2},
             "card_points": [0, 152], "capot": 1, "melds": [[], []]}  # fmt: skip
    response = client.post(deals_url(coinche["id"]), capot, format="json")
    assert response.status_code == 201, response.content[:500]
    body = response.json()
    assert body["row"]["result"] == "made" and body["row"]["scores"] == [0, 1000]
    assert body["deal"]["contract"] == {"suit": "spades", "bid": "capot", "multiplier": 2}

    # Les Carreaux bid a générale in tout-atout and Hugo (seat 2) takes every trick alone, with a
    # belote and four 9s: 252 + 150 + 20 + 500 = 922 → 920.
    generale = {"maker": 0, "contract": {"suit": "alltrump", "bid": "generale", "multiplier": 1},
                "card_points": [152, 0], "capot": 0, "generale": 2, "melds": [["four9"], []],
                "belote": [1, 0]}  # fmt: skip
    response = client.post(deals_url(coinche["id"]), generale, format="json")
    assert response.status_code == 201, response.content[:500]
    body = response.json()
    assert body["row"]["result"] == "made" and body["row"]["scores"] == [920, 0]
    assert body["sheet"]["totals"] == [920, 1000] and body["sheet"]["status"] == "in_progress"
    assert body["deal"]["generale"] == 2

    # Sans-atout: the fours by rank. Les Piques bid 80 and count 100 with the last trick and four
    # Aces (200); Les Carreaux four 10s (150). Only the best counts: 110 + 200 + 80 = 390; 52 → 50.
    named = {"maker": 1, "contract": {"suit": "notrump", "bid": 80}, "card_points": [52, 100],
             "last_trick": 1, "melds": [["four10"], ["fourA"]]}  # fmt: skip
    response = client.post(deals_url(coinche["id"]), named, format="json")
    assert response.status_code == 201, response.content[:500]
    assert response.json()["row"]["scores"] == [50, 390]

    sheet = client.get(f"{MATCHES}{coinche['id']}/sheet/").json()
    assert [row["result"] for row in sheet["deals"]] == ["made", "made", "made"]
    assert sheet["totals"] == [970, 1390]


@pytest.mark.parametrize(
    ("deal", "field", "words"),
    [
        ({"contract": {"suit": "hearts", "bid": 85}}, "contract.bid", "bids go in tens from 80 to 160"),
        ({"contract": {"suit": "hearts", "bid": "belote"}}, "contract.bid", 'also "capot" or "generale"'),
        ({"generale": 1, "capot": 0, "card_points": [152, 0]}, "generale", "the capot team (team 0)"),
        ({"generale": 0}, "capot", "a générale is a capot: team 0"),
        ({"contract": {"suit": "notrump", "bid": 80}, "melds": [["four"], []]}, "melds[0][0]", "by rank"),
        ({"declarations_winner": "equal"}, "declarations_winner", "or null"),
        ({"solo_capot": True, "capot": 0, "card_points": [152, 0]}, "solo_capot", "générale instead"),
    ],
    ids=["bid-not-in-tens", "bid-word", "generale-outside-the-capot-team", "generale-without-capot",
         "unnamed-four", "equal-is-null", "solo-capot"],
)  # fmt: skip
def test_a_bad_coinche_deal_is_400_naming_its_field_and_saves_nothing(api, coinche, deal, field, words):
    base = {"maker": 0, "contract": {"suit": "hearts", "bid": 100}, "card_points": [92, 60], "last_trick": 0}
    data = {**base, **deal}
    if "capot" in data:
        data.pop("last_trick")
    response = api("club_writer").post(deals_url(coinche["id"]), data, format="json")
    assert response.status_code == 400, response.content[:500]
    body = response.json()
    assert body["field"] == field
    assert words in body["detail"]
    assert not Deal.objects.filter(match_id=coinche["id"]).exists()
    assert Match.objects.get(pk=coinche["id"]).version == 0


def test_a_generale_of_the_defence_is_recorded_and_scored_as_its_capot(api, coinche):
    """FORMAT.md: ``generale`` may be either team's player. Les Carreaux bid 100 ♥ and Julien (seat 3)
    takes every trick alone: recorded as it was, scored as the defence's capot (only a générale bid by
    the takers scores a générale): failed, Les Piques 160 + 100 = 260."""
    client = api("club_writer")
    deal = {"maker": 0, "contract": {"suit": "hearts", "bid": 100, "multiplier": 1},
            "card_points": [0, 152], "capot": 1, "generale": 3, "melds": [[], []]}  # fmt: skip
    response = client.post(deals_url(coinche["id"]), deal, format="json")
    assert response.status_code == 201, response.content[:500]
    body = response.json()
    assert body["row"]["result"] == "failed" and body["row"]["scores"] == [0, 260]
    assert (body["deal"]["generale"], body["deal"]["capot"]) == (3, 1)
    assert Deal.objects.get(match_id=coinche["id"]).data["generale"] == 3


def test_the_sample_match_file_imports_and_comes_back_the_same(api, users):
    """docs/examples/coinche-match.json: imported, its sheet as worked by hand, exported unchanged."""
    document = json.loads(SAMPLE.read_text(encoding="utf-8"))
    client = api("club_writer")
    response = client.post(f"{MATCHES}import/", document, format="json")
    assert response.status_code == 201, response.content[:500]
    match = response.json()
    assert (match["status"], match["winner"], match["totals"]) == ("finished", 1, [870, 1040])
    exported = client.get(f"{MATCHES}{match['id']}/file/").json()
    assert exported["ruleset"] == "coinche" and exported["deals"] == document["deals"]
    assert exported["options"]["target"] == 1000 and len(exported["options"]) > 20  # every option spelt out
    again = client.post(f"{MATCHES}import/", exported, format="json")
    assert again.status_code == 201 and again.json()["totals"] == [870, 1040]
