"""The deal path (issue 12): a deal is recorded from the match's stored state, in a few queries
whatever the match's length, and every guarantee of the README's "Trust" still holds.

- The state stored on the match (``Match.state``) is always the one a full replay of its deals
  gives, after any mix of recorded, corrected, deleted and taken-back deals and ended matches
  (a property test), and the data migration writes it for the matches there were.
- A deal POST, through the API and the tablet, costs at most ``MOST_QUERIES`` SQL queries, the same
  at deal 1 and deal 40 (counted as the server runs them: no test transaction around).
- The API's answer and the tablet's htmx answer are made from that state, and say what a full
  replay says; the tablet's answer sends only the parts a deal changes, out of band.
"""

from __future__ import annotations

import importlib
import re
import threading
import uuid

import pytest
from django.apps import apps as django_apps
from django.db import close_old_connections, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import deal_sql, engine, services
from scoring.api import IDEMPOTENCY_NAMESPACE
from scoring.models import Deal, Match
from scoring.permissions import SESSION_KEY
from scoring.signals import match_changed
from tests.factories import TEAMS, made
from tests.problems import problem
from tests.unit import test_engine_properties as mpourloto_props
from tests.unit import test_engine_rulesets_properties as rulesets_props
from tournaments import services as tournaments

MOST_QUERIES = 8
KEY_HEADER = "tablet-9-deal-1"
KEY = uuid.uuid5(IDEMPOTENCY_NAMESPACE, KEY_HEADER)  # what the API makes of that Idempotency-Key
HTMX = {"HTTP_HX_REQUEST": "true"}
WIN_0 = made()  # 100 v 62
LONG = {"target": 1_000_000}  # no match ends in these tests unless they want it to


def keeper_user(django_user_model, name="keeper"):
    user = django_user_model.objects.create_user(name, password=f"pw-{name}-12345")
    user.token = Token.objects.create(user=user).key
    return user


def api_client(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.token}")
    return client


def pad(version=None, **fields):
    """What the tablet's pad posts for team 0 making 90 + last trick against 62."""
    data = {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "card_points": "90",
            "last_trick": "0"}  # fmt: skip
    if version is not None:
        data["version"] = str(version)
    data.update({k: str(v) for k, v in fields.items()})
    return data


def replayed(match: Match) -> engine.Sheet:
    match = Match.objects.get(pk=match.pk)
    deals = [d.as_engine() for d in match.deals.filter(deleted_at__isnull=True).order_by("position")]
    return engine.replay(match.ruleset, deals, options=match.options, first_dealer=match.first_dealer)


def assert_stored_is_replayed(match: Match) -> None:
    stored = Match.objects.get(pk=match.pk)
    sheet = replayed(stored)
    assert stored.state == sheet.state.to_dict()
    assert (stored.totals, stored.status, stored.winner, stored.suffered) == (
        list(sheet.totals),
        str(sheet.status),
        sheet.winner,
        services.suffered(sheet),
    )
    assert (stored.finished_at is not None) == (sheet.status == engine.Status.FINISHED)


# The stored state is a full replay ------------------------------------------------------------

GAMES = {  # small targets, so that matches end, tie-breaks come and deals after the end are refused
    "mpourloto": ({"target": 400}, lambda options: mpourloto_props.deals(options)),
    "pilotta": ({"target": 30}, lambda options: rulesets_props.pilotta_deals(options)),
    "bulgarian": ({"target": 30}, lambda options: rulesets_props.bulgarian_deals()),
    "french": ({"target": 300}, lambda options: rulesets_props.french_deals("french")),
    "classic": ({"target": 300}, lambda options: rulesets_props.french_deals("classic")),
}
CHANGES = ["record"] * 6 + ["correct", "correct", "delete", "undo", "finish"]


