"""Coinche, or contrée (RULES.md §6; docs/games/coinche.md): the French tournament game.

The default is the French federation's (FFB) coinche rulebook. Every point on which rulebooks, clubs
and scoring programs differ is an option of ``CoincheOptions``, named and valued as the match file
spells it (RULES.md §6's table, the default first); a preset is a named set of them.

A deal is scored in three steps: the table (each team's card side, the announcements that count, the
belotes), the verdict on the exact points (made, failed, or a litige held for the next winner), and
what each team writes, rounded as ``rounding`` says. Where §6 is silent, the choice made here is
written in docs/games/coinche.md ("Decisions").
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import ScoringError
from ..types import BID_WORDS, Deal, DealScore, Result, Status, per_team, team_of
from .base import BELOTE, DECK_TOTALS, LAST_TRICK, SUIT_CONTRACTS, BaseOptions, Progress, RuleSet, tens

CARD_SIDE = 162  # 152 in the cards + 10 for the last trick
FFB_DECK = 152  # every contract's deck under the FFB card values (sans-atout and tout-atout too)
COINCHE_CAPOT = 250  # a capot's card part in a coinched deal (§6: "160, or 250 when the takers made a capot")
SANS_ATOUT, TOUT_ATOUT = "notrump", "alltrump"
ANNOUNCEMENTS = {
    "seq3": 20, "seq4": 50, "seq5": 100,
    "four": 100, "fourA": 100, "four10": 100, "fourK": 100, "fourQ": 100,  # four A, K, Q or 10
    "fourJ": 200, "four9": 150, "four8": 0, "four7": 0,
}  # fmt: skip
# sa_carres "ffb": in sans-atout four Aces 200, four 10s 150, the other fours 100 (8s and 7s still nothing).
SANS_ATOUT_FOURS = {"fourA": 200, "four10": 150, "fourK": 100, "fourQ": 100, "fourJ": 100, "four9": 100}
SEQUENCES = ("seq3", "seq4", "seq5")

# Every option with a closed list of values: the default first (RULES.md §6).
CHOICES: dict[str, tuple[Any, ...]] = {
    "target_rule": ("reach", "pass"),
    "base": (160, 162),
    "made_scoring": ("points_plus_bid", "bid_only"),
    "litige": ("failed", "made", "held"),
    "melds_scoring": ("best_team", "all"),
    "coinche_scoring": ("all_to_winner", "winner_score", "winner_score_defence_keeps", "bid_multiplied"),
    "coinche_multiplier": (2,),
    "surcoinche_multiplier": (4, 3),
    "failed_scoring": ("base_plus_bid", "base_bid_own_cards"),
    "defence_capot": ("base", "capot_value"),
    "capot_card_value": (252, 250, 162),
    "capot_bid_value": (250, 500),
    "generale_bid_value": (500, 300),
    "generale_card_value": ("capot", 500, 300),
    "special_made": ("add", "flat", "flat_both"),
    "rounding": ("half_up", "none", "half_down", "attack6_defence7", "complement"),
    "sa_ta_values": ("ffb", "raw_rescaled", "raw"),
    "sa_carres": ("ffb", "same"),
    "max_bid": (160, 180),
}


@dataclass(frozen=True)
class CoincheOptions(BaseOptions):
    """RULES.md §6's options under their match-file names; the defaults are the FFB's game."""

    target: int = 1000  # 1000, 1500, 2000, 2001 ("2001 or 40 minutes")
    target_rule: str = "reach"  # reach (≥) or pass (>)
    base: int = 160  # a failed contract's card part: 160 or 162
    made_scoring: str = "points_plus_bid"  # or bid_only: the made side writes its bid ("points annoncés")
    need_more_than_defence: bool = True  # false: reaching the bid is enough
    litige: str = "failed"  # equal totals at or over the bid: failed, made or held
    belote_counts: bool = True  # the belote counts toward the bid
    melds_count: bool = True  # the announcements count toward the bid
    annonces: bool = True  # false: contrée, no announcements but the belote
    melds_scoring: str = "best_team"  # or all: each team its own
    capot_takes_melds: bool = True  # takers who take every trick score the defence's announcements too
    coinche_scoring: str = "all_to_winner"  # winner_score, winner_score_defence_keeps, bid_multiplied
    coinche_multiplier: int = 2
    surcoinche_multiplier: int = 4  # or 3
    multiply_belote: bool = True  # the winner's belote inside the × m
    failed_scoring: str = "base_plus_bid"  # or base_bid_own_cards: + its card points (no last trick)
    defence_capot: str = "base"  # or capot_value: a defence that took every trick has the capot's card side
    capot_card_value: int = 252  # 252, 250, or 162 (no bonus for a capot not bid)
    capot_bid_value: int = 250  # or 500
    generale_bid_value: int = 500  # or 300
    generale_card_value: int | Literal["capot"] = "capot"  # "capot" (as the capot), 500 or 300
    special_made: str = "add"  # flat: a made capot or générale scores its bid alone; flat_both: failed too
    rounding: str = "half_up"  # none, half_down, attack6_defence7, complement
    sa_ta: bool = False  # sans-atout and tout-atout may be bid
    sa_ta_values: str = "ffb"  # card values in sans-atout and tout-atout: ffb, raw_rescaled, raw
    sa_carres: str = "ffb"  # fours in sans-atout: ffb (Aces 200, 10s 150) or same
    belote_alone_cannot_win: bool = True
    max_bid: int = 160  # or 180
    timed_last_deal_exact: bool = False  # the last deal of a match ended by the clock is not rounded


def rounded(points: int, rounding: str, *, takers: bool) -> int:
    """A team's deal score to tens as ``rounding`` says (``complement`` rounds 5 up, as ``half_up``)."""
    if rounding == "none":
        return points
    if rounding == "half_down":
        return 10 * tens(points, 5, up=False)
    if rounding == "attack6_defence7":
        return 10 * tens(points, 6 if takers else 7, up=True)
    return 10 * tens(points, 5, up=True)


