"""A player's statistics (league/stats.py), against numbers worked out by hand.

Mpourloto (RULES.md §1): a team's deal points are its card points + 10 for the last trick + its
melds. Made (the makers strictly more): each team adds its own. Mesa (the makers equal or fewer):
the opponents add both teams' points, the makers 0. The matches below are of two played deals
(option ``deals``), replayed by the engine, which is pure like the statistics.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from league import stats
from league.stats import DealLine, PlayedMatch, Record
from scoring import engine
from tests.factories import made

ROOT = Path(__file__).resolve().parents[2]
THROWN_IN = {"thrown_in": True}


def played(deals, *, team, partner):
    """A two-deal Mpourloto match replayed by the engine, seen from ``team``."""
    sheet = engine.replay("mpourloto", [engine.Deal.from_dict(d) for d in deals], options={"deals": 2})
    assert sheet.status == engine.Status.FINISHED
    lines = [DealLine(row.result, row.scores, row.deal.maker) for row in sheet.rows]
    return PlayedMatch(team=team, winner=sheet.winner, deals=lines, partner=partner)


# Nikos's three finished matches.
# 1. Nikos (team 0) with Eleni.
#    Deal 1: team 0 makes; 90 + 10 (last trick) = 100 against 62 → made, +100 / +62.
#    Deal 2: team 0 makes; 60 against 92 + 10 = 102 → mesa: team 1 adds 162, team 0 nothing.
#    Totals 100–224: lost. Team 0's points 100 over 2 deals; one mesa suffered.
LOST_WITH_ELENI = ([made(0, (90, 62), 0), made(0, (60, 92), 1)], 0, "Eleni")
# 2. Nikos (team 0) with Maria.
#    Deal 1: all passed (thrown in): not counted.
#    Deal 2: team 1 makes; 52 against 100 + 10 = 110 → mesa: team 0 adds 162.
#    Deal 3: team 0 makes; 80 + 10 + 20 (a sequence of three) = 110 against 72 → made, +110 / +72.
#    Totals 272–72: won. Team 0's points 162 + 110 = 272 over 2 deals; one mesa made.
WON_WITH_MARIA = (
    [THROWN_IN, made(1, (100, 52), 0), made(0, (80, 72), 0, melds=(("seq3",), ()))],
    0,
    "Maria",
)
# 3. Nikos (team 1) with Maria.
#    Deal 1: team 0 makes; 100 against 62 → made, +100 / +62.
#    Deal 2: team 1 makes; 62 against 90 + 10 = 100 → made, +62 / +100.
#    Totals 162–162: drawn. Team 1's points 62 + 100 = 162 over 2 deals.
DRAWN_WITH_MARIA = ([made(0, (90, 62), 0), made(1, (62, 90), 1)], 1, "Maria")


def nikos():
    return [played(d, team=t, partner=p) for d, t, p in (LOST_WITH_ELENI, WON_WITH_MARIA, DRAWN_WITH_MARIA)]


def test_matches_won_drawn_and_lost():
    record = stats.player_stats(nikos()).record
    assert (record.played, record.won, record.drawn, record.lost) == (3, 1, 1, 1)


def test_win_rate_counts_a_draw_as_not_won():
    assert stats.player_stats(nikos()).record.win_rate == pytest.approx(100 / 3)


def test_points_per_deal_leave_thrown_in_deals_out():
    result = stats.player_stats(nikos())
    # 100 + 272 + 162 = 534 points over 2 + 2 + 2 = 6 played deals.
    assert (result.points, result.deals) == (534, 6)
    assert result.points_per_deal == 89


def test_mesa_suffered_and_made():
    result = stats.player_stats(nikos())
    assert result.suffered_kinds == (("mesa", 1),)  # match 1, deal 2
    assert result.made_kinds == (("mesa", 1),)  # match 2, deal 2
    assert (result.suffered_total, result.made_total) == (1, 1)


def test_partners_most_matches_together_first():
    partners = stats.player_stats(nikos()).partners
    assert [(p.partner, p.record.played, p.record.won, p.record.drawn, p.record.lost) for p in partners] == [
        ("Maria", 2, 1, 1, 0),
        ("Eleni", 1, 0, 0, 1),
    ]


def test_no_match_no_rate():
    result = stats.player_stats([])
    assert (result.record.played, result.record.win_rate, result.points_per_deal) == (0, None, None)
    assert result.suffered_total == result.made_total == 0


@pytest.mark.parametrize(
    ("result", "maker", "sufferer"),
    [
        ("made", 0, None),
        ("mesa", 0, 0),
        ("mesa", 1, 1),
        ("failed", 1, 1),  # Pilotta: the contract is not made
        ("inside", 0, 0),  # Bulgarian: the makers are inside
        ("inside_defenders", 0, 1),  # Bulgarian: the defenders are inside
        ("dedans", 1, 1),  # French Belote
        ("hanging", 0, None),  # a tie whose points hang: nobody suffered yet
        ("litige", 0, None),
        ("thrown_in", None, None),
    ],
)
def test_who_suffers_a_deal(result, maker, sufferer):
    assert DealLine(result, (0, 0), maker).sufferer == sufferer


def test_inside_of_the_defenders_counts_for_the_defenders():
    # Team 1 defends and is inside twice, once a dedans of its own contract; team 0 fails once.
    deals = [
        DealLine("inside_defenders", (26, 0), 0),
        DealLine("dedans", (16, 0), 1),
        DealLine("failed", (0, 16), 0),
        DealLine("made", (10, 6), 0),
    ]
    result = stats.player_stats([PlayedMatch(team=1, winner=0, deals=deals)])
    assert result.suffered == {"mesa": 0, "failed": 0, "inside": 0, "inside_defenders": 1, "dedans": 1}
    assert result.made == {"mesa": 0, "failed": 1, "inside": 0, "inside_defenders": 0, "dedans": 0}
    assert (result.points, result.deals) == (0 + 0 + 16 + 6, 4)


LEADERBOARD_CASES = [
    pytest.param(
        # Anna 2/2; Babis 2/3; Chris 2/3; Dora 0/1 (under the minimum of 2: left out).
        [("Anna", "won"), ("Babis", "won"), ("Chris", "lost"), ("Dora", "lost"), ("Anna", "won"),
         ("Babis", "lost"), ("Chris", "won"), ("Babis", "won"), ("Chris", "won")],
        2,
        [(1, "Anna", 2, 2), (2, "Babis", 2, 3), (2, "Chris", 2, 3)],
        id="level-players-share-a-rank",
    ),
    pytest.param(
        # Same win rate (50 %): more matches won ranks first.
        [("Anna", "won"), ("Anna", "lost"), ("Babis", "won"), ("Babis", "won"), ("Babis", "drawn"),
         ("Babis", "lost")],
        1,
        [(1, "Babis", 2, 4), (2, "Anna", 1, 2)],
        id="then-matches-won",
    ),
    pytest.param([("Anna", "drawn")], 0, [(1, "Anna", 0, 1)], id="a-minimum-below-one-is-one"),
    pytest.param([], 3, [], id="nobody"),
]  # fmt: skip


@pytest.mark.parametrize(("outcomes", "minimum", "expected"), LEADERBOARD_CASES)
def test_leaderboard(outcomes, minimum, expected):
    rows = stats.leaderboard(outcomes, min_matches=minimum)
    assert [(r.rank, r.player, r.record.won, r.record.played) for r in rows] == expected


def test_outcome_from_a_seat():
    assert [stats.outcome(0, 0), stats.outcome(1, 0), stats.outcome(1, None)] == ["won", "lost", "drawn"]


def test_a_record_adds_up():
    record = Record().add("won").add("lost").add("won").add("drawn")
    assert (record.won, record.drawn, record.lost, record.played, record.win_rate) == (2, 1, 1, 4, 50)


def test_the_statistics_import_no_django():
    """Pure like the engine (STYLE.md): only the standard library and the engine's types."""
    tree = ast.parse((ROOT / "league/stats.py").read_text(encoding="utf-8"))
    imported = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    outside = {name for name in imported if name.split(".")[0] not in sys.stdlib_module_names}
    assert outside - {"__future__"} == {"scoring.engine.types"}
    code = "import sys, league.stats; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
