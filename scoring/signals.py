"""Signals of the scoring app: how other apps hear of a change without scoring knowing them."""

from django.dispatch import Signal

# Sent inside the transaction of every change to a match's deals (``match=``). A receiver
# should only queue work, with transaction.on_commit.
match_changed = Signal()
