"""Invariants of Mpourloto scoring that hold for every valid deal and match.

The strategies build deals the table could have reported (RULES.md §1): a
maker, a split of the 152 card points, the last trick or a capo with 152/0,
melds within the limits (at most four per team besides the mpourloto, each of
fourJ, four9, four8, four7 and mpourloto at most once a deal), the named team
when best_melds_only meets equal best melds, and now and then a thrown-in deal.

``table_points`` is RULES.md's sum written out independently of the engine:
card points + last-trick bonus (10, or 90/100 on capo) + the melds that count.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import Deal, Result, ScoringError, Status, replay, score_deal

BOUNDED = settings(max_examples=200, deadline=None)

TEAM = st.sampled_from([0, 1])
MELD_VALUE = {
    "seq3": 20, "seq4": 50, "seq5": 100,
    "four": 100, "fourJ": 100, "four9": 100, "four8": 100, "four7": 100,
    "mpourloto": 20,
}  # fmt: skip
ONCE_A_DEAL = ("fourJ", "four9", "four8", "four7")
REPEATABLE = ("seq3", "seq4", "seq5", "four")
THROWN_IN = Deal(thrown_in=True)


# ---------------------------------------------------------------------------
# The rules, written out for the oracle
# ---------------------------------------------------------------------------


def best_plain_meld(melds: tuple[str, ...]) -> int:
    return max((MELD_VALUE[m] for m in melds if m != "mpourloto"), default=0)


def counted_melds(deal: Deal, options: dict) -> tuple[int, int]:
    """Each team's melds as RULES.md §1 counts them under the options."""
    if not options.get("best_melds_only"):
        return (sum(MELD_VALUE[m] for m in deal.melds[0]), sum(MELD_VALUE[m] for m in deal.melds[1]))
    best = (best_plain_meld(deal.melds[0]), best_plain_meld(deal.melds[1]))
    contest_winner = deal.declarations_winner if best[0] == best[1] else (0 if best[0] > best[1] else 1)
    return tuple(  # type: ignore[return-value]
        sum(MELD_VALUE[m] for m in melds if m == "mpourloto" or team == contest_winner)
        for team, melds in enumerate(deal.melds)
    )


def capo_bonus(options: dict) -> int:
    return 100 if options.get("capo_100") else 90


def table_points(deal: Deal, options: dict) -> tuple[int, int]:
    """card points + last-trick bonus + melds, per team."""
    melds = counted_melds(deal, options)
    bonus = [0, 0]
    if deal.capot is not None:
        bonus[deal.capot] = capo_bonus(options)
    else:
        bonus[deal.last_trick] = 10
    return tuple(deal.card_points[t] + bonus[t] + melds[t] for t in (0, 1))  # type: ignore[return-value]


def put_in(deals, options: dict) -> int:
    """What the deals put on the table, both teams together."""
    return sum(sum(table_points(d, options)) for d in deals if not d.thrown_in)


# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "ties_hang": st.booleans(),
        "best_melds_only": st.booleans(),
        "capo_100": st.booleans(),
        "partner_relief": st.booleans(),
        "target": st.sampled_from([300, 751, 1000, 1551]),
    },
)


@st.composite
def meld_pairs(draw) -> tuple[tuple[str, ...], tuple[str, ...]]:
    teams: list[list[str]] = [[], []]
    for code in ONCE_A_DEAL:
        owner = draw(st.sampled_from([None, None, 0, 1]))
        if owner is not None:
            teams[owner].append(code)
    for team in teams:
        team += draw(st.lists(st.sampled_from(REPEATABLE), max_size=3))
    teams = [draw(st.permutations(team))[:4] for team in teams]
    owner = draw(st.sampled_from([None, 0, 1]))
    if owner is not None:
        teams[owner].append("mpourloto")
    return tuple(teams[0]), tuple(teams[1])


