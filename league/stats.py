"""A player's record, counted from their finished matches: pure Python, no Django.

``league/records.py`` reads the matches and has the engine replay their deals; this module only
counts. A match is seen from the player's seat: ``team`` is the side they sat on (seats 0 and 2 are
team 0, seats 1 and 3 team 1), ``winner`` the team that won (None: a draw).

"Suffered" is a deal the team lost as the contracting side (mesa, failed, inside, dedans), or an
inside of the defenders (``inside_defenders``: the defenders are the ones inside); "made" is a deal
in which the team made the other team suffer that. This is the count the services keep on the match
(``scoring.services.suffered``), split by kind.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from scoring.engine.types import Result, sufferer

# The kinds of a suffered deal, in the order the pages show them.
SUFFERED_KINDS = (Result.MESA, Result.FAILED, Result.INSIDE, Result.INSIDE_DEFENDERS, Result.DEDANS)


@dataclass(frozen=True)
class DealLine:
    """One deal as the statistics need it: the engine's result and scores, and the makers."""

    result: str
    scores: tuple[int, int]
    maker: int | None = None  # None for a thrown-in deal

    @property
    def thrown_in(self) -> bool:
        return self.result == Result.THROWN_IN

    @property
    def sufferer(self) -> int | None:
        """The team that lost this deal as the contracting side, if one did."""
        return sufferer(self.result, self.maker)


@dataclass(frozen=True)
class PlayedMatch:
    """One finished match, from one player's seat."""

    team: int
    winner: int | None
    deals: Sequence[DealLine] = ()
    partner: Hashable = None  # who sat opposite: whatever the caller names them by


def outcome(team: int, winner: int | None) -> str:
    """``won``, ``drawn`` or ``lost``, for the player on ``team``."""
    if winner is None:
        return "drawn"
    return "won" if winner == team else "lost"


@dataclass(frozen=True)
class Record:
    """Matches won, drawn and lost; the win rate counts a draw as not won."""

    won: int = 0
    drawn: int = 0
    lost: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def win_rate(self) -> float | None:
        """Matches won in every 100 played; None before the first."""
        return self.won * 100 / self.played if self.played else None

    def add(self, result: str) -> Record:
        return replace(self, **{result: getattr(self, result) + 1})


@dataclass(frozen=True)
class Partner:
    partner: Hashable
    record: Record


@dataclass(frozen=True)
class PlayerStats:
    record: Record
    deals: int  # deals played, thrown-in ones left out
    points: int  # what the player's team added over those deals
    suffered: dict[str, int]  # kind → deals, every kind of SUFFERED_KINDS present
    made: dict[str, int]
    partners: tuple[Partner, ...]  # most matches together first

    @property
    def points_per_deal(self) -> float | None:
        return self.points / self.deals if self.deals else None

    @property
    def suffered_total(self) -> int:
        return sum(self.suffered.values())

    @property
    def made_total(self) -> int:
        return sum(self.made.values())

    @property
    def suffered_kinds(self) -> tuple[tuple[str, int], ...]:
        """``(kind, deals)`` for the kinds that happened."""
        return tuple((kind, n) for kind, n in self.suffered.items() if n)

    @property
    def made_kinds(self) -> tuple[tuple[str, int], ...]:
        return tuple((kind, n) for kind, n in self.made.items() if n)


def player_stats(matches: Iterable[PlayedMatch]) -> PlayerStats:
    """The record of a player over their finished matches."""
    record = Record()
    deals = points = 0
    suffered = dict.fromkeys(map(str, SUFFERED_KINDS), 0)
    made = dict.fromkeys(map(str, SUFFERED_KINDS), 0)
    partners: dict[Hashable, Record] = {}
    for match in matches:
        result = outcome(match.team, match.winner)
        record = record.add(result)
        if match.partner is not None:
            partners[match.partner] = partners.get(match.partner, Record()).add(result)
        for deal in match.deals:
            if deal.thrown_in:
                continue
            deals += 1
            points += deal.scores[match.team]
            if deal.sufferer is not None:
                counts = suffered if deal.sufferer == match.team else made
                counts[str(deal.result)] += 1
    ranked = sorted(partners.items(), key=lambda item: (-item[1].played, -item[1].won))
    return PlayerStats(
        record=record,
        deals=deals,
        points=points,
        suffered=suffered,
        made=made,
        partners=tuple(Partner(partner, rec) for partner, rec in ranked),
    )


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    player: Hashable
    record: Record


def leaderboard(outcomes: Iterable[tuple[Hashable, str]], *, min_matches: int = 1) -> list[LeaderRow]:
    """Players ranked by win rate, then matches won; those with fewer than ``min_matches`` are left out.

    ``outcomes`` holds one ``(player, "won" | "drawn" | "lost")`` per player per finished match.
    Players level on both share a rank; among them the order of their first outcome is kept.
    """
    records: dict[Hashable, Record] = {}
    for player, result in outcomes:
        records[player] = records.get(player, Record()).add(result)
    kept = [(player, rec) for player, rec in records.items() if rec.played >= max(1, min_matches)]
    kept.sort(key=lambda item: (-Fraction(item[1].won, item[1].played), -item[1].won))
    rows: list[LeaderRow] = []
    for position, (player, rec) in enumerate(kept, start=1):
        previous = rows[-1] if rows else None
        rank = position
        if previous is not None and (
            Fraction(previous.record.won, previous.record.played) == Fraction(rec.won, rec.played)
            and previous.record.won == rec.won
        ):
            rank = previous.rank  # level with the one before
        rows.append(LeaderRow(rank, player, rec))
    return rows
