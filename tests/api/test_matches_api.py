"""/api/v1/matches/: list, detail, sheet, match file, create, import, deals, finish."""

import datetime

import pytest
from rest_framework.test import APIClient

from players.models import Player, Team
from scoring import engine
from scoring import services as scoring
from scoring.models import Deal, Match
from tests.factories import TEAMS, made
from tests.problems import attrs, fields, kind, problem

from .conftest import MATCH_DEALS, WIN_0, WIN_1

pytestmark = pytest.mark.django_db

MATCHES = "/api/v1/matches/"
NEW_TEAMS = [
    {"name": "Kafeneio C", "players": ["Olga", "Pavlos"]},
    {"name": "Kafeneio D", "players": ["Rea", "Sotiris"]},
]
MATCH_FILE = {
    "ruleset": "mpourloto",
    "options": {"target": 1000, "ties_hang": False},
    "teams": NEW_TEAMS,
    "first_dealer": 0,
    "deals": MATCH_DEALS,
}
PILOTTA_WIN = {
    "maker": 0,
    "contract": {"suit": "hearts", "bid": 80, "multiplier": 1},
    "card_points": [90, 62],
    "last_trick": 0,
}
# The standalone match's sheet, worked out by hand (FORMAT.md, "the score sheet"): a throw-in,
# 90 + 10 (last trick) + 20 (seq3) = 120 against 62, then 62 against 90 + 10 = 100.
STANDALONE_SHEET = {
    "scores": [[0, 0], [120, 62], [62, 100]],
    "results": ["thrown_in", "made", "made"],
    "totals": [[0, 0], [120, 62], [182, 162]],
    "dealers": [0, 1, 2],
}


def url(match, tail=""):
    return f"{MATCHES}{match.pk}/{tail}"


def ids(response):
    return [m["id"] for m in response.json()["results"]]


def tournament_match(tournament, round_number=1, table=1):
    return tournament.rounds.get(number=round_number).tables.get(number=table).match


# List ----------------------------------------------------------------------------------


def test_list_is_public_paginated_and_newest_first(anon, standalone, public_tournament):
    body = anon.get(MATCHES).json()
    assert body["count"] == 5  # the standalone match and the public tournament's four
    assert {"count", "next", "previous", "results"} <= set(body)
    listed = [m["id"] for m in body["results"]]
    assert listed == sorted(listed, reverse=True)
    row = next(m for m in body["results"] if m["id"] == standalone.pk)
    assert row["teams"] == [
        {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
        {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]},
    ]
    assert (row["status"], row["winner"], row["totals"], row["tournament"]) == (
        "in_progress",
        None,
        [182, 162],
        None,
    )
    assert "deals" not in row  # the list stays light: deals and sheet are on the detail


def test_pages_follow_each_other_without_gaps_or_repeats(anon, standalone, public_tournament):
    everything = ids(anon.get(MATCHES))
    first = anon.get(MATCHES, {"limit": 2}).json()
    assert len(first["results"]) == 2 and first["previous"] is None
    assert "limit=2" in first["next"] and "offset=2" in first["next"]
    seen, page = [], first
    while True:
        seen += [m["id"] for m in page["results"]]
        if page["next"] is None:
            break
        page = anon.get(page["next"]).json()
    assert seen == everything and len(set(seen)) == 5
    assert ids(anon.get(MATCHES, {"limit": 2, "offset": 4})) == everything[4:]
    assert ids(anon.get(MATCHES, {"limit": 2})) == ids(anon.get(MATCHES, {"limit": 2}))  # stable


def test_filter_by_ruleset(anon, standalone, scorekeeper):
    pilotta = scoring.match_create(teams=TEAMS, ruleset="pilotta", created_by=scorekeeper)
    assert ids(anon.get(MATCHES, {"ruleset": "pilotta"})) == [pilotta.pk]
    assert ids(anon.get(MATCHES, {"ruleset": "mpourloto"})) == [standalone.pk]
    assert ids(anon.get(MATCHES, {"ruleset": "french"})) == []
    bad = anon.get(MATCHES, {"ruleset": "poker"})
    assert fields(problem(bad, 400)) == {"ruleset"}


def test_filter_by_status(anon, standalone, public_tournament):
    round1 = {t.match_id for t in public_tournament.rounds.get(number=1).tables.all()}
    assert set(ids(anon.get(MATCHES, {"status": "finished"}))) == round1
    assert standalone.pk in ids(anon.get(MATCHES, {"status": "in_progress"}))
    assert anon.get(MATCHES, {"status": "lost"}).status_code == 400


