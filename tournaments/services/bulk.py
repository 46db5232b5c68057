"""Bulk entry: a pasted list (or a CSV file) previewed line by line, then entered all or nothing.

A line is a team: its name and its two players, the fields separated by a tab, else a semicolon,
else a comma (decided per line); in an individual event a line is one player's name. Each player's
name is matched against the existing records the organizer may see (the same name, casefolded, its
spaces collapsed): one match is chosen by default, several offer the one who played last first, none
makes a new record. Nothing is saved until every line is right; then everything is, in one
transaction. The matching is a constant number of queries for the whole paste.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.db.models.functions import Lower
from django.utils.translation import gettext, ngettext
from simple_history.utils import bulk_create_with_history

from players.models import Membership, Player, Team
from scoring import selectors as scoring_selectors

from ..models import Entry, Tournament
from . import individual, sync
from .common import TournamentError
from .entries import entry_next_number

MOST_LINES = 500
MOST_BYTES = 200_000
NAME_MOST = 80  # players.Player.name, players.Team.name
# A first line made only of these words is a header (a spreadsheet's), skipped.
HEADER_WORDS = {
    "team", "team name", "name", "player", "player 1", "player 2", "player a", "player b", "partner",
    "players", "équipe", "equipe", "nom", "joueur", "joueur 1", "joueur 2", "partenaire",
    "ομάδα", "ομαδα", "όνομα", "παίκτης", "παίκτης 1", "παίκτης 2", "συμπαίκτης",
    "отбор", "име", "играч", "играч 1", "играч 2", "партньор",
}  # fmt: skip


class BulkRefused(TournamentError):
    """The paste has wrong lines: nothing was saved; ``preview`` says what is wrong, line by line."""

    def __init__(self, preview: Preview) -> None:
        self.preview = preview
        super().__init__(preview.summary())


@dataclass(frozen=True)
class Candidate:
    """An existing record a name matches, with what tells namesakes apart."""

    pk: int
    name: str
    club: str
    last_event: str
    last_seen: datetime | None


@dataclass
class Seat:
    """A player's name on a line, the records it matches, and the one chosen (None: a new record)."""

    name: str
    matches: list[Candidate] = field(default_factory=list)
    chosen: int | None = None

    @property
    def key(self) -> str:
        return _key(self.name)

    @property
    def chosen_record(self) -> Candidate | None:
        return next((c for c in self.matches if c.pk == self.chosen), None)


@dataclass
class Line:
    """A line of the paste (``number``: its place in the text, from 1) and what is wrong with it."""

    number: int
    text: str
    team: str = ""
    seats: list[Seat] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class Preview:
    """What a paste would enter: its lines, and what is wrong with the whole (registration closed)."""

    text: str
    individual: bool
    lines: list[Line] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def wrong(self) -> list[Line]:
        return [line for line in self.lines if line.errors]

    @property
    def ok(self) -> bool:
        return bool(self.lines) and not self.errors and not self.wrong

    def summary(self) -> str:
        if self.errors:
            return self.errors[0]
        if not self.lines:
            return gettext("The list is empty: paste a team a line, or upload a CSV file.")
        wrong = len(self.wrong)
        return ngettext(
            "%(count)d line is wrong: nothing was entered.",
            "%(count)d lines are wrong: nothing was entered.",
            wrong,
        ) % {"count": wrong}

    def as_dict(self) -> dict[str, Any]:
        """The preview as the API answers it."""
        return {
            "ok": self.ok,
            "individual": self.individual,
            "errors": list(self.errors),
            "lines": [
                {
                    "line": line.number,
                    "text": line.text,
                    "team": line.team,
                    "ok": line.ok,
                    "errors": list(line.errors),
                    "players": [
                        {
                            "name": seat.name,
                            "chosen": seat.chosen,
                            "matches": [
                                {
                                    "id": c.pk,
                                    "name": c.name,
                                    "club": c.club,
                                    "last_event": c.last_event,
                                    "last_seen": c.last_seen.isoformat() if c.last_seen else None,
                                }
                                for c in seat.matches
                            ],
                        }
                        for seat in line.seats
                    ],
                }
                for line in self.lines
            ],
        }


