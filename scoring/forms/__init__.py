"""Forms of the tablet pages. They turn taps into a deal; the rules are the engine's.

By what they make: a match (``match.py``), a deal (``deal.py``), and the pad both draw on
(``pad.py``: its buttons' words and each game's meld chips)."""

from .deal import DealForm
from .match import MatchForm

__all__ = ["DealForm", "MatchForm"]
