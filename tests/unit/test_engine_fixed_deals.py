"""A match of a fixed number of deals (tournaments): the higher total wins, equal is a draw."""

import pytest

from scoring.engine import Deal, ScoringError, Status, replay

MADE_0 = Deal(maker=0, card_points=(90, 62), last_trick=0)  # 100 v 62
MADE_1 = Deal(maker=1, card_points=(62, 90), last_trick=1)  # 62 v 100
THROWN = Deal(thrown_in=True)


def test_the_last_of_the_deals_ends_the_match_with_the_higher_total():
    sheet = replay("mpourloto", [MADE_0, MADE_0], options={"deals": 2})
    assert (sheet.status, sheet.winner, sheet.totals) == (Status.FINISHED, 0, (200, 124))


def test_equal_totals_after_the_deals_are_a_draw():
    sheet = replay("mpourloto", [MADE_0, MADE_1], options={"deals": 2})
    assert (sheet.status, sheet.winner, sheet.totals) == (Status.FINISHED, None, (162, 162))


def test_thrown_in_deals_are_not_counted():
    sheet = replay("mpourloto", [MADE_0, THROWN], options={"deals": 2})
    assert sheet.status == Status.IN_PROGRESS
    assert replay("mpourloto", [MADE_0, THROWN, MADE_0], options={"deals": 2}).status == Status.FINISHED


def test_the_target_does_not_end_a_match_of_fixed_deals():
    capo = Deal(maker=0, card_points=(152, 0), capot=0)  # 242, over a target of 200
    sheet = replay("mpourloto", [capo], options={"deals": 2, "target": 200})
    assert sheet.status == Status.IN_PROGRESS
    sheet = replay("mpourloto", [capo, MADE_1], options={"deals": 2, "target": 200})
    assert (sheet.status, sheet.winner, sheet.totals) == (Status.FINISHED, 0, (242 + 62, 100))


def test_no_deal_after_the_fixed_deals():
    with pytest.raises(ScoringError) as caught:
        replay("mpourloto", [MADE_0, MADE_1, MADE_0], options={"deals": 2})
    assert caught.value.deal == 2
    assert "already over" in caught.value.message


@pytest.mark.parametrize("ruleset", ["pilotta", "bulgarian", "french", "classic"])
def test_every_game_takes_the_option(ruleset):
    sheet = replay(ruleset, [THROWN], options={"deals": 1})
    assert sheet.status == Status.IN_PROGRESS


def test_negative_deals_are_refused():
    with pytest.raises(ScoringError) as caught:
        replay("mpourloto", [], options={"deals": -1})
    assert caught.value.field == "options.deals"
