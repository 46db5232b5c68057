"""CSV that a spreadsheet opens as data: text that would start a formula is neutralised.

A cell that begins with =, +, -, @, a tab or a carriage return is run as a formula by Excel,
LibreOffice and Google Sheets (OWASP, "CSV injection"): a team named =HYPERLINK(…) could lead an
organizer opening the standings to a site of its choosing. Such text is written with a leading
single quote, which spreadsheets show as text. Numbers are written as they are: -20 stays -20.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer's writerow, with every text cell passed through safe_cell."""

    def __init__(self, out, **options) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([safe_cell(value) for value in row])


def writer(out, **options) -> SafeWriter:
    return SafeWriter(out, **options)
