"""specs-12, colon-lines: printed "name: value" lines in a text or list chunk (a Features list's
"Operating Voltage Range: 2.7V to 5.5V", a Chinese "宽工作电压范围：1.0～5.5V") read as spec values
when the name is a vocabulary name and the value prints a unit of its quantity - on small PDFs made
here with PyMuPDF (its text layer gives the words)."""

from __future__ import annotations

import pymupdf
import pytest

import layoutrag.chunking.specs as stage
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, Chunk, DocumentCard, Region, SpecValue, Word

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])
REGION = Box(40, 80, 560, 260)


def _read(lines: list[str], *, title: str = "Features", font: str = "helv") -> list[SpecValue]:
    """The spec values of one list chunk printing `lines` (one a printed line, 14 pt apart)."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    for i, text in enumerate(lines):
        page.insert_text((50, 100 + 14 * i), text, fontsize=9, fontname=font)
    words = [Word(text=w[4], bbox_pdf=Box(*w[:4]), block=w[5], line=w[6]) for w in page.get_text("words")]
    doc.close()
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="list", section_title=title,
                  native_text="\n".join(lines), regions=[Region(page=1, bbox_pdf=REGION, label="list")])
    return extract_specs(CARD, [chunk], lambda p: words if p == 1 else [])


FEATURES = [
    "• Operating Voltage Range: 2.7V to 5.5V",
    "• Operating Current: 200 µA (typical)",
    "• Package: SOIC-8",
    "• Memory: 256 kB",
    "• Supply current: 1.2 mA at 3.3 V",
]


def test_feature_lines_with_a_vocabulary_name_are_read() -> None:
    got = {v.parameter_printed: v for v in _read(FEATURES)}
    assert set(got) == {"Operating Voltage Range", "Operating Current", "Supply current"}
    vr = got["Operating Voltage Range"]
    assert (vr.parameter, vr.min, vr.max, vr.unit, vr.part) == ("supply_voltage", 2.7, 5.5, "V", "XY100")
    cur = got["Operating Current"]
    assert (cur.parameter, cur.typ, cur.min, cur.max) == ("supply_current", pytest.approx(200e-6), None, None)
    assert got["Supply current"].conditions == "at 3.3 V"  # the condition kept apart from the value
    assert got["Supply current"].typ == pytest.approx(1.2e-3)


def test_the_value_cell_is_right_of_the_colon() -> None:
    vr = next(v for v in _read(FEATURES) if v.parameter == "supply_voltage")
    line = vr.row_bbox_pdf
    (cell,) = [c for c in vr.cells if c.role in ("min", "max", "value", "typ")][:1]
    # the value's box starts after the name's words and stays on the printed line
    assert line.x0 + 100 < cell.bbox_pdf.x0 < cell.bbox_pdf.x1 <= line.x1 + 0.5
    assert line.y0 - 0.5 <= cell.bbox_pdf.y0 and cell.bbox_pdf.y1 <= line.y1 + 0.5
    assert "2.7V" in cell.text


def test_a_chinese_line_with_a_full_width_colon() -> None:
    (v,) = _read(["宽工作电压范围：1.0～5.5V"], title="特点", font="china-s")
    assert (v.parameter, v.min, v.max, v.unit) == ("supply_voltage", 1.0, 5.5, "V")


def test_lines_that_are_no_spec_value_are_left() -> None:
    assert _read(["• Supply voltage: 2.7V to", "• 5.5V supply"]) == []  # a run-on value, the next line a new item
    assert _read(["• Supply voltage: 5 V, 3.3 V"]) == []  # two values, no condition
    assert _read(["The part is specified over the supply voltage range of the device: 5 V"]) == []  # a sentence
    assert _read(["• VDD = 3 V: 2 mA"]) == []  # a condition, not a name


def test_a_value_that_runs_on_to_the_next_line() -> None:
    got = _read(["• Supply voltage range: 2.7V to", "  5.5V", "• Operating temperature range: -40", "°C to +85°C"])
    assert [(v.parameter, v.min, v.max) for v in got] == [("supply_voltage", 2.7, 5.5), ("operating_temperature", -40.0, 85.0)]
    assert got[0].row_bbox_pdf.y1 - got[0].row_bbox_pdf.y0 > 14  # the row box holds both printed lines


def test_a_test_conditions_section_gives_no_values() -> None:
    assert _read(["Output Load: 50 pF", "Input rise time: 5 ns"], title="AC Test Conditions") == []


def test_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "COLON_LINES", False)
    assert _read(FEATURES) == []


def test_search_reads_colon_lines_without_page_words() -> None:
    from layoutrag.chunking.specs import chunk_specs

    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="list", section_title="Features",
                  native_text="\n".join(FEATURES), bboxes_pdf=[REGION])
    got = {v.parameter_printed: v for v in chunk_specs(chunk)}
    assert set(got) == {"Operating Voltage Range", "Operating Current", "Supply current"}
    assert (got["Operating Voltage Range"].min, got["Operating Voltage Range"].max) == (2.7, 5.5)


# specs-12 value parsing, on printed strings: the degree sign's look-alikes, a role in parentheses,
# a range whose ends print different prefixes
def test_degree_look_alikes_are_degrees() -> None:
    from layoutrag.specs import fold, parse_value

    assert fold("−65˚C to +150˚C") == "-65°C to +150°C"  # U+02DA ring above, as older datasheets print it
    assert fold("150 ºC") == "150 °C"  # the ordinal indicator
    pv = parse_value("- 30 to + 100 ˚C")
    assert pv is not None and (pv.min, pv.max, pv.unit, pv.unit_printed) == (-30.0, 100.0, "°C", "°C")


def test_a_role_in_parentheses() -> None:
    from layoutrag.specs import parse_value

    got = {s: parse_value(s) for s in ("1 µA (maximum)", "1 µA (max.)", "2 µA (minimum)", "200 µA (typical)", "3 V (typ)")}
    assert [(p.min, p.typ, p.max) for p in got.values() if p] == [
        (None, None, 1e-06), (None, None, 1e-06), (2e-06, None, None), (None, 0.0002, None), (None, 3.0, None)
    ]
    cond = parse_value("255 (10 s max)")  # a condition in parentheses stays a condition
    assert cond is not None and (cond.typ, cond.max) == (255.0, None)


def test_a_range_with_a_prefix_at_each_end() -> None:
    from layoutrag.specs import parse_value

    for text, lo, hi in (("2 kHz to 80 MHz", 2e3, 8e7), ("100 mV to 1.2 V", 0.1, 1.2), ("10 Hz ~ 1 kHz", 10.0, 1e3)):
        pv = parse_value(text)
        assert pv is not None and (pv.min, pv.max) == (lo, hi), text
    assert parse_value("-0.3V to 6V") is not None and parse_value("-0.3V to 6V").min == -0.3  # one unit: as before


# specs-13, value-first: a Features line that is a value, then its name
def test_value_first_feature_lines() -> None:
    got = {v.parameter: v for v in _read(["• 80 kHz bandwidth", "• 6A Continuous Output Current",
                                           "• -40 to +125°C Temperature Range", "• 2 ns propagation delay for"])}
    assert set(got) == {"bandwidth", "output_current", "operating_temperature"}  # "... for": a sentence's piece
    assert got["bandwidth"].typ == 80e3 and got["output_current"].typ == 6.0
    assert (got["operating_temperature"].min, got["operating_temperature"].max) == (-40.0, 125.0)  # the minus kept
    bw = got["bandwidth"]
    assert bw.cells[0].bbox_pdf.x1 < bw.row_bbox_pdf.x0 + 50  # the value's box is its own words, left of the name


def test_value_first_after_an_open_line_is_left() -> None:
    assert _read(["Higher standby current is seen at", ">3.3V VDD."]) == []


def test_value_first_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "VALUE_FIRST", False)
    assert _read(["• 80 kHz bandwidth"]) == []


def test_search_reads_value_first_lines_without_page_words() -> None:
    from layoutrag.chunking.specs import chunk_specs

    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="list", section_title="Features",
                  native_text="• 80 kHz bandwidth\n• Supply current: 1.2 mA", bboxes_pdf=[REGION])
    assert {v.parameter for v in chunk_specs(chunk)} == {"bandwidth", "supply_current"}


def test_summary_lines_answer_only_where_no_table_prints_the_parameter() -> None:
    from layoutrag.parametric import _evaluate, parse_constraint
    from layoutrag.records import BBox

    def value(table: str, lo: float, hi: float) -> SpecValue:
        return SpecValue(doc_id="d", part="XY100", parameter="operating_temperature", parameter_printed="Temperature range",
                         min=lo, max=hi, unit="°C", page=1, row_bbox_pdf=BBox(0, 0, 1, 1), table=table)  # type: ignore[arg-type]

    wide = parse_constraint("operating temperature = -40 to 125")
    features, rated = value("summary", -40, 125), value("ratings", -40, 85)
    assert _evaluate([features, rated], [wide])[0][0] == "fails"  # the ratings table is the specification
    assert _evaluate([features], [wide])[0][0] == "meets"  # a summary line alone still answers
    got = _read(FEATURES)
    assert {v.table for v in got} == {"summary"}
    ratings = _read(["Input Supply Voltage (VCC): -0.3V to 8V"], title="ABSOLUTE MAXIMUM RATINGS")
    assert [v.table for v in ratings] == ["ratings"]  # a ratings block's lines are ratings


def test_a_card_without_a_part_name_takes_a_printed_piece_of_the_file_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from layoutrag.chunking.specs import printed_part

    def part(file_name: str, text: str) -> str:
        card = DocumentCard(doc_id="d", file_name=file_name)
        chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, native_text=text)
        return printed_part(card, [chunk])

    assert part("Traco_TEN8.pdf", "DC/DC Converters TEN 8 Series, 8 Watt") == "TEN 8"
    assert part("Intel_8253_scan.pdf", "8253/8253-5 PROGRAMMABLE INTERVAL TIMER") == "8253"
    assert part("Fairchild_uA78H05_5V_5A_scan.pdf", "µA78H05 5-Volt 5-Amp Regulator, 5V output") == "µA78H05"
    assert part("C19674258.pdf", "TCXO 26 MHz, 3.3 V") == "C19674258"  # nothing printed: the file name, as before
    monkeypatch.setattr(stage, "FILE_NAME_PART", False)
    assert part("Traco_TEN8.pdf", "TEN 8 Series") == "Traco_TEN8"


# specs-14, whole-code: a series printed only inside ordering codes
def test_a_series_printed_only_inside_codes() -> None:
    from layoutrag.chunking.specs import _whole_code

    assert _whole_code("NDB7775", "NDB7775-07 laser diode, NDB7775-07 ratings") == "NDB7775-07"
    assert _whole_code("DS1642", "DS1642-120 and DS1642-150 speed grades") == "DS1642"  # two codes: the family
    assert _whole_code("RV-3032", "RV-3032-C7 real-time clock module") == "RV-3032-C7"
    assert _whole_code("LM358", "LM358 and LM358-N") == "LM358"  # printed alone


# specs-14, few-prints: a stem cut back to a family prefix printed less often than the part's own number
def test_a_family_prefix_printed_once_gives_way_to_the_part_number(monkeypatch: pytest.MonkeyPatch) -> None:
    from layoutrag.chunking.specs import printed_part

    card = DocumentCard(doc_id="d", file_name="ch.pdf", series=["CH32X"], part_numbers=["CH32X035", "CH32X033"])
    text = "CH32X035 data sheet. CH32X035 features ... CH32X035 electrical characteristics. Naming: CH32 = WCH 32-bit"
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, native_text=text)
    assert printed_part(card, [chunk]) == "CH32X035"
    opa = DocumentCard(doc_id="d", file_name="opa.pdf", series=["OPA130P"], part_numbers=["OPA130PA"])
    often = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, native_text="OPA130 OPA2130 OPA130 amplifiers; OPA130PA ordering")
    assert printed_part(opa, [often]) == "OPA130"  # the family name printed throughout stays
    monkeypatch.setattr(stage, "FEW_PRINTS", False)
    assert printed_part(card, [chunk]) == "CH32"


# specs-14, row-parts: a row of a parameter-columns table named by one of the document's parts
def test_an_ordering_row_is_its_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    from chunk_factory import table_chunk
    from layoutrag.records import TableRow

    card = DocumentCard(doc_id="d", file_name="rtc.pdf", series=["XY1302"], part_numbers=["XY1302", "XY1302Z", "XY1302N"])

    def row(cells: list[str], y: float, header: bool = False) -> TableRow:
        return TableRow(page=1, bbox_pdf=Box(50, y, 400, y + 12), cells=cells, text=" ".join(cells), is_header=header,
                        cell_boxes=[Box(50, y, 150, y + 12), Box(150, y, 300, y + 12), Box(300, y, 400, y + 12)])

    rows = [row(["PART", "TEMP RANGE", "PIN-PACKAGE"], 100, header=True),
            row(["XY1302Z+", "0°C to +70°C", "8 SO"], 112), row(["XY1302N", "-40°C to +85°C", "8 PDIP"], 124)]
    got = {v.part: (v.min, v.max) for v in extract_specs(card, [table_chunk(rows, title="Ordering Information")])}
    assert got == {"XY1302Z": (0.0, 70.0), "XY1302N": (-40.0, 85.0)}
    monkeypatch.setattr(stage, "ROW_PARTS", False)
    monkeypatch.setattr(stage, "CONDITION_PARTS", False)  # specs-19: the code left in the conditions names it too
    assert {v.part for v in extract_specs(card, [table_chunk(rows, title="Ordering Information")])} == {"XY1302"}


# specs-15, quantity-names: "1 Hz offset" rows under a "Phase Noise" heading merged over the table
def test_offset_rows_under_a_merged_heading_are_its_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    from chunk_factory import table_chunk
    from layoutrag.records import TableRow

    xs = [(50, 200), (200, 250), (250, 300), (300, 350), (350, 400), (400, 440)]

    def row(cells: list[str], y: float, header: bool = False, merged: bool = False) -> TableRow:
        boxes = [Box(50, y, 440, y + 12)] * 6 if merged else [Box(a, y, b, y + 12) for a, b in xs]
        return TableRow(page=1, bbox_pdf=Box(50, y, 440, y + 12), cells=cells, text=" ".join(cells),
                        is_header=header, cell_boxes=boxes)

    rows = [row(["Parameter", "Symbol", "Min.", "Typ.", "Max.", "Unit"], 100, header=True),
            row(["RMS Period Jitter", "T_jitt", "", "0.8", "1.1", "ps"], 112),
            row(["Phase Noise", "", "", "", "", ""], 124, merged=True),
            row(["1 Hz offset", "", "", "-80", "-74", "dBc/Hz"], 136),
            row(["10 Hz offset", "", "", "-108", "-102", "dBc/Hz"], 148)]
    card = DocumentCard(doc_id="d", file_name="osc.pdf", series=["XY5358"])
    got = [(v.parameter, v.conditions, v.typ) for v in extract_specs(card, [table_chunk(rows)]) if v.unit != "s"]
    assert got == [("phase_noise", "1 Hz offset", -80.0), ("phase_noise", "10 Hz offset", -108.0)]
    monkeypatch.setattr(stage, "QUANTITY_NAMES", False)
    assert {v.parameter_printed for v in extract_specs(card, [table_chunk(rows)]) if v.unit != "s"} == {"1 Hz offset", "10 Hz offset"}
