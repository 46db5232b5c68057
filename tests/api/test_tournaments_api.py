"""/api/v1/tournaments/: reads, exports, and the organizer's writes (and who else may not)."""

import csv
import io
import json

import pytest

from scoring import engine
from scoring.models import Match
from tests.problems import fields, problem
from tournaments import services
from tournaments.models import Entry, Round, Tournament
from tournaments.standings import METRICS

from .conftest import NOT_ORGANIZERS, WIN_0, WIN_1, client_for

pytestmark = pytest.mark.django_db

TOURNAMENTS = "/api/v1/tournaments/"


def url(t, tail=""):
    slug = t if isinstance(t, str) else t.slug
    return f"{TOURNAMENTS}{slug}/{tail}"


def slugs(response):
    assert response.status_code == 200, response.content
    return [t["slug"] for t in response.json()["results"]]


def state(t):
    """Everything an organizer's action could change."""
    t = Tournament.objects.get(pk=t.pk)
    return (
        {name: getattr(t, name) for name in (*services.SETTINGS, "status", "participants")},
        sorted(Entry.objects.filter(tournament=t).values_list("pk", "status")),
        sorted(Round.objects.filter(tournament=t).values_list("number", "status")),
        sorted(
            (tb.round.number, tb.number, tb.entry0_id, tb.entry1_id, tb.match_id)
            for r in t.rounds.all()
            for tb in r.tables.all()
        ),
    )


def body(response) -> bytes:
    """The whole answer, streamed (the exports) or not."""
    return b"".join(response.streaming_content) if response.streaming else response.content


def parse_csv(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(body(response).decode("utf-8"))))


# List and detail ----------------------------------------------------------------------


def test_list_shows_public_tournaments_newest_first(
    anon, public_tournament, private_tournament, open_tournament
):
    body = anon.get(TOURNAMENTS).json()
    assert body["count"] == 2
    assert [t["slug"] for t in body["results"]] == ["summer-cup", "spring-cup"]
    spring = body["results"][1]
    assert spring["name"] == "Spring Cup" and spring["organizer"] == "kafeneio"
    assert (spring["ruleset"], spring["format"], spring["status"], spring["starts_on"]) == (
        "mpourloto",
        "swiss",
        "running",
        "2025-04-12",
    )
    assert spring["tiebreaks"] == ["match_points", "head_to_head", "point_difference", "game_points"]
    assert spring["options"]["deals"] == 1 and spring["public"] is True


def test_list_pages(anon, public_tournament, open_tournament, draft_tournament):
    everything = slugs(anon.get(TOURNAMENTS))
    first = anon.get(TOURNAMENTS, {"limit": 2}).json()
    second = anon.get(first["next"]).json()
    assert [t["slug"] for t in first["results"] + second["results"]] == everything
    assert second["next"] is None and first["count"] == 3


def test_the_organizer_also_lists_its_private_tournaments(
    api, public_tournament, private_tournament, rival, rival_tournament
):
    assert slugs(api("organizer").get(TOURNAMENTS)) == ["secret-cup", "spring-cup"]
    assert slugs(client_for(rival).get(TOURNAMENTS)) == ["rival-cup", "spring-cup"]
    for role in NOT_ORGANIZERS:
        assert slugs(api(role).get(TOURNAMENTS)) == ["spring-cup"]


def test_filter_by_club(anon, public_tournament, open_tournament, rival):
    services.tournament_create(organizer=rival, name="Rival Open")
    assert slugs(anon.get(TOURNAMENTS, {"club": "kafeneio"})) == ["summer-cup", "spring-cup"]
    assert slugs(anon.get(TOURNAMENTS, {"club": "rival"})) == ["rival-open"]
    assert slugs(anon.get(TOURNAMENTS, {"club": "nobody"})) == []


def test_filter_by_ruleset_and_status(anon, public_tournament, open_tournament, draft_tournament):
    assert slugs(anon.get(TOURNAMENTS, {"ruleset": "bulgarian"})) == ["summer-cup"]
    assert slugs(anon.get(TOURNAMENTS, {"ruleset": "pilotta"})) == []
    assert slugs(anon.get(TOURNAMENTS, {"status": "registration"})) == ["summer-cup"]
    assert slugs(anon.get(TOURNAMENTS, {"status": "running"})) == ["autumn-cup", "spring-cup"]
    assert anon.get(TOURNAMENTS, {"ruleset": "poker"}).status_code == 400
    assert anon.get(TOURNAMENTS, {"status": "over"}).status_code == 400


