"""A claimed person's record counts only what the person stood behind (issue 24, ``league.counting``).

Maria's record is claimed by her account (a claim approved). A stranger's account starts a match with
her picked by id and records a deal that she loses: the match is listed on her page as unconfirmed
and counts for nobody (her, her partner, the stranger's team; the record, the statistics, the
leaderboard, the ratings, the season tables) until she says "this was me". A match she started,
keeps, confirmed, organized, or that finished before her claim was approved counts; unclaimed
records keep the side's rule (issue 14).
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league import confirmations, counting, ratings, records, seasons
from league.models import MatchConfirmation
from league.services import season_create
from players import identity_services as identity
from players.errors import PlayerError
from players.models import Player
from scoring import services
from scoring.models import Match
from tests.factories import WIN_0, made
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def accounts(django_user_model):
    return {
        n: django_user_model.objects.create_user(n, password=f"pw-{n}-12345")
        for n in ("maria", "stranger", "staff")
    }


@pytest.fixture
def maria(accounts):
    """Maria's record, claimed by her account through an approved claim."""
    record = Player.objects.create(name="Maria")
    claim = identity.claim_request(player=record, user=accounts["maria"])
    identity.claim_approve(claim=claim, by=accounts["staff"])
    record.refresh_from_db()
    assert record.user == accounts["maria"]
    return record


def play(*, maria, created_by=None):
    """Nikos & Eleni beat Giorgos & Maria (Maria at seat 3), one deal."""
    match = services.match_create(
        teams=[("A", ("Nikos", "Eleni")), ("B", ("Giorgos", maria))],
        options={"deals": 1},
        created_by=created_by,
    )
    services.deal_record(match=match, deal=made(0))
    return Match.objects.get(pk=match.pk)


def played(player):
    return records.player_record(player=player).stats.record.played


def sides(match):
    return [played(p) for p in match.seats]


@pytest.fixture
def strangers_match(maria, accounts):
    return play(maria=maria, created_by=accounts["stranger"])


def test_a_strangers_match_with_a_claimed_player_counts_for_nobody(strangers_match, maria):
    assert strangers_match.status == Match.Status.FINISHED
    assert sides(strangers_match) == [0, 0, 0, 0]  # not Maria's loss, nor the others' result
    assert records.leaderboard(min_matches=1) == []
    assert next(p.finished_matches for p in records.player_list() if p.pk == maria.pk) == 0
    assert not counting.counted_matches().filter(pk=strangers_match.pk).exists()
    (item,) = records.player_record(player=maria).matches
    assert (item.counted, item.unconfirmed, item.awaiting, item.answer) == (False, True, True, None)
    nikos = records.player_record(player=strangers_match.seat0)
    assert nikos.matches[0].unconfirmed and not nikos.matches[0].awaiting  # Maria's to confirm
    assert nikos.stats.partners == ()


def test_this_was_me_makes_it_count_for_everyone(strangers_match, maria, accounts):
    confirmations.match_answer(match=strangers_match, user=accounts["maria"], answer="me")
    assert sides(strangers_match) == [1, 1, 1, 1]
    assert records.player_record(player=maria).stats.record.lost == 1
    (item,) = records.player_record(player=maria).matches
    assert (item.counted, item.unconfirmed, item.awaiting, item.answer) == (True, False, False, "me")


def test_not_me_keeps_it_unconfirmed_and_the_answer_can_change(strangers_match, maria, accounts):
    confirmations.match_answer(match=strangers_match, user=accounts["maria"], answer="not_me")
    assert sides(strangers_match) == [0, 0, 0, 0]
    assert records.player_record(player=maria).matches[0].answer == "not_me"
    confirmations.match_answer(match=strangers_match, user=accounts["maria"], answer="me")
    assert sides(strangers_match) == [1, 1, 1, 1]
    assert MatchConfirmation.objects.count() == 1  # the answer replaced, not added


