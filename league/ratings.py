"""Players' ratings across rated events: Weng–Lin's Bayesian rating (OpenSkill's Plackett–Luce model).

Every finished match of a tournament that is ``rated`` counts, public or private, in the order the
matches finished (then by id), but one a claimed player at it has not stood behind
(``league.counting``). A match is two teams of two: seats 0 and 2 against seats 1 and 3,
whoever they are, so partners that change from match to match (an individual event, a player who
brings another partner next week) are simply other teams; a draw gives both teams the same rank. A
record merged into another counts as that one (``Player.merged_into``).

Each player's skill is a normal belief, ``mu ± sigma``; every player starts at the model's prior
(25 ± 8.33) and each result moves the four players' beliefs. The number shown and sorted by is
``rating = mu − 3·sigma`` (the library's *ordinal*): a value the player is almost surely above, so
that a newcomer, whose skill is still uncertain, starts at 0 and climbs as results make it sure.

Two parts:

- the run, pure (no Django, no database): ``rate_matches(matches)`` takes the results in order and
  gives each player's final rating and the history, one ``RatingStep`` per player and match;
- the database part: ``ratings_refresh()`` reads the results, runs the rating and stores it (the
  ``Player`` rating fields and the ``RatingPoint`` history), all of it every time (deterministic:
  a corrected result, a merge or a split just runs it again); ``ratings_request()`` asks the worker
  for a run once the current transaction commits; and the reads of the pages and the API.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone
from openskill.models import PlackettLuce

from players.models import Player
from scoring.models import Match
from scoring.selectors import match_visibility, visible_players
from scoring.signals import MatchResult
from tournaments import after_response

from .counting import unconfirmed
from .models import RatingPoint

logger = logging.getLogger(__name__)

Z = 3  # rating = mu − Z·sigma
LEADERBOARD_MIN_MATCHES = 3


# The run, pure ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RatedMatch:
    """One result as the rating reads it: the two teams' players (ids; seats 0 and 2, then seats 1
    and 3) and the winning team (0 or 1; None: a draw)."""

    match: int
    finished_at: datetime.datetime
    teams: tuple[tuple[int, int], tuple[int, int]]
    winner: int | None

    @property
    def players(self) -> tuple[int, ...]:
        return (*self.teams[0], *self.teams[1])


@dataclass(frozen=True)
class Rating:
    """A player's skill, ``mu ± sigma``, after ``matches`` rated matches."""

    mu: float
    sigma: float
    matches: int = 0

    @property
    def rating(self) -> float:
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class RatingStep:
    """A player's rating after one match: ``position`` is the match's place in the run, from 1."""

    player: int
    match: int
    position: int
    at: datetime.datetime
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        return self.mu - Z * self.sigma


@dataclass(frozen=True)
class RatingRun:
    """The outcome of a run: every rated player's final rating, the history in the run's order, and
    the matches left out (a player at two seats of one match, after a merge of two who played each
    other: the match says nothing about that person's skill)."""

    ratings: dict[int, Rating]
    steps: tuple[RatingStep, ...]
    left_out: tuple[int, ...] = ()


def rating_model() -> PlackettLuce:
    """The model, with the library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
    return PlackettLuce()


def ranks(winner: int | None) -> list[float]:  # as openskill takes them
    """The teams' ranks for the model: the winner first; a draw ranks both the same."""
    if winner is None:
        return [1, 1]
    return [1, 2] if winner == 0 else [2, 1]


def rate_matches(matches: Iterable[RatedMatch], model: PlackettLuce | None = None) -> RatingRun:
    """Rate the matches in the order given (the order matters: each result moves the beliefs the
    earlier ones left). Deterministic: the same results in the same order give the same run."""
    model = model or rating_model()
    beliefs: dict[int, Any] = {}
    played: dict[int, int] = {}
    steps: list[RatingStep] = []
    left_out: list[int] = []
    position = 0
    for result in matches:
        if len(set(result.players)) != 4:
            left_out.append(result.match)
            continue
        teams = [[beliefs.get(p) or model.rating() for p in team] for team in result.teams]
        rated = model.rate(teams, ranks=ranks(result.winner))
        position += 1
        for team, new in zip(result.teams, rated, strict=True):
            for player, belief in zip(team, new, strict=True):
                beliefs[player] = belief
                played[player] = played.get(player, 0) + 1
                steps.append(
                    RatingStep(player, result.match, position, result.finished_at, belief.mu, belief.sigma)
                )
    ratings = {p: Rating(b.mu, b.sigma, played[p]) for p, b in beliefs.items()}
    return RatingRun(ratings=ratings, steps=tuple(steps), left_out=tuple(left_out))


