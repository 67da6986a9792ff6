"""Stage 3 — text: give each element the words whose centre lies in its box, in reading order.

Words no element covers are never lost: they are grouped by their text-layer block (or OCR line)
into extra ``text`` elements with ``source_label = "orphan_text"``, so every word of the page
belongs to at least one element. Nested elements of different classes (a caption inside a picture)
each get the words inside them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import pymupdf

from layoutrag.geometry import area, intersection, union_box
from layoutrag.ingest.layout import Detection
from layoutrag.pdf import Span
from layoutrag.records import BBox, Box, Element, Word

__all__ = ["ORPHAN_LABEL", "assign_text", "font_of", "group_lines", "words_text"]

ORPHAN_LABEL = "orphan_text"
ORPHAN_CONFIDENCE = 0.0  # not a model detection
_MAX_ORPHAN_OVERLAP = 0.3  # an orphan block overlapping detected elements more than this is split into lines


def _centre(b: Sequence[float]) -> tuple[float, float]:
    x0, y0, x1, y1 = b
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def _inside(pt: tuple[float, float], b: Sequence[float]) -> bool:
    x0, y0, x1, y1 = b
    x, y = pt
    return x0 <= x <= x1 and y0 <= y <= y1


def group_lines(words: Sequence[Word]) -> list[list[Word]]:
    """Cluster words into visual lines (vertical overlap), lines top to bottom, words left to right."""
    lines: list[list[Word]] = []
    spans: list[tuple[float, float]] = []  # y extent of each line
    for w in sorted(words, key=lambda w: (_centre(w.bbox_pdf)[1], w.bbox_pdf.x0)):
        y0, y1 = w.bbox_pdf.y0, w.bbox_pdf.y1
        cy = (y0 + y1) / 2
        for i in range(len(lines) - 1, max(-1, len(lines) - 4), -1):
            ly0, ly1 = spans[i]
            if ly0 <= cy <= ly1:
                lines[i].append(w)
                spans[i] = (min(ly0, y0), max(ly1, y1))
                break
        else:
            lines.append([w])
            spans.append((y0, y1))
    out = [sorted(line, key=lambda w: w.bbox_pdf.x0) for line in lines]
    out.sort(key=lambda line: (min(w.bbox_pdf.y0 for w in line), line[0].bbox_pdf.x0))
    return out


def _is_vertical(words: Sequence[Word]) -> bool:
    """Most words of 3+ characters are taller than wide: the text runs up or down the displayed page."""
    tall = wide = 0
    for w in words:
        if len(w.text) >= 3:
            bw, bh = w.bbox_pdf.x1 - w.bbox_pdf.x0, w.bbox_pdf.y1 - w.bbox_pdf.y0
            tall += bh > 1.2 * bw
            wide += bw > 1.2 * bh
    return tall > wide


def _upright(words: Sequence[Word], rotation: int) -> list[Word]:
    """Words in a frame where their text runs left to right: vertical text (typically a /Rotate 90
    page whose content is drawn upright in the unrotated space) is turned back by the page rotation
    (90° when the page itself is not rotated). Only the order matters, so translation is ignored."""
    if not words or not _is_vertical(words):
        return list(words)
    angle = rotation if rotation % 360 in (90, 270) else 90
    m = pymupdf.Matrix(-angle)
    out = []
    for w in words:
        r = pymupdf.Rect(w.bbox_pdf) * m
        r.normalize()
        out.append(w.model_copy(update={"bbox_pdf": Box(r.x0, r.y0, r.x1, r.y1)}))
    return out


def words_text(words: Sequence[Word], rotation: int = 0) -> str:
    """Text of words in reading order: words joined by spaces, lines by newlines."""
    return "\n".join(" ".join(w.text for w in line) for line in group_lines(_upright(words, rotation)))


def font_of(box: Sequence[float], spans: Sequence[Span]) -> tuple[float | None, bool | None]:
    """Dominant font size (by characters) and boldness (majority of characters) inside `box`."""
    by_size: dict[float, int] = defaultdict(int)
    bold_chars = total = 0
    for s in spans:
        if _inside(_centre(s.bbox_pdf), box):
            by_size[round(s.size, 1)] += s.n_chars
            bold_chars += s.n_chars if s.bold else 0
            total += s.n_chars
    if not total:
        return None, None
    size = max(by_size.items(), key=lambda kv: (kv[1], kv[0]))[0]
    return size, bold_chars * 2 > total


def _element(
    det_label: str,
    source: str,
    conf: float,
    box: BBox,
    page: int,
    words: Sequence[Word],
    spans: Sequence[Span],
    text_source: str,
    rotation: int,
) -> Element:
    size, bold = font_of(box, spans)
    return Element(
        element_id="",  # set by reading order
        page=page,
        label=det_label,
        confidence=conf,
        bbox_pdf=tuple(box),
        text=words_text(words, rotation),
        text_source=text_source if words else "none",
        source_label=source,
        font_size=size,
        bold=bold,
    )


def _orphan_boxes(orphans: Sequence[Word], taken: Sequence[BBox], rotation: int) -> list[list[Word]]:
    """Group orphan words by text block; split a block into lines when its box would cover detected
    elements (a block whose words were partly claimed must not re-cover the claimed region)."""
    by_block: dict[int, list[Word]] = defaultdict(list)
    for w in orphans:
        by_block[w.block].append(w)
    groups: list[list[Word]] = []
    for block in sorted(by_block):
        ws = by_block[block]
        box = union_box(w.bbox_pdf for w in ws)
        covered = sum(intersection(box, t) for t in taken)
        if area(box) > 0 and covered / area(box) > _MAX_ORPHAN_OVERLAP:
            upright = _upright(ws, rotation)
            original = {id(u): w for u, w in zip(upright, ws, strict=True)}
            groups.extend([original[id(u)] for u in line] for line in group_lines(upright))
        else:
            groups.append(ws)
    return groups


def assign_text(
    detections: Sequence[Detection],
    words: Sequence[Word],
    spans: Sequence[Span],
    *,
    page: int,
    text_source: str,
    rotation: int = 0,
) -> list[Element]:
    """Elements (unordered, ids unset) with their text; orphan words become extra text elements."""
    centres = [_centre(w.bbox_pdf) for w in words]
    claimed = [False] * len(words)
    elements = []
    for d in detections:
        inside = []
        for i, c in enumerate(centres):
            if _inside(c, d.bbox_pdf):
                inside.append(words[i])
                claimed[i] = True
        elements.append(
            _element(
                d.label, d.source_label, d.confidence, d.bbox_pdf, page, inside, spans, text_source, rotation
            )
        )
    orphans = [w for w, c in zip(words, claimed, strict=True) if not c]
    taken = [d.bbox_pdf for d in detections]
    for group in _orphan_boxes(orphans, taken, rotation):
        box = union_box(w.bbox_pdf for w in group)
        elements.append(
            _element("text", ORPHAN_LABEL, ORPHAN_CONFIDENCE, box, page, group, spans, text_source, rotation)
        )
    return elements
