"""The spec stage's confidence gate (specs-4) and the general reading fixes that came with it, on
hand-built table rows the way ``find_tables`` and the text layer give them: a doubted value is
stored apart (``DocSpecs.withheld``, with its reason) and answers no parametric query; one-row
tables are read line by line; a "min." column says which limit a lone Value is; a condition row
continues the parameter above; "deviation", "drift", "offset" name another quantity."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from layoutrag.chunking.specs import (
    SPEC_STAGE_VERSION,
    chunk_specs,
    extract_specs,
    load_doc_specs,
    specs_and_save,
)
from layoutrag.parametric import find_parts, load_spec_store
from layoutrag.records import Box, Chunk, DocChunks, Document, DocumentCard, SpecValue, TableRow, Word
from layoutrag.service import LayoutRAG
from layoutrag.specs import match_parameter, parse_constraint
from layoutrag.storage import DataDir, atomic_write_json

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])


def _row(y0: float, y1: float, cells: list[tuple[str, float, float]], header: bool = False) -> TableRow:
    return TableRow(
        page=1,
        bbox_pdf=Box(cells[0][1], y0, cells[-1][2], y1),
        cells=[t for t, _, _ in cells],
        text=" ".join(t for t, _, _ in cells if t),
        is_header=header,
        cell_boxes=[Box(x0, y0, x1, y1) for _, x0, x1 in cells],
    )


def _chunk(rows: list[TableRow]) -> Chunk:
    return Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="table", rows=rows)


HEAD = _row(100, 110, [("Parameter", 50, 200), ("Min", 200, 250), ("Typ", 250, 300), ("Max", 300, 350), ("Unit", 350, 400)], True)


def _body(y: float, name: str, mn: str, typ: str, mx: str, unit: str) -> TableRow:
    return _row(y, y + 10, [(name, 50, 200), (mn, 200, 250), (typ, 250, 300), (mx, 300, 350), (unit, 350, 400)])


def _read(rows: list[TableRow], words: list[Word] | None = None) -> tuple[list[SpecValue], list[SpecValue]]:
    held: list[SpecValue] = []
    kept = extract_specs(CARD, [_chunk(rows)], (lambda p: words) if words is not None else None, held)
    return kept, held


# --------------------------------------------------------------------------- the gate
def test_the_gate_withholds_doubtful_readings_with_their_reason() -> None:
    rows = [
        HEAD,
        _body(110, "Supply voltage", "1.8", "3.3", "5.5", "V"),  # fine
        _body(120, "Output current", "20", "10", "5", "mA"),  # min > typ > max
        _body(130, "Gate threshold voltage", "-0.5", "-0.9", "-1.3", "V"),  # P-channel magnitudes: fine
        _body(140, "Supply current", "3", "", "8", "MHz"),  # a current in MHz
        _body(150, "Leakage current", "", "1", "", "V"),  # an unknown "... current" in V
        _body(160, "Bias voltage", "", "1.8 V 3.3 V", "", ""),  # two numbers, not a range
        _body(170, "Input voltage", "", "5 V (LM2904-N)", "", ""),  # a part number in the value cell
        _body(180, "(note 2)", "", "", "10", "mA"),  # a footnote for a name
        _body(190, "Lead temperature", "", "", "260", "°C"),  # fine
    ]
    kept, held = _read(rows)
    assert [(v.parameter, v.min, v.typ, v.max) for v in kept] == [
        ("supply_voltage", 1.8, 3.3, 5.5),
        ("vgs_th", -0.5, -0.9, -1.3),
        ("soldering_temperature", None, None, 260.0),
    ]
    assert [(v.parameter_printed, v.doubt) for v in held] == [
        ("Output current", "order"),
        ("Supply current", "unit"),
        ("Leakage current", "unit"),
        ("Bias voltage", "numbers"),
        ("Input voltage", "code"),
        ("(note 2)", "name"),
    ]
    # without a list to put them in, doubted values are dropped, never mixed with the kept ones
    assert extract_specs(CARD, [_chunk(rows)], None) == kept
    # the search hook reads a chunk through the same gate
    assert {v.parameter_printed for v in chunk_specs(_chunk(rows))} == {v.parameter_printed for v in kept}


def test_ratios_under_a_quantitys_name_and_parenthesised_symbols_are_not_doubted() -> None:
    rows = [
        HEAD,
        _body(110, "Image frequency", "", "-29", "", "dB"),  # a rejection in dB, not a frequency
        _body(120, "(ΔVOUT)ΔVIN Line regulation", "", "2", "", "mV"),  # a symbol in parentheses, then the name
        _body(130, "all GPIOs are high-impedance", "", "130", "", "µA"),  # "high-impedance" is no head noun
        _body(140, "(peak-to-peak)", "", "80", "", "µA"),  # nothing but a parenthesis: no name
        _body(150, "-", "3.0", "3.3", "3.6", "V"),  # a dash: no name
    ]
    kept, held = _read(rows)
    assert [(v.parameter_printed, v.typ) for v in kept] == [
        ("Image frequency", -29.0),
        ("(ΔVOUT)ΔVIN Line regulation", 0.002),
        ("all GPIOs are high-impedance", 0.00013),
    ]
    assert [(v.parameter_printed, v.doubt) for v in held] == [("(peak-to-peak)", "name"), ("-", "name")]


def test_a_parameter_cell_stating_a_condition_is_no_name() -> None:
    # specs-7: an "=" with no word before it is a condition (a subscript the text layer split off
    # its letter, "V S"; two symbols set equal; an angle), not the name of the row's quantity
    rows = [
        HEAD,
        _body(110, "V S=+30V, +25 °C", "", "56", "82", "µA"),
        _body(120, "V DRM =V RRM", "", "", "5", "µA"),
        _body(130, "Φ=25°", "", "4.0", "", "V"),
        _body(140, "Ripple Rejection (Vin-Vout = 6.4 V)", "", "68", "", "dB"),  # a name, then its condition
        _body(150, "工作电流(FE=1)", "", "200", "", "nA"),  # a Chinese name before the "="
    ]
    kept, held = _read(rows)
    assert [v.parameter_printed for v in kept] == ["Ripple Rejection (Vin-Vout = 6.4 V)", "工作电流(FE=1)"]
    assert [(v.parameter_printed, v.doubt) for v in held] == [
        ("V S=+30V, +25 °C", "name"),
        ("V DRM =V RRM", "name"),
        ("Φ=25°", "name"),
    ]


def test_letter_spaced_headers_infinite_limits_and_parameter_rows_under_a_named_group() -> None:
    # "I T E M" is the Item header: the row's name is in its column, not in the Condition column
    head = _row(100, 110, [("I T E M", 50, 150), ("CONDITION", 150, 220), ("MIN.", 220, 260), ("MAX.", 260, 300)], True)
    body = _row(110, 120, [("AMBIENT TEMPERATURE", 50, 150), ("WIDE", 150, 220), ("-20°C", 220, 260), ("70°C", 260, 300)])
    kept, _ = _read([head, body])
    assert [(v.parameter, v.conditions, v.min, v.max) for v in kept] == [("operating_temperature", "WIDE", -20.0, 70.0)]
    # "6 pF to ∞" (∞ in a symbol font) is a lower limit, not a typical 6 pF
    head = _row(100, 110, [("Item", 50, 150), ("Symbol", 150, 200), ("Specifications", 200, 300)], True)
    body = _row(110, 120, [("Load capacitance", 50, 150), ("CL", 150, 200), ("6 pF to \uf0a5", 200, 300)])
    kept, _ = _read([head, body])
    assert [(v.parameter, v.min, v.typ, v.max) for v in kept] == [("load_capacitance", 6e-12, None, None)]
    # a column headed by a parameter ("SUPPLY VOLTAGE") over a table whose rows are parameters
    # ("PARAMETER" header): the rows' values are not that parameter's
    head = _row(100, 110, [("PARAMETER", 50, 150), ("SUPPLY VOLTAGE", 150, 300), ("REMARKS", 300, 400)], True)
    body = _row(110, 120, [("Output voltage level", 50, 150), ("0.8Vp-p", 150, 300), ("Minimum", 300, 400)])
    kept, held = _read([head, body])
    assert not [v for v in kept + held if v.parameter == "supply_voltage"]


def test_withheld_values_are_stored_apart_and_answer_no_query(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "data")
    rows = [HEAD, _body(110, "Supply current", "", "2", "3", "mA"), _body(120, "Output current", "20", "10", "5", "mA")]
    data.doc_dir("d").mkdir(parents=True)
    doc = Document(doc_id="d", source_pdf="part.pdf", file_name="part.pdf", sha256="0" * 64, n_pages=1,
                   layout_backend="pymupdf", dpi=72, stage_version="test")
    atomic_write_json(data.document_json("d"), doc)
    atomic_write_json(data.chunks_json("d"), DocChunks(key="k1", card=CARD, chunks=[_chunk(rows)]))
    assert specs_and_save(data, "d") == 1
    ds = load_doc_specs(data, "d")
    assert ds.key.endswith(f"+{SPEC_STAGE_VERSION}+" + ds.key.rsplit("+", 1)[1]) and SPEC_STAGE_VERSION == "specs-47"
    assert [(v.parameter, v.typ, v.max) for v in ds.specs] == [("supply_current", 0.002, 0.003)]
    assert [(v.parameter, v.doubt, v.min, v.max) for v in ds.withheld] == [("output_current", "order", 0.02, 0.005)]
    store = load_spec_store(data)
    res = find_parts(store, [parse_constraint("output current >= 1 mA")])
    assert all(r.n_met == 0 for r in res.results)  # the withheld 20 mA min answers nothing
    res = find_parts(store, [parse_constraint("supply current <= 5 mA")])
    assert [r.n_met for r in res.results] == [1]
    # inspectable: the service and the CLI list them with their doubt
    assert [v.doubt for v in LayoutRAG(data.root).withheld_specs("d")] == ["order"]
    r = subprocess.run(
        [sys.executable, "-m", "layoutrag.cli", "specs", "part.pdf", "--withheld", "--json", "--data", str(data.root)],
        capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert [(v["parameter"], v["doubt"]) for v in json.loads(r.stdout)] == [("output_current", "order")]
    # a stored file of the old stage version is read again (the key names the version)
    old = ds.model_copy(update={"key": "k1+specs-3+x", "specs": [], "withheld": []})
    atomic_write_json(data.doc_dir("d") / "specs.json", old)
    assert specs_and_save(data, "d") == 1 and load_doc_specs(data, "d").withheld


# --------------------------------------------------------------------------- the reading fixes
def _words(rows: list[TableRow], lines: dict[int, list[list[str]]]) -> list[Word]:
    """Words of cells holding several printed lines: lines[col] = the tokens of each line."""
    out: list[Word] = []
    for r in rows:
        for i, (t, b) in enumerate(zip(r.cells, r.cell_boxes, strict=True)):
            if i in lines and r is rows[-1]:
                for k, toks in enumerate(lines[i]):
                    w = (b.x1 - b.x0) / max(len(toks), 1)
                    y = b.y0 + 2 + 10 * k
                    out += [Word(text=tok, bbox_pdf=Box(b.x0 + j * w + 1, y, b.x0 + (j + 1) * w - 1, y + 6)) for j, tok in enumerate(toks)]
                continue
            toks = t.split()
            w = (b.x1 - b.x0) / max(len(toks), 1)
            out += [Word(text=tok, bbox_pdf=Box(b.x0 + j * w + 1, b.y0 + 2, b.x0 + (j + 1) * w - 1, b.y1 - 2)) for j, tok in enumerate(toks)]
    return out


def test_a_ratings_table_printed_as_one_grid_row_is_read_per_line() -> None:
    head = _row(100, 110, [("Parameter", 50, 200), ("Symbol", 200, 250), ("Max", 250, 300), ("Unit", 300, 350)], True)
    names = [["Supply", "voltage"], ["Input", "current"], ["Storage", "temperature"]]
    syms, maxes, units = [["VCC"], ["IIN"], ["TSTG"]], [["7"], ["20"], ["150"]], [["V"], ["mA"], ["°C"]]
    body = _row(110, 140, [(" ".join(sum(names, [])), 50, 200), ("VCC IIN TSTG", 200, 250), ("7 20 150", 250, 300), ("V mA °C", 300, 350)])
    kept, held = _read([head, body], _words([head, body], {0: names, 1: syms, 2: maxes, 3: units}))
    assert [(v.parameter_printed, v.symbol, v.max, v.unit) for v in kept] == [
        ("Supply voltage", "VCC", 7.0, "V"),
        ("Input current", "IIN", 0.02, "A"),
        ("Storage temperature", "TSTG", 150.0, "°C"),
    ]
    assert not held
    # one name over several value lines (one per condition) still holds for every line
    one = _row(110, 140, [("Supply current", 50, 200), ("ICC", 200, 250), ("1 2 4", 250, 300), ("mA", 300, 350)])
    kept, _ = _read([head, one], _words([head, one], {0: [["Supply", "current"]], 1: [["ICC"]], 2: [["1"], ["2"], ["4"]], 3: [["mA"]]}))
    assert [(v.parameter, v.max) for v in kept] == [("supply_current", 0.001), ("supply_current", 0.002), ("supply_current", 0.004)]
    # a name wrapped over the two value lines ("Zero gate voltage / drain current") is one name
    two = _row(110, 130, [("Zero gate voltage drain current", 50, 200), ("IDSS", 200, 250), ("1 10", 250, 300), ("µA", 300, 350)])
    words = _words([head, two], {0: [["Zero", "gate", "voltage"], ["drain", "current"]], 1: [["IDSS"]], 2: [["1"], ["10"]], 3: [["µA"]]})
    kept, _ = _read([head, two], words)
    assert [(v.parameter_printed, v.max) for v in kept] == [("Zero gate voltage drain current", 1e-06), ("Zero gate voltage drain current", 1e-05)]


def test_a_min_or_max_column_says_which_limit_a_lone_value_is() -> None:
    head = _row(100, 110, [("Properties", 50, 150), ("", 150, 180), ("Test conditions", 180, 260), ("Value", 260, 300),
                           ("Unit", 300, 330), ("Tol.", 330, 360)], True)
    rows = [
        head,
        _row(110, 120, [("Inductance", 50, 150), ("L", 150, 180), ("100 kHz", 180, 260), ("72", 260, 300), ("µH", 300, 330), ("min.", 330, 360)]),
        _row(120, 130, [("DC resistance", 50, 150), ("RDC", 150, 180), ("20 °C", 180, 260), ("0.09", 260, 300), ("Ω", 300, 330), ("max.", 330, 360)]),
        _row(130, 140, [("Insulation voltage", 50, 150), ("VT", 150, 180), ("", 180, 260), ("2500", 260, 300), ("V", 300, 330), ("", 330, 360)]),
    ]
    kept, _ = _read(rows)
    assert [(v.parameter_printed, v.min, v.typ, v.max, [c.role for c in v.cells]) for v in kept] == [
        ("Inductance", 7.2e-05, None, None, ["min"]),
        ("DC resistance", None, None, 0.09, ["max"]),
        ("Insulation voltage", None, 2500.0, None, ["value"]),
    ]
    # the word after the unit in the Unit cell says it too
    one = _row(110, 120, [("Inductance", 50, 150), ("L", 150, 180), ("", 180, 260), ("72", 260, 300), ("µH min.", 300, 330), ("", 330, 360)])
    kept, _ = _read([head, one])
    assert [(v.min, v.unit) for v in kept] == [(7.2e-05, "H")]


def test_a_condition_row_continues_the_parameter_above() -> None:
    rows = [
        HEAD,
        _body(110, "Supply current", "", "1.2", "2", "mA"),
        _body(120, "VCC = 5 V", "", "2.5", "4", "mA"),
        _body(130, "at 25 °C", "", "3", "5", "mA"),
        _body(150, "Output current", "", "", "20", "mA"),  # a name again: its own parameter
    ]
    kept, held = _read(rows)
    assert [(v.parameter, v.conditions, v.max) for v in kept] == [
        ("supply_current", "", 0.002),
        ("supply_current", "VCC = 5 V", 0.004),
        ("supply_current", "at 25 °C", 0.005),
        ("output_current", "", 0.02),
    ]
    assert not held


def test_offset_drift_and_deviation_are_not_the_base_quantity() -> None:
    assert match_parameter("Output frequency", "", unit="Hz") == ("frequency", True)
    assert match_parameter("Frequency deviation", "", unit="Hz")[1] is False
    assert match_parameter("Output voltage", "", unit="V") == ("output_voltage", True)
    assert match_parameter("Output voltage drift", "", unit="V")[1] is False
    assert match_parameter("Supply voltage offset", "", unit="V")[1] is False
    # a vocabulary name that holds the word itself is still that parameter
    assert match_parameter("Input offset voltage", "", unit="V") == ("input_offset_voltage", True)
    assert match_parameter("Frequency stability", "", unit="ppm") == ("frequency_stability", True)


def test_min_typ_max_printed_in_one_grid_cell_are_split_by_the_header_words() -> None:
    # "MIN TYP† MAX" in one cell (no rules between the value columns), "2 10 30" under it
    head = _row(100, 110, [("PARAMETER", 50, 200), ("MIN TYP† MAX", 200, 350), ("UNIT", 350, 400)], True)
    rows = [
        head,
        _row(110, 120, [("Hysteresis", 50, 200), ("2 10 30", 200, 350), ("mV", 350, 400)]),
        _row(120, 130, [("High-level output voltage", 50, 200), ("2.7 3.4", 200, 350), ("V", 350, 400)]),
        _row(130, 140, [("Propagation delay time", 50, 200), ("6 12", 200, 350), ("ns", 350, 400)]),
    ]
    xs = {"MIN": 215, "TYP†": 265, "MAX": 315}
    words = [Word(text=t, bbox_pdf=Box(x, 101, x + 20, 109)) for t, x in xs.items()]
    for y, cells in ((111, (("2", 215), ("10", 265), ("30", 315))), (121, (("2.7", 215), ("3.4", 265))),
                     (131, (("6", 265), ("12", 315)))):
        words += [Word(text=t, bbox_pdf=Box(x, y, x + 12, y + 8)) for t, x in cells]
    words += _words_of([r for r in rows], skip_col=1)
    kept, held = _read(rows, words)
    assert [(v.parameter_printed, v.min, v.typ, v.max, [c.role for c in v.cells]) for v in kept] == [
        ("Hysteresis", 0.002, 0.01, 0.03, ["min", "typ", "max"]),
        ("High-level output voltage", 2.7, 3.4, None, ["min", "typ"]),
        ("Propagation delay time", None, 6e-09, 1.2e-08, ["typ", "max"]),
    ]
    assert kept[0].cells[1].bbox_pdf == Box(265, 111, 277, 119)  # the number's own box
    assert not held
    # a section printed as one grid row (more than three value lines in the merged cell) is left as it was
    multi = _row(110, 150, [("Offset voltage Bias current Gain Noise", 50, 200), ("0.5 2.5 4 35 1 2 3 4", 200, 350), ("mV pA", 350, 400)])
    words2 = [w for w in words if w.bbox_pdf.y0 < 110]
    words2 += [Word(text=t, bbox_pdf=Box(x, y, x + 12, y + 8)) for t, x, y in
               (("0.5", 265, 111), ("2.5", 315, 111), ("4", 265, 121), ("35", 315, 121),
                ("1", 265, 131), ("2", 315, 131), ("3", 265, 141), ("4", 315, 141))]
    kept, held = _read([head, multi], words2)
    assert kept == [] and held == []  # not split: the merged header names no value column, as before


def test_a_merged_role_header_over_rows_of_two_or_three_value_lines_is_split() -> None:
    # specs-7 (a crystal's scanned table): "Minimum | Typical Maximum" - the grid did not cut the last
    # two; one row prints its modes on two lines. Before, the whole table was left unsplit and
    # every maximum was lost.
    head = _row(100, 110, [("Parameters", 50, 200), ("Minimum", 200, 250), ("Typical Maximum", 250, 350), ("Units", 350, 400)], True)
    rows = [
        head,
        _row(110, 120, [("Operating Temperature", 50, 200), ("0", 200, 250), ("+70", 250, 350), ("°C", 350, 400)]),
        _row(120, 140, [("Operation mode", 50, 200), ("3.5 24", 200, 250), ("33.9 50", 250, 350), ("MHz", 350, 400)]),
    ]
    words = [Word(text="Typical", bbox_pdf=Box(260, 101, 290, 109)), Word(text="Maximum", bbox_pdf=Box(305, 101, 345, 109))]
    words += [Word(text=t, bbox_pdf=Box(x, y, x + 14, y + 8)) for t, x, y in
              (("+70", 318, 111), ("33.9", 318, 121), ("50", 318, 131))]
    words += [Word(text=t, bbox_pdf=Box(210, y, 224, y + 8)) for t, y in (("0", 111), ("3.5", 121), ("24", 131))]
    words += [Word(text=t, bbox_pdf=Box(x0, y, x0 + 40, y + 8)) for t, x0, y in
              (("Parameters", 55, 101), ("Minimum", 205, 101), ("Units", 355, 101), ("Operating", 55, 111),
               ("Temperature", 100, 111), ("°C", 355, 111), ("Operation", 55, 121), ("mode", 100, 121), ("MHz", 355, 121))]
    kept, _ = _read(rows, words)
    got = [(v.parameter_printed, v.min, v.max) for v in kept]
    assert ("Operating Temperature", 0.0, 70.0) in got
    assert ("Operation mode", 3.5e6, 33.9e6) in got and ("Operation mode", 24e6, 50e6) in got
    import layoutrag.chunking.specs as stage

    stage.FEW_LINES = stage.SECTION_ROWS = False
    try:  # the ablation: as before, the table is not split and the maxima are lost
        assert all(v.max is None for v in _read(rows, words)[0])
    finally:
        stage.FEW_LINES = stage.SECTION_ROWS = True


def _words_of(rows: list[TableRow], skip_col: int) -> list[Word]:
    """The text layer's words of every cell but one column (placed by the test itself)."""
    out: list[Word] = []
    for r in rows:
        for i, (t, b) in enumerate(zip(r.cells, r.cell_boxes, strict=True)):
            toks = t.split()
            if i == skip_col or not toks:
                continue
            w = (b.x1 - b.x0) / len(toks)
            out += [Word(text=tok, bbox_pdf=Box(b.x0 + j * w + 1, b.y0 + 2, b.x0 + (j + 1) * w - 1, b.y1 - 2)) for j, tok in enumerate(toks)]
    return out


