"""Rating charts as inline SVG, made at build time (no chart library, no JavaScript)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
MAX_POINTS = 240  # per line: long histories are thinned so every page stays small


@dataclass(frozen=True)
class Line:
    """One series: (x, y) points in data units, oldest first."""

    label: str
    points: Sequence[tuple[float, float]]


def thin(
    points: Sequence[tuple[float, float]], limit: int = MAX_POINTS
) -> list[tuple[float, float]]:
    """At most `limit` points, evenly spaced, always keeping the first and the last."""
    if len(points) <= limit:
        return list(points)
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def nice_ticks(low: float, high: float, count: int = 5, whole: bool = False) -> list[float]:
    """Round axis ticks covering [low, high]: about `count` of them, spaced 1, 2 or 5 times
    a power of ten (0, 10, 20 ... rather than 13.3, 21.5 ...); `whole`: a step of at
    least 1 (an axis that counts matches)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count)
    if whole:
        raw = max(raw, 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw * (1 - 1e-9))
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step * (1 - 1e-9):
        ticks.append(round(value, 10))
        value += step
    return ticks


def tick_text(value: float, step: float) -> str:
    """A tick's label: as many decimals as the step needs."""
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return f"{value:.{decimals}f}"


def line_chart(
    lines: Sequence[Line],
    *,
    title: str,
    x_label: str,
    y_label: str,
    width: int = 720,
    height: int = 320,
) -> str:
    """An SVG line chart with axes, gridlines and a legend; '' when there is nothing to draw."""
    drawn = [Line(line.label, thin(line.points)) for line in lines if line.points]
    if not drawn:
        return ""
    xs = [x for line in drawn for x, _ in line.points]
    ys = [y for line in drawn for _, y in line.points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x1 == x0:
        x1 = x0 + 1
    if y1 == y0:
        y0, y1 = y0 - 1, y1 + 1
    y_ticks = nice_ticks(y0, y1, 5)
    y0, y1 = y_ticks[0], y_ticks[-1]
    x_ticks = [x for x in nice_ticks(x0, x1, 5, whole=True) if x0 <= x <= x1]
    left, right, top, bottom = 56, 16, 28, 40
    plot_w, plot_h = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * plot_w

    def sy(y: float) -> float:
        return top + (1 - (y - y0) / (y1 - y0)) * plot_h

    legend_h = 14 + 18 * ((len(drawn) + 2) // 3)
    total_h = height + legend_h
    out = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {total_h}"'
        f' role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" class="plot"/>',
    ]
    y_step = y_ticks[1] - y_ticks[0] if len(y_ticks) > 1 else 1.0
    for value in y_ticks:
        y = sy(value)
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
        )
        out.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" class="tick" text-anchor="end">'
            f"{tick_text(value, y_step)}</text>"
        )
    x_step = x_ticks[1] - x_ticks[0] if len(x_ticks) > 1 else 1.0
    for value in x_ticks:
        x = sx(value)
        out.append(
            f'<text x="{x:.1f}" y="{top + plot_h + 16}" class="tick" text-anchor="middle">'
            f"{tick_text(value, x_step)}</text>"
        )
    out.append(
        f'<text x="{left + plot_w / 2}" y="{top + plot_h + 34}" class="axis" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    out.append(f'<text x="{left}" y="{top - 10}" class="axis">{escape(y_label)}</text>')
    for i, line in enumerate(drawn):
        color = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in line.points)
        out.append(
            f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="1.8">'
            f"<title>{escape(line.label)}</title></polyline>"
        )
        lx = left + (i % 3) * (plot_w / 3)
        ly = height + 14 + 18 * (i // 3)
        out.append(f'<rect x="{lx:.0f}" y="{ly - 9}" width="12" height="4" fill="{color}"/>')
        out.append(
            f'<text x="{lx + 16:.0f}" y="{ly - 4}" class="legend">{escape(line.label)}</text>'
        )
    out.append("</svg>")
    return "".join(out)
