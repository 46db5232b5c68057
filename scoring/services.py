"""Writes: every change to a match goes through here, atomically.

A new deal is checked and scored by the engine (``engine.step``) against the state the match's
last deal left, stored on the match (``Match.state``); a correction or a deletion is checked
against the whole match (the deals before it and after it) by a replay. Either way the state,
totals, status and winner are rewritten from the engine's verdict in the same transaction, the
match row locked. A refused deal raises ``ScoringError`` with a message for the player and
changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import connection, transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from players import services as people
from players.errors import PlayerError
from players.models import Player

from . import deal_sql, engine, presets, removals, selectors
from .models import Deal, Match
from .signals import MatchResult, match_changed


def _replay(match: Match, deals: Sequence[engine.Deal]) -> engine.Sheet:
    return engine.replay(match.ruleset, deals, options=match.options, first_dealer=match.first_dealer)


def _engine_deal(data: Mapping[str, Any] | engine.Deal) -> engine.Deal:
    return data if isinstance(data, engine.Deal) else engine.Deal.from_dict(data)


def _active(match: Match) -> list[Deal]:
    return list(match.deals.filter(deleted_at__isnull=True).order_by("position"))


def _locked(match: Match) -> Match:
    """The match row, locked until the transaction ends: one change at a time. A match the caller
    locked itself with ``match_lock`` (in the transaction it holds) is used as it is."""
    if getattr(match, "row_locked", False) and connection.in_atomic_block:
        return match
    # With its tournament's table, round and tournament (a timed round's clock), in the same read.
    locking = Match.objects.select_related("table__round__tournament")
    if connection.features.has_select_for_update_of:
        return locking.select_for_update(of=("self",)).get(pk=match.pk)
    return locking.select_for_update().get(pk=match.pk)


def match_lock(
    *, pk: int, user: Any = None, client_key: uuid.UUID | str | None = None, names: bool = True
) -> Match | None:
    """The match ``pk``, its row locked until the caller's transaction ends (call it inside
    ``transaction.atomic``), read in one query with what ``permissions`` needs to say whether
    ``user`` may see and change it (its tournament's table, round and tournament; whether ``user``
    keeps it and may write), with (``names``) its teams' and seats' names, and with what recording
    a deal sent with ``client_key`` needs. None when there is no such match. Pass it to
    ``deal_record`` in the same transaction: the match is not read or locked again."""
    if not connection.in_atomic_block:
        raise transaction.TransactionManagementError("match_lock() locks for the transaction it is called in")
    try:
        key = uuid.UUID(str(client_key)) if client_key else None
    except ValueError:
        key = None  # not a key: the form or the API says so, later
    match = deal_sql.read_locked(pk, user=user, client_key=key, names=names)
    if match is not None:
        match.row_locked, match.locked_key = True, key
    return match


def _state(match: Match) -> tuple[engine.MatchState, list[int]]:
    """Where the match's last deal left it, and the deals each team suffered so far: as stored on
    the match, or, for a match stored without a state, from a replay of its deals."""
    if match.state:
        return engine.MatchState.from_dict(match.state), list(match.suffered or (0, 0))
    sheet = _replay(match, [d.as_engine() for d in _active(match)])
    assert sheet.state is not None  # a replay's sheet carries the state its last deal left
    return sheet.state, suffered(sheet)


class StaleSheet(engine.ScoringError):
    """The change was asked for on a sheet that has changed since (another tablet or client wrote)."""

    def __init__(self, message: str | None = None, *, version: int) -> None:
        super().__init__(
            message
            or "the sheet changed since you last saw it (another tablet recorded or corrected a deal): "
            "here it is as it is now; check it and try again"
        )
        self.version = version  # the match's version now


class IdempotencyConflict(engine.ScoringError):
    """A client key sent again with a different deal: nothing is stored."""


def _after_the_end(match: Match) -> Any:
    """The match's tournament table once that tournament is finished (the tournament says so:
    ``Table.event_over``), else None. A match read by ``match_lock`` or ``_locked`` knows its table
    without a query."""
    try:
        table = match.table
    except ObjectDoesNotExist:
        return None
    return table if table is not None and getattr(table, "event_over", False) else None


def _check_counted(match: Match) -> Any:
    """Refuse any change, the organizer's too, to a match its tournament finished without (left out
    by an early finish, or never begun: ``Table.left_out``); it counts for nobody. The match's table
    once its tournament is finished (its results stay open to the organizer's corrections), else
    None."""
    table = _after_the_end(match)
    if table is not None and getattr(table, "left_out", False):
        raise engine.ScoringError(
            "the tournament finished without this match: it counts for nobody and takes no more deals"
        )
    return table


def _check_version(match: Match, expected_version: int | None) -> None:
    """Refuse a change asked for on an older sheet than the locked match's (None: no check)."""
    if expected_version is not None and expected_version != match.version:
        raise StaleSheet(version=match.version)


def fingerprint(deal: engine.Deal) -> str:
    """What a deal says, as a short hash: a resend under the same client key must say the same."""
    return _fingerprint(deal.to_dict())


def _fingerprint(data: Mapping[str, Any]) -> str:
    """``fingerprint`` of a deal's ``to_dict()``."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def suffered(sheet: engine.Sheet) -> list[int]:
    """Deals each team lost as a committed side: mesa, failed, inside, dedans."""
    counts = [0, 0]
    for row in sheet.rows:
        team = engine.sufferer(row.result, row.deal.maker)
        if team is not None:
            counts[team] += 1
    return counts


def _apply(
    match: Match, state: engine.MatchState, suffered_deals: list[int], user: Any, *, ended: Any = None
) -> None:
    """Store the engine's verdict on the match (its state after the last deal, and the deals each
    team suffered), count the change, tell who listens. ``ended``: the match's table, its tournament
    finished; a correction there is the organizer's decision, confirmed at once (nobody is left to
    confirm it), so that a result that counted still counts."""
    previous = MatchResult.of(match)
    _verdict(match, state, suffered_deals)
    asked = ended is not None and getattr(ended, "confirmation_asked", False)
    if asked and match.status == Match.Status.FINISHED:
        match.confirmed_at, match.confirmed_by = timezone.now(), user
    match._history_user = user
    match.save()
    match_changed.send(sender=Match, match=match, previous=previous)


def _verdict(match: Match, state: engine.MatchState, suffered_deals: list[int]) -> None:
    """The engine's verdict on the match, in memory: its state, totals, status, winner, suffered
    deals, when it finished; any change asks for a new confirmation and raises the version."""
    match.state = state.to_dict()
    match.status = str(state.status)
    match.winner = state.winner
    match.totals = list(state.totals)
    match.suffered = suffered_deals
    if state.status == engine.Status.FINISHED:
        match.finished_at = match.finished_at or timezone.now()
    else:
        match.finished_at = None
    # Any change asks for a new confirmation of the result.
    match.confirmed_by_team = match.confirmed_at = match.confirmed_by = None
    match.version += 1


def _apply_sheet(match: Match, sheet: engine.Sheet, user: Any, *, ended: Any = None) -> None:
    """``_apply`` after a replay of the whole match."""
    assert sheet.state is not None  # a replay's sheet carries the state its last deal left
    _apply(match, sheet.state, suffered(sheet), user, ended=ended)


def _people(call, /, **kwargs):
    """A call to the people app, its refusal told as the rules' (same words, same field)."""
    try:
        return call(**kwargs)
    except PlayerError as error:
        raise engine.ScoringError(error.message, field=error.field) from None


