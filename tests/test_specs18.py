"""specs-18, on values and tables made here. tight-ranges: a range printed with its hyphen or en
dash unspaced ("1.8-3.3 V", "-40–85 °C") is min/max when the second number is the greater.
Volt suffixes: "VDC", "VAC", "kVAC" are volts (IEC 60050-131). merged-units: a unit cell merged
down over several rows (find_tables gives its text to the first row, a box reaching over the
others) is the unit of the rows inside that box whose own unit cell is empty. description-cases: a
"Description" column beside the names holds each row's case, beside symbols the name.
table-conditions: the conditions a table's caption states follow each value's own."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
import layoutrag.specs as specs_mod
from chunk_factory import grid_chunk, grid_row, table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, DocumentCard, SpecValue, TableRow
from layoutrag.specs import parse_value

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])


# --------------------------------------------------------------------------- tight ranges
@pytest.mark.parametrize(
    ("text", "hint", "want"),
    [
        ("1.8-3.3", "V", (1.8, None, 3.3, "V")),
        ("1.8–3.3 V", "", (1.8, None, 3.3, "V")),  # an en dash, folded to a hyphen
        ("3.3-5.5V ±5%", "", (3.3, None, 5.5, "V")),  # the tolerance after the unit is no part of the range
        ("-40-85", "°C", (-40.0, None, 85.0, "°C")),
        ("-40–+85°C", "", (-40.0, None, 85.0, "°C")),
        ("10-20", "ms", (0.01, None, 0.02, "s")),
    ],
)
def test_an_unspaced_hyphen_between_a_smaller_and_a_greater_number_is_a_range(
    text: str, hint: str, want: tuple[float | None, float | None, float | None, str]
) -> None:
    pv = parse_value(text, hint, "value")
    assert pv is not None
    lo, typ, hi, unit = want
    assert (pv.min, pv.typ, pv.max, pv.unit) == (pytest.approx(lo), typ, pytest.approx(hi), unit)


@pytest.mark.parametrize("text", ["5-3", "2019-05", "0402-100", "10-6", "+5-+10", "1.8-3.3-5"])
def test_an_unspaced_hyphen_that_is_no_range_reads_nothing(text: str) -> None:
    assert parse_value(text, "V", "value") is None


def test_tight_ranges_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(specs_mod, "TIGHT_RANGES", False)
    assert parse_value("1.8-3.3", "V", "value") is None
    spaced = parse_value("1.8 - 3.3", "V", "value")  # spaced, read before specs-18 too
    assert spaced is not None and (spaced.min, spaced.max) == (1.8, 3.3)


# --------------------------------------------------------------------------- volt suffixes
@pytest.mark.parametrize(
    ("text", "value", "printed"),
    [("5 VDC", 5.0, "VDC"), ("12 Vdc", 12.0, "Vdc"), ("230VAC", 230.0, "VAC"), ("3 kVAC", 3000.0, "kVAC"),
     ("1.5kVDC", 1500.0, "kVDC"), ("100 Vrms", 100.0, "Vrms")],
)
def test_a_volt_printed_with_its_kind_of_current_is_a_voltage(text: str, value: float, printed: str) -> None:
    pv = parse_value(text)
    assert pv is not None and (pv.typ, pv.unit, pv.unit_printed) == (value, "V", printed)


def test_a_supply_range_in_vdc() -> None:
    pv = parse_value("9.60 to 14.40 VDC")
    assert pv is not None and (pv.min, pv.max, pv.unit) == (9.6, 14.4, "V")


# --------------------------------------------------------------------------- merged units
COLS = [(30, 170), (170, 377), (377, 424), (424, 470), (470, 517), (517, 564)]


def _row(cells: list[str], y0: float, y1: float, unit_box: tuple[float, float] | None = None) -> TableRow:
    boxes = [Box(x0, y0, x1, y1) for x0, x1 in COLS]
    if unit_box is not None:  # the unit cell merged down: its box reaches over the rows below
        boxes[5] = Box(517, unit_box[0], 564, unit_box[1])
    return TableRow(page=1, bbox_pdf=Box(30, y0, 564, y1), cells=cells, text=" | ".join(cells), cell_boxes=boxes)


def _merged_table(unit_box: tuple[float, float] | None) -> list[TableRow]:
    return [
        TableRow(page=1, bbox_pdf=Box(30, 198, 564, 213), cells=["Item", "Operating Condition", "Min.", "Typ.", "Max.", "Unit"],
                 text="", is_header=True, cell_boxes=[Box(x0, 198, x1, 213) for x0, x1 in COLS]),
        _row(["Operating Temperature", "Derating above 71℃", "-40", "--", "85", "℃"], 213, 228, unit_box),
        _row(["Storage Temperature", "", "-55", "--", "125", ""], 228, 242),
        _row(["Pin Soldering Temperature", "Soldering time: 10 seconds", "--", "--", "260", ""], 242, 263),
        _row(["Storage Humidity", "Non-condensing", "5", "--", "95", "%RH"], 263, 278),
        _row(["Case Temperature Rise", "Full load", "--", "25", "--", ""], 278, 292),
    ]


def _merged_specs(unit_box: tuple[float, float] | None) -> list[SpecValue]:
    return extract_specs(CARD, [table_chunk(_merged_table(unit_box), title="General Specifications")])


def test_a_unit_merged_down_over_three_rows_is_theirs() -> None:
    got = {(v.parameter, v.min, v.max, v.unit) for v in _merged_specs((213, 263))}
    assert ("operating_temperature", -40.0, 85.0, "°C") in got
    assert ("storage_temperature", -55.0, 125.0, "°C") in got
    assert ("soldering_temperature", None, 260.0, "°C") in got
    # the row below the merged cell's box keeps its own empty unit: no value without a unit
    assert not any(p == "case temperature rise" for p, *_ in got)


def test_a_unit_cell_of_one_row_gives_nothing_to_the_next() -> None:
    got = {v.parameter for v in _merged_specs(None)}
    assert "operating_temperature" in got and "storage_temperature" not in got


def test_merged_units_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "MERGED_UNITS", False)
    got = {v.parameter for v in _merged_specs((213, 263))}
    assert "operating_temperature" in got and "storage_temperature" not in got


# --------------------------------------------------------------------------- description cases
DCOLS = [(60, 240), (240, 370), (370, 410), (410, 450), (450, 490), (490, 530)]


def _desc_specs(rows: list[list[str]]) -> list[SpecValue]:
    return extract_specs(CARD, [grid_chunk(rows, DCOLS, title="Receiver Characteristics")])


CASES = [
    ["Parameter", "Description", "Min", "Typ", "Max", "Unit"],
    ["Sensitivity", "—", "—", "-105", "—", "dBm"],
    ["Adjacent channel selectivity C/I", "F = F0 + 2 MHz", "—", "-33", "—", "dB"],
    ["", "F = F0 - 2 MHz", "—", "-43", "—", "dB"],
]
SYMBOLS = [
    ["Parameter", "Description", "Min", "Typ", "Max", "Unit"],
    ["VIH", "High-level input voltage", "2.0", "—", "3.6", "V"],
    ["tsr", "Stable supply voltage to reset high", "10", "—", "—", "ms"],
]


def test_a_description_column_beside_the_names_holds_each_rows_case() -> None:
    got = [(v.parameter_printed, v.typ, v.conditions) for v in _desc_specs(CASES)]
    assert got == [
        ("Sensitivity", -105.0, ""),  # "—" in the case column: none printed
        ("Adjacent channel selectivity C/I", -33.0, "F = F0 + 2 MHz"),
        ("Adjacent channel selectivity C/I", -43.0, "F = F0 - 2 MHz"),
    ]


def test_a_description_column_beside_symbols_is_the_name() -> None:
    got = {(v.parameter_printed, v.symbol, v.min, v.max, v.conditions) for v in _desc_specs(SYMBOLS)}
    assert got == {
        ("High-level input voltage", "VIH", 2.0, 3.6, ""),
        ("Stable supply voltage to reset high", "tsr", 0.01, None, ""),
    }


def test_description_cases_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "DESCRIPTION_CASES", False)
    got = [(v.parameter_printed, v.conditions) for v in _desc_specs(CASES)]
    assert ("Adjacent channel selectivity C/I", "") in got  # the case lost, as before specs-18


# --------------------------------------------------------------------------- table conditions
@pytest.mark.parametrize(
    ("caption", "cond"),
    [
        ("Electrical Characteristics (Ta = 25°C)", "Ta = 25°C"),
        ("Electro-Optical Characteristics (Ta=25℃unless specified otherwise)", "Ta=25°C"),
        ("MAXIMUM RATINGS (TA = 25 °C unless otherwise noted)", "TA = 25 °C"),
        ("Table 5: Static characteristics Ta = −40 °C to +85 °C for commercial applications, unless otherwise specified.",
         "Ta = -40 °C to +85 °C for commercial applications"),
        ("Electrical Specifications: Unless otherwise indicated, VDD = +2.7V to +5.5V, GND = Ground.",
         "VDD = +2.7V to +5.5V, GND = Ground"),
        ("Table 7. Jitter – LVCMOS, -40°C to 105°C", "LVCMOS, -40°C to 105°C"),  # the mode after the dash
        ("Absolute Maximum Ratings", ""),
        ("over operating free-air temperature range (unless otherwise noted)", ""),
        ("Storage Temperature -65 °C to 150 °C", ""),  # a value printed above a table, no caption
        ("DRAIN Peak Voltage.......... -0.3 V to 700 V TA = 25 °C", ""),  # a dot-leader ratings line
    ],
)
def test_the_conditions_a_caption_states(caption: str, cond: str) -> None:
    assert stage._caption_condition(caption) == cond


TCOLS = [(50, 200), (200, 330), (330, 380), (380, 430), (430, 480), (480, 520)]


CHARS = [
    ["Parameter", "Conditions", "Min", "Typ", "Max", "Unit"],
    ["Supply current", "VCC = 5 V", "", "1.2", "2.0", "mA"],
    ["Input leakage current", "", "", "", "1", "µA"],
    ["Leakage current", "at TA = 85 °C", "", "", "5", "µA"],
]


def _caption_specs(title: str) -> list[SpecValue]:
    return extract_specs(CARD, [grid_chunk(CHARS, TCOLS, title=title)])


def test_a_captions_conditions_follow_each_rows_own() -> None:
    got = {(v.parameter, v.conditions) for v in _caption_specs("Electrical Characteristics (TA = 25°C)")}
    assert got == {("supply_current", "VCC = 5 V; TA = 25°C"), ("input_leakage_current", "TA = 25°C"),
                   ("leakage current", "at TA = 85 °C")}  # a row setting TA itself keeps its own


def test_table_conditions_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "TABLE_CONDITIONS", False)
    got = {(v.parameter, v.conditions) for v in _caption_specs("Electrical Characteristics (TA = 25°C)")}
    assert got == {("supply_current", "VCC = 5 V"), ("input_leakage_current", ""), ("leakage current", "at TA = 85 °C")}


# --------------------------------------------------------------------------- code rows
OCOLS = [(50, 170), (170, 300), (300, 420)]
ORDERING = [
    ["PART", "TEMP RANGE", "PACKAGE"],
    ["DS1307Z", "0°C to +70°C", "8 SO"],
    ["DS1307ZN+T&R", "-40°C to +85°C", "8 SO Tape and Reel"],
    ["Other", "-55°C to +125°C", "Dice"],
]
RTC = DocumentCard(doc_id="d", file_name="rtc.pdf", series=["DS1307"], part_numbers=["DS1307", "DS1307Z"])


def test_an_ordering_row_named_by_a_listed_parts_own_code_is_that_codes() -> None:
    got = {(v.part, v.min, v.max) for v in extract_specs(RTC, [grid_chunk(ORDERING, OCOLS, title="Ordering Information")])}
    # the code the card does not list names its row; a row named by no code stays the series'
    assert got == {("DS1307Z", 0.0, 70.0), ("DS1307ZN+T&R", -40.0, 85.0), ("DS1307", -55.0, 125.0)}


def test_code_rows_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "CODE_ROWS", False)
    monkeypatch.setattr(stage, "SIBLING_PARTS", False)  # specs-25 reads the code from the row's conditions too
    got = {(v.part, v.min) for v in extract_specs(RTC, [grid_chunk(ORDERING, OCOLS, title="Ordering Information")])}
    assert ("DS1307ZN+T&R", -40.0) not in got


# --------------------------------------------------------------------------- conditions left
LCOLS = [(50, 150), (150, 190), (190, 260), (260, 320), (320, 360), (360, 400), (400, 440), (440, 480)]
SUBROWS = [
    ["PARAMETER", "SYMBOL", "", "CONDITIONS", "MIN", "TYP", "MAX", "UNITS"],  # the header word over the right cell
    ["CLK Low Time", "tCL", "VCC = 2.0V", "(Note 6)", "1000", "", "", "ns"],
    ["", "", "VCC = 5V", "", "250", "", "", ""],
]


def test_the_cells_left_of_a_conditions_header_set_over_its_right_cell_are_conditions() -> None:
    got = [(v.min, v.conditions) for v in extract_specs(CARD, [grid_chunk(SUBROWS, LCOLS, title="AC Characteristics")])]
    assert got == [(pytest.approx(1e-6), "VCC = 2.0V (Note 6)"), (pytest.approx(2.5e-7), "VCC = 5V")]


def test_conditions_left_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "CONDITIONS_LEFT", False)
    got = [v.conditions for v in extract_specs(CARD, [grid_chunk(SUBROWS, LCOLS, title="AC Characteristics")])]
    assert got == ["(Note 6)", ""]  # the sub-rows' case lost, as before specs-18


# --------------------------------------------------------------------------- line conditions
def test_a_lines_words_under_a_name_above_it_are_its_condition_without_a_conditions_column(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from layoutrag.records import Word

    cols = [(50, 250), (250, 290), (290, 330), (330, 370), (370, 410), (410, 440)]
    head = grid_row(["Characteristic", "Symbol", "Min", "Typ", "Max", "Unit"], 100, cols, header=True)
    # one grid row, three printed lines: the name, then two value lines each with its condition
    body = TableRow(page=1, bbox_pdf=Box(50, 112, 440, 148), text="",
                    cells=["Reference Voltage (Vin = 2.0 V, TA = 25°C) (Vin = 1.4 V to 10 V)", "Vref",
                           "1.238 1.225", "1.25", "1.262 1.270", "V"],
                    cell_boxes=[Box(x0, 112, x1, 148) for x0, x1 in cols])

    def w(text: str, x0: float, y: float) -> Word:
        return Word(text=text, bbox_pdf=(x0, y, x0 + 5 * len(text), y + 8))

    page = [w("Characteristic", 55, 102), w("Symbol", 255, 102), w("Min", 295, 102), w("Typ", 335, 102),
            w("Max", 375, 102), w("Unit", 412, 102), w("Reference", 55, 113), w("Voltage", 110, 113),
            w("(Vin = 2.0 V, TA = 25°C)", 55, 125), w("1.238", 292, 125), w("1.25", 332, 125), w("1.262", 372, 125),
            w("(Vin = 1.4 V to 10 V)", 55, 137), w("1.225", 292, 137), w("1.270", 372, 137),
            w("Vref", 255, 125), w("V", 415, 125)]
    chunk = table_chunk([head, body], title="Electrical Characteristics")

    def read() -> list[tuple[float | None, str]]:
        return [(v.min, v.conditions) for v in extract_specs(CARD, [chunk], lambda p: page)]

    assert read() == [(1.238, "(Vin = 2.0 V, TA = 25°C)"), (1.225, "(Vin = 1.4 V to 10 V)")]
    monkeypatch.setattr(stage, "LINE_CONDITIONS", False)
    assert read() == [(1.238, ""), (1.225, "")]  # the lines' conditions lost, as before specs-18


def test_an_unheaded_symbol_column_left_of_the_conditions_is_the_symbol() -> None:
    cols = [(50, 150), (150, 190), (190, 300), (300, 340), (340, 380), (380, 420), (420, 460)]
    rows = [["Parameter", "", "Test conditions", "Min", "Typ", "Max", "Unit"],
            ["Output voltage", "VOH", "V+ = 30 V, RL = 2 kΩ", "26", "", "", "V"],
            ["Output current", "Sink", "VIN- = 1 V", "10", "20", "", "mA"]]  # a word, not a symbol: a case
    got = {(v.parameter, v.symbol, v.conditions) for v in extract_specs(CARD, [grid_chunk(rows, cols, title="Output")])}
    assert got == {("output_voltage_high", "VOH", "V+ = 30 V, RL = 2 kΩ"), ("output_current", "", "Sink; VIN- = 1 V")}


# --------------------------------------------------------------------------- item columns
ICOLS = [(50, 170), (170, 300), (300, 350), (350, 400), (400, 440)]
RATINGS = [
    ["", "", "MIN", "MAX", "UNIT"],
    ["Voltage", "VIN", "-0.3", "6", "V"],  # the category merged down over its items
    ["", "VEN", "-0.3", "6", ""],
    ["Temperature", "Storage range, Tstg", "-65", "150", "°C"],
    ["Power dissipation", "PDIP (P)", "", "830", "mW"],
]


def test_an_item_column_beside_a_category_names_the_row_or_is_its_case() -> None:
    got = {(v.parameter, v.symbol, v.max, v.conditions) for v in extract_specs(CARD, [grid_chunk(RATINGS, ICOLS, title="Absolute Maximum Ratings")])}
    assert ("supply_voltage", "VIN", 6.0, "") in got  # a bare symbol: the symbol
    assert ("voltage", "VEN", 6.0, "") in got  # a symbol the vocabulary does not know keeps the category's name
    assert ("storage_temperature", "Tstg", 150.0, "") in got  # a name the vocabulary knows names the row
    assert ("power_dissipation", "", 0.83, "PDIP (P)") in got  # anything else is the row's case


def test_item_columns_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "ITEM_COLUMNS", False)
    got = {v.parameter for v in extract_specs(CARD, [grid_chunk(RATINGS, ICOLS, title="Absolute Maximum Ratings")])}
    assert "storage_temperature" not in got and "supply_voltage" not in got


def test_temp_abbreviates_temperature_in_every_temperature_name() -> None:
    from layoutrag.specs import match_parameter

    assert match_parameter("Storage Temp., TO-46 Package")[0] == "storage_temperature"
    assert match_parameter("Lead Temp.(Soldering, 10sec)")[0] == "soldering_temperature"
    assert match_parameter("Junction Temp.")[0] == "junction_temperature"
