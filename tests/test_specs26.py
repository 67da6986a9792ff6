"""specs-26, on pages and chunks made here. dash-leaders: a run of six or more hyphens is a ratings list's
leader as dots are ("Supply Input Voltage -------- -0.3V to 6.0V"), the value's minus sign kept.
figure-leaders: a dot- or dash-leader list the layout model took for (a part of) a figure is read
as the same list printed as text, its own heading lines saying, line by line, which values are
ratings and which operating conditions. title-parts: a heading inside the grid or a table's caption
naming one part of the document ("VCXO Specifications (Si5351B only)", "x05B PERFORMANCE
CHARACTERISTICS") gives the rows under it that part. name-codes: a row name printing one code of a document
part the card lists under a longer or shorter number ("Operating Temperature: LM158" of LM158-N) is that
part's. stacked-heads: a part-number table whose header is printed on several lines is read as one header,
a Min / Typ / Max group under one name one value per part; and the IEC 61643 protection-device vocabulary.
category-names: a value named only by a quantity's category ("Temperature") takes the parameter a word of
its item makes with it ("Junction range, TJ" -> junction temperature)."""

from __future__ import annotations

import re

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import grid_chunk, printed_words
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, Chunk, DocumentCard, Region, TableRow, Word

CARD = DocumentCard(doc_id="d", file_name="buck.pdf", series=["XY8089"], part_numbers=["XY8089"])
DASH = "-" * 40

# a pinout drawing above the ratings, all of it one figure to the layout model
PAGE = [
    (60, 90, "Pinout (top view)"),
    (60, 104, "EN 1 5 FB"),
    (60, 140, "Absolute Maximum Ratings (Note 1)"),
    (62, 154, f"Supply Voltage {DASH}  -0.3V to 6.0V"),
    (62, 166, f"Junction Temperature Range {DASH}  -40°C to 150°C"),
    (62, 178, f"Storage Temperature Range {DASH}  -65°C to 150°C"),
    (62, 190, f"Lead Temperature (Soldering, 10 sec.) {DASH}  260°C"),
    (60, 204, "Recommended Operating Conditions (Note 3)"),
    (62, 218, f"Junction Temperature Range {DASH}  -40°C to 125°C"),
    (62, 230, f"Ambient Temperature Range {DASH}  -40°C to 85°C"),
]


Line = tuple[float, float, str]


def _words(page: list[Line] = PAGE) -> list[Word]:
    return printed_words(page)


def _figure(page: list[Line] = PAGE) -> Chunk:
    text = "\n".join(t for _, _, t in page)
    return Chunk(chunk_id="d_p1_b00", doc_id="d", page=1, block_type="figure", rows=[], native_text=text,
                 regions=[Region(page=1, bbox_pdf=Box(50, 70, 560, 240), label="figure")])


def _read(page: list[Line] = PAGE) -> set[tuple[str, float | None, float | None, str]]:
    words = _words(page)
    return {(v.parameter, v.min, v.max, v.table) for v in extract_specs(CARD, [_figure(page)], lambda p: words)}


def test_a_dash_leader_list_in_a_figure_is_read_with_its_headings() -> None:
    assert _read() == {
        ("supply_voltage", -0.3, 6.0, "ratings"),  # the minus after the leader's space is the value's
        ("junction_temperature", -40.0, 150.0, "ratings"),
        ("storage_temperature", -65.0, 150.0, "ratings"),
        ("soldering_temperature", None, 260.0, "ratings"),  # a lone number under a ratings heading: a limit
        ("junction_temperature", -40.0, 125.0, "characteristics"),  # under the conditions heading
        ("operating_temperature", -40.0, 85.0, "characteristics"),
    }


def test_the_value_cell_box_lies_right_of_the_leader() -> None:
    words = _words()
    got = extract_specs(CARD, [_figure()], lambda p: words)
    assert len(got) == 6
    dashes = [w for w in words if set(w.text) == {"-"} and len(w.text) >= 6]
    for v in got:
        box = v.cells[0].bbox_pdf
        leader = next(w for w in dashes if abs(w.bbox_pdf.y0 - box.y0) < 2)
        assert box.x0 >= leader.bbox_pdf.x1 - 0.5
        assert any(w.bbox_pdf.x0 >= box.x0 - 0.5 and w.bbox_pdf.x1 <= box.x1 + 0.5 for w in words if w.text.endswith("C") or w.text.endswith("V"))


def test_a_dash_run_against_a_number_gives_it_no_sign() -> None:
    t = f"Thermal Resistance {DASH}130°C/W"
    leaders = list(stage._LEADER_RE.finditer(t))
    assert t[leaders[-1].end():] == "130°C/W"
    assert not stage._LEADER_RE.search("Input Voltage -0.3 - 6 V")  # a minus and a dash are not a leader


