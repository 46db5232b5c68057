"""Club events through the REST API, as a club's software would run them: a concours on cumulative
points, a timed round, the director's decisions; checked against a computation of the test's own."""

import datetime as dt
from collections import defaultdict
from unittest import mock

import pytest
from django.utils import timezone

from tests.problems import fields, problem

from .conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

TOURNAMENTS = "/api/v1/tournaments/"


def ok(response, code=200):
    assert response.status_code == code, response.content
    return response.json()


def deal(points0):
    """152 card points split ``points0``–rest; the side with more makes it and takes the last trick."""
    side = 0 if points0 > 76 else 1
    return {"maker": side, "card_points": [points0, 152 - points0], "last_trick": side}


def set_up(client, teams, **settings):
    slug = ok(client.post(TOURNAMENTS, {"name": "Concours", **settings}, format="json"), 201)["slug"]
    for i in range(teams):
        team = {"name": f"Team {i + 1}", "players": [f"P{i}a", f"P{i}b"]}
        ok(client.post(f"{TOURNAMENTS}{slug}/entries/", team, format="json"), 201)
    ok(client.post(f"{TOURNAMENTS}{slug}/start/"))
    return slug


def draw(client, slug):
    number = ok(client.post(f"{TOURNAMENTS}{slug}/rounds/"), 201)["number"]
    return ok(client.post(f"{TOURNAMENTS}{slug}/rounds/{number}/start/"))


def test_a_concours_of_four_rounds_on_cumulative_points(organizer):
    client = client_for(organizer)
    slug = set_up(client, 8, format="concours", swiss_rounds=4, deals_per_match=2, seed=99)
    assert ok(client.get(f"{TOURNAMENTS}{slug}/"))["tiebreaks"] == ["game_points", "wins", "point_difference"]
    points: dict[int, int] = defaultdict(int)
    met: set[frozenset[int]] = set()
    for number in range(1, 5):
        before = [r["entry"] for r in ok(client.get(f"{TOURNAMENTS}{slug}/standings/"))["rows"]]
        rnd = draw(client, slug)
        assert rnd["kind"] == "concours"
        pairs = [(t["teams"][0]["entry"], t["teams"][1]["entry"]) for t in rnd["tables"]]
        assert not met & {frozenset(p) for p in pairs}  # a new opponent each round
        met |= {frozenset(p) for p in pairs}
        if number == 2:  # the first against the first, tables in ranking order
            assert pairs == [(before[i], before[i + 1]) for i in range(0, 8, 2)]
        for k, table in enumerate(rnd["tables"]):
            match = table["match"]["id"]
            for split in (40 + 11 * k + number, 100 - 3 * k):
                answer = ok(client.post(f"/api/v1/matches/{match}/deals/", deal(split), format="json"), 201)
            totals = answer["sheet"]["totals"]
            for side in (0, 1):
                points[table["teams"][side]["entry"]] += totals[side]
    detail = ok(client.get(f"{TOURNAMENTS}{slug}/"))
    assert detail["status"] == "finished"
    rows = ok(client.get(f"{TOURNAMENTS}{slug}/standings/"))["rows"]
    assert {r["entry"]: r["values"]["game_points"] for r in rows} == points
    assert [r["values"]["game_points"] for r in rows] == sorted(points.values(), reverse=True)
    ranking = ok(client.get(f"{TOURNAMENTS}{slug}/ranking/"))
    assert ranking["final"] and [r["entry"] for r in ranking["rows"]] == [r["entry"] for r in rows]


def test_a_timed_round_ends_each_match_after_the_deal_in_play(organizer):
    client = client_for(organizer)
    slug = set_up(client, 4, format="concours", swiss_rounds=1, time_limit=40)
    rnd = draw(client, slug)
    assert rnd["clock"]["state"] == "ready" and rnd["clock"]["left"] == 2400
    started = ok(client.post(f"{TOURNAMENTS}{slug}/rounds/1/clock/", {"action": "start"}, format="json"))
    assert started["clock"]["state"] == "running"
    ok(client.post(f"{TOURNAMENTS}{slug}/rounds/1/clock/", {"action": "extend", "minutes": 5, "table": 2}))
    first, second = (t["match"]["id"] for t in rnd["tables"])
    for match in (first, second):
        ok(client.post(f"/api/v1/matches/{match}/deals/", deal(100), format="json"), 201)
    later = timezone.now() + dt.timedelta(minutes=42)  # table 1's time is up; table 2 has 3 minutes more
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert ok(client.get(f"{TOURNAMENTS}{slug}/rounds/1/"))["clock"]["state"] == "over"
        one = ok(client.post(f"/api/v1/matches/{first}/deals/", deal(30), format="json"), 201)
        two = ok(client.post(f"/api/v1/matches/{second}/deals/", deal(30), format="json"), 201)
    assert one["sheet"]["status"] == "finished"  # the deal in play was the last: ended on the totals
    assert ok(client.get(f"/api/v1/matches/{first}/"))["status"] == "finished"
    assert two["sheet"]["status"] != "finished"
    refused = client.post(f"/api/v1/matches/{first}/deals/", deal(100), format="json")
    assert refused.status_code == 400


def test_the_clock_is_the_organizers(organizer, rival):
    slug = set_up(client_for(organizer), 4, format="concours", swiss_rounds=1, time_limit=40)
    draw(client_for(organizer), slug)
    answer = client_for(rival).post(f"{TOURNAMENTS}{slug}/rounds/1/clock/", {"action": "start"})
    assert answer.status_code == 403
    bad = client_for(organizer).post(f"{TOURNAMENTS}{slug}/rounds/1/clock/", {"action": "pause"})
    assert bad.status_code == 400 and "not been started" in bad.content.decode()


