"""The printable pages: a match's score sheet and a round's pairings and standings (A4, black and white)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.urls import reverse

from scoring import services as scoring
from tests.factories import TEAMS, made
from tournaments import services
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def print_css() -> str:
    return Path(finders.find("scoring/print.css")).read_text(encoding="utf-8")


# A match ------------------------------------------------------------------------------------------


@pytest.fixture
def finished(db):
    """Kafeneio A – Kafeneio B over two played deals: all pass; A makes 100–62; A's mesa, B +162."""
    match = scoring.match_create(teams=TEAMS, options={"deals": 2}, first_dealer=0)
    for deal in ({"thrown_in": True}, made(0, (90, 62), 0), made(0, (60, 92), 1)):
        scoring.deal_record(match=match, deal=deal)
    match.refresh_from_db()
    return match


def test_print_sheet_has_every_deal_the_totals_and_the_winner(client, finished):
    page = client.get(reverse("scoring:match_print", args=[finished.pk]))  # anyone may follow a match
    assert page.status_code == 200
    text = page.text
    assert text.count('data-testid="print-row"') == 3
    assert "all passed" in text  # the thrown-in deal is on the sheet too
    assert re.search(r'data-testid="print-total-0">100<', text)
    assert re.search(r'data-testid="print-total-1">224<', text)
    assert "Winner: Kafeneio B, 224–100." in text
    assert "Mpourloto to 1000 or 2 deals" in text  # the rules line
    assert "Nikos &amp; Eleni" in text and "Giorgos &amp; Maria" in text


def test_print_sheet_has_the_chart_and_signature_lines(client, finished):
    text = client.get(reverse("scoring:match_print", args=[finished.pk])).text
    chart = text[text.index('data-testid="print-chart"') :]
    assert chart.count("<polyline") == 2
    assert 'stroke-dasharray="10 6"' in chart  # the second team dashed
    assert 'class="target"' not in chart  # a match of a fixed number of deals has no target line
    assert text.count('class="signature-line"') == 2
    assert "For Kafeneio A: name and signature" in text and "For Kafeneio B: name and signature" in text


def test_print_sheet_is_a_page_of_its_own_for_a4(client, finished):
    text = client.get(reverse("scoring:match_print", args=[finished.pk])).text
    assert "scoring/print.css" in text and "scoring/tsoxa.css" not in text
    assert 'class="topbar"' not in text
    # The only button (print) is in the part that is not printed.
    assert text.count("<button") == 1
    assert re.search(r'<nav class="print-tools no-print"[^>]*>.*?<button.*?</nav>', text, re.S)
    css = print_css()
    assert re.search(r"@page\s*{\s*size:\s*A4;\s*margin:\s*12mm;\s*}", css)
    assert re.search(r"@media print\s*{.*\.no-print\s*{\s*display:\s*none", css, re.S)


def test_print_sheet_of_a_match_under_way(client, match):
    scoring.deal_record(match=match, deal=made(0))
    text = client.get(reverse("scoring:match_print", args=[match.pk])).text
    assert "In progress: the match is not over." in text
    assert "<svg" not in text  # one deal: no chart yet
    assert "Mpourloto to 1000" in text


def test_print_sheet_of_an_unknown_match_is_404(client, db):
    assert client.get(reverse("scoring:match_print", args=[999])).status_code == 404


def test_the_sheet_links_to_its_print(client, match):
    sheet = client.get(reverse("scoring:match", args=[match.pk])).text
    assert reverse("scoring:match_print", args=[match.pk]) in sheet


# A round ------------------------------------------------------------------------------------------


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user(username="org", password="pw-org-12345")


@pytest.fixture
def played_round(organizer, django_capture_on_commit_callbacks):
    """Five teams, one deal a match: round 1 drawn and started (two tables and a bye), table 1 played."""
    cache.clear()  # the standings are served from the cache; another test's tournament may have had this id
    with django_capture_on_commit_callbacks(execute=True):
        tournament = services.tournament_create(organizer=organizer, name="Club night", deals_per_match=1)
        for i in range(5):
            services.entry_register(tournament=tournament, name=f"Team {i + 1}", players=[f"P{i}a", f"P{i}b"])
        services.tournament_start(tournament=tournament)
        rnd = services.round_generate(tournament=tournament)
        services.round_start(rnd=rnd)
    with django_capture_on_commit_callbacks(execute=True):
        first = rnd.tables.get(number=1)
        scoring.deal_record(match=first.match, deal=made(0, (90, 62), 0))  # 100–62
    return tournament, rnd


def test_round_print_has_the_pairings_by_table(client, played_round):
    tournament, rnd = played_round
    page = client.get(reverse("tournaments:round_print", args=[tournament.slug, rnd.number]))
    assert page.status_code == 200
    text = page.text
    pairings = text[text.index('data-testid="print-pairings"') : text.index("</table>")]
    assert pairings.count('data-testid="print-table-row"') == 3
    for table in rnd.tables.select_related("entry0__team__player_a", "entry1__team"):
        assert f'<td class="table-number">{table.number}</td>' in pairings
        assert table.entry0.team.name in pairings and table.entry0.team.player_a.name in pairings
        if table.entry1:
            assert table.entry1.team.name in pairings
    assert "bye" in pairings
    assert "100–62" in pairings  # the finished table's score


def test_round_print_has_the_standings(client, played_round):
    tournament, rnd = played_round
    text = client.get(reverse("tournaments:round_print", args=[tournament.slug, rnd.number])).text
    standings = text[text.index('data-testid="standings"') :]
    assert standings.count("<tr") == 6  # the head and five teams
    winner = rnd.tables.get(number=1).entry0.team.name
    assert re.search(rf"<td>1</td>\s*<td>(<small [^>]*>\d+</small> )?<a [^>]*>{winner}</a>", standings)


def test_round_print_is_safe_to_pin_up(client, played_round):
    """No scorekeeper secret: those links open a table's sheet for writing."""
    tournament, rnd = played_round
    text = client.get(reverse("tournaments:round_print", args=[tournament.slug, rnd.number])).text
    for token in Table.objects.filter(round=rnd).values_list("token", flat=True):
        assert token not in text
    assert "/s/" not in text
    assert reverse("tournaments:round_links", args=[tournament.slug, rnd.number]) not in text


def test_round_print_of_a_private_tournament_is_hidden(client, played_round):
    tournament, rnd = played_round
    tournament.public = False
    tournament.save()
    url = reverse("tournaments:round_print", args=[tournament.slug, rnd.number])
    assert client.get(url).status_code == 404
    client.force_login(tournament.organizer)
    assert client.get(url).status_code == 200


def test_round_print_of_an_unknown_round_is_404(client, played_round):
    tournament, _ = played_round
    assert client.get(reverse("tournaments:round_print", args=[tournament.slug, 9])).status_code == 404


def test_the_round_page_links_to_its_print(client, played_round):
    tournament, rnd = played_round
    text = client.get(reverse("tournaments:round", args=[tournament.slug, rnd.number])).text
    assert reverse("tournaments:round_print", args=[tournament.slug, rnd.number]) in text