def test_filter_by_player_name_or_id(anon, standalone, public_tournament):
    assert ids(anon.get(MATCHES, {"player": "Nikos"})) == [standalone.pk]
    assert ids(anon.get(MATCHES, {"player": "nikos"})) == [standalone.pk]  # the name in any case
    alexis = Player.objects.get(name="Alexis")
    by_id = ids(anon.get(MATCHES, {"player": str(alexis.pk)}))
    assert len(by_id) == 2  # Lions played round 1 and play round 2
    assert by_id == ids(anon.get(MATCHES, {"player": "Alexis"}))
    assert ids(anon.get(MATCHES, {"player": "Nobody"})) == []


def test_filter_by_creation_time(anon, standalone, public_tournament):
    Match.objects.filter(pk=standalone.pk).update(
        created_at=datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    )
    since = anon.get(MATCHES, {"created_after": "2021-01-01T00:00:00Z"})
    assert standalone.pk not in ids(since) and since.json()["count"] == 4
    assert ids(anon.get(MATCHES, {"created_before": "2021-01-01T00:00:00Z"})) == [standalone.pk]
    assert anon.get(MATCHES, {"created_after": "last tuesday"}).status_code == 400


def test_filter_by_tournament(anon, standalone, public_tournament):
    theirs = {t.match_id for r in public_tournament.rounds.all() for t in r.tables.all()}
    listed = anon.get(MATCHES, {"tournament": public_tournament.slug}).json()["results"]
    assert {m["id"] for m in listed} == theirs and len(theirs) == 4
    assert {m["tournament"] for m in listed} == {"spring-cup"}


def test_a_private_tournaments_matches_are_not_listed(api, standalone, private_tournament):
    hidden = tournament_match(private_tournament)
    for role in ("anonymous", "player", "scorekeeper", "club_reader"):
        client = api(role)
        assert hidden.pk not in ids(client.get(MATCHES))
        assert ids(client.get(MATCHES, {"tournament": private_tournament.slug})) == []
        assert client.get(url(hidden)).status_code == 404
        assert client.get(url(hidden, "sheet/")).status_code == 404
        assert client.get(url(hidden, "file/")).status_code == 404


def test_the_organizer_sees_the_matches_of_a_private_tournament(api, private_tournament):
    mine = tournament_match(private_tournament)
    organizer = api("organizer")
    assert organizer.get(url(mine)).status_code == 200
    assert ids(organizer.get(MATCHES, {"tournament": private_tournament.slug})) == [mine.pk]


# Detail, sheet, match file ---------------------------------------------------------------


def test_detail_has_deals_in_the_format_shape_and_the_sheet(anon, standalone):
    response = anon.get(url(standalone))
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == standalone.pk and body["ruleset"] == "mpourloto"
    assert body["options"]["target"] == 1000 and body["first_dealer"] == 0
    deals = body["deals"]
    stored = list(standalone.deals.order_by("position"))
    assert [d["id"] for d in deals] == [d.pk for d in stored]
    assert [d["number"] for d in deals] == [1, 2, 3]
    for got, sent in zip(deals, MATCH_DEALS, strict=True):
        assert {k: v for k, v in got.items() if k not in ("id", "number", "entered_at")} == sent
    sheet = body["sheet"]
    assert [row["scores"] for row in sheet["deals"]] == STANDALONE_SHEET["scores"]
    assert [row["result"] for row in sheet["deals"]] == STANDALONE_SHEET["results"]
    assert [row["totals"] for row in sheet["deals"]] == STANDALONE_SHEET["totals"]
    assert [row["dealer"] for row in sheet["deals"]] == STANDALONE_SHEET["dealers"]
    assert (sheet["totals"], sheet["held"], sheet["status"], sheet["winner"], sheet["next_dealer"]) == (
        [182, 162],
        0,
        "in_progress",
        None,
        3,
    )
    replayed = engine.replay("mpourloto", [engine.Deal.from_dict(d) for d in MATCH_DEALS])
    assert sheet == replayed.to_dict()


def test_detail_of_an_unknown_match_is_404(anon, db):
    assert anon.get(f"{MATCHES}999999/").status_code == 404
    assert anon.get(f"{MATCHES}abc/").status_code == 404