@transaction.atomic
def match_create(
    *,
    teams: Sequence[tuple[str, Sequence[Player | str]]],
    ruleset: str | None = None,
    options: Mapping[str, Any] | None = None,
    preset: str = "",
    first_dealer: int = 0,
    created_by: Any = None,
    preset_must_exist: bool = True,
    deal_check: bool = False,
) -> Match:
    """Start a match: two teams of (name, (player, player)), seated 0/2 and 1/3.

    The rules: ``ruleset`` (Mpourloto when none) and its ``options``; with a named ``preset``, its game
    and its options, the ``options`` given over them, and its name kept beside them. An unknown preset
    is refused, unless ``preset_must_exist`` is false (a tournament's or a match file's options are
    spelt out already: the name is kept, whether or not the preset still exists).

    A player is a ``Player`` the caller picked (``scoring.selectors.team_entry`` resolves ids, where
    the caller may see them) or a name, which always makes a new player: a typed name never becomes
    an existing person. The team of that name with these two partners is reused, else made.
    With ``deal_check`` (a tournament that asks for it), the other team checks each deal on the tablet
    (``deal_check``, the service)."""
    ruleset, options, preset = presets.preset_apply(
        preset=preset, ruleset=ruleset, options=options, must_exist=preset_must_exist
    )
    rules = engine.get_ruleset(ruleset)
    opts = rules.options(options)
    if first_dealer not in range(4):
        raise engine.ScoringError("the first dealer must be one of the four seats", field="first_dealer")
    if len(teams) != 2:
        raise engine.ScoringError("a match has two teams", field="teams")
    if any(len(names) != 2 for _, names in teams):
        raise engine.ScoringError("each team has two players", field="teams")
    clean = people.player_name_clean
    given = [[p if isinstance(p, Player) else _people(clean, name=p) for p in names] for _, names in teams]
    if len({p.pk if isinstance(p, Player) else p.casefold() for pair in given for p in pair}) != 4:
        # the same player picked twice, or the same new name typed twice
        raise engine.ScoringError("four different players are needed: a player sits only once", field="teams")
    players = [
        [p if isinstance(p, Player) else _people(people.player_create, name=p) for p in pair]
        for pair in given
    ]
    team0, team1 = (
        _people(people.team_get_or_create, name=name, players=(pair[0], pair[1]))
        for (name, _), pair in zip(teams, players, strict=True)
    )
    match = Match(
        ruleset=ruleset,
        options=rules.spelt_out(opts),  # every option spelt out: a later default cannot change it
        preset=preset,
        target=opts.target,
        team0=team0,
        team1=team1,
        seat0=players[0][0],
        seat1=players[1][0],
        seat2=players[0][1],
        seat3=players[1][1],
        first_dealer=first_dealer,
        created_by=created_by,
        deal_check=deal_check,
    )
    match.totals, match.suffered = [0, 0], [0, 0]
    match.state = engine.MatchState.start(first_dealer).to_dict()
    match._history_user = created_by
    match.save()
    if created_by is not None:
        match.keepers.add(created_by)
    return match


