"""Chunking: exact grouping on generated PDFs with known layout, guards, TOC, tables, evidence, CLI."""

from __future__ import annotations

import json
import os

import pytest
from PIL import Image
from rich.console import Console

from chunk_factory import (
    PageSpec,
    Spec,
    build_pdf,
    element_ids,
    figure_callouts_page,
    make_element,
    sample_document,
    split_table_pages,
    table_caption_footnote_page,
    two_column_page,
)
from layoutrag.chunking.cli import print_chunks
from layoutrag.chunking.evidence import chunk_image
from layoutrag.chunking.group import Group, apply_guards, enforce_gap_limit, group_page
from layoutrag.chunking.pipeline import build_doc_chunks, chunk_and_save, evidence_spec, load_doc_chunks
from layoutrag.chunking.tiling import tile_boxes
from layoutrag.config import Settings
from layoutrag.errors import NotFoundError
from layoutrag.geometry import area, covered_area, union_box
from layoutrag.records import Box, Chunk, DocChunks, Element, EvidencePackage
from layoutrag.storage import DataDir

S = Settings().updated(chunk_margin_pt=0)  # exact slot boxes; the margin: test_chunking_sizes.py


def _chunks(doc, tmp_path) -> DocChunks:
    dc, _ = build_doc_chunks(doc, S, data=DataDir(tmp_path / "data"))
    return dc


def _by_members(dc: DocChunks) -> dict[tuple[str, ...], Chunk]:
    return {tuple(c.element_ids): c for c in dc.chunks}


# --------------------------------------------------------------------------- exact grouping
def test_table_caption_footnote_exact_grouping(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()], title="XT26 Crystal Unit")
    dc = _chunks(doc, tmp_path)
    groups = [c.element_ids for c in dc.chunks]
    assert groups == [
        element_ids(doc, 1, 0),  # page header (page 1: the title block, indexed)
        element_ids(doc, 1, 1, 2),  # heading + paragraph
        element_ids(doc, 1, 3, 4, 5),  # caption + table + footnote
        element_ids(doc, 1, 6),  # the paragraph after the gap
        element_ids(doc, 1, 7),  # footer
    ]
    ids = [c.chunk_id for c in dc.chunks]
    assert ids == [f"{doc.doc_id}_p1_b{n:02d}" for n in range(5)]
    table = dc.chunks[2]
    assert table.block_type == "table"
    assert [r.label for r in table.regions] == ["caption", "table", "footnote"]
    # each member's slot in the block: bands meet halfway, the caption spans the block's width
    assert table.bboxes_pdf == [(40, 140, 550, 154), (40, 154, 550, 258), (40, 258, 550, 270)]
    assert table.native_text.splitlines()[0] == "Table 2. Electrical characteristics"
    assert table.native_text.splitlines()[-1].startswith("Note 1:")
    assert [c.indexed for c in dc.chunks] == [True, True, True, True, False]
    assert dc.n_unassigned == 0


def test_table_rows_and_header_from_ruled_grid(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()])
    table = _chunks(doc, tmp_path).chunks[2]
    assert table.header == ["Parameter", "Symbol", "Typ", "Unit"]
    assert [r.cells for r in table.rows][1:] == [
        ["Frequency", "f0", "26.000", "MHz"],
        ["Load capacitance", "CL", "12", "pF"],
        ["ESR", "R1", "60", "Ohm"],
        ["Drive level", "DL", "100", "uW"],
    ]
    assert table.rows[0].is_header and not any(r.is_header for r in table.rows[1:])
    # each row box lies inside the table and rows go top to bottom, 20 pt apart
    tops = [r.bbox_pdf[1] for r in table.rows]
    assert tops == sorted(tops)
    assert all(abs(b - a - 20) < 1.5 for a, b in zip(tops, tops[1:], strict=False))
    assert all(40 - 1 <= r.bbox_pdf[0] and r.bbox_pdf[2] <= 550 + 1 for r in table.rows)
    assert table.rows[3].text == "ESR | R1 | 60 | Ohm"


