"""CORS: a club's website reads the API's public reads from the browser, and nothing else.

The rule is api/cors.py's: a GET, HEAD or OPTIONS of a public read route under /api/v1/ answers
any origin (``Access-Control-Allow-Origin: *``), never with ``Access-Control-Allow-Credentials``;
writes, their preflights, requests with a token, the token endpoints, tokens, sync, webhooks and
the organizer's reads get no CORS header at all, so the browser shows another site's page nothing.
"""

import datetime
import json

import pytest
from django.urls import resolve

from api.cors import PUBLIC_READS
from league.services import season_create
from players.models import Club, Player
from webhooks.models import Subscription

from .conftest import WIN_0, client_for

pytestmark = pytest.mark.django_db

CLUB_SITE = "https://club.example.org"
ALLOW_ORIGIN = "Access-Control-Allow-Origin"
CORS_HEADERS = (
    ALLOW_ORIGIN,
    "Access-Control-Allow-Credentials",
    "Access-Control-Allow-Methods",
    "Access-Control-Allow-Headers",
    "Access-Control-Expose-Headers",
    "Access-Control-Max-Age",
)
# A read open to anyone (the schema lists no credentials for it) that answers no other origin: the
# sync feed of removals is for a club's server that mirrors the API, with its cursor.
OPEN_BUT_NOT_CROSS_ORIGIN = {"/api/v1/changes/"}


def cors(response):
    """The CORS headers of an answer, by name."""
    return {name: response[name] for name in CORS_HEADERS if response.has_header(name)}


def public(response):
    """What a public read answers another origin: any origin, no credentials, ETag and Retry-After
    readable by the page's script."""
    headers = cors(response)
    assert headers.get(ALLOW_ORIGIN) == "*", headers
    assert "Access-Control-Allow-Credentials" not in headers
    assert headers["Access-Control-Expose-Headers"] == "ETag, Retry-After"
    assert "origin" in response["Vary"].lower()
    return headers


@pytest.fixture
def objects(organizer, public_tournament, standalone, player_user):
    """A real object behind every path parameter of the API's reads."""
    club = Club.objects.create(name="Kafeneio club")
    club.admins.add(organizer)
    season = season_create(
        user=organizer,
        name="Spring league",
        starts_on=datetime.date(2025, 1, 1),
        ends_on=datetime.date(2025, 12, 31),
        tournaments=[public_tournament],
    )
    hook = Subscription.objects.create(
        url="https://hooks.example.org/tsoxa",
        events=["round.started"],
        tournament=public_tournament,
        created_by=organizer,
    )
    preset = client_for().get("/api/v1/presets/").json()
    preset = (preset["results"] if isinstance(preset, dict) else preset)[0]["slug"]
    return {
        "tournaments": {"slug": public_tournament.slug, "number": 1},
        "matches": {"id": standalone.pk},
        "players": {"id": Player.objects.get(name="Nikos").pk},
        "teams": {"id": public_tournament.entries.first().team_id},
        "clubs": {"slug": club.slug},
        "seasons": {"slug": season.slug},
        "presets": {"slug": preset},
        "webhooks": {"id": hook.pk},
    }


def url_of(path, objects):
    values = objects.get(path.split("/")[3], {})
    for name, value in values.items():
        path = path.replace(f"{{{name}}}", str(value))
    assert "{" not in path, path
    return path


def test_each_public_read_answers_any_origin_and_nothing_else_does(anon, objects):
    """Every read of the schema, asked from a club's website without credentials: the public ones
    answer 200 with CORS headers, the others none; and the reads answering other origins are exactly
    those the schema documents as open to anyone, but the sync feed."""
    schema = json.loads(anon.get("/api/schema/", {"format": "json"}).content)
    cross_origin, open_to_anyone = set(), set()
    for path, operations in schema["paths"].items():
        if "get" not in operations:
            continue
        if operations["get"].get("security") == [{}]:
            open_to_anyone.add(path)
        url = url_of(path, objects)
        response = anon.get(url, HTTP_ORIGIN=CLUB_SITE)
        if resolve(url).url_name in PUBLIC_READS:
            assert response.status_code == 200, (url, response.status_code)
            public(response)
            cross_origin.add(path)
        else:
            assert cors(response) == {}, url
    assert cross_origin == open_to_anyone - OPEN_BUT_NOT_CROSS_ORIGIN
    assert {
        "/api/v1/tournaments/{slug}/",
        "/api/v1/tournaments/{slug}/standings/",
        "/api/v1/tournaments/{slug}/rounds/",
        "/api/v1/tournaments/{slug}/rounds/{number}/",
        "/api/v1/tournaments/{slug}/ranking/",
        "/api/v1/tournaments/{slug}/prizes/",
        "/api/v1/tournaments/{slug}/bracket/",
        "/api/v1/players/{id}/history/",
    } <= cross_origin


def test_the_standings_answer_a_website_as_json_and_as_csv(anon, public_tournament):
    base = f"/api/v1/tournaments/{public_tournament.slug}"
    answer = anon.get(f"{base}/standings/", HTTP_ORIGIN=CLUB_SITE)
    public(answer)
    assert [row["rank"] for row in answer.json()["rows"]][:1] == [1]
    csv = anon.get(f"{base}/standings.csv", HTTP_ORIGIN=CLUB_SITE)
    public(csv)
    assert csv["Content-Type"].startswith("text/csv")
    head = anon.head(f"{base}/standings/", HTTP_ORIGIN=CLUB_SITE)
    assert head.status_code == 200
    public(head)
    root = anon.get("/api/v1/", HTTP_ORIGIN=CLUB_SITE)  # the API's list of its collections
    assert root.status_code == 200
    public(root)


