"""Small filters for showing deals and sheets, in the page's language."""

import dataclasses

from django import template
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring import engine, presets
from scoring import messages as catalogue
from scoring.engine.rulesets.coinche import CoincheOptions
from scoring.engine.rulesets.mpourloto import MELD_POINTS
from scoring.forms.pad import BID_WORDS, COINCHE_MULTIPLIERS, PADS, SUIT_LABELS
from web import docs_site

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
    # Coinche names the fours of A, 10, K and Q (in sans-atout they score by rank)
    "fourA": _("4×A"),
    "four10": "4×10",
    "fourK": _("4×K"),
    "fourQ": _("4×Q"),
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
def contract_label(deal: dict, ruleset: str = "") -> str:
    """``110 ♥ ×2``: the bid, the suit and the doubling of a recorded deal; in Coinche the bid may be
    capot or générale, and the doubling is coinché or surcoinché (``capot ♥ coinché``)."""
    contract = deal.get("contract") or {}
    bid = contract.get("bid")
    parts = [str(BID_WORDS.get(bid, bid))] if bid else []
    if contract.get("suit"):
        parts.append(str(SUIT_LABELS[contract["suit"]]))
    multiplier = contract.get("multiplier", 1)
    if multiplier > 1:
        parts.append(str(COINCHE_MULTIPLIERS[multiplier]) if ruleset == "coinche" else f"×{multiplier}")
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


# Coinche's options in words on the sheet, each value that is not the federation's (the default).
COINCHE_DEFAULTS = dataclasses.asdict(CoincheOptions())
COINCHE_OPTION_WORDS = {
    ("target_rule", "pass"): _("the target must be passed"),
    ("base", 162): _("failed: 162 + the bid"),
    ("made_scoring", "bid_only"): _("made: the bid alone"),
    ("need_more_than_defence", False): _("made on reaching the bid"),
    ("litige", "made"): _("litige made"),
    ("litige", "held"): _("litige held"),
    ("belote_counts", False): _("belote not counted toward the bid"),
    ("melds_count", False): _("announcements not counted toward the bid"),
    ("annonces", False): _("contrée: no announcements"),
    ("melds_scoring", "all"): _("every team's announcements count"),
    ("capot_takes_melds", False): _("a capot does not take the defence's announcements"),
    ("coinche_scoring", "winner_score"): _("coinché: the winner's score multiplied"),
    ("coinche_scoring", "winner_score_defence_keeps"): _(
        "coinché: the winner's score multiplied, the loser keeps its own"
    ),
    ("coinche_scoring", "bid_multiplied"): _("coinché: the bid multiplied"),
    ("surcoinche_multiplier", 3): _("surcoinché ×3"),
    ("multiply_belote", False): _("belote not multiplied"),
    ("failed_scoring", "base_bid_own_cards"): _("failed: the defence also scores its cards"),
    ("defence_capot", "capot_value"): _("a defence capot scores as a capot"),
    ("capot_card_value", 250): _("capot cards 250"),
    ("capot_card_value", 162): _("capot cards 162"),
    ("capot_bid_value", 500): _("capot bid 500"),
    ("generale_bid_value", 300): _("générale bid 300"),
    ("generale_card_value", 500): _("générale cards 500"),
    ("generale_card_value", 300): _("générale cards 300"),
    ("special_made", "flat"): _("capot and générale: their value alone"),
    ("special_made", "flat_both"): _("capot and générale: their value alone, made or failed"),
    ("rounding", "none"): _("not rounded"),
    ("rounding", "half_down"): _("rounded 5 down"),
    ("rounding", "attack6_defence7"): _("rounded up from 6 (takers) and 7 (defence)"),
    ("rounding", "complement"): _("defence: 160 less the takers"),
    ("sa_ta", True): _("sans-atout and tout-atout"),
    ("sa_ta_values", "raw_rescaled"): _("sans-atout and tout-atout counted raw, scaled to 152"),
    ("sa_ta_values", "raw"): _("sans-atout and tout-atout counted raw"),
    ("sa_carres", "same"): _("fours in sans-atout as in a suit"),
    ("belote_alone_cannot_win", False): _("a belote alone can win"),
    ("max_bid", 180): _("bids to 180"),
    ("timed_last_deal_exact", True): _("the last timed deal not rounded"),
}


def _coinche_words(name: str, value) -> str | None:
    """A Coinche option in words when it is not the default (None: the default, or not a rule)."""
    if name not in COINCHE_DEFAULTS or name in ("target", "deals", "ended_after"):
        return None
    default = COINCHE_DEFAULTS[name]
    if type(value) is type(default) and value == default:
        return None
    words = COINCHE_OPTION_WORDS.get((name, value))
    return str(words) if words is not None else f"{name} {value}"


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
        if match.ruleset == "coinche" and (words := _coinche_words(name, value)) is not None:
            parts.append(words)
        elif match.ruleset == "coinche" and name in COINCHE_DEFAULTS and name not in ("deals", "ended_after"):
            continue  # a Coinche option at its default (its litige is not French Belote's)
        elif name in OPTION_LABELS and value:
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


@register.filter
def preset_slug(name: str) -> str:
    """``{{ match.preset|preset_slug }}``: the slug of the preset of that name, for a link to its page
    ("" when there is none any more: the name is shown without a link)."""
    return presets.preset_slug(name) or "" if name else ""


@register.simple_tag
def guide_url(name: str) -> str:
    """The address of a page of the guides served at /docs/ (``"scorekeeper"``, ``"games/coinche"``,
    ``"developers/webhooks#checking-the-signature"``), in the page's language where the guides have
    that page translated, else in English (web/docs_site.py)."""
    return docs_site.page_url(name)
