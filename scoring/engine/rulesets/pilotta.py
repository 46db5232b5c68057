"""Pilotta, the game of Cyprus (RULES.md §2)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ScoringError
from ..types import Deal, DealScore, Result, per_team
from .base import BELOTE, DECLARATION_POINTS, LAST_TRICK, SUIT_CONTRACTS, BaseOptions, RuleSet, tens

CARD_SIDE = 162  # 152 in the cards + 10 for the last trick
ROUNDING_LIMIT = 6


@dataclass(frozen=True)
class PilottaOptions(BaseOptions):
    target: int = 351  # in match points: 151, 251, 351 or 401 are usual
    capot_bonus: int = 90  # or 100


def declaration_contest(deal: Deal) -> int | None:
    """The team whose declarations count: the single best one wins; equal best, the scorekeeper's pick."""
    best = [max((DECLARATION_POINTS[m] for m in melds), default=0) for melds in deal.melds]
    if best[0] == best[1]:
        pick = deal.declarations_winner
        assert pick != "equal"  # refused by check_deal: one team always wins the declarations
        return None if best[0] == 0 else pick
    return 0 if best[0] > best[1] else 1


class Pilotta(RuleSet):
    key = "pilotta"
    name = "Pilotta"
    Options = PilottaOptions
    counts_in_tens = True

    def check_options(self, opts: PilottaOptions) -> None:
        super().check_options(opts)
        if opts.capot_bonus not in (90, 100):
            raise ScoringError("the capot bonus is 90 or 100", field="options.capot_bonus")

    def next_dealer(self, dealer: int, deal: Deal) -> int:
        """All pass: the same dealer deals again."""
        return dealer if deal.thrown_in else (dealer + 1) % 4

    def check_deal(self, deal: Deal, opts: PilottaOptions) -> None:
        if deal.thrown_in:
            return
        self.check_contract(deal, suits=SUIT_CONTRACTS, bid=True)
        if deal.solo_capot:
            raise ScoringError("Pilotta has no solo capot", field="solo_capot")
        self.check_card_points(deal, 152)
        self.check_melds(deal, DECLARATION_POINTS)
        self.check_belote(deal, 1)
        if deal.declarations_winner == "equal":
            raise ScoringError(
                "one team always wins the declarations: name it, 0 or 1", field="declarations_winner"
            )
        best = [max((DECLARATION_POINTS[m] for m in melds), default=0) for melds in deal.melds]
        if best[0] == best[1] > 0 and deal.declarations_winner is None:
            raise ScoringError(
                "both teams have an equal best declaration: name the team that won them (longer sequence, "
                "then higher card, then the team that led)",
                field="declarations_winner",
            )

    def card_side(self, deal: Deal, opts: PilottaOptions) -> tuple[int, int]:
        """Card points + 10 for the last trick; a capot team 162 + the capot bonus, the other 0."""
        if deal.capot is not None:
            side = [0, 0]
            side[deal.capot] = CARD_SIDE + opts.capot_bonus
            return side[0], side[1]
        cards = deal.card_points
        assert cards is not None  # a played deal has them (Deal)
        return per_team(cards[t] + (LAST_TRICK if deal.last_trick == t else 0) for t in (0, 1))

    def score_deal(self, deal: Deal, opts: PilottaOptions, held: int = 0) -> DealScore:
        if deal.thrown_in:
            return DealScore(Result.THROWN_IN, (0, 0), held=held)
        contract = deal.contract
        # A played deal has a maker (Deal); check_deal refused one without a contract or with a word as bid.
        assert deal.maker is not None and contract is not None and isinstance(contract.bid, int)
        winner = declaration_contest(deal)
        declared = [sum(DECLARATION_POINTS[m] for m in deal.melds[t]) if t == winner else 0 for t in (0, 1)]
        belote = [BELOTE * n for n in deal.belote]
        side = self.card_side(deal, opts)
        points = per_team(side[t] + declared[t] + belote[t] for t in (0, 1))
        d, o = deal.maker, 1 - deal.maker
        raw = [0, 0]
        if points[d] >= contract.bid:
            result, won = Result.MADE, d
            if contract.multiplier == 1:
                raw = list(points)
            else:  # the side that wins a doubled deal takes all, but the defenders' belote
                raw[d] = points[d] + points[o] - belote[o]
                raw[o] = belote[o]
        else:
            result, won = Result.FAILED, o
            cards = side[o] if deal.capot == o else CARD_SIDE
            raw[o] = cards + declared[o] + belote[o] + belote[d]
        scores = per_team(tens(raw[t], ROUNDING_LIMIT, up=t == d) * contract.multiplier for t in (0, 1))
        return DealScore(result, scores, points, winner=won, raw=(raw[0], raw[1]))
