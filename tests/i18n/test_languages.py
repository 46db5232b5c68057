"""The interface in English, Greek, French and Bulgarian (Django i18n, no language in the URLs).

The language follows the browser (Accept-Language) until the switcher on every page sets one.
The Greek tablet sheet is checked for English left behind in two ways: every string of the
catalogue that shows on the English sheet must not show on the Greek one, and no Latin word but
the players' and teams' names (and a few symbols) may show on it at all.
"""

from __future__ import annotations

import ast
import functools
import gettext as gnu_gettext
import html
import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation

from scoring import engine, presets, services
from scoring.messages import CHOICE_LABELS as SCORING_LABELS
from scoring.messages import GAME_NAMES, engine_message, engine_sentence
from scoring.models import Match
from tests.factories import TEAMS, made
from tournaments import services as tournament_services
from tournaments import standings
from tournaments.messages import CHOICE_LABELS as TOURNAMENT_LABELS
from tournaments.messages import METRIC_ABBRS, METRIC_NAMES
from tournaments.models import Entry, Round, Tournament
from tournaments.personal import personal_token

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "el", "fr", "bg")
TRANSLATED = ("el", "fr", "bg")
LOCALE = Path(settings.BASE_DIR) / "locale"
NAMES = {name for team, players in TEAMS for name in (team, *players)}
PRESET_NAMES = sorted((preset.name for preset in presets.BUILT_IN), key=len, reverse=True)
NAMES |= set(PRESET_NAMES)  # a preset's name is a name: never translated


# The catalogue, read from the .po files (no dependency beyond the standard library) -------------


