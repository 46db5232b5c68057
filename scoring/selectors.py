"""Reads: the score sheet of a match and the lists around it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import Case, Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery, When

from players.models import Player, Team

from . import engine
from .models import Deal, Match

MATCH_RELATED = ("team0", "team1", "seat0", "seat1", "seat2", "seat3")
# A list of matches that shows each team's players and the tournament: all in the one query.
MATCH_LIST_RELATED = (
    *MATCH_RELATED,
    "team0__player_a",
    "team0__player_b",
    "team1__player_a",
    "team1__player_b",
    "table__round__tournament",
)


@dataclass(frozen=True)
class SheetLine:
    deal: Deal
    row: engine.SheetRow


@dataclass(frozen=True)
class MatchSheet:
    match: Match
    sheet: engine.Sheet
    lines: tuple[SheetLine, ...]


def match_list(*, status: str | None = None, user: Any = None) -> QuerySet[Match]:
    """The matches this person may see (``match_visibility``), with their teams and seats."""
    matches = visible_matches(user).select_related(*MATCH_RELATED)
    return matches.filter(status=status) if status else matches


# Who sees what, and what counts -------------------------------------------------------------
#
# A private tournament's matches, teams and players are its organizer's: they are in no list but
# the organizer's (and a superuser's), and a player known only from private tournaments is nobody
# to anyone else. These are the rules; every list and search uses them.

SEATS = ("seat0", "seat1", "seat2", "seat3")
PRIVATE = Q(table__round__tournament__public=False)


def _signed_in(user: Any) -> bool:
    return user is not None and user.is_authenticated


def _seats(team: int | None) -> tuple[str, ...]:
    """The seats of a team (0: seats 0 and 2; 1: seats 1 and 3), or all four."""
    return SEATS if team is None else SEATS[team::2]


def seated(player: Any, *, team: int | None = None) -> Q:
    """Matches in which the player (a Player, an id or an ``OuterRef``; or a list of ids, every
    record of a person) sat, at any of the four seats, or at ``team``'s two."""
    lookup = "__in" if isinstance(player, list | tuple | set) else ""
    query = Q()
    for seat in _seats(team):
        query |= Q(**{f"{seat}{lookup}": player})
    return query


def seated_person(person: Any, *, team: int | None = None) -> Q:
    """Matches in which a person sat under any of their records: ``person`` is a root record (a
    Player, an id or an ``OuterRef``), the records merged into it are theirs too (``Player.merged_into``
    always names a root: see ``players.identity_services``). No match is rewritten by a merge."""
    query = Q()
    for seat in _seats(team):
        query |= Q(**{seat: person}) | Q(**{f"{seat}__merged_into": person})
    return query


def match_visibility(user: Any = None) -> Q:
    """Which matches this person sees in lists: standalone matches and public tournaments' for
    everyone; a private tournament's for its organizer, its keepers and its players signed in with
    their own account (as ``permissions.can_see``), and for superusers."""
    if _signed_in(user) and user.is_superuser:
        return Q()
    visible = ~PRIVATE
    if _signed_in(user):
        own = Player.objects.filter(user=user).values("pk")
        keeps = Match.keepers.through.objects.filter(match=OuterRef("pk"), user=user)
        visible |= Q(table__round__tournament__organizer=user) | Q(Exists(keeps))
        for seat in SEATS:
            visible |= Q(**{f"{seat}__in": own})
    return visible


def visible_matches(user: Any = None) -> QuerySet[Match]:
    return Match.objects.filter(match_visibility(user))


def _counted_for_everyone() -> Q:
    """A tournament's match, or one started or kept by an account: someone answers for its sheet."""
    keepers = Match.keepers.through.objects.filter(match=OuterRef("pk"))
    return Q(table__isnull=False) | Q(created_by__isnull=False) | Q(Exists(keepers))


def confirmed_by_team(team: int) -> Q:
    """Matches whose result was confirmed (``confirmed_by``) by the account of a player seated in
    ``team``: the claimed record at that seat, or the record it was merged into."""
    confirmer = Q(user=OuterRef("confirmed_by")) | Q(merged_into__user=OuterRef("confirmed_by"))
    at_team = Q()
    for seat in _seats(team):
        at_team |= Q(pk=OuterRef(seat))
    return Q(Exists(Player.objects.filter(confirmer).filter(at_team)))


