"""Every refusal of the API is an RFC 9457 problem (application/problem+json, api/errors.py),
and the body it answers is the one the schema documents for that operation and status: real bodies
are checked with jsonschema against the component the schema names."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from rest_framework.test import APIClient

from tests.problems import PROBLEM_MEDIA_TYPE, attrs, fields, kind, problem

from .conftest import WIN_0, WIN_1

pytestmark = pytest.mark.django_db

PROBLEMS = {"Problem", "ValidationProblem", "DealProblem", "StaleVersionProblem"}


@pytest.fixture(scope="module")
def schema(django_db_blocker) -> dict[str, Any]:
    """The schema as the API serves it (made once: it takes seconds)."""
    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/", {"format": "json"}, REMOTE_ADDR="192.0.2.1")
    assert response.status_code == 200
    return json.loads(response.content)


def as_json_schema(node: Any, components: dict[str, Any]) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: its references inlined, ``nullable`` as a null type."""
    if isinstance(node, list):
        return [as_json_schema(item, components) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return as_json_schema(components[node["$ref"].rsplit("/", 1)[1]], components)
    converted = {key: as_json_schema(value, components) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        converted["type"] = [node["type"], "null"]
    return converted


def documented(schema: dict[str, Any], path: str, method: str, status: int) -> tuple[str, dict[str, Any]]:
    """The component the schema names for this answer, and its JSON Schema."""
    answer = schema["paths"][path][method]["responses"][str(status)]
    assert list(answer["content"]) == [PROBLEM_MEDIA_TYPE], (path, method, status)
    reference = answer["content"][PROBLEM_MEDIA_TYPE]["schema"]
    components = schema["components"]["schemas"]
    return reference["$ref"].rsplit("/", 1)[1], as_json_schema(reference, components)


def conforms(schema, response, path: str, method: str, status: int, component: str) -> dict[str, Any]:
    """The body of the answer, a problem of this status valid against what the schema documents."""
    body = problem(response, status)
    name, json_schema = documented(schema, path, method, status)
    assert name == component, (path, method, status, name)
    jsonschema.Draft7Validator(json_schema, format_checker=jsonschema.FormatChecker()).validate(body)
    assert set(json_schema["required"]) <= set(body)
    assert body["instance"] == response.request["PATH_INFO"]
    return body


def test_a_field_error_is_a_validation_problem_listing_every_field(schema, api, users):
    response = api("organizer").post("/api/v1/tournaments/", {"swiss_rounds": 0}, format="json")
    body = conforms(schema, response, "/api/v1/tournaments/", "post", 400, "ValidationProblem")
    assert (body["type"], body["title"]) == (kind("validation-error"), "Invalid request")
    assert fields(body) == {"name", "swiss_rounds"}
    assert {error["code"] for error in body["errors"]} >= {"required"}
    assert body["detail"].startswith(body["errors"][0]["attr"] + ": ")
    assert body["detail"].endswith("(and 1 more error)")


def test_a_nested_field_is_named_by_its_path(schema, api, users):
    teams = [{"name": "Lions", "players": ["Alexis", "Vaso"]}, {"name": "", "players": ["A", "B"]}]
    response = api("player").post("/api/v1/matches/", {"teams": teams}, format="json")
    body = conforms(schema, response, "/api/v1/matches/", "post", 400, "DealProblem")
    assert attrs(body) == {"teams.1.name"} and "field" not in body


def test_a_bad_filter_is_a_validation_problem(schema, anon):
    response = anon.get("/api/v1/matches/", {"ruleset": "poker"})
    body = conforms(schema, response, "/api/v1/matches/", "get", 400, "ValidationProblem")
    assert attrs(body) == {"ruleset"}


def test_a_deal_the_rules_refuse_keeps_its_field_and_position(schema, api, standalone):
    path = f"/api/v1/matches/{standalone.pk}/deals/"
    bad = {"maker": 0, "card_points": [62, 80], "last_trick": 0}
    response = api("scorekeeper").post(path, bad, format="json")
    body = conforms(schema, response, "/api/v1/matches/{id}/deals/", "post", 400, "DealProblem")
    assert (body["type"], body["field"], body["deal"]) == (kind("rules-violation"), "card_points", 3)
    assert body["errors"] == [{"attr": "card_points", "code": "refused_by_rules", "detail": body["detail"]}]
    assert body["detail"].startswith("deal 4 (deals[3]), card_points: ")


def test_an_organizers_refusal_is_a_problem_with_its_words(schema, api, public_tournament):
    path = f"/api/v1/tournaments/{public_tournament.slug}/start/"
    response = api("organizer").post(path)
    body = conforms(schema, response, "/api/v1/tournaments/{slug}/start/", "post", 400, "ValidationProblem")
    assert body["type"] == kind("refused") and "started" in body["detail"]
    assert body["errors"] == [{"attr": None, "code": "refused", "detail": body["detail"]}]


def test_an_unreadable_body_is_a_malformed_request(schema, api, users):
    response = api("organizer").post("/api/v1/tournaments/", b"{", content_type="application/json")
    body = conforms(schema, response, "/api/v1/tournaments/", "post", 400, "ValidationProblem")
    assert body["type"] == kind("malformed-request") and body["detail"].startswith("JSON parse error")
    assert fields(body) == {None}


def test_no_such_object_is_a_404_problem(schema, anon, users):
    response = anon.get("/api/v1/tournaments/no-such-cup/")
    body = conforms(schema, response, "/api/v1/tournaments/{slug}/", "get", 404, "Problem")
    assert (body["type"], body["title"]) == (kind("not-found"), "Not found")
    response = anon.get("/api/v1/matches/999999/sheet/")
    conforms(schema, response, "/api/v1/matches/{id}/sheet/", "get", 404, "Problem")


def test_credentials_refused_are_401_and_403_problems(schema, anon, api, standalone):
    wrong = APIClient(HTTP_AUTHORIZATION="Token not-a-token")
    response = wrong.get("/api/v1/tournaments/")
    body = conforms(schema, response, "/api/v1/tournaments/", "get", 401, "Problem")
    assert body["type"] == kind("not-authenticated") and response["WWW-Authenticate"] == "Token"
    path = f"/api/v1/matches/{standalone.pk}/deals/"
    response = anon.post(path, WIN_0, format="json")
    conforms(schema, response, "/api/v1/matches/{id}/deals/", "post", 401, "Problem")
    response = api("player").post(path, WIN_0, format="json")
    body = conforms(schema, response, "/api/v1/matches/{id}/deals/", "post", 403, "Problem")
    assert body["type"] == kind("permission-denied")


def test_a_key_reused_for_another_deal_is_a_409_deal_problem(schema, api, standalone):
    client, path = api("scorekeeper"), f"/api/v1/matches/{standalone.pk}/deals/"
    assert client.post(path, WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="tablet-9").status_code == 201
    response = client.post(path, WIN_1, format="json", HTTP_IDEMPOTENCY_KEY="tablet-9")
    body = conforms(schema, response, "/api/v1/matches/{id}/deals/", "post", 409, "DealProblem")
    assert (body["type"], body["field"], body["deal"]) == (
        kind("idempotency-conflict"),
        "Idempotency-Key",
        None,
    )
    assert "already used for another deal" in body["detail"]


def test_a_stale_version_is_a_412_with_the_version_now(schema, api, standalone):
    path = f"/api/v1/matches/{standalone.pk}/finish/"
    response = api("scorekeeper").post(path, HTTP_IF_MATCH='"1"')
    body = conforms(schema, response, "/api/v1/matches/{id}/finish/", "post", 412, "StaleVersionProblem")
    assert (body["type"], body["version"]) == (kind("stale-version"), standalone.version)


def test_a_body_too_large_is_a_413_problem(schema, api, users, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 200
    body = {"teams": [{"name": "x" * 300, "players": ["A", "B"]}, {"name": "Y", "players": ["C", "D"]}]}
    response = api("club_writer").post("/api/v1/matches/import/", body, format="json")
    problem_body = conforms(schema, response, "/api/v1/matches/import/", "post", 413, "Problem")
    assert problem_body["type"] == kind("body-too-large") and "200 bytes" in problem_body["detail"]


def test_the_api_rate_is_a_429_problem_with_retry_after(schema, anon, settings):
    rest = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **rest,
        "DEFAULT_THROTTLE_RATES": {**rest["DEFAULT_THROTTLE_RATES"], "anon": "2/min"},
    }
    address = {"REMOTE_ADDR": "198.51.100.7"}  # counted apart from the schema's request
    for _ in range(2):
        assert anon.get("/api/v1/tournaments/", **address).status_code == 200
    response = anon.get("/api/v1/tournaments/", **address)
    body = conforms(schema, response, "/api/v1/tournaments/", "get", 429, "Problem")
    assert body["type"] == kind("throttled") and 1 <= int(response["Retry-After"]) <= 60
    assert "Retry-After" in schema["paths"]["/api/v1/tournaments/"]["get"]["responses"]["429"]["headers"]


def test_the_login_limit_is_a_429_problem_too(schema, anon):
    for n in range(10):
        attempt = anon.post("/api/v1/token/", {"username": "nikos", "password": f"guess-{n}"}, format="json")
        conforms(schema, attempt, "/api/v1/token/", "post", 400, "ValidationProblem")
    response = anon.post("/api/v1/token/", {"username": "nikos", "password": "guess"}, format="json")
    body = conforms(schema, response, "/api/v1/token/", "post", 429, "Problem")
    assert (
        response["Retry-After"] == "60"
        and body["detail"] == "Too many attempts: wait a minute and try again."
    )


def test_a_method_not_allowed_is_a_405_problem(api, public_tournament):
    response = api("organizer").delete(f"/api/v1/tournaments/{public_tournament.slug}/")
    body = problem(response, 405)
    assert (body["type"], body["detail"]) == (kind("method-not-allowed"), 'Method "DELETE" not allowed.')


def test_a_server_error_is_a_500_problem_that_tells_nothing(anon, monkeypatch):
    from tournaments.api import TournamentViewSet

    def broken(self):
        raise RuntimeError("the database password is hunter2")

    monkeypatch.setattr(TournamentViewSet, "get_queryset", broken)
    anon.raise_request_exception = False
    body = problem(anon.get("/api/v1/tournaments/"), 500)
    assert (body["type"], body["detail"]) == (kind("server-error"), "Server Error (500)")
    assert "hunter2" not in json.dumps(body)


def test_an_unknown_api_path_is_a_404_problem_and_a_page_stays_a_page(anon):
    body = problem(anon.get("/api/v1/no-such-thing/"), 404)
    assert (body["type"], body["instance"]) == (kind("not-found"), "/api/v1/no-such-thing/")
    page = anon.get("/no-such-page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


def test_a_browser_asking_for_html_gets_the_browsable_page(anon):
    response = anon.get("/api/v1/tournaments/no-such-cup/", HTTP_ACCEPT="text/html")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_every_operation_documents_its_refusals_as_problems(schema):
    """429 and 401 everywhere; 400, 403 on writes; 404 where the path names an object; 413 with a
    body; each a named problem component in application/problem+json."""
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            where = f"{method.upper()} {path}"
            assert {"401", "429"} <= set(responses), where
            if method in ("post", "put", "patch", "delete"):
                assert {"400", "403"} <= set(responses), where
            if "{" in path:
                assert "404" in responses, where
            if "requestBody" in operation:
                assert "413" in responses, where
            for status, answer in responses.items():
                if status >= "400":
                    content = answer["content"]
                    assert list(content) == [PROBLEM_MEDIA_TYPE], (where, status)
                    name = content[PROBLEM_MEDIA_TYPE]["schema"]["$ref"].rsplit("/", 1)[1]
                    assert name in PROBLEMS, (where, status, name)


def test_an_error_outside_drf_under_the_api_is_a_500_problem_too(rf):
    from web.views import server_error

    response = server_error(rf.get("/api/schema/"))
    assert (response.status_code, response["Content-Type"]) == (500, PROBLEM_MEDIA_TYPE)
    assert json.loads(response.content)["type"] == kind("server-error")
    assert server_error(rf.get("/tournaments/"))["Content-Type"].startswith("text/html")


def test_each_problem_type_leads_to_the_page_that_explains_it(anon, settings):
    """A problem's ``type`` is absolute (RFC 9457) and, followed, is the problem types' page, where an
    entry with the kind as its id says what it means."""
    from api.errors import PROBLEM_TYPES

    settings.TSOXA_SITE_URL = "https://tsoxa.example.org/"
    body = problem(anon.get("/api/v1/no-such-thing/"), 404)
    assert body["type"] == "https://tsoxa.example.org/api/problems/#not-found"
    page = anon.get("/api/problems/")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    html = page.content.decode()
    for kind_ in PROBLEM_TYPES:
        path, _, anchor = kind_.uri.removeprefix("https://tsoxa.example.org").partition("#")
        assert path == "/api/problems/"
        assert f'<dt id="{anchor}">' in html, anchor
        assert kind_.means and f"{kind_.status}" in html
    assert "<code>Retry-After</code>" in html  # a member named in a description is shown as code
