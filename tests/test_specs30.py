"""specs-30 symbol-subscripts: a symbol printed with a subscript qualifier the vocabulary does not
list - an index (ICC1T, VIL2), a footnote number (IDD(1)), one letter for the side or channel
(RDS(ON),P, RDSON_H) - is the quantity of the vocabulary symbol it qualifies; a subscript naming a
pin or bus (VIN_VC, VIH_I2C) and a two-letter stem (IS1) are not read so."""

from __future__ import annotations

import pytest

import layoutrag.specs as specs
from chunk_factory import grid_row, table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import DocumentCard
from layoutrag.specs import match_parameter

CARD = DocumentCard(doc_id="d", file_name="rtc.pdf", series=["XY1302"], part_numbers=["XY1302"])
COLS = [(60, 200), (200, 250), (250, 300), (300, 350), (350, 400), (400, 450)]


@pytest.mark.parametrize(
    ("name", "symbol", "unit", "pid"),
    [
        ("Timekeeping Current", "ICC1T", "A", "supply_current"),
        ("Current in Run mode", "IDD(1)", "A", "supply_current"),
        ("PFET RON", "RDS(ON),P", "ohm", "rds_on"),
        ("上管导通阻抗", "RDSON_H", "ohm", "rds_on"),
        ("D4", "VIL2", "V", "input_voltage_low"),
    ],
)
def test_a_subscripted_symbol_names_its_stem_quantity(name: str, symbol: str, unit: str, pid: str) -> None:
    assert match_parameter(name, symbol, unit=unit) == (pid, True)


@pytest.mark.parametrize(
    ("name", "symbol", "unit"),
    [
        ("Control input", "VIN_VC", "V"),  # a pin's name as the subscript: another node's voltage
        ("Input Voltage High", "VIH_I2C", "V"),  # a bus's name
        ("Leakage", "IS1", "A"),  # a two-letter stem collides across datasheets
        ("Timekeeping Current", "ICC1T", "V"),  # the unit disagrees with the stem's quantity
    ],
)
def test_a_pin_subscript_a_short_stem_or_another_unit_is_not_read(name: str, symbol: str, unit: str) -> None:
    pid, known = match_parameter(name, symbol, unit=unit)
    assert pid != "supply_current" and pid != "supply_voltage" and pid != "input_voltage_high"
    assert not known


def _read() -> dict[str, str]:
    rows = [
        grid_row(["Parameter", "Symbol", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        grid_row(["Timekeeping Current", "ICC1T", "", "0.2", "0.3", "µA"], 112, COLS),
        grid_row(["Standby Current", "ICCS", "", "", "25", "µA"], 124, COLS),
    ]
    return {v.parameter_printed: v.parameter for v in extract_specs(CARD, [table_chunk(rows)], None)}


def test_a_table_row_with_a_subscripted_symbol_is_stored_under_the_canonical_parameter() -> None:
    got = _read()
    assert got["Timekeeping Current"] == "supply_current"
    assert got["Standby Current"] == "standby_current"  # its name decides, as before


def test_symbol_subscripts_off_keeps_the_printed_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(specs, "SYMBOL_SUBSCRIPTS", False)
    assert _read()["Timekeeping Current"] == "timekeeping current"