def _po_entries(path: Path) -> list[dict]:
    """Entries of a .po file (blocks apart by blank lines): msgctxt, msgid, msgid_plural, msgstr
    (by plural index), fuzzy. The header (an empty msgid) is left out."""
    entries = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
        entry: dict = {"fuzzy": False, "msgstr": {}}
        key = None
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("#,"):
                entry["fuzzy"] = "fuzzy" in line
            elif line.startswith('"') and key is not None:
                if isinstance(key, int):
                    entry["msgstr"][key] += ast.literal_eval(line)
                else:
                    entry[key] += ast.literal_eval(line)
            else:
                found = re.match(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")$', line)
                if found:
                    word, index, value = found.group(1), found.group(2), ast.literal_eval(found.group(3))
                    key = int(index or 0) if word == "msgstr" else word
                    if word == "msgstr":
                        entry["msgstr"][key] = value
                    else:
                        entry[word] = value
        if entry.get("msgid"):
            entries.append(entry)
    return entries


def catalogue(lang: str, domain: str = "django") -> list[dict]:
    return _po_entries(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po")


def _text(fragment: str) -> str:
    """Visible text of an HTML fragment, on one line."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


ATTRIBUTES = ("title", "aria-label", "placeholder", "alt", "hx-confirm", "data-question")


def visible(page: str) -> str:
    """What a user reads or hears: the text, then the attributes screen readers and dialogs show,
    kept apart by " ¦ " so that a phrase cannot be found across two of them. The language switcher
    (each language's own name) is left out: it is checked on its own, and so is code shown as code
    (``<code>``: the embeds' snippets to copy, an address's ``?lang=el``), which no language translates."""
    body = re.sub(r"<(script|style|datalist|code)\b.*?</\1>", " ", page, flags=re.S)
    body = re.sub(r'<form[^>]*data-testid="language-switcher".*?</form>', " ", body, flags=re.S)
    parts = [_text(body)]
    for name in ATTRIBUTES:
        parts += [_text(value) for value in re.findall(rf'\s{name}="([^"]*)"', body)]
    return " ¦ " + " ¦ ".join(part for part in parts if part) + " ¦ "


@functools.cache
def _pattern(msgid: str) -> tuple[re.Pattern[str], tuple[str, ...]] | None:
    """A msgid as it shows on a page: its placeholders stand for anything (names, numbers); and its
    literal pieces, each of which a page must hold for the pattern to match there (a cheap test
    that rules out most of the catalogue before a regular expression is tried). Made once a msgid:
    the checks below try each of the catalogue's thousands on every page, and re's own cache keeps
    only 512."""
    text = _text(msgid)
    pieces = re.split(r"%\(\w+\)[sdr]|%[sd]", text)
    if sum(len(re.findall(r"[A-Za-z]", piece)) for piece in pieces) < 3:
        return None  # symbols, numbers, a letter: nothing English to find
    body = "[^¦]{1,120}?".join(re.escape(piece) for piece in pieces)
    start = r"(?<![\w])" if re.match(r"\w", text) else ""
    end = r"(?![\w])" if re.search(r"\w$", text) else ""
    return re.compile(start + body + end), tuple(sorted(filter(None, pieces), key=len, reverse=True))


def _shows(found: tuple[re.Pattern[str], tuple[str, ...]], page: str) -> bool:
    pattern, pieces = found
    return all(piece in page for piece in pieces) and pattern.search(page) is not None


def untranslated(english: str, translated: str, entries: list[dict]) -> list[str]:
    """Strings of the catalogue shown on the English page that show, still English, on the other (a
    preset's name is a name, the same in every language, whatever words it holds)."""
    for name in PRESET_NAMES:
        english, translated = english.replace(name, " "), translated.replace(name, " ")
    left = []
    for entry in entries:
        sources = [entry["msgid"], entry.get("msgid_plural")]
        targets = list(entry["msgstr"].values())
        for source in filter(None, sources):
            if source in targets:
                continue  # the same word in both languages (a symbol, a name): nothing to tell apart
            found = _pattern(source)
            if found and _shows(found, english) and _shows(found, translated):
                left.append(source)
    return sorted(set(left))


# Pages ---------------------------------------------------------------------------------------


@pytest.fixture
def keeper_client(client, user):
    client.force_login(user)
    return client


def _match(user, ruleset="mpourloto", options=None, deals=()):
    match = services.match_create(teams=TEAMS, ruleset=ruleset, options=options or {}, first_dealer=0,
                                  created_by=user)  # fmt: skip
    for deal in deals:
        services.deal_record(match=match, deal=deal)
    return Match.objects.get(pk=match.pk)


MPOURLOTO_DEALS = (
    made(melds=(("seq3", "mpourloto"), ())),  # made, with melds
    made(maker=1, cards=(100, 52)),  # mesa
    {"thrown_in": True},
    {"maker": 0, "card_points": [152, 0], "capot": 0, "melds": [["four"], ["seq4"]]},  # capo
)
PILOTTA_DEALS = (
    {"maker": 0, "contract": {"suit": "hearts", "bid": 110, "multiplier": 2}, "card_points": [100, 52],
     "last_trick": 0, "melds": [["seq4"], []], "belote": [1, 0]},
    {"maker": 1, "contract": {"suit": "spades", "bid": 80}, "card_points": [120, 32], "last_trick": 0},
)  # fmt: skip
BULGARIAN_DEALS = (
    {"maker": 0, "contract": {"suit": "notrump"}, "card_points": [80, 40], "last_trick": 0},
    {"maker": 1, "contract": {"suit": "alltrump", "multiplier": 2}, "card_points": [200, 48], "last_trick": 0,
     "melds": [["seq3"], ["seq3"]], "declarations_winner": 0, "belote": [1, 1]},
    {"maker": 0, "contract": {"suit": "clubs"}, "card_points": [152, 0], "capot": 0},
)  # fmt: skip
COINCHE_DEALS = (
    {"maker": 0, "contract": {"suit": "hearts", "bid": 100, "multiplier": 2}, "card_points": [92, 60],
     "last_trick": 0, "melds": [["seq3"], []], "belote": [1, 0]},
    {"maker": 1, "contract": {"suit": "spades", "bid": "generale", "multiplier": 1}, "card_points": [0, 152],
     "capot": 1, "generale": 3, "melds": [[], []]},
)  # fmt: skip
FRENCH_DEALS = (
    {"maker": 0, "card_points": [60, 92], "last_trick": 1, "melds": [["seq3"], []], "belote": [1, 0]},
    {"maker": 1, "card_points": [0, 152], "capot": 1},
)


def sheet_pages(client, user) -> dict[str, str]:
    """The tablet sheet in its states: each game, a deal pad with errors, a finished match, the
    new-match page, a deal's correction page, the deal preview; paths for GET, or (path, data) POSTs."""
    pages = {}
    mpourloto = _match(user, options={"best_melds_only": True, "ties_hang": True}, deals=MPOURLOTO_DEALS)
    pages["mpourloto"] = reverse("scoring:match", args=[mpourloto.pk])
    pages["mpourloto errors"] = (reverse("scoring:deal_create", args=[mpourloto.pk]),
                                 {"client_key": str(uuid.uuid4()), "card_points": "500"})  # fmt: skip
    pages["mpourloto preview"] = (
        reverse("scoring:deal_preview", args=[mpourloto.pk]),
        {"client_key": str(uuid.uuid4()), "maker": "0", "points_team": "0", "card_points": "90",
         "last_trick": "0", "melds0_seq3": "1", "melds1_seq3": "1"},
    )  # fmt: skip
    deal = mpourloto.deals.order_by("position").first()
    pages["deal edit"] = reverse("scoring:deal_edit", args=[mpourloto.pk, deal.pk])
    pages["history"] = reverse("scoring:match_history", args=[mpourloto.pk])
    pilotta = _match(user, "pilotta", deals=PILOTTA_DEALS)
    pages["pilotta"] = reverse("scoring:match", args=[pilotta.pk])
    bulgarian = _match(user, "bulgarian", {"kirtik": True}, deals=BULGARIAN_DEALS)
    pages["bulgarian"] = reverse("scoring:match", args=[bulgarian.pk])
    pages["bulgarian errors"] = (
        reverse("scoring:deal_create", args=[bulgarian.pk]),
        {"client_key": str(uuid.uuid4()), "maker": "0", "suit": "notrump", "points_team": "0",
         "card_points": "60", "last_trick": "0", "melds0_seq3": "1"},
    )  # fmt: skip
    french = _match(user, "french", {"litige": True}, deals=FRENCH_DEALS)
    pages["french"] = reverse("scoring:match", args=[french.pk])
    classic = _match(
        user, "classic", deals=({"maker": 0, "card_points": [152, 0], "capot": 0, "solo_capot": True},)
    )
    pages["classic"] = reverse("scoring:match", args=[classic.pk])
    coinche = _match(user, "coinche", {"litige": "held", "max_bid": 180}, deals=COINCHE_DEALS)
    pages["coinche"] = reverse("scoring:match", args=[coinche.pk])
    finished = _match(user, options={"target": 100}, deals=(made(),))
    pages["finished"] = reverse("scoring:match", args=[finished.pk])
    pages["new match"] = reverse("scoring:match_new")
    pages["new match errors"] = (reverse("scoring:match_new"), {"target": "0"})
    return pages


def fetch(client, page, **headers) -> str:
    if isinstance(page, tuple):
        path, data = page
        response = client.post(path, data, **headers)
    else:
        response = client.get(page, **headers)
    assert response.status_code in (200, 422), (page, response.status_code)
    return response.text


def test_settings_languages_and_middleware():
    assert settings.LANGUAGE_CODE == "en"
    assert dict(settings.LANGUAGES) == {
        "en": "English",
        "el": "Ελληνικά",
        "fr": "Français",
        "bg": "Български",
    }
    assert list(settings.LOCALE_PATHS) == [LOCALE]
    middleware = settings.MIDDLEWARE
    locale = middleware.index("django.middleware.locale.LocaleMiddleware")
    assert middleware.index("django.contrib.sessions.middleware.SessionMiddleware") < locale
    assert locale < middleware.index("django.middleware.common.CommonMiddleware")


# Each page in each language ------------------------------------------------------------------

WORDS = {
    # page: {language: words that page shows in it}
    "sheet": {  # as a follower sees it: the pad is the scorekeeper's (test_the_tablet_sheet_… below)
        "en": ["Dealer", "History", "mesa", "capo", "Trumps", "Melds"],
        "el": ["Μοιράζει", "Ιστορικό", "μέσα", "κάπο", "Ατού", "Αέρας"],
        "fr": ["Donneur", "Historique", "dedans", "capot", "Atout", "Annonces"],
        "bg": ["Раздава", "История", "вътре", "валат", "Коз", "Анонси"],
    },
    "new match": {
        "en": ["Start the match", "First dealer", "Mpourloto", "Bulgarian Belote"],
        "el": ["Ξεκίνημα παιχνιδιού", "Μοιράζει πρώτος", "Μπουρλότο", "Βουλγάρικη μπελότα"],
        "fr": ["Commencer la partie", "Premier donneur", "Belote bulgare", "Belote française"],
        "bg": ["Започни играта", "Раздава първи", "Бурлото", "Български белот"],
    },
    "matches": {
        "en": ["Matches", "Start a match", "Mpourloto to 1000"],
        "el": ["Παιχνίδια", "Μπουρλότο μέχρι 1000"],
        "fr": ["Parties", "Commencer une partie", "Mpourloto en 1000"],
        "bg": ["Игри", "Започни игра", "Бурлото до 1000"],
    },
    "help": {
        "en": ["Keeping the sheet", "Mesa", "capo"],
        "el": ["Πώς κρατάτε το φύλλο", "Μέσα", "κάπο", "Μπουρλότο"],
        "fr": ["Tenir la feuille", "dedans", "capot", "tierce"],
        "bg": ["Как се води листът", "вътре", "валат", "терца"],
    },
    "tournaments": {
        "en": ["Tournaments", "Swiss", "Running"],
        "el": ["Τουρνουά", "Ελβετικό", "Σε εξέλιξη"],
        "fr": ["Tournois", "Suisse", "En cours"],
        "bg": ["Турнири", "Швейцарска система", "В ход"],
    },
    "tournament": {
        "en": ["Standings", "Rounds", "win 2, draw 1, loss 0, bye 2", "ranked by"],
        "el": ["Βαθμολογία", "Γύροι", "νίκη 2, ισοπαλία 1, ήττα 0, ρεπό 2", "κατάταξη με"],
        "fr": ["Classement", "Rondes", "victoire 2, nul 1, défaite 0, exempt 2", "classement par"],
        "bg": ["Класиране", "Кръгове", "победа 2, равен 1, загуба 0, почивка 2", "класиране по"],
    },
    "standings": {
        "en": ["Standings", "Played", "W–D–L", "Updated"],
        "el": ["Βαθμολογία", "Αγώνες", "Ν–Ι–Η", "Ενημέρωση"],
        "fr": ["Classement", "Joués", "V–N–D", "Mis à jour"],
        "bg": ["Класиране", "Изиграни", "П–Р–З", "Обновено"],
    },
    "round": {
        "en": ["Swiss 1", "Table", "Score"],
        "el": ["Ελβετικό 1", "Τραπέζι", "Σκορ"],
        "fr": ["Suisse 1", "Équipe", "Score"],
        "bg": ["Швейцарска система 1", "Маса", "Резултат"],
    },
    "entry": {
        "en": ["Opponent", "Round", "sheet"],
        "el": ["Αντίπαλος", "Γύρος", "φύλλο"],
        "fr": ["Adversaire", "Ronde", "feuille"],
        "bg": ["Противник", "Кръг", "лист"],
    },
    "signup": {
        "en": ["Sign up for", "Send", "Partner"],
        "el": ["Δήλωση συμμετοχής", "Αποστολή", "Συμπαίκτης"],
        "fr": ["Inscription à", "Envoyer", "Partenaire"],
        "bg": ["Записване за", "Изпрати", "Партньор"],
    },
}


@pytest.fixture
def tournament(user):
    """A public Swiss tournament with sign-up open, its first round started and one match played."""
    t = tournament_services.tournament_create(organizer=user, name="Kafeneio cup", deals_per_match=2,
                                              signup_open=True)  # fmt: skip
    for i in range(4):
        tournament_services.entry_register(tournament=t, name=f"Club {i + 1}", players=[f"A{i}", f"B{i}"])
    tournament_services.tournament_start(tournament=t)
    rnd = tournament_services.round_generate(tournament=t)
    tournament_services.round_start(rnd=rnd)
    table = rnd.tables.select_related("match").first()
    services.deal_record(match=table.match, deal=made())
    tournament_services.standings_refresh(tournament_id=t.pk)
    return Tournament.objects.get(pk=t.pk)


def public_pages(client, user, tournament) -> dict[str, str]:
    match = _match(user, deals=MPOURLOTO_DEALS)
    entry = tournament.entries.first()
    return {
        "sheet": reverse("scoring:match", args=[match.pk]),
        "new match": reverse("scoring:match_new"),
        "matches": reverse("scoring:home"),
        "help": reverse("scoring:help"),
        "tournaments": reverse("tournaments:list"),
        "tournament": reverse("tournaments:home", args=[tournament.slug]),
        "standings": reverse("tournaments:standings", args=[tournament.slug]),
        "round": reverse("tournaments:round", args=[tournament.slug, 1]),
        "entry": reverse("tournaments:entry", args=[tournament.slug, entry.pk]),
        "signup": reverse("tournaments:signup", args=[tournament.slug]),
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_follow_the_browser_language(client, user, tournament, lang):
    for name, path in public_pages(client, user, tournament).items():
        page = client.get(path, HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5")
        assert page.status_code == 200, name
        assert f'<html lang="{lang}"' in page.text, name
        text = visible(page.text)
        for word in WORDS[name][lang]:
            assert word in text, f"{name} in {lang}: {word!r} missing"
        assert 'data-testid="language-switcher"' in page.text, name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pages_follow_the_chosen_language(client, user, tournament, lang):
    """The switcher posts to set_language; the choice outlasts the browser's own language."""
    pages = public_pages(client, user, tournament)
    response = client.post(reverse("set_language"), {"language": lang, "next": pages["tournament"]})
    assert response.status_code == 302 and response.url == pages["tournament"]
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == lang
    for name, path in pages.items():
        text = visible(client.get(path, HTTP_ACCEPT_LANGUAGE="de").text)
        for word in WORDS[name][lang]:
            assert word in text, f"{name} in {lang}: {word!r} missing"


def test_the_switcher_is_on_every_page_and_switches(keeper_client, user, tournament):
    client = keeper_client
    match = _match(user, deals=MPOURLOTO_DEALS)
    deal = match.deals.first()
    paths = [
        *public_pages(client, user, tournament).values(),
        reverse("scoring:deal_edit", args=[match.pk, deal.pk]),
        reverse("scoring:match_history", args=[match.pk]),
        reverse("tournaments:new"),
        reverse("tournaments:manage", args=[tournament.slug]),
        reverse("tournaments:audit", args=[tournament.slug]),
        reverse("tournaments:round_links", args=[tournament.slug, 1]),
    ]
    for path in paths:
        page = client.get(path).text
        form = re.search(r'<form[^>]*data-testid="language-switcher".*?</form>', page, flags=re.S)
        assert form, path
        assert f'action="{reverse("set_language")}"' in form.group(0)
        assert f'name="next" value="{path}"' in form.group(0)
        assert re.findall(r'name="language" value="(\w+)"', form.group(0)) == list(LANGUAGES)
    sheet = reverse("scoring:match", args=[match.pk])
    assert "Record deal" in client.get(sheet).text
    response = client.post(reverse("set_language"), {"language": "el", "next": sheet})
    assert response.url == sheet
    page = client.get(sheet).text
    assert "Καταχώριση μοιρασιάς" in page and "Record deal" not in page
    assert re.search(r'value="el"[^>]*aria-pressed="true"', page)
    client.post(reverse("set_language"), {"language": "en", "next": sheet})
    assert "Record deal" in client.get(sheet).text


def test_no_language_prefix_in_the_urls():
    assert reverse("scoring:home") == "/"
    assert reverse("tournaments:list").startswith("/tournaments")
    with translation.override("el"):
        assert reverse("scoring:match", args=[1]) == "/matches/1/"


# The Greek tablet sheet has no English left -------------------------------------------------------


def test_the_check_finds_a_string_left_in_english():
    """The check below would catch an untranslated string: shown the English as "Greek", it names it."""
    entries = catalogue("el")
    english = visible(
        "<p>Record deal</p><p>Deal 3 · deals <strong>Nikos</strong> · leads <strong>Eleni</strong></p>"
    )
    assert {"Record deal", 'Deal %(number)s · deals <strong data-testid="next-dealer">%(dealer)s</strong> · '
            "leads <strong>%(leader)s</strong>"} <= set(untranslated(english, english, entries))  # fmt: skip
    greek = visible("<p>Καταχώριση μοιρασιάς</p><p>Μοιρασιά 3 · μοιράζει Nikos · παίζει πρώτος Eleni</p>")
    assert untranslated(english, greek, entries) == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_tablet_sheet_has_no_untranslated_string(keeper_client, user, lang):
    entries = catalogue(lang)
    found_in_english = set()
    for name, page in sheet_pages(keeper_client, user).items():
        english = visible(fetch(keeper_client, page, HTTP_ACCEPT_LANGUAGE="en"))
        other = visible(fetch(keeper_client, page, HTTP_ACCEPT_LANGUAGE=lang))
        assert untranslated(english, other, entries) == [], f"{name} in {lang}"
        found_in_english.update(untranslated(english, english, entries))
    assert len(found_in_english) > 120, "the English sheet shows the catalogue's strings: the check is real"


# Names: the app's, the language buttons', cards' letters, and the browsers and systems the help
# names for installing the app (their own spelling in every language).
ALLOWED_LATIN = {
    "Tsoxa",
    "EN",
    "FR",
    "K",
    "Q",
    "J",
    "A",
    "B",
    "QR",
    "C",
    "Chrome",
    "Android",
    "iPad",
    "iPhone",
    "Safari",
    "OpenSkill",  # the rating library the help names, and its model's authors
    "Weng",
    "Lin",
}


@pytest.mark.parametrize("lang", ["el", "bg"])
def test_the_greek_and_bulgarian_sheets_show_no_latin_word_but_names(keeper_client, user, lang):
    """Greek and Bulgarian are not written in Latin letters: a Latin word on their sheet is English left
    behind (a string not even marked for translation), unless it is a name or a card's letter."""
    for name, page in sheet_pages(keeper_client, user).items():
        text = visible(fetch(keeper_client, page, HTTP_ACCEPT_LANGUAGE=lang))
        for known in sorted(NAMES | {user.get_username()}, key=len, reverse=True):
            text = text.replace(known, " ")
        words = set(re.findall(r"[A-Za-z][A-Za-z'’-]*", text)) - ALLOWED_LATIN
        assert not words, f"{name} in {lang}: {sorted(words)}"


@pytest.mark.parametrize("lang", ["el", "bg"])
def test_the_other_pages_show_no_latin_word_but_names(keeper_client, user, tournament, lang):
    """The public pages and the organizer's, likewise: the evening's too (the console, the paste, the
    check-in pages, the audit's sentences, the accounts' pages)."""
    client = keeper_client
    match = _match(user, deals=MPOURLOTO_DEALS)
    entry = tournament.entries.first()
    open_event = tournament_services.tournament_create(
        organizer=user, name="Friday concours", format="concours"
    )
    for i in range(2):
        tournament_services.entry_register(
            tournament=open_event, name=f"Club {i + 1}", players=[f"A{i}", f"B{i}"]
        )
    tournament_services.checkin_open_set(tournament=open_event, open=True, user=user)
    waiting = open_event.entries.first()
    paths = {
        **public_pages(client, user, tournament),
        "history": reverse("scoring:match_history", args=[match.pk]),
        "new tournament": reverse("tournaments:new"),
        "manage": reverse("tournaments:manage", args=[tournament.slug]),
        "links": reverse("tournaments:round_links", args=[tournament.slug, 1]),
        "webhooks": reverse("webhooks:tournament", args=[tournament.slug]),
        "tokens": reverse("league:tokens"),
        "embed standings": reverse("tournaments:embed_standings", args=[tournament.slug]),
        "embed round": reverse("tournaments:embed_round", args=[tournament.slug, 1]),
        # The organizer's evening: the console, a paper result's form, an entry's edit and withdrawal,
        # the bracket, the audit, and a tournament still taking entries (check-in, the paste).
        "console": reverse("tournaments:console", args=[tournament.slug]),
        "paper": reverse("tournaments:table_paper", args=[tournament.slug, 1, 1]),
        "entry edit": reverse("tournaments:entry_edit", args=[tournament.slug, entry.pk]),
        "withdraw": reverse("tournaments:entry_withdraw", args=[tournament.slug, entry.pk]),
        "bracket": reverse("tournaments:bracket", args=[tournament.slug]),
        "audit": reverse("tournaments:audit", args=[tournament.slug]),
        "manage before the start": reverse("tournaments:manage", args=[open_event.slug]),
        "paste": reverse("tournaments:entries_bulk", args=[open_event.slug]),
        "slips": reverse("tournaments:checkin_slips", args=[open_event.slug]),
        # The people in the room: a team's own page, the finder and its list, the prizes.
        "own page": reverse("tournaments:personal", args=[personal_token(entry)]),
        "finder": reverse("tournaments:finder", args=[tournament.slug]) + "?q=Club",
        "finder list": reverse("tournaments:finder_print", args=[tournament.slug]),
        "prizes": reverse("tournaments:prizes", args=[tournament.slug]),
        "prizes editor": reverse("tournaments:prizes_edit", args=[tournament.slug]),
        "certificates": reverse("tournaments:certificates", args=[tournament.slug]),
        "own check-in": reverse("tournaments:checkin_self", args=[waiting.checkin_token]),
        "signup account": reverse("signup"),
        "password reset": reverse("password_reset"),
        "login": reverse("login"),
    }
    names = NAMES | {user.get_username(), tournament.name, open_event.name}
    names |= {e.team.name for e in open_event.entries.select_related("team")}
    names |= {e.team.name for e in tournament.entries.select_related("team")}
    names |= {p for e in tournament.entries.all() for p in (e.team.player_a.name, e.team.player_b.name)}
    for name, path in paths.items():
        if name == "own check-in":
            client.logout()
        text = visible(client.get(path, HTTP_ACCEPT_LANGUAGE=lang).text)
        text = re.sub(r"https?://\S+", " ", text)
        for known in sorted(names, key=len, reverse=True):
            text = text.replace(known, " ")
        words = set(re.findall(r"[A-Za-z][A-Za-z'’-]*", text)) - ALLOWED_LATIN - {"e-mail", "Buchholz"}
        assert not words, f"{name} in {lang}: {sorted(words)}"


def test_numbers_keep_their_digits_and_dates_are_localized(keeper_client, user):
    match = _match(user, deals=MPOURLOTO_DEALS)
    page = keeper_client.get(reverse("scoring:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="el").text
    assert re.search(r'data-testid="total-0">\d+</div>', page)
    deal = match.deals.first()
    edit = keeper_client.get(
        reverse("scoring:deal_edit", args=[match.pk, deal.pk]), HTTP_ACCEPT_LANGUAGE="el"
    )
    with translation.override("el"):
        month = formats.date_format(timezone.localtime(deal.entered_at), "M")
    assert not month.isascii() and month in edit.text


# The players' own words for each game -------------------------------------------------------------

GAME_WORDS = {
    # (rule set, deals): {language: words on its sheet}
    "mpourloto": {"en": ["mesa", "capo", "20 + mpourloto"], "el": ["μέσα", "κάπο", "20 + μπουρλότο"],
                  "fr": ["dedans", "capot"], "bg": ["вътре", "валат"]},
    "bulgarian": {"en": ["inside", "valat", "NT", "AT"], "el": ["μέσα", "κάπο", "ΧΑ", "ΟΑ"],
                  "fr": ["dedans", "capot", "SA", "TA"], "bg": ["вътре", "валат", "БК", "ВК", "терца"]},
    "french": {"en": ["dedans", "capot", "tierce", "belote"], "el": ["μέσα", "κάπο", "τρίτη", "μπελότ"],
               "fr": ["dedans", "capot", "tierce", "belote"], "bg": ["вътре", "валат", "терца", "белот"]},
    "pilotta": {"en": ["failed", "contra", "Declarations"], "el": ["μέσα", "κόντρα", "Δηλώσεις"],
                "fr": ["chuté", "contre", "Annonces"], "bg": ["вътре", "контра", "Анонси"]},
}  # fmt: skip
GAME_DEALS = {"mpourloto": MPOURLOTO_DEALS, "bulgarian": BULGARIAN_DEALS, "french": FRENCH_DEALS,
              "pilotta": PILOTTA_DEALS}  # fmt: skip


@pytest.mark.parametrize("ruleset", GAME_WORDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_game_terms_are_the_players_own_words(keeper_client, user, ruleset, lang):
    match = _match(user, ruleset, deals=GAME_DEALS[ruleset])
    text = visible(
        keeper_client.get(reverse("scoring:match", args=[match.pk]), HTTP_ACCEPT_LANGUAGE=lang).text
    )
    for word in GAME_WORDS[ruleset][lang]:
        assert word in text, f"{ruleset} in {lang}: {word!r} missing"


# Messages written outside the templates: the engine's, the models' labels -----------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "No declarations are made in no trumps."),
        ("el", "Στα χωρίς ατού δεν γίνονται δηλώσεις."),
        ("fr", "Pas d'annonces à sans atout."),
        ("bg", "На без коз не се обявяват анонси."),
    ],
)
def test_the_engine_refusal_is_shown_in_the_page_language(keeper_client, user, lang, words):
    match = _match(user, "bulgarian")
    data = {"client_key": str(uuid.uuid4()), "maker": "0", "suit": "notrump", "points_team": "0",
            "card_points": "60", "last_trick": "0", "melds0_seq3": "1"}  # fmt: skip
    response = keeper_client.post(
        reverse("scoring:deal_create", args=[match.pk]), data, HTTP_ACCEPT_LANGUAGE=lang
    )
    assert response.status_code == 422
    assert html.escape(words, quote=True) in response.text or words in response.text


def test_engine_messages_with_their_varying_parts():
    with translation.override("el"):
        assert engine_message("Pilotta has no solo capot") == "Στο παιχνίδι Πιλόττα δεν υπάρχει σόλο κάπο"
        assert engine_message("card points must lie between 0 and 120") == (
            "οι πόντοι φύλλων πρέπει να είναι από 0 έως 120"
        )
        assert (
            engine_message("a deal has only one four of a kind of Jacks")
            == "μια μοιρασιά έχει μόνο ένα καρέ βαλέδες"
        )
        assert engine_sentence("each team has two players") == "Κάθε ομάδα έχει δύο παίκτες."
        assert (
            engine_message("something the catalogue does not know") == "something the catalogue does not know"
        )
    with translation.override("en"):
        assert engine_message("Pilotta has no solo capot") == "Pilotta has no solo capot"


def _literal_messages(path: Path) -> list[str]:
    """Plain string messages of ``ScoringError("...")`` in a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        name = getattr(node, "func", None) and getattr(node.func, "attr", getattr(node.func, "id", ""))
        first = node.args[0] if isinstance(node, ast.Call) and node.args else None
        if name == "ScoringError" and isinstance(first, ast.Constant) and isinstance(first.value, str):
            found.append(first.value)
    return found


def test_every_engine_and_service_message_is_catalogued_and_translated():
    """A new refusal in the engine must be added to scoring/messages.py (the match file's own
    messages, for the command line and the API import, are not shown on the pages)."""
    root = Path(settings.BASE_DIR) / "scoring"
    modules = [*sorted((root / "engine").rglob("*.py")), root / "services.py"]
    messages = [m for path in modules if path.name != "matchfile.py" for m in _literal_messages(path)]
    assert len(messages) > 40
    for lang in TRANSLATED:
        with translation.override(lang):
            left = [m for m in messages if engine_message(m) == m]
        assert left == [], lang


def test_labels_decided_outside_the_templates_are_catalogued():
    assert {key: rules.name for key, rules in engine.RULESETS.items()} == GAME_NAMES
    choices = (Match.Status, Tournament.Format, Tournament.Status, Entry.Status, Round.Kind, Round.Status)
    labels = {str(label) for model_choices in choices for label in model_choices.labels}
    assert labels <= set(SCORING_LABELS) | set(TOURNAMENT_LABELS)
    assert {metric.name for metric in standings.METRICS.values()} <= set(METRIC_NAMES)
    assert {metric.abbr for metric in standings.METRICS.values()} <= set(METRIC_ABBRS)
    with translation.override("el"):
        for label in labels:
            assert translation.gettext(label) != label, label


# The catalogues: complete, and their compiled .mo files current --------------------------------


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalogues_are_complete_and_compiled(lang, domain):
    entries = catalogue(lang, domain)
    assert entries
    empty = [e["msgid"] for e in entries if e["fuzzy"] or not all(e["msgstr"].values())]
    assert empty == [], f"{lang}/{domain}: untranslated or fuzzy"
    mo = LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo"
    with mo.open("rb") as handle:
        compiled = gnu_gettext.GNUTranslations(handle)
    stale = f"{mo} is older than its .po: run compilemessages"
    for entry in entries:
        msgid = entry["msgid"] if "msgctxt" not in entry else f"{entry['msgctxt']}\x04{entry['msgid']}"
        if entry.get("msgid_plural"):
            for n, text in entry["msgstr"].items():
                assert compiled._catalog.get((msgid, n)) == text, stale
        else:
            assert compiled._catalog.get(msgid) == entry["msgstr"][0], stale


@pytest.mark.parametrize(
    ("lang", "words"),
    [("el", ["Θέση %(n)s", "περιμένει τη σύνδεση"]), ("fr", ["Place %(n)s", "attend la connexion"]),
     ("bg", ["Място %(n)s", "чака връзката"])],
)  # fmt: skip
def test_the_tablet_script_reads_its_words_from_the_catalogue(client, lang, words):
    script = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE=lang)
    assert script.status_code == 200
    body = script.content.decode()
    for word in words:
        assert word.encode("unicode_escape").decode() in body or word in body
    page = client.get(reverse("scoring:match_new"), HTTP_ACCEPT_LANGUAGE=lang).text
    assert page.index(reverse("javascript-catalog")) < page.index("scoring/tablet.js")
    assert page.index(reverse("javascript-catalog")) < page.index("scoring/offline.js")
    scripts = Path(settings.BASE_DIR) / "static" / "scoring"
    pickers, offline = ((scripts / name).read_text(encoding="utf-8") for name in ("pickers.js", "offline.js"))
    assert 'gettext("Seat %(n)s")' in pickers and "deals are waiting for the connection" in offline
    assert "window.tsoxaI18n = " in (scripts / "tablet.js").read_text(encoding="utf-8")  # pickers.js's words


def test_the_script_catalogue_carries_our_words_and_not_the_formats_no_script_reads(client):
    answer = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="el")
    body = answer.content.decode()
    assert answer.status_code == 200 and "django.catalog" in body
    assert "DATE_INPUT_FORMATS" not in body and "DECIMAL_SEPARATOR" not in body  # ~0.8 kB a page
    assert '"offline":"εκτός σύνδεσης"' in body  # as it is: escaped, a Greek word weighs three times as much
    scripts = (Path(settings.BASE_DIR) / "static").rglob("*.js")
    readers = [s.name for s in scripts if "pyodide" not in s.parts and "get_format" in s.read_text()]
    assert readers == []  # were one to read a format, the catalogue would have to carry them again
