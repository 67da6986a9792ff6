"""Table rows and cells, and tables continued across a page break.

Rows come from PyMuPDF's ``find_tables`` restricted to the detected table box (its ruling-line
strategy); when it finds nothing there, from the words inside the box: text lines, merged into
rows between horizontal ruling lines when the table has them, cells cut at x-gaps that run
through the whole table.

Coordinates: ``find_tables`` and ``get_drawings`` work in the *unrotated* page space; boxes are
converted to the displayed space (the stored ``bbox_pdf`` space) with ``page.rotation_matrix``,
and the detected table box is converted back with ``page.derotation_matrix`` for the clip.

A page of the source PDF comes as a :class:`PdfPage`: loaded once per document build, its vector
drawings read at most once and shared by the ruling lines of table rows and the ruled extents of
tables and pictures (``pdf.page_drawings``: raw ``get_cdrawings`` items, tuples). ``find_tables`` reads the
drawings itself: it edits the paths it is given and derotates a rotated page before reading them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pymupdf

from layoutrag.chunking.group import Group, x_overlap_frac
from layoutrag.chunking.rules import enabled
from layoutrag.geometry import as_box, contains_frac, intersection, union_box
from layoutrag.pdf import PdfPage
from layoutrag.records import BBox, Box, Element, Page, TableRow, Word

__all__ = [
    "join_continued_tables",
    "ruled_boxes",
    "rows_from_pymupdf",
    "rows_from_words",
    "table_rows",
]

_MIN_COL_GAP_PT = 7.0  # an x-gap this wide through every line separates two columns
_CONTINUED_RE = re.compile(r"continu|cont'd|\(cont\.?\)|续", re.IGNORECASE)
_CAPTION_NUM_RE = re.compile(r"^\s*(?:table|tab\.|表)\s*([\dA-Z][\w.\-]*)", re.IGNORECASE)


# --------------------------------------------------------------------------- rows of one table
def table_rows(
    table: Element, words: list[Word], pdf_page: PdfPage | None, box: BBox | None = None
) -> tuple[list[TableRow], list[str]]:
    """Rows (top to bottom) and header cells of one detected table.

    `box`: the table's ruled extent (``ruled_boxes``) when it differs from the detector's box. A
    detector box a few points short of the rule closing the last row leaves that row unclosed
    (find_tables drops it), and one short of the outer columns cuts them off; the table is read in
    both boxes and the ruled reading kept when it has no fewer rows and reads more of the page's
    words (a ruled header over an unruled body reads as fewer rows: the detector's box is kept)."""
    rows, header = _table_rows_in(table, table.bbox_pdf, words, pdf_page)
    if box is not None and tuple(box) != tuple(table.bbox_pdf) and pdf_page is not None:
        wide, wide_header = _table_rows_in(table, box, words, pdf_page)
        if len(wide) >= len(rows) and _n_words(wide) > _n_words(rows):
            return wide, wide_header
    return rows, header


def _n_words(rows: list[TableRow]) -> int:
    return sum(len(c.split()) for r in rows for c in r.cells)


def _table_rows_in(
    table: Element, box: BBox, words: list[Word], pdf_page: PdfPage | None
) -> tuple[list[TableRow], list[str]]:
    rows: list[TableRow] = []
    header: list[str] = []
    if pdf_page is not None:
        try:
            rows, header = rows_from_pymupdf(
                pdf_page.page, box, table.page, words, curved_rules(pdf_page.drawings())
            )
        except Exception:  # a broken content stream must not stop the document
            rows, header = [], []
    if len(rows) < 2:
        hlines = _horizontal_rules(pdf_page, box) if pdf_page is not None else []
        rows, header = rows_from_words(words, box, table.page, hlines)
    return rows, header


def _to_display(page: pymupdf.Page, box: Sequence[float] | pymupdf.Rect | object) -> BBox:
    r = pymupdf.Rect(box) * page.rotation_matrix
    r.normalize()
    return Box(round(r.x0, 2), round(r.y0, 2), round(r.x1, 2), round(r.y1, 2))


def _to_unrotated(page: pymupdf.Page, box: Sequence[float]) -> pymupdf.Rect:
    r = pymupdf.Rect(box) * page.derotation_matrix
    r.normalize()
    return r


def _cell_text(s: object) -> str:
    return re.sub(r"\s+", " ", str(s)).strip() if s is not None else ""


def _words_text(words: list[Word], box: Sequence[float]) -> str:
    x0, y0, x1, y1 = box
    inside = [
        w
        for w in words
        if x0 <= (w.bbox_pdf.x0 + w.bbox_pdf.x1) / 2 < x1 and y0 <= (w.bbox_pdf.y0 + w.bbox_pdf.y1) / 2 < y1
    ]
    return " ".join(w.text for w in _reading(inside))


def _cells_text(
    page: pymupdf.Page, cells: Sequence[object], fallback: list[object], words: list[Word]
) -> list[str]:
    """Cell texts from the page's words (whole tokens: find_tables' own extraction can split
    "26.000" into "26000 ." by glyph boxes); its text where the cell holds no word's middle but a
    word reaches into it. A cell no word touches gets no text: what find_tables reads there are
    characters the page's words leave out - a watermark's letters ("i p", "t i a" of "Confidential -
    Prepared for ..." set diagonally over a characteristics table; `pdf.watermark_lines`)."""
    out = []
    for i, cell in enumerate(cells):
        fb = _cell_text(fallback[i]) if i < len(fallback) else ""
        if cell is None:
            out.append("")
            continue
        box = _to_display(page, cell)
        t = _words_text(words, box) if words else ""
        if not t and words and WATERMARK_CELLS and not any(intersection(w.bbox_pdf, box) > 0 for w in words):
            fb = ""
        out.append(t or fb)
    return out


WATERMARK_CELLS = True  # chunk-19; off for an ablation (tests/test_watermark.py)


CURVED_RULES = True  # chunk-18; off for an ablation (benchmarks/curved_rules.py)
_RULE_THIN_MAX_PT = 3.0  # find_tables' own bound for a filled rectangle simulating a line
_RULE_LONG_MIN_PT = 10.0  # longer than a vector-drawn glyph's stroke


def curved_rules(drawings: list[dict] | None) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Ruling lines drawn as thin filled paths with curved ends (a rule 0.5-1.5 pt thick whose
    outline has Bézier segments, as some word processors write table borders): ``find_tables``
    reads lines, rectangles and quads only and skips these paths, so a grid drawn with them is
    not found and the table falls back to text lines. Each such path as the centre line of its
    box (unrotated page space), for ``find_tables(add_lines=...)``; a path of lines and
    rectangles only is left to ``find_tables`` itself."""
    if not CURVED_RULES or not drawings:
        return []
    out: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for d in drawings:
        if d.get("type") != "f" or not any(it[0] == "c" for it in d.get("items", ())):
            continue
        r = pymupdf.Rect(d["rect"])
        if r.height <= _RULE_THIN_MAX_PT and r.width >= _RULE_LONG_MIN_PT:
            y = (r.y0 + r.y1) / 2
            out.append(((r.x0, y), (r.x1, y)))
        elif r.width <= _RULE_THIN_MAX_PT and r.height >= _RULE_LONG_MIN_PT:
            x = (r.x0 + r.x1) / 2
            out.append(((x, r.y0), (x, r.y1)))
    return out


def rows_from_pymupdf(
    page: pymupdf.Page,
    box: Sequence[float],
    page_no: int,
    words: list[Word] | None = None,
    rules: list[tuple[tuple[float, float], tuple[float, float]]] | None = None,
) -> tuple[list[TableRow], list[str]]:
    """Rows of the table in `box` from ``find_tables``; `rules`: ruling lines it would not read
    itself (:func:`curved_rules`), in unrotated page space."""
    words = words or []
    clip = _to_unrotated(page, box) + (-2, -2, 2, 2)
    near = [
        ((x0, y0), (x1, y1))
        for (x0, y0), (x1, y1) in rules or []
        if x0 <= clip.x1 + 4 and x1 >= clip.x0 - 4 and y0 <= clip.y1 + 4 and y1 >= clip.y0 - 4
    ]
    found = page.find_tables(clip=clip, use_layout=False, add_lines=near or None)
    tables = [t for t in found.tables if t.row_count >= 1]
    if not tables:
        return [], []
    tables.sort(key=lambda t: (t.bbox[1], t.bbox[0]))
    rows: list[TableRow] = []
    header: list[str] = []
    for ti, t in enumerate(tables):
        data = t.extract()
        hdr = t.header
        external = None
        if hdr is not None and hdr.external and hdr.names:
            hbox = _to_display(page, hdr.bbox)
            # find_tables looks above the grid for a header; above the *detected* box it is a
            # caption or a heading, not the table's header
            if contains_frac(hbox, box) >= 0.8:
                external = [_cell_text(n) for n in hdr.names]
                if ti == 0 and any(external):
                    header = external
                    rows.append(
                        TableRow(
                            page=page_no,
                            bbox_pdf=hbox,
                            cells=external,
                            cell_boxes=_cell_boxes(page, list(getattr(hdr, "cells", []) or []), hbox, len(external)),
                            text=" | ".join(n for n in external if n),
                            is_header=True,
                        )
                    )
        first_is_header = False
        if ti == 0 and external is None and t.rows:
            first = _cells_text(page, t.rows[0].cells, list(data[0]) if data else [], words)
            if (hdr is not None and not hdr.external) or _looks_like_header(first):
                if _looks_like_header(first):
                    header, first_is_header = first, True
        for ri, (row, cells) in enumerate(zip(t.rows, data, strict=False)):
            texts = _cells_text(page, row.cells, list(cells), words)
            if not any(texts):
                continue
            rbox = _to_display(page, row.bbox)
            rows.append(
                TableRow(
                    page=page_no,
                    bbox_pdf=rbox,
                    cells=texts,
                    cell_boxes=_cell_boxes(page, list(row.cells), rbox, len(texts)),
                    text=" | ".join(c for c in texts if c),
                    is_header=(ri == 0 and first_is_header),
                )
            )
    return rows, header


def _cell_boxes(page: pymupdf.Page, cells: list[object], row_box: BBox, n: int) -> list[BBox]:
    """One displayed-space box per cell; a cell find_tables leaves out (None: covered by a span
    from its left) gets the box of the cell that spans it. [] when they cannot be paired."""
    if len(cells) != n:
        return []
    out: list[BBox] = []
    for c in cells:
        if c is None:
            out.append(out[-1] if out else row_box)
        else:
            out.append(_to_display(page, c))
    return out


def _looks_like_header(cells: list[str]) -> bool:
    """A header row: at least two labels, none of them a bare number."""
    filled = [c for c in cells if c]
    if len(filled) < 2 and not (len(cells) == 1 and filled):
        return False
    return not any(re.fullmatch(r"[-+±]?[\d.,]+", c) for c in filled)


def _horizontal_rules(pdf_page: PdfPage | None, box: Sequence[float]) -> list[float]:
    """y positions (displayed space) of horizontal lines spanning most of the table width."""
    if pdf_page is None:
        return []
    page = pdf_page.page
    clip = _to_unrotated(page, box)
    x0, _, x1, _ = box
    width = x1 - x0
    ys: list[float] = []
    drawings = pdf_page.drawings()
    if drawings is None:
        return []
    for d in drawings:
        for item in d.get("items", []):
            if item[0] == "l":
                p0, p1 = item[1], item[2]
                r = pymupdf.Rect(p0, p1)
            elif item[0] == "re":
                r = pymupdf.Rect(item[1])
                r.normalize()  # raw items (pdf.page_drawings) are as drawn
                if r.height > 2.5:
                    continue
            else:
                continue
            r.normalize()
            if not r.intersects(clip + (-1, -1, 1, 1)):
                continue
            dr = _to_display(page, r)
            if dr[3] - dr[1] <= 2.5 and dr[2] - dr[0] >= 0.5 * width:
                ys.append((dr[1] + dr[3]) / 2)
    ys.sort()
    merged: list[float] = []
    for y in ys:
        if not merged or y - merged[-1] > 2.0:
            merged.append(y)
    return merged


def _text_lines(words: list[Word]) -> list[list[Word]]:
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: ((w.bbox_pdf.y0 + w.bbox_pdf.y1) / 2, w.bbox_pdf.x0)):
        cy = (w.bbox_pdf.y0 + w.bbox_pdf.y1) / 2
        if lines:
            last = lines[-1]
            y0 = min(x.bbox_pdf.y0 for x in last)
            y1 = max(x.bbox_pdf.y1 for x in last)
            if y0 <= cy <= y1:
                last.append(w)
                continue
        lines.append([w])
    return [sorted(line, key=lambda w: w.bbox_pdf.x0) for line in lines]


def _column_cuts(words: list[Word], x0: float, x1: float) -> list[float]:
    """x positions where an empty vertical strip of at least _MIN_COL_GAP_PT crosses all words."""
    spans = sorted((w.bbox_pdf.x0, w.bbox_pdf.x1) for w in words)
    cuts: list[float] = []
    reach = x0
    started = False
    for a, b in spans:
        if started and a - reach >= _MIN_COL_GAP_PT:
            cuts.append((a + reach) / 2)
        reach = max(reach, b) if started else b
        started = True
    return [c for c in cuts if x0 < c < x1]


def rows_from_words(
    words: list[Word], box: Sequence[float], page_no: int, hlines: list[float] | None = None
) -> tuple[list[TableRow], list[str]]:
    inside = [w for w in words if contains_frac(w.bbox_pdf, box) >= 0.5 and w.text.strip()]
    if not inside:
        return [], []
    lines = _text_lines(inside)
    # rows: between ruling lines when there are enough of them, else one text line each
    bx0, by0, bx1, by1 = box
    rules = [y for y in (hlines or []) if by0 + 2 < y < by1 - 2]
    bands: list[list[Word]] = []
    if len(rules) >= 2:
        edges = [by0, *rules, by1]
        for a, b in zip(edges, edges[1:], strict=False):
            band = [w for ln in lines for w in ln if a <= (w.bbox_pdf.y0 + w.bbox_pdf.y1) / 2 < b]
            if band:
                bands.append(band)
    else:
        bands = lines
    cuts = _column_cuts(inside, bx0, bx1)
    rows: list[TableRow] = []
    for band in bands:
        cells: list[list[Word]] = [[] for _ in range(len(cuts) + 1)]
        for w in sorted(band, key=lambda w: (w.bbox_pdf.y0, w.bbox_pdf.x0)):
            cx = (w.bbox_pdf.x0 + w.bbox_pdf.x1) / 2
            cells[sum(1 for c in cuts if c < cx)].append(w)
        texts = [" ".join(w.text for w in _reading(c)) for c in cells]
        rb = union_box(w.bbox_pdf for w in band)
        edges = [bx0, *cuts, bx1]
        boxes = [Box(round(a, 2), rb.y0, round(b, 2), rb.y1) for a, b in zip(edges, edges[1:], strict=False)]
        rows.append(
            TableRow(
                page=page_no, bbox_pdf=rb, cells=texts, text=" | ".join(t for t in texts if t), cell_boxes=boxes
            )
        )
    header: list[str] = []
    if len(rows) >= 2:
        rows[0].is_header = True
        header = list(rows[0].cells)
    return rows, header


def _reading(ws: list[Word]) -> list[Word]:
    return [w for line in _text_lines(ws) for w in line]


# --------------------------------------------------------------------------- ruled extent
_SNAP_PT = 8.0  # a ruling this close outside a detected table/picture box is its edge


def ruled_boxes(
    pdf_page: PdfPage | None,
    boxes: dict[str, BBox],
    *,
    tables: set[str] | frozenset[str] = frozenset(),
    others: dict[str, BBox] | None = None,
) -> dict[str, BBox]:
    """Each box grown to the ruling lines and frames drawn across its edge.

    Detectors box a ruled table (or a framed drawing) a few points inside its outer lines; the
    drawn grid is the table's real extent. A drawing item (line, rectangle, curve) that touches the
    box and reaches at most ``_SNAP_PT`` beyond it extends the box; bigger items (page frames,
    neighbouring tables) are ignored. A table (ids in `tables`) also takes the width of the row
    rules drawn through it (:func:`_row_rules_extent`), unless another element of `others` lies in
    the strip it would gain."""
    if pdf_page is None or not boxes:
        return dict(boxes)
    page = pdf_page.page
    drawings = pdf_page.drawings()
    if drawings is None:
        return dict(boxes)
    items = _drawing_item_boxes(page, drawings)
    out = {key: union_box([b, *(r for r in items if _snaps_to(r, b))]) for key, b in boxes.items()}
    if enabled("ruled_rows"):
        for key in tables & out.keys():
            out[key] = _row_rules_extent(out[key], items, {k: v for k, v in (others or {}).items() if k != key})
    return out


def _drawing_item_boxes(page: pymupdf.Page, drawings: list[dict]) -> list[BBox]:
    """The display box of every drawing item (line, rectangle, quad, curve) of a page.

    An unrotated page (nearly all) takes a float fast path: the items' coordinates are exact
    float32 values, so min/max and the 2-decimal rounding give the same boxes as transforming a
    ``pymupdf.Rect`` by the identity matrix, at a fraction of the cost (a page of vector-drawn
    glyphs holds 10k+ items). Rotated pages go through PyMuPDF's own transform."""
    out: list[BBox] = []
    fast = page.rotation == 0
    for d in drawings:
        for item in d.get("items", []):
            kind = item[0]
            if kind == "re":
                x0, y0, x1, y1 = item[1]
                if x1 < x0:  # raw items (pdf.page_drawings) are as drawn: normalized here
                    x0, x1 = x1, x0
                if y1 < y0:
                    y0, y1 = y1, y0
            elif kind == "qu":
                xs = [p[0] for p in item[1]]
                ys = [p[1] for p in item[1]]
                x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
            else:
                pts = [p for p in item[1:] if isinstance(p, tuple | pymupdf.Point) and len(p) == 2]
                if not pts:
                    continue
                xs = [p[0] for p in pts]
                ys = [p[1] for p in pts]
                x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
            if fast:
                if x1 < x0:
                    x0, x1 = x1, x0
                if y1 < y0:
                    y0, y1 = y1, y0
                out.append(Box(round(x0, 2), round(y0, 2), round(x1, 2), round(y1, 2)))
            else:
                out.append(_to_display(page, (x0, y0, x1, y1)))
    return out


_RULE_THIN_PT = 2.0
_MIN_ROW_RULES = 3


def _row_rules_extent(b: BBox, items: list[BBox], others: dict[str, BBox]) -> BBox:
    """A ruled table whose detector box stops at its text (a short last column, an empty cell
    column) is as wide as the horizontal rules drawn through it: when at least ``_MIN_ROW_RULES``
    row rules cross the box and run on past one side, the box takes the width most of them reach
    (the third-farthest), if no other element sits in the strip gained."""
    x0, y0, x1, y1 = b
    rules = [
        r
        for r in map(as_box, items)
        if r.y1 - r.y0 <= _RULE_THIN_PT
        and y0 - _SNAP_PT <= (r.y0 + r.y1) / 2 <= y1 + _SNAP_PT
        and r.x0 < x1 - 1
        and r.x1 > x0 + 1
    ]
    if len(rules) < _MIN_ROW_RULES:
        return b
    k = _MIN_ROW_RULES - 1
    right = sorted((r.x1 for r in rules), reverse=True)[k]
    left = sorted(r.x0 for r in rules)[k]
    if right > x1 + _SNAP_PT and not _occupied(Box(x1, y0, right, y1), b, others):
        x1 = right
    if left < x0 - _SNAP_PT and not _occupied(Box(left, y0, x0, y1), b, others):
        x0 = left
    return Box(x0, y0, x1, y1)


def _occupied(strip: BBox, table: BBox, others: dict[str, BBox]) -> bool:
    """Does an element that is not part of the table (not mostly inside it) take up part of `strip`?"""
    for o in others.values():
        if contains_frac(o, table) >= 0.5:
            continue
        w = min(o[2], strip[2]) - max(o[0], strip[0])
        h = min(o[3], strip[3]) - max(o[1], strip[1])
        if w > 1 and h > 1:
            return True
    return False


def _snaps_to(r: BBox, b: BBox) -> bool:
    """Does drawing item `r` touch box `b` and reach at most ``_SNAP_PT`` beyond it?"""
    rx0, ry0, rx1, ry1 = r
    bx0, by0, bx1, by1 = b
    if rx1 < bx0 - 1 or rx0 > bx1 + 1 or ry1 < by0 - 1 or ry0 > by1 + 1:
        return False  # does not touch the box
    return not (rx0 < bx0 - _SNAP_PT or ry0 < by0 - _SNAP_PT or rx1 > bx1 + _SNAP_PT or ry1 > by1 + _SNAP_PT)


# --------------------------------------------------------------------------- continuation
def _content_groups(groups: list[Group]) -> list[Group]:
    return [g for g in groups if g.block_type not in ("page_header", "page_footer")]


def _n_cols(g: Group) -> int:
    counts = [len(r.cells) for r in g.rows if r.page == g.members[-1].page]
    return max(counts) if counts else 0


def _table_el(g: Group, last: bool) -> Element:
    tables = [m for m in g.members if m.label == "table"]
    return (
        max(tables, key=lambda m: (m.page, m.order)) if last else min(tables, key=lambda m: (m.page, m.order))
    )


def _caption_number(g: Group) -> str | None:
    for m in g.members:
        if m.label in ("caption", "text", "section_header"):
            mm = _CAPTION_NUM_RE.match(m.text)
            if mm:
                return mm.group(1).rstrip(".").lower()
    return None


_EDGE_FRAC = (
    0.12  # a part cut by the page break ends / starts within this share of page height of the text area
)


def _text_area(page: Page) -> tuple[float, float]:
    """Top and bottom of the page's body: below the header band, above the footer band."""
    heads = [
        e.bbox_pdf.y1
        for e in page.elements
        if e.label == "page_header" and e.bbox_pdf.y1 < page.height_pt * 0.2
    ]
    foots = [
        e.bbox_pdf.y0
        for e in page.elements
        if e.label == "page_footer" and e.bbox_pdf.y0 > page.height_pt * 0.8
    ]
    return (max(heads) if heads else 0.0, min(foots) if foots else page.height_pt)


def _is_continuation(prev: Group, nxt: Group, prev_page: Page, next_page: Page, between: list[Group]) -> bool:
    """Is table group `nxt` (top of its page) the continuation of `prev` (end of the previous page)?

    Both parts must touch the page break (the first ends at the bottom of its page's body, the
    second starts at the top of the next), line up, and show a sign of being one table: the word
    "continued", the same caption number, the same heading repeated, or — with nothing at all
    between them — the same columns. A heading or a different caption between them means a new
    table (datasheets reuse one header row, PARAMETER | MIN | TYP | MAX, for every table)."""
    a, b = _table_el(prev, last=True), _table_el(nxt, last=False)
    h_prev, h_next = prev_page.height_pt, next_page.height_pt
    text_between = " ".join(m.text for g in between for m in g.members)
    own_labels = " ".join(m.text for m in nxt.members if m.label != "table")
    continued_word = bool(_CONTINUED_RE.search(text_between + " " + own_labels))
    cap_prev, cap_next = _caption_number(prev), _caption_number(nxt)
    if continued_word and cap_prev is not None and cap_next == cap_prev:
        # "Table 2 ... (continued)" under "Table 2": said outright, wherever the page break fell
        # (a layout that keeps rows together may leave room under the first part)
        return x_overlap_frac(a.bbox_pdf, b.bbox_pdf) > 0.5
    if _text_area(prev_page)[1] - a.bbox_pdf.y1 > _EDGE_FRAC * h_prev:
        return False  # room left under the table: the page break did not cut it
    top_of_next = min([b.bbox_pdf.y0, *(m.bbox_pdf.y0 for g in between for m in g.members)])
    if top_of_next - _text_area(next_page)[0] > _EDGE_FRAC * h_next:
        return False
    if x_overlap_frac(a.bbox_pdf, b.bbox_pdf) <= 0.8:
        return False
    if cap_next is not None and cap_next != cap_prev and not continued_word:
        return False  # the next table has its own (different) caption
    if continued_word or (cap_prev is not None and cap_next == cap_prev):
        return True
    prev_heads = {_norm(m.text) for m in prev.members if m.label in ("section_header", "caption")}
    between_heads = [_norm(m.text) for g in between for m in g.members]
    if between_heads:
        return all(t in prev_heads for t in between_heads)  # the same heading repeated
    if any(m.label in ("section_header", "caption") for m in nxt.members):
        return False  # the next part has a title of its own
    t_next = _title_line(b, nxt.header)
    if t_next is not None and t_next != _title_line(a, prev.header):
        return False  # a title inside the table box ("AC ELECTRICAL CHARACTERISTICS ..."): a new table
    same_x = abs(a.bbox_pdf.x0 - b.bbox_pdf.x0) < 20 and abs(a.bbox_pdf.x1 - b.bbox_pdf.x1) < 20
    ca, cb = _n_cols(prev), _n_cols(nxt)
    return same_x and ca > 0 and ca == cb


def _title_line(table: Element, header: list[str]) -> str | None:
    """The table's own title line when its box starts with one: mostly upper-case words, not the
    header row."""
    first = (table.text or "").strip().split("\n", 1)[0]
    letters = [c for c in first if c.isalpha()]
    if len(letters) < 8 or sum(c.isupper() for c in letters) < 0.7 * len(letters):
        return None
    head = _norm(" ".join(header))
    if head and (_norm(first).startswith(head[:20]) or head.startswith(_norm(first)[:20])):
        return None
    return _norm(first)


def _norm(text: str) -> str:
    return re.sub(r"\W+", " ", text).strip().lower()


def join_continued_tables(
    groups_by_page: dict[int, list[Group]], pages: dict[int, Page]
) -> dict[int, list[Group]]:
    """Merge a table continued at the top of the next page into the previous page's table group.

    The merged group keeps its first page (where its chunk id is counted); the continuation's
    members keep their own page and box. Short "continued" lines or a repeated section heading
    between the two parts join the merged group."""
    page_nos = sorted(groups_by_page)
    for pn in page_nos:
        nn = pn + 1
        if nn not in groups_by_page:
            continue
        # the last content on page pn may belong to a group that started earlier (a 3-page table)
        on_pn = [g for gs in groups_by_page.values() for g in gs if any(m.page == pn for m in g.members)]
        prev_content = _content_groups(on_pn)
        next_content = _content_groups(groups_by_page[nn])
        if not prev_content or not next_content:
            continue
        prev = max(prev_content, key=lambda g: max(m.order for m in g.members if m.page == pn))
        # the first table on the next page, with only headings / "continued" lines before it
        idx = next((i for i, g in enumerate(next_content) if g.block_type == "table"), None)
        if prev.block_type != "table" or idx is None or idx > 2:
            continue
        nxt, between = next_content[idx], next_content[:idx]
        if not _is_continuation(prev, nxt, pages[pn], pages[nn], between):
            continue
        for g in [*between, nxt]:
            prev.members.extend(g.members)
            groups_by_page[nn].remove(g)
        prev.rows.extend(nxt.rows)
        if not prev.header:
            prev.header = nxt.header
        prev.sort_members()
    return groups_by_page