def test_detail_has_an_etag_and_answers_304_until_it_changes(anon, standalone, scorekeeper):
    first = anon.get(url(standalone))
    etag = first["ETag"]
    assert etag
    again = anon.get(url(standalone), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    scoring.deal_record(match=standalone, deal=WIN_0, user=scorekeeper)
    changed = anon.get(url(standalone), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert len(changed.json()["deals"]) == 4


def test_detail_has_last_modified(anon, standalone):
    response = anon.get(url(standalone))
    last_modified = response["Last-Modified"]
    assert last_modified.endswith("GMT")
    standalone.refresh_from_db()
    assert last_modified == datetime.datetime.fromtimestamp(
        int(standalone.updated_at.timestamp()), datetime.UTC
    ).strftime("%a, %d %b %Y %H:%M:%S GMT")
    assert anon.get(url(standalone), HTTP_IF_MODIFIED_SINCE=last_modified).status_code == 304


def test_list_has_an_etag_too(anon, standalone):
    etag = anon.get(MATCHES)["ETag"]
    assert anon.get(MATCHES, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_sheet_is_the_format_output(anon, standalone):
    response = anon.get(url(standalone, "sheet/"))
    assert response.status_code == 200
    sheet = response.json()
    assert sheet == anon.get(url(standalone)).json()["sheet"]
    assert {"deals", "totals", "held", "status", "winner", "next_dealer"} <= set(sheet)
    assert {"scores", "result", "totals", "dealer"} <= set(sheet["deals"][0])


def test_deals_list_in_playing_order(anon, standalone):
    deals = anon.get(url(standalone, "deals/")).json()
    assert [d["number"] for d in deals] == [1, 2, 3]
    assert deals[0] == {
        **MATCH_DEALS[0],
        "id": deals[0]["id"],
        "number": 1,
        "entered_at": deals[0]["entered_at"],
    }


def test_match_file_replays_to_the_same_sheet(anon, standalone):
    response = anon.get(url(standalone, "file/"))
    assert response.status_code == 200
    assert f'filename="match-{standalone.pk}.json"' in response["Content-Disposition"]
    document = response.json()
    assert document["teams"] == [
        {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
        {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]},
    ]
    assert (document["ruleset"], document["first_dealer"], document["deals"]) == ("mpourloto", 0, MATCH_DEALS)
    sheet = anon.get(url(standalone, "sheet/")).json()
    assert engine.load_match(document).sheet().to_dict() == sheet


def test_match_file_leaves_deleted_deals_out(anon, standalone, scorekeeper):
    scoring.deal_delete(deal=standalone.deals.get(position=2), user=scorekeeper)
    document = anon.get(url(standalone, "file/")).json()
    assert document["deals"] == [MATCH_DEALS[0], MATCH_DEALS[2]]
    assert engine.load_match(document).sheet().to_dict() == anon.get(url(standalone, "sheet/")).json()


def test_match_file_imports_back_to_the_same_sheet(api, standalone):
    client = api("club_writer")
    document = client.get(url(standalone, "file/")).json()
    copy = client.post(f"{MATCHES}import/", document, format="json")
    assert copy.status_code == 201
    assert copy.json()["sheet"] == client.get(url(standalone, "sheet/")).json()


# Create ----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["player", "scorekeeper", "organizer", "club_writer"])
def test_a_write_enabled_user_creates_a_match_and_keeps_it(api, users, role):
    response = api(role).post(
        MATCHES, {"ruleset": "pilotta", "teams": NEW_TEAMS, "first_dealer": 1}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    match = Match.objects.get(pk=body["id"])
    assert list(match.keepers.all()) == [users[role]]
    assert (body["ruleset"], body["first_dealer"], body["deals"], body["status"]) == (
        "pilotta",
        1,
        [],
        "in_progress",
    )
    assert body["teams"] == NEW_TEAMS
    assert body["sheet"]["totals"] == [0, 0] and body["sheet"]["next_dealer"] == 1
    deal = api(role).post(url(match, "deals/"), PILOTTA_WIN, format="json")
    assert deal.status_code == 201  # the creator may record its deals


def test_create_defaults_to_mpourloto_and_spells_every_option(api, users):
    body = api("player").post(MATCHES, {"teams": NEW_TEAMS}, format="json").json()
    assert body["ruleset"] == "mpourloto" and body["first_dealer"] == 0
    assert body["options"]["target"] == 1000 and "ties_hang" in body["options"]


def test_create_with_options(api, users):
    body = (
        api("player")
        .post(MATCHES, {"teams": NEW_TEAMS, "options": {"target": 501, "ties_hang": True}}, format="json")
        .json()
    )
    assert (body["options"]["target"], body["options"]["ties_hang"]) == (501, True)
    assert Match.objects.get(pk=body["id"]).target == 501


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"teams": NEW_TEAMS[:1]}, "teams"),
        ({"teams": [*NEW_TEAMS, NEW_TEAMS[0]]}, "teams"),
        ({"teams": [NEW_TEAMS[0], {"name": "Solo", "players": ["Olga"]}]}, "teams"),
        ({"teams": [NEW_TEAMS[0], {"name": "", "players": ["X", "Y"]}]}, "teams"),
        ({"teams": [NEW_TEAMS[0], {"name": "Twins", "players": ["Olga", "Y"]}]}, "teams"),
        ({"teams": None}, "teams"),
        ({"ruleset": "poker"}, "ruleset"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"first_dealer": "north"}, "first_dealer"),
        ({"options": {"target": 0}}, "options.target"),
        ({"options": {"target": "lots"}}, "options.target"),
        ({"options": {"jokers": True}}, "options.jokers"),
        ({"options": "fast"}, "options"),
    ],
    ids=[
        "one-team",
        "three-teams",
        "one-player",
        "no-team-name",
        "same-player-twice",
        "null-teams",
        "unknown-ruleset",
        "dealer-out-of-range",
        "dealer-not-a-number",
        "zero-target",
        "target-not-a-number",
        "unknown-option",
        "options-not-an-object",
    ],
)
def test_create_refuses_bad_input_naming_the_field(api, users, change, field):
    before = (Match.objects.count(), Player.objects.count(), Team.objects.count())
    response = api("player").post(MATCHES, {"teams": NEW_TEAMS, **change}, format="json")
    body = problem(response, 400)
    assert field in fields(body) or body.get("field") == field, body
    assert (Match.objects.count(), Player.objects.count(), Team.objects.count()) == before


