"""A watermark set large and diagonally across a page is not part of the page's words; a small
diagonal label (a drawing's angle) and the horizontal text are."""

from __future__ import annotations

import pymupdf
import pytest

import layoutrag.pdf as pdf_mod
from layoutrag.pdf import extract_words, watermark_lines


def _page() -> pymupdf.Document:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Supply Current 4.0 mA", fontsize=10)
    # "For Example Use Only" at 36 pt, turned 45 degrees about its start, over the table's line
    start = pymupdf.Point(150, 500)
    page.insert_text(start, "For Example Use Only", fontsize=36, morph=(start, pymupdf.Matrix(-45)))
    # a drawing's label turned 30 degrees, 7 pt
    label = pymupdf.Point(400, 700)
    page.insert_text(label, "120deg", fontsize=7, morph=(label, pymupdf.Matrix(-30)))
    return doc


def test_a_large_diagonal_watermark_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _page()
    page = doc[0]
    texts = [w.text for w in extract_words(page)]
    assert texts[:4] == ["Supply", "Current", "4.0", "mA"]
    assert "120deg" in texts  # small diagonal text stays
    assert not {"For", "Example", "Use", "Only"} & set(texts)
    assert len(watermark_lines(page)) == 1
    monkeypatch.setattr(pdf_mod, "WATERMARK_MIN_SIZE", 100.0)
    assert {"For", "Example", "Use", "Only"} <= {w.text for w in extract_words(page)}


def _table_page() -> pymupdf.Document:
    """A ruled 3 x 2 table whose middle cells are empty, a 36 pt watermark set diagonally across them."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    xs, ys = (60, 220, 380, 540), (400, 430, 460)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.8)
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.8)
    for r, (name, value) in enumerate((("Supply voltage", "3.3 V"), ("Supply current", "4.0 mA"))):
        page.insert_text((64, ys[r] + 19), name, fontsize=9)
        page.insert_text((384, ys[r] + 19), value, fontsize=9)
    start = pymupdf.Point(150, 560)  # rising to the right across the middle column
    page.insert_text(start, "Confidential Prepared for Example", fontsize=36, morph=(start, pymupdf.Matrix(45)))
    return doc


def _middle_cells() -> list[str]:
    from layoutrag.chunking.tables import rows_from_pymupdf

    page = _table_page()[0]
    rows, _ = rows_from_pymupdf(page, (60, 400, 540, 460), 1, words=extract_words(page))
    assert [r.cells[0] for r in rows] == ["Supply voltage", "Supply current"]
    return [r.cells[1] for r in rows]


def test_a_watermark_crossing_an_empty_table_cell_gives_it_no_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import layoutrag.chunking.tables as tables_mod

    assert _middle_cells() == ["", ""]
    monkeypatch.setattr(tables_mod, "WATERMARK_CELLS", False)
    assert any(_middle_cells())  # find_tables' own text there: the watermark's letters
