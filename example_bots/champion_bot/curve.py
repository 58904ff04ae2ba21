"""The learning curve as a PNG: the win share against each fixed opponent per iteration,
with its 95% interval, and the fair share.

With matplotlib (the ``train`` extra: ``pip install -e '.[train]'``) the chart has axes,
labels and a legend. Without it a plain chart is drawn with numpy and written by
:func:`write_png` (zlib and struct only): the same lines and interval bands on a grid of
10% steps (0% at the bottom, 100% at the top), the fair share dashed, iterations from the
left edge to the right; no text (the numbers are in ``metrics.jsonl``).
"""

from __future__ import annotations

import importlib
import itertools
import os
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
COLOURS = ((34, 68, 136), (204, 51, 51), (34, 136, 68), (153, 102, 0))
WIDTH, HEIGHT, PAD = 800, 400, 40


def write_png(path: Path, image: Image) -> None:
    """An RGB image (height, width, 3) as a PNG file, written atomically."""
    height, width, _ = image.shape

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + image[y].astype(np.uint8).tobytes() for y in range(height))
    data = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


Series = dict[str, list[tuple[float, float, float, float]]]  # name: (x, rate, low, high)


def series(metrics: Sequence[dict[str, Any]]) -> Series:
    """Per opponent, its (iteration, win share, low, high) points from the metrics log."""
    out: Series = {}
    for record in metrics:
        for name, figures in record.get("eval", {}).items():
            out.setdefault(name, []).append(
                (
                    float(record["iteration"]),
                    figures["win_rate"],
                    figures["low"],
                    figures["high"],
                )
            )
    return out


TRAINING_TITLE = "champion_bot (raw policy): 6nimmt:rounds=1, duplicate deals"


def draw(
    metrics: Sequence[dict[str, Any]],
    path: Path,
    fair: float,
    *,
    plain: bool = False,
    x_label: str = "iteration",
    title: str = TRAINING_TITLE,
) -> str:
    """Draw the curve to `path`; which drawer drew it ("matplotlib" or "plain"). The
    plain drawer has no text: `x_label` and `title` are matplotlib's."""
    lines = series(metrics)
    if not plain:
        try:
            _draw_matplotlib(lines, path, fair, x_label, title)
            return "matplotlib"
        except ImportError:
            pass
    write_png(path, plain_chart(lines, fair))
    return "plain"


def _draw_matplotlib(lines: Series, path: Path, fair: float, x_label: str, title: str) -> None:
    matplotlib: Any = importlib.import_module("matplotlib")
    matplotlib.use("Agg")
    pyplot: Any = importlib.import_module("matplotlib.pyplot")
    figure, axes = pyplot.subplots(figsize=(8, 4), dpi=100)
    others = round(1 / fair) - 1  # the seats the opponent holds
    for name, points in lines.items():
        xs = [p[0] for p in points]
        axes.plot(xs, [100 * p[1] for p in points], marker="o", label=f"vs {others} x {name}")
        axes.fill_between(xs, [100 * p[2] for p in points], [100 * p[3] for p in points], alpha=0.2)
    axes.axhline(100 * fair, linestyle="--", color="grey", label=f"fair share {fair:.0%}")
    axes.set_xlabel(x_label)
    axes.set_ylabel("win share, % (95% interval)")
    highest = max((p[3] for points in lines.values() for p in points), default=1.0)
    axes.set_ylim(0, 50 if highest < 0.45 else 100)  # room to see a curve near the fair share
    axes.set_title(title)
    axes.legend(loc="upper left")
    axes.grid(alpha=0.3)
    figure.tight_layout()
    temporary = path.with_name(path.name + ".tmp")
    figure.savefig(temporary, format="png")
    pyplot.close(figure)
    os.replace(temporary, path)


def plain_chart(lines: Series, fair: float) -> Image:
    """The chart as an RGB image, numpy only (see the module's docstring)."""
    image = np.full((HEIGHT, WIDTH, 3), 255, dtype=np.uint8)
    left, right, top, bottom = PAD, WIDTH - PAD, PAD, HEIGHT - PAD
    xs = [p[0] for points in lines.values() for p in points]
    x_low, x_high = (min(xs), max(xs)) if xs else (0.0, 1.0)
    span = max(x_high - x_low, 1.0)

    def px(x: float) -> int:
        return round(left + (right - left) * (x - x_low) / span)

    def py(share: float) -> int:
        return round(bottom - (bottom - top) * min(max(share, 0.0), 1.0))

    for tenth in range(11):
        image[py(tenth / 10), left:right] = (225, 225, 225)
    image[top:bottom, left] = (0, 0, 0)
    image[bottom, left:right] = (0, 0, 0)
    colours = [np.array(COLOURS[i % len(COLOURS)], dtype=np.float64) for i in range(len(lines))]
    for colour, points in zip(colours, lines.values(), strict=True):
        band = (255 - (255 - colour) * 0.25).astype(np.uint8)
        for (x0, _, lo0, hi0), (x1, _, lo1, hi1) in itertools.pairwise(points):
            for x in range(px(x0), px(x1) + 1):
                t = (x - px(x0)) / max(px(x1) - px(x0), 1)
                lo, hi = lo0 + t * (lo1 - lo0), hi0 + t * (hi1 - hi0)
                column = image[py(hi) : py(lo) + 1, x]
                column[:] = np.minimum(column, band)  # overlapping bands darken
    for x in range(left, right, 12):
        image[py(fair), x : x + 6] = (120, 120, 120)
    for colour, points in zip(colours, lines.values(), strict=True):
        ink = colour.astype(np.uint8)
        for (x0, r0, _, _), (x1, r1, _, _) in itertools.pairwise(points):
            _line(image, px(x0), py(r0), px(x1), py(r1), ink)
        for point, rate, _, _ in points:
            cx, cy = px(point), py(rate)
            image[max(cy - 3, 0) : cy + 4, max(cx - 3, 0) : cx + 4] = ink
    return image


def _line(image: Image, x0: int, y0: int, x1: int, y1: int, colour: Image) -> None:
    """A line two pixels thick."""
    steps = max(abs(x1 - x0), abs(y1 - y0), 1)
    for i in range(steps + 1):
        x = x0 + (x1 - x0) * i // steps
        y = y0 + (y1 - y0) * i // steps
        image[y : y + 2, x : x + 2] = colour
