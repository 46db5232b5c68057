"""A table's result typed from its paper sheet: counted like the same totals played, a tie a draw in a
concours and a winner in a knockout, refused where it has no place, replaced by the deals, removed,
and shown as "from the paper sheet" on the round, the team's page and the match's sheet."""

import re

import pytest
from django.urls import reverse

from scoring import services as scoring
from scoring.models import Match
from tournaments import services
from tournaments.models import Adjustment, Round, StandingsSnapshot, Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

WIN = (
    {"maker": 0, "card_points": [90, 62], "last_trick": 0},  # 100–62 to side 0
    {"maker": 1, "card_points": [62, 90], "last_trick": 1},  # 62–100 to side 1
)


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def start(organizer, *, name="Friday", teams=4, **settings):
    settings.setdefault("deals_per_match", 1)
    settings.setdefault("swiss_rounds", 2)
    t = services.tournament_create(organizer=organizer, name=name, **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"{name}{i}a", f"{name}{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def draw(t, user=None):
    return services.round_start(rnd=services.round_generate(tournament=t, user=user), user=user)


def table(t, round_number, number) -> Table:
    return Table.objects.select_related("match").get(
        round__tournament=t, round__number=round_number, number=number
    )


def standings(t):
    services.standings_refresh(tournament_id=t.pk)
    rows = StandingsSnapshot.objects.get(tournament=t).rows
    return [(r["team"], r["rank"], r["won"], r["drawn"], r["lost"], r["values"]) for r in rows]


def text(response):
    return re.sub(r"\s+", " ", response.content.decode())


# The standings ----------------------------------------------------------------------------------


def test_the_standings_count_a_paper_result_exactly_like_the_same_totals_played(organizer):
    played, paper = start(organizer, name="Played"), start(organizer, name="Paper")
    for t in (played, paper):
        draw(t, organizer)
        scoring.deal_record(match=table(t, 1, 1).match, deal=WIN[0])
    scoring.deal_record(match=table(played, 1, 2).match, deal=WIN[1])  # 62–100
    result = services.table_paper_result(table=table(paper, 1, 2), totals=[62, 100], user=organizer)
    assert result.kind == Adjustment.Kind.PAPER and result.winner == 1 and result.scores == [62, 100]
    assert result.reason == "From the paper sheet" and result.created_by == organizer

    def by_team(t):
        return [(team.removeprefix(t.name), *rest) for team, *rest in standings(t)]

    assert [row[1:] for row in standings(played)] == [row[1:] for row in standings(paper)]
    assert by_team(played) == by_team(paper)
    assert table(paper, 1, 2).match.deals.count() == 0  # a result without deals
    # The round counts the paper table as done: it is finished, and the next round can be drawn.
    assert Round.objects.get(tournament=paper, number=1).status == Round.Status.FINISHED
    assert services.round_generate(tournament=paper, user=organizer).number == 2


def test_a_tie_in_a_concours_is_a_draw_unless_the_rules_give_the_winner(organizer):
    t = start(organizer, format="concours")
    draw(t, organizer)
    level = services.table_paper_result(table=table(t, 1, 1), totals=[81, 81], user=organizer)
    assert level.winner is None
    rows = {r[0]: r for r in standings(t)}
    tied = [table(t, 1, 1).entry0.name, table(t, 1, 1).entry1.name]
    assert all(rows[name][3] == 1 for name in tied)  # one draw each
    given = services.table_paper_result(table=table(t, 1, 1), totals=[1001, 1001], winner=0, user=organizer)
    assert given.winner == 0
    assert Adjustment.objects.filter(kind=Adjustment.Kind.PAPER).count() == 1  # the new replaces the old
    rows = {r[0]: r for r in standings(t)}
    assert rows[tied[0]][2] == 1 and rows[tied[1]][4] == 1


def test_a_knockout_tie_needs_the_winner_and_the_paper_winner_goes_on(organizer):
    t = start(organizer, knockout_size=4, swiss_rounds=1)
    rnd = draw(t, organizer)
    for tb in rnd.tables.exclude(match=None):
        scoring.deal_record(match=tb.match, deal=WIN[0])
    services.standings_refresh(tournament_id=t.pk)
    semis = draw(t, organizer)
    assert semis.kind == Round.Kind.KNOCKOUT
    first, second = semis.tables.order_by("number")
    with pytest.raises(services.TournamentError, match="knockout match needs a winner"):
        services.table_paper_result(table=first, totals=[500, 500], user=organizer)
    assert not Adjustment.objects.filter(kind=Adjustment.Kind.PAPER).exists()
    services.table_paper_result(table=first, totals=[500, 500], winner=1, user=organizer)
    services.table_paper_result(table=second, totals=[1020, 700], user=organizer)
    services.standings_refresh(tournament_id=t.pk)
    final = services.round_generate(tournament=Tournament.objects.get(pk=t.pk), user=organizer)
    finalists = set(final.tables.filter(bracket=Table.Bracket.MAIN).values_list("entry0_id", "entry1_id")[0])
    assert finalists == {first.entry1_id, second.entry0_id}


# Refusals ---------------------------------------------------------------------------------------


def test_refusals_say_why_and_save_nothing(organizer):
    t = start(organizer, teams=5)
    rnd = services.round_generate(tournament=t, user=organizer)
    first = rnd.tables.order_by("number").first()
    with pytest.raises(services.TournamentError, match="Start the round first"):
        services.table_paper_result(table=first, totals=[100, 62], user=organizer)
    services.round_start(rnd=rnd, user=organizer)
    first.refresh_from_db()
    bye = rnd.tables.get(entry1__isnull=True)
    with pytest.raises(services.TournamentError, match="A bye has no match"):
        services.table_paper_result(table=bye, totals=[100, 62], user=organizer)
    for totals in ([100], [100, -1], [100, 10**9], ["100", 62], [True, 0]):
        with pytest.raises(services.TournamentError, match="two whole numbers"):
            services.table_paper_result(table=first, totals=totals, user=organizer)
    with pytest.raises(services.TournamentError, match="lower total"):
        services.table_paper_result(table=first, totals=[100, 62], winner=1, user=organizer)
    with pytest.raises(services.TournamentError, match="side 0 or 1"):
        services.table_paper_result(table=first, totals=[80, 80], winner=2, user=organizer)
    second = rnd.tables.order_by("number")[1]
    services.table_decide(
        table=second, kind="forfeit", winner=0, scores=[1000, 0], reason="Late", user=organizer
    )
    with pytest.raises(services.TournamentError, match="decided by a forfeit or a match awarded"):
        services.table_paper_result(table=second, totals=[100, 62], user=organizer)
    scoring.deal_record(match=first.match, deal=WIN[0])  # finished by its deals: they count
    with pytest.raises(services.TournamentError, match="finished by its deals"):
        services.table_paper_result(table=first, totals=[62, 100], user=organizer)
    assert not Adjustment.objects.filter(kind=Adjustment.Kind.PAPER).exists()
    with pytest.raises(services.TournamentError, match="no paper result"):
        services.table_paper_remove(table=first, user=organizer)


def test_a_left_out_table_is_refused_and_a_paper_table_is_not_left_out_at_the_end(organizer):
    t = start(organizer, teams=6)
    rnd = draw(t, organizer)
    one, two, three = rnd.tables.order_by("number")
    scoring.deal_record(match=one.match, deal=WIN[0])
    services.table_paper_result(table=two, totals=[62, 100], user=organizer)
    services.tournament_finish(tournament=t, reason="Café closing", in_play="left_out", user=organizer)
    two.refresh_from_db(), three.refresh_from_db()
    assert not two.left_out and three.left_out
    assert two.match.status != Match.Status.FINISHED  # not finished on its (empty) totals
    with pytest.raises(services.TournamentError, match="counts for nobody"):
        services.table_paper_result(table=three, totals=[100, 62], user=organizer)
    # After the end, a paper result is still corrected (as a result is).
    services.table_paper_result(table=two, totals=[100, 62], user=organizer)
    rows = {r[0]: r for r in standings(t)}
    assert rows[two.entry0.name][2] == 1 and rows[two.entry1.name][4] == 1


# Replaced by the deals, removed -----------------------------------------------------------------


def test_the_deals_replace_the_paper_result_once_they_finish_the_match(organizer):
    t = start(organizer)
    rnd = draw(t, organizer)
    first = rnd.tables.order_by("number").first()
    services.table_paper_result(table=first, totals=[62, 100], user=organizer)
    rows = {r[0]: r for r in standings(t)}
    assert rows[first.entry1.name][2] == 1  # the paper: side 1 won
    scoring.deal_record(match=first.match, deal=WIN[0])  # the tablet comes back: side 0 wins 100–62
    rows = {r[0]: r for r in standings(t)}
    assert rows[first.entry0.name][2] == 1 and rows[first.entry1.name][4] == 1
    assert rows[first.entry0.name][5]["game_points"] == 100


def test_with_confirmation_the_paper_counts_until_the_deals_are_confirmed(organizer):
    t = start(organizer, confirmation=True)
    first = draw(t, organizer).tables.order_by("number").first()
    services.table_paper_result(table=first, totals=[62, 100], user=organizer)
    scoring.deal_record(match=first.match, deal=WIN[0])  # finished, not confirmed
    rows = {r[0]: r for r in standings(t)}
    assert rows[first.entry1.name][2] == 1


def test_removing_the_paper_result_counts_the_deals_again(organizer):
    t = start(organizer)
    first = draw(t, organizer).tables.order_by("number").first()
    services.table_paper_result(table=first, totals=[62, 100], user=organizer)
    services.table_paper_remove(table=first, user=organizer)
    assert not Adjustment.objects.filter(kind=Adjustment.Kind.PAPER).exists()
    assert Adjustment.history.filter(kind=Adjustment.Kind.PAPER, history_type="-").count() == 1
    rows = {r[0]: r for r in standings(t)}
    assert rows[first.entry1.name][2] == 0 and rows[first.entry1.name][1] == 1  # nothing counted yet


# The pages --------------------------------------------------------------------------------------


def test_the_organizer_types_the_totals_on_the_page(client, organizer):
    t = start(organizer)
    first = draw(t, organizer).tables.order_by("number").first()
    client.force_login(organizer)
    url = reverse("tournaments:table_paper", args=[t.slug, 1, first.number])
    page = text(client.get(url))
    assert first.entry0.name in page and first.entry1.name in page
    assert 'inputmode="numeric"' in page and 'value="From the paper sheet"' in page
    bad = client.post(url, {"total0": "abc", "total1": "62", "reason": "x"})
    assert bad.status_code == 422
    wrong = client.post(url, {"total0": "100", "total1": "62", "winner": "1", "reason": ""})
    assert wrong.status_code == 422 and "lower total" in text(wrong)
    assert not Adjustment.objects.filter(kind=Adjustment.Kind.PAPER).exists()
    saved = client.post(url, {"total0": "1012", "total1": "874", "winner": "", "reason": "Battery"})
    assert saved.status_code == 302 and saved["Location"].endswith(
        reverse("tournaments:manage", args=[t.slug]) + "#console"
    )
    paper = Adjustment.objects.get(kind=Adjustment.Kind.PAPER)
    assert paper.scores == [1012, 874] and paper.winner == 0 and paper.reason == "Battery"
    again = text(client.get(url))
    assert 'data-testid="paper-current"' in again and "1012–874" in again
    removed = client.post(url, {"action": "remove"})
    assert removed.status_code == 302 and not Adjustment.objects.filter(kind=Adjustment.Kind.PAPER).exists()


def test_only_the_organizer_reaches_the_page(client, organizer, django_user_model):
    t = start(organizer)
    draw(t, organizer)
    url = reverse("tournaments:table_paper", args=[t.slug, 1, 1])
    assert client.get(url).status_code == 302  # to the login
    client.force_login(django_user_model.objects.create_user(username="other", password="pw-other-12345"))
    assert client.get(url).status_code == 404
    assert client.post(url, {"total0": "1", "total1": "0"}).status_code == 404
    assert not Adjustment.objects.exists()


def test_shown_from_the_paper_sheet_on_the_round_the_team_page_and_the_sheet(client, organizer):
    t = start(organizer)
    first = draw(t, organizer).tables.order_by("number").first()
    services.table_paper_result(table=first, totals=[1012, 874], user=organizer)
    round_page = text(client.get(reverse("tournaments:round", args=[t.slug, 1])))
    assert 'data-testid="paper"' in round_page and "From the paper sheet" in round_page
    assert "1012–874" in round_page
    team = text(client.get(reverse("tournaments:entry", args=[t.slug, first.entry1_id])))
    assert "874–1012" in team and 'data-testid="paper"' in team and "from the paper sheet" in team
    sheet = text(client.get(reverse("scoring:match", args=[first.match_id])))
    assert 'data-testid="paper-result"' in sheet and "Result from the paper sheet: 1012–874" in sheet
    scoring.deal_record(match=first.match, deal=WIN[0])  # replaced by the deals
    round_page = text(client.get(reverse("tournaments:round", args=[t.slug, 1])))
    assert 'data-testid="paper-replaced"' in round_page
    team = text(client.get(reverse("tournaments:entry", args=[t.slug, first.entry1_id])))
    assert "62–100" in team and "from the paper sheet" not in team
    sheet = text(client.get(reverse("scoring:match", args=[first.match_id])))
    assert 'data-testid="paper-result"' not in sheet


def test_the_big_screen_shows_the_paper_result_marked(client, organizer):
    t = start(organizer)
    first = draw(t, organizer).tables.order_by("number").first()
    services.table_paper_result(table=first, totals=[1012, 874], user=organizer)
    data = client.get(reverse("tournaments:screen_data", args=[t.slug])).json()
    shown = data["round"]["tables"][0]
    assert shown["score"] == [1012, 874] and shown["paper"] is True and shown["finished"] is True
    assert data["round"]["tables"][1].get("paper") is not True
    screen = text(client.get(reverse("tournaments:screen", args=[t.slug])))
    assert 'title="From the paper sheet"' in screen and "1012–874" in screen
