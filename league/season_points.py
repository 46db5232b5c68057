"""A season's table from its events' final ranks: pure code, no database (``league.seasons`` feeds it).

How a table is counted (the help says the same to the players):

- Each event, a player earns the points of their final rank on the season's scale: ``scale[0]`` for
  1st, ``scale[1]`` for 2nd …; a rank past the end of the scale earns ``participation`` (0 by
  default). Players who share a rank (two losing semi-finalists, both 3rd) each earn that rank's
  points: 3rd and 3rd both earn the 3rd place's points, and the next earns the 5th's.
- A team's two players each earn the team's points; in an individual event each player earns their
  own. A player with two ranks in one event (two records of one person, merged later) keeps the
  better one: an event counts once per player.
- With ``best_of`` N, only a player's N best results count towards the total; the others are dropped
  (shown in brackets). Among equal results the earlier event counts and the later one is dropped.
  Without it, every result counts.
- The table is ordered by total, then by events won (final rank 1), then by the best single finish
  (a 2nd beats a 3rd), over every event played, dropped or not; then by name. Players level on total,
  wins and best finish share a rank (1, 2, 2, 4); the name only orders them on the page.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

MAX_SCALE = 64  # places a scale may name: more than any club event ranks with points of its own


@dataclass(frozen=True)
class Event:
    """One event's outcome for the season: each player's final rank (1 the best; shared ranks repeat)."""

    key: Hashable
    ranks: Mapping[Hashable, int]


@dataclass(frozen=True)
class Result:
    """A player's result in one event: their final rank, the points it earns, and whether the points
    count towards the total (false: dropped by "best of N")."""

    event: Hashable
    rank: int
    points: int
    counted: bool


@dataclass(frozen=True)
class Standing:
    """A player's line in the table. ``results`` are the events played, in the season's order;
    ``cells`` has one place per event of the season, ``None`` where the player did not play."""

    player: Hashable
    name: str
    rank: int
    total: int
    played: int
    wins: int
    best_finish: int
    results: tuple[Result, ...]
    cells: tuple[Result | None, ...]

    @property
    def dropped(self) -> tuple[Result, ...]:
        return tuple(r for r in self.results if not r.counted)


def rank_points(rank: int, scale: Sequence[int], participation: int = 0) -> int:
    """The points of a final rank: the scale's place for it, or ``participation`` past its end."""
    if rank < 1:
        raise ValueError(f"a rank starts at 1, not {rank}")
    return scale[rank - 1] if rank <= len(scale) else participation


def _counted(points: Sequence[int], best_of: int | None) -> set[int]:
    """The indexes of the results that count: the ``best_of`` highest (the earlier first among equal
    ones), or all of them."""
    if best_of is None or best_of >= len(points):
        return set(range(len(points)))
    order = sorted(range(len(points)), key=lambda i: (-points[i], i))
    return set(order[:best_of])


def season_standings(
    events: Sequence[Event],
    names: Mapping[Hashable, str],
    *,
    scale: Sequence[int],
    participation: int = 0,
    best_of: int | None = None,
) -> list[Standing]:
    """The season's table: ``events`` in the season's order (oldest first), ``names`` naming every
    player who appears in them. Ordered and ranked as the module says."""
    if best_of is not None and best_of < 1:
        raise ValueError("best_of counts at least one result")
    played: dict[Hashable, list[Result]] = {}
    for event in events:
        for player, rank in event.ranks.items():
            points = rank_points(rank, scale, participation)
            played.setdefault(player, []).append(Result(event.key, rank, points, True))
    lines = []
    for player, results in played.items():
        keep = _counted([r.points for r in results], best_of)
        results = [r if i in keep else replace(r, counted=False) for i, r in enumerate(results)]
        by_event = {r.event: r for r in results}
        lines.append(
            Standing(
                player=player,
                name=names[player],
                rank=0,
                total=sum(r.points for r in results if r.counted),
                played=len(results),
                wins=sum(r.rank == 1 for r in results),
                best_finish=min(r.rank for r in results),
                results=tuple(results),
                cells=tuple(by_event.get(e.key) for e in events),
            )
        )
    lines.sort(key=lambda s: (*_level(s), s.name.casefold(), s.name, str(s.player)))
    table: list[Standing] = []
    for position, line in enumerate(lines, start=1):
        shared = table and _level(table[-1]) == _level(line)
        table.append(replace(line, rank=table[-1].rank if shared else position))
    return table


def _level(s: Standing) -> tuple[int, int, int]:
    """What ranks a line: the total, the wins, the best finish (the name only orders equal ones)."""
    return (-s.total, -s.wins, s.best_finish)