def test_two_column_page_never_mixes_columns(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [two_column_page()])
    dc = _chunks(doc, tmp_path)
    assert [c.element_ids for c in dc.chunks] == [
        element_ids(doc, 1, 0, 1, 2, 3, 4),  # Features + its 4 items (left column)
        element_ids(doc, 1, 5, 6, 7, 8),  # Applications + 3 items (right column)
        element_ids(doc, 1, 9, 10),  # Description (full width, below)
    ]
    assert [c.block_type for c in dc.chunks] == ["list", "list", "text"]
    assert dc.chunks[1].section_title == "Applications"


def test_table_split_over_two_pages_is_one_chunk(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", split_table_pages())
    dc = _chunks(doc, tmp_path)
    joined = dc.chunks[0]
    assert joined.chunk_id == f"{doc.doc_id}_p1_b00"
    assert joined.element_ids == element_ids(doc, 1, 0, 1, 2) + element_ids(doc, 2, 1, 2)
    assert [(r.page, r.label) for r in joined.regions] == [
        (1, "section_header"),
        (1, "caption"),
        (1, "table"),
        (2, "caption"),
        (2, "table"),
    ]
    assert len(joined.bboxes_pdf) == 3  # bboxes_pdf: members on the first page only
    assert {r.page for r in joined.rows} == {1, 2}
    assert [r.cells[0] for r in joined.rows if not r.is_header] == [f"P{i}" for i in range(1, 19)]
    # the ordering table on page 2 has its own caption: not a continuation
    p2 = [c for c in dc.chunks if c.page == 2]
    assert [c.element_ids for c in p2] == [
        element_ids(doc, 2, 0),
        element_ids(doc, 2, 3),
        element_ids(doc, 2, 4, 5),
    ]
    assert [c.chunk_id for c in p2] == [f"{doc.doc_id}_p2_b{n:02d}" for n in range(3)]


def test_figure_takes_its_callouts_and_caption(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [figure_callouts_page()])
    dc = _chunks(doc, tmp_path)
    assert [c.element_ids for c in dc.chunks] == [
        element_ids(doc, 1, 0, 1),
        element_ids(doc, 1, 2, 3, 4, 5),
        element_ids(doc, 1, 6),
    ]
    fig = dc.chunks[1]
    assert fig.block_type == "figure"
    assert "Figure 3. Package outline" in fig.native_text
    assert fig.toc_path == "t > 7 Package Dimensions"


def test_member_boxes_element_mode_keeps_detector_boxes(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()])
    dc, _ = build_doc_chunks(doc, S.updated(chunk_member_boxes="element"))
    assert dc.chunks[2].bboxes_pdf == [(40, 140, 400, 152), (40, 156, 550, 256), (40, 260, 550, 270)]


def test_slots_tile_the_block_without_overlap():
    items = [
        (54, 141, 190, 151),
        (69, 156, 235, 165),
        (54, 170, 120, 180),
        (130, 170, 240, 180),
        (60, 200, 200, 230),
    ]
    callout = (70, 205, 90, 212)  # inside the last box: keeps its own box
    slots = tile_boxes([*items, callout])
    for b, s in zip(items, slots, strict=False):
        assert s[0] <= b[0] and s[1] <= b[1] and s[2] >= b[2] and s[3] >= b[3]  # contains its member
    assert slots[-1] == callout
    for i in range(len(items)):
        for j in range(i + 1, len(items)):
            a, b = slots[i], slots[j]
            assert min(a[2], b[2]) - max(a[0], b[0]) <= 1e-6 or min(a[3], b[3]) - max(a[1], b[1]) <= 1e-6
    block = (54, 141, 240, 230)
    assert abs(covered_area(block, slots[:-1]) - area(block)) < 1e-6  # fills the block, nothing more
    assert union_box(slots) == block


