"""Reads for tournaments: what the public and organizer pages show."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import Prefetch, Q, QuerySet

from scoring.models import Deal

from .models import Entry, Round, StandingsSnapshot, Table, Tournament
from .services import standings_cache_key
from .services.common import STAGE_KINDS
from .services.stage import stage_rounds

TABLE_RELATED = (
    "entry0__team",
    "entry1__team",
    "match",
    *(f"{side}__player" for side in ("entry0", "entry1", "partner0", "partner1")),  # individual events
)


def tournament_list(*, user: Any = None) -> QuerySet[Tournament]:
    visible = Q(public=True)
    if user is not None and user.is_authenticated:
        visible |= Q(organizer=user)
    return Tournament.objects.filter(visible).order_by("-created_at")


def tournament_visible(tournament: Tournament, user: Any) -> bool:
    return tournament.public or (user.is_authenticated and (user == tournament.organizer or user.is_staff))


def can_manage(tournament: Tournament, user: Any) -> bool:
    return user.is_authenticated and (user.pk == tournament.organizer_id or user.is_superuser)


def standings_data(snapshot: StandingsSnapshot | None) -> dict[str, Any]:
    return {
        "rows": snapshot.rows if snapshot else [],
        "playoffs": snapshot.playoffs if snapshot else [],
        "ranking": snapshot.ranking if snapshot else [],
        "version": snapshot.version if snapshot else 0,
        "computed_at": snapshot.computed_at if snapshot else None,
    }


def standings_get(*, tournament: Tournament) -> dict[str, Any]:
    """The stored standings, from the cache (filled from the snapshot on a miss).

    A reader only adds to the cache; a recomputation overwrites it once it has committed,
    so a reader that fetched the snapshot just before cannot put old standings back.
    """
    key = standings_cache_key(tournament.pk)
    data = cache.get(key)
    if data is None:
        data = standings_data(StandingsSnapshot.objects.filter(tournament=tournament).first())
        cache.add(key, data, timeout=300)
    return data


def podium(standings: dict[str, Any]) -> list[dict[str, Any]]:
    """The final ranking's first three places (more when places are shared: 1, 2, 3, 3)."""
    return [row for row in standings.get("ranking", []) if row["rank"] <= 3]


def kept_apart(*, tournament: Tournament) -> list[tuple[Entry, Entry]]:
    """The pairs the organizer keeps apart, as entries (one query)."""
    ids = {e for pair in tournament.avoid for e in pair}
    found = tournament.entries.select_related("team", "player").in_bulk(ids)
    return [(found[a], found[b]) for a, b in tournament.avoid if a in found and b in found]


def adjustments(*, tournament: Tournament):
    """The director's decisions, oldest first, with what their lines show."""
    return tournament.adjustments.select_related("entry__team", "entry__player", "table__round", "created_by")


def decisions_by_table(*, rnd: Round) -> dict[int, Any]:
    """The latest decision of each decided table of the round, by table number (one query)."""
    found = {}
    for adjustment in rnd.tournament.adjustments.filter(table__round=rnd).select_related("table"):
        assert adjustment.table is not None  # table__round=rnd: a decision at one of its tables
        found[adjustment.table.number] = adjustment
    return found


