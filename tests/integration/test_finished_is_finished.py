"""Finished is finished, checked is checked (issue 24): a match a finished tournament left out takes
no deal, the organizer's neither; the organizer's corrections after the end keep a result counted;
a swap that makes a rematch or a second bye needs the organizer's word, and the audit keeps it; a
knockout stopped early ranks the teams still in it together; three pools cross in the knockout."""

import pytest

from scoring import engine
from scoring import services as scoring
from scoring.models import Match
from tournaments import services
from tournaments.audit import audit_page
from tournaments.models import Entry, Round, StandingsSnapshot, Table

pytestmark = pytest.mark.django_db(transaction=True)

WIN = (
    {"maker": 0, "card_points": [90, 62], "last_trick": 0},
    {"maker": 1, "card_points": [62, 90], "last_trick": 1},
)
CAPOT = ({"maker": 0, "card_points": [152, 0], "capot": 0}, {"maker": 1, "card_points": [0, 152], "capot": 1})
LEFT_OUT = "counts for nobody"


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def start(organizer, teams=4, **settings):
    settings.setdefault("deals_per_match", 3)
    settings.setdefault("swiss_rounds", 3)
    t = services.tournament_create(organizer=organizer, name="Club night", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t)


def draw(t):
    return services.round_start(rnd=services.round_generate(tournament=t))


def play(table, deals, deal=WIN[0]):
    for _ in range(deals):
        scoring.deal_record(match=table.match, deal=deal)


def win(table, side):
    match = table.match
    while match.status != Match.Status.FINISHED:
        scoring.deal_record(match=match, deal=CAPOT[side])
        match.refresh_from_db()


def rows(t):
    return {row["entry"]: row for row in StandingsSnapshot.objects.get(tournament=t).rows}


def ranking(t):
    return StandingsSnapshot.objects.get(tournament=t).ranking


def fresh(table):
    return Table.objects.select_related("match").get(pk=table.pk)


def round_two_in_play(organizer, **settings):
    """Round 1 played; round 2 started: table 1 has one deal of three, table 2 none."""
    t = start(organizer, **settings)
    for table in draw(t).tables.all():
        play(table, 3)
        if t.confirmation:
            scoring.match_confirm(match=table.match, team=1)
    rnd = draw(t)
    in_play, untouched = rnd.tables.order_by("number")
    play(in_play, 1)
    return t, in_play, untouched


# A match left out refuses deals, the organizer's too -------------------------------------------


def test_a_match_left_out_by_an_early_finish_takes_no_deal_from_the_organizer(organizer):
    t, in_play, untouched = round_two_in_play(organizer)
    services.tournament_finish(tournament=t, reason="Power cut", in_play="left_out", user=organizer)
    before = rows(t)
    in_play, untouched = fresh(in_play), fresh(untouched)
    assert in_play.left_out and untouched.left_out
    deal = in_play.match.deals.get()
    for attempt in (
        lambda: scoring.deal_record(match=in_play.match, deal=WIN[1], user=organizer),
        lambda: scoring.deal_correct(deal=deal, data=WIN[1], user=organizer),
        lambda: scoring.deal_delete(deal=deal, user=organizer),
        lambda: scoring.deal_undo_last(match=in_play.match, user=organizer),
        lambda: scoring.match_finish(match=in_play.match, user=organizer),
    ):
        with pytest.raises(engine.ScoringError, match=LEFT_OUT):
            attempt()
    match = Match.objects.get(pk=in_play.match_id)
    assert (match.status, match.version, match.deals.filter(deleted_at=None).count()) == ("in_progress", 1, 1)
    assert rows(t) == before  # still counted for nobody


def test_a_finished_tournament_starts_no_match_not_a_round_nor_a_table_not_begun(organizer):
    t, _, untouched = round_two_in_play(organizer)
    services.tournament_finish(tournament=t, reason="The café closes", in_play="totals", user=organizer)
    untouched = fresh(untouched)
    assert untouched.left_out and untouched.match.status != Match.Status.FINISHED  # no deal: out
    with pytest.raises(engine.ScoringError, match=LEFT_OUT):  # nobody begins it now
        scoring.deal_record(match=untouched.match, deal=WIN[0], user=organizer)
    with pytest.raises(services.TournamentError, match="finished"):
        services.round_generate(tournament=t, user=organizer)
    assert not untouched.match.deals.exists()
    assert list(t.rounds.values_list("number", flat=True)) == [1, 2]


