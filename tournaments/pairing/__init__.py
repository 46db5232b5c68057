"""Pairings: pure Python, no Django (STYLE.md).

- ``swiss_pairs(entries, played)``: the next Swiss round, a minimum-cost
  perfect matching (rustworkx's blossom algorithm, in Rust, with weights under
  2⁶³; see ``swiss.py`` for the weights).
- ``round_robin(entries)``: every round, by Berger tables.
- ``knockout_bracket(seeds)`` and ``knockout_next(winners)``: a seeded bracket.
- ``check_pairing(entries, pairs, …)``: raises ``PairingError`` unless a round
  is valid; a service calls it before saving any round.
"""

from .check import check_pairing
from .knockout import bracket_order, knockout_bracket, knockout_next
from .round_robin import round_robin
from .swiss import Weights, swiss_pairs
from .types import Pair, PairingError, SwissEntry

__all__ = [
    "Pair",
    "PairingError",
    "SwissEntry",
    "Weights",
    "bracket_order",
    "check_pairing",
    "knockout_bracket",
    "knockout_next",
    "round_robin",
    "swiss_pairs",
]
