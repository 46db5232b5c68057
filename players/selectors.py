"""Reads for the player pages: who played, their matches replayed by the engine, the leaderboard.

A player's page costs three queries however many matches they played: the player, their matches
(teams and seats joined), and the active deals of those matches. The engine replays each match from
its deals (the totals are never read from a stored running total); ``players.stats`` counts.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import F, Func, OuterRef, Prefetch, Q, QuerySet, Subquery

from scoring import engine
from scoring.models import Deal, Match

from . import stats
from .models import Player, Team

SEATS = ("seat0", "seat1", "seat2", "seat3")
MATCH_RELATED = ("team0", "team1", *SEATS)
RECENT_MATCHES = 50  # listed on a player's page; the statistics count them all
LEADERBOARD_MIN_MATCHES = 3


def _seated(player: Player | OuterRef) -> Q:
    """Matches in which the player sat, at any of the four seats."""
    query = Q()
    for seat in SEATS:
        query |= Q(**{seat: player})
    return query


# A match played at a private tournament's table is left out: that tournament is its organizer's only.
LISTED = ~Q(table__round__tournament__public=False)


def player_list(*, search: str = "") -> QuerySet[Player]:
    """Players by name, with the number of matches each has finished."""
    finished = (
        Match.objects.filter(_seated(OuterRef("pk")), LISTED, status=Match.Status.FINISHED)
        .order_by()
        .annotate(count=Func(F("pk"), function="COUNT"))
        .values("count")
    )
    players = Player.objects.annotate(finished_matches=Subquery(finished)).order_by("name")
    return players.filter(name__icontains=search.strip()) if search.strip() else players


def player_get(*, pk: int) -> Player:
    return Player.objects.get(pk=pk)


@dataclass(frozen=True)
class PlayerMatch:
    """One of the player's matches, seen from their seat."""

    match: Match
    seat: int
    sheet: engine.Sheet

    @property
    def team(self) -> int:
        return engine.team_of(self.seat)

    @property
    def partner(self) -> Player:
        return self.match.seats[(self.seat + 2) % 4]

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
        return stats.PlayedMatch(self.team, self.sheet.winner, lines, partner=self.partner)


def _player_match(match: Match, player: Player) -> PlayerMatch:
    seat = next(s for s, p in enumerate(match.seats) if p.pk == player.pk)
    deals = [d.as_engine() for d in match.active_deals]
    sheet = engine.replay(match.ruleset, deals, options=match.options, first_dealer=match.first_dealer)
    return PlayerMatch(match, seat, sheet)


@dataclass(frozen=True)
class PlayerRecord:
    player: Player
    matches: tuple[PlayerMatch, ...]  # newest first
    stats: stats.PlayerStats

    @property
    def recent(self) -> tuple[PlayerMatch, ...]:
        return self.matches[:RECENT_MATCHES]

    @property
    def last_charted(self) -> PlayerMatch | None:
        """The newest match with two deals or more: the one drawn on the page."""
        return next((m for m in self.matches if len(m.sheet.rows) >= 2), None)


def player_matches(*, player: Player) -> QuerySet[Match]:
    """Every match the player sat in (but at a private tournament), newest first, with its active deals
    in playing order."""
    deals = Deal.objects.filter(deleted_at__isnull=True).order_by("position")
    return (
        Match.objects.filter(_seated(player), LISTED)
        .select_related(*MATCH_RELATED)
        .prefetch_related(Prefetch("deals", queryset=deals, to_attr="active_deals"))
        .order_by("-created_at", "-pk")
    )


def player_record(*, player: Player) -> PlayerRecord:
    """The player's matches, each replayed by the engine, and their statistics over the finished ones."""
    matches = tuple(_player_match(match, player) for match in player_matches(player=player))
    record = stats.player_stats(m.played() for m in matches if m.finished)
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
    """Players by win rate over the matches finished from ``start`` to ``end`` (both days included,
    in the club's time zone), then by matches won. The stored verdict of each match is enough here."""
    matches = Match.objects.filter(LISTED, status=Match.Status.FINISHED)
    if start is not None:
        matches = matches.filter(finished_at__date__gte=start)
    if end is not None:
        matches = matches.filter(finished_at__date__lte=end)
    outcomes = []
    for *seats, winner in matches.order_by("finished_at", "pk").values_list(
        *(f"{s}_id" for s in SEATS), "winner"
    ):
        outcomes += [
            (player, stats.outcome(engine.team_of(seat), winner)) for seat, player in enumerate(seats)
        ]
    rows = stats.leaderboard(outcomes, min_matches=min_matches)
    players = Player.objects.in_bulk([row.player for row in rows])
    ranked = [LeaderboardRow(row.rank, players[row.player], row.record) for row in rows]
    return sorted(ranked, key=lambda row: (row.rank, row.player.name.lower()))  # level players by name