def test_filter_by_dates(anon, public_tournament, open_tournament, draft_tournament):
    # Spring Cup 2025-04-12, Summer Cup 2025-07-20, Autumn Cup 2025-10-04; both ends included.
    assert slugs(anon.get(TOURNAMENTS, {"date_from": "2025-07-20"})) == ["autumn-cup", "summer-cup"]
    assert slugs(anon.get(TOURNAMENTS, {"date_to": "2025-07-20"})) == ["summer-cup", "spring-cup"]
    assert slugs(anon.get(TOURNAMENTS, {"date_from": "2025-05-01", "date_to": "2025-08-01"})) == [
        "summer-cup"
    ]
    assert anon.get(TOURNAMENTS, {"date_from": "spring"}).status_code == 400


def test_filter_by_player(anon, public_tournament, open_tournament, draft_tournament, private_tournament):
    from players.models import Player

    assert slugs(anon.get(TOURNAMENTS, {"player": "Alexis"})) == ["autumn-cup", "spring-cup"]
    assert slugs(anon.get(TOURNAMENTS, {"player": "alexis"})) == ["autumn-cup", "spring-cup"]
    aris = Player.objects.get(name="Aris")
    assert slugs(anon.get(TOURNAMENTS, {"player": str(aris.pk)})) == ["summer-cup"]
    assert slugs(anon.get(TOURNAMENTS, {"player": "Kostas"})) == []  # plays only in a private one


