"""Every rule set through the tablet pages: the start form and the deal pad."""

import re
import uuid

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Deal, Match
from tests.factories import TEAMS

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def referee(client, django_user_model):
    """These tests are about the pages, not about who may use them (tests/integration/test_keepers.py):
    the client is a superuser, who may keep every match."""
    client.force_login(django_user_model.objects.create_superuser("referee", password="pw-referee-1"))


def start(ruleset, **options):
    return services.match_create(teams=TEAMS, ruleset=ruleset, options=options)


def post_deal(client, match, **fields):
    data = {"client_key": str(uuid.uuid4()), "points_team": "0"}
    data.update({k: str(v) for k, v in fields.items()})
    return client.post(reverse("scoring:deal_create", args=[match.pk]), data, **HTMX)


def sheet(match):
    return selectors.match_sheet(match=Match.objects.get(pk=match.pk)).sheet


@pytest.mark.parametrize(
    ("ruleset", "options", "stored"),
    [
        ("pilotta", {"capot_bonus": "100", "kirtik": "on"}, {"target": 351, "deals": 0, "capot_bonus": 100}),
        ("bulgarian", {"kirtik": "on", "target": "151"}, {"target": 151, "deals": 0, "kirtik": True}),
        ("french", {"litige": "on", "target": "1000"}, {"target": 1000, "deals": 0, "litige": True}),
        ("classic", {"ties_hang": "on"}, {"target": 501, "deals": 0}),
    ],
    ids=["pilotta", "bulgarian", "french", "classic"],
)
def test_start_form_keeps_only_the_chosen_games_options(client, db, ruleset, options, stored):
    form = {
        "ruleset": ruleset, "team0_name": "A", "team0_player_a": "Nikos", "team0_player_b": "Eleni",
        "team1_name": "B", "team1_player_a": "Giorgos", "team1_player_b": "Maria", "first_dealer": "0",
        "target": "", **options,
    }  # fmt: skip
    response = client.post(reverse("scoring:match_new"), form)
    assert response.status_code == 302
    match = Match.objects.get()
    assert (match.ruleset, match.options, match.target) == (ruleset, stored, stored["target"])


def test_pilotta_pad_shows_bid_suit_doubling_declarations_and_belote(client):
    match = start("pilotta")
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    for expected in ('name="bid"', 'name="bid_more"', 'name="suit"', 'name="multiplier"', 'name="belote0"',
                     'name="melds1_fourJ"', 'name="declarations_winner"', ">Declarers<"):  # fmt: skip
        assert expected in page
    assert 'value="notrump"' not in page


def test_pilotta_contra_deal_through_the_pad(client):
    match = start("pilotta")
    # Declarers (team 1) bid 100 ♥, contra; 116 card points for them, 36 for team 0, they take the last
    # trick and team 0 holds the belote: 126 ≥ 100, made and doubled: 126 + 56 − 20 = 162 → 16 × 2 = 32;
    # team 0 keeps its belote 20 → 2 × 2 = 4.
    response = post_deal(client, match, maker=1, bid=100, suit="hearts", multiplier=2, points_team=1,
                         card_points=116, last_trick=1, belote0=1)  # fmt: skip
    assert response.status_code == 200
    assert sheet(match).totals == (4, 32)
    assert Deal.objects.get().data["contract"] == {"suit": "hearts", "bid": 100, "multiplier": 2}
    assert "162 raw" in response.text


def test_pilotta_higher_bid_is_typed_and_a_missing_bid_is_asked_for(client):
    match = start("pilotta")
    response = post_deal(client, match, maker=0, suit="spades", card_points=100, last_trick=0)
    assert response.status_code == 422
    assert "Tap the bid" in response.text
    post_deal(client, match, maker=0, bid_more=170, suit="spades", card_points=152, last_trick="capo0")
    assert Deal.objects.get().data["contract"]["bid"] == 170


def test_pilotta_equal_declarations_need_a_winner(client):
    match = start("pilotta")
    fields = {"maker": 0, "bid": 80, "suit": "clubs", "card_points": 90, "last_trick": 0,
              "melds0_seq3": 1, "melds1_seq3": 1}  # fmt: skip
    response = post_deal(client, match, **fields)
    assert response.status_code == 422
    assert "equal best declaration" in response.text
    assert Deal.objects.count() == 0
    post_deal(client, match, declarations_winner=1, **fields)
    # Team 1 wins the declarations: team 0 100 ≥ 80 made → 10; team 1 62 + 20 = 82 → 8.
    assert sheet(match).totals == (10, 8)


