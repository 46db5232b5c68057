"""The end of an event: a knockout that finishes, the final ranking, an early finish, read-only after."""

import pytest

from scoring import services as scoring
from scoring.models import Match
from tournaments import services
from tournaments.models import Round, StandingsSnapshot, Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN = (
    {"maker": 0, "card_points": [90, 62], "last_trick": 0},
    {"maker": 1, "card_points": [62, 90], "last_trick": 1},
)
CAPOT = ({"maker": 0, "card_points": [152, 0], "capot": 0}, {"maker": 1, "card_points": [0, 152], "capot": 1})


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def start(organizer, teams=8, **settings):
    settings.setdefault("deals_per_match", 1)
    settings.setdefault("swiss_rounds", 2)
    t = services.tournament_create(organizer=organizer, name="Club night", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t)


def draw(t, user=None):
    rnd = services.round_generate(tournament=t, user=user)
    return services.round_start(rnd=rnd, user=user)


def play_stage(t):
    """Every stage round, the team listed first winning its one deal."""
    for _ in range(t.swiss_rounds):
        rnd = draw(t)
        for table in rnd.tables.exclude(match=None):
            scoring.deal_record(match=table.match, deal=WIN[0])


def win(table: Table, side: int) -> None:
    """Play capots for ``side`` until the knockout match at ``table`` is over."""
    match = table.match
    while match.status != Match.Status.FINISHED:
        scoring.deal_record(match=match, deal=CAPOT[side])
        match.refresh_from_db()


def play_knockout_round(t, side=lambda table: 0):
    rnd = draw(t)
    for table in rnd.tables.exclude(match=None).order_by("number"):
        win(table, side(table))
    return rnd


def winner(table):
    table.refresh_from_db()
    return (table.entry0_id, table.entry1_id)[table.match.winner]


def loser(table):
    table.refresh_from_db()
    return (table.entry1_id, table.entry0_id)[table.match.winner]


def ranking(t):
    return StandingsSnapshot.objects.get(tournament=t).ranking


def stage_order(t):
    return [row["entry"] for row in StandingsSnapshot.objects.get(tournament=t).rows]


def status(t):
    t.refresh_from_db()
    return t.status


