"""The values pairing works with: a table's pair, a Swiss entry, the error."""

from __future__ import annotations

from dataclasses import dataclass


class PairingError(ValueError):
    """A pairing cannot be made or is not valid; the message is for an organizer."""


@dataclass(frozen=True)
class Pair:
    """Two entries at a table; ``a`` is listed first (home in a round robin).

    ``b`` is ``None`` for a bye: ``a`` does not play this round.
    """

    a: int
    b: int | None

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def entries(self) -> tuple[int, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)


@dataclass(frozen=True)
class SwissEntry:
    """An entry as the standings see it before a Swiss round is drawn."""

    entry: int
    score: int  # match points so far (the standings' first metric)
    rank: int  # 1 = best, from the standings (ties broken already)
    had_bye: bool = False


def distinct(entries: list[int], what: str = "team") -> None:
    """Raise unless no entry is listed twice."""
    seen: set[int] = set()
    for entry in entries:
        if entry in seen:
            raise PairingError(f"Entry {entry} is listed twice; each {what} may be listed only once.")
        seen.add(entry)
