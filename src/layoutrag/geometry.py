"""Box math over :class:`layoutrag.records.Box` (any 4-sequence is accepted, a Box comes back);
the space is named by the function, never guessed.

`pt` = PDF points, top-left origin of the displayed page (the stored space);
`px` = pixels of the page image rendered at `dpi`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from layoutrag.records import Box

__all__ = [
    "area",
    "as_box",
    "clip",
    "contains_frac",
    "covered_area",
    "intersection",
    "iou",
    "pt_to_px",
    "px_to_pt",
    "union_box",
]


def as_box(b: Sequence[float]) -> Box:
    """Any 4-sequence (a list, a tuple, a PyMuPDF rect's tuple) as a :class:`Box`."""
    return b if isinstance(b, Box) else Box(float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def pt_to_px(box: Sequence[float], dpi: float) -> Box:
    return as_box(box).to_px(dpi)


def px_to_pt(box: Sequence[float], dpi: float) -> Box:
    x0, y0, x1, y1 = box
    return Box.from_px((x0, y0, x1, y1), dpi)


def area(b: Sequence[float]) -> float:
    x0, y0, x1, y1 = b
    return max(0.0, x1 - x0) * max(0.0, y1 - y0)


def intersection(a: Sequence[float], b: Sequence[float]) -> float:
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    w = min(ax1, bx1) - max(ax0, bx0)
    h = min(ay1, by1) - max(ay0, by0)
    return w * h if w > 0 and h > 0 else 0.0


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    inter = intersection(a, b)
    if inter <= 0:
        return 0.0
    return inter / (area(a) + area(b) - inter)


def contains_frac(inner: Sequence[float], outer: Sequence[float]) -> float:
    """Share of `inner`'s area that lies inside `outer`."""
    a = area(inner)
    return intersection(inner, outer) / a if a > 0 else 0.0


def clip(b: Sequence[float], width: float, height: float) -> Box:
    x0, y0, x1, y1 = b
    return Box(
        min(max(x0, 0.0), width),
        min(max(y0, 0.0), height),
        min(max(x1, 0.0), width),
        min(max(y1, 0.0), height),
    )


def union_box(boxes: Iterable[Sequence[float]]) -> Box:
    bs = [as_box(b) for b in boxes]
    if not bs:
        raise ValueError("union of no boxes")
    return Box(min(b.x0 for b in bs), min(b.y0 for b in bs), max(b.x1 for b in bs), max(b.y1 for b in bs))


def covered_area(target: Sequence[float], boxes: Iterable[Sequence[float]]) -> float:
    """Area of `target` covered by the union of `boxes` (exact, by coordinate compression)."""
    t = as_box(target)
    clipped: list[Box] = []
    for b in map(as_box, boxes):
        c = Box(max(b.x0, t.x0), max(b.y0, t.y0), min(b.x1, t.x1), min(b.y1, t.y1))
        if c.x1 > c.x0 and c.y1 > c.y0:
            clipped.append(c)
    if not clipped:
        return 0.0
    xs = np.unique([v for c in clipped for v in (c.x0, c.x1)])
    ys = np.unique([v for c in clipped for v in (c.y0, c.y1)])
    grid = np.zeros((len(ys) - 1, len(xs) - 1), dtype=bool)
    for c in clipped:
        i0, i1 = np.searchsorted(ys, [c.y0, c.y1])
        j0, j1 = np.searchsorted(xs, [c.x0, c.x1])
        grid[i0:i1, j0:j1] = True
    cell = np.outer(np.diff(ys), np.diff(xs))
    return float((cell * grid).sum())