@st.composite
def deals(draw, options: dict, thrown_in: bool = True) -> Deal:
    """A valid Mpourloto deal; ties are drawn on purpose a quarter of the time."""
    if thrown_in and draw(st.integers(0, 7)) == 0:
        return THROWN_IN
    maker = draw(TEAM)
    melds = draw(st.one_of(st.just(((), ())), meld_pairs()))
    named = None
    best = (best_plain_meld(melds[0]), best_plain_meld(melds[1]))
    if options.get("best_melds_only") and best[0] == best[1] and best[0] > 0:
        named = draw(TEAM)
    if draw(st.integers(0, 5)) == 0:
        capo = draw(TEAM)
        cards = (152, 0) if capo == 0 else (0, 152)
        return Deal(maker=maker, card_points=cards, capot=capo, melds=melds, declarations_winner=named)
    last = draw(TEAM)
    probe = Deal(maker=maker, card_points=(0, 152), last_trick=last, melds=melds, declarations_winner=named)
    zero = table_points(probe, options)  # team 0 at 0 card points; each card point moves 1 across
    tie = (zero[1] - zero[0]) // 2  # always even: 152, 10 and melds are even
    aim_for_a_tie = 0 <= tie <= 152 and draw(st.integers(0, 3)) == 0
    first = tie if aim_for_a_tie else draw(st.integers(0, 152))
    return Deal(
        maker=maker, card_points=(first, 152 - first), last_trick=last, melds=melds, declarations_winner=named
    )


@st.composite
def scored_deals(draw) -> tuple[Deal, dict]:
    options = draw(OPTIONS)
    return draw(deals(options, thrown_in=False)), options


def mirrored(deal: Deal) -> Deal:
    """The same deal with the teams swapped: after a deal and its mirror the totals are equal."""
    if deal.thrown_in:
        return deal

    def swap(team):
        return None if team is None else 1 - team

    return Deal(
        maker=swap(deal.maker),
        card_points=(deal.card_points[1], deal.card_points[0]),
        last_trick=swap(deal.last_trick),
        capot=swap(deal.capot),
        melds=(deal.melds[1], deal.melds[0]),
        declarations_winner=swap(deal.declarations_winner),
    )


