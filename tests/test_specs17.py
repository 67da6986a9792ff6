"""specs-17, on small PDFs and tables made here. spanned-roles: a merged "MIN TYP MAX" header cell
spanning as many grid columns as it names roles (the grid repeats its box in the empty cells it
covers) gives each of those columns its role in place, the body cells under it staying where they
are; a header word broken over two lines of a narrow cell ("UNI" / "TS") is read whole.
unit-columns: a table whose header names a Unit column and no value column (TI's "Thermal
Information": "THERMAL METRIC | part | UNIT" over package columns) is read one value per package
column, that column's heading its condition."""

from __future__ import annotations

import pymupdf
import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, DocumentCard, SpecValue, TableRow, Word

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])


# --------------------------------------------------------------------------- spanned roles
GRID = [(70, 120), (120, 240), (240, 390), (390, 425), (425, 461), (461, 497), (497, 526)]
MERGED = (390, 497)  # the "MIN TYP MAX" header cell over the three value columns


def _spanned_table() -> tuple[list[TableRow], list[Word]]:
    """A PDF page printing a characteristics table whose "MIN TYP MAX" header is one cell over three
    grid columns and whose "UNITS" header is broken over two lines of its narrow cell; the rows as
    a grid detector gives them (the merged cell's box repeated in the cells it covers)."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=400)
    head_y, body_y = 100, 130
    page.insert_text((72, head_y + 9), "SYMBOL", fontsize=8)
    page.insert_text((122, head_y + 9), "PARAMETER", fontsize=8)
    page.insert_text((242, head_y + 9), "CONDITIONS", fontsize=8)
    for x, t in ((395, "MIN"), (430, "TYP"), (466, "MAX")):
        page.insert_text((x, head_y + 9), t, fontsize=8)
    page.insert_text((500, head_y + 7), "UNI", fontsize=8)
    page.insert_text((500, head_y + 17), "TS", fontsize=8)
    body = ["VCC", "Input Supply Voltage", "", "4.0", "5", "8.0", "V"]
    for (x0, _), t in zip(GRID, body, strict=True):
        if t:
            page.insert_text((x0 + 2, body_y + 9), t, fontsize=8)
    words = [Word(text=w[4], bbox_pdf=Box(*w[:4]), block=w[5], line=w[6]) for w in page.get_text("words")]
    doc.close()
    head_boxes = [Box(x0, head_y, x1, head_y + 20) for x0, x1 in GRID]
    head_boxes[3:6] = [Box(MERGED[0], head_y, MERGED[1], head_y + 20)] * 3
    header = TableRow(page=1, bbox_pdf=Box(70, head_y, 526, head_y + 20),
                      cells=["SYMBOL", "PARAMETER", "CONDITIONS", "MIN TYP MAX", "", "", "UNI TS"],
                      text="", is_header=True, cell_boxes=head_boxes)
    row = TableRow(page=1, bbox_pdf=Box(70, body_y, 526, body_y + 12), cells=body, text=" ".join(body),
                   cell_boxes=[Box(x0, body_y, x1, body_y + 12) for x0, x1 in GRID])
    return [header, row], words


def _spanned_specs() -> list[SpecValue]:
    rows, words = _spanned_table()
    return extract_specs(CARD, [table_chunk(rows, title="Electrical characteristics")],
                         lambda p: words if p == 1 else [])


def test_a_merged_min_typ_max_header_over_three_grid_columns_reads_each_column() -> None:
    (v,) = [v for v in _spanned_specs() if v.parameter == "supply_voltage"]
    assert (v.min, v.typ, v.max, v.unit) == (4.0, 5.0, 8.0, "V")
    # each number's cell is its own grid cell, not the merged header's span
    boxes = {c.role: c.bbox_pdf for c in v.cells}
    assert (boxes["min"].x0, boxes["typ"].x0, boxes["max"].x0) == (390, 425, 461)


def test_spanned_roles_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    # without it the header is cut into three inserted columns and the body cells shift right of them
    monkeypatch.setattr(stage, "SPANNED_ROLES", False)
    assert [(v.min, v.typ, v.max) for v in _spanned_specs() if v.parameter == "supply_voltage"] != [(4.0, 5.0, 8.0)]


def test_a_broken_header_word_is_read_whole_but_two_role_words_are_not_joined() -> None:
    assert stage._role_of("UNI TS")[0] == "unit"
    assert stage._role_of("Condi tions")[0] == "conditions"
    assert stage._role_of("MIN MAX")[0] is None  # two words that each name a role: a merged header
    assert stage._role_of("Rated Load")[0] is None


# --------------------------------------------------------------------------- unit columns
UCOLS = [(50, 250), (250, 270), (270, 340), (340, 410), (410, 460)]


def _urow(cells: list[str], y: float, header: bool = False) -> TableRow:
    return TableRow(page=1, bbox_pdf=Box(50, y, 460, y + 12), cells=cells, text=" | ".join(cells),
                    is_header=header, cell_boxes=[Box(x0, y, x1, y + 12) for x0, x1 in UCOLS])


THERMAL = [
    ["", "THERMAL METRIC(1)", "XY100", "", "UNIT"],
    ["", "", "DBV (SOT-23)", "DQN (X2SON)", ""],
    ["", "", "5 PINS", "4 PINS", ""],
    ["RθJA Junction-to-ambient thermal resistance", "", "193.4", "216.1", "°C/W"],
    ["RθJB Junction-to-board thermal resistance", "", "45.8", "162.1", ""],
    ["ψJT Junction-to-top characterization parameter", "", "12.1", "5.5", ""],
]


def _unit_specs(rows: list[list[str]], title: str = "Thermal Information") -> list[SpecValue]:
    made = [_urow(r, 100 + 12 * i, header=i == 0) for i, r in enumerate(rows)]
    return extract_specs(CARD, [table_chunk(made, title=title)])


def test_a_thermal_information_table_gives_one_value_per_package_column() -> None:
    # the column's heading lines, as printed (the part name merged over the columns stands in the first)
    got = [(v.parameter, v.typ, v.unit, v.conditions) for v in _unit_specs(THERMAL)]
    assert sorted(got) == sorted([
        ("thermal_resistance", 193.4, "°C/W", "XY100 DBV (SOT-23) 5 PINS"),
        ("thermal_resistance", 216.1, "°C/W", "DQN (X2SON) 4 PINS"),
        # the unit cell left empty under "°C/W" is that unit
        ("thermal_resistance", 45.8, "°C/W", "XY100 DBV (SOT-23) 5 PINS"),
        ("thermal_resistance", 162.1, "°C/W", "DQN (X2SON) 4 PINS"),
    ])  # ψJT: a name the vocabulary does not know is no evidence, not read
    v = next(v for v in _unit_specs(THERMAL) if v.typ == 216.1)
    (cell,) = [c for c in v.cells if c.role == "value"]
    assert (cell.bbox_pdf.x0, cell.bbox_pdf.x1, cell.text) == (340, 410, "216.1")
    assert v.part == "XY100"


def test_unit_columns_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "UNIT_COLUMNS", False)
    assert _unit_specs(THERMAL) == []


def test_unit_columns_leave_tables_with_limit_headers_part_codes_and_examples() -> None:
    # a second header line naming the limits ("Symbol | Max.") is a characteristics header, not bare values
    limits = [THERMAL[0], ["Symbol", "", "Max.", "Max.", ""], *THERMAL[3:5]]
    made = [_urow(r, 100 + 12 * i, header=i == 0) for i, r in enumerate(limits)]
    assert stage._unit_columns(table_chunk(made, title="IDD"), None) is None
    made = [_urow(r, 100 + 12 * i, header=i == 0) for i, r in enumerate(THERMAL)]
    assert stage._unit_columns(table_chunk(made, title="Thermal"), None) is not None
    # rows named by part codes (a dimensions table): names the vocabulary does not know
    dims = [["Type/Code", "", "A Body Length", "B Diameter", "Unit"], ["CF1/4", "", "6.3", "2.4", "mm"]]
    assert _unit_specs(dims) == []
    # an application example's table is one circuit's, not the part's
    assert _unit_specs(THERMAL, title="Typical Application: Design Parameters") == []
