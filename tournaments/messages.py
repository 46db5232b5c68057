"""Tournament words written outside the templates, marked for the translators.

The models' choice labels (in migrations) and the standings metrics' names (pure Python, also
served by the API) stay English where they are defined; the pages translate them where they show
them (``scoring.messages.label`` and the ``tr``/``metric_short`` filters of ``tsoxa``).
"""

from __future__ import annotations

from django.utils.translation import gettext_noop, pgettext_lazy

# Choice labels of tournaments.models: Tournament.Format/Status, Entry.Status, Round.Kind/Status.
CHOICE_LABELS = (
    gettext_noop("Swiss"),
    gettext_noop("Round robin"),
    gettext_noop("Registration"),
    gettext_noop("Running"),
    gettext_noop("Finished"),
    gettext_noop("Awaiting approval"),
    gettext_noop("Registered"),
    gettext_noop("Checked in"),
    gettext_noop("Withdrawn"),
    gettext_noop("Knockout"),
    gettext_noop("Tie-break play-off"),
    gettext_noop("Concours"),
    gettext_noop("Individual"),
    gettext_noop("Round"),
    gettext_noop("Individual round"),
    gettext_noop("Penalty"),
    gettext_noop("Forfeit"),
    gettext_noop("Match awarded"),
    gettext_noop("Consolation"),
    gettext_noop("Pools"),
    gettext_noop("Pool round"),
    gettext_noop("Late entry: missed rounds"),
    gettext_noop("Main"),
    gettext_noop("Match for third place"),
    gettext_noop("Finished on their totals"),
    gettext_noop("Left out"),
    gettext_noop("Pairings drawn"),
    gettext_noop("Playing"),
)

# The standings metrics (tournaments/standings/metrics.py): full names, then the column headings.
METRIC_NAMES = (
    gettext_noop("Match points"),
    gettext_noop("Wins"),
    gettext_noop("Game points for"),
    gettext_noop("Game points against"),
    gettext_noop("Point difference"),
    gettext_noop("Head-to-head"),
    gettext_noop("Opponents' match points (Buchholz)"),
    gettext_noop("Mesa/inside suffered"),
)
METRIC_ABBRS = {
    "Pts": pgettext_lazy("standings column: match points", "Pts"),
    "W": pgettext_lazy("standings column: wins", "W"),
    "GP": pgettext_lazy("standings column: game points for", "GP"),
    "GA": pgettext_lazy("standings column: game points against", "GA"),
    "Diff": pgettext_lazy("standings column: point difference", "Diff"),
    "H2H": pgettext_lazy("standings column: head-to-head", "H2H"),
    "Buch": pgettext_lazy("standings column: Buchholz", "Buch"),
    "Mesa": pgettext_lazy("standings column: mesa/inside suffered", "Mesa"),
}

# The audit page: what changed, and how.
AUDIT_KINDS = {
    "Tournament": pgettext_lazy("audit: what changed", "Tournament"),
    "Entry": pgettext_lazy("audit: what changed", "Entry"),
    "Round": pgettext_lazy("audit: what changed", "Round"),
    "Table": pgettext_lazy("audit: what changed", "Table"),
    "Match": pgettext_lazy("audit: what changed", "Match"),
    "Deal": pgettext_lazy("audit: what changed", "Deal"),
}
AUDIT_ACTIONS = {
    "created": pgettext_lazy("audit: a change", "created"),
    "changed": pgettext_lazy("audit: a change", "changed"),
    "deleted": pgettext_lazy("audit: a change", "deleted"),
}


def metric_abbr(abbr: str) -> str:
    """A standings column heading in the current language."""
    lazy = METRIC_ABBRS.get(abbr)
    return str(lazy) if lazy is not None else abbr


def audit_word(word: str) -> str:
    lazy = AUDIT_KINDS.get(word) or AUDIT_ACTIONS.get(word)
    return str(lazy) if lazy is not None else word
