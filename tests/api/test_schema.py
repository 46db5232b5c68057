"""The OpenAPI 3 schema, the browsable docs, and a schema-driven fuzz run (schemathesis) that must
find no server error and no answer the schema does not document; every success answer is a named,
typed component."""

import dataclasses
import json
import time
from datetime import date
from pathlib import Path

import hypothesis
import pytest
import schemathesis
import yaml
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connection
from hypothesis import HealthCheck, Phase
from jsonschema import Draft202012Validator, FormatChecker
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.errors import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from league.ratings import ratings_refresh
from league.services import season_create
from players.models import Club, Player, Team
from scoring import engine
from tournaments.models import Tournament
from tournaments.standings import METRICS

from .conftest import client_for

pytestmark = pytest.mark.django_db

V1_PATHS = {
    "/api/v1/clubs/",
    "/api/v1/clubs/{slug}/",
    "/api/v1/clubs/{slug}/members/",
    "/api/v1/clubs/{slug}/members/{player_id}/",
    "/api/v1/clubs/{slug}/invitation/",
    "/api/v1/clubs/invitations/",
    "/api/v1/matches/",
    "/api/v1/matches/{id}/",
    "/api/v1/matches/{id}/deals/",
    "/api/v1/matches/{id}/deals/{deal_id}/",
    "/api/v1/matches/{id}/deals/{deal_id}/check/",
    "/api/v1/matches/{id}/file/",
    "/api/v1/matches/{id}/finish/",
    "/api/v1/matches/{id}/sheet/",
    "/api/v1/matches/import/",
    "/api/v1/players/",
    "/api/v1/players/{id}/",
    "/api/v1/players/{id}/history/",
    "/api/v1/players/{id}/rating/",
    "/api/v1/ratings/",
    "/api/v1/players/{id}/claim/",
    "/api/v1/players/{id}/confirm/",
    "/api/v1/players/{id}/merge/",
    "/api/v1/players/{id}/merges/",
    "/api/v1/players/{id}/split/",
    "/api/v1/presets/",
    "/api/v1/presets/{slug}/",
    "/api/v1/seasons/",
    "/api/v1/seasons/{slug}/",
    "/api/v1/seasons/{slug}/table/",
    "/api/v1/teams/",
    "/api/v1/teams/{id}/",
    "/api/v1/token/",
    "/api/v1/tournaments/",
    "/api/v1/tournaments/{slug}/",
    "/api/v1/tournaments/{slug}/deals.csv/",
    "/api/v1/tournaments/{slug}/entries/",
    "/api/v1/tournaments/{slug}/entries/{entry_id}/status/",
    "/api/v1/tournaments/{slug}/entries/{entry_id}/",
    "/api/v1/tournaments/{slug}/entries/{entry_id}/reinstate/",
    "/api/v1/tournaments/{slug}/entries/bulk/",
    "/api/v1/tournaments/{slug}/adjustments/",
    "/api/v1/tournaments/{slug}/adjustments/{adjustment_id}/",
    "/api/v1/tournaments/{slug}/avoid/",
    "/api/v1/tournaments/{slug}/checkin/",
    "/api/v1/tournaments/{slug}/checkin/all/",
    "/api/v1/tournaments/{slug}/console/",
    "/api/v1/tournaments/{slug}/calls/{call_id}/acknowledge/",
    "/api/v1/tournaments/{slug}/export/",
    "/api/v1/tournaments/{slug}/finish/",
    "/api/v1/tournaments/{slug}/find/",
    "/api/v1/tournaments/{slug}/prizes/",
    "/api/v1/tournaments/{slug}/ranking/",
    "/api/v1/tournaments/{slug}/ranking.csv/",
    "/api/v1/tournaments/{slug}/rounds/",
    "/api/v1/tournaments/{slug}/rounds/{number}/",
    "/api/v1/tournaments/{slug}/rounds/{number}/clock/",
    "/api/v1/tournaments/{slug}/rounds/{number}/start/",
    "/api/v1/tournaments/{slug}/rounds/{number}/swap/",
    "/api/v1/tournaments/{slug}/rounds/{number}/redraw/",
    "/api/v1/tournaments/{slug}/rounds/{number}/tables/{table}/paper/",
    "/api/v1/tournaments/{slug}/bracket/",
    "/api/v1/tournaments/{slug}/standings/",
    "/api/v1/tournaments/{slug}/standings.csv/",
    "/api/v1/tournaments/{slug}/start/",
    "/api/v1/changes/",
    "/api/v1/tokens/",
    "/api/v1/tokens/{id}/",
    "/api/v1/webhooks/",
    "/api/v1/webhooks/{id}/",
    "/api/v1/webhooks/{id}/secret/",
    "/api/v1/webhooks/{id}/deliveries/",
    "/api/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/",
}


