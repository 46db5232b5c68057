"""Individual events through the services: players enter alone, the movement seats them four a table
(a new partner and new opponents each round, as far as the number allows), a sit-out counts as a
bye, and each player is ranked on what their partnerships scored."""

import re
from collections import Counter, defaultdict

import pytest
from django.urls import reverse

from players.models import Player
from scoring import selectors as scoring_selectors
from scoring import services as scoring
from tests.factories import made
from tournaments import services
from tournaments.models import Entry, Round, StandingsSnapshot, Table, Tournament
from tournaments.pairing import individual as movement

pytestmark = pytest.mark.django_db

# One deal a match; the card points vary by table so that the totals differ.
DEALS = [
    made(maker=0, cards=(90, 62)),
    made(maker=1, cards=(52, 100), last_trick=1),
    made(maker=0, cards=(82, 70)),
]


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def make(organizer, players=8, rounds=3, **settings):
    settings.setdefault("deals_per_match", 1)
    settings.setdefault("seed", 2026)  # the same draw every run
    t = services.tournament_create(
        organizer=organizer, name="Whist drive", format="individual", swiss_rounds=rounds, **settings
    )
    for i in range(players):
        services.entry_register(tournament=t, name=f"P{i + 1}", players=[f"P{i + 1}"])
    return services.tournament_start(tournament=t, user=organizer)


def draw(t, user=None):
    rnd = services.round_generate(tournament=t, user=user)
    return services.round_start(rnd=rnd, user=user)


def play(rnd):
    """One deal at every table, the deal chosen by the table's number."""
    for table in rnd.tables.exclude(match=None).order_by("number"):
        scoring.deal_record(match=table.match, deal=DEALS[table.number % len(DEALS)])
    services.standings_refresh(tournament_id=rnd.tournament_id)


def seats(rnd):
    """The round as (partnerships at tables, players sitting out)."""
    tables, out = [], []
    for t in rnd.tables.order_by("number"):
        if t.is_bye:
            out.append(t.entry0_id)
            assert t.partner0_id is None and t.partner1_id is None
        else:
            tables.append(((t.entry0_id, t.partner0_id), (t.entry1_id, t.partner1_id)))
    return tables, out


def meetings(rounds):
    """How often each two players partnered, and how often they were opponents."""
    partners, opponents = Counter(), Counter()
    for tables, _ in rounds:
        for ns, ew in tables:
            partners[frozenset(ns)] += 1
            partners[frozenset(ew)] += 1
            for a in ns:
                for b in ew:
                    opponents[frozenset((a, b))] += 1
    return partners, opponents


def snapshot_rows(t):
    return {row["entry"]: row for row in StandingsSnapshot.objects.get(tournament=t).rows}


def expected_standings(t):
    """An independent count from the matches themselves: each player gets their side's total, the
    match's outcome, and a bye for each round they sat out."""
    totals = defaultdict(lambda: {"game_points": 0, "against": 0, "won": 0, "lost": 0, "drawn": 0, "byes": 0})
    for table in Table.objects.filter(round__tournament=t).select_related("match"):
        if table.is_bye:
            totals[table.entry0_id]["byes"] += 1
            continue
        match = table.match
        for side, players in enumerate(
            ((table.entry0_id, table.partner0_id), (table.entry1_id, table.partner1_id))
        ):
            for player in players:
                row = totals[player]
                row["game_points"] += match.totals[side]
                row["against"] += match.totals[1 - side]
                outcome = "drawn" if match.winner is None else ("won" if match.winner == side else "lost")
                row[outcome] += 1
    return totals


# Entries ---------------------------------------------------------------------------------------


