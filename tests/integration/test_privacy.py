"""Private stays private; public records stay true.

A private tournament's matches, teams and players are in no list but its organizer's; a player who
also played in the open is listed with the open matches only. A match started on a tablet without
an account is casual: listed on its players' pages, counted in nobody's record. Anonymous match
starts and public sign-ups are rate-limited per address.

The club here: the private "Night" (Ghosts: Kostas, Lena v Shadows: Manos, Nefeli), one deal, won
by the Ghosts; then an open match, kept by an account, in which Kostas (picked) and Eleni beat
Giorgos and Maria.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league import records as players
from players.models import Player, Team
from scoring import selectors, services
from scoring.models import Match
from tests.factories import made
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db
ONE_DEAL = {"deals": 1}


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("night-owl", password="pw-night-owl-1")


@pytest.fixture
def night(organizer):
    """The private tournament's one match, finished: the Ghosts won."""
    t = tournaments.tournament_create(organizer=organizer, name="Night", public=False, deals_per_match=1)
    tournaments.entry_register(tournament=t, name="Ghosts", players=["Kostas", "Lena"])
    tournaments.entry_register(tournament=t, name="Shadows", players=["Manos", "Nefeli"])
    tournaments.tournament_start(tournament=t)
    rnd = tournaments.round_generate(tournament=t)
    tournaments.round_start(rnd=rnd)
    match = rnd.tables.get().match
    services.deal_record(match=match, deal=made(0 if match.team0.name == "Ghosts" else 1))
    match.refresh_from_db()
    assert match.status == "finished"
    return match


@pytest.fixture
def open_match(night, user):
    """In the open: Kostas (picked) and Eleni beat Giorgos and Maria; kept by an account."""
    kostas = Player.objects.get(name="Kostas")
    match = services.match_create(
        teams=[("Kafeneio", (kostas, "Eleni")), ("Plateia", ("Giorgos", "Maria"))],
        options=ONE_DEAL,
        created_by=user,
    )
    services.deal_record(match=match, deal=made(0))
    match.refresh_from_db()
    return match


def login(client, user):
    client.force_login(user)
    return client


# 1. In no list ------------------------------------------------------------------------------


def test_the_home_page_lists_a_private_tournaments_match_only_to_its_organizer(
    client, open_match, night, organizer
):
    page = client.get(reverse("scoring:home")).text
    assert "Kafeneio – Plateia" in page
    assert reverse("scoring:match", args=[night.pk]) not in page and "Ghosts" not in page
    page = login(client, organizer).get(reverse("scoring:home")).text
    assert reverse("scoring:match", args=[night.pk]) in page


def test_the_players_list_leaves_private_people_out_and_counts_open_matches_only(
    client, open_match, organizer
):
    page = client.get(reverse("players:list")).text
    for name in ("Kostas", "Eleni", "Giorgos", "Maria"):
        assert f">{name}</a>" in page
    for name in ("Lena", "Manos", "Nefeli"):
        assert name not in page
    kostas = [p for p in players.player_list() if p.name == "Kostas"]
    assert [p.finished_matches for p in kostas] == [1]  # the open match, not the private one
    assert "Lena" not in client.get(reverse("players:list"), {"q": "le"}).text
    # The organizer sees their own tournament's people, and counts both of Kostas's matches.
    page = login(client, organizer).get(reverse("players:list"), {"q": "le"}).text
    assert "Lena" in page and "Eleni" in page
    assert [p.finished_matches for p in players.player_list(user=organizer) if p.name == "Kostas"] == [2]


def test_a_player_known_only_from_a_private_tournament_is_a_404_to_others(client, open_match, organizer):
    lena = Player.objects.get(name="Lena")
    assert client.get(reverse("players:detail", args=[lena.pk])).status_code == 404
    assert login(client, organizer).get(reverse("players:detail", args=[lena.pk])).status_code == 200


def test_a_player_who_also_plays_in_the_open_shows_the_open_matches_only(
    client, open_match, night, organizer
):
    kostas = Player.objects.get(name="Kostas")
    page = client.get(reverse("players:detail", args=[kostas.pk])).text
    assert reverse("scoring:match", args=[open_match.pk]) in page
    assert reverse("scoring:match", args=[night.pk]) not in page
    assert 'data-testid="played">1<' in page
    assert "Lena" not in page  # his private partner is not among his partners
    own = login(client, organizer).get(reverse("players:detail", args=[kostas.pk])).text
    assert reverse("scoring:match", args=[night.pk]) in own and 'data-testid="played">2<' in own


