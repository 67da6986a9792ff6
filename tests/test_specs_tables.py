"""The spec stage's table readings (specs-3) on hand-built rows the way ``find_tables`` and the text
layer give them - one column group per part, values put in the wrong grid cell, several value lines
in one grid row, Typ and Max on two lines, a header grid shifted against the body, columns named by
parameters - and the search hook that ranks chunks meeting a query's numeric constraints first."""

from __future__ import annotations

from layoutrag.chunking.specs import chunk_specs, extract_specs
from layoutrag.index.spec_constraints import boost_constraints, query_constraints
from layoutrag.records import Box, Chunk, DocumentCard, TableRow, Word
from layoutrag.specs import match_parameter, parse_query, parse_unit, parse_value


def _row(page: int, y0: float, y1: float, cells: list[tuple[str, float, float]], header: bool = False) -> TableRow:
    return TableRow(
        page=page,
        bbox_pdf=Box(cells[0][1], y0, cells[-1][2], y1),
        cells=[t for t, _, _ in cells],
        text=" ".join(t for t, _, _ in cells if t),
        is_header=header,
        cell_boxes=[Box(x0, y0, x1, y1) for _, x0, x1 in cells],
    )


def _words(rows: list[TableRow], extra: list[Word] | None = None) -> list[Word]:
    """One word per whitespace token, spread evenly over its cell (what the text layer gives)."""
    out: list[Word] = list(extra or [])
    for r in rows:
        for t, b in zip(r.cells, r.cell_boxes, strict=True):
            toks = t.split()
            if not toks:
                continue
            w = (b.x1 - b.x0) / len(toks)
            for k, tok in enumerate(toks):
                out.append(Word(text=tok, bbox_pdf=Box(b.x0 + k * w + 1, b.y0 + 2, b.x0 + (k + 1) * w - 1, b.y1 - 2)))
    return out


def _chunk(rows: list[TableRow]) -> Chunk:
    return Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="table", rows=rows)


CARD = DocumentCard(doc_id="d", file_name="lm358.pdf", series=["LM358"], part_numbers=["LM358", "LM2904"])


def test_one_column_group_per_part_is_read_for_every_part() -> None:
    head1 = _row(1, 100, 110, [("", 50, 300), ("LM358", 300, 400), ("LM2904", 400, 500), ("UNIT", 500, 540)], header=True)
    head2 = _row(1, 110, 120, [("", 50, 300), ("MIN", 300, 350), ("MAX", 350, 400), ("MIN", 400, 450), ("MAX", 450, 500), ("", 500, 540)], header=True)
    head1 = TableRow(**{**head1.model_dump(), "cells": ["", "LM358", "LM358", "LM2904", "LM2904", "UNIT"],
                        "cell_boxes": [Box(50, 100, 300, 110), Box(300, 100, 350, 110), Box(350, 100, 400, 110),
                                       Box(400, 100, 450, 110), Box(450, 100, 500, 110), Box(500, 100, 540, 110)]})
    body = _row(1, 120, 130, [("Supply voltage", 50, 300), ("32", 300, 350), ("", 350, 400), ("26", 400, 450), ("", 450, 500), ("V", 500, 540)])
    # the grid merged each group's Min and Max: "32" sits under Max (x 370) in the Min cell
    body = TableRow(**{**body.model_dump(), "cells": ["Supply voltage", "32", "", "26", "", "V"],
                       "cell_boxes": [Box(50, 120, 300, 130), Box(300, 120, 400, 130), Box(300, 120, 400, 130),
                                      Box(400, 120, 500, 130), Box(400, 120, 500, 130), Box(500, 120, 540, 130)]})
    words = [Word(text="LM358", bbox_pdf=Box(320, 101, 380, 109)), Word(text="LM2904", bbox_pdf=Box(420, 101, 480, 109)),
             Word(text="MIN", bbox_pdf=Box(315, 111, 335, 119)), Word(text="MAX", bbox_pdf=Box(365, 111, 385, 119)),
             Word(text="MIN", bbox_pdf=Box(415, 111, 435, 119)), Word(text="MAX", bbox_pdf=Box(465, 111, 485, 119)),
             Word(text="Supply", bbox_pdf=Box(55, 121, 80, 129)), Word(text="voltage", bbox_pdf=Box(82, 121, 110, 129)),
             Word(text="32", bbox_pdf=Box(366, 121, 378, 129)), Word(text="26", bbox_pdf=Box(466, 121, 478, 129)),
             Word(text="V", bbox_pdf=Box(510, 121, 515, 129))]
    vals = extract_specs(CARD, [_chunk([head1, head2, body])], lambda p: words)
    got = {(v.part, v.parameter, v.min, v.max) for v in vals}
    assert got == {("LM358", "supply_voltage", None, 32.0), ("LM2904", "supply_voltage", None, 26.0)}
    v = next(v for v in vals if v.part == "LM358")
    assert v.cells[0].role == "max" and v.cells[0].bbox_pdf == Box(366, 121, 378, 129)  # the word's box


