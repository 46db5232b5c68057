"""Values the engine works with: a deal as the table reports it, and the sheet.

Field names follow ``shared/FORMAT.md``; a deal read from a match file and a
deal saved in the database are the same ``Deal``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from .errors import ScoringError

if TYPE_CHECKING:
    from .match import MatchState

TEAMS = (0, 1)
SEATS = (0, 1, 2, 3)
SUITS = ("clubs", "diamonds", "hearts", "spades", "notrump", "alltrump")
MELD_CODES = (
    "seq3", "seq4", "seq5", "four", "fourJ", "four9", "four8", "four7", "mpourloto",
    "fourA", "four10", "fourK", "fourQ",  # the fours that "four" stands for, named (Coinche in sans-atout)
)  # fmt: skip
BID_WORDS = ("capot", "generale")  # Coinche's bids beyond the numbers: every trick, every trick by one taker
BidWord = Literal["capot", "generale"]


class Result(StrEnum):
    MADE = "made"
    MESA = "mesa"
    FAILED = "failed"
    INSIDE = "inside"
    INSIDE_DEFENDERS = "inside_defenders"
    DEDANS = "dedans"
    HANGING = "hanging"
    LITIGE = "litige"
    THROWN_IN = "thrown_in"


LOST_BY_MAKER = frozenset({Result.MESA, Result.FAILED, Result.INSIDE, Result.DEDANS})


def sufferer(result: str, maker: int | None) -> int | None:
    """The team that lost a deal as a committed side: the makers on mesa, failed, inside and
    dedans; the defenders when they are inside (a doubled Bulgarian contract); else nobody."""
    if maker is None:
        return None
    if result in LOST_BY_MAKER:
        return maker
    if result == Result.INSIDE_DEFENDERS:
        return 1 - maker
    return None


class Status(StrEnum):
    IN_PROGRESS = "in_progress"
    TIE_BREAK = "tie_break"
    FINISHED = "finished"


def team_of(seat: int) -> int:
    """Seats 0 and 2 are team 0; seats 1 and 3 are team 1."""
    return seat % 2


def per_team(values: Iterable[int]) -> tuple[int, int]:
    """Two values, team 0's then team 1's, as the pair the engine's types hold."""
    a, b = values
    return a, b


@dataclass(frozen=True)
class Contract:
    suit: str | None = None
    bid: int | BidWord | None = None  # a word only in Coinche
    multiplier: int = 1

    def __post_init__(self) -> None:
        if self.suit is not None and self.suit not in SUITS:
            raise ScoringError(f"must be one of {', '.join(SUITS)}", field="contract.suit")
        if self.bid is not None and not _is_int(self.bid) and self.bid not in BID_WORDS:
            raise ScoringError('must be a whole number (in Coinche also "capot" or "generale")',
                               field="contract.bid")  # fmt: skip
        if not _is_int(self.multiplier) or self.multiplier not in (1, 2, 4):
            raise ScoringError("must be 1, 2 (contra) or 4 (sur-contra)", field="contract.multiplier")

    @classmethod
    def from_dict(cls, data: Any) -> Contract:
        if not isinstance(data, Mapping):
            raise ScoringError("must be an object with suit, bid and multiplier", field="contract")
        unknown = set(data) - {"suit", "bid", "multiplier"}
        if unknown:
            raise ScoringError(f"unknown field {sorted(unknown)[0]!r}", field="contract")
        return cls(suit=data.get("suit"), bid=data.get("bid"), multiplier=data.get("multiplier", 1))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.suit is not None:
            out["suit"] = self.suit
        if self.bid is not None:
            out["bid"] = self.bid
        out["multiplier"] = self.multiplier
        return out


def _is_int(value: Any) -> bool:
    return type(value) is int  # not bool, not 1.0


