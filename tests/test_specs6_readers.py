"""The spec stage's specs-6 changes, each on a small PDF made here with PyMuPDF (its text layer gives
the words, with their block and line numbers): symbol-font characters, dot-leader lists printed side
by side in a table chunk, a list printed as text, a list above a table the grid read, the operating
conditions under their own heading in a ratings block, a line two chunks hold read once."""

from __future__ import annotations

import pymupdf

from chunk_factory import printed_words
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Box, Chunk, DocumentCard, Region, TableRow, Word
from layoutrag.specs import fold, match_parameter, parse_value

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])




def _chunk(block_type: str, region: Box, text: str, rows: list[TableRow] | None = None, cid: str = "b01") -> Chunk:
    return Chunk(
        chunk_id=f"d_p1_{cid}",
        doc_id="d",
        page=1,
        block_type=block_type,
        rows=rows or [],
        native_text=text,
        regions=[Region(page=1, bbox_pdf=region, label=block_type)],
    )


def _grid_rows(words: list[Word], region: Box) -> list[TableRow]:
    """What a table detector gives of a two-list block: one grid row per printed line, each word
    run (split at wide gaps) its own cell - the names and values of the two lists in different cells."""
    rows: list[TableRow] = []
    ys = sorted({round(w.bbox_pdf.center[1]) for w in words if region.y0 <= w.bbox_pdf.center[1] <= region.y1})
    for y in ys:
        line = sorted((w for w in words if abs(w.bbox_pdf.center[1] - y) <= 1.5), key=lambda w: w.bbox_pdf.x0)
        runs: list[list[Word]] = []
        for w in line:
            if runs and w.bbox_pdf.x0 - runs[-1][-1].bbox_pdf.x1 < 8:
                runs[-1].append(w)
            else:
                runs.append([w])
        boxes = [Box(r[0].bbox_pdf.x0, y - 5, r[-1].bbox_pdf.x1, y + 5) for r in runs]
        cells = [" ".join(w.text for w in r) for r in runs]
        rows.append(TableRow(page=1, bbox_pdf=Box(boxes[0].x0, y - 5, boxes[-1].x1, y + 5), cells=cells, text=" ".join(cells), cell_boxes=boxes))
    return rows


def test_symbol_font_characters_read_as_the_signs_they_print() -> None:
    # U+F02D, U+F0B0, U+F0B1, U+F06D, U+F057: minus, degree, plus-minus, micro, ohm of a symbol font
    assert fold("\uf02d40 \uf0b0C") == "-40 °C"
    v = parse_value("\uf0b15 \uf06dA")
    assert v is not None and (v.min, v.max, v.unit) == (-5e-06, 5e-06, "A")
    v = parse_value("10 k\uf057")
    assert v is not None and (v.typ, v.unit) == (10000.0, "ohm")


def test_a_range_up_to_a_supply_pin_keeps_its_lower_end() -> None:
    for text in ("-0.3V to VDD + 0.3V", "–0.5 V to (VCC+0.5V)"):
        v = parse_value(text)
        assert v is not None and v.max is None and v.typ is None and v.unit == "V", text
    assert parse_value("-0.3V to VDD + 0.3V").min == -0.3  # type: ignore[union-attr]
    below = parse_value("GND - 0.3V to 5.5V")  # a limit printed against ground: ground is 0 V
    assert below is not None and (below.min, below.max, below.unit) == (-0.3, 5.5, "V")
    assert parse_value("VSS-0.3", role="min").min == -0.3  # type: ignore[union-attr]
    assert parse_value("VSS to VDD") is None


def test_a_temperature_under_bias_is_a_stress_rating_not_the_operating_range() -> None:
    assert match_parameter("Ambient temperature under bias", unit="°C")[1] is False
    assert match_parameter("Ambient temp. with power applied", unit="°C")[1] is False
    assert match_parameter("Ambient temperature", unit="°C") == ("operating_temperature", True)