def test_picture_holding_several_captioned_figures_is_split(tmp_path):
    specs = [Spec("picture", (50, 100, 550, 500), drawing=True)]  # one box over a 2 x 2 grid of graphs
    for i, (x, y) in enumerate([(80, 280), (330, 280), (80, 480), (330, 480)], start=1):
        specs.append(Spec("text", (x + 10, y - 60, x + 40, y - 50), f"{i}.0", 7))  # an axis label
        specs.append(Spec("caption", (x, y, x + 150, y + 10), f"Figure {i}. Graph {i}", 8, True))
    doc = build_pdf(tmp_path / "t.pdf", [PageSpec(specs)])
    dc = _chunks(doc, tmp_path)
    figs = [c for c in dc.chunks if c.block_type == "figure"]
    assert len(figs) == 4
    pic = element_ids(doc, 1, 0)[0]
    assert [c.element_ids for c in figs] == [
        [f"{pic}s1", *element_ids(doc, 1, 1, 2)],
        [f"{pic}s2", *element_ids(doc, 1, 3, 4)],
        [f"{pic}s3", *element_ids(doc, 1, 5, 6)],
        [f"{pic}s4", *element_ids(doc, 1, 7, 8)],
    ]
    # the sub-pictures tile the original box: halfway between caption centres, up to the previous row
    assert [c.regions[0].bbox_pdf for c in figs] == [
        (50, 100, 280, 290),
        (280, 100, 550, 290),
        (50, 290, 280, 500),
        (280, 290, 550, 500),
    ]
    assert figs[2].native_text.startswith("3.0")
    assert dc.n_unassigned == 0


# --------------------------------------------------------------------------- segmentation rules
_CELLS = [
    ["Symbol", "Parameter", "Max", "Unit"],
    ["VDD", "Supply voltage", "5.5", "V"],
    ["T", "Temperature", "85", "C"],
]


def _groups(doc, tmp_path) -> list[list[str]]:
    return [c.element_ids for c in _chunks(doc, tmp_path).chunks]


def test_table_caption_reaches_its_table_past_subcaption_conditions_and_notes(tmp_path):
    p1 = PageSpec(
        [
            Spec("caption", (40, 100, 400, 112), "Table 9. Read timing parameters", 9, True),  # 0
            Spec("caption", (40, 116, 400, 128), "(VDD = 3.3 V, TA = 25 C)", 9),  # 1 sub-caption
            Spec("table", (40, 132, 550, 212), cells=_CELLS),  # 2
            Spec("caption", (40, 260, 300, 272), "Table 10. Limiting values", 9, True),  # 3
            Spec(
                "text", (40, 275, 550, 287), "In accordance with the Absolute Maximum Rating System.", 9
            ),  # 4
            Spec("table", (40, 291, 550, 351), cells=_CELLS),  # 5
            Spec("text", (40, 354, 400, 364), "* This table is a partial list.", 7),  # 6 note
            Spec("text", (40, 420, 550, 432), "Table 11 lists the ordering codes of all variants.", 9),  # 7
            Spec("table", (40, 440, 550, 500), cells=_CELLS),  # 8
            Spec("caption", (40, 560, 300, 570), "Table 12 shows the power-up defaults.", 8),  # 9
            Spec("caption", (40, 584, 300, 594), "TABLE 12: POWER-UP DEFAULTS", 8, True),  # 10
            Spec("table", (40, 598, 550, 658), cells=_CELLS),  # 11
        ]
    )
    p2 = PageSpec(
        [
            Spec("section_header", (40, 60, 300, 72), "Pin Table*", 10, True),  # 0
            Spec("table", (40, 76, 550, 156), cells=_CELLS),  # 1
            Spec("text", (40, 159, 400, 167), "*This table is only a partial list.", 7),  # 2 note
            Spec("text", (40, 176, 400, 186), "Table 2. Pin configuration options.", 8),  # 3 caption below
        ]
    )
    doc = build_pdf(tmp_path / "t.pdf", [p1, p2])
    assert _groups(doc, tmp_path) == [
        element_ids(doc, 1, 0, 1, 2),  # caption over its sub-caption over the table
        element_ids(doc, 1, 3, 4, 5, 6),  # caption, conditions line, table, note
        element_ids(doc, 1, 7),  # "Table 11 lists ...": a sentence about a table, not its caption
        element_ids(doc, 1, 8),
        element_ids(doc, 1, 9),  # boxed as a caption, but a sentence about the table
        element_ids(doc, 1, 10, 11),
        element_ids(doc, 2, 0, 1, 2, 3),  # the caption under the table's note still reaches it
    ]


