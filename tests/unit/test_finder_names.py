"""Find your table: how a typed name meets a name as written (tournaments/personal.py ``spelling``,
``finder_matches``). Latin letters find a name written in Greek or Bulgarian Cyrillic and back;
accents and case never matter; a query word finds a name by the start of one of its words."""

import pytest

from tournaments.personal import HALF_TYPED, SPELLINGS, finder_matches, fold, name_keys, spelling

# Ways of writing one name that must come to one spelling: as written, then as typed.
SAME = [
    # Greek, and its Greeklish (every row of SPELLINGS is met at least once)
    ("Παπαδόπουλος", "Papadopoulos", "papadopulos", "PAPADOPOULOS"),
    ("Γιώργος", "Giorgos", "Yorgos", "Yiorgos", "Giwrgos", "Ghiorgos"),
    ("Χρήστος", "Christos", "Hristos", "Khristos"),
    ("Θανάσης", "Thanasis", "8anasis"),
    ("Φίλιππος", "Filippos", "Philippos", "Filipos"),
    ("Δημήτρης", "Dimitris", "Dhimitris", "Dimitrys"),
    ("Αλεξίου", "Alexiou", "Aleksiou"),
    ("Κώστας", "Kostas", "Costas"),
    ("Μπάμπης", "Mpampis", "Bambis", "Babis"),
    ("Ντίνος", "Ntinos", "Dinos"),
    ("Παντελής", "Pantelis", "Pandelis"),
    ("Βαγγέλης", "Vangelis", "Vaggelis"),
    ("Ευάγγελος", "Evangelos", "Evaggelos"),
    ("Ευθύμιος", "Efthymios", "Efthimios"),
    ("Γκίκας", "Gkikas", "Gikas"),
    ("Παναγιώτης", "Panagiotis", "Panayotis", "Panagiwtis"),
    ("Κύμα", "Kyma", "Kima"),
    ("Ειρήνη", "Eirini", "Irini"),
    ("Οικονόμου", "Oikonomou", "Ikonomou"),
    ("Βασίλης", "Vasilis", "Basilis"),
    ("Παππάς", "Pappas", "Papas"),
    ("Ψαράς", "Psaras"),
    ("Ξενοφών", "Xenofon", "Ksenofon", "Xenophon"),
    ("Ωραίος", "Oraios", "Wraios"),
    # Bulgarian, by its official transliteration and the usual alternatives
    ("Иванов", "Ivanov"),
    ("Христо", "Hristo", "Khristo", "Christo"),
    ("Щерев", "Shterev"),
    ("Дъбов", "Dabov"),
    ("Желязков", "Zhelyazkov", "Zheliazkov"),
    ("Цветан", "Tsvetan"),
    ("Юлия", "Yulia", "Yuliya"),
    ("Николай", "Nikolay", "Nikolai"),
    # French accents and letters
    ("Hélène", "Helene", "HÉLÈNE"),
    ("Zoé Ïsaac", "Zoe Isaac"),
    ("Œuvre", "Oeuvre"),
    ("François", "Francois"),
]


@pytest.mark.parametrize("ways", SAME, ids=[ways[1] for ways in SAME])
def test_the_ways_of_writing_a_name_come_to_one_spelling(ways):
    spelt = {" ".join(spelling(w) for w in fold(way).split()) for way in ways}
    assert len(spelt) == 1, spelt


def test_every_merged_spelling_has_its_example():
    """Each row of the table says what it merges (its comment), and SAME holds that example."""
    typed = {fold(way) for ways in SAME for way in ways}
    examples = {
        r"(?<=[a-z])8|8(?=[a-z])": "8anasis",
        r"[ck]h": "khristos",
        r"ph": "philippos",
        r"dh": "dhimitris",
        r"gh": "ghiorgos",
        r"ks": "aleksiou",
        r"c": "costas",
        r"m[pb]": "mpampis",
        r"n[td]": "pandelis",
        r"gg": "vaggelis",
        r"gk": "gkikas",
        r"ou": "papadopoulos",
        r"w": "giwrgos",
        r"(?:^|(?<=[aeo]))y(?=[aeiou])": "panayotis",
        r"y": "kyma",
        r"[eo]i": "eirini",
        r"b": "basilis",
        r"(.)\1": "pappas",
    }
    assert [pattern for pattern, _ in SPELLINGS] == list(examples)
    assert set(examples.values()) <= typed