def rounds(*, tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.order_by("number")


def round_tables(*, rnd: Round) -> QuerySet[Table] | list[Table]:
    """The round's tables in order; already read if the round came from ``rounds_with_tables``."""
    if hasattr(rnd, "table_list"):
        return rnd.table_list
    return rnd.tables.select_related(*TABLE_RELATED).order_by("number")


def rounds_with_tables(*, tournament: Tournament) -> QuerySet[Round]:
    """Every round with its tables, in two queries however many rounds there are."""
    tables = Table.objects.select_related(*TABLE_RELATED).order_by("number")
    return rounds(tournament=tournament).prefetch_related(
        Prefetch("tables", queryset=tables, to_attr="table_list")
    )


def entries(*, tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("team__player_a", "team__player_b", "player").order_by("pk")


def entry_tables(*, entry: Entry) -> QuerySet[Table]:
    """The tables ``entry`` sat at, in round order (in an individual event, in any of the four seats)."""
    return (
        Table.objects.filter(Q(entry0=entry) | Q(entry1=entry) | Q(partner0=entry) | Q(partner1=entry))
        .select_related("round", *TABLE_RELATED)
        .order_by("round__number")
    )


def entry_rounds(*, entry: Entry) -> list[dict[str, Any]]:
    """``entry``'s rounds as its page lists them: the table, its partner (an individual event), its
    opponents, the score from its side (its own first) and the match; a bye or sit-out has none. A
    table with a result from its paper sheet shows it (``paper``: "counts"), until the deals finish
    its match ("replaced": the deals' score)."""
    tables = list(entry_tables(entry=entry))
    paper = paper_by_table(table_ids=[t.pk for t in tables])
    confirmation = entry.tournament.confirmation if paper else False
    rows = []
    for table in tables:
        side = 0 if entry.pk in (table.entry0_id, table.partner0_id) else 1
        mine: tuple[Entry | None, Entry | None]  # swapped below with entry1's side (None at a bye)
        mine, theirs = (table.entry0, table.partner0), (table.entry1, table.partner1)
        if side:
            mine, theirs = theirs, mine
        totals = (table.match.totals or [0, 0]) if table.match else None
        on_paper = None
        if table.pk in paper:
            m = table.match
            by_deals = m is not None and m.status == "finished" and (not confirmation or m.confirmed_at)
            on_paper = "replaced" if by_deals else "counts"
            totals = totals if by_deals else paper[table.pk].scores
        rows.append({
            "table": table,
            "partner": mine[1] if mine[0] == entry else mine[0],
            "opponents": [e for e in theirs if e is not None],
            "score": (totals[side], totals[1 - side]) if totals else None,
            "paper": on_paper,
        })  # fmt: skip
    return rows


def paper_by_table(*, table_ids: list[int]) -> dict[int, Any]:
    """The paper result (``services.paper``) of each of these tables that has one, by table id (one
    query)."""
    from .models import Adjustment

    found = Adjustment.objects.filter(table_id__in=table_ids, kind=Adjustment.Kind.PAPER)
    found = found.order_by("created_at", "pk")
    return {a.table_id: a for a in found if a.table_id is not None}  # all: table_id__in finds no NULL


def unconfirmed(*, tournament: Tournament):
    """Finished matches whose result the other team has not confirmed yet."""
    return (
        Table.objects.filter(
            round__tournament=tournament, match__status="finished", match__confirmed_at__isnull=True
        )
        .select_related("round", *TABLE_RELATED, "match__team0", "match__team1")
        .order_by("round__number", "number")
    )


# A table's own sheet: where it is, and where its teams go next ------------------------------------


def entry_numbers(*, tournament: Tournament, entries: Any = None) -> dict[int, int]:
    """Each entry's number (``Entry.number``: given in order of entry, editable before the start),
    by entry id: from ``entries`` when they are already read, else in one query (memoized on the
    tournament object, so a page asking twice reads them once)."""
    if entries is not None:
        return {e.pk: e.number for e in entries if e.number is not None}
    found = getattr(tournament, "_entry_numbers", None)
    if found is None:
        found = dict(
            Entry.objects.filter(tournament_id=tournament.pk, number__isnull=False)
            .order_by()
            .values_list("pk", "number")
        )
        tournament._entry_numbers = found
    return found


def _seated_numbers(table: Table) -> dict[int, int]:
    """The numbers of the entries seated at ``table``: from the entries already read with it, the
    others in one query."""
    numbers, missing = {}, []
    cached = table._state.fields_cache
    for field in ("entry0", "entry1", "partner0", "partner1"):
        pk = getattr(table, f"{field}_id")
        if pk is None:
            continue
        if cached.get(field) is not None:
            numbers[pk] = cached[field].number
        else:
            missing.append(pk)
    if missing:
        numbers.update(Entry.objects.filter(pk__in=missing).order_by().values_list("pk", "number"))
    return numbers


def table_place(*, table: Table) -> dict[str, Any]:
    """Where a table is, as its sheet's header says it: the event, the round, the table, and each
    side's entries with their numbers (an individual round: two players a side). No query once the
    table's round, tournament and entries are read (else one, for the entries' numbers)."""
    rnd = table.round
    tournament = rnd.tournament
    numbers = _seated_numbers(table)
    sides = [
        [numbers.get(pk) for pk in (table.entry0_id, table.partner0_id) if pk is not None],
        [numbers.get(pk) for pk in (table.entry1_id, table.partner1_id) if pk is not None],
    ]
    return {
        "tournament": tournament,
        "round": rnd,
        "table": table,
        "numbers": [[n for n in side if n is not None] for side in sides],
    }


def _more_rounds_planned(rnd: Round) -> bool:
    """Is a next round certain after ``rnd``: a stage round before the stage's last one."""
    return rnd.kind in STAGE_KINDS and rnd.number < stage_rounds(rnd.tournament)


def table_next(*, table: Table) -> dict[str, Any]:
    """What happens next for a table whose match is over: ``state`` "over" (the tournament is
    finished), "drawn" (the next round is drawn: ``moves``, each of the table's entries with its
    next table, its opponents, or none: it does not play that round) or "waiting" (``next_number``:
    the round to come when one is certain, else None; ``playing``: this round's tables still
    playing)."""
    rnd = table.round
    tournament = rnd.tournament
    if tournament.status == Tournament.Status.FINISHED:
        return {"state": "over", "tournament": tournament}
    following = tournament.rounds.filter(number__gt=rnd.number).order_by("number").first()
    if following is None:
        playing = (
            rnd.tables.filter(entry1__isnull=False, left_out=False).exclude(match__status="finished").count()
        )
        return {
            "state": "waiting",
            "tournament": tournament,
            "next_number": rnd.number + 1 if _more_rounds_planned(rnd) else None,
            "playing": playing,
        }
    mine = [pk for pk in (table.entry0_id, table.partner0_id, table.entry1_id, table.partner1_id) if pk]
    seated = Q()
    for field in ("entry0", "entry1", "partner0", "partner1"):
        seated |= Q(**{f"{field}_id__in": mine})
    tables = list(following.tables.filter(seated).select_related(*TABLE_RELATED))
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=mine).select_related("team", "player")}
    numbers = entry_numbers(tournament=tournament, entries=entries.values())
    moves = []
    for pk in mine:
        found = next(
            (t for t in tables if pk in (t.entry0_id, t.entry1_id, t.partner0_id, t.partner1_id)), None
        )
        move: dict[str, Any] = {"entry": entries.get(pk), "number": numbers.get(pk), "table": found}
        if found is not None:
            side = 0 if pk in (found.entry0_id, found.partner0_id) else 1
            theirs = (found.entry1, found.partner1) if side == 0 else (found.entry0, found.partner0)
            move["opponents"] = [e for e in theirs if e is not None]
        moves.append(move)
    return {"state": "drawn", "tournament": tournament, "round": following, "moves": moves}


