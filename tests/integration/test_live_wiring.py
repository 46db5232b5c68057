"""The services tell the big screens what changed (tournaments.live.publish), after the commit."""

from unittest import mock

import pytest

from scoring import services as scoring
from tournaments import live, services

pytestmark = pytest.mark.django_db(transaction=True)

WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}


@pytest.fixture
def sent():
    with mock.patch.object(live, "_send") as spy:
        yield spy


def changes(spy):
    return [c.args[1] for c in spy.call_args_list]


def test_each_step_of_a_tournament_is_pushed(django_user_model, sent):
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(organizer=organizer, name="Night", swiss_rounds=1, deals_per_match=1)
    for i in range(4):
        services.entry_register(tournament=t, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    services.tournament_start(tournament=t)
    assert "round" in changes(sent)
    sent.reset_mock()
    rnd = services.round_generate(tournament=t)
    assert changes(sent) == ["round"]
    services.round_swap(rnd=rnd, first=(1, 0), second=(2, 0))
    services.round_start(rnd=rnd)
    assert changes(sent).count("round") == 3
    sent.reset_mock()
    for table in rnd.tables.all():
        scoring.deal_record(match=table.match, deal=WIN_0)
    assert "standings" in changes(sent) and "finished" in changes(sent)  # one round: the end
    assert {c.args[0] for c in sent.call_args_list} == {t.pk}


def test_an_early_finish_is_pushed(django_user_model, sent):
    organizer = django_user_model.objects.create_user(username="org", password="pw-org-12345")
    t = services.tournament_create(organizer=organizer, name="Night", swiss_rounds=3)
    for i in range(4):
        services.entry_register(tournament=t, name=f"T{i}", players=[f"A{i}", f"B{i}"])
    t = services.tournament_start(tournament=t)
    sent.reset_mock()
    services.tournament_finish(tournament=t, reason="Late")
    assert "finished" in changes(sent)