@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_the_stored_state_is_a_full_replay_after_any_changes(data, django_user_model):
    """Deals recorded one step each from the stored state, corrected, deleted, taken back, the
    match ended by agreement, refusals among them: after each, the match's state, totals, status,
    winner and suffered deals are those a replay of its deals in play gives."""
    user = django_user_model.objects.get_or_create(username="property-keeper")[0]
    ruleset = data.draw(st.sampled_from(sorted(GAMES)), label="ruleset")
    options, deal_strategy = GAMES[ruleset]
    match = services.match_create(
        teams=TEAMS,
        ruleset=ruleset,
        options=options,
        first_dealer=data.draw(st.integers(0, 3)),
        created_by=user,
    )
    deals = deal_strategy(engine.get_ruleset(ruleset).spelt_out(engine.get_ruleset(ruleset).options(options)))
    for _ in range(data.draw(st.integers(1, 16), label="changes")):
        change = data.draw(st.sampled_from(CHANGES), label="change")
        active = list(match.deals.filter(deleted_at__isnull=True).order_by("position"))
        try:
            if change == "record":
                services.deal_record(match=match, deal=data.draw(deals), user=user, client_key=uuid.uuid4())
            elif change == "correct" and active:
                chosen = data.draw(st.sampled_from(active))
                services.deal_correct(deal=chosen, data=data.draw(deals), user=user)
            elif change == "delete" and active:
                services.deal_delete(deal=data.draw(st.sampled_from(active)), user=user)
            elif change == "undo":
                services.deal_undo_last(match=match, user=user)
            elif change == "finish":
                services.match_finish(match=match, user=user)
        except engine.ScoringError:
            pass  # refused: nothing changed, and the state still says so
        assert_stored_is_replayed(match)


def test_a_deal_is_scored_from_the_stored_state(match):
    """Not from a replay: a state that says otherwise (written here by hand) is the one the next
    deal goes on from. (So the property above is what keeps the two together.)"""
    services.deal_record(match=match, deal=WIN_0)
    stored = Match.objects.get(pk=match.pk)
    stored.state = {**stored.state, "totals": [500, 500]}
    stored.save()
    services.deal_record(match=stored, deal=WIN_0)
    assert Match.objects.get(pk=match.pk).totals == [600, 562]


def test_a_match_stored_without_a_state_is_replayed_once_and_then_has_one(match):
    services.deal_record(match=match, deal=WIN_0)
    Match.objects.filter(pk=match.pk).update(state={})
    services.deal_record(match=match, deal=WIN_0)
    assert_stored_is_replayed(match)
    assert Match.objects.get(pk=match.pk).state["dealt"] == 2


def test_the_migration_stores_every_matchs_state_from_its_deals(match, user):
    for deal in (WIN_0, {"thrown_in": True}, made(maker=1, cards=(62, 90), last_trick=1)):
        services.deal_record(match=match, deal=deal)
    services.deal_delete(deal=match.deals.order_by("position").first())
    empty = services.match_create(teams=TEAMS, first_dealer=2, created_by=user)
    Match.objects.update(state={})
    migration = importlib.import_module("scoring.migrations.0007_match_state")
    migration.store_states(django_apps, None)
    assert_stored_is_replayed(match)
    assert Match.objects.get(pk=empty.pk).state == engine.MatchState.start(2).to_dict()


def test_the_rows_written_by_hand_are_those_save_writes(match, user):
    """The deal path writes its rows in SQL of its own (scoring/deal_sql.py): the deal, the match
    and both history rows hold what ``save()`` and django-simple-history write, field for field."""
    recorded = services.deal_record(match=match, deal=WIN_0, client_key=uuid.uuid4(), user=user)
    stored = Match.objects.get(pk=match.pk)
    by_orm = Deal(
        match=stored, position=99, data=recorded.data, client_key=uuid.uuid4(),
        client_fingerprint=recorded.client_fingerprint, entered_by=user,
    )  # fmt: skip
    by_orm._history_user = user
    by_orm.save()
    stored._history_user = user
    stored.save()

    def rows(model, **where):
        return list(model.objects.filter(**where).order_by("pk").values())

    deal_row, orm_row = rows(Deal, match=match)
    assert deal_row == {f.attname: getattr(recorded, f.attname) for f in Deal._meta.concrete_fields}
    different = {"id", "position", "client_key", "entered_at", "updated_at"}
    assert {k: v for k, v in deal_row.items() if k not in different} == {
        k: v for k, v in orm_row.items() if k not in different
    }
    by_hand, by_library = rows(Deal.history.model, match_id=match.pk)
    apart = different | {"history_id", "history_date"}
    assert {k: v for k, v in by_hand.items() if k not in apart} == {
        k: v for k, v in by_library.items() if k not in apart
    }
    assert {k: by_hand[k] for k in different} == {k: deal_row[k] for k in different}
    assert by_hand["history_date"] >= deal_row["entered_at"]
    matches = rows(Match.history.model, id=match.pk)
    recorded_match, saved_match = matches[-2:]
    apart = {"history_id", "history_date", "updated_at"}
    assert {k: v for k, v in recorded_match.items() if k not in apart} == {
        k: v for k, v in saved_match.items() if k not in apart
    }
    assert (recorded_match["history_type"], recorded_match["history_user_id"]) == ("~", user.pk)


