"""Teams entered: registration, public sign-up, approval, check-in, withdrawal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext

from players.errors import PlayerError
from players.models import Player
from players.services import player_create, team_get_or_create
from scoring import engine
from scoring import selectors as scoring_selectors
from scoring.messages import engine_sentence

from .. import live
from ..models import Entry, Tournament
from . import individual, queue, sync
from .common import STAGE_KINDS, TournamentError


def _team(name: str, players: Sequence[str], player_ids: Sequence[int | None] | None, user: Any):
    """The entry's team: the players picked by ``player_ids`` (ones ``user`` may see), new players for
    the other names. A typed name never joins an existing person to the tournament."""
    if len(players) != 2:
        raise TournamentError(gettext("A team has two players."))
    try:
        _, given = scoring_selectors.team_entry(
            name=name, players=players, player_ids=player_ids, user=user, field="players"
        )
        typed = [" ".join(p.split()).casefold() for p in given if isinstance(p, str)]
        if len(typed) == 2 and typed[0] == typed[1]:
            raise TournamentError(gettext("A team has two different players."))
        a, b = (p if isinstance(p, Player) else player_create(name=p) for p in given)
        if a == b:
            raise TournamentError(gettext("A team has two different players."))
        return team_get_or_create(name=name, players=(a, b))
    except (engine.ScoringError, PlayerError) as error:
        raise TournamentError(engine_sentence(error.message)) from None


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    name: str,
    players: Sequence[str],
    status: str = Entry.Status.REGISTERED,
    contact="",
    player_ids: Sequence[int | None] | None = None,
    user: Any = None,
    late: bool = False,
) -> Entry:
    """Enter a team (``late``: after the start, from ``late.entry_register_late``). Names make new
    players; the organizer (``user``) may pick existing players, ones they may see, by
    ``player_ids`` (two ids or nulls, beside the names). In an individual event the entry is one
    player: ``players=[name]``, ``player_ids=[id or null]``."""
    if tournament.status != Tournament.Status.REGISTRATION and not late:
        raise TournamentError(gettext("Registration is closed: the tournament has started."))
    sync.tournament_touch(tournament)  # its entries change (nothing is kept if the entry is refused)
    if individual.is_individual(tournament):  # one player: ``players=[name]``
        return individual.player_register(
            tournament=tournament,
            players=players,
            player_ids=player_ids,
            status=status,
            contact=contact,
            user=user,
        )
    team = _team(name, players, player_ids, user)
    if Entry.objects.filter(tournament=tournament, team=team).exists():
        raise TournamentError(gettext("%(team)s is already entered.") % {"team": team.name})
    taken = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.WITHDRAWN)
    clash = taken.filter(Q(team__player_a__in=team.players) | Q(team__player_b__in=team.players)).first()
    if clash is not None:
        raise TournamentError(
            gettext("A player of %(team)s already plays for %(other)s.")
            % {"team": team.name, "other": clash.name}
        )
    entry = Entry(
        tournament=tournament, team=team, status=status, contact=contact, number=entry_next_number(tournament)
    )
    entry._history_user = user  # the audit names who entered it (None: a public sign-up)
    entry.save()
    return entry


def entry_next_number(tournament: Tournament) -> int:
    """The number the next entry gets: one more than the highest given (in order of entry). Called
    inside the entry's transaction, after ``sync.tournament_touch`` has locked the tournament's row,
    so two entries at once do not take the same number."""
    highest = Entry.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"]
    return (highest or 0) + 1


def entry_signup(*, tournament: Tournament, name: str, players: Sequence[str], contact: str = "") -> Entry:
    """A public sign-up: the entry waits for the organizer's approval. Its names are always new players:
    whoever signs up cannot attach anyone existing (the organizer may, by registering them)."""
    if not tournament.signup_open or not tournament.public:
        raise TournamentError(gettext("This tournament takes no sign-ups."))
    return entry_register(
        tournament=tournament, name=name, players=players, status=Entry.Status.PENDING, contact=contact
    )


@transaction.atomic
def entry_set_status(*, entry: Entry, status: str, user: Any = None, reason: str = "") -> Entry:
    """Approve (registered), check in, undo a check-in, or withdraw an entry (``reason``: why, kept
    in its history)."""
    entry = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
    tournament = entry.tournament
    if entry.status == Entry.Status.WITHDRAWN:
        raise TournamentError(gettext("%(team)s has withdrawn.") % {"team": entry.name})
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is finished: only a result can still be corrected."))
    if status == Entry.Status.WITHDRAWN:
        entry.withdrawn_at = timezone.now()
    elif tournament.status != Tournament.Status.REGISTRATION:
        raise TournamentError(
            gettext("The tournament has started: only a withdrawal can change an entry now.")
        )
    entry.status = status
    entry._history_user = user
    reason = " ".join(str(reason or "").split())
    if reason:
        entry._change_reason = reason[:100]
    entry.save()
    sync.entry_changed(entry)
    if status == Entry.Status.WITHDRAWN and tournament.status == Tournament.Status.RUNNING:
        queue.standings_request(tournament.pk)
    return entry


# An entry edited, reinstated (issue 26) ------------------------------------------------------------

NUMBER_MAX = 9999


class NumberRefused(TournamentError):
    """A number refused: out of range, taken, or the tournament has started (the form's number field)."""


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def entry_number_check(*, entry: Entry, number: Any) -> int:
    """``number`` as ``entry``'s new number: a whole number from 1 to 9999 no other entry of the
    tournament has, given before the start only (an unchanged number passes at any time)."""
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= NUMBER_MAX:
        raise NumberRefused(gettext("A team's number is a whole number from 1 to 9999."))
    if number == entry.number:
        return number
    if entry.tournament.status != Tournament.Status.REGISTRATION:
        raise NumberRefused(gettext("The numbers are fixed once the tournament has started."))
    other = (
        Entry.objects.filter(tournament_id=entry.tournament_id, number=number)
        .exclude(pk=entry.pk)
        .select_related("team", "player")
        .first()
    )
    if other is not None:
        raise NumberRefused(
            gettext("No. %(number)s is taken by %(team)s.") % {"number": number, "team": other.name}
        )
    return number


def _picked(
    entry: Entry,
    current: Sequence[Player],
    players: Sequence[str] | None,
    player_ids: Sequence[int | None] | None,
    user: Any,
) -> list[Player | str]:
    """The entry's players after the edit: a name unchanged keeps its record; ``player_ids`` picks
    other records (ones ``user`` may see, their names the ones given beside them); another name is
    a new record (a string here, made by the caller)."""
    count = len(current)
    if player_ids is not None:
        if isinstance(player_ids, str) or not isinstance(player_ids, Sequence) or len(player_ids) != count:
            raise TournamentError(
                gettext("One id (or null) beside each player's name: %(n)s.") % {"n": count}
            )
        wanted = [pk for pk in player_ids if pk is not None and pk not in {p.pk for p in current}]
        for wanted_pk in wanted:
            if not isinstance(wanted_pk, int) or isinstance(wanted_pk, bool) or wanted_pk < 1:
                raise TournamentError(gettext("A player's id is a whole number."))
        found = {p.pk: p for p in current}
        found.update(scoring_selectors.visible_players(user).in_bulk(wanted))
    if players is None:
        players = [
            found[pk].name if player_ids and pk in found else current[i].name
            for i, pk in enumerate(player_ids or [None] * count)
        ]
    if len(players) != count:
        raise TournamentError(
            gettext("An individual event's entry is one player.")
            if count == 1
            else gettext("A team has two players.")
        )
    chosen: list[Player | str] = []
    for i, name in enumerate(players):
        name = " ".join(str(name).split())
        if not name:
            raise TournamentError(gettext("Every player has a name."))
        pk = player_ids[i] if player_ids is not None else None
        if pk is None:
            if player_ids is None and _same_name(name, current[i].name):
                chosen.append(current[i])  # unchanged: the same person
            else:
                chosen.append(name)
            continue
        player = found.get(pk)
        if player is None:
            raise TournamentError(gettext("There is no player %(id)s.") % {"id": pk})
        if not _same_name(name, player.name):
            raise TournamentError(gettext("Player %(id)s is %(name)s.") % {"id": pk, "name": player.name})
        chosen.append(player)
    typed = [" ".join(p.split()).casefold() for p in chosen if isinstance(p, str)]
    if len(typed) == 2 and typed[0] == typed[1]:
        raise TournamentError(gettext("A team has two different players."))
    if len(chosen) == 2 and isinstance(chosen[0], Player) and chosen[0] == chosen[1]:
        raise TournamentError(gettext("A team has two different players."))
    return chosen


def _made(chosen: Sequence[Player | str]) -> list[Player]:
    try:
        return [p if isinstance(p, Player) else player_create(name=p) for p in chosen]
    except PlayerError as error:
        raise TournamentError(engine_sentence(error.message)) from None


def _team_used_elsewhere(team: Any, tournament: Tournament) -> bool:
    """Whether ``team`` plays anywhere but ``tournament``: another event's entry, or a match that is
    not at this tournament's tables (a friendly, another tournament)."""
    from scoring.models import Match

    if Entry.objects.filter(team=team).exclude(tournament=tournament).exists():
        return True
    matches = Match.objects.filter(Q(team0=team) | Q(team1=team))
    return matches.exclude(table__round__tournament=tournament).exists()


def _matches_repoint(*, tournament: Tournament, old: Any, new: Any, seats: bool, user: Any) -> None:
    """This tournament's matches of team ``old`` now name ``new`` (each saved with its history).
    ``seats``: the players changed, so only the matches not finished take the new team, with its
    players in their seats; a finished match keeps who played it."""
    from scoring.models import Match

    matches = Match.objects.filter(Q(team0=old) | Q(team1=old), table__round__tournament=tournament)
    if seats:
        matches = matches.exclude(status=Match.Status.FINISHED)
    for match in matches:
        for side in (0, 1):
            if getattr(match, f"team{side}_id") == old.pk:
                setattr(match, f"team{side}", new)
                if seats:  # seats 0 and 2 are side 0's players, 1 and 3 side 1's
                    setattr(match, f"seat{side}", new.player_a)
                    setattr(match, f"seat{side + 2}", new.player_b)
        match._history_user = user
        match.save()


def _individual_player(
    entry: Entry, players: Sequence[str] | None, player_ids: Sequence[int | None] | None, user: Any
):
    """An individual event's entry edited: its one player (``name`` is the player's name)."""
    assert entry.player is not None  # an individual event's entry is its player
    chosen = _picked(entry, [entry.player], players, player_ids, user)
    (player,) = _made(chosen)
    if player.pk == entry.player_id:
        return None
    if Entry.objects.filter(tournament_id=entry.tournament_id, player=player).exclude(pk=entry.pk).exists():
        raise TournamentError(gettext("%(team)s is already entered.") % {"team": player.name})
    return player


@transaction.atomic
def entry_edit(
    *,
    entry: Entry,
    name: str | None = None,
    players: Sequence[str] | None = None,
    player_ids: Sequence[int | None] | None = None,
    number: int | None = None,
    user: Any = None,
) -> Entry:
    """Edit an entry at any time: its team's name, its players, its number (before the start only).

    A name's typo: the entry's team is renamed in place when only this tournament uses it (its entries
    and its tables' matches); else a team of the new name with the same players takes its place here
    (the entry and this tournament's matches), other events keep theirs. Players: a name unchanged
    keeps its record, ``player_ids`` picks others (ones ``user`` may see), another name makes a new
    record; the same checks as a registration. In an individual event the entry is one player
    (``players=[name]`` or ``name``). Every change is in the entry's history with ``user``."""
    sync.tournament_touch(entry.tournament_id)  # locks the tournament's row: numbers, names, one at a time
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("tournament", "team__player_a", "team__player_b", "player")
        .get(pk=entry.pk)
    )
    tournament = entry.tournament
    before = {"name": entry.name, "number": entry.number, "players": _names(entry)}
    if number is not None:
        entry.number = entry_number_check(entry=entry, number=number)
    if name is not None:
        name = " ".join(str(name).split())
        if not name:
            raise TournamentError(gettext("A team needs a name."))
        if len(name) > 80:
            raise TournamentError(gettext("A name has at most 80 characters."))
        if not name.isprintable():
            raise TournamentError(gettext("A name has no control characters."))
    if entry.team_id is None:  # an individual event: the entry is its player
        if players is None and name is not None:
            players = [name]
        player = _individual_player(entry, players, player_ids, user) if (players or player_ids) else None
        if player is not None:
            entry.player = player
    else:
        _team_edit(entry, name, players, player_ids, user)
    after = {"name": entry.name, "number": entry.number, "players": _names(entry)}
    changes = [
        f"{label}: {before[key]} → {after[key]}"
        for key, label in (("number", "No."), ("name", "name"), ("players", "players"))
        if before[key] != after[key]
    ]
    if not changes:
        return entry
    entry._history_user = user
    entry._change_reason = "; ".join(changes)[:100]
    entry.save()
    sync.entry_changed(entry)
    if tournament.status != Tournament.Status.REGISTRATION:
        queue.standings_request(tournament.pk)  # the names in the stored standings
    live.publish(tournament.pk, "round")
    return entry


