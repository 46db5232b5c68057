"""French Belote (RULES.md §4) and Belote Classic, the 501 game (§5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..errors import ScoringError
from ..types import Deal, DealScore, Result, per_team
from .base import BELOTE, DECLARATION_POINTS, LAST_TRICK, SUIT_CONTRACTS, BaseOptions, RuleSet

CARD_SIDE = 162  # 152 in the cards + 10 for the last trick
CAPOT = 252  # 162 + 90
SOLO_CAPOT = 350  # Belote Classic: one player took all eight tricks


@dataclass(frozen=True)
class FrenchOptions(BaseOptions):
    target: int = 501  # or 1000
    litige: bool = False  # an exact tie is not dedans: the taker's points are held for the next winner


@dataclass(frozen=True)
class ClassicOptions(BaseOptions):
    target: int = 501


class French(RuleSet):
    key = "french"
    name = "French Belote"
    Options: ClassVar[type[FrenchOptions | ClassicOptions]] = FrenchOptions
    melds: dict[str, int] = DECLARATION_POINTS

    def check_deal(self, deal: Deal, opts: FrenchOptions | ClassicOptions) -> None:
        if deal.thrown_in:
            return
        if deal.contract is not None:
            self.check_contract(deal, suits=SUIT_CONTRACTS, doubling=False)
        self.check_card_points(deal, 152)
        self.check_melds(deal, self.melds)
        self.check_belote(deal, 1)
        if deal.declarations_winner is not None:
            raise ScoringError(f"{self.name} has no declaration contest: all declarations count",
                               field="declarations_winner")  # fmt: skip
        self.check_capot(deal)

    def check_capot(self, deal: Deal) -> None:
        if deal.solo_capot:
            raise ScoringError(f"{self.name} has no solo capot", field="solo_capot")

    def capot_value(self, deal: Deal) -> int:
        return CAPOT

    def card_side(self, deal: Deal) -> tuple[int, int]:
        """Card points + 10 for the last trick; a capot team has the whole capot value, the other 0."""
        if deal.capot is not None:
            side = [0, 0]
            side[deal.capot] = self.capot_value(deal)
            return side[0], side[1]
        cards = deal.card_points
        assert cards is not None  # a played deal has them (Deal)
        return per_team(cards[t] + (LAST_TRICK if deal.last_trick == t else 0) for t in (0, 1))

    def score_deal(self, deal: Deal, opts: FrenchOptions | ClassicOptions, held: int = 0) -> DealScore:
        if deal.thrown_in:
            return DealScore(Result.THROWN_IN, (0, 0), held=held)
        assert deal.maker is not None  # a played deal has one (Deal)
        side = self.card_side(deal)
        declared = [sum(self.melds[m] for m in melds) for melds in deal.melds]
        belote = [BELOTE * n for n in deal.belote]
        points = per_team(side[t] + declared[t] + belote[t] for t in (0, 1))
        taker, other = deal.maker, 1 - deal.maker
        scores = [0, 0]
        if points[taker] > points[other]:
            result, winner = Result.MADE, taker
            scores = list(points)
        elif points[taker] == points[other] and getattr(opts, "litige", False):
            # The defenders score theirs; the taker's are held (its belote stays with it).
            scores[other] = points[other]
            scores[taker] = belote[taker]
            return DealScore(
                Result.LITIGE, (scores[0], scores[1]), points, held=held + points[taker] - belote[taker]
            )
        else:
            result, winner = Result.DEDANS, other
            scores[other] = sum(side) + sum(declared) + belote[other]
            scores[taker] = belote[taker]
        scores[winner] += held
        return DealScore(result, (scores[0], scores[1]), points, winner=winner)


class Classic(French):
    """As French Belote, but only belote among declarations, a solo capot of 350, and the dealer leads."""

    key = "classic"
    name = "Belote Classic"
    Options = ClassicOptions
    melds: dict[str, int] = {}

    def check_deal(self, deal: Deal, opts: FrenchOptions | ClassicOptions) -> None:
        if not deal.thrown_in and (deal.melds[0] or deal.melds[1]):
            raise ScoringError("Belote Classic has no declarations but the belote", field="melds")
        super().check_deal(deal, opts)

    def check_capot(self, deal: Deal) -> None:
        if deal.solo_capot and deal.capot is None:
            raise ScoringError("a solo capot is a capot: name the team that took every trick", field="capot")

    def capot_value(self, deal: Deal) -> int:
        return SOLO_CAPOT if deal.solo_capot else CAPOT

    def leader(self, dealer: int) -> int:
        """The dealer leads the first trick."""
        return dealer
