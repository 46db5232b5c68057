"""The audit page's sentences: every change to a tournament, as a director reads it afterwards.

"21:42 table 3 (tablet): deal 7 corrected, 104–48 → 84–68". The changes come from
django-simple-history's tables (the tournament, its entries, rounds, tables, their matches and deals,
the director's decisions) and from the director's calls; each is said in words, in local time, with
who acted: the organizer, another account by its name, a table's tablet (a deal or a match written
through the scorekeeper link has no user: the table is known from the match), "—" when unknown.

A page is the latest ``limit`` changes before ``before`` (the newest first when read, then told in the
order they happened, grouped by round: a round's heading holds what was done while it was the
current round and at its tables; "Set-up" is what came before the first). Reading it is a constant
number of queries whatever its length: per source, one for the page's rows and one for the versions
before them (a change is told against the version it replaced).

Ordinary play is left out (a deal recorded on its own table's tablet, the matches' running totals, a
deal checked by the other team): the match's own history page has it, deal by deal.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, ngettext, pgettext

from players.models import Player, Team
from scoring import engine
from scoring.models import Deal, Match

from .bracket import knockout_round_label
from .models import Adjustment, DirectorCall, Entry, Round, Table, Tournament
from .services.checkin import SELF_CHECKIN

LIMIT = 200

TOURNAMENT_FIELDS_SKIPPED = {
    "updated_at",
    "participants",
    "status",
    "started_at",
    "finished_at",
    "finish_reason",
    "finish_in_play",
    "checkin_open",
    "signup_open",
    "tiebreaks",
}


@dataclass
class Line:
    when: datetime
    order: int  # the history row's id, to keep the order of changes made in the same instant
    text: str
    who: str
    round: int | None = None  # the round it belongs to, if it is known from what changed
    table: int | None = None  # the table it happened at, if any
    tablet: bool = False  # done through the table's own link (no account)
    local: datetime = field(init=False)

    def __post_init__(self) -> None:
        self.local = timezone.localtime(self.when)

    @property
    def sentence(self) -> str:
        """ "table 3 (tablet): deal 7 corrected, 104–48 → 84–68", "table 5: result from the paper
        sheet 1012–874 (the organizer)", "Kyma (No. 4) checked in (the organizer)"."""
        words = {"table": self.table, "what": self.text, "who": self.who}
        if self.table is not None and self.tablet:
            return gettext("table %(table)s (tablet): %(what)s") % words
        if self.table is not None:
            return gettext("table %(table)s: %(what)s (%(who)s)") % words
        return gettext("%(what)s (%(who)s)") % words


def _at_table(record: Any, text: str, who: str, round_number: int, table: Any) -> Line:
    """A change to a table's match or deal, from its history ``record``: by its tablet when the
    record names no account."""
    return Line(
        record.history_date,
        record.history_id,
        text,
        who,
        round_number,
        table=table.number,
        tablet=record.history_user_id is None,
    )


def _score(a: int, b: int) -> str:
    return f"{a}–{b}"