def test_create_needs_a_signed_in_user_with_writes(api, users):
    assert api("anonymous").post(MATCHES, {"teams": NEW_TEAMS}, format="json").status_code in (401, 403)
    assert api("club_reader").post(MATCHES, {"teams": NEW_TEAMS}, format="json").status_code == 403
    assert Match.objects.count() == 0


def test_a_bad_token_is_401(anon, db):
    anon.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert anon.post(MATCHES, {"teams": NEW_TEAMS}, format="json").status_code == 401
    assert anon.get(MATCHES).status_code == 401


def test_a_token_from_the_token_endpoint_works(anon, player_user):
    response = anon.post("/api/v1/token/", {"username": "nikos", "password": "pw-nikos-12345"}, format="json")
    assert response.status_code == 200 and response.json()["token"] == player_user.token
    assert anon.post("/api/v1/token/", {"username": "nikos", "password": "wrong"}).status_code == 400


# Import ----------------------------------------------------------------------------------


def test_import_creates_the_match_with_its_deals(api, users):
    response = api("club_writer").post(f"{MATCHES}import/", MATCH_FILE, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    match = Match.objects.get(pk=body["id"])
    assert list(match.keepers.all()) == [users["club_writer"]]
    assert [d["number"] for d in body["deals"]] == [1, 2, 3]
    assert [
        {k: v for k, v in d.items() if k not in ("id", "number", "entered_at")} for d in body["deals"]
    ] == (MATCH_DEALS)
    assert match.deals.count() == 3 and match.totals == [182, 162] and match.version == 3
    assert body["sheet"]["totals"] == [182, 162]
    assert body["teams"] == NEW_TEAMS


def test_import_answers_with_the_match_as_stored(api, users):
    document = {**MATCH_FILE, "options": {"deals": 1}, "deals": [WIN_0]}
    body = api("club_writer").post(f"{MATCHES}import/", document, format="json").json()
    match = Match.objects.get(pk=body["id"])
    assert (match.status, match.winner, match.totals, match.version) == ("finished", 0, [100, 62], 1)
    assert (body["status"], body["winner"], body["totals"], body["version"]) == ("finished", 0, [100, 62], 1)
    assert body["finished_at"] is not None


def test_import_the_format_example(api, users):
    """The first two deals of FORMAT.md's example (the third is a Pilotta/Belote deal)."""
    document = {
        "ruleset": "mpourloto",
        "options": {"target": 1000, "ties_hang": False},
        "teams": [
            {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
            {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]},
        ],
        "first_dealer": 0,
        "deals": [
            {"thrown_in": True},
            {"maker": 0, "card_points": [90, 62], "last_trick": 0, "melds": [["seq3"], []]},
        ],
    }
    body = api("player").post(f"{MATCHES}import/", document, format="json").json()
    assert [(r["scores"], r["result"], r["totals"], r["dealer"]) for r in body["sheet"]["deals"]] == [
        ([0, 0], "thrown_in", [0, 0], 0),
        ([120, 62], "made", [120, 62], 1),
    ]
    assert (body["sheet"]["totals"], body["sheet"]["held"], body["sheet"]["status"]) == (
        [120, 62],
        0,
        "in_progress",
    )
    assert (body["sheet"]["winner"], body["sheet"]["next_dealer"]) == (None, 2)


def _counts():
    return (Match.objects.count(), Deal.objects.count(), Player.objects.count(), Team.objects.count())


@pytest.mark.parametrize(
    ("change", "field", "deal"),
    [
        ({"deals": [*MATCH_DEALS[:2], made(cards=(62, 80))]}, "card_points", 2),
        ({"deals": [MATCH_DEALS[0], {**MATCH_DEALS[1], "maker": 2}]}, "maker", 1),
        ({"deals": [MATCH_DEALS[0], {**MATCH_DEALS[1], "melds": [["seq9"], []]}]}, "melds[0][0]", 1),
        ({"deals": [{"thrown_in": True, "maker": 0}]}, "maker", 0),
        ({"deals": [{**MATCH_DEALS[1], "trumps": "hearts"}]}, "trumps", 0),
    ],
    ids=[
        "card-points-do-not-add-up",
        "no-such-team",
        "unknown-meld",
        "thrown-in-with-a-maker",
        "unknown-field",
    ],
)
def test_a_bad_deal_in_a_file_names_it_and_saves_nothing(api, users, change, field, deal):
    before = _counts()
    response = api("club_writer").post(f"{MATCHES}import/", {**MATCH_FILE, **change}, format="json")
    body = problem(response, 400)
    assert body["type"] == kind("rules-violation")
    assert body["field"] == field
    assert int(body["deal"]) == deal
    assert f"deal {deal + 1}" in body["detail"]
    assert _counts() == before


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"teams": [NEW_TEAMS[0], {"name": "Again", "players": ["Olga", "Zeta"]}]}, "teams"),
        ({"teams": NEW_TEAMS[:1]}, "teams"),
        ({"teams": None}, "teams"),
        ({"ruleset": "poker"}, "ruleset"),
        ({"options": {"target": -5}}, "options.target"),
        ({"first_dealer": 7}, "first_dealer"),
        ({"deals": "all of them"}, "deals"),
        ({"venue": "Kafeneio"}, "venue"),
    ],
    ids=[
        "same-player-twice",
        "one-team",
        "no-teams",
        "unknown-ruleset",
        "bad-option",
        "bad-dealer",
        "deals-not-a-list",
        "unknown-field",
    ],
)
def test_a_bad_file_head_is_refused_and_saves_nothing(api, users, change, field):
    before = _counts()
    response = api("player").post(f"{MATCHES}import/", {**MATCH_FILE, **change}, format="json")
    assert problem(response, 400)["field"] == field
    assert _counts() == before


