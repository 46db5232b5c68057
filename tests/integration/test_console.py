"""The organizer's console of the current round (issue 26): each table's state and flags, read in a
constant number of queries; the director's call from a table's sheet and its acknowledgement; the
manage page built around "what now", its sections and anchors; the next round's button saying
what it waits for."""

import time
import uuid
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Match
from tournaments import console, presence, services
from tournaments.models import Adjustment, DirectorCall, Round, Table, Tournament

pytestmark = pytest.mark.django_db

MADE_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def running(organizer, teams=4, **settings):
    settings.setdefault("deals_per_match", 6)
    name = settings.pop("name", "Friday Concours")
    t = services.tournament_create(organizer=organizer, name=name, **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t)


def in_play(organizer, teams=4, **settings):
    t = running(organizer, teams, **settings)
    rnd = services.round_start(rnd=services.round_generate(tournament=t))
    return Tournament.objects.get(pk=t.pk), rnd, list(rnd.tables.select_related("match").order_by("number"))


def tile(state, number):
    return next(t for t in state["tables"] if t["number"] == number)


def finish(match, deals=6):
    for _ in range(deals - Match.objects.get(pk=match.pk).state.get("played", 0)):
        scoring.deal_record(match=Match.objects.get(pk=match.pk), deal=MADE_0)


def tablet(client, table):
    assert client.get(reverse("tournaments:scorekeeper", args=[table.token])).status_code == 302
    return client


# The read ----------------------------------------------------------------------------------------


def test_each_state_not_started_playing_finished_decided_and_bye(organizer):
    t, rnd, tables = in_play(organizer, teams=9)  # 4 tables and a bye
    state = console.console_state(tournament=t)
    assert state["round"].pk == rnd.pk
    assert [x["state"] for x in state["tables"]] == ["not_started"] * 4 + ["bye"]
    assert tile(state, 5)["label"] == "Bye" and tile(state, 5)["teams"][1] is None
    scoring.deal_record(match=tables[0].match, deal=MADE_0)
    finish(tables[1].match)
    services.table_decide(table=tables[2], kind="forfeit", winner=0, scores=[500, 0], reason="gone")
    state = console.console_state(tournament=t)
    one = tile(state, 1)
    assert one["state"] == "playing" and one["label"].startswith("Deal 2 of 6")  # the deal in play
    assert tile(state, 2)["state"] == "finished" and tile(state, 2)["label"].startswith("Finished")
    assert tile(state, 3)["state"] == "forfeit" and "500–0" in tile(state, 3)["label"]
    assert tile(state, 4)["state"] == "not_started"
    assert state["waiting"] == [1, 4] and state["playing"] == 4
    numbers = {e.pk: e.number for e in t.entries.all()}
    assert one["teams"][0]["numbers"] == [numbers[tables[0].entry0_id]]  # each team's number


def test_a_match_to_a_target_shows_its_totals_and_the_target(organizer):
    t, _, tables = in_play(organizer, deals_per_match=0)
    scoring.deal_record(match=tables[0].match, deal=MADE_0)
    label = tile(console.console_state(tournament=t), 1)["label"]
    target = Match.objects.get(pk=tables[0].match_id).target
    assert f"of {target}" in label and "–" in label


def test_waiting_for_confirmation_and_paper(organizer):
    t, _, tables = in_play(organizer, confirmation=True)
    finish(tables[0].match)
    state = console.console_state(tournament=t)
    assert tile(state, 1)["state"] == "unconfirmed" and "confirmation" in tile(state, 1)["label"]
    assert 1 in state["waiting"]
    Adjustment.objects.create(
        tournament=t, kind=Adjustment.Kind.PAPER, table=tables[1], winner=0, scores=[700, 300], reason="paper"
    )
    two = tile(console.console_state(tournament=t), 2)
    assert two["state"] == "paper" and "700–300" in two["label"] and two["done"]


def test_a_timed_round_shows_the_totals_and_the_time_left(organizer):
    t, rnd, tables = in_play(organizer, time_limit=40)
    services.round_clock(rnd=rnd, action="start", minutes=0, table=None)
    scoring.deal_record(match=tables[0].match, deal=MADE_0)
    one = tile(console.console_state(tournament=t), 1)
    assert one["state"] == "playing" and "left" in one["label"] and 2390 <= one["left"] <= 2400
    assert console.pace_seconds(t, Round.objects.get(pk=rnd.pk)) == 40 * 60 // 6


