"""The final ranking: the knockout's result, then the stage's order (tournaments.standings.final)."""

import pytest

from tournaments.standings import KnockoutTable, final_ranking, knockout_finished

K = KnockoutTable
STAGE8 = [(e, e) for e in range(1, 9)]  # entry n was n-th in the stage


def order(placed):
    return [(p.entry, p.rank, p.reached) for p in placed]


def test_without_a_knockout_the_stage_order_is_the_ranking_and_keeps_its_shared_ranks():
    placed = final_ranking([(4, 1), (2, 2), (3, 2), (1, 4)])
    assert order(placed) == [(4, 1, "stage"), (2, 2, "stage"), (3, 2, "stage"), (1, 4, "stage")]
    assert [p.position for p in placed] == [1, 2, 3, 4]


def test_a_knockout_of_four_then_the_rest_of_the_stage():
    # Semis 1 v 4 (4 wins), 2 v 3 (2 wins); final 4 v 2 (2 wins).
    knockout = [K(3, 1, 4, 4), K(3, 2, 3, 2), K(4, 4, 2, 2)]
    assert order(final_ranking(STAGE8, knockout)) == [
        (2, 1, "champion"),
        (4, 2, "final"),
        (1, 3, "semi_final"),  # the losing semi-finalists share third, in stage order
        (3, 3, "semi_final"),
        (5, 5, "stage"),
        (6, 6, "stage"),
        (7, 7, "stage"),
        (8, 8, "stage"),
    ]
    assert knockout_finished(knockout)


def test_the_match_for_third_place_separates_the_losing_semi_finalists():
    knockout = [K(3, 1, 4, 4), K(3, 2, 3, 2), K(4, 4, 2, 4), K(4, 1, 3, 3, bracket="third_place")]
    assert order(final_ranking(STAGE8, knockout))[:4] == [
        (4, 1, "champion"),
        (2, 2, "final"),
        (3, 3, "third_place"),  # beat the better seed
        (1, 4, "fourth_place"),
    ]


def test_a_knockout_of_eight_groups_the_quarter_final_losers_by_stage_order():
    quarters = [K(1, 1, 8, 8), K(1, 4, 5, 4), K(1, 2, 7, 2), K(1, 3, 6, 6)]
    semis = [K(2, 8, 4, 4), K(2, 2, 6, 6)]
    final = [K(3, 4, 6, 6)]
    placed = order(final_ranking(STAGE8, quarters + semis + final))
    assert placed == [
        (6, 1, "champion"),
        (4, 2, "final"),
        (2, 3, "semi_final"),
        (8, 3, "semi_final"),
        (1, 5, "quarter_final"),
        (3, 5, "quarter_final"),
        (5, 5, "quarter_final"),
        (7, 5, "quarter_final"),
    ]


def test_a_bye_counts_as_a_round_won():
    # Six teams: 1 and 2 have byes; 4 beats 5, 3 beats 6; semis 1 v 4 (1), 2 v 3 (3); final 1 v 3 (1).
    stage = [(e, e) for e in range(1, 7)]
    knockout = [
        K(2, 1, None, None),
        K(2, 4, 5, 4),
        K(2, 2, None, None),
        K(2, 3, 6, 3),
        K(3, 1, 4, 1),
        K(3, 2, 3, 3),
        K(4, 1, 3, 1),
    ]
    assert order(final_ranking(stage, knockout)) == [
        (1, 1, "champion"),
        (3, 2, "final"),
        (2, 3, "semi_final"),
        (4, 3, "semi_final"),
        (5, 5, "quarter_final"),
        (6, 5, "quarter_final"),
    ]


def test_a_knockout_stopped_before_its_final_places_the_finalists_together():
    knockout = [K(3, 1, 4, 4), K(3, 2, 3, 2)]
    placed = order(final_ranking(STAGE8, knockout))
    assert placed[:4] == [(2, 1, "final"), (4, 1, "final"), (1, 3, "semi_final"), (3, 3, "semi_final")]
    assert not knockout_finished(knockout)


def test_an_undecided_final_leaves_both_finalists_first():
    knockout = [K(3, 1, 4, 4), K(3, 2, 3, 2), K(4, 4, 2, None)]
    assert order(final_ranking(STAGE8, knockout))[:2] == [(2, 1, "final"), (4, 1, "final")]
    assert not knockout_finished(knockout)


@pytest.mark.parametrize(
    "knockout",
    [
        [],
        [K(3, 1, 4, 4), K(3, 2, 3, 2)],  # semis only
        [K(3, 1, 4, 4), K(3, 2, 3, 2), K(4, 4, 2, 2), K(4, 1, 3, None, bracket="third_place")],
    ],
    ids=["none", "semis-only", "third-place-undecided"],
)
def test_the_knockout_is_not_finished_before_its_final_and_third_place_are_decided(knockout):
    assert not knockout_finished(knockout)


def test_every_team_is_placed_once_in_positions_one_to_n():
    knockout = [K(3, 1, 4, 4), K(3, 2, 3, 2), K(4, 4, 2, 2)]
    placed = final_ranking(STAGE8, knockout)
    assert sorted(p.entry for p in placed) == list(range(1, 9))
    assert [p.position for p in placed] == list(range(1, 9))
    assert all(p.rank <= p.position for p in placed)


def test_a_consolation_bracket_ranks_its_teams_after_the_knockouts():
    knockout = [
        K(3, 1, 4, 1),
        K(3, 2, 3, 2),
        K(3, 5, 8, 8, bracket="consolation"),
        K(3, 6, 7, 6, bracket="consolation"),
        K(4, 1, 2, 1),
        K(4, 8, 6, 6, bracket="consolation"),
    ]
    assert order(final_ranking(STAGE8, knockout)) == [
        (1, 1, "champion"),
        (2, 2, "final"),
        (3, 3, "semi_final"),
        (4, 3, "semi_final"),
        (6, 5, "consolation_champion"),
        (8, 6, "consolation_final"),
        (5, 7, "consolation_semi_final"),
        (7, 7, "consolation_semi_final"),
    ]
    assert knockout_finished(knockout)
    assert not knockout_finished(knockout[:-1])  # the consolation final is still to play