def test_import_refuses_a_nul_character_in_a_name_as_create_does(api, users):
    teams = [{"name": "Kafeneio\u0000C", "players": ["Olga", "Pavlos"]}, NEW_TEAMS[1]]
    client = api("player")
    client.raise_request_exception = False
    assert client.post(MATCHES, {"teams": teams}, format="json").status_code == 400
    before = _counts()
    response = client.post(f"{MATCHES}import/", {**MATCH_FILE, "teams": teams}, format="json")
    assert response.status_code == 400
    assert _counts() == before


def test_import_of_something_else_than_an_object_is_400(api, users):
    before = _counts()
    assert api("player").post(f"{MATCHES}import/", [MATCH_FILE], format="json").status_code == 400
    assert api("player").post(f"{MATCHES}import/", "{", content_type="application/json").status_code == 400
    assert _counts() == before


def test_import_needs_a_user_with_writes(api, users):
    before = _counts()
    assert api("anonymous").post(f"{MATCHES}import/", MATCH_FILE, format="json").status_code in (401, 403)
    assert api("club_reader").post(f"{MATCHES}import/", MATCH_FILE, format="json").status_code == 403
    assert _counts() == before


# Deals: record -------------------------------------------------------------------------------


def test_the_scorekeeper_records_a_deal(api, standalone, scorekeeper):
    response = api("scorekeeper").post(url(standalone, "deals/"), WIN_0, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    deal = Deal.objects.get(pk=body["deal"]["id"])
    assert deal.match_id == standalone.pk and deal.entered_by == scorekeeper
    assert {k: v for k, v in body["deal"].items() if k not in ("id", "entered_at")} == {
        **WIN_0,
        "melds": [[], []],
        "number": 4,
    }
    assert body["sheet"]["totals"] == [282, 224]  # 182 + 100, 162 + 62
    # The answer is made from the match's state: the new deal's row and the sheet's head, no rows.
    assert body["row"] == client_sheet_row(standalone, 4)
    assert (body["row"]["scores"], body["row"]["totals"]) == ([100, 62], [282, 224])
    assert "deals" not in body["sheet"] and body["version"] == 4
    standalone.refresh_from_db()
    assert (standalone.totals, standalone.version) == ([282, 224], 4)
    whole = api("scorekeeper").get(url(standalone, "sheet/")).json()
    assert body["sheet"] == {k: v for k, v in whole.items() if k != "deals"}


def client_sheet_row(match, number):
    """Row ``number`` of the match's sheet, as GET …/sheet/ gives it."""
    return APIClient().get(url(match, "sheet/")).json()["deals"][number - 1]


def test_a_deal_sent_twice_with_one_key_is_recorded_once(api, standalone):
    client = api("scorekeeper")
    first = client.post(
        url(standalone, "deals/"), WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="tablet-7-deal-4"
    )
    again = client.post(
        url(standalone, "deals/"), WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="tablet-7-deal-4"
    )
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["deal"]["id"] == first.json()["deal"]["id"]
    assert again.json()["sheet"] == first.json()["sheet"]
    assert standalone.deals.count() == 4
    other = client.post(
        url(standalone, "deals/"), WIN_1, format="json", HTTP_IDEMPOTENCY_KEY="tablet-7-deal-5"
    )
    assert other.status_code == 201 and standalone.deals.count() == 5
    unkeyed = [client.post(url(standalone, "deals/"), WIN_0, format="json") for _ in range(2)]
    assert [r.status_code for r in unkeyed] == [201, 201] and standalone.deals.count() == 7


def test_a_refused_deal_does_not_use_up_its_key(api, standalone):
    client = api("scorekeeper")
    key = {"HTTP_IDEMPOTENCY_KEY": "k-1"}
    assert (
        client.post(url(standalone, "deals/"), made(cards=(62, 80)), format="json", **key).status_code == 400
    )
    assert client.post(url(standalone, "deals/"), WIN_0, format="json", **key).status_code == 201
    assert standalone.deals.count() == 4


def test_one_key_on_two_matches_records_on_both(api, standalone, scorekeeper):
    other = scoring.match_create(teams=TEAMS, created_by=scorekeeper)
    client = api("scorekeeper")
    for match in (standalone, other):
        response = client.post(url(match, "deals/"), WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="same")
        assert response.status_code == 201
    assert other.deals.count() == 1


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        (made(cards=(62, 80)), "card_points"),
        ({**WIN_0, "card_points": [90]}, "card_points"),
        ({**WIN_0, "card_points": [90.0, 62]}, "card_points[0]"),
        ({**WIN_0, "maker": 3}, "maker"),
        ({"card_points": [90, 62], "last_trick": 0}, "maker"),
        ({**WIN_0, "melds": [["straight"], []]}, "melds[0][0]"),
        ({**WIN_0, "declarations_winner": "us"}, "declarations_winner"),
        ({"thrown_in": "yes"}, "thrown_in"),
        ({**WIN_0, "colour": "red"}, "colour"),
    ],
    ids=[
        "points-do-not-add-up",
        "one-number",
        "not-whole",
        "no-such-team",
        "no-maker",
        "unknown-meld",
        "bad-declarations-winner",
        "thrown-in-not-boolean",
        "unknown-field",
    ],
)
def test_a_bad_deal_is_400_naming_the_field_and_changes_nothing(api, standalone, deal, field):
    response = api("scorekeeper").post(url(standalone, "deals/"), deal, format="json")
    body = problem(response, 400)
    assert body["field"] == field
    assert {"detail", "field", "deal", "errors"} <= set(body)
    assert attrs(body) == {field.replace("[", ".").replace("]", "")}  # melds[0][0]: melds.0.0
    assert standalone.deals.count() == 3
    standalone.refresh_from_db()
    assert (standalone.totals, standalone.version) == ([182, 162], 3)