def _names(entry: Entry) -> str:
    if entry.team is None:
        assert entry.player is not None  # entry_team_or_player: no team, so a player
        return entry.player.name
    return f"{entry.team.player_a.name} & {entry.team.player_b.name}"


def _team_edit(
    entry: Entry,
    name: str | None,
    players: Sequence[str] | None,
    player_ids: Sequence[int | None] | None,
    user: Any,
) -> None:
    from players.models import Team

    tournament, team = entry.tournament, entry.team
    assert team is not None  # entry_edit calls this for a team's entry only
    current = [team.player_a, team.player_b]
    chosen = _picked(entry, current, players, player_ids, user) if (players or player_ids) else current
    same_players = all(isinstance(p, Player) for p in chosen) and [
        p.pk for p in chosen if isinstance(p, Player)
    ] == [p.pk for p in current]
    new_name = name if name is not None else team.name
    if same_players and new_name == team.name:
        return
    if same_players:  # a rename
        if not _team_used_elsewhere(team, tournament):
            team.name = new_name
            team.save(update_fields=["name", "updated_at"])
            return
        try:
            new = team_get_or_create(name=new_name, players=(team.player_a, team.player_b))
        except PlayerError as error:
            raise TournamentError(engine_sentence(error.message)) from None
        if new.pk == team.pk:  # the same name but for its case or spaces
            new = Team.objects.create(name=new_name, player_a=team.player_a, player_b=team.player_b)
    else:
        a, b = _made(chosen)
        if a == b:
            raise TournamentError(gettext("A team has two different players."))
        clash = (
            Entry.objects.filter(tournament=tournament)
            .exclude(pk=entry.pk)
            .exclude(status=Entry.Status.WITHDRAWN)
            .filter(Q(team__player_a__in=(a, b)) | Q(team__player_b__in=(a, b)))
            .select_related("team")
            .first()
        )
        if clash is not None:
            raise TournamentError(
                gettext("A player of %(team)s already plays for %(other)s.")
                % {"team": new_name, "other": clash.name}
            )
        try:
            new = team_get_or_create(name=new_name, players=(a, b))
        except PlayerError as error:
            raise TournamentError(engine_sentence(error.message)) from None
    if Entry.objects.filter(tournament=tournament, team=new).exclude(pk=entry.pk).exists():
        raise TournamentError(gettext("%(team)s is already entered.") % {"team": new.name})
    _matches_repoint(tournament=tournament, old=team, new=new, seats=not same_players, user=user)
    entry.team = new


