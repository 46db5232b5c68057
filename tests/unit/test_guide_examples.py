"""The worked examples of the game guides (docs/games/*.md), scored by the engine.

Next to each worked example a page carries an HTML comment (invisible in the built site) that says
the same deal in the match file's shape and what the engine must give for it::

    <!-- example: {"id": "mesa", "ruleset": "mpourloto", "deal": {"maker": 0, "card_points": [70, 82],
         "last_trick": 1, "melds": [["seq4"], ["seq3", "mpourloto"]]}, "scores": [0, 252], "result": "mesa",
         "points": [120, 132]} -->

- ``id`` (required, unique on its page) names the example in a failing test: ``mpourloto.md:mesa``.
- ``ruleset``, ``options`` (the match's options) and ``held`` (points hanging before the deal) are
  ``score_deal``'s arguments; ``deal`` is a deal as FORMAT.md spells it (``Deal.from_dict``).
- What the deal must give: ``scores`` (required), and where the page says them ``result``, ``points``
  (each team's points at the table), ``raw`` (before rounding) and ``held_after`` (points left hanging).
- An example of several deals has ``deals`` instead of ``deal``: a list of ``{"deal": {...}, "scores":
  ..., ...}`` in playing order, replayed as one match (``replay``), each row checked as above; then
  ``totals``, ``status`` and ``winner`` check the sheet after the last deal.
- ``null`` for one team in a pair: the page does not say that number, and it is not checked.

The example's text is what follows its comment, down to the next heading or example comment;
comments one after another share the text that follows the last of them. ``row`` narrows the text to
the table row whose first cell it names (a table holding one example a row); ``see`` (a list of ids)
adds the text of the examples this one refers to ("In the *Inside* example above, …"). Every number
the comment expects must be written in that text, and every result the text writes (a number in
bold, "+252", a table's *takers* and *defence* cells) must be one the comment expects, so the
visible numbers and the machine-readable ones cannot drift apart. And every example on a page has a
comment: every paragraph opening with a bold title (the pages' way of starting an example), every
section whose heading says "example" and every table row in such a section.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import Deal, replay, score_deal

GAMES = Path(__file__).resolve().parents[2] / "docs" / "games"
RULESETS = {  # each guide and the engine's rule set it describes
    "mpourloto": "mpourloto",
    "pilotta": "pilotta",
    "bulgarian": "bulgarian",
    "french-belote": "french",
    "belote-classic": "classic",
    "coinche": "coinche",
}

COMMENT = re.compile(r"<!--\s*example:(.*?)-->", re.DOTALL)
HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
BOLD_TITLE = re.compile(r"^\*\*[^*]+\*\*")
# A number as the pages write it: 1,240 and 1240 alike, −10 (a minus sign right before the digits) a
# negative one, but not the 1 of E1 or seq3, nor the sign of "152 − 90" or of a range "80-160".
NUMBER = re.compile(r"(?<!\w)(?:([−-])(?=\d))?(\d{1,3}(?:,\d{3})+(?!\d)|\d+)")
RESULT = re.compile(r"\*\*(.+?)\*\*|(?<!\w)(\+\d[\d,]*)")  # how a page writes a result: **252**, +252

PAIRS = ("scores", "points", "raw", "totals")  # two numbers, one a team
NUMBERS = ("held_after",)
DEAL_KEYS = {"deal", "scores", "result", "points", "raw", "held_after"}
EXAMPLE_KEYS = {"id", "ruleset", "options", "held", "row", "see", "deals", "first_dealer", "totals", "status"}
EXAMPLE_KEYS |= DEAL_KEYS | {"winner"}


@dataclass
class Example:
    page: str
    line: int  # of its comment, from 1
    data: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    region: tuple[int, int] = (0, 0)  # the lines of its text, [start, end) from 0
    text: str = ""
    header: list[str] = field(default_factory=list)  # the header of its table row's table

    @property
    def name(self) -> str:
        return f"{self.page}.md:{self.data.get('id', f'line {self.line}')}"


def _read(page: str) -> list[str]:
    return (GAMES / f"{page}.md").read_text(encoding="utf-8").splitlines()


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _first_cell(line: str) -> str | None:
    return _cells(line)[0] if line.lstrip().startswith("|") else None


def _examples(page: str) -> list[Example]:
    """Every example comment of a page, with the lines of its text and the text itself."""
    lines = _read(page)
    source = "\n".join(lines)
    found: list[tuple[int, int, Example]] = []  # first line, line after its comment, the example
    for match in COMMENT.finditer(source):
        first = source.count("\n", 0, match.start())
        after = source.count("\n", 0, match.end()) + 1
        example = Example(page, first + 1)
        try:
            data = json.loads(match.group(1))
        except ValueError as error:
            data = error
        if isinstance(data, dict):
            example.data = data
        else:
            example.error = f"the comment is not a JSON object: {data}"
        found.append((first, after, example))
    starts = [first for first, _, _ in found]
    for _first, after, example in found:
        start = after
        while start < len(lines) and (not lines[start].strip() or start in starts):  # the group's text
            start = next((a for f, a, _ in found if f == start), start + 1)
        end = start
        while end < len(lines) and end not in starts and not HEADING.match(lines[end]):
            end += 1
        example.region = (start, end)
        row = example.data.get("row")
        if row is None:
            example.text = "\n".join(lines[start:end])
        else:
            rows = [i for i in range(start, end) if _first_cell(lines[i]) == str(row)]
            if len(rows) != 1 and not example.error:
                example.error = f"{len(rows)} table rows whose first cell is {row!r} in its text (need 1)"
            example.text = "\n".join(lines[i] for i in rows)
            top = rows[0] if rows else start
            while top > start and _first_cell(lines[top - 1]) is not None:
                top -= 1
            example.header = [cell.lower() for cell in _cells(lines[top])]
    return [example for _, _, example in found]


def _all_examples() -> list[Example]:
    pages = sorted(path.stem for path in GAMES.glob("*.md"))
    return [example for page in pages for example in _examples(page)]


EXAMPLES = _all_examples()


def _params() -> list[Any]:
    return [pytest.param(example, id=example.name) for example in EXAMPLES]


def _deals(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The deals of an example with what each must give: itself, or each of its ``deals``."""
    return data.get("deals", [data])


