"""The match sheet stays within the page budget in every variant and every language (en, el, fr, bg):
at most 100 kB of CSS and JavaScript, htmx aside, uncompressed, what the page holds inline
included, as a first visit loads it (the measure of tests/functional/test_design_browser.py).

The variants: the scorekeeper's sheet (tablet) and the follower's (a phone, read-only), of Mpourloto
and of Coinche; a timed tournament round's table sheet, whose tournament asks for the other team's
check, at its table's tablet and followed on a phone; a deal's correction page; a team's personal
page with its live score. Greek and Bulgarian weigh the most (the scripts' words come escaped).

The follower's sheet loads none of the scorekeeper's files: the pad's style and script (pad.css,
pad.js), the pickers of a new match (pickers.js), the tablet's engine (engine-loader.js).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser

from scoring import services as scoring
from scoring.models import Deal
from tests.functional.test_design_browser import MOST_BYTES, weight
from tournaments import personal, services
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "has_touch": True,
    "is_mobile": True,
}
TABLET = {"viewport": {"width": 1280, "height": 800}}
WIN_0 = {"maker": 0, "card_points": [90, 62], "last_trick": 0}
BID_80 = {"suit": "hearts", "bid": 80, "multiplier": 1}
COINCHE = {"maker": 0, "contract": BID_80, "card_points": [100, 52], "last_trick": 0}
KEEPERS_ONLY = ("scoring/pad.css", "scoring/pad.js", "scoring/pickers.js", "scoring/engine-loader.js")


@pytest.fixture
def variants() -> dict[str, tuple[str | None, dict, str]]:
    """Each variant: who opens it (a username; None: nobody signed in), on what, and its path."""
    users = get_user_model().objects
    keeper = users.create_user(username="keeper", password="pw-keeper-12345")
    organizer = users.create_user(username="org", password="pw-org-12345")
    teams = [("Ομάδα Παλαιοπαντοπωλείου", ("Παναγιώτης", "Αικατερίνη")), ("Οι Άσσοι", ("Νίκος", "Μαρία"))]
    mpourloto = scoring.match_create(teams=teams, created_by=keeper)
    coinche = scoring.match_create(teams=teams, ruleset="coinche", created_by=keeper)
    for _ in range(3):
        scoring.deal_record(match=mpourloto, deal=WIN_0, user=keeper)
        scoring.deal_record(match=coinche, deal=COINCHE, user=keeper)

    evening = services.tournament_create(
        organizer=organizer, name="Κονκούρ", format="concours", swiss_rounds=3, time_limit=40, deal_check=True
    )
    for i in range(4):
        players = [f"Παίκτης {i}", f"Παίκτρια {i}"]
        services.entry_register(tournament=evening, name=f"Ομάδα {i}", players=players)
    evening = services.tournament_start(tournament=evening, user=organizer)
    drawn = services.round_generate(tournament=evening, user=organizer)
    rnd = services.round_start(rnd=drawn, user=organizer)
    services.round_clock(rnd=rnd, action="start", user=organizer)
    table = rnd.tables.filter(match__isnull=False).order_by("number").first()
    scoring.deal_record(match=table.match, deal=WIN_0, user=organizer)
    entry = Entry.objects.get(pk=table.entry0_id)  # a team at that table
    deal = Deal.objects.filter(match=mpourloto).order_by("position").first()
    return {
        "keeper's sheet": ("keeper", TABLET, f"/matches/{mpourloto.pk}/"),
        "follower's sheet": (None, PHONE, f"/matches/{mpourloto.pk}/"),
        "Coinche keeper's sheet": ("keeper", TABLET, f"/matches/{coinche.pk}/"),
        "Coinche follower's sheet": (None, PHONE, f"/matches/{coinche.pk}/"),
        "timed table's tablet": (None, TABLET, f"/s/{table.token}/"),
        "timed table followed": (None, PHONE, f"/matches/{table.match_id}/"),
        "deal correction": ("keeper", TABLET, f"/matches/{mpourloto.pk}/deals/{deal.pk}/"),
        "personal page": (None, PHONE, personal.personal_url(None, entry)),
    }


def files(loaded: dict[str, int]) -> set[str]:
    return {url.split("/static/").pop() for url in loaded}


@pytest.mark.parametrize("lang", ["en", "el", "fr", "bg"])
def test_every_sheet_variant_stays_within_the_page_budget(browser: Browser, live_server, variants, lang):
    heavy, weighed = {}, {}
    for name, (username, device, path) in variants.items():
        loaded = weight(browser, live_server.url, path, lang, username, **device)
        names = files(loaded)
        weighed[name] = sum(loaded.values())
        assert {"scoring/tsoxa.css", "scoring/tablet.js", "scoring/offline.js"} <= names, name  # measured
        if name == "personal page":
            assert "scoring/sheet.css" not in names  # it shows the live score, not the sheet
        elif "follow" in name:
            assert "scoring/sheet.css" in names and "scoring/phone.css" in names, name
            assert not names & set(KEEPERS_ONLY), (name, names & set(KEEPERS_ONLY))
        else:
            assert {"scoring/sheet.css", "scoring/pad.css", "scoring/pad.js"} <= names, name  # the pad
        if "table" in name:
            assert {"tournaments/table.css", "scoring/check.css"} <= names, name
        if weighed[name] > MOST_BYTES:
            heavy[name] = loaded
    assert heavy == {}, weighed
    # The follower's sheet is the lighter: the pad is the scorekeeper's only.
    assert weighed["follower's sheet"] < weighed["keeper's sheet"] - 20_000, weighed
