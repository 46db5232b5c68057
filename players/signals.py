"""Signals of the players app: how the apps above hear of a change of who a player is, without the
players app knowing them."""

from __future__ import annotations

from django.dispatch import Signal

# Sent inside the transaction of a merge (``identity.player_merge``) with ``merge=`` (the
# ``PlayerMerge`` just made: its survivor and the records it moved). A receiver writes only what
# belongs to the same change (a client mirroring the API is told the records are gone).
player_merged = Signal()