def test_a_private_tournament_answers_another_origin_as_a_tournament_that_does_not_exist(
    anon, private_tournament
):
    hidden = anon.get(f"/api/v1/tournaments/{private_tournament.slug}/standings/", HTTP_ORIGIN=CLUB_SITE)
    missing = anon.get("/api/v1/tournaments/no-such-cup/standings/", HTTP_ORIGIN=CLUB_SITE)
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json()["detail"] == missing.json()["detail"]
    assert "Secret" not in hidden.content.decode()


def test_the_preflight_of_a_read_is_granted_for_reads_only(anon, public_tournament):
    answer = anon.options(
        f"/api/v1/tournaments/{public_tournament.slug}/standings/",
        HTTP_ORIGIN=CLUB_SITE,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
    )
    assert answer.status_code == 200
    headers = public(answer)
    assert headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS"
    assert "authorization" not in headers["Access-Control-Allow-Headers"]
    assert "if-none-match" in headers["Access-Control-Allow-Headers"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/v1/matches/{match}/deals/"),
        ("PUT", "/api/v1/matches/{match}/deals/{deal}/"),
        ("DELETE", "/api/v1/matches/{match}/deals/{deal}/"),
        ("PATCH", "/api/v1/tournaments/{slug}/"),
        ("POST", "/api/v1/tournaments/{slug}/rounds/"),
        ("PUT", "/api/v1/tournaments/{slug}/prizes/"),
        ("POST", "/api/v1/matches/"),
        ("POST", "/api/v1/token/"),
        ("POST", "/api/v1/tokens/"),
        ("POST", "/api/v1/webhooks/"),
    ],
)
def test_the_preflight_of_a_write_is_refused(anon, public_tournament, standalone, method, path):
    """No CORS header: the browser never sends the write (with or without a token)."""
    deal = standalone.deals.first()
    url = path.format(match=standalone.pk, deal=deal.pk, slug=public_tournament.slug)
    for asked_headers in ("content-type", "authorization, content-type"):
        answer = anon.options(
            url,
            HTTP_ORIGIN=CLUB_SITE,
            HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
            HTTP_ACCESS_CONTROL_REQUEST_HEADERS=asked_headers,
        )
        assert cors(answer) == {}, (method, url, asked_headers)


def test_the_preflight_of_a_read_with_a_token_is_refused(anon, public_tournament):
    answer = anon.options(
        f"/api/v1/tournaments/{public_tournament.slug}/standings/",
        HTTP_ORIGIN=CLUB_SITE,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization",
    )
    assert cors(answer) == {}


def test_a_write_that_succeeds_carries_no_cors_header(scorekeeper, standalone, organizer, public_tournament):
    """Even a write made with a token (from a server, where CORS means nothing) says nothing to a
    browser: a page on another origin could not read its answer."""
    answer = client_for(scorekeeper).post(
        f"/api/v1/matches/{standalone.pk}/deals/", WIN_0, format="json", HTTP_ORIGIN=CLUB_SITE
    )
    assert answer.status_code == 201
    assert cors(answer) == {}
    changed = client_for(organizer).patch(
        f"/api/v1/tournaments/{public_tournament.slug}/",
        {"embed_origins": [CLUB_SITE]},
        format="json",
        HTTP_ORIGIN=CLUB_SITE,
    )
    assert changed.status_code == 200
    assert cors(changed) == {}


def test_a_write_without_credentials_is_refused_without_cors_headers(anon, standalone):
    answer = anon.post(f"/api/v1/matches/{standalone.pk}/deals/", WIN_0, format="json", HTTP_ORIGIN=CLUB_SITE)
    assert answer.status_code in (401, 403)
    assert cors(answer) == {}
    assert standalone.deals.count() == 3


def test_private_reads_and_reads_with_credentials_answer_no_other_origin(organizer, public_tournament, anon):
    """The account's things, the organizer's console and check-in, the sync feed; and a public read
    sent with a token (the token's answer may hold more than the public one)."""
    token = client_for(organizer)
    slug = public_tournament.slug
    for url in [
        "/api/v1/tokens/",
        "/api/v1/webhooks/",
        "/api/v1/clubs/invitations/",
        f"/api/v1/tournaments/{slug}/console/",
        f"/api/v1/tournaments/{slug}/checkin/",
        f"/api/v1/tournaments/{slug}/standings/",
        "/api/v1/changes/",
    ]:
        answer = token.get(url, HTTP_ORIGIN=CLUB_SITE)
        assert answer.status_code == 200, url
        assert cors(answer) == {}, url
    sync = anon.get("/api/v1/changes/", HTTP_ORIGIN=CLUB_SITE)
    assert sync.status_code == 200 and cors(sync) == {}


def test_nothing_outside_the_api_answers_another_origin(anon, public_tournament):
    for url in [
        "/api/schema/",
        "/api/docs/",
        "/api/problems/",
        f"/tournaments/{public_tournament.slug}/",
        f"/tournaments/{public_tournament.slug}/standings/",
    ]:
        answer = anon.get(url, HTTP_ORIGIN=CLUB_SITE)
        assert answer.status_code == 200, url
        assert cors(answer) == {}, url