def test_only_a_player_at_the_table_answers(strangers_match, maria, accounts, django_user_model):
    with pytest.raises(PlayerError):  # not a player at all
        confirmations.match_answer(match=strangers_match, user=accounts["stranger"], answer="me")
    other = django_user_model.objects.create_user("other", password="pw-other-12345")
    elsewhere = Player.objects.create(name="Someone", user=other)
    assert elsewhere.pk not in [p.pk for p in strangers_match.seats]
    with pytest.raises(PlayerError):  # a player, but not at this match
        confirmations.match_answer(match=strangers_match, user=other, answer="me")
    with pytest.raises(PlayerError):
        confirmations.match_answer(match=strangers_match, user=accounts["maria"], answer="yes")
    assert MatchConfirmation.objects.count() == 0 and sides(strangers_match) == [0, 0, 0, 0]


@pytest.mark.parametrize("how", ["started it", "keeps it", "confirmed the result"])
def test_a_match_the_person_stands_behind_counts(maria, accounts, how):
    if how == "started it":
        match = play(maria=maria, created_by=accounts["maria"])
    else:
        match = play(maria=maria, created_by=accounts["stranger"])
        if how == "keeps it":
            match.keepers.add(accounts["maria"])
        else:
            services.match_confirm(match=match, team=1, user=accounts["maria"])
    assert sides(match) == [1, 1, 1, 1]
    assert records.player_record(player=maria).matches[0].awaiting is False


def test_a_match_finished_before_the_claim_counts_as_it_did(accounts):
    record = Player.objects.create(name="Maria")
    match = play(maria=record, created_by=accounts["stranger"])
    assert sides(match) == [1, 1, 1, 1]
    identity.claim_approve(claim=identity.claim_request(player=record, user=accounts["maria"]), by=None)
    assert sides(match) == [1, 1, 1, 1]
    # … but a stranger's change after the claim (a deal corrected: finished anew) waits on her word
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() + datetime.timedelta(seconds=1))
    assert sides(match) == [0, 0, 0, 0]


def test_a_record_given_an_account_without_a_claim_has_no_past_that_counts(accounts):
    record = Player.objects.create(name="Maria")
    match = play(maria=record, created_by=accounts["stranger"])
    Player.objects.filter(pk=record.pk).update(user=accounts["maria"])  # by staff, in the admin
    assert sides(match) == [0, 0, 0, 0]


def test_unclaimed_records_keep_the_sides_rule(accounts):
    started = play(maria="Maria", created_by=accounts["stranger"])
    casual = play(maria="Maria 2")
    assert sides(started) == [1, 1, 1, 1]
    assert sides(casual) == [0, 0, 0, 0]
    assert not any(m.unconfirmed for p in started.seats for m in records.player_record(player=p).matches)


def test_a_record_merged_into_a_claimed_person_waits_on_that_person(maria, accounts):
    other = Player.objects.create(name="M. Papadopoulou")
    match = play(maria=other, created_by=accounts["stranger"])
    assert sides(match) == [1, 1, 1, 1]
    identity.player_merge(survivor=maria, absorbed=other, by=accounts["staff"])
    assert played(match.seat0) == 0 and played(maria) == 0
    confirmations.match_answer(match=match, user=accounts["maria"], answer="me")
    assert played(match.seat0) == 1 and played(maria) == 1


# The player's page -------------------------------------------------------------------------------


