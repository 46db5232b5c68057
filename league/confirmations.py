"""Writes: a claimed person's "this was me" or "not me" about a match played under their record
(``league.counting`` says what it changes). Only the person's own account answers, only about a
match they sat at (under any of their records). The ratings are worked out again once it commits.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from players.errors import PlayerError
from players.models import Player
from scoring.models import Match
from scoring.selectors import seated_person
from tournaments.models import Table

from . import ratings
from .models import MatchConfirmation

Answer = MatchConfirmation.Answer


def person_of(user: Any) -> Player | None:
    """The record an account is (its claimed root), or None."""
    if user is None or not user.is_authenticated:
        return None
    return Player.objects.filter(user=user, merged_into__isnull=True).first()


@transaction.atomic
def match_answer(*, match: Match, user: Any, answer: str) -> MatchConfirmation:
    """The account's answer about the match (``Answer``): "me" makes it count for them (for a
    tournament's match, every match of theirs in that event), "not_me" keeps it unconfirmed and marks
    it. A later answer replaces the earlier one. Refused for an account that is no player, and for a
    match its person did not sit at."""
    if answer not in Answer.values:
        raise PlayerError(gettext("Answer “me” or “not_me”."), field="answer")
    person = person_of(user)
    if person is None:
        raise PlayerError(gettext("Your account is not a player: claim your record first."), field="match")
    if not Match.objects.filter(seated_person(person), pk=match.pk).exists():
        raise PlayerError(gettext("You did not sit at this match."), field="match")
    tournament = Table.objects.filter(match=match).values_list("round__tournament", flat=True).first()
    key = {"tournament_id": tournament} if tournament is not None else {"match": match, "tournament": None}
    confirmation, _ = MatchConfirmation.objects.update_or_create(
        user=user, **key, defaults={"answer": answer, "match": match}
    )
    if tournament is not None:  # only a tournament's match can be rated
        ratings.ratings_request()
    return confirmation
