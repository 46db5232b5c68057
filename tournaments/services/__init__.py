"""Writes for tournaments, one module per concern (STYLE.md §12); the public names are here.

- ``setup``: create, update, start.
- ``entries``: register, sign up, approve, check in, withdraw; ``late``: a late entry.
- ``checkin``: check every team in at once, open self check-in, a team's own link.
- ``rounds``: draw, swap, start the rounds; play-offs at the cuts.
- ``results``: the results the standings count, and the standings computed from them.
- ``refresh``: the stored standings and final ranking (the Celery task's work), rounds closed, the
  finish once the last round, play-off or final is decided.
- ``finish``: the organizer's early finish.
- ``clock``: a timed round's clock (start, pause, resume, extend).
- ``director``: penalties, forfeits, matches awarded; ``paper``: a table's result from its paper sheet.
- ``calls``: a table's call for the director, and its acknowledgement.
- ``checks``: the other team's check of each deal on the tablet, where the tournament asks for it.
- ``embed``: the embeds on a club's own website: the origins that may frame them, their colours.
- ``queue``: asking for a recomputation once per burst of results.
- ``sync``: what a client mirroring the API must learn (``updated_at`` moved, tombstones).

Pure pairing and standings code lives in ``pairing/`` and ``standings/``; these modules feed them
rows and save what they return.
"""

from .bulk import BulkRefused, bulk_choices, bulk_text_from_file, entries_bulk_create, entries_bulk_preview
from .calls import call_acknowledge, call_create, call_open
from .checkin import CheckinRefused, checkin_all, checkin_open_set, checkin_refusal, checkin_self
from .checks import deal_check_asked, tournament_deal_check
from .clock import round_clock
from .common import ACTIVE, STAGE_KINDS, TournamentError
from .director import adjustment_delete, penalty_add, table_decide
from .embed import EMBED_SETTINGS, embed_origins_parse, tournament_embed_update
from .entries import (
    entry_edit,
    entry_number_check,
    entry_register,
    entry_reinstate,
    entry_set_status,
    entry_signup,
)
from .finish import tournament_finish
from .late import entry_register_late
from .paper import table_paper_remove, table_paper_result
from .queue import (
    standings_affected,
    standings_cache_key,
    standings_request,
    standings_stale,
    standings_started,
)
from .refresh import standings_refresh
from .results import standings_compute
from .rounds import (
    SwapRefused,
    playoffs_create,
    round_delete,
    round_generate,
    round_redraw,
    round_start,
    round_swap,
)
from .setup import SETTINGS, tournament_avoid, tournament_create, tournament_start, tournament_update

__all__ = [
    "ACTIVE",
    "EMBED_SETTINGS",
    "SETTINGS",
    "STAGE_KINDS",
    "BulkRefused",
    "CheckinRefused",
    "SwapRefused",
    "TournamentError",
    "adjustment_delete",
    "bulk_choices",
    "bulk_text_from_file",
    "call_acknowledge",
    "call_create",
    "call_open",
    "checkin_all",
    "checkin_open_set",
    "checkin_refusal",
    "checkin_self",
    "deal_check_asked",
    "embed_origins_parse",
    "entries_bulk_create",
    "entries_bulk_preview",
    "entry_edit",
    "entry_number_check",
    "entry_register",
    "entry_register_late",
    "entry_reinstate",
    "entry_set_status",
    "entry_signup",
    "penalty_add",
    "playoffs_create",
    "round_clock",
    "round_delete",
    "round_generate",
    "round_redraw",
    "round_start",
    "round_swap",
    "standings_affected",
    "standings_cache_key",
    "standings_compute",
    "standings_refresh",
    "standings_request",
    "standings_stale",
    "standings_started",
    "table_decide",
    "table_paper_remove",
    "table_paper_result",
    "tournament_avoid",
    "tournament_create",
    "tournament_deal_check",
    "tournament_embed_update",
    "tournament_finish",
    "tournament_start",
    "tournament_update",
]
