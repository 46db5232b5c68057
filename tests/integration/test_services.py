"""Services write, selectors read: against the database, bad input changes nothing."""

import uuid

import pytest

from players.models import Player, Team
from scoring import engine, selectors, services
from scoring.models import Deal, Match
from tests.factories import TEAMS, made

pytestmark = pytest.mark.django_db


def sheet_of(match):
    return selectors.match_sheet(match=Match.objects.get(pk=match.pk)).sheet


def test_match_create_seats_partners_opposite_and_keeps_every_option(match):
    assert [p.name for p in match.seats] == ["Nikos", "Giorgos", "Eleni", "Maria"]
    assert match.team0.players == (match.seat0, match.seat2)
    assert match.options == {
        "target": 1000,
        "deals": 0,
        "ties_hang": False,
        "best_melds_only": False,
        "capo_100": False,
        "partner_relief": False,
    }
    assert match.target == 1000
    assert match.status == "in_progress"


def test_match_create_reuses_the_team_of_picked_players_by_name(match):
    picked = (match.seat0, match.seat2)  # Nikos and Eleni, picked: a typed name would be a new player
    again = services.match_create(teams=[("kafeneio a", picked), ("Other", ("Kostas", "Sofia"))])
    assert again.team0 == match.team0
    assert Player.objects.count() == 6
    assert Team.objects.count() == 3


@pytest.mark.parametrize(
    ("teams", "options", "field"),
    [
        ([("A", ("Nikos", "Eleni")), ("B", ("Nikos", "Maria"))], {}, "teams"),
        ([("A", ("Nikos", "Eleni")), ("", ("Giorgos", "Maria"))], {}, "teams"),
        (TEAMS, {"target": 0}, "options.target"),
        (TEAMS, {"kremamena": True}, "options.kremamena"),
    ],
    ids=["player-twice", "no-team-name", "target-zero", "unknown-option"],
)
def test_match_create_refuses_bad_input_and_saves_nothing(teams, options, field):
    with pytest.raises(engine.ScoringError) as caught:
        services.match_create(teams=teams, options=options)
    assert caught.value.field == field
    assert Match.objects.count() == 0
    assert Team.objects.count() == 0


def test_deal_record_adds_the_deal_and_the_sheet_is_recomputed(match, user):
    deal = services.deal_record(match=match, deal=made(melds=(("seq3",), ())), user=user)
    assert deal.entered_by == user
    sheet = sheet_of(match)
    assert sheet.totals == (120, 62)  # 90 + 10 + 20 / 62
    assert sheet.next_dealer == 1
    assert Match.objects.get(pk=match.pk).version == 1


def test_same_client_key_records_once(match):
    key = uuid.uuid4()
    first = services.deal_record(match=match, deal=made(), client_key=key)
    second = services.deal_record(match=match, deal=made(), client_key=str(key))
    assert first.pk == second.pk
    assert match.deals.count() == 1
    assert sheet_of(match).totals == (100, 62)


@pytest.mark.parametrize(
    ("deal", "field", "words"),
    [
        ({"maker": 0, "card_points": [90, 72], "last_trick": 0}, "card_points", "add up to 152"),
        ({"maker": 0, "card_points": [100, 52], "capot": 1}, "card_points", "every trick"),
        ({"maker": 0, "card_points": [90, 62]}, "last_trick", "last trick"),
        ({"maker": 2, "card_points": [90, 62], "last_trick": 0}, "maker", "0 or 1"),
        (made(melds=(("mpourloto",), ("mpourloto",))), "melds", "mpourloto"),
        (made(melds=(("seq3",) * 5, ())), "melds[0]", "at most 4"),
    ],
    ids=[
        "cards-not-152",
        "capo-without-all-cards",
        "no-last-trick",
        "no-such-team",
        "two-mpourloto",
        "too-many",
    ],
)
def test_bad_deal_is_refused_with_a_clear_message_and_nothing_changes(match, deal, field, words):
    services.deal_record(match=match, deal=made())
    before = (Deal.objects.count(), Match.objects.get(pk=match.pk).version, sheet_of(match).totals)
    with pytest.raises(engine.ScoringError) as caught:
        services.deal_record(match=match, deal=deal)
    assert caught.value.field == field
    assert words in caught.value.message
    assert (Deal.objects.count(), Match.objects.get(pk=match.pk).version, sheet_of(match).totals) == before