def _import_size_check(data: Any) -> None:
    """Refuse a file of more deals than ``TSOXA_IMPORT_MAX_DEALS`` before anything is read or replayed."""
    most = settings.TSOXA_IMPORT_MAX_DEALS
    deals = data.get("deals") if isinstance(data, Mapping) else None
    if isinstance(deals, Sequence) and not isinstance(deals, str | bytes) and len(deals) > most:
        raise engine.ScoringError(
            f"a match file to import has at most {most} deals; this one has {len(deals)}", field="deals"
        )


def _import_deals(match: Match, deals: Sequence[engine.Deal], user: Any) -> None:
    """The file's deals saved in one go, each with its history row created by ``user``."""
    rows = [
        Deal(match=match, position=position, data=deal.to_dict(), entered_by=user)
        for position, deal in enumerate(deals, start=1)
    ]
    bulk_create_with_history(rows, Deal, default_user=user)


def _preset_filled(data: Any) -> Any:
    """A match file that names a preset this site knows, its rule set and options filled in from the
    preset where the file leaves them out (FORMAT.md: a file written by Tsoxa spells every option out,
    so nothing changes for it). A preset this site does not know is only a name: the file's own options
    count. A preset of another game than the file's is refused."""
    if not isinstance(data, Mapping) or not isinstance(data.get("preset"), str):
        return data
    options = data.get("options") or {}
    ruleset = data.get("ruleset")
    if not isinstance(options, Mapping) or not isinstance(ruleset, str | None):
        return data  # load_match says what is wrong
    if presets.preset_get(data["preset"]) is None:
        return data  # another site's preset, or one deleted since: a name only
    ruleset, options, name = presets.preset_apply(preset=data["preset"], ruleset=ruleset, options=options)
    return {**data, "ruleset": ruleset, "options": options, "preset": name}


