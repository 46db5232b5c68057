"""A knockout drawn as a bracket: the page, the embed, and the state the big screen and the API read.

The bracket's shape is known from the start: ``Tournament.knockout_size`` teams make a bracket of
``P`` places (the smallest power of two at least that, ``pairing.knockout``), so ``log2(P)`` columns
of ``P/2``, ``P/4`` … 1 matches. A column is filled by the main tables of the knockout round that
drew it (in table order: the draw keeps the bracket's order, byes in place); a column not drawn yet
shows empty slots, or the winners already known of the two matches that feed each slot. The match for
third place stands beside the final; a consolation bracket (the teams that missed the knockout) is
drawn apart, the same way. Columns are named by their size: "Round of 16", "Quarter-finals",
"Semi-finals", "Final".

A match shows a result's score only: one in play shows its running score and how far it is, as the
big screen's pairings do ("Deal 7 of 12 · 532–410"), one not begun no score at all, a forfeit, an
award or a paper result says so. The big screen's tables part carries the bracket during the
knockout, so it follows each deal (``screen.tables_state``).

Reading the state is a constant number of queries (the rounds, the knockout's tables with their
teams and matches, the director's decisions at them).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Max, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, pgettext
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_safe

from web.http import HtmxHttpRequest

from . import clock, embed, selectors
from .models import Adjustment, Entry, Round, Table, Tournament
from .pairing.knockout import bracket_order
from .screen import _running  # a table in play read as the big screen reads it

# The director's decisions that give a table its result, the latest one counting (as the standings).
RESULT_KINDS = (Adjustment.Kind.FORFEIT, Adjustment.Kind.AWARD, Adjustment.Kind.PAPER)


def _places(teams: int) -> int:
    """The bracket's places: the smallest power of two at least ``teams`` (0 for fewer than two)."""
    return 1 << (teams - 1).bit_length() if teams >= 2 else 0


def round_name(teams: int) -> str:
    """A knockout round named by the teams it takes: "Final", "Semi-finals", "Quarter-finals",
    "Round of 16"."""
    if teams <= 2:
        return pgettext("knockout", "Final")
    if teams <= 4:
        return pgettext("knockout", "Semi-finals")
    if teams <= 8:
        return pgettext("knockout", "Quarter-finals")
    return pgettext("knockout", "Round of %(teams)s") % {"teams": teams}


def knockout_round_label(rnd: Round, brackets: list[str] | None = None) -> str:
    """A knockout round's name from its tables' brackets (read in one query unless given): its main
    bracket's size, else its consolation bracket's ("Consolation: Final"), else "Match for third place"."""
    if brackets is None:
        brackets = list(rnd.tables.order_by("number").values_list("bracket", flat=True))
    main = brackets.count(Table.Bracket.MAIN)
    consolation = brackets.count(Table.Bracket.CONSOLATION)
    if main:
        return round_name(2 * main)
    if consolation:
        return pgettext("knockout", "Consolation: %(round)s") % {"round": round_name(2 * consolation)}
    if Table.Bracket.THIRD_PLACE in brackets:
        return pgettext("knockout", "Match for third place")
    return gettext("KO %(number)s") % {"number": rnd.number}


# The state -----------------------------------------------------------------------------------