def test_picture_fragments_notes_and_title_lines_join_the_figure(tmp_path):
    page = PageSpec(
        [
            Spec("section_header", (40, 60, 300, 72), "Ordering Information", 10, True),  # 0
            Spec("picture", (40, 80, 300, 140), drawing=True),  # 1 ┐ one decode diagram,
            Spec("picture", (290, 80, 550, 160), drawing=True),  # 2 ├ boxed in three
            Spec("picture", (40, 130, 450, 200), drawing=True),  # 3 ┘ overlapping pieces
            Spec("text", (40, 205, 400, 213), "Note: shown for the 2-pin package.", 7),  # 4
            Spec("caption", (40, 220, 400, 230), "Figure 4. Part number decode", 8, True),  # 5
            Spec("text", (40, 400, 200, 412), "OUTLINE DRAWING:", 10),  # 6 title line, no caption
            Spec("picture", (40, 418, 550, 600), drawing=True),  # 7
            Spec("text", (40, 640, 200, 652), "TAPE & REEL:", 10),  # 8 over a captioned figure
            Spec("picture", (40, 658, 550, 760), drawing=True),  # 9
            Spec("caption", (40, 764, 400, 774), "Figure 5. Reel dimensions", 8, True),  # 10
            Spec("text", (40, 604, 80, 612), "NOTES:", 7),  # 11 a bare notes label under figure 7,
            Spec("text", (90, 603, 400, 613), "A. All linear dimensions are in millimetres.", 7),  # 12 its
            Spec("text", (90, 614, 400, 624), "B. This drawing is subject to change.", 7),  # 13 notes
        ]
    )
    doc = build_pdf(tmp_path / "t.pdf", [page])
    dc = _chunks(doc, tmp_path)
    assert [c.element_ids for c in dc.chunks] == [
        element_ids(doc, 1, 0, 1, 2, 3, 4, 5),
        element_ids(doc, 1, 6, 7, 11, 12, 13),
        element_ids(doc, 1, 8),  # the figure has its caption: the line above stays text
        element_ids(doc, 1, 9, 10),
    ]
    assert [c.block_type for c in dc.chunks] == ["figure", "figure", "text", "figure"]


def test_heading_reaching_into_a_loose_picture_box_titles_it(tmp_path):
    """The detector's picture box reaches 6 pt up into the heading's last line (a real datasheet:
    "Part No. FC68145S / Taped FC68145ST" over its drawings): the heading still titles the figure.
    A heading that the picture box mostly covers is not "above" it."""
    page = PageSpec(
        [
            Spec("section_header", (225, 360, 350, 390), "Part No. FC68145S\nTaped FC68145ST", 11, True),  # 0
            Spec("picture", (195, 384, 567, 512), drawing=True),  # 1
            Spec("section_header", (40, 560, 560, 590), "Outline A\nOutline B", 11, True),  # 2
            Spec("picture", (40, 562, 300, 700), drawing=True),  # 3 its top above heading 2's middle
        ]
    )
    doc = build_pdf(tmp_path / "t.pdf", [page])
    assert _groups(doc, tmp_path) == [
        element_ids(doc, 1, 0, 1),
        element_ids(doc, 1, 2),
        element_ids(doc, 1, 3),
    ]


def test_overlapping_pictures_with_different_captions_stay_apart(tmp_path):
    page = PageSpec(
        [
            Spec("caption", (40, 80, 300, 92), "Figure 7. Reset circuit", 8, True),  # 0
            Spec("picture", (40, 100, 550, 300), drawing=True),  # 1
            Spec("picture", (150, 120, 450, 600), drawing=True),  # 2 an over-large box across both
            Spec("text", (40, 310, 550, 340), "Figure 8 shows a reset circuit for a CPU.", 9),  # 3
            Spec("caption", (40, 350, 550, 362), "Figure 8. Reset circuit with a CPU", 8, True),  # 4
            Spec("picture", (40, 366, 550, 560), drawing=True),  # 5
        ]
    )
    doc = build_pdf(tmp_path / "t.pdf", [page])
    assert _groups(doc, tmp_path) == [
        element_ids(doc, 1, 0, 1),
        element_ids(doc, 1, 2, 4, 5),  # the big box shares figure 8's caption: one drawing
        element_ids(doc, 1, 3),
    ]


