"""Nothing moves under the finger: a tap on the pad never moves another control.

On the sheet of every rule set, at 1280×800 and 800×1280, the box of every control of the pad
(``getBoundingClientRect`` of each tap, chip, "+1", key, input and button, Record and "thrown
in") is measured before and after each kind of tap: a meld chip tapped once, "+1", the same chip
tapped again, "0", a belote, the makers, the bid (Coinche's générale too), the trumps, the
doubling, digits (the preview line appears above Record), a fourth digit refused, ⌫, whose card
points, the last trick and capot, the solo capot, equal melds and the answer to their contest.
No control but the one tapped may move or change size (by 1 px or more); a control may appear
(the contest question, "+1"), in room kept for it or at the end of its column, where it pushes
nothing. "Thrown in" is a button that sends the deal, not a toggle: it has no tap to measure.

One browser, one page per rule set and orientation (static/scoring/pad.css, docs/tablet-layout.md).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.functional.test_tablet_layout import PLAYED, SIZES, _new_match

pytestmark = pytest.mark.browser

# Every control of the pad, hidden ones included (keyed by their place in this list, which no tap
# changes): a radio shown as a tap is measured through its label; a chip's number box is its chip.
BOXES_JS = """
() => {
  const form = document.querySelector("form.deal-form");
  const found = [...form.querySelectorAll(
    "label.tap, label.chip, label.check, button, input:not([type=hidden], [type=radio], [type=checkbox])"
  )].filter((el) => !(el.matches("input[type=number]") && el.closest("label.chip")));
  const words = (el) => (el.innerText || el.value || el.getAttribute("aria-label") || "")
    .trim().replace(/\\s+/g, " ").slice(0, 30);
  return found.map((el, i) => {
    const r = el.getBoundingClientRect();
    return {
      i, seen: el.checkVisibility({visibilityProperty: true}),
      name: `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${words(el)}"`,
      box: [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height],
      tapped: el.hasAttribute("data-tapped"),
    };
  });
}
"""

# The preview is asked for after a change (htmx, 150 ms later for a chip or a key): settled once
# no request is under way and nothing was swapped for a while.
SETTLED_JS = """
() => !document.querySelector(".htmx-request")
  && performance.now() - (window.__lastSwap || 0) > 120
"""


@pytest.fixture
def pad_page(browser, live_server) -> Iterator:
    """``pad_page(match, size)``: the match's sheet on a touch tablet holding its table link."""
    from django.contrib.sessions.backends.db import SessionStore

    from scoring.permissions import SESSION_KEY

    contexts, errors = [], []

    def open_page(match, size) -> Page:
        session = SessionStore()
        session[SESSION_KEY] = [match.pk]
        session.save()
        context = browser.new_context(viewport=size, has_touch=True, reduced_motion="reduce")
        context.set_default_timeout(10_000)
        context.add_cookies([{"name": "sessionid", "value": session.session_key, "url": live_server.url}])
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server.url + f"/matches/{match.pk}/")
        expect(page.locator("form.deal-form")).to_be_visible()
        page.evaluate(
            "document.addEventListener('htmx:afterSettle', () => { window.__lastSwap = performance.now(); })"
        )
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