def test_a_deal_the_rules_refuse_names_its_position(api, standalone):
    body = api("scorekeeper").post(url(standalone, "deals/"), made(cards=(62, 80)), format="json").json()
    assert body["field"] == "card_points"
    assert int(body["deal"]) == 3  # the fourth deal, counted from 0
    assert "152" in body["detail"]


def test_error_bodies_keep_their_json_types(api, standalone):
    client = api("scorekeeper")
    placed = client.post(url(standalone, "deals/"), made(cards=(62, 80)), format="json").json()
    assert placed["deal"] == 3
    unplaced = client.post(f"{MATCHES}import/", [1], format="json").json()
    assert unplaced["field"] is None and unplaced["deal"] is None


def test_a_deal_with_a_bad_shape_names_its_position_too(api, standalone):
    body = api("scorekeeper").post(url(standalone, "deals/"), {**WIN_0, "maker": 3}, format="json").json()
    assert body["field"] == "maker"
    assert body["deal"] not in (None, "None")
    assert int(body["deal"]) == 3


def test_a_deal_after_the_end_of_the_match_is_refused(api, public_tournament):
    finished = tournament_match(public_tournament, round_number=1)
    response = api("organizer").post(url(finished, "deals/"), WIN_0, format="json")
    assert "no deal can follow" in problem(response, 400)["detail"]


