"""specs-17, on tables made here. unit-columns: a table whose header names a Unit column and no
value column (TI's "Thermal Information": "THERMAL METRIC | part | UNIT" over package columns) is
read one value per package column, that column's heading its condition. option-lists: a value
cell listing the values a part is offered with ("±0.5ppm; ±1.0ppm", "12 pF, 20 pF, or specify")
gives one value per option, all from that cell."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import grid_chunk, grid_row, table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import DocumentCard, SpecValue, TableRow

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])


# --------------------------------------------------------------------------- unit columns
UCOLS = [(50, 250), (250, 270), (270, 340), (340, 410), (410, 460)]


def _urow(cells: list[str], y: float, header: bool = False) -> TableRow:
    return grid_row(cells, y, UCOLS, header=header)


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


# --------------------------------------------------------------------------- option lists
@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        ("±0.5ppm; ±1.0ppm; ±2.0ppm", ["±0.5ppm", "±1.0ppm", "±2.0ppm"]),
        ("–20 to +70°C / –40 to +85°C", ["–20 to +70°C", "–40 to +85°C"]),
        ("12 pF, 20 pF, or specify", ["12 pF", "20 pF"]),
        ("- 20 ~ + 70 ℃ , - 40 ~ + 85 ℃or , specify", ["- 20 ~ + 70 ℃", "- 40 ~ + 85 ℃"]),
        ("-115dBc/Hz / -135dBc/Hz", ["-115dBc/Hz", "-135dBc/Hz"]),
        ("± 20 ppm, or specify", ["± 20 ppm"]),  # one value, a custom one on request
        ("-10% / +20%", None),  # the two ends of one range
        ("–65 °C / 150 °C", None),
        ("1,000 MΩ", None),  # a thousands separator, one value
        ("3.3 V, 25 °C", None),  # two quantities: a value and its condition, no options
        ("10 pF", None),
    ],
)
def test_option_pieces(text: str, pieces: list[str] | None) -> None:
    assert stage._options(text) == pieces


OCOLS = [(50, 200), (200, 420), (420, 520)]


def _option_specs(rows: list[list[str]]) -> list[SpecValue]:
    return extract_specs(CARD, [grid_chunk(rows, OCOLS, title="Specifications")])


OPTIONS = [
    ["Parameter", "Supply voltage", "Remarks"],  # no value column: read as name | value rows
    ["Frequency stability", "±0.5ppm; ±1.0ppm; ±2.5ppm", "See note below"],
    ["Phase noise", "-115dBc/Hz / -135dBc/Hz", "@100Hz / 1kHz"],
    ["Supply current", "1.5mA / 2.0mA", "@10kΩ/10pF"],
]


def test_an_option_list_gives_one_value_per_option_from_its_cell() -> None:
    got = _option_specs(OPTIONS)
    stab = [(v.min, v.max) for v in got if v.parameter == "frequency_stability"]
    assert stab == [(-0.5, 0.5), (-1.0, 1.0), (-2.5, 2.5)]
    for v in got:
        (cell,) = v.cells
        assert (cell.bbox_pdf.x0, cell.bbox_pdf.x1) == (200, 420)  # the whole cell is the evidence
    # a condition listed per option goes with its option; a load "10kΩ/10pF" is one condition
    assert [(v.typ, v.conditions) for v in got if v.parameter == "phase_noise"] == [(-115.0, "@100Hz"), (-135.0, "@1kHz")]
    assert [(v.typ, v.conditions) for v in got if v.parameter == "supply_current"] == [
        (pytest.approx(0.0015), "@10kΩ/10pF"), (pytest.approx(0.002), "@10kΩ/10pF")]


def test_an_option_list_under_a_part_column_and_or_specify() -> None:
    rows = [["Item", "XY100", ""], ["Load capacitance", "12 pF, 20 pF, or specify", ""],
            ["Operating temperature", "- 40 ~ + 85 ℃ , or specify", ""]]
    got = sorted((v.parameter, v.min, round((v.typ or 0) * 1e12), v.max, v.part) for v in _option_specs(rows))
    assert got == [("load_capacitance", None, 12, None, "XY100"), ("load_capacitance", None, 20, None, "XY100"),
                   ("operating_temperature", -40.0, 0, 85.0, "XY100")]


def test_option_lists_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "OPTION_LISTS", False)
    assert [v for v in _option_specs(OPTIONS) if v.parameter in ("frequency_stability", "phase_noise")] == []
    rows = [["Item", "XY100", ""], ["Load capacitance", "12 pF, 20 pF, or specify", ""]]
    assert _option_specs(rows) == []