# (name as written, query as typed): found
FOUND = [
    ("Παπαδόπουλος", "Papadopoulos"),
    ("Παπαδόπουλος", "papad"),
    ("Γιώργος Παπαδόπουλος", "giorgos papad"),
    ("Γιώργος Παπαδόπουλος", "papad yorgos"),  # any order
    ("Γιώργος", "Yorgos"),
    ("Γιώργος", "Giorgos"),
    ("Χρήστος", "Xristos"),  # x for χ as well as for ξ
    ("Αλεξίου", "Alexiou"),
    ("Иван Иванов", "Ivanov"),
    ("Иван Иванов", "ivan iv"),
    ("Христо Стоичков", "hristo stoi"),
    # the other way round: Greek or Cyrillic typed, the name written in Latin letters
    ("Nikos Papas", "Νίκος Παππάς"),
    ("Xristos", "Χρήστος"),
    ("Papadopoulos", "Παπαδ"),
    ("Ivanov", "Иванов"),
    # accents and case, as before
    ("Hélène Dupré", "helene"),
    ("Hélène Dupré", "DUPRE"),
    ("Νίκος ΠΑΠΠΆΣ", "νικος παππας"),
    ("Ζέφυρος", "ΖΕΦ"),
    # the start of a word, or of words run together
    ("Jean-Pierre O'Brien", "pierre"),
    ("Jean-Pierre O'Brien", "jeanpierre"),
    ("Jean-Pierre O'Brien", "obrien"),
    ("Νίκος Παππάς 2", "νικος 2"),
]


@pytest.mark.parametrize(("name", "query"), FOUND)
def test_a_query_finds_the_name(name, query):
    assert finder_matches(name, query)


NOT_FOUND = [
    ("Παπαδόπουλος", "Papadimitriou"),
    ("Иван Иванов", "Petrov"),
    ("Hélène Dupré", "helena"),
    ("Γιώργος Παπαδόπουλος", "giorgos petrou"),  # every word must be found
    ("Papadopoulos", "opoulos"),  # the start of a word, not its middle
    ("Παπαδόπουλος", "opoulos"),
    ("Zoé", "zzz"),
    ("Paul Renard", "pap"),
    ("Anything", ""),
    ("Anything", " - "),
]


@pytest.mark.parametrize(("name", "query"), NOT_FOUND)
def test_a_query_does_not_find_another_name(name, query):
    assert not finder_matches(name, query)


@pytest.mark.parametrize(
    ("name", "typed"),
    [
        ("Παπαδόπουλος", "Papadopoulos"),
        ("Μπάμπης", "Mpampis"),
        ("Βαγγέλης", "Vaggelis"),
        ("Χρήστος", "Christos"),
        ("Ντίνος", "Ntinos"),
        ("Οικονόμου", "Oikonomou"),
        ("Αλεξίου", "Aleksiou"),
        ("Παναγιώτης", "Panayotis"),
        ("Ειρήνη", "Eirini"),
        ("Papadopoulos", "Παπαδόπουλος"),
        ("Христо", "Khristo"),
    ],
)
def test_the_name_stays_found_letter_by_letter(name, typed):
    """As one types (the page asks at each pause), a spelling half typed does not lose the name:
    "Papadopo" is on its way to "Papadopou"."""
    lost = [typed[:n] for n in range(2, len(typed) + 1) if not finder_matches(name, typed[:n])]
    assert lost == []


def test_each_half_typed_ending_is_needed():
    """The letter alone would not begin the spelling it starts (so the finished one is tried too)."""
    for letter, endings in HALF_TYPED.items():
        for ending in endings:
            assert ending.startswith(letter)
            assert not spelling("a" + ending).startswith(spelling("a" + letter)), ending


def test_a_names_keys_begin_at_each_word_in_each_form():
    keys = name_keys("Γιώργος Παππάς")
    assert {"γιωργοσπαππασ", "παππασ", "giorgospappas", "pappas", "giorgospapas", "papas"} <= keys
    assert not any(k.startswith("iorgos") or k.startswith("appas") for k in keys)