def test_detail(anon, public_tournament):
    response = anon.get(url(public_tournament))
    assert response.status_code == 200
    body = response.json()
    assert body["slug"] == "spring-cup" and body["swiss_rounds"] == 3 and body["started_at"]
    assert anon.get(url(public_tournament), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    assert anon.get(url("no-such-cup")).status_code == 404


READS = [
    "",
    "entries/",
    "rounds/",
    "rounds/1/",
    "standings/",
    "standings.csv",
    "ranking/",
    "ranking.csv",
    "deals.csv",
    "export/",
]


@pytest.mark.parametrize("tail", READS)
def test_a_private_tournament_is_invisible_but_to_its_organizer(api, private_tournament, tail):
    for role in NOT_ORGANIZERS:
        assert api(role).get(url(private_tournament, tail)).status_code == 404, role
    assert api("organizer").get(url(private_tournament, tail)).status_code == 200


@pytest.mark.parametrize("tail", READS)
def test_guessing_another_clubs_private_tournament_gives_404(api, rival, rival_tournament, tail):
    assert api("organizer").get(url(rival_tournament, tail)).status_code == 404
    assert client_for(rival).get(url(rival_tournament, tail)).status_code == 200


# Entries, rounds, tables ---------------------------------------------------------------------


def test_entries(anon, public_tournament):
    entries = anon.get(url(public_tournament, "entries/")).json()
    assert [(e["team"], e["players"], e["status"]) for e in entries] == [
        ("Lions", ["Alexis", "Vaso"], "registered"),
        ("Owls", ["Petros", "Rena"], "registered"),
        ("Foxes", ["Stavros", "Toula"], "registered"),
        ("Bears", ["Yannis", "Zoi"], "registered"),
    ]
    assert [e["id"] for e in entries] == list(
        public_tournament.entries.order_by("pk").values_list("pk", flat=True)
    )


def test_rounds_and_their_tables(anon, public_tournament):
    rounds = anon.get(url(public_tournament, "rounds/")).json()
    assert [(r["number"], r["kind"], r["status"]) for r in rounds] == [
        (1, "swiss", "finished"),
        (2, "swiss", "started"),
    ]
    first = rounds[0]["tables"]
    assert [[side["team"] for side in table["teams"]] for table in first] == [
        ["Lions", "Owls"],
        ["Foxes", "Bears"],
    ]
    assert [(t["match"]["status"], t["match"]["winner"], t["match"]["totals"]) for t in first] == [
        ("finished", 0, [100, 62]),
        ("finished", 1, [62, 100]),
    ]


def test_round_detail_with_tables(anon, public_tournament):
    response = anon.get(url(public_tournament, "rounds/2/"))
    assert response.status_code == 200
    rnd = response.json()
    assert (rnd["number"], rnd["status"], rnd["started_at"] is not None) == (2, "started", True)
    tables = rnd["tables"]
    assert [t["number"] for t in tables] == [1, 2]
    model = public_tournament.rounds.get(number=2)
    for table, stored in zip(tables, model.tables.order_by("number"), strict=True):
        assert [side["entry"] for side in table["teams"]] == [stored.entry0_id, stored.entry1_id]
        assert table["match"] == {
            "id": stored.match_id,
            "status": "in_progress",
            "winner": None,
            "totals": [0, 0],
        }
    # the winners of round 1 meet, and so do its losers
    assert {frozenset(s["team"] for s in t["teams"]) for t in tables} == {
        frozenset({"Lions", "Bears"}),
        frozenset({"Owls", "Foxes"}),
    }
    assert anon.get(url(public_tournament, "rounds/2")).status_code == 200  # the slash is optional
    assert anon.get(url(public_tournament, "rounds/9/")).status_code == 404


def test_a_drawn_round_has_tables_without_matches(anon, draft_tournament):
    rnd = anon.get(url(draft_tournament, "rounds/1/")).json()
    assert rnd["status"] == "draft" and rnd["started_at"] is None
    assert [t["match"] for t in rnd["tables"]] == [None, None]


# Standings and exports --------------------------------------------------------------------


def test_standings_rows_have_every_tie_break_value(anon, public_tournament):
    response = anon.get(url(public_tournament, "standings/"))
    assert response.status_code == 200
    body = response.json()
    assert body["tiebreaks"] == ["match_points", "head_to_head", "point_difference", "game_points"]
    assert body["version"] >= 1 and body["computed_at"] and body["playoffs"] == []
    assert response["Last-Modified"].endswith("GMT")
    rows = body["rows"]
    for row in rows:
        assert set(row["values"]) == set(METRICS)
    by_team = {row["team"]: row for row in rows}
    assert by_team["Lions"] == {
        "entry": by_team["Lions"]["entry"],
        "number": 1,  # the first entered
        "rank": 1,
        "team": "Lions",
        "players": ["Alexis", "Vaso"],
        "withdrawn": False,
        "played": 1,
        "won": 1,
        "drawn": 0,
        "lost": 0,
        "values": {
            "match_points": 2,
            "wins": 1,
            "game_points": 100,
            "points_against": 62,
            "point_difference": 38,
            "head_to_head": 0,
            "buchholz": 0,
            "suffered": 0,
        },
        "penalty": [0, 0],
    }
    assert by_team["Owls"]["values"] == {
        "match_points": 0,
        "wins": 0,
        "game_points": 62,
        "points_against": 100,
        "point_difference": -38,
        "head_to_head": 0,
        "buchholz": 2,  # its opponent, Lions, has 2 match points
        "suffered": 0,
    }
    assert [row["rank"] for row in rows] == [1, 1, 3, 3]
    assert {rows[0]["team"], rows[1]["team"]} == {"Lions", "Bears"}


def test_standings_before_the_start_are_empty(anon, open_tournament):
    body = anon.get(url(open_tournament, "standings/")).json()
    assert (body["rows"], body["version"], body["computed_at"]) == ([], 0, None)


def test_standings_csv(anon, public_tournament):
    response = anon.get(url(public_tournament, "standings.csv"))
    assert 'filename="spring-cup-standings.csv"' in response["Content-Disposition"]
    rows = parse_csv(response)
    assert rows[0] == [
        "rank",
        "team",
        "player_a",
        "player_b",
        "played",
        "won",
        "drawn",
        "lost",
        "withdrawn",
        "match_points",
        "wins",
        "game_points",
        "points_against",
        "point_difference",
        "head_to_head",
        "buchholz",
        "suffered",
    ]
    assert len(rows) == 5
    owls = next(r for r in rows if r[1] == "Owls")
    assert owls[:8] == ["3", "Owls", "Petros", "Rena", "1", "0", "0", "1"]
    assert owls[8].lower() in ("false", "0", "no", "")
    assert owls[9:] == ["0", "0", "62", "100", "-38", "0", "2", "0"]
    assert anon.get(url(public_tournament, "standings.csv/")).status_code == 200


def test_deals_csv(anon, public_tournament):
    response = anon.get(url(public_tournament, "deals.csv"))
    assert 'filename="spring-cup-deals.csv"' in response["Content-Disposition"]
    rows = parse_csv(response)
    assert rows[0] == [
        "round",
        "table",
        "match",
        "team_0",
        "team_1",
        "deal",
        "dealer",
        "result",
        "maker",
        "card_points_0",
        "card_points_1",
        "last_trick",
        "capot",
        "melds_0",
        "melds_1",
        "belote_0",
        "belote_1",
        "contract",
        "score_0",
        "score_1",
        "total_0",
        "total_1",
    ]
    assert len(rows) == 3  # one deal at each table of round 1; round 2 has none yet
    first_match = public_tournament.rounds.get(number=1).tables.get(number=1).match_id
    # round, table, match, teams, deal 1 dealt by seat 0, made by team 0: 90 + 10 against 62
    assert rows[1] == [
        *("1", "1", str(first_match), "Lions", "Owls", "1", "0", "made"),
        *("0", "90", "62", "0", "", "", "", "0", "0", ""),
        *("100", "62", "100", "62"),
    ]
    assert rows[2][:5] == ["1", "2", rows[2][2], "Foxes", "Bears"]
    assert rows[2][-4:] == ["62", "100", "62", "100"]


def test_deals_csv_with_a_contract_and_melds(anon, organizer):
    from scoring import services as scoring

    from .conftest import round_next, tournament

    t = tournament(organizer, "Pilotta Night", [("A", ("a1", "a2")), ("B", ("b1", "b2"))], ruleset="pilotta")
    t = services.tournament_start(tournament=t, user=organizer)
    match = round_next(t, organizer).tables.get().match
    deal = {
        "maker": 1,
        "contract": {"suit": "spades", "bid": 110, "multiplier": 2},
        "card_points": [0, 152],
        "capot": 1,
        "melds": [[], ["fourJ", "seq4"]],
        "belote": [0, 1],
    }
    scoring.deal_record(match=match, deal=deal)
    rows = parse_csv(anon.get(url(t, "deals.csv")))
    row = dict(zip(rows[0], rows[1], strict=True))
    assert (row["maker"], row["card_points_0"], row["card_points_1"], row["capot"], row["last_trick"]) == (
        "1",
        "0",
        "152",
        "1",
        "",
    )
    assert (row["melds_0"], row["melds_1"], row["belote_0"], row["belote_1"]) == ("", "fourJ seq4", "0", "1")
    assert row["contract"] == "110 spades 2"
    sheet = engine.replay("pilotta", [engine.Deal.from_dict(deal)], options=match.options).to_dict()
    assert [int(row["score_0"]), int(row["score_1"])] == sheet["deals"][0]["scores"]


def test_export_is_the_whole_tournament_in_one_document(anon, public_tournament):
    response = anon.get(url(public_tournament, "export/"))
    assert response.status_code == 200
    assert 'filename="spring-cup.json"' in response["Content-Disposition"]
    assert response["Content-Type"] == "application/json"
    document = json.loads(body(response))
    assert set(document) == {"tournament", "entries", "rounds", "standings", "ranking", "prizes", "matches"}
    assert document["tournament"] == anon.get(url(public_tournament)).json()
    assert document["entries"] == anon.get(url(public_tournament, "entries/")).json()
    assert document["rounds"] == anon.get(url(public_tournament, "rounds/")).json()
    assert document["standings"] == anon.get(url(public_tournament, "standings/")).json()["rows"]
    tables = [t for r in document["rounds"] for t in r["tables"]]
    assert sorted(document["matches"]) == sorted(str(t["match"]["id"]) for t in tables)
    for match_id, match in document["matches"].items():
        sheet = match.pop("sheet")
        assert engine.load_match(match).sheet().to_dict() == sheet
        assert sheet == anon.get(f"/api/v1/matches/{match_id}/sheet/").json()


# Create and change ------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["player", "scorekeeper", "organizer", "club_writer"])
def test_a_write_enabled_user_creates_a_tournament_and_organizes_it(api, users, role):
    client = api(role)
    response = client.post(
        TOURNAMENTS,
        {"name": "Winter Cup", "ruleset": "french", "format": "round_robin", "public": False, "cuts": [3, 1]},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["slug"], body["organizer"], body["status"], body["cuts"]) == (
        "winter-cup",
        users[role].username,
        "registration",
        [1, 3],
    )
    t = Tournament.objects.get(slug="winter-cup")
    assert t.organizer == users[role] and t.public is False
    assert client.patch(url(t), {"name": "Winter Cup 2025"}, format="json").status_code == 200


def test_create_needs_a_user_with_writes(api, users):
    assert api("anonymous").post(TOURNAMENTS, {"name": "X"}, format="json").status_code in (401, 403)
    assert api("club_reader").post(TOURNAMENTS, {"name": "X"}, format="json").status_code == 403
    assert Tournament.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "X", "ruleset": "poker"}, "ruleset"),
        ({"name": "X", "format": "ladder"}, "format"),
        ({"name": "X", "tiebreaks": ["luck"]}, "tiebreaks"),
        ({"name": "X", "swiss_rounds": 0}, "swiss_rounds"),
        ({"name": "X", "points_win": -1}, "points_win"),
        ({"name": "X", "cuts": [0]}, "cuts"),
        ({"name": "X", "starts_on": "next spring"}, "starts_on"),
        ({"name": "X", "options": {"target": 0}}, None),  # None: the request as a whole
        ({"name": "X", "knockout_size": 1}, None),
        ({"name": "X", "tiebreaks": ["head_to_head"]}, None),
    ],
    ids=[
        "no-name",
        "blank-name",
        "unknown-ruleset",
        "unknown-format",
        "unknown-tiebreak",
        "no-rounds",
        "negative-points",
        "bad-cut",
        "bad-date",
        "bad-option",
        "knockout-of-one",
        "group-tiebreak-first",
    ],
)
def test_create_refuses_bad_input(api, users, body, field):
    response = api("player").post(TOURNAMENTS, body, format="json")
    assert field in fields(problem(response, 400)), response.json()
    assert Tournament.objects.count() == 0


