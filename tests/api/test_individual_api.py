"""A whole individual event through the REST API: eight players enter alone, three rounds are drawn
and played deal by deal on /api/v1/matches/{id}/deals/, and the standings (each player credited
with their partnerships' totals) are checked against a count made here from the matches."""

import csv
import io
from collections import Counter, defaultdict
from itertools import pairwise

import pytest

from tests.problems import fields, problem, said

from .conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)

TOURNAMENTS = "/api/v1/tournaments/"
NAMES = ["Nikos", "Eleni", "Giorgos", "Maria", "Kostas", "Vaso", "Petros", "Rena"]
DEALS = (
    {"maker": 0, "card_points": [90, 62], "last_trick": 0},
    {"maker": 1, "card_points": [52, 100], "last_trick": 1},
    {"maker": 0, "card_points": [82, 70], "last_trick": 0},
    {"maker": 1, "card_points": [40, 112], "last_trick": 1},
)


def ok(response, code=200):
    assert response.status_code == code, response.content
    return response.json()


def test_an_individual_event_of_eight_players_over_three_rounds(organizer):
    client = client_for(organizer)
    body = {"name": "Whist drive", "format": "individual", "swiss_rounds": 3, "deals_per_match": 2}
    created = ok(client.post(TOURNAMENTS, body, format="json"), 201)
    slug = created["slug"]
    assert created["format"] == "individual"
    assert created["tiebreaks"] == ["game_points", "wins", "point_difference"]  # ranked on points
    entries = f"{TOURNAMENTS}{slug}/entries/"
    ids = {}
    for name in NAMES:
        entry = ok(client.post(entries, {"players": [name]}, format="json"), 201)
        assert (entry["team"], entry["players"]) == (name, [name]) and entry["player_id"]
        ids[entry["id"]] = name
    ok(client.post(f"{TOURNAMENTS}{slug}/start/"))

    expected = defaultdict(lambda: {"points": 0, "against": 0, "won": 0, "lost": 0, "drawn": 0, "played": 0})
    partners, opponents = Counter(), Counter()
    for number in (1, 2, 3):
        drawn = ok(client.post(f"{TOURNAMENTS}{slug}/rounds/"), 201)
        assert (drawn["number"], drawn["kind"], drawn["status"]) == (number, "individual", "draft")
        rnd = ok(client.post(f"{TOURNAMENTS}{slug}/rounds/{number}/start/"))
        assert len(rnd["tables"]) == 2  # eight players: two tables, nobody sits out
        seated = [e for table in rnd["tables"] for side in table["teams"] for e in side["entries"]]
        assert sorted(seated) == sorted(ids)
        for k, table in enumerate(rnd["tables"]):
            sides = [side["entries"] for side in table["teams"]]
            for side in table["teams"]:
                assert side["players"] == [ids[e] for e in side["entries"]]
                assert side["team"] == " & ".join(side["players"]) and side["entry"] == side["entries"][0]
            match_id = table["match"]["id"]
            match = ok(client.get(f"/api/v1/matches/{match_id}/"))
            assert [t["name"] for t in match["teams"]] == [
                " & ".join(side["players"]) for side in table["teams"]
            ]
            for d in range(2):
                ok(
                    client.post(
                        f"/api/v1/matches/{match_id}/deals/", DEALS[(k + d + number) % 4], format="json"
                    ),
                    201,
                )
            match = ok(client.get(f"/api/v1/matches/{match_id}/"))
            assert match["status"] == "finished"
            totals, winner = match["totals"], match["winner"]
            for s, players in enumerate(sides):
                partners[frozenset(players)] += 1
                for player in players:
                    row = expected[player]
                    row["points"] += totals[s]
                    row["against"] += totals[1 - s]
                    row["played"] += 1
                    row[("drawn" if winner is None else "won" if winner == s else "lost")] += 1
            opponents.update(frozenset((a, b)) for a in sides[0] for b in sides[1])
    # Three rounds of eight: nobody partners or faces the same player twice.
    assert max(partners.values()) == 1 and max(opponents.values()) == 1  # STUBCHECK

    detail = ok(client.get(f"{TOURNAMENTS}{slug}/"))
    assert detail["status"] == "finished" and detail["finished_at"]
    standings = ok(client.get(f"{TOURNAMENTS}{slug}/standings/"))
    rows = standings["rows"]
    assert {row["entry"] for row in rows} == set(ids)
    for row in rows:
        want = expected[row["entry"]]
        assert (row["team"], row["players"]) == (ids[row["entry"]], [ids[row["entry"]]])
        assert row["values"]["game_points"] == want["points"]
        assert row["values"]["points_against"] == want["against"]
        assert row["values"]["point_difference"] == want["points"] - want["against"]
        assert (row["played"], row["won"], row["drawn"], row["lost"]) == (
            3,
            want["won"],
            want["drawn"],
            want["lost"],
        )
    # Ranked on cumulative points, then wins, then the difference; equal on all three: one rank.
    key = {e: (-w["points"], -w["won"], -(w["points"] - w["against"])) for e, w in expected.items()}
    assert [key[row["entry"]] for row in rows] == sorted(key.values())
    for a, b in pairwise(rows):
        assert (a["rank"] == b["rank"]) == (key[a["entry"]] == key[b["entry"]])
    ranking = ok(client.get(f"{TOURNAMENTS}{slug}/ranking/"))
    assert ranking["final"] is True
    assert [r["entry"] for r in ranking["rows"]] == [row["entry"] for row in rows]

    # The exports name the players (one column of two) and the partnerships of each match.
    table = list(csv.reader(io.StringIO(client.get(f"{TOURNAMENTS}{slug}/standings.csv").content.decode())))
    assert table[0][:4] == ["rank", "team", "player_a", "player_b"]
    assert {(r[1], r[2], r[3]) for r in table[1:]} == {(name, name, "") for name in NAMES}
    deals = b"".join(client.get(f"{TOURNAMENTS}{slug}/deals.csv").streaming_content).decode()
    assert len(deals.splitlines()) == 1 + 3 * 2 * 2 and " & " in deals
    refused = client.post(f"{TOURNAMENTS}{slug}/rounds/")
    assert "finished" in problem(refused, 400)["detail"]


