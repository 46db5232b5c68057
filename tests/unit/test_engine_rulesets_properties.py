"""Invariants of Pilotta, Bulgarian, French and Classic scoring for every valid deal and match.

The strategies build deals the table could have reported (RULES.md §2-§5 and
every check of the rule-set modules): a contract the game knows, card points
adding up to the deck total (152 a suit, 248 all trumps, 120 no trumps), the
last trick or a capot/valat with the whole deck, declarations within the
limits (at most four a team, each of four Jacks, 9s, 8s, 7s once a deal, at
most four "four"), belotes within the game's limit, the named team when a
contest needs one, and now and then a thrown-in deal. Ties are aimed at on
purpose so that hanging and litige deals happen often.

The oracles below write RULES.md's sums out independently of the engine.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import Contract, Deal, Result, ScoringError, Status, replay, score_deal

ONE_DEAL = settings(max_examples=120, deadline=None)
MATCHES = settings(max_examples=60, deadline=None)

TEAM = st.sampled_from([0, 1])
NO_MELDS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
THROWN_IN = Deal(thrown_in=True)
SUITS = ("clubs", "diamonds", "hearts", "spades")
VALUE = {
    "seq3": 20, "seq4": 50, "seq5": 100,
    "four": 100, "fourJ": 200, "four9": 150, "four8": 0, "four7": 0,
}  # fmt: skip
SEQUENCE_LENGTH = {"seq3": 3, "seq4": 4, "seq5": 5}
ONCE_A_DEAL = ("fourJ", "four9", "four8", "four7")


def other(team: int) -> int:
    return 1 - team


def total_of(pair) -> int:
    return pair[0] + pair[1]


# ---------------------------------------------------------------------------
# Shared strategies
# ---------------------------------------------------------------------------


@st.composite
def declaration_pairs(draw) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Both teams' declarations: each rank's four once a deal, at most four 'four', four a team."""
    teams: list[list[str]] = [[], []]
    for code in ONCE_A_DEAL:
        owner = draw(st.sampled_from([None, None, 0, 1]))
        if owner is not None:
            teams[owner].append(code)
    for _ in range(draw(st.integers(0, 4))):
        teams[draw(TEAM)].append("four")
    for team in teams:
        team += draw(st.lists(st.sampled_from(list(SEQUENCE_LENGTH)), max_size=3))
    cut = [draw(st.permutations(team))[:4] for team in teams]
    return tuple(cut[0]), tuple(cut[1])


@st.composite
def cards_and_last(draw, deck: int, tie_at: int | None = None):
    """Card points (team 0, team 1), the last trick and the capot team; now and then the tie point."""
    if draw(st.integers(0, 6)) == 0:
        capot = draw(TEAM)
        return ((deck, 0) if capot == 0 else (0, deck)), None, capot
    last = draw(TEAM)
    first = draw(st.integers(0, deck))
    return (first, deck - first), last, None


def tie_point(deck: int, last: int, extras: tuple[int, int]) -> int | None:
    """Team 0's card points that make both teams equal: c + 10·l0 + e0 == deck - c + 10·l1 + e1."""
    twice = deck + 10 * (last == 1) - 10 * (last == 0) + extras[1] - extras[0]
    if twice % 2 or not 0 <= twice // 2 <= deck:
        return None
    return twice // 2


@st.composite
def split(draw, deck: int, extras: tuple[int, int]):
    """Card points, last trick and capot; a third of the time the split that ties the teams."""
    cards, last, capot = draw(cards_and_last(deck))
    if capot is None and draw(st.integers(0, 2)) == 0:
        tie = tie_point(deck, last, extras)
        if tie is not None:
            cards = (tie, deck - tie)
    return cards, last, capot


def play(ruleset: str, played: list[Deal], options: dict, first_dealer: int = 0):
    """The sheet of the deals up to the one that ends the match (later ones are refused)."""
    try:
        return played, replay(ruleset, played, options=options, first_dealer=first_dealer)
    except ScoringError as error:
        assert "already won" in error.message
        played = played[: error.deal]
        return played, replay(ruleset, played, options=options, first_dealer=first_dealer)


def assert_running_totals(sheet) -> None:
    running = (0, 0)
    for row in sheet.rows:
        running = (running[0] + row.scores[0], running[1] + row.scores[1])
        assert row.totals == running
    assert sheet.totals == running


