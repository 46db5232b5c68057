"""The OpenAPI 3 schema, the browsable docs, and a schema-driven fuzz run (schemathesis) that must
find no server error."""

import json
import time
from datetime import date

import hypothesis
import pytest
import schemathesis
import yaml
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connection
from hypothesis import HealthCheck, Phase
from schemathesis import GenerationMode

from league.services import season_create
from players.models import Club, Player, Team
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

V1_PATHS = {
    "/api/v1/clubs/",
    "/api/v1/clubs/{slug}/",
    "/api/v1/clubs/{slug}/members/",
    "/api/v1/clubs/{slug}/members/{player_id}/",
    "/api/v1/matches/",
    "/api/v1/matches/{id}/",
    "/api/v1/matches/{id}/deals/",
    "/api/v1/matches/{id}/deals/{deal_id}/",
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
    "/api/v1/tournaments/{slug}/adjustments/",
    "/api/v1/tournaments/{slug}/adjustments/{adjustment_id}/",
    "/api/v1/tournaments/{slug}/avoid/",
    "/api/v1/tournaments/{slug}/export/",
    "/api/v1/tournaments/{slug}/finish/",
    "/api/v1/tournaments/{slug}/ranking/",
    "/api/v1/tournaments/{slug}/ranking.csv/",
    "/api/v1/tournaments/{slug}/rounds/",
    "/api/v1/tournaments/{slug}/rounds/{number}/",
    "/api/v1/tournaments/{slug}/rounds/{number}/clock/",
    "/api/v1/tournaments/{slug}/rounds/{number}/start/",
    "/api/v1/tournaments/{slug}/rounds/{number}/swap/",
    "/api/v1/tournaments/{slug}/standings/",
    "/api/v1/tournaments/{slug}/standings.csv/",
    "/api/v1/tournaments/{slug}/start/",
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
        "tournaments/api.py TournamentFilter.by_player: '²'.isdigit() is true but int('²') fails",
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


def real_parameters(path, data):
    """Path parameters that exist, so the fuzzer gets past the 404s."""
    values = {
        "slug": data["slug"],
        "number": 1,
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
    return {name: value for name, value in values.items() if "{" + name + "}" in path}


class Run:
    """The requests made and the server errors met."""

    def __init__(self, auth):
        self.auth, self.calls, self.errors = auth, 0, {}
        self.written = set()  # the write operations that succeeded at least once

    def send(self, case):
        self.calls += 1
        try:
            response = case.call()
        except Exception as error:  # an exception the WSGI handler let through
            status, detail = None, f"{type(error).__name__}: {error}"
        else:
            if response.status_code < 300 and case.method.upper() not in ("GET", "HEAD", "OPTIONS"):
                self.written.add(f"{case.method.upper()} {case.operation.path}")
            if response.status_code < 500:
                return
            status, detail = response.status_code, response.content[:200]
        curl = case.as_curl_command(headers=self.auth)
        if len(self.errors) < 40:
            self.errors.setdefault(curl, f"{status} {curl}\n    {detail!r}")


@pytest.mark.django_db(transaction=True)
def test_fuzz_finds_no_server_error(
    wsgi_app, organizer, scorekeeper, standalone, public_tournament, draft_tournament, open_tournament
):
    """Every operation of the project's own schema, authenticated as an organizer (who keeps the
    standalone match too): generated data, valid and invalid, with generated and with existing path
    parameters; derandomized, so every run sends the same requests. The one check: no server error
    (5xx). The requests of SERVER_ERRORS are tested above, one by one."""
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
    assert not run.errors, "server errors:\n" + "\n".join(run.errors.values())
    # The token really writes: the schema's examples reach the match writes with data they accept.
    assert run.written >= MATCH_WRITES, f"never written: {sorted(MATCH_WRITES - run.written)}"