@transaction.atomic
def match_import(*, data: Mapping[str, Any], created_by: Any = None) -> Match:
    """A match file (FORMAT.md) becomes a match with its deals, all or nothing.

    The whole file is checked by one replay (``engine.load_match``), its deals are saved in bulk and
    the match takes its verdict from that one sheet; a file of more than ``TSOXA_IMPORT_MAX_DEALS``
    deals is refused before it is read. The match ends as if its deals had been recorded one by one
    (the same rows, and a version that counts them).
    """
    _import_size_check(data)
    match_file = engine.load_match(_preset_filled(data))  # every deal checked first: a bad file saves nothing
    if match_file.teams is None:
        raise engine.ScoringError("a match file to import names its two teams", field="teams")
    # Beside the names, a team may pick existing people: ``player_ids`` and its ``id`` (team_entry).
    teams = [
        selectors.team_entry(
            name=t.name,
            players=t.players,
            player_ids=raw.get("player_ids"),
            team_id=raw.get("id"),
            user=created_by,
            field=f"teams[{i}]",
        )
        for i, (t, raw) in enumerate(zip(match_file.teams, data["teams"], strict=True))
    ]
    match = match_create(
        teams=teams,
        ruleset=match_file.ruleset,
        options=match_file.options,
        preset=match_file.preset,
        first_dealer=match_file.first_dealer,
        created_by=created_by,
        preset_must_exist=False,
    )
    if match_file.deals:
        _import_deals(match, match_file.deals, created_by)
        match.version = len(match_file.deals) - 1  # _apply counts the last one
        _apply_sheet(match, match_file.sheet(), created_by)
    return match


@transaction.atomic
def match_confirm(*, match: Match, team: int, user: Any = None) -> Match:
    """A team agrees with the finished result (bridge clubs' confirmation); a later change undoes it."""
    match = _locked(match)
    _check_counted(match)
    if match.status != Match.Status.FINISHED:
        raise engine.ScoringError("only a finished match can be confirmed")
    if team not in (0, 1):
        raise engine.ScoringError("the confirming team is 0 or 1", field="team")
    if match.confirmed_at is not None:
        raise engine.ScoringError("this result is already confirmed")
    previous = MatchResult.of(match)
    match.confirmed_by_team, match.confirmed_at, match.confirmed_by = team, timezone.now(), user
    match._history_user = user
    match.save()
    match_changed.send(sender=Match, match=match, previous=previous)
    return match


@transaction.atomic
def match_finish(*, match: Match, user: Any = None, expected_version: int | None = None) -> Match:
    """End a match now, by agreement (time called, the café closing), after whatever deal came
    last, a thrown-in one too: the higher total wins, equal totals are a draw. The option
    ``ended_after`` records where it ended; the earlier options stay in the match's history."""
    match = _locked(match)
    _check_version(match, expected_version)
    _check_counted(match)
    if match.status == Match.Status.FINISHED:
        raise engine.ScoringError("the match is already over")
    deals = [d.as_engine() for d in _active(match)]
    if not any(not d.thrown_in for d in deals):
        raise engine.ScoringError("no deal has been played: delete the match instead")
    match.options = {**match.options, "ended_after": len(deals)}
    sheet = _replay(match, deals)
    _apply_sheet(match, sheet, user)
    return match


