"""What counts, and for whom: the one place that decides whether a match counts in a player's record,
statistics, partners, leaderboard place, season table and rating.

Two rules, both needed:

- the side's rule (``scoring.selectors.counted_for``): a tournament's match, one started or kept by an
  account, or one whose result an account of a player of the *other* team confirmed; any other match
  is casual for that side;
- the claimed person's rule (issue 24): a match at which a claimed record sits (a record with an
  account: its own, or that of the record it was merged into) counts only once that person stood
  behind it (``backed_by``): their account started or keeps it, or confirmed its result, or
  organized its tournament, or answered "this was me" (``MatchConfirmation``: for a tournament's
  match, about the whole event), or the match finished before their claim was approved (a claim
  does not rewrite what already counted; a record given an account without a claim has no such
  past). Until every claimed person at it stood behind it, the match is *unconfirmed*: listed,
  counted for nobody at all (``unconfirmed``).

A tournament's own standings are the tournament's: this rule is about what people's records carry.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Case, CharField, Exists, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce

from players.models import Player, PlayerClaim
from scoring import selectors
from scoring.models import Match
from scoring.selectors import seated_person

from .models import MatchConfirmation

SEATS = ("seat0", "seat1", "seat2", "seat3")
ME = MatchConfirmation.Answer.ME


def _account(seat: str, *, outer: bool = False) -> Coalesce:
    """The account of the person at ``seat``: the claim of the record's root (a merged record's
    claim moved to its root), as an expression of the match query (or of a subquery of it)."""
    ref = OuterRef if outer else F
    return Coalesce(ref(f"{seat}__merged_into__user"), ref(f"{seat}__user"))


def _claimed(seat: str) -> Q:
    return Q(**{f"{seat}__merged_into__user__isnull": False}) | Q(**{f"{seat}__user__isnull": False})


def backed_by(account: Any, inner: Any = None) -> Q:
    """Matches the account stood behind (module docstring). ``account`` is an account (or its id, or
    an expression of the match query); ``inner`` the same seen from a subquery, if it differs."""
    inner = account if inner is None else inner
    keeps = Match.keepers.through.objects.filter(match=OuterRef("pk"), user=inner)
    answered = MatchConfirmation.objects.filter(
        Q(match=OuterRef("pk")) | Q(tournament=OuterRef("table__round__tournament")), user=inner, answer=ME
    )
    before = PlayerClaim.objects.filter(
        user=inner, status=PlayerClaim.Status.APPROVED, decided_at__gt=OuterRef("finished_at")
    )
    return (
        Q(created_by=account)
        | Q(confirmed_by=account)
        | Q(table__round__tournament__organizer=account)
        | Q(Exists(keeps))
        | Q(Exists(answered))
        | Q(Exists(before))
    )


def unbacked_seat(seat: str) -> Q:
    """Matches whose ``seat`` holds a claimed person who has not stood behind it."""
    return _claimed(seat) & ~backed_by(_account(seat), _account(seat, outer=True))


def unconfirmed() -> Q:
    """Matches a claimed person at the table has not stood behind yet: counted for nobody."""
    query = Q()
    for seat in SEATS:
        query |= unbacked_seat(seat)
    return query


def counted_for(team: int) -> Q:
    """What counts in the record of a player seated in ``team``: the side's rule, on a match that
    is not unconfirmed."""
    return selectors.counted_for(team) & ~unconfirmed()


def counted_for_person(person: Any) -> Q:
    """The matches that count in a person's record (``person`` a root record, an id or an
    ``OuterRef``; the records merged into it count as it)."""
    sides = (seated_person(person, team=0) & selectors.counted_for(0)) | (
        seated_person(person, team=1) & selectors.counted_for(1)
    )
    return sides & ~unconfirmed()


def counted() -> Q:
    """Matches that count for at least one side."""
    return selectors.counted() & ~unconfirmed()


def counted_matches(matches: QuerySet[Match] | None = None) -> QuerySet[Match]:
    return (Match.objects.all() if matches is None else matches).filter(counted())


def _flag(query: Q) -> Case:
    return Case(When(query, then=Value(True)), default=Value(False))


def with_counting(matches: QuerySet[Match], *, person: Player | None = None) -> QuerySet[Match]:
    """The matches with what the pages and the API show about counting: ``counted0``, ``counted1``
    (counts for that side), ``unconfirmed``; and, for ``person`` (a root record) if claimed,
    ``awaiting`` (they have not stood behind it) and ``answer`` (their "me" / "not me", if any)."""
    matches = matches.annotate(
        counted0=_flag(counted_for(0)), counted1=_flag(counted_for(1)), unconfirmed=_flag(unconfirmed())
    )
    account = person.user_id if person is not None else None
    if account is None:
        return matches.annotate(awaiting=Value(False), answer=Value(None, output_field=CharField()))
    answers = MatchConfirmation.objects.filter(
        Q(match=OuterRef("pk")) | Q(tournament=OuterRef("table__round__tournament")), user=account
    )
    return matches.annotate(
        awaiting=_flag(~backed_by(account)),
        answer=Subquery(answers.order_by("-answered_at").values("answer")[:1]),
    )