def test_several_value_lines_in_one_grid_row_are_one_value_each() -> None:
    head = _row(1, 100, 110, [("SYMBOL", 50, 100), ("PARAMETER", 100, 250), ("MIN.", 250, 300), ("MAX.", 300, 350), ("UNIT", 350, 400)], header=True)
    body = _row(1, 110, 140, [("IFSM", 50, 100), ("peak forward current", 100, 250), ("- - -", 250, 300), ("4 1 0.5", 300, 350), ("A A A", 350, 400)])
    words = [Word(text="IFSM", bbox_pdf=Box(55, 112, 90, 118)), Word(text="peak", bbox_pdf=Box(105, 112, 130, 118)),
             Word(text="forward", bbox_pdf=Box(132, 112, 170, 118)), Word(text="current", bbox_pdf=Box(172, 112, 210, 118))]
    for k, (mx, y) in enumerate((("4", 112), ("1", 122), ("0.5", 132))):
        words += [Word(text="-", bbox_pdf=Box(270, y, 274, y + 6)), Word(text=mx, bbox_pdf=Box(320, y, 330, y + 6)),
                  Word(text="A", bbox_pdf=Box(370, y, 375, y + 6))]
        del k
    vals = extract_specs(CARD, [_chunk([head, body])], lambda p: words)
    assert [(v.parameter_printed, v.max) for v in vals] == [("peak forward current", 4.0), ("peak forward current", 1.0), ("peak forward current", 0.5)]
    assert all(v.cells[0].bbox_pdf.y1 - v.cells[0].bbox_pdf.y0 < 10 for v in vals)  # each line's own box


def test_typ_on_one_line_and_max_on_the_next_are_one_value() -> None:
    head = _row(1, 100, 110, [("PARAMETER", 50, 250), ("MIN", 250, 300), ("TYP", 300, 350), ("MAX", 350, 400), ("UNIT", 400, 450)], header=True)
    a = _row(1, 110, 120, [("Quiescent Current", 50, 250), ("", 250, 300), ("320", 300, 350), ("", 350, 400), ("µA", 400, 450)])
    b = _row(1, 120, 130, [("", 50, 250), ("", 250, 300), ("", 300, 350), ("495", 350, 400), ("", 400, 450)])
    vals = extract_specs(CARD, [_chunk([head, a, b])], lambda p: _words([head, a, b]))
    assert [(v.parameter, v.typ, v.max, [c.role for c in v.cells]) for v in vals] == [
        ("quiescent_current", 0.00032, 0.000495, ["typ", "max"])
    ]


def test_a_header_grid_shifted_against_the_body_is_realigned() -> None:
    # find_tables split the header into other cells than the body: "Min." is cell 5, "-40" cell 4
    head = _row(1, 100, 110, [("", 50, 55), ("Symbol", 55, 110), ("", 110, 115), ("Parameter", 115, 250), ("", 250, 255),
                              ("Min.", 255, 300), ("", 300, 305), ("Max.", 305, 350), ("", 350, 355), ("Unit", 355, 400)], header=True)
    body = _row(1, 110, 120, [("TA", 50, 105), ("", 105, 110), ("Ambient temperature", 110, 245), ("", 245, 250),
                              ("-40", 250, 295), ("", 295, 300), ("85", 300, 345), ("", 345, 350), ("℃", 350, 395), ("", 395, 400)])
    vals = extract_specs(CARD, [_chunk([head, body])], None)
    assert [(v.parameter, v.min, v.max, v.unit) for v in vals] == [("operating_temperature", -40.0, 85.0, "°C")]


def test_columns_named_by_a_parameter() -> None:
    head = _row(1, 100, 110, [("RANGE", 50, 150), ("TEMP. RANGE (°C)", 150, 250), ("VCC", 250, 350)], header=True)
    rows = [_row(1, 110, 120, [("Commercial", 50, 150), ("0 to +70", 150, 250), ("3V 10%", 250, 350)]),
            _row(1, 120, 130, [("Industrial", 50, 150), ("-40 to +85", 150, 250), ("3V 10%", 250, 350)])]
    vals = extract_specs(CARD, [_chunk([head, *rows])], None)
    assert [(v.parameter, v.min, v.typ, v.max, v.conditions) for v in vals] == [
        ("operating_temperature", 0.0, None, 70.0, "Commercial"),
        ("supply_voltage", None, 3.0, None, "Commercial"),  # the column named by a symbol alone (specs-8)
        ("operating_temperature", -40.0, None, 85.0, "Industrial"),
        ("supply_voltage", None, 3.0, None, "Industrial"),
    ]