def deal_record(
    *,
    match: Match,
    deal: Mapping[str, Any] | engine.Deal,
    client_key: uuid.UUID | str | None = None,
    user: Any = None,
    expected_version: int | None = None,
) -> Deal:
    """Add a deal at the end of the match: scored by one ``engine.step`` from the state its last
    deal left (``Match.state``), saved with its history, and the match's new state stored.

    A deal sent again with the same ``client_key`` (a double tap, a resent
    form) returns the deal first recorded and records nothing. With
    ``expected_version`` (the version of the sheet the deal was entered on), a
    deal entered on a sheet another tablet has changed since is refused
    (``StaleSheet``), so that nobody adds a deal to a sheet they have not seen.

    The deal returned has ``row`` (its row on the sheet, or None for a resend), ``number`` and
    ``created`` (False for a resend). In a transaction the caller holds with the match from
    ``match_lock``, nothing is read or locked again; else the match is locked here.
    """
    if getattr(match, "row_locked", False) and connection.in_atomic_block:
        return _deal_record(match, deal, client_key, user, expected_version)
    with transaction.atomic():
        return _deal_record(_locked(match), deal, client_key, user, expected_version)


def _deal_record(
    match: Match,
    deal: Mapping[str, Any] | engine.Deal,
    client_key: uuid.UUID | str | None,
    user: Any,
    expected_version: int | None,
) -> Deal:
    rules = engine.get_ruleset(match.ruleset)
    opts = rules.options(match.options)
    state, counts = _state(match)
    try:
        new = _engine_deal(deal)
    except engine.ScoringError as error:
        raise error.at(state.dealt) from None  # it would have been the next deal
    # Under the match's lock: a key sent twice at once is found here by the second request. The
    # last position (deleted deals keep theirs) and the deal already recorded with this key, if
    # any: read with the locked match (match_lock), else in one query.
    client_key = uuid.UUID(str(client_key)) if client_key else None
    facts = getattr(match, "deal_facts", None)
    if facts is None or getattr(match, "locked_key", None) != client_key:
        facts = deal_sql.deal_facts(match.pk, client_key)
    last, earlier_pk = facts
    if earlier_pk is not None:
        earlier = Deal.objects.get(pk=earlier_pk)
        if earlier.client_fingerprint and earlier.client_fingerprint != fingerprint(new):
            raise IdempotencyConflict(
                "this key was already used for another deal: a new deal needs a new key", field="key"
            )
        earlier.created, earlier.row, earlier.number = False, None, None
        return earlier  # the same deal sent again: recorded once
    _check_counted(match)  # a match its tournament finished without counts for nobody
    if expected_version is not None and expected_version != match.version:
        raise StaleSheet(
            "the sheet changed since this deal was entered (another tablet recorded or corrected a deal): "
            "here it is; check it and record the deal again",
            version=match.version,
        )
    state, row = engine.step(rules, opts, state, new)
    data = new.to_dict()
    record = Deal(
        match=match,
        position=(last or 0) + 1,
        data=data,
        client_key=client_key,
        client_fingerprint=_fingerprint(data) if client_key else "",
        entered_by=user,
    )
    record._history_user = user
    team = engine.sufferer(row.result, new.maker)
    if team is not None:
        counts[team] += 1
    previous = MatchResult.of(match)
    _verdict(match, state, counts)
    # No savepoint: the match's row lock makes the key's check and this insert one step (the
    # database's unique key on (match, client_key) stays the last word). The rows ``save()`` would
    # write, in the statements deal_sql.py writes by hand.
    deal_sql.write_recorded(match, record, user)
    match_changed.send(sender=Match, match=match, previous=previous)
    # What the match's sheet now stands at, for an answer made without reading the match again:
    # the state this deal left, unless time was called (the deal in play was the last).
    scored: tuple[engine.RuleSet, Any, engine.MatchState] | None = (rules, opts, state)
    if match.status != Match.Status.FINISHED and _time_called(match):
        match.row_locked = True  # locked above, in this transaction
        match_finish(match=match, user=user)
        scored = None
    record.created, record.row, record.number, record.scored = True, row, row.number, scored  # 201, then 200
    return record


def _time_called(match: Match) -> bool:
    """Whether the match is at a tournament table whose timed round has run out (the tournament
    says so: ``Table.time_is_up``). A match read by ``match_lock`` knows its table without a query."""
    try:
        table = match.table
    except ObjectDoesNotExist:
        return False
    return table is not None and bool(getattr(table, "time_is_up", False))