def test_a_knockout_of_four_finishes_with_its_final_and_ranks_every_team(organizer):
    t = start(organizer, teams=8, knockout_size=4)
    play_stage(t)
    stage = stage_order(t)
    semis = play_knockout_round(t, side=lambda table: 1)  # the lower seeds win both semis
    assert status(t) == Tournament.Status.RUNNING
    final = play_knockout_round(t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.finished_at is not None
    assert final.tables.count() == 1  # no match for third place was asked for
    champion, finalist = winner(final.tables.get()), loser(final.tables.get())
    rows = ranking(t)
    assert [r["entry"] for r in rows[:2]] == [champion, finalist]
    assert [r["reached"] for r in rows[:4]] == ["champion", "final", "semi_final", "semi_final"]
    semi_losers = {loser(table) for table in semis.tables.all()}
    assert {r["entry"] for r in rows[2:4]} == semi_losers
    assert [r["rank"] for r in rows[:4]] == [1, 2, 3, 3]
    assert [r["entry"] for r in rows[2:4]] == [e for e in stage if e in semi_losers]  # stage order
    assert [r["entry"] for r in rows[4:]] == stage[4:]  # the others, as the stage left them
    assert [r["position"] for r in rows] == list(range(1, 9))
    with pytest.raises(services.TournamentError, match="finished"):
        services.round_generate(tournament=t)


def test_a_knockout_of_four_with_a_match_for_third_place(organizer):
    t = start(organizer, teams=8, knockout_size=4, third_place=True)
    play_stage(t)
    semis = play_knockout_round(t)
    last = draw(t)
    tables = list(last.tables.order_by("number"))
    assert [x.bracket for x in tables] == [Table.Bracket.MAIN, Table.Bracket.THIRD_PLACE]
    assert {tables[1].entry0_id, tables[1].entry1_id} == {loser(x) for x in semis.tables.all()}
    win(tables[0], 0)
    assert status(t) == Tournament.Status.RUNNING  # the match for third place is still being played
    win(tables[1], 1)
    assert status(t) == Tournament.Status.FINISHED
    rows = ranking(t)
    assert [r["entry"] for r in rows[:4]] == [
        winner(tables[0]),
        loser(tables[0]),
        winner(tables[1]),
        loser(tables[1]),
    ]
    assert [r["rank"] for r in rows[:4]] == [1, 2, 3, 4]
    assert [r["reached"] for r in rows[2:4]] == ["third_place", "fourth_place"]


@pytest.mark.parametrize("third_place", [False, True], ids=["no-third-place", "third-place"])
def test_a_knockout_of_eight_to_the_end(organizer, third_place):
    t = start(organizer, teams=10, knockout_size=8, third_place=third_place, swiss_rounds=3)
    play_stage(t)
    stage = stage_order(t)
    quarters = play_knockout_round(t)
    semis = play_knockout_round(t, side=lambda table: table.number % 2)
    final = play_knockout_round(t)
    assert final.tables.count() == (2 if third_place else 1)
    assert status(t) == Tournament.Status.FINISHED
    rows = ranking(t)
    quarter_losers = [e for e in stage if e in {loser(x) for x in quarters.tables.all()}]
    assert [r["entry"] for r in rows[4:8]] == quarter_losers
    assert [r["rank"] for r in rows[4:8]] == [5, 5, 5, 5]
    assert [r["reached"] for r in rows[4:8]] == ["quarter_final"] * 4
    assert [r["entry"] for r in rows[8:]] == stage[8:]
    semi_losers = {loser(x) for x in semis.tables.all()}
    assert {r["entry"] for r in rows[2:4]} == semi_losers
    assert [r["rank"] for r in rows[:4]] == ([1, 2, 3, 4] if third_place else [1, 2, 3, 3])


def test_without_a_knockout_the_ranking_is_the_last_standings(organizer):
    t = start(organizer, teams=6, swiss_rounds=2)
    play_stage(t)
    assert status(t) == Tournament.Status.FINISHED
    snapshot = StandingsSnapshot.objects.get(tournament=t)
    assert [r["entry"] for r in snapshot.ranking] == [r["entry"] for r in snapshot.rows]
    assert [r["rank"] for r in snapshot.ranking] == [r["rank"] for r in snapshot.rows]
    assert {r["reached"] for r in snapshot.ranking} == {"stage"}


def test_a_third_place_match_needs_a_knockout_of_four(organizer):
    with pytest.raises(services.TournamentError, match="third place"):
        services.tournament_create(organizer=organizer, name="X", knockout_size=2, third_place=True)


# Finishing early -------------------------------------------------------------------------------------


def started_round_with_a_match_in_play(organizer, **settings):
    """A Swiss of 4 teams, round 1 played, round 2 started: one match has a deal (team listed first
    ahead), the other none."""
    t = start(organizer, teams=4, swiss_rounds=3, deals_per_match=4, **settings)
    rnd = draw(t)
    for table in rnd.tables.all():
        for _ in range(4):
            scoring.deal_record(match=table.match, deal=WIN[0])
        if t.confirmation:
            scoring.match_confirm(match=table.match, team=1)
    rnd2 = draw(t)
    in_play, untouched = rnd2.tables.order_by("number")
    scoring.deal_record(match=in_play.match, deal=WIN[0])
    return t, rnd2, in_play, untouched


def test_finishing_early_on_the_totals(organizer):
    t, rnd, in_play, untouched = started_round_with_a_match_in_play(organizer)
    before = {r["entry"]: r for r in StandingsSnapshot.objects.get(tournament=t).rows}
    services.tournament_finish(tournament=t, reason="The café closes", in_play="totals", user=organizer)
    t.refresh_from_db()
    assert (t.status, t.finish_reason, t.finish_in_play) == ("finished", "The café closes", "totals")
    assert t.history.first().history_user == organizer  # audited
    in_play.match.refresh_from_db()
    untouched.match.refresh_from_db()
    assert in_play.match.status == Match.Status.FINISHED and in_play.match.winner == 0
    assert untouched.match.status != Match.Status.FINISHED  # nothing played: nothing to count
    rows = {r["entry"]: r for r in StandingsSnapshot.objects.get(tournament=t).rows}
    assert rows[in_play.entry0_id]["played"] == before[in_play.entry0_id]["played"] + 1
    assert rows[untouched.entry0_id]["played"] == before[untouched.entry0_id]["played"]
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED


def test_finishing_early_leaving_the_matches_in_play_out(organizer):
    t, _, in_play, _ = started_round_with_a_match_in_play(organizer)
    before = {r["entry"]: r["played"] for r in StandingsSnapshot.objects.get(tournament=t).rows}
    services.tournament_finish(tournament=t, reason="Power cut", in_play="left_out", user=organizer)
    in_play.match.refresh_from_db()
    assert in_play.match.status != Match.Status.FINISHED
    after = {r["entry"]: r["played"] for r in StandingsSnapshot.objects.get(tournament=t).rows}
    assert after == before
    assert [r["entry"] for r in ranking(t)] == stage_order(t)


def test_finishing_early_removes_a_round_drawn_but_not_started(organizer):
    t = start(organizer, teams=4, swiss_rounds=3)
    play_stage_round = draw(t)
    for table in play_stage_round.tables.all():
        scoring.deal_record(match=table.match, deal=WIN[0])
    services.round_generate(tournament=t)
    services.tournament_finish(tournament=t, reason="Late", user=organizer)
    assert list(t.rounds.values_list("number", flat=True)) == [1]


def test_finishing_early_with_confirmation_counts_the_matches_it_ends(organizer):
    t, _, in_play, _ = started_round_with_a_match_in_play(organizer, confirmation=True)
    services.tournament_finish(tournament=t, reason="Late", in_play="totals", user=organizer)
    in_play.match.refresh_from_db()
    assert in_play.match.confirmed_at is not None and in_play.match.confirmed_by == organizer


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"reason": "  "}, "why"),
        ({"reason": "x", "in_play": "maybe"}, "matches in play"),
    ],
    ids=["no-reason", "bad-choice"],
)
def test_an_early_finish_needs_a_reason_and_a_choice(organizer, kwargs, words):
    t = start(organizer, teams=4)
    with pytest.raises(services.TournamentError, match=words):
        services.tournament_finish(tournament=t, **kwargs)
    assert status(t) == Tournament.Status.RUNNING


