"""Mpourloto, the Greek game (RULES.md §1)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import ScoringError
from ..types import Deal, DealScore, Result, Status, per_team
from .base import LAST_TRICK, BaseOptions, Progress, RuleSet

MELD_POINTS = {
    "seq3": 20,
    "seq4": 50,
    "seq5": 100,
    "four": 100,  # Mpourloto scores every four of a kind alike: "four" stands for any rank
    "fourJ": 100,
    "four9": 100,
    "four8": 100,
    "four7": 100,
    **dict.fromkeys(("fourA", "four10", "fourK", "fourQ"), 100),  # the same fours, named (FORMAT.md)
    "mpourloto": 20,
}
CAPO_BONUS = 90  # replaces the 10 for the last trick when the other team took no trick
CAPO_100 = 100  # option capo_100


@dataclass(frozen=True)
class MpourlotoOptions(BaseOptions):
    target: int = 1000
    ties_hang: bool = False  # "kremamena": a tie is not mesa, the makers' points hang
    best_melds_only: bool = False  # only the team with the single best meld scores its melds
    capo_100: bool = False  # capo bonus 100 instead of 90
    partner_relief: bool = False  # play rule only: need not beat a partner's winning card


class Mpourloto(RuleSet):
    key = "mpourloto"
    name = "Mpourloto"
    Options = MpourlotoOptions
    deck_total = 152
    clockwise = True  # the deal passes to the dealer's left

    def check_deal(self, deal: Deal, opts: MpourlotoOptions) -> None:
        if deal.thrown_in:
            return
        if deal.contract is not None:
            c = deal.contract
            if c.suit in ("notrump", "alltrump") or c.bid is not None or c.multiplier != 1:
                raise ScoringError(
                    "Mpourloto has no auction: at most a trump suit, no bid, no doubling", field="contract"
                )
        if deal.solo_capot:
            raise ScoringError("Mpourloto has no solo capo", field="solo_capot")
        if deal.belote != (0, 0):
            raise ScoringError("in Mpourloto the K+Q of trumps is the 'mpourloto' meld", field="belote")
        self.check_card_points(deal, self.deck_total)
        self.check_melds(deal, MELD_POINTS, any_rank_four=True)
        if deal.melds[0].count("mpourloto") + deal.melds[1].count("mpourloto") > 1:
            raise ScoringError("a deal has only one mpourloto (K+Q of trumps)", field="melds")
        if deal.declarations_winner == "equal":
            raise ScoringError("name the team whose melds count: 0 or 1", field="declarations_winner")
        if opts.best_melds_only and self._meld_contest(deal) is None and deal.declarations_winner is None:
            raise ScoringError(
                "both teams have an equal best meld: name the team whose melds count",
                field="declarations_winner",
            )

    @staticmethod
    def _meld_contest(deal: Deal) -> int | None:
        """The team holding the single best meld (mpourloto aside); None when equal."""
        best = [max((MELD_POINTS[m] for m in melds if m != "mpourloto"), default=0) for melds in deal.melds]
        if best[0] == best[1]:
            return None if best[0] else 0  # no melds at all: nothing to contest
        return 0 if best[0] > best[1] else 1

    def meld_points(self, deal: Deal, opts: MpourlotoOptions) -> tuple[int, int]:
        """Each team's melds as they count under the options."""
        if not opts.best_melds_only:
            return per_team(sum(MELD_POINTS[m] for m in melds) for melds in deal.melds)
        contest = self._meld_contest(deal)
        winner = contest if contest is not None else deal.declarations_winner
        return per_team(
            sum(MELD_POINTS[m] for m in melds if m == "mpourloto" or team == winner)
            for team, melds in enumerate(deal.melds)
        )

    def deal_points(self, deal: Deal, opts: MpourlotoOptions) -> tuple[int, int]:
        """Cards + last-trick bonus (90 or 100 on capo) + melds, per team."""
        melds = self.meld_points(deal, opts)
        bonus = [0, 0]
        if deal.capot is not None:
            bonus[deal.capot] = CAPO_100 if opts.capo_100 else CAPO_BONUS
        else:
            assert deal.last_trick is not None  # check_card_points: a deal with no capot has it
            bonus[deal.last_trick] = LAST_TRICK
        cards = deal.card_points
        assert cards is not None  # a played deal has them (Deal)
        return (cards[0] + bonus[0] + melds[0], cards[1] + bonus[1] + melds[1])

    def score_deal(self, deal: Deal, opts: MpourlotoOptions, held: int = 0) -> DealScore:
        if deal.thrown_in:
            return DealScore(Result.THROWN_IN, (0, 0), held=held)
        assert deal.maker is not None  # a played deal has one (Deal)
        points = self.deal_points(deal, opts)
        maker, other = deal.maker, 1 - deal.maker
        scores = [0, 0]
        if points[maker] > points[other]:
            result, winner = Result.MADE, maker
            scores = list(points)
        elif points[maker] == points[other] and opts.ties_hang:
            # The opponents take their own; the makers' points hang for the next winner.
            scores[other] = points[other]
            return DealScore(Result.HANGING, per_team(scores), points, held=held + points[maker])
        else:
            result, winner = Result.MESA, other
            scores[other] = points[0] + points[1]
        scores[winner] += held
        return DealScore(result, (scores[0], scores[1]), points, held=0, winner=winner)

    def settle(self, progress: Progress, deal: Deal, score: DealScore, opts: MpourlotoOptions) -> Progress:
        """The 1000 rule; equal over the target: two more deals, again until the totals differ."""
        a, b = progress.totals
        if progress.status == Status.TIE_BREAK:
            if deal.thrown_in:
                return progress
            played = progress.tie_break_deals + 1
            if played % 2 == 0 and a != b:
                return dataclasses.replace(
                    progress, status=Status.FINISHED, winner=0 if a > b else 1, tie_break_deals=played
                )
            return dataclasses.replace(progress, tie_break_deals=played)
        if max(a, b) < opts.target:
            return progress
        if a == b:
            return dataclasses.replace(progress, status=Status.TIE_BREAK, tie_break_deals=0)
        return dataclasses.replace(progress, status=Status.FINISHED, winner=0 if a > b else 1)