def _well_formed(example: Example) -> None:
    assert not example.error, f"{example.name} (line {example.line}): {example.error}"
    data = example.data
    unknown = set(data) - EXAMPLE_KEYS
    assert not unknown, f"{example.name}: unknown keys {sorted(unknown)}"
    assert isinstance(data.get("id"), str) and data["id"], f"{example.name}: needs an id"
    ruleset = RULESETS.get(example.page)
    assert data.get("ruleset") == ruleset, f"{example.name}: the ruleset of {example.page}.md is {ruleset!r}"
    assert isinstance(data.get("see", []), list), f"{example.name}: see is a list of ids"
    assert ("deal" in data) != ("deals" in data), f"{example.name}: needs a deal or deals (not both)"
    rows = _deals(data)
    assert rows, f"{example.name}: deals is empty"
    for row in rows:
        assert "scores" in row, f"{example.name}: every deal needs its scores"
        if row is not data:
            assert set(row) <= DEAL_KEYS, f"{example.name}: unknown keys {sorted(set(row) - DEAL_KEYS)}"


def _said(expected: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any]:
    """The engine's values for the keys ``expected`` names, a team left out where it is null."""
    out: dict[str, Any] = {}
    for key, value in expected.items():
        if key not in actual:
            continue
        got = actual[key]
        if key in PAIRS and isinstance(value, list) and got is not None:
            out[key] = [None if want is None else have for want, have in zip(value, got, strict=True)]
        else:
            out[key] = got
    return out


def _score_keys(score: Any) -> dict[str, Any]:
    return {
        "scores": list(score.scores),
        "result": str(score.result),
        "points": list(score.points),
        "raw": None if score.raw is None else list(score.raw),
        "held_after": score.held,
    }


def _expected(data: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key in keys and key != "deal"}


@pytest.mark.parametrize("example", _params())
def test_the_engine_scores_the_example_as_the_page_says(example: Example) -> None:
    _well_formed(example)
    data = example.data
    options = data.get("options")
    if "deal" in data:
        score = score_deal(data["ruleset"], Deal.from_dict(data["deal"]), options, data.get("held", 0))
        want = _expected(data, DEAL_KEYS)
        assert _said(want, _score_keys(score)) == want, example.name
        return
    sheet = replay(
        data["ruleset"],
        [Deal.from_dict(row["deal"]) for row in data["deals"]],
        options=options,
        first_dealer=data.get("first_dealer", 0),
    )
    for number, (row, played) in enumerate(zip(data["deals"], sheet.rows, strict=True), start=1):
        want = _expected(row, DEAL_KEYS)
        assert _said(want, _score_keys(played)) == want, f"{example.name}, deal {number}"
    want = _expected(data, {"totals", "status", "winner"})
    sheet_keys = {"totals": list(sheet.totals), "status": str(sheet.status), "winner": sheet.winner}
    assert _said(want, sheet_keys) == want, f"{example.name}, after the last deal"


def _numbers_in(text: str) -> set[int]:
    return {(-1 if sign else 1) * int(digits.replace(",", "")) for sign, digits in NUMBER.findall(text)}