def test_figure_leaders_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "FIGURE_LEADERS", False)
    monkeypatch.setattr(stage, "NAMED_TEMPERATURES", False)  # specs-44 reads the two ranges from their lines on its own
    assert _read() == set()


def test_dash_leaders_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "_LEADER_RE", re.compile(stage._DOT_LEADER))
    monkeypatch.setattr(stage, "_LEADER_LINE_RE", re.compile(r"(?:" + stage._DOT_LEADER + r")[^\n]*\d"))
    monkeypatch.setattr(stage, "NAMED_TEMPERATURES", False)  # specs-44 reads the two ranges from their lines on its own
    assert _read() == set()


def test_dots_in_a_figure_are_read_too() -> None:
    dotted = [(x, y, t.replace(DASH, "." * 40)) for x, y, t in PAGE]
    assert ("storage_temperature", -65.0, 150.0, "ratings") in _read(dotted)


# --------------------------------------------------------------------------- title parts
CLOCKS = DocumentCard(doc_id="d", file_name="clock.pdf", series=["Si5351A", "Si5351B", "Si5351C"],
                      part_numbers=["Si5351A-B-GT", "Si5351B-B-GM"])
COLS = [(30, 150), (150, 190), (190, 300), (300, 340), (340, 380), (380, 420), (420, 460)]
HEAD = ["Parameter", "Symbol", "Test Condition", "Min", "Typ", "Max", "Unit"]
SPECS = [
    HEAD,
    ["Output Enable Time", "TOE", "", "", "", "10", "µs"],
    ["VCXO Specifications (Si5351B only)", "", "", "", "", "", ""],  # a heading inside the grid
    ["VCXO Control Voltage Range", "Vc", "VDD = 3.3 V", "0", "", "3.3", "V"],
    ["VCXO Modulation Bandwidth", "", "", "", "10", "", "kHz"],
    ["Input Clock", "", "", "", "", "", ""],  # the next heading names no part: the document's again
    ["CLKIN Frequency Range", "fCLKIN", "", "10", "", "100", "MHz"],
]


def _clock_parts() -> dict[str, str]:
    chunk = grid_chunk(SPECS, COLS, title="Electrical Specifications")
    rows = [  # a heading's one cell merged over every column
        r.model_copy(update={"cell_boxes": [Box(COLS[0][0], r.bbox_pdf.y0, COLS[-1][1], r.bbox_pdf.y1)] * len(COLS)})
        if sum(1 for t in r.cells if t) == 1 else r
        for r in chunk.rows
    ]
    chunk = chunk.model_copy(update={"rows": rows})
    return {v.parameter_printed: v.part for v in extract_specs(CLOCKS, [chunk])}


def test_a_heading_in_the_grid_naming_a_part_gives_the_rows_under_it_that_part() -> None:
    got = _clock_parts()
    assert got["VCXO Control Voltage Range"] == got["VCXO Modulation Bandwidth"] == "Si5351B"
    # the document's part above the first heading and under one naming none
    assert got["Output Enable Time"] == got["CLKIN Frequency Range"] == "Si5351A-B-GT"


SENSORS = DocumentCard(doc_id="d", file_name="acs.pdf", series=["ACS712"],
                       part_numbers=["ACS712", "ACS712ELCTR-05B-T", "ACS712ELCTR-20A-T"])
SENS = [
    ["Characteristic", "Symbol", "Test Conditions", "Min.", "Typ.", "Max.", "Units"],
    ["Sensitivity", "Sens", "TA = 25°C", "180", "185", "190", "mV/A"],
]


def _sensor_part(caption: str, above: str = "") -> set[str]:
    chunk = grid_chunk(SENS, COLS, title="ACS712")
    chunk = chunk.model_copy(update={"native_text": caption, "bboxes_pdf": [chunk.regions[0].bbox_pdf]})
    chunks = [chunk]
    if above:
        prev = Chunk(chunk_id="d_p1_b00", doc_id="d", page=1, block_type="text", native_text=above,
                     bboxes_pdf=[Box(30, 70, 460, 95)], regions=[Region(page=1, bbox_pdf=Box(30, 70, 460, 95), label="text")])
        chunks = [prev, chunk]
    return {v.part for v in extract_specs(SENSORS, chunks)}


def test_a_caption_naming_a_variant_by_its_wildcard_code_gives_the_table_that_part() -> None:
    assert _sensor_part("x05B PERFORMANCE CHARACTERISTICS TA = 25°C\nCharacteristic Symbol") == {"ACS712ELCTR-05B-T"}
    # the caption printed as the last line of the text block right above the table
    assert _sensor_part("Characteristic Symbol", "2 Output filtered.\nx20A PERFORMANCE CHARACTERISTICS") == {"ACS712ELCTR-20A-T"}


