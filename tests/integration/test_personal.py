"""A team's and a player's own page (tournaments/personal.py): the signed links, refused when
tampered with; what the page says in each state of the evening (before the draw, drawn, playing
with its live score, a finished round, a bye, an individual event, after the event); its data view;
its queries, the same for 10 and 60 teams; the check-in slip's link."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services as scoring
from scoring.models import Match
from tournaments import personal, services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

MADE_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def event(organizer, teams=4, start=True, **settings):
    settings.setdefault("deals_per_match", 3)
    name = settings.pop("name", "Friday Concours")
    t = services.tournament_create(organizer=organizer, name=name, **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"Player {i}a", f"Player {i}b"])
    if start:
        t = services.tournament_start(tournament=t)
    return Tournament.objects.get(pk=t.pk)


def entry_of(t, name):
    return Entry.objects.select_related("team__player_a", "team__player_b").get(tournament=t, team__name=name)


def page(client, entry, player=None):
    response = client.get(personal.personal_url(None, entry, player))
    assert response.status_code == 200
    return response.content.decode()


def drawn(t):
    return services.round_generate(tournament=t)


def finish_match(match, deals=3):
    for _ in range(deals - Match.objects.get(pk=match.pk).state.get("played", 0)):
        scoring.deal_record(match=Match.objects.get(pk=match.pk), deal=MADE_0)


def table_of(rnd, entry):
    return next(t for t in rnd.tables.all() if entry.pk in (t.entry0_id, t.entry1_id))


# The links -----------------------------------------------------------------------------------


def test_tokens_name_the_entry_and_the_player_and_are_refused_when_tampered(client, organizer):
    t = event(organizer, start=False)
    e = entry_of(t, "Team 1")
    a, b = e.team.player_a, e.team.player_b
    tokens = {personal.personal_token(e), personal.personal_token(e, a), personal.personal_token(e, b)}
    assert len(tokens) == 3 and all(len(x) < 60 for x in tokens)
    assert personal.token_ids(personal.personal_token(e, b)) == (e.pk, b.pk)
    assert personal.personal_entry(personal.personal_token(e, a)) == (e, a)
    token = personal.personal_token(e)
    for bad in (
        token[:-1] + ("A" if token[-1] != "A" else "B"),
        f"{e.pk + 1}" + token[len(str(e.pk)) :],
        "x",
    ):
        assert client.get(reverse("tournaments:personal", args=[bad])).status_code == 404
        assert client.get(reverse("tournaments:personal_data", args=[bad])).status_code == 404
    # a token signed for another purpose (the same value, another salt) opens nothing
    from django.core import signing

    assert (
        client.get(reverse("tournaments:personal", args=[signing.Signer().sign(str(e.pk))])).status_code
        == 404
    )
    # another team's player in a team's token: refused
    other = entry_of(t, "Team 2").team.player_a
    forged = signing.Signer(salt=personal.SALT).sign(f"{e.pk}.{other.pk}")
    assert client.get(reverse("tournaments:personal", args=[forged])).status_code == 404


def test_failed_lookups_are_limited(client, organizer, settings):
    for _ in range(40):
        status = client.get(reverse("tournaments:personal", args=["nope"])).status_code
        if status != 404:
            break
    assert status in (403, 429)


def test_the_public_team_page_does_not_reveal_tokens(client, organizer):
    t = event(organizer)
    e = entry_of(t, "Team 1")
    html = client.get(reverse("tournaments:entry", args=[t.slug, e.pk])).content.decode()
    assert personal.personal_token(e) not in html and "/me/" not in html


def test_the_public_team_page_links_to_its_players_pages_which_anyone_may_read(client, organizer):
    t = event(organizer)
    e = Entry.objects.select_related("team").get(pk=entry_of(t, "Team 1").pk)
    html = client.get(reverse("tournaments:entry", args=[t.slug, e.pk])).content.decode()
    for player in (e.team.player_a, e.team.player_b):
        url = reverse("players:detail", args=[player.pk])
        assert f'href="{url}"' in html
        assert player.name in client.get(url).content.decode()


# The states ----------------------------------------------------------------------------------


def test_before_the_first_round(client, organizer):
    t = event(organizer, start=False)
    e = entry_of(t, "Team 1")
    html = page(client, e)
    assert "Team 1" in html and "Player 0a & Player 0b" in html
    assert "The first round is not drawn yet" in html
    # the team's page links to each player's page; a player's page names the player first
    assert personal.personal_url(None, e, e.team.player_b) in html
    html = page(client, e, e.team.player_b)
    assert html.index("Player 0b") < html.index("Team 1")
    assert 'data-testid="player-links"' not in html


def test_drawn_round_shows_the_table_side_and_opponents(client, organizer):
    t = event(organizer)
    rnd = drawn(t)
    e = entry_of(t, "Team 3")
    table = table_of(rnd, e)
    other = table.entry1 if table.entry0_id == e.pk else table.entry0
    html = page(client, e)
    assert f'data-testid="personal-table">{table.number}<' in html
    side = "A" if table.entry0_id == e.pk else "B"
    assert f"side {side}" in html
    assert other.name in html and f"{other.team.player_a.name} & {other.team.player_b.name}" in html
    assert "drawn, not started yet" in html
    state = personal.personal_state(entry=e)
    assert state["current"]["seat"] == side and not state["playing"]


def test_playing_with_the_live_score_and_the_data_view(client, organizer, django_capture_on_commit_callbacks):
    t = event(organizer)
    rnd = services.round_start(rnd=drawn(t))
    e = entry_of(t, "Team 1")
    table = table_of(rnd, e)
    url = reverse("tournaments:personal_data", args=[personal.personal_token(e)])
    first = client.get(url).json()
    assert first["playing"] is True and "Deal 1 of 3" in first["html"]
    assert client.get(url, {"v": first["version"]}).json() == {"version": first["version"], "unchanged": True}
    with django_capture_on_commit_callbacks(execute=True):  # the console's counter, told after the commit
        scoring.deal_record(match=Match.objects.get(pk=table.match_id), deal=MADE_0)
    after = client.get(url, {"v": first["version"]}).json()
    assert "unchanged" not in after and after["version"] != first["version"]
    totals = Match.objects.get(pk=table.match_id).totals
    side = 0 if table.entry0_id == e.pk else 1
    assert f"Deal 2 of 3 · <strong>{totals[side]}–{totals[1 - side]}</strong>" in after["html"]


def test_timed_round_shows_the_time_left(client, organizer):
    t = event(organizer, time_limit=40)
    rnd = services.round_start(rnd=drawn(t))
    services.round_clock(rnd=rnd, action="start")
    html = page(client, entry_of(t, "Team 1"))
    assert 'data-testid="personal-clock"' in html and "data-left=" in html
    assert "40:00" in html or "39:59" in html


def test_finished_round_shows_the_result_and_the_standing(client, organizer):
    t = event(organizer)
    rnd = services.round_start(rnd=drawn(t))
    for table in rnd.tables.exclude(match=None):
        finish_match(table.match)
    services.standings_refresh(tournament_id=t.pk)
    e = entry_of(t, "Team 1")
    table = table_of(rnd, e)
    won = table.entry0_id == e.pk  # the deals all go to side 0
    state = personal.personal_state(entry=e)
    assert state["results"][0]["outcome"] == ("won" if won else "lost")
    assert state["standing"]["rank"] in (1, 3) and state["standing"]["played"] == 1
    html = page(client, e)
    assert 'data-testid="personal-results"' in html and ("won" if won else "lost") in html
    assert "Waiting for the next round" in html and 'data-testid="personal-standing"' in html


def test_a_paper_result_shows_as_such(client, organizer):
    t = event(organizer)
    rnd = services.round_start(rnd=drawn(t))
    e = entry_of(t, "Team 1")
    table = table_of(rnd, e)
    services.table_paper_result(table=table, totals=[300, 100], reason="tablet broke")
    state = personal.personal_state(entry=e)
    row = state["results"][0]
    assert row["paper"] and row["score"] == ((300, 100) if table.entry0_id == e.pk else (100, 300))


def test_a_bye(client, organizer):
    t = event(organizer, teams=5)
    rnd = drawn(t)
    bye = rnd.tables.get(entry1__isnull=True).entry0
    html = page(client, Entry.objects.get(pk=bye.pk))
    assert 'data-testid="personal-bye"' in html and "Bye this round" in html


def test_an_individual_event_partner_opponents_and_seats(client, organizer):
    t = services.tournament_create(
        organizer=organizer,
        name="Whist drive",
        format="individual",
        swiss_rounds=2,
        deals_per_match=1,
        seed=2026,
    )
    for i in range(9):
        services.entry_register(tournament=t, name=f"P{i + 1}", players=[f"P{i + 1}"])
    t = services.tournament_start(tournament=t)
    rnd = drawn(t)
    table = rnd.tables.exclude(entry1__isnull=True).order_by("number").first()
    seat_c = Entry.objects.select_related("player").get(pk=table.partner0_id)
    state = personal.personal_state(entry=seat_c)
    cur = state["current"]
    assert (
        cur["seat"] == "C" and cur["partner"]["name"] == table.entry0.name and cur["partner"]["seat"] == "A"
    )
    assert {o["seat"] for o in cur["opponents"]} == {"B", "D"}
    html = page(client, seat_c)
    assert "seat C" in html and "Partner" in html
    out = rnd.tables.filter(entry1__isnull=True).first()
    if out is not None:
        assert "You sit out this round" in page(client, Entry.objects.get(pk=out.entry0_id))


def test_after_the_event_the_place(client, organizer):
    t = event(organizer, swiss_rounds=1)
    rnd = services.round_start(rnd=drawn(t))
    for table in rnd.tables.exclude(match=None):
        finish_match(table.match)
    services.tournament_finish(tournament=Tournament.objects.get(pk=t.pk), reason="the end")
    services.standings_refresh(tournament_id=t.pk)
    cache.clear()
    e = entry_of(t, "Team 1")
    html = page(client, e)
    assert 'data-testid="personal-final"' in html and "Place" in html and "of 4" in html
    assert 'data-testid="personal-results"' in html


def test_withdrawn(client, organizer):
    t = event(organizer)
    e = entry_of(t, "Team 2")
    services.entry_set_status(entry=e, status="withdrawn", reason="ill")
    html = page(client, Entry.objects.get(pk=e.pk))
    assert "Withdrawn from the event." in html


# The queries ---------------------------------------------------------------------------------


def queries(client, t, name):
    e = entry_of(t, name)
    token = personal.personal_token(e)
    counts = []
    for url in (
        reverse("tournaments:personal", args=[token]),
        reverse("tournaments:personal_data", args=[token]),
    ):
        client.get(url)  # warm
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts.append(len(captured))
    return counts


def played(organizer, teams, rounds=2):
    t = event(organizer, teams=teams, name=f"E{teams}", swiss_rounds=4)
    for _ in range(rounds):
        rnd = services.round_start(rnd=drawn(Tournament.objects.get(pk=t.pk)))
        for table in rnd.tables.exclude(match=None):
            finish_match(table.match)
        services.standings_refresh(tournament_id=t.pk)
    rnd = services.round_start(rnd=drawn(Tournament.objects.get(pk=t.pk)))
    scoring.deal_record(match=rnd.tables.exclude(match=None).first().match, deal=MADE_0)
    return t


def test_queries_are_the_same_for_10_and_60_teams(client, organizer):
    small, big = played(organizer, 10), played(organizer, 60)
    few, many = queries(client, small, "Team 3"), queries(client, big, "Team 3")
    assert few == many and many[0] <= 12 and many[1] <= 10


# The slip ------------------------------------------------------------------------------------


def test_the_checkin_slip_carries_the_team_link(client, organizer):
    t = event(organizer, start=False)
    client.force_login(organizer)
    html = client.get(reverse("tournaments:checkin_slips", args=[t.slug])).content.decode()
    e = entry_of(t, "Team 1")
    assert 'data-testid="slip-personal"' in html
    assert personal.personal_url(None, e) in html
    qr = client.get(reverse("tournaments:personal_qr", args=[personal.personal_token(e)]))
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"


def test_after_a_rated_event_the_rating_change(client, organizer):
    from league.ratings import ratings_refresh  # the league's (the tag lives in league/templatetags)

    t = event(organizer, swiss_rounds=1)
    rnd = services.round_start(rnd=drawn(t))
    for table in rnd.tables.exclude(match=None):
        finish_match(table.match)
    services.tournament_finish(tournament=Tournament.objects.get(pk=t.pk), reason="the end")
    services.standings_refresh(tournament_id=t.pk)
    ratings_refresh()
    cache.clear()
    e = entry_of(t, "Team 1")
    html = page(client, e, e.team.player_a)
    assert 'data-testid="personal-rating"' in html and "Player 0a: rating 0.0 →" in html
    Tournament.objects.filter(pk=t.pk).update(rated=False)
    assert 'data-testid="personal-rating"' not in page(client, e)


def test_an_individual_events_player_page_links_to_the_players_record(client, organizer):
    t = services.tournament_create(organizer=organizer, name="Whist drive", format="individual")
    services.entry_register(tournament=t, name="Rena", players=["Rena"])
    e = Entry.objects.get(tournament=t)
    html = client.get(reverse("tournaments:entry", args=[t.slug, e.pk])).content.decode()
    assert f'href="{reverse("players:detail", args=[e.player_id])}"' in html