@pytest.mark.django_db(transaction=True)
def test_locking_the_match_needs_the_callers_transaction(user):
    match = services.match_create(teams=TEAMS, created_by=user)
    with pytest.raises(transaction.TransactionManagementError):
        services.match_lock(pk=match.pk)


# A deal in a few queries, whatever the match's length ----------------------------------------


TRANSACTION = re.compile(r"^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT)\b")


def count(post) -> tuple[int, object]:
    """The SQL queries a request runs; its transaction control (which SQLite logs and PostgreSQL
    does not) apart: one transaction, begun and committed, and no savepoint in it."""
    with CaptureQueriesContext(connection) as captured:
        response = post()
    control = [q["sql"] for q in captured if TRANSACTION.match(q["sql"])]
    assert not any(sql.startswith(("SAVEPOINT", "RELEASE")) for sql in control), control
    assert len(control) <= 2, control
    return len(captured) - len(control), response


def api_counts(client, match):
    """Queries of the API POST at deal 1 and at deal 40."""
    url = f"/api/v1/matches/{match.pk}/deals/"

    def post(n):
        return client.post(
            url, WIN_0, format="json", HTTP_IDEMPOTENCY_KEY=f"deal-{n}", HTTP_IF_MATCH=f'"{n}"'
        )

    first, response = count(lambda: post(0))
    assert response.status_code == 201, response.content
    for n in range(1, 39):
        assert post(n).status_code == 201
    fortieth, response = count(lambda: post(39))
    assert response.status_code == 201 and response.json()["deal"]["number"] == 40
    return first, fortieth


def tablet_counts(client, match):
    """Queries of the tablet's htmx POST at deal 1 and at deal 40."""
    url = reverse("scoring:deal_create", args=[match.pk])
    first, response = count(lambda: client.post(url, pad(version=0), **HTMX))
    assert response.status_code == 200 and 'data-number="1"' in response.text
    for n in range(1, 39):
        assert client.post(url, pad(version=n), **HTMX).status_code == 200
    fortieth, response = count(lambda: client.post(url, pad(version=39), **HTMX))
    assert response.status_code == 200 and 'data-number="40"' in response.text
    return first, fortieth


@pytest.mark.django_db(transaction=True)
def test_an_api_deal_costs_a_few_queries_at_any_length(django_user_model):
    keeper = keeper_user(django_user_model)
    match = services.match_create(teams=TEAMS, options=LONG, created_by=keeper)
    first, fortieth = api_counts(api_client(keeper), match)
    assert first == fortieth <= MOST_QUERIES


@pytest.mark.django_db(transaction=True)
def test_a_tablet_deal_costs_a_few_queries_at_any_length(django_user_model):
    """A signed-in scorekeeper (the session, the user, then the deal) and a tablet without an
    account that started the match (its session)."""
    keeper = keeper_user(django_user_model)
    match = services.match_create(teams=TEAMS, options=LONG, created_by=keeper)
    signed_in = Client()
    signed_in.force_login(keeper)
    first, fortieth = tablet_counts(signed_in, match)
    assert first == fortieth <= MOST_QUERIES

    tablet = Client()
    mine = services.match_create(teams=TEAMS, options=LONG)
    session = tablet.session
    session[SESSION_KEY] = [mine.pk]
    session.save()
    first, fortieth = tablet_counts(tablet, mine)
    assert first == fortieth <= MOST_QUERIES