def test_the_organizers_correction_still_applies_to_a_match_that_counts(organizer):
    t, in_play, _ = round_two_in_play(organizer)
    services.tournament_finish(tournament=t, reason="Late", in_play="totals", user=organizer)
    in_play = fresh(in_play)
    assert not in_play.left_out and in_play.match.winner == 0
    before = rows(t)
    scoring.deal_correct(deal=in_play.match.deals.get(), data=WIN[1], user=organizer)
    assert Match.objects.get(pk=in_play.match_id).winner == 1
    after = rows(t)
    assert after[in_play.entry1_id]["won"] == before[in_play.entry1_id]["won"] + 1
    assert after[in_play.entry0_id]["won"] == before[in_play.entry0_id]["won"] - 1


def test_with_confirmation_a_result_waiting_at_the_end_counts_and_a_correction_keeps_it_counted(organizer):
    t = start(organizer, confirmation=True)
    first = draw(t)
    for table in first.tables.all():
        play(table, 3)
        scoring.match_confirm(match=table.match, team=1)
    rnd = draw(t)
    done, in_play = rnd.tables.order_by("number")
    play(done, 3)  # finished, its confirmation still awaited when the café closes
    play(in_play, 1)
    services.tournament_finish(tournament=t, reason="Late", in_play="left_out", user=organizer)
    done = fresh(done)
    assert done.match.confirmed_at is not None and done.match.confirmed_by == organizer
    assert not done.left_out and fresh(in_play).left_out
    with pytest.raises(engine.ScoringError, match=LEFT_OUT):  # nobody confirms it into the standings
        scoring.match_confirm(match=fresh(in_play).match, team=0)
    assert rows(t)[done.entry0_id]["played"] == 2  # round 2 counts for that table
    # A deal of it was for the other team: the organizer corrects it, and the result still counts.
    scoring.deal_correct(deal=done.match.deals.order_by("position").first(), data=WIN[1], user=organizer)
    match = Match.objects.get(pk=done.match_id)
    assert match.confirmed_at is not None and match.confirmed_by == organizer
    assert rows(t)[done.entry0_id]["played"] == 2


def test_a_table_left_out_is_not_decided_after_the_end_a_decision_before_it_still_corrects(organizer):
    t, in_play, untouched = round_two_in_play(organizer)
    services.table_decide(
        table=untouched, kind="forfeit", winner=0, scores=[1100, 0], reason="Not there", user=organizer
    )
    services.tournament_finish(tournament=t, reason="Power cut", in_play="left_out", user=organizer)
    with pytest.raises(services.TournamentError, match=LEFT_OUT):
        services.table_decide(
            table=in_play, kind="award", winner=0, scores=[500, 0], reason="After the end", user=organizer
        )
    services.table_decide(
        table=untouched, kind="forfeit", winner=1, scores=[0, 1100], reason="The other side", user=organizer
    )
    assert t.adjustments.filter(table=untouched).count() == 2 and not t.adjustments.filter(table=in_play)


# A swap that makes a rematch or a second bye ---------------------------------------------------


def name(pk):
    return Entry.objects.get(pk=pk).name


def test_a_swap_that_makes_a_rematch_is_refused_with_the_teams_named_then_made_if_forced(organizer):
    t = start(organizer)
    for table in draw(t).tables.all():
        play(table, 3)
    met = {frozenset((x.entry0_id, x.entry1_id)) for x in t.rounds.get(number=1).tables.all()}
    rnd = services.round_generate(tournament=t, user=organizer)
    one, two = rnd.tables.order_by("number")
    made = frozenset((one.entry0_id, two.entry0_id))  # table 1 side B <-> table 2 side A
    assert made in met
    with pytest.raises(services.SwapRefused) as refused:
        services.round_swap(rnd=rnd, first=(1, 1), second=(2, 0), user=organizer)
    a, b = sorted((name(one.entry0_id), name(two.entry0_id)))
    said = str(refused.value)
    assert "already met in round 1" in said and a in said and b in said
    assert len(refused.value.problems) == 2  # both tables would be rematches
    assert fresh(one).entry1_id == one.entry1_id  # nothing changed
    services.round_swap(rnd=rnd, first=(1, 1), second=(2, 0), user=organizer, force=True)
    assert {fresh(one).entry0_id, fresh(one).entry1_id} == set(made)
    record = Table.history.filter(id=one.pk).order_by("-history_date").first()
    assert record.history_user == organizer and record.history_change_reason.startswith("Swapped anyway")
    audit = audit_page(tournament=t)
    assert any("Swapped anyway" in line.sentence for g in audit["groups"] for line in g["lines"])