def test_a_player_enters_alone_and_once(organizer):
    t = services.tournament_create(organizer=organizer, name="Whist drive", format="individual")
    entry = services.entry_register(tournament=t, name="Nikos", players=["Nikos"])
    assert entry.team is None and entry.player.name == "Nikos" and entry.name == "Nikos"
    again = services.entry_register(tournament=t, name="Nikos", players=["Nikos"])
    assert again.player != entry.player  # a typed name is a new person, never an existing one
    with pytest.raises(services.TournamentError, match="already entered"):
        services.entry_register(
            tournament=t, name="Nikos", players=["Nikos"], player_ids=[entry.player.pk], user=organizer
        )
    with pytest.raises(services.TournamentError, match="one player"):
        services.entry_register(tournament=t, name="Pair", players=["Eleni", "Maria"])
    with pytest.raises(services.TournamentError):  # the id picks someone of another name
        services.entry_register(
            tournament=t, name="Maria", players=["Maria"], player_ids=[entry.player.pk], user=organizer
        )
    assert Entry.objects.filter(tournament=t).count() == 2


def test_a_player_entered_only_in_a_private_individual_event_is_nobody_to_others(
    organizer, django_user_model
):
    t = services.tournament_create(
        organizer=organizer, name="Secret drive", format="individual", public=False
    )
    secret = services.entry_register(tournament=t, name="Kleio", players=["Kleio"]).player
    other = django_user_model.objects.create_user(username="other", password="pw-other-12345")
    assert secret not in scoring_selectors.visible_players(None)
    assert secret not in scoring_selectors.visible_players(other)
    assert secret in scoring_selectors.visible_players(organizer)
    elsewhere = services.tournament_create(organizer=other, name="Open drive", format="individual")
    with pytest.raises(services.TournamentError):  # an id another person may not see is unknown
        services.entry_register(
            tournament=elsewhere, name="Kleio", players=["Kleio"], player_ids=[secret.pk], user=other
        )


def test_an_existing_player_is_picked_by_id(organizer):
    eleni = Player.objects.create(name="Eleni")
    t = services.tournament_create(organizer=organizer, name="Whist drive", format="individual")
    entry = services.entry_register(
        tournament=t, name="Eleni", players=["Eleni"], player_ids=[eleni.pk], user=organizer
    )
    assert entry.player == eleni


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"knockout_size": 4}, "no knockout"),
        ({"cuts": [3]}, "no play-offs"),
        ({"tiebreaks": ["game_points", "head_to_head"]}, "head-to-head"),
        ({"tiebreaks": ["buchholz"]}, "Buchholz"),
    ],
)
def test_what_an_individual_event_cannot_have(organizer, settings, message):
    with pytest.raises(services.TournamentError, match=message):
        services.tournament_create(organizer=organizer, name="Whist drive", format="individual", **settings)
    assert not Tournament.objects.exists()


def test_an_individual_event_ranks_on_points_by_default_and_needs_four_players(organizer):
    t = services.tournament_create(organizer=organizer, name="Whist drive", format="individual")
    assert t.tiebreaks == ["game_points", "wins", "point_difference"]
    for name in ("A", "B", "C"):
        services.entry_register(tournament=t, name=name, players=[name])
    with pytest.raises(services.TournamentError, match="four players"):
        services.tournament_start(tournament=t)


# Rounds ----------------------------------------------------------------------------------------


def test_a_round_seats_two_partnerships_a_table_and_starts_their_matches(organizer):
    t = make(organizer, players=8, rounds=1)
    rnd = draw(t, organizer)
    assert rnd.kind == Round.Kind.INDIVIDUAL
    tables, out = seats(rnd)
    assert len(tables) == 2 and out == []
    names = dict(Entry.objects.filter(tournament=t).values_list("pk", "player__name"))
    for table in rnd.tables.select_related("match__team0", "match__team1", "match__seat0", "match__seat2"):
        match = table.match
        assert match.team0.name == f"{names[table.entry0_id]} & {names[table.partner0_id]}"
        assert match.team1.name == f"{names[table.entry1_id]} & {names[table.partner1_id]}"
        # the entries' own people sit at the match (no new player is made): partners face each other
        assert (match.seat0.name, match.seat2.name) == (names[table.entry0_id], names[table.partner0_id])
        assert {match.team0.player_a_id, match.team0.player_b_id} == {
            Entry.objects.get(pk=table.entry0_id).player_id,
            Entry.objects.get(pk=table.partner0_id).player_id,
        }
    assert Player.objects.count() == 8


