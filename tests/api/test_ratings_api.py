"""/api/v1/ratings/ and /api/v1/players/{id}/rating/: read only, for everyone, private history kept
to whom may see it; a tournament's ``rated`` and ``seed_by_rating`` through the tournament API."""

import pytest

from league import ratings
from players.models import Player
from tests.problems import fields, problem
from tournaments import services
from tournaments.models import Tournament

from .conftest import WIN_0, WIN_1, round_next, round_play, tournament

pytestmark = pytest.mark.django_db

RATINGS = "/api/v1/ratings/"
PLAYERS = "/api/v1/players/"
FIELDS = {"id", "name", "rating", "mu", "sigma", "rated_matches"}


@pytest.fixture
def rated(organizer, public_tournament):
    """The Spring Cup's first round (two matches) rated, and Alexis (Lions) in a private cup too,
    played: two rated matches for her, one of them private."""
    alexis = Player.objects.get(name="Alexis")
    secret = services.tournament_create(
        organizer=organizer, name="Secret Cup", deals_per_match=1, public=False
    )
    services.entry_register(
        tournament=secret,
        name="Ghosts",
        players=["Alexis", "Kostas"],
        player_ids=[alexis.pk, None],
        user=organizer,
    )
    services.entry_register(tournament=secret, name="Shadows", players=["Manos", "Nefeli"])
    secret = services.tournament_start(tournament=secret, user=organizer)
    round_play(round_next(secret, organizer), [WIN_1])
    ratings.ratings_refresh()
    return Player.objects.get(pk=alexis.pk), secret


def rows(response):
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_the_leaderboard_lists_players_by_rating_with_enough_matches(anon, rated):
    assert rows(anon.get(RATINGS)) == []  # nobody has 3 rated matches
    listed = rows(anon.get(RATINGS, {"min_matches": 1}))
    assert all(set(row) == FIELDS for row in listed)
    ratings_listed = [row["rating"] for row in listed]
    assert ratings_listed == sorted(ratings_listed, reverse=True) and len(listed) == 8  # Spring Cup's
    assert "Manos" not in {row["name"] for row in listed}  # only in a private cup: nobody to anonymous
    alexis = next(row for row in listed if row["name"] == "Alexis")
    player = Player.objects.get(name="Alexis")
    assert alexis == {
        "id": player.pk,
        "name": "Alexis",
        "rating": player.rating,
        "mu": player.rating_mu,
        "sigma": player.rating_sigma,
        "rated_matches": 2,
    }
    assert [row["name"] for row in rows(anon.get(RATINGS, {"min_matches": 2}))] == ["Alexis"]


def test_the_organizer_sees_the_private_cups_players_too(api, rated):
    names = {row["name"] for row in rows(api("organizer").get(RATINGS, {"min_matches": 1}))}
    assert {"Manos", "Nefeli", "Kostas", "Alexis"} <= names and len(names) == 11


def test_the_leaderboard_pages(anon, rated):
    first = anon.get(RATINGS, {"min_matches": 1, "limit": 3}).json()
    assert first["count"] == 8 and len(first["results"]) == 3 and first["next"]
    second = anon.get(first["next"]).json()
    assert second["results"][0]["rating"] <= first["results"][-1]["rating"]


@pytest.mark.parametrize("value", ["lots", "0", "-2", "1.5"])
def test_a_bad_minimum_is_a_400(anon, value):
    response = anon.get(RATINGS, {"min_matches": value})
    assert fields(problem(response, 400)) == {"min_matches"}


def test_a_players_rating_and_the_history_they_may_see(anon, api, rated):
    alexis, secret = rated
    body = anon.get(f"{PLAYERS}{alexis.pk}/rating/").json()
    assert set(body) == FIELDS | {"history"}
    assert (body["rating"], body["mu"], body["sigma"], body["rated_matches"]) == (
        alexis.rating,
        alexis.rating_mu,
        alexis.rating_sigma,
        2,
    )
    assert len(body["history"]) == 1  # the private match counts, but anonymous may not see it
    point = body["history"][0]
    assert set(point) == {"match", "position", "at", "rating", "mu", "sigma"}
    assert point["position"] == 1 and point["rating"] == pytest.approx(point["mu"] - 3 * point["sigma"])
    whole = api("organizer").get(f"{PLAYERS}{alexis.pk}/rating/").json()["history"]
    assert len(whole) == 2 and whole[0] == point and whole[1]["position"] == 3  # the private cup's last
    assert whole[-1]["rating"] == pytest.approx(alexis.rating)
    secret_match = secret.rounds.get().tables.get().match_id
    assert secret_match in {p["match"] for p in whole} and secret_match not in {
        p["match"] for p in body["history"]
    }


def test_an_unrated_player_and_one_nobody_may_see(anon, api, rated, standalone):
    nikos = Player.objects.get(name="Nikos")
    assert anon.get(f"{PLAYERS}{nikos.pk}/rating/").json() == {
        "id": nikos.pk,
        "name": "Nikos",
        "rating": None,
        "mu": None,
        "sigma": None,
        "rated_matches": 0,
        "history": [],
    }
    manos = Player.objects.get(name="Manos")
    assert anon.get(f"{PLAYERS}{manos.pk}/rating/").status_code == 404
    assert api("organizer").get(f"{PLAYERS}{manos.pk}/rating/").json()["rated_matches"] == 1
    assert anon.get(f"{PLAYERS}999999/rating/").status_code == 404


def test_rated_and_seed_by_rating_through_the_tournament_api(api):
    client = api("organizer")
    response = client.post(
        "/api/v1/tournaments/", {"name": "Friendly", "rated": False, "seed_by_rating": True}, format="json"
    )
    assert response.status_code == 201, response.content
    assert (response.json()["rated"], response.json()["seed_by_rating"]) == (False, True)
    t = Tournament.objects.get(slug="friendly")
    assert (t.rated, t.seed_by_rating) == (False, True)
    changed = client.patch("/api/v1/tournaments/friendly/", {"rated": True}, format="json")
    assert changed.status_code == 200 and changed.json()["rated"] is True
    assert Tournament.objects.get(slug="friendly").seed_by_rating is True  # left as it was
    default = client.post("/api/v1/tournaments/", {"name": "Cup"}, format="json").json()
    assert (default["rated"], default["seed_by_rating"]) == (True, False)
    bad = client.post("/api/v1/tournaments/", {"name": "X", "rated": "perhaps"}, format="json")
    assert fields(problem(bad, 400)) == {"rated"}


def test_a_players_rating_follows_their_tournament(anon, organizer):
    t = tournament(organizer, "Night", [("A", ("Ana", "Bo")), ("B", ("Cy", "Di"))], deals_per_match=1)
    t = services.tournament_start(tournament=t, user=organizer)
    round_play(round_next(t, organizer), [WIN_0])
    ratings.ratings_refresh()
    ana, cy = Player.objects.get(name="Ana"), Player.objects.get(name="Cy")
    assert ana.rating > cy.rating
    body = anon.get(f"{PLAYERS}{ana.pk}/rating/").json()
    assert body["mu"] > 25 and body["sigma"] < 25 / 3 and body["rated_matches"] == 1