# Reading the text ---------------------------------------------------------------------------


def _clean(value: str) -> str:
    return " ".join(value.split())


def _key(name: str) -> str:
    return _clean(name).casefold()


def _split(line: str) -> list[str]:
    """A line's fields: by tab if it has one, else by semicolon, else by comma; trailing empty
    fields (a spreadsheet's extra separators) dropped."""
    sep = "\t" if "\t" in line else ";" if ";" in line else ","
    fields = [_clean(f) for f in line.split(sep)]
    while len(fields) > 1 and not fields[-1]:
        fields.pop()
    return fields


def _is_header(fields: Sequence[str]) -> bool:
    return all(f.casefold() in HEADER_WORDS for f in fields if f) and any(fields)


def bulk_text_from_file(data: bytes) -> str:
    """A CSV file (UTF-8, with or without a BOM; commas or semicolons) as the lines of a paste, a
    tab between the fields (quoted fields keep their commas)."""
    if len(data) > MOST_BYTES:
        raise TournamentError(_too_big())
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TournamentError(
            gettext("The file is not UTF-8 text: save it from the spreadsheet as “CSV UTF-8”.")
        ) from None
    sample = text[:4096]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        return "\n".join("\t".join(_clean(f) for f in row) for row in rows)
    except csv.Error:
        raise TournamentError(gettext("The file is not a CSV file that can be read.")) from None


def _too_big() -> str:
    return gettext("The list is too long: at most %(lines)d lines and %(kb)d kB at once.") % {
        "lines": MOST_LINES,
        "kb": MOST_BYTES // 1000,
    }


