"""chunk-20 / specs-27 / specs-28 / specs-29, on pages and chunks made here (hanging-labels and percent-of-rail below).

ruled-rows-read (chunk stage): a table is read in its ruled extent (the box grown to the rulings
drawn across its edge) as well as in the detector's box, the ruled reading kept when it has no fewer
rows and reads more words - a detector box a few points short of the rule closing the last row no
longer drops that row (find_tables leaves an unclosed row out); a ruled header over an unruled body
reads as fewer rows in the ruled extent, and the detector's reading stays.
title-sections: a section heading of a long table that the grid reads as a row of its own ("LINEIN ->
ADC -> I2S OUT", one cell merged over every column) is the condition of the rows under it, as it is
when the grid leaves it out of every row (`_gap_section`)."""

from __future__ import annotations

import pymupdf
import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import grid_row, table_chunk
from layoutrag.chunking.rules import disabled
from layoutrag.chunking.specs import extract_specs
from layoutrag.chunking.tables import ruled_boxes, table_rows
from layoutrag.pdf import PdfPage, extract_words
from layoutrag.records import Box, DocumentCard, Element, TableRow

CARD = DocumentCard(doc_id="d", file_name="codec.pdf", series=["XY5000"], part_numbers=["XY5000"])
XS = (60, 250, 320, 390, 460, 530)
ROWS = [
    ("Parameter", "Min", "Typ", "Max", "Unit"),
    ("Supply voltage", "2.7", "3.3", "3.6", "V"),
    ("Input offset voltage", "", "30", "110", "µV"),
    ("Supply current", "", "350", "570", "µA"),
]


def _ruled_table(*, body_rules: bool = True) -> pymupdf.Document:
    """A 4-row table 16 pt a row from y = 200; every row ruled, or (body_rules False) the first two only."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    ys = [200 + 16 * i for i in range(len(ROWS) + 1)]
    hlines = ys if body_rules else ys[:3]
    for y in hlines:
        page.draw_line((XS[0], y), (XS[-1], y), width=0.5)
    for x in XS:
        page.draw_line((x, ys[0]), (x, hlines[-1]), width=0.5)
    for r, cells in enumerate(ROWS):
        for x, text in zip(XS, cells, strict=False):
            if text:
                page.insert_text((x + 3, ys[r] + 12), text, fontsize=8)
    return doc


def _el(box: tuple[float, float, float, float]) -> Element:
    return Element(element_id="d_p1_e001", page=1, label="table", confidence=0.9, bbox_pdf=Box(*box))


def _names(rows: list[TableRow]) -> list[str]:
    return [r.cells[0] for r in rows]


def test_the_last_row_closed_by_a_rule_outside_the_detector_box_is_read() -> None:
    page = _ruled_table()[0]
    pdf_page, words = PdfPage(page), extract_words(page)
    # the detector's box stops 4 pt above the rule under the last row (at y = 264), inside that row
    el = _el((60, 201, 530, 260))
    inside, _ = table_rows(el, words, pdf_page)
    assert "Supply current" not in _names(inside)  # find_tables leaves the unclosed row out
    fitted = ruled_boxes(pdf_page, {el.element_id: el.bbox_pdf}, tables={el.element_id})[el.element_id]
    assert fitted.y1 >= 263.5  # the box grown to the closing rule
    rows, header = table_rows(el, words, pdf_page, fitted)
    assert _names(rows)[-1] == "Supply current"
    assert rows[-1].cells[1:] == ["", "350", "570", "µA"]
    assert header[:2] == ["Parameter", "Min"]


def test_page_groups_read_a_table_in_its_fitted_box_unless_the_rule_is_off() -> None:
    from layoutrag.chunking.pipeline import page_groups
    from layoutrag.config import Settings
    from layoutrag.records import Page

    pdf_page = PdfPage(_ruled_table()[0])
    el = _el((60, 201, 530, 260))
    page = Page(page=1, width_pt=595, height_pt=842, elements=[el], words=extract_words(pdf_page.page))
    fitted = ruled_boxes(pdf_page, {el.element_id: el.bbox_pdf}, tables={el.element_id})

    def last_name() -> str:
        (g,) = [g for g in page_groups(page, Settings(), pdf_page, fitted) if g.block_type == "table"]
        return g.rows[-1].cells[0]

    assert last_name() == "Supply current"
    with disabled("ruled_rows_read"):
        assert last_name() == "Input offset voltage"


def test_a_ruled_reading_with_fewer_rows_is_not_kept() -> None:
    """The first two rows alone are ruled: in the grown box find_tables sees a two-row grid; the
    detector's box (the top rule cut off) is read from the words, every row kept."""
    page = _ruled_table(body_rules=False)[0]
    pdf_page, words = PdfPage(page), extract_words(page)
    el = _el((60, 203, 530, 264))
    own, _ = table_rows(el, words, pdf_page)
    fitted = ruled_boxes(pdf_page, {el.element_id: el.bbox_pdf}, tables={el.element_id})[el.element_id]
    assert fitted.y0 < el.bbox_pdf.y0  # the header's top rule grows the box
    from layoutrag.chunking.tables import _table_rows_in

    wide, _ = _table_rows_in(el, fitted, words, pdf_page)
    assert 0 < len(wide) < len(own)  # the grown box reads the ruled rows only
    rows, _ = table_rows(el, words, pdf_page, fitted)
    assert [r.text for r in rows] == [r.text for r in own]
    assert any("Supply current" in r.text for r in rows)