def counted_for(team: int) -> Q:
    """What counts in the record (record, statistics, win rate, partners, leaderboard) of a player
    seated in ``team``: a tournament's match, a match started or kept by an account, or one whose
    result a player of the *other* team confirmed with their own account (a claimed record). Any
    other match is *casual* for that side: listed on its players' pages, counted for nobody there,
    so that nobody makes their own record, or changes another's, by typing a score. A confirmation
    by one's own team counts for the other team's records, not for one's own. This is the side's
    rule only: what people's records count adds the claimed person's (``league.counting``)."""
    return _counted_for_everyone() | confirmed_by_team(1 - team)


def counted_for_person(person: Any) -> Q:
    """The matches that count in a person's record (``counted_for`` on the side they sat): ``person``
    is a root record (Player, id or ``OuterRef``); the records merged into it count as it."""
    return (seated_person(person, team=0) & counted_for(0)) | (seated_person(person, team=1) & counted_for(1))


def counted() -> Q:
    """Matches that count for at least one side (``counted_for``); a per-player question asks
    ``counted_for`` of the player's side, or ``counted_for_person``."""
    return counted_for(0) | counted_for(1)


def counted_matches(matches: QuerySet[Match] | None = None) -> QuerySet[Match]:
    """The matches that count in the records of at least one of their sides (``counted``)."""
    return (Match.objects.all() if matches is None else matches).filter(counted())


def visible_players(user: Any = None) -> QuerySet[Player]:
    """Everyone, but the players known only from private tournaments (seated at their matches or
    entered in them) that this person may not see. A player of a private tournament who also played
    in the open is listed (their private matches are not). A person is seen if any of their records
    is (a root, with the records merged into it). Merged records are here too, so that an id picked
    before a merge still picks; the lists and searches show roots only (``merged_into`` empty)."""
    if _signed_in(user) and user.is_superuser:
        return Player.objects.all()
    merged_seen = Player.objects.filter(_record_seen(user), merged_into=OuterRef("pk"))
    return Player.objects.filter(_record_seen(user) | Q(Exists(merged_seen)))


def _record_seen(user: Any) -> Q:
    """Players (records) not known only from private tournaments this person may not see."""
    at_matches = Match.objects.filter(seated(OuterRef("pk")))
    in_teams = Team.objects.filter(Q(player_a=OuterRef("pk")) | Q(player_b=OuterRef("pk")))
    itself = Player.objects.filter(pk=OuterRef("pk"))  # entered alone, in an individual event
    hidden = (
        Q(Exists(at_matches.filter(PRIVATE)))
        | Q(Exists(in_teams.filter(entries__tournament__public=False)))
        | Q(Exists(itself.filter(entries__tournament__public=False)))
    )
    seen = (
        Q(Exists(at_matches.filter(match_visibility(user))))
        | Q(Exists(in_teams.filter(_entry_visibility(user))))
        | Q(Exists(itself.filter(_entry_visibility(user))))
    )
    return ~hidden | seen


def visible_teams(user: Any = None) -> QuerySet[Team]:
    """Every team, but those known only from private tournaments that this person may not see."""
    if _signed_in(user) and user.is_superuser:
        return Team.objects.all()
    at_matches = Match.objects.filter(Q(team0=OuterRef("pk")) | Q(team1=OuterRef("pk")))
    itself = Team.objects.filter(pk=OuterRef("pk"))
    hidden = Q(Exists(at_matches.filter(PRIVATE))) | Q(
        Exists(itself.filter(entries__tournament__public=False))
    )
    seen = Q(Exists(at_matches.filter(match_visibility(user)))) | Q(
        Exists(itself.filter(_entry_visibility(user)))
    )
    return Team.objects.filter(~hidden | seen)


def _entry_visibility(user: Any) -> Q:
    """Teams (or players entered alone) in a tournament this person sees (public, or organized by them)."""
    visible = Q(entries__tournament__public=True)
    if _signed_in(user):
        visible |= Q(entries__tournament__organizer=user)
    return visible