def test_member_slot_reaches_the_ruled_grid_around_a_tight_table_box(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()])
    table = next(e for e in doc.pages[0].elements if e.label == "table")
    assert table.bbox_pdf == (40, 156, 550, 256)  # the grid drawn by the factory
    tight = table.model_copy(update={"bbox_pdf": Box(43, 159, 547, 253)})  # detector box inside the grid
    page = doc.pages[0].model_copy(
        update={"elements": [tight if e is table else e for e in doc.pages[0].elements]}
    )
    doc = doc.model_copy(update={"pages": [page]})
    dc = _chunks(doc, tmp_path)
    chunk = next(c for c in dc.chunks if c.block_type == "table")
    assert chunk.bboxes_pdf[1] == (40, 154, 550, 258)  # the grid's edges, not the detector's
    dc_el, _ = build_doc_chunks(doc, S.updated(chunk_member_boxes="element"))
    assert next(c for c in dc_el.chunks if c.block_type == "table").bboxes_pdf[1] == (43, 159, 547, 253)


def _el(i: int, label: str, box, text: str = "x", page: int = 1) -> Element:
    return make_element("d", page, i, label, box, text, confidence=0.9)


def test_guard_no_element_in_two_chunks():
    a, b, c = (
        _el(0, "text", (0, 0, 10, 10)),
        _el(1, "table", (0, 20, 10, 30)),
        _el(2, "text", (0, 40, 10, 50)),
    )
    groups = [Group([a, b], "table"), Group([b, c], "text")]
    out, n_unassigned = apply_guards(groups, [a, b, c])
    seen = [m.element_id for g in out for m in g.members]
    assert sorted(seen) == sorted({a.element_id, b.element_id, c.element_id})
    assert len(seen) == 3 and n_unassigned == 0


def test_guard_no_element_lost_and_counted():
    a, b, c = (
        _el(0, "text", (0, 0, 10, 10)),
        _el(1, "picture", (0, 20, 10, 30)),
        _el(2, "text", (0, 40, 10, 50)),
    )
    out, n_unassigned = apply_guards([Group([a], "text")], [a, b, c])
    assert n_unassigned == 2
    assert [g.block_type for g in out] == ["text", "figure", "text"]  # the lost picture is a figure chunk


def test_guard_members_far_apart_never_share_a_chunk():
    top, bottom = _el(0, "text", (40, 40, 500, 60)), _el(1, "text", (40, 60 + 0.19 * 842, 500, 260))
    parts = enforce_gap_limit(Group([top, bottom], "text"), 0.18 * 842)
    assert [[m.element_id for m in g.members] for g in parts] == [[top.element_id], [bottom.element_id]]
    near = _el(2, "text", (40, 70, 500, 90))
    assert len(enforce_gap_limit(Group([top, near], "text"), 0.18 * 842)) == 1


def test_caption_too_far_from_table_stays_apart(tmp_path):
    page = PageSpec(
        [
            Spec("caption", (40, 60, 400, 72), "Table 1. Far away", 9),
            Spec("table", (40, 60 + 0.2 * 842, 550, 300), cells=[["a", "b"], ["1", "2"]]),
        ]
    )
    doc = build_pdf(tmp_path / "t.pdf", [page])
    dc = _chunks(doc, tmp_path)
    assert [c.element_ids for c in dc.chunks] == [element_ids(doc, 1, 0), element_ids(doc, 1, 1)]
    assert [c.block_type for c in dc.chunks] == ["caption", "table"]


def test_tables_and_figures_never_dropped(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [figure_callouts_page(), *split_table_pages()])
    dc = _chunks(doc, tmp_path)
    by_el = {e: c for c in dc.chunks for e in c.element_ids}
    for p in doc.pages:
        for e in p.elements:
            assert e.element_id in by_el  # nothing lost
            if e.label == "table":
                assert by_el[e.element_id].block_type == "table"
            if e.label == "picture":
                assert by_el[e.element_id].block_type == "figure"
    assert sum(len(c.element_ids) for c in dc.chunks) == sum(len(p.elements) for p in doc.pages)