def _title(text: str, y: float, cols: list[tuple[float, float]]) -> TableRow:
    box = Box(cols[0][0], y, cols[-1][1], y + 12)
    return TableRow(page=1, bbox_pdf=box, cells=[text] + [""] * (len(cols) - 1), text=text,
                    cell_boxes=[box] * len(cols))


COLS = [(60, 250), (250, 320), (320, 390), (390, 460), (460, 530)]


def _codec_chunk() -> list[TableRow]:
    return [
        grid_row(["Parameter", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        _title("LINEIN -> ADC -> I2S OUT", 112, COLS),
        grid_row(["SNR (-60 dB input)", "", "85", "", "dB"], 124, COLS),
        grid_row(["THD+N", "", "-70", "", "dB"], 136, COLS),
        _title("I2S IN -> DAC -> LINEOUT", 148, COLS),
        grid_row(["SNR (-60 dB input)", "", "95", "", "dB"], 160, COLS),
        _title("Operating conditions for XY5000 boards, 2nd revision", 172, COLS),
        grid_row(["THD+N", "", "-85", "", "dB"], 184, COLS),
    ]


def _read() -> list[tuple[str, float | None, str]]:
    values = extract_specs(CARD, [table_chunk(_codec_chunk())], None)
    return [(v.parameter_printed, v.typ, v.conditions) for v in values]


def test_a_section_heading_read_as_a_grid_row_is_the_condition_of_the_rows_under_it() -> None:
    got = _read()
    assert ("SNR (-60 dB input)", 85.0, "LINEIN -> ADC -> I2S OUT") in got
    assert ("THD+N", -70.0, "LINEIN -> ADC -> I2S OUT") in got
    assert ("SNR (-60 dB input)", 95.0, "I2S IN -> DAC -> LINEOUT") in got
    # a heading row that is no section heading (mixed case, no colon) ends the section, adds nothing
    assert ("THD+N", -85.0, "") in got


def test_title_sections_off_gives_the_rows_no_section(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "TITLE_SECTIONS", False)
    got = _read()
    assert ("SNR (-60 dB input)", 85.0, "") in got
    assert ("SNR (-60 dB input)", 95.0, "") in got


# hanging-labels (specs-28): ON Semiconductor's fixed-output rows - a version label ("1.8 V") printed
# before the first condition line of its block, the second line set at the hanging indent
NCP = [
    (62, 108, "Characteristic"), (300, 108, "Symbol"), (350, 108, "Min"), (400, 108, "Typ"), (450, 108, "Max"),
    (500, 108, "Unit"),
    (62, 124, "Output Voltage, Fixed Output Devices"), (300, 124, "Vout"), (500, 124, "V"),
    (66, 136, "1.5 V"), (96, 136, "(Vin = 3.5 V, Iout = 10 mA)"), (350, 136, "1.485"), (400, 136, "1.500"),
    (450, 136, "1.515"),
    (96, 146, "(Vin = 2.9 V to 11.5 V) (Note 4)"), (350, 146, "1.470"), (450, 146, "1.530"),
    (66, 160, "1.8 V"), (96, 160, "(Vin = 3.8 V, Iout = 10 mA)"), (350, 160, "1.782"), (400, 160, "1.800"),
    (450, 160, "1.818"),
    (96, 170, "(Vin = 3.2 V to 11.8 V) (Note 4)"), (350, 170, "1.755"), (450, 170, "1.845"),
    (96, 180, "(Vin = 3.3 V to 12 V, TA = 85 °C)"), (350, 180, "1.750"), (450, 180, "1.850"),
]
NCP_COLS = [(60, 298), (298, 348), (348, 398), (398, 448), (448, 498), (498, 540)]


def _ncp_read() -> dict[tuple[float | None, float | None], str]:
    from chunk_factory import printed_words

    words = printed_words(NCP)
    rows = [
        grid_row(["Characteristic", "Symbol", "Min", "Typ", "Max", "Unit"], 100, NCP_COLS, header=True),
        grid_row(["Output Voltage, Fixed Output Devices", "Vout", "1.485 1.470 1.782 1.755 1.750", "1.500 1.800",
                  "1.515 1.530 1.818 1.845 1.850", "V"], 112, NCP_COLS, h=72),
    ]
    values = extract_specs(CARD, [table_chunk(rows)], lambda p: words)
    return {(v.min, v.max): v.conditions for v in values}


def test_a_condition_line_at_the_hanging_indent_takes_the_label_of_its_block() -> None:
    got = _ncp_read()
    assert got[(1.485, 1.515)].startswith("1.5 V (Vin = 3.5 V")
    assert got[(1.47, 1.53)].startswith("1.5 V (Vin = 2.9 V")
    assert got[(1.755, 1.845)].startswith("1.8 V (Vin = 3.2 V")
    assert got[(1.75, 1.85)].startswith("1.8 V (Vin = 3.3 V")  # the third line of the block keeps it


def test_one_phrase_set_on_two_lines_gives_no_label() -> None:
    """"vs Temperature" under "Input Offset Voltage", at the indent of "Offset": a word space apart, no label."""
    from chunk_factory import printed_words

    words = printed_words([(62, 100, "Input Offset Voltage"), (62, 120, "1.8 V"), (92, 120, "(Vin = 5 V)")])
    offset = next(w for w in words if w.text == "Offset").bbox_pdf.x0
    vin = next(w for w in words if w.text == "(Vin").bbox_pdf.x0
    below = printed_words([(offset, 110, "vs Temperature"), (vin, 130, "(Vin = 12 V)")])
    above_name = [w for w in words if w.bbox_pdf.y1 < 105]
    above_label = [w for w in words if w.bbox_pdf.y0 > 110]
    assert stage._hanging_label(above_name, [w for w in below if w.bbox_pdf.y1 < 115], []) == []
    label = stage._hanging_label(above_label, [w for w in below if w.bbox_pdf.y0 > 120], [])
    assert [w.text for w in label] == ["1.8", "V"]


def test_hanging_labels_off_leaves_the_second_line_unlabelled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "HANGING_LABELS", False)
    got = _ncp_read()
    assert got[(1.755, 1.845)].startswith("(Vin = 3.2 V")
    assert got[(1.485, 1.515)].startswith("1.5 V (Vin = 3.5 V")


# percent-of-rail (specs-29): "70%" under a Unit cell "Vdd" is 70 % of the supply, not a bare percent
def _rail_read() -> list[tuple[str, float | None, float | None, str, str]]:
    rows = [
        grid_row(["Parameter", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        grid_row(["Input High Voltage", "70%", "", "", "Vdd"], 112, COLS),
        grid_row(["Input Low Voltage", "", "", "30%", "VDD"], 124, COLS),
        grid_row(["Duty cycle", "45", "", "55", "%"], 136, COLS),
    ]
    values = extract_specs(CARD, [table_chunk(rows)], None)
    return [(v.parameter_printed, v.min, v.max, v.unit, v.unit_printed) for v in values]


def test_a_percent_under_a_supply_rail_unit_cell_says_whose_percent() -> None:
    got = _rail_read()
    assert ("Input High Voltage", 70.0, None, "%", "% of Vdd") in got
    assert ("Input Low Voltage", None, 30.0, "%", "% of VDD") in got
    assert ("Duty cycle", 45.0, 55.0, "%", "%") in got  # a plain percent stays one


def test_percent_of_rail_off_leaves_the_bare_percent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "PERCENT_OF_RAIL", False)
    assert ("Input High Voltage", 70.0, None, "%", "%") in _rail_read()
