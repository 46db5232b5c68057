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


def test_a_shared_place_pools_its_money_in_the_answer(organizer):
    """Second and third level on every tie-break: "=2" on both lines, (109 + 65) / 2 = 87 € each."""
    from scoring import services as scoring
    from tournaments.models import Tournament

    t = services.tournament_create(
        organizer=organizer, name="Tie night", swiss_rounds=1, deals_per_match=1, format="concours"
    )
    for i in range(6):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    services.tournament_start(tournament=t)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    for table, cards in zip(rnd.tables.order_by("number"), (110, 90, 90), strict=True):
        scoring.deal_record(
            match=table.match, deal={"maker": 0, "card_points": [cards, 152 - cards], "last_trick": 0}
        )
    services.standings_refresh(tournament_id=t.pk)
    t = Tournament.objects.get(pk=t.pk)
    if t.status != Tournament.Status.FINISHED:
        services.tournament_finish(tournament=t, reason="Done", in_play="totals", user=organizer)
    body = {"pot": 43700, "percentages": ["40", "25", "15", "12", "8"], "rounding": "unit", "lines": []}
    ok(client_for(organizer).put(URL.format(t.slug), body, format="json"))
    answer = ok(client_for().get(URL.format(t.slug)))
    assert answer["shared"] is True
    assert [
        (p["label"], p["rank"], p["tied"], p["amount"], p["computed"], p["pooled"]) for p in answer["places"]
    ] == [
        ("1", 1, False, 17700, 17700, False),
        ("=2", 2, True, 8700, 10900, True),
        ("=2", 2, True, 8700, 6500, True),
        ("=4", 4, True, 4300, 5200, True),
        ("=4", 4, True, 4300, 3400, True),
    ]
    # An amount the organizer types stays as typed: the third's 100 €, the second alone keeps its 109 €.
    patched = ok(client_for(organizer).patch(URL.format(t.slug), {"lines": [{"place": 3, "amount": 10000}]},
                                             format="json"))  # fmt: skip
    assert [(p["amount"], p["edited"], p["pooled"]) for p in patched["places"][1:3]] == [
        (10900, False, False), (10000, True, False),
    ]  # fmt: skip


def test_the_schema_documents_the_shared_place():
    import json

    schema = json.loads(client_for().get("/api/schema/", {"format": "json"}).content)
    place = schema["components"]["schemas"]["PrizePlace"]["properties"]
    for field in ("tied", "label", "pooled"):
        assert place[field].get("description"), field
    assert "shared" in schema["components"]["schemas"]["PrizeList"]["properties"]
