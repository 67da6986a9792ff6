"""specs-16, on small PDFs and tables made here. aligned-values: a label list printed in two aligned
columns ("CONTACT RESISTANCE:" left, its value in a column to the right, the text layer giving each
its own line) is read as "name: value" lines. value-conditions: a value cell that states its own
condition after the value ("1,000 MΩ min. at 500 VDC") gives the value and keeps the condition.
no-packages: a package code on the card ("TO-220" of a title's "TO-220/TO-220FP") names no part.
Spelled-out degrees ("-30 ~ +70 degrees C") and the Japanese-style Chinese names 使用温度 / 储存温度."""

from __future__ import annotations

import pymupdf
import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import table_chunk
from layoutrag.chunking.card import is_package_code
from layoutrag.chunking.specs import extract_specs, printed_part
from layoutrag.records import Box, Chunk, DocumentCard, Region, SpecValue, TableRow, Word
from layoutrag.specs import parse_value

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])


def _columns(pairs: list[tuple[str, str]], *, value_x: float = 260) -> list[SpecValue]:
    """The spec values of one text chunk printing each (label, value) pair on one printed line,
    the label at x = 50 and the value in a column at `value_x`, as separate text runs."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    for i, (label, value) in enumerate(pairs):
        page.insert_text((50, 100 + 16 * i), label, fontsize=9)
        page.insert_text((value_x, 100 + 16 * i), value, fontsize=9)
    words = [Word(text=w[4], bbox_pdf=Box(*w[:4]), block=w[5], line=w[6]) for w in page.get_text("words")]
    doc.close()
    text = "\n".join(f"{a} {b}" for a, b in pairs)
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="text", section_title="Specifications",
                  native_text=text, regions=[Region(page=1, bbox_pdf=Box(40, 85, 560, 100 + 16 * len(pairs)), label="text")])
    return extract_specs(CARD, [chunk], lambda p: words if p == 1 else [])


PAIRS = [
    ("OPERATING TEMPERATURE:", "-20 °C to +70 °C"),
    ("INSULATION RESISTANCE:", "100 Mohm min."),
    ("TRAVEL:", "0.25 mm"),
]


def test_a_label_column_and_its_value_column_are_read_as_one_line() -> None:
    got = {v.parameter: v for v in _columns(PAIRS)}
    op = got["operating_temperature"]
    assert (op.min, op.max, op.unit) == (-20.0, 70.0, "°C")
    ir = got["insulation_resistance"]
    assert (ir.min, ir.unit) == (pytest.approx(100e6), "ohm")
    # the row box holds the label and the value column; the value's cell is the value's words
    assert op.row_bbox_pdf.x0 < 60 and op.row_bbox_pdf.x1 > 300
    (cell,) = [c for c in op.cells if c.role in ("min", "max", "value")][:1]
    assert cell.bbox_pdf.x0 >= 255


def test_aligned_values_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "ALIGNED_VALUES", False)
    monkeypatch.setattr(stage, "NAMED_TEMPERATURES", False)  # specs-44 would read the temperature line on its own
    assert [v for v in _columns(PAIRS) if v.parameter in ("operating_temperature", "insulation_resistance")] == []
    monkeypatch.setattr(stage, "NAMED_TEMPERATURES", True)
    assert [v.parameter for v in _columns(PAIRS) if v.parameter in ("operating_temperature", "insulation_resistance")] == [
        "operating_temperature"
    ]


def test_a_value_column_that_is_a_second_label_is_not_joined() -> None:
    # two label columns ("NAME:" left, "OTHER: value" right) - the right one is its own line
    got = _columns([("OPERATING TEMPERATURE:", "STORAGE TEMPERATURE: -40 °C to +85 °C")])
    assert [(v.parameter, v.min, v.max) for v in got] == [("storage_temperature", -40.0, 85.0)]


COLS = [(50, 200), (200, 420)]


def _row(cells: list[str], y: float, header: bool = False) -> TableRow:
    return TableRow(page=1, bbox_pdf=Box(50, y, 420, y + 12), cells=cells, text=" | ".join(cells),
                    is_header=header, cell_boxes=[Box(x0, y, x1, y + 12) for x0, x1 in COLS])


def _table(rows: list[list[str]]) -> dict[str, SpecValue]:
    made = [_row(["Item", "Specification"], 100, header=True)]
    made += [_row(r, 112 + 12 * i) for i, r in enumerate(rows)]
    return {v.parameter: v for v in extract_specs(CARD, [table_chunk(made, title="Ratings")])}


def test_a_value_cell_with_its_own_condition() -> None:
    got = _table([["Insulation resistance", "1,000 MΩ min. at 500 VDC"],
                  ["Operating temperature", "-30 °C to 80 °C with no icing"]])
    ir = got["insulation_resistance"]
    assert (ir.min, ir.unit) == (pytest.approx(1e9), "ohm")
    assert "at 500 VDC" in ir.conditions  # the condition kept as printed, apart from the number
    op = got["operating_temperature"]
    assert (op.min, op.max) == (-30.0, 80.0)
    assert "with no icing" in op.conditions


def test_two_values_each_at_its_own_condition_are_left() -> None:
    from layoutrag.chunking.specs import _value_then_condition

    assert _value_then_condition("±4 kHz @ 132 kHz ±2 kHz @ 66 kHz", "", "value") == (None, "")
    pv, said = _value_then_condition("50 W @ 25°C Case", "", "value")
    assert pv is not None and (pv.typ, pv.unit, said) == (50.0, "W", "@ 25°C Case")
    assert _value_then_condition("at 25 °C", "", "value") == (None, "")  # no value before the condition


def test_value_conditions_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "VALUE_CONDITIONS", False)
    assert "insulation_resistance" not in _table([["Insulation resistance", "1,000 MΩ min. at 500 VDC"]])


def test_package_codes() -> None:
    assert is_package_code("TO-220") and is_package_code("TO-220FP") and is_package_code("TO-220/TO-220FP")
    assert is_package_code("SOT-23-5") and is_package_code("SOD-123FL")
    assert not is_package_code("STP16NF06") and not is_package_code("LM358") and not is_package_code("")


def test_a_package_on_the_card_names_no_part(monkeypatch: pytest.MonkeyPatch) -> None:
    card = DocumentCard(doc_id="d", file_name="stp16nf06.pdf", series=["TO-220", "STP16NF06"],
                        part_numbers=["TO-220FP", "STP16NF06FP"])
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="text", section_title="",
                  native_text="STP16NF06 STP16NF06FP N-channel 60 V in TO-220 and TO-220FP",
                  regions=[Region(page=1, bbox_pdf=Box(40, 80, 560, 120), label="text")])
    assert printed_part(card, [chunk]) == "STP16NF06"
    monkeypatch.setattr(stage, "NO_PACKAGES", False)
    assert printed_part(card, [chunk]) == "TO-220"  # what specs-15 named the values


def test_spelled_out_degrees() -> None:
    for text in ("-30 ~ +70 degrees C", "-30 to +70 degree Celsius", "-30 to 70 deg. C"):
        pv = parse_value(text, "°C", "value")
        assert pv is not None and (pv.min, pv.max, pv.unit) == (-30.0, 70.0, "°C"), text


def test_chinese_temperature_names() -> None:
    got = _table([["使用温度范围", "-40 ~ +85 °C"], ["储存温度", "-55 ~ +125 °C"]])
    assert (got["operating_temperature"].min, got["operating_temperature"].max) == (-40.0, 85.0)
    assert (got["storage_temperature"].min, got["storage_temperature"].max) == (-55.0, 125.0)
