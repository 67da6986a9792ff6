"""specs-11, on small tables made here. block-supplies: a supply voltage or current printed in the
section of one function block of a larger
part ("12-bit ADC Characteristics" in a microcontroller's datasheet) is kept as that block's, not
read as the part's supply; in a datasheet whose title names that block (an ADC's own) it stays the
part's. Small tables made here."""

from __future__ import annotations

import layoutrag.chunking.specs as stage
from chunk_factory import table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, DocumentCard, SpecValue, TableRow

MCU = DocumentCard(doc_id="d", file_name="mcu.pdf", title="XY32F0 Datasheet", series=["XY32F0"],
                   product_type="microcontroller")
ADC = DocumentCard(doc_id="d", file_name="adc.pdf", title="XY7767 24-Bit Sigma-Delta ADC", series=["XY7767"],
                   product_type="ADC")
COLS = [(50, 200), (200, 250), (250, 300), (300, 350), (350, 400), (400, 440)]


def _row(cells: list[str], y: float, header: bool = False) -> TableRow:
    return TableRow(
        page=1,
        bbox_pdf=Box(50, y, 440, y + 12),
        cells=cells,
        text=" | ".join(c for c in cells if c),
        is_header=header,
        cell_boxes=[Box(x0, y, x1, y + 12) for x0, x1 in COLS],
    )


ROWS = [
    _row(["Parameter", "Symbol", "Min.", "Typ.", "Max.", "Unit"], 100, header=True),
    _row(["Supply voltage", "VDD", "2.8", "", "5.5", "V"], 112),
    _row(["Supply current", "IDD", "", "290", "480", "uA"], 124),
    _row(["Sampling rate", "fS", "", "", "470", "kHz"], 136),
]


def _read(card: DocumentCard, title: str) -> dict[str, SpecValue]:
    return {v.parameter_printed: v for v in extract_specs(card, [table_chunk(ROWS, title=title)])}


def test_block_supplies_are_the_blocks():
    got = _read(MCU, "3.3.15 12-bit ADC Characteristics")
    assert (got["Supply voltage"].parameter, got["Supply voltage"].known) == ("adc supply voltage", False)
    assert (got["Supply current"].parameter, got["Supply current"].known) == ("adc supply current", False)
    assert got["Supply current"].max == 480e-6  # the numbers, unit and cell stay as read
    assert got["Sampling rate"].parameter == "sampling rate"  # only supplies are the block's


def test_part_supplies_elsewhere():
    got = _read(MCU, "3.3.2 Operating conditions")
    assert got["Supply voltage"].parameter == "supply_voltage"
    assert got["Supply current"].parameter == "supply_current"


def test_the_documents_own_kind_is_the_part():
    got = _read(ADC, "ADC Characteristics")  # an ADC's datasheet: its ADC characteristics are the part's
    assert got["Supply current"].parameter == "supply_current"


def test_ablation(monkeypatch):
    monkeypatch.setattr(stage, "BLOCK_SUPPLIES", False)
    got = _read(MCU, "3.3.15 12-bit ADC Characteristics")
    assert got["Supply current"].parameter == "supply_current"


# pin-inputs: a pin's input voltage is not the part's supply voltage unless its name says supply
def test_pin_input_voltage_is_no_supply(monkeypatch):
    from layoutrag import specs as specs_mod
    from layoutrag.specs import match_parameter

    assert match_parameter("Voltage on I/O pins", "VIN", unit="V") == ("voltage on i/o pins", False)
    assert match_parameter("OSCI 管脚输入电压", "", unit="V") == ("osci 管脚输入电压", False)
    assert match_parameter("Input voltage on the FT pin", "VIN", unit="V")[1] is False
    # the supply's own pin, or a supply named with its pin number, stays the supply
    assert match_parameter("Supply voltage (pin 3)", "VS", unit="V") == ("supply_voltage", True)
    assert match_parameter("Voltage on VDD pin relative to VSS", "VDD", unit="V") == ("supply_voltage", True)
    assert match_parameter("输入电压", "VIN", unit="V") == ("supply_voltage", True)  # a regulator's input
    monkeypatch.setattr(specs_mod, "PIN_INPUTS", False)
    assert match_parameter("Voltage on I/O pins", "VIN", unit="V") == ("supply_voltage", True)


