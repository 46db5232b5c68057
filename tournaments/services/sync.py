"""What a client mirroring the API must learn of a tournament's changes (``GET …?updated_since=`` and
``GET /api/v1/changes/``), written in the transaction of the change.

- ``tournament_touch``: the tournament's ``updated_at`` moves whenever what the API shows of it
  changes (its status, settings, entries, rounds, clock, standings, final ranking). ``save()`` moves
  it by itself; the writes that skip it (``QuerySet.update``, ``save(update_fields=…)``, a change of
  a round, a table, an adjustment or the standings only) call this: one UPDATE of the row.
- ``entry_changed``: an entry registered, approved, checked in or withdrawn touches its tournament;
  a withdrawal also writes a tombstone (kind ``entry``, the entry's id).
- ``visibility_changed``: a tournament made private writes tombstones (reason ``private``) for
  itself, its matches, and the teams and players nobody but its organizer may see any more; made
  public again, those objects only move their ``updated_at``, so that a mirror reads them again.
"""

from __future__ import annotations

from django.db.models.functions import Coalesce
from django.utils import timezone

from players.models import Player, Team
from scoring import removals
from scoring.models import Match
from scoring.selectors import visible_players, visible_teams

from ..models import Entry, Tournament


def tournament_touch(tournament: Tournament | int) -> None:
    """Move the tournament's ``updated_at`` to now (and the instance's, if one is given)."""
    now = timezone.now()
    pk = tournament if isinstance(tournament, int) else tournament.pk
    Tournament.objects.filter(pk=pk).update(updated_at=now)
    if isinstance(tournament, Tournament):
        tournament.updated_at = now


def entry_changed(entry: Entry) -> None:
    """An entry registered or changed: its tournament moves; a withdrawn one leaves a tombstone."""
    tournament_touch(entry.tournament_id)
    if entry.status == Entry.Status.WITHDRAWN:
        removals.removal_record(
            kind=removals.Kind.ENTRY,
            object_id=entry.pk,
            reason=removals.Reason.WITHDRAWN,
            tournament_id=entry.tournament_id,
        )


def _people(tournament: Tournament) -> tuple[list[int], set[int], set[int]]:
    """The tournament's matches, the teams and the players (as people: roots) entered or seated."""
    matches = Match.objects.filter(table__round__tournament=tournament)
    match_ids, teams, records = [], set(), set()
    for pk, *sides in matches.values_list("pk", "team0", "team1", "seat0", "seat1", "seat2", "seat3"):
        match_ids.append(pk)
        teams.update(sides[:2])
        records.update(sides[2:])
    entries = Entry.objects.filter(tournament=tournament).values_list(
        "team", "team__player_a", "team__player_b", "player"
    )
    for team, *players in entries:
        teams.add(team)
        records.update(players)
    teams.discard(None)
    records.discard(None)
    roots = Player.objects.filter(pk__in=records).values_list(Coalesce("merged_into", "pk"), flat=True)
    return match_ids, teams, set(roots)


def visibility_changed(*, tournament: Tournament, was_public: bool) -> None:
    """Tell mirrors that a tournament was made private (tombstones) or public again (``updated_at``)."""
    if tournament.public == was_public:
        return
    match_ids, teams, people = _people(tournament)
    if tournament.public:
        now = timezone.now()
        Match.objects.filter(pk__in=match_ids).update(updated_at=now)
        Team.objects.filter(pk__in=teams).update(updated_at=now)
        Player.objects.filter(pk__in=people).update(updated_at=now)
        return
    private, t = removals.Reason.PRIVATE, tournament.pk
    removals.removal_record(kind=removals.Kind.TOURNAMENT, object_id=t, reason=private, tournament_id=t)
    removals.removals_record(kind=removals.Kind.MATCH, object_ids=match_ids, reason=private, tournament_id=t)
    # Teams and people the public sees no more: known only from private tournaments now.
    still_teams = visible_teams(None).filter(pk__in=teams).values_list("pk", flat=True)
    hidden_teams = sorted(teams - set(still_teams))
    removals.removals_record(
        kind=removals.Kind.TEAM, object_ids=hidden_teams, reason=private, tournament_id=t
    )
    seen = visible_players(None).filter(pk__in=people, merged_into__isnull=True)
    hidden_people = sorted(people - set(seen.values_list("pk", flat=True)))
    removals.removals_record(
        kind=removals.Kind.PLAYER, object_ids=hidden_people, reason=private, tournament_id=t
    )
