"""Staying in sync without polling everything (issue 18): the lists of matches, tournaments, players
and teams read with ``updated_since``, and what is gone read from ``GET /api/v1/changes/``.

A mirror keeps the largest ``updated_at`` it has seen and asks again with it (inclusive); it drops
what the changes list. Here every object is first made old (``age``), so that what a step changes
is exactly what comes back.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from jsonschema import Draft202012Validator, FormatChecker
from rest_framework.test import APIClient

from league import ratings
from players import identity_services as identity
from players.models import Player, Team
from scoring import services as scoring
from scoring.models import Match, Removal
from tests.factories import WIN_0, WIN_1, made
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services import sync

from .conftest import round_next, round_play, tournament
from .test_schema import json_schema

pytestmark = pytest.mark.django_db

OLD = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
SINCE = "2021-01-01T00:00:00Z"  # after OLD: only what changed in the test
CHANGES = "/api/v1/changes/"
LISTS = {
    "matches": Match,
    "tournaments": Tournament,
    "players": Player,
    "teams": Team,
}


def age(at=OLD):
    """Every object changed long ago, every tombstone too."""
    for model in LISTS.values():
        model.objects.update(updated_at=at)
    Removal.objects.update(at=at)


def ids(response):
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


def changed(client, name, since=SINCE, **query):
    return ids(client.get(f"/api/v1/{name}/", {"updated_since": since, "limit": 500, **query}))


def changes(client, **query):
    response = client.get(CHANGES, {"since": SINCE, "limit": 500, **query})
    assert response.status_code == 200, response.content
    return response.json()["results"]


def gone(client, **query):
    return {(row["kind"], row["id"], row["reason"]) for row in changes(client, **query)}


def later(seconds):
    return OLD + dt.timedelta(days=400, seconds=seconds)


# The lists ------------------------------------------------------------------------------------


def some(name, organizer):
    """Three objects of that list that anonymous clients see."""
    if name == "tournaments":
        return [tournament(organizer, f"Cup {n}", [], swiss_rounds=1) for n in range(3)]
    model = LISTS[name]
    objects = model.objects.order_by("pk")
    if name == "players":
        objects = objects.filter(merged_into__isnull=True)
    return list(objects[:3])


@pytest.mark.parametrize("name", LISTS)
def test_a_list_read_with_updated_since_answers_what_changed_at_or_after_it(
    name, api, organizer, standalone, public_tournament
):
    first, second, third = some(name, organizer)
    age()
    model = LISTS[name]
    model.objects.filter(pk=first.pk).update(updated_at=later(1))
    model.objects.filter(pk=second.pk).update(updated_at=later(3))
    model.objects.filter(pk=third.pk).update(updated_at=later(2))
    client = api("anonymous")
    key = "slug" if name == "tournaments" else "id"
    found = client.get(f"/api/v1/{name}/", {"updated_since": SINCE}).json()["results"]
    assert [row[key] for row in found] == [getattr(o, key) for o in (first, third, second)]  # oldest first
    assert found[0]["updated_at"] == timezone.localtime(later(1)).isoformat()
    # Inclusive: the object changed at that very moment comes again; what did not change does not.
    since = later(2).isoformat()
    found = client.get(f"/api/v1/{name}/", {"updated_since": since}).json()["results"]
    assert [row[key] for row in found] == [getattr(o, key) for o in (third, second)]
    # Without updated_since, the list is as it always was (everything, the latest id first or by name).
    assert client.get(f"/api/v1/{name}/").json()["count"] > 3


@pytest.mark.parametrize("name", LISTS)
def test_each_object_and_its_detail_carry_updated_at(name, api, organizer, standalone, public_tournament):
    client = api("organizer")
    row = client.get(f"/api/v1/{name}/").json()["results"][0]
    key = row["slug"] if name == "tournaments" else row["id"]
    detail = client.get(f"/api/v1/{name}/{key}/").json()
    assert detail["updated_at"] == row["updated_at"] is not None


@pytest.mark.parametrize("name", ["matches", "players", "teams"])
def test_pages_follow_each_other_in_a_stable_order_even_when_an_object_changes_meanwhile(
    name, api, standalone, public_tournament
):
    model = LISTS[name]
    objects = model.objects.filter(merged_into__isnull=True) if name == "players" else model.objects
    age()
    pks = list(objects.order_by("pk").values_list("pk", flat=True))
    assert len(pks) >= 5
    # Changed in the reverse order of their ids, three at a time at the same moment: the id decides.
    stamps = {pk: later(n // 3) for n, pk in enumerate(reversed(pks))}
    for pk, at in stamps.items():
        model.objects.filter(pk=pk).update(updated_at=at)
    client = api("organizer")
    response = client.get(f"/api/v1/{name}/", {"updated_since": SINCE, "limit": 2})
    body = response.json()
    assert body["count"] == len(pks) and body["previous"] is None
    seen = [row["id"] for row in body["results"]]
    moved = seen[0]
    model.objects.filter(pk=moved).update(updated_at=later(100))  # changed while the client pages
    url = body["next"]
    while url:
        body = client.get(url).json()
        seen += [row["id"] for row in body["results"]]
        url = body["next"]
    expected = sorted(pks, key=lambda pk: (stamps[pk], pk))
    # Nothing skipped, nothing twice but the object changed meanwhile, which comes again at the end.
    assert seen == [*expected, moved]


def test_the_next_link_of_a_page_read_with_updated_since_continues_after_its_last_object(api, standalone):
    age()
    Match.objects.filter(pk=standalone.pk).update(updated_at=later(0))
    other = scoring.match_create(teams=[("X", ("x1", "x2")), ("Y", ("y1", "y2"))])
    body = api("anonymous").get("/api/v1/matches/", {"updated_since": SINCE, "limit": 1}).json()
    assert body["count"] == 2 and [row["id"] for row in body["results"]] == [standalone.pk]
    assert "offset" not in body["next"] and f"after_id={standalone.pk}" in body["next"]
    follow = api("anonymous").get(body["next"]).json()
    assert [row["id"] for row in follow["results"]] == [other.pk] and follow["next"] is None


BAD_MOMENTS = [
    "yesterday",
    "2025-13-01T00:00:00Z",
    "0001-01-01T00:00:00+01:00",  # year 0 in UTC
    "9999-12-31T23:59:59-01:00",  # year 10000 in UTC
]


@pytest.mark.parametrize("value", BAD_MOMENTS)
@pytest.mark.parametrize("path", [*(f"/api/v1/{name}/" for name in LISTS), CHANGES])
def test_a_moment_that_is_no_date_or_out_of_range_is_a_400(api, standalone, public_tournament, path, value):
    param = "since" if path == CHANGES else "updated_since"
    response = api("organizer").get(path, {param: value})
    assert response.status_code == 400, (path, value, response.status_code)


@pytest.mark.parametrize("path", [*(f"/api/v1/{name}/" for name in LISTS), CHANGES])
def test_an_offset_past_15_59_and_an_absurd_after_id_are_no_server_error(api, standalone, path):
    param = "since" if path == CHANGES else "updated_since"
    client = api("organizer")
    assert client.get(path, {param: "2020-01-01T00:00:00-16:05"}).status_code == 200
    response = client.get(path, {param: "2020-01-01T00:00:00Z", "after_id": "9" * 30})
    assert response.status_code == 400


# updated_at moves when what the API shows changes -------------------------------------------


def moved(obj) -> bool:
    return type(obj).objects.get(pk=obj.pk).updated_at > OLD


def test_a_deal_recorded_corrected_or_deleted_and_a_finish_move_the_match(standalone, scorekeeper):
    age()
    scoring.deal_record(match=standalone, deal=made(), user=scorekeeper)  # the hand-written UPDATE
    assert moved(standalone)
    for change in (
        lambda: scoring.deal_correct(deal=standalone.deals.last(), data=made(maker=1, cards=(62, 90))),
        lambda: scoring.deal_delete(deal=standalone.deals.last()),
        lambda: scoring.match_finish(match=standalone),
        lambda: scoring.match_confirm(match=standalone, team=0),
    ):
        age()
        change()
        assert moved(standalone)


def test_a_round_drawn_started_its_clock_and_its_standings_move_the_tournament(organizer):
    t = tournament(
        organizer,
        "Clock Cup",
        [(f"T{n}", (f"a{n}", f"b{n}")) for n in range(4)],
        swiss_rounds=2,
        time_limit=30,
    )
    t = services.tournament_start(tournament=t, user=organizer)
    age()
    rnd = services.round_generate(tournament=t, user=organizer)
    assert moved(t)
    age()
    services.round_swap(rnd=rnd, first=(1, 0), second=(2, 0), user=organizer)
    assert moved(t)
    age()
    rnd = services.round_start(rnd=rnd, user=organizer)
    assert moved(t)
    age()
    services.round_clock(rnd=rnd, action="start", user=organizer)
    assert moved(t)
    round_play(rnd, [WIN_0, WIN_1])
    age()
    services.standings_refresh(tournament_id=t.pk)
    assert moved(t)
    age()
    entry = t.entries.order_by("pk").first()
    services.penalty_add(tournament=t, entry=entry, points=10, reason="Late", user=organizer)
    assert moved(t)
    age()
    services.tournament_avoid(tournament=t, pairs=[], user=organizer)
    assert moved(t)


def test_an_early_finish_moves_the_tournament_and_the_matches_it_confirms(organizer):
    t = tournament(
        organizer,
        "Night",
        [(f"T{n}", (f"a{n}", f"b{n}")) for n in range(4)],
        swiss_rounds=3,
        confirmation=True,
    )
    t = services.tournament_start(tournament=t, user=organizer)
    rnd = round_next(t, organizer)
    table = rnd.tables.filter(match__isnull=False).order_by("number").first()
    scoring.deal_record(match=table.match, deal=made(), user=organizer)
    age()
    services.tournament_finish(tournament=t, reason="The café closes", user=organizer)
    assert moved(t) and moved(table.match)


def test_a_rating_run_moves_the_players_whose_rating_changed(organizer, standalone):
    teams = [(f"T{n}", (f"a{n}", f"b{n}")) for n in range(2)]
    t = tournament(organizer, "Rated", teams, swiss_rounds=1, deals_per_match=1)
    t = services.tournament_start(tournament=t, user=organizer)
    round_play(round_next(t, organizer), [WIN_0])
    age()
    ratings.ratings_refresh()
    rated = {name for name in Player.objects.filter(updated_at__gt=OLD).values_list("name", flat=True)}
    assert rated == {"a0", "b0", "a1", "b1"}  # Nikos's standalone match rates nobody
    age()
    ratings.ratings_refresh()  # nothing changed: nobody moves
    assert not Player.objects.filter(updated_at__gt=OLD).exists()


def test_a_merge_and_its_split_move_the_records_and_the_lists_show_it(api, standalone):
    survivor, absorbed = Player.objects.get(name="Giorgos"), Player.objects.get(name="Maria")
    age()
    merge = identity.player_merge(survivor=survivor, absorbed=absorbed, by=None)
    client = api("anonymous")
    assert changed(client, "players") == [survivor.pk]  # the absorbed record is no longer listed
    age()
    identity.player_split(merge=merge, by=None)
    assert sorted(changed(client, "players")) == sorted([survivor.pk, absorbed.pk])


def test_an_entry_registered_or_withdrawn_moves_its_tournament(organizer, open_tournament):
    age()
    entry = services.entry_register(tournament=open_tournament, name="Late", players=["L1", "L2"])
    assert moved(open_tournament)
    age()
    services.entry_set_status(entry=entry, status=Entry.Status.WITHDRAWN, user=organizer)
    assert moved(open_tournament)


# What is gone ---------------------------------------------------------------------------------


def test_a_deleted_deal_is_listed_with_its_match(api, standalone):
    deal = standalone.deals.order_by("position").last()
    response = api("scorekeeper").delete(f"/api/v1/matches/{standalone.pk}/deals/{deal.pk}/")
    assert response.status_code == 204
    (row,) = changes(api("anonymous"))
    assert row | {"at": None} == {
        "kind": "deal",
        "id": deal.pk,
        "reason": "deleted",
        "at": None,
        "match": standalone.pk,
        "tournament": None,
        "into": None,
        "team": None,
    }
    # Undone from the tablet: the same tombstone.
    scoring.deal_undo_last(match=standalone)
    assert len(changes(api("anonymous"))) == 2


def test_a_deleted_deal_of_a_private_tournament_is_listed_to_its_organizer_only(api, organizer):
    t = tournament(organizer, "Secret", [("S1", ("s1", "s2")), ("S2", ("s3", "s4"))], public=False)
    t = services.tournament_start(tournament=t, user=organizer)
    match = round_next(t, organizer).tables.get(match__isnull=False).match
    deal = scoring.deal_record(match=match, deal=made(), user=organizer)
    scoring.deal_delete(deal=deal, user=organizer)
    (row,) = changes(api("organizer"))
    assert (row["kind"], row["id"], row["match"], row["tournament"]) == ("deal", deal.pk, match.pk, t.slug)
    for role in ("anonymous", "player", "scorekeeper"):
        assert changes(api(role)) == []


def test_a_deleted_deal_of_a_public_tournament_is_listed_to_everyone(api, public_tournament):
    match = Match.objects.filter(table__round__tournament=public_tournament).order_by("pk").first()
    deal = match.deals.get()
    scoring.deal_delete(deal=deal)
    (row,) = changes(api("anonymous"))
    assert (row["kind"], row["id"], row["tournament"]) == ("deal", deal.pk, public_tournament.slug)


def test_a_withdrawn_entry_is_listed_with_its_team(api, organizer, public_tournament, private_tournament):
    for t in (public_tournament, private_tournament):
        entry = t.entries.order_by("pk").first()
        response = api("organizer").post(
            f"/api/v1/tournaments/{t.slug}/entries/{entry.pk}/status/", {"status": "withdrawn"}, format="json"
        )
        assert response.status_code == 200, response.content
    public_entry = public_tournament.entries.order_by("pk").first()
    (row,) = changes(api("anonymous"))
    assert (row["kind"], row["id"], row["reason"]) == ("entry", public_entry.pk, "withdrawn")
    assert (row["team"], row["tournament"]) == (public_entry.team_id, public_tournament.slug)
    assert {row["tournament"] for row in changes(api("organizer"))} == {
        public_tournament.slug,
        private_tournament.slug,
    }


def test_a_tournament_made_private_is_listed_to_everyone_who_may_no_longer_see_it(
    api, organizer, standalone, open_tournament
):
    # Sharks also play in a public tournament (the same team, picked by its players' ids): still
    # seen, so not gone; Eagles and their players were only ever in this one.
    aris, bettina = (Player.objects.get(name=name) for name in ("Aris", "Bettina"))
    services.entry_register(
        tournament=tournament(organizer, "Open", []),
        name="Sharks",
        players=["Aris", "Bettina"],
        player_ids=[aris.pk, bettina.pk],
        user=organizer,
    )
    age()
    response = api("organizer").patch(
        f"/api/v1/tournaments/{open_tournament.slug}/", {"public": False}, format="json"
    )
    assert response.status_code == 200, response.content
    eagles = Team.objects.get(name="Eagles")
    christos, danae = (Player.objects.get(name=name).pk for name in ("Christos", "Danae"))
    assert gone(api("anonymous")) == {
        ("tournament", open_tournament.pk, "private"),
        ("team", eagles.pk, "private"),
        ("player", christos, "private"),
        ("player", danae, "private"),
    }
    assert gone(api("organizer")) == set()  # the organizer still sees all of it: nothing to drop
    # Public again: nothing is gone any more, and what came back is in the lists.
    age()
    api("organizer").patch(f"/api/v1/tournaments/{open_tournament.slug}/", {"public": True}, format="json")
    assert gone(api("anonymous")) == set()
    assert eagles.pk in changed(api("anonymous"), "teams")
    assert christos in changed(api("anonymous"), "players")
    assert open_tournament.slug in [
        row["slug"]
        for row in api("anonymous").get("/api/v1/tournaments/", {"updated_since": SINCE}).json()["results"]
    ]


def test_a_started_tournament_made_private_lists_its_matches(api, organizer, public_tournament):
    matches = set(
        Match.objects.filter(table__round__tournament=public_tournament).values_list("pk", flat=True)
    )
    Tournament.objects.filter(pk=public_tournament.pk).update(public=False)
    public_tournament.public = False
    sync.visibility_changed(tournament=public_tournament, was_public=True)
    found = gone(api("anonymous"))
    assert {pk for kind, pk, _ in found if kind == "match"} == matches
    assert ("tournament", public_tournament.pk, "private") in found
    assert {kind for kind, _, _ in found} == {"tournament", "match", "team", "player"}


def test_a_player_merged_into_another_is_listed_with_the_person_it_is_now(api, standalone):
    survivor, absorbed = Player.objects.get(name="Giorgos"), Player.objects.get(name="Maria")
    earlier = Player.objects.create(name="Maria K.")
    identity.player_merge(survivor=absorbed, absorbed=earlier, by=None)
    identity.player_merge(survivor=survivor, absorbed=absorbed, by=None)
    rows = changes(api("anonymous"), kind="player")
    # Maria K. went into Maria, then both into Giorgos: each id is told where it is now.
    assert [(row["id"], row["into"], row["reason"]) for row in rows] == [
        (absorbed.pk, survivor.pk, "merged"),
        (earlier.pk, survivor.pk, "merged"),
    ]
    assert api("anonymous").get(f"/api/v1/players/{earlier.pk}/").json()["id"] == survivor.pk
    # Split: Maria is a person again (listed again, with Maria K. merged into her as before).
    identity.player_split(merge=survivor.merges_in.get(), by=None)
    rows = changes(api("anonymous"), kind="player")
    assert [(row["id"], row["into"]) for row in rows] == [(earlier.pk, absorbed.pk)]


def test_without_since_the_last_30_days_are_listed_and_pages_follow_each_other(api, standalone):
    for deal in list(standalone.deals.order_by("position"))[::-1]:
        scoring.deal_delete(deal=deal)
    Removal.objects.filter(object_id=standalone.deals.order_by("position").first().pk).update(
        at=timezone.now() - dt.timedelta(days=31)
    )
    client = api("anonymous")
    assert len(client.get(CHANGES).json()["results"]) == 2
    body = client.get(CHANGES, {"since": "2000-01-01T00:00:00Z", "limit": 1}).json()
    seen = [row["id"] for row in body["results"]]
    while body["next"]:
        assert body["previous"] is None
        body = client.get(body["next"]).json()
        seen += [row["id"] for row in body["results"]]
    assert seen == list(Removal.objects.order_by("at", "pk").values_list("object_id", flat=True))
    assert len(seen) == 3


def test_a_superuser_reads_every_removal(api, organizer, private_tournament):
    entry = private_tournament.entries.order_by("pk").first()
    services.entry_set_status(entry=entry, status=Entry.Status.WITHDRAWN, user=organizer)
    root = get_user_model().objects.create_user("root", password="pw-root-12345", is_superuser=True)
    client = APIClient()
    client.force_authenticate(root)
    assert gone(client) == {("entry", entry.pk, "withdrawn")}
    assert gone(api("anonymous")) == set()


def test_the_schema_names_the_changes_and_the_answer_is_what_it_documents(api, organizer, standalone):
    scoring.deal_delete(deal=standalone.deals.order_by("position").last())
    t = tournament(organizer, "Cup", [("P", ("p1", "p2"))])
    services.entry_set_status(entry=t.entries.get(), status=Entry.Status.WITHDRAWN, user=organizer)
    identity.player_merge(
        survivor=Player.objects.get(name="Giorgos"), absorbed=Player.objects.get(name="Maria"), by=None
    )
    schema = api("anonymous").get("/api/schema/", {"format": "json"}).json()
    change = schema["components"]["schemas"]["Change"]
    assert set(change["properties"]) == {"kind", "id", "reason", "at", "match", "tournament", "into", "team"}
    operation = schema["paths"]["/api/v1/changes/"]["get"]
    assert {"since", "after_id", "kind", "limit", "offset"} <= {p["name"] for p in operation["parameters"]}
    documented = operation["responses"]["200"]["content"]["application/json"]["schema"]
    validator = Draft202012Validator(
        {**json_schema(documented), "components": json_schema(schema["components"])},
        format_checker=FormatChecker(),
    )
    answer = api("anonymous").get(CHANGES).json()
    assert {row["kind"] for row in answer["results"]} == {"deal", "entry", "player"}
    assert [error.message for error in validator.iter_errors(answer)] == []
    for name in LISTS:
        parameters = schema["paths"][f"/api/v1/{name}/"]["get"]["parameters"]
        assert {"updated_since", "after_id"} <= {p["name"] for p in parameters}, name


# Query counts ------------------------------------------------------------------------------------


def queries(client, url, query):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, query)
    assert response.status_code == 200, response.content
    return len(captured)


def many_changes(scorekeeper, n):
    for i in range(n):
        match = scoring.match_create(teams=[(f"A{i}", (f"a{i}", f"b{i}")), (f"B{i}", (f"c{i}", f"d{i}"))])
        for _ in range(2):
            scoring.deal_record(match=match, deal=WIN_1, user=scorekeeper)
        scoring.deal_delete(deal=match.deals.last())


@pytest.mark.parametrize(
    ("url", "query"),
    [
        (CHANGES, {}),
        (CHANGES, {"since": SINCE}),
        *((f"/api/v1/{name}/", {"updated_since": SINCE}) for name in LISTS),
    ],
)
@pytest.mark.parametrize("who", ["anonymous", "organizer"])
def test_sync_reads_cost_the_same_at_any_size(api, scorekeeper, organizer, url, query, who):
    client = api(who)
    many_changes(scorekeeper, 2)
    tournament(organizer, "One", [("P", ("p1", "p2"))])
    small = queries(client, url, query)
    many_changes(scorekeeper, 6)
    tournament(organizer, "Two", [("Q", ("q1", "q2")), ("R", ("r1", "r2"))])
    assert queries(client, url, query) == small