def test_patch_before_the_start(api, open_tournament):
    client = api("organizer")
    response = client.patch(
        url(open_tournament),
        {
            "name": "Summer Cup 2025",
            "points_win": 3,
            "tiebreaks": ["match_points", "buchholz"],
            "public": False,
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["name"], body["points_win"], body["tiebreaks"], body["public"]) == (
        "Summer Cup 2025",
        3,
        ["match_points", "buchholz"],
        False,
    )
    assert body["slug"] == "summer-cup" and body["ruleset"] == "bulgarian"  # the rest stays
    t = Tournament.objects.get(pk=open_tournament.pk)
    assert (t.name, t.points_win, t.public) == ("Summer Cup 2025", 3, False)
    assert client.patch(url(open_tournament), {"points_win": 99}, format="json").status_code == 400
    assert client.patch(url(open_tournament), {"tiebreaks": ["luck"]}, format="json").status_code == 400


def test_patch_the_ruleset_alone(api, open_tournament):
    response = api("organizer").patch(url(open_tournament), {"ruleset": "pilotta"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["ruleset"] == "pilotta"


def test_patch_the_ruleset_with_its_options(api, open_tournament):
    response = api("organizer").patch(
        url(open_tournament), {"ruleset": "pilotta", "options": {"target": 151}}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["options"]["target"] == 151


def test_a_target_no_match_can_hold_is_refused_at_set_up(api, users):
    client = api("organizer")
    client.raise_request_exception = False
    created = client.post(TOURNAMENTS, {"name": "Endless", "options": {"target": 2**63}}, format="json")
    if created.status_code == 400:
        return  # refused at set-up: fixed
    slug = created.json()["slug"]
    for name in ("A", "B"):
        client.post(url(slug, "entries/"), {"name": name, "players": [f"{name}1", f"{name}2"]}, format="json")
    client.post(url(slug, "start/"))
    client.post(url(slug, "rounds/"))
    assert client.post(url(slug, "rounds/1/start/")).status_code == 200


def test_patch_is_refused_after_the_start(api, public_tournament):
    before = state(public_tournament)
    response = api("organizer").patch(url(public_tournament), {"tiebreaks": ["wins"]}, format="json")
    assert "started" in problem(response, 400)["detail"]
    assert state(public_tournament) == before


def test_put_and_delete_are_not_offered(api, open_tournament):
    client = api("organizer")
    assert client.put(url(open_tournament), {"name": "X"}, format="json").status_code == 405
    assert client.delete(url(open_tournament)).status_code == 405
    assert Tournament.objects.filter(pk=open_tournament.pk).exists()


# Entries, start, rounds: the organizer ---------------------------------------------------------


def test_the_organizer_enters_a_team(api, open_tournament):
    client = api("organizer")
    response = client.post(
        url(open_tournament, "entries/"), {"name": "Dolphins", "players": ["Eva", "Filippos"]}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["team"], body["players"], body["status"]) == ("Dolphins", ["Eva", "Filippos"], "registered")
    assert open_tournament.entries.count() == 3
    team = open_tournament.entries.get(pk=body["id"]).team
    ids = [team.player_a_id, team.player_b_id]  # the same people again: picked by id, not by name
    again = client.post(
        url(open_tournament, "entries/"),
        {"name": "Dolphins", "players": ["Eva", "Filippos"], "player_ids": ids},
        format="json",
    )
    assert "already entered" in problem(again, 400)["detail"]
    clash = client.post(
        url(open_tournament, "entries/"),
        {"name": "Whales", "players": ["Eva", "Gina"], "player_ids": [ids[0], None]},
        format="json",
    )
    assert "already plays" in problem(clash, 400)["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Eva", "Filippos"]}, "name"),
        ({"name": "Solo", "players": ["Eva"]}, "players"),
        ({"name": "Trio", "players": ["Eva", "Filippos", "Gina"]}, "players"),
        ({"name": "Twins", "players": ["Eva", "eva"]}, None),
        ({"name": "Blank", "players": ["Eva", " "]}, "players"),
    ],
    ids=["no-name", "one-player", "three-players", "same-player-twice", "blank-player"],
)
def test_a_bad_entry_is_400(api, open_tournament, body, field):
    response = api("organizer").post(url(open_tournament, "entries/"), body, format="json")
    assert field in fields(problem(response, 400))
    assert open_tournament.entries.count() == 2


