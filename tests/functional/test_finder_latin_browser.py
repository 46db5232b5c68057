"""Find your table on a phone (390×844) with an English keyboard: a player of a Greek café types
"Papadopoulos" letter by letter and sees the Greek team's table as the name is typed, nothing
scrolling sideways; a name nobody has says so."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tournaments import services
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="organizer", password="pw-organizer-123")


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    context.set_default_timeout(10_000)
    js_errors: list[str] = []
    context.on("page", lambda tab: tab.on("pageerror", lambda error: js_errors.append(str(error))))
    try:
        yield context
    finally:
        context.close()
    assert not js_errors, f"JavaScript errors on the phone: {js_errors}"


def test_latin_letters_find_the_greek_teams_table_as_one_types(phone, live_server, organizer):
    t = services.tournament_create(organizer=organizer, name="Παρασκευή στο καφενείο", swiss_rounds=3)
    teams = [
        ("Κύμα", ["Γιώργος Παπαδόπουλος", "Ελένη Οικονόμου"]),
        ("Limani", ["Nikos Papas", "Hélène Dupré"]),
        ("Ζέφυρος", ["Χρήστος Αλεξίου", "Μαρία Σταύρου"]),
        ("Балкан", ["Иван Иванов", "Христо Стоичков"]),
    ]
    for name, players in teams:
        services.entry_register(tournament=t, name=name, players=players)
    t = services.tournament_start(tournament=t)
    rnd = services.round_generate(tournament=t)
    kyma = Entry.objects.get(team__name="Κύμα")
    table = next(x for x in rnd.tables.all() if kyma.pk in (x.entry0_id, x.entry1_id))

    tab = phone.new_page()
    tab.goto(f"{live_server.url}/tournaments/{t.slug}/find/")
    box = tab.get_by_test_id("finder-q")
    results = tab.get_by_test_id("finder-results")
    box.press_sequentially("papad", delay=40)
    expect(results).to_contain_text("Γιώργος Παπαδόπουλος")
    box.press_sequentially("opoulos", delay=40)  # "Papadopo…": half of ου typed, still there
    expect(results.locator(".fy-row")).to_have_count(1)
    expect(results).to_contain_text("Γιώργος Παπαδόπουλος — Κύμα")
    expect(results.locator(".fy-table")).to_have_text(f"table {table.number}")
    assert tab.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")

    box.fill("")
    box.press_sequentially("Ivanov", delay=40)
    expect(results).to_contain_text("Иван Иванов — Балкан")

    box.fill("")
    box.press_sequentially("Papadimitriou", delay=40)
    expect(tab.get_by_test_id("finder-none")).to_be_visible()
