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
