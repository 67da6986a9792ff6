"""The spec stage's specs-8 changes, each on a small table made here: "Rating | Symbol | Value |
Unit" (Rating heads the names), a row named by its symbol alone ("VDD"), and a header line the
grid fused into a table's first row (a shaded header band with no rule under it)."""

from __future__ import annotations

import pymupdf
import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import printed_words
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, Chunk, DocumentCard, Region, TableRow, Word
from layoutrag.specs import match_parameter

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])
COLS = [(50, 200), (200, 260), (260, 330), (330, 380)]  # x-ranges of four columns


def _row(cells: list[str], y: float, h: float = 12, header: bool = False) -> TableRow:
    boxes = [Box(x0, y, x1, y + h) for (x0, x1), _ in zip(COLS, cells, strict=False)]
    return TableRow(page=1, bbox_pdf=Box(50, y, 380, y + h), cells=cells, text=" | ".join(cells), is_header=header, cell_boxes=boxes)


def _chunk(rows: list[TableRow]) -> Chunk:
    region = Box(50, rows[0].bbox_pdf.y0, 380, rows[-1].bbox_pdf.y1)
    return Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="table", rows=rows, native_text="",
                 regions=[Region(page=1, bbox_pdf=region, label="table")])


def test_rating_heads_the_names_when_a_value_column_stands_right_of_it() -> None:
    rows = [
        _row(["Rating", "Symbol", "Value", "Unit"], 100, header=True),
        _row(["Storage Temperature", "Tstg", "-65 to 150", "°C"], 112),
        _row(["Input Voltage", "Vin", "20", "V"], 124),
    ]
    got = {(v.parameter, v.min, v.typ, v.max) for v in extract_specs(CARD, [_chunk(rows)], None)}
    assert ("storage_temperature", -65.0, None, 150.0) in got
    assert any(p == "supply_voltage" and 20.0 in (t, mx) for p, _, t, mx in got)
    # "Characteristics | Symbol | Rating | Unit": Rating heads the values, as before
    rows[0] = _row(["Characteristics", "Symbol", "Rating", "Unit"], 100, header=True)
    got = {(v.parameter, v.min, v.max) for v in extract_specs(CARD, [_chunk(rows)], None)}
    assert ("storage_temperature", -65.0, 150.0) in got
    # the ablation: the Rating column read as values, no names left, nothing read
    rows[0] = _row(["Rating", "Symbol", "Value", "Unit"], 100, header=True)
    stage.RATING_NAMES = False
    try:
        assert extract_specs(CARD, [_chunk(rows)], None) == []
    finally:
        stage.RATING_NAMES = True


def test_a_row_named_by_its_symbol_alone() -> None:
    assert match_parameter("VDD", unit="V") == ("supply_voltage", True)
    assert match_parameter("ICC", unit="A") == ("supply_current", True)
    assert match_parameter("VDD", unit="A")[1] is False  # the unit must agree
    # two-letter symbols mean different things: one decides only as the row's whole name, its unit agreeing (specs-41)
    assert match_parameter("VS Sense", unit="V")[1] is False
    assert match_parameter("VS", unit="V") == ("supply_voltage", True)
    import layoutrag.specs as specs_mod

    specs_mod.SYMBOL_NAMES = False
    try:
        assert match_parameter("VDD", unit="V")[1] is False
    finally:
        specs_mod.SYMBOL_NAMES = True


