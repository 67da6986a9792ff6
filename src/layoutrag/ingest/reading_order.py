"""Stage 4 — reading order: recursive XY-cut over element boxes, column-aware.

At each level the region is first cut at vertical white-space gaps (columns, read left to right),
else at horizontal gaps (bands, read top to bottom), where neighbouring bands that together still
have a column gap, each having columns, are kept together; a region that cannot be cut is read by (top, left). Cutting columns first is what keeps a datasheet's side-by-side "Features" and
"Applications" lists whole even when their paragraphs line up; a full-width element (title, a
wide table) blocks the column cut, so the page is first split into bands above and below it.
"""

from __future__ import annotations

from collections.abc import Sequence

from layoutrag.records import BBox, Element

__all__ = ["assign_ids", "element_id", "order_elements", "xy_cut"]

MIN_COLUMN_GAP_PT = 4.0
MIN_BAND_GAP_PT = 0.5


def element_id(doc_id: str, page: int, order: int) -> str:
    return f"{doc_id}_p{page}_e{order:03d}"


def _split(boxes: Sequence[BBox], idx: list[int], axis: int, min_gap: float) -> list[list[int]]:
    """Groups of `idx` separated by gaps ≥ min_gap along axis (0 = x, 1 = y), in axis order."""
    lo, hi = axis, axis + 2
    items = sorted(idx, key=lambda i: (boxes[i][lo], boxes[i][hi]))
    groups: list[list[int]] = [[items[0]]]
    reach = boxes[items[0]][hi]
    for i in items[1:]:
        if boxes[i][lo] - reach >= min_gap:
            groups.append([i])
        else:
            groups[-1].append(i)
        reach = max(reach, boxes[i][hi])
    return groups


def xy_cut(boxes: Sequence[BBox]) -> list[int]:
    """Indices of `boxes` in reading order."""

    def has_columns(idx: list[int]) -> bool:
        return len(_split(boxes, idx, 0, MIN_COLUMN_GAP_PT)) > 1

    def rec(idx: list[int], depth: int) -> list[int]:
        if len(idx) <= 1 or depth > 64:
            return sorted(idx, key=lambda i: (boxes[i][1], boxes[i][0]))
        columns = _split(boxes, idx, 0, MIN_COLUMN_GAP_PT)
        if len(columns) > 1:
            return [i for g in columns for i in rec(g, depth + 1)]
        bands = _split(boxes, idx, 1, MIN_BAND_GAP_PT)
        if len(bands) > 1:
            # Re-join neighbouring two-column bands while together they still have a column gap: two
            # lists side by side whose items line up split into one band per row, which would
            # interleave them. A one-column band (a heading over a full-width table) is not joined.
            merged = [bands[0]]
            for band in bands[1:]:
                if has_columns(merged[-1]) and has_columns(band) and has_columns(merged[-1] + band):
                    merged[-1] = merged[-1] + band
                else:
                    merged.append(band)
            if len(merged) == 1:  # cannot happen (the whole region has no column gap); stay safe
                merged = bands
            return [i for g in merged for i in rec(g, depth + 1)]
        return sorted(idx, key=lambda i: (boxes[i][1], boxes[i][0], boxes[i][3], boxes[i][2]))

    return rec(list(range(len(boxes))), 0)


def assign_ids(elements: Sequence[Element], doc_id: str) -> list[Element]:
    """Elements already in reading order → copies with `order` and `element_id` set."""
    return [
        e.model_copy(update={"order": i, "element_id": element_id(doc_id, e.page, i)})
        for i, e in enumerate(elements)
    ]


def order_elements(elements: Sequence[Element], doc_id: str) -> list[Element]:
    """Reading order for one page's elements; sets `order` and `element_id`."""
    ranked = xy_cut([e.bbox_pdf for e in elements])
    return assign_ids([elements[i] for i in ranked], doc_id)
