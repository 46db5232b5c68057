"""Club events through the services: a concours, a timed round, the director's decisions."""

import datetime as dt
import random
from unittest import mock

import pytest
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Match
from tournaments import clock, services
from tournaments.models import Adjustment, Round, StandingsSnapshot, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN = (
    {"maker": 0, "card_points": [90, 62], "last_trick": 0},
    {"maker": 1, "card_points": [62, 90], "last_trick": 1},
)


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def start(organizer, teams=8, **settings):
    settings.setdefault("deals_per_match", 2)
    t = services.tournament_create(organizer=organizer, name="Concours", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t)


def draw(t, user=None):
    return services.round_start(rnd=services.round_generate(tournament=t, user=user), user=user)


def pairs(rnd):
    return [(x.entry0_id, x.entry1_id) for x in rnd.tables.order_by("number")]


def rows(t):
    return StandingsSnapshot.objects.get(tournament=t).rows


# Concours ------------------------------------------------------------------------------------------


def test_a_concours_ranks_on_cumulative_points_by_default(organizer):
    t = start(organizer, format="concours", swiss_rounds=4)
    assert t.tiebreaks == ["game_points", "wins", "point_difference"]


def test_round_one_is_drawn_from_the_seed_and_can_be_made_again(organizer):
    first = start(organizer, format="concours", seed=4242)
    again = services.tournament_create(organizer=organizer, name="Again", format="concours", seed=4242)
    for entry in first.entries.order_by("pk"):
        services.entry_register(
            tournament=again, name=entry.team.name + "!", players=[f"{entry.pk}x", f"{entry.pk}y"]
        )
    again = services.tournament_start(tournament=again)
    offset = again.participants[0] - first.participants[0]
    a = pairs(services.round_generate(tournament=first))
    b = pairs(services.round_generate(tournament=again))
    assert [(x + offset, y + offset) for x, y in a] == b  # the same draw for the same seed
    assert a != [
        (first.participants[i], first.participants[i + 1]) for i in range(0, 8, 2)
    ]  # not entry order


def test_after_round_one_the_first_meet_the_first_without_rematch(organizer):
    t = start(organizer, format="concours", swiss_rounds=4, deals_per_match=1)
    rng = random.Random(7)
    for _ in range(4):
        ranking = [r["entry"] for r in rows(t)]
        rnd = draw(t)
        if rnd.number > 1:
            got = pairs(rnd)
            played = {frozenset(p) for other in t.rounds.exclude(pk=rnd.pk) for p in pairs(other)}
            assert not any(frozenset(p) in played for p in got)  # no rematch while one can be avoided
            if rnd.number == 2:  # nobody has met twice yet: strictly 1 v 2, 3 v 4 … in table order
                assert got == [(ranking[i], ranking[i + 1]) for i in range(0, 8, 2)]
        for table in rnd.tables.all():
            deal = {"maker": 0, "card_points": [rng.randrange(20, 140), 0], "last_trick": 0}
            deal["card_points"][1] = 152 - deal["card_points"][0]
            deal["maker"] = deal["last_trick"] = int(deal["card_points"][1] > deal["card_points"][0])
            scoring.deal_record(match=table.match, deal=deal)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    standings = rows(t)
    points = [r["values"]["game_points"] for r in standings]
    assert points == sorted(points, reverse=True)  # ranked on cumulative points


def test_a_concours_with_an_odd_number_gives_the_bye_to_the_lowest_ranked_once(organizer):
    t = start(organizer, teams=5, format="concours", swiss_rounds=3, deals_per_match=1, bye_game_points=100)
    byes = []
    for _ in range(3):
        ranking = [r["entry"] for r in rows(t)]  # before the draw: its bye counts at once
        rnd = draw(t)
        bye = rnd.tables.get(entry1=None).entry0_id
        eligible = [e for e in ranking if e not in byes]
        assert bye in eligible  # never a second bye while a team has had none
        if rnd.number == 2:  # no rematch is at stake yet: the lowest-ranked
            assert bye == eligible[-1]
        byes.append(bye)
        for table in rnd.tables.exclude(entry1=None):
            scoring.deal_record(match=table.match, deal=WIN[0])
    assert len(set(byes)) == 3
    by_entry = {r["entry"]: r for r in rows(t)}
    assert all(by_entry[e]["values"]["game_points"] >= 100 for e in byes)  # a bye is worth 100


