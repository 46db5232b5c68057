"""A match's printable sheet, printed to PDF by headless Chromium (A4, as a club prints it)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from tests.factories import TEAMS, made

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
A4_POINTS = (595, 842)  # 210 × 297 mm in PDF points, to the point


def pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's size, from its /MediaBox (Chromium writes the page objects uncompressed)."""
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf)
    return [(float(w), float(h)) for w, h in boxes]


@pytest.fixture
def finished_match(db):
    """Kafeneio A – Kafeneio B over four played deals: A makes 100–62; A's mesa, B +162; B makes
    100–62; B makes 110–52. 214–434: B wins."""
    match = services.match_create(teams=TEAMS, options={"deals": 4})
    deals = [made(0, (90, 62), 0), made(0, (60, 92), 1), made(1, (62, 90), 1), made(1, (52, 100), 1)]
    for deal in deals:
        services.deal_record(match=match, deal=deal)
    match.refresh_from_db()
    assert (match.status, match.winner, match.totals) == ("finished", 1, [214, 434])
    return match


def print_to_pdf(page: Page, url: str) -> bytes:
    page.goto(url)
    expect(page.get_by_test_id("print-row")).to_have_count(4)
    expect(page.get_by_test_id("print-result")).to_contain_text("Winner: Kafeneio B, 434–214.")
    expect(page.locator(".print-chart svg polyline")).to_have_count(2)
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Print")).to_be_hidden()  # no button on paper
    return page.pdf(prefer_css_page_size=True)  # the sheet's own @page: A4, 12 mm margins


def test_the_match_sheet_prints_to_an_a4_pdf(page: Page, live_server, finished_match) -> None:
    pdf = print_to_pdf(page, f"{live_server.url}/matches/{finished_match.pk}/print/")
    assert pdf.startswith(b"%PDF-")
    sizes = pdf_pages(pdf)
    assert len(sizes) >= 1
    assert all((round(w), round(h)) == A4_POINTS for w, h in sizes)


def test_the_printed_sheet_reads_as_on_screen(page: Page, live_server, finished_match, tmp_path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed: the PDF's text is not checked")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(print_to_pdf(page, f"{live_server.url}/matches/{finished_match.pk}/print/"))
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    assert "Kafeneio A" in text and "Kafeneio B" in text
    assert "434" in text and "name and signature" in text
    assert "Back to the sheet" not in text  # the screen-only tools are not on paper


def test_a_greek_scorekeeper_switches_language_and_prints_the_sheet(
    page: Page, live_server, finished_match, tmp_path
) -> None:
    """The issue's browser test: switch the language on the page, then print to PDF, in Greek."""
    page.goto(f"{live_server.url}/matches/{finished_match.pk}/")
    page.get_by_test_id("language-switcher").get_by_role("button", name="Ελληνικά").click()
    expect(page.locator("html")).to_have_attribute("lang", "el")
    page.goto(f"{live_server.url}/matches/{finished_match.pk}/print/")
    expect(page.get_by_test_id("print-result")).to_contain_text("Kafeneio B")
    expect(page.get_by_test_id("print-result")).not_to_contain_text("Winner")
    page.emulate_media(media="print")
    pdf = page.pdf(prefer_css_page_size=True)
    assert pdf.startswith(b"%PDF-") and pdf_pages(pdf)
    if shutil.which("pdftotext"):
        path = tmp_path / "sheet.pdf"
        path.write_bytes(pdf)
        text = subprocess.run(
            ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert "Νικητής" in text and "434" in text
