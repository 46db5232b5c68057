"""The tablet's pad: the words of its buttons and the chips of each game's melds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # django-stubs' (dev only): str or a lazy translation

TEAM_CHOICES = [(0, _("Team 1")), (1, _("Team 2"))]
LAST_TRICK_CHOICES = [
    ("0", _("Team 1")),
    ("1", _("Team 2")),
    ("capo0", _("Team 1 capot")),
    ("capo1", _("Team 2 capot")),
]
SUIT_LABELS: dict[str, StrOrPromise] = {
    "clubs": "♣",
    "diamonds": "♦",
    "hearts": "♥",
    "spades": "♠",
    "notrump": pgettext_lazy("short for no trumps", "NT"),
    "alltrump": pgettext_lazy("short for all trumps", "AT"),
}
SUIT_NAMES: dict[str, StrOrPromise] = {
    "clubs": _("clubs"),
    "diamonds": _("diamonds"),
    "hearts": _("hearts"),
    "spades": _("spades"),
    "notrump": _("no trumps"),
    "alltrump": _("all trumps"),
}
BID_CHIPS = tuple(range(80, 170, 10))  # higher bids are typed
MULTIPLIERS = [(1, "×1"), (2, _("×2 contra")), (4, _("×4 re-contra"))]
# Coinche's bids beyond the numbers, and its words for ×2 and ×4 (the sheet shows them too).
BID_WORDS = {"capot": _("capot"), "generale": _("générale")}
COINCHE_MULTIPLIERS = {2: _("coinché"), 4: _("surcoinché")}
TOUT_ATOUT_BELOTES = 4  # one a suit


@dataclass(frozen=True)
class Chip:
    code: str
    label: StrOrPromise
    title: StrOrPromise
    most: int = 4


@dataclass(frozen=True)
class Pad:
    """What a game's deal pad asks, in the order the table announces it."""

    maker_label: StrOrPromise
    capot_word: StrOrPromise
    maker_missing: StrOrPromise  # the error when no team is tapped
    chips: tuple[Chip, ...] = ()
    suits: tuple[str, ...] = ()  # the contract's suits to tap; none: no contract asked
    bids: bool = False
    doubling: bool = False
    belotes: int = 0  # at most this many belotes a team; 0: no belote chip
    contest: str | None = None  # "melds" (option), "declarations", "sequences" or "announcements"
    solo_capot: bool = False
    # Coinche: the bids are taps up to the match's highest bid, capot and générale (with the seat of the
    # player who took every trick alone), none typed; sans-atout and tout-atout only with its option sa_ta;
    # the announcements follow its options (none in contrée, the fours by rank with sans-atout).
    bid_words: bool = False
    option_suits: tuple[str, ...] = ()


MPOURLOTO_CHIPS = (
    Chip("seq3", "+20", _("sequence of 3")),
    Chip("seq4", "+50", _("sequence of 4")),
    Chip("seq5", _("+100 seq"), _("sequence of 5 or more")),
    Chip("four", _("+100 four"), _("four of a kind")),
    Chip("mpourloto", _("K+Q"), _("mpourloto: K+Q of trumps (20)"), most=1),
)
DECLARATION_CHIPS = (
    Chip("seq3", "+20", _("tierce: sequence of 3")),
    Chip("seq4", "+50", _("quarte: sequence of 4")),
    Chip("seq5", _("+100 seq"), _("quint: sequence of 5 or more")),
    Chip("four", "+100 4×", _("four A, K, Q or 10")),
    Chip("four9", "+150 4×9", _("four 9s"), most=1),
    Chip("fourJ", _("+200 4×J"), _("four Jacks"), most=1),
)
# Coinche with sans-atout (its option sa_ta): a four's rank decides its value there (four Aces 200, four
# 10s 150, the others 100), so each rank has its chip; the labels leave the points out.
NAMED_FOUR_CHIPS = (
    *DECLARATION_CHIPS[:3],
    Chip("fourA", _("4×A"), _("four Aces"), most=1),
    Chip("four10", "4×10", _("four 10s"), most=1),
    Chip("fourK", _("4×K"), _("four Kings"), most=1),
    Chip("fourQ", _("4×Q"), _("four Queens"), most=1),
    Chip("four9", "4×9", _("four 9s"), most=1),
    Chip("fourJ", _("4×J"), _("four Jacks"), most=1),
)
SUITS = ("clubs", "diamonds", "hearts", "spades")
PADS = {
    "mpourloto": Pad(
        _("Trumps"), _("capo"), _("Tap the team that made trumps."), MPOURLOTO_CHIPS, contest="melds"
    ),
    "pilotta": Pad(
        _("Declarers"),
        _("capot"),
        _("Tap the declarers team."),
        DECLARATION_CHIPS,
        SUITS,
        bids=True,
        doubling=True,
        belotes=1,
        contest="declarations",
    ),
    "bulgarian": Pad(
        _("Contract"),
        _("valat"),
        _("Tap the contract team."),
        DECLARATION_CHIPS,
        (*SUITS, "notrump", "alltrump"),
        doubling=True,
        belotes=4,
        contest="sequences",
    ),
    "french": Pad(_("Taker"), _("capot"), _("Tap the taker team."), DECLARATION_CHIPS, belotes=1),
    "classic": Pad(_("Taker"), _("capot"), _("Tap the taker team."), belotes=1, solo_capot=True),
    "coinche": Pad(
        _("Taker"),
        _("capot"),
        _("Tap the taker team."),
        DECLARATION_CHIPS,
        SUITS,
        bids=True,
        doubling=True,
        belotes=1,
        contest="announcements",
        bid_words=True,
        option_suits=("notrump", "alltrump"),
    ),
}


def pad_chips(ruleset: str, opts: Any) -> tuple[Chip, ...]:
    """The meld chips of a game's pad under a match's options (``opts``: the rule set's options)."""
    pad = PADS[ruleset]
    if pad.contest != "announcements":
        return pad.chips
    if not opts.annonces:
        return ()  # contrée: only the belote
    if opts.sa_ta and opts.sa_carres == "ffb":
        return NAMED_FOUR_CHIPS
    return pad.chips