def _fused_page() -> tuple[list[Word], list[TableRow]]:
    """A ratings table whose header band has no rule under it: the grid's first row holds the
    header line and the first body line; the rows below are their own."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    lines = [
        (100, ["Symbol", "Parameter", "Min", "Max", "Unit"]),
        (114, ["VDD", "supply voltage", "-0.5", "+3.6", "V"]),
        (128, ["Tstg", "storage temperature", "-40", "+125", "°C"]),
    ]
    xs = [50, 100, 260, 330, 400]
    for y, cells in lines:
        for x, t in zip(xs, cells, strict=True):
            page.insert_text((x, y), t, fontsize=8, fontname="helv")
    words = [Word(text=w[4], bbox_pdf=Box(*w[:4]), block=w[5], line=w[6]) for w in page.get_text("words")]
    edges = [48, 98, 258, 328, 398, 450]
    boxes = lambda y0, y1: [Box(edges[i], y0, edges[i + 1], y1) for i in range(5)]  # noqa: E731
    fused = TableRow(page=1, bbox_pdf=Box(48, 90, 450, 117), cells=["Symbol VDD", "Parameter supply voltage", "Min -0.5", "Max +3.6", "Unit V"],
                     text="", cell_boxes=boxes(90, 117))
    second = TableRow(page=1, bbox_pdf=Box(48, 117, 450, 131), cells=["Tstg", "storage temperature", "-40", "+125", "°C"],
                      text="", cell_boxes=boxes(117, 131))
    return words, [fused, second]


def test_a_header_line_fused_into_the_first_row_is_split_off() -> None:
    words, rows = _fused_page()
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="table", rows=rows, native_text="",
                  regions=[Region(page=1, bbox_pdf=Box(48, 90, 450, 131), label="table")])
    got = extract_specs(CARD, [chunk], lambda p: words)
    read = {(v.parameter, v.min, v.max, v.unit) for v in got}
    assert read == {("supply_voltage", -0.5, 3.6, "V"), ("storage_temperature", -40.0, 125.0, "°C")}
    vdd = next(v for v in got if v.parameter == "supply_voltage")
    assert vdd.row_bbox_pdf.y0 >= 100  # the body line's box, below the header line
    assert all(cell.bbox_pdf.y0 >= 100 for cell in vdd.cells)
    stage.FUSED_HEADER = False
    try:
        assert extract_specs(CARD, [chunk], lambda p: words) == []
    finally:
        stage.FUSED_HEADER = True


@pytest.mark.parametrize("first", [["Symbol", "Parameter", "Min", "Max", "Unit"], ["VDD", "supply", "x", "y", "V"]])
def test_a_first_row_that_is_only_a_header_or_only_a_body_is_not_split(first: list[str]) -> None:
    words, rows = _fused_page()
    rows[0] = rows[0].model_copy(update={"cells": first})
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="table", rows=rows, native_text="",
                  regions=[Region(page=1, bbox_pdf=Box(48, 90, 450, 131), label="table")])
    # the page prints only the header line in that band, or only the body line
    header_only = first[0] == "Symbol"
    band = [w for w in words if (w.bbox_pdf.center[1] < 103) == header_only and w.bbox_pdf.center[1] < 117]
    assert band
    assert stage._fused_header(chunk, lambda p: band) is None


def test_unheaded_columns_right_of_conditions_are_conditions_too() -> None:
    """A "Conditions" header merged over three grid columns: the part and drain current in the first,
    the junction temperature in an unheaded one - both are the value's conditions."""
    cols = [(50, 150), (150, 200), (200, 260), (260, 300), (300, 340), (340, 380), (380, 420)]

    def row(cells: list[str], y: float, header: bool = False) -> TableRow:
        boxes = [Box(x0, y, x1, y + 12) for x0, x1 in cols]
        return TableRow(page=1, bbox_pdf=Box(50, y, 420, y + 12), cells=cells, text="", is_header=header, cell_boxes=boxes)

    rows = [
        row(["Parameter", "Symbol", "Conditions", "", "Typ", "Max", "Units"], 100, header=True),
        row(["ON-State Resistance", "RDS(ON)", "ID = 50 mA", "TJ = 25 °C", "19.1", "22.0", "Ω"], 112),
        row(["", "", "", "TJ = 100 °C", "28.8", "33.4", ""], 124),
    ]
    got = [(v.parameter, v.typ, v.conditions) for v in extract_specs(CARD, [_chunk(rows)], None)]
    assert got == [("rds_on", 19.1, "ID = 50 mA TJ = 25 °C"), ("rds_on", 28.8, "TJ = 100 °C")]
    stage.CONDITION_SPAN = False
    try:
        assert [v.conditions for v in extract_specs(CARD, [_chunk(rows)], None)] == ["ID = 50 mA", ""]
    finally:
        stage.CONDITION_SPAN = True


def _figure_page(rows: list[tuple[float, list[tuple[float, str]]]]) -> list[Word]:
    return printed_words([(x, y, t) for y, cells in rows for x, t in cells])


def _figure(region: Box) -> Chunk:
    return Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="figure", rows=[], native_text="",
                 regions=[Region(page=1, bbox_pdf=region, label="figure")])


