"""Small filters for showing deals and sheets."""

from django import template

from scoring.engine.rulesets.mpourloto import MELD_POINTS

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


@register.filter
def melds_label(codes) -> str:
    """``["seq3", "mpourloto"]`` → ``20 + mpourloto``; empty → an en dash."""
    return " + ".join(MELD_LABELS.get(code, code) for code in codes or []) or "–"


@register.filter
def melds_points(codes) -> int:
    return sum(MELD_POINTS.get(code, 0) for code in codes or [])
