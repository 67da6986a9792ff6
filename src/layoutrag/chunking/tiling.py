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
from layoutrag.records import BBox, Box, Word

__all__ = ["fit_to_words", "tile_boxes"]

_INSIDE = 0.6
_FIT_PT = 4.0  # a member box grows at most this much per side to hold its own words


def _bands(idx: list[int], boxes: Sequence[BBox]) -> list[list[int]]:
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


def tile_boxes(boxes: Sequence[BBox]) -> list[BBox]:
    """The slot of each box (same order) in the rectangle around all of them."""
    boxes = [as_box(b) for b in boxes]
    n = len(boxes)
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
    X0, Y0, X1, Y1 = union_box(boxes[i] for i in top)
    out: list[BBox] = [as_box(b) for b in boxes]
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


def fit_to_words(box: BBox, words: Sequence[Word]) -> BBox:
    """`box` grown to hold the words whose centre lies inside it (detectors box text a little
    tighter than its glyphs), by at most ``_FIT_PT`` per side."""
    bx0, by0, bx1, by1 = box
    x0, y0, x1, y1 = box
    for w in words:
        wb = w.bbox_pdf
        cx, cy = wb.center
        if not (bx0 <= cx <= bx1 and by0 <= cy <= by1):
            continue
        x0, y0 = min(x0, max(wb.x0, bx0 - _FIT_PT)), min(y0, max(wb.y0, by0 - _FIT_PT))
        x1, y1 = max(x1, min(wb.x1, bx1 + _FIT_PT)), max(y1, min(wb.y1, by1 + _FIT_PT))
    return Box(x0, y0, x1, y1)