@pytest.mark.django_db(transaction=True)
def test_a_tournament_deal_costs_as_few_queries(django_user_model):
    """The organizer, through the API and on the tablet: the tournament's table is read with the
    match, in the query that locks it."""
    organizer = keeper_user(django_user_model, "organizer")
    t = tournaments.tournament_create(organizer=organizer, name="Long night", swiss_rounds=1, options=LONG)
    for n in range(4):
        tournaments.entry_register(tournament=t, name=f"T{n}", players=[f"p{n}a", f"p{n}b"])
    t = tournaments.tournament_start(tournament=t, user=organizer)
    rnd = tournaments.round_start(
        rnd=tournaments.round_generate(tournament=t, user=organizer), user=organizer
    )
    first_match, second_match = (table.match for table in rnd.tables.order_by("number"))
    first, fortieth = api_counts(api_client(organizer), first_match)
    assert first == fortieth <= MOST_QUERIES
    browser = Client()
    browser.force_login(organizer)
    first, fortieth = tablet_counts(browser, second_match)
    assert first == fortieth <= MOST_QUERIES


# The API's answer -----------------------------------------------------------------------------


@pytest.fixture
def keeper(django_user_model):
    return keeper_user(django_user_model)


@pytest.fixture
def long_match(keeper):
    return services.match_create(teams=TEAMS, options=LONG, created_by=keeper)


def test_the_api_answer_is_what_a_full_replay_says(keeper, long_match):
    client = api_client(keeper)
    url = f"/api/v1/matches/{long_match.pk}/deals/"
    for n, deal in enumerate([WIN_0, {"thrown_in": True}, made(maker=1, cards=(80, 72), last_trick=0)]):
        body = client.post(url, deal, format="json", HTTP_IDEMPOTENCY_KEY=f"k{n}").json()
        whole = client.get(f"/api/v1/matches/{long_match.pk}/sheet/").json()
        assert body["row"] == whole["deals"][-1]
        assert body["sheet"] == {k: v for k, v in whole.items() if k != "deals"}
        assert body["deal"]["number"] == n + 1 and body["version"] == n + 1
    assert_stored_is_replayed(long_match)