@pytest.mark.parametrize("role", ["player", "organizer", "club_writer", "club_reader"])
def test_only_a_keeper_records_a_deal(api, standalone, role):
    """Nikos (the ``player`` role) sits at this match but does not keep it."""
    response = api(role).post(url(standalone, "deals/"), WIN_0, format="json")
    assert response.status_code == 403
    assert standalone.deals.count() == 3


def test_anonymous_records_nothing(api, standalone):
    response = api("anonymous").post(url(standalone, "deals/"), WIN_0, format="json")
    assert response.status_code in (401, 403)
    assert standalone.deals.count() == 3


def test_a_read_only_club_records_nothing_even_as_a_keeper(api, standalone, club_reader):
    standalone.keepers.add(club_reader)
    assert api("club_reader").post(url(standalone, "deals/"), WIN_0, format="json").status_code == 403


def test_the_organizer_records_the_deals_of_the_tournaments_matches(api, public_tournament, organizer):
    match = tournament_match(public_tournament, round_number=2)
    match.keepers.remove(organizer)  # as organizer, not as the one who started the round
    response = api("organizer").post(url(match, "deals/"), WIN_0, format="json")
    assert response.status_code == 201
    match.refresh_from_db()
    assert match.status == "finished"  # one deal a match in this tournament
    assert api("scorekeeper").post(url(match, "deals/"), WIN_0, format="json").status_code == 403


def test_another_organizer_cannot_record_in_this_tournament(api, public_tournament, rival):
    from .conftest import client_for

    match = tournament_match(public_tournament, round_number=2)
    assert client_for(rival).post(url(match, "deals/"), WIN_0, format="json").status_code == 403


def test_the_organizer_records_the_deals_of_a_private_tournament(api, private_tournament):
    match = tournament_match(private_tournament)
    response = api("organizer").post(url(match, "deals/"), PILOTTA_WIN, format="json")
    assert response.status_code == 201


def test_deals_of_an_unknown_match_are_404(api, users):
    assert api("scorekeeper").post(f"{MATCHES}999999/deals/", WIN_0, format="json").status_code == 404
    assert api("anonymous").get(f"{MATCHES}999999/deals/").status_code == 404


# Deals: correct, delete -----------------------------------------------------------------


