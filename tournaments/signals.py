"""Signals of the tournaments app: what happened in a tournament, for the apps above it to hear
(the webhooks) without tournaments knowing them.

Each is sent inside the transaction that made the change, with ``tournament=`` (the Tournament) and
what the change was about. A receiver should only queue work, with ``transaction.on_commit``: the
change may still be rolled back, and the sender is often a scorer's request or the standings task.
"""

from __future__ import annotations

from django.dispatch import Signal

# A round was drawn (``round=``: the Round, a draft: its tables numbered, not started), drawn again
# too (a redraw deletes the round and draws it anew). Not the play-offs, which start as they are made.
round_drawn = Signal()

# A round's matches were opened (``round=``: the Round, now started). Play-offs too.
round_started = Signal()

# A round's last table was decided (``round=``: the Round, now finished), or the organizer finished
# the tournament early while it was being played.
round_finished = Signal()

# A table's match has just finished (``table=``: the Table with its round, ``match=``: the Match):
# sent when a match becomes finished, not when a finished match is corrected.
match_finished = Signal()

# The standings were recomputed and stored (``snapshot=``: the StandingsSnapshot, its new version):
# at most once per recomputation, and the recomputations are already one per burst of results.
standings_updated = Signal()

# The tournament finished: by itself (its last round, play-off or final decided) or early, by its
# organizer (``tournament.finish_reason`` says why).
tournament_finished = Signal()
