"""A player's own view of the evening, and "find your table".

Each entry of an event (a team; an individual event's player) and each player of a team has a
personal page reached without an account by a signed link (``me/<token>/``, ``personal_token``):
the current or next table with its opponents and seats, the round's clock, the live score of the
match, the entry's line of the standings, its results so far and, after the event, its place. The
page follows the evening by itself: it listens to the big screen's stream (``screen_events``) and
fetches ``personal_data`` when the tournament changes, and every 20 s while its match is in play
(deals are not pushed to the screens: the console's counter, ``presence.changes``, says whether a
deal was recorded since).

The read (``personal_state``) costs a constant number of queries whatever the event's size: the
entry, its tables, their decisions, the latest round, the stored standings.

"Find your table" (``finder``, ``finder_print``, ``finder_rows``): every team and player of the
event with their table in the current round, searched by the start of a word with accents and case
ignored, and in Latin letters for a name written in Greek or Cyrillic (and back): ``finder_matches``.
"""

from __future__ import annotations

import functools
import io
import re
import unicodedata
from typing import Any

import segno
from anyascii import anyascii
from django.core import signing
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from players.models import Player
from scoring import messages as catalogue
from web.http import HtmxHttpRequest
from web.ratelimits import failed_lookups_limited

from . import clock, live, presence, selectors
from . import messages as words
from .models import Adjustment, Entry, Round, Table, Tournament
from .standings import METRICS

SALT = "tsoxa.personal"  # the personal links' own: a table's or a check-in link's secret opens nothing here
POLL_SECONDS = 20  # while the match is in play the page asks this often (deals are not pushed)
DECIDED = (Adjustment.Kind.FORFEIT, Adjustment.Kind.AWARD, Adjustment.Kind.PAPER)
ACTIVE = (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN)
RESULT_STATES = ("finished", "unconfirmed", "forfeit", "award", "bye", "sits_out")
OPTIN_TEMPLATE = "notifications/_optin.html"  # the push helper's opt-in, where it exists

TABLE_RELATED = (
    "round",
    "match",
    *(f"{side}__team__player_{ab}" for side in ("entry0", "entry1") for ab in ("a", "b")),
    *(f"{side}__player" for side in ("entry0", "entry1", "partner0", "partner1")),
)


# The links -----------------------------------------------------------------------------------


def personal_token(entry: Entry, player: Player | None = None) -> str:
    """The signed, compact, never-expiring token of ``entry``'s page (of ``player``'s, a player of a
    team entry): ``"12:…"`` or ``"12.34:…"``. An individual event's entry is its player."""
    value = str(entry.pk)
    if player is not None and entry.team_id is not None:
        value = f"{entry.pk}.{player.pk}"
    return signing.Signer(salt=SALT).sign(value)


def personal_url(request: HttpRequest | None, entry: Entry, player: Player | None = None) -> str:
    """The page's link, absolute when a request is given (it is printed and scanned)."""
    path = reverse("tournaments:personal", args=[personal_token(entry, player)])
    return request.build_absolute_uri(path) if request is not None else path


def token_ids(token: str) -> tuple[int, int | None]:
    """The entry's and the player's ids a token names; Http404 for a tampered or unknown token."""
    try:
        value = signing.Signer(salt=SALT).unsign(token)
        entry_id, _, player_id = value.partition(".")
        return int(entry_id), int(player_id) if player_id else None
    except (signing.BadSignature, ValueError):
        raise Http404("No such page.") from None


def personal_entry(token: str) -> tuple[Entry, Player | None]:
    """The entry (with its tournament and players) and the player a token names (one query)."""
    entry_id, player_id = token_ids(token)
    entry = (
        Entry.objects.select_related("tournament", "team__player_a", "team__player_b", "player")
        .filter(pk=entry_id)
        .first()
    )
    if entry is None:
        raise Http404("No such page.")
    player = None
    if player_id is not None:
        player = next((p for p in (entry.team.players if entry.team else ()) if p.pk == player_id), None)
        if player is None:
            raise Http404("No such page.")
    return entry, player


# The read ------------------------------------------------------------------------------------


def _side_of(table: Table, entry_id: int) -> int:
    return 0 if entry_id in (table.entry0_id, table.partner0_id) else 1


