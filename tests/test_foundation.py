from __future__ import annotations

import pytest

from layoutrag.errors import NotFoundError
from layoutrag.geometry import covered_area, iou, pt_to_px, px_to_pt
from layoutrag.records import Chunk, Element
from layoutrag.service import validate_query
from layoutrag.storage import DataDir, check_id


@pytest.mark.parametrize("dpi", [72, 144, 200, 300])
def test_pt_px_round_trip(dpi):
    box = (12.5, 30.0, 400.25, 700.75)
    back = px_to_pt(pt_to_px(box, dpi), dpi)
    assert back == pytest.approx(box)
    assert pt_to_px(box, dpi)[2] == pytest.approx(400.25 * dpi / 72)


def test_covered_area_handles_overlap():
    target = (0, 0, 10, 10)
    # two overlapping halves and a box outside: exactly 100 covered, no double counting
    assert covered_area(target, [(0, 0, 6, 10), (4, 0, 10, 10), (20, 20, 30, 30)]) == pytest.approx(100.0)
    assert covered_area(target, [(0, 0, 5, 5)]) == pytest.approx(25.0)
    assert iou((0, 0, 2, 2), (1, 0, 3, 2)) == pytest.approx(1 / 3)


@pytest.mark.parametrize("bad", ["../etc/passwd", "/abs", "a/b", "..", "a\x00b", "", "x" * 200, "%2e%2e"])
def test_check_id_refuses_paths(bad):
    with pytest.raises(NotFoundError):
        check_id(bad)


def test_resolve_stays_inside(tmp_path):
    d = DataDir(tmp_path)
    with pytest.raises(NotFoundError):
        d.resolve("../outside.png")


def test_records_forbid_unknown_fields():
    with pytest.raises(ValueError):
        Element(element_id="d_p1_e000", page=1, label="table", confidence=0.9, bbox_pdf=(0, 0, 1, 1), bogus=1)
    with pytest.raises(ValueError):
        Chunk(chunk_id="d_p0_b00", doc_id="d", page=0)


@pytest.mark.parametrize("q", ["", "   ", "\x00\x01", "x" * 10_000])
def test_validate_query_errors(q):
    with pytest.raises(ValueError):
        validate_query(q, max_chars=1000)


@pytest.mark.parametrize(
    "size,rotate", [((612, 792), 0), ((612, 792), 90), ((595.3, 841.9), 0), ((100.33, 77.77), 270), ((3400, 2400), 0)]
)
def test_page_pixel_size_is_the_rendered_size(tmp_path, size, rotate):
    """Lazy evidence images name their crops from the page's pixel size without rendering it: it
    must be the size a render has (odd sizes, rotations, a page over the pixel budget)."""
    import pymupdf

    from layoutrag.pdf import page_pixel_size, page_size_pt, render_page_image

    doc = pymupdf.open()
    page = doc.new_page(width=size[0], height=size[1])
    page.insert_text((20, 40), "x")
    page.set_rotation(rotate)
    w, h = page_size_pt(page)
    assert page_pixel_size(w, h, 200) == render_page_image(page, dpi=200).size
