"""specs-20, on tables made here. merged-conditions: a test-conditions cell merged down over several
rows (find_tables gives its text to the first row and a box reaching over the others, whose
conditions cells it leaves empty) is the condition of every row inside that box - the group
condition of a TI-style table ("IOUT = 1 A, TJ = 25 °C" beside one line per output voltage)."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, DocumentCard, SpecValue, TableRow

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])

# --------------------------------------------------------------------------- merged conditions
COLS = [(30, 170), (170, 280), (280, 377), (377, 424), (424, 470), (470, 517), (517, 564)]


def _row(cells: list[str], y0: float, spans: dict[int, float] | None = None) -> TableRow:
    """A 13 pt row; `spans` maps a column to the y its merged cell reaches down to."""
    boxes = [Box(x0, y0, x1, (spans or {}).get(i, y0 + 13)) for i, (x0, x1) in enumerate(COLS)]
    return TableRow(page=1, bbox_pdf=Box(30, y0, 564, y0 + 13), cells=cells, text=" | ".join(cells), cell_boxes=boxes)


def _table(merged: bool) -> list[TableRow]:
    head = ["Parameter", "Test conditions", "", "Min", "Typ", "Max", "Unit"]
    return [
        TableRow(page=1, bbox_pdf=Box(30, 100, 564, 113), cells=head, text=" | ".join(head), is_header=True,
                 cell_boxes=[Box(x0, 100, x1, 113) for x0, x1 in COLS]),
        # the name merged over four rows, each group condition over two (when `merged`)
        _row(["Dropout voltage", "IOUT = 1 A, TJ = 25 °C", "VOUT = 1.2 V", "", "500", "600", "mV"], 113,
             {0: 165, 1: 139 if merged else 126}),
        _row(["", "", "VOUT = 3.3 V", "", "300", "425", "mV"], 126),
        _row(["", "IOUT = 1 A, TJ = 125 °C", "VOUT = 1.2 V", "", "", "650", "mV"], 139, {1: 165 if merged else 152}),
        _row(["", "", "VOUT = 3.3 V", "", "", "475", "mV"], 152),
        _row(["Quiescent current", "", "", "", "35", "50", "µA"], 165),
    ]


def _specs(merged: bool) -> list[SpecValue]:
    return extract_specs(CARD, [table_chunk(_table(merged), title="Electrical Characteristics")])


def _conditions(specs: list[SpecValue]) -> dict[float | None, str]:
    return {v.max: v.conditions for v in specs}


def test_a_conditions_cell_merged_down_is_the_condition_of_the_rows_it_covers() -> None:
    got = _conditions(_specs(merged=True))
    assert "TJ = 25 °C" in got[0.6] and "VOUT = 1.2 V" in got[0.6]
    assert "IOUT = 1 A, TJ = 25 °C" in got[0.425] and "VOUT = 3.3 V" in got[0.425]
    assert "TJ = 125 °C" in got[0.475] and "TJ = 25 °C" not in got[0.475]
    # the row below the merged box keeps its own (empty) conditions
    assert got[5e-05] == ""


def test_a_conditions_cell_of_one_row_gives_nothing_to_the_next() -> None:
    got = _conditions(_specs(merged=False))
    assert "TJ = 25 °C" in got[0.6]
    assert "TJ" not in got[0.425] and "VOUT = 3.3 V" in got[0.425]


def test_merged_conditions_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "MERGED_CONDITIONS", False)
    got = _conditions(_specs(merged=True))
    assert "TJ" not in got[0.425] and "TJ" not in got[0.475]



# --------------------------------------------------------------------------- gap sections
GCOLS = [(30, 300), (300, 360), (360, 410), (410, 460), (460, 510)]


def _gap_specs(heading: str) -> list[SpecValue]:
    from chunk_factory import grid_row, printed_words

    def row(cells: list[str], y: float, header: bool = False) -> TableRow:
        return grid_row(cells, y, GCOLS, header=header)

    rows = [
        row(["Characteristic", "Min", "Typ", "Max", "Unit"], 100, header=True),
        row(["Input level", "", "0.57", "", "V"], 112),
        # a gap of 14 pt the grid left out: the heading printed in it
        row(["SNR", "", "85", "", "dB"], 138),
        row(["THD+N", "", "-70", "", "dB"], 150),
    ]
    words = printed_words([(32, 133, heading)])
    return extract_specs(CARD, [table_chunk(rows, title="Audio Performance")], lambda p: words)


def test_a_heading_printed_between_two_rows_is_the_condition_of_the_rows_below_it() -> None:
    got = {v.parameter_printed: v.conditions for v in _gap_specs("LINEIN -> ADC -> I2S OUT")}
    assert got["SNR"] == "LINEIN -> ADC -> I2S OUT" and got["THD+N"] == "LINEIN -> ADC -> I2S OUT"
    assert got["Input level"] == ""


@pytest.mark.parametrize(
    "line",
    [
        "Operating Temperature Range",  # a lost row naming a parameter, not a heading
        "Storage temperature ........ -65 to 150",  # a rating line with its leader
        "Value Units",  # column headers
        "Table 5. Audio performance",  # a caption
        "must be driven low at all times",  # a note's line
    ],
)
def test_a_gap_line_that_is_no_heading_gives_no_condition(line: str) -> None:
    assert all(v.conditions == "" for v in _gap_specs(line))


def test_gap_sections_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "GAP_SECTIONS", False)
    assert all(v.conditions == "" for v in _gap_specs("LINEIN -> ADC -> I2S OUT"))