class Measured:
    """Taps one control after another, each time comparing every control's box with before."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.form = page.locator("form.deal-form")
        self.moved: list[str] = []
        self.taps = 0
        self.boxes = self._boxes()

    def _boxes(self) -> list[dict]:
        self.page.wait_for_timeout(200)
        self.page.wait_for_function(SETTLED_JS, polling=50)
        return self.page.evaluate(BOXES_JS)

    def tap(self, what: str, control: Locator) -> None:
        control.evaluate("el => el.setAttribute('data-tapped', '')")
        control.click()
        after = self._boxes()
        control.evaluate("el => el.removeAttribute('data-tapped')")
        assert len(after) == len(self.boxes), f"{what}: controls were added or taken away"
        for old, new in zip(self.boxes, after, strict=True):
            if new["tapped"] or not (old["seen"] and new["seen"]):
                continue
            shift = max(abs(a - b) for a, b in zip(old["box"], new["box"], strict=True))
            if shift >= 1:
                self.moved.append(f"{what}: {new['name']} {_rect(old['box'])} → {_rect(new['box'])}")
        self.boxes = after
        self.taps += 1

    def radio(self, what: str, name: str, value: str | int) -> None:
        label = self.form.locator(f'label:has(> input[name="{name}"][value="{value}"])')
        self.tap(what, label)
        expect(self.form.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()

    def key(self, what: str, key: str) -> None:
        self.tap(what, self.form.locator(f'button[data-key="{key}"]'))


def _rect(box: list[float]) -> str:
    x, y, w, h = (round(v) for v in box)
    return f"[{x},{y} {w}×{h}]"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("ruleset", PLAYED)
def test_no_tap_moves_another_control(pad_page, ruleset: str, size: str) -> None:
    page = pad_page(_new_match(ruleset), SIZES[size])
    pad = Measured(page)
    form = pad.form
    assert len(pad.boxes) >= 25  # the whole pad is measured

    # Melds: a chip on (✓), one more (×2), off again, on and "0" for the team; a belote.
    team0, team1 = form.locator(".meld-team.team0"), form.locator(".meld-team.team1")
    chip = team0.locator("label.chip:not(.belote)").first
    if chip.count():  # Classic has its belote only
        count = chip.locator(".count")
        pad.tap("a meld chip tapped", chip)
        expect(count).to_have_text("✓")
        more = chip.locator("xpath=..").locator(".chip-more")
        if more.count():
            pad.tap("+1 on the chip", more)
            expect(count).to_have_text("×2")
        pad.tap("the chip tapped again", chip)
        expect(count).to_have_text("")
        pad.tap("the chip tapped once more", chip)
        pad.tap("nothing declared (0)", team0.locator("button.chip.clear"))
        expect(count).to_have_text("")
    belote = team1.locator("label.chip.belote")
    if belote.count():
        pad.tap("a belote", belote)
        expect(belote.locator(".count")).to_have_text("✓")
        pad.tap("nothing declared (0) by the other team", team1.locator("button.chip.clear"))
        expect(belote.locator(".count")).to_have_text("")

    # The contract: makers, bid, trumps, doubling.
    pad.radio("the makers", "maker", 0)
    if form.locator('input[name="bid"][value="generale"]').count():
        pad.radio("a générale bid", "bid", "generale")
        pad.radio("the générale's seat", "generale", 0)
    if form.locator('input[name="bid"]').count():
        pad.radio("a bid", "bid", 80)
    if form.locator('input[name="suit"]').count():
        pad.radio("the trumps", "suit", "hearts")
    if form.locator('input[name="multiplier"]').count():
        pad.radio("the doubling", "multiplier", 2)
        pad.radio("the doubling taken back", "multiplier", 1)

    pad.radio("the last trick", "last_trick", 1)
    # Card points: with the last trick tapped, the preview line comes above Record with the first digit.
    for digit in "100":
        pad.key(f"the digit {digit}", digit)
    expect(page.get_by_test_id("preview")).to_be_visible()
    pad.key("a fourth digit, refused", "4")
    expect(page.get_by_test_id("keypad-note")).to_be_visible()
    pad.key("⌫", "back")
    pad.key("C", "clear")
    pad.key("the digit 9", "9")
    pad.radio("whose card points", "points_team", 1)
    pad.radio("whose card points, back", "points_team", 0)

    # Capot, the solo capot, the last trick again.
    pad.radio("capot", "last_trick", "capo0")
    if form.locator("label.check.solo").count():
        pad.tap("the solo capot", form.locator("label.check.solo"))
    pad.radio("the last trick again", "last_trick", 0)

    # Equal best melds: the contest is asked, and answered.
    contest = form.locator(".contest-row")
    if contest.count() and chip.count():
        code = team1.locator("label.chip:not(.belote)").first
        pad.tap("a meld chip of the first team", chip)
        pad.tap("the same meld for the other team", code)
        expect(contest).to_be_visible()
        pad.radio("the contest answered", "declarations_winner", 1)

    assert pad.taps >= 15
    assert not pad.moved, "moved under the finger:\n" + "\n".join(pad.moved)
