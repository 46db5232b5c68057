"""A drawn round's tables as saved: every field a table's model gives it, each table's own link token,
and one history row each ("+", who drew it) holding the table as saved: what
``bulk_create_with_history`` wrote before the draw wrote them in one statement each."""

import pytest

from scoring import services as scoring
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db

GIVEN = {"id", "round", "number", "entry0", "entry1", "bracket", "token"}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


def start(organizer, *, teams, **settings):
    settings.setdefault("deals_per_match", 1)
    t = services.tournament_create(organizer=organizer, name="Friday", **settings)
    for i in range(teams):
        services.entry_register(tournament=t, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
    return services.tournament_start(tournament=t, user=organizer)


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in Table._meta.concrete_fields}


def assert_saved_as_drawn(rnd, user):
    tables = list(rnd.tables.order_by("number"))
    assert [t.number for t in tables] == list(range(1, len(tables) + 1))
    defaults = fields(Table())
    for table in tables:
        saved = fields(table)
        assert {k: v for k, v in saved.items() if k.removesuffix("_id") not in GIVEN} == {
            k: v for k, v in defaults.items() if k.removesuffix("_id") not in GIVEN
        }
        history = Table.history.filter(id=table.pk).get()
        assert history.history_type == "+" and history.history_change_reason is None
        assert history.history_user == user
        assert {f.attname: getattr(history, f.attname) for f in Table._meta.concrete_fields} == saved
    tokens = [t.token for t in tables]
    assert len(set(tokens)) == len(tokens) and all(len(token) == len(Table().token) for token in tokens)
    return tables


def test_a_swiss_round_is_saved_table_by_table_with_its_history(organizer):
    t = start(organizer, teams=7, swiss_rounds=2)
    rnd = services.round_generate(tournament=t, user=organizer)
    tables = assert_saved_as_drawn(rnd, organizer)
    assert [t.entry1_id is None for t in tables] == [False, False, False, True]  # the bye last
    assert {e for t in tables for e in (t.entry0_id, t.entry1_id) if e} == set(t.participants)
    assert {t.bracket for t in tables} == {Table.Bracket.MAIN}


def test_a_round_drawn_by_nobody_has_history_without_a_user(organizer):
    t = start(organizer, teams=4, swiss_rounds=2)
    assert_saved_as_drawn(services.round_generate(tournament=t), None)


def test_a_knockout_final_and_its_match_for_third_place_keep_their_brackets(organizer):
    t = start(organizer, teams=4, swiss_rounds=1, knockout_size=4, third_place=True)
    for _ in range(2):  # the Swiss round, then the semi-finals
        rnd = services.round_start(rnd=services.round_generate(tournament=t, user=organizer), user=organizer)
        for table in rnd.tables.all():
            while table.match.status != "finished":  # a knockout's match is played to the target
                scoring.deal_record(match=table.match, deal={"maker": 0, "card_points": [152, 0], "capot": 0})
                table.match.refresh_from_db()
        services.standings_refresh(tournament_id=t.pk)
    final = services.round_generate(tournament=t, user=organizer)
    tables = assert_saved_as_drawn(final, organizer)
    assert [t.bracket for t in tables] == [Table.Bracket.MAIN, Table.Bracket.THIRD_PLACE]