def test_pilotta_all_pass_keeps_the_dealer(client):
    match = start("pilotta")
    client.post(
        reverse("scoring:deal_create", args=[match.pk]), {"client_key": str(uuid.uuid4()), "thrown_in": "1"}
    )
    assert sheet(match).next_dealer == 0


def test_bulgarian_all_trumps_counts_248_card_points(client):
    match = start("bulgarian")
    # All trumps, team 0 takes 144 of 248 and team 1 the last trick: 144 v 114, both on the limit 4:
    # the lower rounds up (12), the higher down (14).
    post_deal(client, match, maker=0, suit="alltrump", card_points=144, last_trick=1)
    assert Deal.objects.get().data["card_points"] == [144, 104]
    assert sheet(match).totals == (14, 12)


def test_bulgarian_no_trumps_refuses_declarations(client):
    match = start("bulgarian")
    response = post_deal(client, match, maker=0, suit="notrump", card_points=60, last_trick=0, melds0_seq3=1)
    assert response.status_code == 422
    assert "No declarations are made in no trumps." in response.text


def test_bulgarian_card_points_over_the_deck_are_refused(client):
    match = start("bulgarian")
    response = post_deal(client, match, maker=0, suit="notrump", card_points=130, last_trick=0)
    assert response.status_code == 422
    assert "between 0 and 120" in response.text


def test_bulgarian_hanging_deal_shows_held_points(client):
    match = start("bulgarian")
    # Hearts, 71 + 10 = 81 v 81: hanging; team 1 scores 8, team 0's 8 hang.
    response = post_deal(client, match, maker=0, suit="hearts", card_points=71, last_trick=0)
    assert "hanging" in response.text
    assert "8 points hanging" in response.text
    assert sheet(match).held == 8


def test_french_pad_has_no_contract_and_counts_all_declarations(client):
    match = start("french")
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert 'name="suit"' not in page and 'name="declarations_winner"' not in page
    # Taker 0: 90 + 10 + 20 = 120; team 1: 62 + 50 = 112: made, both count.
    post_deal(client, match, maker=0, card_points=90, last_trick=0, melds0_seq3=1, melds1_seq4=1)
    assert sheet(match).totals == (120, 112)


def test_classic_solo_capot(client):
    match = start("classic")
    page = client.get(reverse("scoring:match", args=[match.pk])).text
    assert 'name="solo_capot"' in page and 'name="melds0_seq3"' not in page
    post_deal(client, match, maker=0, last_trick="capo0", solo_capot="on")
    assert sheet(match).totals == (350, 0)


def test_classic_solo_capot_needs_a_capot(client):
    match = start("classic")
    response = post_deal(client, match, maker=0, card_points=100, last_trick=0, solo_capot="on")
    assert response.status_code == 422
    assert "A solo capot is a capot" in response.text


@pytest.mark.parametrize("ruleset", ["pilotta", "bulgarian", "french", "classic"])
def test_correcting_a_deal_shows_its_values(client, ruleset):
    match = start(ruleset)
    contract = {"pilotta": {"suit": "spades", "bid": 110, "multiplier": 1},
                "bulgarian": {"suit": "spades", "multiplier": 1}}.get(ruleset)  # fmt: skip
    data = {"maker": 1, "card_points": [30, 122], "last_trick": 1, "belote": [0, 1]}
    if contract:
        data["contract"] = contract
    deal = services.deal_record(match=match, deal=data)
    page = client.get(reverse("scoring:deal_edit", args=[match.pk, deal.pk])).text
    assert re.search(r'name="card_points"[^>]* value="122"', page)
    assert 'name="belote1" value="1"' in page
    if contract:
        assert 'value="spades" data-deck="152" checked' in page
    response = client.post(
        reverse("scoring:deal_edit", args=[match.pk, deal.pk]),
        {"client_key": str(uuid.uuid4()), "maker": "1", "points_team": "1", "card_points": "122",
         "last_trick": "1", "belote1": "0", "suit": "spades", "bid": "110", "multiplier": "1"},
    )  # fmt: skip
    assert response.status_code == 302
    assert Deal.objects.get().data.get("belote", [0, 0]) == [0, 0]  # to_dict leaves out no belote