def test_an_individual_entry_is_one_player_and_a_team_two(organizer):
    client = client_for(organizer)
    individual = ok(
        client.post(TOURNAMENTS, {"name": "Whist drive", "format": "individual"}, format="json"), 201
    )
    teams = ok(client.post(TOURNAMENTS, {"name": "Club night"}, format="json"), 201)
    alone = f"{TOURNAMENTS}{individual['slug']}/entries/"
    paired = f"{TOURNAMENTS}{teams['slug']}/entries/"

    two = client.post(alone, {"players": ["Nikos", "Eleni"]}, format="json")
    assert "one player" in said(problem(two, 400), "players")[0]
    other = client.post(alone, {"name": "Nikos", "players": ["Eleni"]}, format="json")
    assert "name" in fields(problem(other, 400))
    nobody = problem(client.post(alone, {}, format="json"), 400)
    assert fields(nobody) == {"players"} and said(nobody, "players") == ["This field is required."]
    by_name = ok(client.post(alone, {"name": "Vaso"}, format="json"), 201)
    assert (by_name["team"], by_name["players"]) == ("Vaso", ["Vaso"])
    picked = ok(
        client.post(alone, {"players": ["Vaso"], "player_ids": [by_name["player_id"]]}, format="json"), 400
    )
    assert "already entered" in picked["detail"]
    ids = client.post(alone, {"players": ["Rena"], "player_ids": [None, None]}, format="json")
    assert "player_ids" in fields(problem(ids, 400))

    one = client.post(paired, {"name": "Lions", "players": ["Alexis"]}, format="json")
    assert "two players" in said(problem(one, 400), "players")[0]
    nameless = client.post(paired, {"players": ["Alexis", "Vaso"]}, format="json")
    assert "name" in fields(problem(nameless, 400))
    team = ok(client.post(paired, {"name": "Lions", "players": ["Alexis", "Vaso"]}, format="json"), 201)
    assert (team["team"], team["players"], team["player_id"]) == ("Lions", ["Alexis", "Vaso"], None)

    knockout = client.patch(f"{TOURNAMENTS}{individual['slug']}/", {"knockout_size": 4}, format="json")
    assert "no knockout" in problem(knockout, 400)["detail"]
