"""players.history.history_fields: the columns the deal path and the draw write into history rows
themselves, and a refusal of a history model with a column neither knows how to fill."""

from types import SimpleNamespace

import pytest
from django.core.exceptions import ImproperlyConfigured

from players.history import HISTORY_OWN, history_fields
from tournaments.models import Table


def test_a_tables_history_is_its_tracked_fields_then_simple_historys_own():
    history, tracked, own = history_fields(Table, "the draw")
    assert history is Table.history.model
    assert {f.attname for f in tracked} == {f.attname for f in history.tracked_fields}
    in_the_table = [f for f in history._meta.concrete_fields if f in tracked]
    assert tracked == in_the_table  # in the history table's order
    assert sorted(f.attname for f in own) == sorted(HISTORY_OWN)


def test_a_column_nobody_fills_is_refused_with_the_writer_named():
    field = SimpleNamespace
    history = SimpleNamespace(
        __name__="HistoricalThing",
        tracked_fields=[field(attname="name")],
        _meta=SimpleNamespace(
            concrete_fields=[
                field(attname="history_id", primary_key=True),
                field(attname="name", primary_key=False),
                field(attname="history_date", primary_key=False),
                field(attname="mood", primary_key=False),
            ]
        ),
    )
    model = SimpleNamespace(history=SimpleNamespace(model=history))
    refused = r"^the draw does not know how to fill HistoricalThing\.mood$"
    with pytest.raises(ImproperlyConfigured, match=refused):
        history_fields(model, "the draw")
