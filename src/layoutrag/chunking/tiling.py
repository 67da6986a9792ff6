"""Member boxes that tile their chunk's block instead of hugging each text line.

Detectors box every list item and paragraph tightly, so the boxes of a bulleted list cover only
about half of the block a reader sees (ragged line ends, the white space between items). The
stored box of a member is therefore its *slot* in the chunk's block on that page: members are
cut into horizontal bands (members that share lines form one band), each band reaches halfway to
its neighbours, and a band's members split its width at the midpoints between them. The slots do
not overlap, every slot contains its member's own box, and together they fill exactly the
rectangle around the chunk's members on that page — never more, so nothing outside the chunk's
own extent is claimed. Members lying inside another member (callouts inside a drawing) keep their
own box.
"""

from __future__ import annotations

from collections.abc import Sequence

from layoutrag.geometry import area, as_box, contains_frac, union_box
from layoutrag.records import BBox, Box

__all__ = ["grow_into_margin", "tile_boxes"]

_INSIDE = 0.6


def _bands(idx: list[int], boxes: Sequence[Box]) -> list[list[int]]:
    """Members grouped into horizontal bands: a member joins a band it overlaps vertically."""
    order = sorted(idx, key=lambda i: (boxes[i].y0, boxes[i].x0))
    bands: list[list[int]] = []
    spans: list[list[float]] = []
    for i in order:
        b = boxes[i]
        h = b.y1 - b.y0
        if spans:
            y0, y1 = spans[-1]
            if min(y1, b.y1) - max(y0, b.y0) > 0.5 * min(h, y1 - y0):
                bands[-1].append(i)
                spans[-1] = [min(y0, b.y0), max(y1, b.y1)]
                continue
        bands.append([i])
        spans.append([b.y0, b.y1])
    return bands


def tile_boxes(boxes: Sequence[BBox], outer: BBox | None = None) -> list[BBox]:
    """The slot of each box (same order) in the rectangle around all of them, or in `outer` (a
    rectangle holding them: the slots on its edges reach out to it)."""
    boxes = [as_box(b) for b in boxes]
    n = len(boxes)
    if n == 1 and outer is not None:
        return [_hull(boxes[0], outer)]
    if n <= 1:
        return boxes
    inner = {
        i
        for i in range(n)
        if any(
            j != i and contains_frac(boxes[i], boxes[j]) >= _INSIDE and area(boxes[j]) > area(boxes[i])
            for j in range(n)
        )
    }
    top = [i for i in range(n) if i not in inner]
    X0, Y0, X1, Y1 = union_box(boxes[i] for i in top) if outer is None else _hull(union_box(boxes), outer)
    out: list[BBox] = list(boxes)
    bands = _bands(top, boxes)
    extents = [(min(boxes[i].y0 for i in band), max(boxes[i].y1 for i in band)) for band in bands]
    for k, band in enumerate(bands):
        y0 = Y0 if k == 0 else (extents[k - 1][1] + extents[k][0]) / 2
        y1 = Y1 if k == len(bands) - 1 else (extents[k][1] + extents[k + 1][0]) / 2
        # keep each member's own extent inside its slot even when neighbouring bands overlap a little
        members = sorted(band, key=lambda i: boxes[i].x0)
        for m, i in enumerate(members):
            x0 = X0 if m == 0 else (boxes[members[m - 1]].x1 + boxes[i].x0) / 2
            x1 = X1 if m == len(members) - 1 else (boxes[i].x1 + boxes[members[m + 1]].x0) / 2
            b = boxes[i]
            out[i] = Box(
                round(min(x0, b.x0), 2),
                round(min(y0, b.y0), 2),
                round(max(x1, b.x1), 2),
                round(max(y1, b.y1), 2),
            )
    return out


def _hull(a: Sequence[float], b: Sequence[float]) -> Box:
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    return Box(
        round(min(ax0, bx0), 2),
        round(min(ay0, by0), 2),
        round(max(ax1, bx1), 2),
        round(max(ay1, by1), 2),
    )


def grow_into_margin(
    rect: BBox,
    others: Sequence[BBox],
    margin: float,
    page_w: float,
    page_h: float,
    *,
    halfway: bool = False,
) -> BBox:
    """`rect` grown on each side into the blank space around it: up to the nearest other content
    box facing that side (`halfway`: half the way to it, the white space shared with that
    neighbour), by at most `margin` points, never off the page. Readers draw a unit's box with some
    white space around it."""
    if margin <= 0:
        return as_box(rect)
    x0, y0, x1, y1 = rect
    up, down, left, right = y0 - margin, y1 + margin, x0 - margin, x1 + margin
    share = 0.5 if halfway else 1.0
    for ox0, oy0, ox1, oy1 in others:
        if ox0 < x1 and ox1 > x0:  # facing the top or bottom side
            if oy1 <= y0:
                up = max(up, y0 - share * (y0 - oy1))
            elif oy0 >= y1:
                down = min(down, y1 + share * (oy0 - y1))
        if oy0 < y1 and oy1 > y0:  # facing the left or right side
            if ox1 <= x0:
                left = max(left, x0 - share * (x0 - ox1))
            elif ox0 >= x1:
                right = min(right, x1 + share * (ox0 - x1))
    return Box(
        round(max(0.0, min(x0, left)), 2),
        round(max(0.0, min(y0, up)), 2),
        round(min(page_w, max(x1, right)), 2),
        round(min(page_h, max(y1, down)), 2),
    )