def _expected_numbers(data: dict[str, Any]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for number, row in enumerate(_deals(data), start=1):
        where = f"deal {number} " if "deals" in data else ""
        for key in PAIRS:
            out += [(f"{where}{key}", value) for value in row.get(key) or () if value is not None]
        out += [(f"{where}{key}", row[key]) for key in NUMBERS if key in row]
    if "deals" in data:
        out += [("totals", value) for value in data.get("totals") or () if value is not None]
    return out


@pytest.mark.parametrize("example", _params())
def test_the_page_writes_the_numbers_of_its_comment(example: Example) -> None:
    _well_formed(example)
    by_id = {other.data.get("id"): other for other in EXAMPLES if other.page == example.page}
    text = example.text
    for ref in example.data.get("see", []):
        assert ref in by_id and ref != example.data["id"], f"{example.name}: see {ref!r}: no such example"
        text += "\n" + by_id[ref].text
    assert text.strip(), f"{example.name}: no text follows the comment"
    written = _numbers_in(text)
    missing = [f"{key} {value}" for key, value in _expected_numbers(example.data) if value not in written]
    assert not missing, f"{example.name}: the comment expects {missing}, not written in its text:\n{text}"


def _number(text: str) -> int | None:
    match = NUMBER.fullmatch(text)
    return None if match is None else _numbers_in(text).pop()


@pytest.mark.parametrize("example", _params())
def test_the_page_writes_no_other_result_than_its_comment(example: Example) -> None:
    """The other way round: a number the text writes as a result (in bold, or "+252") is one its
    comment expects, and in a table with *takers* and *defence* columns the row's two cells are the
    takers' and the defence's scores; so changing a result on the page, even one written twice, fails."""
    _well_formed(example)
    data = example.data
    if "row" in data and {"takers", "defence"} <= set(example.header) and "deal" in data:
        cells = _cells(example.text)
        maker = data["deal"]["maker"]
        written = [_number(cells[example.header.index(column)]) for column in ("takers", "defence")]
        expected = [data["scores"][maker], data["scores"][1 - maker]]
        assert written == expected, f"{example.name}: the row writes takers, defence {written}"
    sharing = [  # the examples whose comments stand together before the same text
        other
        for other in EXAMPLES
        if (other.page, other.region, other.data.get("row"))
        == (example.page, example.region, data.get("row"))
    ]
    expected_numbers = {value for other in sharing for _, value in _expected_numbers(other.data)}
    body = BOLD_TITLE.sub("", example.text.lstrip(), count=1)  # not the title: "**The rule of 6.**"
    results = {number for spans in RESULT.findall(body) for span in spans for number in _numbers_in(span)}
    assert results <= expected_numbers, (
        f"{example.name}: its text writes {sorted(results - expected_numbers)} as a result, "
        "which no comment expects"
    )


def test_every_page_names_its_examples_once() -> None:
    for page in {example.page for example in EXAMPLES}:
        ids = [example.data.get("id") for example in EXAMPLES if example.page == page]
        assert len(ids) == len(set(ids)), f"{page}.md: an id used twice in {ids}"


@pytest.mark.parametrize("page", RULESETS)
def test_the_page_has_worked_examples(page: str) -> None:
    assert any(example.page == page for example in EXAMPLES), f"{page}.md has no example comment"


def _sections(lines: list[str]) -> list[tuple[str, int, int, int]]:
    """Each section whose heading says "example": its title, its heading's line, the end of its own
    text (the next heading) and the end of the section (subsections included)."""
    headings = [(i, len(m[1]), m[2]) for i, line in enumerate(lines) if (m := HEADING.match(line))]
    out = []
    for number, (at, level, title) in enumerate(headings):
        if "example" in title.lower():
            own = headings[number + 1][0] if number + 1 < len(headings) else len(lines)
            end = next((i for i, deeper, _ in headings[number + 1 :] if deeper <= level), len(lines))
            out.append((title, at, own, end))
    return out


@pytest.mark.parametrize("page", sorted(path.stem for path in GAMES.glob("*.md")))
def test_every_worked_example_carries_a_comment(page: str) -> None:
    lines = _read(page)
    examples = [example for example in EXAMPLES if example.page == page]
    covered = {i for example in examples for i in range(*example.region)}
    whole = {i for example in examples if "row" not in example.data for i in range(*example.region)}
    rows = {(str(e.data["row"]), i) for e in examples if "row" in e.data for i in range(*e.region)}
    for title, start, own, end in _sections(lines):
        if any(line.strip() for line in lines[start + 1 : own]):  # not a heading over subsections only
            assert any(start < example.line - 1 < own for example in examples), (
                f"{page}.md, {title!r}: a worked-example section without an example comment"
            )
        table = [i for i in range(start, end) if _first_cell(lines[i]) is not None]
        body = [i for i in table if i - 1 in table and i - 2 in table]  # below the header and its ---
        for i in body:  # a table of one example a row, or a table inside one example's text
            assert (_first_cell(lines[i]), i) in rows or i in whole, (
                f"{page}.md line {i + 1}: a worked example's table row without a comment naming its row"
            )
    for i, line in enumerate(lines):
        opens = i == 0 or not lines[i - 1].strip() or lines[i - 1].rstrip().endswith("-->")
        if opens and BOLD_TITLE.match(line):
            assert i in covered, f"{page}.md line {i + 1}: an example without a comment: {line[:60]!r}"
