"""Finished is finished through the API (issue 24): a match a finished tournament left out refuses
every write, the organizer's too (a 400 of the game's rules, its reason said); a finished tournament
starts no round and no match; a swap that makes a rematch is refused with the teams named, unless
``force``."""

import pytest

from tests.problems import kind, problem
from tournaments.models import Table

from .conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

TOURNAMENTS = "/api/v1/tournaments/"
WIN = (
    {"maker": 0, "card_points": [90, 62], "last_trick": 0},
    {"maker": 1, "card_points": [62, 90], "last_trick": 1},
)


def ok(response, code=200):
    assert response.status_code == code, response.content
    return response.json()


def set_up(client, teams=4, **settings):
    body = {"name": "Club night", "swiss_rounds": 3, "deals_per_match": 3, **settings}
    slug = ok(client.post(TOURNAMENTS, body, format="json"), 201)["slug"]
    for i in range(teams):
        team = {"name": f"Team {i + 1}", "players": [f"P{i}a", f"P{i}b"]}
        ok(client.post(f"{TOURNAMENTS}{slug}/entries/", team, format="json"), 201)
    ok(client.post(f"{TOURNAMENTS}{slug}/start/"))
    return slug


def draw(client, slug):
    number = ok(client.post(f"{TOURNAMENTS}{slug}/rounds/"), 201)["number"]
    return ok(client.post(f"{TOURNAMENTS}{slug}/rounds/{number}/start/"))


def deals(client, match_id, body, times):
    for _ in range(times):
        ok(client.post(f"/api/v1/matches/{match_id}/deals/", body, format="json"), 201)


def refused_by_the_rules(response):
    body = problem(response, 400)
    assert body["type"] == kind("rules-violation")
    assert "counts for nobody" in body["detail"]
    return body


def test_a_match_left_out_refuses_the_organizers_deal_correction_deletion_and_finish(organizer):
    client = client_for(organizer)
    slug = set_up(client)
    for table in draw(client, slug)["tables"]:
        deals(client, table["match"]["id"], WIN[0], 3)
    in_play = draw(client, slug)["tables"][0]["match"]["id"]
    deals(client, in_play, WIN[0], 1)
    ok(client.post(f"{TOURNAMENTS}{slug}/finish/", {"reason": "Power cut", "in_play": "left_out"}))
    deal_id = ok(client.get(f"/api/v1/matches/{in_play}/deals/"))[0]["id"]
    refused_by_the_rules(client.post(f"/api/v1/matches/{in_play}/deals/", WIN[1], format="json"))
    refused_by_the_rules(client.put(f"/api/v1/matches/{in_play}/deals/{deal_id}/", WIN[1], format="json"))
    refused_by_the_rules(client.delete(f"/api/v1/matches/{in_play}/deals/{deal_id}/"))
    refused_by_the_rules(client.post(f"/api/v1/matches/{in_play}/finish/"))
    match = ok(client.get(f"/api/v1/matches/{in_play}/"))
    assert match["status"] == "in_progress" and len(ok(client.get(f"/api/v1/matches/{in_play}/deals/"))) == 1
    tables = ok(client.get(f"{TOURNAMENTS}{slug}/rounds/2/"))["tables"]
    assert [t["left_out"] for t in tables] == [True, True]  # the other had not begun
    assert {t["left_out"] for t in ok(client.get(f"{TOURNAMENTS}{slug}/rounds/1/"))["tables"]} == {False}


def test_a_finished_tournament_starts_no_round_and_no_match(organizer):
    client = client_for(organizer)
    slug = set_up(client)
    for table in draw(client, slug)["tables"]:
        deals(client, table["match"]["id"], WIN[0], 3)
    not_begun = draw(client, slug)["tables"][1]["match"]["id"]
    ok(client.post(f"{TOURNAMENTS}{slug}/finish/", {"reason": "The café closes", "in_play": "totals"}))
    drawn = problem(client.post(f"{TOURNAMENTS}{slug}/rounds/"), 400)
    assert drawn["type"] == kind("refused") and "finished" in drawn["detail"]
    refused_by_the_rules(client.post(f"/api/v1/matches/{not_begun}/deals/", WIN[0], format="json"))
    assert ok(client.get(f"/api/v1/matches/{not_begun}/deals/")) == []
    assert [r["number"] for r in ok(client.get(f"{TOURNAMENTS}{slug}/rounds/"))] == [1, 2]


def test_a_swap_that_makes_a_rematch_is_refused_then_forced(organizer):
    client = client_for(organizer)
    slug = set_up(client)
    first = draw(client, slug)["tables"]
    for table in first:
        deals(client, table["match"]["id"], WIN[0], 3)
    met = {frozenset(side["entry"] for side in table["teams"]) for table in first}
    rnd = ok(client.post(f"{TOURNAMENTS}{slug}/rounds/"), 201)
    one, two = rnd["tables"]
    swap = {"first": [1, 1], "second": [2, 0]}  # table 1 side B <-> table 2 side A
    assert frozenset((one["teams"][0]["entry"], two["teams"][0]["entry"])) in met
    refused = problem(client.post(f"{TOURNAMENTS}{slug}/rounds/2/swap/", swap, format="json"), 400)
    assert refused["type"] == kind("refused")
    assert "already met in round 1" in refused["detail"]
    assert one["teams"][0]["team"] in refused["detail"] and two["teams"][0]["team"] in refused["detail"]
    after = ok(client.get(f"{TOURNAMENTS}{slug}/rounds/2/"))["tables"][0]
    assert [s["entry"] for s in after["teams"]] == [s["entry"] for s in one["teams"]]  # nothing changed
    forced = ok(client.post(f"{TOURNAMENTS}{slug}/rounds/2/swap/", {**swap, "force": True}, format="json"))
    pair = {s["entry"] for s in forced["tables"][0]["teams"]}
    assert pair == {one["teams"][0]["entry"], two["teams"][0]["entry"]}
    table = Table.objects.get(round__tournament__slug=slug, round__number=2, number=1)
    record = table.history.order_by("-history_date").first()
    assert record.history_user == organizer and "already met in round 1" in record.history_change_reason
