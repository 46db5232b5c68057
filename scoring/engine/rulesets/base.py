"""What every rule set provides, and the parts most of them share."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import ScoringError
from ..types import Deal, DealScore, Status

LAST_TRICK = 10
MAX_TARGET = 1_000_000
MAX_DEALS = 1000
MAX_ENDED_AFTER = 10_000  # deals recorded, thrown-in ones included
SUIT_CONTRACTS = ("clubs", "diamonds", "hearts", "spades")
DECK_TOTALS = {**dict.fromkeys(SUIT_CONTRACTS, 152), "notrump": 120, "alltrump": 248}
# Declarations of Pilotta and the Belotes (RULES.md §2, §3, §4): four 8s or 7s score nothing.
DECLARATION_POINTS = {
    "seq3": 20,
    "seq4": 50,
    "seq5": 100,
    "four": 100,  # four A, K, Q or 10
    **dict.fromkeys(("fourA", "four10", "fourK", "fourQ"), 100),  # the same fours, named (FORMAT.md)
    "fourJ": 200,
    "four9": 150,
    "four8": 0,
    "four7": 0,
}
SEQUENCES = ("seq3", "seq4", "seq5")
MELDS_PER_TEAM = 4  # at most 2 melds in a player's 8 cards
NAMED_FOURS = ("fourA", "four10", "fourK", "fourQ")  # what "four" stands for, by rank
RANK_FOURS = ("fourJ", "four9", "four8", "four7", *NAMED_FOURS)  # each rank can be shown once per deal
BELOTE = 20


@dataclass(frozen=True)
class BaseOptions:
    """Options every game has. A rule set's options extend these."""

    target: int = 1000
    deals: int = 0  # a fixed number of played deals instead of the target (0: to the target)
    # Ended by agreement (time called, the café closing) after this many recorded deals, thrown-in ones
    # included: the match ends there on its totals (0: not ended so).
    ended_after: int = 0


@dataclass(frozen=True)
class Progress:
    """Where a match stands between deals."""

    totals: tuple[int, int] = (0, 0)
    held: int = 0
    status: Status = Status.IN_PROGRESS
    winner: int | None = None
    tie_break_deals: int = 0  # deals played since the tie-break began
    played: int = 0  # deals played (thrown-in ones are not)
    dealt: int = 0  # deals recorded, thrown-in ones included
    # A team over the target that has not won yet (Coinche: over it only through its belote in a deal it
    # lost, until it takes a trick); None for every other game.
    barred: int | None = None


