"""Named rule presets: a rule set's options bundled under a name ("FFB 2016", "Cypriot café 351").

A preset is chosen when a match or a tournament is created: its options become the match's (the
options given beside it go over them), and the match keeps the preset's name beside its options, all
spelt out, so that a later change to the preset, or its deletion, never changes a result (a match
file names the preset and still scores the same without it, FORMAT.md).

The presets every site has are code (``BUILT_IN``), each checked by the engine when this module is
imported. An organizer makes more as a copy of one (or of a game's defaults) with changes, named
(``RulePreset``). Every preset is public: a match file or a tournament names it, and anyone may read
what it means. A name is unique among both, whatever the case; a saved preset keeps its name, and only
its owner (or a superuser) changes or deletes it.

Refusals are ``engine.ScoringError`` with the field at fault (``name``, ``options.base`` …), in the
engine's English, translated where they are shown (``scoring.messages``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from .. import engine
from ..engine.rulesets.coinche import CHOICES as COINCHE_CHOICES
from ..models import RulePreset

NAME_MAX = 80
ABOUT_MAX = 2000
TIME_LIMIT_MAX = 600  # minutes, as a tournament's clock allows
NOT_A_RULE = ("ended_after",)  # where a match was ended, not a rule chosen before it
RESERVED_SLUGS = frozenset({"new", *engine.RULESETS})  # /presets/new/ and ?from=<game>


@dataclass(frozen=True)
class Preset:
    """A named bundle of a rule set's options: built in (``pk`` None) or an organizer's (a
    ``RulePreset`` row, read through ``preset_of``). ``options`` holds every option, spelt out."""

    name: str
    slug: str
    ruleset: str
    options: Mapping[str, Any]
    time_limit: int | None = None  # minutes a timed match or round lasts
    about: str = ""
    based_on: str = ""  # the name of the preset it was copied from ("" : a game's defaults, or built in)
    owner: Any = None
    pk: int | None = None

    @property
    def built_in(self) -> bool:
        return self.pk is None

    def may_change(self, user: Any) -> bool:
        """Its owner (or a superuser) may change or delete a saved preset; nobody a built-in one."""
        if self.built_in or not getattr(user, "is_authenticated", False):
            return False
        return user.is_superuser or (self.owner is not None and self.owner.pk == user.pk)


def _built_in(name: str, ruleset: str, about: Any, time_limit: int | None = None, **changes: Any) -> Preset:
    """A built-in preset, its options checked and spelt out by the engine now: a wrong one stops the
    import."""
    rules = engine.get_ruleset(ruleset)
    options = rules.spelt_out(rules.options(changes))
    return Preset(name, slugify(name), ruleset, options, time_limit, about)


# Names are not translated: a match file and a tournament name their preset by its name.
BUILT_IN: tuple[Preset, ...] = (
    _built_in(
        "FFB 2016",
        "coinche",
        _(
            "The French federation's coinche rulebook: bids from 80 to 160, capot 250, générale 500; "
            "coinché ×2, surcoinché ×4; made when the takers reach their bid and score more than the "
            "defence; each deal rounded to the ten; to 1,000."
        ),
    ),
    _built_in(
        "Cannes 2001 points or 40 minutes",
        "coinche",
        _(
            "The parties of the French contrée championship (Cannes 2016): to 2,001 points and at most "
            "40 minutes from the referee's signal; the deal in play when time is called is the last, "
            "and it is counted exactly, not rounded. Otherwise the federation's rules."
        ),
        time_limit=40,
        target=2001,
        timed_last_deal_exact=True,
    ),
    _built_in(
        "Contrée without announcements",
        "coinche",
        _(
            "Contrée as many clubs play it: no announcements, only the belote (K+Q of trumps) counts. "
            "Otherwise the federation's rules."
        ),
        annonces=False,
    ),
    _built_in(
        "Bulgarian federation",
        "bulgarian",
        _(
            "Bridge-belote to 151 match points. Our rules name no option for federation play, so this is "
            "the game as written, without the kirtik (a regional rule: −10 for going inside or suffering "
            "a valat)."
        ),
    ),
    _built_in(
        "Cypriot café 351",
        "pilotta",
        _("Pilotta as the cafés of Cyprus play it: to 351 match points, a capot bonus of 90."),
        target=351,
    ),
    _built_in(
        "Kafeneio 1000",
        "mpourloto",
        _(
            "Mpourloto to 1,000 as the Greek kafeneio plays it: every meld counts, equal points are mesa, "
            "capo 90."
        ),
    ),
    _built_in(
        "French Belote 501",
        "french",
        _("French Belote to 501: every declaration counts; an exact tie is dedans (no litige)."),
    ),
    _built_in(
        "Belote Classic 501",
        "classic",
        _("The online 501-point Belote: no declarations but the belote; a solo capot is worth 350."),
    ),
)

# Option words: what each option means, with its values, for the preset pages and the copy form.
OPTION_WORDS: dict[str, Any] = {
    "target": _("Play to (the target)"),
    "deals": _("A fixed number of deals (0: to the target)"),
    # Mpourloto
    "ties_hang": _("Ties hang (kremamena): equal points are not mesa, the makers' points hang"),
    "best_melds_only": _("Only the team with the single best meld scores its melds"),
    "capo_100": _("Capo is worth 100 instead of 90"),
    "partner_relief": _("No need to beat a partner's winning card (a play rule)"),
    # Pilotta
    "capot_bonus": _("Capot bonus"),
    # Bulgarian Belote
    "kirtik": _("Kirtik: −10 for going inside or suffering a valat"),
    # French Belote (Coinche's litige is below)
    "litige": _("Litige: a tie is not dedans, the taker's points are held"),
}
COINCHE_WORDS: dict[str, Any] = {
    "target_rule": _("The target is reached (reach: at least it) or must be passed (pass: more than it)"),
    "base": _("A failed contract's card part (160 or 162)"),
    "made_scoring": _("A made contract writes its points and the bid (points_plus_bid) or the bid alone"),
    "need_more_than_defence": _("A made contract also needs more than the defence"),
    "litige": _("Equal totals at or over the bid (litige): failed, made, or held for the next winner"),
    "belote_counts": _("The belote counts toward the bid"),
    "melds_count": _("The announcements count toward the bid"),
    "annonces": _("Announcements (sequences, fours) are made; off: contrée, only the belote"),
    "melds_scoring": _("Only the team with the best announcement scores (best_team), or each team its own"),
    "capot_takes_melds": _("Takers who take every trick score the defence's announcements too"),
    "coinche_scoring": _("How a coinché or surcoinché deal is written"),
    "coinche_multiplier": _("Coinché multiplies by"),
    "surcoinche_multiplier": _("Surcoinché multiplies by"),
    "multiply_belote": _("The winner's belote is multiplied too"),
    "failed_scoring": _("A failed contract gives the defence base + bid, or also its own card points"),
    "defence_capot": _("A defence that takes every trick has the base, or the capot's card side"),
    "capot_card_value": _("The card side of a team that takes every trick"),
    "capot_bid_value": _("The value of a capot bid"),
    "generale_bid_value": _("The value of a générale bid"),
    "generale_card_value": _("The card side of a générale (as the capot, or a number)"),
    "special_made": _("A capot or générale bid scores like any bid (add) or its value alone (flat)"),
    "rounding": _("How each deal's score is rounded to the ten"),
    "sa_ta": _("Sans-atout and tout-atout may be bid"),
    "sa_ta_values": _("Card values in sans-atout and tout-atout"),
    "sa_carres": _("Fours in sans-atout: the federation's (Aces 200, 10s 150) or as in a suit"),
    "belote_alone_cannot_win": _(
        "A team over the target only through its belote in a lost deal waits for a trick"
    ),
    "max_bid": _("The highest numbered bid"),
    "timed_last_deal_exact": _("The last deal of a match ended by the clock is counted exactly, not rounded"),
}
# The closed lists of values each rule set knows (the default first): selects on the copy form.
KNOWN_VALUES: dict[str, Mapping[str, tuple[Any, ...]]] = {
    "coinche": COINCHE_CHOICES,
    "pilotta": {"capot_bonus": (90, 100)},
}


def option_words(ruleset: str, name: str) -> Any:
    """An option's meaning in the page's language (its match-file name when none is written)."""
    if ruleset == "coinche" and name in COINCHE_WORDS:
        return COINCHE_WORDS[name]
    return OPTION_WORDS.get(name, name)


def option_fields(ruleset: str) -> list[dataclasses.Field]:
    """The options a preset sets, in the rule set's order (``ended_after`` is not one)."""
    return [f for f in dataclasses.fields(engine.get_ruleset(ruleset).Options) if f.name not in NOT_A_RULE]