# The pickers of a new match: search, and this tablet's recent people ----------------------------

SEARCH_MIN = 2  # characters typed before a search
SEARCH_MOST = 10  # results shown
RECENT_MATCHES = 20  # of this tablet or account, for its recent teams and players


def _last_match(user: Any, here: Q) -> QuerySet[Match]:
    return visible_matches(user).filter(here).order_by("-created_at", "-pk")


def _query(text: str) -> str:
    return " ".join(text.split())[:80]


def player_search(*, query: str, user: Any = None, most: int = SEARCH_MOST) -> list[Player]:
    """Players this person may see whose name holds ``query`` (at least ``SEARCH_MIN`` characters),
    those who played last first. Each has ``last_played`` and ``last_team`` (the team they last
    played for), to tell namesakes apart. A person is found by the name of any of their records and
    offered as their root (merged records are not offered). One query."""
    query = _query(query)
    if len(query) < SEARCH_MIN:
        return []
    last = _last_match(user, seated_person(OuterRef("pk")))
    own_team = Case(
        When(seated_person(OuterRef("pk"), team=0), then=F("team0__name")), default=F("team1__name")
    )
    players = visible_players(user).filter(merged_into__isnull=True).filter(named_person(query, user))
    players = players.annotate(
        last_played=Subquery(last.values("created_at")[:1]),
        last_team=Subquery(last.annotate(own_team=own_team).values("own_team")[:1]),
    )
    return list(players.order_by(F("last_played").desc(nulls_last=True), "name", "pk")[:most])


def named_person(text: str, user: Any = None) -> Q:
    """Players (roots) whose name, or the name of a record merged into them that this person may see,
    holds ``text`` (a record known only from private events is found by its name only by who sees it)."""
    merged = visible_players(user).filter(merged_into=OuterRef("pk"), name__icontains=text)
    return Q(name__icontains=text) | Q(Exists(merged))


def team_search(*, query: str, user: Any = None, most: int = SEARCH_MOST) -> list[Team]:
    """Teams this person may see whose name or players' names hold ``query``, the last to play first,
    each with its ``last_played``. One query."""
    query = _query(query)
    if len(query) < SEARCH_MIN:
        return []
    last = _last_match(user, Q(team0=OuterRef("pk")) | Q(team1=OuterRef("pk")))
    named = Q(name__icontains=query) | Q(player_a__name__icontains=query) | Q(player_b__name__icontains=query)
    teams = visible_teams(user).filter(named).select_related("player_a", "player_b")
    teams = teams.annotate(last_played=Subquery(last.values("created_at")[:1]))
    return list(teams.order_by(F("last_played").desc(nulls_last=True), "name", "pk")[:most])


def recent_matches(*, user: Any = None, match_ids: Iterable[int] = ()) -> list[Match]:
    """The latest matches this tablet started (``match_ids``, from its session) or this account keeps."""
    mine = Q(pk__in=[int(pk) for pk in match_ids])
    if _signed_in(user):
        mine |= Q(Exists(Match.keepers.through.objects.filter(match=OuterRef("pk"), user=user)))
    related = ("team0__player_a", "team0__player_b", "team1__player_a", "team1__player_b", *MATCH_RELATED)
    matches = visible_matches(user).filter(mine).select_related(*related)
    return list(matches.order_by("-created_at", "-pk")[:RECENT_MATCHES])


def recent_teams(*, matches: Sequence[Match]) -> list[Team]:
    """The teams of these matches (``recent_matches``), the latest first, each once, with its
    ``last_played``."""
    teams: dict[int, Team] = {}
    for match in matches:
        for team in match.teams:
            if team.pk not in teams:
                # What team_search annotates: not declared on Team (players/models.py).
                cast(Any, team).last_played = match.created_at
                teams[team.pk] = team
    return list(teams.values())


def recent_players(*, matches: Sequence[Match]) -> list[Player]:
    """The players of these matches, the latest first, each once, with ``last_played`` and
    ``last_team`` as ``player_search`` gives them."""
    players: dict[int, Player] = {}
    for match in matches:
        for seat, player in enumerate(match.seats):
            if player.pk not in players:
                # What player_search annotates: not declared on Player (players/models.py).
                shown = cast(Any, player)
                shown.last_played = match.created_at
                shown.last_team = match.teams[seat % 2].name
                players[player.pk] = player
    return list(players.values())