def test_an_entry_after_the_start_is_a_late_entry(api, public_tournament):
    response = api("organizer").post(
        url(public_tournament, "entries/"), {"name": "Late", "players": ["L1", "L2"]}, format="json"
    )
    assert response.status_code == 201 and response.json()["joined_round"] == 3  # rounds 1 and 2 drawn
    public_tournament.refresh_from_db()
    assert response.json()["id"] in public_tournament.participants


def test_entry_status(api, open_tournament):
    client = api("organizer")
    entry = open_tournament.entries.order_by("pk").first()
    response = client.post(
        url(open_tournament, f"entries/{entry.pk}/status/"), {"status": "checked_in"}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "checked_in"
    entry.refresh_from_db()
    assert entry.status == "checked_in"
    assert (
        client.post(
            url(open_tournament, f"entries/{entry.pk}/status/"), {"status": "pending"}, format="json"
        ).status_code
        == 400
    )
    assert (
        client.post(url(open_tournament, f"entries/{entry.pk}/status/"), {}, format="json").status_code == 400
    )
    assert (
        client.post(
            url(open_tournament, "entries/999999/status/"), {"status": "checked_in"}, format="json"
        ).status_code
        == 404
    )
    withdrawn = client.post(
        url(open_tournament, f"entries/{entry.pk}/status/"), {"status": "withdrawn"}, format="json"
    )
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn_at"]
    assert (
        client.post(
            url(open_tournament, f"entries/{entry.pk}/status/"), {"status": "registered"}, format="json"
        ).status_code
        == 400
    )


def test_after_the_start_only_a_withdrawal_changes_an_entry(api, public_tournament):
    client = api("organizer")
    entry = public_tournament.entries.order_by("pk").first()
    refused = client.post(
        url(public_tournament, f"entries/{entry.pk}/status/"), {"status": "checked_in"}, format="json"
    )
    assert refused.status_code == 400
    assert (
        client.post(
            url(public_tournament, f"entries/{entry.pk}/status/"), {"status": "withdrawn"}, format="json"
        ).status_code
        == 200
    )


def test_an_entry_of_another_tournament_is_404(api, open_tournament, public_tournament, rival_tournament):
    client = api("organizer")
    for other in (public_tournament, rival_tournament):
        entry = other.entries.first()
        response = client.post(
            url(open_tournament, f"entries/{entry.pk}/status/"), {"status": "withdrawn"}, format="json"
        )
        assert response.status_code == 404
        assert Entry.objects.get(pk=entry.pk).status == "registered"


def test_start(api, open_tournament):
    client = api("organizer")
    response = client.post(url(open_tournament, "start/"))
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "running" and response.json()["started_at"]
    t = Tournament.objects.get(pk=open_tournament.pk)
    assert sorted(t.participants) == sorted(open_tournament.entries.values_list("pk", flat=True))
    again = client.post(url(open_tournament, "start/"))
    assert "already started" in problem(again, 400)["detail"]


def test_start_needs_two_teams(api, organizer):
    from .conftest import tournament

    lonely = tournament(organizer, "Lonely Cup", [("Only", ("O1", "O2"))])
    response = api("organizer").post(url(lonely, "start/"))
    assert "two teams" in problem(response, 400)["detail"]
    assert Tournament.objects.get(pk=lonely.pk).status == "registration"


def test_draw_a_round(api, open_tournament):
    client = api("organizer")
    assert client.post(url(open_tournament, "rounds/")).status_code == 400  # not started yet
    client.post(url(open_tournament, "start/"))
    response = client.post(url(open_tournament, "rounds/"))
    assert response.status_code == 201, response.content
    rnd = response.json()
    assert (rnd["number"], rnd["kind"], rnd["status"]) == (1, "swiss", "draft")
    assert [[s["team"] for s in t["teams"]] for t in rnd["tables"]] == [["Sharks", "Eagles"]]
    again = client.post(url(open_tournament, "rounds/"))
    assert "not finished" in problem(again, 400)["detail"]
    assert open_tournament.rounds.count() == 1


def test_swap_two_teams_of_a_drawn_round(api, draft_tournament):
    client = api("organizer")
    before = client.get(url(draft_tournament, "rounds/1/")).json()["tables"]
    a, b = before[0]["teams"][0], before[1]["teams"][1]
    response = client.post(
        url(draft_tournament, "rounds/1/swap/"), {"first": [1, 0], "second": [2, 1]}, format="json"
    )
    assert response.status_code == 200, response.content
    after = response.json()["tables"]
    assert after[0]["teams"][0] == b and after[1]["teams"][1] == a
    assert after[0]["teams"][1] == before[0]["teams"][1] and after[1]["teams"][0] == before[1]["teams"][0]
    assert client.get(url(draft_tournament, "rounds/1/")).json()["tables"] == after


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"first": [9, 0], "second": [1, 0]}, None),
        ({"first": [1, 2], "second": [2, 0]}, None),
        ({"first": [1], "second": [2, 0]}, "first"),
        ({"first": [1, 0]}, "second"),
        ({"first": [1, -1], "second": [2, 0]}, "first"),
        ({"first": "1,0", "second": [2, 0]}, "first"),
    ],
    ids=["no-such-table", "no-such-side", "short", "missing", "negative", "not-a-list"],
)
def test_a_bad_swap_is_400(api, draft_tournament, body, field):
    before = state(draft_tournament)
    response = api("organizer").post(url(draft_tournament, "rounds/1/swap/"), body, format="json")
    assert field in fields(problem(response, 400))
    assert state(draft_tournament) == before


