"""specs-17, on tables made here. unit-columns: a table whose header names a Unit column and no
value column (TI's "Thermal Information": "THERMAL METRIC | part | UNIT" over package columns) is
read one value per package column, that column's heading its condition."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, DocumentCard, SpecValue, TableRow

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])


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