# Timed rounds -------------------------------------------------------------------------------------


def timed(organizer, **settings):
    t = start(
        organizer, teams=4, format="concours", swiss_rounds=2, deals_per_match=0, time_limit=40, **settings
    )
    return t, draw(t, organizer)


def test_the_clock_starts_pauses_resumes_and_extends(organizer):
    _, rnd = timed(organizer)
    assert clock.state(rnd)["state"] == "ready"
    services.round_clock(rnd=rnd, action="start", user=organizer)
    rnd.refresh_from_db()
    state = clock.state(rnd)
    assert state["state"] == "running" and 2395 <= state["left"] <= 2400
    services.round_clock(rnd=rnd, action="pause", user=organizer)
    rnd.refresh_from_db()
    later = timezone.now() + dt.timedelta(minutes=5)
    assert clock.state(rnd, now=later)["state"] == "paused"
    assert clock.state(rnd, now=later)["left"] >= 2395  # a pause stops the time
    services.round_clock(rnd=rnd, action="resume", user=organizer)
    services.round_clock(rnd=rnd, action="extend", minutes=5, table=2, user=organizer)
    rnd.refresh_from_db()
    one, two = rnd.tables.order_by("number")
    assert (clock.ends_at(rnd, two) - clock.ends_at(rnd, one)).total_seconds() == 300
    assert rnd.history.count() >= 4  # audited


@pytest.mark.parametrize(
    ("action", "kwargs", "words"),
    [
        ("pause", {}, "not been started"),
        ("extend", {"minutes": 0}, "not been started"),
        ("start", {"table": 1}, "whole round"),
        ("wind", {}, "starts, pauses"),
    ],
)
def test_clock_mistakes_are_refused(organizer, action, kwargs, words):
    _, rnd = timed(organizer)
    with pytest.raises(services.TournamentError, match=words):
        services.round_clock(rnd=rnd, action=action, **kwargs)


def test_an_untimed_round_has_no_clock(organizer):
    t = start(organizer, teams=4)
    rnd = draw(t)
    assert clock.state(rnd) is None
    with pytest.raises(services.TournamentError, match="not timed"):
        services.round_clock(rnd=rnd, action="start")


def test_when_time_is_up_the_deal_in_play_is_the_last(organizer):
    _, rnd = timed(organizer)
    services.round_clock(rnd=rnd, action="start", user=organizer)
    first, second = rnd.tables.order_by("number")
    scoring.deal_record(match=first.match, deal=WIN[1])  # within the time
    scoring.deal_record(match=second.match, deal=WIN[0])
    first.match.refresh_from_db()
    assert first.match.status == Match.Status.IN_PROGRESS
    after = timezone.now() + dt.timedelta(minutes=41)
    with mock.patch("django.utils.timezone.now", return_value=after):
        first.refresh_from_db()
        assert first.time_is_up
        scoring.deal_record(match=first.match, deal=WIN[0])  # in play when time was called
    first.match.refresh_from_db()
    assert first.match.status == Match.Status.FINISHED
    assert first.match.options["ended_after"] == 2
    assert first.match.winner is None  # 62 + 100 each: level totals are a draw
    with pytest.raises(Exception, match="over"):
        scoring.deal_record(match=first.match, deal=WIN[0])


def test_a_table_given_more_time_plays_on(organizer):
    _, rnd = timed(organizer)
    services.round_clock(rnd=rnd, action="start", user=organizer)
    services.round_clock(rnd=rnd, action="extend", minutes=10, table=1, user=organizer)
    first, second = rnd.tables.order_by("number")
    after = timezone.now() + dt.timedelta(minutes=45)
    with mock.patch("django.utils.timezone.now", return_value=after):
        scoring.deal_record(match=first.match, deal=WIN[0])
        scoring.deal_record(match=second.match, deal=WIN[0])
    first.match.refresh_from_db()
    second.match.refresh_from_db()
    assert first.match.status == Match.Status.IN_PROGRESS  # 50 minutes at table 1
    assert second.match.status == Match.Status.FINISHED