def test_a_table_the_layout_model_took_for_a_figure_is_read_from_its_words() -> None:
    """Two small tables drawn as one picture (a ratings table with one Rating column, then one with
    min./typ./max.): each header line starts a table, each line below goes to the columns of its
    header; a number under no header word between Min and Max (a merged cell) is left out."""
    words = _figure_page([
        (84, [(60, "5. Absolute Maximum Ratings")]),  # the heading above the figure
        (100, [(60, "Item"), (200, "Symbol"), (280, "Rating"), (400, "unit")]),
        (112, [(60, "Supply Voltage"), (200, "VCC"), (275, "-0.3~+4.6"), (400, "V")]),
        (124, [(60, "Storage Temperature Range"), (200, "TSTG"), (280, "-40~+85"), (400, "°C")]),
        (140, [(60, "6. Recommended Operating Conditions")]),
        (152, [(60, "Item"), (200, "Symbol"), (250, "min."), (300, "typ."), (350, "max."), (400, "unit")]),
        (164, [(60, "Supply Voltage"), (200, "VCC"), (250, "+1.7"), (300, "+1.8"), (350, "+1.9"), (400, "V")]),
        (176, [(60, "Operating Temperature Range"), (200, "TOPR"), (250, "-30"), (300, "-"), (350, "+85"), (400, "°C")]),
        (188, [(60, "Load Capacitance"), (200, "CL"), (318, "20"), (400, "pF")]),  # between typ. and max.
    ])
    got = {(v.parameter, v.min, v.typ, v.max, v.table) for v in extract_specs(CARD, [_figure(Box(50, 90, 450, 195))], lambda p: words)}
    assert got == {
        ("supply_voltage", -0.3, None, 4.6, "ratings"),  # under the heading above the figure
        ("storage_temperature", -40.0, None, 85.0, "ratings"),
        ("supply_voltage", 1.7, 1.8, 1.9, "characteristics"),  # under "Recommended Operating Conditions"
        ("operating_temperature", -30.0, None, 85.0, "characteristics"),
    }
    stage.FIGURE_TABLES = False
    try:
        assert extract_specs(CARD, [_figure(Box(50, 90, 450, 195))], lambda p: words) == []
    finally:
        stage.FIGURE_TABLES = True


def test_a_graph_is_not_read_as_a_table() -> None:
    words = _figure_page([
        (100, [(60, "Supply Current vs. Temperature")]),
        (120, [(60, "10"), (300, "VDD = 3.3 V")]),
        (160, [(60, "5"), (300, "Typ")]),
        (200, [(60, "0"), (100, "-40"), (200, "25"), (300, "85"), (400, "125")]),
        (212, [(200, "Temperature (°C)")]),
    ])
    assert extract_specs(CARD, [_figure(Box(50, 90, 450, 215))], lambda p: words) == []


def test_a_ratings_list_printed_without_dot_leaders() -> None:
    """"Name      value" lines under "Absolute Maximum Ratings", no leaders: split at each line's widest
    space; a line without a number names the indented lines under it; a line whose right part is no
    value with a unit is not read."""
    words = _figure_page([
        (100, [(60, "Absolute Maximum Ratings")]),
        (112, [(60, "Supply Voltage"), (220, "+35V to -0.2V")]),
        (124, [(60, "Output Current"), (220, "10 mA")]),
        (136, [(60, "Operating Temperature Range")]),
        (148, [(70, "Military grade"), (220, "-55°C to +125°C")]),
        (160, [(60, "Lead Temperature (Soldering, 10 seconds)"), (250, "260°C")]),
        (172, [(60, "ESD rating class 2"), (220, "see note 4")]),
    ])
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="text", rows=[], native_text="Absolute Maximum Ratings\n...",
                  regions=[Region(page=1, bbox_pdf=Box(50, 90, 450, 176), label="text")])
    got = {(v.parameter, v.parameter_printed, v.min, v.typ, v.max) for v in extract_specs(CARD, [chunk], lambda p: words)}
    assert got == {
        ("supply_voltage", "Supply Voltage", -0.2, None, 35.0),
        ("output_current", "Output Current", None, None, 0.01),  # a lone rating is its limit (specs-19)
        # the heading names the indented line's quantity
        ("operating_temperature", "Operating Temperature Range, Military grade", -55.0, None, 125.0),
        ("soldering_temperature", "Lead Temperature (Soldering, 10 seconds)", None, None, 260.0),
    }
    supply = next(v for v in extract_specs(CARD, [chunk], lambda p: words) if v.parameter == "supply_voltage")
    assert supply.cells[0].bbox_pdf.x0 >= 215  # the value's own box, right of the name
    stage.GAP_LISTS = False
    stage.NAMED_TEMPERATURES = False  # specs-44 reads the range under its name line on its own (tests/test_specs31.py)
    try:
        assert extract_specs(CARD, [chunk], lambda p: words) == []
    finally:
        stage.GAP_LISTS = True
        stage.NAMED_TEMPERATURES = True
    # outside a ratings block the same lines are prose to the gap-list reader, not read (the operating range a line
    # begins with is read by specs-44's named-temperatures, a document-level reader of its own: off here)
    plain = chunk.model_copy(update={"native_text": "Typical application\n..."})
    stage.NAMED_TEMPERATURES = False
    try:
        assert extract_specs(CARD, [plain], lambda p: [w for w in words if w.text not in ("Absolute", "Maximum", "Ratings")]) == []
    finally:
        stage.NAMED_TEMPERATURES = True
