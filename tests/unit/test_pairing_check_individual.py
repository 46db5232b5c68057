"""The last look at an individual round before it is saved (``check_individual``)."""

import pytest

from tournaments.pairing import PairingError
from tournaments.pairing.check import check_individual

NINE = range(1, 10)
GOOD = [(1, 2, 3, 4), (5, 6, 7, 8)]


def test_two_tables_and_the_one_left_over_sitting_out_is_valid():
    check_individual(NINE, GOOD, [9])
    check_individual(range(1, 9), GOOD, [])


@pytest.mark.parametrize(
    ("tables", "out", "message"),
    [
        ([(1, 2, 3, 4), (5, 6, 7, 1)], [9], "seated twice"),
        ([(1, 2, 3, 4), (5, 6, 7, 8)], [1], "seated twice"),
        ([(1, 2, 3, 4), (5, 6, 7, 10)], [9], "does not play"),
        ([(1, 2, 3, 4)], [9], "has no seat"),
        ([(1, 2, 3, 4), (5, 6, 7)], [8, 9], "four players"),
        ([(1, 2, 3, 4), (5, 6, 7, None)], [8, 9], "four players"),
        ([(1, 2, 3, 4)], [5, 6, 7, 8, 9], "5 players sit out"),
    ],
    ids=["twice-at-tables", "seated-and-out", "a-stranger", "someone-missing", "three-seats", "empty-seat",
         "too-many-out"],
)  # fmt: skip
def test_an_invalid_round_is_refused(tables, out, message):
    with pytest.raises(PairingError, match=message):
        check_individual(NINE, tables, out)


def test_nobody_sits_out_again_while_a_seated_player_has_sat_out_less():
    check_individual(NINE, GOOD, [9], sat_out={1: 1})  # 9 has not sat out yet
    with pytest.raises(PairingError, match="sits out again"):
        check_individual(NINE, GOOD, [9], sat_out={9: 1})
    check_individual(NINE, GOOD, [9], sat_out=dict.fromkeys(NINE, 1))  # everyone has, once


def test_a_player_listed_twice_is_refused():
    with pytest.raises(PairingError, match="listed twice"):
        check_individual([1, 2, 3, 4, 4], [(1, 2, 3, 4)], [])
