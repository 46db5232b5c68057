"""What the finished matches give each team: one pass over the results.

``tally(results, scoring)`` reads every result once and keeps, per team, the
counts every metric is computed from, plus the match points it took from each
opponent (head-to-head). Teams that withdrew still have a record here, so the
teams they played keep what they earned against them (and their Buchholz).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple


class _ResultFields(NamedTuple):
    a: int
    b: int | None
    points: tuple[int, int]
    winner: int | None
    suffered: tuple[int, int] = (0, 0)


class Result(_ResultFields):
    """One finished match (or a bye) from the standings' point of view.

    ``a`` and ``b`` are entry ids; ``b`` is None for a bye given to ``a``.
    ``points`` are the game points each side scored in the match (its final
    totals); ``winner`` is 0 (``a``), 1 (``b``) or None for a draw.
    ``suffered`` counts the deals each side lost as the contracting side:
    mesa (Mpourloto), failed (Pilotta), inside (Bulgarian), dedans (French and
    Classic Belote).

    A bye is ``Result(a=entry, b=None, points=(0, 0), winner=0)``: what it is
    worth comes from ``Scoring`` (``bye`` match points, ``bye_game_points``),
    the one place it is configured, so a bye carrying points of its own is
    refused rather than counted twice.

    An immutable named tuple, checked when made: a tournament's standings make
    thousands of them (a frozen dataclass took twice as long).
    """

    __slots__ = ()

    def __new__(
        cls,
        a: int,
        b: int | None,
        points: tuple[int, int],
        winner: int | None,
        suffered: tuple[int, int] = (0, 0),
    ) -> Result:
        # A pair given as a tuple of two is kept as it is (the common case, and the fast one).
        if type(points) is not tuple or len(points) != 2:
            points = _pair(points, "points")
        if type(suffered) is not tuple or len(suffered) != 2:
            suffered = _pair(suffered, "suffered")
        if b is None:
            if winner != 0:
                raise ValueError(f"a bye is won by its team (winner=0), not {winner!r}")
            if points != (0, 0) or suffered != (0, 0):
                raise ValueError(
                    "a bye has points=(0, 0) and suffered=(0, 0); "
                    "its game points come from Scoring.bye_game_points"
                )
        else:
            if a == b:
                raise ValueError(f"entry {a} cannot play itself")
            if winner not in (0, 1, None):
                raise ValueError(f"winner is 0, 1 or None (a draw), not {winner!r}")
        return tuple.__new__(cls, (a, b, points, winner, suffered))

    @property
    def is_bye(self) -> bool:
        return self.b is None

    def _replace(self, **changes: object) -> Result:
        return Result(**{**self._asdict(), **changes})  # checked, as every result


def _pair(value: Iterable[int], name: str) -> tuple[int, int]:
    pair = tuple(value)
    if len(pair) != 2:
        raise ValueError(f"{name} is a pair, one number for each side, not {value!r}")
    return pair


class Penalty(NamedTuple):
    """A director's penalty: match points and game points taken from a team (positive numbers;
    a negative one gives back)."""

    entry: int
    match_points: int = 0
    game_points: int = 0


@dataclass(frozen=True)
class Scoring:
    """Match points for a result, as the tournament configured them."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2  # match points for a bye
    bye_game_points: int = 0  # game points credited for a bye (nothing against)

    def awarded(self, result: Result) -> tuple[int, int]:
        """The match points ``result`` gives each side (a bye: only to ``a``)."""
        if result.b is None:
            return (self.bye, 0)
        if result.winner is None:
            return (self.draw, self.draw)
        return (self.win, self.loss) if result.winner == 0 else (self.loss, self.win)


DEFAULT_SCORING = Scoring()


@dataclass(slots=True)
class Record:
    """One team's tally. Byes are counted in ``byes`` and ``match_points`` (and
    ``game_points`` when ``Scoring.bye_game_points`` is set) but are not matches
    played: ``played == won + drawn + lost``."""

    entry: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: int = 0
    game_points: int = 0  # for
    game_points_against: int = 0
    suffered: int = 0
    penalty_match_points: int = 0  # taken away by the director (already out of match_points)
    penalty_game_points: int = 0  # likewise, out of game_points
    opponents: list[int] = field(default_factory=list)  # one item per match, repeats kept
    against: dict[int, int] = field(default_factory=dict)  # opponent → match points taken from it


@dataclass(frozen=True)
class Tally:
    records: dict[int, Record]
    scoring: Scoring

    def record(self, entry: int) -> Record:
        """``entry``'s record; an empty one for a team that has no result yet."""
        found = self.records.get(entry)
        return found if found is not None else Record(entry)


def tally(
    results: Iterable[Result], scoring: Scoring = DEFAULT_SCORING, penalties: Iterable[Penalty] = ()
) -> Tally:
    """Every team's record from ``results``, in one pass (order does not matter), less the
    director's ``penalties``."""
    records: dict[int, Record] = {}
    for penalty in penalties:
        record = records.get(penalty.entry)
        if record is None:
            record = records[penalty.entry] = Record(penalty.entry)
        record.match_points -= penalty.match_points
        record.game_points -= penalty.game_points
        record.penalty_match_points += penalty.match_points
        record.penalty_game_points += penalty.game_points
    win, draw, loss = scoring.win, scoring.draw, scoring.loss
    # A tournament's standings tally thousands of results: each is read by position, and only what
    # varies is counted in the loop; the played matches, the match points (as ``Scoring.awarded``
    # gives them) and the byes' game points follow from the counts once, below.
    for a, b, (points_a, points_b), winner, (suffered_a, suffered_b) in results:
        first = records.get(a)
        if first is None:
            first = records[a] = Record(a)
        if b is None:  # a bye
            first.byes += 1
            continue
        second = records.get(b)
        if second is None:
            second = records[b] = Record(b)
        if winner is None:
            taken = given = draw
            first.drawn += 1
            second.drawn += 1
        elif winner == 0:
            taken, given = win, loss
            first.won += 1
            second.lost += 1
        else:
            taken, given = loss, win
            first.lost += 1
            second.won += 1
        first.game_points += points_a
        first.game_points_against += points_b
        first.suffered += suffered_a
        first.opponents.append(b)
        against = first.against
        against[b] = against.get(b, 0) + taken
        second.game_points += points_b
        second.game_points_against += points_a
        second.suffered += suffered_b
        second.opponents.append(a)
        against = second.against
        against[a] = against.get(a, 0) + given
    for record in records.values():
        record.played = record.won + record.drawn + record.lost
        record.match_points += (
            record.won * win + record.drawn * draw + record.lost * loss + record.byes * scoring.bye
        )
        record.game_points += record.byes * scoring.bye_game_points
    return Tally(records=records, scoring=scoring)
