"""specs-25, on chunks made here. sibling-parts: a sub-row whose conditions begin with the code of a
variant of the default part's family that the card does not list ("TOP254YN/EN" under TOP252) is that
variant's. carried-parts: the sub-row right under one whose conditions named a part, in the same printed
row, is that part's too. own-numbers: a series printed alone a few times beside a part number of the card
that begins with it and is printed more than twice as often gives way to that number."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import grid_chunk, grid_row, table_chunk
from layoutrag.chunking.specs import extract_specs, printed_part
from layoutrag.records import Box, Chunk, DocumentCard, Word

COLS = [(30, 70), (70, 200), (200, 330), (330, 380), (380, 430), (430, 470)]
HEAD = ["Symbol", "Parameter", "Conditions", "Min", "Max", "Unit"]

# --------------------------------------------------------------------------- sibling parts
SWITCHER = DocumentCard(doc_id="d", file_name="top.pdf", series=["TOP252"], part_numbers=["TOP252"])
LIMITS = [
    HEAD,
    ["ILIMIT", "Self protection current limit", "TOP252EN TJ = 25 °C", "0.40", "0.46", "A"],
    ["ILIMIT", "Self protection current limit", "TOP254YN/EN TJ = 25 °C", "1.209", "1.391", "A"],
    ["RDS(ON)", "ON-state resistance", "TOP25 ID = 100 mA", "", "10.1", "Ω"],  # too short for a code
    ["IDSS", "Off-state drain current", "VDD33 = 3.3 V", "", "15", "µA"],  # a rail, not a code
    ["θJA", "Thermal resistance", "TOP2 DIP-8C", "", "70", "°C/W"],  # the family's name, no code
]


def _limits() -> dict[str, str]:
    return {v.value_text: v.part for v in extract_specs(SWITCHER, [grid_chunk(LIMITS, COLS, title="Characteristics")])}


def test_a_sub_row_labelled_with_a_siblings_code_is_that_siblings() -> None:
    got = _limits()
    assert got["1.209 / 1.391"] == "TOP254YN/EN"
    assert got["0.40 / 0.46"] == "TOP252EN"  # the part's own package variant, printed


def test_no_code_of_the_family_leaves_the_default_part() -> None:
    got = _limits()
    assert got["10.1"] == got["15"] == got["70"] == "TOP252"


def test_a_prefix_of_the_part_is_the_familys_name_not_a_sibling() -> None:
    assert not stage._sibling_code("TLV757", "TLV757P")
    assert stage._sibling_code("AD7767-2", "AD7767")
    assert stage._sibling_code("CH390F/H", "CH390")
    assert not stage._sibling_code("LM2904", "LM358A")  # another family: shares letters only


def test_sibling_parts_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "SIBLING_PARTS", False)
    assert _limits()["1.209 / 1.391"] == "TOP252"


# --------------------------------------------------------------------------- carried parts
DIODES = DocumentCard(doc_id="d", file_name="diodes.pdf", series=["1N4148", "1N4448"], part_numbers=["1N4148", "1N4448"])
VF = [
    HEAD,
    ["VF", "forward voltage", "IF = 10 mA", "", "1", "V"],
    ["VF", "forward voltage", "1N4448; IF = 5 mA", "0.62", "0.72", "V"],
    ["VF", "forward voltage", "IF = 100 mA", "", "1.0", "V"],
    ["VF", "forward voltage", "IF = 200 mA", "", "1.25", "V"],
    ["IR", "reverse current", "VR = 20 V", "", "25", "nA"],
]


def _vf(rows: list[list[str]] = VF) -> dict[str, str]:
    return {v.value_text: v.part for v in extract_specs(DIODES, [grid_chunk(rows, COLS, title="Characteristics")])}


def test_the_sub_row_under_a_part_label_is_that_parts() -> None:
    got = _vf()
    assert got["0.62 / 0.72"] == got["1.0"] == "1N4448"
    assert got["1"] == "1N4148"  # above the label: the default part


def test_one_sub_row_only_and_never_into_the_next_printed_row() -> None:
    got = _vf()
    assert got["1.25"] == "1N4148"  # a second sub-row is not told apart from rows for every part
    assert got["25"] == "1N4148"


def test_a_sub_row_apart_from_the_label_keeps_the_default_part() -> None:
    rows = [grid_row(r, y, COLS, header=y == 100) for r, y in zip(VF[:4], (100, 112, 124, 160), strict=True)]
    got = {v.value_text: v.part for v in extract_specs(DIODES, [table_chunk(rows, title="Characteristics")])}
    assert got["0.62 / 0.72"] == "1N4448"
    assert got["1.0"] == "1N4148"  # a gap between the rows: another printed row


def test_carried_parts_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "CARRIED_PARTS", False)
    assert _vf()["1.0"] == "1N4148"


# --------------------------------------------------------------------------- own numbers
FLASH = DocumentCard(doc_id="d", file_name="flash.pdf", series=["XF25N"], part_numbers=["XF25N01GV", "XF25N01GVxxxG/T/R"])


def _named(text: str) -> str:
    return printed_part(FLASH, [grid_chunk([HEAD, HEAD], COLS).model_copy(update={"native_text": text})])


def test_a_family_prefix_printed_a_few_times_gives_way_to_the_parts_own_number() -> None:
    text = "XF25N SpiFlash memory. " + "XF25N01GV 1G-bit serial NAND. " * 4 + "XF25N01GVxxxG/T/R " * 6
    assert _named(text) == "XF25N01GV"  # the shortest number printed more than twice as often


def test_a_prefix_printed_as_often_as_the_number_stays() -> None:
    text = "XF25N SpiFlash memory. XF25N family. " + "XF25N01GV 1G-bit serial NAND. " * 4
    assert _named(text) == "XF25N"


def test_own_numbers_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "OWN_NUMBERS", False)
    assert _named("XF25N SpiFlash memory. " + "XF25N01GV 1G-bit serial NAND. " * 4) == "XF25N"


# --------------------------------------------------------------------------- continued headers
RTC = DocumentCard(doc_id="d", file_name="rtc.pdf", series=["XY8563"], part_numbers=["XY8563"])
DC = [
    ["Parameter", "Symbol", "Conditions", "Min", "Typ", "Max", "Unit"],
    ["Supply current 2", "IDD2", "VDD = 5.0 V", "", "275", "550", "nA"],
]
MORE = [
    ["Supply current 3", "IDD3", "VDD = 5.0 V", "", "825", "1600", "nA"],
    ["Input leakage current", "ILI", "VI = VDD", "-1", "0", "1", "µA"],
]
DCOLS = [(40, 160), (160, 200), (200, 330), (330, 370), (370, 410), (410, 450), (450, 490)]


def _next_page(rows: list[list[str]], cols: list[tuple[float, float]], title: str) -> Chunk:
    grid = [grid_row(r, 60 + 12 * i, cols).model_copy(update={"page": 2}) for i, r in enumerate(rows)]
    c = table_chunk(grid, title=title)
    regions = [reg.model_copy(update={"page": 2}) for reg in c.regions]
    return c.model_copy(update={"chunk_id": "d_p2_b00", "page": 2, "regions": regions})


def _continued(title: str = "Electrical characteristics", cols: list[tuple[float, float]] = DCOLS) -> dict[str, str]:
    first = grid_chunk(DC, DCOLS, title="Electrical characteristics")
    return {v.value_text: v.parameter for v in extract_specs(RTC, [first, _next_page(MORE, cols, title)])}


def test_a_table_continued_without_its_header_is_read_under_the_header_before_it() -> None:
    got = _continued()
    assert got["825 / 1600"] == "supply_current"
    assert got["-1 / 0 / 1"] == "input_leakage_current"
    assert got["275 / 550"] == "supply_current"


def test_another_section_or_other_columns_is_no_continuation() -> None:
    assert "825 / 1600" not in _continued(title="Timing characteristics")
    shifted = [(x0 + 25, x1 + 25) for x0, x1 in DCOLS]
    assert "825 / 1600" not in _continued(cols=shifted)


def test_continued_headers_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "CONTINUED_HEADERS", False)
    assert "825 / 1600" not in _continued()


# --------------------------------------------------------------------------- wrapped names
OPAMP = DocumentCard(doc_id="d", file_name="opamp.pdf", series=["XY358"], part_numbers=["XY358"])
WCOLS = [(40, 160), (160, 200), (200, 330), (330, 370), (370, 410), (410, 450), (450, 490)]
WHEAD = ["Parameter", "Symbol", "Conditions", "Min", "Typ", "Max", "Unit"]


def _wrapped(second: str = "Rejection Ratio") -> dict[str, tuple[str, str]]:
    # the grid gives the printed row's box to its first line and a row of its own to its second
    rows = [
        grid_row(WHEAD, 88, WCOLS, header=True),
        grid_row(["Common-Mode", "", "TA = 25°C,", "70", "85", "", "dB"], 100, WCOLS, h=24),
        grid_row([second, "", "VCM = 0 V to 3.5 V", "", "", "", ""], 112, WCOLS),
        grid_row(["Supply Current", "", "", "", "", "", ""], 124, WCOLS),  # a heading: values under no name follow
        grid_row(["", "", "RL = ∞", "", "0.5", "1.2", "mA"], 136, WCOLS),
    ]
    got = extract_specs(OPAMP, [table_chunk(rows, title="Electrical characteristics")])
    return {v.value_text: (v.parameter_printed, v.conditions) for v in got}


def test_a_names_second_line_cut_into_a_row_of_its_own_completes_the_name() -> None:
    got = _wrapped()
    assert got["70 / 85"] == ("Common-Mode Rejection Ratio", "TA = 25°C, VCM = 0 V to 3.5 V")
    assert got["0.5 / 1.2"][0] == "Supply Current"  # the heading still names the lines under it


@pytest.mark.parametrize("second", ["POWER SUPPLY", "(Note 8)", "≤", "Supply voltage"])
def test_a_heading_a_note_a_mark_or_a_known_name_is_no_second_line(second: str) -> None:
    assert _wrapped(second)["70 / 85"][0] == "Common-Mode"


def test_wrapped_names_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "WRAPPED_NAMES", False)
    assert _wrapped()["70 / 85"] == ("Common-Mode", "TA = 25°C,")


# --------------------------------------------------------------------------- line order
def _w(text: str, x0: float, y0: float, x1: float, y1: float) -> Word:
    return Word(text=text, bbox_pdf=Box(x0, y0, x1, y1))


CELL = [
    _w("Time7", 96.0, 588.49, 117.9, 597.33),  # its superscript 7 raises the word's top half a point
    _w("Turn-On", 63.4, 589.01, 94.4, 597.33),
    _w("No", 63.4, 600.2, 75.0, 608.5),  # the next line
    _w("filter", 77.0, 600.0, 95.0, 608.5),
]


def test_a_word_raised_by_a_superscript_stays_in_its_line() -> None:
    assert [w.text for w in stage._in_reading(CELL)] == ["Turn-On", "Time7", "No", "filter"]


def test_line_order_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "LINE_ORDER", False)
    assert [w.text for w in stage._in_reading(CELL)] == ["Time7", "Turn-On", "No", "filter"]


# --------------------------------------------------------------------------- conditions above
def _above(block: str, *, gap: float = 4.0) -> dict[str, str]:
    text = Chunk(chunk_id="d_p1_b00", doc_id="d", page=1, block_type="text", native_text=block,
                 bboxes_pdf=[Box(40, 60, 470, 88 - gap)], section_title="Specifications")
    table = grid_chunk(DC, DCOLS, title="Specifications")
    table = table.model_copy(update={"bboxes_pdf": [Box(40, 88, 490, 124)]})
    return {v.value_text: v.conditions for v in extract_specs(RTC, [text, table])}


def test_the_conditions_printed_right_above_a_table_join_its_rows() -> None:
    got = _above("SPECIFICATIONS\nAt VS = ±15.0 V, TA = 25°C; unless otherwise noted. All minimum and maximum\n"
                 "specifications are guaranteed.")
    assert got["275 / 550"] == "VDD = 5.0 V; VS = ±15.0 V, TA = 25°C"  # the remark after them left out


def test_a_paragraph_or_a_block_apart_from_the_table_states_none() -> None:
    assert _above("The part draws little current; see the table below.")["275 / 550"] == "VDD = 5.0 V"
    assert _above("At VS = ±15.0 V, TA = 25°C.", gap=60)["275 / 550"] == "VDD = 5.0 V"


def test_conditions_above_and_caption_signs_ablations(monkeypatch: pytest.MonkeyPatch) -> None:
    block = "At VS = ±15.0 V, TA = 25°C; unless otherwise noted."
    monkeypatch.setattr(stage, "CAPTION_SIGNS", False)
    assert _above(block)["275 / 550"] == "VDD = 5.0 V; TA = 25°C"  # the ± supply dropped, as before
    monkeypatch.setattr(stage, "CONDITIONS_ABOVE", False)
    assert _above(block)["275 / 550"] == "VDD = 5.0 V"


def test_a_continuations_nameless_first_row_goes_on_with_the_named_row_above_the_break() -> None:
    first = grid_chunk([*DC, ["", "", "VDD = 3.0 V", "", "250", "500", "nA"]], DCOLS, title="Electrical characteristics")
    nxt = _next_page([["", "", "VDD = 2.0 V", "", "225", "450", "nA"], *MORE], DCOLS, "Electrical characteristics")
    specs = extract_specs(RTC, [first, nxt])
    got = {v.value_text: (v.parameter_printed, v.page) for v in specs}
    assert got["225 / 450"] == ("Supply current 2", 2)
    assert got["250 / 500"] == ("Supply current 2", 1)
    assert sum(v.value_text == "250 / 500" for v in specs) == 1  # the row above the break read once
    assert got["825 / 1600"][0] == "Supply current 3"


# --------------------------------------------------------------------------- base heads
ADC = DocumentCard(doc_id="d", file_name="adc.pdf", series=["XY3306C", "XY3306", "XY3306A"],
                   part_numbers=["XY3306", "XY3306A", "XY3306C"])
ACOLS = [(40, 160), (160, 230), (230, 300), (300, 370), (370, 440), (440, 510), (510, 580)]


def _adc_part(groups: list[str]) -> str:
    rows = [groups, ["Parameter", "Min", "Typ", "Max", "Min", "Typ", "Max"], ["Resolution", "6", "", "", "6", "", ""]]
    text = "XY3306 6-bit flash converter. " * 4 + "XY3306C XY3306C"
    chunk = grid_chunk(rows, ACOLS, title="Electrical Specifications").model_copy(update={"native_text": text})
    return printed_part(ADC, [chunk])


def test_a_grade_heading_one_group_of_columns_beside_the_base_leaves_the_base_the_part() -> None:
    assert _adc_part(["", "XY3306, XY3306A", "", "", "XY3306C", "", ""]) == "XY3306"


def test_a_grade_heading_the_columns_alone_stays_the_part() -> None:
    assert _adc_part(["", "XY3306C", "", "", "", "", ""]) == "XY3306C"


def test_base_heads_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "BASE_HEADS", False)
    assert _adc_part(["", "XY3306, XY3306A", "", "", "XY3306C", "", ""]) == "XY3306C"


# --------------------------------------------------------------------------- shared values, name commas
def _grades(name: tuple[str, str] = ("Ambient Temperature,", "Operating")) -> list[tuple[str, str]]:
    """One grid row: a name over two lines, Min printed once between the two Max lines (one per grade)."""
    cols = [(40, 160), (160, 200), (200, 330), (330, 370), (370, 410), (410, 450)]
    row = grid_row(["", "TA", "", "", "", "°C"], 100, cols, h=24)
    words = [
        _w(name[0].split()[0], 42, 102, 90, 110), *([_w(name[0].split()[1], 92, 102, 150, 110)] if " " in name[0] else []),
        _w(name[1], 42, 112, 90, 120),
        _w("Industrial", 202, 102, 250, 110), _w("Industrial+", 202, 112, 260, 120),
        _w("-40", 335, 107, 350, 115),  # centred between the two lines
        _w("+85", 375, 102, 390, 110), _w("+105", 375, 112, 392, 120),
        _w("TA", 162, 107, 175, 115), _w("°C", 412, 107, 420, 115),
    ]
    cells = [" ".join(w.text for w in words if x0 <= w.bbox_pdf.center[0] <= x1) for x0, x1 in cols]
    row = row.model_copy(update={"cells": cells, "text": " | ".join(cells)})
    head = grid_row(["Parameter", "Symbol", "Conditions", "Min", "Max", "Unit"], 88, cols, header=True)
    chunk = table_chunk([head, row], title="Operating Ranges")
    got = extract_specs(RTC, [chunk], lambda p: words)
    return sorted((v.parameter_printed, v.value_text) for v in got)


def test_a_number_printed_once_between_two_lines_holds_for_both() -> None:
    assert _grades() == [("Ambient Temperature, Operating", "-40 / +105"), ("Ambient Temperature, Operating", "-40 / +85")]


def test_shared_values_and_name_commas_ablations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "NAME_COMMAS", False)
    assert {n for n, _ in _grades()} == {"Ambient Temperature,", "Operating"}  # a name per line
    monkeypatch.setattr(stage, "SHARED_VALUES", False)
    assert ("Ambient Temperature, Operating", "-40") in _grades()  # the -40 a line of its own