def test_a_section_printed_as_one_grid_row_is_read_line_by_line() -> None:
    # specs-7 (Analog Devices' tables): "INPUT CHARACTERISTICS" and every parameter under it in one
    # grid row, "Min Typ Max" in one header cell, "Parameter1" with its footnote mark glued on
    head = _row(100, 110, [("Parameter1", 50, 200), ("Symbol", 200, 240), ("Min Typ Max", 240, 380), ("Unit", 380, 420)], True)
    body = _row(
        110,
        142,
        [
            ("INPUT CHARACTERISTICS Offset Voltage Input Bias Current", 50, 200),
            ("VOS IB", 200, 240),
            ("0.1 1.0 2 10", 240, 380),
            ("mV pA", 380, 420),
        ],
    )

    def w(t: str, x: float, y: float, width: float = 30) -> Word:
        return Word(text=t, bbox_pdf=Box(x, y, x + width, y + 8))

    words = [w("Parameter1", 55, 101), w("Symbol", 205, 101), w("Min", 255, 101, 20), w("Typ", 300, 101, 20),
             w("Max", 345, 101, 20), w("Unit", 385, 101)]
    words += [w("INPUT", 55, 111), w("CHARACTERISTICS", 90, 111, 80)]
    words += [w("Offset", 55, 121), w("Voltage", 90, 121), w("VOS", 205, 121), w("0.1", 300, 121, 15),
              w("1.0", 345, 121, 15), w("mV", 385, 121, 15)]
    words += [w("Input", 55, 131), w("Bias", 90, 131), w("Current", 125, 131), w("IB", 205, 131, 10),
              w("2", 300, 131, 8), w("10", 345, 131, 12), w("pA", 385, 131, 15)]
    kept, _ = _read([head, body], words)
    assert [(v.parameter, v.parameter_printed, v.symbol, v.typ, v.max) for v in kept] == [
        ("input_offset_voltage", "Offset Voltage", "VOS", 1e-4, 1e-3),
        ("input_bias_current", "Input Bias Current", "IB", 2e-12, 1e-11),
    ]
    import layoutrag.chunking.specs as stage

    stage.SECTION_ROWS = False
    try:  # the ablation: as before, the section is left unsplit and yields nothing
        assert _read([head, body], words)[0] == []
    finally:
        stage.SECTION_ROWS = True


def test_a_line_naming_only_variants_is_a_case_of_its_section_title() -> None:
    from layoutrag.chunking.specs import _variant_label

    assert _variant_label("TMP35/TMP36/TMP37 (F Grade)") and _variant_label("AD7767-1")
    assert not _variant_label("Scale Factor, TMP36") and not _variant_label("Offset Voltage (AD824A)")
    assert not _variant_label("Input Bias Current") and not _variant_label("")
