"""The score chart (scoring/charts.py): an SVG that reads on a tablet and in black and white.

The plot area is x 60–700 and y 40–310 in a 720 × 360 viewBox; the coordinates below are worked
out from it by hand.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scoring.charts import nice_step, score_chart_svg

ROOT = Path(__file__).resolve().parents[2]
NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def polylines(root: ET.Element) -> list[ET.Element]:
    return root.findall("svg:polyline", NS)


def texts(root: ET.Element, group: str) -> list[str]:
    """The texts of one group of the chart: ``y-labels``, ``x-labels``, ``legend``."""
    return [t.text for t in root.findall(f"svg:g[@class='{group}']/svg:text", NS)]


@pytest.fixture
def chart() -> ET.Element:
    # Two deals: 100–50, then 200–300; target 300. The points axis runs 0–300 in steps of 100
    # (300 / 5 = 60 → the next round step is 100), so y = 310 − v × 270 / 300.
    # x: deal 0 (the start, 0–0) at 60, deal 1 at 380, deal 2 at 700.
    return parse(score_chart_svg([(100, 50), (200, 300)], ["Kafeneio A", "Kafeneio B"], 300))


def test_two_lines_from_the_start_through_every_deal(chart):
    lines = polylines(chart)
    assert [line.get("class") for line in lines] == ["team0", "team1"]
    assert lines[0].get("points") == "60,310 380,220 700,130"  # 0, 100, 200
    assert lines[1].get("points") == "60,310 380,265 700,40"  # 0, 50, 300


def test_the_lines_differ_in_black_and_white(chart):
    first, second = polylines(chart)
    assert first.get("stroke-dasharray") is None  # solid
    assert second.get("stroke-dasharray") == "10 6"  # dashed
    # Markers at every deal: circles for the first team, squares for the second.
    assert len(chart.findall("svg:g[@class='markers team0']/svg:circle", NS)) == 2
    assert len(chart.findall("svg:g[@class='markers team1']/svg:rect", NS)) == 2


def test_the_target_is_a_dotted_line(chart):
    target = chart.find("svg:line[@class='target']", NS)
    assert (target.get("y1"), target.get("y2"), target.get("stroke-dasharray")) == ("40", "40", "2 4")
    label = chart.find("svg:text[@class='target-label']", NS)
    assert label.text == "Target 300"


def test_accessible_title_and_description(chart):
    assert chart.get("role") == "img"
    assert chart.get("aria-labelledby") == "score-chart-title score-chart-desc"
    title = chart.find("svg:title", NS)
    desc = chart.find("svg:desc", NS)
    assert title.get("id") == "score-chart-title" and "Kafeneio A – Kafeneio B" in title.text
    assert desc.get("id") == "score-chart-desc"
    assert "over 2 deals" in desc.text and "ends on 200 points" in desc.text and "on 300" in desc.text
    assert "target, 300 points" in desc.text


def test_it_scales_to_the_width_given(chart):
    assert chart.get("viewBox") == "0 0 720 360"


def test_axes_are_labelled(chart):
    assert texts(chart, "y-labels") == ["0", "100", "200", "300"]
    assert texts(chart, "x-labels") == ["1", "2"]
    assert texts(chart, "legend") == ["Kafeneio A", "Kafeneio B"]


def test_names_are_escaped():
    svg = score_chart_svg([(10, 0), (20, 5)], ['<script>alert("x")</script>', "B & C"], None)
    assert "<script>" not in svg
    root = parse(svg)  # still well-formed
    assert texts(root, "legend")[1] == "B & C"


def test_without_a_target_no_target_line():
    root = parse(score_chart_svg([(10, 0), (20, 5)], ["A", "B"], None))
    assert root.find("svg:line[@class='target']", NS) is None
    assert "target" not in root.find("svg:desc", NS).text


def test_many_deals_label_at_most_twelve():
    totals = [(i * 50, i * 40) for i in range(1, 31)]
    root = parse(score_chart_svg(totals, ["A", "B"], 1000))
    assert texts(root, "x-labels") == [str(n) for n in range(3, 31, 3)]
    assert len(polylines(root)[0].get("points").split()) == 31


def test_no_deal_yet_still_draws_the_axes():
    root = parse(score_chart_svg([], ["A", "B"], 1000))
    assert [line.get("points") for line in polylines(root)] == ["60,310", "60,310"]
    assert "No deal" in root.find("svg:desc", NS).text


def test_the_texts_go_through_translate():
    greek = {"Target %(target)s": "Στόχος %(target)s"}
    svg = score_chart_svg([(10, 0), (20, 5)], ["A", "B"], 100, translate=lambda s: greek.get(s, s))
    assert "Στόχος 100" in svg


@pytest.mark.parametrize(
    ("span", "step"),
    [(300, 100), (1000, 200), (1200, 250), (40, 10), (7, 2), (0, 1), (162, 50)],
)
def test_round_steps(span, step):
    assert nice_step(span) == step


def test_the_chart_imports_no_django():
    code = "import sys, scoring.charts; print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
