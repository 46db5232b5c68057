"""Small filters for showing deals and sheets."""

from django import template

from scoring import engine
from scoring.engine.rulesets.mpourloto import MELD_POINTS
from scoring.forms import PADS, SUIT_LABELS

register = template.Library()

RESULT_LABELS = {
    "made": "made",
    "mesa": "mesa",
    "failed": "failed",
    "inside": "inside",
    "inside_defenders": "defenders inside",
    "dedans": "dedans",
    "hanging": "hanging",
    "litige": "litige",
    "thrown_in": "thrown in",
}
MELD_LABELS = {
    "seq3": "20",
    "seq4": "50",
    "seq5": "100 seq",
    "four": "100 four",
    "fourJ": "100 four J",
    "four9": "100 four 9",
    "four8": "100 four 8",
    "four7": "100 four 7",
    "mpourloto": "mpourloto",
}


@register.filter
def at(sequence, index):
    """``names|at:1``: the item at that position."""
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""


@register.filter
def result_label(result) -> str:
    return RESULT_LABELS.get(str(result), str(result))


DECLARATION_LABELS = {
    "seq3": "tierce",
    "seq4": "quarte",
    "seq5": "quint",
    "four": "4×",
    "fourJ": "4×J",
    "four9": "4×9",
    "four8": "4×8",
    "four7": "4×7",
}
OPTION_LABELS = {
    "ties_hang": "ties hang",
    "best_melds_only": "best melds only",
    "capo_100": "capo 100",
    "partner_relief": "partner relief",
    "kirtik": "kirtik",
    "litige": "litige",
}


@register.filter
def melds_label(codes, ruleset="mpourloto") -> str:
    """``["seq3", "mpourloto"]`` → ``20 + mpourloto``; empty → an en dash."""
    labels = MELD_LABELS if ruleset == "mpourloto" else DECLARATION_LABELS
    return " + ".join(labels.get(code, code) for code in codes or []) or "–"


@register.simple_tag
def declarations_label(deal: dict, team: int, ruleset: str) -> str:
    """A team's declarations and belotes in a recorded deal."""
    parts = (
        [melds_label(deal.get("melds", [[], []])[team], ruleset)] if deal.get("melds", [[], []])[team] else []
    )
    belotes = (deal.get("belote") or [0, 0])[team]
    if belotes:
        parts.append("belote" if belotes == 1 else f"{belotes} belotes")
    return " + ".join(parts) or "–"


@register.filter
def contract_label(deal: dict) -> str:
    """``110 ♥ ×2``: the bid, the suit and the doubling of a recorded deal."""
    contract = deal.get("contract") or {}
    parts = [str(contract["bid"])] if contract.get("bid") else []
    if contract.get("suit"):
        parts.append(SUIT_LABELS[contract["suit"]])
    if contract.get("multiplier", 1) > 1:
        parts.append(f"×{contract['multiplier']}")
    return " ".join(parts)


@register.filter
def capot_word(ruleset: str) -> str:
    return PADS[ruleset].capot_word


@register.filter
def counts_in_tens(ruleset: str) -> bool:
    return engine.RULESETS[ruleset].counts_in_tens


@register.filter
def rules_summary(match) -> str:
    """``Mpourloto to 1000 · ties hang``: the game and the options that differ from plain play."""
    deals = match.options.get("deals")
    parts = [f"{match.ruleset_name} to {match.target}" + (f" or {deals} deals" if deals else "")]
    for name, value in match.options.items():
        if name in OPTION_LABELS and value:
            parts.append(OPTION_LABELS[name])
        elif name == "capot_bonus" and value != 90:
            parts.append(f"capot bonus {value}")
    return " · ".join(parts)


@register.filter
def melds_points(codes) -> int:
    return sum(MELD_POINTS.get(code, 0) for code in codes or [])
