"""What counts in a player's record, side by side (issue 14).

A match counts in the record of a player seated in team t when it was played in a tournament, kept
by an account (started by one, or a keeper), or confirmed by the account of a player of the *other*
team (their claimed record, or the record it was merged into). Otherwise it is casual for that side:
listed, counted for nobody there. The match: Nikos & Eleni (team 0, seats 0 and 2) beat Giorgos &
Maria (team 1, seats 1 and 3), one deal, started on a tablet without an account.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from league import records
from players import identity_services as identity
from players.models import Player
from scoring import selectors, services
from scoring.models import Match
from tests.factories import made

pytestmark = pytest.mark.django_db


@pytest.fixture
def match():
    match = services.match_create(
        teams=[("A", ("Nikos", "Eleni")), ("B", ("Giorgos", "Maria"))], options={"deals": 1}
    )
    services.deal_record(match=match, deal=made(0))
    match.refresh_from_db()
    return match


@pytest.fixture
def accounts(django_user_model):
    return {
        n: django_user_model.objects.create_user(n, password=f"pw-{n}-12345") for n in ("eleni", "maria", "x")
    }


def played(player):
    return records.player_record(player=player).stats.record.played


def sides(match):
    """Played, per seat (0 to 3), in the players' records."""
    return [played(p) for p in match.seats]


def board(match):
    return {row.player.pk for row in records.leaderboard(min_matches=1)}


def listed(player):
    return next(p.finished_matches or 0 for p in records.player_list() if p.pk == player.pk)


def confirm(match, user):
    Match.objects.filter(pk=match.pk).update(confirmed_by=user, confirmed_by_team=0)


def test_a_casual_match_counts_for_no_side(match):
    assert sides(match) == [0, 0, 0, 0]
    assert board(match) == set()
    assert not selectors.counted_matches().filter(pk=match.pk).exists()


def test_a_confirmation_by_team_0_counts_for_team_1_only(match, accounts):
    Player.objects.filter(pk=match.seat2_id).update(user=accounts["eleni"])
    confirm(match, accounts["eleni"])
    assert sides(match) == [0, 1, 0, 1]
    assert board(match) == {match.seat1_id, match.seat3_id}
    assert (listed(match.seat0), listed(match.seat1)) == (0, 1)
    assert selectors.counted_matches().filter(pk=match.pk).exists()  # counted for some side


def test_a_confirmation_by_team_1_counts_for_team_0_only(match, accounts):
    Player.objects.filter(pk=match.seat3_id).update(user=accounts["maria"])
    confirm(match, accounts["maria"])
    assert sides(match) == [1, 0, 1, 0]
    assert board(match) == {match.seat0_id, match.seat2_id}


def test_the_page_marks_a_match_casual_on_one_side_only(client, match, accounts):
    Player.objects.filter(pk=match.seat3_id).update(user=accounts["maria"])
    confirm(match, accounts["maria"])
    nikos = client.get(reverse("players:detail", args=[match.seat0_id])).text
    maria = client.get(reverse("players:detail", args=[match.seat3_id])).text
    assert 'data-testid="casual"' not in nikos and 'data-testid="casual"' in maria
    assert [m.counted for m in records.player_record(player=match.seat3).matches] == [False]


def test_a_confirmation_by_an_account_of_nobody_at_the_table_counts_for_nobody(match, accounts):
    confirm(match, accounts["x"])
    assert sides(match) == [0, 0, 0, 0]


def test_a_confirmation_by_the_account_of_a_merged_record_counts_for_the_other_team(match, accounts):
    """Maria's record at the table was merged into another record of hers, claimed by her account."""
    claimed = Player.objects.create(name="Maria P.", user=accounts["maria"])
    identity.player_merge(survivor=claimed, absorbed=match.seat3, by=None)
    confirm(match, accounts["maria"])
    assert played(match.seat0) == 1 and played(claimed) == 0  # Maria's own team: casual for her


@pytest.mark.parametrize("how", ["started by an account", "kept by an account", "a tournament's"])
def test_a_match_an_account_stands_behind_counts_for_both_sides(match, user, how, organizer_cup):
    if how == "started by an account":
        Match.objects.filter(pk=match.pk).update(created_by=user)
        seats = match.seats
    elif how == "kept by an account":
        match.keepers.add(user)
        seats = match.seats
    else:
        played_match = organizer_cup
        Match.objects.filter(pk=played_match.pk).update(created_by=None)
        played_match.keepers.clear()
        seats = played_match.seats
    assert [played(p) for p in seats] == [1, 1, 1, 1]


@pytest.fixture
def organizer_cup(user):
    """A finished one-deal match of a public tournament."""
    from tournaments import services as tournaments

    cup = tournaments.tournament_create(organizer=user, name="Cup", deals_per_match=1)
    for name, pair in (("T1", ["a1", "a2"]), ("T2", ["b1", "b2"])):
        tournaments.entry_register(tournament=cup, name=name, players=pair)
    cup = tournaments.tournament_start(tournament=cup, user=user)
    rnd = tournaments.round_start(rnd=tournaments.round_generate(tournament=cup, user=user), user=user)
    table = rnd.tables.get()
    services.deal_record(match=table.match, deal=made(0), user=user)
    return Match.objects.get(pk=table.match_id)