def _team(value: Any, name: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not _is_int(value) or value not in TEAMS:
        raise ScoringError("must be a team: 0 or 1" + (" (or null)" if optional else ""), field=name)


def _pair_of_ints(value: Any, name: str) -> None:
    if not isinstance(value, tuple) or len(value) != 2:
        raise ScoringError("must be a list of two numbers, one per team", field=name)
    for i, item in enumerate(value):
        if not _is_int(item):
            raise ScoringError("must be a whole number", field=f"{name}[{i}]")


def _tuples(value: Any) -> Any:
    """JSON lists become tuples (the deal is frozen); anything else is left for the checks."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list | tuple) else value


@dataclass(frozen=True)
class Deal:
    """One deal as the table reports it (FORMAT.md, "a deal").

    The shape is checked however the deal is made (from a match file or in
    code): a bad field raises ``ScoringError`` naming it. Whether the deal
    could have happened is the rule set's check.
    """

    thrown_in: bool = False
    maker: int | None = None
    contract: Contract | None = None
    card_points: tuple[int, int] | None = None
    last_trick: int | None = None
    capot: int | None = None
    solo_capot: bool = False
    melds: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    belote: tuple[int, int] = (0, 0)
    declarations_winner: int | Literal["equal"] | None = None
    generale: int | None = None  # Coinche: the seat of the player (either team's) who took every trick alone

    FIELDS = (
        "thrown_in", "maker", "contract", "card_points", "last_trick", "capot",
        "solo_capot", "melds", "belote", "declarations_winner", "generale",
    )  # fmt: skip

    def __post_init__(self) -> None:
        if not isinstance(self.thrown_in, bool):
            raise ScoringError("must be true or false", field="thrown_in")
        if self.thrown_in:
            for f in dataclasses.fields(self)[1:]:
                value = getattr(self, f.name)
                if value != f.default or type(value) is not type(f.default):
                    raise ScoringError("a thrown-in deal has no other fields", field=f.name)
            return
        if self.maker is None:
            raise ScoringError("missing: the team that took trumps (0 or 1)", field="maker")
        _team(self.maker, "maker")
        if self.contract is not None and not isinstance(self.contract, Contract):
            raise ScoringError("must be an object with suit, bid and multiplier", field="contract")
        if self.card_points is None:
            raise ScoringError("missing: both teams' card points", field="card_points")
        _pair_of_ints(self.card_points, "card_points")
        _team(self.last_trick, "last_trick", optional=True)
        _team(self.capot, "capot", optional=True)
        if not isinstance(self.solo_capot, bool):
            raise ScoringError("must be true or false", field="solo_capot")
        if not isinstance(self.melds, tuple) or len(self.melds) != 2:
            raise ScoringError("must be two lists, one per team", field="melds")
        for t, team_melds in enumerate(self.melds):
            if not isinstance(team_melds, tuple):
                raise ScoringError("must be a list of meld names", field=f"melds[{t}]")
            for j, code in enumerate(team_melds):
                if code not in MELD_CODES:
                    raise ScoringError(
                        f"unknown meld {code!r}; melds are {', '.join(MELD_CODES)}", field=f"melds[{t}][{j}]"
                    )
        _pair_of_ints(self.belote, "belote")
        if self.declarations_winner != "equal":
            _team(self.declarations_winner, "declarations_winner", optional=True)
        if self.generale is not None and (not _is_int(self.generale) or self.generale not in SEATS):
            raise ScoringError("must be a seat: 0, 1, 2 or 3", field="generale")

    @classmethod
    def from_dict(cls, data: Any) -> Deal:
        """Read a deal of the match file; shape errors name the field."""
        if not isinstance(data, Mapping):
            raise ScoringError("a deal must be a JSON object")
        unknown = set(data) - set(cls.FIELDS)
        if unknown:
            raise ScoringError(f"unknown field; a deal has {', '.join(cls.FIELDS)}", field=sorted(unknown)[0])
        values = {name: _tuples(value) for name, value in data.items() if value is not None}
        if "contract" in values:
            values["contract"] = Contract.from_dict(data["contract"])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """The deal in the match-file shape, leaving out what is not set."""
        if self.thrown_in:
            return {"thrown_in": True}
        out: dict[str, Any] = {"maker": self.maker}
        if self.contract is not None:
            out["contract"] = self.contract.to_dict()
        out["card_points"] = list(self.card_points or (0, 0))
        if self.capot is not None:
            out["capot"] = self.capot
        else:
            out["last_trick"] = self.last_trick
        if self.solo_capot:
            out["solo_capot"] = True
        out["melds"] = [list(self.melds[0]), list(self.melds[1])]
        if self.belote != (0, 0):
            out["belote"] = list(self.belote)
        if self.declarations_winner is not None:
            out["declarations_winner"] = self.declarations_winner
        if self.generale is not None:
            out["generale"] = self.generale
        return out


@dataclass(frozen=True)
class DealScore:
    """What one deal gives: the rule set's verdict on it."""

    result: Result
    scores: tuple[int, int]  # what each team adds, held points carried in
    points: tuple[int, int] = (0, 0)  # each team's points at the table, before the verdict
    held: int = 0  # points hanging after the deal
    winner: int | None = None  # the team that won the deal, if one did
    raw: tuple[int, int] | None = None  # games counting in tens: the points given, before rounding


@dataclass(frozen=True)
class SheetRow:
    number: int  # 1, 2, … in playing order
    deal: Deal
    dealer: int
    result: Result
    scores: tuple[int, int]
    points: tuple[int, int]
    totals: tuple[int, int]
    held: int
    tie_break: bool = False
    raw: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {
            "scores": list(self.scores),
            "result": str(self.result),
            "totals": list(self.totals),
            "dealer": self.dealer,
            "points": list(self.points),
            "held": self.held,
            "tie_break": self.tie_break,
        }
        if self.raw is not None:
            out["raw"] = list(self.raw)
        return out


@dataclass(frozen=True)
class Sheet:
    """The score sheet of a match: FORMAT.md's output."""

    ruleset: str
    target: int
    rows: tuple[SheetRow, ...] = ()
    totals: tuple[int, int] = (0, 0)
    held: int = 0
    status: Status = Status.IN_PROGRESS
    winner: int | None = None
    next_dealer: int = 0
    next_leader: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    state: MatchState | None = None  # where the last deal left the match (``step`` goes on from it)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deals": [row.to_dict() for row in self.rows],
            "totals": list(self.totals),
            "held": self.held,
            "status": str(self.status),
            "winner": self.winner,
            "next_dealer": self.next_dealer,
            "next_leader": self.next_leader,
            "ruleset": self.ruleset,
            "options": dict(self.options),
        }

    def to_go(self, team: int) -> int:
        """How many points ``team`` still needs to reach the target."""
        return max(0, self.target - self.totals[team])
