"""services.match_import: one replay of the whole file, the deals saved in bulk, a bounded size."""

import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from players.models import Player, Team
from scoring import engine, selectors, services
from scoring.models import Deal, Match
from scoring.signals import match_changed
from tests.factories import TEAMS, made

pytestmark = pytest.mark.django_db

FILE_TEAMS = [{"name": name, "players": list(players)} for name, players in TEAMS]
# Every kind of Mpourloto deal, with ties hanging: made, mesa, a tie, capo, thrown in, melds.
KINDS = [
    made(maker=0, cards=(90, 62), last_trick=0, melds=(("seq3",), ())),  # made: 120 v 62
    made(maker=1, cards=(100, 52), last_trick=0),  # mesa: 52 v 110
    made(maker=0, cards=(71, 81), last_trick=0),  # a tie, 81 v 81: the makers' 81 hang
    {"thrown_in": True},
    {"maker": 1, "card_points": [0, 152], "capot": 1, "melds": [["four"], ["seq4"]]},  # capo
    made(maker=1, cards=(60, 92), last_trick=1, melds=(("seq4",), ("seq3",))),  # made: 60+50 v 92+10+20
]


def match_file(n: int, **options) -> dict:
    """A valid Mpourloto file of ``n`` deals that no target ends (a fixed-length match ends it last)."""
    deals = list(itertools.islice(itertools.cycle(KINDS), n))
    return {
        "ruleset": "mpourloto",
        "options": {"target": 1_000_000, "ties_hang": True, **options},
        "teams": FILE_TEAMS,
        "first_dealer": 1,
        "deals": deals,
    }


def counts():
    return (
        Match.objects.count(),
        Deal.objects.count(),
        Deal.history.count(),
        Match.history.count(),
        Player.objects.count(),
        Team.objects.count(),
    )


def recorded_one_by_one(document: dict, user) -> Match:
    match = services.match_create(
        teams=TEAMS, options=document["options"], first_dealer=document["first_dealer"], created_by=user
    )
    for deal in document["deals"]:
        services.deal_record(match=match, deal=deal, user=user)
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({}, id="in-progress"),
        pytest.param({"deals": 50}, id="finished-by-its-last-deal"),  # 60 deals, 50 played: the last ends it
    ],
)
def test_an_import_gives_the_match_of_the_same_deals_recorded_one_by_one(user, options):
    document = match_file(60, **options)
    imported = services.match_import(data=document, created_by=user)
    imported = Match.objects.get(pk=imported.pk)
    one_by_one = recorded_one_by_one(document, user)

    assert selectors.match_sheet(match=imported).sheet.to_dict() == (
        selectors.match_sheet(match=one_by_one).sheet.to_dict()
    )
    fields = ("status", "winner", "totals", "suffered", "version", "options", "target", "first_dealer")
    assert {f: getattr(imported, f) for f in fields} == {f: getattr(one_by_one, f) for f in fields}
    assert (imported.finished_at is None) == (one_by_one.finished_at is None)
    assert imported.version == 60  # as many changes as deals, as if recorded one by one
    rows = ("position", "data", "entered_by", "client_key", "client_fingerprint", "deleted_at")
    assert list(imported.deals.order_by("position").values_list(*rows)) == list(
        one_by_one.deals.order_by("position").values_list(*rows)
    )
    assert list(imported.keepers.all()) == [user]


def test_an_import_replays_the_file_once(user, monkeypatch):
    from scoring.engine import matchfile

    replays = []

    def counted(ruleset, deals, **kwargs):
        replays.append(len(deals))
        return engine.replay(ruleset, deals, **kwargs)

    monkeypatch.setattr(matchfile, "replay", counted)
    monkeypatch.setattr(services, "deal_record", None)  # never deal by deal
    services.match_import(data=match_file(120), created_by=user)
    assert replays == [120]


def test_an_import_finished_by_its_last_deal_is_finished(user):
    match = services.match_import(data=match_file(60, deals=50), created_by=user)
    match.refresh_from_db()
    sheet = selectors.match_sheet(match=match).sheet
    assert (match.status, match.winner, match.totals) == (str(sheet.status), sheet.winner, list(sheet.totals))
    assert match.status == "finished" and match.finished_at is not None
    assert match.suffered == services.suffered(sheet) and sum(match.suffered) > 0


