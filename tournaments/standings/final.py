"""The final ranking of a tournament: the knockout's result first, then the stage's order.

With a knockout, a team is placed by how far it went in the main bracket, and teams that went
equally far by the stage's standings (the seeding)::

    champion (won the final)                      1
    finalist (lost the final)                     2
    losing semi-finalists                         3, 3  (3 and 4 after a match for third place)
    losing quarter-finalists                      5, 5, 5, 5
    … then the teams that did not reach the knockout, in the stage's order

A bye counts as a round won. A knockout stopped early (the tournament finished before its final)
places the teams still in it (beaten by nobody) together, above every team knocked out, whatever
round each of them reached: a team that won its match of the unfinished round shares the first
place with the teams whose match was not played or not decided (a match without a winner leaves
both teams in); the teams knocked out follow, by the round they lost in, as above. Without a
knockout the ranking is the stage's standings (after its play-offs), whose shared ranks it keeps.

Pure Python: the caller reads the tables (``KnockoutTable``) and the stage's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MAIN = "main"
THIRD_PLACE = "third_place"
CONSOLATION = "consolation"


@dataclass(frozen=True)
class KnockoutTable:
    """One table of a knockout round: ``b`` is None for a bye; ``winner`` is None while undecided."""

    round: int  # the round's number in the tournament (only their order matters)
    a: int
    b: int | None
    winner: int | None
    bracket: str = MAIN


@dataclass(frozen=True)
class Placed:
    entry: int
    position: int  # 1 … n, the order of the list
    rank: int  # shared by teams the ranking cannot separate (3, 3 for two losing semi-finalists)
    reached: str  # "champion", "final", "third_place", "fourth_place", "semi_final", "quarter_final",
    # "round_of_16" … (the round the team went out in), the same prefixed "consolation_" in the
    # consolation bracket, or "stage" (in neither)
    stage_rank: int | None  # the team's rank in the stage's standings


def round_name(slots: int) -> str:
    """A knockout round by the number of places in it: 2 → final, 4 → semi_final, 8 → quarter_final."""
    return {2: "final", 4: "semi_final", 8: "quarter_final"}.get(slots, f"round_of_{slots}")


def _depths(tables: Sequence[KnockoutTable]) -> tuple[dict[int, int], int]:
    """How far each team of one bracket went (the last round it was in, one more if it won or had a
    bye there), and the number of places in the bracket's first round."""
    rounds = sorted({t.round for t in tables})
    index = {number: k for k, number in enumerate(rounds, start=1)}
    depth: dict[int, int] = {}
    for t in sorted(tables, key=lambda t: t.round):
        k = index[t.round]
        for entry in (t.a, t.b):
            if entry is None:
                continue
            won = t.b is None or t.winner == entry
            depth[entry] = k + (1 if won else 0)
    return depth, 2 * sum(1 for t in tables if t.round == rounds[0])


def _place(
    bracket: str,
    tables: Sequence[KnockoutTable],
    third: dict[int, int],
    stage_rank: dict[int, int],
    stage_position: dict[int, int],
    placed: list[Placed],
) -> None:
    """Add one bracket's teams to ``placed``: by how far they went, then the match for third place,
    then the stage's order; teams that went equally far share a rank."""
    depth, first_round_slots = _depths(tables)

    def reached(entry: int) -> str:
        if bracket == MAIN and entry in third:
            return ("third_place", "fourth_place")[third[entry]]
        slots = first_round_slots >> (depth[entry] - 1)
        name = "champion" if slots < 2 else round_name(slots)
        return name if bracket == MAIN else f"consolation_{name}"

    beaten = {
        loser
        for t in tables
        if t.b is not None and t.winner is not None
        for loser in (t.a, t.b)
        if loser != t.winner
    }

    def group(entry: int) -> tuple[int, int, int]:
        if entry not in beaten:  # still in: the champion, or, stopped early, every team not knocked out
            return (0, 0, 0)
        return (1, -depth[entry], third.get(entry, 0) if bracket == MAIN else 0)

    previous = None
    for entry in sorted(depth, key=lambda e: (group(e), stage_position.get(e, len(stage_position)), e)):
        position = len(placed) + 1
        key = group(entry)
        rank = placed[-1].rank if key == previous and placed else position
        previous = key
        placed.append(Placed(entry, position, rank, reached(entry), stage_rank.get(entry)))


def final_ranking(stage: Sequence[tuple[int, int]], knockout: Sequence[KnockoutTable] = ()) -> list[Placed]:
    """Every team of ``stage`` ((entry, stage rank), best first) in its final place.

    ``knockout`` is every table of the knockout rounds, any order; empty for a tournament without one.
    The teams of a consolation bracket (those that missed the knockout) come after the knockout's,
    placed the same way among themselves; then the teams of neither.
    """
    stage_rank = dict(stage)
    stage_position = {entry: i for i, (entry, _) in enumerate(stage)}
    main = [t for t in knockout if t.bracket == MAIN]
    if not main:
        return [Placed(entry, i, rank, "stage", rank) for i, (entry, rank) in enumerate(stage, start=1)]
    third = {}
    for t in knockout:
        if t.bracket == THIRD_PLACE and t.winner is not None and t.b is not None:
            third[t.winner] = 0
            third[t.b if t.winner == t.a else t.a] = 1

    placed: list[Placed] = []
    for bracket in (MAIN, CONSOLATION):
        tables = [t for t in knockout if t.bracket == bracket]
        if tables:
            _place(bracket, tables, third, stage_rank, stage_position, placed)
    placed_entries = {p.entry for p in placed}
    previous_stage_rank = None
    for entry, rank_in_stage in stage:
        if entry in placed_entries:
            continue
        position = len(placed) + 1
        shared = previous_stage_rank == rank_in_stage and placed and placed[-1].reached == "stage"
        rank = placed[-1].rank if shared else position
        placed.append(Placed(entry, position, rank, "stage", rank_in_stage))
        previous_stage_rank = rank_in_stage
    return placed


def knockout_finished(knockout: Sequence[KnockoutTable]) -> bool:
    """Whether the knockout has a champion: its last main round is one decided table (the final),
    every match for third place is decided, and so is the consolation bracket's final, if any."""
    for bracket in (MAIN, CONSOLATION):
        tables = [t for t in knockout if t.bracket == bracket]
        if not tables:
            if bracket == MAIN:
                return False
            continue
        last = max(t.round for t in tables)
        finals = [t for t in tables if t.round == last]
        if len(finals) != 1 or finals[0].b is None or finals[0].winner is None:
            return False
    return all(t.winner is not None for t in knockout if t.bracket == THIRD_PLACE)
