"""``step``: one deal more, from the state the last deal left to the next (issue 12).

``replay`` is ``step`` folded over the deals; a state kept between deals (the services store it on
the match, as JSON) goes on exactly as a replay of every deal would: the same rows, the same state,
the same refusals. The strategies are those of the rule sets' property tests.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    Deal,
    MatchState,
    ScoringError,
    Status,
    get_ruleset,
    replay,
    sheet_of,
    step,
)
from tests.unit import test_engine_properties as mpourloto_props
from tests.unit import test_engine_rulesets_properties as rulesets_props

MATCHES = settings(max_examples=150, deadline=None)
MADE_0 = Deal(maker=0, card_points=(90, 62), last_trick=0)  # Mpourloto: 100 v 62
MADE_1 = Deal(maker=1, card_points=(62, 90), last_trick=1)
THROWN_IN = Deal(thrown_in=True)


def _mpourloto(case):
    deals, options, dealer = case
    return "mpourloto", deals, options, dealer


def _named(ruleset):
    return lambda case: (ruleset, *case)


ANY_MATCH = st.one_of(
    mpourloto_props.matches().map(_mpourloto),
    rulesets_props.pilotta_matches().map(_named("pilotta")),
    rulesets_props.bulgarian_matches().map(_named("bulgarian")),
    rulesets_props.french_matches(),
)


def fold(ruleset: str, deals, options, first_dealer):
    """``step`` deal after deal, by hand: the state and the rows, or the first refusal."""
    rules = get_ruleset(ruleset)
    opts = rules.options(options)
    state, rows = MatchState.start(first_dealer), []
    for deal in deals:
        state, row = step(rules, opts, state, deal)
        rows.append(row)
    return state, tuple(rows)


def outcome(work):
    try:
        return work()
    except ScoringError as error:
        return ("refused", error.message, error.deal, error.field)


@MATCHES
@given(ANY_MATCH)
def test_replay_is_step_folded_over_the_deals(match):
    ruleset, deals, options, dealer = match
    replayed = outcome(lambda: replay(ruleset, deals, options=options, first_dealer=dealer))
    folded = outcome(lambda: fold(ruleset, deals, options, dealer))
    if isinstance(replayed, tuple):  # refused: the same refusal, at the same deal
        assert folded == replayed
        return
    state, rows = folded
    assert (replayed.state, replayed.rows) == (state, rows)
    assert (replayed.totals, replayed.held, replayed.status, replayed.winner, replayed.next_dealer) == (
        state.totals,
        state.held,
        state.status,
        state.winner,
        state.next_dealer,
    )
    assert state.dealt == len(rows)


@MATCHES
@given(ANY_MATCH, st.integers(0, 30))
def test_a_stored_state_goes_on_as_a_replay_of_every_deal(match, cut):
    """The state after the first deals, written as JSON and read back, then the other deals one
    step each: the rows and the state a full replay gives, or its refusal."""
    ruleset, deals, options, dealer = match
    rules = get_ruleset(ruleset)
    opts = rules.options(options)
    cut = min(cut, len(deals))
    whole = outcome(lambda: replay(ruleset, deals, options=options, first_dealer=dealer))
    start = outcome(lambda: replay(ruleset, deals[:cut], options=options, first_dealer=dealer))
    if isinstance(start, tuple):  # the first deals are refused already: so is the whole match
        assert isinstance(whole, tuple) and whole[2] == start[2]
        return
    stored = json.loads(json.dumps(start.state.to_dict()))

    def go_on():
        state, rows = MatchState.from_dict(stored), list(start.rows)
        for deal in deals[cut:]:
            state, row = step(rules, opts, state, deal)
            rows.append(row)
        return state, tuple(rows)

    went_on = outcome(go_on)
    if isinstance(whole, tuple):
        assert went_on == whole
    else:
        assert went_on == (whole.state, whole.rows)
        assert sheet_of(rules, opts, went_on[0]).to_dict() == {**whole.to_dict(), "deals": []}


def test_a_state_is_plain_json_and_reads_back_the_same():
    sheet = replay("mpourloto", [THROWN_IN, MADE_0, MADE_1], first_dealer=3)
    data = sheet.state.to_dict()
    assert data == {
        "totals": [162, 162],
        "held": 0,
        "status": "in_progress",
        "winner": None,
        "tie_break_deals": 0,
        "played": 2,
        "dealt": 3,
        "next_dealer": 2,
    }
    assert MatchState.from_dict(json.loads(json.dumps(data))) == sheet.state


def test_a_step_numbers_its_row_and_passes_the_deal_on():
    rules = get_ruleset("mpourloto")
    opts = rules.options({})
    state = MatchState.start(1)
    state, first = step(rules, opts, state, THROWN_IN)
    state, second = step(rules, opts, state, MADE_0)
    assert (first.number, first.dealer, second.number, second.dealer) == (1, 1, 2, 2)
    assert (state.totals, state.dealt, state.progress.played, state.next_dealer) == ((100, 62), 2, 1, 3)


def test_a_step_from_the_tie_break_counts_its_deals_and_ends_it():
    """Mpourloto, equal over the target: two tie-break deals, then compare (RULES.md §1)."""
    rules = get_ruleset("mpourloto")
    opts = rules.options({"target": 150})
    level = replay("mpourloto", [MADE_0, MADE_1], options={"target": 150}).state
    assert (level.status, level.totals) == (Status.TIE_BREAK, (162, 162))
    state, row = step(rules, opts, MatchState.from_dict(level.to_dict()), MADE_0)
    assert row.tie_break and state.status == Status.TIE_BREAK and state.progress.tie_break_deals == 1
    state, row = step(rules, opts, state, MADE_0)
    assert (state.status, state.winner, state.progress.tie_break_deals) == (Status.FINISHED, 0, 2)


def test_no_step_follows_the_end_of_the_match():
    rules = get_ruleset("mpourloto")
    opts = rules.options({"target": 100})
    won, _ = step(rules, opts, MatchState.start(), MADE_0)
    assert won.status == Status.FINISHED
    with pytest.raises(ScoringError, match="already won after deal 1") as refused:
        step(rules, opts, won, MADE_1)
    assert refused.value.deal == 1


def test_a_refused_deal_is_named_by_its_position_and_leaves_the_state_as_it_was():
    rules = get_ruleset("mpourloto")
    opts = rules.options({})
    state, _ = step(rules, opts, MatchState.start(), MADE_0)
    before = state.to_dict()
    with pytest.raises(ScoringError) as refused:
        step(rules, opts, state, Deal(maker=0, card_points=(90, 72), last_trick=0))
    assert (refused.value.deal, refused.value.field) == (1, "card_points")
    assert state.to_dict() == before


@pytest.mark.parametrize("seat", [-1, 4, "0", True])
def test_a_match_starts_at_a_seat(seat):
    with pytest.raises(ScoringError, match="must be a seat"):
        MatchState.start(seat)
