"""specs-21 and specs-22, on chunks made here. heading-above: a table whose ratings heading is printed
as the last heading line of the text block just above it (a numbered sub-heading inside a paragraph
block, a bilingual heading pair under the section's own heading) holds ratings, though its section
title is the chapter's ("6. Parameter"). stacked-symbols: a symbol printed on each value line of a grid
row is that line's. note-columns: note numbers under a Notes header are footnotes. typical-spread
(specs-22): a ± under Typ beside a ± limit is kept as typ. grouped-roles (specs-23): every header cell
printing a grade's MIN TYP MAX is split, the grade's label naming its group. least-magnitudes (specs-24): a
row whose every number is a ± and whose Min prints one keeps the magnitudes."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import grid_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, Chunk, DocumentCard, SpecValue

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])
COLS = [(40, 80), (80, 300), (300, 360), (360, 420), (420, 470)]
ROWS = [
    ["Name", "Parameter", "Min.", "Max.", "Units"],
    ["TA", "Ambient operating temperature", "-40", "85", "°C"],
    ["VCC", "Supply voltage", "-0.5", "6.5", "V"],
]


def _text(body: str, y0: float, y1: float) -> Chunk:
    return Chunk(chunk_id="d_p1_b00", doc_id="d", page=1, block_type="text", native_text=body,
                 bboxes_pdf=[Box(40, y0, 470, y1)], section_title="6. Parameter")


def _specs(above: str, *, gap: float = 4.0, table_text: str = "") -> list[SpecValue]:
    table = grid_chunk(ROWS, COLS, title="6. Parameter")
    table = table.model_copy(update={"bboxes_pdf": [Box(40, 100, 470, 136)], "native_text": table_text})
    return extract_specs(CARD, [_text(above, 60, 100 - gap), table])


def _kinds(specs: list[SpecValue]) -> set[str]:
    return {v.table for v in specs}


NUMBERED = ("6. Parameter\n6.1. Absolute maximum rating (Stresses above those listed can cause permanent damage\n"
            "to the device. Exposure to maximum rated conditions can affect reliability.)")


def test_a_numbered_ratings_heading_closing_the_block_above_makes_the_table_ratings() -> None:
    assert _kinds(_specs(NUMBERED)) == {"ratings"}


def test_a_bilingual_heading_under_the_sections_own_heading_counts() -> None:
    above = "光电参数（1）\nElectro-Optical Characteristics(1)\n极限参数（温度=25℃）\n\uf0b2 Absolute Maximum Ratings (Temperature=25°C)"
    assert _kinds(_specs(above)) == {"ratings"}


@pytest.mark.parametrize(
    "above",
    [
        # the ratings named inside a sentence that wraps: no heading
        "Stresses beyond those listed under Absolute\nMaximum Ratings may cause permanent damage to the device.",
        # a later characteristics heading is the one over the table
        "6.1. Absolute maximum rating\nTA -40 to 85 °C\n6.2. Electrical characteristics (TA = 25 °C)",
        # a ratings list printed above the table holds its own heading (its dot leaders end the search)
        "Absolute Maximum Ratings\nSupply Voltage ........................ -0.3V to +4.0V",
        "6.2. Electrical parameter (test conditions: TA=25℃, VCC=5V)",
    ],
)
def test_no_ratings_heading_closing_the_block_leaves_the_table_characteristics(above: str) -> None:
    assert _kinds(_specs(above)) == {"characteristics"}


def test_only_a_block_directly_above_the_table_counts() -> None:
    assert _kinds(_specs(NUMBERED, gap=60)) == {"characteristics"}


def test_a_table_printing_its_own_characteristics_heading_keeps_it() -> None:
    assert _kinds(_specs(NUMBERED, table_text="ELECTRICAL CHARACTERISTICS\nName Parameter Min. Max. Units")) == {
        "characteristics"
    }


def test_the_rule_has_an_ablation_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "HEADING_ABOVE", False)
    assert _kinds(_specs(NUMBERED)) == {"characteristics"}


# --------------------------------------------------------------------------- stacked symbols
SCOLS = [(30, 200), (200, 260), (260, 310), (310, 360), (360, 410), (410, 460)]


def _stacked_specs(symbols: tuple[str, str]) -> list[SpecValue]:
    """One grid row printing two lines ("Data Hold Time | tDH1 / tDH2 | 0 / 25 | ns / ns") - no rule
    between them - under a Parameter | Symbol | Min | Typ | Max | Units header."""
    from chunk_factory import grid_row, printed_words, table_chunk

    head = grid_row(["Parameter", "Symbol", "Min", "Typ", "Max", "Units"], 100, SCOLS, header=True)
    row = grid_row(["Data Hold Time", f"{symbols[0]} {symbols[1]}", "0 25", "", "", "ns ns"], 112, SCOLS, h=22)
    words = printed_words([
        (32, 121, "Data Hold Time"), (202, 121, symbols[0]), (262, 121, "0"), (362 + 50, 121, "ns"),
        (202, 131, symbols[1]), (262, 131, "25"), (362 + 50, 131, "ns"),
    ])
    return extract_specs(CARD, [table_chunk([head, row], title="AC Characteristics")], lambda p: words)


def test_a_symbol_printed_on_each_value_line_is_that_lines_own() -> None:
    got = {v.min: v.symbol for v in _stacked_specs(("tDH1", "tDH2"))}
    assert got == {0.0: "tDH1", 2.5e-08: "tDH2"}


def test_stacked_symbols_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "STACKED_SYMBOLS", False)
    got = {v.min: v.symbol for v in _stacked_specs(("tDH1", "tDH2"))}
    assert got == {0.0: "tDH1 tDH2", 2.5e-08: "tDH1 tDH2"}  # both lines keep the cell's two symbols


def test_a_capitalised_symbol_per_line_was_already_its_lines_own() -> None:
    got = {v.min: v.symbol for v in _stacked_specs(("ICC", "IEE"))}
    assert got == {0.0: "ICC", 2.5e-08: "IEE"}


# --------------------------------------------------------------------------- note columns
NCOLS = [(30, 200), (200, 250), (250, 300), (300, 350), (350, 400), (400, 450)]


def _noted_specs(header: str, cell: str) -> list[SpecValue]:
    rows = [
        ["Parameter", "Symbol", "Min", "Max", "Units", header],
        ["Supply Voltage", "VCC", "4.5", "5.5", "V", cell],
    ]
    return extract_specs(CARD, [grid_chunk(rows, NCOLS, title="DC Operating Conditions")])


@pytest.mark.parametrize("cell,refs", [("2, 3", ["2", "3"]), ("1,3,4", ["1", "3", "4"]), ("5", ["5"])])
def test_note_numbers_under_a_notes_header_are_footnotes_not_conditions(cell: str, refs: list[str]) -> None:
    (v,) = _noted_specs("NOTES", cell)
    assert v.conditions == "" and v.footnotes == refs


def test_a_notes_cell_with_words_stays_the_condition() -> None:
    (v,) = _noted_specs("Notes", "Pulse width ≤ 300 µs")
    assert v.conditions == "Pulse width ≤ 300 µs" and v.footnotes == []


def test_a_number_under_a_conditions_header_is_no_note_reference() -> None:
    (v,) = _noted_specs("Conditions", "5")
    assert v.footnotes == []


def test_note_columns_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "NOTE_COLUMNS", False)
    (v,) = _noted_specs("NOTES", "2, 3")
    assert v.conditions == "2, 3" and v.footnotes == []


# --------------------------------------------------------------------------- typical spread (specs-22)
TCOLS = [(30, 200), (200, 250), (250, 300), (300, 350), (350, 400)]


def _spread_specs(mn: str, typ: str, mx: str) -> list[SpecValue]:
    rows = [["Parameter", "Min", "Typ", "Max", "Units"], ["Supply Voltage Sensitivity", mn, typ, mx, "ppb"]]
    return extract_specs(CARD, [grid_chunk(rows, TCOLS, title="Electrical Characteristics")])


def test_a_typical_spread_beside_a_limit_is_kept_as_typ() -> None:
    (v,) = _spread_specs("", "±0.4", "±1.3")
    assert (v.min, v.typ, v.max) == (-0.0013, 0.0004, 0.0013)


def test_a_typical_spread_wider_than_the_limit_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "LEAST_MAGNITUDES", False)  # (with it, specs-24 reads the row as magnitudes)
    (v,) = _spread_specs("±13.5", "±13.7", "")  # a ± under Min is a least magnitude (an output swing)
    assert v.typ is None and (v.min, v.max) == (-0.0135, 0.0135)


def test_a_lone_typical_spread_stays_the_range() -> None:
    (v,) = _spread_specs("", "±1.5", "")
    assert (v.min, v.typ, v.max) == (-0.0015, None, 0.0015)


def test_typical_spread_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "TYPICAL_SPREAD", False)
    (v,) = _spread_specs("", "±0.4", "±1.3")
    assert (v.min, v.typ, v.max) == (-0.0013, None, 0.0013)


def test_pulling_range_is_the_pull_range() -> None:
    # IEC 60679-1 calls a VCXO's pull range its "frequency pulling range"
    from layoutrag.specs import match_parameter

    assert match_parameter("Pulling Range") == ("pull_range", True)
    assert match_parameter("Frequency pulling range") == ("pull_range", True)


# --------------------------------------------------------------------------- grouped roles (specs-23)
GCOLS2 = [(30, 150), (150, 290), (290, 430), (430, 470)]


def _grouped_specs(head_cells: tuple[str, str], label_line: str = "") -> list[SpecValue]:
    """A Linear-style header: each grade's "MIN TYP MAX" printed in one grid cell (no rules between
    the value columns), the grade's name before them in the cell ("LT1006AM/AC MIN TYP MAX") or,
    when `label_line`, on the line above the header ("8253 8253-5")."""
    from chunk_factory import grid_row, printed_words, table_chunk

    head = grid_row(["PARAMETER", head_cells[0], head_cells[1], "UNITS"], 100, GCOLS2, header=True)
    body = grid_row(["Input Bias Current", "9 15", "10 25", "nA"], 112, GCOLS2)
    lines = [(32, 109, "PARAMETER"), (432, 109, "UNITS"), (32, 121, "Input Bias Current"), (432, 121, "nA")]
    for (x0, _), cell in zip(GCOLS2[1:3], head_cells, strict=True):
        words = cell.split()
        label = [w for w in words if w.upper() not in ("MIN", "TYP", "MAX")]
        if label:
            lines.append((x0 + 2, 109, " ".join(label)))
        for k, role in enumerate(("MIN", "TYP", "MAX")):
            lines.append((x0 + 50 + 30 * k, 109, role))
    for (x0, _), (typ, mx) in zip(GCOLS2[1:3], (("9", "15"), ("10", "25")), strict=True):
        lines += [(x0 + 80, 121, typ), (x0 + 110, 121, mx)]
    if label_line:
        for (x0, _), name in zip(GCOLS2[1:3], label_line.split(), strict=True):
            lines.append((x0 + 60, 97, name))
    words = printed_words(lines)
    return extract_specs(CARD, [table_chunk([head, body], title="Electrical Characteristics")], lambda p: words)


def test_each_grades_merged_min_typ_max_cell_is_split_and_named_by_its_label() -> None:
    got = {(v.typ, v.max): (v.part, v.conditions) for v in _grouped_specs(("XY100A MIN TYP MAX", "XY100 MIN TYP MAX"))}
    assert got == {(9e-09, 1.5e-08): ("XY100A", ""), (1e-08, 2.5e-08): ("XY100", "")}


def test_a_groups_name_on_the_line_above_its_header_is_its_label() -> None:
    got = {(v.typ, v.max): v.conditions for v in _grouped_specs(("MIN TYP MAX", "MIN TYP MAX"), label_line="Grade-1 Grade-2")}
    assert got == {(9e-09, 1.5e-08): "Grade-1", (1e-08, 2.5e-08): "Grade-2"}


def test_grouped_roles_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "GROUPED_ROLES", False)
    got = {(v.typ, v.max) for v in _grouped_specs(("XY100A MIN TYP MAX", "XY100 MIN TYP MAX"))}
    assert (1e-08, 2.5e-08) not in got  # the second grade's cell is not split: its numbers are lost


# --------------------------------------------------------------------------- least magnitudes (specs-24)
def test_a_spread_under_min_is_a_least_magnitude() -> None:
    (v,) = _spread_specs("±13", "±14", "")  # an output swing: |VOUT| at least 13, typically 14
    assert (v.min, v.typ, v.max) == (0.013, 0.014, None)


def test_a_row_not_all_spreads_is_no_least_magnitude(monkeypatch: pytest.MonkeyPatch) -> None:
    on = _spread_specs("±13", "14", "")
    monkeypatch.setattr(stage, "LEAST_MAGNITUDES", False)
    assert on == _spread_specs("±13", "14", "")  # a plain number beside it: the rule does not act


def test_least_magnitudes_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "LEAST_MAGNITUDES", False)
    (v,) = _spread_specs("±13", "±14", "")
    assert (v.min, v.typ, v.max) == (-0.013, None, 0.013)
