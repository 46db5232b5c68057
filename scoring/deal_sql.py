"""The deal path's SQL, for ``services``: recording a deal is the one write every table makes every
few minutes, and the ORM spent more CPU building its statements than the database took to run them
(issue 12: a deal at half the throughput of the smallest write). So these few statements are
written here, once, from the models' own metadata (a field added to a model is read and written
with the rest):

- ``read_locked``: one query reads the match and locks its row, with what the permission needs
  (its tournament's table, round and tournament; whether the person keeps it and may write; for
  the tablet, its teams' and seats' names) and what the new deal needs (the last position, the
  deal already recorded with the client's key);
- ``write_recorded``: the deal, its history row, the match's new verdict and the match's history
  row, in one statement on PostgreSQL (four elsewhere): the rows the ORM and django-simple-history
  write for ``save()`` (tests/integration/test_deal_path.py compares them), without their model
  signals (the project has none on these models; ``match_changed`` is still sent by the services).
  Of the match, only the fields the deal changed are sent (its row is locked since it was read).

The teams' and seats' names are read by small sub-queries, not joins: PostgreSQL spent more time
planning nine joins than running them, on every deal. On PostgreSQL these statements are prepared,
once a connection (``_cursor``), as the same planning of the locking read still cost more CPU than
running it (issue 29: parsing and planning it were half of PostgreSQL's time for a deal).

Everything else goes through the ORM.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db import connection
from django.db.models import Field, ForeignKey, Model
from django.utils import timezone
from simple_history.utils import get_change_reason_from_object

from players.history import history_fields
from players.models import Club, Player, Team

from .models import Deal, Match


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _column(field: Field) -> str:
    """The quoted column of ``field``, a concrete field (only those are read and written here: a
    field without a column has None)."""
    assert field.column is not None  # concrete: Django's own test of a concrete field
    return _q(field.column)


def _cursor() -> Any:
    """A cursor for the deal path's statements. On PostgreSQL (psycopg 3, ``prepare_threshold`` set
    in the database's OPTIONS: config/settings/base.py) each statement is bound on the server and
    prepared the first time a connection runs it: PostgreSQL then parses and plans it once a
    connection, not on every deal (it spent more CPU planning the locking read than running it).
    Django's own queries, bound on the client, are never prepared. Elsewhere, Django's cursor."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = connection.connection
    if getattr(raw, "prepare_threshold", None) is None:  # psycopg 2, or prepared statements turned off
        return connection.cursor()
    with connection.wrap_database_errors:
        cursor = _prepared_cursor_class()(raw)
        timestamptz = raw.adapters.types["timestamptz"].oid
        if connection.timezone != raw.adapters.get_loader(timestamptz, 0).timezone:  # as Django's cursors
            from django.db.backends.postgresql.psycopg_any import register_tzloader

            register_tzloader(connection.timezone, cursor)
    connection.validate_thread_sharing()
    return (
        connection.make_debug_cursor(cursor) if connection.queries_logged else connection.make_cursor(cursor)
    )


@functools.cache
def _prepared_cursor_class() -> type:
    from django.db.backends.postgresql.base import ServerBindingCursor

    base: Any = ServerBindingCursor

    class PreparedCursor(base):
        """Django's server-binding cursor, its statements prepared (psycopg's ``prepare=True``)."""

        def execute(
            self, query: Any, params: Any = None, *, prepare: bool | None = True, **kwargs: Any
        ) -> Any:
            return super().execute(query, params, prepare=prepare, **kwargs)

    return PreparedCursor


