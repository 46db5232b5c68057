"""Small filters for showing deals and sheets, in the page's language."""

from django import template
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring import engine
from scoring import messages as catalogue
from scoring.engine.rulesets.mpourloto import MELD_POINTS
from scoring.forms import PADS, SUIT_LABELS

register = template.Library()

RESULT_LABELS = {
    "made": pgettext_lazy("deal result", "made"),
    "mesa": pgettext_lazy("deal result", "mesa"),
    "failed": pgettext_lazy("deal result", "failed"),
    "inside": pgettext_lazy("deal result", "inside"),
    "inside_defenders": pgettext_lazy("deal result", "defenders inside"),
    "dedans": pgettext_lazy("deal result", "dedans"),
    "hanging": pgettext_lazy("deal result", "hanging"),
    "litige": pgettext_lazy("deal result", "litige"),
    "thrown_in": pgettext_lazy("deal result", "thrown in"),
}
MELD_LABELS = {
    "seq3": "20",
    "seq4": "50",
    "seq5": _("100 seq"),
    "four": _("100 four"),
    "fourJ": _("100 four J"),
    "four9": _("100 four 9"),
    "four8": _("100 four 8"),
    "four7": _("100 four 7"),
    "mpourloto": _("mpourloto"),
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
    return str(RESULT_LABELS.get(str(result), str(result)))


DECLARATION_LABELS = {
    "seq3": _("tierce"),
    "seq4": _("quarte"),
    "seq5": _("quint"),
    "four": "4×",
    "fourJ": _("4×J"),
    "four9": "4×9",
    "four8": "4×8",
    "four7": "4×7",
}
OPTION_LABELS = {
    "ties_hang": _("ties hang"),
    "best_melds_only": _("best melds only"),
    "capo_100": _("capo 100"),
    "partner_relief": _("partner relief"),
    "kirtik": _("kirtik"),
    "litige": _("litige"),
}


@register.filter
def melds_label(codes, ruleset="mpourloto") -> str:
    """``["seq3", "mpourloto"]`` → ``20 + mpourloto``; empty → an en dash."""
    labels = MELD_LABELS if ruleset == "mpourloto" else DECLARATION_LABELS
    return " + ".join(str(labels.get(code, code)) for code in codes or []) or "–"


@register.simple_tag
def declarations_label(deal: dict, team: int, ruleset: str) -> str:
    """A team's declarations and belotes in a recorded deal."""
    parts = (
        [melds_label(deal.get("melds", [[], []])[team], ruleset)] if deal.get("melds", [[], []])[team] else []
    )
    belotes = (deal.get("belote") or [0, 0])[team]
    if belotes:
        parts.append(gettext("belote") if belotes == 1 else gettext("%(n)s belotes") % {"n": belotes})
    return " + ".join(parts) or "–"


@register.filter
def contract_label(deal: dict) -> str:
    """``110 ♥ ×2``: the bid, the suit and the doubling of a recorded deal."""
    contract = deal.get("contract") or {}
    parts = [str(contract["bid"])] if contract.get("bid") else []
    if contract.get("suit"):
        parts.append(str(SUIT_LABELS[contract["suit"]]))
    if contract.get("multiplier", 1) > 1:
        parts.append(f"×{contract['multiplier']}")
    return " ".join(parts)


@register.filter
def capot_word(ruleset: str) -> str:
    return str(PADS[ruleset].capot_word)


@register.filter
def maker_word(ruleset: str) -> str:
    """What the game calls the team that made the contract: Trumps, Declarers, Contract, Taker."""
    return str(PADS[ruleset].maker_label)


@register.filter
def counts_in_tens(ruleset: str) -> bool:
    return engine.RULESETS[ruleset].counts_in_tens


@register.filter
def rules_summary(match) -> str:
    """``Mpourloto to 1000 · ties hang``: the game and the options that differ from plain play."""
    deals = match.options.get("deals")
    game = catalogue.game_name(match.ruleset)
    if deals:
        first = ngettext(
            "%(game)s to %(target)s or %(deals)s deal", "%(game)s to %(target)s or %(deals)s deals", deals
        ) % {"game": game, "target": match.target, "deals": deals}
    else:
        first = gettext("%(game)s to %(target)s") % {"game": game, "target": match.target}
    parts = [first]
    for name, value in match.options.items():
        if name in OPTION_LABELS and value:
            parts.append(str(OPTION_LABELS[name]))
        elif name == "capot_bonus" and value != 90:
            parts.append(gettext("capot bonus %(points)s") % {"points": value})
        elif name == "ended_after" and value:
            parts.append(gettext("ended by agreement after deal %(deals)s") % {"deals": value})
    return " · ".join(parts)


@register.filter
def melds_points(codes) -> int:
    return sum(MELD_POINTS.get(code, 0) for code in codes or [])


# Words decided outside the templates (model choices, rule sets, metrics): see scoring/messages.py.


@register.filter
def tr(text) -> str:
    """``{{ match.get_status_display|tr }}``: a label marked in a catalogue, in the page's language."""
    return catalogue.label(text)


@register.filter
def game_name(ruleset: str) -> str:
    """``{{ match.ruleset|game_name }}``: the rule set's name in the page's language."""
    return catalogue.game_name(ruleset)