# Against the database ---------------------------------------------------------------------------


def rated_matches() -> QuerySet[Match]:
    """What counts: the finished matches of rated tournaments, public or private, and where the
    tournament asks for it, only once confirmed (as its standings count them); never a match a
    claimed person at it has not stood behind (``league.counting.unconfirmed``: counted for nobody)."""
    return Match.objects.filter(
        Q(table__round__tournament__confirmation=False) | Q(confirmed_at__isnull=False),
        ~unconfirmed(),
        status=Match.Status.FINISHED,
        table__round__tournament__rated=True,
    )


def _roots() -> dict[int, int]:
    """Each merged record's root (the record it counts as; a root has no ``merged_into``)."""
    parent = dict(Player.objects.filter(merged_into__isnull=False).values_list("pk", "merged_into_id"))
    roots = {}
    for pk in parent:
        root, seen = pk, {pk}
        while root in parent and parent[root] not in seen:  # a root, even if a chain was left behind
            root = parent[root]
            seen.add(root)
        roots[pk] = root
    return roots


def read_results() -> list[RatedMatch]:
    """The rated results in the order they finished (then by id), every seat as its root record."""
    roots = _roots()
    # A match finished without its moment written (rows written in bulk, data from before the field)
    # is placed at its last change: rated all the same, in a stable order.
    rows = (
        rated_matches()
        .annotate(at=Coalesce("finished_at", "updated_at"))
        .order_by("at", "pk")
        .values_list("pk", "at", "seat0_id", "seat2_id", "seat1_id", "seat3_id", "winner")
    )
    results = []
    for pk, finished_at, a0, a2, b1, b3, winner in rows.iterator(chunk_size=5000):
        a0, a2, b1, b3 = (roots.get(p, p) for p in (a0, a2, b1, b3))
        results.append(RatedMatch(pk, finished_at, ((a0, a2), (b1, b3)), winner))
    return results


RUN_LOCK = 0x7261_7469  # "rati": the advisory lock's key
CHUNK = 500