def test_the_scorekeeper_corrects_a_deal(api, standalone):
    deal = standalone.deals.get(position=2)
    response = api("scorekeeper").put(url(standalone, f"deals/{deal.pk}/"), WIN_0, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["deal"]["id"] == deal.pk and body["deal"]["number"] == 2
    assert body["deal"]["card_points"] == [90, 62] and body["deal"]["melds"] == [[], []]
    assert body["sheet"]["totals"] == [162, 162]  # the seq3 (20) is gone
    deal.refresh_from_db()
    assert deal.data["melds"] == [[], []]
    assert deal.history.count() == 2  # the earlier version is kept
    standalone.refresh_from_db()
    assert standalone.totals == [162, 162]


def test_a_bad_correction_is_400_and_the_deal_stays(api, standalone):
    deal = standalone.deals.get(position=2)
    response = api("scorekeeper").put(
        url(standalone, f"deals/{deal.pk}/"), made(cards=(10, 10)), format="json"
    )
    assert problem(response, 400)["field"] == "card_points"
    deal.refresh_from_db()
    assert deal.data == MATCH_DEALS[1]


def test_the_scorekeeper_deletes_a_deal(api, standalone):
    deal = standalone.deals.get(position=2)
    client = api("scorekeeper")
    response = client.delete(url(standalone, f"deals/{deal.pk}/"))
    assert response.status_code == 204
    deal.refresh_from_db()
    assert deal.deleted_at is not None  # kept, out of the sheet
    deals = client.get(url(standalone, "deals/")).json()
    assert [d["number"] for d in deals] == [1, 2] and deal.pk not in [d["id"] for d in deals]
    assert client.get(url(standalone, "sheet/")).json()["totals"] == [62, 100]
    assert client.delete(url(standalone, f"deals/{deal.pk}/")).status_code == 404
    assert client.put(url(standalone, f"deals/{deal.pk}/"), WIN_0, format="json").status_code == 404


def test_a_deal_of_another_match_is_404(api, standalone, scorekeeper):
    other = scoring.match_create(teams=TEAMS, created_by=scorekeeper)
    deal = standalone.deals.first()
    assert api("scorekeeper").delete(url(other, f"deals/{deal.pk}/")).status_code == 404
    assert api("scorekeeper").delete(url(standalone, "deals/999999/")).status_code == 404


@pytest.mark.parametrize("role", ["anonymous", "player", "organizer", "club_writer", "club_reader"])
def test_only_a_keeper_corrects_or_deletes(api, standalone, role):
    deal = standalone.deals.get(position=2)
    client = api(role)
    put = client.put(url(standalone, f"deals/{deal.pk}/"), WIN_0, format="json")
    delete = client.delete(url(standalone, f"deals/{deal.pk}/"))
    expected = (401, 403) if role == "anonymous" else (403,)
    assert put.status_code in expected and delete.status_code in expected
    deal.refresh_from_db()
    assert deal.data == MATCH_DEALS[1] and deal.deleted_at is None


# Finish -----------------------------------------------------------------------------------


def test_the_scorekeeper_finishes_a_match(api, standalone):
    client = api("scorekeeper")
    response = client.post(url(standalone, "finish/"))
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["winner"], body["totals"]) == ("finished", 0, [182, 162])
    assert body["sheet"]["status"] == "finished" and body["finished_at"]
    assert body["options"]["ended_after"] == 3  # it ended by agreement after its third deal (thrown in)
    again = client.post(url(standalone, "finish/"))
    assert "already over" in problem(again, 400)["detail"]
    assert client.post(url(standalone, "deals/"), WIN_0, format="json").status_code == 400


def test_a_match_without_deals_cannot_be_finished(api, users):
    created = api("player").post(MATCHES, {"teams": NEW_TEAMS}, format="json").json()
    response = api("player").post(f"{MATCHES}{created['id']}/finish/")
    assert response.status_code == 400
    assert Match.objects.get(pk=created["id"]).status == "in_progress"


@pytest.mark.parametrize("role", ["anonymous", "player", "organizer", "club_writer", "club_reader"])
def test_only_a_keeper_finishes(api, standalone, role):
    response = api(role).post(url(standalone, "finish/"))
    assert response.status_code in ((401, 403) if role == "anonymous" else (403,))
    standalone.refresh_from_db()
    assert standalone.status == "in_progress" and standalone.finished_at is None


def test_reading_methods_are_the_only_ones_on_a_match(api, standalone):
    client = api("scorekeeper")
    assert client.delete(url(standalone)).status_code == 405
    assert client.patch(url(standalone), {"status": "finished"}, format="json").status_code == 405
    assert client.put(url(standalone, "sheet/"), {}, format="json").status_code == 405
    standalone.refresh_from_db()
    assert standalone.status == "in_progress"
