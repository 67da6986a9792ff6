"""The spec stage's specs-10 changes, on small tables made here: a caption merged over a table's
grid is no header, one ratings row for two temperatures gives both, a value in a grid column under
no header is read by its position, a unit in a cell merged over the Units column is found and a
register settings table gives no values."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, DocumentCard, SpecValue, TableRow, Word

CARD = DocumentCard(
    doc_id="d", file_name="part.pdf", series=["KBX06"], part_numbers=["KBX01", "KBX02", "KBX04"]
)


def _row(cells: list[str], cols: list[tuple[float, float]], y: float, header: bool = False) -> TableRow:
    boxes = [Box(x0, y, x1, y + 12) for x0, x1 in cols]
    return TableRow(
        page=1,
        bbox_pdf=Box(cols[0][0], y, cols[-1][1], y + 12),
        cells=cells,
        text=" | ".join(c for c in cells if c),
        is_header=header,
        cell_boxes=boxes,
    )


# Parameter | Symbol | KBX01 | KBX02 | KBX04 | Unit, a caption merged over all six above it
GRID = [(50, 200), (200, 240), (240, 280), (280, 320), (320, 360), (360, 400)]
WHOLE = [(50, 400)] * 6
MERGED = [GRID[0], GRID[1], (240, 360), (240, 360), (240, 360), GRID[5]]


def _ratings() -> list[TableRow]:
    return [
        _row(
            ["MAXIMUM RATINGS (TA = 25 °C unless otherwise noted)", "", "", "", "", ""],
            WHOLE,
            100,
            header=True,
        ),
        _row(["PARAMETER", "SYMBOL", "KBX01", "KBX02", "KBX04", "UNIT"], GRID, 112, header=True),
        _row(["Maximum repetitive peak reverse voltage", "VRRM", "100", "200", "400", "V"], GRID, 124),
        _row(["Peak forward surge current", "IFSM", "200", "", "", "A"], MERGED, 136),
        _row(
            ["Operating junction and storage temperature range", "TJ, TSTG", "-50 to +150", "", "", "°C"],
            MERGED,
            148,
        ),
    ]


def _read(rows: list[TableRow], text: str = "", words: list[Word] | None = None) -> list[SpecValue]:
    withheld: list[SpecValue] = []
    return extract_specs(
        CARD, [table_chunk(rows, text=text)], (lambda p: words) if words is not None else None, withheld
    )


def test_a_caption_over_the_grid_is_no_header(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _read(_ratings(), "MAXIMUM RATINGS")
    vrrm = sorted((v.part, v.max) for v in got if v.symbol == "VRRM")  # a lone rating is its limit (specs-19)
    assert vrrm == [("KBX01", 100.0), ("KBX02", 200.0), ("KBX04", 400.0)]
    assert all(v.table == "ratings" for v in got)
    # without the change the caption's "Maximum ratings" heads the name column: no row is read so
    monkeypatch.setattr(stage, "TITLE_ROWS", False)
    assert not [v for v in _read(_ratings(), "MAXIMUM RATINGS") if v.symbol == "VRRM" and v.part == "KBX01"]


def test_one_row_for_two_temperatures_gives_both(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _read(_ratings(), "MAXIMUM RATINGS")
    temps = sorted((v.parameter, v.min, v.max) for v in got if v.unit == "°C")
    assert temps == [("junction_temperature", -50.0, 150.0), ("storage_temperature", -50.0, 150.0)]
    one = SpecValue(
        doc_id="d",
        part="p",
        parameter="storage_temperature",
        parameter_printed="Storage temperature",
        symbol="TSTG",
        page=1,
        row_bbox_pdf=Box(0, 0, 1, 1),
        chunk_id="c",
    )
    assert stage._twin_temperature(one) is None  # a storage row alone stays one value
    named = one.model_copy(update={"parameter_printed": "Operating and storage temperature", "symbol": ""})
    twin = stage._twin_temperature(named)
    assert twin is not None and twin.parameter == "operating_temperature"
    monkeypatch.setattr(stage, "TWIN_TEMPERATURES", False)
    assert sorted(v.parameter for v in _read(_ratings(), "MAXIMUM RATINGS") if v.unit == "°C") == [
        "storage_temperature"
    ]


# Parameter | Symbol | Min | (unheaded) | Typ | (unheaded) | Max | Unit: the grid finer than the header
FINE = [(50, 150), (150, 190), (190, 220), (220, 250), (250, 280), (280, 310), (310, 340), (340, 370)]


def _word(text: str, x0: float, y: float) -> Word:
    return Word(text=text, bbox_pdf=(x0, y + 2, x0 + 5 * len(text), y + 10))


def test_a_value_under_no_header_is_read_by_position(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [
        _row(["Parameter", "Symbol", "Min", "", "Typ", "", "Max", "Unit"], FINE, 100, header=True),
        # the max sits in the grid column left of "Max", a dash in the one left of "Typ"
        _row(["Supply voltage", "VCC", "2.5", "—", "", "20", "", "V"], FINE, 112),
    ]
    words = [
        _word("Min", 195, 100),
        _word("Typ", 255, 100),
        _word("Max", 315, 100),
        _word("2.5", 195, 112),
        _word("—", 238, 112),
        _word("20", 300, 112),
    ]
    got = [v for v in _read(rows, words=words) if v.parameter == "supply_voltage"]
    assert [(v.min, v.typ, v.max) for v in got] == [(2.5, None, 20.0)]
    assert {c.role for c in got[0].cells} == {"min", "max"}
    monkeypatch.setattr(stage, "UNHEADED_CELLS", False)
    got = [v for v in _read(rows, words=words) if v.parameter == "supply_voltage"]
    assert [(v.min, v.max) for v in got] == [(2.5, None)]


def test_a_unit_in_a_cell_merged_over_the_unit_column(monkeypatch: pytest.MonkeyPatch) -> None:
    # the header's grid: Parameter | Min | Typ | Max | (gap) | Units | (gap) | Notes
    head = [(50, 150), (150, 190), (190, 230), (230, 270), (270, 275), (275, 305), (305, 310), (310, 400)]
    # the body's "mA" cell merged over the gap, Units and the next gap: the text sits in its first column
    body = [(50, 150), (150, 190), (190, 230), (230, 270), (270, 310), (270, 310), (270, 310), (310, 400)]
    rows = [
        _row(["Parameter", "Min", "Typ", "Max", "", "Units", "", "Notes"], head, 100, header=True),
        _row(["Supply current", "", "", "4.0", "mA", "", "", "4~10 MHz"], body, 112),
    ]
    got = _read(rows)
    assert [(v.parameter, v.max, v.unit, v.conditions) for v in got] == [("supply_current", 0.004, "A", "4~10 MHz")]
    assert got[0].cells[0].bbox_pdf[0] == 230  # the Max cell, where the number is printed
    monkeypatch.setattr(stage, "STRAY_CELLS", False)
    assert _read(rows) == []  # a number without its unit is no spec value


def test_a_register_settings_table_is_no_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    # "TD1 | TD0 | Timer clock frequency (Hz)": rows named by a register's bit values, not by a grade
    grid = [(50, 100), (100, 150), (150, 300)]
    rows = [
        _row(["TD1", "TD0", "Frequency (Hz)"], grid, 100, header=True),
        _row(["0", "0", "4096"], grid, 112),
        _row(["0", "1", "64"], grid, 124),
    ]
    assert _read(rows) == []
    monkeypatch.setattr(stage, "WORD_LABELS", False)
    assert [(v.parameter, v.typ) for v in _read(rows)] == [("frequency", 4096.0), ("frequency", 64.0)]
    # a row named by words is read as before
    monkeypatch.setattr(stage, "WORD_LABELS", True)
    named = [rows[0], _row(["Industrial", "", "4096"], grid, 112)]
    assert [(v.parameter, v.typ, v.conditions) for v in _read(named)] == [("frequency", 4096.0, "Industrial")]