class RuleSet:
    """A game's rules: its options, its deal check, its score and its end.

    A new game is one module with a subclass, registered in
    ``rulesets/__init__.py``. Subclasses are stateless; the options travel
    as a frozen dataclass (``Options``) made by ``options()``.
    """

    key: ClassVar[str]
    name: ClassVar[str]
    Options: ClassVar[type]
    deck_total: ClassVar[int] = 152  # card points without the last trick
    counts_in_tens: ClassVar[bool] = False  # scores are match points: raw points rounded to tens
    clockwise: ClassVar[bool] = False  # play passes clockwise, to the left (Mpourloto); else to the right
    has_generale: ClassVar[bool] = False  # records a deal's ``generale`` (Coinche)

    # Options -----------------------------------------------------------------

    def options(self, raw: Mapping[str, Any] | None = None) -> Any:
        """The options dataclass from a mapping; unknown or ill-typed ones are refused."""
        raw = dict(raw or {})
        fields = {f.name: f for f in dataclasses.fields(self.Options)}
        unknown = sorted(set(raw) - set(fields))
        if unknown:
            raise ScoringError(
                f"{self.name} has no option {unknown[0]!r}; its options are {', '.join(fields)}",
                field=f"options.{unknown[0]}",
            )
        for name, value in raw.items():
            default = fields[name].default
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ScoringError("must be true or false", field=f"options.{name}")
            elif isinstance(default, int) and (not isinstance(value, int) or isinstance(value, bool)):
                raise ScoringError("must be a whole number", field=f"options.{name}")
        opts = self.Options(**raw)
        self.check_options(opts)
        return opts

    @staticmethod
    def spelt_out(opts: Any) -> dict[str, Any]:
        """Every option by name, as a match stores and a sheet shows them; ``ended_after`` only when a
        match was ended so (it is where a match ended, not a rule chosen before it)."""
        spelt = dataclasses.asdict(opts)
        if not spelt.get("ended_after"):
            spelt.pop("ended_after", None)
        return spelt

    def check_options(self, opts: Any) -> None:
        if not 1 <= opts.target <= MAX_TARGET:
            raise ScoringError(f"the target is between 1 and {MAX_TARGET:,} points", field="options.target")
        if not 0 <= opts.deals <= MAX_DEALS:
            raise ScoringError(f"a match of a fixed number of deals has 1 to {MAX_DEALS} (0: to the target)",
                               field="options.deals")  # fmt: skip
        if not 0 <= opts.ended_after <= MAX_ENDED_AFTER:
            raise ScoringError(f"a match ended by agreement ends after 1 to {MAX_ENDED_AFTER:,} deals "
                               "(0: not ended so)", field="options.ended_after")  # fmt: skip

    def end_of_match(self, progress: Progress, deal: Deal, score: DealScore, opts: Any) -> Progress:
        """The game's own end (``settle``), or, in a match of a fixed number of deals, only the last
        of them: the higher total wins, equal totals are a draw (the target does not end it). A match
        ended by agreement (``ended_after``) ends after that deal, thrown in or not, on its totals."""
        progress = dataclasses.replace(
            progress, played=progress.played + (not deal.thrown_in), dealt=progress.dealt + 1
        )
        if not opts.deals:
            progress = self.settle(progress, deal, score, opts)
        elif progress.played >= opts.deals:
            progress = self.on_totals(progress)
        if opts.ended_after and progress.dealt >= opts.ended_after and progress.status != Status.FINISHED:
            progress = self.on_totals(progress)
        return progress

    @staticmethod
    def on_totals(progress: Progress) -> Progress:
        """The match ends now: the higher total wins, equal totals are a draw."""
        a, b = progress.totals
        winner = None if a == b else (0 if a > b else 1)
        return dataclasses.replace(progress, status=Status.FINISHED, winner=winner)

    # Deals -------------------------------------------------------------------

    def check_deal(self, deal: Deal, opts: Any) -> None:
        """Refuse a deal that cannot have happened under these rules."""
        raise NotImplementedError

    def score_deal(self, deal: Deal, opts: Any, held: int = 0) -> DealScore:
        """Score a checked deal; ``held`` is what hangs from earlier deals."""
        raise NotImplementedError

    def check_fields(self, deal: Deal) -> None:
        """Refuse the fields of a deal that only other games record (run before ``check_deal``)."""
        if deal.generale is not None and not self.has_generale:
            raise ScoringError(f"{self.name} has no générale", field="generale")

    def score_at(self, deal: Deal, opts: Any, held: int, position: int) -> DealScore:
        """Score a checked deal at its place in the match (``position``, from 0). A deal scores the
        same wherever it falls in most games; Coinche counts the last deal of a timed match exactly."""
        return self.score_deal(deal, opts, held)

    def next_dealer(self, dealer: int, deal: Deal) -> int:
        """The deal passes to the next seat in playing order, thrown-in deals included."""
        return (dealer + 1) % 4

    def leader(self, dealer: int) -> int:
        """Who leads the first trick: the next seat after the dealer."""
        return (dealer + 1) % 4

    # The end of the match ----------------------------------------------------

    def settle(self, progress: Progress, deal: Deal, score: DealScore, opts: Any) -> Progress:
        """After a deal: won, or equal over the target (play on deal by deal).

        A thrown-in deal decides nothing: the totals are as they were.
        """
        if deal.thrown_in:
            return progress
        a, b = progress.totals
        if max(a, b) >= opts.target and a != b:
            return dataclasses.replace(progress, status=Status.FINISHED, winner=0 if a > b else 1)
        return progress

    # Shared checks -----------------------------------------------------------

    def check_melds(self, deal: Deal, allowed: Mapping[str, int], *, any_rank_four: bool = False) -> None:
        """Melds this game knows, at most 4 a team, each rank's four once a deal.

        ``any_rank_four``: the game scores every four alike, so ``four`` may be any rank.
        """
        per_team = MELDS_PER_TEAM
        for team, melds in enumerate(deal.melds):
            for j, code in enumerate(melds):
                if code not in allowed:
                    raise ScoringError(
                        f"{self.name} has no meld {code!r}; its melds are {', '.join(allowed)}",
                        field=f"melds[{team}][{j}]",
                    )
            if len([m for m in melds if m != "mpourloto"]) > per_team:
                raise ScoringError(
                    f"a team can show at most {per_team} melds (two per player)", field=f"melds[{team}]"
                )
        counts = Counter(deal.melds[0]) + Counter(deal.melds[1])
        for code in RANK_FOURS:
            if counts[code] > 1:
                raise ScoringError(f"a deal has only one {_FOUR_WORDS[code]}", field="melds")
        if counts["four"] + sum(counts[code] for code in NAMED_FOURS) > 4 and not any_rank_four:
            raise ScoringError("there are only four ranks (A, K, Q, 10) for 'four'", field="melds")

    def check_belote(self, deal: Deal, most: int) -> None:
        """Belotes (K+Q of a trump suit) per team: none below zero, ``most`` in the deal."""
        for team, count in enumerate(deal.belote):
            if count < 0:
                raise ScoringError("cannot be below 0", field=f"belote[{team}]")
        if sum(deal.belote) > most:
            if most == 0:
                raise ScoringError("no belote here: there is no trump suit", field="belote")
            raise ScoringError(
                f"at most {most} belote{'s' if most > 1 else ''} in a deal (K+Q of a trump suit)",
                field="belote",
            )

    def check_contract(
        self, deal: Deal, *, suits: tuple[str, ...], bid: bool = False, doubling: bool = True
    ) -> None:
        """The contract this game records: its suits, a bid or none, doubling or none."""
        contract = deal.contract
        if contract is None:
            raise ScoringError(
                "missing: the contract (suit" + (", bid" if bid else "") + ")", field="contract"
            )
        if contract.suit not in suits:
            raise ScoringError(f"must be one of {', '.join(suits)}", field="contract.suit")
        if bid:
            if contract.bid is None:
                raise ScoringError("missing: the bid (80, 90, 100 …)", field="contract.bid")
            if not isinstance(contract.bid, int) or contract.bid < 80 or contract.bid % 10:
                raise ScoringError("bids go in tens from 80: 80, 90, 100 …", field="contract.bid")
        elif contract.bid is not None:
            raise ScoringError(f"{self.name} has no bid", field="contract.bid")
        if not doubling and contract.multiplier != 1:
            raise ScoringError(f"{self.name} has no contra", field="contract.multiplier")

    def check_card_points(self, deal: Deal, total: int) -> None:
        """Card points of both teams add up to the deck; a capot team has them all."""
        cards = deal.card_points or (0, 0)
        a, b = cards
        for team, points in enumerate((a, b)):
            if not 0 <= points <= total:
                raise ScoringError(
                    f"card points must lie between 0 and {total}", field=f"card_points[{team}]"
                )
        if a + b != total:
            raise ScoringError(
                f"the two teams' card points must add up to {total} (they add up to {a} + {b} = {a + b})",
                field="card_points",
            )
        if deal.capot is not None:
            if cards[deal.capot] != total:
                raise ScoringError(
                    f"a team that took every trick has all {total} card points", field="card_points"
                )
            if deal.last_trick is not None and deal.last_trick != deal.capot:
                raise ScoringError(
                    "the team that took every trick also took the last one", field="last_trick"
                )
        elif deal.last_trick is None:
            raise ScoringError("missing: the team that won the last trick", field="last_trick")


_FOUR_WORDS = {
    "fourJ": "four of a kind of Jacks",
    "four9": "four of a kind of 9s",
    "four8": "four of a kind of 8s",
    "four7": "four of a kind of 7s",
    "fourA": "four of a kind of Aces",
    "four10": "four of a kind of 10s",
    "fourK": "four of a kind of Kings",
    "fourQ": "four of a kind of Queens",
}


def tens(points: int, limit: int, *, up: bool) -> int:
    """Points to match points: below the limit digit down, above it up, on it as ``up`` says."""
    q, d = divmod(points, 10)
    if d < limit:
        return q
    if d > limit:
        return q + 1
    return q + 1 if up else q
