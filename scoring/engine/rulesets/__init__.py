"""The rule sets, registered in one place: adding a game adds one line here."""

from __future__ import annotations

from ..errors import ScoringError
from .base import Progress, RuleSet
from .bulgarian import Bulgarian
from .coinche import Coinche
from .french import Classic, French
from .mpourloto import Mpourloto
from .pilotta import Pilotta

RULESETS: dict[str, RuleSet] = {
    rules.key: rules for rules in (Mpourloto(), Pilotta(), Bulgarian(), French(), Classic(), Coinche())
}


def get_ruleset(key: str) -> RuleSet:
    try:
        return RULESETS[key]
    except KeyError:
        raise ScoringError(
            f"unknown rule set {key!r}; known: {', '.join(RULESETS)}", field="ruleset"
        ) from None


__all__ = ["RULESETS", "Progress", "RuleSet", "get_ruleset"]