@transaction.atomic
def deal_correct(
    *,
    deal: Deal,
    data: Mapping[str, Any] | engine.Deal,
    user: Any = None,
    expected_version: int | None = None,
) -> Deal:
    """Replace what a deal says; the earlier version stays in its history.

    With ``expected_version``, a correction asked for on a sheet that has changed since is refused
    (``StaleSheet``): of two corrections sent at once from the same sheet, one wins, the other is told.
    """
    match = _locked(deal.match)
    _check_version(match, expected_version)
    deal = match.deals.get(pk=deal.pk)
    if deal.deleted_at is not None:
        raise engine.ScoringError("this deal was deleted; it can no longer be corrected")
    ended = _check_counted(match)
    active = _active(match)
    try:
        new = _engine_deal(data)
    except engine.ScoringError as error:
        raise error.at([d.pk for d in active].index(deal.pk)) from None
    sheet = _replay(match, [new if d.pk == deal.pk else d.as_engine() for d in active])
    if deal.data != new.to_dict():  # what the other team checked is no longer what the deal says
        deal.checked_at = deal.checked_by = None
    deal.data = new.to_dict()
    deal._history_user = user
    deal.save()
    _apply_sheet(match, sheet, user, ended=ended)
    return deal


@transaction.atomic
def deal_check(*, deal: Deal, user: Any = None) -> Deal:
    """The other team agrees with a deal's line, on the tablet (a match whose tournament asks for it:
    ``Match.deal_check``). Checking it again changes nothing (a double tap is harmless); a correction
    that changes the deal undoes the check (``deal_correct``). It changes nothing on the sheet: the
    match's version stays, only its ``updated_at`` moves (a client mirroring the API sees it)."""
    match = _locked(deal.match)
    if not match.deal_check:
        raise engine.ScoringError("this match's deals are not checked by the other team")
    deal = match.deals.get(pk=deal.pk)
    if deal.deleted_at is not None:
        raise engine.ScoringError("this deal was deleted; it can no longer be checked")
    _check_counted(match)
    if deal.checked_at is not None:
        return deal
    deal.checked_at, deal.checked_by = timezone.now(), user
    deal._history_user = user
    deal._change_reason = "checked"  # the history says so (scoring/_history.html), not "corrected"
    deal.save(update_fields=["checked_at", "checked_by", "updated_at"])
    Match.objects.filter(pk=match.pk).update(updated_at=deal.checked_at)
    return deal


@transaction.atomic
def deal_delete(*, deal: Deal, user: Any = None, expected_version: int | None = None) -> Deal:
    """Take a deal out of the match; it stays in the history (refused on a stale sheet, as above).
    A client mirroring the API learns it from the tombstone written with it (``removals``)."""
    match = _locked(deal.match)
    _check_version(match, expected_version)
    deal = match.deals.get(pk=deal.pk)
    if deal.deleted_at is not None:
        return deal
    ended = _check_counted(match)
    sheet = _replay(match, [d.as_engine() for d in _active(match) if d.pk != deal.pk])
    deal.deleted_at = timezone.now()
    deal._history_user = user
    deal.save()
    _apply_sheet(match, sheet, user, ended=ended)
    removals.removal_record(
        kind=removals.Kind.DEAL,
        object_id=deal.pk,
        reason=removals.Reason.DELETED,
        match_id=match.pk,
        tournament_id=removals.tournament_of(match),
    )
    return deal


@transaction.atomic
def deal_undo_last(*, match: Match, user: Any = None, expected_version: int | None = None) -> Deal | None:
    """Delete the last deal of the match, if there is one. With ``expected_version`` (the sheet the
    tablet showed when "Take back deal 7?" was asked), a deal recorded since is never the one taken."""
    match = _locked(match)
    _check_version(match, expected_version)
    last = match.deals.filter(deleted_at__isnull=True).order_by("-position").first()
    return None if last is None else deal_delete(deal=last, user=user)