@dataclass(frozen=True)
class Table:
    """A deal as the table counts it, before the verdict (per team, index 0 and 1)."""

    side: tuple[int, int]  # card points + 10 for the last trick; a capot team its capot value
    announcements: tuple[int, int]  # those that count, a takers' capot's share moved to the takers
    belote: tuple[int, int]  # 20 a belote
    value: int  # the bid's value (a capot or générale bid's too)
    special: bool  # a capot or générale bid
    factor: int  # 1, or the coinche or surcoinche multiplier
    deck_side: int  # the whole deck's card side (162 under the FFB values)
    capot_side: int  # a capot's card side (252 by default)

    @property
    def points(self) -> tuple[int, int]:
        return per_team(self.side[t] + self.announcements[t] + self.belote[t] for t in (0, 1))


class Coinche(RuleSet):
    key = "coinche"
    name = "Coinche"
    Options = CoincheOptions
    has_generale = True

    # Options -----------------------------------------------------------------

    def check_options(self, opts: CoincheOptions) -> None:
        super().check_options(opts)
        for name, values in CHOICES.items():
            value = getattr(opts, name)
            if not any(type(value) is type(v) and value == v for v in values):
                raise ScoringError(f"must be one of {', '.join(map(str, values))}", field=f"options.{name}")

    # Deals -------------------------------------------------------------------

    def deck(self, suit: str, opts: CoincheOptions) -> int:
        """Card points in the deck as the scorekeeper enters them: 152, or under ``sa_ta_values`` raw or
        raw_rescaled 120 in sans-atout and 248 in tout-atout."""
        if suit in SUIT_CONTRACTS or opts.sa_ta_values == "ffb":
            return FFB_DECK
        return DECK_TOTALS[suit]

    def check_deal(self, deal: Deal, opts: CoincheOptions) -> None:
        if deal.thrown_in:
            return
        contract = deal.contract
        if contract is None:
            raise ScoringError("missing: the contract (suit, bid)", field="contract")
        suits = (*SUIT_CONTRACTS, SANS_ATOUT, TOUT_ATOUT) if opts.sa_ta else SUIT_CONTRACTS
        if contract.suit not in suits:
            if contract.suit in (SANS_ATOUT, TOUT_ATOUT):
                raise ScoringError(
                    "sans-atout and tout-atout are bid only with the option sa_ta", field="contract.suit"
                )
            raise ScoringError(f"must be one of {', '.join(suits)}", field="contract.suit")
        assert contract.suit is not None  # one of suits
        bid = contract.bid
        if bid is None:
            raise ScoringError("missing: the bid (80, 90, 100 …)", field="contract.bid")
        if isinstance(bid, int) and (bid < 80 or bid > opts.max_bid or bid % 10):
            raise ScoringError(
                f"bids go in tens from 80 to {opts.max_bid}, or are capot or generale", field="contract.bid"
            )
        if deal.solo_capot:
            raise ScoringError(
                "Coinche records a générale instead: the seat of the taker who took every trick",
                field="solo_capot",
            )
        if deal.generale is not None:  # any player's, either team's (FORMAT.md): a seat of the capot team
            team = team_of(deal.generale)
            if deal.capot is None:
                raise ScoringError(f"a générale is a capot: team {team} took every trick", field="capot")
            if team != deal.capot:
                raise ScoringError(
                    "a générale is every trick taken by one player: a seat of the capot team "
                    f"(team {deal.capot})",
                    field="generale",
                )
        self.check_card_points(deal, self.deck(contract.suit, opts))
        if not opts.annonces and (deal.melds[0] or deal.melds[1]):
            raise ScoringError(
                "no announcements in this game (contrée): only the belote counts", field="melds"
            )
        self.check_melds(deal, ANNOUNCEMENTS)
        if contract.suit == SANS_ATOUT and opts.sa_carres == "ffb":
            for team, melds in enumerate(deal.melds):
                if "four" in melds:
                    raise ScoringError(
                        "in sans-atout the fours score by rank: name them fourA, four10, fourK, fourQ",
                        field=f"melds[{team}][{melds.index('four')}]",
                    )
        self.check_belote(deal, {SANS_ATOUT: 0, TOUT_ATOUT: 4}.get(contract.suit, 1))
        if deal.declarations_winner == "equal":
            raise ScoringError(
                "name the team whose announcements count, or null when nobody's do",
                field="declarations_winner",
            )

    def card_points(self, deal: Deal, opts: CoincheOptions) -> tuple[int, int]:
        """The card points scored: as entered, or, under raw_rescaled, the takers' scaled to 152 (the nearest
        point, halves up) and the defence's 152 less them."""
        # A played deal has a maker and card points (Deal); check_deal refused one without a contract suit.
        assert deal.maker is not None and deal.card_points is not None
        assert deal.contract is not None and deal.contract.suit is not None
        suit = deal.contract.suit
        deck = self.deck(suit, opts)
        if suit in SUIT_CONTRACTS or opts.sa_ta_values != "raw_rescaled":
            return deal.card_points
        t = deal.maker
        takers = (2 * FFB_DECK * deal.card_points[t] + deck) // (2 * deck)
        return (takers, FFB_DECK - takers) if t == 0 else (FFB_DECK - takers, takers)

    def announcement_value(self, code: str, suit: str, opts: CoincheOptions) -> int:
        if suit == SANS_ATOUT and opts.sa_carres == "ffb" and code in SANS_ATOUT_FOURS:
            return SANS_ATOUT_FOURS[code]
        return ANNOUNCEMENTS[code]

    def announcement_contest(self, deal: Deal, opts: CoincheOptions) -> int | None:
        """The team whose announcements count: the best one (more points; equal, a four of a kind beats a
        sequence); still equal, the table's ``declarations_winner`` (null: nobody's)."""
        assert deal.contract is not None and deal.contract.suit is not None  # else check_deal refused it
        best = [
            max(
                ((self.announcement_value(m, deal.contract.suit, opts), m not in SEQUENCES) for m in melds),
                default=(0, False),
            )
            for melds in deal.melds
        ]
        if best[0] == best[1]:
            pick = deal.declarations_winner
            assert pick != "equal"  # refused by check_deal
            return pick if best[0][0] > 0 else None
        return 0 if best[0] > best[1] else 1

    def table(self, deal: Deal, opts: CoincheOptions) -> Table:
        assert deal.maker is not None  # a played deal has one (Deal)
        t, d = deal.maker, 1 - deal.maker
        contract = deal.contract
        assert contract is not None and contract.suit is not None  # else check_deal refused it
        suit = contract.suit
        scored_deck = FFB_DECK if opts.sa_ta_values == "raw_rescaled" else self.deck(suit, opts)
        deck_side = scored_deck + LAST_TRICK
        capot_side = deck_side + opts.capot_card_value - CARD_SIDE  # the capot bonus on the whole deck
        if deal.capot is not None:
            side = [0, 0]
            generale_side = capot_side if opts.generale_card_value == "capot" else opts.generale_card_value
            side[deal.capot] = generale_side if self.generale_made(deal) else capot_side
        else:
            cards = self.card_points(deal, opts)
            side = [cards[k] + (LAST_TRICK if deal.last_trick == k else 0) for k in (0, 1)]
        made = [sum(self.announcement_value(m, suit, opts) for m in melds) for melds in deal.melds]
        if opts.melds_scoring == "all":
            announcements = made
        else:
            winner = self.announcement_contest(deal, opts)
            announcements = [made[k] if k == winner else 0 for k in (0, 1)]
        if deal.capot == t and opts.capot_takes_melds:
            announcements[t], announcements[d] = announcements[t] + announcements[d], 0
        bid = contract.bid
        if bid == "capot":
            value = opts.capot_bid_value
        elif bid == "generale":
            value = opts.generale_bid_value
        else:
            assert bid is not None  # check_deal refused a contract without one
            value = bid
        factor = {1: 1, 2: opts.coinche_multiplier, 4: opts.surcoinche_multiplier}[contract.multiplier]
        return Table(
            side=(side[0], side[1]),
            announcements=(announcements[0], announcements[1]),
            belote=(BELOTE * deal.belote[0], BELOTE * deal.belote[1]),
            value=value,
            special=bid in BID_WORDS,
            factor=factor,
            deck_side=deck_side,
            capot_side=capot_side,
        )

    def verdict(self, deal: Deal, table: Table, opts: CoincheOptions) -> Result:
        """Made, failed or (under litige "held") litige, on the exact points."""
        assert deal.maker is not None and deal.contract is not None  # played and checked
        t, d = deal.maker, 1 - deal.maker
        if table.special:  # a capot bid is made only by every trick, a générale only by one taker's
            made = deal.capot == t if deal.contract.bid == "capot" else self.generale_made(deal)
            return Result.MADE if made else Result.FAILED
        counted = [
            table.side[k]
            + (table.announcements[k] if opts.melds_count else 0)
            + (table.belote[k] if opts.belote_counts else 0)
            for k in (0, 1)
        ]
        if counted[t] < table.value:
            return Result.FAILED
        if not opts.need_more_than_defence or counted[t] > counted[d]:
            return Result.MADE
        if counted[t] < counted[d]:
            return Result.FAILED
        if opts.litige == "made":
            return Result.MADE
        if opts.litige == "held" and table.factor == 1:  # a coinched litige is failed: see the doc
            return Result.LITIGE
        return Result.FAILED

    def given(
        self, deal: Deal, table: Table, side: tuple[int, int], result: Result, opts: CoincheOptions
    ) -> tuple[list[int], int]:
        """What each team writes before rounding, and the points a litige holds. ``side`` is the card
        side the scores are written with (the table's, or under ``complement`` the rounded one)."""
        assert deal.maker is not None  # a played deal has one (Deal)
        t, d = deal.maker, 1 - deal.maker
        ann, bel, value = table.announcements, table.belote, table.value
        if result == Result.LITIGE:  # the defence scores now; the takers' total less their belote waits
            scores = [0, 0]
            scores[d], scores[t] = side[d] + ann[d] + bel[d], bel[t]
            return scores, side[t] + ann[t]
        flat = table.special and (
            opts.special_made == "flat_both" or (opts.special_made == "flat" and result == Result.MADE)
        )
        plain = [0, 0]
        if result == Result.MADE:
            if flat or opts.made_scoring == "bid_only":
                plain[t] = value + bel[t]
            else:
                plain[t] = side[t] + ann[t] + bel[t] + value
            plain[d] = side[d] + ann[d] + bel[d]
        else:
            plain[t] = bel[t]
            if flat:
                plain[d] = value + bel[d]
            else:
                if deal.capot == d and opts.defence_capot == "capot_value":
                    cards = table.capot_side
                elif opts.failed_scoring == "base_bid_own_cards":  # its card points, not the last trick's 10
                    cards = opts.base + self.card_points(deal, opts)[d]
                else:
                    cards = opts.base
                plain[d] = cards + value + ann[0] + ann[1] + bel[d]
        m = table.factor
        if m == 1:
            return plain, 0
        won = t if result == Result.MADE else d
        lost = 1 - won
        scores = [0, 0]
        if opts.coinche_scoring in ("winner_score", "winner_score_defence_keeps"):
            mine = plain[won] - bel[won]
            scores[won] = (mine + bel[won]) * m if opts.multiply_belote else mine * m + bel[won]
            scores[lost] = plain[lost] if opts.coinche_scoring == "winner_score_defence_keeps" else bel[lost]
            return scores, 0
        if opts.coinche_scoring == "bid_multiplied":  # base (or a capot's side) + bid × m + ann. + belote
            cards = 0 if flat else self.multiplied_cards(deal, table, won, opts) + ann[0] + ann[1]
            scores[won] = cards + value * m + bel[won]
            scores[lost] = bel[lost]
            return scores, 0
        cards = 0 if flat else self.coinche_cards(deal, won, opts) + ann[0] + ann[1]
        # all_to_winner: (base or capot + announcements + bid + belote) × m
        scores[won] = (
            (cards + value + bel[won]) * m if opts.multiply_belote else (cards + value) * m + bel[won]
        )
        scores[lost] = bel[lost]
        return scores, 0

    @staticmethod
    def generale_made(deal: Deal) -> bool:
        """A générale bid made: one of the takers took every trick alone. A générale recorded on another bid,
        or by a defender, is a capot like any other (FORMAT.md: only a générale bid by the takers scores
        it)."""
        assert deal.contract is not None  # else check_deal refused it
        return deal.contract.bid == "generale" and deal.generale is not None and deal.capot == deal.maker

    @staticmethod
    def capot_won(deal: Deal, won: int, opts: CoincheOptions) -> bool:
        """Did the winner of a coinched deal take every trick in a way that counts: the takers' capot, or
        the defence's under defence_capot "capot_value"?"""
        return deal.capot == won and (won == deal.maker or opts.defence_capot == "capot_value")

    def coinche_cards(self, deal: Deal, won: int, opts: CoincheOptions) -> int:
        """The card part of a coinched deal's winner under all_to_winner: the base, or 250 for a capot
        (the takers', or the defence's under defence_capot "capot_value"); a made générale's own value
        when one is set."""
        if self.capot_won(deal, won, opts):
            if self.generale_made(deal) and opts.generale_card_value != "capot":
                return opts.generale_card_value
            return COINCHE_CAPOT if opts.capot_card_value != CARD_SIDE else opts.base
        return opts.base

    def multiplied_cards(self, deal: Deal, table: Table, won: int, opts: CoincheOptions) -> int:
        """The card part of a coinched deal's winner under bid_multiplied: the base, or, for a capot
        (the takers', or the defence's under defence_capot "capot_value"), that side's card side in its
        place: ``capot_card_value``, or ``generale_card_value`` for a made générale (RULES.md §6)."""
        return table.side[won] if self.capot_won(deal, won, opts) else opts.base

    def score_deal(self, deal: Deal, opts: CoincheOptions, held: int = 0) -> DealScore:
        return self.scored(deal, opts, held, exact=False)

    def score_at(self, deal: Deal, opts: CoincheOptions, held: int, position: int) -> DealScore:
        """The deal a match was ended on by the clock (``ended_after``, set when time is called) is written
        unrounded under ``timed_last_deal_exact``."""
        exact = opts.timed_last_deal_exact and opts.ended_after > 0 and position == opts.ended_after - 1
        return self.scored(deal, opts, held, exact=exact)

    def scored(self, deal: Deal, opts: CoincheOptions, held: int, *, exact: bool) -> DealScore:
        if deal.thrown_in:
            return DealScore(Result.THROWN_IN, (0, 0), held=held)
        assert deal.maker is not None  # a played deal has one (Deal)
        t, d = deal.maker, 1 - deal.maker
        table = self.table(deal, opts)
        result = self.verdict(deal, table, opts)
        given, hold = self.given(deal, table, table.side, result, opts)
        rounding = "none" if exact else opts.rounding
        if rounding == "complement" and deal.capot is None:
            # The takers' card side to the nearest ten, the defence the rest of the deck's 160.
            whole = rounded(table.deck_side, "half_up", takers=True)
            mine = rounded(table.side[t], "half_up", takers=True)
            side = [0, 0]
            side[t], side[d] = mine, whole - mine
            written, hold = self.given(deal, table, (side[0], side[1]), result, opts)
        else:
            written = given
        scores = [rounded(written[k], rounding, takers=k == t) for k in (0, 1)]
        hold = rounded(hold, rounding, takers=True)
        raw = (given[0], given[1]) if scores != given else None
        if result == Result.LITIGE:
            return DealScore(result, (scores[0], scores[1]), table.points, held=held + hold, raw=raw)
        won = t if result == Result.MADE else d
        scores[won] += held
        return DealScore(result, (scores[0], scores[1]), table.points, held=0, winner=won, raw=raw)

    # The end of the match ----------------------------------------------------

    @staticmethod
    def reached(total: int, opts: CoincheOptions) -> bool:
        return total > opts.target if opts.target_rule == "pass" else total >= opts.target

    def settle(self, progress: Progress, deal: Deal, score: DealScore, opts: CoincheOptions) -> Progress:
        """A team over the target wins; both over, the higher; equal, one more deal (and so on).

        Under ``belote_alone_cannot_win`` a team over the target only through its belote in a deal it
        lost (``barred``) has not won until it takes a trick in a later deal (a deal it is not capot
        in); meanwhile only the other team can win, by reaching the target itself.
        """
        if deal.thrown_in:
            return progress
        barred = progress.barred
        if barred is not None and deal.capot != 1 - barred:
            barred = None  # it took a trick
        totals = progress.totals
        if opts.belote_alone_cannot_win and barred is None:
            assert deal.maker is not None  # a played deal has one (Deal)
            lost = deal.maker if score.winner is None else 1 - score.winner
            belote = BELOTE * deal.belote[lost]
            if belote and self.reached(totals[lost], opts) and not self.reached(totals[lost] - belote, opts):
                barred = lost
        progress = dataclasses.replace(progress, barred=barred)
        over = [team for team in (0, 1) if team != barred and self.reached(totals[team], opts)]
        if len(over) == 2:
            if totals[0] == totals[1]:
                return progress
            over = [0 if totals[0] > totals[1] else 1]
        if over:
            return dataclasses.replace(progress, status=Status.FINISHED, winner=over[0])
        return progress