def test_a_swap_that_gives_a_team_a_second_bye_is_refused_with_the_team_named(organizer):
    t = start(organizer, teams=5)
    first = draw(t)
    had_bye = first.tables.get(entry1=None).entry0_id
    for table in first.tables.exclude(match=None):
        play(table, 3)
    rnd = services.round_generate(tournament=t, user=organizer)
    bye = rnd.tables.get(entry1=None)
    seat = next(
        (x.number, side)
        for x in rnd.tables.exclude(entry1=None)
        for side in (0, 1)
        if (x.entry0_id, x.entry1_id)[side] == had_bye
    )
    with pytest.raises(services.SwapRefused, match="would have a second bye") as refused:
        services.round_swap(rnd=rnd, first=(bye.number, 0), second=seat, user=organizer)
    assert name(had_bye) in str(refused.value)
    assert fresh(bye).entry0_id != had_bye
    services.round_swap(rnd=rnd, first=(bye.number, 0), second=seat, user=organizer, force=True)
    assert fresh(bye).entry0_id == had_bye


def test_only_the_swap_that_makes_a_rematch_asks_the_organizers_word(organizer):
    """Of every swap between two tables of round 2, the ones that make a rematch are refused (and
    change nothing); the others are made at once, unaudited as forced."""
    t = start(organizer, teams=6)
    for table in draw(t).tables.all():
        play(table, 3)
    met = {frozenset((x.entry0_id, x.entry1_id)) for x in t.rounds.get(number=1).tables.all()}
    rnd = services.round_generate(tournament=t, user=organizer)
    outcomes = set()
    for x_number, y_number, sx, sy in [(1, 2, 0, 0), (1, 2, 0, 1), (1, 3, 1, 0), (2, 3, 1, 1)]:
        x, y = rnd.tables.get(number=x_number), rnd.tables.get(number=y_number)
        ex, ey = (x.entry0_id, x.entry1_id), (y.entry0_id, y.entry1_id)
        rematch = {frozenset((ex[1 - sx], ey[sy])), frozenset((ey[1 - sy], ex[sx]))} & met
        if rematch:
            with pytest.raises(services.SwapRefused, match="already met in round 1"):
                services.round_swap(rnd=rnd, first=(x_number, sx), second=(y_number, sy), user=organizer)
            assert (fresh(x).entry0_id, fresh(x).entry1_id) == ex
        else:
            services.round_swap(rnd=rnd, first=(x_number, sx), second=(y_number, sy), user=organizer)
            assert frozenset((fresh(x).entry0_id, fresh(x).entry1_id)) == frozenset((ex[1 - sx], ey[sy]))
        outcomes.add(bool(rematch))
    assert outcomes == {True, False}  # both kinds were tried
    assert not Table.history.filter(round_id=rnd.pk, history_change_reason__isnull=False).exists()


# A knockout finished early ranks the teams still in it together --------------------------------


def test_a_knockout_finished_early_ranks_the_teams_still_in_it_together_above_the_ones_knocked_out(organizer):
    t = start(organizer, teams=8, swiss_rounds=2, deals_per_match=1, knockout_size=4)
    for _ in range(2):
        for table in draw(t).tables.all():
            play(table, 1)
    semis = draw(t)
    assert semis.kind == Round.Kind.KNOCKOUT
    decided, open_ = semis.tables.order_by("number")
    win(decided, 1)
    decided = fresh(decided)
    winner, loser = decided.entry1_id, decided.entry0_id
    services.tournament_finish(tournament=t, reason="The café closes", in_play="left_out", user=organizer)
    placed = ranking(t)
    still_in = {winner, open_.entry0_id, open_.entry1_id}
    assert {r["entry"] for r in placed[:3]} == still_in
    assert [r["rank"] for r in placed[:3]] == [1, 1, 1]
    assert (placed[3]["entry"], placed[3]["rank"], placed[3]["reached"]) == (loser, 4, "semi_final")
    assert [r["reached"] for r in placed[4:]] == ["stage"] * 4


# Three pools cross in the knockout ---------------------------------------------------------------


def test_three_pools_cross_in_the_knockouts_first_round(organizer):
    t = start(organizer, teams=9, format="pools", pool_size=3, knockout_size=6, deals_per_match=1)
    pool = dict(Entry.objects.filter(tournament=t).values_list("pk", "pool"))
    assert sorted(set(pool.values())) == ["A", "B", "C"]
    for _ in range(3):
        for table in draw(t).tables.exclude(match=None):
            play(table, 1)
    first = services.round_generate(tournament=t, user=organizer)
    assert first.kind == Round.Kind.KNOCKOUT
    pairs = [(x.entry0_id, x.entry1_id) for x in first.tables.order_by("number")]
    played = [(a, b) for a, b in pairs if b is not None]
    assert len(played) == 2 and len([p for p in pairs if p[1] is None]) == 2  # two pool winners wait
    assert all(pool[a] != pool[b] for a, b in played)
