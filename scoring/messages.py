"""Words players read that are written outside the templates, translated where they are shown.

The engine is pure Python and speaks English (its messages also go to the API and the command
line), and the models' labels live in migrations: neither is touched. This module marks their
words for the translators (``gettext_noop``) and translates them at the display boundary:

- ``game_name("pilotta")``: a rule set's name in the page's language;
- ``label("In progress")``: a model choice label (``get_status_display``) in the page's language;
- ``engine_message(error.message)``: an engine or service refusal (``ScoringError``) in the page's
  language. Messages with numbers or names in them are matched against templates; a message
  not in this catalogue is shown as the engine wrote it.
"""

from __future__ import annotations

import re
from functools import cache

from django.utils.translation import gettext, gettext_noop

# The rule sets' names, as ``engine.RULESETS[key].name`` spells them.
GAME_NAMES = {
    "mpourloto": gettext_noop("Mpourloto"),
    "pilotta": gettext_noop("Pilotta"),
    "bulgarian": gettext_noop("Bulgarian Belote"),
    "french": gettext_noop("French Belote"),
    "classic": gettext_noop("Belote Classic"),
    "coinche": gettext_noop("Coinche"),
}

# Choice labels of scoring.models (Match.Status); translated with ``label``.
CHOICE_LABELS = (
    gettext_noop("In progress"),
    gettext_noop("Tie-break deals"),
    gettext_noop("Finished"),
)

