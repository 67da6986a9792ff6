"""Box math. Boxes are ``(x0, y0, x1, y1)``; the space is named by the function, never guessed.

`pt` = PDF points, top-left origin of the displayed page (the stored space);
`px` = pixels of the page image rendered at `dpi`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from layoutrag.records import BBox

__all__ = [
    "area",
    "clip",
    "contains_frac",
    "covered_area",
    "intersection",
    "iou",
    "pt_to_px",
    "px_to_pt",
    "union_box",
]


def pt_to_px(box: Sequence[float], dpi: float) -> BBox:
    s = dpi / 72.0
    return (box[0] * s, box[1] * s, box[2] * s, box[3] * s)


def px_to_pt(box: Sequence[float], dpi: float) -> BBox:
    s = 72.0 / dpi
    return (box[0] * s, box[1] * s, box[2] * s, box[3] * s)


def area(b: Sequence[float]) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def intersection(a: Sequence[float], b: Sequence[float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
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


def clip(b: Sequence[float], width: float, height: float) -> BBox:
    return (
        min(max(b[0], 0.0), width),
        min(max(b[1], 0.0), height),
        min(max(b[2], 0.0), width),
        min(max(b[3], 0.0), height),
    )


def union_box(boxes: Iterable[Sequence[float]]) -> BBox:
    bs = list(boxes)
    if not bs:
        raise ValueError("union of no boxes")
    return (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))


def covered_area(target: Sequence[float], boxes: Iterable[Sequence[float]]) -> float:
    """Area of `target` covered by the union of `boxes` (exact, by coordinate compression)."""
    clipped = []
    for b in boxes:
        c = (max(b[0], target[0]), max(b[1], target[1]), min(b[2], target[2]), min(b[3], target[3]))
        if c[2] > c[0] and c[3] > c[1]:
            clipped.append(c)
    if not clipped:
        return 0.0
    xs = np.unique([v for c in clipped for v in (c[0], c[2])])
    ys = np.unique([v for c in clipped for v in (c[1], c[3])])
    grid = np.zeros((len(ys) - 1, len(xs) - 1), dtype=bool)
    for c in clipped:
        i0, i1 = np.searchsorted(ys, [c[1], c[3]])
        j0, j1 = np.searchsorted(xs, [c[0], c[2]])
        grid[i0:i1, j0:j1] = True
    cell = np.outer(np.diff(ys), np.diff(xs))
    return float((cell * grid).sum())
