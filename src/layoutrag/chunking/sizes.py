"""Units at several sizes: besides the reading unit, the block it sits in and its page.

A reading unit (a table with its caption, a figure, a paragraph run) is what the grouping rules
make. When they cut a region a reader sees as one thing into pieces (a part-number decode drawn as
a heading, a big line and a notes list; a drawing with its labels beside it), a larger unit still
holds it whole:

- a **block**: reading units of one page that stack in one column or sit side by side on one band
  with at most ``Settings.chunking.chunk_block_gap_frac`` of the page height between them (measured
  on their elements' boxes, before the margin), nothing else in between; a block of one unit, or
  of every unit of the page, is not made (the unit or the page is that unit already);
- the **page**: every indexed unit of the page.

A larger unit is a :class:`Chunk` with ``unit`` "block" or "page", member boxes = its units'
stored boxes on that page, text = theirs in reading order, and ``parent`` set on each unit it
holds (unit -> block -> page). They are made only when ``Settings.chunking.chunk_sizes`` asks for
them (default "unit": none), because indexed they change search results.
"""

from __future__ import annotations

from collections.abc import Sequence

from scipy.cluster.hierarchy import DisjointSet

from layoutrag.chunking.group import x_overlap_frac
from layoutrag.config import Settings
from layoutrag.geometry import as_box, union_box
from layoutrag.records import BBox, Box, Chunk, Region

__all__ = ["SIZES", "block_components", "larger_units"]

SIZES = ("unit", "block", "page")
_BAND_OVERLAP = 0.5  # side by side: the boxes share this much of the smaller one's height
_COLUMN_OVERLAP = 0.5  # stacked: the boxes share this much of the narrower one's width


def _y_overlap(a: Sequence[float], b: Sequence[float]) -> float:
    _, ay0, _, ay1 = a
    _, by0, _, by1 = b
    h = min(ay1, by1) - max(ay0, by0)
    short = min(ay1 - ay0, by1 - by0)
    return max(0.0, h) / short if short > 0 else 0.0


def _between_free(a: BBox, b: BBox, rects: Sequence[BBox], skip: set[int]) -> bool:
    """No other rect's centre lies in the gap between `a` and `b`."""
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    stacked = ay1 <= by0 or by1 <= ay0
    gap = Box(
        min(ax0, bx0),
        min(ay1, by1) if stacked else max(ay0, by0),
        max(ax1, bx1),
        max(ay0, by0) if stacked else min(ay1, by1),
    )
    if ax1 <= bx0 or bx1 <= ax0:  # side by side: the gap is the strip between them
        gap = Box(min(ax1, bx1), max(ay0, by0), max(ax0, bx0), min(ay1, by1))
    for k, r in enumerate(rects):
        if k in skip:
            continue
        cx, cy = as_box(r).center
        if gap.x0 < cx < gap.x1 and gap.y0 < cy < gap.y1:
            return False
    return True


def block_components(rects: Sequence[BBox], max_gap: float) -> list[list[int]]:
    """Indices of the units (by their elements' rectangle) that form one block each, in order."""
    n = len(rects)
    sets = DisjointSet(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            a, b = rects[i], rects[j]
            vgap = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
            hgap = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
            stacked = x_overlap_frac(a, b) >= _COLUMN_OVERLAP and vgap <= max_gap
            beside = _y_overlap(a, b) >= _BAND_OVERLAP and hgap <= max_gap
            if (stacked or beside) and _between_free(a, b, rects, {i, j}):
                sets.merge(i, j)
    return sorted((sorted(c) for c in sets.subsets()), key=lambda c: c[0])


def _on_page(c: Chunk, page: int) -> list[Region]:
    return [r for r in c.all_regions() if r.page == page]


def larger_units(
    chunks: list[Chunk], element_boxes: dict[str, BBox], page_heights: dict[int, float], settings: Settings
) -> list[Chunk]:
    """The block and page units over `chunks` (one document's reading units), as asked by
    ``settings.chunking.chunk_sizes``; sets ``parent`` on the units they hold."""
    upto = SIZES.index(settings.chunking.chunk_sizes)
    if upto == 0:
        return []
    by_page: dict[int, list[Chunk]] = {}
    for c in chunks:
        if c.indexed and c.unit == "unit":
            by_page.setdefault(c.page, []).append(c)
    out: list[Chunk] = []
    for page, units in sorted(by_page.items()):
        page_chunk = _merged(units, page, f"{units[0].doc_id}_p{page}_page", "page") if len(units) > 1 else None
        if upto >= 1:
            rects = [
                union_box(element_boxes.get(e, r.bbox_pdf) for e, r in zip(c.element_ids, c.all_regions(), strict=False) if r.page == page)
                if _on_page(c, page)
                else Box(0.0, 0.0, 0.0, 0.0)
                for c in units
            ]
            gap = settings.chunking.chunk_block_gap_frac * page_heights.get(page, 792.0)
            nn = 0
            for comp in block_components(rects, gap):
                if len(comp) < 2 or len(comp) == len(units):
                    continue
                block = _merged([units[i] for i in comp], page, f"{units[0].doc_id}_p{page}_k{nn:02d}", "block")
                nn += 1
                for i in comp:
                    units[i].parent = block.chunk_id
                if page_chunk is not None and upto >= 2:
                    block.parent = page_chunk.chunk_id
                out.append(block)
        if page_chunk is not None and upto >= 2:
            for c in units:
                if c.parent is None:
                    c.parent = page_chunk.chunk_id
            out.append(page_chunk)
    return out


def _merged(units: list[Chunk], page: int, chunk_id: str, size: str) -> Chunk:
    first = units[0]
    regions = [r for c in units for r in _on_page(c, page)]
    types = [c.block_type for c in units]
    return Chunk(
        chunk_id=chunk_id,
        doc_id=first.doc_id,
        page=page,
        source_pdf=first.source_pdf,
        bboxes_pdf=[r.bbox_pdf for r in regions],
        regions=regions,
        page_size_pt=first.page_size_pt,
        block_type=max(set(types), key=types.count) if size == "block" else "page",
        section_title=first.section_title,
        toc_path=first.toc_path,
        native_text="\n".join(c.native_text for c in units if c.native_text),
        description=" / ".join(dict.fromkeys(c.description for c in units if c.description))[:600],
        keywords=list(dict.fromkeys(k for c in units for k in c.keywords))[:24],
        element_ids=[e for c in units for e in c.element_ids],
        unit=size,
    )