# pair-rows: a table of name | value rows under no value header, read where the name is the vocabulary's
def _pairs(cells: list[list[str]]) -> list[TableRow]:
    return [
        TableRow(page=1, bbox_pdf=Box(50, 100 + 14 * i, 400, 112 + 14 * i), cells=c, text=" | ".join(c),
                 cell_boxes=[Box(50 + 150 * j, 100 + 14 * i, 200 + 150 * j, 112 + 14 * i) for j in range(len(c))])
        for i, c in enumerate(cells)
    ]


SPECS = [
    ["General Specifications", ""],
    ["Switching frequency", "300 kHz typ. (pulse width modulation PWM)"],
    ["Operating temperature range", "-30 °C to +85 °C (Note 1)"],
    ["Start up time", "700 ms max."],
    ["Weight", "17 g (0.60 oz)"],
    ["Case material", "copper, nickel plated"],
    ["Output voltage", "0.8 V", "Minimum"],
    ["Frequency tolerance", "±2.0 ppm", "@ +25 °C"],
    ["Duty cycle", "5.6 %", "2 %"],  # two parts compared side by side: no value of this part
]


def _read_pairs(title: str) -> dict[str, SpecValue]:
    card = DocumentCard(doc_id="d", file_name="module.pdf", title="Converter modules", series=["TX8"])
    return {v.parameter: v for v in extract_specs(card, [table_chunk(_pairs(SPECS), title=title)])}


def test_pair_rows_read_vocabulary_names():
    got = _read_pairs("General Specifications")
    # not the weight (no vocabulary name), not the case (no number), not a row of two values
    assert set(got) == {"frequency", "operating_temperature", "startup_time", "output_voltage", "frequency_tolerance"}
    assert (got["output_voltage"].min, got["output_voltage"].typ) == (0.8, None)  # the Remarks cell's "Minimum"
    assert (got["frequency_tolerance"].max, got["frequency_tolerance"].conditions) == (2.0, "@ +25 °C")
    assert (got["frequency"].typ, got["frequency"].unit) == (300e3, "Hz")
    assert (got["operating_temperature"].min, got["operating_temperature"].max) == (-30.0, 85.0)
    assert got["startup_time"].max == 0.7 and got["startup_time"].typ is None
    assert got["frequency"].cells[0].bbox_pdf.x0 == 200  # the value's cell


def test_pair_rows_not_in_an_application_example():
    assert _read_pairs("Table 2. Design Parameters") == {}


def test_pair_rows_ablation(monkeypatch):
    monkeypatch.setattr(stage, "PAIR_ROWS", False)
    assert _read_pairs("General Specifications") == {}


# printed-part: a value's default part is a name the document prints, not a part-number stem
def test_default_part_is_a_printed_name(monkeypatch):
    card = DocumentCard(doc_id="d", file_name="opa.pdf", series=["OPA130P", "OPA2130P"],
                        part_numbers=["OPA130PA", "OPA2130PA"])
    printed_opa = [table_chunk(ROWS, text="OPA130 OPA2130 OPA4130 FET-input operational amplifiers")]
    assert stage.printed_part(card, printed_opa) == "OPA130"  # OPA130P is printed nowhere alone
    diode = DocumentCard(doc_id="d", file_name="rb.pdf", series=["RB168M"], part_numbers=["RB168MM-40TF"])
    assert stage.printed_part(diode, [table_chunk(ROWS, text="RB168MM-40TF Schottky diode")]) == "RB168MM-40TF"
    triac = DocumentCard(doc_id="d", file_name="bta.pdf", series=["BTA16"], part_numbers=["BTA16-600B"])
    # printed only inside one ordering code: that code (specs-14 whole-code); printed alone too: the series
    assert stage.printed_part(triac, [table_chunk(ROWS, text="BTA16-600B triac")]) == "BTA16-600B"
    assert stage.printed_part(triac, [table_chunk(ROWS, text="BTA16 series: BTA16-600B, BTA16-800B")]) == "BTA16"
    monkeypatch.setattr(stage, "WHOLE_CODE", False)
    assert stage.printed_part(triac, [table_chunk(ROWS, text="BTA16-600B triac")]) == "BTA16"  # before a hyphen
    monkeypatch.setattr(stage, "WHOLE_CODE", True)
    values = extract_specs(card, printed_opa)
    assert values and {v.part for v in values} == {"OPA130"}
    monkeypatch.setattr(stage, "PRINTED_PART", False)
    assert {v.part for v in extract_specs(card, printed_opa)} == {"OPA130P"}