def test_only_a_running_tournament_finishes_early(organizer):
    t = services.tournament_create(organizer=organizer, name="Not yet")
    with pytest.raises(services.TournamentError, match="not started"):
        services.tournament_finish(tournament=t, reason="x")
    t = start(organizer, teams=4)
    services.tournament_finish(tournament=t, reason="x")
    with pytest.raises(services.TournamentError, match="already finished"):
        services.tournament_finish(tournament=t, reason="x")


# Read-only once finished ---------------------------------------------------------------------------


def test_a_finished_tournament_refuses_draws_starts_swaps_and_entry_changes(organizer):
    t = start(organizer, teams=4, swiss_rounds=3)
    play_stage_round = draw(t)
    for table in play_stage_round.tables.all():
        scoring.deal_record(match=table.match, deal=WIN[0])
    drawn = services.round_generate(tournament=t)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)  # as if it ended now
    for attempt in (
        lambda: services.round_generate(tournament=t),
        lambda: services.round_start(rnd=drawn),
        lambda: services.round_swap(rnd=drawn, first=(1, 0), second=(2, 0)),
        lambda: services.entry_set_status(entry=t.entries.first(), status="withdrawn"),
    ):
        with pytest.raises(services.TournamentError, match="finished"):
            attempt()


def test_an_organizers_correction_after_the_end_moves_the_final_ranking(organizer):
    t = start(organizer, teams=4, knockout_size=2, swiss_rounds=1)
    play_stage(t)
    final = play_knockout_round(t)
    assert status(t) == Tournament.Status.FINISHED
    table = final.tables.get()
    champion = winner(table)
    assert ranking(t)[0]["entry"] == champion
    # Every deal was entered for the wrong team: the organizer corrects them, one by one.
    side = table.match.winner
    for deal in table.match.deals.filter(deleted_at__isnull=True).order_by("position"):
        scoring.deal_correct(deal=deal, data=CAPOT[1 - side], user=organizer)
    table.match.refresh_from_db()
    assert table.match.status == Match.Status.FINISHED and table.match.winner == 1 - side
    assert status(t) == Tournament.Status.FINISHED
    assert ranking(t)[0]["entry"] == winner(table) != champion
    assert table.match.history.first().history_user == organizer  # audited