def test_page_headers_not_indexed_except_first_page(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", split_table_pages())
    dc = _chunks(doc, tmp_path)
    bands = {
        (c.page, c.block_type): c.indexed for c in dc.chunks if c.block_type in ("page_header", "page_footer")
    }
    assert bands == {(1, "page_footer"): False, (2, "page_header"): False}
    doc1 = build_pdf(tmp_path / "u.pdf", [table_caption_footnote_page()])
    first = _chunks(doc1, tmp_path).chunks[0]
    assert first.block_type == "page_header" and first.indexed


# --------------------------------------------------------------------------- toc
def test_toc_paths_nest_by_numbering_and_font(tmp_path):
    page = PageSpec(
        [
            Spec("title", (40, 30, 500, 50), "XT26 Crystal Unit", 18, True),  # 0
            Spec("section_header", (40, 70, 400, 84), "9. Electrical Specifications", 12, True),  # 1
            Spec("text", (40, 90, 500, 100), "Intro text.", 9),  # 2
            Spec("section_header", (40, 150, 400, 162), "9.1 Absolute Maximum Ratings", 11, True),  # 3
            Spec("text", (40, 168, 500, 178), "Stresses beyond these may damage the part.", 9),  # 4
            Spec("section_header", (40, 230, 400, 240), "Notes on handling", 9.5, True),  # 5
            Spec("text", (40, 246, 500, 256), "Avoid shocks.", 9),  # 6
            Spec("section_header", (40, 310, 400, 322), "9.2 Recommended Conditions", 11, True),  # 7
            Spec("text", (40, 328, 500, 338), "Use 3.3 V.", 9),  # 8
            Spec("section_header", (40, 390, 400, 404), "10. Ordering", 12, True),  # 9
            Spec("text", (40, 410, 500, 420), "See the table.", 9),  # 10
        ]
    )
    doc = build_pdf(tmp_path / "t.pdf", [page], title="XT26 Crystal Unit")
    dc = _chunks(doc, tmp_path)
    paths = {c.element_ids[0][-3:]: c.toc_path for c in dc.chunks}
    assert paths["001"] == "XT26 Crystal Unit > 9. Electrical Specifications"
    assert paths["003"] == "XT26 Crystal Unit > 9. Electrical Specifications > 9.1 Absolute Maximum Ratings"
    assert paths["005"] == (
        "XT26 Crystal Unit > 9. Electrical Specifications > 9.1 Absolute Maximum Ratings > Notes on handling"
    )
    assert paths["007"] == "XT26 Crystal Unit > 9. Electrical Specifications > 9.2 Recommended Conditions"
    assert paths["009"] == "XT26 Crystal Unit > 10. Ordering"
    sec = {c.element_ids[0][-3:]: c.section_title for c in dc.chunks}
    assert sec["009"] == "10. Ordering"


# --------------------------------------------------------------------------- card, descriptions
def test_document_card_from_title_block_and_ordering_table(tmp_path):
    page = table_caption_footnote_page()
    page.specs[0] = Spec("page_header", (40, 20, 300, 32), "XT26 Series Crystal Unit - Epson", 8)
    pages = [page, split_table_pages()[1]]
    doc = build_pdf(tmp_path / "t.pdf", pages, title="XT26 Series Crystal Unit")
    dc = _chunks(doc, tmp_path)
    card = dc.card
    assert card.title == "XT26 Series Crystal Unit"
    assert card.vendor == "Epson"
    assert card.product_type == "crystal"
    assert "XT26-26.000MAAJ-T" in card.part_numbers and "XT26-40.000MAAJ-T" in card.part_numbers
    assert card.series[0] == "XT26"
    table = dc.chunks[2]
    assert table.description.startswith(
        "Table 'Table 2. Electrical characteristics' in XT26 Series Crystal Unit"
    )
    assert "columns Parameter, Symbol, Typ, Unit" in table.description
    assert "26.000 MHz" in table.keywords or "26.000" in " ".join(table.keywords)


# --------------------------------------------------------------------------- pipeline, evidence, cli
def _save(doc, tmp_path) -> tuple[DataDir, int]:
    data = DataDir(tmp_path / "data")
    data.doc_dir(doc.doc_id).mkdir(parents=True, exist_ok=True)
    data.document_json(doc.doc_id).write_text(doc.model_dump_json(), encoding="utf-8")
    return data, chunk_and_save(doc, data, S)


def test_chunk_and_save_is_resumable(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()])
    data, n = _save(doc, tmp_path)
    path = data.chunks_json(doc.doc_id)
    assert n == 5 and load_doc_chunks(data, doc.doc_id).chunks[0].chunk_id.endswith("_p1_b00")
    stamp = path.stat().st_mtime_ns
    assert chunk_and_save(doc, data, S) == 5
    assert path.stat().st_mtime_ns == stamp  # current key: nothing redone
    changed = doc.model_copy(deep=True)
    changed.pages[0].elements = [e for e in changed.pages[0].elements if e.label != "footnote"]
    assert chunk_and_save(changed, data, S) == 5
    assert path.stat().st_mtime_ns != stamp
    assert load_doc_chunks(data, doc.doc_id).key != ""