def bulk_lines(text: str) -> list[tuple[int, str, list[str]]]:
    """The non-blank lines of a paste: (place in the text from 1, the line, its fields); a header
    first line skipped. Refused over ``MOST_LINES`` lines or ``MOST_BYTES``."""
    if len(text.encode("utf-8")) > MOST_BYTES:
        raise TournamentError(_too_big())
    text = text.removeprefix("\ufeff")
    lines: list[tuple[int, str, list[str]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        fields = _split(raw)
        if not lines and _is_header(fields):
            continue
        lines.append((number, raw.strip(), fields))
    if len(lines) > MOST_LINES:
        raise TournamentError(_too_big())
    return lines


# Matching -----------------------------------------------------------------------------------


def _ascii_lower(text: str) -> str:
    return "".join(c.lower() if c.isascii() else c for c in text)


def _variants(name: str) -> set[str]:
    """What the database's LOWER() may make of a stored name that casefolds like ``name``: Unicode
    lower case (PostgreSQL), ASCII only (SQLite: a name with other letters is found as typed)."""
    clean = _clean(name)
    lower = clean.lower()
    return {lower, clean.casefold(), lower.replace("ς", "σ"), _ascii_lower(clean)}


def _latest(rows, root_of: dict[int, int], into: dict[int, Any]) -> None:
    """Keep, per person, the latest of ``rows`` (record ids…, when, what), newest first."""
    for *records, when, what in rows:
        for record in records:
            root = root_of.get(record)
            if root is not None and (root not in into or into[root][0] < when):
                into[root] = (when, what)


def bulk_matches(
    *, names: Sequence[str], user: Any, tournament: Tournament | None = None
) -> dict[str, list[Candidate]]:
    """For each name (by its key), the records this person may see of that name (a person by any
    of their records, offered as their root), the one seen last first, each with its club and last
    event (another than ``tournament``). Nine queries at most, whatever the number of names."""
    keys = {_key(n) for n in names if _clean(n)}
    if not keys:
        return {}
    variants = set().union(*(_variants(n) for n in names if _clean(n)))
    # The records of these names first (a scan of the names), then which of them this person may see
    # (asked of those few rows only: asked of every record, it takes seconds).
    named = Player.objects.annotate(low=Lower("name")).filter(low__in=variants).values_list("pk", flat=True)
    records = (
        scoring_selectors.visible_players(user)
        .filter(pk__in=list(named))
        .values_list("pk", "name", "merged_into_id")
    )
    roots_of: dict[str, set[int]] = defaultdict(set)
    for pk, name, merged_into in records:
        if _key(name) in keys:
            roots_of[_key(name)].add(merged_into or pk)
    root_ids = set().union(*roots_of.values()) if roots_of else set()
    if not root_ids:
        return {}
    roots = {
        pk: name
        for pk, name in Player.objects.filter(pk__in=root_ids, merged_into__isnull=True).values_list(
            "pk", "name"
        )
    }
    # Every record of these people (their roots and the records merged into them).
    root_of = {pk: pk for pk in roots}
    for pk, into in Player.objects.filter(merged_into__in=roots).values_list("pk", "merged_into"):
        assert into is not None  # merged_into__in: each was merged into one of the roots
        root_of[pk] = into
    ids = list(root_of)
    # Their last event: the latest entry in a tournament this person sees (not this one).
    shown = Q(tournament__public=True)
    if user is not None and user.is_authenticated:
        shown |= Q(tournament__organizer=user)
    entries = Entry.objects.filter(
        Q(team__player_a__in=ids) | Q(team__player_b__in=ids) | Q(player__in=ids), shown
    )
    if tournament is not None:
        entries = entries.exclude(tournament=tournament)
    last_event: dict[int, tuple] = {}
    rows = entries.values_list("team__player_a", "team__player_b", "player", "created_at", "tournament__name")
    _latest(rows, root_of, last_event)
    # Their last match this person sees: the latest at each seat, grouped (one query a seat).
    last_match: dict[int, tuple] = {}
    matches = scoring_selectors.visible_matches(user)
    for seat in scoring_selectors.SEATS:
        grouped = matches.filter(**{f"{seat}__in": ids}).values(seat).annotate(when=Max("created_at"))
        _latest(((row[seat], row["when"], None) for row in grouped), root_of, last_match)
    clubs: dict[int, list[str]] = defaultdict(list)
    members = Membership.objects.filter(
        player_id__in=roots, status=Membership.Status.ACTIVE, left_on__isnull=True
    ).order_by("club__name")
    for player_id, club in members.values_list("player_id", "club__name"):
        clubs[player_id].append(club)
    found = {}
    for pk, name in roots.items():
        event = last_event.get(pk)
        seen = max((d for d in (event and event[0], last_match.get(pk, (None,))[0]) if d), default=None)
        found[pk] = Candidate(pk, name, ", ".join(clubs[pk]), event[1] if event else "", seen)

    def recent(c: Candidate) -> tuple:
        return (c.last_seen is not None, c.last_seen.timestamp() if c.last_seen else 0, c.pk)

    return {
        key: sorted((found[pk] for pk in pks if pk in found), key=recent, reverse=True)
        for key, pks in roots_of.items()
    }


# The preview ----------------------------------------------------------------------------------


def _name_error(name: str, what: str) -> str | None:
    if not name:
        return (
            gettext("The team's name is empty.") if what == "team" else gettext("A player's name is empty.")
        )
    if len(name) > NAME_MOST:
        return gettext("“%(name)s…” is longer than %(most)d characters.") % {
            "name": name[:20],
            "most": NAME_MOST,
        }
    if not name.isprintable():
        return gettext("A name has no control characters.")
    return None


def _taken(tournament: Tournament) -> tuple[dict[str, str], dict[int, str]]:
    """The tournament's entries: their names (by key) and the people playing (root and record ids)
    in the entries not withdrawn, each with its entry's name. One query."""
    names: dict[str, str] = {}
    people: dict[int, str] = {}
    rows = Entry.objects.filter(tournament=tournament).values_list(
        "status",
        "team__name",
        "player__name",
        "team__player_a",
        "team__player_a__merged_into",
        "team__player_b",
        "team__player_b__merged_into",
        "player",
        "player__merged_into",
    )
    for status, team, player_name, *ids in rows:
        name = team or player_name or ""
        names[_key(name)] = name
        if status == Entry.Status.WITHDRAWN and team is not None:
            continue  # a withdrawn team's players may play for another team (not the same player twice)
        for pk in ids:
            if pk is not None:
                people[pk] = name
    return names, people


def entries_bulk_preview(
    *,
    tournament: Tournament,
    text: str,
    user: Any,
    choices: Mapping[int, Sequence[int | None] | Mapping[int, int | None]] | None = None,
) -> Preview:
    """What the paste would enter, line by line: each team (or player), each player's matching
    records and the one chosen (``choices``: by line number, a list of an id or None, a new
    record, for each player; or a mapping of seat to id or None, the seats not given keeping their
    default), and what is wrong. An id chosen must be one of the name's matches. Saves nothing.
    Raises ``TournamentError`` only for a paste too long to read."""
    alone = individual.is_individual(tournament)
    preview = Preview(text=text, individual=alone)
    if tournament.status != Tournament.Status.REGISTRATION:
        preview.errors.append(gettext("Registration is closed: the tournament has started."))
    choices = choices or {}
    for number, raw, fields in bulk_lines(text):
        line = Line(number=number, text=raw)
        want = 1 if alone else 3
        if len(fields) != want:
            line.errors.append(
                ngettext(
                    "A line is one player's name (found %(count)d field).",
                    "A line is one player's name (found %(count)d fields).",
                    len(fields),
                )
                % {"count": len(fields)}
                if alone
                else ngettext(
                    "A line is a team's name and its two players (found %(count)d field).",
                    "A line is a team's name and its two players (found %(count)d fields).",
                    len(fields),
                )
                % {"count": len(fields)}
            )
            line.team = fields[0] if fields else ""
        elif alone:
            line.team = fields[0]
            line.seats = [Seat(fields[0])]
        else:
            line.team = fields[0]
            line.seats = [Seat(fields[1]), Seat(fields[2])]
        preview.lines.append(line)
    found = bulk_matches(
        names=[s.name for line in preview.lines for s in line.seats], user=user, tournament=tournament
    )
    entered, playing = _taken(tournament)
    team_lines: dict[str, int] = {}
    player_lines: dict[tuple[str, Any], int] = {}
    for line in preview.lines:
        if line.errors:
            continue
        errors = line.errors
        if not alone:
            problem = _name_error(line.team, "team")
            if problem:
                errors.append(problem)
        for seat in line.seats:
            problem = _name_error(seat.name, "player")
            if problem and problem not in errors:
                errors.append(problem)
        picked = choices.get(line.number)
        if picked is not None and not isinstance(picked, Mapping):
            if isinstance(picked, str | bytes) or len(picked) != len(line.seats):
                errors.append(
                    gettext("The choice of records does not fit this line: preview the list again.")
                )
                picked = {}
            else:
                picked = dict(enumerate(picked))
        picked = picked or {}
        for i, seat in enumerate(line.seats):
            seat.matches = found.get(seat.key, [])
            if i not in picked:
                seat.chosen = seat.matches[0].pk if seat.matches else None
                continue
            seat.chosen = picked[i]
            if seat.chosen is not None and seat.chosen not in {c.pk for c in seat.matches}:
                errors.append(
                    gettext("Record %(id)s is not one of those offered for %(name)s.")
                    % {"id": seat.chosen, "name": seat.name}
                )
                seat.chosen = None
        if errors:
            continue
        if not alone:
            a, b = line.seats
            if (a.key == b.key and a.chosen is None and b.chosen is None) or (
                a.chosen is not None and a.chosen == b.chosen
            ):
                errors.append(gettext("The same player is twice in the team."))
            key = _key(line.team)
            if key in entered:
                errors.append(gettext("%(team)s is already entered.") % {"team": entered[key]})
            elif key in team_lines:
                errors.append(
                    gettext("%(team)s is on line %(line)d too.")
                    % {"team": line.team, "line": team_lines[key]}
                )
            else:
                team_lines[key] = line.number
        for seat in line.seats:
            if seat.chosen is not None and seat.chosen in playing:
                errors.append(
                    (
                        gettext("%(player)s is already entered.")
                        if alone
                        else gettext("%(player)s already plays for %(other)s.")
                    )
                    % {"player": seat.name, "other": playing[seat.chosen]}
                )
                continue
            who = ("new", seat.key) if seat.chosen is None else ("record", seat.chosen)
            if who in player_lines and player_lines[who] != line.number:
                errors.append(
                    gettext("%(player)s is on line %(line)d too.")
                    % {"player": seat.name, "line": player_lines[who]}
                )
            else:
                player_lines.setdefault(who, line.number)
    return preview


# Saving -------------------------------------------------------------------------------------


@transaction.atomic
def entries_bulk_create(
    *,
    tournament: Tournament,
    text: str,
    user: Any,
    choices: Mapping[int, Sequence[int | None] | Mapping[int, int | None]] | None = None,
    status: str = Entry.Status.REGISTERED,
) -> list[Entry]:
    """Enter every line of the paste (``entries_bulk_preview``'s, with the same ``choices``), in the
    order of the lines, each entry numbered after the last: all or nothing. The records chosen are
    used; a new record is made only where none was chosen. Raises ``BulkRefused`` (its ``preview``
    says what is wrong, line by line) if any line is wrong: then nothing is saved."""
    sync.tournament_touch(tournament)  # locks the tournament's row: the numbers are ours
    tournament.refresh_from_db(fields=["status"])
    preview = entries_bulk_preview(tournament=tournament, text=text, user=user, choices=choices)
    if not preview.ok:
        raise BulkRefused(preview)
    seats = [seat for line in preview.lines for seat in line.seats]
    new = [Player(name=seat.name) for seat in seats if seat.chosen is None]
    Player.objects.bulk_create(new)
    made = iter(new)
    people = {pk: Player(pk=pk, name=c.name) for seat in seats for c in seat.matches for pk in [c.pk]}
    chosen = [people[seat.chosen] if seat.chosen is not None else next(made) for seat in seats]
    number = entry_next_number(tournament)
    entries: list[Entry] = []
    if preview.individual:
        for player in chosen:
            entries.append(Entry(tournament=tournament, player=player, status=status, number=number))
            number += 1
    else:
        pairs = list(zip(chosen[::2], chosen[1::2], strict=True))
        teams = _teams([line.team for line in preview.lines], pairs)
        for team in teams:
            entries.append(Entry(tournament=tournament, team=team, status=status, number=number))
            number += 1
    return bulk_create_with_history(entries, Entry, default_user=user)


def _teams(names: Sequence[str], pairs: Sequence[tuple[Player, Player]]) -> list[Team]:
    """The teams of these names and partners, as ``team_get_or_create`` finds or makes them: an
    existing team of that name with the same two people is used (one query), the others are made."""
    known = [p.pk for pair in pairs for p in pair if p.pk is not None]
    existing: dict[tuple[str, frozenset[int]], Team] = {}
    if known:
        for found in Team.objects.filter(player_a__in=known, player_b__in=known):
            existing.setdefault((_key(found.name), frozenset((found.player_a_id, found.player_b_id))), found)
    teams: list[Team] = []
    fresh: list[Team] = []
    for name, (a, b) in zip(names, pairs, strict=True):
        team = existing.get((_key(name), frozenset((a.pk, b.pk))))
        if team is None:
            team = Team(name=name, player_a=a, player_b=b)
            fresh.append(team)
        teams.append(team)
    Team.objects.bulk_create(fresh)
    return teams


def bulk_choices(data: Mapping[str, Any]) -> dict[int, dict[int, int | None]]:
    """The choices of records as the page's selects send them (``pick-<line>-<seat>``: an id, or
    ``new``): by line number, by seat (from 0); a seat not sent keeps its default."""
    picks: dict[int, dict[int, int | None]] = defaultdict(dict)
    for name, value in data.items():
        parts = name.split("-")
        if len(parts) != 3 or parts[0] != "pick" or not parts[1].isdigit() or not parts[2].isdigit():
            continue
        value = value if isinstance(value, str) else str(value)
        picks[int(parts[1])][int(parts[2])] = int(value) if value.isdigit() else None
    return dict(picks)


__all__ = [
    "MOST_BYTES",
    "MOST_LINES",
    "BulkRefused",
    "Candidate",
    "Line",
    "Preview",
    "Seat",
    "bulk_choices",
    "bulk_lines",
    "bulk_matches",
    "bulk_text_from_file",
    "entries_bulk_create",
    "entries_bulk_preview",
]