def test_every_imported_deal_has_its_history_row_created_by_the_importer(user):
    match = services.match_import(data=match_file(25), created_by=user)
    history = Deal.history.filter(match_id=match.pk)
    assert history.count() == 25
    assert set(history.values_list("history_type", "history_user")) == {("+", user.pk)}
    assert sorted(history.values_list("position", flat=True)) == list(range(1, 26))
    assert {h.id for h in history} == set(match.deals.values_list("pk", flat=True))
    assert set(Match.history.filter(id=match.pk).values_list("history_user", flat=True)) == {user.pk}


def test_an_import_with_no_deal_is_a_fresh_match(user):
    match = services.match_import(data=match_file(0), created_by=user)
    match.refresh_from_db()
    assert (match.status, match.totals, match.suffered, match.version, match.deals.count()) == (
        "in_progress", [0, 0], [0, 0], 0, 0
    )  # fmt: skip


def test_an_import_is_one_change_for_whoever_listens(user):
    heard = []

    def listener(sender, match, **kwargs):
        heard.append(match.version)

    match_changed.connect(listener)
    try:
        services.match_import(data=match_file(30), created_by=user)
    finally:
        match_changed.disconnect(listener)
    assert heard == [30]


def test_a_bad_deal_late_in_a_long_file_saves_nothing(user):
    document = match_file(300)
    document["deals"][250] = made(cards=(90, 72))
    before = counts()
    with pytest.raises(engine.ScoringError) as caught:
        services.match_import(data=document, created_by=user)
    assert (caught.value.deal, caught.value.field) == (250, "card_points")
    assert counts() == before


def test_a_file_of_1001_deals_is_refused_before_any_replay_and_saves_nothing(user, monkeypatch):
    def no_replay(*args, **kwargs):
        raise AssertionError("the file was replayed")

    monkeypatch.setattr(engine, "load_match", no_replay)
    monkeypatch.setattr(engine, "replay", no_replay)
    before = counts()
    with pytest.raises(engine.ScoringError) as caught:
        services.match_import(data=match_file(1001), created_by=user)
    assert caught.value.field == "deals"
    assert caught.value.message == "a match file to import has at most 1000 deals; this one has 1001"
    assert counts() == before


def test_a_file_of_1000_deals_is_imported(user):
    match = services.match_import(data=match_file(1000), created_by=user)
    assert match.deals.count() == 1000 and Deal.history.filter(match_id=match.pk).count() == 1000


def test_the_most_deals_is_a_setting(user, settings):
    settings.TSOXA_IMPORT_MAX_DEALS = 5
    with pytest.raises(engine.ScoringError, match="at most 5 deals; this one has 6") as caught:
        services.match_import(data=match_file(6), created_by=user)
    assert caught.value.field == "deals"
    assert services.match_import(data=match_file(5), created_by=user).deals.count() == 5


@pytest.mark.parametrize(
    ("data", "field"),
    [
        pytest.param([1, 2], None, id="not-an-object"),
        pytest.param({"teams": FILE_TEAMS, "deals": "all of them"}, "deals", id="deals-not-a-list"),
        pytest.param({"teams": FILE_TEAMS, "deals": {"0": {}}}, "deals", id="deals-an-object"),
    ],
)
def test_what_is_no_list_of_deals_is_refused_by_the_file_check(user, data, field):
    before = counts()
    with pytest.raises(engine.ScoringError) as caught:
        services.match_import(data=data, created_by=user)
    assert caught.value.field == field
    assert counts() == before


def _queries_to_import(n: int, user) -> int:
    with CaptureQueriesContext(connection) as queries:
        services.match_import(data=match_file(n), created_by=user)
    return len(queries.captured_queries)


def test_the_queries_of_an_import_do_not_grow_with_its_deals(user):
    _queries_to_import(1, user)  # the players and teams exist from here on, as in the two measured
    assert _queries_to_import(10, user) == _queries_to_import(200, user)
