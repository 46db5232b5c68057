"""A whole match: the deals in order in, the score sheet out."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import ScoringError
from .rulesets import Progress, get_ruleset
from .types import SEATS, Deal, DealScore, Sheet, SheetRow, Status


def score_deal(
    ruleset: str, deal: Deal, options: Mapping[str, Any] | None = None, held: int = 0
) -> DealScore:
    """Check and score one deal on its own."""
    rules = get_ruleset(ruleset)
    opts = rules.options(options)
    rules.check_deal(deal, opts)
    return rules.score_deal(deal, opts, held)


def replay(
    ruleset: str,
    deals: Iterable[Deal],
    *,
    options: Mapping[str, Any] | None = None,
    first_dealer: int = 0,
) -> Sheet:
    """Score every deal in order and return the sheet.

    The same deals, rule set and options always give the same sheet. A deal
    that breaks the rules, or that follows the end of the match, raises
    ``ScoringError`` naming its position.
    """
    rules = get_ruleset(ruleset)
    opts = rules.options(options)
    if type(first_dealer) is not int or first_dealer not in SEATS:
        raise ScoringError("must be a seat: 0, 1, 2 or 3", field="first_dealer")
    progress = Progress()
    dealer = first_dealer
    rows: list[SheetRow] = []
    for position, deal in enumerate(deals):
        if progress.status == Status.FINISHED:
            ended = "won" if progress.winner is not None else "over"
            raise ScoringError(
                f"the match was already {ended} after deal {len(rows)}; no deal can follow it",
                deal=position,
            )
        try:
            rules.check_deal(deal, opts)
            score = rules.score_deal(deal, opts, progress.held)
        except ScoringError as error:
            raise error.at(position) from None
        in_tie_break = progress.status == Status.TIE_BREAK and not deal.thrown_in
        totals = (progress.totals[0] + score.scores[0], progress.totals[1] + score.scores[1])
        progress = rules.end_of_match(
            dataclasses.replace(progress, totals=totals, held=score.held), deal, score, opts
        )
        rows.append(
            SheetRow(
                number=position + 1,
                deal=deal,
                dealer=dealer,
                result=score.result,
                scores=score.scores,
                points=score.points,
                totals=totals,
                held=score.held,
                tie_break=in_tie_break,
                raw=score.raw,
            )
        )
        dealer = rules.next_dealer(dealer, deal)
    return Sheet(
        ruleset=rules.key,
        target=opts.target,
        rows=tuple(rows),
        totals=progress.totals,
        held=progress.held,
        status=progress.status,
        winner=progress.winner,
        next_dealer=dealer,
        next_leader=rules.leader(dealer),
        options=rules.spelt_out(opts),
    )