def test_a_swap_after_the_round_started_is_400(api, public_tournament):
    before = state(public_tournament)
    response = api("organizer").post(
        url(public_tournament, "rounds/2/swap/"), {"first": [1, 0], "second": [2, 0]}, format="json"
    )
    assert "fixed" in problem(response, 400)["detail"]
    assert state(public_tournament) == before
    assert (
        api("organizer")
        .post(url(public_tournament, "rounds/7/swap/"), {"first": [1, 0], "second": [2, 0]}, format="json")
        .status_code
        == 404
    )


def test_start_a_round(api, draft_tournament, organizer):
    client = api("organizer")
    response = client.post(url(draft_tournament, "rounds/1/start/"))
    assert response.status_code == 200, response.content
    rnd = response.json()
    assert rnd["status"] == "started" and rnd["started_at"]
    matches = [t["match"] for t in rnd["tables"]]
    assert all(m is not None and m["status"] == "in_progress" for m in matches)
    for m in matches:
        match = Match.objects.get(pk=m["id"])
        assert match.options["deals"] == 1 and organizer in match.keepers.all()
    again = client.post(url(draft_tournament, "rounds/1/start/"))
    assert "already started" in problem(again, 400)["detail"]
    assert client.post(url(draft_tournament, "rounds/5/start/")).status_code == 404