def _lock() -> None:
    """One run at a time, in this transaction: a second run waits for the first to commit and then
    reads what it wrote. PostgreSQL: an advisory lock; SQLite: a write (an update of no row) takes
    the database's write lock at once, before the reads."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RUN_LOCK])
        else:
            table = RatingPoint._meta.db_table
            cursor.execute(f"UPDATE {table} SET position = position WHERE id = -1")


@transaction.atomic
def ratings_refresh() -> RatingRun:
    """Rate every rated result again and store it: each player's rating (none and 0 matches for a
    player no rated match counts for, a merged record among them) and the history. Only what
    changed is written (after one more result: its four players and their four points), so that a
    run costs the reading and the rating, not a rewrite of every row."""
    _lock()
    run = rate_matches(read_results())
    _store_players(run.ratings)
    _store_steps(run.steps)
    if run.left_out:
        logger.info("ratings: matches left out (a player at two seats): %s", list(run.left_out))
    return run


def _store_players(ratings: dict[int, Rating]) -> None:
    stored = {
        pk: values
        for pk, *values in Player.objects.filter(Q(rating__isnull=False) | Q(rated_matches__gt=0))
        .order_by()
        .values_list("pk", "rating_mu", "rating_sigma", "rating", "rated_matches")
    }
    gone = [pk for pk in stored if pk not in ratings]
    now = timezone.now()  # a changed rating moves the player's updated_at (update() skips auto_now)
    for start in range(0, len(gone), CHUNK):
        Player.objects.filter(pk__in=gone[start : start + CHUNK]).update(
            rating_mu=None, rating_sigma=None, rating=None, rated_matches=0, updated_at=now
        )
    changed = [
        Player(
            pk=pk,
            rating_mu=r.mu,
            rating_sigma=r.sigma,
            rating=r.rating,
            rated_matches=r.matches,
            updated_at=now,
        )
        for pk, r in ratings.items()
        if stored.get(pk) != [r.mu, r.sigma, r.rating, r.matches]
    ]
    Player.objects.bulk_update(
        changed, ["rating_mu", "rating_sigma", "rating", "rated_matches", "updated_at"], batch_size=CHUNK
    )


def _store_steps(steps: Sequence[RatingStep]) -> None:
    """The history as the run gives it: the points it no longer has, or has otherwise, are deleted,
    the new ones written in bulk."""
    stored = {
        (player, match): (pk, (position, at, mu, sigma, rating))
        for pk, player, match, position, at, mu, sigma, rating in RatingPoint.objects.order_by().values_list(
            "pk", "player_id", "match_id", "position", "at", "mu", "sigma", "rating"
        )
    }
    new = []
    for step in steps:
        found = stored.pop((step.player, step.match), None)
        if found is not None and found[1] == (step.position, step.at, step.mu, step.sigma, step.rating):
            continue
        if found is not None:
            stored[(step.player, step.match)] = found  # deleted below, written again
        new.append(
            RatingPoint(
                player_id=step.player,
                match_id=step.match,
                position=step.position,
                at=step.at,
                mu=step.mu,
                sigma=step.sigma,
                rating=step.rating,
            )
        )
    old = [pk for pk, _ in stored.values()]
    for start in range(0, len(old), CHUNK):
        RatingPoint.objects.filter(pk__in=old[start : start + CHUNK]).delete()
    RatingPoint.objects.bulk_create(new, batch_size=CHUNK)


# Asking the worker ------------------------------------------------------------------------------

QUEUE_KEY = "ratings-queued"


def rating_affected(before: MatchResult, after: MatchResult, *, confirmation: bool = False) -> bool:
    """Whether a change of a match can change the ratings: it came to count or stopped counting
    (finished, unfinished again; confirmed or not, where the tournament asks), or it counts and its
    winner changed. Totals do not count in a rating: a corrected score with the same winner does not."""

    def counts(result: MatchResult) -> bool:
        return result.finished and (result.confirmed or not confirmation)

    if counts(before) != counts(after):
        return True
    return counts(after) and before.winner != after.winner


def ratings_request() -> None:
    """Ask for a run once the current transaction commits (a result changed, two records were merged
    or split). A burst of requests queues one task: the first sets a flag the task clears when it
    starts. With no broker the task runs in this process once the response has been sent (at once
    outside a request), as the standings do (``tournaments/services/queue.py``). Neither a cache nor
    a broker that is down stops the change: the failure is logged, the next request catches up."""
    transaction.on_commit(_queue)


def _queue() -> None:
    from .tasks import ratings_recompute

    try:
        first = cache.add(QUEUE_KEY, 1, timeout=60)
    except Exception:  # the cache is down: queue anyway, the task is safe to run twice
        logger.warning("ratings: cache unavailable, queueing without coalescing", exc_info=True)
        first = True
    if not first:
        return
    if ratings_recompute.app.conf.task_always_eager:
        after_response.run_after_response(_send)
    else:
        _send()


def _send() -> None:
    from .tasks import ratings_recompute

    try:
        ratings_recompute.apply_async(countdown=2)
    except Exception:  # the broker is down: the result is saved; the next request catches up
        logger.warning("ratings: could not queue a run", exc_info=True)
        ratings_started()


def ratings_started() -> None:
    """The run has begun: a later change must queue a new one."""
    try:
        cache.delete(QUEUE_KEY)
    except Exception:
        logger.warning("ratings: cache unavailable", exc_info=True)


# Reads -------------------------------------------------------------------------------------------


def rating_leaderboard(*, user: Any = None, min_matches: int = LEADERBOARD_MIN_MATCHES) -> QuerySet[Player]:
    """The players this person may see who have a rating over at least ``min_matches`` rated
    matches, best first (then by name). A merged record has none: its matches are its root's."""
    return (
        visible_players(user)
        .filter(merged_into__isnull=True, rating__isnull=False, rated_matches__gte=min_matches)
        .order_by("-rating", "name", "pk")
    )


def rating_history(*, player: Player, user: Any = None) -> QuerySet[RatingPoint]:
    """The player's rating after each rated match this person may see, in the run's order: a point
    of a private tournament's match is left out for whoever may not see that match (the current
    rating, on the player, stays public)."""
    visible = Match.objects.filter(match_visibility(user), pk=OuterRef("match_id"))
    return RatingPoint.objects.filter(Exists(visible), player=player).order_by("position")