class _Reader:
    """One page of the audit: the rows, the versions they replaced, the names they need."""

    def __init__(self, tournament: Tournament, before: datetime | None, limit: int) -> None:
        self.t = tournament
        self.before = before
        self.limit = limit
        self.cutoff: datetime | None = None
        self.tables = {
            t.pk: t
            for t in Table.objects.filter(round__tournament=tournament).select_related("round").order_by()
        }
        self.table_of_match = {t.match_id: t for t in self.tables.values() if t.match_id}
        self.rounds = {r.pk: r for r in tournament.rounds.all()}
        brackets: dict[int, list[str]] = defaultdict(list)
        for table in sorted(self.tables.values(), key=lambda x: x.number):
            brackets[table.round_id].append(table.bracket)
        self.labels = {
            pk: knockout_round_label(r, brackets.get(pk, []))
            for pk, r in self.rounds.items()
            if r.kind == Round.Kind.KNOCKOUT
        }

    # Rows and the versions before them ----------------------------------------------------

    def rows(self, model: Any, keep: Q | None = None, **where: Any) -> list[tuple[Any, Any]]:
        """The latest ``limit`` history rows of ``model`` before the page's bound (those ``keep``
        selects: ordinary play is left out in the query), each with the version it replaced (None for
        a creation): two queries. A source with more rows than the page holds sets ``cutoff``: this
        page is complete from there on only."""
        history = model.history.filter(**where)
        page = history if keep is None else history.filter(keep)
        if self.before is not None:
            page = page.filter(history_date__lt=self.before)
        found = list(page.order_by("-history_date", "-history_id")[: self.limit])
        if not found:
            return []
        if len(found) == self.limit:
            edge = found[-1].history_date
            self.cutoff = edge if self.cutoff is None else max(self.cutoff, edge)
        ids = {r.id for r in found if r.history_type != "+"}
        earlier: dict[int, list[Any]] = defaultdict(list)
        if ids:
            newest = max(r.history_date for r in found)
            for r in history.filter(id__in=ids, history_date__lte=newest).order_by(
                "history_date", "history_id"
            ):
                earlier[r.id].append(r)
        out = []
        for r in found:
            versions = earlier.get(r.id, [])
            previous = None
            for v in versions:
                if (v.history_date, v.history_id) < (r.history_date, r.history_id):
                    previous = v
                else:
                    break
            out.append((r, previous))
        return out

    # Who acted ----------------------------------------------------------------------------

    def who(self, user_id: int | None, users: dict[int, str], table: Table | None = None) -> str:
        if user_id is None:
            if table is not None:
                return gettext("table %(number)s (tablet)") % {"number": table.number}
            return "—"
        if user_id == self.t.organizer_id:
            return gettext("the organizer")
        return users.get(user_id, "—")


def _deal_score(match: Match | None, data: dict[str, Any]) -> tuple[int, int] | None:
    """A deal's own scores (what each team made of it, held points left out), or None if it does
    not score on its own."""
    if match is None:
        return None
    try:
        scored = engine.score_deal(match.ruleset, engine.Deal.from_dict(data), match.options)
    except Exception:  # an old version the rules no longer read: said without its score
        return None
    return scored.scores[:2]


def _field_label(model: type[models.Model], name: str) -> str:
    """A field's label, as its history's diff names it (one of the model's own fields)."""
    found = model._meta.get_field(name)
    assert isinstance(found, models.Field)  # a diff names a field, never a reverse relation
    return str(found.verbose_name)


EDIT = re.compile(r"^(No\.|name|players): (.*) → (.*)$")


def _edits(reason: str | None) -> dict[str, tuple[str, str]] | None:
    """An entry edit's change reason (``services.entry_edit``: "No.: 3 → 4; name: Kima → Kyma"),
    read back: ``{"name": ("Kima", "Kyma"), …}``; None for any other reason."""
    if not reason:
        return None
    found = {}
    for part in reason.split("; "):
        matched = EDIT.match(part)
        if matched is None:
            return None
        found[matched.group(1)] = (matched.group(2), matched.group(3))
    return found


def _entry_name(row: Any, teams: dict[int, str], players: dict[int, str], numbered: bool = True) -> str:
    name = teams.get(row.team_id) if row.team_id else players.get(row.player_id)
    if not numbered:
        return name or "?"
    return _numbered(name or "?", row.number)


def _numbered(name: str, number: int | None) -> str:
    """ "Kyma (No. 4)": a team with its number, as the pairings show it."""
    return gettext("%(name)s (No. %(number)s)") % {"name": name, "number": number} if number else name