def test_correction_recomputes_the_sheet_and_keeps_the_earlier_version(match, user):
    deal = services.deal_record(match=match, deal=made(cards=(90, 62)), user=user)
    services.deal_record(match=match, deal=made(maker=1, cards=(30, 122), last_trick=1))
    services.deal_correct(deal=deal, data=made(cards=(40, 112), last_trick=1), user=user)
    sheet = sheet_of(match)
    assert sheet.rows[0].result == "mesa"  # 40 against 122: the makers go mesa
    assert sheet.totals == (0 + 30, 162 + 132)  # then team 1 makes 132 against 30
    versions = list(selectors.deal_history(deal=deal))
    assert [v.history_type for v in versions] == ["~", "+"]
    assert versions[1].data["card_points"] == [90, 62]
    assert versions[0].history_user == user


def test_correction_that_breaks_the_rules_changes_nothing(match):
    deal = services.deal_record(match=match, deal=made())
    with pytest.raises(engine.ScoringError):
        services.deal_correct(deal=deal, data={"maker": 0, "card_points": [200, -48], "last_trick": 0})
    deal.refresh_from_db()
    assert deal.data == made()
    assert deal.history.count() == 1


def test_delete_and_undo_keep_the_deal_in_history(match, user):
    first = services.deal_record(match=match, deal=made())
    services.deal_record(match=match, deal={"thrown_in": True})
    undone = services.deal_undo_last(match=match, user=user)
    assert undone.data == {"thrown_in": True}
    assert sheet_of(match).next_dealer == 1
    services.deal_delete(deal=first, user=user)
    assert sheet_of(match).rows == ()
    assert Deal.objects.count() == 2  # still there, marked deleted
    assert [h.history_type for h in selectors.match_deal_history(match=match)].count("~") == 2
    assert services.deal_undo_last(match=match) is None


def test_a_deleted_deal_cannot_be_corrected(match):
    deal = services.deal_record(match=match, deal=made())
    services.deal_delete(deal=deal)
    with pytest.raises(engine.ScoringError):
        services.deal_correct(deal=deal, data=made(cards=(100, 52)))


def test_a_finished_match_takes_no_more_deals_and_stores_its_winner():
    match = services.match_create(teams=TEAMS, options={"target": 300})
    capo = {"maker": 0, "card_points": [152, 0], "capot": 0, "melds": [[], []]}
    services.deal_record(match=match, deal=capo)  # 242
    services.deal_record(match=match, deal=made())  # 342: over 300
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", 0)
    assert match.finished_at is not None
    with pytest.raises(engine.ScoringError) as caught:
        services.deal_record(match=match, deal=made())
    assert "already won" in caught.value.message
    assert match.deals.count() == 2


def test_correcting_a_deal_can_reopen_a_finished_match():
    match = services.match_create(teams=TEAMS, options={"target": 300})
    services.deal_record(match=match, deal={"maker": 0, "card_points": [152, 0], "capot": 0})
    last = services.deal_record(match=match, deal=made())
    services.deal_correct(deal=last, data=made(cards=(10, 142), last_trick=1))  # mesa: team 1 gets 162
    match.refresh_from_db()
    assert (match.status, match.winner, match.finished_at) == ("in_progress", None, None)


def test_a_correction_refused_when_later_deals_would_follow_the_end():
    match = services.match_create(teams=TEAMS, options={"target": 200})
    first = services.deal_record(match=match, deal=made())  # 100–62
    services.deal_record(match=match, deal=made())  # 200–124: won
    with pytest.raises(engine.ScoringError) as caught:  # a capo first would win at once (242)
        services.deal_correct(deal=first, data={"maker": 0, "card_points": [152, 0], "capot": 0})
    assert caught.value.deal == 1
    assert "already won" in caught.value.message
    assert first.history.count() == 1


def test_tie_break_status_is_stored():
    tie = services.match_create(teams=TEAMS, options={"target": 150})
    services.deal_record(match=tie, deal=made(maker=0, cards=(90, 62), last_trick=0))  # 100–62
    services.deal_record(match=tie, deal=made(maker=1, cards=(62, 90), last_trick=1))  # 162–162, over 150
    tie.refresh_from_db()
    assert (tie.status, tie.winner) == ("tie_break", None)