# Everything an organizer does, refused to everyone else ----------------------------------------------


ACTIONS = {
    "patch": ("patch", "", {"name": "Taken over"}),
    "enter": ("post", "entries/", {"name": "Intruders", "players": ["I1", "I2"]}),
    "entry-status": ("post", "entries/{entry}/status/", {"status": "withdrawn"}),
    "start": ("post", "start/", None),
    "draw": ("post", "rounds/", None),
    "swap": ("post", "rounds/1/swap/", {"first": [1, 0], "second": [2, 1]}),
    "round-start": ("post", "rounds/1/start/", None),
}


def act(client, t, action):
    method, tail, body = ACTIONS[action]
    path = url(t, tail.format(entry=t.entries.order_by("pk").first().pk))
    return getattr(client, method)(path, body, format="json")


@pytest.mark.parametrize("action", list(ACTIONS))
@pytest.mark.parametrize("role", NOT_ORGANIZERS)
def test_organizer_actions_are_refused_to_others(api, open_tournament, draft_tournament, role, action):
    t = draft_tournament if action in ("swap", "round-start", "draw") else open_tournament
    before = state(t)
    response = act(api(role), t, action)
    assert response.status_code in ((401, 403) if role == "anonymous" else (403,)), response.content
    assert state(t) == before


