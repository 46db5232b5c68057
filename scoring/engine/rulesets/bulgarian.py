"""Bulgarian Belote, or bridge-belote (RULES.md §3)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ScoringError
from ..types import Deal, DealScore, Result, per_team
from .base import (
    BELOTE,
    DECK_TOTALS,
    DECLARATION_POINTS,
    LAST_TRICK,
    SEQUENCES,
    SUIT_CONTRACTS,
    BaseOptions,
    Progress,
    RuleSet,
    tens,
)

CONTRACTS = (*SUIT_CONTRACTS, "notrump", "alltrump")  # in rising order
LIMITS = {**dict.fromkeys(SUIT_CONTRACTS, 6), "alltrump": 4, "notrump": 5}  # the rounding limit digit
SEQUENCE_LENGTH = {"seq3": 3, "seq4": 4, "seq5": 5}
VALAT = 9  # match points, 18 in no trumps, never multiplied
KIRTIK = 10


@dataclass(frozen=True)
class BulgarianOptions(BaseOptions):
    target: int = 151
    kirtik: bool = False  # −10 MP to a committed team inside and to a team that suffers a valat


def sequence_contest(deal: Deal) -> int | None:
    """The team whose sequences count: the longer best one; equal, the scorekeeper's tap (or none)."""
    best = [max((SEQUENCE_LENGTH[m] for m in melds if m in SEQUENCES), default=0) for melds in deal.melds]
    if best[0] == best[1]:
        return None if best[0] == 0 or deal.declarations_winner == "equal" else deal.declarations_winner
    return 0 if best[0] > best[1] else 1


def round_pair(amounts: tuple[int, int], limit: int, *, up_when_equal: int) -> tuple[int, int]:
    """Both teams' points to match points (RULES.md §3, rounding).

    On the limit digit: when both amounts sit on it the lower rounds up and the
    higher down; when they are equal, ``up_when_equal`` (the hanging amount)
    rounds up. An amount alone on the limit rounds down.
    """
    on_limit = [a % 10 == limit for a in amounts]
    if all(on_limit):
        if amounts[0] == amounts[1]:
            up = up_when_equal
        else:
            up = 0 if amounts[0] < amounts[1] else 1
        return per_team(tens(amounts[t], limit, up=t == up) for t in (0, 1))
    return per_team(tens(a, limit, up=False) for a in amounts)


class Bulgarian(RuleSet):
    key = "bulgarian"
    name = "Bulgarian Belote"
    Options = BulgarianOptions
    counts_in_tens = True

    def check_deal(self, deal: Deal, opts: BulgarianOptions) -> None:
        if deal.thrown_in:
            return
        self.check_contract(deal, suits=CONTRACTS)
        assert deal.contract is not None and deal.contract.suit is not None  # else check_contract refused it
        suit = deal.contract.suit
        if deal.solo_capot:
            raise ScoringError("Bulgarian Belote has no solo valat", field="solo_capot")
        self.check_card_points(deal, DECK_TOTALS[suit])
        if suit == "notrump" and (deal.melds[0] or deal.melds[1]):
            raise ScoringError("no declarations are made in no trumps", field="melds")
        self.check_melds(deal, DECLARATION_POINTS)
        self.check_belote(deal, {"notrump": 0, "alltrump": 4}.get(suit, 1))
        best = [max((SEQUENCE_LENGTH[m] for m in melds if m in SEQUENCES), default=0) for melds in deal.melds]
        if best[0] == best[1] > 0 and deal.declarations_winner is None:
            raise ScoringError(
                "both teams declared sequences of the same length: tap whose is higher, or equal",
                field="declarations_winner",
            )

    def declarations(self, deal: Deal) -> list[int]:
        """Carrés always count; sequences only for the team that won the sequence contest."""
        seq_winner = sequence_contest(deal)
        return [
            sum(DECLARATION_POINTS[m] for m in melds if m not in SEQUENCES or t == seq_winner)
            for t, melds in enumerate(deal.melds)
        ]

    def score_deal(self, deal: Deal, opts: BulgarianOptions, held: int = 0) -> DealScore:
        if deal.thrown_in:
            return DealScore(Result.THROWN_IN, (0, 0), held=held)
        # A played deal has a maker and card points (Deal); check_deal refused one without a contract suit.
        assert deal.maker is not None and deal.card_points is not None
        assert deal.contract is not None and deal.contract.suit is not None
        suit, multiplier = deal.contract.suit, deal.contract.multiplier
        factor = 2 if suit == "notrump" else 1
        cards = deal.card_points
        last = deal.capot if deal.capot is not None else deal.last_trick
        # Declarations and belotes are in the raw points, a valated team's too (a valat "does not lift
        # off the enemy's points from declaration"); the inside rule then applies as in any deal.
        declared = self.declarations(deal)
        extras = [(declared[t] + BELOTE * deal.belote[t]) * factor for t in (0, 1)]
        points = per_team((cards[t] + (LAST_TRICK if last == t else 0)) * factor + extras[t] for t in (0, 1))
        m, o = deal.maker, 1 - deal.maker
        valat = deal.capot
        doubled = multiplier > 1
        limit = LIMITS[suit]
        given = [0, 0]
        if points[m] == points[o]:
            # Hanging: the team that did not bid scores its own; the contracting team's points hang
            # (both teams' when doubled). On the limit the hanging amount rounds up.
            hung = round_pair(points, limit, up_when_equal=m)
            hang = (0, 1) if doubled else (m,)
            scores = [0 if t in hang else hung[t] * multiplier for t in (0, 1)]
            given = [0 if t in hang else points[t] for t in (0, 1)]
            hanging = sum(hung[t] for t in hang) * multiplier
            return DealScore(
                Result.HANGING, (scores[0], scores[1]), points, held=held + hanging, raw=(given[0], given[1])
            )
        if points[m] > points[o]:
            won = m
            if doubled:  # the defenders are committed too, and inside
                result = Result.INSIDE_DEFENDERS
                given[m] = points[m] + points[o]
            else:
                result = Result.MADE
                given = list(points)
        else:
            won, result = o, Result.INSIDE
            given[o] = points[m] + points[o]
        mp = list(round_pair((given[0], given[1]), limit, up_when_equal=m))
        if not (doubled and valat is not None):  # a doubled valat: the multiplier is not applied at all
            mp = [p * multiplier for p in mp]
        if valat is not None:
            mp[valat] += VALAT * factor
        if opts.kirtik:
            if result == Result.INSIDE:
                mp[m] -= KIRTIK
            elif result == Result.INSIDE_DEFENDERS:
                mp[o] -= KIRTIK
            if valat is not None:
                mp[1 - valat] -= KIRTIK
        mp[won] += held
        return DealScore(result, (mp[0], mp[1]), points, held=0, winner=won, raw=(given[0], given[1]))

    def settle(self, progress: Progress, deal: Deal, score: DealScore, opts: BulgarianOptions) -> Progress:
        """First to the target; both over, the higher; equal, play on; never on a valat."""
        if deal.capot is not None:
            return progress
        return super().settle(progress, deal, score, opts)