# The engine's and the scoring services' refusals. ``%(name)s`` stands for a part that varies;
# the parts named in TRANSLATED_PARTS are themselves translated (a game's name, a meld's name).
ENGINE_MESSAGES = (
    # scoring/engine/rulesets/base.py
    gettext_noop("%(game)s has no option %(option)s; its options are %(options)s"),
    gettext_noop("must be true or false"),
    gettext_noop("must be a whole number"),
    gettext_noop("the target is between 1 and %(most)s points"),
    gettext_noop("a match of a fixed number of deals has 1 to %(most)s (0: to the target)"),
    gettext_noop("a match ended by agreement ends after 1 to %(most)s deals (0: not ended so)"),
    gettext_noop("%(game)s has no meld %(meld)s; its melds are %(melds)s"),
    gettext_noop("a team can show at most %(n)s melds (two per player)"),
    gettext_noop("a deal has only one %(four)s"),
    gettext_noop("four of a kind of Jacks"),
    gettext_noop("four of a kind of 9s"),
    gettext_noop("four of a kind of 8s"),
    gettext_noop("four of a kind of 7s"),
    gettext_noop("there are only four ranks (A, K, Q, 10) for 'four'"),
    gettext_noop("cannot be below 0"),
    gettext_noop("no belote here: there is no trump suit"),
    gettext_noop("at most 1 belote in a deal (K+Q of a trump suit)"),
    gettext_noop("at most %(n)s belotes in a deal (K+Q of a trump suit)"),
    gettext_noop("missing: the contract (suit)"),
    gettext_noop("missing: the contract (suit, bid)"),
    gettext_noop("must be one of %(choices)s"),
    gettext_noop("missing: the bid (80, 90, 100 …)"),
    gettext_noop("bids go in tens from 80: 80, 90, 100 …"),
    gettext_noop("%(game)s has no bid"),
    gettext_noop("%(game)s has no contra"),
    gettext_noop("card points must lie between 0 and %(total)s"),
    gettext_noop(
        "the two teams' card points must add up to %(total)s (they add up to %(a)s + %(b)s = %(sum)s)"
    ),
    gettext_noop("a team that took every trick has all %(total)s card points"),
    gettext_noop("the team that took every trick also took the last one"),
    gettext_noop("missing: the team that won the last trick"),
    # scoring/engine/rulesets/*
    gettext_noop("unknown rule set %(key)s; known: %(known)s"),
    gettext_noop("%(game)s has no declaration contest: all declarations count"),
    gettext_noop("%(game)s has no solo capot"),
    gettext_noop("Belote Classic has no declarations but the belote"),
    gettext_noop("a solo capot is a capot: name the team that took every trick"),
    gettext_noop("Bulgarian Belote has no solo valat"),
    gettext_noop("no declarations are made in no trumps"),
    gettext_noop("both teams declared sequences of the same length: tap whose is higher, or equal"),
    gettext_noop("the capot bonus is 90 or 100"),
    gettext_noop("one team always wins the declarations: name it, 0 or 1"),
    gettext_noop(
        "both teams have an equal best declaration: name the team that won them (longer sequence, "
        "then higher card, then the team that led)"
    ),
    gettext_noop("Mpourloto has no auction: at most a trump suit, no bid, no doubling"),
    gettext_noop("Mpourloto has no solo capo"),
    gettext_noop("in Mpourloto the K+Q of trumps is the 'mpourloto' meld"),
    gettext_noop("a deal has only one mpourloto (K+Q of trumps)"),
    gettext_noop("name the team whose melds count: 0 or 1"),
    gettext_noop("both teams have an equal best meld: name the team whose melds count"),
    # scoring/engine/match.py and types.py
    gettext_noop("must be a seat: 0, 1, 2 or 3"),
    gettext_noop("the match was already won after deal %(n)s; no deal can follow it"),
    gettext_noop("the match was already over after deal %(n)s; no deal can follow it"),
    gettext_noop("must be 1, 2 (contra) or 4 (sur-contra)"),
    gettext_noop("must be an object with suit, bid and multiplier"),
    gettext_noop("unknown field %(field)s"),
    gettext_noop("must be a team: 0 or 1"),
    gettext_noop("must be a team: 0 or 1 (or null)"),
    gettext_noop("must be a list of two numbers, one per team"),
    gettext_noop("a thrown-in deal has no other fields"),
    gettext_noop("missing: the team that took trumps (0 or 1)"),
    gettext_noop("missing: both teams' card points"),
    gettext_noop("must be two lists, one per team"),
    gettext_noop("must be a list of meld names"),
    gettext_noop("unknown meld %(meld)s; melds are %(melds)s"),
    gettext_noop("a deal must be a JSON object"),
    gettext_noop("unknown field; a deal has %(fields)s"),
    gettext_noop('must be a whole number (in Coinche also "capot" or "generale")'),
    # scoring/engine/rulesets/coinche.py (and the générale of base.py)
    gettext_noop("bids go in tens from 80 to %(most)s, or are capot or generale"),
    gettext_noop("sans-atout and tout-atout are bid only with the option sa_ta"),
    gettext_noop("Coinche records a générale instead: the seat of the taker who took every trick"),
    gettext_noop("a générale is every trick taken by one player: a seat of the capot team (team %(n)s)"),
    gettext_noop("a générale is a capot: team %(n)s took every trick"),
    gettext_noop("no announcements in this game (contrée): only the belote counts"),
    gettext_noop("in sans-atout the fours score by rank: name them fourA, four10, fourK, fourQ"),
    gettext_noop("name the team whose announcements count, or null when nobody's do"),
    gettext_noop("%(game)s has no générale"),
    gettext_noop("four of a kind of Aces"),
    gettext_noop("four of a kind of 10s"),
    gettext_noop("four of a kind of Kings"),
    gettext_noop("four of a kind of Queens"),
    # scoring/services.py
    gettext_noop("the first dealer must be one of the four seats"),
    gettext_noop("a match has two teams"),
    gettext_noop("each team has two players"),
    gettext_noop("four different players are needed: a player sits only once"),
    gettext_noop("a match file to import names its two teams"),
    gettext_noop("only a finished match can be confirmed"),
    gettext_noop("the confirming team is 0 or 1"),
    gettext_noop("the match is already over"),
    gettext_noop("no deal has been played: delete the match instead"),
    gettext_noop(
        "the sheet changed since this deal was entered (another tablet recorded or corrected a deal): "
        "here it is; check it and record the deal again"
    ),
    gettext_noop("this deal was deleted; it can no longer be corrected"),
    gettext_noop("this match's deals are not checked by the other team"),
    gettext_noop("this deal was deleted; it can no longer be checked"),
    gettext_noop("this result is already confirmed"),
    gettext_noop("a player confirms for their own team only"),
    gettext_noop(
        "the sheet changed since you last saw it (another tablet recorded or corrected a deal): "
        "here it is as it is now; check it and try again"
    ),
    gettext_noop("this key was already used for another deal: a new deal needs a new key"),
    gettext_noop("a match file to import has at most %(most)s deals; this one has %(count)s"),
    gettext_noop("the tournament finished without this match: it counts for nobody and takes no more deals"),
    # scoring/presets/
    gettext_noop("no preset is named %(name)s"),
    gettext_noop("must be the preset's name (at most %(most)s characters)"),
    gettext_noop("the preset %(name)s is for %(game)s: choose that game, or another preset"),
    gettext_noop("must be an object of option names and values"),
    gettext_noop("a preset holds rules chosen before a match: ended_after is where a match ended"),
    gettext_noop("a preset needs a name"),
    gettext_noop("a preset's name has at most %(most)s characters, without control characters"),
    gettext_noop("a preset of that name exists already: choose another name"),
    gettext_noop("a time limit is 1 to %(most)s minutes (none: untimed)"),
    gettext_noop("the description has at most %(most)s characters"),
    gettext_noop("no preset or game is named %(name)s; games: %(games)s"),
    gettext_noop("a built-in preset cannot be changed: make a copy of it"),
    gettext_noop("only the preset's owner may change it"),
    gettext_noop("a preset keeps its name (matches and match files name it): make a copy to have another"),
)
TRANSLATED_PARTS = frozenset({"game", "four"})

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each message with a varying part, as a pattern that finds the parts in the English text."""
    patterns = []
    for template in ENGINE_MESSAGES:
        if not _PLACEHOLDER.search(template):
            continue
        pieces, last = [], 0
        for found in _PLACEHOLDER.finditer(template):
            pieces.append(re.escape(template[last : found.start()]))
            pieces.append(f"(?P<{found.group(1)}>.+?)")
            last = found.end()
        pieces.append(re.escape(template[last:]))
        patterns.append((re.compile("".join(pieces), re.DOTALL), template))
    return tuple(patterns)


@cache
def _names_to_keys() -> dict[str, str]:
    return {name: key for key, name in GAME_NAMES.items()}


def game_name(key: str) -> str:
    """A rule set's name in the current language (an unknown key is shown as it is)."""
    name = GAME_NAMES.get(key)
    return gettext(name) if name else key


def label(text: object) -> str:
    """A label marked in a catalogue (a model choice, a metric), in the current language."""
    return gettext(str(text)) if text not in (None, "") else ""


def _part(name: str, value: str) -> str:
    if name not in TRANSLATED_PARTS:
        return value
    key = _names_to_keys().get(value)
    return game_name(key) if key else gettext(value)


def engine_message(message: str) -> str:
    """An engine or service message in the current language; one not catalogued stays English."""
    if message in ENGINE_MESSAGES:
        return gettext(message)
    for pattern, template in _patterns():
        found = pattern.fullmatch(message)
        if found:
            parts = {name: _part(name, value) for name, value in found.groupdict().items()}
            return gettext(template) % parts
    return message


def engine_sentence(message: str) -> str:
    """``engine_message`` as a sentence: a capital first letter and a full stop."""
    text = engine_message(message)
    return text[:1].upper() + text[1:] + "."