def test_two_leader_lists_side_by_side_in_a_table_chunk() -> None:
    left = [(60, 80, "Absolute Maximum Ratings"),
            (60, 92, "DC Supply Voltage Range, VDD"),
            (68, 104, "Voltage Referenced to VSS . . . . . . . . . . -0.5V to +8.5V"),
            (60, 120, "Operating Conditions"),
            (60, 132, "Supply Voltage Range . . . . . . . . . . . . . . 3V to 8V"),
            (60, 144, "Temperature Range (TA)"),
            (68, 156, "Ceramic Package . . . . . . . . . . . -55°C to 125°C")]
    right = [(320, 80, "Thermal Information"),
             (320, 92, "Maximum Junction Temperature"),
             (328, 104, "Plastic Packages . . . . . . . . . . . . . 150°C"),
             (320, 116, "Maximum Storage Temperature . . . . -65°C to 150°C")]
    words = printed_words(left + right)
    region = Box(55, 70, 560, 160)
    rows = _grid_rows(words, region)
    assert any(len(r.cells) > 1 for r in rows)  # the grid put both lists' words in one row
    chunk = _chunk("table", region, "\n".join(r.text for r in rows), rows)
    vals = extract_specs(CARD, [chunk], lambda p: words)
    got = {(v.parameter, v.min, v.typ, v.max, v.unit, v.table, v.conditions) for v in vals}
    assert got == {
        ("supply_voltage", -0.5, None, 8.5, "V", "ratings", ""),
        ("supply_voltage", 3.0, None, 8.0, "V", "characteristics", ""),  # under "Operating Conditions"
        ("operating_temperature", -55.0, None, 125.0, "°C", "characteristics", "Ceramic Package"),
        ("junction_temperature", None, None, 150.0, "°C", "ratings", ""),  # the name with its line matches
        ("storage_temperature", -65.0, None, 150.0, "°C", "ratings", ""),
    }
    tj = next(v for v in vals if v.parameter == "junction_temperature")
    assert tj.parameter_printed == "Maximum Junction Temperature, Plastic Packages"
    storage = next(v for v in vals if v.parameter == "storage_temperature")
    assert storage.cells[0].bbox_pdf.x0 > 320  # the value's box is in the right-hand list
    assert extract_specs(CARD, [chunk], None) == []  # the grid alone yields nothing


def test_a_ratings_list_printed_as_text() -> None:
    lines = [(80, 100, "Absolute Maximum Ratings"),
             (80, 112, "VDD.............................................. 6.0V"),
             (80, 124, "Storage temperature ..........................-65°C to +150°C"),
             (80, 136, "Ambient temp. with power applied ……..….-55°C to +125°C"),
             (80, 148, "Junction Temperature (TJ) ...................... 150°C"),
             (80, 160, "Features .................................................... 1")]
    words = printed_words(lines)
    text = "\n".join(t for _, _, t in lines)
    chunk = _chunk("text", Box(75, 90, 400, 165), text)
    vals = extract_specs(CARD, [chunk], lambda p: words)
    got = [(v.parameter, v.min, v.typ, v.max, v.unit, v.table) for v in vals]
    assert got == [
        ("supply_voltage", None, None, 6.0, "V", "ratings"),  # named by its symbol alone (specs-8); a limit (specs-19)
        ("storage_temperature", -65.0, None, 150.0, "°C", "ratings"),
        ("ambient temp. with power applied", -55.0, None, 125.0, "°C", "ratings"),  # mixed leader, not operating
        ("junction_temperature", None, None, 150.0, "°C", "ratings"),
    ]  # "Features ...... 1": no unit, a contents line, not read
    # the value's box starts where the dots end: it holds "-65°C" (cut by the characters' widths)
    st = vals[1].cells[0].bbox_pdf
    w = next(w for w in words if w.text.endswith("-65°C"))
    assert w.bbox_pdf.x0 < st.x0 < w.bbox_pdf.x1 - pymupdf.get_text_length("-65°C", fontname="helv", fontsize=8) + 0.5
    # the same lines in a second chunk (a list chunk around them) are read once
    twice = extract_specs(CARD, [chunk, chunk.model_copy(update={"chunk_id": "d_p1_b02"})], lambda p: words)
    assert len(twice) == len(vals)