def audit_page(
    *, tournament: Tournament, before: datetime | None = None, limit: int = LIMIT
) -> dict[str, Any]:
    """A page of the audit: ``{"groups": [{"title", "round", "lines": [Line …]}], "older": bound or
    None}``; groups and lines in the order things happened; ``older`` is the ``before`` of the page of
    earlier changes, if there are any."""
    reader = _Reader(tournament, before, limit)
    match_ids = list(reader.table_of_match)
    sources = {
        "tournament": reader.rows(Tournament, id=tournament.pk),
        "entry": reader.rows(Entry, tournament_id=tournament.pk),
        "round": reader.rows(Round, tournament_id=tournament.pk),
        "table": reader.rows(Table, round__tournament_id=tournament.pk),
        # a match's running totals are not news: its finish and confirmation are
        "match": reader.rows(Match, Q(status=Match.Status.FINISHED), id__in=match_ids),
        # a deal recorded on its own table's tablet, or checked by the other team, is ordinary play
        "deal": reader.rows(
            Deal,
            ~Q(history_type="+", history_user__isnull=True) & ~Q(history_change_reason="checked"),
            match_id__in=match_ids,
        ),
        "adjustment": reader.rows(Adjustment, tournament_id=tournament.pk),
    }
    asked = DirectorCall.objects.filter(tournament=tournament)
    if before is not None:
        asked = asked.filter(created_at__lt=before)
    calls = list(asked.order_by("-created_at")[:limit])
    if len(calls) == limit:
        reader.cutoff = max(filter(None, (reader.cutoff, calls[-1].created_at)))

    # The names the sentences need, each kind in one query.
    user_ids = {r.history_user_id for rows in sources.values() for r, _ in rows if r.history_user_id}
    user_ids |= {c.acknowledged_by_id for c in calls if c.acknowledged_by_id}
    users = {u.pk: u.get_username() for u in get_user_model().objects.filter(pk__in=user_ids)}
    entry_rows = [r for rows in (sources["entry"],) for pair in rows for r in pair if r is not None]
    team_ids = {r.team_id for r in entry_rows if r.team_id}
    entry_ids = {a.entry_id for a, _ in sources["adjustment"] if a.entry_id}
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=entry_ids).select_related("team", "player")}
    teams = dict(Team.objects.filter(pk__in=team_ids).values_list("pk", "name"))
    players = dict(
        Player.objects.filter(pk__in={r.player_id for r in entry_rows if r.player_id}).values_list(
            "pk", "name"
        )
    )
    matches = {m.pk: m for m in Match.objects.filter(pk__in={r.match_id for r, _ in sources["deal"]})}

    lines: list[Line] = []
    add = lines.append
    t = tournament

    def entry_label(entry: Entry | None) -> str:
        if entry is None:
            return "?"
        return _numbered(entry.name, entry.number)

    # The tournament.
    for r, prev in sources["tournament"]:
        who = reader.who(r.history_user_id, users)
        if r.history_type == "+":
            add(Line(r.history_date, r.history_id, gettext("tournament created"), who))
            continue
        if prev is None:
            continue
        said = []
        if prev.status != r.status:
            if r.status == Tournament.Status.RUNNING:
                said.append(gettext("tournament started"))
            elif r.status == Tournament.Status.FINISHED:
                said.append(
                    gettext("tournament finished: %(reason)s") % {"reason": r.finish_reason}
                    if r.finish_reason
                    else gettext("tournament finished")
                )
        if prev.checkin_open != r.checkin_open:
            said.append(gettext("check-in opened") if r.checkin_open else gettext("check-in closed"))
        if prev.signup_open != r.signup_open:
            said.append(gettext("sign-up opened") if r.signup_open else gettext("sign-up closed"))
        if prev.name != r.name:
            said.append(gettext("tournament renamed %(old)s → %(new)s") % {"old": prev.name, "new": r.name})
        changed = [
            _field_label(Tournament, c.field)
            for c in r.diff_against(prev).changes
            if c.field not in TOURNAMENT_FIELDS_SKIPPED and c.field != "name"
        ]
        if changed:
            said.append(gettext("settings changed: %(fields)s") % {"fields": ", ".join(changed)})
        for text in said:
            add(Line(r.history_date, r.history_id, text, who))

    # The entries.
    for r, prev in sources["entry"]:
        who = reader.who(r.history_user_id, users)
        name = _entry_name(r, teams, players)
        reason = r.history_change_reason
        if r.history_type == "+":
            text = gettext("%(team)s entered") % {"team": name}
            if r.status == Entry.Status.PENDING:
                text = gettext("%(team)s signed up (awaiting approval)") % {"team": name}
            add(Line(r.history_date, r.history_id, text, who))
            continue
        if r.history_type == "-":
            add(Line(r.history_date, r.history_id, gettext("%(team)s removed") % {"team": name}, who))
            continue
        if prev is None:
            continue
        said = []
        edits = _edits(reason)  # entry_edit's "No.: 3 → 4; name: Kima → Kyma; players: …"
        if edits is not None:
            reason = ""
        else:
            edits = {}
        if "name" in edits:
            old, new = edits["name"]
            said.append(gettext("entry renamed %(old)s → %(new)s") % {"old": old, "new": new})
        elif prev.team_id != r.team_id or prev.player_id != r.player_id:
            old = _entry_name(prev, teams, players, numbered=False)
            new = _entry_name(r, teams, players, numbered=False)
            if old != new:
                said.append(gettext("entry renamed %(old)s → %(new)s") % {"old": old, "new": new})
        if "players" in edits:
            old, new = edits["players"]
            said.append(
                gettext("%(team)s: players %(old)s → %(new)s") % {"team": name, "old": old, "new": new}
            )
        if prev.number != r.number:
            said.append(
                gettext("%(team)s: number %(old)s → %(new)s")
                % {"team": name, "old": prev.number or "—", "new": r.number or "—"}
            )
        if reason == SELF_CHECKIN:  # the team's own link: no account
            reason, who = "", gettext("the team's own link")
        if reason == "reinstated":
            reason = ""
        if prev.status != r.status:
            if r.status == Entry.Status.WITHDRAWN:
                said.append(gettext("%(team)s withdrawn") % {"team": name})
            elif prev.status == Entry.Status.WITHDRAWN:
                said.append(gettext("%(team)s reinstated") % {"team": name})
            elif r.status == Entry.Status.CHECKED_IN:
                said.append(gettext("%(team)s checked in") % {"team": name})
            elif prev.status == Entry.Status.CHECKED_IN:
                said.append(gettext("check-in of %(team)s undone") % {"team": name})
            elif prev.status == Entry.Status.PENDING:
                said.append(gettext("%(team)s approved") % {"team": name})
        if prev.pool != r.pool and r.pool:
            said.append(gettext("%(team)s placed in pool %(pool)s") % {"team": name, "pool": r.pool})
        if reason and not said:
            said.append(gettext("%(team)s: %(reason)s") % {"team": name, "reason": reason})
        elif reason:
            said[-1] = gettext("%(what)s, ‘%(reason)s’") % {"what": said[-1], "reason": reason}
        for text in said:
            add(Line(r.history_date, r.history_id, text, who))

    # The rounds: drawn, started, finished, their clocks.
    for r, prev in sources["round"]:
        who = reader.who(r.history_user_id, users)
        n = r.number
        label = reader.labels.get(r.id)
        words = {"number": n, "name": label}
        if r.history_type == "+":
            text = (
                gettext("%(name)s drawn (round %(number)s)") if label else gettext("round %(number)s drawn")
            ) % words
            add(Line(r.history_date, r.history_id, text, who, n))
            continue
        if r.history_type == "-":
            add(Line(r.history_date, r.history_id, gettext("round %(number)s deleted") % words, who, n))
            continue
        if prev is None:
            continue
        if prev.status != r.status:
            if r.status == Round.Status.STARTED:
                text = gettext("round %(number)s started") % words
            elif r.status == Round.Status.FINISHED:
                text = gettext("round %(number)s finished") % words
            else:
                text = gettext("round %(number)s back to its draw") % words
            add(Line(r.history_date, r.history_id, text, who, n))
        if prev.clock_started_at is None and r.clock_started_at is not None:
            add(
                Line(r.history_date, r.history_id, gettext("round %(number)s: clock started") % words, who, n)
            )
        if prev.clock_paused_at is None and r.clock_paused_at is not None:
            add(Line(r.history_date, r.history_id, gettext("round %(number)s: clock paused") % words, who, n))
        elif prev.clock_paused_at is not None and r.clock_paused_at is None:
            add(
                Line(
                    r.history_date, r.history_id, gettext("round %(number)s: clock restarted") % words, who, n
                )
            )
        if prev.clock_extra_seconds != r.clock_extra_seconds:
            minutes = round((r.clock_extra_seconds - prev.clock_extra_seconds) / 60)
            text = ngettext(
                "round %(number)s: %(minutes)+d minute for every table",
                "round %(number)s: %(minutes)+d minutes for every table",
                abs(minutes),
            ) % {**words, "minutes": minutes}
            add(Line(r.history_date, r.history_id, text, who, n))

    # The tables: swaps (with the organizer's word when made anyway), time added, left out.
    entry_names = {
        e.pk: entry_label(e) for e in Entry.objects.filter(tournament=t).select_related("team", "player")
    }
    swaps: dict[tuple[str, int, datetime], list[tuple[Any, Any]]] = defaultdict(list)
    for r, prev in sources["table"]:
        if r.history_type != "~" or prev is None:
            continue
        rnd = reader.rounds.get(r.round_id)
        n = rnd.number if rnd else None
        who = reader.who(r.history_user_id, users)
        if (prev.entry0_id, prev.entry1_id) != (r.entry0_id, r.entry1_id):
            # the two tables of one swap are saved together: told once
            key = (
                r.history_change_reason or "",
                r.history_user_id or 0,
                r.history_date.replace(microsecond=0),
            )
            swaps[key].append((r, prev))
            continue
        if prev.extra_seconds != r.extra_seconds:
            minutes = round((r.extra_seconds - prev.extra_seconds) / 60)
            text = ngettext("%(minutes)+d minute", "%(minutes)+d minutes", abs(minutes)) % {
                "table": r.number,
                "minutes": minutes,
            }
            add(Line(r.history_date, r.history_id, text, who, n, table=r.number))
        if not prev.left_out and r.left_out:
            add(
                Line(
                    r.history_date,
                    r.history_id,
                    gettext("left out") % {"table": r.number},
                    who,
                    n,
                    table=r.number,
                )
            )
    for (reason, _user, _when), rows in swaps.items():
        r = rows[0][0]
        rnd = reader.rounds.get(r.round_id)
        n = rnd.number if rnd else None
        numbers = sorted({x.number for x, _ in rows})
        words = {
            "tables": " ↔ ".join(str(x) for x in numbers),
            "pairs": "; ".join(
                f"{x.number}: {entry_names.get(x.entry0_id, '?')} – {entry_names.get(x.entry1_id, '—')}"
                for x, _ in sorted(rows, key=lambda pair: pair[0].number)
            ),
            "reason": reason,
        }
        if reason:
            text = gettext("tables %(tables)s swapped anyway (%(reason)s): %(pairs)s") % words
        else:
            text = (
                ngettext(
                    "table %(tables)s changed: %(pairs)s",
                    "tables %(tables)s swapped: %(pairs)s",
                    len(numbers),
                )
                % words
            )
        add(Line(r.history_date, r.history_id, text, reader.who(r.history_user_id, users), n))

    # The matches: finished (with the totals), confirmed.
    for r, prev in sources["match"]:
        table = reader.table_of_match.get(r.id)
        if r.history_type != "~" or prev is None or table is None:
            continue
        who = reader.who(r.history_user_id, users, table)
        n = table.round.number
        words = {"table": table.number}
        if prev.status != r.status and r.status == Match.Status.FINISHED:
            totals = list(r.totals or [])[:2]
            text = (
                gettext("match finished, %(score)s") % {**words, "score": _score(*totals)}
                if len(totals) == 2
                else gettext("match finished") % words
            )
            add(_at_table(r, text, who, n, table))
        elif prev.status == Match.Status.FINISHED and r.status != Match.Status.FINISHED:
            add(_at_table(r, gettext("match reopened") % words, who, n, table))
        if prev.confirmed_at is None and r.confirmed_at is not None:
            add(_at_table(r, gettext("result confirmed") % words, who, n, table))

    # The deals: corrected (scores before → after), deleted; recorded only by someone else than the table.
    for r, prev in sources["deal"]:
        table = reader.table_of_match.get(r.match_id)
        if table is None:
            continue
        match = matches.get(r.match_id)
        who = reader.who(r.history_user_id, users, table)
        n = table.round.number
        words = {"table": table.number, "deal": r.position}
        if r.history_type == "+":
            if r.history_user_id is None:
                continue  # the table's own tablet: ordinary play
            score = _deal_score(match, r.data)
            text = (
                gettext("deal %(deal)s recorded, %(score)s") % {**words, "score": _score(*score)}
                if score
                else gettext("deal %(deal)s recorded") % words
            )
            add(_at_table(r, text, who, n, table))
            continue
        if prev is None or r.history_type != "~":
            continue
        if prev.deleted_at is None and r.deleted_at is not None:
            add(_at_table(r, gettext("deal %(deal)s deleted") % words, who, n, table))
        elif prev.data != r.data:
            old_score, new_score = _deal_score(match, prev.data), _deal_score(match, r.data)
            if old_score and new_score:
                text = gettext("deal %(deal)s corrected, %(old)s → %(new)s") % {
                    **words,
                    "old": _score(*old_score),
                    "new": _score(*new_score),
                }
            else:
                text = gettext("deal %(deal)s corrected") % words
            add(_at_table(r, text, who, n, table))

    # The director's decisions.
    for r, _prev in sources["adjustment"]:
        who = reader.who(r.history_user_id, users)
        table = reader.tables.get(r.table_id) if r.table_id else None
        n = table.round.number if table else None
        team = entry_label(entries.get(r.entry_id)) if r.entry_id else ""
        scores = list(r.scores or [])[:2]
        words = {
            "team": team,
            "table": table.number if table else "?",
            "reason": r.reason,
            "points": r.points,
            "score": _score(*scores) if len(scores) == 2 else "",
        }
        if r.history_type == "-":
            add(
                Line(
                    r.history_date,
                    r.history_id,
                    _undone(r.kind, words),
                    who,
                    n,
                    table=table.number if table else None,
                )
            )
            continue
        if r.history_type != "+":
            continue
        add(
            Line(
                r.history_date,
                r.history_id,
                _decision(r, words, table, entry_names),
                who,
                n,
                table=table.number if table else None,
            )
        )

    # The director's calls: the call (from the table's tablet) and its acknowledgement.
    for call in calls:
        table = reader.tables.get(call.table_id)
        if table is None:
            continue
        words = {"table": table.number}
        add(
            Line(
                call.created_at,
                0,
                gettext("called the director") % words,
                gettext("table %(number)s (tablet)") % {"number": table.number},
                table.round.number,
                table=table.number,
                tablet=True,
            )
        )
        if call.acknowledged_at and (before is None or call.acknowledged_at < before):
            add(
                Line(
                    call.acknowledged_at,
                    0,
                    gettext("call from table %(table)s answered") % words,
                    reader.who(call.acknowledged_by_id, users),
                    table.round.number,
                )
            )

    return _page(lines, reader, limit)


