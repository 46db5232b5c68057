"""Seasons through the API: read for everyone (the public ones), written by who runs them, refused in
words (400 with ``detail``) with nothing saved; and the table as JSON."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from league.models import Season
from league.services import season_create
from players.models import Club
from tests.api.conftest import client_for
from tests.factories import swiss_night
from tests.problems import fields, problem

pytestmark = pytest.mark.django_db

NOW = timezone.now()  # the clock stands still here: a run across the site's midnight changes no day
TODAY = timezone.localdate(NOW)  # the day the test's tournaments finish, in the site's time zone
YEAR = {"starts_on": f"{TODAY.year}-01-01", "ends_on": f"{TODAY.year}-12-31"}


@pytest.fixture(autouse=True)
def _still_clock(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: NOW)


@pytest.fixture
def finished_night(organizer):
    """A Swiss of two teams, one round, finished today (no start day): one team first, one second."""
    return swiss_night(organizer, teams=2, rounds=1)


@pytest.fixture
def club(organizer):
    club = Club.objects.create(name="Kafeneio")
    club.admins.add(organizer)
    return club


def league(owner, **settings):
    values = {
        "name": "Winter league",
        "starts_on": TODAY.replace(month=1, day=1),
        "ends_on": TODAY.replace(month=12, day=31),
    }
    return season_create(user=owner, **{**values, **settings})


def test_the_list_and_a_season_are_read_by_everyone(anon, organizer, club):
    season = season_create(
        user=organizer, club=club, name="Σεζόν 2025", starts_on=TODAY, ends_on=TODAY, scale=[3, 2, 1]
    )
    league(organizer, name="Hidden", public=False)
    listing = anon.get("/api/v1/seasons/")
    assert listing.status_code == 200
    assert [s["slug"] for s in listing.json()["results"]] == ["σεζόν-2025"]
    detail = anon.get(f"/api/v1/seasons/{season.slug}/")
    assert detail.status_code == 200
    body = detail.json()
    assert {k: body[k] for k in ("name", "club", "owner", "events", "scale", "best_of", "public")} == {
        "name": "Σεζόν 2025",
        "club": club.slug,
        "owner": organizer.username,
        "events": "club",
        "scale": [3, 2, 1],
        "best_of": None,
        "public": True,
    }


def test_a_private_season_is_404_to_others(anon, organizer, rival):
    season = league(organizer, public=False)
    assert anon.get(f"/api/v1/seasons/{season.slug}/").status_code == 404
    assert client_for(rival).get(f"/api/v1/seasons/{season.slug}/table/").status_code == 404
    assert client_for(rival).patch(f"/api/v1/seasons/{season.slug}/", {"best_of": 2}).status_code == 404
    assert client_for(organizer).get(f"/api/v1/seasons/{season.slug}/table/").status_code == 200


def test_the_table_as_json(anon, organizer, finished_night):
    season = league(organizer, tournaments=[finished_night], scale=[10, 6], best_of=3)
    body = anon.get(f"/api/v1/seasons/{season.slug}/table/").json()
    assert body["season"] == season.slug and body["scale"] == [10, 6] and body["best_of"] == 3
    assert body["events"] == [
        {"slug": finished_night.slug, "name": finished_night.name, "day": TODAY.isoformat()}
    ]
    ranking = finished_night.standings.ranking
    winners = set(ranking[0]["players"])
    assert [row["rank"] for row in body["rows"]] == [1, 1, 3, 3]
    assert {row["name"] for row in body["rows"][:2]} == winners
    first = body["rows"][0]
    assert (first["total"], first["played"], first["wins"], first["best_finish"]) == (10, 1, 1, 1)
    assert first["results"] == [{"event": finished_night.slug, "rank": 1, "points": 10, "counted": True}]
    assert [row["total"] for row in body["rows"][2:]] == [6, 6]


def test_a_public_season_names_a_private_event_only_to_who_may_see_it(anon, organizer, private_tournament):
    year = {"starts_on": datetime.date(2025, 1, 1), "ends_on": datetime.date(2025, 12, 31)}
    season = league(organizer, tournaments=[private_tournament], **year)
    assert anon.get(f"/api/v1/seasons/{season.slug}/").json()["tournaments"] == []
    assert client_for(organizer).get(f"/api/v1/seasons/{season.slug}/").json()["tournaments"] == [
        private_tournament.slug
    ]
    assert anon.get(f"/api/v1/seasons/{season.slug}/table/").json()["events"] == []


def test_any_account_creates_a_league_with_chosen_events(api, public_tournament, draft_tournament):
    response = api("player").post(
        "/api/v1/seasons/",
        {
            "name": "Spring league",
            "starts_on": "2025-01-01",
            "ends_on": "2025-12-31",
            "tournaments": [public_tournament.slug, draft_tournament.slug],
            "scale": [12, 10, 8],
            "participation": 1,
            "best_of": 4,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["slug"] == "spring-league" and body["owner"] == "nikos" and body["club"] is None
    assert body["events"] == "chosen"
    assert sorted(body["tournaments"]) == sorted([public_tournament.slug, draft_tournament.slug])
    season = Season.objects.get(slug="spring-league")
    assert (season.scale, season.participation, season.best_of) == ([12, 10, 8], 1, 4)


def test_anonymous_writes_are_refused(anon):
    response = anon.post("/api/v1/seasons/", {"name": "L", **YEAR}, format="json")
    assert response.status_code in (401, 403)
    assert not Season.objects.exists()


def test_only_a_clubs_admins_create_its_season(api, club):
    body = {"name": "Club season", "club": club.slug, **YEAR}
    assert api("player").post("/api/v1/seasons/", body, format="json").status_code == 403
    created = api("organizer").post("/api/v1/seasons/", body, format="json")
    assert created.status_code == 201 and created.json()["events"] == "club"
    assert created.json()["scale"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    assert Season.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"scale": [10, 12]}, "scale", "cannot earn more points than the place before"),
        ({"ends_on": "2020-01-01"}, "ends_on", "ends before it starts"),
        ({"events": "club"}, "events", "counts the events chosen"),
        ({"club": "no-such-club"}, "club", "No such club."),
        ({"tournaments": ["no-such-cup"]}, "tournaments", "No such tournament."),
        ({"participation": 30}, "participation", "the scale's last place (1)"),
    ],
)
def test_bad_input_is_a_400_in_words_and_nothing_is_saved(api, body, field, words):
    response = api("player").post("/api/v1/seasons/", {"name": "L", **YEAR, **body}, format="json")
    body = problem(response, 400)
    assert words in body["detail"] and fields(body) == {field}
    assert not Season.objects.exists()


def test_malformed_input_is_a_400(api):
    for body in ({"name": "L", **YEAR, "scale": []}, {"name": "L", **YEAR, "scale": ["x"]}, {"name": "L"}):
        assert api("player").post("/api/v1/seasons/", body, format="json").status_code == 400
    assert not Season.objects.exists()


def test_an_event_the_owner_cannot_see_is_no_such_tournament(api, rival_tournament):
    body = {"name": "L", **YEAR, "tournaments": [rival_tournament.slug]}
    response = api("organizer").post("/api/v1/seasons/", body, format="json")
    body = problem(response, 400)
    assert body["detail"] == "No such tournament." and fields(body) == {"tournaments"}


def test_the_owner_changes_and_deletes_others_are_refused(api, organizer, club):
    season = league(organizer)
    url = f"/api/v1/seasons/{season.slug}/"
    assert api("player").patch(url, {"best_of": 2}, format="json").status_code == 403
    assert api("player").delete(url).status_code == 403
    changed = api("organizer").patch(url, {"best_of": 2, "scale": [5, 3, 1]}, format="json")
    assert changed.status_code == 200 and changed.json()["best_of"] == 2
    assert changed.json()["scale"] == [5, 3, 1]
    refused = api("organizer").patch(url, {"scale": [1, 5]}, format="json")
    assert fields(problem(refused, 400)) == {"scale"}
    moved = api("organizer").patch(url, {"club": club.slug}, format="json")
    assert fields(problem(moved, 400)) == {"club"}
    assert Season.objects.get(pk=season.pk).scale == [5, 3, 1]
    assert api("organizer").put(url, {"name": "X", **YEAR}, format="json").status_code == 405
    assert api("organizer").delete(url).status_code == 204
    assert not Season.objects.exists()