def _seat(table: Table, entry_id: int) -> str:
    """A / B at a team table (entry0, entry1); A–D at an individual one (A & C against B & D)."""
    seats = {table.entry0_id: "A", table.entry1_id: "B", table.partner0_id: "C", table.partner1_id: "D"}
    return seats.get(entry_id, "")


def _person(entry: Entry | None, seat: str = "") -> dict[str, Any] | None:
    if entry is None:
        return None
    players = [p.name for p in entry.team.players] if entry.team is not None else []
    return {"name": entry.name, "number": entry.number, "players": players, "seat": seat}


def _outcome(mine: int, theirs: int, winner_side: int | None, side: int, decided: bool) -> str:
    if decided or winner_side is not None:
        if winner_side is None:
            return "drawn"
        return "won" if winner_side == side else "lost"
    return "won" if mine > theirs else "lost" if mine < theirs else "drawn"


def _table_row(
    table: Table, entry: Entry, tournament: Tournament, decision: Adjustment | None, now
) -> dict[str, Any]:
    """One of the entry's tables, from its side: seats, partner, opponents, state and score."""
    rnd = table.round
    rnd.tournament = tournament
    table.round = rnd
    side = _side_of(table, entry.pk)
    mine = (table.entry0, table.partner0) if side == 0 else (table.entry1, table.partner1)
    theirs = (table.entry1, table.partner1) if side == 0 else (table.entry0, table.partner0)
    individual = table.partner0_id is not None or tournament.format == Tournament.Format.INDIVIDUAL
    partner = next((e for e in mine if e is not None and e.pk != entry.pk), None)
    row: dict[str, Any] = {
        "round": rnd,
        "round_label": _round_label(rnd),
        "number": table.number,
        "seat": _seat(table, entry.pk),
        "partner": _person(partner, _seat(table, partner.pk)) if partner else None,
        "opponents": [_person(e, _seat(table, e.pk)) for e in theirs if e is not None],
        "individual": individual,
        "score": None,
        "outcome": None,
        "paper": False,
        "live": "",
        "clock": None,
        "state": "drawn",
        "table": table,
    }
    match = table.match
    if table.is_bye:
        return row | {"state": "sits_out" if individual else "bye"}
    if table.left_out:
        return row | {"state": "left_out"}
    by_deals = (
        match is not None
        and match.status == "finished"
        and (not tournament.confirmation or match.confirmed_at is not None)
    )
    if decision is not None and not (decision.kind == Adjustment.Kind.PAPER and by_deals):
        scores = list(decision.scores or [0, 0])[:2] or [0, 0]
        score = (scores[side], scores[1 - side]) if len(scores) == 2 else None
        state = {"paper": "finished", "forfeit": "forfeit", "award": "award"}[decision.kind]
        ours, others = score or (0, 0)
        outcome = _outcome(ours, others, decision.winner, side, True)
        return row | {
            "state": state,
            "score": score,
            "outcome": outcome,
            "paper": decision.kind == Adjustment.Kind.PAPER,
        }
    totals = list((match.totals or [0, 0])[:2]) if match is not None else None
    if totals and len(totals) == 2:
        row["score"] = (totals[side], totals[1 - side])
    if match is not None and match.status == "finished":
        ours, others = row["score"]
        row["outcome"] = _outcome(ours, others, match.winner, side, False)
        row["state"] = "finished" if by_deals else "unconfirmed"
        return row
    if rnd.status == Round.Status.DRAFT:
        return row | {"score": None}
    played = int((match.state or {}).get("played") or 0) if match is not None else 0
    deals = ((match.options or {}).get("deals") if match is not None else 0) or tournament.deals_per_match
    score = row["score"] or (0, 0)
    if rnd.status == Round.Status.STARTED:
        row["clock"] = clock.state(rnd, table, now)
        row["state"] = "playing" if played else "not_started"
        if deals:
            row["live"] = gettext("Deal %(n)s of %(of)s") % {"n": min(played + 1, deals), "of": deals}
        elif match is not None:
            row["live"] = gettext("To %(target)s") % {"target": match.target}
        row["live_score"] = f"{score[0]}–{score[1]}"
    return row


def _round_label(rnd: Round) -> str:
    from .screen import round_label

    return round_label(rnd)