def test_names_units_and_strict_query_reading() -> None:
    assert match_parameter("Output voltage", "VOH", unit="V") == ("output_voltage_high", True)
    assert match_parameter("Ambient temperature during storage", "", unit="°C") == ("storage_temperature", True)
    assert match_parameter("IDD Current", "", unit="A") == ("supply_current", True)
    assert match_parameter("Data Setup Time", "TSU", unit="s")[0] != "startup_time"
    assert parse_unit("mV/oC") == ("V/°C", 0.001) and parse_unit("psP-P") == ("s", 1e-12)
    assert match_parameter("Temperature Range (Storage)", "", unit="°C") == ("storage_temperature", True)
    assert match_parameter("Input Load Current", "", unit="A")[1] is False  # not an output current
    # two values in one cell are not a range; "45/55 %" and "-40 to +85" are
    assert parse_value("3.5V/6.5 V") is None and parse_value("-15.0 -15.3", "V") is None
    assert (parse_value("45/55 %").min, parse_value("45/55 %").max) == (45.0, 55.0)
    strict = {q: [(c.parameter, c.op, c.value) for c in parse_query(q, strict=True)[0]] for q in (
        "stability ±10 ppm TCXO", "ECX-1612MV turnover temperature", "TMP36 output voltage at 25C",
        "phase noise at 1 kHz offset", "frequency stability 7M cmos oscillator", "ESR below 50k crystal")}
    assert strict == {
        "stability ±10 ppm TCXO": [("frequency_stability", "=", 10.0)],
        "ECX-1612MV turnover temperature": [],
        "TMP36 output voltage at 25C": [],
        "phase noise at 1 kHz offset": [],
        "frequency stability 7M cmos oscillator": [],
        "ESR below 50k crystal": [("esr", "<=", 50000.0)],
    }
    # the parametric search's reading keeps bare values ("12.5 pF")
    assert [c.parameter for c in parse_query("32.768 kHz crystal, 12.5 pF")[0]] == ["frequency", "load_capacitance"]


class _Index:
    def __init__(self, chunks: list[Chunk]) -> None:
        self.chunks = chunks


def _stability_table(cid: str, value: str) -> Chunk:
    head = _row(1, 100, 110, [("Parameter", 50, 200), ("Value", 200, 300), ("Unit", 300, 350)], header=True)
    body = _row(1, 110, 120, [("Frequency stability", 50, 200), (value, 200, 300), ("ppm", 300, 350)])
    return Chunk(chunk_id=cid, doc_id=cid, page=1, block_type="table", rows=[head, body])


def test_search_ranks_the_chunk_meeting_the_constraint_first() -> None:
    idx = _Index([_stability_table("a", "±25"), _stability_table("b", "±10"), _stability_table("c", "±50")])
    assert [c.parameter for c in query_constraints("stability ±10 ppm TCXO")] == ["frequency_stability"]
    assert chunk_specs(idx.chunks[1])[0].max == 10.0
    ranked = [(0, 0.9), (2, 0.8), (1, 0.75)]
    # it gains weight x the leading scores' spread (0.15): past the chunk that only shares the words
    assert [i for i, _ in boost_constraints(idx, "stability ±10 ppm TCXO", ranked, 0.5)] == [0, 1, 2]
    assert [i for i, _ in boost_constraints(idx, "stability ±10 ppm TCXO", ranked, 2.0)] == [1, 0, 2]
    assert boost_constraints(idx, "stability ±10 ppm TCXO", ranked, 0.0) == ranked  # off
    assert boost_constraints(idx, "frequency stability of the TCXO", ranked, 0.5) == ranked  # no constraint
    assert boost_constraints(idx, "stability ±5 ppm", ranked, 0.5) == ranked  # nobody meets it


def test_a_name_left_of_an_empty_parameter_cell_is_the_rows_own() -> None:
    # the header names column 1 "Parameter"; the grid put "IQ Quiescent current" in the unlabelled column 0
    head = _row(1, 100, 110, [("", 50, 100), ("PARAMETER", 100, 200), ("MIN", 200, 250), ("TYP", 250, 300), ("MAX", 300, 350), ("UNIT", 350, 400)], header=True)
    a = _row(1, 110, 120, [("ILOAD", 50, 100), ("Load current", 100, 200), ("0", 200, 250), ("", 250, 300), ("250", 300, 350), ("mA", 350, 400)])
    b = _row(1, 120, 130, [("IQ Quiescent current", 50, 100), ("", 100, 200), ("", 200, 250), ("12", 250, 300), ("25", 300, 350), ("µA", 350, 400)])
    vals = extract_specs(CARD, [_chunk([head, a, b])], None)
    assert [(v.parameter, v.typ, v.max) for v in vals] == [("output_current", None, 0.25), ("quiescent_current", 1.2e-05, 2.5e-05)]
