"""The spec stage's specs-5 readers, each on a small PDF made here with PyMuPDF (the words and their
boxes come from its text layer) and the grid rows a table detector gives of it: a bilingual header
("下限 Min."), body cells spanning several header grid columns, a grid that left out the table's
Unit column and its header line, and a ratings list printed with dot leaders."""

from __future__ import annotations

import pymupdf

import layoutrag.chunking.specs as stage
from chunk_factory import table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, DocumentCard, TableRow, Word
from test_specs_gate import _row

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])


def _pdf_words(lines: list[tuple[float, float, str]], font: str = "helv") -> list[Word]:
    """A one-page PDF printing each (x, baseline y, text); its words as the text layer gives them."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    for x, y, text in lines:
        page.insert_text((x, y), text, fontsize=9, fontname=font)
    words = [Word(text=w[4], bbox_pdf=Box(*w[:4])) for w in page.get_text("words")]
    doc.close()
    return words


def test_a_bilingual_header_names_its_columns() -> None:
    words = _pdf_words([(52, 108, "Item"), (202, 108, "Min."), (252, 108, "Max."), (302, 108, "Units"),
                        (52, 122, "Operating Temperature"), (202, 122, "-40"), (252, 122, "85"), (302, 122, "C")])
    head = _row(100, 112, [("项目 Item", 50, 200), ("下限 Min.", 200, 250), ("上限 Max.", 250, 300), ("单位 Units", 300, 350)], header=True)
    body = _row(112, 126, [("工作温度 Operating Temperature", 50, 200), ("-40", 200, 250), ("85", 250, 300), ("℃", 300, 350)])
    vals = extract_specs(CARD, [table_chunk([head, body], Box(50, 100, 350, 126))], lambda p: words)
    assert [(v.parameter, v.min, v.max, v.unit) for v in vals] == [("operating_temperature", -40.0, 85.0, "°C")]


def test_a_body_cell_spanning_header_grid_columns_goes_under_its_header() -> None:
    # the header printed in the second of three grid columns per field, the body's text in the first
    words = _pdf_words([(80, 160, "Parameter"), (220, 160, "Symbol"), (330, 160, "Rating"), (440, 160, "Unit"),
                        (75, 180, "Reverse Voltage"), (215, 180, "VR"), (320, 180, "5"), (435, 180, "V")])
    xs = [(70, 76), (76, 205), (205, 211), (211, 216), (216, 310), (310, 316), (316, 321), (321, 424), (424, 430), (430, 435), (435, 519), (519, 525)]
    head = _row(150, 166, [(t, a, b) for t, (a, b) in zip(["", "Parameter", "", "", "Symbol", "", "", "Rating", "", "", "Unit", ""], xs, strict=True)], header=True)
    spans = [(70, 211)] * 3 + [(211, 316)] * 3 + [(316, 430)] * 3 + [(430, 525)] * 3
    body = _row(170, 186, [(t, a, b) for t, (a, b) in zip(["Reverse Voltage", "", "", "VR", "", "", "5", "", "", "V", "", ""], spans, strict=True)])
    vals = extract_specs(CARD, [table_chunk([head, body], Box(70, 150, 525, 186))], lambda p: words)
    assert [(v.parameter_printed, v.symbol, v.typ, v.unit) for v in vals] == [("Reverse Voltage", "VR", 5.0, "V")]


def test_a_unit_column_and_header_line_outside_the_grid_are_read_from_the_words() -> None:
    # printed: Parameter | Symbol | Min | Typ | Max | Unit; the grid holds Parameter..Max of the
    # body rows only (no rule right of Max, the header line above the first rule)
    lines = [(52, 108, "Parameter"), (202, 108, "Symbol"), (262, 108, "Min"), (312, 108, "Typ"), (362, 108, "Max"), (412, 108, "Unit"),
             (52, 122, "Shutdown Current"), (202, 122, "ISHDN"), (312, 122, "0.1"), (362, 122, "1"), (412, 122, "uA"),
             (52, 136, "Oscillator Frequency"), (202, 136, "FOSC"), (312, 136, "1"), (412, 136, "MHz")]
    words = _pdf_words(lines)
    cols = [(50, 200), (200, 260), (260, 310), (310, 360), (360, 400)]
    r1 = _row(112, 126, [(t, a, b) for t, (a, b) in zip(["Shutdown Current", "ISHDN", "", "0.1", "1"], cols, strict=True)])
    r2 = _row(126, 140, [(t, a, b) for t, (a, b) in zip(["Oscillator Frequency", "FOSC", "", "1", ""], cols, strict=True)])
    chunk = table_chunk([r1, r2], Box(48, 98, 450, 142))
    assert extract_specs(CARD, [chunk], None) == []  # the rows alone: no header, no units
    vals = extract_specs(CARD, [chunk], lambda p: words)
    got = [(v.parameter_printed, v.typ, v.max, v.unit) for v in vals]
    assert got == [("Shutdown Current", 1e-07, 1e-06, "A"), ("Oscillator Frequency", 1e6, None, "Hz")]
    assert vals[0].cells[0].role == "typ" and vals[0].cells[0].bbox_pdf.x0 >= 310


def test_a_ratings_list_printed_with_dot_leaders() -> None:
    texts = ["Supply Voltage, V+ to V- ............................ 36V",
             "Operating Temperature ...................... -40°C to +125°C",
             "Contact Rating ............................. 10 mA @ 5 VDC",
             "Dielectric Withstanding Voltage",
             "   Sea Level ................................ 1000 V"]
    words = _pdf_words([(72, 60 + 10 * k, t) for k, t in enumerate(texts)])
    rows = []
    for k, t in enumerate(texts):
        ws = [w for w in words if 52 + 10 * k <= w.bbox_pdf.center[1] <= 62 + 10 * k]
        b = Box(min(w.bbox_pdf.x0 for w in ws), 52 + 10 * k, max(w.bbox_pdf.x1 for w in ws), 62 + 10 * k)
        rows.append(TableRow(page=1, bbox_pdf=b, cells=[t.strip()], text=t.strip(), is_header=k == 0, cell_boxes=[b]))
    chunk = table_chunk(rows, Box(70, 50, 400, 105), title="ABSOLUTE MAXIMUM RATINGS")
    vals = extract_specs(CARD, [chunk], lambda p: words)
    got = [(v.parameter, v.min, v.typ, v.max, v.unit, v.conditions, v.table) for v in vals]
    assert got[:2] == [("supply_voltage", None, None, 36.0, "V", "", "ratings"),  # a lone rating is its limit (specs-19)
                       ("operating_temperature", -40.0, None, 125.0, "°C", "", "ratings")]
    assert got[2][1:6] == (None, None, 0.01, "A", "5 VDC")
    assert vals[3].parameter_printed == "Dielectric Withstanding Voltage, Sea Level" and vals[3].typ == 1000.0
    cell = vals[0].cells[0].bbox_pdf  # the value's box: right of the leader, holding "36V"
    w36 = next(w for w in words if w.text.endswith("36V"))
    assert cell.x0 >= words[0].bbox_pdf.x1 and cell.x1 >= w36.bbox_pdf.x1 - 0.5


def test_an_unheaded_first_column_left_of_symbol_holds_the_names() -> None:
    words = _pdf_words([(202, 108, "Symbol"), (262, 108, "Min."), (312, 108, "Max"), (362, 108, "Unit"),
                        (52, 122, "Supply voltage"), (202, 122, "VDD"), (262, 122, "1.3"), (312, 122, "5.5"), (362, 122, "V")])
    head = _row(100, 112, [("", 50, 200), ("Symbol", 200, 260), ("Min.", 260, 310), ("Max", 310, 360), ("Unit", 360, 400)], header=True)
    body = _row(112, 126, [("Supply voltage", 50, 200), ("VDD", 200, 260), ("1.3", 260, 310), ("5.5", 310, 360), ("V", 360, 400)])
    vals = extract_specs(CARD, [table_chunk([head, body], Box(50, 100, 400, 126))], lambda p: words)
    assert [(v.parameter, v.parameter_printed, v.min, v.max) for v in vals] == [("supply_voltage", "Supply voltage", 1.3, 5.5)]


def test_a_body_cut_into_other_columns_than_its_header_is_realigned() -> None:
    # the header grid: Item | Min | Max | Units; each body row has a merged cell over Min and Max first
    words = _pdf_words([(52, 108, "Item"), (262, 108, "Min"), (312, 108, "Max"), (362, 108, "Units"),
                        (52, 122, "Operating Temperature Range"), (265, 122, "-30"), (315, 122, "85"), (362, 122, "C")])
    head = _row(100, 112, [("Item", 50, 260), ("Min", 260, 310), ("Max", 310, 360), ("Units", 360, 400)], header=True)
    body = TableRow(page=1, bbox_pdf=Box(50, 112, 400, 126), text="Operating Temperature Range -30 85 °C",
                    cells=["Operating Temperature Range", "", "-30", "85", "°C"],
                    cell_boxes=[Box(50, 112, 260, 126), Box(260, 112, 360, 126), Box(260, 112, 310, 126),
                                Box(310, 112, 360, 126), Box(360, 112, 400, 126)])
    vals = extract_specs(CARD, [table_chunk([head, body], Box(50, 100, 400, 126))], lambda p: words)
    assert [(v.parameter, v.min, v.max, v.unit) for v in vals] == [("operating_temperature", -30.0, 85.0, "°C")]


def test_a_header_line_above_the_grid_names_a_part_column(monkeypatch) -> None:
    # "Item / Type | XY100" printed above the first rule; the grid holds the body rows only
    words = _pdf_words([(52, 108, "Item / Type"), (262, 108, "XY100"),
                        (52, 122, "Shunt Capacitance"), (262, 122, "7 pF Max."),
                        (52, 136, "Frequency Aging"), (262, 136, "± 3 ppm")])
    r1 = _row(112, 126, [("Shunt Capacitance", 50, 260), ("7 pF Max.", 260, 400)], header=True)  # marked header, is none
    r2 = _row(126, 140, [("Frequency Aging", 50, 260), ("± 3 ppm", 260, 400)])
    chunk = table_chunk([r1, r2], Box(48, 98, 402, 142))
    # without the page words only specs-11's name | value rows read it (under the document's part)
    assert [(v.part, v.parameter) for v in extract_specs(CARD, [chunk], None)] == [
        ("XY100", "shunt_capacitance"), ("XY100", "aging")]
    monkeypatch.setattr(stage, "PAIR_ROWS", False)
    assert extract_specs(CARD, [chunk], None) == []
    vals = extract_specs(CARD, [chunk], lambda p: words)
    assert [(v.part, v.parameter, v.min, v.max, v.unit) for v in vals] == [
        ("XY100", "shunt_capacitance", None, 7e-12, "F"), ("XY100", "aging", -3.0, 3.0, "ppm")]