def _decision(r: Any, words: dict[str, Any], table: Table | None, entry_names: dict[int, str]) -> str:
    kind = r.kind
    if kind == Adjustment.Kind.PENALTY:
        parts = []
        if r.points:
            parts.append(ngettext("−%(n)s point", "−%(n)s points", r.points) % {"n": r.points})
        if r.match_points:
            parts.append(
                ngettext("−%(n)s match point", "−%(n)s match points", r.match_points) % {"n": r.match_points}
            )
        return gettext("penalty to %(team)s: %(what)s, ‘%(reason)s’") % {
            **words,
            "what": ", ".join(parts) or "0",
        }
    if kind == Adjustment.Kind.LATE:
        return gettext("%(team)s entered late: %(points)s points given for the rounds missed") % words
    winner = ""
    if table is not None and r.winner in (0, 1):
        winner_id = (table.entry0_id, table.entry1_id)[r.winner]
        winner = entry_names.get(winner_id, "?") if winner_id is not None else "?"
    words = {**words, "winner": winner}
    if kind == Adjustment.Kind.PAPER:
        return gettext("result from the paper sheet %(score)s") % words
    if kind == Adjustment.Kind.FORFEIT:
        return gettext("forfeit, won by %(winner)s %(score)s, ‘%(reason)s’") % words
    return gettext("match awarded to %(winner)s %(score)s, ‘%(reason)s’") % words