@pytest.mark.parametrize(
    ("players", "rounds", "no_repeated_opponent"),
    [
        (8, 3, True),  # n/2 - 1 rounds: neither a partner nor an opponent repeats
        (8, 7, False),  # n - 1 rounds: every two players partner exactly once
        (12, 4, True),  # twelve players: four rounds without a repeat, not five
        (9, 3, False),  # 4t + 1: one sits out each round, a different one each time
        (10, 4, False),
    ],
)
def test_every_player_is_seated_once_a_round_and_partners_do_not_repeat(
    organizer, players, rounds, no_repeated_opponent
):
    t = make(organizer, players=players, rounds=rounds)
    played = []
    for _ in range(rounds):
        rnd = draw(t)
        tables, out = seats(rnd)
        seated = [p for ns, ew in tables for p in (*ns, *ew)]
        assert len(out) == players % 4
        assert sorted(seated + out) == sorted(t.participants)  # everyone once: at a table or out
        played.append((tables, out))
        play(rnd)
    partners, opponents = meetings(played)
    assert max(partners.values()) == 1  # no partner twice
    if no_repeated_opponent:
        assert max(opponents.values()) == 1
    if players == 8 and rounds == 7:
        assert len(partners) == 28  # every pair of the eight partnered once
        assert set(opponents.values()) == {2}  # and met twice as opponents
    sat_out = Counter(p for _, out in played for p in out)
    assert not sat_out or max(sat_out.values()) - min(sat_out.get(p, 0) for p in t.participants) <= 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    with pytest.raises(services.TournamentError, match="finished"):
        services.round_generate(tournament=t)


def test_the_rounds_are_the_movement_drawn_from_the_tournament_s_seed(organizer):
    """Nothing changed: each round is the next of the whole movement (``individual_schedule``)."""
    t = make(organizer, players=8, rounds=3)
    schedule = movement.individual_schedule(t.participants, 3, seed=t.seed)
    for planned in schedule:
        tables, out = seats(draw(t))
        want = {frozenset((frozenset(s.north_south), frozenset(s.east_west))) for s in planned.tables}
        assert {frozenset((frozenset(ns), frozenset(ew))) for ns, ew in tables} == want
        assert out == list(planned.sitting_out)
        play(t.rounds.order_by("-number").first())


def test_players_kept_apart_do_not_partner(organizer):
    t = make(organizer, players=8, rounds=3)
    first = movement.individual_schedule(t.participants, 3, seed=t.seed)[0].tables[0]
    couples = [list(first.north_south), list(first.east_west)]  # partners in round 1 if not kept apart
    services.tournament_avoid(tournament=t, pairs=couples)
    played = []
    for _ in range(3):
        rnd = draw(t)
        played.append(seats(rnd))
        play(rnd)
    partners, _ = meetings(played)
    assert not any(partners[frozenset(couple)] for couple in couples)


def test_each_player_scores_what_their_partnerships_scored(organizer):
    """Nine players, three rounds: a sit-out is a bye (its match points and game points)."""
    t = make(organizer, players=9, rounds=3, points_bye=2, bye_game_points=70)
    for _ in range(3):
        play(draw(t))
    rows = snapshot_rows(t)
    expected = expected_standings(t)
    assert set(rows) == set(t.participants)
    for entry, row in rows.items():
        want = expected[entry]
        assert row["values"]["game_points"] == want["game_points"] + 70 * want["byes"]
        assert row["values"]["points_against"] == want["against"]
        assert (row["won"], row["drawn"], row["lost"]) == (want["won"], want["drawn"], want["lost"])
        assert row["played"] == 3 - want["byes"]
        assert row["values"]["match_points"] == 2 * want["won"] + want["drawn"] + 2 * want["byes"]
        assert row["players"] == [row["team"]]
    assert sum(want["byes"] for want in expected.values()) == 3
    # ranked on cumulative points, then wins
    order = [
        (-r["values"]["game_points"], -r["values"]["wins"])
        for r in sorted(rows.values(), key=lambda r: r["rank"])
    ]
    assert order == sorted(order)