@dataclass(frozen=True)
class _Loader[M: Model]:
    """Instances of ``model`` from a slice of a row: its fields' values, converted as the ORM does."""

    model: type[M]
    fields: tuple[Field, ...]
    attnames: tuple[str, ...]
    converters: tuple[tuple[tuple[Any, Any], ...], ...]  # per field: (converter, its column)

    @classmethod
    def of(cls, model: type[M], fields: Sequence[Field] | None = None) -> _Loader[M]:
        fields = tuple(fields or model._meta.concrete_fields)
        converters = []
        for field in fields:
            col = field.get_col(model._meta.db_table)
            found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
            converters.append(tuple((converter, col) for converter in found))
        return cls(model, fields, tuple(f.attname for f in fields), tuple(converters))

    def columns(self, alias: str) -> list[str]:
        return [f"{alias}.{_column(f)}" for f in self.fields]

    def load(self, values: Sequence[Any]) -> M:
        converted = []
        for converters, value in zip(self.converters, values, strict=True):
            for converter, col in converters:
                value = converter(value, col, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, self.attnames, converted)

    def load_kept(self, values: Sequence[Any]) -> M:
        """``load``, the instance keeping the values it was read with (``read_values``): writing it
        back, ``write_recorded`` sends only the fields changed since."""
        instance: Any = self.load(values)
        instance.read_values = {a: instance.__dict__[a] for a in self.attnames}
        return instance


@dataclass(frozen=True)
class _Read:
    sql: str
    match: _Loader[Match]
    # The match's table, its round, its tournament: the tournaments app's models, not imported here.
    chain: tuple[_Loader[Any], _Loader[Any], _Loader[Any]]
    teams: _Loader[Team] | None
    seats: _Loader[Player] | None
    signed_in: bool


# A tournament's table (the tournaments app builds on this one), its round, its tournament: the
# last two are foreign keys (the stubs cannot know a field's kind from its name).
TABLE = Match._meta.get_field("table")
ROUND = cast("ForeignKey[Any, Any]", TABLE.related_model._meta.get_field("round"))
TOURNAMENT = cast("ForeignKey[Any, Any]", ROUND.related_model._meta.get_field("tournament"))


def _facts_sql(match: str) -> list[str]:
    """The last position of the match ``match`` names (deleted deals keep theirs), and the id of its
    deal recorded with the key given (%s): two lookups in the deals' unique indexes."""
    d, id_, position, match_id, key = map(
        _q, (Deal._meta.db_table, "id", "position", "match_id", "client_key")
    )
    return [
        f"(SELECT MAX(d.{position}) FROM {d} d WHERE d.{match_id} = {match})",
        f"(SELECT d.{id_} FROM {d} d WHERE d.{match_id} = {match} AND d.{key} = %s)",
    ]


def deal_facts(pk: int, client_key: Any) -> tuple[int | None, int | None]:
    """The match's last position and the id of its deal recorded with ``client_key``, if any."""
    key = Deal._meta.get_field("client_key").get_db_prep_value(client_key, connection)
    with _cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(_facts_sql('%s'))}", [pk, pk, key])
        return cursor.fetchone()


