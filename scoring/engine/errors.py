"""The one error the engine raises: a deal or a match file that breaks the rules."""

from __future__ import annotations


class ScoringError(ValueError):
    """Bad input, told in words a player understands.

    ``field`` names the part of the deal (or match file) that is wrong, as it
    is spelt in the match file (``card_points``, ``melds[1][0]``); ``deal`` is
    the deal's position in the match, counted from 0, once it is known.
    """

    def __init__(self, message: str, *, field: str | None = None, deal: int | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.deal = deal

    def at(self, deal: int) -> ScoringError:
        """The same error, placed at the deal with this position."""
        return ScoringError(self.message, field=self.field, deal=deal)

    def __str__(self) -> str:
        where = []
        if self.deal is not None:
            where.append(f"deal {self.deal + 1} (deals[{self.deal}])")
        if self.field:
            where.append(self.field)
        return f"{', '.join(where)}: {self.message}" if where else self.message
