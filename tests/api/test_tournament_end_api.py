"""The end of an event through the API: a Swiss stage, a knockout to its final, the final ranking,
an early finish, and what a finished tournament still accepts."""

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.problems import fields, problem
from tournaments.models import Table, Tournament

from .conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

TOURNAMENTS = "/api/v1/tournaments/"
WIN = (
    {"maker": 0, "card_points": [90, 62], "last_trick": 0},
    {"maker": 1, "card_points": [62, 90], "last_trick": 1},
)
CAPOT = ({"maker": 0, "card_points": [152, 0], "capot": 0}, {"maker": 1, "card_points": [0, 152], "capot": 1})


def ok(response, code=200):
    assert response.status_code == code, response.content
    return response.json()


def set_up(client, teams=8, **settings):
    body = {"name": "Club night", "swiss_rounds": 2, "deals_per_match": 1, **settings}
    slug = ok(client.post(TOURNAMENTS, body, format="json"), 201)["slug"]
    for i in range(teams):
        team = {"name": f"Team {i + 1}", "players": [f"P{i}a", f"P{i}b"]}
        ok(client.post(f"{TOURNAMENTS}{slug}/entries/", team, format="json"), 201)
    ok(client.post(f"{TOURNAMENTS}{slug}/start/"))
    return slug


def draw(client, slug):
    number = ok(client.post(f"{TOURNAMENTS}{slug}/rounds/"), 201)["number"]
    return ok(client.post(f"{TOURNAMENTS}{slug}/rounds/{number}/start/"))


def deal(client, match_id, body):
    return ok(client.post(f"/api/v1/matches/{match_id}/deals/", body, format="json"), 201)


def play_to_the_end(client, table, side):
    """Capots for ``side`` until the knockout match is over; the winner's entry."""
    match_id = table["match"]["id"]
    while ok(client.get(f"/api/v1/matches/{match_id}/"))["status"] != "finished":
        deal(client, match_id, CAPOT[side])
    return table["teams"][side]["entry"], table["teams"][1 - side]["entry"]


def ranking(client, slug):
    return ok(client.get(f"{TOURNAMENTS}{slug}/ranking/"))


@pytest.mark.parametrize(("size", "third_place"), [(4, False), (4, True), (8, False), (8, True)])
def test_a_swiss_stage_then_a_knockout_to_its_final(organizer, size, third_place):
    client = client_for(organizer)
    slug = set_up(client, teams=10, swiss_rounds=3, knockout_size=size, third_place=third_place)
    for _ in range(3):
        for table in draw(client, slug)["tables"]:
            if table["match"]:
                deal(client, table["match"]["id"], WIN[0])
    stage = [row["entry"] for row in ok(client.get(f"{TOURNAMENTS}{slug}/standings/"))["rows"]]
    out_by_round = []
    while True:
        rnd = draw(client, slug)
        losers = []
        results = {}
        for table in rnd["tables"]:
            winner, loser = play_to_the_end(client, table, side=table["number"] % 2)
            results[table["bracket"]] = (winner, loser)
            if table["bracket"] == "main":
                losers.append(loser)
        out_by_round.append(losers)
        detail = ok(client.get(f"{TOURNAMENTS}{slug}/"))
        if len(rnd["tables"]) - ("third_place" in results) == 1:
            break
        assert detail["status"] == "running"
    assert detail["status"] == "finished" and detail["finished_at"]
    answer = ranking(client, slug)
    assert answer["final"] is True
    rows = answer["rows"]
    champion, finalist = results["main"]
    assert [r["entry"] for r in rows[:2]] == [champion, finalist]
    semi_losers = [e for e in stage if e in out_by_round[-2]]
    if third_place:
        assert [r["entry"] for r in rows[2:4]] == list(results["third_place"])
        assert [r["rank"] for r in rows[:4]] == [1, 2, 3, 4]
    else:
        assert [r["entry"] for r in rows[2:4]] == semi_losers
        assert [r["rank"] for r in rows[:4]] == [1, 2, 3, 3]
    if size == 8:
        assert [r["entry"] for r in rows[4:8]] == [e for e in stage if e in out_by_round[0]]
        assert {r["reached"] for r in rows[4:8]} == {"quarter_final"}
    knocked = {r["entry"] for r in rows[:size]}
    assert [r["entry"] for r in rows[size:]] == [e for e in stage if e not in knocked]
    # Nothing more to draw; the exports carry the same ranking.
    refused = client.post(f"{TOURNAMENTS}{slug}/rounds/")
    assert refused.status_code == 400 and "finished" in refused.content.decode()
    export = b"".join(client.get(f"{TOURNAMENTS}{slug}/export/").streaming_content)
    assert json.loads(export)["ranking"] == rows
    lines = client.get(f"{TOURNAMENTS}{slug}/ranking.csv").content.decode().splitlines()
    assert lines[0].startswith("position,rank,team")
    assert lines[1].split(",")[:3] == ["1", "1", rows[0]["team"]]