def _undone(kind: str, words: dict[str, Any]) -> str:
    if kind == Adjustment.Kind.PENALTY:
        return gettext("penalty to %(team)s removed (‘%(reason)s’)") % words
    if kind == Adjustment.Kind.LATE:
        return gettext("late entry's points to %(team)s removed") % words
    if kind == Adjustment.Kind.PAPER:
        return gettext("result from the paper sheet removed") % words
    return gettext("decision removed (‘%(reason)s’)") % words


def _page(lines: list[Line], reader: _Reader, limit: int) -> dict[str, Any]:
    """The latest ``limit`` lines, told in order and grouped by round; a line with no round of its
    own belongs to the round that was current then (the last one drawn before it). The page ends on
    a change's time, never between two changes made in the same instant (a paste of many teams):
    the next page (``older``) starts right before it."""
    lines.sort(key=lambda line: (line.when, line.order), reverse=True)
    older = None
    if reader.cutoff is not None:  # a source had more: this page is complete down to there only
        kept = [line for line in lines if line.when > reader.cutoff]
        lines = kept or [line for line in lines if line.when >= reader.cutoff]
        older = lines[-1].when if lines else reader.cutoff
    if len(lines) > limit:
        edge = lines[limit - 1].when
        shown = [line for line in lines if line.when > edge] if lines[limit].when == edge else lines[:limit]
        lines = shown or [line for line in lines if line.when >= edge]
        older = lines[-1].when
    lines.reverse()
    drawn = sorted((r.created_at, r.number) for r in reader.rounds.values())
    groups: list[dict[str, Any]] = []
    by_round: dict[int, dict[str, Any]] = {}
    for line in lines:
        n = line.round
        if n is None:
            n = 0
            for created, number in drawn:
                if created <= line.when:
                    n = number
        group = by_round.get(n)
        if group is None:
            group = {"round": n, "title": _group_title(n, reader), "lines": []}
            by_round[n] = group
            groups.append(group)
        group["lines"].append(line)
    groups.sort(key=lambda g: g["round"])
    return {"groups": groups, "older": older, "count": len(lines)}


def _group_title(number: int, reader: _Reader) -> str:
    if number == 0:
        return pgettext("audit", "Set-up")
    rnd = next((r for r in reader.rounds.values() if r.number == number), None)
    if rnd is not None and rnd.pk in reader.labels:
        return gettext("Round %(number)s · %(name)s") % {"number": number, "name": reader.labels[rnd.pk]}
    if rnd is not None and rnd.kind == Round.Kind.PLAYOFF:
        return gettext("Play-off %(number)s") % {"number": number}
    return gettext("Round %(number)s") % {"number": number}


def parse_before(value: str | None) -> datetime | None:
    """The ``?before=`` of a page of earlier changes (an ISO 8601 time), or None."""
    if not value:
        return None
    try:
        when = parse_datetime(value)
    except ValueError:
        return None
    if when is not None and timezone.is_naive(when):
        when = timezone.make_aware(when)
    return when