def assert_target_rule(sheet, target: int, *, may_end=lambda row: True) -> None:
    """Finished right after the first deal that may end the match, over the target with unequal totals."""
    for k, row in enumerate(sheet.rows):
        a, b = row.totals
        ends = not row.deal.thrown_in and may_end(row) and max(a, b) >= target and a != b
        if ends:
            assert k == len(sheet.rows) - 1
            assert sheet.status == Status.FINISHED
            assert sheet.winner == (0 if a > b else 1)
            return
    assert sheet.status == Status.IN_PROGRESS
    assert sheet.winner is None


# ---------------------------------------------------------------------------
# Pilotta (RULES §2)
# ---------------------------------------------------------------------------


def pilotta_contest(deal: Deal) -> int | None:
    best = [max((VALUE[m] for m in melds), default=0) for melds in deal.melds]
    if best[0] == best[1]:
        return deal.declarations_winner if best[0] > 0 else None
    return 0 if best[0] > best[1] else 1


def pilotta_table(deal: Deal, options: dict):
    """Card side, declarations that count, belotes and totals, per team."""
    capot_value = 162 + options.get("capot_bonus", 90)
    if deal.capot is not None:
        side = tuple(capot_value if t == deal.capot else 0 for t in (0, 1))
    else:
        side = tuple(deal.card_points[t] + 10 * (deal.last_trick == t) for t in (0, 1))
    winner = pilotta_contest(deal)
    declared = tuple(sum(VALUE[m] for m in deal.melds[t]) if t == winner else 0 for t in (0, 1))
    belote = tuple(20 * n for n in deal.belote)
    totals = tuple(side[t] + declared[t] + belote[t] for t in (0, 1))
    return side, declared, belote, totals


def pilotta_expected(deal: Deal, options: dict):
    """(result, raw, match points) as RULES §2 gives them."""
    side, declared, belote, totals = pilotta_table(deal, options)
    d, o = deal.maker, other(deal.maker)
    x = deal.contract.multiplier
    raw = [0, 0]
    if totals[d] >= deal.contract.bid:
        result = Result.MADE
        if x == 1:
            raw = list(totals)
        else:
            raw[d], raw[o] = totals[d] + totals[o] - belote[o], belote[o]
    else:
        result = Result.FAILED
        card_side = side[o] if deal.capot == o else 162
        raw[o] = card_side + declared[o] + belote[o] + belote[d]

    def rounded(points: int, declarers: bool) -> int:
        q, r = divmod(points, 10)
        return q if r < 6 else q + 1 if r > 6 else q + declarers

    mp = tuple(rounded(raw[t], t == d) * x for t in (0, 1))
    return result, tuple(raw), mp


PILOTTA_OPTIONS = st.fixed_dictionaries(
    {},
    optional={"capot_bonus": st.sampled_from([90, 100]), "target": st.sampled_from([151, 351, 10**6])},
)


