"""The scoring engine: pure Python, no Django.

``replay(ruleset, deals, options=…, first_dealer=…)`` turns the deals of a
match into its score sheet; ``score_deal`` scores one deal; ``load_match``
reads a match file (FORMAT.md). Every rule set lives in ``rulesets/``.
"""

from .errors import ScoringError
from .match import replay, score_deal
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
    "sufferer",
    "team_of",
]