def _image_files(data: DataDir, doc_id: str) -> dict[str, bytes]:
    d = data.doc_dir(doc_id)
    return {p.relative_to(d).as_posix(): p.read_bytes() for sub in ("evidence", "crops") for p in sorted((d / sub).glob("*.png"))}


def test_evidence_images_are_rendered_on_first_request_and_equal_eager_ones(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [*split_table_pages(), table_caption_footnote_page()])
    lazy, _ = _save(doc, tmp_path / "lazy")
    eager = DataDir(tmp_path / "eager" / "data")
    eager.doc_dir(doc.doc_id).mkdir(parents=True)
    eager.document_json(doc.doc_id).write_text(doc.model_dump_json(), encoding="utf-8")
    chunk_and_save(doc, eager, S.updated(eager_images=True))
    chunks = load_doc_chunks(lazy, doc.doc_id)
    # the same records (image paths named without rendering), and no image written yet
    assert chunks.model_dump(exclude={"key"}) == load_doc_chunks(eager, doc.doc_id).model_dump(exclude={"key"})
    assert _image_files(lazy, doc.doc_id) == {} and _image_files(eager, doc.doc_id)
    c = chunks.chunks[0]
    first = chunk_image(lazy, c, c.evidence_image, evidence_spec(S))  # renders all of the chunk's images
    stamp, data = first.stat().st_mtime_ns, first.read_bytes()
    again = chunk_image(lazy, c, c.evidence_image, evidence_spec(S))  # the cached file, not re-rendered
    assert again == first and again.stat().st_mtime_ns == stamp and again.read_bytes() == data
    assert all(lazy.resolve(r).is_file() for r in c.crop_images)
    for other in chunks.chunks[1:]:
        for rel in [other.evidence_image, *other.crop_images]:
            chunk_image(lazy, other, rel, evidence_spec(S))
    assert _image_files(lazy, doc.doc_id) == _image_files(eager, doc.doc_id)  # byte for byte
    with pytest.raises(NotFoundError):
        chunk_image(lazy, c, "docs/../../etc/passwd", evidence_spec(S))
    # chunking again (other boxes) drops the images rendered from the previous boxes
    changed = doc.model_copy(deep=True)
    changed.pages[0].elements = changed.pages[0].elements[:-1]
    chunk_and_save(changed, lazy, S)
    assert _image_files(lazy, doc.doc_id) == {}