def _status_before_withdrawal(entry: Entry) -> str:
    """The status the entry had before it withdrew (its history), registered if none is found."""
    earlier = (
        entry.history.exclude(status=Entry.Status.WITHDRAWN)
        .order_by("-history_date", "-history_id")
        .values_list("status", flat=True)
        .first()
    )
    return (
        earlier if earlier in (Entry.Status.REGISTERED, Entry.Status.CHECKED_IN) else Entry.Status.REGISTERED
    )


@transaction.atomic
def entry_reinstate(*, entry: Entry, user: Any = None) -> Entry:
    """A withdrawn entry back: registered (checked in if it had been) before the start; once the
    tournament runs, checked in, and paired again from the next round drawn. The rounds it missed
    count as the withdrawal left them (nothing is given for them)."""
    sync.tournament_touch(entry.tournament_id)
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("tournament", "team", "player")
        .get(pk=entry.pk)
    )
    tournament = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
    if entry.status != Entry.Status.WITHDRAWN:
        raise TournamentError(gettext("%(team)s has not withdrawn.") % {"team": entry.name})
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(gettext("The tournament is finished: only a result can still be corrected."))
    people = (
        Q(player=entry.player_id)
        if entry.team is None
        else (Q(team__player_a__in=entry.team.players) | Q(team__player_b__in=entry.team.players))
    )
    clash = (
        Entry.objects.filter(people, tournament=tournament)
        .exclude(pk=entry.pk)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("team", "player")
        .first()
    )
    if clash is not None:
        raise TournamentError(
            gettext("A player of %(team)s already plays for %(other)s.")
            % {"team": entry.name, "other": clash.name}
        )
    running = tournament.status == Tournament.Status.RUNNING
    if (
        running and entry.pk not in tournament.participants
    ):  # withdrew before the start: joins as a late entry would
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            raise TournamentError(gettext("A round robin's schedule is fixed at the start: no late entry."))
        entry.joined_round = tournament.rounds.filter(kind__in=STAGE_KINDS).count() + 1
        tournament.participants = [*tournament.participants, entry.pk]
        tournament._history_user = user
        tournament.save(update_fields=["participants", "updated_at"])
    entry.status = Entry.Status.CHECKED_IN if running else _status_before_withdrawal(entry)
    entry.withdrawn_at = None
    entry._history_user = user
    entry._change_reason = "reinstated"
    entry.save()
    sync.entry_changed(entry)
    if running:
        queue.standings_request(tournament.pk)
    live.publish(tournament.pk, "round")
    return entry