def test_left_out_after_an_early_finish(organizer):
    t, _, _ = in_play(organizer)
    services.tournament_finish(tournament=t, reason="café closing", in_play="left_out")
    t.refresh_from_db()
    state = console.console_state(tournament=t)
    assert {x["state"] for x in state["tables"]} == {"left_out"}


def test_flags_slow_silent_unchecked_and_call(organizer, django_capture_on_commit_callbacks):
    t, rnd, tables = in_play(organizer, teams=8)
    services.tournament_deal_check(tournament=t, on=True)
    with django_capture_on_commit_callbacks(execute=True):
        scoring.deal_record(match=Match.objects.get(pk=tables[0].match_id), deal=MADE_0)
    state = console.console_state(tournament=t)
    one, two = tile(state, 1), tile(state, 2)
    assert one["flags"]["slow"] is None and not one["flags"]["silent"]  # a deal was just heard
    assert not two["flags"]["silent"]  # the round has just started: its tablet may still be opening
    assert one["flags"]["unchecked"] == [1]
    # Nothing sent for longer than twice the pace (5 min a deal): the table is slow.
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - timedelta(minutes=11))
    Match.objects.filter(pk=tables[0].match_id).update(updated_at=timezone.now() - timedelta(minutes=12))
    presence.heard(tables[0].pk, time.time() - presence.SILENT_SECONDS - 5)
    state = console.console_state(tournament=t)
    assert tile(state, 1)["flags"]["slow"] == 12 and tile(state, 2)["flags"]["slow"] == 11
    assert tile(state, 1)["flags"]["silent"]
    assert tile(state, 2)["flags"]["silent"]  # never heard, eleven minutes into the round
    services.call_create(table=tables[3])
    state = console.console_state(tournament=t)
    assert tile(state, 4)["flags"]["call"] and [c["table"] for c in state["calls"]] == [4]


@pytest.mark.parametrize("teams", [20, 80])  # 10 and 40 tables
def test_the_read_is_a_constant_number_of_queries(organizer, teams, django_assert_max_num_queries):
    t, _, tables = in_play(organizer, teams=teams)
    services.tournament_deal_check(tournament=t, on=True)
    for table in tables[::3]:
        scoring.deal_record(match=Match.objects.get(pk=table.match_id), deal=MADE_0)
    services.call_create(table=tables[1])
    services.table_decide(table=tables[2], kind="award", winner=1, scores=[0, 400], reason="x")
    t = Tournament.objects.get(pk=t.pk)
    with django_assert_max_num_queries(6):
        state = console.console_state(tournament=t)
    assert len(state["tables"]) == teams // 2


def test_the_partial_and_the_page_read_a_constant_number_of_queries(client, organizer):
    counts = []
    for teams in (20, 80):
        t, _, _ = in_play(organizer, teams=teams)
        client.force_login(organizer)
        with CaptureQueriesContext(connection) as ctx:
            answer = client.get(reverse("tournaments:console_part", args=[t.slug]), **HTMX)
        assert answer.status_code == 200
        counts.append(len(ctx))
    assert counts[0] == counts[1]


# The director's call ---------------------------------------------------------------------------


def test_the_sheet_has_the_button_at_the_table_only(client, organizer):
    _, _, tables = in_play(organizer)
    sheet = reverse("scoring:match", args=[tables[0].match_id])
    assert (
        reverse("tournaments:director_call", args=[tables[0].token]) not in client.get(sheet).content.decode()
    )
    tablet(client, tables[0])
    html = client.get(sheet).content.decode()
    assert reverse("tournaments:director_call", args=[tables[0].token]) in html
    assert 'hx-trigger="load, every 60s"' in html


def test_a_call_one_tap_silent_no_pile_up_then_acknowledged(client, organizer):
    t, _, tables = in_play(organizer)
    url = reverse("tournaments:director_call", args=[tables[1].token])
    answer = client.post(url, **HTMX)
    assert answer.status_code == 200 and "Director called" in answer.content.decode()
    client.post(url, **HTMX)
    client.post(url)  # without JavaScript: back to the sheet
    assert DirectorCall.objects.filter(table=tables[1]).count() == 1
    call = DirectorCall.objects.get()
    client.force_login(organizer)
    page = client.get(reverse("tournaments:manage", args=[t.slug])).content.decode()
    assert 'data-testid="call-2"' in page
    assert page.index('data-testid="console-calls"') < page.index('data-testid="console-tables"')
    ack = reverse("tournaments:call_acknowledge", args=[t.slug, call.pk])
    answer = client.post(ack, **HTMX)
    assert answer.status_code == 200 and 'data-testid="call-2"' not in answer.content.decode()
    call.refresh_from_db()
    assert call.acknowledged_at is not None and call.acknowledged_by == organizer
    assert "Call the director" in client.get(url).content.decode()  # the sheet's button again
    client.post(url, **HTMX)  # a new call after the acknowledgement is a new one
    assert DirectorCall.objects.filter(acknowledged_at__isnull=True).count() == 1