def test_the_ranking_is_provisional_while_the_tournament_runs(organizer):
    client = client_for(organizer)
    slug = set_up(client, teams=4)
    assert ranking(client, slug)["final"] is False


def test_an_early_finish_through_the_api(organizer):
    client = client_for(organizer)
    slug = set_up(client, teams=4, swiss_rounds=3, deals_per_match=3)
    rnd = draw(client, slug)
    first = rnd["tables"][0]["match"]["id"]
    deal(client, first, WIN[1])
    missing = client.post(f"{TOURNAMENTS}{slug}/finish/", {}, format="json")
    assert "reason" in fields(problem(missing, 400))
    answer = ok(client.post(f"{TOURNAMENTS}{slug}/finish/", {"reason": "Power cut", "in_play": "totals"}))
    assert (answer["status"], answer["finish_reason"], answer["finish_in_play"]) == (
        "finished",
        "Power cut",
        "totals",
    )
    match = ok(client.get(f"/api/v1/matches/{first}/"))
    assert match["status"] == "finished" and match["winner"] == 1
    rows = ranking(client, slug)["rows"]
    assert rows[0]["entry"] == rnd["tables"][0]["teams"][1]["entry"]


def test_only_the_organizer_finishes_a_tournament(organizer, rival):
    slug = set_up(client_for(organizer), teams=4)
    assert client_for(rival).post(f"{TOURNAMENTS}{slug}/finish/", {"reason": "x"}).status_code == 403
    assert APIClient().post(f"{TOURNAMENTS}{slug}/finish/", {"reason": "x"}).status_code == 401
    assert Tournament.objects.get(slug=slug).status == Tournament.Status.RUNNING


def test_a_finished_tournaments_table_link_no_longer_writes_but_the_organizer_corrects(organizer):
    client = client_for(organizer)
    slug = set_up(client, teams=4, swiss_rounds=3, deals_per_match=3)
    rnd = draw(client, slug)
    table = rnd["tables"][0]
    match_id = table["match"]["id"]
    deal(client, match_id, WIN[0])
    ok(client.post(f"{TOURNAMENTS}{slug}/finish/", {"reason": "Late", "in_play": "totals"}))
    # The tablet at that table: its link opens the sheet, but nothing is written any more.
    token = Table.objects.get(match_id=match_id).token
    tablet = APIClient(enforce_csrf_checks=True)
    assert tablet.get(reverse("tournaments:scorekeeper", args=[token])).status_code == 302
    assert tablet.get(reverse("scoring:match", args=[match_id])).status_code == 200
    csrf = tablet.cookies["csrftoken"].value
    refused = tablet.post(f"/api/v1/matches/{match_id}/deals/", WIN[1], format="json", HTTP_X_CSRFTOKEN=csrf)
    assert refused.status_code == 403
    # The organizer's correction is accepted, audited, and moves the ranking.
    before = ranking(client, slug)["rows"][0]["entry"]
    deal_id = ok(client.get(f"/api/v1/matches/{match_id}/deals/"))[0]["id"]
    ok(client.put(f"/api/v1/matches/{match_id}/deals/{deal_id}/", WIN[1], format="json"))
    after = ranking(client, slug)["rows"][0]["entry"]
    assert before == table["teams"][0]["entry"] and after == table["teams"][1]["entry"]