# A new match's teams, as the caller gave them ------------------------------------------------


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _an_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def team_entry(
    *,
    name: str,
    players: Sequence[str],
    player_ids: Sequence[int | None] | None = None,
    team_id: int | None = None,
    user: Any = None,
    field: str = "teams",
) -> tuple[str, tuple[Player | str, Player | str]]:
    """One team of a new match or entry, as ``scoring.services.match_create`` takes it: a team picked
    by its ``team_id`` is its two players; a player picked by ``player_ids`` (two ids or nulls) is
    that player; any other name makes a new player. Picking is the only way to an existing person:
    an id this person may not see is refused as an unknown one, and a picked player's name must be
    the one given beside it (a mistyped id is refused, not quietly someone else).

    Raises ``ScoringError`` naming the field (``teams[0].player_ids[1]``)."""
    if len(players) != 2:
        raise engine.ScoringError("each team has two players", field=field)
    if player_ids is not None:
        if isinstance(player_ids, str) or not isinstance(player_ids, Sequence) or len(player_ids) != 2:
            raise engine.ScoringError(
                "must be a list of two player ids (or nulls)", field=f"{field}.player_ids"
            )
        for i, pk in enumerate(player_ids):
            if pk is not None and not _an_id(pk):
                raise engine.ScoringError("must be a player's id or null", field=f"{field}.player_ids[{i}]")
    if team_id is not None:
        if not _an_id(team_id):
            raise engine.ScoringError("must be a team's id or null", field=f"{field}.id")
        team = visible_teams(user).select_related("player_a", "player_b").filter(pk=team_id).first()
        if team is None:
            raise engine.ScoringError(f"there is no team {team_id}", field=f"{field}.id")
        if not _same_name(name, team.name):
            raise engine.ScoringError(f"team {team.pk} is {team.name}", field=f"{field}.name")
        for i, player in enumerate(team.players):
            if not _same_name(players[i], player.name):
                raise engine.ScoringError(
                    f"player {i + 1} of team {team.pk} is {player.name}", field=f"{field}.players"
                )
            if player_ids is not None and player_ids[i] not in (None, player.pk):
                raise engine.ScoringError(
                    f"player {i + 1} of team {team.pk} is player {player.pk}", field=f"{field}.player_ids"
                )
        return team.name, (team.player_a, team.player_b)
    if player_ids is None:
        return name, (players[0], players[1])
    found = visible_players(user).in_bulk([pk for pk in player_ids if pk is not None])
    chosen: list[Player | str] = []
    for i, pk in enumerate(player_ids):
        if pk is None:
            chosen.append(players[i])
            continue
        picked = found.get(pk)
        if picked is None:
            raise engine.ScoringError(f"there is no player {pk}", field=f"{field}.player_ids[{i}]")
        if not _same_name(players[i], picked.name):
            raise engine.ScoringError(f"player {pk} is {picked.name}", field=f"{field}.players[{i}]")
        chosen.append(picked)
    return name, (chosen[0], chosen[1])


def prefetch_active_deals(path: str = "deals") -> Prefetch:
    """For a list that reads many matches' deals: one query for all (see ``active_deals``)."""
    return Prefetch(
        path,
        queryset=Deal.objects.filter(deleted_at__isnull=True).order_by("position"),
        to_attr="active_deals",
    )


def active_deals(match: Match) -> list[Deal]:
    """The match's deals in playing order, prefetched by ``prefetch_active_deals`` if they were."""
    if hasattr(match, "active_deals"):
        return match.active_deals
    return list(match.deals.filter(deleted_at__isnull=True).order_by("position"))


def match_sheet(*, match: Match) -> MatchSheet:
    """The sheet, recomputed by the engine from the deals in playing order."""
    deals = active_deals(match)
    sheet = engine.replay(
        match.ruleset, [d.as_engine() for d in deals], options=match.options, first_dealer=match.first_dealer
    )
    return MatchSheet(match, sheet, tuple(SheetLine(d, r) for d, r in zip(deals, sheet.rows, strict=True)))


