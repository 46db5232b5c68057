"""A body the API cannot read is a 400 on every endpoint that takes one, never a server error,
and saves nothing."""

import pytest

from api.parsers import MAX_DEPTH
from scoring.models import Deal, Match
from tests.problems import kind, problem
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

BODIES = {
    "100,000 opening brackets": b"[" * 100_000,
    "100,000 nested objects": b'{"a":' * 100_000,
    "invalid UTF-8": b'{"username": "\xff\xfe"}',
    "cut short": b'{"a":',
    "not JSON": b"teams=Kafeneio",
    "nested deeper than any document": b'{"deals": ' + b"[" * MAX_DEPTH + b"]" * MAX_DEPTH + b"}",
}


@pytest.fixture
def endpoints(standalone, public_tournament):
    deal = standalone.deals.filter(deleted_at__isnull=True).last()
    match = f"/api/v1/matches/{standalone.pk}/"
    return {
        "create a match": ("post", "/api/v1/matches/", "scorekeeper"),
        "import a match file": ("post", "/api/v1/matches/import/", "scorekeeper"),
        "record a deal": ("post", f"{match}deals/", "scorekeeper"),
        "correct a deal": ("put", f"{match}deals/{deal.pk}/", "scorekeeper"),
        "create a tournament": ("post", "/api/v1/tournaments/", "organizer"),
        "change a tournament": ("patch", f"/api/v1/tournaments/{public_tournament.slug}/", "organizer"),
        "get a token": ("post", "/api/v1/token/", "anonymous"),
    }


@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
def test_an_unreadable_body_is_a_400_everywhere_and_saves_nothing(api, endpoints, body):
    counts = (Match.objects.count(), Deal.objects.count(), Tournament.objects.count())
    for name, (method, url, role) in endpoints.items():
        response = getattr(api(role), method)(url, body, content_type="application/json")
        assert response.status_code == 400, (name, response.status_code)
        assert problem(response, 400)["detail"], name
    assert (Match.objects.count(), Deal.objects.count(), Tournament.objects.count()) == counts


def test_the_messages_say_what_is_wrong(api):
    deep = api("scorekeeper").post("/api/v1/matches/", b"[" * 100_000, content_type="application/json")
    nested = b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1)
    too_deep = api("scorekeeper").post("/api/v1/matches/", nested, content_type="application/json")
    for response, words in [
        (deep, "The body is not valid JSON."),
        (too_deep, "The body is nested too deeply."),
    ]:
        body = problem(response, 400)
        assert (body["type"], body["detail"]) == (kind("malformed-request"), words)
        assert body["errors"] == [{"attr": None, "code": "parse_error", "detail": words}]


def test_a_body_as_deep_as_allowed_is_read(api):
    """Nesting up to the limit reaches the view, which says what it thinks of the content."""
    nested = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    response = api("scorekeeper").post("/api/v1/matches/", nested, content_type="application/json")
    assert problem(response, 400)["detail"] != "The body is nested too deeply."
