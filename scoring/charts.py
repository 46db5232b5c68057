"""The score of a match over its deals, as an SVG line chart: pure Python, no Django.

Drawn on the server, so it shows without JavaScript, on the tablet and on paper alike. It reads in
black and white: the first team is a solid line with round markers, the second a dashed line with
square markers, the target a dotted line. The ``viewBox`` lets it scale to any width.

The texts go through ``translate`` (Django's ``gettext`` from a view; ``str`` by default), and are
marked with ``_(…)`` so that ``makemessages`` finds them here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

WIDTH, HEIGHT = 720, 360
# The plot area inside the picture: room on the left for the points, below for the deal numbers,
# above for the legend and the target's label.
LEFT, RIGHT, TOP, BOTTOM = 60, 700, 40, 310
MAX_DEAL_LABELS = 12
TEAM_STYLES = (
    {"stroke": "#1f5fa8", "dash": None, "marker": "circle"},
    {"stroke": "#a8321f", "dash": "10 6", "marker": "square"},
)


def nice_step(span: float, ticks: int = 5) -> int:
    """A round step (1, 2, 2.5 or 5 times a power of ten, a whole number) giving about ``ticks`` steps."""
    raw = max(span, 1) / ticks
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if step >= raw and step == int(step):
            return int(step)
    return int(10 * magnitude)  # pragma: no cover - the loop always returns


def _n(value: float) -> str:
    """A coordinate, to a tenth, without a trailing ``.0``."""
    return f"{value:.1f}".removesuffix(".0")


def score_chart_svg(
    totals_by_deal: Sequence[tuple[int, int]],
    team_names: Sequence[str],
    target: int | None = None,
    *,
    chart_id: str = "score-chart",
    translate: Callable[[str], str] = str,
) -> str:
    """The running totals after each deal, from 0–0 before the first, as an accessible inline SVG.

    ``totals_by_deal[i]`` is both teams' totals after deal ``i + 1`` (a sheet's ``row.totals``);
    ``target``, when given, is drawn as a dotted line. ``chart_id`` prefixes the ids of the title
    and description, so that two charts can share a page.
    """
    _ = translate
    names = [str(name) for name in team_names]
    deals = len(totals_by_deal)
    series = [[0, *(totals[t] for totals in totals_by_deal)] for t in (0, 1)]
    values = [v for line in series for v in line] + ([target] if target is not None else [])
    step = nice_step(max(values) - min(values))
    low = math.floor(min(values) / step) * step
    high = max(math.ceil(max(values) / step) * step, low + step)

    def x(index: int) -> float:
        return LEFT + index * (RIGHT - LEFT) / max(deals, 1)

    def y(value: float) -> float:
        return BOTTOM - (value - low) * (BOTTOM - TOP) / (high - low)

    title = _("%(team0)s – %(team1)s: the score after each deal") % {"team0": names[0], "team1": names[1]}
    if deals:
        desc = _(
            "Running totals over %(deals)s deals. %(team0)s (solid line, round markers) ends on "
            "%(points0)s points, %(team1)s (dashed line, square markers) on %(points1)s."
        ) % {
            "deals": deals,
            "team0": names[0],
            "team1": names[1],
            "points0": series[0][-1],
            "points1": series[1][-1],
        }
    else:
        desc = _("No deal has been played yet.")
    if target is not None:
        desc += " " + _("The dotted line is the target, %(target)s points.") % {"target": target}

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img" aria-labelledby="{chart_id}-title {chart_id}-desc" '
        f'class="score-chart" font-family="system-ui, sans-serif" font-size="14" fill="#141414">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(desc)}</desc>',
        '<rect width="100%" height="100%" fill="#fff"/>',
    ]
    # The points axis: a light line and a label at every step.
    out.append('<g class="grid" stroke="#d0d0d0" stroke-width="1">')
    out += [
        f'<line x1="{LEFT}" y1="{_n(y(v))}" x2="{RIGHT}" y2="{_n(y(v))}"/>'
        for v in range(low, high + 1, step)
    ]
    out.append("</g>")
    out.append('<g class="y-labels" text-anchor="end">')
    out += [f'<text x="{LEFT - 8}" y="{_n(y(v) + 5)}">{v}</text>' for v in range(low, high + 1, step)]
    out.append("</g>")
    # The deals axis: deal numbers under the plot, at most MAX_DEAL_LABELS of them.
    every = max(1, math.ceil(deals / MAX_DEAL_LABELS))
    out.append('<g class="x-labels" text-anchor="middle">')
    out += [f'<text x="{_n(x(i))}" y="{BOTTOM + 20}">{i}</text>' for i in range(every, deals + 1, every)]
    out.append("</g>")
    out.append(
        f'<g class="axes" stroke="#141414" stroke-width="1.5">'
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{BOTTOM}"/>'
        f'<line x1="{LEFT}" y1="{_n(y(max(low, 0)))}" x2="{RIGHT}" y2="{_n(y(max(low, 0)))}"/></g>'
    )
    deal_label, points_label = escape(_("Deal")), escape(_("Points"))
    out.append(
        f'<text class="axis-label" x="{RIGHT}" y="{BOTTOM + 42}" text-anchor="end">{deal_label}</text>'
    )
    out.append(
        f'<text class="axis-label" x="{LEFT - 8}" y="{TOP - 12}" text-anchor="end">{points_label}</text>'
    )
    if target is not None:
        ty = _n(y(target))
        out.append(
            f'<line class="target" x1="{LEFT}" y1="{ty}" x2="{RIGHT}" y2="{ty}" stroke="#141414" '
            f'stroke-width="1.5" stroke-dasharray="2 4"/>'
        )
        label = escape(_("Target %(target)s") % {"target": target})
        out.append(
            f'<text class="target-label" x="{RIGHT}" y="{_n(y(target) - 6)}" text-anchor="end">{label}</text>'
        )
    for team, line in enumerate(series):
        style = TEAM_STYLES[team]
        points = " ".join(f"{_n(x(i))},{_n(y(v))}" for i, v in enumerate(line))
        dash = f' stroke-dasharray="{style["dash"]}"' if style["dash"] else ""
        out.append(
            f'<polyline class="team{team}" points="{points}" fill="none" stroke="{style["stroke"]}" '
            f'stroke-width="3" stroke-linejoin="round"{dash}/>'
        )
        out.append(f'<g class="markers team{team}">')
        out += [_marker(style, x(i), y(v)) for i, v in enumerate(line) if i]
        out.append("</g>")
    out += _legend(names)
    out.append("</svg>")
    return "\n".join(out)


def _marker(style: dict, cx: float, cy: float) -> str:
    if style["marker"] == "circle":
        return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="4.5" fill="{style["stroke"]}"/>'
    return (
        f'<rect x="{_n(cx - 4.5)}" y="{_n(cy - 4.5)}" width="9" height="9" fill="#fff" '
        f'stroke="{style["stroke"]}" stroke-width="2"/>'
    )


def _legend(names: Sequence[str]) -> list[str]:
    """Each team's line and marker, then its name, along the top."""
    out = ['<g class="legend">']
    left = LEFT
    for team, name in enumerate(names[:2]):
        style = TEAM_STYLES[team]
        dash = f' stroke-dasharray="{style["dash"]}"' if style["dash"] else ""
        out.append(
            f'<line class="team{team}" x1="{left}" y1="14" x2="{left + 36}" y2="14" '
            f'stroke="{style["stroke"]}" stroke-width="3"{dash}/>'
        )
        out.append(_marker(style, left + 18, 14))
        out.append(f'<text x="{left + 44}" y="19">{escape(name)}</text>')
        left += 44 + 8 * len(name) + 28
    out.append("</g>")
    return out