def match_sheet_replacing(*, match: Match, deal: Deal, data: engine.Deal) -> engine.Sheet:
    """The sheet as it would be with ``deal`` saying ``data`` instead (the correction page's
    preview): every deal replayed in playing order, nothing saved. An engine refusal (the new deal,
    or a later deal that no longer fits) is raised as ``engine.ScoringError``."""
    deals = [data if d.pk == deal.pk else d.as_engine() for d in active_deals(match)]
    return engine.replay(match.ruleset, deals, options=match.options, first_dealer=match.first_dealer)


def deal_history(*, deal: Deal) -> QuerySet:
    """Every version of the deal, newest first, with who made it."""
    return deal.history.select_related("history_user").order_by("-history_date", "-history_id")


def match_deal_history(*, match: Match) -> QuerySet:
    """Every change to every deal of the match, newest first."""
    return (
        Deal.history.filter(match_id=match.pk)
        .select_related("history_user")
        .order_by("-history_date", "-history_id")
    )


def match_file(*, match: Match) -> dict:
    """The match as a match file (FORMAT.md input): it replays to the same sheet.

    The file names the players and gives no ``player_ids``: importing it again makes new players,
    so a copy of a match never lands in anyone's record by itself (nor can a copied file speak for
    people the importer never picked). To attach an import to existing players, add their
    ``player_ids`` (or the team's ``id``) to the file: picking is explicit."""
    teams = tuple((t.name, t.player_a.name, t.player_b.name) for t in match.teams)
    return _match_file(
        match.ruleset, match.options, match.preset, match.first_dealer, teams, active_deals(match)
    )


def _match_file(
    ruleset: str,
    options: dict[str, Any],
    preset: str,
    first_dealer: int,
    teams: Iterable[tuple[str, str, str]],
    deals: Iterable[Deal | engine.Deal],
) -> dict:
    """``match_file``'s document, from the match's columns, its teams (name, player, player) and its
    active deals in playing order (stored, or already the engine's)."""
    return engine.MatchFile(
        ruleset=ruleset,
        options=dict(options),
        # A match's two teams (mypy cannot know the length of a tuple made from an iterable).
        teams=cast(
            "tuple[engine.TeamEntry, engine.TeamEntry]",
            tuple(engine.TeamEntry(name, (a, b)) for name, a, b in teams),
        ),
        first_dealer=first_dealer,
        deals=tuple(d if isinstance(d, engine.Deal) else d.as_engine() for d in deals),
        preset=preset,  # beside the options, which hold every rule it set (FORMAT.md)
    ).to_dict()


# What the exports read of a match (``_match_file``'s arguments but its deals), as values.
TEAM_NAMES = ("name", "player_a__name", "player_b__name")
EXPORTED = (
    "pk",
    "ruleset",
    "options",
    "preset",
    "first_dealer",
    *(f"{t}__{n}" for t in ("team0", "team1") for n in TEAM_NAMES),
)


def matches_exported(*, match_ids: Sequence[int]) -> dict[int, dict]:
    """Matches as a tournament's export writes each, by id: its match file (``match_file``) and its
    sheet (``"sheet"``). Two queries however many they are (their columns, with their teams' and
    players' names; their active deals' data), read as values, not model instances; one replay each."""
    deals: dict[int, list[engine.Deal]] = {pk: [] for pk in match_ids}
    active = Deal.objects.filter(match_id__in=match_ids, deleted_at__isnull=True)
    for match_id, data in active.order_by("match_id", "position").values_list("match_id", "data"):
        deals[match_id].append(engine.Deal.from_dict(data))
    out = {}
    matches = Match.objects.filter(pk__in=match_ids).values_list(*EXPORTED)
    for pk, ruleset, options, preset, dealer, *names in matches:
        played, teams = deals[pk], (names[:3], names[3:])
        sheet = engine.replay(ruleset, played, options=options, first_dealer=dealer).to_dict()
        out[pk] = _match_file(ruleset, options, preset, dealer, teams, played) | {"sheet": sheet}
    return out
