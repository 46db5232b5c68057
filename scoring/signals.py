"""Signals of the scoring app: how other apps hear of a change without scoring knowing them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal

# Sent inside the transaction of every change to a match's deals or its confirmation, with
# ``match=`` (as it is now) and ``previous=`` (its ``MatchResult`` before the change). A receiver
# should only queue work, with transaction.on_commit.
match_changed = Signal()


@dataclass(frozen=True)
class MatchResult:
    """What a match's result is at one moment: its status, winner, totals, the deals each team
    suffered, and whether a team has confirmed it. Two of them tell whether a change touched the
    result or only a match in play."""

    status: str
    winner: int | None
    totals: tuple[int, ...]
    suffered: tuple[int, ...]
    confirmed: bool

    @classmethod
    def of(cls, match: Any) -> MatchResult:
        return cls(
            status=str(match.status),
            winner=match.winner,
            totals=tuple(match.totals or ()),
            suffered=tuple(match.suffered or ()),
            confirmed=match.confirmed_at is not None,
        )

    @property
    def finished(self) -> bool:
        return self.status == "finished"