def defaults(ruleset: str) -> dict[str, Any]:
    """The game's options at their defaults, spelt out."""
    rules = engine.get_ruleset(ruleset)
    return rules.spelt_out(rules.options())


@dataclass(frozen=True)
class OptionRow:
    """One option of a preset, as its page shows it."""

    name: str
    words: Any
    value: Any
    default: Any
    differs: bool
    is_bool: bool = field(default=False)


def option_rows(preset: Preset) -> list[OptionRow]:
    """Every option of the preset in words, with its value and whether it differs from the game's default."""
    usual = defaults(preset.ruleset)
    rows = []
    for f in option_fields(preset.ruleset):
        value = preset.options.get(f.name, usual[f.name])
        rows.append(
            OptionRow(
                f.name,
                option_words(preset.ruleset, f.name),
                value,
                usual[f.name],
                value != usual[f.name],
                isinstance(usual[f.name], bool),
            )
        )
    return rows


# Reads -------------------------------------------------------------------------------------


def preset_of(row: RulePreset) -> Preset:
    """A saved preset as a ``Preset``."""
    return Preset(
        name=row.name,
        slug=row.slug,
        ruleset=row.ruleset,
        options=dict(row.options),
        time_limit=row.time_limit,
        about=row.about,
        based_on=row.based_on,
        owner=row.owner,
        pk=row.pk,
    )