# The other team's check of each deal (services.checks) ---------------------------------------------


def unchecked_deals(*, tournament: Tournament, rnd: Round | None = None) -> list[dict[str, Any]]:
    """The deals nobody of the other team has checked yet, table by table, at the tables that are asked
    to (``Match.deal_check``): of ``rnd``, else of the rounds in play and the latest round. Each:
    ``round`` and ``table`` (numbers), ``match_id``, and ``deals``, the unchecked deals' numbers on
    the sheet (1, 2 …, as the tablet numbers them)."""
    if rnd is not None:
        rounds = Q(match__table__round=rnd)
    else:
        latest = (
            Table.objects.filter(round__tournament=tournament, match__isnull=False)
            .order_by("-match_id")
            .values_list("round_id", flat=True)
            .first()
        )
        rounds = Q(match__table__round__tournament=tournament) & (
            Q(match__table__round__status=Round.Status.STARTED) | Q(match__table__round_id=latest)
        )
    rows = (
        Deal.objects.filter(rounds, match__deal_check=True, deleted_at__isnull=True)
        .order_by("match__table__round__number", "match__table__number", "position")
        .values_list("match_id", "match__table__round__number", "match__table__number", "checked_at")
    )
    found: dict[int, dict[str, Any]] = {}
    numbers: dict[int, int] = {}
    for match_id, round_number, table_number, checked_at in rows:
        numbers[match_id] = numbers.get(match_id, 0) + 1
        if checked_at is None:
            entry = found.setdefault(
                match_id, {"round": round_number, "table": table_number, "match_id": match_id, "deals": []}
            )
            entry["deals"].append(numbers[match_id])
    return list(found.values())