@pytest.mark.parametrize("action", list(ACTIONS))
def test_organizer_actions_on_a_private_tournament_tell_nothing_to_others(
    api, users, private_tournament, action
):
    """Signed-in writers get 404, as for a slug that does not exist; anonymous users and read-only
    clubs are refused every write before any look-up (401 / 403, whatever the slug)."""
    before = state(private_tournament)
    method, tail, body = ACTIONS[action]
    for role in NOT_ORGANIZERS:
        response = act(api(role), private_tournament, action)
        expected = {"anonymous": (401, 403), "club_reader": (403,)}.get(role, (404,))
        assert response.status_code in expected, (role, response.content)
        nowhere = getattr(api(role), method)(url("no-such-cup", tail.format(entry=1)), body, format="json")
        assert nowhere.status_code == response.status_code, role
    assert state(private_tournament) == before


@pytest.mark.parametrize("action", list(ACTIONS))
def test_another_organizer_guessing_a_private_tournament_gets_404(api, rival_tournament, action):
    before = state(rival_tournament)
    assert act(api("organizer"), rival_tournament, action).status_code == 404
    assert state(rival_tournament) == before


@pytest.mark.parametrize("action", list(ACTIONS))
def test_another_organizer_is_refused_a_public_tournament(public_tournament, rival, action):
    before = state(public_tournament)
    assert act(client_for(rival), public_tournament, action).status_code == 403
    assert state(public_tournament) == before


# The whole evening through the API, with the standings task on commit ------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_tournament_from_creation_to_final_standings(api, users):
    client = api("organizer")
    slug = client.post(
        TOURNAMENTS, {"name": "Club Night", "swiss_rounds": 1, "deals_per_match": 1}, format="json"
    ).json()["slug"]
    for name, players in [
        ("North", ["N1", "N2"]),
        ("South", ["S1", "S2"]),
        ("East", ["E1", "E2"]),
        ("West", ["W1", "W2"]),
    ]:
        assert (
            client.post(url(slug, "entries/"), {"name": name, "players": players}, format="json").status_code
            == 201
        )
    assert client.post(url(slug, "start/")).status_code == 200
    assert client.post(url(slug, "rounds/")).status_code == 201
    assert (
        client.post(
            url(slug, "rounds/1/swap/"), {"first": [1, 1], "second": [2, 1]}, format="json"
        ).status_code
        == 200
    )
    tables = client.post(url(slug, "rounds/1/start/")).json()["tables"]
    assert [[s["team"] for s in t["teams"]] for t in tables] == [["North", "West"], ["East", "South"]]
    standings = client.get(url(slug, "standings/")).json()
    assert [row["played"] for row in standings["rows"]] == [0, 0, 0, 0]  # computed on commit, all level
    for table, deal in zip(tables, [WIN_0, WIN_1], strict=True):
        response = client.post(f"/api/v1/matches/{table['match']['id']}/deals/", deal, format="json")
        assert response.status_code == 201
    standings = client.get(url(slug, "standings/")).json()
    rows = standings["rows"]  # North beat West 100-62, South beat East 100-62
    assert [row["rank"] for row in rows] == [1, 1, 3, 3]
    assert {row["team"] for row in rows[:2]} == {"North", "South"}
    assert {row["team"]: row["values"]["match_points"] for row in rows} == {
        "North": 2,
        "South": 2,
        "East": 0,
        "West": 0,
    }
    assert all(set(row["values"]) == set(METRICS) for row in rows)
    assert client.get(url(slug)).json()["status"] == "finished"  # its only round is over
    assert [r["status"] for r in client.get(url(slug, "rounds/")).json()] == ["finished"]
    csv_rows = parse_csv(client.get(url(slug, "standings.csv")))
    assert {r[1] for r in csv_rows[1:3]} == {"North", "South"}


def test_exports_stream_the_same_document_read_in_batches(anon, public_tournament, monkeypatch):
    """The exports read the tables a batch at a time: batches of one give the same answers."""
    whole = {name: body(anon.get(url(public_tournament, name))) for name in ("deals.csv", "export/")}
    monkeypatch.setattr("tournaments.api.exports.TABLES_A_BATCH", 1)
    for name, expected in whole.items():
        response = anon.get(url(public_tournament, name))
        assert response.streaming and body(response) == expected, name
    json.loads(whole["export/"])  # and it is one JSON document


def test_exports_read_every_matchs_deals_in_one_query(anon, public_tournament, django_assert_max_num_queries):
    """The deals CSV and the JSON export do not ask the database once per match (4 matches here:
    reading each one's deals apart would take 4 queries more)."""
    for name, most in (("deals.csv", 5), ("export", 11)):  # export: +1, the prize settings (none here)
        with django_assert_max_num_queries(most):
            response = anon.get(url(public_tournament, name))
            assert response.status_code == 200 and body(response)
