"""The spec stage's specs-9 changes, on names and small tables made here: a supply rail's voltage or
current printed under the rail's name or symbol (AVDD, V_DDIO, I_DDA), and a footnote number glued
to a name's last word ("Frequency Range1")."""

from __future__ import annotations

import pytest

import layoutrag.specs as specs_mod
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, Chunk, DocumentCard, Region, TableRow
from layoutrag.specs import match_parameter

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])
COLS = [(50, 200), (200, 260), (260, 330), (330, 380)]


def _row(cells: list[str], y: float, header: bool = False) -> TableRow:
    boxes = [Box(x0, y, x1, y + 12) for (x0, x1), _ in zip(COLS, cells, strict=False)]
    return TableRow(page=1, bbox_pdf=Box(50, y, 380, y + 12), cells=cells, text=" | ".join(cells), is_header=header, cell_boxes=boxes)


def _chunk(rows: list[TableRow]) -> Chunk:
    region = Box(50, rows[0].bbox_pdf.y0, 380, rows[-1].bbox_pdf.y1)
    return Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="table", rows=rows, native_text="",
                 regions=[Region(page=1, bbox_pdf=region, label="table")])


def test_a_rail_named_or_symbolled_is_its_supply() -> None:
    assert match_parameter("AVDD", unit="V") == ("supply_voltage", True)
    assert match_parameter("DVDD to DGND", unit="V") == ("supply_voltage", True)
    assert match_parameter("Maximum Digital Voltage", "V DDD", unit="V") == ("supply_voltage", True)
    assert match_parameter("Digital I/O Voltage", "VDDIO", unit="V") == ("supply_voltage", True)
    assert match_parameter("Read Current", "ICC1", unit="A") == ("supply_current", True)
    assert match_parameter("Analog Current", "IDDA", unit="A") == ("supply_current", True)
    # a low-power mode's current is the standby current, as for a name
    assert match_parameter("Power-Down Mode", "IDD4", unit="A") == ("standby_current", True)


def test_what_a_rail_does_not_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert match_parameter("AVDD to DVDD", unit="V")[1] is False  # one rail against another
    assert match_parameter("Voltage on control pins (VDDIO supply)", "VDDIO", unit="V")[1] is False
    assert match_parameter("AVDD", unit="A")[1] is False  # the unit must agree
    assert match_parameter("VIN1 to AGND", unit="V")[1] is False  # an analog input, not a rail
    assert match_parameter("Quiescent", "IDDQ", unit="A")[1] is False  # not a domain's supply current
    monkeypatch.setattr(specs_mod, "RAILS", False)
    assert match_parameter("AVDD", unit="V")[1] is False


def test_a_footnote_number_glued_to_the_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert match_parameter("Frequency Range1", unit="Hz") == ("frequency", True)
    assert match_parameter("Junction-to-Lead Thermal Resistance2", unit="°C/W") == ("thermal_resistance", True)
    assert match_parameter("Parameter1")[1] is False  # an unknown name stays unknown
    monkeypatch.setattr(specs_mod, "FOOTNOTE_GLUED", False)
    assert match_parameter("Frequency Range1", unit="Hz")[1] is False


def test_a_supply_table_by_rail() -> None:
    rows = [
        _row(["Parameter", "Symbol", "Value", "Unit"], 100, header=True),
        _row(["Digital Voltage", "VDDD", "1.1 to 2.0", "V"], 112),
        _row(["AVDD", "", "2.5", "V"], 124),
        _row(["Supply Range", "VS", "2.7 to 5.5", "V"], 136),
    ]
    got = {(v.parameter, v.min, v.typ, v.max) for v in extract_specs(CARD, [_chunk(rows)], None)}
    assert ("supply_voltage", 1.1, None, 2.0) in got
    assert any(p == "supply_voltage" and 2.5 in (t, mx) for p, _, t, mx in got)
    assert not any(p == "supply_voltage" and 5.5 in (mn, mx) for p, mn, _, mx in got)  # "Supply Range": not a vocabulary name