def _standing(tournament: Tournament, standings: dict[str, Any], entry: Entry) -> dict[str, Any] | None:
    row = next((r for r in standings.get("rows", []) if r.get("entry") == entry.pk), None)
    if row is None:
        return None
    values = row.get("values", {})
    return {
        "rank": row.get("rank"),
        "played": row.get("played"),
        "record": f"{row.get('won', 0)}–{row.get('drawn', 0)}–{row.get('lost', 0)}",
        "of": len(standings.get("rows", [])),
        "columns": [
            {
                "abbr": words.metric_abbr(METRICS[key].abbr) if key in METRICS else key,
                "name": catalogue.label(METRICS[key].name) if key in METRICS else key,
                "value": values.get(key, ""),
            }
            for key in tournament.tiebreaks
        ],
    }


def personal_version(tournament_id: int) -> str:
    """What the page shows can only change with the screens' stamp or the console's counter."""
    return f"{live.stamp(tournament_id) or ''}~{presence.changes(tournament_id)}"


def personal_state(*, entry: Entry, player: Player | None = None) -> dict[str, Any]:
    """Everything the page shows (see the module's docstring): ``current`` (the table of the latest
    round, or None), ``results`` (the tables played, in order), ``standing``, ``final`` (after the
    event: the place), ``playing`` (the match is in play: the page asks again every 20 s)."""
    tournament = entry.tournament
    now = timezone.now()
    version = personal_version(tournament.pk)
    seated = Q(entry0=entry) | Q(entry1=entry) | Q(partner0=entry) | Q(partner1=entry)
    tables = list(Table.objects.filter(seated).select_related(*TABLE_RELATED).order_by("round__number"))
    decisions: dict[int, Adjustment] = {}
    if tables:
        decided = Adjustment.objects.filter(table_id__in=[t.pk for t in tables], kind__in=DECIDED)
        for a in decided.order_by("created_at", "pk"):
            assert a.table_id is not None  # table_id__in: a table's decision
            decisions[a.table_id] = a  # the latest
    latest = tournament.rounds.order_by("-number").first()
    rows = [_table_row(t, entry, tournament, decisions.get(t.pk), now) for t in tables]
    current = next((r for r in rows if latest is not None and r["round"].pk == latest.pk), None)
    results = [r for r in rows if r["state"] in RESULT_STATES]
    standings = selectors.standings_get(tournament=tournament)
    finished = tournament.status == Tournament.Status.FINISHED
    final = None
    if finished:
        found = next((r for r in standings.get("ranking", []) if r.get("entry") == entry.pk), None)
        if found is not None:
            final = {"rank": found.get("rank") or found.get("position"), "of": len(standings["ranking"])}
    teammates = list(entry.team.players) if entry.team is not None else []
    if player is not None:  # the player's name first, then the partner's
        teammates.sort(key=lambda p: p.pk != player.pk)
    return {
        "version": version,
        "live_version": version.split("~", 1)[0],
        "tournament": tournament,
        "entry": entry,
        "player": player,
        "individual": entry.player_id is not None,
        "players": [p.name for p in teammates],
        # whose rating's change the finished page shows (league/templatetags/league_personal.py)
        "rated_players": teammates if entry.team_id else [entry.player],
        "latest": latest,
        "current": current,
        "results": results,
        "standing": _standing(tournament, standings, entry),
        "final": final,
        "finished": finished,
        "playing": current is not None and current["state"] in ("playing", "not_started"),
        "withdrawn": entry.status == Entry.Status.WITHDRAWN,
    }


# The pages -----------------------------------------------------------------------------------


def _optin() -> bool:
    try:
        get_template(OPTIN_TEMPLATE)
    except TemplateDoesNotExist:
        return False
    return True


def _context(request: HttpRequest, token: str, entry: Entry, player: Player | None) -> dict[str, Any]:
    state = personal_state(entry=entry, player=player)
    context = {
        "state": state,
        "tournament": entry.tournament,
        "entry": entry,
        "player": player,
        "token": token,
        "url": personal_url(request, entry, player),
        "qr": reverse("tournaments:personal_qr", args=[token]),
        "data_url": reverse("tournaments:personal_data", args=[token]),
        "events_url": reverse("tournaments:screen_events", args=[entry.tournament.slug]),
        "poll_seconds": POLL_SECONDS,
        "optin": _optin(),
    }
    if player is None and entry.team is not None:  # the team's page links to its players' pages
        context["player_links"] = [
            {"name": p.name, "url": personal_url(None, entry, p)} for p in entry.team.players
        ]
    return context


