"""Units at several sizes, the blank-space margin, row-ruled table width and the rule switches."""

from __future__ import annotations

import pytest

from chunk_factory import PageSpec, Spec, build_pdf, table_caption_footnote_page
from layoutrag.chunking.pipeline import build_doc_chunks, page_units_in_memory
from layoutrag.chunking.rules import RULES, disabled, enabled
from layoutrag.chunking.sizes import block_components
from layoutrag.chunking.tables import _row_rules_extent
from layoutrag.chunking.tiling import grow_into_margin, tile_boxes
from layoutrag.config import Settings
from layoutrag.records import Chunk
from layoutrag.storage import DataDir

S = Settings()


def test_margin_grows_into_blank_space_up_to_the_next_content_only():
    rect = (100, 100, 200, 150)
    others = [(100, 40, 300, 95), (100, 170, 200, 180), (205, 100, 260, 150), (0, 300, 50, 310)]
    # up: stops at the box above (95); down: the full margin (162 < 170); right: stops at 205;
    # left: nothing faces that side, the full margin
    assert grow_into_margin(rect, others, 12, 595, 842) == (88, 95, 205, 162)
    assert grow_into_margin(rect, others, 0, 595, 842) == rect
    assert grow_into_margin((2, 2, 50, 50), [], 12, 595, 842)[:2] == (0, 0)  # never off the page


def test_slots_fill_the_grown_block_and_still_hold_their_members():
    items = [(54, 141, 190, 151), (54, 156, 235, 165)]
    outer = (50, 135, 240, 170)
    slots = tile_boxes(items, outer)
    assert slots[0][:3] == (50, 135, 240) and slots[1][1:] != items[1][1:]
    assert slots[-1][3] == 170
    assert tile_boxes([items[0]], outer) == [outer]


def test_a_table_takes_the_width_of_its_row_rules_unless_something_sits_there():
    table = (40, 100, 300, 200)
    rules = [(40, y, 500, y + 0.5) for y in (100, 130, 160, 199.5)]
    assert _row_rules_extent(table, rules, {}) == (40, 100, 500, 200)
    assert _row_rules_extent(table, rules[:2], {}) == table  # two rules: not a ruled row grid
    assert _row_rules_extent(table, rules, {"x": (350, 120, 420, 140)}) == table  # a text is there


def test_block_components_stack_in_a_column_and_sit_side_by_side_on_a_band():
    rects = [
        (50, 100, 300, 120),  # heading
        (50, 124, 300, 200),  # its list, right under it
        (320, 100, 560, 200),  # the other column, 20 pt to the right
        (50, 400, 300, 450),  # far below
    ]
    assert block_components(rects, 10) == [[0, 1], [2], [3]]
    assert block_components(rects, 25) == [[0, 1, 2], [3]]


def _two_part_page() -> PageSpec:
    return PageSpec(
        [
            Spec("section_header", (50, 80, 300, 92), "Order Information", 10, bold=True),
            Spec("text", (50, 96, 300, 120), "EL3H7(X)(Y)-VG", 18, bold=True),
            Spec("section_header", (50, 124, 300, 134), "Note", 9, bold=True),
            Spec("list_item", (50, 138, 300, 148), "X = CTR rank"),
            Spec("list_item", (50, 150, 300, 160), "Y = tape and reel option"),
            Spec("text", (50, 400, 540, 440), "A paragraph far below about something else entirely."),
        ]
    )


def test_larger_units_are_off_by_default_and_hold_their_units_when_asked(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [_two_part_page()])
    dc, _ = build_doc_chunks(doc, S, data=DataDir(tmp_path / "data"))
    assert {c.unit for c in dc.chunks} == {"unit"} and all(c.parent is None for c in dc.chunks)

    dc, _ = build_doc_chunks(doc, S.updated(chunk_sizes="page"), data=DataDir(tmp_path / "data"))
    units = [c for c in dc.chunks if c.unit == "unit" and c.indexed]
    blocks = [c for c in dc.chunks if c.unit == "block"]
    pages = [c for c in dc.chunks if c.unit == "page"]
    assert len(pages) == 1 and len(blocks) == 1
    block = blocks[0]
    assert "EL3H7" in block.native_text and "tape and reel" in block.native_text
    assert "far below" not in block.native_text
    assert block.parent == pages[0].chunk_id
    held = [c for c in units if c.parent == block.chunk_id]
    assert len(held) >= 2 and all(set(c.element_ids) <= set(block.element_ids) for c in held)
    # a block's boxes are its units' stored boxes on the page
    assert sorted(block.bboxes_pdf) == sorted(b for c in held for b in c.bboxes_pdf)
    assert set(pages[0].element_ids) == {e for c in units for e in c.element_ids}
    # unit-only output is unchanged by asking for larger units
    base, _ = build_doc_chunks(doc, S, data=DataDir(tmp_path / "data"))
    strip = [c.model_copy(update={"parent": None}) for c in units]
    assert strip == [c for c in base.chunks if c.indexed]


def test_page_units_in_memory_match_the_chunk_stage(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()])
    data = DataDir(tmp_path / "data")
    dc, _ = build_doc_chunks(doc, S, data=data)
    stored = sorted(sorted(c.bboxes_pdf) for c in dc.chunks)
    mem = sorted(sorted(b) for size, b in page_units_in_memory(doc, 1, data, S) if size == "unit")
    assert stored == mem


def test_rules_switch_off_inside_a_block_only():
    assert all(enabled(r) for r in RULES)
    with disabled("margin", "titled_anchor"):
        assert not enabled("margin") and not enabled("titled_anchor") and enabled("grid_row")
    assert enabled("margin")
    with pytest.raises(KeyError):
        enabled("no_such_rule")


def test_chunk_records_read_without_the_new_fields():
    c = Chunk.model_validate({"chunk_id": "d_p1_b00", "doc_id": "d", "page": 1})
    assert c.unit == "unit" and c.parent is None