def test_the_page_shows_the_match_unconfirmed_and_only_her_account_answers(
    client, strangers_match, maria, accounts
):
    page = client.get(reverse("players:detail", args=[maria.pk])).text
    assert 'data-testid="unconfirmed"' in page and 'data-testid="answer"' not in page
    client.force_login(accounts["stranger"])
    url = reverse("players:match_answer", args=[maria.pk, strangers_match.pk])
    assert client.post(url, {"answer": "me"}).status_code == 403
    assert 'data-testid="answer"' not in client.get(reverse("players:detail", args=[maria.pk])).text
    client.force_login(accounts["maria"])
    page = client.get(reverse("players:detail", args=[maria.pk])).text
    assert 'data-testid="answer"' in page
    assert 'data-testid="awaiting-notice"' in page and "One match below waits for your answer" in page
    response = client.post(url, {"answer": "me"})
    assert response.status_code == 302 and response.url == reverse("players:detail", args=[maria.pk])
    page = client.get(reverse("players:detail", args=[maria.pk])).text
    assert 'data-testid="unconfirmed"' not in page and 'data-testid="answer"' not in page
    assert 'data-testid="awaiting-notice"' not in page
    assert played(maria) == 1


def test_not_me_from_the_page_marks_the_match(client, strangers_match, maria, accounts):
    client.force_login(accounts["maria"])
    client.post(reverse("players:match_answer", args=[maria.pk, strangers_match.pk]), {"answer": "not_me"})
    page = client.get(reverse("players:detail", args=[maria.pk])).text
    assert "not me" in page and 'data-testid="answer"' in page  # she may still say it was her
    assert played(maria) == 0


# Tournaments, ratings, seasons ---------------------------------------------------------------------


def event(organizer, maria, *, rated=True):
    """A finished two-team round robin of one match, Maria entered by her id: her team loses."""
    t = tournaments.tournament_create(
        organizer=organizer, name="Cup", format=Tournament.Format.ROUND_ROBIN, deals_per_match=1, rated=rated
    )
    tournaments.entry_register(tournament=t, name="A", players=["Nikos", "Eleni"], user=organizer)
    tournaments.entry_register(
        tournament=t, name="B", players=["Giorgos", maria.name], player_ids=[None, maria.pk], user=organizer
    )
    t = tournaments.tournament_start(tournament=t, user=organizer)
    rnd = tournaments.round_start(
        rnd=tournaments.round_generate(tournament=t, user=organizer), user=organizer
    )
    table = rnd.tables.get()
    first_wins = table.entry0.name == "A"
    services.deal_record(match=table.match, deal=WIN_0 if first_wins else made(1), user=organizer)
    tournaments.standings_refresh(tournament_id=t.pk)
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == Tournament.Status.FINISHED
    return t, Match.objects.get(pk=table.match_id)


def test_a_strangers_event_counts_for_nobody_in_records_and_ratings_until_she_confirms(maria, accounts):
    cup, match = event(accounts["stranger"], maria)
    ratings.ratings_refresh()
    assert sides(match) == [0, 0, 0, 0]
    assert not ratings.rated_matches().filter(pk=match.pk).exists()
    assert Player.objects.filter(rated_matches__gt=0).count() == 0
    confirmations.match_answer(match=match, user=accounts["maria"], answer="me")
    ratings.ratings_refresh()
    assert sides(match) == [1, 1, 1, 1]
    assert Player.objects.get(pk=maria.pk).rated_matches == 1
    assert MatchConfirmation.objects.get().tournament == cup  # her answer stands for the event


def test_an_event_she_organized_counts(maria, accounts):
    _, match = event(accounts["maria"], maria)
    assert sides(match) == [1, 1, 1, 1]


def test_a_season_leaves_out_her_result_in_an_event_she_has_not_stood_behind(maria, accounts):
    cup, match = event(accounts["stranger"], maria)
    day = timezone.localdate()
    season = season_create(
        user=accounts["stranger"], name="League", starts_on=day, ends_on=day, tournaments=[cup], scale=[10, 5]
    )
    names = {row.name for row in seasons.season_table(season).rows}
    assert names == {"Nikos", "Eleni", "Giorgos"}  # Maria's result counts for nobody
    confirmations.match_answer(match=match, user=accounts["maria"], answer="me")
    names = {row.name for row in seasons.season_table(season).rows}
    assert names == {"Nikos", "Eleni", "Giorgos", "Maria"}
