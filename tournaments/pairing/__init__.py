"""Pairings: pure Python, no Django (STYLE.md).

- ``swiss_pairs(entries, played)``: the next Swiss round, a minimum-cost
  perfect matching (rustworkx's blossom algorithm, in Rust, with weights under
  2⁶³; see ``swiss.py`` for the weights).
- ``round_robin(entries)``: every round, by Berger tables.
- ``knockout_bracket(seeds)`` and ``knockout_next(winners)``: a seeded bracket.
- ``individual_schedule(players, rounds)``: an individual event's movement (players enter
  alone, partners and opponents change every round); ``individual_next_round(players,
  history)`` one more round after a change; ``movement_quality(rounds)`` what it repeats.
- ``make_pools(entries, size)`` and ``pool_bracket(placed, per_pool)``: pools, then a knockout
  crossing them.
- ``check_pairing(entries, pairs, …)``: raises ``PairingError`` unless a round
  is valid; a service calls it before saving any round.
"""

from .check import check_pairing
from .individual import (
    IndividualRound,
    MovementQuality,
    Seat4,
    individual_next_round,
    individual_schedule,
    movement_quality,
)
from .knockout import bracket_order, knockout_bracket, knockout_next
from .pools import make_pools, pool_bracket
from .round_robin import round_robin
from .swiss import Weights, swiss_pairs
from .types import Pair, PairingError, SwissEntry

__all__ = [
    "IndividualRound",
    "MovementQuality",
    "Pair",
    "PairingError",
    "Seat4",
    "SwissEntry",
    "Weights",
    "bracket_order",
    "check_pairing",
    "individual_next_round",
    "individual_schedule",
    "knockout_bracket",
    "knockout_next",
    "make_pools",
    "movement_quality",
    "pool_bracket",
    "round_robin",
    "swiss_pairs",
]
