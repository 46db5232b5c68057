"""The prize pot's split (tournaments.prizes.prize_split): each place's percent of the pot, rounded
down to the organizer's step, the remainder of the rounding to the first place; and the money of
places tied teams share, pooled and split equally (prize_pool). Amounts in cents."""

import itertools
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.prizes import (
    money,
    parse_money,
    parse_percentages,
    place_label,
    prize_pool,
    prize_split,
    unassigned_cents,
)

FIVE_PLACES = [40, 25, 15, 12, 8]


@pytest.mark.parametrize(
    ("rounding", "expected"),
    [
        # 174.80 → 174, 109.25 → 109, 65.55 → 65, 52.44 → 52, 34.96 → 34: 434; the 3 left to the first.
        ("unit", [17700, 10900, 6500, 5200, 3400]),
        # Exact to the cent: nothing left over.
        ("cent", [17480, 10925, 6555, 5244, 3496]),
        # 170, 105, 65, 50, 30: 420; the 17 left to the first.
        ("five", [18700, 10500, 6500, 5000, 3000]),
        # 170, 100, 60, 50, 30: 410; the 27 left to the first.
        ("ten", [19700, 10000, 6000, 5000, 3000]),
    ],
)
def test_a_pot_of_437_over_five_places(rounding, expected):
    amounts = prize_split(43700, FIVE_PLACES, rounding)
    assert amounts == expected
    assert sum(amounts) == 43700


def test_the_worked_example_of_the_issue_down_to_the_euro():
    assert [a // 100 for a in prize_split(43700, FIVE_PLACES, "unit")] == [177, 109, 65, 52, 34]


def test_a_pot_with_cents_to_the_cent_gives_the_odd_cent_to_the_first():
    assert prize_split(10001, [50, 50], "cent") == [5001, 5000]
    assert prize_split(100, [Decimal("33.33"), Decimal("33.33"), Decimal("33.34")], "cent") == [34, 33, 33]


def test_percentages_under_100_leave_the_rest_of_the_pot_unassigned():
    # 60 % of 437 €: 174.80 → 174 and 87.40 → 87 (261); 262.20 assigned, so 1.20 to the first.
    amounts = prize_split(43700, [40, 20], "unit")
    assert amounts == [17520, 8700]
    assert unassigned_cents(43700, [40, 20]) == 43700 - 26220
    assert sum(amounts) + unassigned_cents(43700, [40, 20]) == 43700


def test_decimal_percentages_and_text():
    assert prize_split(20000, ["12.5", "87.5"], "unit") == [2500, 17500]


@pytest.mark.parametrize("percentages", [[60, 50], [-5, 50]])
def test_impossible_percentages_are_refused(percentages):
    with pytest.raises(ValueError):
        prize_split(10000, percentages, "unit")


def test_no_places_no_amounts():
    assert prize_split(43700, [], "unit") == []
    assert unassigned_cents(43700, []) == 43700


def test_an_empty_pot_gives_nothing():
    assert prize_split(0, FIVE_PLACES, "ten") == [0, 0, 0, 0, 0]


percent_lists = st.lists(
    st.decimals(min_value=0, max_value=100, places=2, allow_nan=False, allow_infinity=False),
    min_size=1,
    max_size=12,
).filter(lambda ps: sum(ps) <= 100)


@settings(max_examples=300, deadline=None)
@given(
    pot=st.integers(min_value=0, max_value=10_000_000),
    percentages=percent_lists,
    rounding=st.sampled_from(["cent", "unit", "five", "ten"]),
)
def test_the_amounts_never_exceed_the_pot_and_are_never_negative(pot, percentages, rounding):
    amounts = prize_split(pot, percentages, rounding)
    assert len(amounts) == len(percentages)
    assert all(a >= 0 for a in amounts)
    assert sum(amounts) + unassigned_cents(pot, percentages) == pot
    assert sum(amounts) <= pot


@settings(max_examples=300, deadline=None)
@given(
    pot=st.integers(min_value=0, max_value=10_000_000),
    data=st.data(),
    rounding=st.sampled_from(["cent", "unit", "five", "ten"]),
)
def test_with_100_percent_the_amounts_sum_to_the_pot_exactly(pot, data, rounding):
    cuts = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=10_000), max_size=8)))
    bounds = [0, *cuts, 10_000]
    percentages = [Decimal(b - a) / 100 for a, b in itertools.pairwise(bounds)]
    assert sum(percentages) == 100
    amounts = prize_split(pot, percentages, rounding)
    assert sum(amounts) == pot
    step = {"cent": 1, "unit": 100, "five": 500, "ten": 1000}[rounding]
    assert all(a % step == 0 for a in amounts[1:])  # only the first takes the odd remainder


def test_money_and_parsing():
    assert money(17700) == "177\u00a0€" and money(17750, "$") == "177.50\u00a0$"
    assert parse_money("437") == 43700 and parse_money("437,5") == 43750 and parse_money("437.50 €") == 43750
    assert parse_percentages("40, 25; 15 12.5% 8") == [40, 25, 15, Decimal("12.5"), 8]
    for bad in ("abc", "-3", "1.234"):
        with pytest.raises(ValueError):
            parse_money(bad)
    with pytest.raises(ValueError, match="x"):
        parse_percentages("40 x")


# Tied places: their money pooled and split equally --------------------------------------------------


@pytest.mark.parametrize(
    ("amounts", "rounding", "expected"),
    [
        # The worked example: 437 € at 40/25/15/12/8 down to the euro, second and third tied.
        ([10900, 6500], "unit", [8700, 8700]),
        # 52 + 35 = 87 €: 43 € each, the euro left to the first of them.
        ([5200, 3500], "unit", [4400, 4300]),
        # To the cent: 87.01 € → 43.51 and 43.50.
        ([5201, 3500], "cent", [4351, 4350]),
        # Down to 10: 160 € → 80 each; 170 € → 80 each and the 10 left to the first.
        ([10000, 6000], "ten", [8000, 8000]),
        ([10000, 7000], "ten", [9000, 8000]),
        # Three tied, the last place's share with the places after it (no prize of their own).
        ([3400, 0, 0], "unit", [1200, 1100, 1100]),
        ([], "unit", []),
    ],
)
def test_tied_places_pool_their_money(amounts, rounding, expected):
    assert prize_pool(amounts, rounding) == expected


@settings(max_examples=300, deadline=None)
@given(
    amounts=st.lists(st.integers(min_value=0, max_value=10_000_000), min_size=1, max_size=8),
    rounding=st.sampled_from(["cent", "unit", "five", "ten"]),
)
def test_a_pool_keeps_every_cent_and_only_the_first_takes_the_remainder(amounts, rounding):
    shares = prize_pool(amounts, rounding)
    step = {"cent": 1, "unit": 100, "five": 500, "ten": 1000}[rounding]
    assert sum(shares) == sum(amounts) and len(shares) == len(amounts)
    assert len(set(shares[1:])) <= 1 and all(s % step == 0 for s in shares[1:])
    assert 0 <= shares[0] - shares[-1] < step * len(amounts)


def test_a_shared_place_is_written_with_an_equals_sign():
    assert place_label(2, 3, tied=True) == "=2"
    assert place_label(3, 3, tied=False) == "3"
    assert place_label(None, 4, tied=True) == "4"  # nobody holds the place yet