# The director's decisions ------------------------------------------------------------------------


def test_a_penalty_takes_points_from_the_standings_and_says_so(organizer):
    t = start(organizer, teams=4, format="concours", swiss_rounds=2, deals_per_match=1)
    rnd = draw(t)
    for table in rnd.tables.all():
        scoring.deal_record(match=table.match, deal=WIN[0])
    entry = t.entries.get(pk=rnd.tables.get(number=1).entry0_id)
    before = {r["entry"]: r["values"]["game_points"] for r in rows(t)}[entry.pk]
    adjustment = services.penalty_add(
        tournament=t, entry=entry, points=162, reason="Renounce", user=organizer
    )
    row = {r["entry"]: r for r in rows(t)}[entry.pk]
    assert row["values"]["game_points"] == before - 162
    assert row["penalty"] == [162, 0]
    assert adjustment.history.first().history_user == organizer
    services.adjustment_delete(adjustment=adjustment, user=organizer)
    assert {r["entry"]: r["values"]["game_points"] for r in rows(t)}[entry.pk] == before


def test_a_forfeit_decides_the_table_with_the_organizers_score(organizer):
    t = start(organizer, teams=4, format="concours", swiss_rounds=2, deals_per_match=3)
    rnd = draw(t)
    table, other = rnd.tables.order_by("number")
    scoring.deal_record(match=table.match, deal=WIN[0])  # they had begun; then side 0 left
    services.table_decide(
        table=table,
        kind="forfeit",
        winner=1,
        scores=[0, 1100],
        reason="Not ready after 10 minutes",
        user=organizer,
    )
    for _ in range(3):
        scoring.deal_record(match=other.match, deal=WIN[0])
    by_entry = {r["entry"]: r for r in rows(t)}
    assert by_entry[table.entry1_id]["values"]["game_points"] == 1100
    assert by_entry[table.entry1_id]["won"] == 1 and by_entry[table.entry0_id]["lost"] == 1
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.FINISHED  # the decided table does not hold the round open


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"kind": "forfeit", "winner": None, "scores": [0, 0]}, "which side"),
        ({"kind": "award", "winner": 0, "scores": [10, 500]}, "lower score"),
        ({"kind": "award", "winner": 0, "scores": [1]}, "two whole numbers"),
        ({"kind": "penalty", "winner": 0, "scores": [1, 0]}, "forfeit or a match awarded"),
        ({"kind": "award", "winner": 0, "scores": [1, 0], "reason": " "}, "reason"),
    ],
)
def test_bad_decisions_are_refused_and_nothing_is_saved(organizer, kwargs, words):
    t = start(organizer, teams=4)
    table = draw(t).tables.first()
    kwargs.setdefault("reason", "x")
    with pytest.raises(services.TournamentError, match=words):
        services.table_decide(table=table, **kwargs)
    assert Adjustment.objects.count() == 0


# Late entries and pairs kept apart -------------------------------------------------------------------


def test_a_late_entry_plays_from_the_next_round_with_the_score_chosen_for_missed_rounds(organizer):
    t = start(organizer, teams=4, format="concours", swiss_rounds=3, deals_per_match=1)
    rnd = draw(t)
    for table in rnd.tables.all():
        scoring.deal_record(match=table.match, deal=WIN[0])
    late = services.entry_register_late(
        tournament=t, name="Latecomers", players=["L1", "L2"], points_per_missed_round=80, user=organizer
    )
    t.refresh_from_db()
    assert late.joined_round == 2 and late.pk in t.participants
    by_entry = {r["entry"]: r for r in rows(t)}
    assert by_entry[late.pk]["values"]["game_points"] == 80
    assert by_entry[late.pk]["penalty"] == [0, 0]  # a credit, not a penalty
    second = draw(t)
    assert late.pk in {e for pair in pairs(second) for e in pair}  # five teams: it plays or has the bye
    adjustment = Adjustment.objects.get(entry=late)
    assert adjustment.kind == Adjustment.Kind.LATE and adjustment.reason.startswith("Late entry")


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"format": "round_robin"}, "round robin"),
        ({"format": "concours", "swiss_rounds": 1}, "no round left"),
    ],
)
def test_a_late_entry_needs_a_round_to_join(organizer, settings, words):
    t = start(organizer, teams=4, deals_per_match=1, **settings)
    draw(t)
    with pytest.raises(services.TournamentError, match=words):
        services.entry_register_late(tournament=t, name="Late", players=["L1", "L2"])
    assert t.entries.count() == 4