@functools.cache
def _read(vendor: str, names: bool, signed_in: bool) -> _Read:
    match = _Loader.of(Match)
    chain = (
        _Loader.of(TABLE.related_model),
        _Loader.of(ROUND.related_model),
        _Loader.of(TOURNAMENT.related_model),
    )
    m = _q(Match._meta.db_table)
    id_, match_id, version, user_id = map(_q, ("id", "match_id", "version", "user_id"))
    select = [*match.columns("m"), *chain[0].columns("t"), *chain[1].columns("r"), *chain[2].columns("tn")]
    select += [
        *_facts_sql(f"m.{id_}"),
        # The version as this statement's snapshot sees it: when another change committed while this
        # one waited for the row's lock, the locked row is newer and the two above are out of date.
        f"(SELECT s.{version} FROM {m} s WHERE s.{id_} = m.{id_})",
    ]
    if signed_in:
        keepers, club = _q(Match.keepers.through._meta.db_table), _q(Club._meta.db_table)
        select += [
            f"EXISTS (SELECT 1 FROM {keepers} k WHERE k.{match_id} = m.{id_} AND k.{user_id} = %s)",
            f"EXISTS (SELECT 1 FROM {club} c WHERE c.{user_id} = %s AND NOT c.{_q('can_write')})",
        ]
    teams = seats = None
    if names:  # one small query each, not joins: planning nine joins cost more than running them
        teams = _Loader.of(Team, [Team._meta.pk, Team._meta.get_field("name")])
        seats = _Loader.of(
            Player, [Player._meta.pk, Player._meta.get_field("name"), Player._meta.get_field("user")]
        )
        named: tuple[tuple[str, _Loader[Any]], ...] = (
            ("team0_id", teams),
            ("team1_id", teams),
            *((f"seat{s}_id", seats) for s in range(4)),
        )
        for column, loader in named:
            source = _q(loader.model._meta.db_table)
            for field in loader.fields[1:]:
                select.append(
                    f"(SELECT x.{_column(field)} FROM {source} x WHERE x.{_q('id')} = m.{_q(column)})"
                )
    t, r, tn = (_q(loader.model._meta.db_table) for loader in chain)
    sql = (
        f"SELECT {', '.join(select)} FROM {m} m "
        f"LEFT JOIN {t} t ON t.{_q(TABLE.field.column)} = m.{id_} "
        f"LEFT JOIN {r} r ON r.{id_} = t.{_q(ROUND.column)} "
        f"LEFT JOIN {tn} tn ON tn.{id_} = r.{_q(TOURNAMENT.column)} "
        f"WHERE m.{id_} = %s"
    )
    if connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF m"  # the match's row only: its tournament's rows are only read
    elif connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return _Read(sql, match, chain, teams, seats, signed_in)


