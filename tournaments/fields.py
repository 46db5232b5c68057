"""A JSON document stored as written: PostgreSQL's ``json`` type, not ``jsonb``.

The standings snapshot (``StandingsSnapshot``) is one large document, rewritten whole after every
result and read whole by every page: 330 kB of rows and 150 kB of ranking at 1,000 teams. Nothing
queries inside it. ``jsonb`` parses a document into its binary form on every write (8.9 ms for
the rows at 1,000 teams, against 3.8 ms for ``json``, which only checks it), a cost paid for
lookups into the document that these never make. ``json`` keeps the text: it has no equality
operator, so a field of this kind is never compared in a query (``filter(rows=...)``). The text
is written by orjson, ten times faster than ``json.dumps`` at this size.

SQLite stores JSON as text either way: there the field is Django's ``JSONField``, its text
written by orjson too.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.db import models
from psycopg.types.json import Json


class DocumentField(models.JSONField):
    """Django's ``JSONField``, stored in PostgreSQL's ``json`` type (a document written and read
    whole, never searched: see the module)."""

    def db_type(self, connection) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection, prepared: bool = False) -> Any:
        # Written by orjson: 0.2 ms for the 490 kB of rows and ranking at 1,000 teams, where
        # json.dumps took 3-5 ms, a third of the write. The same document, without its spaces.
        if value is None or self.encoder is not None:
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "postgresql":
            return Json(value, dumps=orjson.dumps)  # sent as json, not as Django's jsonb
        return orjson.dumps(value).decode()

    def from_db_value(self, value: Any, expression, connection) -> Any:
        # psycopg 3 reads ``json`` into Python itself (Django has it leave ``jsonb`` as text).
        if isinstance(value, list | dict):
            return value
        return super().from_db_value(value, expression, connection)