def test_the_leaderboard_is_the_open_one_for_everyone(client, open_match, organizer):
    rows = players.leaderboard(min_matches=1)
    assert sorted(row.player.name for row in rows) == ["Eleni", "Giorgos", "Kostas", "Maria"]
    kostas = next(row for row in rows if row.player.name == "Kostas")
    assert kostas.record.played == 1
    page = login(client, organizer).get(reverse("players:leaderboard"), {"min": "1"}).text
    assert "Lena" not in page and "Kostas" in page


def test_the_pickers_search_only_visible_people(client, open_match, organizer):
    url = reverse("scoring:match_new_search")
    found = client.get(url, {"q": "le", "kind": "player"}).text
    assert "Eleni" in found and "Lena" not in found
    assert "Ghosts" not in client.get(url, {"q": "gh", "kind": "team"}).text
    assert "Nobody of that name yet" in client.get(url, {"q": "Nefeli", "kind": "player"}).text
    login(client, organizer)
    assert "Lena" in client.get(url, {"q": "le", "kind": "player"}).text
    assert "Ghosts" in client.get(url, {"q": "gh", "kind": "team"}).text


def test_the_new_match_page_lists_nobody_it_was_not_asked_for(client, open_match):
    page = client.get(reverse("scoring:match_new")).text.replace("Kafeneio 1000", "")  # a preset, no team
    for name in ("Kostas", "Eleni", "Giorgos", "Maria", "Kafeneio", "Lena", "Ghosts"):
        assert name not in page
    assert "<datalist" not in page


def test_a_private_player_or_team_cannot_be_picked_by_id(client, open_match):
    lena, ghosts = Player.objects.get(name="Lena"), Team.objects.get(name="Ghosts")
    form = {"team0_name": "A", "team0_player_a": "Lena", "team0_player_a_id": str(lena.pk),
            "team0_player_b": "Eleni", "team1_pick": str(ghosts.pk), "first_dealer": "0"}  # fmt: skip
    response = client.post(reverse("scoring:match_new"), form)
    assert response.status_code == 422
    assert "That player cannot be picked here" in response.text
    assert "That team cannot be picked here" in response.text
    assert Match.objects.count() == 2


def test_lists_and_searches_cost_the_same_queries_however_many_people(client, open_match):
    def cost(url, params=None):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url, params or {}).status_code == 200
        return len(queries)

    pages = [
        (reverse("players:list"), None),
        (reverse("scoring:match_new_search"), {"q": "ka", "kind": "player"}),
        (reverse("scoring:match_new_search"), {"q": "ka", "kind": "team"}),
        (reverse("scoring:home"), None),
        (reverse("players:leaderboard"), {"min": "1"}),
    ]
    before = [cost(url, params) for url, params in pages]
    for i in range(8):
        services.match_create(
            teams=[
                (f"Kafeneio {i}", (f"Kapa {i}", f"Kara {i}")),
                (f"Kastro {i}", (f"Kati {i}", f"Kaki {i}")),
            ],
            options=ONE_DEAL,
        )
    assert [cost(url, params) for url, params in pages] == before


# 3. Casual matches count for nobody ---------------------------------------------------------


def casual(people=("Nikos", "Eleni", "Giorgos", "Maria"), deal=None):
    """A match started on a tablet without an account, finished: team 0 won."""
    match = services.match_create(
        teams=[("Tablet A", (people[0], people[1])), ("Tablet B", (people[2], people[3]))], options=ONE_DEAL
    )
    services.deal_record(match=match, deal=deal or made(0))
    match.refresh_from_db()
    return match


def counts(player):
    return players.player_record(player=player).stats.record.played


def test_a_match_started_without_an_account_counts_for_nobody(client):
    match = casual()
    nikos = match.seat0
    assert selectors.counted_matches().filter(pk=match.pk).exists() is False
    assert counts(nikos) == 0
    assert players.leaderboard(min_matches=1) == []
    assert [p.finished_matches or 0 for p in players.player_list() if p.pk == nikos.pk] == [0]
    page = client.get(reverse("players:detail", args=[nikos.pk])).text
    assert reverse("scoring:match", args=[match.pk]) in page  # listed …
    assert 'data-testid="casual"' in page and "not counted" in page  # … as casual
    assert "No finished match yet." in page