def _side(entry: Entry | None, seed: int | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {"entry": entry.pk, "name": entry.name, "number": entry.number, "seed": seed}


def _empty_match() -> dict[str, Any]:
    """A slot not drawn yet."""
    return {
        "table": None,
        "round": None,
        "sides": [None, None],
        "score": None,
        "winner": None,
        "state": "empty",
        "paper": False,
        "decided": False,
        "result_kind": None,
        "running": None,
        "deal": None,
        "deals": None,
        "target": None,
        "note": "",
    }


def _progress(found: dict[str, Any]) -> str:
    """A match in play as the big screen's pairings write it: "Deal 7 of 12 · 532–410", "532–410 of
    1000", or in a timed round the totals alone."""
    score = f"{found['running'][0]}–{found['running'][1]}"
    if found["deals"]:
        return gettext("Deal %(n)s of %(of)s") % {"n": found["deal"], "of": found["deals"]} + f" · {score}"
    if found["target"]:
        return gettext("%(score)s of %(target)s") % {"score": score, "target": found["target"]}
    return score


def _match(
    table: Table | None,
    decision: dict[str, Adjustment] | None,
    confirmation: bool,
    seeds: dict,
    tournament: Tournament,
) -> dict[str, Any]:
    """One match of the bracket: its table, two sides, score, winner (0, 1 or None) and state:
    ``empty`` (not drawn yet), ``drawn`` (its round not started), ``playing``, ``finished``, ``bye``.

    ``score`` is a result's only (the deals' final totals, a decision's or a paper result's scores),
    never the 0–0 of a match not begun; a match in play has its ``running`` totals and how far it
    is (``deal`` of ``deals``, or the ``target``), read as the big screen reads its tables
    (``screen._running``); a finished match waiting for its confirmation stays ``playing`` with its
    score. ``result_kind`` says what decided it: ``deals``, ``paper``, ``forfeit``, ``award``, ``bye``
    (None: no result yet); ``note`` is the line the bracket writes under the match, in the page's
    language."""
    if table is None:
        return _empty_match()
    sides = [_side(table.entry0, seeds.get(table.entry0_id)), _side(table.entry1, seeds.get(table.entry1_id))]
    found = _empty_match() | {
        "table": table.number,
        "round": table.round.number,
        "sides": sides,
        "state": "drawn",
    }
    match = table.match
    ruling, paper = (decision or {}).get("decision"), (decision or {}).get("paper")
    finished = match is not None and match.status == "finished" and match.winner is not None
    counted = match is not None and finished and (not confirmation or match.confirmed_at is not None)
    if table.entry1_id is None:
        found.update(winner=0, state="bye", result_kind="bye")
    elif ruling is not None:  # the director's decision stands above the play and the paper
        kind = "forfeit" if ruling.kind == Adjustment.Kind.FORFEIT else "award"
        found.update(winner=ruling.winner, state="finished", decided=True, result_kind=kind)
        found["score"] = list(ruling.scores[:2]) or None
        found["note"] = gettext("Forfeit") if kind == "forfeit" else gettext("Match awarded")
    elif counted:  # the deals, once they count, replace a paper result
        assert match is not None  # counted: a finished match
        found.update(winner=match.winner, state="finished", result_kind="deals")
        found["score"] = list(match.totals[:2]) or None
    elif paper is not None:
        found.update(winner=paper.winner, score=list(paper.scores[:2]) or None, state="finished", paper=True)
        found.update(result_kind="paper", note=gettext("From the paper sheet"))
    elif match is not None and table.round.status == Round.Status.STARTED:
        found["state"] = "playing"
        if finished:  # played out, its confirmation awaited
            found.update(score=list(match.totals[:2]) or None, note=gettext("Waiting for confirmation"))
        else:
            found["note"] = gettext("playing")
            rnd = table.round
            rnd.tournament = tournament  # the one read, not a query per table
            running = _running(table, tournament, clock.timed(rnd))
            if running["playing"]:
                found.update({key: running[key] for key in ("running", "deal", "deals", "target")})
                found["note"] = _progress(found)
    return found


def _winner_side(match: dict[str, Any]) -> dict[str, Any] | None:
    return match["sides"][match["winner"]] if match["winner"] is not None else None


def _columns(drawn: list[list[dict[str, Any]]], places: int) -> list[dict[str, Any]]:
    """The bracket's columns: the drawn ones, then empty slots (holding the winners already known)
    down to the final."""
    columns = []
    size = places
    previous: list[dict[str, Any]] | None = None
    k = 0
    while size >= 2:
        matches = drawn[k] if k < len(drawn) else None
        if matches is None or len(matches) != size // 2:
            matches = [_empty_match() for _ in range(size // 2)]
            if previous is not None and len(previous) == size:
                for j, slot in enumerate(matches):
                    slot["sides"] = [_winner_side(previous[2 * j]), _winner_side(previous[2 * j + 1])]
        columns.append({"name": round_name(size), "teams": size, "matches": matches})
        previous = matches
        size //= 2
        k += 1
    return columns


def bracket_state(*, tournament: Tournament) -> dict[str, Any] | None:
    """The knockout as a bracket (None when the tournament has no knockout):
    ``{"places", "columns": [{"name", "teams", "matches": [match …]}], "third_place": match | None,
    "consolation": {"places", "columns"} | None, "champion": side | None}``; a match is
    ``{"table", "round", "sides": [side | None, side | None], "score", "winner", "state", "paper",
    "decided", "result_kind", "running", "deal", "deals", "target", "note"}`` (``_match``), a side
    ``{"entry", "name", "number", "seed"}``."""
    if tournament.knockout_size < 2:
        return None
    tables = list(
        Table.objects.filter(round__tournament=tournament, round__kind=Round.Kind.KNOCKOUT)
        .select_related("round", "match", "entry0__team", "entry0__player", "entry1__team", "entry1__player")
        .order_by("round__number", "number")
    )
    decisions: dict[int, dict[str, Adjustment]] = {}
    for adjustment in Adjustment.objects.filter(
        table__in=[t.pk for t in tables], kind__in=RESULT_KINDS
    ).order_by("created_at", "pk"):  # the latest of each counts
        kind = "paper" if adjustment.kind == Adjustment.Kind.PAPER else "decision"
        assert adjustment.table_id is not None  # table__in: a table's result
        decisions.setdefault(adjustment.table_id, {})[kind] = adjustment
    by_round: dict[int, dict[str, list[Table]]] = {}
    for table in tables:
        by_round.setdefault(table.round.number, {}).setdefault(table.bracket, []).append(table)
    rounds = [by_round[n] for n in sorted(by_round)]
    main_rounds = [r[Table.Bracket.MAIN] for r in rounds if r.get(Table.Bracket.MAIN)]
    consolation_rounds = [r[Table.Bracket.CONSOLATION] for r in rounds if r.get(Table.Bracket.CONSOLATION)]
    seeds = _seeds(tournament, main_rounds[0] if main_rounds else [])
    confirmation = tournament.confirmation

    def matches(drawn: list[list[Table]], seeds: dict) -> list[list[dict[str, Any]]]:
        return [[_match(t, decisions.get(t.pk), confirmation, seeds, tournament) for t in r] for r in drawn]

    places = 2 * len(main_rounds[0]) if main_rounds else _places(tournament.knockout_size)
    columns = _columns(matches(main_rounds, seeds), places)
    third = next((r[Table.Bracket.THIRD_PLACE][0] for r in rounds if r.get(Table.Bracket.THIRD_PLACE)), None)
    third_place = None
    if third is not None:
        third_place = _match(third, decisions.get(third.pk), confirmation, seeds, tournament)
    elif tournament.third_place and places >= 4:
        third_place = _empty_match()
    consolation = None
    if consolation_rounds or tournament.consolation:
        if consolation_rounds:
            c_places = 2 * len(consolation_rounds[0])
        else:
            entrants = (
                len(tournament.participants)
                or tournament.entries.exclude(
                    status__in=(Entry.Status.WITHDRAWN, Entry.Status.PENDING)
                ).count()
            )
            c_places = _places(entrants - tournament.knockout_size)
        if c_places >= 2:
            consolation = {"places": c_places, "columns": _columns(matches(consolation_rounds, {}), c_places)}
    final = columns[-1]["matches"][0] if columns else None
    return {
        "places": places,
        "size": tournament.knockout_size,
        "columns": columns,
        "third_place": third_place,
        "consolation": consolation,
        "champion": _winner_side(final) if final else None,
    }


def _seeds(tournament: Tournament, first: list[Table]) -> dict[int, int]:
    """Each team's seed, read from its place in the first round's draw (the bracket's order: seeds
    1 v P, P/2 v P/2+1 …); none for pools, which cross the pools instead."""
    if not first or tournament.format == Tournament.Format.POOLS:
        return {}
    order = bracket_order(2 * len(first))
    seeds = {}
    for j, table in enumerate(first):
        seeds[table.entry0_id] = order[2 * j]
        if table.entry1_id is not None:
            seeds[table.entry1_id] = order[2 * j + 1]
    return seeds


def has_knockout(tournament: Tournament) -> bool:
    return tournament.knockout_size >= 2


def bracket_version(tournament: Tournament) -> tuple[Any, ...]:
    """What the bracket shows can only change if one of these does (one query): the knockout's
    tables (their history), their matches, the decisions at them, and its rounds' status."""
    knockout = Q(round__tournament=tournament, round__kind=Round.Kind.KNOCKOUT)
    found = Table.objects.filter(knockout).aggregate(
        tables=Max("pk"), matches=Max("match__updated_at"), decisions=Max("adjustments__pk")
    )
    history = Table.history.filter(round__tournament=tournament).aggregate(last=Max("history_id"))
    rounds = tuple(tournament.rounds.filter(kind=Round.Kind.KNOCKOUT).values_list("number", "status"))
    return ("bracket", found["tables"], found["matches"], found["decisions"], history["last"], rounds)


# The views -----------------------------------------------------------------------------------


@require_safe
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The knockout's bracket, public as the standings are."""
    tournament = embed._visible(request, slug)
    state = bracket_state(tournament=tournament)
    context = {
        "tournament": tournament,
        "bracket": state,
        "can_manage": selectors.can_manage(tournament, request.user),
    }
    return render(request, "tournaments/bracket.html", context, status=200 if state else 404)


@xframe_options_exempt
@require_safe
def embed_bracket(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The bracket on a club's own website, in a frame (the embeds' rules: ``tournaments.embed``)."""
    tournament = embed._visible(request, slug)
    if not has_knockout(tournament):
        raise Http404("No knockout.")
    return embed._answer(
        request,
        tournament,
        template="tournaments/embed_bracket.html",
        version=bracket_version(tournament),
        live=tournament.status == Tournament.Status.RUNNING,
        context=lambda: {"bracket": bracket_state(tournament=tournament)},
    )