def test_a_leader_list_above_a_table_the_grid_read() -> None:
    lines = [(60, 80, "Absolute Maximum Ratings"),
             (60, 92, "DRAIN Peak Voltage .............................. -0.3 V to 700 V"),
             (60, 104, "Storage Temperature ............................ -65 to 150 °C"),
             (60, 130, "Parameter"), (200, 130, "Min"), (250, 130, "Max"), (300, 130, "Units"),
             (60, 142, "Supply Current"), (200, 142, "0.6"), (250, 142, "1.0"), (300, 142, "mA")]
    words = printed_words(lines)
    head = TableRow(page=1, bbox_pdf=Box(55, 122, 340, 134), cells=["Parameter", "Min", "Max", "Units"], is_header=True,
                    cell_boxes=[Box(55, 122, 195, 134), Box(195, 122, 245, 134), Box(245, 122, 295, 134), Box(295, 122, 340, 134)])
    body = TableRow(page=1, bbox_pdf=Box(55, 134, 340, 146), cells=["Supply Current", "0.6", "1.0", "mA"],
                    cell_boxes=[Box(55, 134, 195, 146), Box(195, 134, 245, 146), Box(245, 134, 295, 146), Box(295, 134, 340, 146)])
    text = "\n".join(t for _, _, t in lines)
    chunk = _chunk("table", Box(55, 70, 400, 148), text, [head, body])
    vals = extract_specs(CARD, [chunk], lambda p: words)
    got = [(v.parameter, v.min, v.max, v.unit) for v in vals]
    assert got == [("supply_current", 0.0006, 0.001, "A"),
                   ("drain peak voltage", -0.3, 700.0, "V"),
                   ("storage_temperature", -65.0, 150.0, "°C")]


def test_a_lone_column_group_headed_by_a_part_name_is_that_part() -> None:
    # "PARAMETER SYMBOL XY100A UNITS" over "MIN TYP MAX": the family's XY100A column, not the series
    card = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100", "XY100A"], part_numbers=["XY100AZ"])
    lines = [(52, 108, "PARAMETER"), (152, 108, "SYMBOL"), (232, 108, "XY100A"), (312, 108, "UNITS"),
             (202, 120, "MIN"), (232, 120, "TYP"), (262, 120, "MAX"),
             (52, 134, "Supply Current"), (152, 134, "ISY"), (232, 134, "15"), (262, 134, "25"), (312, 134, "uA")]
    words = printed_words(lines)
    cols = [(50, 150), (150, 200), (200, 230), (230, 260), (260, 300), (300, 340)]
    h1 = TableRow(page=1, bbox_pdf=Box(50, 100, 340, 112), cells=["PARAMETER", "SYMBOL", "", "XY100A", "", "UNITS"], is_header=True,
                  cell_boxes=[Box(a, 100, b, 112) for a, b in cols])
    h2 = TableRow(page=1, bbox_pdf=Box(50, 112, 340, 124), cells=["", "", "MIN", "TYP", "MAX", ""], is_header=True,
                  cell_boxes=[Box(a, 112, b, 124) for a, b in cols])
    body = TableRow(page=1, bbox_pdf=Box(50, 124, 340, 138), cells=["Supply Current", "ISY", "", "15", "25", "uA"],
                    cell_boxes=[Box(a, 124, b, 138) for a, b in cols])
    chunk = _chunk("table", Box(50, 100, 340, 138), "PARAMETER SYMBOL XY100A UNITS", [h1, h2, body])
    vals = extract_specs(card, [chunk], lambda p: words)
    assert [(v.parameter, v.typ, v.max, v.part) for v in vals] == [("supply_current", 1.5e-05, 2.5e-05, "XY100A")]


def test_a_value_prints_its_unit_once() -> None:
    from layoutrag.records import SpecValue

    def v(text: str, unit: str) -> SpecValue:
        return SpecValue(doc_id="d", part="p", parameter="x", parameter_printed="x", value_text=text,
                         unit_printed=unit, page=1, row_bbox_pdf=Box(0, 0, 1, 1))

    assert v("150°C", "°C").printed() == "150°C"  # the cell printed its unit
    assert v("12.5", "pF").printed() == "12.5 pF"  # the unit from the Unit column
    assert v("-40 / 85", "").printed() == "-40 / 85"


def test_search_reads_a_ratings_list_printed_as_text_without_page_words() -> None:
    from layoutrag.chunking.specs import chunk_specs
    from layoutrag.specs import check, parse_constraint

    text = ("Absolute Maximum Ratings\nVDD ........................................ 6.0V\n"
            "Storage temperature ..................... -65°C to +150°C\n"
            "Junction Temperature (TJ) ................. 150°C")
    chunk = _chunk("text", Box(75, 90, 400, 165), text).model_copy(update={"bboxes_pdf": [Box(75, 90, 400, 165)]})
    vals = chunk_specs(chunk)
    assert {(v.parameter, v.min, v.max) for v in vals} >= {("storage_temperature", -65.0, 150.0)}
    assert check(parse_constraint("junction temperature >= 150"), vals)[0] == "meets"
    contents = _chunk("list", Box(75, 90, 400, 165), "1 Features ........................ 1\n2 Applications .................... 1")
    assert chunk_specs(contents) == []  # a contents list: no units, no values
