"""The rating run (league/ratings.py, its pure part) against OpenSkill's own calculation, done here
step by step with the library; the seeding's order; the chart."""

from __future__ import annotations

import ast
import datetime
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from league import charts
from league.ratings import RatedMatch, Rating, ranks, rate_matches, rating_affected
from scoring.signals import MatchResult

T0 = datetime.datetime(2025, 3, 1, 20, 0, tzinfo=datetime.UTC)


def at(minutes: int) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


# Five players, partners changing: Ana & Bo beat Cy & Di; Ana & Cy draw with Bo & Ed; Di & Ed beat
# Ana & Bo (team 1 wins).
ANA, BO, CY, DI, ED = 1, 2, 3, 4, 5
THREE = [
    RatedMatch(101, at(0), ((ANA, BO), (CY, DI)), 0),
    RatedMatch(102, at(30), ((ANA, CY), (BO, ED)), None),
    RatedMatch(103, at(60), ((ANA, BO), (DI, ED)), 1),
]


def by_hand(matches):
    """The library's calculation, directly: one PlackettLuce with its defaults, a rating per player
    created on first sight, ``rate`` called with the ranks of each result in turn."""
    model = PlackettLuce()
    held = {}
    for m in matches:
        teams = [[held.setdefault(p, model.rating()) for p in team] for team in m.teams]
        order = [1, 1] if m.winner is None else ([1, 2] if m.winner == 0 else [2, 1])
        new = model.rate(teams, ranks=order)
        for team, rated in zip(m.teams, new, strict=True):
            for p, r in zip(team, rated, strict=True):
                held[p] = r
    return {p: (r.mu, r.sigma, r.ordinal()) for p, r in held.items()}


def test_three_matches_with_changing_partners_give_the_librarys_ratings():
    run = rate_matches(THREE)
    expected = by_hand(THREE)
    assert set(run.ratings) == {ANA, BO, CY, DI, ED}
    for player, (mu, sigma, ordinal) in expected.items():
        rating = run.ratings[player]
        assert rating.mu == pytest.approx(mu, abs=1e-12)
        assert rating.sigma == pytest.approx(sigma, abs=1e-12)
        assert rating.rating == pytest.approx(ordinal, abs=1e-12)
    assert {p: r.matches for p, r in run.ratings.items()} == {ANA: 3, BO: 3, CY: 2, DI: 2, ED: 2}


def test_the_history_is_each_players_rating_after_each_match_in_order():
    run = rate_matches(THREE)
    assert [(s.match, s.position) for s in run.steps] == [(101, 1)] * 4 + [(102, 2)] * 4 + [(103, 3)] * 4
    assert [s.player for s in run.steps[:4]] == [ANA, BO, CY, DI]
    ana = [s for s in run.steps if s.player == ANA]
    assert [s.at for s in ana] == [at(0), at(30), at(60)]
    after_first = by_hand(THREE[:1])
    assert ana[0].mu == pytest.approx(after_first[ANA][0]) and ana[0].rating == pytest.approx(
        after_first[ANA][2]
    )
    final = run.ratings[ANA]
    assert (ana[-1].mu, ana[-1].sigma) == (final.mu, final.sigma)


def test_winners_go_up_losers_down_and_a_new_player_starts_at_zero():
    run = rate_matches(THREE[:1])
    assert run.ratings[ANA].mu > 25 > run.ratings[CY].mu
    assert Rating(25.0, 25 / 3).rating == pytest.approx(0.0)


def test_a_draw_gives_equal_ranks_and_leaves_equal_teams_level():
    draw = [RatedMatch(1, at(0), ((ANA, BO), (CY, DI)), None)]
    run = rate_matches(draw)
    assert ranks(None) == [1, 1] and ranks(0) == [1, 2] and ranks(1) == [2, 1]
    assert {round(r.mu, 9) for r in run.ratings.values()} == {25.0}
    assert all(r.sigma < 25 / 3 for r in run.ratings.values())  # a result makes everyone surer
    assert run.ratings[ANA].mu == pytest.approx(by_hand(draw)[ANA][0])


def test_order_matters():
    forward, backward = rate_matches(THREE), rate_matches(THREE[::-1])
    assert forward.ratings[ANA].mu != pytest.approx(backward.ratings[ANA].mu, abs=1e-6)
    expected = by_hand(THREE[::-1])
    assert backward.ratings[ANA].mu == pytest.approx(expected[ANA][0], abs=1e-12)


def test_the_same_results_give_the_same_run():
    assert rate_matches(THREE) == rate_matches(list(THREE))


def test_a_match_with_one_person_at_two_seats_is_left_out():
    merged_twice = RatedMatch(104, at(90), ((ANA, BO), (ANA, ED)), 0)  # two records of Ana, merged
    run = rate_matches([*THREE, merged_twice])
    assert run.left_out == (104,)
    assert run.ratings == rate_matches(THREE).ratings


@pytest.mark.parametrize(
    ("before", "after", "confirmation", "affected"),
    [
        (("in_progress", None, False), ("in_progress", None, False), False, False),  # a deal in play
        (("in_progress", None, False), ("finished", 0, False), False, True),  # it finished
        (("finished", 0, False), ("finished", 0, False), False, False),  # the totals corrected only
        (("finished", 0, False), ("finished", 1, False), False, True),  # the winner corrected
        (("finished", 0, False), ("in_progress", None, False), False, True),  # unfinished again
        (("in_progress", None, False), ("finished", 0, False), True, False),  # waits for confirmation
        (("finished", 0, False), ("finished", 0, True), True, True),  # confirmed: now it counts
        (("finished", 0, False), ("finished", 0, True), False, False),  # confirmation not asked
    ],
)
def test_which_changes_move_the_ratings(before, after, confirmation, affected):
    def result(status, winner, confirmed):
        return MatchResult(status=status, winner=winner, totals=(1, 2), suffered=(0, 0), confirmed=confirmed)

    assert rating_affected(result(*before), result(*after), confirmation=confirmation) is affected


def test_the_chart_draws_the_rating_and_the_band():
    svg = charts.rating_chart_svg(
        [(27.0, 8.0, 3.0), (29.0, 7.0, 8.0)], start=(25.0, 25 / 3, 0.0), chart_id="c"
    )
    assert svg.startswith("<svg") and 'aria-labelledby="c-title c-desc"' in svg
    assert 'class="band"' in svg and 'class="rating"' in svg and 'class="skill"' in svg
    assert svg.count("<circle") == 2 + 1  # a marker per match, one in the legend
    assert "from 0.0 to 8.0" in svg and "29.0 ± 7.0" in svg
    assert "style" not in svg and "<script" not in svg


def test_the_chart_of_one_point_and_of_none():
    one = charts.rating_chart_svg([(27.0, 8.0, 3.0)])
    assert "Rated matches shown: 1." in one and 'cx="380"' in one  # in the middle
    assert "<polyline" not in charts.rating_chart_svg([])


def test_the_charts_module_is_pure():
    source = (Path(__file__).resolve().parents[2] / "league" / "charts.py").read_text()
    imported = {
        (node.module or "").split(".")[0]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
    }
    assert "django" not in imported