@st.composite
def matches(draw, options=OPTIONS, max_deals: int = 24) -> tuple[list[Deal], dict, int]:
    """A match's deals; half the time in mirrored pairs, so that equal totals over the target happen."""
    options = draw(options)
    if draw(st.booleans()):
        played = draw(st.lists(deals(options), max_size=max_deals))
    else:
        halves = draw(st.lists(deals(options), max_size=max_deals // 2))
        played = [d for half in halves for d in (half, mirrored(half))]
        played += draw(st.lists(deals(options), max_size=4))  # the tie-break deals
    return played, options, draw(st.sampled_from([0, 1, 2, 3]))


HANGING_MATCHES = matches(OPTIONS.map(lambda options: {**options, "ties_hang": True}))


def play(played: list[Deal], options: dict, first_dealer: int = 0):
    """The sheet of the deals up to the one that wins the match (later ones are refused)."""
    try:
        return played, replay("mpourloto", played, options=options, first_dealer=first_dealer)
    except ScoringError as error:
        assert "already won" in error.message
        assert error.field is None
        played = played[: error.deal]
        return played, replay("mpourloto", played, options=options, first_dealer=first_dealer)


# ---------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------


@BOUNDED
@given(scored_deals())
def test_deal_points_are_cards_plus_last_trick_plus_melds(case):
    deal, options = case
    score = score_deal("mpourloto", deal, options=options)
    assert score.points == table_points(deal, options)


@BOUNDED
@given(scored_deals())
def test_a_deal_holds_162_or_242_or_252_plus_the_melds(case):
    deal, options = case
    score = score_deal("mpourloto", deal, options=options)
    cards_and_bonus = 152 + (capo_bonus(options) if deal.capot is not None else 10)
    assert sum(score.points) == cards_and_bonus + sum(counted_melds(deal, options))
    if score.result != Result.HANGING:
        assert sum(score.scores) == sum(score.points)


@BOUNDED
@given(scored_deals())
def test_made_when_makers_strictly_ahead_otherwise_mesa_or_hanging(case):
    deal, options = case
    score = score_deal("mpourloto", deal, options=options)
    maker, other = deal.maker, 1 - deal.maker
    points = table_points(deal, options)
    if points[maker] > points[other]:
        assert score.result == Result.MADE
        assert score.scores == points
        assert score.winner == maker
    elif points[maker] == points[other] and options.get("ties_hang"):
        assert score.result == Result.HANGING
        assert score.scores[maker] == 0
        assert score.scores[other] == points[other]
        assert score.held == points[maker]
        assert score.winner is None
    else:
        assert score.result == Result.MESA
        assert score.scores[maker] == 0
        assert score.scores[other] == sum(points)
        assert score.winner == other
    if score.result != Result.HANGING:
        assert score.held == 0


@BOUNDED
@given(scored_deals(), st.integers(0, 2000))
def test_held_points_go_to_the_next_winner_whole(case, held):
    deal, options = case
    options = {**options, "ties_hang": True}
    score = score_deal("mpourloto", deal, options=options, held=held)
    points = table_points(deal, options)
    if score.result == Result.HANGING:
        assert score.held == held + points[deal.maker]
        assert sum(score.scores) == points[1 - deal.maker]
    else:
        assert score.held == 0
        without = score_deal("mpourloto", deal, options=options)
        assert score.scores[score.winner] == without.scores[score.winner] + held
        assert score.scores[1 - score.winner] == without.scores[1 - score.winner]


@BOUNDED
@given(scored_deals())
def test_capo_is_242_and_a_mesa_on_capo_is_242_plus_all_melds(case):
    deal, options = case
    if deal.capot is None:
        return
    score = score_deal("mpourloto", deal, options=options)
    melds = counted_melds(deal, options)
    capo = 152 + capo_bonus(options)
    assert score.points[deal.capot] == capo + melds[deal.capot]
    assert score.points[1 - deal.capot] == melds[1 - deal.capot]
    if score.result == Result.MESA:
        assert score.scores[1 - deal.maker] == capo + sum(melds)


@BOUNDED
@given(scored_deals())
def test_deal_round_trips_through_the_match_file_shape(case):
    deal, _ = case
    assert Deal.from_dict(json.loads(json.dumps(deal.to_dict()))) == deal


# ---------------------------------------------------------------------------
# A match
# ---------------------------------------------------------------------------


@BOUNDED
@given(matches())
def test_totals_are_running_sums_of_the_scores(match):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    running = (0, 0)
    for row in sheet.rows:
        running = (running[0] + row.scores[0], running[1] + row.scores[1])
        assert row.totals == running
    assert sheet.totals == running
    assert sheet.held == (sheet.rows[-1].held if sheet.rows else 0)


@BOUNDED
@given(st.one_of(matches(), HANGING_MATCHES))
def test_points_are_neither_lost_nor_counted_twice(match):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    assert sum(sheet.totals) + sheet.held == put_in(played, options)
    if not options.get("ties_hang"):
        assert sheet.held == 0
        assert all(row.held == 0 and row.result != Result.HANGING for row in sheet.rows)


@BOUNDED
@given(matches())
def test_each_row_shows_the_table_points_of_its_deal(match):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    for deal, row in zip(played, sheet.rows, strict=True):
        assert row.deal == deal
        if deal.thrown_in:
            assert (row.result, row.scores) == (Result.THROWN_IN, (0, 0))
        else:
            assert row.points == table_points(deal, options)


@BOUNDED
@given(matches())
def test_dealer_passes_clockwise_after_every_deal(match):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    assert [row.dealer for row in sheet.rows] == [(first_dealer + k) % 4 for k in range(len(played))]
    assert [row.number for row in sheet.rows] == list(range(1, len(played) + 1))
    assert sheet.next_dealer == (first_dealer + len(played)) % 4
    assert sheet.next_leader == (sheet.next_dealer + 1) % 4


@BOUNDED
@given(matches())
def test_replay_is_deterministic(match):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    again = replay("mpourloto", list(played), options=dict(options), first_dealer=first_dealer)
    assert again == sheet
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(sheet.to_dict(), sort_keys=True)


@BOUNDED
@given(matches(), st.data())
def test_replaying_a_prefix_gives_the_prefix_of_the_sheet(match, data):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    k = data.draw(st.integers(0, len(played)), label="prefix length")
    prefix = replay("mpourloto", played[:k], options=options, first_dealer=first_dealer)
    assert prefix.rows == sheet.rows[:k]
    assert prefix.totals == (sheet.rows[k - 1].totals if k else (0, 0))


@BOUNDED
@given(matches())
def test_a_thrown_in_deal_only_moves_the_dealer(match):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    if sheet.status == Status.FINISHED:
        return
    after = replay("mpourloto", [*played, THROWN_IN], options=options, first_dealer=first_dealer)
    assert (after.totals, after.held, after.winner) == (sheet.totals, sheet.held, sheet.winner)
    assert after.status == sheet.status
    assert after.next_dealer == (sheet.next_dealer + 1) % 4
    assert after.rows[-1].dealer == sheet.next_dealer


@BOUNDED
@given(matches(), st.randoms(use_true_random=False))
def test_without_ties_hang_totals_do_not_depend_on_the_order_of_deals(match, rnd):
    played, options, _ = match
    options = {**options, "ties_hang": False, "target": 1_000_000}  # nobody wins: every order is playable
    shuffled = list(played)
    rnd.shuffle(shuffled)
    in_order = replay("mpourloto", played, options=options)
    assert replay("mpourloto", shuffled, options=options).totals == in_order.totals


@BOUNDED
@given(matches(), st.randoms(use_true_random=False))
def test_with_ties_hang_the_order_only_moves_points_between_teams(match, rnd):
    played, options, _ = match
    options = {**options, "ties_hang": True, "target": 1_000_000}
    shuffled = list(played)
    rnd.shuffle(shuffled)
    for order in (played, shuffled):
        sheet = replay("mpourloto", order, options=options)
        assert sum(sheet.totals) + sheet.held == put_in(played, options)


@BOUNDED
@given(matches())
def test_the_match_ends_by_the_target_rule(match):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    target = options.get("target", 1000)
    assert sheet.target == target
    totals = [row.totals for row in sheet.rows]
    reached = next((k for k, t in enumerate(totals) if max(t) >= target), None)
    if reached is None:
        assert sheet.status == Status.IN_PROGRESS
        assert sheet.winner is None
        assert not any(row.tie_break for row in sheet.rows)
        return
    if totals[reached][0] != totals[reached][1]:
        # First time over the target with different totals: the higher wins there and then.
        assert reached == len(sheet.rows) - 1
        assert sheet.status == Status.FINISHED
        assert sheet.winner == (0 if totals[reached][0] > totals[reached][1] else 1)
        assert not any(row.tie_break for row in sheet.rows)
        return
    # Equal over the target: every later deal that is not thrown in is a tie-break deal.
    assert [row.tie_break for row in sheet.rows] == [
        k > reached and not row.deal.thrown_in for k, row in enumerate(sheet.rows)
    ]
    pair_ends = [k for k, row in enumerate(sheet.rows) if row.tie_break][1::2]
    decided = [k for k in pair_ends if totals[k][0] != totals[k][1]]
    if decided:
        assert decided == [pair_ends[-1]] == [len(sheet.rows) - 1]
        assert sheet.status == Status.FINISHED
        assert sheet.winner == (0 if sheet.totals[0] > sheet.totals[1] else 1)
    else:
        assert sheet.status == Status.TIE_BREAK
        assert sheet.winner is None


@BOUNDED
@given(matches())
def test_a_won_match_accepts_no_further_deal(match):
    played, options, first_dealer = match
    played, sheet = play(played, options, first_dealer)
    if sheet.status != Status.FINISHED:
        return
    assert sheet.totals[sheet.winner] > sheet.totals[1 - sheet.winner]
    assert sheet.totals[sheet.winner] >= sheet.target
    with pytest.raises(ScoringError) as caught:
        replay("mpourloto", [*played, THROWN_IN], options=options, first_dealer=first_dealer)
    assert caught.value.deal == len(played)
