"""A whole match: the deals in order in, the score sheet out.

``step`` moves a match on by one deal: from the ``MatchState`` its last deal left (the rule set's
``Progress`` and the next dealer) to the next one, with the row the deal adds to the sheet.
``replay`` is that step folded over the deals, from ``MatchState.start``: one code path, so a
state kept between deals (the services store it on the match) is always the one a full replay
ends in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import ScoringError
from .rulesets import Progress, RuleSet, get_ruleset
from .types import SEATS, Deal, DealScore, Sheet, SheetRow, Status


@dataclass(frozen=True)
class MatchState:
    """Where a match stands after its last deal: the rule set's ``Progress`` (totals, held points,
    status, winner, tie-break deals, deals played and dealt) and the seat that deals next."""

    progress: Progress = field(default_factory=Progress)
    next_dealer: int = 0

    @classmethod
    def start(cls, first_dealer: int = 0) -> MatchState:
        """A match before its first deal."""
        if type(first_dealer) is not int or first_dealer not in SEATS:
            raise ScoringError("must be a seat: 0, 1, 2 or 3", field="first_dealer")
        return cls(Progress(), first_dealer)

    def to_dict(self) -> dict[str, Any]:
        p = self.progress
        return {
            "totals": list(p.totals),
            "held": p.held,
            "status": str(p.status),
            "winner": p.winner,
            "tie_break_deals": p.tie_break_deals,
            "played": p.played,
            "dealt": p.dealt,
            "next_dealer": self.next_dealer,
        } | ({"barred": p.barred} if p.barred is not None else {})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchState:
        """The state ``to_dict`` wrote (a stored state: a missing key is a ``KeyError``)."""
        progress = Progress(
            totals=(data["totals"][0], data["totals"][1]),
            held=data["held"],
            status=Status(data["status"]),
            winner=data["winner"],
            tie_break_deals=data["tie_break_deals"],
            played=data["played"],
            dealt=data["dealt"],
            barred=data.get("barred"),  # Coinche only; states stored before it have none
        )
        return cls(progress, data["next_dealer"])

    @property
    def totals(self) -> tuple[int, int]:
        return self.progress.totals

    @property
    def status(self) -> Status:
        return self.progress.status

    @property
    def winner(self) -> int | None:
        return self.progress.winner

    @property
    def held(self) -> int:
        return self.progress.held

    @property
    def dealt(self) -> int:
        """Deals recorded so far, thrown-in ones included: the next deal's position (from 0)."""
        return self.progress.dealt


def score_deal(
    ruleset: str | RuleSet, deal: Deal, options: Mapping[str, Any] | None = None, held: int = 0
) -> DealScore:
    """Check and score one deal on its own."""
    rules = ruleset if isinstance(ruleset, RuleSet) else get_ruleset(ruleset)
    opts = rules.options(options)
    rules.check_fields(deal)
    rules.check_deal(deal, opts)
    return rules.score_deal(deal, opts, held)


def step(rules: RuleSet, opts: Any, state: MatchState, deal: Deal) -> tuple[MatchState, SheetRow]:
    """The match one deal on: ``deal`` checked and scored where ``state`` left the match, the
    state after it and the row it adds to the sheet. ``opts`` are ``rules.options(…)``.

    Pure. A deal that breaks the rules, or that follows the end of the match, raises
    ``ScoringError`` naming its position (``state.dealt``, from 0).
    """
    progress = state.progress
    position = progress.dealt
    if progress.status == Status.FINISHED:
        ended = "won" if progress.winner is not None else "over"
        raise ScoringError(
            f"the match was already {ended} after deal {position}; no deal can follow it", deal=position
        )
    try:
        rules.check_fields(deal)
        rules.check_deal(deal, opts)
        score = rules.score_at(deal, opts, progress.held, position)
    except ScoringError as error:
        raise error.at(position) from None
    in_tie_break = progress.status == Status.TIE_BREAK and not deal.thrown_in
    totals = (progress.totals[0] + score.scores[0], progress.totals[1] + score.scores[1])
    after = rules.end_of_match(
        dataclasses.replace(progress, totals=totals, held=score.held), deal, score, opts
    )
    row = SheetRow(
        number=position + 1,
        deal=deal,
        dealer=state.next_dealer,
        result=score.result,
        scores=score.scores,
        points=score.points,
        totals=totals,
        held=score.held,
        tie_break=in_tie_break,
        raw=score.raw,
    )
    return MatchState(after, rules.next_dealer(state.next_dealer, deal)), row


def sheet_of(rules: RuleSet, opts: Any, state: MatchState, rows: tuple[SheetRow, ...] = ()) -> Sheet:
    """The sheet of a match at ``state`` with these ``rows`` (none: its head only, for an answer
    made from a stored state)."""
    return Sheet(
        ruleset=rules.key,
        target=opts.target,
        rows=rows,
        totals=state.totals,
        held=state.held,
        status=state.status,
        winner=state.winner,
        next_dealer=state.next_dealer,
        next_leader=rules.leader(state.next_dealer),
        options=rules.spelt_out(opts),
        state=state,
    )


def replay(
    ruleset: str | RuleSet,
    deals: Iterable[Deal],
    *,
    options: Mapping[str, Any] | None = None,
    first_dealer: int = 0,
) -> Sheet:
    """Score every deal in order and return the sheet: ``step`` deal after deal.

    The same deals, rule set and options always give the same sheet. A deal
    that breaks the rules, or that follows the end of the match, raises
    ``ScoringError`` naming its position. ``ruleset`` is a rule set's key, or the rule set itself.
    """
    rules = ruleset if isinstance(ruleset, RuleSet) else get_ruleset(ruleset)
    opts = rules.options(options)
    state = MatchState.start(first_dealer)
    rows: list[SheetRow] = []
    for deal in deals:
        state, row = step(rules, opts, state, deal)
        rows.append(row)
    return sheet_of(rules, opts, state, tuple(rows))
