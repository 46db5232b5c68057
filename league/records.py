"""Reads for the player pages: who played, their matches replayed by the engine, the leaderboard.

A player's page costs three queries however many matches they played: the player, their matches
(teams and seats joined), and the active deals of those matches. The engine replays each match from
its deals (the totals are never read from a stored running total); ``league.stats`` counts.

Two rules decide what is shown and what counts: a private tournament's matches and people are seen
only by whom ``scoring.selectors.match_visibility`` and ``visible_players`` allow, and a player's
record, statistics, partners and leaderboard place count only the matches ``league.counting``
counts for the side they sat on (a tournament's, one an account started or keeps, or one confirmed
by an account of the other team; any other is listed as casual, counted for nobody on that side),
and never a match a claimed person at it has not stood behind (listed as unconfirmed).

A person is a root record with the records merged into it (``players.identity_services``): the lists show
roots, a root's page and record read the matches of all its records (``seated_person``), and the
leaderboard and the partners count a merged person once, as their root.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, F, Func, OuterRef, Prefetch, QuerySet, Subquery, Value, When

from players.models import Player, Team
from scoring import engine
from scoring.models import Deal, Match
from scoring.selectors import active_deals, match_visibility, named_person, seated_person, visible_players

from . import stats
from .counting import counted, counted_for, counted_for_person, with_counting

SEATS = ("seat0", "seat1", "seat2", "seat3")
# The seats' players and the records they were merged into: a partner counts as their person.
MATCH_RELATED = ("team0", "team1", *SEATS, *(f"{seat}__merged_into" for seat in SEATS))
RECENT_MATCHES = 50  # listed on a player's page; the statistics count them all
LEADERBOARD_MIN_MATCHES = 3


def person(player: Player) -> Player:
    """The record that stands for this one: itself, or the root it was merged into (read with it)."""
    root = player.merged_into  # no query when there is none
    return root if root is not None else player


def player_list(*, search: str = "", user: Any = None) -> QuerySet[Player]:
    """The people this person may see (roots: a merged record is its root's), by name, each with the
    number of their finished matches that count for them (``finished_matches``) among those this
    person may see, under any of their records. A search finds a person by any record's name. One
    query."""
    finished = (
        Match.objects.filter(
            counted_for_person(OuterRef("pk")), match_visibility(user), status=Match.Status.FINISHED
        )
        .order_by()
        .annotate(count=Func(F("pk"), function="COUNT"))
        .values("count")
    )
    players = visible_players(user).filter(merged_into__isnull=True)
    players = players.annotate(finished_matches=Subquery(finished)).order_by("name", "pk")
    return players.filter(named_person(search.strip(), user)) if search.strip() else players


def player_get(*, pk: int, user: Any = None) -> Player:
    """The player record, if this person may see it (``Player.DoesNotExist`` otherwise: a player
    known only from a private tournament is nobody to the others). A merged record is returned as it
    is, with its root (``merged_into``) read along: its page is its root's."""
    return visible_players(user).select_related("merged_into").get(pk=pk)


@dataclass(frozen=True)
class PlayerMatch:
    """One of the player's matches, seen from their seat."""

    match: Match
    seat: int
    sheet: engine.Sheet
    counted: bool = True  # False: a casual (or unconfirmed) match, listed but counted for nobody
    unconfirmed: bool = False  # a claimed person at it has not stood behind it: counted for nobody
    awaiting: bool = False  # the player (claimed) has not stood behind it: theirs to confirm or deny
    answer: str | None = None  # the player's "me" / "not_me" (``MatchConfirmation.Answer``), if any

    @property
    def team(self) -> int:
        return engine.team_of(self.seat)

    @property
    def partner(self) -> Player:
        """The partner's record as the match was recorded."""
        return self.match.seats[(self.seat + 2) % 4]

    @property
    def partner_person(self) -> Player:
        """The partner as a person (the root of a merged record): whom the partners table counts."""
        return person(self.partner)

    @property
    def own_team(self) -> Team:
        return self.match.teams[self.team]

    @property
    def other_team(self) -> Team:
        return self.match.teams[1 - self.team]

    @property
    def own_total(self) -> int:
        return self.sheet.totals[self.team]

    @property
    def other_total(self) -> int:
        return self.sheet.totals[1 - self.team]

    @property
    def finished(self) -> bool:
        return self.sheet.status == engine.Status.FINISHED

    @property
    def outcome(self) -> str | None:
        """``won``, ``drawn`` or ``lost``; None while the match goes on."""
        return stats.outcome(self.team, self.sheet.winner) if self.finished else None

    def played(self) -> stats.PlayedMatch:
        lines = tuple(stats.DealLine(row.result, row.scores, row.deal.maker) for row in self.sheet.rows)
        return stats.PlayedMatch(self.team, self.sheet.winner, lines, partner=self.partner_person)


def _player_match(match: Match, player: Player) -> PlayerMatch:
    """The match seen from the seat of the person ``player`` (a root): the seat of any of its records."""
    seat = next(s for s, p in enumerate(match.seats) if player.pk in (p.pk, p.merged_into_id))
    deals = [d.as_engine() for d in active_deals(match)]  # prefetched by player_matches
    sheet = engine.replay(match.ruleset, deals, options=match.options, first_dealer=match.first_dealer)
    counts = getattr(match, f"counted{engine.team_of(seat)}", True)
    return PlayerMatch(
        match,
        seat,
        sheet,
        counted=counts,
        unconfirmed=getattr(match, "unconfirmed", False),
        awaiting=getattr(match, "awaiting", False),
        answer=getattr(match, "answer", None),
    )


@dataclass(frozen=True)
class PlayerRecord:
    player: Player
    matches: tuple[PlayerMatch, ...]  # newest first
    stats: stats.PlayerStats

    @property
    def recent(self) -> tuple[PlayerMatch, ...]:
        return self.matches[:RECENT_MATCHES]

    @property
    def casual(self) -> bool:
        """Some listed match is casual (see ``scoring.selectors.counted_for``)."""
        return any(not m.counted and not m.unconfirmed for m in self.recent)

    @property
    def unconfirmed(self) -> bool:
        """Some listed match waits on a claimed person's confirmation (``league.counting``)."""
        return any(m.unconfirmed for m in self.recent)

    @property
    def awaiting(self) -> int:
        """How many listed matches wait on this (claimed) player's answer: "this was me" or not."""
        return sum(1 for m in self.recent if m.awaiting)

    @property
    def last_charted(self) -> PlayerMatch | None:
        """The newest match with two deals or more: the one drawn on the page."""
        return next((m for m in self.matches if len(m.sheet.rows) >= 2), None)


def player_matches(*, player: Player, user: Any = None) -> QuerySet[Match]:
    """Every match the person (a root record) sat in under any of their records that this person
    may see, newest first, with its active deals in playing order, whether it counted for each
    side and whether it waits on a confirmation (``league.counting.with_counting``)."""
    deals = Deal.objects.filter(deleted_at__isnull=True).order_by("position")
    matches = Match.objects.filter(seated_person(player), match_visibility(user))
    return (
        with_counting(matches, person=player)
        .select_related(*MATCH_RELATED)
        .prefetch_related(Prefetch("deals", queryset=deals, to_attr="active_deals"))
        .order_by("-created_at", "-pk")
    )


def player_record(*, player: Player, user: Any = None) -> PlayerRecord:
    """The person's matches (``player`` a root record: those of every record merged into it too) this
    person may see, each replayed by the engine, and their statistics over the finished ones that
    count for the side they sat on (casual matches are listed, not counted)."""
    matches = tuple(_player_match(match, player) for match in player_matches(player=player, user=user))
    record = stats.player_stats(m.played() for m in matches if m.finished and m.counted)
    return PlayerRecord(player, matches, record)


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    player: Player
    record: stats.Record


def leaderboard(
    *,
    start: datetime.date | None = None,
    end: datetime.date | None = None,
    min_matches: int = LEADERBOARD_MIN_MATCHES,
) -> list[LeaderboardRow]:
    """People by win rate over the matches finished from ``start`` to ``end`` (both days included,
    in the club's time zone), then by matches won. The stored verdict of each match is enough here.
    The club's board is the same for everyone: only public matches, each seat counted by its own
    side's rule (``counted_for``), each person once (a merged record as its root; a person seated
    twice at one match, after a wrong merge, counts once)."""
    matches = Match.objects.filter(match_visibility(None), counted(), status=Match.Status.FINISHED)
    if start is not None:
        matches = matches.filter(finished_at__date__gte=start)
    if end is not None:
        matches = matches.filter(finished_at__date__lte=end)
    matches = matches.annotate(
        counted0=Case(When(counted_for(0), then=Value(True)), default=Value(False)),
        counted1=Case(When(counted_for(1), then=Value(True)), default=Value(False)),
    )
    fields = (*(f"{s}_id" for s in SEATS), *(f"{s}__merged_into" for s in SEATS), "counted0", "counted1")
    outcomes = []
    for row in matches.order_by("finished_at", "pk").values_list(*fields, "winner"):
        records, roots, sides, winner = row[:4], row[4:8], row[8:10], row[10]
        seen = set()
        for seat, (record, root) in enumerate(zip(records, roots, strict=True)):
            who, team = root or record, engine.team_of(seat)
            if sides[team] and who not in seen:
                seen.add(who)
                outcomes.append((who, stats.outcome(team, winner)))
    rows = stats.leaderboard(outcomes, min_matches=min_matches)
    players = Player.objects.in_bulk([row.player for row in rows])
    ranked = [LeaderboardRow(row.rank, players[row.player], row.record) for row in rows]
    return sorted(ranked, key=lambda row: (row.rank, row.player.name.lower()))  # level players by name