def read_locked(pk: int, *, user: Any, client_key: Any, names: bool) -> Match | None:
    """The match, its row locked until the transaction ends (SQLite: its write lock is already
    taken when the transaction begins), as ``services.match_lock`` describes it. It carries
    ``access_user``, ``access_keeps`` and ``access_read_only`` (permissions.py) for a signed-in
    user, and ``deal_facts``: (last position, the id of the deal recorded with ``client_key``), or
    None when another change committed while the lock was awaited (then ask again)."""
    signed_in = user is not None and user.is_authenticated
    read = _read(connection.vendor, names, signed_in)
    key = Deal._meta.get_field("client_key").get_db_prep_value(client_key, connection)
    params = [key, *((user.pk, user.pk) if signed_in else ()), pk]
    with _cursor() as cursor:
        cursor.execute(read.sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    at = len(read.match.fields)
    match = read.match.load_kept(row[:at])
    linked: list[Any] = []  # the tournaments app's models, not imported here
    for loader in read.chain:
        values = row[at : at + len(loader.fields)]
        at += len(loader.fields)
        linked.append(loader.load(values) if values[0] is not None else None)
    table, round_, tournament = linked
    if table is not None:  # a tournament's match
        round_.tournament = tournament
        table.round = round_
        table.match = match
    TABLE.set_cached_value(match, table)  # None: no table, and no query to say so
    last, keyed, seen_version = row[at : at + 3]
    at += 3
    match.deal_facts = (last, keyed) if seen_version == match.version else None
    if signed_in:
        match.access_user, match.access_keeps, match.access_read_only = (
            user.pk,
            bool(row[at]),
            bool(row[at + 1]),
        )
        at += 2
    if names:
        assert read.teams is not None and read.seats is not None  # _read made them: names
        for slot, pk_column in (("team0", "team0_id"), ("team1", "team1_id")):
            setattr(match, slot, read.teams.load([getattr(match, pk_column), row[at]]))
            at += 1
        for seat in range(4):
            setattr(
                match, f"seat{seat}", read.seats.load([getattr(match, f"seat{seat}_id"), *row[at : at + 2]])
            )
            at += 2
    return match


# Writing ---------------------------------------------------------------------------------------

# The fields whose values the database takes as they are when they are of these types, on every
# backend (their ``get_db_prep_save`` is ``int()``, ``str()`` or ``bool()``); any other value, and
# every other field (JSON, dates, UUIDs), goes through the field.
INTEGERS = ("IntegerField", "BigIntegerField", "SmallIntegerField")
PLAIN = {
    **dict.fromkeys((*INTEGERS, *(f"Positive{t}" for t in INTEGERS), "AutoField", "BigAutoField"), int),
    **dict.fromkeys(("CharField", "TextField", "SlugField"), str),
    "BooleanField": bool,
}


@dataclass(frozen=True)
class _Column:
    """A field as ``save()`` writes it: its value just before saving (``pre_save``, asked only of
    the fields that set one, such as ``auto_now``), then as the database takes it."""

    field: Field
    attname: str
    sets_value: bool
    sets_it_always: bool  # on a change too, not only on an insert (``auto_now``, not ``auto_now_add``)
    plain: type | None

    @classmethod
    def of(cls, field: Field) -> _Column:
        auto_now, auto_now_add = getattr(field, "auto_now", None), getattr(field, "auto_now_add", None)
        dated = auto_now is not None
        sets_value = type(field).pre_save is not Field.pre_save and bool(
            not dated or auto_now or auto_now_add
        )
        always = sets_value and (not dated or bool(auto_now))
        target = getattr(field, "target_field", field) if field.is_relation else field
        return cls(field, field.attname, sets_value, always, PLAIN.get(target.get_internal_type()))

    def value(self, instance: Model, add: bool) -> Any:
        """What ``save()`` writes of ``instance`` (``add``: inserted)."""
        return self.prepared(
            self.field.pre_save(instance, add) if self.sets_value else getattr(instance, self.attname)
        )

    def prepared(self, value: Any) -> Any:
        """``value`` as the database takes it."""
        if value is None or type(value) is self.plain:
            return value
        return self.field.get_db_prep_save(value, connection)


@dataclass(frozen=True)
class _History:
    """A model's history row as django-simple-history fills it: every tracked field, then when,
    why, what kind of change and who (the row's own id is the database's)."""

    table: str
    tracked: tuple[_Column, ...]
    own: tuple[Field, ...]  # history_date, history_change_reason, history_type, history_user

    @classmethod
    def of(cls, model: type[Deal] | type[Match]) -> _History:
        history, tracked, own = history_fields(model, "the deal path")
        return cls(_q(history._meta.db_table), tuple(_Column.of(f) for f in tracked), tuple(own))

    @property
    def columns(self) -> str:
        return ", ".join([*(_column(c.field) for c in self.tracked), *(_column(f) for f in self.own)])

    def own_values(self, instance: Model, kind: str, user: Any) -> list[Any]:
        values = {
            "history_date": getattr(instance, "_history_date", None) or timezone.now(),
            "history_change_reason": get_change_reason_from_object(instance),
            "history_type": kind,
            "history_user_id": getattr(user, "pk", None),
        }
        return [f.get_db_prep_save(values[f.attname], connection) for f in self.own]

    def values(self, instance: Model, kind: str, user: Any) -> list[Any]:
        tracked = [c.prepared(getattr(instance, c.attname)) for c in self.tracked]
        return [*tracked, *self.own_values(instance, kind, user)]


def _marks(n: int) -> str:
    return ", ".join(["%s"] * n)


@dataclass(frozen=True)
class _Writes:
    deal_columns: tuple[_Column, ...]
    match_columns: tuple[_Column, ...]  # those written: the match's fields, or those changed
    deal_history: _History
    match_history: _History
    insert_deal: str  # each statement on its own (SQLite)
    insert_deal_history: str
    update_match: str
    insert_match_history: str
    all_in_one: str | None  # the four in one statement (PostgreSQL: data-modifying WITH)


@functools.cache
def _columns(model: type[Model]) -> tuple[_Column, ...]:
    return tuple(_Column.of(f) for f in model._meta.concrete_fields if not f.primary_key)


@functools.cache
def _histories() -> tuple[_History, _History]:
    return _History.of(Deal), _History.of(Match)


@functools.cache
def _writes(vendor: str, match_attnames: tuple[str, ...]) -> _Writes:
    """The statements that insert a deal and update the match's fields ``match_attnames``."""
    deal_columns = _columns(Deal)
    match_columns = tuple(c for c in _columns(Match) if c.attname in match_attnames)
    deal_history, match_history = _histories()
    insert_deal = (
        f"INSERT INTO {_q(Deal._meta.db_table)} ({', '.join(_column(c.field) for c in deal_columns)}) "
        f"VALUES ({_marks(len(deal_columns))})"
    )
    update_match = (
        f"UPDATE {_q(Match._meta.db_table)} "
        f"SET {', '.join(f'{_column(c.field)} = %s' for c in match_columns)} "
        f"WHERE {_column(Match._meta.pk)} = %s"
    )
    pk = _column(Deal._meta.pk)

    def history_from(history: _History, source: str) -> str:
        picked = ", ".join(f"{source}.{_column(c.field)}" for c in history.tracked)
        return (
            f"INSERT INTO {history.table} ({history.columns}) "
            f"SELECT {picked}, {_marks(len(history.own))} FROM {source}"
        )

    all_in_one = None
    if vendor == "postgresql":
        all_in_one = (
            f"WITH d AS ({insert_deal} RETURNING *), hd AS ({history_from(deal_history, 'd')}), "
            f"m AS ({update_match} RETURNING *), hm AS ({history_from(match_history, 'm')}) "
            f"SELECT d.{pk} FROM d"
        )

    def history_insert(history: _History) -> str:
        marks = _marks(len(history.tracked) + len(history.own))
        return f"INSERT INTO {history.table} ({history.columns}) VALUES ({marks})"

    return _Writes(
        deal_columns,
        match_columns,
        deal_history,
        match_history,
        f"{insert_deal} RETURNING {pk}",
        history_insert(deal_history),
        update_match,
        history_insert(match_history),
        all_in_one,
    )


def _changed(match: Match) -> tuple[str, ...]:
    """The match's fields to write: those changed since ``read_locked`` read it (its row has been
    locked since, so the others hold what the row holds) and those ``save()`` sets (``auto_now``);
    every field of a match read otherwise."""
    read = getattr(match, "read_values", None)
    if read is None:
        return tuple(c.attname for c in _columns(Match))
    return tuple(
        c.attname for c in _columns(Match) if c.sets_it_always or getattr(match, c.attname) != read[c.attname]
    )


def write_recorded(match: Match, deal: Deal, user: Any) -> None:
    """Insert ``deal`` (it gets its id) and its history row ("+"), save ``match`` and its history
    row ("~"): the rows ``deal.save()`` and ``match.save()`` write, with ``user`` for both. Of a
    match read by ``read_locked``, only the fields changed since are sent: the history row is
    filled from the row as written all the same."""
    writes = _writes(connection.vendor, _changed(match))
    deal_values = [c.value(deal, True) for c in writes.deal_columns]
    match_values = [c.value(match, False) for c in writes.match_columns]
    with _cursor() as cursor:
        if writes.all_in_one:  # the history rows are filled from the rows as written
            cursor.execute(
                writes.all_in_one,
                [
                    *deal_values,
                    *writes.deal_history.own_values(deal, "+", user),
                    *match_values,
                    match.pk,
                    *writes.match_history.own_values(match, "~", user),
                ],
            )
            deal.pk = cursor.fetchone()[0]
        else:
            cursor.execute(writes.insert_deal, deal_values)
            deal.pk = cursor.fetchone()[0]
            cursor.execute(writes.insert_deal_history, writes.deal_history.values(deal, "+", user))
            cursor.execute(writes.update_match, [*match_values, match.pk])
            cursor.execute(writes.insert_match_history, writes.match_history.values(match, "~", user))
    deal._state.adding, deal._state.db = False, connection.alias
    read = getattr(match, "read_values", None)
    if read is not None:  # what the row holds now
        read.update((c.attname, getattr(match, c.attname)) for c in writes.match_columns)