def _private[R: HttpResponse](response: R) -> R:
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Cache-Control"] = "private, no-store"  # it changes; its address is a secret
    response["Referrer-Policy"] = "no-referrer"
    return response


# A personal link is not to be guessed: failed look-ups are limited per address (as a table's link).
@failed_lookups_limited(group="tsoxa.personal_link")
@require_safe
def personal(request: HttpRequest, token: str) -> HttpResponse:
    entry, player = personal_entry(token)
    return _private(render(request, "tournaments/personal.html", _context(request, token, entry, player)))


@failed_lookups_limited(group="tsoxa.personal_link")
@never_cache
@require_safe
def personal_data(request: HttpRequest, token: str) -> JsonResponse:
    """``{"version", "playing", "html"}``: the page's part again (``html``: ``_personal.html``);
    with ``?v=`` the version the page has, only ``{"version", "unchanged": true}`` when nothing
    it shows can have changed since."""
    entry, player = personal_entry(token)
    since = request.GET.get("v", "")[:200]
    if since and since == personal_version(entry.tournament_id):
        return _private(JsonResponse({"version": since, "unchanged": True}))
    context = _context(request, token, entry, player)
    state = context["state"]
    html = render_to_string("tournaments/_personal.html", context, request=request)
    body = {"version": state["version"], "live_version": state["live_version"], "playing": state["playing"]}
    return _private(JsonResponse(body | {"html": html}))


