"""Drawing primitives for generated pages that record what they drew (label, box, text).

Every primitive draws with PyMuPDF in PDF points, top-left origin (the stored space of
``bbox_pdf``), and returns the tight box of what it drew — glyph boxes use the font's ascender and
descender, the same box PyMuPDF's text extraction reports — so the ground truth matches the text
layer exactly.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache

import pymupdf
import reportlab

from layoutrag.geometry import union_box

BBox = tuple[float, float, float, float]  # the generator draws with plain tuples; records turn them into Box


__all__ = ["Canvas", "GTElement", "TableBox"]

_FONT_DIR = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
# Bitstream Vera ships inside reportlab (a dependency): it has Ω, µ, ±, °, ≤ which base-14 fonts lack.
FONT_FILES = {"reg": os.path.join(_FONT_DIR, "Vera.ttf"), "bold": os.path.join(_FONT_DIR, "VeraBd.ttf")}
BLACK = (0.0, 0.0, 0.0)
GREY = (0.45, 0.45, 0.45)
LIGHT = (0.90, 0.92, 0.95)


@lru_cache(maxsize=4)
def _font(key: str) -> pymupdf.Font:
    if key == "cjk":
        return pymupdf.Font("china-s")
    return pymupdf.Font(fontfile=FONT_FILES[key])


def _has_cjk(s: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for ch in s)


def _r(b: BBox) -> BBox:
    return (round(b[0], 2), round(b[1], 2), round(b[2], 2), round(b[3], 2))


@dataclass
class GTElement:
    page: int
    label: str
    bbox: BBox
    text: str = ""
    role: str = ""  # what the generator meant it to be: "spec_table", "land_pattern", ...


@dataclass
class TableBox:
    bbox: BBox
    row_boxes: list[BBox] = field(default_factory=list)  # data rows (not the header)
    cell_boxes: list[list[BBox]] = field(
        default_factory=list
    )  # per data row, per column: the cell's text box


class Canvas:
    """One page being drawn, with the ground-truth elements placed on it."""

    def __init__(self, page: pymupdf.Page, page_no: int) -> None:
        self.page = page
        self.page_no = page_no
        self.width = page.rect.width
        self.height = page.rect.height
        self.elements: list[GTElement] = []
        page.insert_font(fontname="vera", fontfile=FONT_FILES["reg"])
        page.insert_font(fontname="verabd", fontfile=FONT_FILES["bold"])

    # --- ground truth -------------------------------------------------------------------
    def add(self, label: str, bbox: BBox, text: str = "", role: str = "") -> GTElement:
        el = GTElement(self.page_no, label, _r(bbox), text, role)
        self.elements.append(el)
        return el

    # --- text ---------------------------------------------------------------------------
    @staticmethod
    def text_width(s: str, size: float, bold: bool = False) -> float:
        key = "cjk" if _has_cjk(s) else ("bold" if bold else "reg")
        return _font(key).text_length(s, fontsize=size)

    def text(
        self,
        x: float,
        top: float,
        s: str,
        size: float = 9,
        *,
        bold: bool = False,
        color: tuple[float, float, float] = BLACK,
        align: str = "left",
        width: float = 0,
    ) -> BBox:
        """One line of text whose glyph box starts at `top`; returns that box."""
        cjk = _has_cjk(s)
        font = _font("cjk" if cjk else ("bold" if bold else "reg"))
        w = font.text_length(s, fontsize=size)
        if align == "center":
            x = x + (width - w) / 2
        elif align == "right":
            x = x + width - w
        asc, desc = font.ascender, font.descender
        base = top + asc * size
        name = "china-s" if cjk else ("verabd" if bold else "vera")
        self.page.insert_text((x, base), s, fontname=name, fontsize=size, color=color)
        return (x, top, x + w, base - desc * size)

    def line_height(self, size: float, s: str = "") -> float:
        font = _font("cjk" if _has_cjk(s) else "reg")
        return (font.ascender - font.descender) * size

    def wrap(self, s: str, width: float, size: float, bold: bool = False) -> list[str]:
        words = s.split(" ")
        lines: list[str] = []
        cur = ""
        for w in words:
            cand = f"{cur} {w}" if cur else w
            if cur and self.text_width(cand, size, bold) > width:
                lines.append(cur)
                cur = w
            else:
                cur = cand
        if cur:
            lines.append(cur)
        return lines

    def paragraph(
        self,
        x: float,
        top: float,
        width: float,
        s: str,
        size: float = 8.5,
        *,
        leading: float = 1.3,
        bold: bool = False,
        color: tuple[float, float, float] = BLACK,
        bullet: str = "",
    ) -> tuple[BBox, str]:
        """Wrapped text; returns its glyph box and the text as drawn (one line per line)."""
        indent = self.text_width(bullet + " ", size) if bullet else 0.0
        lines = self.wrap(s, width - indent, size, bold)
        boxes = []
        y = top
        for i, ln in enumerate(lines):
            if bullet and i == 0:
                boxes.append(self.text(x, y, bullet, size, color=color))
            boxes.append(self.text(x + indent, y, ln, size, bold=bold, color=color))
            y += size * leading
        text = ((bullet + " ") if bullet else "") + " ".join(lines)
        return union_box(boxes), text

    # --- vector graphics ----------------------------------------------------------------
    def line(
        self,
        p0: tuple[float, float],
        p1: tuple[float, float],
        *,
        width: float = 0.6,
        color: tuple[float, float, float] = BLACK,
        dashes: str | None = None,
    ) -> BBox:
        self.page.draw_line(p0, p1, color=color, width=width, dashes=dashes)
        return (min(p0[0], p1[0]), min(p0[1], p1[1]), max(p0[0], p1[0]), max(p0[1], p1[1]))

    def rect(
        self,
        b: BBox,
        *,
        width: float = 0.6,
        color: tuple[float, float, float] | None = BLACK,
        fill: tuple[float, float, float] | None = None,
        radius: float | None = None,
    ) -> BBox:
        self.page.draw_rect(pymupdf.Rect(*b), color=color, fill=fill, width=width, radius=radius)
        return b

    # --- tables -------------------------------------------------------------------------
    def table(
        self,
        x: float,
        top: float,
        widths: list[float],
        header: list[str] | None,
        rows: list[list[str]],
        *,
        size: float = 7.2,
        pad: float = 2.6,
        header_fill: tuple[float, float, float] = LIGHT,
        align: list[str] | None = None,
    ) -> TableBox:
        """A ruled table; cells wrap. Returns the outer box and each data row's box."""
        align = align or ["left"] * len(widths)
        lh = size * 1.22
        y = top
        x_edges = [x]
        for w in widths:
            x_edges.append(x_edges[-1] + w)
        out = TableBox(bbox=(x, top, x_edges[-1], top))
        all_rows = ([header] if header else []) + rows
        for ri, cells in enumerate(all_rows):
            is_header = header is not None and ri == 0
            wrapped = [
                self.wrap(c, w - 2 * pad, size, is_header) if c else [""]
                for c, w in zip(cells, widths, strict=True)
            ]
            h = max(len(w) for w in wrapped) * lh + 2 * pad
            if is_header:
                self.rect((x, y, x_edges[-1], y + h), color=None, fill=header_fill)
            cell_boxes: list[BBox] = []
            for ci, lines in enumerate(wrapped):
                ty = y + pad
                boxes = []
                for ln in lines:
                    if ln:
                        boxes.append(
                            self.text(
                                x_edges[ci] + pad,
                                ty,
                                ln,
                                size,
                                bold=is_header,
                                align=align[ci] if not is_header else "center",
                                width=widths[ci] - 2 * pad,
                            )
                        )
                    ty += lh
                cell_boxes.append(union_box(boxes) if boxes else (x_edges[ci], y, x_edges[ci], y))
            if not is_header:
                out.row_boxes.append((x, y, x_edges[-1], y + h))
                out.cell_boxes.append(cell_boxes)
            y += h
            self.line((x, y), (x_edges[-1], y), width=0.4 if ri < len(all_rows) - 1 else 0.8)
        for xe in x_edges:
            self.line((xe, top), (xe, y), width=0.4)
        self.line((x, top), (x_edges[-1], top), width=0.8)
        out.bbox = (x - 0.4, top - 0.4, x_edges[-1] + 0.4, y + 0.4)
        return out

    def row_height(
        self,
        cells: list[str],
        widths: list[float],
        *,
        size: float = 7.2,
        pad: float = 2.6,
        bold: bool = False,
    ) -> float:
        n = max(
            len(self.wrap(c, w - 2 * pad, size, bold)) if c else 1 for c, w in zip(cells, widths, strict=True)
        )
        return n * size * 1.22 + 2 * pad