def test_a_caption_naming_no_one_part_changes_nothing() -> None:
    assert _sensor_part("COMMON OPERATING CHARACTERISTICS\nCharacteristic") == {"ACS712"}
    assert _sensor_part("x9Z9 PERFORMANCE CHARACTERISTICS") == {"ACS712"}  # a code no part number holds
    assert _sensor_part("x05B and x20A PERFORMANCE CHARACTERISTICS") == {"ACS712"}  # two codes


def test_title_parts_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "TITLE_PARTS", False)
    assert set(_clock_parts().values()) == {"Si5351A-B-GT"}
    assert _sensor_part("x05B PERFORMANCE CHARACTERISTICS") == {"ACS712"}


def test_a_line_the_figure_and_a_table_chunk_cut_from_it_both_hold_is_read_once() -> None:
    """The layout model gave the ratings list to a figure and again, without its heading, to a table
    chunk: the figure's reading (a rating: max) is kept, not the table's second one (typ)."""
    words = _words()
    fig = _figure()
    lines = [r for r in stage._line_rows(fig, lambda p: words) if "Storage" in r.text or "Lead" in r.text]
    table = Chunk(chunk_id="d_p1_b02", doc_id="d", page=1, block_type="table", rows=lines, native_text="\n".join(r.text for r in lines),
                  regions=[Region(page=1, bbox_pdf=Box(50, 165, 560, 195), label="table")])
    alone = [(v.typ, v.max, v.table) for v in extract_specs(CARD, [table], lambda p: words) if v.parameter == "soldering_temperature"]
    assert alone == [(260.0, None, "characteristics")]  # no ratings heading in the table chunk
    got = [(v.typ, v.max, v.table) for v in extract_specs(CARD, [fig, table], lambda p: words) if v.parameter == "soldering_temperature"]
    assert got == [(None, 260.0, "ratings")]


# --------------------------------------------------------------------------- name codes
AMPS = DocumentCard(doc_id="d", file_name="lm358.pdf", series=["LM358A", "LM158A"],
                    part_numbers=["LM158-N", "LM258-N", "LM358-N", "LM2904-N", "LM358AM"])
ROC = [
    ["", "MIN", "MAX", "UNIT"],
    ["Supply Voltage (V+ - V-): LM158. LM258, LM358", "3", "32", "V"],  # three devices: the document's part
    ["Supply Voltage (V+ - V-):LM2904", "3", "26", "V"],
    ["Operating Temperature: LM158", "-55", "125", "°C"],
    ["Operating Temperature: LM358", "0", "70", "°C"],
    ["Operating Temperature, TMIN to TMAX", "-40", "85", "°C"],  # no code: the document's part
]
ROC_COLS = [(30, 230), (230, 280), (280, 330), (330, 370)]


def _roc_parts() -> list[tuple[str, str]]:
    return [(v.value_text, v.part) for v in extract_specs(AMPS, [grid_chunk(ROC, ROC_COLS, title="Recommended Operating Conditions")])]


def test_a_row_name_printing_one_devices_code_is_that_devices() -> None:
    got = _roc_parts()
    default = got[-1][1]  # the row printing no code: the document's part
    assert default not in ("LM158", "LM358", "LM2904")
    assert got == [("3 / 32", default), ("3 / 26", "LM2904"), ("-55 / 125", "LM158"), ("0 / 70", "LM358"), ("-40 / 85", default)]


def test_name_codes_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "NAME_CODES", False)
    assert len({p for _, p in _roc_parts()}) == 1


# --------------------------------------------------------------------------- stacked heads
VARISTORS = DocumentCard(doc_id="d", file_name="mov.pdf", series=["05D"], part_numbers=[])
MOV_COLS = [(30, 94), (94, 135), (135, 168), (168, 197), (197, 232), (232, 265), (265, 320)]


def _mov_row(cells: list[str], y: float, spans: dict[int, tuple[float, float]] | None = None, header: bool = False) -> TableRow:
    """A row on MOV_COLS; `spans`: a cell merged over several columns gives each its box."""
    boxes = [Box(*(spans or {}).get(i, MOV_COLS[i])[:1], y, (spans or {}).get(i, MOV_COLS[i])[1], y + 12) for i in range(len(cells))]
    return TableRow(page=1, bbox_pdf=Box(30, y, 320, y + 12), cells=cells, text=" | ".join(cells), is_header=header, cell_boxes=boxes)