def test_pairs_kept_apart_do_not_meet_while_the_pairing_allows(organizer):
    t = start(organizer, teams=4, format="concours", swiss_rounds=3, deals_per_match=1, seed=3)
    first_pairs = pairs(services.round_generate(tournament=Tournament.objects.get(pk=t.pk)))
    Round.objects.filter(tournament=t).delete()  # the draw again, now with a pair kept apart
    a, b = first_pairs[0]
    services.tournament_avoid(tournament=t, pairs=[[a, b]], user=organizer)
    again = pairs(services.round_generate(tournament=Tournament.objects.get(pk=t.pk)))
    assert frozenset((a, b)) not in {frozenset(p) for p in again}
    with pytest.raises(services.TournamentError, match="two different entries"):
        services.tournament_avoid(tournament=t, pairs=[[a, a]])


# Pools, then a knockout with a consolation bracket ---------------------------------------------------

CAPOT = ({"maker": 0, "card_points": [152, 0], "capot": 0}, {"maker": 1, "card_points": [0, 152], "capot": 1})


def play_out(table, side=0):
    match = table.match
    while match.status != Match.Status.FINISHED:
        scoring.deal_record(match=match, deal=CAPOT[side])
        match.refresh_from_db()


def test_pools_then_a_knockout_crossing_them_with_a_consolation_bracket(organizer):
    t = start(
        organizer, teams=8, format="pools", pool_size=4, knockout_size=4, consolation=True, deals_per_match=1
    )
    pools = {}
    for entry in t.entries.all():
        pools.setdefault(entry.pool, []).append(entry.pk)
    assert sorted(pools) == ["A", "B"] and all(len(m) == 4 for m in pools.values())
    for _ in range(3):  # a round robin of four: three rounds, both pools side by side
        rnd = draw(t)
        assert rnd.kind == Round.Kind.POOL and rnd.tables.count() == 4
        for table in rnd.tables.all():
            assert (
                pools[t.entries.get(pk=table.entry0_id).pool] == pools[t.entries.get(pk=table.entry1_id).pool]
            )
            scoring.deal_record(match=table.match, deal=WIN[0])
    standing = rows(t)
    assert [r["pool"] for r in standing] == ["A"] * 4 + ["B"] * 4
    placed = {p: [r["entry"] for r in standing if r["pool"] == p] for p in "AB"}
    semis = draw(t)
    main = [(x.entry0_id, x.entry1_id) for x in semis.tables.filter(bracket="main").order_by("number")]
    assert main == [(placed["A"][0], placed["B"][1]), (placed["B"][0], placed["A"][1])]  # A1 v B2, B1 v A2
    consolation = semis.tables.filter(bracket="consolation")
    assert {e for x in consolation for e in (x.entry0_id, x.entry1_id)} == {
        *placed["A"][2:],
        *placed["B"][2:],
    }
    for table in semis.tables.all():
        play_out(table)
    final = draw(t)
    assert sorted(final.tables.values_list("bracket", flat=True)) == ["consolation", "main"]
    for table in final.tables.all():
        play_out(table, side=1)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    ranking = StandingsSnapshot.objects.get(tournament=t).ranking
    assert [r["reached"] for r in ranking] == [
        "champion",
        "final",
        "semi_final",
        "semi_final",
        "consolation_champion",
        "consolation_final",
        "consolation_semi_final",
        "consolation_semi_final",
    ]


def test_pools_must_feed_the_knockout_evenly(organizer):
    t = services.tournament_create(
        organizer=organizer, name="Pools", format="pools", pool_size=3, knockout_size=4
    )
    for i in range(9):
        services.entry_register(tournament=t, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    with pytest.raises(services.TournamentError, match="as many teams from each pool"):
        services.tournament_start(tournament=t)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.REGISTRATION
