"""A knockout stopped early (tournaments.standings.final): the teams still in it, beaten by nobody,
share the first place above every team knocked out, as the README says."""

from tournaments.standings import KnockoutTable, final_ranking

K = KnockoutTable
STAGE8 = [(e, e) for e in range(1, 9)]  # entry n was n-th in the stage


def order(placed):
    return [(p.entry, p.rank, p.reached) for p in placed]


def test_stopped_in_the_semis_with_one_semi_decided():
    # Semis 1 v 4 (4 wins) and 2 v 3 (not decided): 4, 2 and 3 are still in, 1 is out.
    knockout = [K(3, 1, 4, 4), K(3, 2, 3, None)]
    assert order(final_ranking(STAGE8, knockout))[:5] == [
        (2, 1, "semi_final"),  # still in, in the stage's order
        (3, 1, "semi_final"),
        (4, 1, "final"),  # won its semi: the round it reached, but no place above the others in
        (1, 4, "semi_final"),  # knocked out by 4
        (5, 5, "stage"),
    ]


def test_stopped_in_the_quarters_the_losers_follow_every_team_still_in():
    quarters = [K(1, 1, 8, 1), K(1, 4, 5, None), K(1, 2, 7, 7), K(1, 3, 6, None)]
    placed = order(final_ranking(STAGE8, quarters))
    assert [(e, rank) for e, rank, _ in placed[:6]] == [(1, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1)]
    assert [(e, rank) for e, rank, _ in placed[6:]] == [(2, 7), (8, 7)]


def test_stopped_in_the_semis_after_a_bye():
    # Six teams: 1 and 2 have byes; 4 beat 5; 3 v 6 undecided; the semi 1 v 4 is decided (1).
    stage = [(e, e) for e in range(1, 7)]
    knockout = [K(2, 1, None, None), K(2, 4, 5, 4), K(2, 2, None, None), K(2, 3, 6, None), K(3, 1, 4, 1)]
    placed = order(final_ranking(stage, knockout))
    assert {e for e, rank, _ in placed if rank == 1} == {1, 2, 3, 6}
    assert [(e, rank) for e, rank, _ in placed[4:]] == [(4, 5), (5, 6)]
