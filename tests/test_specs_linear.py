"""Spec values of imported chunks whose tables are text only (chunking/linear_specs.py), and the
import path that stores them and answers parametric queries with them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from layoutrag.build import import_chunks
from layoutrag.chunking.linear_specs import linear_table, read_linear_table
from layoutrag.records import Chunk
from layoutrag.service import LayoutRAG

HEAD = "Table 1 . Electrical Specifications Parameters Symbol Min. Typ. Max. Units Notes "


def _chunk(text: str, doc: str = "xo", page: int = 1) -> Chunk:
    return Chunk(
        chunk_id=f"{doc}_p{page}_b01",
        doc_id=doc,
        page=page,
        block_type="electrical_specifications_table",
        native_text=text,
        bboxes_pdf=[[40.0, 100.0, 560.0, 420.0]],
    )


def _read(text: str) -> list[tuple]:
    return [(v.parameter, v.min, v.typ, v.max, v.unit) for v in read_linear_table(_chunk(text), "XO")]


def test_columns_dashes_ranges_and_tolerances() -> None:
    got = _read(
        HEAD + "Nominal Frequency F 4 ~ 60 MHz Operating Temperature Topr -40 25 105 ℃ "
        "Current Consumption Icc - - 12 mA Frequency Tolerance FT ± 10 ppm @25℃ "
    )
    assert got == [
        ("frequency", 4e6, None, 6e7, "Hz"),
        ("operating_temperature", -40.0, 25.0, 105.0, "°C"),
        ("supply_current", None, None, 0.012, "A"),
        ("frequency_tolerance", -10.0, None, 10.0, "ppm"),
    ]


def test_options_and_sub_rows_after_conditions() -> None:
    got = _read(
        HEAD + "Supply Voltage Vdd 1.8 , 2.5 , 3.3 (± 10%) V "
        "Frequency Stability ST ± 20 ppm @ -20~70℃ , Note 1 ± 50 @ -40~85℃ , Note 1 "
    )
    assert got == [
        ("supply_voltage", None, 1.8, None, "V"),
        ("supply_voltage", None, 2.5, None, "V"),
        ("supply_voltage", None, 3.3, None, "V"),
        ("frequency_stability", -20.0, None, 20.0, "ppm"),
        ("frequency_stability", -50.0, None, 50.0, "ppm"),
    ]
    stab = [v for v in read_linear_table(_chunk(HEAD + "Frequency Stability ST ± 20 ppm @ -20~70℃"), "XO")]
    assert stab[0].conditions.startswith("@ -20~70")


def test_conditions_are_not_values() -> None:
    # a band in another unit, a supply-relative level, a note number, a number before a word
    got = _read(
        HEAD + "Equivalent Series Resistance ESR Ohm - - 80 8~12MHz - - 50 12~40MHz "
        "Output Voltage High VoH 90%Vdd - - V Start-up Time Tosc - - 5 ms To 90% of Final Amplitude "
        "RMS Phase Jitter PJ - - 0.5 ps @156.25MHz , 3.3V , Note 3 Aging - - ± 3 ppm/year 10 Years "
    )
    assert got == [
        ("esr", None, None, 80.0, "ohm"),
        ("esr", None, None, 50.0, "ohm"),
        ("startup_time", None, None, 0.005, "s"),
        ("phase_jitter", None, None, 5e-13, "s"),
        ("aging", -3.0, None, 3.0, "ppm"),
    ]


def test_unknown_rows_end_a_row_and_are_not_read() -> None:
    # "Enable Delay Time" is no vocabulary name: it neither becomes a value nor lends its
    # numbers to the row before it
    got = _read(HEAD + "Standby Current Icc(ST) - - 10 uA OE = Low Enable Delay Time - - - 2 uA Aging - ± 5 ppm")
    assert got == [("standby_current", None, None, 1e-05, "A"), ("aging", -5.0, None, 5.0, "ppm")]


def test_a_tolerance_is_refused_where_the_quantity_cannot_be_negative() -> None:
    # "± 3" after an ESR row belongs to the row whose name is printed after it (a merged cell)
    got = _read(HEAD + "Equivalent Series Resistance ESR - - 60 Ohm 10~40MHz ± 3 1st Year")
    assert got == [("esr", None, None, 60.0, "ohm")]


def test_text_without_a_min_max_header_is_not_a_table() -> None:
    text = "Product Features 1. Output Frequency 1 ~ 204MHz 2. Frequency Stability ± 50 ppm"
    assert not linear_table(text)
    assert read_linear_table(_chunk(text), "XO") == []


def test_values_carry_the_chunk_box_and_id() -> None:
    (v,) = read_linear_table(_chunk(HEAD + "Load Capacitance CL 12.5 pF"), "XO")
    assert (v.parameter, v.typ, v.unit_printed, v.page, v.chunk_id) == ("load_capacitance", 1.25e-11, "pF", 1, "xo_p1_b01")
    assert tuple(v.row_bbox_pdf) == (40.0, 100.0, 560.0, 420.0)
    assert [c.role for c in v.cells] == ["value"] and tuple(v.cells[0].bbox_pdf) == (40.0, 100.0, 560.0, 420.0)


def _jsonl(path: Path) -> Path:
    rows = [
        _chunk(HEAD + "Nominal Frequency F 26 MHz Frequency Stability ST ± 0.5 ppm @ -40~85℃ Operating Temperature Topr -40 - 85 ℃", "tcxo_a"),
        _chunk(HEAD + "Nominal Frequency F 26 MHz Frequency Stability ST ± 2.5 ppm @ -40~85℃ Operating Temperature Topr -40 - 85 ℃", "tcxo_b"),
    ]
    path.write_text("\n".join(json.dumps(c.model_dump(mode="json")) for c in rows) + "\n", encoding="utf-8")
    return path


def test_import_stores_values_and_answers_parametric_queries(tmp_path: Path) -> None:
    data = tmp_path / "data"
    import_chunks(_jsonl(tmp_path / "c.jsonl"), data)
    assert (data / "imported" / "specs" / "tcxo_a.json").exists()
    svc = LayoutRAG(data)
    res = svc.find_parts(["frequency stability <= 1 ppm", "frequency = 26 MHz"])
    met = [r.doc_id for r in res.results if r.n_met == 2]
    assert met == ["tcxo_a"]
    values = svc.specs("tcxo_b")
    assert {(v.parameter, v.min, v.typ, v.max) for v in values} == {
        ("frequency", None, 26e6, None),
        ("frequency_stability", -2.5, None, 2.5),
        ("operating_temperature", -40.0, None, 85.0),
    }
    # the natural query reads the same constraints
    nat = svc.find_parts(query="frequency stability ±0.5 ppm, operating temperature -40 to 85")
    assert [r.doc_id for r in nat.results if r.n_met == len(nat.constraints)] == ["tcxo_a"]


def test_reimport_of_unchanged_chunks_keeps_the_stored_values(tmp_path: Path) -> None:
    data = tmp_path / "data"
    f = _jsonl(tmp_path / "c.jsonl")
    import_chunks(f, data)
    stored = data / "imported" / "specs" / "tcxo_a.json"
    before = stored.stat().st_mtime_ns
    import_chunks(f, data)
    assert stored.stat().st_mtime_ns == before


@pytest.mark.parametrize("where", ["frequency stability <= banana", "ESR <= 50 furlongs"])
def test_bad_constraints_on_an_imported_corpus_get_one_line_errors(tmp_path: Path, where: str) -> None:
    from layoutrag.errors import InputError

    data = tmp_path / "data"
    import_chunks(_jsonl(tmp_path / "c.jsonl"), data)
    with pytest.raises(InputError) as e:
        LayoutRAG(data).find_parts([where])
    assert "\n" not in str(e.value) and str(e.value)


def test_a_change_per_year_is_aging_in_a_laid_out_table_too() -> None:
    # a stability cell whose sub-row prints "ppm/year" (the vs.-aging line of a merged name cell)
    from layoutrag.chunking.specs import extract_specs
    from layoutrag.records import Box, DocumentCard, Region, TableRow

    cols = [(50, 200), (200, 260), (260, 330), (330, 380)]

    def row(cells: list[str], y: float, header: bool = False) -> TableRow:
        boxes = [Box(x0, y, x1, y + 12) for (x0, x1), _ in zip(cols, cells, strict=False)]
        return TableRow(page=1, bbox_pdf=Box(50, y, 380, y + 12), cells=cells, text=" | ".join(cells), is_header=header, cell_boxes=boxes)

    rows = [
        row(["Parameter", "Conditions", "Max", "Unit"], 100, header=True),
        row(["Frequency Stability", "-40 to 85 °C", "±0.5", "ppm"], 112),
        row(["Frequency Stability", "TA = 25 °C", "±1.0", "ppm/year"], 124),
    ]
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="table", rows=rows, native_text="",
                  regions=[Region(page=1, bbox_pdf=Box(50, 100, 380, 136), label="table")])
    card = DocumentCard(doc_id="d", file_name="xo.pdf", series=["XO1"])
    got = {(v.parameter, v.max) for v in extract_specs(card, [chunk], None)}
    assert got == {("frequency_stability", 0.5), ("aging", 1.0)}


def test_an_imported_card_names_its_series_and_no_quantity() -> None:
    from layoutrag.index.importer import derive_card

    chunks = [
        Chunk(chunk_id=f"x_p1_b0{i}", doc_id="x", page=1, toc_path="ACME 7N Series TCXO 32.768kHz (2.0mm)", native_text=t)
        for i, t in enumerate(["Nominal Frequency 32.768kHz", "7N-26.000MBP-T 7N-19.200MBP-T"], start=1)
    ]
    card = derive_card("x", chunks)
    assert card.series == ["7N"]  # as the title prints it
    assert "32.768khz" not in card.series and "2.0mm" not in card.series
    assert card.product_type == "TCXO"  # the type the title names, as an ingested card reads it
    untyped = [c.model_copy(update={"toc_path": "ACME 7N Series 32.768kHz"}) for c in chunks]
    assert derive_card("x", untyped).product_type == ""  # a title naming no type gives none (not a guess)


VCXO = (HEAD + "Supply Voltage Vdd 3.3 (± 10%) V Control Voltage Range Vc 0.1xVdd - 0.9xVdd V "
        "APR APR ±50 - - ppm Note2 Linearity - - - 10 %")


def test_a_name_printed_again_as_its_symbol_heads_its_row() -> None:
    # linear-2: "APR APR ±50": the abbreviation (a vocabulary name since specs-25) printed as name and symbol
    got = {r[0]: r for r in _read(VCXO)}
    assert got["pull_range"] == ("pull_range", -50.0, None, 50.0, "ppm")
    assert got["linearity"][3:] == (10.0, "%")  # the row after it still read


def test_repeated_names_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "REPEATED_NAMES", False)
    assert "pull_range" not in {r[0] for r in _read(VCXO)}


# A merged name cell over two sub-rows that each print their own unit and test condition: the first
# sub-row's text comes before the name (linear-3).
EDGES = (HEAD + "Output Voltage Low VoL - - 0.4 V - - 6 ns 10% → 90% Vdd Level Rise Time Tr - - 3 ns "
         "20% → 80% Vdd Level - - 6 ns 90% → 10% Vdd Level Fall Time Tf - - 3 ns 80% → 20% Vdd Level "
         "Start-up Time Tosc - - 5 ms To 90% of Vp-p Duty Cycle TH/T 40 50 60 %")


def test_sub_rows_printed_above_a_merged_name_with_their_own_unit() -> None:
    got = _read(EDGES)
    edges = sorted(r[3] for r in got if r[0] == "rise_fall_time")
    assert edges == pytest.approx([3e-9, 3e-9, 6e-9, 6e-9])  # both sub-rows of both names
    assert [r for r in got if r[0] == "duty_cycle"] == [("duty_cycle", 40.0, 50.0, 60.0, "%")]  # not "90%" of a note
    assert ("startup_time", None, None, 0.005, "s") in got
    assert not any(r[0] == "rise_fall_time" and r[3] is not None and r[3] < 1e-9 for r in got)


def test_condition_words_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "CONDITION_WORDS", False)
    edges = sorted(r[3] for r in _read(EDGES) if r[0] == "rise_fall_time")
    assert edges == pytest.approx([3e-9, 3e-9])  # the sub-rows above the names are lost


def test_a_sub_row_above_keeps_to_the_kind_of_the_rows_first_number(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear-4: the Symbol column's "-" ahead of the unit is no group of values, so "± 2" above the name is a
    # tolerance like the row's "± 10", not dropped as another kind of value
    got = _read(HEAD + "Load Capacitance CL 12.5 pF ± 2 1st Year Aging - ppm ± 10 10th Year")
    aging = sorted((r[1], r[3]) for r in got if r[0] == "aging")
    assert aging == [(-10.0, 10.0), (-2.0, 2.0)]
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "NUMBERED_SHAPE", False)
    assert [(r[1], r[3]) for r in _read(HEAD + "Load Capacitance CL 12.5 pF ± 2 1st Year Aging - ppm ± 10 10th Year")
            if r[0] == "aging"] == [(-10.0, 10.0)]


def test_a_number_before_an_output_type_is_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear-4: "10~500 LVDS": a value and its option's name, not the number of a condition ("10 Years")
    text = HEAD + "Nominal Frequency F MHz 10~500 LVDS ± 25 @ -40~85℃ Frequency Stability ST ppm ± 50 @ -40~105℃"
    got = _read(text)
    assert ("frequency", 1e7, None, 5e8, "Hz") in got
    assert sorted(r[3] for r in got if r[0] == "frequency_stability") == [25.0, 50.0]
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "ACRONYM_OPTIONS", False)
    assert ("frequency", 1e7, None, 5e8, "Hz") not in _read(text)


def test_an_overfull_row_gives_its_extra_columns_to_the_next_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear-5: units printed before the values, so nothing closes the first row's group: "-20 - 85" then
    # "1.62 1.8 1.98" (the next name's first sub-row, printed above it)
    text = (HEAD + "Symmetry TH/T 40 50 60 % -20 - 70 Operating Temperature Topr °C -20 - 85 1.62 1.8 1.98 "
            "Supply Voltage Vdd V 2.97 3.3 3.63 Start-up Time Tosc - - 5 ms")
    got = _read(text)
    assert sorted(r[1:4] for r in got if r[0] == "supply_voltage") == [(1.62, 1.8, 1.98), (2.97, 3.3, 3.63)]
    assert sorted(r[1:4] for r in got if r[0] == "operating_temperature") == [(-20.0, None, 70.0), (-20.0, None, 85.0)]
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "OVERFULL_ROWS", False)
    assert [r[1:4] for r in _read(text) if r[0] == "supply_voltage"] == [(2.97, 3.3, 3.63)]


def test_a_lone_number_takes_its_sibling_sub_rows_column(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear-6: "Fall Time Tf 0.7 ns" printed without the dashes its sibling "Rise Time Tr - - 0.7 ns" prints
    text = (HEAD + "Rise Time Tr - - 0.7 ns 20% ~ 80% Output Swing Fall Time Tf 0.7 ns 80% ~ 20% Output Swing "
            "Symmetry TH/T 45 50 55 %")
    got = [r for r in _read(text) if r[0] == "rise_fall_time"]
    assert got == [("rise_fall_time", None, None, 7e-10, "s")] * 2
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "LONE_COLUMNS", False)
    assert ("rise_fall_time", None, 7e-10, None, "s") in _read(text)  # a lone number: typical


def test_a_lone_number_stays_typical_without_agreeing_siblings() -> None:
    got = _read(HEAD + "Load Capacitance CL 12.5 pF Drive Level DL - 100 300 uW")
    assert ("load_capacitance", None, 12.5e-12, None, "F") in got


def test_two_names_of_one_parameter_joined_by_a_slash_are_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear-7: "Rise Time / Fall Time Tr / Tf": one name cell, so the sub-row printed above it is its own
    text = (HEAD + "Output Voltage Low VoL - - 0.4 V - - 6 ns 10% → 90% Vdd Level Rise Time / Fall Time Tr / Tf - - 3 ns "
            "20% → 80% Vdd Level Symmetry TH/T 40 50 60 %")
    vals = [v for v in read_linear_table(_chunk(text), "XO") if v.parameter == "rise_fall_time"]
    assert sorted(v.max for v in vals) == pytest.approx([3e-9, 6e-9])
    assert {v.parameter_printed for v in vals} == {"Rise Time / Fall Time"}
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "JOINED_NAMES", False)
    assert [r[3] for r in _read(text) if r[0] == "rise_fall_time"] == pytest.approx([3e-9])


def test_values_before_the_first_name_after_a_heading_are_its_sub_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear-8: "15~2100 LVPECL / LVDS" is the first row of the merged name cell "Nominal Frequency", printed above it
    body = ("Nominal Frequency F MHz 15~700 HCSL ± 30 @ -40~85℃ Frequency Stability ST ppm ± 50 @ -40~105℃ "
            "Supply Voltage Vdd 1.8 , 2.5 , 3.3 V")
    for opening in ("15~2100 LVPECL / LVDS ", "Common Electrical Characteristics 15~2100 LVPECL / LVDS "):
        got = sorted((r[1], r[3]) for r in _read(HEAD + opening + body) if r[0] == "frequency")
        assert [x for pair in got for x in pair] == pytest.approx([15e6, 700e6, 15e6, 2100e6])
    # after another row's numbers (a row the vocabulary does not know), values before the first name are that row's
    other = HEAD + "Output Waveform LVCMOS High Level VOH - - 2.7 V Low Level VOL -0.3 - - Duty Cycle - 45 50 55 %"
    assert [r[1:4] for r in _read(other) if r[0] == "duty_cycle"] == [(45.0, 50.0, 55.0)]
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "FIRST_SUBROWS", False)
    assert [r[3] for r in _read(HEAD + "15~2100 LVPECL / LVDS " + body) if r[0] == "frequency"] == pytest.approx([700e6])


def test_a_unitless_name_before_a_name_of_its_parameter_is_one_merged_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    # linear-9: the unit is printed once, at the second name; the first name's values are the second's sub-rows above it
    text = (HEAD + "Frequency Range and Stability 1 ~ 156.25 @ 2.5 V Nominal Frequency F MHz 1 ~ 125 @ 1.8 V "
            "Supply Voltage Vdd 1.8 , 2.5 , 3.3 V")
    got = sorted(r[3] for r in _read(text) if r[0] == "frequency")
    assert got == pytest.approx([125e6, 156.25e6])
    # a unitless name followed by another parameter's name keeps its values to itself (dropped, as before)
    other = HEAD + "Phase Noise 1kHz - -150 - Supply Voltage Vdd 1.8 , 2.5 , 3.3 V"
    assert [r for r in _read(other) if r[0] == "phase_noise"] == []
    import layoutrag.chunking.linear_specs as linear

    monkeypatch.setattr(linear, "UNITLESS_NAMES", False)
    assert [r[3] for r in _read(text) if r[0] == "frequency"] == pytest.approx([125e6])


def test_an_imported_corpus_filters_by_the_type_its_titles_name(tmp_path: Path) -> None:
    # an imported card reads its type from its title: `--type TCXO` and "TCXOs ..." reach imported documents
    rows = [
        _chunk(HEAD + "Nominal Frequency F 26 MHz Frequency Stability ST ± 0.5 ppm", "tcxo_a").model_copy(
            update={"toc_path": "ACME 7N Series TCXO > Electrical Specifications"}),
        _chunk(HEAD + "Nominal Frequency F 26 MHz Frequency Tolerance FT ± 10 ppm", "xtal_b").model_copy(
            update={"toc_path": "ACME 7M Series MHz Crystal > Electrical Specifications"}),
    ]
    f = tmp_path / "c.jsonl"
    f.write_text("\n".join(json.dumps(c.model_dump(mode="json")) for c in rows) + "\n", encoding="utf-8")
    data = tmp_path / "data"
    import_chunks(f, data)
    svc = LayoutRAG(data)
    assert [r.doc_id for r in svc.find_parts(["frequency = 26 MHz"], product_type="TCXO").results] == ["tcxo_a"]
    res = svc.find_parts(query="crystals 26 MHz")
    assert res.product_type == "crystal" and [r.doc_id for r in res.results] == ["xtal_b"]