def test_refusals_a_bye_a_draft_round_someone_else_acknowledging(client, organizer, django_user_model):
    t = running(organizer, teams=5)
    rnd = services.round_generate(tournament=t)
    table = rnd.tables.order_by("number").first()
    answer = client.post(reverse("tournaments:director_call", args=[table.token]), **HTMX)
    assert answer.status_code == 422 and not DirectorCall.objects.exists()
    services.round_start(rnd=rnd)
    bye = rnd.tables.get(entry1__isnull=True)
    assert client.post(reverse("tournaments:director_call", args=[bye.token]), **HTMX).status_code == 422
    assert client.post(reverse("tournaments:director_call", args=["nope"]), **HTMX).status_code == 404
    call = services.call_create(table=table)
    other = django_user_model.objects.create_user(username="other", password="pw-other-12345")
    client.force_login(other)
    assert client.post(reverse("tournaments:call_acknowledge", args=[t.slug, call.pk])).status_code == 404
    assert client.get(reverse("tournaments:console", args=[t.slug])).status_code == 404
    assert client.get(reverse("tournaments:console_events", args=[t.slug])).status_code == 404
    call.refresh_from_db()
    assert call.acknowledged_at is None
    with pytest.raises(services.TournamentError):
        services.call_acknowledge(call=services.call_acknowledge(call=call))


# Live --------------------------------------------------------------------------------------------


def test_a_deal_a_call_and_an_acknowledgement_change_the_consoles_version(
    client, organizer, django_capture_on_commit_callbacks
):
    t, _, tables = in_play(organizer)
    client.force_login(organizer)
    events = reverse("tournaments:console_events", args=[t.slug])
    first = console.console_version(t.pk)
    assert "event: changed" not in client.get(events, {"v": first}).content.decode()  # nothing since
    tablet_client = tablet(type(client)(), tables[0])
    with django_capture_on_commit_callbacks(execute=True):
        answer = tablet_client.post(
            reverse("scoring:deal_create", args=[tables[0].match_id]),
            {
                "client_key": str(uuid.uuid4()),
                "maker": "0",
                "points_team": "0",
                "card_points": "90",
                "last_trick": "0",
                "version": str(Match.objects.get(pk=tables[0].match_id).version),
            },
            **HTMX,
        )
    assert answer.status_code == 200
    second = console.console_version(t.pk)
    assert second != first
    assert "event: changed" in client.get(events, {"v": first}).content.decode()
    assert presence.heard_many([tables[0].pk])  # the tablet was heard
    with django_capture_on_commit_callbacks(execute=True):
        call = services.call_create(table=tables[1])
    third = console.console_version(t.pk)
    assert third != second
    with django_capture_on_commit_callbacks(execute=True):
        services.call_acknowledge(call=call, user=organizer)
    assert console.console_version(t.pk) != third


def test_a_table_unheard_since_the_start_is_flagged_only_after_the_silent_delay(organizer):
    t, rnd, _ = in_play(organizer, teams=6)
    assert not tile(console.console_state(tournament=t), 3)["flags"]["silent"]  # the round just began
    Round.objects.filter(pk=rnd.pk).update(
        started_at=timezone.now() - timedelta(seconds=presence.SILENT_SECONDS + 5)
    )
    assert tile(console.console_state(tournament=t), 3)["flags"]["silent"]


def test_the_heartbeat_records_the_tablet(client, organizer):
    t, rnd, tables = in_play(organizer, teams=6)
    Round.objects.filter(pk=rnd.pk).update(
        started_at=timezone.now() - timedelta(seconds=presence.SILENT_SECONDS + 5)
    )
    assert tile(console.console_state(tournament=t), 3)["flags"]["silent"]
    client.get(reverse("tournaments:director_call", args=[tables[2].token]), **HTMX)
    assert not tile(console.console_state(tournament=t), 3)["flags"]["silent"]


# The manage page -------------------------------------------------------------------------------


def test_before_the_start_the_entries_come_first(client, organizer):
    t = services.tournament_create(organizer=organizer, name="Soon")
    client.force_login(organizer)
    page = client.get(reverse("tournaments:manage", args=[t.slug])).content.decode()
    assert (
        'data-testid="manage-sections"' in page and 'href="#entries"' in page and 'href="#settings"' in page
    )
    assert 'id="console"' not in page
    assert (
        page.index('id="enter"')
        < page.index('id="entries"')
        < page.index('id="settings"')
        < page.index('id="embed"')
    )
    assert page.count(' id="entries"') == 1


