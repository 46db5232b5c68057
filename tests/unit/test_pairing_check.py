"""``check_pairing``: the last look at a round before a service saves it."""

from __future__ import annotations

import pytest

from tournaments.pairing import Pair, PairingError, check_pairing

PLAYED = {frozenset((1, 2)), frozenset((3, 4))}


@pytest.mark.parametrize(
    ("entries", "pairs", "options"),
    [
        pytest.param([1, 2, 3, 4], [Pair(1, 3), Pair(2, 4)], {}, id="even"),
        pytest.param([1, 2, 3], [Pair(1, 3), Pair(2, None)], {}, id="odd-with-a-bye"),
        pytest.param([], [], {}, id="nobody"),
        pytest.param([1, 2, 3, 4], [Pair(1, 2), Pair(3, 4)], {"played": PLAYED}, id="rematches-allowed"),
        pytest.param(
            [1, 2, 3, 4, 5],
            [Pair(1, 3), Pair(2, 4), Pair(5, None)],
            {"played": PLAYED, "allow_rematch": False, "byes": [1, 2, 3, 4]},
            id="strict-and-fine",
        ),
        pytest.param([1, 2, 3], [Pair(1, 2), Pair(3, None)], {"byes": [1, 2, 3]}, id="everyone-had-a-bye"),
        pytest.param(
            [1, 2, 3, 4, 5, 6],
            [Pair(1, None), Pair(4, 5), Pair(2, None), Pair(3, 6)],
            {"max_byes": None},
            id="a-knockout-has-several-byes",
        ),
    ],
)
def test_a_valid_round_passes(entries, pairs, options):
    check_pairing(entries, pairs, **options)


@pytest.mark.parametrize(
    ("entries", "pairs", "options", "message"),
    [
        pytest.param([1, 2, 3, 4], [Pair(1, 3)], {}, "Entry 2 has no table", id="a-team-left-out"),
        pytest.param(
            [1, 2], [Pair(1, 2), Pair(3, None)], {}, "3 is at table 2 but does not play", id="a-stranger"
        ),
        pytest.param(
            [1, 2, 3, 4], [Pair(1, 2), Pair(2, 3), Pair(4, None)], {}, "2 is at two tables", id="a-team-twice"
        ),
        pytest.param([1, 2, 3], [Pair(1, 1), Pair(2, 3)], {}, "1 is paired with itself", id="itself"),
        pytest.param(
            [1, 2, 3, 4], [Pair(1, None), Pair(2, None), Pair(3, 4)], {}, "2 teams have a bye", id="two-byes"
        ),
        pytest.param(
            [1, 2, 3, 4],
            [Pair(1, 2), Pair(3, None), Pair(4, None)],
            {},
            "2 teams have a bye",
            id="byes-with-an-even-number",
        ),
        pytest.param(
            [1, 2, 3, 4, 5],
            [Pair(1, None), Pair(2, None), Pair(3, None), Pair(4, 5)],
            {"max_byes": 2},
            "3 teams have a bye",
            id="more-byes-than-allowed",
        ),
        pytest.param(
            [1, 2, 3, 4],
            [Pair(1, 2), Pair(3, 4)],
            {"played": PLAYED, "allow_rematch": False},
            "1 and 2 have already played",
            id="a-rematch",
        ),
        pytest.param(
            [1, 2, 3],
            [Pair(2, 3), Pair(1, None)],
            {"byes": [1]},
            "1 already had a bye; entry 2 has not",
            id="a-second-bye",
        ),
        pytest.param([1, 2, 1], [Pair(1, 2)], {}, "listed twice", id="entries-listed-twice"),
    ],
)
def test_an_invalid_round_is_refused_in_plain_words(entries, pairs, options, message):
    with pytest.raises(PairingError, match=message):
        check_pairing(entries, pairs, **options)