def test_a_resent_deal_is_answered_with_its_first_result(keeper, long_match):
    client = api_client(keeper)
    url = f"/api/v1/matches/{long_match.pk}/deals/"
    first = client.post(url, WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="tablet-3-deal-1")
    client.post(url, {"thrown_in": True}, format="json", HTTP_IDEMPOTENCY_KEY="tablet-3-deal-2")
    again = client.post(url, WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="tablet-3-deal-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["deal"] == first.json()["deal"] and again.json()["row"] == first.json()["row"]
    assert again.json()["version"] == 2 and long_match.deals.count() == 2


def test_the_trust_guarantees_hold_on_the_new_path(keeper, long_match):
    """409 for a key reused for another deal, 412 for a stale If-Match, 400 after the end: nothing
    stored, nothing counted."""
    client = api_client(keeper)
    url = f"/api/v1/matches/{long_match.pk}/deals/"
    assert client.post(url, WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    reused = client.post(
        url, made(maker=1, cards=(62, 90), last_trick=1), format="json", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert problem(reused, 409)["field"] == "Idempotency-Key"
    stale = client.post(url, WIN_0, format="json", HTTP_IF_MATCH='"0"')
    assert problem(stale, 412)["version"] == 1
    services.match_finish(match=long_match, user=keeper)
    after = client.post(url, WIN_0, format="json")
    assert "already won" in problem(after, 400)["detail"]
    stored = Match.objects.get(pk=long_match.pk)
    assert (stored.deals.count(), stored.version) == (1, 2)


def test_who_may_not_keep_the_match_is_refused_before_anything(django_user_model, long_match):
    stranger = keeper_user(django_user_model, "stranger")
    url = f"/api/v1/matches/{long_match.pk}/deals/"
    assert api_client(stranger).post(url, WIN_0, format="json").status_code == 403
    assert api_client(stranger).post("/api/v1/matches/99999/deals/", WIN_0, format="json").status_code == 404
    assert APIClient().post(url, WIN_0, format="json").status_code in (401, 403)
    assert Deal.objects.count() == 0


def test_listeners_hear_the_result_before_and_after_and_the_history_keeps_both(keeper, long_match):
    heard = []

    def listener(sender, match, previous, **kwargs):
        heard.append((previous.totals, tuple(match.totals), previous.status, str(match.status)))

    match_changed.connect(listener)
    try:
        api_client(keeper).post(f"/api/v1/matches/{long_match.pk}/deals/", WIN_0, format="json")
    finally:
        match_changed.disconnect(listener)
    assert heard == [((0, 0), (100, 62), "in_progress", "in_progress")]
    deal = Deal.objects.get()
    assert [(h.history_type, h.history_user) for h in deal.history.all()] == [("+", keeper)]
    latest = long_match.history.order_by("-history_id").first()
    assert (latest.version, latest.totals, latest.state["dealt"], latest.history_user) == (
        1,
        [100, 62],
        1,
        keeper,
    )


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_on_two_connections_records_once(django_user_model):
    """The same deal with the same key at the same moment from two threads: the match's row lock
    lets one record it (201) and the other find it (200)."""
    keeper = keeper_user(django_user_model)
    match = services.match_create(teams=TEAMS, options=LONG, created_by=keeper)
    start, answers = threading.Barrier(2), {}

    def tap(name):
        try:
            client = api_client(keeper)
            start.wait(timeout=10)
            answers[name] = client.post(
                f"/api/v1/matches/{match.pk}/deals/", WIN_0, format="json", HTTP_IDEMPOTENCY_KEY="double"
            )
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=tap, args=(name,)) for name in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(answer.status_code for answer in answers.values()) == [200, 201]
    assert len({answer.json()["deal"]["id"] for answer in answers.values()}) == 1
    assert Deal.objects.filter(match=match).count() == 1
    assert_stored_is_replayed(match)


@pytest.mark.django_db(transaction=True)
def test_a_resend_that_waited_for_the_lock_finds_the_deal_recorded_meanwhile(django_user_model, monkeypatch):
    """The first sending holds the match's lock while the second arrives with the same key: the
    second waits, then finds the deal the first recorded, not what its query saw before the wait
    (PostgreSQL: the locked row is newer than the rest of that query, so the deal's facts are asked
    again; SQLite: the second transaction only begins once the first is over)."""
    asked_again = []
    ask = deal_sql.deal_facts
    monkeypatch.setattr(deal_sql, "deal_facts", lambda *a: asked_again.append(a) or ask(*a))
    keeper = keeper_user(django_user_model)
    match = services.match_create(teams=TEAMS, options=LONG, created_by=keeper)
    locked, answers = threading.Event(), {}

    def first():
        try:
            with transaction.atomic():
                held = services.match_lock(pk=match.pk, user=keeper, client_key=KEY, names=False)
                answers["first"] = services.deal_record(match=held, deal=WIN_0, client_key=KEY, user=keeper)
                locked.set()
                threading.Event().wait(0.5)  # the second sending arrives now
        finally:
            locked.set()
            connection.close()

    def second():
        try:
            locked.wait(timeout=10)
            answers["second"] = api_client(keeper).post(
                f"/api/v1/matches/{match.pk}/deals/", WIN_0, format="json", HTTP_IDEMPOTENCY_KEY=KEY_HEADER
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert answers["second"].status_code == 200
    assert answers["second"].json()["deal"]["id"] == answers["first"].pk
    assert len(asked_again) == (1 if connection.vendor == "postgresql" else 0)
    assert Deal.objects.filter(match=match).count() == 1
    assert_stored_is_replayed(match)


# The tablet's answer: the parts a deal changed ------------------------------------------------


@pytest.fixture
def tablet(keeper):
    client = Client()
    client.force_login(keeper)
    return client


def part(html: str, element: str, ident: str) -> str:
    """The element with this id, as the page or the answer has it: the out-of-band mark taken off,
    and the CSRF tokens (masked anew on every page) left out."""
    found = re.search(rf'<{element} id="{ident}"[^>]*>.*?</{element}>', html, re.S)
    assert found, ident
    html = re.sub(r' hx-swap-oob="[^"]*"', "", found.group(0))
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken"', html)


def key_free(html: str) -> str:
    return re.sub(r'name="client_key" value="[^"]*"', 'name="client_key"', html)


def test_the_answer_is_the_new_row_the_scoreboard_a_fresh_pad_the_tools_and_the_chart(tablet, long_match):
    url = reverse("scoring:deal_create", args=[long_match.pk])
    posted = pad(version=0)
    first = tablet.post(url, posted, **HTMX)
    assert first.status_code == 200 and first["HX-Reswap"] == "none"
    assert 'id="match-area"' not in first.text
    # The first row replaces the sheet's "no deal yet"; later rows go on top of it.
    assert '<tbody id="deal-rows" hx-swap-oob="true">' in first.text
    second = tablet.post(url, pad(version=1), **HTMX).text
    assert '<tbody hx-swap-oob="afterbegin:#deal-rows">' in second
    assert second.count('data-testid="deal-row"') == 1 and 'data-number="2"' in second
    for ident in ("scoreboard", "entry"):
        assert re.search(rf'<section id="{ident}"[^>]*hx-swap-oob="true"', second)
    for ident in ("sheet-tools", "chart-area"):
        assert re.search(rf'<div id="{ident}"[^>]*hx-swap-oob="true"', second)
    # A fresh pad: a new key, the new version; the chart's image asks for the new version.
    assert posted["client_key"] not in second and 'name="version" value="2"' in second
    assert "chart.svg?v=2" in second


def test_the_answers_parts_are_those_the_whole_sheet_shows(tablet, long_match):
    """Made from the stored state, the parts say what the sheet page (a full replay) says."""
    url = reverse("scoring:deal_create", args=[long_match.pk])
    for n, fields in enumerate(
        [{}, {"thrown_in": "true"}, {"maker": 1, "card_points": 72, "points_team": 1}]
    ):
        answer = tablet.post(url, pad(version=n, **fields), **HTMX).text
        page = tablet.get(reverse("scoring:match", args=[long_match.pk])).text
        for element, ident in (("section", "scoreboard"), ("div", "sheet-tools"), ("div", "chart-area")):
            assert part(answer, element, ident) == part(page, element, ident)
        assert key_free(part(answer, "section", "entry")) == key_free(part(page, "section", "entry"))
        newest = re.search(r'<tr class="[^"]*newest".*?</tr>', page, re.S).group(0)
        assert newest in answer


def test_the_deal_that_ends_the_match_shows_the_result_and_the_confirmation(tablet, keeper):
    match = services.match_create(teams=TEAMS, options={"target": 150}, created_by=keeper)
    url = reverse("scoring:deal_create", args=[match.pk])
    tablet.post(url, pad(version=0), **HTMX)
    answer = tablet.post(url, pad(version=1), **HTMX).text
    assert "Kafeneio A win 200–124" in answer and "confirm" in answer
    assert 'class="deal-form' not in answer and "End the match" not in answer
    page = tablet.get(reverse("scoring:match", args=[match.pk])).text
    assert part(answer, "section", "entry") == part(page, "section", "entry")


def test_a_stale_pad_is_refused_with_the_whole_current_sheet(tablet, keeper, long_match):
    services.deal_record(match=long_match, deal=WIN_0, user=keeper)  # another tablet, meanwhile
    url = reverse("scoring:deal_create", args=[long_match.pk])
    refused = tablet.post(url, pad(version=0, card_points=100), **HTMX)
    assert refused.status_code == 422 and 'id="match-area"' in refused.text
    assert "the sheet changed since this deal was entered" in refused.text.lower()
    assert 'data-number="1"' in refused.text and 'name="version" value="1"' in refused.text
    assert 'value="100"' in refused.text  # what was typed stays on the pad
    assert long_match.deals.count() == 1


def test_a_pad_sent_twice_records_once_and_shows_the_sheet(tablet, long_match):
    url = reverse("scoring:deal_create", args=[long_match.pk])
    posted = pad(version=0)
    tablet.post(url, posted, **HTMX)
    again = tablet.post(url, posted, **HTMX)
    assert again.status_code == 200 and 'id="match-area"' in again.text
    assert long_match.deals.count() == 1


def test_a_deal_after_the_end_is_refused_on_the_tablet(tablet, keeper):
    match = services.match_create(teams=TEAMS, options={"target": 100}, created_by=keeper)
    services.deal_record(match=match, deal=WIN_0, user=keeper)
    refused = tablet.post(reverse("scoring:deal_create", args=[match.pk]), pad(), **HTMX)
    assert refused.status_code == 422 and match.deals.count() == 1


def test_the_tablet_without_htmx_is_sent_to_the_sheet(tablet, long_match):
    response = tablet.post(reverse("scoring:deal_create", args=[long_match.pk]), pad(version=0))
    assert response.status_code == 302 and long_match.deals.count() == 1


def test_only_its_scorekeepers_record_on_the_tablet(client, long_match):
    assert client.post(reverse("scoring:deal_create", args=[long_match.pk]), pad(), **HTMX).status_code == 403
    assert client.post(reverse("scoring:deal_create", args=[999999]), pad(), **HTMX).status_code == 404
    assert long_match.deals.count() == 0