def test_a_table_decided_by_the_director_counts_for_all_four_players(organizer):
    t = make(organizer, players=8, rounds=1)
    rnd = draw(t)
    table = rnd.tables.order_by("number").first()
    services.table_decide(
        table=table, kind="forfeit", winner=1, scores=[0, 300], reason="Left early", user=organizer
    )
    play(rnd)  # both matches are played: the decision stands for the first
    rows = snapshot_rows(t)
    for entry, side in (
        (table.entry0_id, 0),
        (table.partner0_id, 0),
        (table.entry1_id, 1),
        (table.partner1_id, 1),
    ):
        row = rows[entry]
        assert (row["won"], row["lost"]) == ((0, 1) if side == 0 else (1, 0))
        assert row["values"]["game_points"] == (0, 300)[side]


def test_a_withdrawal_mid_event(organizer):
    """Nine players; one withdraws after round 1: the next rounds seat the eight others, no one sits
    out, the movement goes on from what was played (no partner repeats), and the one who left keeps
    their row, marked withdrawn."""
    t = make(organizer, players=9, rounds=3)
    first = draw(t)
    tables, out = seats(first)
    play(first)
    leaving = tables[0][0][0]
    services.entry_set_status(entry=Entry.objects.get(pk=leaving), status=Entry.Status.WITHDRAWN)
    played = [(tables, out)]
    for _ in range(2):
        rnd = draw(t)
        tables, out = seats(rnd)
        assert out == [] and len(tables) == 2
        assert leaving not in [p for ns, ew in tables for p in (*ns, *ew)]
        played.append((tables, out))
        play(rnd)
    partners, _ = meetings(played)
    assert max(partners.values()) == 1
    rows = snapshot_rows(t)
    assert rows[leaving]["withdrawn"] is True and rows[leaving]["played"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED


def test_a_late_player_joins_the_movement_and_does_not_sit_out_first(organizer):
    t = make(organizer, players=8, rounds=3)
    play(draw(t))
    late = services.entry_register_late(tournament=t, name="Late", players=["Late"], user=organizer)
    assert late.player.name == "Late" and late.joined_round == 2
    t.refresh_from_db()
    tables, out = seats(draw(t))
    assert len(tables) == 2 and len(out) == 1 and late.pk not in out  # its missed round counts as sat out
    assert late.pk in [p for ns, ew in tables for p in (*ns, *ew)]


def test_too_few_players_left_to_draw(organizer):
    t = make(organizer, players=4, rounds=2)
    play(draw(t))
    services.entry_set_status(entry=Entry.objects.get(pk=t.participants[0]), status=Entry.Status.WITHDRAWN)
    with pytest.raises(services.TournamentError, match="four players"):
        services.round_generate(tournament=t)
    assert t.rounds.count() == 1


def test_swap_two_seats_of_a_drawn_round(organizer):
    t = make(organizer, players=9, rounds=1)
    rnd = services.round_generate(tournament=t)
    before = {tb.number: tb for tb in rnd.tables.all()}
    sitting = before[3].entry0_id
    services.round_swap(rnd=rnd, first=(1, 2), second=(3, 0))  # table 1's seat C for the sit-out
    after = {tb.number: tb for tb in rnd.tables.all()}
    assert after[1].partner0_id == sitting and after[3].entry0_id == before[1].partner0_id
    with pytest.raises(services.TournamentError, match="Nobody sits there"):
        services.round_swap(rnd=rnd, first=(1, 0), second=(3, 1))
    with pytest.raises(services.TournamentError, match="seat"):
        services.round_swap(rnd=rnd, first=(1, 4), second=(2, 0))
    started = services.round_start(rnd=rnd)
    assert started.tables.exclude(match=None).count() == 2


# Pages -----------------------------------------------------------------------------------------


def test_the_pages_show_four_players_a_table_and_a_player_s_rounds(client, organizer):
    t = make(organizer, players=9, rounds=2)
    play(draw(t))
    client.force_login(organizer)
    names = dict(Entry.objects.filter(tournament=t).values_list("pk", "player__name"))
    table = Table.objects.filter(round__tournament=t, entry1__isnull=False).order_by("number").first()
    bye = Table.objects.get(round__tournament=t, entry1__isnull=True)
    four = f"{names[table.entry0_id]} &amp; {names[table.partner0_id]}"
    for page in ("round", "round_print", "round_links"):
        text = re.sub(r"<[^>]+>", "", client.get(reverse(f"tournaments:{page}", args=[t.slug, 1])).text)
        assert four in text and f"{names[table.entry1_id]} &amp; {names[table.partner1_id]}" in text, page
        assert "sits out" in text
    player = client.get(reverse("tournaments:entry", args=[t.slug, table.partner1_id])).text
    heading = re.search(r"<h1>(.*?)</h1>", player, re.S).group(1)
    assert re.sub(r"<[^>]+>", "", heading) == names[table.partner1_id]
    assert 'data-testid="player"' in heading  # linked to the player's own record
    assert names[table.entry1_id] in player  # the partner
    assert names[table.entry0_id] in player and names[table.partner0_id] in player  # the opponents
    assert "sits out" in client.get(reverse("tournaments:entry", args=[t.slug, bye.entry0_id])).text
    home = client.get(reverse("tournaments:home", args=[t.slug])).text
    assert "Players (9)" in home
    standings = client.get(reverse("tournaments:standings", args=[t.slug])).text
    assert '<th class="name">Player</th>' in standings and '<th class="name">Team</th>' not in standings
    manage = client.get(reverse("tournaments:manage", args=[t.slug])).text
    assert "Players (9)" in manage


def test_the_organizer_enters_a_player_on_the_manage_page(client, organizer):
    t = services.tournament_create(organizer=organizer, name="Whist drive", format="individual")
    client.force_login(organizer)
    page = client.get(reverse("tournaments:manage", args=[t.slug])).text
    assert "Enter a player" in page and 'name="player_b"' not in page
    client.post(reverse("tournaments:manage", args=[t.slug]), {"name": "Vaso"})
    assert Entry.objects.get(tournament=t).player.name == "Vaso"


def test_a_player_signs_up_alone(client, organizer):
    t = services.tournament_create(
        organizer=organizer, name="Whist drive", format="individual", signup_open=True
    )
    page = client.get(reverse("tournaments:signup", args=[t.slug])).text
    assert 'name="player_b"' not in page
    client.post(
        reverse("tournaments:signup", args=[t.slug]), {"name": "Toula", "contact": "toula@example.org"}
    )
    entry = Entry.objects.get(tournament=t)
    assert (entry.player.name, entry.status, entry.contact) == ("Toula", "pending", "toula@example.org")


def test_the_new_tournament_form_makes_an_individual_event_ranked_on_points(client, organizer):
    client.force_login(organizer)
    form = {
        "name": "Whist drive", "ruleset": "mpourloto", "format": "individual", "swiss_rounds": "4",
        "knockout_size": "0", "deals_per_match": "0", "points_win": "2", "points_draw": "1",
        "points_loss": "0", "points_bye": "2", "tiebreak_1": "match_points", "tiebreak_2": "head_to_head",
        "tiebreak_3": "point_difference", "tiebreak_4": "game_points", "playoff_deals": "2", "public": "on",
    }  # fmt: skip
    response = client.post(reverse("tournaments:new"), form)
    assert response.status_code == 302, response.text
    t = Tournament.objects.get()
    assert (t.format, t.swiss_rounds, t.tiebreaks) == (
        "individual",
        4,
        ["game_points", "wins", "point_difference"],
    )
    refused = client.post(reverse("tournaments:new"), {**form, "knockout_size": "4"})
    assert refused.status_code == 422 and "no knockout" in refused.text