def test_schema_is_openapi_3_in_yaml(anon):
    response = anon.get("/api/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Tsoxa API" and schema["info"]["version"] == "1.0.0"


def test_schema_in_json_lists_the_v1_paths(anon):
    response = anon.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert schema["openapi"].startswith("3.")
    assert set(schema["paths"]) == V1_PATHS
    assert all(path.startswith("/api/v1/") for path in schema["paths"])
    assert set(schema["paths"]["/api/v1/matches/{id}/deals/"]) == {"get", "post"}
    assert set(schema["paths"]["/api/v1/matches/{id}/deals/{deal_id}/"]) == {"put", "delete"}
    assert set(schema["paths"]["/api/v1/tournaments/{slug}/"]) == {"get", "patch"}
    assert "tokenAuth" in schema["components"]["securitySchemes"]
    parameters = schema["paths"]["/api/v1/matches/{id}/deals/"]["post"]["parameters"]
    assert {"name": "Idempotency-Key", "in": "header"}.items() <= next(
        p for p in parameters if p["name"] == "Idempotency-Key"
    ).items()
    filters = {p["name"] for p in schema["paths"]["/api/v1/tournaments/"]["get"]["parameters"]}
    assert {"club", "ruleset", "status", "date_from", "date_to", "player", "limit", "offset"} <= filters


def test_list_actions_answer_what_the_schema_says(anon, public_tournament, standalone):
    schema = json.loads(anon.get("/api/schema/", {"format": "json"}).content)
    for path, url in [
        ("/api/v1/tournaments/{slug}/entries/", f"/api/v1/tournaments/{public_tournament.slug}/entries/"),
        ("/api/v1/tournaments/{slug}/rounds/", f"/api/v1/tournaments/{public_tournament.slug}/rounds/"),
        ("/api/v1/matches/{id}/deals/", f"/api/v1/matches/{standalone.pk}/deals/"),
    ]:
        ref = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        declared = schema["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]] if "$ref" in ref else ref
        body = anon.get(url).json()
        assert isinstance(body, list) == (declared.get("type") == "array"), path


def test_docs_render(anon):
    response = anon.get("/api/docs/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert b"swagger" in response.content.lower()
    # Its start-up script is a file of its own (the Content-Security-Policy runs no inline script).
    assert b'<script src="/api/docs/?script="></script>' in response.content
    assert "/api/schema/" in anon.get("/api/docs/?script=").content.decode()
    redoc = anon.get("/api/redoc/")
    assert redoc.status_code == 200 and b"redoc" in redoc.content.lower()


def test_docs_assets_are_served(client):
    """The docs page loads Swagger UI from the sidecar package's static files."""
    page = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in page


# Every success answer a named, typed component ------------------------------------------------------
#
# A generated client (openapi-python-client, TypeScript …) knows only what the schema says: a free-form
# object becomes a bare dictionary. So every 2xx answer is a named component (or a list of one), and
# nothing in it is free-form. A genuinely free member would be allowed here, with its reason.
FREE_FORM_ALLOWED: dict[str, str] = {}
CSV_ANSWERS = {
    "/api/v1/tournaments/{slug}/standings.csv/",
    "/api/v1/tournaments/{slug}/ranking.csv/",
    "/api/v1/tournaments/{slug}/deals.csv/",
}


def free_form(node):
    """A schema that says nothing of its value's shape: no type (``{}``, a description alone), or an
    object without properties whose other members may be anything."""
    if any(key in node for key in ("$ref", "allOf", "oneOf", "anyOf", "enum")):
        return False
    if "type" not in node:
        return True
    extra = node.get("additionalProperties")
    typed_extra = isinstance(extra, dict) and extra and not free_form(extra)
    return node["type"] == "object" and not node.get("properties") and not typed_extra


def free_members(schema, node, where, seen, found):
    """Where under ``node`` the schema is free-form (``Component.member[]…``); each component once."""
    if free_form(node):
        found.append(where)
        return
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            free_members(schema, schema["components"]["schemas"][name], name, seen, found)
        return
    for key in ("allOf", "oneOf", "anyOf"):
        for branch in node.get(key, []):
            free_members(schema, branch, where, seen, found)
    for name, member in node.get("properties", {}).items():
        free_members(schema, member, f"{where}.{name}", seen, found)
    if "items" in node:
        free_members(schema, node["items"], f"{where}[]", seen, found)
    if isinstance(node.get("additionalProperties"), dict):
        free_members(schema, node["additionalProperties"], f"{where}{{}}", seen, found)


def success_answers(schema):
    """(where, media type, schema) of every 2xx answer with a body."""
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                for media, content in answer.get("content", {}).items() if status.startswith("2") else ():
                    yield f"{method.upper()} {path} {status}", media, content["schema"]


def test_every_success_answer_is_a_named_typed_component(anon):
    schema = json.loads(anon.get("/api/schema/", {"format": "json"}).content)
    found, seen, csv = [], set(), set()
    for where, media, body in success_answers(schema):
        if media == "text/csv":  # a spreadsheet: a string
            assert body == {"type": "string"}, where
            csv.add(where.split()[1])
            continue
        assert media == "application/json", where
        named = body.get("items", {}) if body.get("type") == "array" else body
        assert "$ref" in named, f"{where}: not a named component: {body}"
        free_members(schema, body, where, seen, found)
    assert csv == CSV_ANSWERS
    assert sorted(set(found) - set(FREE_FORM_ALLOWED)) == [], "free-form members in success answers"
    assert not set(FREE_FORM_ALLOWED) - set(found), "allowed as free-form but typed now: take them out"


def test_the_answers_a_club_reads_most_have_their_names_and_members(anon):
    schema = json.loads(anon.get("/api/schema/", {"format": "json"}).content)
    for path, method, status, name in [
        ("/api/v1/matches/{id}/sheet/", "get", "200", "Sheet"),
        ("/api/v1/matches/{id}/file/", "get", "200", "MatchFile"),
        ("/api/v1/matches/{id}/deals/", "post", "201", "DealWritten"),
        ("/api/v1/matches/{id}/deals/{deal_id}/", "put", "200", "DealCorrected"),
        ("/api/v1/tournaments/{slug}/standings/", "get", "200", "Standings"),
        ("/api/v1/tournaments/{slug}/ranking/", "get", "200", "Ranking"),
        ("/api/v1/tournaments/{slug}/export/", "get", "200", "TournamentExport"),
    ]:
        body = schema["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]
        assert body == {"$ref": f"#/components/schemas/{name}"}, path
    imported = schema["paths"]["/api/v1/matches/import/"]["post"]["requestBody"]["content"][
        "application/json"
    ]
    assert imported["schema"] == {"$ref": "#/components/schemas/MatchFileRequest"}
    components = schema["components"]["schemas"]
    # FORMAT.md's field names are the contract.
    assert {"deals", "totals", "held", "status", "winner", "next_dealer"} <= set(
        components["Sheet"]["required"]
    )
    assert {"scores", "result", "totals", "dealer"} <= set(components["SheetRow"]["required"])
    assert {"ruleset", "options", "teams", "first_dealer", "deals"} <= set(
        components["MatchFile"]["required"]
    )
    assert set(components["Deal"]["properties"]) == set(components["DealRequest"]["properties"])
    assert set(components["Deal"]["properties"]) == set(engine.Deal.FIELDS)
    assert components["SheetHead"]["properties"]["winner"]["nullable"] is True
    assert {"deal", "row", "sheet", "version"} == set(components["DealWritten"]["required"])
    # Every option of every game typed (litige is a yes or no in the French game, a word in Coinche) …
    options = components["RuleOptions"]["properties"]
    for rules in engine.RULESETS.values():
        assert {option.name for option in dataclasses.fields(rules.Options)} <= set(options), rules.key
    assert {"type": "boolean"} in options["litige"]["oneOf"]
    assert {"type": "string", "enum": ["failed", "made", "held"]} in options["litige"]["oneOf"]
    # … and every tie-break value of a standings row.
    assert set(components["TiebreakValues"]["required"]) == set(METRICS)
    assert {"entry", "rank", "team", "players", "values", "penalty"} <= set(
        components["StandingsRow"]["required"]
    )
    assert {"position", "rank", "reached", "stage_rank"} <= set(components["RankingRow"]["required"])


# Every answer of demo-like data, against its documented schema -------------------------------------
#
# The fuzz run's generated data seldom reaches a rich answer (a finished knockout's ranking, a play-off
# at a cut, a Coinche sheet): here a club's events are played through the API, then every GET operation
# of the schema reads every object it can name, and each answer is validated (jsonschema) against the
# schema the operation documents for it.

TEAMS_OF_TWO = [
    {"name": "Kafeneio A", "players": ["Nikos", "Eleni"]},
    {"name": "Kafeneio B", "players": ["Giorgos", "Maria"]},
]
# A match file of every game, with what that game records (each replayed by the engine).
MATCH_FILES = [
    {"ruleset": "bulgarian", "deals": [
        {"maker": 0, "contract": {"suit": "hearts", "multiplier": 2}, "card_points": [100, 52],
         "last_trick": 0, "melds": [["seq3"], ["seq3"]], "declarations_winner": "equal", "belote": [1, 0]},
        {"thrown_in": True}]},
    {"ruleset": "classic", "deals": [
        {"maker": 0, "card_points": [152, 0], "capot": 0, "solo_capot": True, "belote": [1, 0]}]},
    {"ruleset": "french", "options": {"litige": True}, "deals": [
        {"maker": 0, "contract": {"suit": "spades"}, "card_points": [72, 80], "last_trick": 0,
         "melds": [["seq3"], []]}]},
    {"ruleset": "pilotta", "options": {"capot_bonus": 100}, "deals": [
        {"maker": 1, "contract": {"suit": "clubs", "bid": 90, "multiplier": 2}, "card_points": [40, 112],
         "last_trick": 1, "melds": [[], ["seq4"]], "belote": [0, 1], "declarations_winner": None}]},
    {"ruleset": "mpourloto", "options": {"ties_hang": True}, "deals": [
        {"maker": 0, "card_points": [71, 81], "last_trick": 0, "melds": [["mpourloto"], []]}]},
    {"ruleset": "coinche", "options": {"target": 2001, "sa_ta": True}, "deals": [
        {"maker": 1, "contract": {"suit": "spades", "bid": "capot", "multiplier": 2}, "card_points": [0, 152],
         "capot": 1, "melds": [[], []]},
        {"maker": 0, "contract": {"suit": "alltrump", "bid": "generale", "multiplier": 1},
         "card_points": [152, 0], "capot": 0, "generale": 2, "melds": [["four9"], []], "belote": [1, 0]}]},
]  # fmt: skip
COINCHE_FILE = Path(__file__).parents[2] / "docs" / "examples" / "coinche-match.json"
WINS = (
    {"maker": 0, "card_points": [90, 62], "last_trick": 0},
    {"maker": 1, "card_points": [62, 90], "last_trick": 1},
)
CAPOTS = (
    {"maker": 0, "card_points": [152, 0], "capot": 0},
    {"maker": 1, "card_points": [0, 152], "capot": 1},
)


def ok(response, code=200):
    assert response.status_code == code, (response.status_code, response.content[:500])
    return response.json()


def event(client, teams, **options):
    """A started tournament of these entries (a team's name; in an individual event, a player's)."""
    body = {"name": "Club night", **options}
    slug = ok(client.post("/api/v1/tournaments/", body, format="json"), 201)["slug"]
    individual = options.get("format") == "individual"
    for name in teams:
        entry = {"players": [name]} if individual else {"name": name, "players": [f"{name} a", f"{name} b"]}
        ok(client.post(f"/api/v1/tournaments/{slug}/entries/", entry, format="json"), 201)
    ok(client.post(f"/api/v1/tournaments/{slug}/start/"))
    return slug


def draw(client, slug):
    number = ok(client.post(f"/api/v1/tournaments/{slug}/rounds/"), 201)["number"]
    return ok(client.post(f"/api/v1/tournaments/{slug}/rounds/{number}/start/"))


def play(client, table, winner, deals=WINS):
    """The table's match, ``winner`` (a side) taking every deal until it is over."""
    match = table["match"]["id"]
    while ok(client.get(f"/api/v1/matches/{match}/"))["status"] != "finished":
        ok(client.post(f"/api/v1/matches/{match}/deals/", deals[winner], format="json"), 201)


def demo_like(client, organizer):
    """A club's events through the API: a match of every game (Coinche's from docs/examples), one
    corrected and ended by agreement; a Swiss then a knockout of four with a match for third place, to
    its end, with a penalty; a round robin of three, each beating another: level at the top, a play-off
    at the cut, byes; pools to a final; a timed concours, its clock running, a forfeit; an individual
    event; the club's season and a league, the ratings, a preset of the club's, a webhook. The
    tournaments' slugs by what they show."""
    for match_file in [*MATCH_FILES, json.loads(COINCHE_FILE.read_text())]:
        ok(client.post("/api/v1/matches/import/", {**match_file, "teams": TEAMS_OF_TWO}, format="json"), 201)
    match = ok(client.post("/api/v1/matches/", {"teams": TEAMS_OF_TWO}, format="json"), 201)["id"]
    deal = ok(client.post(f"/api/v1/matches/{match}/deals/", WINS[0], format="json"), 201)["deal"]["id"]
    ok(client.put(f"/api/v1/matches/{match}/deals/{deal}/", WINS[1], format="json"))
    ok(client.post(f"/api/v1/matches/{match}/finish/"))
    club = Club.objects.create(name="Kafeneio", city="Larnaca")
    club.admins.add(organizer)

    knockout = event(
        client, ["Lions", "Owls", "Foxes", "Bears", "Wolves", "Hawks"], club=club.slug,
        swiss_rounds=2, deals_per_match=1, knockout_size=4, third_place=True,
    )  # fmt: skip
    penalised = ok(client.get(f"/api/v1/tournaments/{knockout}/entries/"))[0]["id"]
    penalty = {"kind": "penalty", "entry": penalised, "points": 20, "match_points": 1, "reason": "Late"}
    ok(client.post(f"/api/v1/tournaments/{knockout}/adjustments/", penalty, format="json"), 201)
    while ok(client.get(f"/api/v1/tournaments/{knockout}/"))["status"] != "finished":
        for table in draw(client, knockout)["tables"]:
            if table["match"]:
                play(client, table, table["number"] % 2, CAPOTS)

    level = event(client, ["Red", "Green", "Blue"], format="round_robin", deals_per_match=1, cuts=[1])
    beaten = {}
    for _ in range(3):
        for table in draw(client, level)["tables"]:
            if table["match"]:
                sides = [side["team"] for side in table["teams"]]
                winner = 0 if tuple(sides) in {("Red", "Green"), ("Green", "Blue"), ("Blue", "Red")} else 1
                play(client, table, winner)
                beaten[sides[winner]] = sides[1 - winner]
    assert len(beaten) == 3  # each beat another: level on every tie-break

    pools = event(
        client, ["P1", "P2", "P3", "P4", "P5", "P6"], club=club.slug,
        format="pools", pool_size=3, knockout_size=2, deals_per_match=1,
    )  # fmt: skip
    while ok(client.get(f"/api/v1/tournaments/{pools}/"))["status"] != "finished":
        for table in draw(client, pools)["tables"]:
            if table["match"]:
                play(client, table, 0)

    timed = event(client, ["T1", "T2", "T3", "T4"], format="concours", swiss_rounds=2, time_limit=40)
    draw(client, timed)
    ok(client.post(f"/api/v1/tournaments/{timed}/rounds/1/clock/", {"action": "start"}, format="json"))
    forfeit = {"kind": "forfeit", "round": 1, "table": 2, "winner": 0, "scores": [1000, 0], "reason": "Gone"}
    ok(client.post(f"/api/v1/tournaments/{timed}/adjustments/", forfeit, format="json"), 201)

    players = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    individual = event(client, players, format="individual", swiss_rounds=1, deals_per_match=1)
    for table in draw(client, individual)["tables"]:
        play(client, table, 1)

    ratings_refresh()
    member = Player.objects.filter(name="Nikos").first().pk
    ok(client.post(f"/api/v1/clubs/{club.slug}/members/", {"player_id": member}, format="json"), 201)
    season = {"name": "Club season", "club": club.slug, "starts_on": "2000-01-01", "ends_on": "2100-12-31"}
    ok(client.post("/api/v1/seasons/", season, format="json"), 201)
    league = {**season, "name": "League", "club": None, "events": "chosen", "tournaments": [knockout, level]}
    ok(client.post("/api/v1/seasons/", league, format="json"), 201)
    preset = {"based_on": "coinche", "name": "Kafeneio coinche", "options": {"base": 162, "sa_ta": True}}
    ok(client.post("/api/v1/presets/", preset, format="json"), 201)
    hook = {"url": "https://127.0.0.1:9/hooks", "events": ["round.started"], "tournament": timed}
    ok(client.post("/api/v1/webhooks/", hook, format="json"), 201)  # last: nothing is sent
    return {"knockout": knockout, "level": level, "pools": pools, "timed": timed, "individual": individual}


def json_schema(node):
    """An OpenAPI 3.0 schema object as JSON Schema: ``nullable`` becomes a null alternative."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {
        key: {name: json_schema(member) for name, member in value.items()}
        if key == "properties"
        else json_schema(value)
        for key, value in node.items()
        if key != "nullable"
    }
    return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") is True else out


# Objects a collection's answers name, by the path parameter that names them (else their id), and how
# many of a long list are read (every tournament, match and round is).
KEY_OF = {"slug": "slug", "number": "number"}
AT_MOST = {"/api/v1/players/": 6, "/api/v1/teams/": 4}


def named_in(client, collection, parameter):
    """The values of ``parameter`` for the objects listed at ``collection``."""
    body = ok(client.get(collection, {"limit": 200}))
    items = body["results"] if isinstance(body, dict) else body
    return [str(item[KEY_OF.get(parameter, "id")]) for item in items][: AT_MOST.get(collection)]


def urls_of(client, template):
    """Every URL of a path template, its parameters filled with what the lists before them name."""
    urls = [""]
    for segment in template.strip("/").split("/"):
        if segment.startswith("{"):
            urls = [f"{url}/{value}" for url in urls for value in named_in(client, f"{url}/", segment[1:-1])]
        else:
            urls = [f"{url}/{segment}" for url in urls]
    return [f"{url}/" for url in urls]


@pytest.mark.django_db(transaction=True)
def test_every_answer_of_demo_like_data_is_what_the_schema_documents(organizer, settings):
    settings.TSOXA_WEBHOOKS_ALLOW_PRIVATE = True  # a webhook to this machine, never sent
    client = client_for(organizer)  # the organizer sees every event, their private ones too
    slugs = demo_like(client, organizer)
    schema = json.loads(client.get("/api/schema/", {"format": "json"}).content)
    components = json_schema(schema["components"])
    answers, unread, errors = {}, [], []
    for template, operations in schema["paths"].items():
        if "get" not in operations:
            continue
        (media,) = operations["get"]["responses"]["200"]["content"]
        documented = operations["get"]["responses"]["200"]["content"][media]["schema"]
        validator = Draft202012Validator(
            {**json_schema(documented), "components": components}, format_checker=FormatChecker()
        )
        urls = urls_of(client, template)
        unread += [] if urls else [template]
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, (url, response.content[:300])
            assert response["Content-Type"].startswith(media), url
            if media == "application/json":
                body = b"".join(response.streaming_content) if response.streaming else response.content
                answers[url] = json.loads(body)
                errors += [
                    f"{url}: {'/'.join(map(str, e.absolute_path))}: {e.message}"
                    for e in validator.iter_errors(answers[url])
                ]
    assert not unread, f"no object to read for {unread}: make one in demo_like()"

    # The answers read were the rich ones.
    def of(slug, tail):
        return answers[f"/api/v1/tournaments/{slugs[slug]}/{tail}"]

    reached = {row["reached"] for row in of("knockout", "ranking/")["rows"]}
    assert {"champion", "final", "third_place", "fourth_place", "stage"} <= reached
    assert of("knockout", "ranking/")["final"] and any(
        row["penalty"] != [0, 0] for row in of("knockout", "standings/")["rows"]
    )
    assert of("level", "standings/")["playoffs"][0]["cut"] == 1
    assert any(None in table["teams"] for rnd in of("level", "rounds/") for table in rnd["tables"])
    assert {row["pool"] for row in of("pools", "standings/")["rows"]} == {"A", "B"}
    assert of("timed", "rounds/1/")["clock"]["state"] == "running"
    assert [a["kind"] for a in of("timed", "adjustments/")] == ["forfeit"]
    assert all(
        len(side["entries"]) == 2
        for table in of("individual", "rounds/1/")["tables"]
        for side in table["teams"]
    )
    assert len(of("knockout", "export/")["matches"]) >= 10
    files = [body for url, body in answers.items() if url.endswith("/file/")]
    assert {f["ruleset"] for f in files} == set(engine.RULESETS)
    contracts = [d.get("contract", {}) for f in files for d in f["deals"]]
    assert {"capot", "generale", 90} <= {c.get("bid") for c in contracts}
    assert any(
        row.get("raw") for url, body in answers.items() if url.endswith("/sheet/") for row in body["deals"]
    )
    assert not errors, f"{len(errors)} answers break the schema:\n" + "\n".join(errors[:30])


# Server errors found by the fuzz run ------------------------------------------------------------
#
# Each of these requests gave a 500 once (found by the fuzz run below with more examples, or while
# writing these tests); all are fixed, and kept as regression tests.

HUGE = 10**23  # more than any database integer
TEAMS = [
    {"name": "Kafeneio C", "players": ["Olga", "Pavlos"]},
    {"name": "Kafeneio D", "players": ["Rea", "Sotiris"]},
]
VENDOR = connection.vendor
BOTH = ("sqlite", "postgresql")

SERVER_ERRORS = [
    pytest.param(
        "GET", "/api/v1/matches/", {"player": "\u00b2"}, None, BOTH,
        "scoring/api.py MatchFilter.by_player: '²'.isdigit() is true but int('²') fails (ValueError)",
        id="matches-player-superscript-two",
    ),
    pytest.param(
        "GET", "/api/v1/tournaments/", {"player": "\u00b2"}, None, BOTH,
        "tournaments/api/tournaments.py TournamentFilter.by_player: '²'.isdigit() is true but int('²') fails",
        id="tournaments-player-superscript-two",
    ),
    *(
        pytest.param(
            "GET", f"/api/v1/{name}/", {"limit": HUGE}, None, BOTH,
            "LimitOffsetPagination without max_limit (config/settings/base.py REST_FRAMEWORK): a limit "
            "past 2**63 reaches the database (SQLite OverflowError, PostgreSQL bigint out of range)",
            id=f"{name}-huge-limit",
        )
        for name in ("matches", "tournaments", "players", "teams")
    ),
    pytest.param(
        "POST", "/api/v1/matches/", None, {"teams": TEAMS, "options": {"target": 2**63}}, BOTH,
        "scoring/api.py create / engine options: the target is only checked >= 1, then saved in "
        "Match.target, a PositiveIntegerField",
        id="create-target-2-63",
    ),
    pytest.param(
        "POST", "/api/v1/matches/", None, {"teams": TEAMS, "options": {"target": 2**31}}, ("postgresql",),
        "scoring/api.py create: a target past 2**31 - 1 overflows PostgreSQL's integer Match.target",
        id="create-target-2-31",
    ),
    pytest.param(
        "POST", "/api/v1/matches/import/", None, {"teams": TEAMS, "options": {"target": 2**63}}, BOTH,
        "scoring/services.py match_import: the same unbounded target",
        id="import-target-2-63",
    ),
    pytest.param(
        "POST", "/api/v1/matches/import/", None,
        {"teams": [{"name": "Kafeneio\u0000C", "players": ["Olga", "Pavlos"]}, TEAMS[1]]}, ("postgresql",),
        "scoring/engine/matchfile.py _teams / players.services: a NUL character in a name is saved "
        "(PostgreSQL refuses it: 500); the create form and MatchCreateSerializer refuse it",
        id="import-nul-in-a-name",
    ),
    pytest.param(
        "GET", "/api/v1/matches/", {"created_after": "2020-01-01T00:00:00-16:05"}, None, ("postgresql",),
        "scoring/api.py MatchFilter created_after/created_before: an offset past ±15:59 is valid ISO "
        "8601 for Python but PostgreSQL refuses it (time zone displacement out of range)",
        id="created-after-offset-16h",
    ),
    pytest.param(
        "GET", "/api/v1/matches/", {"created_before": "0001-01-01T00:00:00+01:00"}, None, ("sqlite",),
        "scoring/api.py MatchFilter created_before: year 1 at +01:00 is year 0 in UTC (OverflowError)",
        id="created-before-year-1",
    ),
    pytest.param(
        "GET", "/api/v1/matches/", {"created_before": "9999-12-31T23:59:59-01:00"}, None, ("sqlite",),
        "scoring/api.py MatchFilter created_before: 9999-12-31 at -01:00 is year 10000 in UTC",
        id="created-before-year-9999",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("method", "path", "query", "body", "failing", "reason"), SERVER_ERRORS)
def test_no_server_error_on(api, standalone, public_tournament, method, path, query, body, failing, reason):
    """As an organizer, with data in every list (an empty list never sends its limit to the database)."""
    client = api("organizer")
    client.raise_request_exception = False
    if method == "GET":
        response = client.get(path, query)
    else:
        response = client.post(path, body, format="json")
    assert response.status_code < 500, f"{method} {path} {query or body} gave {response.status_code}"


# The fuzz run -----------------------------------------------------------------------------------


def club_of(organizer):
    """A club the organizer runs, Nikos a member: its writes get past the 404s and the 403s."""
    club = Club.objects.create(name="Fuzz club")
    club.admins.add(organizer)
    club.memberships.create(player=Player.objects.get(name="Nikos"))
    return club


def season_of(organizer):
    """A league season the organizer owns, counting the public tournament: its slug."""
    tournament = Tournament.objects.get(name="Spring Cup")
    season = season_create(
        user=organizer,
        name="Fuzz league",
        starts_on=date(2025, 1, 1),
        ends_on=date(2025, 12, 31),
        tournaments=[tournament],
    )
    return season.slug


def hooks_and_tokens_of(organizer, tournament):
    """A webhook of the organizer's tournament with one delivery, and a scoped token of theirs: the
    webhooks' and tokens' paths get past their 404s. Made as rows: registering through the service
    would resolve the receiver's name (no network here)."""
    from players import tokens
    from webhooks.models import Delivery, Subscription

    hook = Subscription.objects.create(
        url="https://hooks.example.org/tsoxa", events=["round.started"], tournament=tournament,
        created_by=organizer,
    )  # fmt: skip
    delivery = Delivery.objects.create(
        subscription=hook, event="round.started", body="{}", status=Delivery.Status.FAILED
    )
    token, _key = tokens.token_create(user=organizer, name="Fuzz website", scope="read")
    return {"webhook": hook.pk, "delivery": str(delivery.pk), "token": token.pk}


MATCH_WRITES = {
    "POST /api/v1/matches/",
    "POST /api/v1/matches/import/",
    "POST /api/v1/matches/{id}/deals/",
    "PUT /api/v1/matches/{id}/deals/{deal_id}/",
}

EXAMPLES = 4  # per mode (valid / invalid data) and path parameters (generated / existing): <= 16
BUDGET = 90  # seconds of generated requests; operations left when it runs out are listed as skipped


@pytest.fixture
def wsgi_app():
    """The project's WSGI application, as a server would run it, minus the per-request connection
    closing (what Django's own test client does too): the test database stays put."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield get_wsgi_application()
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


# A parameter of any string (a slug, a header) has no invalid value: a path segment cannot hold the "/"
# that "^[^/]+$" refuses.
ANY_STRING = ({"type": "string"}, {"type": "string", "pattern": "^[^/]+$"})


def something_invalid(operation, fixed):
    """Whether the invalid (negative) mode can make anything of this request invalid: a body, or a
    parameter not given in ``fixed`` that takes less than any string. Else hypothesis searches for
    seconds before it gives up (Unsatisfiable): most of the run's time, spent on nothing."""
    raw = operation.definition.raw
    if "requestBody" in raw:
        return True
    for parameter in raw.get("parameters", []):
        schema = {key: value for key, value in parameter.get("schema", {}).items() if key != "description"}
        if parameter["name"] not in (fixed or {}) and schema not in ANY_STRING:
            return True
    return False


def real_parameters(path, data):
    """Path parameters that exist, so the fuzzer gets past the 404s."""
    values = {
        "slug": data["slug"],
        "number": 1,
        "table": 1,
        "entry_id": data["entry"],
        "deal_id": data["deal"],
        "id": data["match"],
    }
    if path.startswith("/api/v1/players"):
        values["id"] = data["player"]
    elif path.startswith("/api/v1/clubs"):
        values.update(slug=data["club"], player_id=data["player"])
    elif path.startswith("/api/v1/teams"):
        values["id"] = data["team"]
    elif path.startswith("/api/v1/seasons"):
        values["slug"] = data["season"]
    elif path.startswith("/api/v1/presets"):
        values["slug"] = "kafeneio-coinche-162"  # the organizer's, made by the create example
    elif path.startswith("/api/v1/webhooks"):
        values.update(id=data["webhook"], delivery_id=data["delivery"])
    elif path.startswith("/api/v1/tokens"):
        values["id"] = data["token"]
    return {name: value for name, value in values.items() if "{" + name + "}" in path}


# Every answer is checked: no server error, a documented status code, content type and headers, and a
# body that is what the schema says for that status.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


class Run:
    """The requests made, and the failures met: server errors and answers that break the schema, each
    kind of failure of an operation and status listed once (with the first request that met it)."""

    def __init__(self, auth):
        self.auth, self.calls, self.errors = auth, 0, {}
        self.written = set()  # the write operations that succeeded at least once

    def send(self, case):
        self.calls += 1
        try:
            response = case.call()
        except Exception as error:  # an exception the WSGI handler let through
            self.failed(case, "Server error", None, f"{type(error).__name__}: {error}")
            return
        if response.status_code < 300 and case.method.upper() not in ("GET", "HEAD", "OPTIONS"):
            self.written.add(f"{case.method.upper()} {case.operation.path}")
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            for failure in group.exceptions:
                self.failed(case, failure.title, response.status_code, failure.message)

    def failed(self, case, kind, status, detail):
        key = (kind, case.method.upper(), case.operation.path, status)
        if key not in self.errors and len(self.errors) < 60:
            curl = case.as_curl_command(headers=self.auth)
            self.errors[key] = f"{kind}: {status} {curl}\n    {str(detail)[:400]!r}"


@pytest.mark.django_db(transaction=True)
def test_fuzz_finds_no_server_error(
    wsgi_app, organizer, scorekeeper, standalone, public_tournament, draft_tournament, open_tournament
):
    """Every operation of the project's own schema, authenticated as an organizer (who keeps the
    standalone match too): generated data, valid and invalid, with generated and with existing path
    parameters; derandomized, so every run sends the same requests. Every answer is checked (CHECKS):
    no server error (5xx), and a status code, content type, headers and body that the schema documents
    for the operation. The requests of SERVER_ERRORS are tested above, one by one."""
    standalone.keepers.add(organizer)
    data = {
        "slug": draft_tournament.slug,
        "entry": draft_tournament.entries.order_by("pk").first().pk,
        "match": standalone.pk,
        "deal": standalone.deals.order_by("position").last().pk,
        "player": Player.objects.get(name="Nikos").pk,
        "team": Team.objects.get(name="Kafeneio A").pk,
        "club": club_of(organizer).slug,
        "season": season_of(organizer),
        **hooks_and_tokens_of(organizer, draft_tournament),
    }
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", wsgi_app)
    auth = {"Authorization": f"Token {organizer.token}"}
    run = Run(auth)
    # First the schema's own request examples, on objects that exist: data each write accepts.
    for result in schema.get_all_operations():
        operation = result.ok()
        content = operation.definition.raw.get("requestBody", {}).get("content", {})
        for example in content.get("application/json", {}).get("examples", {}).values():
            run.send(
                operation.Case(
                    body=example["value"],
                    media_type="application/json",
                    headers=auth,
                    path_parameters=real_parameters(operation.path, data),
                )
            )
    started, skipped, nothing_to_generate = time.monotonic(), [], []
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path == "/api/v1/token/":
            continue  # it takes a password, not the token
        real = real_parameters(operation.path, data)
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for fixed in [None, real] if real else [None]:
                label = f"{operation.method.upper()} {operation.path} {mode.value} {fixed or ''}"
                if time.monotonic() - started > BUDGET:
                    skipped.append(label)
                    continue
                if mode == GenerationMode.NEGATIVE and not something_invalid(operation, fixed):
                    nothing_to_generate.append(label)
                    continue
                strategy = operation.as_strategy(generation_mode=mode, headers=auth, path_parameters=fixed)

                @hypothesis.settings(
                    max_examples=EXAMPLES,
                    deadline=None,
                    derandomize=True,
                    database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=list(HealthCheck),
                    print_blob=False,
                )
                @hypothesis.given(case=strategy)
                def fuzz(case):
                    run.send(case)

                try:
                    fuzz()
                except hypothesis.errors.Unsatisfiable:  # e.g. no invalid value for a path's slug
                    nothing_to_generate.append(label)

    print(f"\nfuzz: {run.calls} requests in {time.monotonic() - started:.1f}s")
    print(
        f"skipped (time budget): {skipped or 'none'}; nothing invalid to generate: {len(nothing_to_generate)}"
    )
    print(f"writes that succeeded: {sorted(run.written)}")
    if run.calls < 200:
        raise RuntimeError(f"the fuzz run made only {run.calls} requests")
    assert not run.errors, "server errors and answers the schema does not document:\n" + "\n".join(
        run.errors.values()
    )
    # The token really writes: the schema's examples reach the match writes with data they accept.
    assert run.written >= MATCH_WRITES, f"never written: {sorted(MATCH_WRITES - run.written)}"


def test_public_reads_are_documented_as_open_to_anyone(anon):
    """A read anyone may make lists no credentials among its options ({}), so that a generated client
    reads public standings without a token; an account's own things (tokens, webhooks) do not, and
    asking them anonymously is refused. Each list documented as open answers a signed-out client."""
    schema = json.loads(anon.get("/api/schema/", {"format": "json"}).content)
    open_lists = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            anyone = {} in operation.get("security", [])
            if method != "get":
                assert not anyone, f"{method.upper()} {path}"
            elif "{" not in path:
                status = anon.get(path).status_code
                assert (status < 400) == anyone, f"GET {path}: {status}, documented open: {anyone}"
                if anyone:
                    open_lists.append(path)
    assert {"/api/v1/tournaments/", "/api/v1/matches/", "/api/v1/changes/"} <= set(open_lists)
    assert "/api/v1/tokens/" not in open_lists and "/api/v1/webhooks/" not in open_lists
    standings = schema["paths"]["/api/v1/tournaments/{slug}/standings/"]["get"]
    assert {} in standings["security"]


def test_the_schema_is_made_once_a_process_for_each_language_and_again_after_a_change_of_settings(
    anon, monkeypatch, settings
):
    from django.utils import translation
    from drf_spectacular.generators import SchemaGenerator

    from api import docs

    made = []
    real = SchemaGenerator.get_schema

    def counted(self, *args, **kwargs):
        made.append(translation.get_language())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counted)
    docs._forget_schemas()  # what this process's earlier tests made
    first = anon.get("/api/schema/", {"format": "json"})
    again = anon.get("/api/schema/", {"format": "json"})
    in_yaml = anon.get("/api/schema/")
    in_greek = anon.get("/api/schema/", {"format": "json", "lang": "el"})
    assert [r.status_code for r in (first, again, in_yaml, in_greek)] == [200] * 4
    assert made == [settings.LANGUAGE_CODE, "el"]
    assert again.content == first.content and yaml.safe_load(in_yaml.content) == json.loads(first.content)
    assert in_greek.content != first.content  # the fields' help in Greek: not the English schema's
    # A language the site does not speak, a version it does not have: made for the request, not kept.
    for asked in ({"lang": "xx"}, {"version": "9"}):
        assert anon.get("/api/schema/", {"format": "json", **asked}).status_code == 200
    assert len(made) == 4 and set(docs._schemas) == {(settings.LANGUAGE_CODE, None), ("el", None)}
    made[2:] = []
    settings.TSOXA_A_SETTING_CHANGED = True  # what a test's override of any setting does
    assert anon.get("/api/schema/", {"format": "json"}).content == first.content
    assert made == [settings.LANGUAGE_CODE, "el", settings.LANGUAGE_CODE]  # made again
