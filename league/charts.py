"""A player's rating over their rated matches, as an SVG chart: pure Python, no Django.

Drawn on the server like the score chart (``scoring/charts.py``, whose axes it shares): a shaded
band for the skill and its uncertainty (mu ± sigma), the skill itself as a thin dashed line, and the
rating (mu − 3 sigma, the number the tables show) as a solid line with round markers. It reads in
black and white, scales with its ``viewBox``, and carries no style or script (the pages' CSP).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

from scoring.charts import nice_step

WIDTH, HEIGHT = 720, 360
LEFT, RIGHT, TOP, BOTTOM = 60, 700, 40, 310
MAX_LABELS = 12
LINE = "#14533e"  # the felt green of the header: a single series, no team's colour
BAND = "#cfe3da"


def _n(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _value(value: float) -> str:
    """A rating as the pages show it: one decimal, a real minus sign."""
    return f"{value:.1f}".replace("-", "−")


def rating_chart_svg(
    points: Sequence[tuple[float, float, float]],
    *,
    start: tuple[float, float, float] | None = None,
    chart_id: str = "rating-chart",
    translate: Callable[[str], str] = str,
) -> str:
    """The rating after each rated match, as an accessible inline SVG.

    ``points`` are ``(mu, sigma, rating)`` after each match, oldest first; ``start``, when given, is
    the belief before the first of them (a new player's: the model's prior), drawn at 0.
    ``chart_id`` prefixes the ids of the title and description.
    """
    _ = translate
    series = ([start] if start is not None else []) + list(points)
    first = 0 if start is not None else 1
    count = len(points)
    lows = [min(rating, mu - sigma) for mu, sigma, rating in series] or [0.0]
    highs = [mu + sigma for mu, sigma, _rating in series] or [1.0]
    step = nice_step(max(highs) - min(lows))
    low = math.floor(min(lows) / step) * step
    high = max(math.ceil(max(highs) / step) * step, low + step)
    last_index = first + len(series) - 1

    def x(index: int) -> float:
        if last_index == first:  # one point: in the middle
            return (LEFT + RIGHT) / 2
        return LEFT + (index - first) * (RIGHT - LEFT) / (last_index - first)

    def y(value: float) -> float:
        return BOTTOM - (value - low) * (BOTTOM - TOP) / (high - low)

    title = _("The rating after each rated match")
    if points:
        mu, sigma, rating = points[-1]
        desc = _(
            "Rated matches shown: %(matches)s. The rating went from %(first)s to %(last)s; the skill is "
            "now %(mu)s ± %(sigma)s. The solid line with round markers is the rating (the skill less three "
            "times its uncertainty), the dashed line the skill, the shaded band the skill ± its uncertainty."
        ) % {
            "matches": count,
            "first": _value(series[0][2]),
            "last": _value(rating),
            "mu": _value(mu),
            "sigma": _value(sigma),
        }
    else:
        desc = _("No rated match yet.")

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
        f'height="{HEIGHT}" role="img" aria-labelledby="{chart_id}-title {chart_id}-desc" '
        f'class="rating-chart" font-family="system-ui, sans-serif" font-size="14" fill="#141414">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(desc)}</desc>',
        '<rect width="100%" height="100%" fill="#fff"/>',
        '<g class="grid" stroke="#d0d0d0" stroke-width="1">',
    ]
    ticks = range(int(low), int(high) + 1, step)
    out += [f'<line x1="{LEFT}" y1="{_n(y(v))}" x2="{RIGHT}" y2="{_n(y(v))}"/>' for v in ticks]
    out.append("</g>")
    out.append('<g class="y-labels" text-anchor="end">')
    out += [f'<text x="{LEFT - 8}" y="{_n(y(v) + 5)}">{_value(v).removesuffix(".0")}</text>' for v in ticks]
    out.append("</g>")
    every = max(1, math.ceil(count / MAX_LABELS))
    out.append('<g class="x-labels" text-anchor="middle">')
    out += [f'<text x="{_n(x(i))}" y="{BOTTOM + 20}">{i}</text>' for i in range(every, count + 1, every)]
    out.append("</g>")
    out.append(
        f'<g class="axes" stroke="#141414" stroke-width="1.5">'
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{BOTTOM}"/>'
        f'<line x1="{LEFT}" y1="{BOTTOM}" x2="{RIGHT}" y2="{BOTTOM}"/></g>'
    )
    match_label, rating_label = escape(_("Rated match")), escape(_("Rating"))
    out.append(
        f'<text class="axis-label" x="{RIGHT}" y="{BOTTOM + 42}" text-anchor="end">{match_label}</text>'
    )
    out.append(
        f'<text class="axis-label" x="{LEFT - 8}" y="{TOP - 12}" text-anchor="end">{rating_label}</text>'
    )
    if series:
        indexed = list(enumerate(series, start=first))
        upper = [f"{_n(x(i))},{_n(y(mu + sigma))}" for i, (mu, sigma, _r) in indexed]
        lower = [f"{_n(x(i))},{_n(y(mu - sigma))}" for i, (mu, sigma, _r) in reversed(indexed)]
        out.append(f'<polygon class="band" points="{" ".join(upper + lower)}" fill="{BAND}" stroke="none"/>')
        skill = " ".join(f"{_n(x(i))},{_n(y(mu))}" for i, (mu, _s, _r) in indexed)
        out.append(
            f'<polyline class="skill" points="{skill}" fill="none" stroke="#555" stroke-width="1.5" '
            f'stroke-dasharray="6 4"/>'
        )
        line = " ".join(f"{_n(x(i))},{_n(y(rating))}" for i, (_m, _s, rating) in indexed)
        out.append(
            f'<polyline class="rating" points="{line}" fill="none" stroke="{LINE}" stroke-width="3" '
            f'stroke-linejoin="round"/>'
        )
        out.append('<g class="markers">')
        out += [
            f'<circle cx="{_n(x(i))}" cy="{_n(y(rating))}" r="4" fill="{LINE}"/>'
            for i, (_m, _s, rating) in indexed
            if i >= 1
        ]
        out.append("</g>")
    out += _legend(_("Rating"), _("Skill ± uncertainty"))
    out.append("</svg>")
    return "\n".join(out)


def _legend(rating: str, skill: str) -> list[str]:
    left = LEFT
    out = ['<g class="legend">']
    out.append(f'<line x1="{left}" y1="14" x2="{left + 36}" y2="14" stroke="{LINE}" stroke-width="3"/>')
    out.append(f'<circle cx="{left + 18}" cy="14" r="4" fill="{LINE}"/>')
    out.append(f'<text x="{left + 44}" y="19">{escape(rating)}</text>')
    left += 44 + 8 * len(rating) + 28
    out.append(f'<rect x="{left}" y="6" width="36" height="16" fill="{BAND}"/>')
    out.append(
        f'<line x1="{left}" y1="14" x2="{left + 36}" y2="14" stroke="#555" stroke-width="1.5" '
        f'stroke-dasharray="6 4"/>'
    )
    out.append(f'<text x="{left + 44}" y="19">{escape(skill)}</text>')
    out.append("</g>")
    return out
