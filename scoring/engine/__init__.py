"""The scoring engine: pure Python, no Django.

``replay(ruleset, deals, options=…, first_dealer=…)`` turns the deals of a
match into its score sheet, by ``step`` (one deal more, from a ``MatchState``
to the next) deal after deal; ``score_deal`` scores one deal; ``load_match``
reads a match file (FORMAT.md). Every rule set lives in ``rulesets/``.
"""

from .errors import ScoringError
from .match import MatchState, replay, score_deal, sheet_of, step
from .matchfile import MatchFile, TeamEntry, load_match, loads
from .rulesets import RULESETS, RuleSet, get_ruleset
from .types import MELD_CODES, Contract, Deal, DealScore, Result, Sheet, SheetRow, Status, sufferer, team_of

__all__ = [
    "MELD_CODES",
    "RULESETS",
    "Contract",
    "Deal",
    "DealScore",
    "MatchFile",
    "MatchState",
    "Result",
    "RuleSet",
    "ScoringError",
    "Sheet",
    "SheetRow",
    "Status",
    "TeamEntry",
    "get_ruleset",
    "load_match",
    "loads",
    "replay",
    "score_deal",
    "sheet_of",
    "step",
    "sufferer",
    "team_of",
]
