"""POST /api/v1/matches/import/: a file's size is bounded, in deals and in bytes, before any work."""

import json

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import RequestFactory
from rest_framework.parsers import JSONParser
from rest_framework.request import Request

from api.parsers import SafeJSONParser
from players.models import Player, Team
from scoring.models import Deal, Match
from tests.factories import made
from tests.problems import kind, problem

from .conftest import WIN_0

IMPORT = "/api/v1/matches/import/"
TEAMS = [{"name": "Tavli A", "players": ["Olga", "Pavlos"]}, {"name": "Tavli B", "players": ["Rea", "Sakis"]}]


def match_file(n: int, deal=None) -> dict:
    """``n`` made deals of 100 v 62 in a match to a million points: never over."""
    return {
        "ruleset": "mpourloto",
        "options": {"target": 1_000_000},
        "teams": TEAMS,
        "deals": [deal or WIN_0] * n,
    }


def counts():
    return (Match.objects.count(), Deal.objects.count(), Player.objects.count(), Team.objects.count())


def post(client, body: bytes | str):
    return client.post(IMPORT, body, content_type="application/json")


def test_a_file_of_1001_deals_is_a_400_naming_the_deals_and_saves_nothing(api, users):
    before = counts()
    response = api("club_writer").post(IMPORT, match_file(1001), format="json")
    words = "deals: a match file to import has at most 1000 deals; this one has 1001"
    assert problem(response, 400) == {
        "type": kind("rules-violation"),
        "title": "Refused by the game's rules",
        "status": 400,
        "detail": words,
        "instance": IMPORT,
        "errors": [{"attr": "deals", "code": "refused_by_rules", "detail": words}],
        "field": "deals",
        "deal": None,
    }
    assert counts() == before


def test_a_file_of_1000_deals_is_imported(api, users):
    response = api("club_writer").post(IMPORT, match_file(1000), format="json")
    assert response.status_code == 201, response.content[:300]
    body = response.json()
    assert len(body["deals"]) == 1000 and body["totals"] == [100_000, 62_000] and body["version"] == 1000


def test_the_limit_follows_the_setting(api, users, settings):
    settings.TSOXA_IMPORT_MAX_DEALS = 3
    assert problem(api("club_writer").post(IMPORT, match_file(4), format="json"), 400)["field"] == "deals"
    assert api("club_writer").post(IMPORT, match_file(3), format="json").status_code == 201


def test_many_tiny_deals_under_the_byte_limit_are_refused_by_their_count(api, users):
    body = json.dumps({**match_file(0), "deals": [{}] * 200_000}, separators=(",", ":"))
    assert len(body) < 2.5 * 2**20  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE
    before = counts()
    response = post(api("club_writer"), body)
    body = problem(response, 400)
    assert body["field"] == "deals"
    assert "this one has 200000" in body["detail"]
    assert counts() == before


def test_drf_reads_a_json_body_through_django_s_size_check(settings):
    """What DATA_UPLOAD_MAX_MEMORY_SIZE does for DRF's JSON parser: Django checks it only in
    request.body and request.POST, never in request.read(). DRF (3.18) hands its JSON and form
    parsers request.body, so the check applies, from the Content-Length, before a byte is read;
    the parser's own stream would not be checked. Should DRF go back to the stream, this fails."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    body = json.dumps({"teams": TEAMS, "deals": [made()] * 20})
    assert len(body) > 100
    streamed = RequestFactory().post(IMPORT, body, content_type="application/json")
    assert JSONParser().parse(streamed)["deals"] == [made()] * 20  # the stream: read whole, over the limit
    request = Request(
        RequestFactory().post(IMPORT, body, content_type="application/json"), parsers=[SafeJSONParser()]
    )
    with pytest.raises(RequestDataTooBig):
        request.data  # noqa: B018


def test_a_body_over_django_s_limit_is_a_413_and_saves_nothing(api, users):
    padding = "x" * (3 * 2**20)  # 3 MiB: over the default 2.5 MiB, and no match file at all
    body = json.dumps({**match_file(1), "teams": [{"name": padding, "players": ["A", "B"]}, TEAMS[1]]})
    before = counts()
    response = post(api("club_writer"), body)
    assert problem(response, 413) == {
        "type": kind("body-too-large"),
        "title": "Request body too large",
        "status": 413,
        "detail": "The body is larger than 2621440 bytes, more than any document of this API.",
        "instance": IMPORT,
    }
    assert counts() == before


def test_the_body_limit_is_django_s_setting(api, users, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2000
    small, large = json.dumps(match_file(3)), json.dumps(match_file(40))
    assert len(small) <= 2000 < len(large)
    assert post(api("club_writer"), small).status_code == 201
    assert post(api("club_writer"), large).status_code == 413


def test_the_body_limit_holds_for_the_deals_endpoint_too(api, users, standalone, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = api("scorekeeper")
    url = f"/api/v1/matches/{standalone.pk}/deals/"
    deals = standalone.deals.count()
    response = client.post(url, json.dumps({**WIN_0, "pad": "x" * 2000}), content_type="application/json")
    assert response.status_code == 413
    assert standalone.deals.count() == deals


def test_json_nested_100000_deep_is_a_400(api, users):
    before = counts()
    response = post(api("club_writer"), "[" * 100_000)
    assert response.status_code == 400
    assert counts() == before