def test_evidence_images_crop_per_member_and_page_break(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", split_table_pages())
    data, _ = _save(doc, tmp_path)
    joined = load_doc_chunks(data, doc.doc_id).chunks[0]
    assert len(joined.crop_images) == len(joined.regions) == 5
    scale = S.render.dpi / 72
    for rel, region in zip(joined.crop_images, joined.regions, strict=True):
        with Image.open(chunk_image(data, joined, rel, evidence_spec(S))) as im:
            x0, y0, x1, y1 = region.bbox_pdf
            assert abs(im.width - ((x1 - x0) * scale + 2 * S.chunking.crop_padding_px)) <= 2
            assert abs(im.height - ((y1 - y0) * scale + 2 * S.chunking.crop_padding_px)) <= 2
    assert region.bbox_pdf == (40, 64, 550, 226)  # stored boxes stay unpadded (slot, no crop padding)
    with Image.open(chunk_image(data, joined, joined.evidence_image, evidence_spec(S))) as ev:
        # one crop of the chunk's block per page, a marked page-break band between them
        parts = []
        for page in (1, 2):
            block = union_box(r.bbox_pdf for r in joined.regions if r.page == page)
            parts.append(round((block[3] - block[1]) * scale) + 2 * S.chunking.crop_padding_px)
        assert abs(ev.height - (parts[0] + 30 + parts[1])) <= 3
        band_y = parts[0] + 15
        band = [ev.getpixel((x, y)) for x in range(0, 60) for y in range(band_y - 4, band_y + 5)]
        assert any(p[0] > 150 and p[1] < 80 for p in band)  # red dashes
        assert ev.getpixel((ev.width // 2, parts[0] // 2)) != (200, 30, 30)


def test_cli_lists_by_id_and_file_name_and_prints_packages(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()])
    data, _ = _save(doc, tmp_path)
    con = Console(record=True, width=200)
    print_chunks("t.pdf", data=data.root, as_json=False, console=con)
    out = con.export_text()
    assert f"{doc.doc_id}_p1_b02" in out and "table [5 rows]" in out
    con = Console(record=True, width=200)
    print_chunks(doc.doc_id, data=data.root, as_json=True, console=con)
    lines = [ln for ln in con.export_text().splitlines() if ln.strip()]
    pkgs = [EvidencePackage.model_validate(json.loads(ln)) for ln in lines]
    assert [p.chunk_id for p in pkgs][2] == f"{doc.doc_id}_p1_b02"
    assert pkgs[2].rows and pkgs[2].evidence_image
    with pytest.raises(NotFoundError):
        print_chunks("nope.pdf", data=data.root, as_json=False, console=con)


def test_rotated_page_table_rows_in_displayed_space(tmp_path):
    cells = [["Pin", "Name"], ["1", "VDD"], ["2", "GND"], ["3", "OUT"]]
    page = PageSpec([Spec("table", (100, 100, 400, 180), cells=cells)], rotation=90)
    doc = build_pdf(tmp_path / "r.pdf", [page])
    assert doc.pages[0].rotation == 90
    table = _chunks(doc, tmp_path).chunks[0]
    assert [r.cells for r in table.rows] == cells
    for r in table.rows:
        x0, y0, x1, y1 = r.bbox_pdf
        assert 99 <= x0 and x1 <= 401 and 99 <= y0 and y1 <= 181


def test_group_page_is_deterministic(tmp_path):
    doc = build_pdf(tmp_path / "t.pdf", [two_column_page()])
    a = [[m.element_id for m in g.members] for g in group_page(doc.pages[0], S)]
    b = [[m.element_id for m in g.members] for g in group_page(doc.pages[0], S)]
    assert a == b


def test_llm_off_without_env(monkeypatch, tmp_path):
    monkeypatch.delenv("LAYOUTRAG_LLM_BASE_URL", raising=False)
    doc = build_pdf(tmp_path / "t.pdf", [table_caption_footnote_page()])
    data, _ = _save(doc, tmp_path)
    assert "+llm:" not in load_doc_chunks(data, doc.doc_id).key
    assert os.environ.get("LAYOUTRAG_LLM_BASE_URL") is None


def test_generated_spec_table_continued_on_the_next_page_is_one_chunk(tmp_path):
    """The sample generator breaks "Table 2. Electrical characteristics" early (room is left under
    it) and repeats "Table 2 ... (continued)" on page 2: the caption says so outright, so the two
    parts are one chunk with members on both pages and the rows of both."""
    _, doc = sample_document(0, tmp_path)
    dc, _ = build_doc_chunks(doc, S)
    spec = [c for c in dc.chunks if c.block_type == "table" and "Table 2" in c.native_text]
    assert len(spec) == 1
    joined = spec[0]
    assert {r.page for r in joined.regions} == {1, 2}
    assert [r.label for r in joined.regions if r.page == 2][:2] == ["caption", "table"]
    assert {r.page for r in joined.rows} == {1, 2}
    assert "(continued)" in joined.native_text


def test_every_block_type_the_chunker_makes_is_a_known_block_type() -> None:
    """records.BLOCK_TYPES (what a search filter accepts) is kept by hand: every label mix the
    grouping can produce must map into it."""
    from itertools import combinations

    from layoutrag.chunking.group import block_type_of
    from layoutrag.records import BLOCK_TYPES, LABELS

    made = {
        block_type_of([make_element("d", 1, i, lab, (0, 0, 1, 1), "x") for i, lab in enumerate(mix)])
        for n in (1, 2, 3)
        for mix in combinations(LABELS, n)
    }
    assert made <= set(BLOCK_TYPES), made - set(BLOCK_TYPES)
