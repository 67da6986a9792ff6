"""Split a picture that holds several figures, each with its own "Figure N" caption.

Layout models often box a whole page of typical-performance graphs as one picture, with the six
figure captions inside it. A query about one graph should get that graph, not the page. When a
picture contains two or more figure captions, it is cut into one sub-picture per caption: captions
on one row split the picture's width halfway between them, and each caption's sub-picture reaches
up to the previous caption row (captions below their graphs, the common style) or down to the next
one (captions above, when the first caption row sits at the picture's top).

Sub-pictures are new elements: label "picture", id ``{picture id}s{k}``, text = the page words
inside. The original picture is replaced by them (it is not lost: its area is exactly tiled).
"""

from __future__ import annotations

import re

from layoutrag.chunking.rules import enabled
from layoutrag.geometry import contains_frac
from layoutrag.records import BBox, Box, Element, Page

__all__ = ["is_sub_picture", "split_multi_figure_pictures"]

_FIG_RE = re.compile(r"^\s*(figure|fig\.?|图)\s*[\dA-Z]", re.IGNORECASE)
_SUB_ID_RE = re.compile(r"_e\d+s\d+$")


def is_sub_picture(element_id: str) -> bool:
    """Is this a sub-picture cut from a multi-figure picture (id ``{picture id}s{k}``)?"""
    return bool(_SUB_ID_RE.search(element_id))


def _rows(captions: list[Element]) -> list[list[Element]]:
    rows: list[list[Element]] = []
    for c in sorted(captions, key=lambda e: (e.bbox_pdf.y0, e.bbox_pdf.x0)):
        if rows:
            last = rows[-1]
            y0 = min(e.bbox_pdf.y0 for e in last)
            y1 = max(e.bbox_pdf.y1 for e in last)
            if min(y1, c.bbox_pdf.y1) - max(y0, c.bbox_pdf.y0) > 0:
                last.append(c)
                continue
        rows.append([c])
    return [sorted(r, key=lambda e: e.bbox_pdf.x0) for r in rows]


def _sub_boxes(pic: BBox, captions: list[Element]) -> list[BBox]:
    rows = _rows(captions)
    px0, py0, px1, py1 = pic
    height = py1 - py0
    above_style = (min(e.bbox_pdf.y0 for e in rows[0]) - py0) < 0.1 * height
    boxes: list[BBox] = []
    for k, row in enumerate(rows):
        if above_style:
            top = py0 if k == 0 else min(e.bbox_pdf.y0 for e in row)
            bottom = py1 if k == len(rows) - 1 else min(e.bbox_pdf.y0 for e in rows[k + 1])
        else:
            top = py0 if k == 0 else max(e.bbox_pdf.y1 for e in rows[k - 1])
            bottom = py1 if k == len(rows) - 1 else max(e.bbox_pdf.y1 for e in row)
        centers = [(e.bbox_pdf.x0 + e.bbox_pdf.x1) / 2 for e in row]
        for i in range(len(row)):
            left = px0 if i == 0 else (centers[i - 1] + centers[i]) / 2
            right = px1 if i == len(row) - 1 else (centers[i] + centers[i + 1]) / 2
            boxes.append(Box(round(left, 2), round(top, 2), round(right, 2), round(bottom, 2)))
    return boxes


def split_multi_figure_pictures(page: Page) -> Page:
    """The page with each multi-figure picture replaced by one sub-picture per figure caption."""
    pictures = [e for e in page.elements if e.label == "picture"]
    if not pictures or not enabled("multi_figure_split"):
        return page
    replaced: dict[str, list[Element]] = {}
    for pic in pictures:
        caps = [
            e
            for e in page.elements
            if e.label in ("caption", "text", "section_header")
            and _FIG_RE.match(e.text or "")
            and contains_frac(e.bbox_pdf, pic.bbox_pdf) >= 0.8
        ]
        if len(caps) < 2:
            continue
        subs = []
        for k, box in enumerate(_sub_boxes(pic.bbox_pdf, caps), start=1):
            x0, y0, x1, y1 = box
            words = [
                w.text
                for w in page.words
                if x0 <= (w.bbox_pdf.x0 + w.bbox_pdf.x1) / 2 < x1 and y0 <= (w.bbox_pdf.y0 + w.bbox_pdf.y1) / 2 < y1
            ]
            subs.append(
                pic.model_copy(
                    update={
                        "element_id": f"{pic.element_id}s{k}",
                        "bbox_pdf": box,
                        "text": " ".join(words),
                        "order": pic.order,
                    }
                )
            )
        replaced[pic.element_id] = subs
    if not replaced:
        return page
    elements: list[Element] = []
    for e in page.elements:
        elements.extend(replaced.get(e.element_id, [e]))
    return page.model_copy(update={"elements": elements})