def preset_list(*, ruleset: str | None = None) -> list[Preset]:
    """Every preset, the built-in ones first, then the organizers' by game and name (all are public:
    a match file and a tournament name them); only one game's with ``ruleset``."""
    built = [p for p in BUILT_IN if ruleset in (None, p.ruleset)]
    saved = RulePreset.objects.select_related("owner").order_by("ruleset", "name")
    if ruleset is not None:
        saved = saved.filter(ruleset=ruleset)
    return [*built, *(preset_of(row) for row in saved)]


def preset_get(name_or_slug: str) -> Preset | None:
    """The preset of that name (whatever the case) or slug; None when there is none."""
    key = (name_or_slug or "").strip()
    if not key:
        return None
    folded = key.casefold()
    for preset in BUILT_IN:
        if preset.slug == key or preset.name.casefold() == folded:
            return preset
    row = RulePreset.objects.select_related("owner").filter(slug=key).first()
    if row is None:
        row = RulePreset.objects.select_related("owner").filter(name__iexact=key).first()
    if row is None and not key.isascii():  # SQLite folds only ASCII letters: compare in Python
        rows = RulePreset.objects.select_related("owner")
        row = next((r for r in rows if r.name.casefold() == folded), None)
    return preset_of(row) if row is not None else None


def preset_slug(name: str) -> str | None:
    """The slug of the preset of that name, for a link (None: no such preset, e.g. deleted since)."""
    preset = preset_get(name)
    return preset.slug if preset is not None else None


def preset_apply(
    *, preset: str, ruleset: str | None, options: Mapping[str, Any] | None, must_exist: bool = True
) -> tuple[str, dict[str, Any], str]:
    """The rule set, options and preset name a match or a tournament starts with: the preset's options,
    the ``options`` given over them. Without a preset, the rule set given (Mpourloto when none).

    An unknown preset, or one of another game, is refused, unless ``must_exist`` is false (a tournament
    that names a preset deleted since, or a name now another game's: its options are spelt out, the name
    is kept as it was)."""
    name = (preset or "").strip()
    given = dict(options or {})
    if not name:
        return ruleset or "mpourloto", given, ""
    found = preset_get(name)
    if found is None and must_exist:
        raise engine.ScoringError(f"no preset is named {name!r}", field="preset")
    if found is None or (not must_exist and ruleset and ruleset != found.ruleset):
        return ruleset or "mpourloto", given, name[:NAME_MAX]
    if ruleset and ruleset != found.ruleset:
        game = engine.get_ruleset(found.ruleset).name
        raise engine.ScoringError(
            f"the preset {found.name!r} is for {game}: choose that game, or another preset", field="preset"
        )
    return found.ruleset, {**found.options, **given}, found.name
