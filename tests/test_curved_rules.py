"""chunk-18: a table grid drawn with thin filled paths whose outlines carry Bézier segments (as some
word processors write table borders) is read as a grid. Real PyMuPDF on a PDF drawn here."""

from __future__ import annotations

import pymupdf
import pytest

import layoutrag.chunking.tables as T
from layoutrag.pdf import PdfPage, extract_words

X = [60.0, 120.0, 260.0, 330.0, 380.0, 420.0]  # column edges: Symbol | Parameter | Condition | Typ | Unit
Y = [100.0, 118.0, 136.0, 154.0, 172.0, 190.0]  # row edges: header, 3 rows of one parameter, 1 more


def _rule(shape: pymupdf.Shape, p0: tuple[float, float], p1: tuple[float, float], t: float = 0.6) -> None:
    """A rule as a thin filled outline whose long sides are Bézier segments (straight ones) and
    whose ends are short lines: no line, rectangle or quad find_tables would read as a rule."""
    (x0, y0), (x1, y1) = p0, p1
    if y0 == y1:  # horizontal
        a, b = pymupdf.Point(x0, y0 - t / 2), pymupdf.Point(x1, y0 - t / 2)
        c, d = pymupdf.Point(x1, y0 + t / 2), pymupdf.Point(x0, y0 + t / 2)
    else:  # vertical
        a, b = pymupdf.Point(x0 - t / 2, y0), pymupdf.Point(x0 - t / 2, y1)
        c, d = pymupdf.Point(x0 + t / 2, y1), pymupdf.Point(x0 + t / 2, y0)
    shape.draw_bezier(a, a + (b - a) / 3, a + (b - a) * 2 / 3, b)
    shape.draw_line(b, c)
    shape.draw_bezier(c, c + (d - c) / 3, c + (d - c) * 2 / 3, d)
    shape.draw_line(d, a)
    shape.finish(fill=(0, 0, 0), color=None, closePath=True)


@pytest.fixture()
def page(tmp_path):
    doc = pymupdf.open()
    pg = doc.new_page(width=450, height=300)
    shape = pg.new_shape()
    for y in (Y[0], Y[1], Y[4], Y[5]):  # full-width rules
        _rule(shape, (X[0], y), (X[-1], y))
    for y in (Y[2], Y[3]):  # the Symbol and Parameter cells span rows 1-3: no rule through them
        _rule(shape, (X[2], y), (X[-1], y))
    for x in X:
        _rule(shape, (x, Y[0]), (x, Y[-1]))
    shape.commit()
    for x, y, t in [
        (62, 112, "Symbol"), (122, 112, "Parameter"), (262, 112, "Condition"), (332, 112, "Typ."), (382, 112, "Unit"),
        (62, 149, "VPVD"), (122, 142, "Level selection of"), (122, 156, "voltage detector"),
        (262, 130, "PLS = 00"), (332, 130, "2.12"), (382, 130, "V"),
        (262, 148, "PLS = 01"), (332, 148, "2.32"), (382, 148, "V"),
        (262, 166, "PLS = 10"), (332, 166, "3.02"), (382, 166, "V"),
        (62, 184, "VHYST"), (122, 184, "PVD hysteresis"), (332, 184, "20"), (382, 184, "mV"),
    ]:
        pg.insert_text((x, y), t, fontsize=8)
    path = tmp_path / "curved.pdf"
    doc.save(path)
    doc.close()
    doc = pymupdf.open(path)
    yield doc[0]
    doc.close()


def _rows(page: pymupdf.Page, rules: bool) -> list:
    pp = PdfPage(page)
    box = (X[0] - 4, Y[0] - 4, X[-1] + 4, Y[-1] + 4)
    words = extract_words(page)
    return T.rows_from_pymupdf(page, box, 1, words, T.curved_rules(pp.drawings()) if rules else None)[0]


def test_curved_rules_are_found(page):
    rules = T.curved_rules(PdfPage(page).drawings())
    assert len(rules) == 4 + 2 + len(X)  # every rule drawn, none of the glyphs
    assert all(abs(a[0] - b[0]) < 0.01 or abs(a[1] - b[1]) < 0.01 for a, b in rules)  # axis-parallel centre lines


def test_grid_read_with_curved_rules_only(page):
    without = _rows(page, rules=False)
    with_rules = _rows(page, rules=True)
    assert len(without) < 2  # find_tables alone sees no grid: the table would fall back to text lines
    assert [r.cells for r in with_rules] == [
        ["Symbol", "Parameter", "Condition", "Typ.", "Unit"],
        ["VPVD", "Level selection of voltage detector", "PLS = 00", "2.12", "V"],
        ["", "", "PLS = 01", "2.32", "V"],
        ["", "", "PLS = 10", "3.02", "V"],
        ["VHYST", "PVD hysteresis", "", "20", "mV"],
    ]


def test_ablation_switch(page, monkeypatch):
    monkeypatch.setattr(T, "CURVED_RULES", False)
    assert T.curved_rules(PdfPage(page).drawings()) == []
