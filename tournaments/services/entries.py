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

from ..models import Entry, Tournament
from . import individual, queue, sync
from .common import TournamentError


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
    return Entry.objects.create(
        tournament=tournament, team=team, status=status, contact=contact, number=entry_next_number(tournament)
    )


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
def entry_set_status(*, entry: Entry, status: str, user: Any = None) -> Entry:
    """Approve (registered), check in, undo a check-in, or withdraw an entry."""
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
    entry.save()
    sync.entry_changed(entry)
    if status == Entry.Status.WITHDRAWN and tournament.status == Tournament.Status.RUNNING:
        queue.standings_request(tournament.pk)
    return entry