def test_during_a_round_the_console_comes_first_then_the_sections(client, organizer):
    t, _, _ = in_play(organizer)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:manage", args=[t.slug])).content.decode()
    order = [page.index(f'id="{s}"') for s in ("console", "rounds", "director", "entries", "settings")]
    assert order == sorted(order) and page.count(' id="entries"') == 1 and 'id="enter"' not in page
    assert 'data-testid="tile-1"' in page and reverse("tournaments:console_part", args=[t.slug]) in page
    full = client.get(reverse("tournaments:console", args=[t.slug]))
    assert full.status_code == 200 and 'data-testid="tile-2"' in full.content.decode()


@pytest.mark.parametrize(
    ("name", "anchor"),
    [("round_generate", "#rounds"), ("deal_check", "#director"), ("keep_apart", "#director")],
)
def test_after_an_action_the_page_opens_at_its_section(client, organizer, name, anchor):
    t, _, _ = in_play(organizer)
    client.force_login(organizer)
    answer = client.post(reverse(f"tournaments:{name}", args=[t.slug]), {"on": "1", "a": "x"})
    assert answer.status_code == 302 and answer["Location"].endswith(anchor)


def test_an_entry_entered_opens_the_entries_again(client, organizer):
    t = services.tournament_create(organizer=organizer, name="Soon")
    client.force_login(organizer)
    answer = client.post(
        reverse("tournaments:manage", args=[t.slug]), {"name": "Aces", "player_a": "A", "player_b": "B"}
    )
    assert answer.status_code == 302 and answer["Location"].endswith("#enter")


def test_the_next_rounds_button_says_what_it_waits_for(client, organizer):
    t, _, tables = in_play(organizer, teams=8)
    client.force_login(organizer)
    finish(tables[0].match)
    finish(tables[1].match)
    page = client.get(reverse("tournaments:manage", args=[t.slug])).content.decode()
    assert "Waiting for tables 3, 4 (2 of 4)" in page and 'data-testid="draw-waiting"' in page
    finish(tables[2].match)
    page = client.get(reverse("tournaments:manage", args=[t.slug])).content.decode()
    assert "Waiting for table 4 (1 of 4)" in page
    finish(tables[3].match)
    page = client.get(reverse("tournaments:manage", args=[t.slug])).content.decode()
    assert "Draw round 2" in page and "draw-waiting" not in page
    answer = client.post(reverse("tournaments:round_generate", args=[t.slug]))
    assert answer["Location"].endswith("#rounds") and t.rounds.count() == 2
    assert Table.objects.filter(round__number=2, round__tournament=t).exists()


def test_a_paused_clock_and_a_paper_result_replaced_by_the_deals(organizer):
    t, rnd, tables = in_play(organizer, time_limit=40)
    services.round_clock(rnd=rnd, action="start", minutes=0, table=None)
    services.round_clock(rnd=rnd, action="pause", minutes=0, table=None)
    scoring.deal_record(match=tables[0].match, deal=MADE_0)
    one = tile(console.console_state(tournament=t), 1)
    assert "clock paused" in one["label"] and one["flags"]["slow"] is None
    t2, _, tables2 = in_play(organizer, teams=4, name="Other")
    Adjustment.objects.create(
        tournament=t2, kind=Adjustment.Kind.PAPER, table=tables2[0], winner=0, scores=[700, 300], reason="p"
    )
    assert tile(console.console_state(tournament=t2), 1)["state"] == "paper"
    finish(tables2[0].match)
    assert tile(console.console_state(tournament=t2), 1)["state"] == "finished"  # the deals replace it


def test_the_cache_away_costs_a_flag_never_an_error(organizer, monkeypatch):
    t, rnd, tables = in_play(organizer)
    Round.objects.filter(pk=rnd.pk).update(
        started_at=timezone.now() - timedelta(seconds=presence.SILENT_SECONDS + 5)
    )

    def broken(*args, **kwargs):
        raise ConnectionError("cache away")

    for name in ("get_many", "set", "incr", "add", "get"):
        monkeypatch.setattr(cache, name, broken)
    presence.heard(tables[0].pk)
    presence.changed(t.pk)
    assert presence.changes(t.pk) == 0 and presence.heard_many([tables[0].pk]) == {}
    assert tile(console.console_state(tournament=t), 1)["flags"]["silent"]
