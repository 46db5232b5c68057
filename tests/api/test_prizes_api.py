"""The prizes through the API: GET /api/v1/tournaments/{slug}/prizes/ for anyone who may see the
tournament; PUT and PATCH for its organizer, refused with a 400 (nothing saved) when impossible."""

import pytest

from tests.problems import fields, problem
from tournaments import services
from tournaments.models import PlacePrize, PrizeCategory, PrizeSettings

from .conftest import client_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/tournaments/{}/prizes/"


@pytest.fixture
def event(organizer):
    t = services.tournament_create(organizer=organizer, name="Prize night", swiss_rounds=2, deals_per_match=1)
    for i in range(6):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return t


def ok(response, code=200):
    assert response.status_code == code, response.content
    return response.json()


BODY = {
    "pot": 43700,
    "percentages": ["40", "25", "15", "12", "8"],
    "rounding": "unit",
    "currency": "€",
    "lines": [{"place": 1, "text": "The cup"}, {"place": 2, "amount": 12000}],
    "categories": [{"name": "Best mixed team", "text": "Flowers", "amount": 2000}],
}


def test_the_organizer_puts_the_prizes_and_anyone_reads_them(organizer, event):
    entry = event.entries.get(number=3)
    body = {**BODY, "categories": [{**BODY["categories"][0], "winners": [entry.pk]}]}
    answer = ok(client_for(organizer).put(URL.format(event.slug), body, format="json"))
    assert [p["amount"] for p in answer["places"]] == [17700, 12000, 6500, 5200, 3400]
    assert answer["places"][0]["text"] == "The cup"
    assert answer["places"][1]["edited"] is True and answer["places"][1]["computed"] == 10900
    assert answer["final"] is False and answer["places"][0]["team"] is None
    public = ok(client_for().get(URL.format(event.slug)))
    assert public == answer
    category = public["categories"][0]
    assert (category["name"], category["amount"]) == ("Best mixed team", 2000)
    assert category["winners"] == [
        {"entry": entry.pk, "number": 3, "name": "Team 3", "players": ["P2a", "P2b"]}
    ]


def test_a_patch_changes_only_what_it_sends(organizer, event):
    client = client_for(organizer)
    ok(client.put(URL.format(event.slug), BODY, format="json"))
    answer = ok(
        client.patch(
            URL.format(event.slug), {"pot": 50000, "lines": [{"place": 3, "amount": 9000}]}, format="json"
        )
    )
    assert [p["amount"] for p in answer["places"]] == [20000, 12000, 9000, 6000, 4000]
    assert answer["places"][0]["text"] == "The cup"  # place 1 not named: kept
    assert answer["rounding"] == "unit" and len(answer["categories"]) == 1


def test_a_put_replaces_everything(organizer, event):
    client = client_for(organizer)
    ok(client.put(URL.format(event.slug), BODY, format="json"))
    answer = ok(client.put(URL.format(event.slug), {"pot": 1000, "percentages": ["100"]}, format="json"))
    assert [(p["position"], p["amount"], p["text"]) for p in answer["places"]] == [(1, 1000, "")]
    assert answer["categories"] == [] and answer["currency"] == "€"
    assert not PlacePrize.objects.exists() and not PrizeCategory.objects.exists()


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"percentages": ["60", "50"]}, None, "at most 100 % in all"),
        ({"percentages": ["-5"]}, "percentages", ""),
        ({"percentages": ["10"] * 7}, None, "7 places have a share but only 6 teams are entered"),
        ({"rounding": "up"}, "rounding", ""),
        ({"pot": -1}, "pot", ""),
        ({"lines": [{"place": 9, "text": "Ham"}]}, None, "Place 9: only 6 teams are entered"),
        (
            {"categories": [{"name": "Best", "winners": [999999]}]},
            "categories",
            "No entry of this tournament",
        ),
    ],
)
def test_impossible_prizes_are_refused_and_nothing_is_saved(organizer, event, body, field, words):
    client = client_for(organizer)
    ok(client.patch(URL.format(event.slug), {"pot": 10000, "percentages": ["50", "50"]}, format="json"))
    refused = problem(client.patch(URL.format(event.slug), {"pot": 20000, **body}, format="json"), 400)
    if field:
        assert field in fields(refused)
    assert words in str(refused)
    found = PrizeSettings.objects.get()
    assert (found.pot_cents, found.percentages) == (10000, ["50", "50"])
    assert not PlacePrize.objects.exists() and not PrizeCategory.objects.exists()


def test_only_the_organizer_writes(event, rival):
    problem(client_for(rival).patch(URL.format(event.slug), {"pot": 100}, format="json"), 403)
    assert client_for().put(URL.format(event.slug), BODY, format="json").status_code in (401, 403)
    assert not PrizeSettings.objects.exists()


def test_a_private_tournaments_prizes_are_not_found(organizer):
    t = services.tournament_create(organizer=organizer, name="Private", public=False)
    assert client_for().get(URL.format(t.slug)).status_code == 404