def _mov_chunk() -> Chunk:
    merged = {1: (94, 168), 2: (94, 168), 3: (168, 265), 4: (168, 265), 5: (168, 265)}
    rows = [
        _mov_row(["Part No.", "Maximum Allowable Voltage", "", "Varistor Voltage (@1mA)", "", "", "Typical Capacitance (@1KHz)"],
                 100, merged, header=True),
        _mov_row(["Device Marking", "", "", "", "", "", ""], 112),  # the part cell's second line
        _mov_row(["", "ACrms(V)", "DC(V)", "Min.", "Vb(Vdc)", "Max.", "(pF)"], 124),
        _mov_row(["05D180K", "11", "14", "14.4", "18", "21.6", "1600"], 136),
        _mov_row(["05D220K", "14", "18", "18.7", "22", "26.0", "1500"], 148),
    ]
    return Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="table", rows=rows, native_text="",
                 regions=[Region(page=1, bbox_pdf=Box(30, 100, 320, 160), label="table")])


def _mov() -> set[tuple[str, str, float | None, float | None, float | None]]:
    return {(v.part, v.parameter, v.min, v.typ, v.max) for v in extract_specs(VARISTORS, [_mov_chunk()])}


def test_a_part_number_table_with_a_header_on_three_lines_is_read_per_part() -> None:
    got = _mov()
    assert ("05D180K", "continuous_voltage", None, None, 11.0) in got  # "Maximum Allowable Voltage" over "ACrms(V)"
    assert ("05D180K", "continuous_voltage", None, None, 14.0) in got  # ... and over "DC(V)"
    assert ("05D180K", "varistor_voltage", 14.4, 18.0, 21.6) in got  # Min. | Vb | Max. under one name: one value
    assert ("05D220K", "varistor_voltage", 18.7, 22.0, 26.0) in got
    caps = [typ for p, pid, _, typ, _ in got if p == "05D180K" and pid == "capacitance"]
    assert caps == [pytest.approx(1.6e-09)]  # "Typical Capacitance (@1KHz)" over "(pF)"
    assert {p for p, *_ in got} == {"05D180K", "05D220K"}


def test_stacked_heads_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "STACKED_HEADS", False)
    assert not any(pid in ("varistor_voltage", "capacitance") for _, pid, *_ in _mov())


def test_a_part_number_column_qualified_in_parentheses_is_still_the_part_column() -> None:
    assert stage._role_of("Part Number (Uni)")[0] == "part"
    assert stage._role_of("Part Number (Bi)")[0] == "part"
    assert stage._role_of("Value (Note 1)")[0] == "value"  # unchanged


def test_protection_device_vocabulary() -> None:
    from layoutrag.specs import match_parameter

    assert match_parameter("Reverse Stand off Voltage VR", unit="V") == ("standoff_voltage", True)
    assert match_parameter("Breakdown Voltage VBR @ IT", unit="V") == ("breakdown_voltage", True)
    assert match_parameter("Maximum Clamping Voltage VC @ Ipp", unit="V") == ("clamping_voltage", True)
    assert match_parameter("Maximum Peak Pulse Current Ipp", unit="A") == ("peak_pulse_current", True)
    assert match_parameter("Reverse current", unit="A") == ("reverse_leakage_current", True)
    # a MOSFET's body-diode current is no leakage: "reverse current" names the quantity only when alone
    assert match_parameter("Continuous drain reverse current", unit="A")[1] is False


# --------------------------------------------------------------------------- category names
RATINGS_HEAD = ["", "", "MIN", "MAX", "UNIT"]
RATINGS_COLS = [(30, 110), (110, 230), (230, 270), (270, 310), (310, 350)]


def _category(rows: list[list[str]]) -> list[tuple[str, str]]:
    chunk = grid_chunk([RATINGS_HEAD, *rows], RATINGS_COLS, title="Absolute Maximum Ratings")
    return [(v.parameter, v.value_text) for v in extract_specs(CARD, [chunk])]


def test_a_category_name_takes_the_parameter_its_item_makes_with_it() -> None:
    got = _category([
        ["Temperature", "Junction range, TJ", "-55", "150", "°C"],
        ["Temperature", "PDIP Package (P): Soldering (10 seconds)", "", "260", "°C"],
        ["Temperature", "Infrared (15 seconds)", "", "220", "°C"],  # no word of the item makes a parameter
    ])
    assert got == [("junction_temperature", "-55 / 150"), ("soldering_temperature", "260"), ("temperature", "220")]


def test_category_names_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "CATEGORY_NAMES", False)
    got = _category([["Temperature", "Junction range, TJ", "-55", "150", "°C"]])
    assert got == [("temperature", "-55 / 150")]