@failed_lookups_limited(group="tsoxa.personal_link")
@require_safe
def personal_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The page's link as a QR code (SVG): for the partner to scan, and on the check-in slip."""
    entry, player = personal_entry(token)
    out = io.BytesIO()
    segno.make(personal_url(request, entry, player), error="m").save(out, kind="svg", scale=4, xmldecl=False)
    response = HttpResponse(out.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, max-age=3600"  # a link never changes
    response["Content-Security-Policy"] = "default-src 'none'"
    response["X-Content-Type-Options"] = "nosniff"
    return response


# Find your table -----------------------------------------------------------------------------


def fold(text: str) -> str:
    """A name as searched: accents and case ignored, Greek too (ά → α, ς → σ, Ï → i)."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


# A name typed in Latin letters finds it written in Greek or Cyrillic, and the other way round: each
# word is spelt in ASCII by anyascii, then brought to one spelling (``spelling``) so that the usual
# ways of writing it meet (Papadopoulos, Papadopulos, Παπαδόπουλος → "papadopulos"). Both the names
# and the query go through it; a query word finds a name by the start of one of its words.

# Before anyascii, where it spells otherwise than the people who bear the name: Greek ου, αυ, ευ
# as Greeks write them (anyascii: "oy", "ay", "ey"), Bulgarian by its official transliteration
# (щ → "sht", ъ → "a"; anyascii follows Russian).
NATIVE = (
    (r"ου", "ou"),  # Παπαδόπουλος: Papadopoulos
    (r"αυ(?=[θκξπστφχψ]|$)", "af"),  # before a voiceless consonant: Ευθύμιος: Efthymios
    (r"ευ(?=[θκξπστφχψ]|$)", "ef"),
    (r"αυ", "av"),  # Ευάγγελος: Evangelos
    (r"ευ", "ev"),
    (r"щ", "sht"),  # Щерев: Shterev
    (r"ъ", "a"),  # Дъбов: Dabov
    (r"ь", ""),
)

# Then the Latin spellings that stand for one letter, merged (in this order; Greeklish mostly).
SPELLINGS = (
    (r"(?<=[a-z])8|8(?=[a-z])", "th"),  # θ typed as 8: 8anasis
    (r"[ck]h", "h"),  # χ, х: Christos, Hristo, Khristo (ч too: Chavdar, Чавдар still meet)
    (r"ph", "f"),  # φ: Philippos, Filippos
    (r"dh", "d"),  # δ: Dhimitris, Dimitris
    (r"gh", "g"),  # γ: Ghiorgos
    (r"ks", "x"),  # ξ: Aleksiou, Alexiou
    (r"c", "k"),  # κ: Costas, Kostas
    (r"m[pb]", "b"),  # μπ: Mpampis, Bambis, Babis
    (r"n[td]", "d"),  # ντ: Ntinos, Dinos; Pantelis, Pandelis
    (r"gg", "ng"),  # γγ: Vaggelis, Vangelis
    (r"gk", "g"),  # γκ: Gkikas, Gikas
    (r"ou", "u"),  # ου: Papadopoulos, Papadopulos
    (r"w", "o"),  # ω: Giwrgos, Giorgos
    (r"(?:^|(?<=[aeo]))y(?=[aeiou])", "gi"),  # γι: Yorgos, Giorgos; Panayotis, Panagiotis
    (r"y", "i"),  # υ, η, ι: Kyma, Kima
    (r"[eo]i", "i"),  # ει, οι: Eirini, Irini; Oikonomou, Ikonomou
    (r"b", "v"),  # β: Vasilis, Basilis
    (r"(.)\1", r"\1"),  # a doubled letter: Pappas, Papas
)
_NATIVE = [(re.compile(p), r) for p, r in NATIVE]
_SPELLINGS = [(re.compile(p), r) for p, r in SPELLINGS]
# A query word ending in the first letter of one of those spellings may be half typed (Papadopo…
# for Papadopou…, Μπ… for Mpampis): it is also tried with the spelling finished.
HALF_TYPED = {
    "o": ("ou", "oi"),
    "e": ("ei",),
    "c": ("ch",),
    "k": ("kh", "ks"),
    "p": ("ph",),
    "g": ("gg",),
    "m": ("mp",),
    "n": ("nt",),
    "y": ("yi",),
}
WORD = re.compile(r"[^\W_]+")


def _ascii(word: str) -> str:
    return "".join(c for c in anyascii(word).lower() if c.isascii() and c.isalnum())


def spelling(word: str) -> str:
    """One folded word (``fold``) in Latin letters, its usual spellings merged: "Παπαδόπουλος",
    "papadopoulos" and "papadopulos" all give "papadopulos"; "Γιώργος", "giorgos", "yorgos" give
    "giorgos"; "Иванов", "ivanov" give "ivanov"."""
    for pattern, replacement in _NATIVE:
        word = pattern.sub(replacement, word)
    word = _ascii(word)
    for pattern, replacement in _SPELLINGS:
        word = pattern.sub(replacement, word)
    return word


def _forms(word: str) -> tuple[str, str, str, str]:
    """A folded word as written, in anyascii's Latin letters, in its merged spelling, and that with
    x read as χ (Xristos) rather than ξ."""
    merged = spelling(word)
    return word, _ascii(word), merged, merged.replace("x", "h")


@functools.lru_cache(maxsize=8192)
def name_keys(name: str) -> frozenset[str]:
    """What a query word may begin: from each word of the name to its end, words joined, in each
    of the word's forms (``_forms``) — "Jean-Pierre" gives "jeanpierre" and "pierre"."""
    words = [_forms(w) for w in WORD.findall(fold(name))]
    keys = {"".join(w[form] for w in words[i:]) for i in range(len(words)) for form in range(4)}
    return frozenset(keys - {""})


def _query_forms(query: str) -> list[set[str]]:
    """Each word of a query in its forms (``_forms``), and finished where it may be half typed."""
    forms = []
    for word in WORD.findall(fold(query)):
        these = set(_forms(word))
        if len(word) > 1:
            these.update(spelling(word[:-1] + end) for end in HALF_TYPED.get(_ascii(word[-1])[-1:], ()))
        forms.append(these - {""})
    return forms


def _found(keys: frozenset[str], query: list[set[str]]) -> bool:
    return bool(query) and all(any(k.startswith(f) for f in word for k in keys) for word in query)


def finder_matches(name: str, query: str) -> bool:
    """Whether each word of ``query`` begins a word of ``name`` (or words of it run together), in
    any of their forms: accents and case ignored, Latin letters for Greek or Cyrillic and back."""
    return _found(name_keys(name), _query_forms(query))


def _finder_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first() if tournament.status != "registration" else None


def finder_rows(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Every team and player of the event with their table in the current round (the latest),
    alphabetical (accents and case ignored): ``name``, ``kind`` ("team" | "player"), ``team`` (a
    player's team; None for a team or an individual event's player), ``number``, ``table`` (None:
    not seated in this round), ``side`` ("A"/"B"; "A"–"D" in an individual round), ``bye``,
    ``partner``, ``against`` (the opponents' names), ``against_numbers``, ``round`` (its number).
    Three queries whatever the size."""
    entries = list(
        Entry.objects.filter(tournament=tournament, status__in=ACTIVE).select_related(
            "team__player_a", "team__player_b", "player"
        )
    )
    rnd = _finder_round(tournament)
    seats: dict[int, dict[str, Any]] = {}
    if rnd is not None:
        by_pk = {e.pk: e for e in entries}
        for t in rnd.tables.order_by("number").only(
            "number", "entry0_id", "entry1_id", "partner0_id", "partner1_id", "round_id"
        ):
            for pk in (t.entry0_id, t.entry1_id, t.partner0_id, t.partner1_id):
                if pk is None:
                    continue
                side = _side_of(t, pk)
                theirs = (t.entry1_id, t.partner1_id) if side == 0 else (t.entry0_id, t.partner0_id)
                mine = (t.entry0_id, t.partner0_id) if side == 0 else (t.entry1_id, t.partner1_id)
                others = [by_pk[o] for o in theirs if o is not None and o in by_pk]
                partner = next((by_pk[o] for o in mine if o not in (None, pk) and o in by_pk), None)
                seats[pk] = {
                    "table": t.number,
                    "side": _seat(t, pk),
                    "bye": t.entry1_id is None,
                    "partner": partner.name if partner else None,
                    "against": [o.name for o in others],
                    "against_numbers": [o.number for o in others],
                    "opponents": [{"name": o.name, "number": o.number} for o in others],
                }
    empty: dict[str, Any]
    empty = {"table": None, "side": None, "bye": False, "partner": None, "against": [], "against_numbers": [],
             "opponents": []}  # fmt: skip
    rows = []
    for e in entries:
        seat = seats.get(e.pk, empty)
        common = {"number": e.number, "round": rnd.number if rnd else None, **seat}
        if e.team is not None:
            rows.append({"name": e.team.name, "kind": "team", "team": None, **common})
            rows.extend(
                {"name": p.name, "kind": "player", "team": e.team.name, **common} for p in e.team.players
            )
        else:
            assert e.player is not None  # entry_team_or_player: no team, so a player
            rows.append({"name": e.player.name, "kind": "player", "team": None, **common})
    rows.sort(key=lambda r: (fold(r["name"]), r["kind"] != "team", r["number"] or 0))
    return rows


def finder_search(rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """The rows whose name has a word beginning with each word of ``query`` (``finder_matches``:
    accents and case ignored, Latin letters for Greek or Cyrillic and back), in their order."""
    words_ = _query_forms(query)
    return [r for r in rows if _found(name_keys(r["name"]), words_)]


FINDER_SHOWN = 30


def _visible(request: HttpRequest, slug: str) -> Tournament:
    from .screen import _visible as visible

    return visible(request, slug)


@require_safe
def finder(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Find your table: a search box, answered without JavaScript (``?q=``) and as one types (htmx)."""
    tournament = _visible(request, slug)
    query = request.GET.get("q", "")[:80].strip()
    rows = finder_rows(tournament=tournament) if query else []
    found = finder_search(rows, query)
    rnd = _finder_round(tournament)
    context = {
        "tournament": tournament,
        "query": query,
        "found": found[:FINDER_SHOWN],
        "more": max(0, len(found) - FINDER_SHOWN),
        "round": rnd,
        "round_label": _round_label(rnd) if rnd else "",
    }
    template = "tournaments/finder.html#results" if request.htmx else "tournaments/finder.html"
    return render(request, template, context)


@require_safe
def finder_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The A4 list for the wall: every player and team, alphabetical, with their table."""
    tournament = _visible(request, slug)
    rnd = _finder_round(tournament)
    context = {
        "tournament": tournament,
        "rows": finder_rows(tournament=tournament),
        "round": rnd,
        "round_label": _round_label(rnd) if rnd else "",
    }
    return render(request, "tournaments/finder_print.html", context)