def test_a_match_confirmed_by_a_player_of_the_other_team_counts_for_this_team(django_user_model):
    """Issue 14 changed this rule: a confirmation counts for the other team's records only (one's
    own confirmation no longer makes one's own record)."""
    match = casual()
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    Match.objects.filter(pk=match.pk).update(confirmed_by=stranger, confirmed_by_team=0)
    assert counts(match.seat0) == 0  # confirmed, but not by a player of the match
    eleni = django_user_model.objects.create_user("eleni", password="pw-eleni-123")
    Player.objects.filter(pk=match.seat2_id).update(user=eleni)
    Match.objects.filter(pk=match.pk).update(confirmed_by=eleni)
    assert counts(match.seat0) == 0 and counts(match.seat2) == 0  # Eleni's own team: casual for it
    assert counts(match.seat1) == 1 and counts(match.seat3) == 1  # the other team: counted
    board = players.leaderboard(min_matches=1)
    assert {row.player.pk for row in board} == {match.seat1_id, match.seat3_id}


def test_a_match_kept_by_an_account_counts(user):
    match = casual()
    match.keepers.add(user)
    assert counts(match.seat0) == 1


def test_a_match_started_by_an_account_counts(user):
    match = services.match_create(
        teams=[("A", ("Nikos", "Eleni")), ("B", ("Giorgos", "Maria"))], options=ONE_DEAL, created_by=user
    )
    services.deal_record(match=match, deal=made(0))
    assert counts(match.seat0) == 1
    assert [m.counted for m in players.player_record(player=match.seat0).matches] == [True]


def test_a_tournaments_match_counts_whoever_started_it(night, organizer):
    Match.objects.filter(pk=night.pk).update(created_by=None)
    night.keepers.clear()
    kostas = Player.objects.get(name="Kostas")
    assert players.player_record(player=kostas, user=organizer).stats.record.played == 1


def test_the_tablet_page_starts_casual_matches_and_an_account_counted_ones(client, user):
    form = {"team0_name": "A", "team0_player_a": "Nikos", "team0_player_b": "Eleni", "team1_name": "B",
            "team1_player_a": "Giorgos", "team1_player_b": "Maria", "first_dealer": "0"}  # fmt: skip
    client.post(reverse("scoring:match_new"), form)
    anonymous = Match.objects.get()
    assert not selectors.counted_matches().filter(pk=anonymous.pk).exists()
    login(client, user).post(reverse("scoring:match_new"), form)
    assert selectors.counted_matches().filter(pk=Match.objects.latest("pk").pk).exists()


# 4. Rate limits ------------------------------------------------------------------------------


def new_match_form(i):
    return {"team0_name": f"A{i}", "team0_player_a": "Nikos", "team0_player_b": "Eleni",
            "team1_name": f"B{i}", "team1_player_a": "Giorgos", "team1_player_b": "Maria",
            "first_dealer": "0"}  # fmt: skip


def test_matches_started_without_an_account_are_limited_per_address(client, user):
    for i in range(20):
        assert client.post(reverse("scoring:match_new"), new_match_form(i)).status_code == 302
    response = client.post(reverse("scoring:match_new"), new_match_form(20))
    assert response.status_code == 429
    assert Match.objects.count() == 20
    assert client.get(reverse("scoring:match_new")).status_code == 200  # the page still opens
    other = client.post(reverse("scoring:match_new"), new_match_form(21), REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302  # another address
    login(client, user)  # an account is not limited
    for i in range(22, 25):
        assert client.post(reverse("scoring:match_new"), new_match_form(i)).status_code == 302


def test_public_sign_ups_are_limited_per_address(client, organizer):
    cup = tournaments.tournament_create(organizer=organizer, name="Open Cup", signup_open=True)
    url = reverse("tournaments:signup", args=[cup.slug])
    for i in range(10):
        form = {"name": f"Team {i}", "player_a": f"A{i}", "player_b": f"B{i}", "contact": ""}
        assert client.post(url, form).status_code == 302
    form = {"name": "Team 10", "player_a": "A10", "player_b": "B10", "contact": ""}
    assert client.post(url, form).status_code == 429
    assert cup.entries.count() == 10