@st.composite
def pilotta_deals(draw, options: dict, thrown_in: bool = True) -> Deal:
    if thrown_in and draw(st.integers(0, 7)) == 0:
        return THROWN_IN
    maker = draw(TEAM)
    melds = draw(st.one_of(st.just(NO_MELDS), declaration_pairs()))
    best = [max((VALUE[m] for m in team), default=0) for team in melds]
    named = draw(TEAM) if best[0] == best[1] > 0 else None
    belote = draw(st.sampled_from([(0, 0), (0, 0), (1, 0), (0, 1)]))
    cards, last, capot = draw(cards_and_last(152))
    suit = draw(st.sampled_from(SUITS))
    multiplier = draw(st.sampled_from([1, 1, 2, 4]))

    def with_bid(bid: int) -> Deal:
        return Deal(
            maker=maker,
            contract=Contract(suit=suit, bid=bid, multiplier=multiplier),
            card_points=cards,
            last_trick=last,
            capot=capot,
            melds=melds,
            belote=belote,
            declarations_winner=named,
        )

    # Bids from 80 to 300, and often the tens just at or above the declarers' total.
    total = pilotta_table(with_bid(80), options)[3][maker]
    near = [b for b in (total // 10 * 10, total // 10 * 10 + 10) if b >= 80] or [80]
    return with_bid(draw(st.one_of(st.integers(8, 30).map(lambda k: 10 * k), st.sampled_from(near))))


@st.composite
def pilotta_cases(draw):
    options = draw(PILOTTA_OPTIONS)
    return draw(pilotta_deals(options, thrown_in=False)), options


@st.composite
def pilotta_matches(draw):
    options = draw(PILOTTA_OPTIONS)
    return draw(st.lists(pilotta_deals(options), max_size=20)), options, draw(st.sampled_from([0, 1, 2, 3]))


@ONE_DEAL
@given(pilotta_cases())
def test_pilotta_deal_follows_the_rules(case):
    deal, options = case
    score = score_deal("pilotta", deal, options=options)
    result, raw, mp = pilotta_expected(deal, options)
    assert score.points == pilotta_table(deal, options)[3]
    assert (score.result, score.raw, score.scores, score.held) == (result, raw, mp, 0)
    assert score.winner == (deal.maker if result == Result.MADE else other(deal.maker))


@ONE_DEAL
@given(pilotta_cases())
def test_pilotta_raw_points_are_what_the_deal_puts_on_the_table(case):
    deal, options = case
    score = score_deal("pilotta", deal, options=options)
    side, declared, belote, totals = pilotta_table(deal, options)
    o = other(deal.maker)
    if score.result == Result.MADE:
        # Made, doubled or not: nothing is lost, nothing added.
        assert total_of(score.raw) + score.held == total_of(totals)
    else:
        # Failed: the defenders' card side (162, or their capot), their declarations, both belotes.
        card_side = side[o] if deal.capot == o else 162
        assert total_of(score.raw) + score.held == card_side + declared[o] + total_of(belote)


@ONE_DEAL
@given(pilotta_cases())
def test_pilotta_match_points_are_within_one_of_the_tens_of_the_raw_total(case):
    deal, options = case
    score = score_deal("pilotta", deal, options=options)
    x = deal.contract.multiplier
    assert all(s % x == 0 for s in score.scores)
    assert abs(10 * total_of(score.scores) // x - total_of(score.raw)) <= 10
    # The rule of 6 is always met "for both teams": an amount on 6 never stands alone.
    on_6 = [r % 10 == 6 for r in score.raw]
    assert on_6[0] == on_6[1]


@ONE_DEAL
@given(pilotta_cases())
def test_pilotta_failed_or_doubled_deal_gives_every_card_point_to_one_side(case):
    deal, options = case
    score = score_deal("pilotta", deal, options=options)
    d, o = deal.maker, other(deal.maker)
    if score.result == Result.FAILED:
        assert score.raw[d] == 0 and score.scores[d] == 0
    elif deal.contract.multiplier > 1:
        assert score.raw[o] == 20 * deal.belote[o]  # the defenders keep only their belote


@MATCHES
@given(pilotta_matches())
def test_pilotta_match_sheet(match):
    played, options, first_dealer = match
    played, sheet = play("pilotta", played, options, first_dealer)
    assert_running_totals(sheet)
    assert sheet.held == 0
    assert_target_rule(sheet, options.get("target", 351))
    # All pass: the same dealer deals again; otherwise the deal passes to the next seat.
    dealer = first_dealer
    for row in sheet.rows:
        assert row.dealer == dealer
        dealer = dealer if row.deal.thrown_in else (dealer + 1) % 4
    assert sheet.next_dealer == dealer
    assert sheet.next_leader == (dealer + 1) % 4


@MATCHES
@given(pilotta_matches())
def test_pilotta_replay_is_deterministic(match):
    played, options, first_dealer = match
    played, sheet = play("pilotta", played, options, first_dealer)
    again = replay("pilotta", list(played), options=dict(options), first_dealer=first_dealer)
    assert again == sheet
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(sheet.to_dict(), sort_keys=True)


# ---------------------------------------------------------------------------
# Bulgarian Belote (RULES §3)
# ---------------------------------------------------------------------------

CONTRACTS = (*SUITS, "notrump", "alltrump")
DECK = {**dict.fromkeys(SUITS, 152), "notrump": 120, "alltrump": 248}
LIMIT = {**dict.fromkeys(SUITS, 6), "notrump": 5, "alltrump": 4}
MOST_BELOTES = {**dict.fromkeys(SUITS, 1), "notrump": 0, "alltrump": 4}


def best_sequences(melds) -> list[int]:
    return [max((SEQUENCE_LENGTH[m] for m in team if m in SEQUENCE_LENGTH), default=0) for team in melds]


def bulgarian_extras(deal: Deal) -> tuple[int, int]:
    """Declarations that count (carrés always, sequences of the contest winner) + belotes, before doubling."""
    best = best_sequences(deal.melds)
    if best[0] != best[1]:
        seq_winner = 0 if best[0] > best[1] else 1
    else:
        seq_winner = None if best[0] == 0 or deal.declarations_winner == "equal" else deal.declarations_winner
    counted = [
        [m for m in melds if m not in SEQUENCE_LENGTH or t == seq_winner]
        for t, melds in enumerate(deal.melds)
    ]
    return tuple(sum(VALUE[m] for m in counted[t]) + 20 * deal.belote[t] for t in (0, 1))  # type: ignore[return-value]


def bulgarian_points(deal: Deal) -> tuple[int, int]:
    factor = 2 if deal.contract.suit == "notrump" else 1
    last = deal.capot if deal.capot is not None else deal.last_trick
    extras = bulgarian_extras(deal)
    return tuple(factor * (deal.card_points[t] + 10 * (last == t) + extras[t]) for t in (0, 1))  # type: ignore[return-value]


def bulgarian_round(amounts, limit: int, up_when_equal: int) -> tuple[int, int]:
    """RULES §3: below the limit down, above up; both on it, the lower up (equal: ``up_when_equal``)."""
    on = [a % 10 == limit for a in amounts]
    assert on[0] == on[1], "RULES never leaves one amount alone on the limit"
    if on[0]:
        up = up_when_equal if amounts[0] == amounts[1] else (0 if amounts[0] < amounts[1] else 1)
    else:
        up = None
    out = []
    for t, a in enumerate(amounts):
        q, r = divmod(a, 10)
        out.append(q if r < limit else q + 1 if r > limit else q + (t == up))
    return out[0], out[1]


def bulgarian_expected(deal: Deal):
    """(result, raw given, own match points before the valat bonus and kirtik, hanging MP) per RULES §3."""
    points = bulgarian_points(deal)
    m, o = deal.maker, other(deal.maker)
    x = deal.contract.multiplier
    limit = LIMIT[deal.contract.suit]
    if points[m] == points[o]:
        hanging = (0, 1) if x > 1 else (m,)
        mp = bulgarian_round(points, limit, up_when_equal=m)
        raw = tuple(0 if t in hanging else points[t] for t in (0, 1))
        own = tuple(0 if t in hanging else mp[t] * x for t in (0, 1))
        return Result.HANGING, raw, own, sum(mp[t] for t in hanging) * x
    if points[m] > points[o]:
        result = Result.INSIDE_DEFENDERS if x > 1 else Result.MADE
        winner = m
    else:
        result, winner = Result.INSIDE, o
    if result == Result.MADE:
        raw = points
    else:  # inside: the other team takes both teams' raw points, a valated team's declarations too
        raw = tuple(total_of(points) if t == winner else 0 for t in (0, 1))
    mp = bulgarian_round(raw, limit, up_when_equal=m)
    applied = 1 if (x > 1 and deal.capot is not None) else x
    return result, raw, (mp[0] * applied, mp[1] * applied), 0


def bulgarian_bonus_and_kirtik(deal: Deal, result: Result, options: dict) -> tuple[int, int]:
    """Valat bonus minus kirtik, per team: what a deal adds beyond its rounded match points."""
    extra = [0, 0]
    factor = 2 if deal.contract.suit == "notrump" else 1
    if deal.capot is not None:
        extra[deal.capot] += 9 * factor
    if options.get("kirtik"):
        if result == Result.INSIDE:
            extra[deal.maker] -= 10
        elif result == Result.INSIDE_DEFENDERS:
            extra[other(deal.maker)] -= 10
        if deal.capot is not None:
            extra[other(deal.capot)] -= 10
    return extra[0], extra[1]


BULGARIAN_OPTIONS = st.fixed_dictionaries(
    {}, optional={"kirtik": st.booleans(), "target": st.sampled_from([151, 10**6])}
)


@st.composite
def bulgarian_deals(draw, thrown_in: bool = True) -> Deal:
    if thrown_in and draw(st.integers(0, 7)) == 0:
        return THROWN_IN
    maker = draw(TEAM)
    suit = draw(st.sampled_from(CONTRACTS))
    melds = NO_MELDS if suit == "notrump" else draw(st.one_of(st.just(NO_MELDS), declaration_pairs()))
    best = best_sequences(melds)
    named = draw(st.sampled_from([0, 1, "equal"])) if best[0] == best[1] > 0 else None
    most = MOST_BELOTES[suit]
    mine = draw(st.integers(0, most))
    belote = (mine, draw(st.integers(0, most - mine)))
    contract = Contract(suit=suit, multiplier=draw(st.sampled_from([1, 1, 2, 4])))
    probe = Deal(maker=maker, contract=contract, card_points=(0, DECK[suit]), last_trick=0, melds=melds,
                 belote=belote, declarations_winner=named)  # fmt: skip
    cards, last, capot = draw(split(DECK[suit], bulgarian_extras(probe)))
    return Deal(maker=maker, contract=contract, card_points=cards, last_trick=last, capot=capot, melds=melds,
                belote=belote, declarations_winner=named)  # fmt: skip


@st.composite
def bulgarian_cases(draw):
    return draw(bulgarian_deals(thrown_in=False)), draw(BULGARIAN_OPTIONS), draw(st.integers(0, 60))


@st.composite
def bulgarian_matches(draw):
    options = draw(BULGARIAN_OPTIONS)
    return draw(st.lists(bulgarian_deals(), max_size=20)), options, draw(st.sampled_from([0, 1, 2, 3]))


@ONE_DEAL
@given(bulgarian_cases())
def test_bulgarian_deal_follows_the_rules(case):
    deal, options, held = case
    score = score_deal("bulgarian", deal, options=options, held=held)
    result, raw, own, hanging = bulgarian_expected(deal)
    assert score.points == bulgarian_points(deal)
    assert (score.result, score.raw) == (result, raw)
    if result == Result.HANGING:
        assert score.scores == own
        assert score.held == held + hanging
        assert score.winner is None
    else:
        extra = bulgarian_bonus_and_kirtik(deal, result, options)
        expected = [own[t] + extra[t] + (held if t == score.winner else 0) for t in (0, 1)]
        assert score.scores == tuple(expected)
        assert score.held == 0
        contracting_team_won = result in (Result.MADE, Result.INSIDE_DEFENDERS)
        assert score.winner == (deal.maker if contracting_team_won else other(deal.maker))


@ONE_DEAL
@given(bulgarian_cases())
def test_bulgarian_raw_points_are_what_the_deal_puts_on_the_table(case):
    deal, options, held = case
    score = score_deal("bulgarian", deal, options=options, held=held)
    points = bulgarian_points(deal)
    table = {"notrump": 260, "alltrump": 258}.get(deal.contract.suit, 162)
    extras = bulgarian_extras(deal)
    factor = 2 if deal.contract.suit == "notrump" else 1
    assert total_of(points) == table + factor * total_of(extras)
    if score.result == Result.HANGING:
        # What is given is only the scored team's points; the rest hangs (as match points).
        hanging = (0, 1) if deal.contract.multiplier > 1 else (deal.maker,)
        assert total_of(score.raw) == sum(points[t] for t in (0, 1) if t not in hanging)
    else:
        # Made or inside: the sum of raw is the sum of both teams' points.
        assert total_of(score.raw) == total_of(points)


@ONE_DEAL
@given(bulgarian_cases())
def test_bulgarian_match_points_are_within_one_of_the_tens_of_the_raw_total(case):
    deal, options, held = case
    score = score_deal("bulgarian", deal, options=options, held=held)
    x = deal.contract.multiplier
    if score.result == Result.HANGING:
        # The scored match points plus the new hanging ones, against both teams' points.
        mp = total_of(score.scores) + score.held - held
        assert mp % x == 0
        assert abs(10 * mp // x - total_of(score.points)) <= 10
        return
    extra = bulgarian_bonus_and_kirtik(deal, score.result, options)
    mp = total_of(score.scores) - total_of(extra) - held
    applied = 1 if (x > 1 and deal.capot is not None) else x
    assert mp % applied == 0
    assert abs(10 * mp // applied - total_of(score.raw)) <= 10


@ONE_DEAL
@given(bulgarian_cases())
def test_bulgarian_inside_gives_every_card_point_to_one_side(case):
    deal, options, _ = case
    score = score_deal("bulgarian", deal, options=options)
    if score.result not in (Result.INSIDE, Result.INSIDE_DEFENDERS):
        return
    # The team inside keeps nothing, not even its declarations and belotes when it suffered a valat.
    assert score.raw[other(score.winner)] == 0
    assert score.raw[score.winner] == total_of(score.points)


@ONE_DEAL
@given(bulgarian_cases())
def test_bulgarian_valat_bonus_is_never_multiplied(case):
    deal, options, _ = case
    if deal.capot is None:
        return
    options = {**options, "kirtik": False}
    score = score_deal("bulgarian", deal, options=options)
    factor = 2 if deal.contract.suit == "notrump" else 1
    mp = bulgarian_round(score.raw, LIMIT[deal.contract.suit], up_when_equal=deal.maker)
    # Not doubled, the multiplier is 1; doubled, it is not applied at all: the rounded raw points count
    # once, and the bonus is 9 (18 in no trumps) whatever the multiplier.
    assert score.scores[deal.capot] == mp[deal.capot] + 9 * factor
    assert score.scores[other(deal.capot)] == mp[other(deal.capot)]


@MATCHES
@given(bulgarian_matches())
def test_bulgarian_hanging_points_are_neither_lost_nor_counted_twice(match):
    played, options, first_dealer = match
    played, sheet = play("bulgarian", played, options, first_dealer)
    assert_running_totals(sheet)
    own_mp = 0
    extras = 0
    held = 0
    for deal, row in zip(played, sheet.rows, strict=True):
        if deal.thrown_in:
            assert (row.scores, row.held) == ((0, 0), held)
            continue
        result, _, own, hanging = bulgarian_expected(deal)
        own_mp += total_of(own) + hanging
        if result != Result.HANGING:
            extras += total_of(bulgarian_bonus_and_kirtik(deal, result, options))
        held = held + hanging if result == Result.HANGING else 0
        assert row.held == held
    assert sheet.held == held
    assert total_of(sheet.totals) + sheet.held - extras == own_mp


@MATCHES
@given(bulgarian_matches())
def test_bulgarian_match_end(match):
    played, options, first_dealer = match
    played, sheet = play("bulgarian", played, options, first_dealer)
    # First to the target; both over, the higher; equal, play on; never on a valat.
    assert_target_rule(sheet, options.get("target", 151), may_end=lambda row: row.deal.capot is None)
    assert [row.dealer for row in sheet.rows] == [(first_dealer + k) % 4 for k in range(len(played))]
    assert sheet.next_leader == (sheet.next_dealer + 1) % 4


@MATCHES
@given(bulgarian_matches())
def test_bulgarian_replay_is_deterministic(match):
    played, options, first_dealer = match
    played, sheet = play("bulgarian", played, options, first_dealer)
    again = replay("bulgarian", list(played), options=dict(options), first_dealer=first_dealer)
    assert again == sheet
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(sheet.to_dict(), sort_keys=True)


# ---------------------------------------------------------------------------
# French Belote (RULES §4) and Belote Classic (§5)
# ---------------------------------------------------------------------------


def french_table(ruleset: str, deal: Deal) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Card side, all declarations (none in Classic) and belotes, per team."""
    if deal.capot is not None:
        value = 350 if deal.solo_capot else 252
        side = tuple(value if t == deal.capot else 0 for t in (0, 1))
    else:
        side = tuple(deal.card_points[t] + 10 * (deal.last_trick == t) for t in (0, 1))
    declared = tuple(sum(VALUE[m] for m in melds) for melds in deal.melds)
    belote = tuple(20 * n for n in deal.belote)
    return side, declared, belote  # type: ignore[return-value]


def french_points(ruleset: str, deal: Deal) -> tuple[int, int]:
    side, declared, belote = french_table(ruleset, deal)
    return side[0] + declared[0] + belote[0], side[1] + declared[1] + belote[1]


FRENCH_OPTIONS = st.fixed_dictionaries(
    {}, optional={"litige": st.booleans(), "target": st.sampled_from([501, 1000, 10**6])}
)
CLASSIC_OPTIONS = st.fixed_dictionaries({}, optional={"target": st.sampled_from([501, 10**6])})


@st.composite
def french_deals(draw, ruleset: str, thrown_in: bool = True) -> Deal:
    if thrown_in and draw(st.integers(0, 7)) == 0:
        return THROWN_IN
    maker = draw(TEAM)
    melds = NO_MELDS if ruleset == "classic" else draw(st.one_of(st.just(NO_MELDS), declaration_pairs()))
    belote = draw(st.sampled_from([(0, 0), (0, 0), (1, 0), (0, 1)]))
    contract = draw(st.one_of(st.none(), st.sampled_from(SUITS).map(lambda suit: Contract(suit=suit))))
    extras = tuple(sum(VALUE[m] for m in melds[t]) + 20 * belote[t] for t in (0, 1))
    cards, last, capot = draw(split(152, extras))
    solo = ruleset == "classic" and capot is not None and draw(st.booleans())
    return Deal(maker=maker, contract=contract, card_points=cards, last_trick=last, capot=capot,
                solo_capot=solo, melds=melds, belote=belote)  # fmt: skip


@st.composite
def french_cases(draw):
    ruleset = draw(st.sampled_from(["french", "classic"]))
    options = draw(FRENCH_OPTIONS if ruleset == "french" else CLASSIC_OPTIONS)
    return ruleset, draw(french_deals(ruleset, thrown_in=False)), options, draw(st.integers(0, 400))


@st.composite
def french_matches(draw):
    ruleset = draw(st.sampled_from(["french", "classic"]))
    options = draw(FRENCH_OPTIONS if ruleset == "french" else CLASSIC_OPTIONS)
    deals = draw(st.lists(french_deals(ruleset), max_size=20))
    return ruleset, deals, options, draw(st.sampled_from([0, 1, 2, 3]))


@ONE_DEAL
@given(french_cases())
def test_french_deal_follows_the_rules(case):
    ruleset, deal, options, held = case
    score = score_deal(ruleset, deal, options=options, held=held)
    side, declared, belote = french_table(ruleset, deal)
    points = french_points(ruleset, deal)
    t, o = deal.maker, other(deal.maker)
    assert score.points == points
    if points[t] > points[o]:
        expected = [points[0], points[1]]
        assert (score.result, score.winner, score.held) == (Result.MADE, t, 0)
        expected[t] += held
    elif points[t] == points[o] and options.get("litige"):
        assert (score.result, score.winner) == (Result.LITIGE, None)
        expected = [0, 0]
        expected[o], expected[t] = points[o], belote[t]
        assert score.held == held + points[t] - belote[t]
    else:
        assert (score.result, score.winner, score.held) == (Result.DEDANS, o, 0)
        expected = [0, 0]
        expected[o] = total_of(side) + total_of(declared) + belote[o] + held
        expected[t] = belote[t]
    assert score.scores == tuple(expected)


@ONE_DEAL
@given(french_cases())
def test_french_points_are_neither_lost_nor_added(case):
    ruleset, deal, options, held = case
    score = score_deal(ruleset, deal, options=options, held=held)
    _, declared, belote = french_table(ruleset, deal)
    card_side = 162 if deal.capot is None else (350 if deal.solo_capot else 252)
    # Made, dedans or litige: 162/252/350 + all declarations + belotes, whoever gets them.
    assert total_of(score.scores) + score.held - held == card_side + total_of(declared) + total_of(belote)
    if score.result == Result.DEDANS:
        # Dedans: every card point to one side; the taker keeps only its belote.
        assert score.scores[deal.maker] == belote[deal.maker]


@MATCHES
@given(french_matches())
def test_french_match_sheet(match):
    ruleset, played, options, first_dealer = match
    played, sheet = play(ruleset, played, options, first_dealer)
    assert_running_totals(sheet)
    put_in = sum(total_of(french_points(ruleset, d)) for d in played if not d.thrown_in)
    assert total_of(sheet.totals) + sheet.held == put_in
    if not options.get("litige"):
        assert sheet.held == 0
    assert_target_rule(sheet, options.get("target", 501))
    assert [row.dealer for row in sheet.rows] == [(first_dealer + k) % 4 for k in range(len(played))]
    # Classic: the dealer leads; French: the next seat.
    leader = sheet.next_dealer if ruleset == "classic" else (sheet.next_dealer + 1) % 4
    assert sheet.next_leader == leader


@MATCHES
@given(french_matches())
def test_french_replay_is_deterministic(match):
    ruleset, played, options, first_dealer = match
    played, sheet = play(ruleset, played, options, first_dealer)
    again = replay(ruleset, list(played), options=dict(options), first_dealer=first_dealer)
    assert again == sheet
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(sheet.to_dict(), sort_keys=True)