def test_penalties_and_forfeits_through_the_api(organizer):
    client = client_for(organizer)
    slug = set_up(client, 4, format="concours", swiss_rounds=2, deals_per_match=1)
    rnd = draw(client, slug)
    first, second = rnd["tables"]
    answer = ok(client.post(f"/api/v1/matches/{first['match']['id']}/deals/", deal(100), format="json"), 201)
    scored = answer["sheet"]["totals"][0]
    penalised = first["teams"][0]["entry"]
    penalty = ok(
        client.post(
            f"{TOURNAMENTS}{slug}/adjustments/",
            {"kind": "penalty", "entry": penalised, "points": 162, "reason": "Talking across the table"},
            format="json",
        ),
        201,
    )
    forfeit = {"kind": "forfeit", "round": 1, "table": 2, "winner": 0, "scores": [1100, 0], "reason": "Late"}
    ok(client.post(f"{TOURNAMENTS}{slug}/adjustments/", forfeit, format="json"), 201)
    rows = {r["entry"]: r for r in ok(client.get(f"{TOURNAMENTS}{slug}/standings/"))["rows"]}
    assert rows[penalised]["values"]["game_points"] == scored - 162 and rows[penalised]["penalty"] == [162, 0]
    assert rows[second["teams"][0]["entry"]]["values"]["game_points"] == 1100
    listed = ok(client.get(f"{TOURNAMENTS}{slug}/adjustments/"))
    assert [(a["kind"], a["created_by"]) for a in listed] == [
        ("penalty", "kafeneio"),
        ("forfeit", "kafeneio"),
    ]
    assert listed[1]["round"] == 1 and listed[1]["table"] == 2
    assert client.delete(f"{TOURNAMENTS}{slug}/adjustments/{penalty['id']}/").status_code == 204
    rows = {r["entry"]: r for r in ok(client.get(f"{TOURNAMENTS}{slug}/standings/"))["rows"]}
    assert rows[penalised]["values"]["game_points"] == scored
    missing = client.post(
        f"{TOURNAMENTS}{slug}/adjustments/", {"kind": "penalty", "reason": "x"}, format="json"
    )
    assert "entry" in fields(problem(missing, 400))
    nowhere = dict(forfeit, table=9)
    assert client.post(f"{TOURNAMENTS}{slug}/adjustments/", nowhere, format="json").status_code == 404


def test_only_the_organizer_decides(organizer, rival):
    slug = set_up(client_for(organizer), 4, format="concours", swiss_rounds=1)
    draw(client_for(organizer), slug)
    body = {"kind": "forfeit", "round": 1, "table": 1, "winner": 0, "scores": [1, 0], "reason": "x"}
    assert client_for(rival).post(f"{TOURNAMENTS}{slug}/adjustments/", body, format="json").status_code == 403


def test_a_late_entry_and_pairs_kept_apart_through_the_api(organizer):
    client = client_for(organizer)
    slug = set_up(client, 4, format="concours", swiss_rounds=3, deals_per_match=1)
    rnd = draw(client, slug)
    for table in rnd["tables"]:
        ok(client.post(f"/api/v1/matches/{table['match']['id']}/deals/", deal(100), format="json"), 201)
    late = {"name": "Latecomers", "players": ["L1", "L2"], "points_per_missed_round": 70}
    entry = ok(client.post(f"{TOURNAMENTS}{slug}/entries/", late, format="json"), 201)
    rows = {r["entry"]: r for r in ok(client.get(f"{TOURNAMENTS}{slug}/standings/"))["rows"]}
    assert rows[entry["id"]]["values"]["game_points"] == 70
    ids = [e["id"] for e in ok(client.get(f"{TOURNAMENTS}{slug}/entries/"))]
    kept = ok(client.post(f"{TOURNAMENTS}{slug}/avoid/", {"pairs": [[ids[0], ids[1]]]}, format="json"))
    assert kept["avoid"] == [sorted([ids[0], ids[1]])]
    bad = client.post(f"{TOURNAMENTS}{slug}/avoid/", {"pairs": [[ids[0], 999999]]}, format="json")
    assert bad.status_code == 400


def test_pools_through_the_api(organizer):
    client = client_for(organizer)
    slug = set_up(client, 6, format="pools", pool_size=3, knockout_size=2, deals_per_match=1)
    entries = ok(client.get(f"{TOURNAMENTS}{slug}/entries/"))
    assert sorted(e["pool"] for e in entries) == ["A", "A", "A", "B", "B", "B"]
    pool_of = {e["id"]: e["pool"] for e in entries}
    for _ in range(3):
        rnd = draw(client, slug)
        assert rnd["kind"] == "pool"
        for table in rnd["tables"]:
            if table["match"]:
                a, b = (side["entry"] for side in table["teams"])
                assert pool_of[a] == pool_of[b]
                ok(
                    client.post(f"/api/v1/matches/{table['match']['id']}/deals/", deal(100), format="json"),
                    201,
                )
    rows = ok(client.get(f"{TOURNAMENTS}{slug}/standings/"))["rows"]
    assert [r["pool"] for r in rows] == ["A"] * 3 + ["B"] * 3
    final = draw(client, slug)
    (table,) = final["tables"]
    assert {pool_of[side["entry"]] for side in table["teams"]} == {"A", "B"}  # the two pool winners
