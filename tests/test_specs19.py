"""specs-19, on tables made here. rating-limits: a lone number in a ratings table's value column is
a limit (max; min when negative), not a typical value - except a thermal resistance, a withstand
level (ESD, isolation) and a value its name calls typical. own-heading: a table whose own text
heads it "Electrical Characteristics" and names no ratings is characteristics even when the last
heading before it (its section) was the ratings'. rating-headings: TI's "Handling Ratings" / "ESD
Ratings" and the Chinese 极限工作参数 / 极限值 head ratings."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
from chunk_factory import grid_row, printed_words, table_chunk
from layoutrag.chunking.specs import extract_specs
from layoutrag.records import Chunk, DocumentCard, SpecValue

CARD = DocumentCard(doc_id="d", file_name="part.pdf", series=["XY100"], part_numbers=["XY100"])
COLS = [(30, 230), (230, 300), (300, 380), (380, 430)]
RATINGS = [
    ["Rating", "Symbol", "Value", "Unit"],
    ["Supply voltage", "VCC", "36", "V"],
    ["Reverse supply voltage", "VRCC", "-0.1", "V"],
    ["Junction temperature", "TJ", "150", "°C"],
    ["Storage temperature", "Tstg", "-65 to 150", "°C"],
    ["Thermal resistance, junction to ambient", "RθJA", "62", "°C/W"],
    ["Typical power dissipation", "PD", "0.5", "W"],
    ["ESD (human body model)", "VESD", "2000", "V"],
    ["Isolation voltage", "Viso", "3750", "V"],
]


def _chunk(rows: list[list[str]], *, title: str, text: str = "") -> Chunk:
    c = table_chunk([grid_row(r, 100 + 12 * i, COLS, header=i == 0) for i, r in enumerate(rows)], title=title)
    c.native_text = text or "\n".join(" ".join(r) for r in rows)
    return c


def _by_name(values: list[SpecValue]) -> dict[str, SpecValue]:
    return {v.parameter_printed: v for v in values}


# --------------------------------------------------------------------------- rating limits
def test_a_lone_rating_is_the_limit_a_negative_one_the_lower_limit() -> None:
    got = _by_name(extract_specs(CARD, [_chunk(RATINGS, title="Absolute Maximum Ratings")]))
    vcc, rev, tj = got["Supply voltage"], got["Reverse supply voltage"], got["Junction temperature"]
    assert (vcc.min, vcc.typ, vcc.max, vcc.table) == (None, None, 36.0, "ratings")
    assert [c.role for c in vcc.cells] == ["max"]
    assert (rev.min, rev.typ, rev.max) == (-0.1, None, None) and [c.role for c in rev.cells] == ["min"]
    assert (tj.typ, tj.max) == (None, 150.0)
    tstg = got["Storage temperature"]
    assert (tstg.min, tstg.typ, tstg.max) == (-65.0, None, 150.0)  # a range keeps its ends


@pytest.mark.parametrize(
    "name", ["Thermal resistance, junction to ambient", "Typical power dissipation", "ESD (human body model)", "Isolation voltage"]
)
def test_what_a_ratings_table_prints_beside_its_limits_stays_as_printed(name: str) -> None:
    got = _by_name(extract_specs(CARD, [_chunk(RATINGS, title="Absolute Maximum Ratings")]))
    v = got[name]
    assert v.typ is not None and v.min is None and v.max is None and [c.role for c in v.cells] == ["value"]


def test_a_lone_value_in_a_characteristics_table_stays_typical() -> None:
    rows = [["Parameter", "Symbol", "Value", "Unit"], ["Supply current", "ICC", "1.2", "mA"]]
    (v,) = extract_specs(CARD, [_chunk(rows, title="Electrical Characteristics")])
    assert (v.typ, v.max, v.table) == (pytest.approx(0.0012), None, "characteristics")


def test_rating_limits_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "RATING_LIMITS", False)
    got = _by_name(extract_specs(CARD, [_chunk(RATINGS, title="Absolute Maximum Ratings")]))
    assert (got["Supply voltage"].typ, got["Supply voltage"].max) == (36.0, None)


# --------------------------------------------------------------------------- own heading
CHARS = [["Item", "Symbol", "Max", "Unit"], ["Supply current", "ICC", "2", "mA"]]


def test_a_table_headed_characteristics_on_its_own_is_not_the_ratings_of_its_section() -> None:
    # the page after the ratings: its section title is still the ratings heading
    c = _chunk(CHARS, title="Absolute Maximum Ratings (Ta = 25°C)",
               text="HA0000 Series\nElectrical Characteristics (VCC = +15 V, Ta = 25°C)\nItem Symbol Max Unit\nSupply current ICC 2 mA")
    (v,) = extract_specs(CARD, [c])
    assert v.table == "characteristics"
    c = _chunk(CHARS, title="Absolute Maximum Ratings", text="TABLE 1-1: DC CHARACTERISTICS\nItem Symbol Max Unit")
    assert extract_specs(CARD, [c])[0].table == "characteristics"


def test_a_chapter_named_characteristics_over_its_ratings_stays_ratings() -> None:
    c = _chunk(CHARS, title="1.0 ELECTRICAL CHARACTERISTICS",
               text="1.0 ELECTRICAL CHARACTERISTICS\nAbsolute Maximum Ratings\nItem Symbol Max Unit\nSupply current ICC 2 mA")
    assert extract_specs(CARD, [c])[0].table == "ratings"


def test_own_heading_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "OWN_HEADING", False)
    c = _chunk(CHARS, title="Absolute Maximum Ratings", text="Electrical Characteristics (VCC = +15 V)\nItem Symbol Max Unit")
    assert extract_specs(CARD, [c])[0].table == "ratings"


# --------------------------------------------------------------------------- rating headings
HANDLING = [["Parameter", "Symbol", "Min", "Max", "Unit"], ["Storage temperature range", "Tstg", "-65", "150", "°C"]]
HCOLS = [(30, 230), (230, 300), (300, 350), (350, 400), (400, 430)]


@pytest.mark.parametrize("title", ["6.2 Handling Ratings", "7.2 ESD Ratings", "7.1 极限工作参数", "极限值"])
def test_handling_esd_and_chinese_limiting_headings_head_ratings(title: str) -> None:
    c = table_chunk([grid_row(r, 100 + 12 * i, HCOLS, header=i == 0) for i, r in enumerate(HANDLING)], title=title)
    (v,) = extract_specs(CARD, [c])
    assert (v.parameter, v.min, v.max, v.table) == ("storage_temperature", -65.0, 150.0, "ratings")


def test_rating_headings_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "RATING_HEADINGS", False)
    c = table_chunk([grid_row(r, 100 + 12 * i, HCOLS, header=i == 0) for i, r in enumerate(HANDLING)],
                    title="6.2 Handling Ratings")
    assert extract_specs(CARD, [c])[0].table == "characteristics"


# --------------------------------------------------------------------------- condition parts
DIODES = DocumentCard(doc_id="d", file_name="diodes.pdf", series=["1N4148", "1N4448"], part_numbers=["1N4148", "1N4448"])
VF = [
    ["Symbol", "Parameter", "Conditions", "Min", "Max", "Unit"],
    ["VF", "forward voltage", "IF = 10 mA", "", "1", "V"],
    ["VF", "forward voltage", "1N4448; IF = 5 mA", "0.62", "0.72", "V"],
    ["IR", "reverse current", "VR = 20 V, for 1N4148 or 1N4448", "", "25", "nA"],
]
VCOLS = [(30, 70), (70, 200), (200, 330), (330, 380), (380, 430), (430, 470)]


def _vf() -> dict[tuple[str, str], str]:
    c = table_chunk([grid_row(r, 100 + 12 * i, VCOLS, header=i == 0) for i, r in enumerate(VF)], title="Characteristics")
    return {(v.parameter_printed, v.value_text): v.part for v in extract_specs(DIODES, [c])}


def test_a_row_whose_conditions_begin_a_clause_with_a_part_is_that_parts() -> None:
    got = _vf()
    assert got[("forward voltage", "0.62 / 0.72")] == "1N4448"
    assert got[("forward voltage", "1")] == "1N4148"  # the default part
    assert got[("reverse current", "25")] == "1N4148"  # a part inside a clause names nothing


def test_condition_parts_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "CONDITION_PARTS", False)
    assert _vf()[("forward voltage", "0.62 / 0.72")] == "1N4148"


# --------------------------------------------------------------------------- base names
def _rtc(series: list[str], rows: list[list[str]]) -> set[str]:
    card = DocumentCard(doc_id="d", file_name="rtc.pdf", series=series, part_numbers=series)
    c = _chunk(rows, title="DC Electrical Characteristics",
               text="XY1302 trickle-charge timekeeping chip. The XY1302 ... XY1302S is the 8-pin SO package.\n"
                    + "\n".join(" ".join(r) for r in rows))
    return {v.part for v in extract_specs(card, [c])}


SUPPLY = [["Parameter", "Symbol", "Max", "Unit"], ["Supply current", "ICC", "1.2", "mA"]]


def test_a_package_letter_after_a_listed_base_name_gives_way_to_the_base() -> None:
    assert _rtc(["XY1302S", "XY1302"], SUPPLY) == {"XY1302"}


def test_a_grade_heading_the_spec_table_keeps_its_letter() -> None:
    graded = [["XY1302S", "", "", ""], *SUPPLY]  # "AD824A | Min Typ Max": the table is the grade's
    assert _rtc(["XY1302S", "XY1302"], graded) == {"XY1302S"}


def test_base_names_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "BASE_NAMES", False)
    assert _rtc(["XY1302S", "XY1302"], SUPPLY) == {"XY1302S"}


# --------------------------------------------------------------------------- caption modes
@pytest.mark.parametrize(
    ("caption", "cond"),
    [
        ("Table 4-22. Receiver Characteristics - Bluetooth LE 1 Mbps", "Bluetooth LE 1 Mbps"),
        ("Table 4-22. Receiver Characteristics – Bluetooth LE 2 Mbps", "Bluetooth LE 2 Mbps"),  # en dash folded
        ("DC ELECTRICAL CHARACTERISTICS Over the operating range (5V)", "5V"),
        ("DC Characteristics (3.3 V)", "3.3V"),
        ("Table 5. Absolute Maximum Ratings - Continued", ""),
        ("Table 3. Pin Description", ""),  # no mode
        ("Receiver Characteristics - Bluetooth LE", ""),  # an unnumbered heading's dash names no table mode
        ("Supply voltage (3.3 V) and I/O voltage (5 V)", ""),  # two supplies: no one case
    ],
)
def test_the_case_a_caption_names(caption: str, cond: str) -> None:
    assert stage._caption_condition(caption) == cond


def test_caption_modes_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "CAPTION_MODES", False)
    assert stage._caption_condition("Table 4-22. Receiver Characteristics - Bluetooth LE 1 Mbps") == ""
    assert stage._caption_condition("DC ELECTRICAL CHARACTERISTICS Over the operating range (5V)") == ""


def test_a_caption_mode_follows_each_rows_conditions() -> None:
    rows = [["Parameter", "Conditions", "Min", "Max", "Unit"], ["Supply current", "CS = VCC", "", "50", "mA"]]
    cols = [(30, 200), (200, 300), (300, 350), (350, 400), (400, 430)]
    c = table_chunk([grid_row(r, 100 + 12 * i, cols, header=i == 0) for i, r in enumerate(rows)],
                    title="DC ELECTRICAL CHARACTERISTICS Over the operating range (5V)")
    (v,) = extract_specs(CARD, [c])
    assert v.conditions == "CS = VCC; 5V"


# --------------------------------------------------------------------------- named bounds
BOUNDS = [
    ["Parameter", "Symbol", "Value", "Unit"],
    ["Maximum Junction Temperature", "TJ", "125", "°C"],
    ["Minimum Supply Voltage", "VS", "2.7", "V"],
    ["Maximum Thermal Resistance", "RθJC", "2.0", "°C/W"],
    ["Supply current", "IS", "1.2", "mA"],
]


def test_a_name_beginning_maximum_or_minimum_bounds_its_lone_value() -> None:
    got = _by_name(extract_specs(CARD, [_chunk(BOUNDS, title="Electrical Characteristics")]))
    assert (got["Maximum Junction Temperature"].typ, got["Maximum Junction Temperature"].max) == (None, 125.0)
    assert (got["Minimum Supply Voltage"].min, got["Minimum Supply Voltage"].typ) == (2.7, None)
    assert [c.role for c in got["Minimum Supply Voltage"].cells] == ["min"]
    assert got["Maximum Thermal Resistance"].max == 2.0  # the name says so, a thermal resistance too
    assert got["Supply current"].typ == pytest.approx(0.0012)  # no bound named: stays typical


def test_named_bounds_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "NAMED_BOUNDS", False)
    got = _by_name(extract_specs(CARD, [_chunk(BOUNDS, title="Electrical Characteristics")]))
    assert (got["Maximum Junction Temperature"].typ, got["Maximum Junction Temperature"].max) == (125.0, None)


# --------------------------------------------------------------------------- leaderless lines
def test_a_line_printed_without_leaders_in_a_leader_list(monkeypatch: pytest.MonkeyPatch) -> None:
    from layoutrag.records import Box, Region

    lines = [(80, 100, "Absolute Maximum Ratings"),
             (80, 112, "SW Voltage ........................ -0.3V to 30V"),
             (80, 124, "Storage Temperature Range -65°C to 150°C"),  # its leader left out
             (80, 136, "Operating junction temp. (TJ)... -40°C to +125°C"),  # a short leader
             (80, 148, "Peak SW Sink and Source Current ...... 4A"),
             (80, 160, "Devices are ESD sensitive. Handling precautions: series with 100 pF."),  # a note
             (80, 172, "fOSC, TJ = 25 °C")]  # a condition
    words = printed_words(lines)
    chunk = Chunk(chunk_id="d_p1_b01", doc_id="d", page=1, block_type="text", rows=[],
                  native_text="\n".join(t for _, _, t in lines),
                  regions=[Region(page=1, bbox_pdf=Box(75, 90, 500, 176), label="text")])
    got = {(v.parameter, v.min, v.max): v for v in extract_specs(CARD, [chunk], lambda p: words)}
    assert set(got) == {("sw voltage", -0.3, 30.0),
                        ("storage_temperature", -65.0, 150.0), ("junction_temperature", -40.0, 125.0),
                        ("peak sw sink and source current", None, 4.0)}
    st = got[("storage_temperature", -65.0, 150.0)]
    assert st.parameter_printed == "Storage Temperature Range" and st.cells[0].bbox_pdf.x0 > 150  # the value's words
    # without the change the leaderless line is a heading or nothing
    monkeypatch.setattr(stage, "LEADERLESS_LINES", False)
    monkeypatch.setattr(stage, "NAMED_TEMPERATURES", False)  # specs-44 reads the storage range from its line on its own
    assert {v.parameter for v in extract_specs(CARD, [chunk], lambda p: words)} == {"sw voltage", "peak sw sink and source current"}


# --------------------------------------------------------------------------- benchmarks/spec_fact_recall.py
def test_fact_recall_says_why_a_fact_is_not_found() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from spec_fact_recall import classify

    from layoutrag.records import Box

    def v(pid: str, lo: float | None, hi: float | None, table: str = "characteristics") -> SpecValue:
        return SpecValue(doc_id="d", part="XY100", parameter=pid, parameter_printed=pid, min=lo, max=hi, unit="V",
                         page=1, row_bbox_pdf=Box(0, 0, 1, 1), table=table)

    def fact(pid: str, kind: str, lo: float | None = None, typ: float | None = None, hi: float | None = None) -> dict:
        return {"pid": pid, "kind": kind, "min": lo, "typ": typ, "max": hi}

    values = [v("supply_voltage", 1.8, 5.5), v("storage_temperature", -65, 150), v("vin pin voltage", -0.3, 6.0)]
    withheld = [v("frequency", 1e6, 2e6)]
    assert classify(fact("supply_voltage", "c", 1.8, None, 5.5), values, withheld)[0] == "found"
    assert classify(fact("storage_temperature", "r", -65, None, 150), values, withheld)[0] == "kind"
    assert classify(fact("supply_voltage", "r", -0.3, None, 6.0), values, withheld)[0] == "other-parameter"
    assert classify(fact("supply_voltage", "c", None, 3.3), values, withheld)[0] == "numbers"
    assert classify(fact("frequency", "c", 1e6, None, 2e6), values, withheld)[0] == "withheld"
    assert classify(fact("quiescent_current", "c", None, None, 1e-3), values, withheld)[0] == "absent"


# --------------------------------------------------------------------------- power inputs
def _inputs(product_type: str) -> dict[str, str]:
    card = DocumentCard(doc_id="d", file_name="reg.pdf", series=["XY100"], part_numbers=["XY100"], product_type=product_type)
    rows = [["Parameter", "Symbol", "Value", "Unit"], ["Operating Input Voltage", "", "2 to 24", "V"],
            ["Input voltage range(1)(2)", "", "2.2 to 5.5", "V"], ["Enable input voltage", "", "0 to 5.5", "V"]]
    return {v.parameter_printed: v.parameter for v in extract_specs(card, [_chunk(rows, title="Recommended Operating Conditions")])}


def test_a_regulators_input_voltage_is_its_supply() -> None:
    got = _inputs("DC-DC converter")
    assert got["Operating Input Voltage"] == got["Input voltage range(1)(2)"] == "supply_voltage"
    assert got["Enable input voltage"] != "supply_voltage"  # a name saying more
    assert _inputs("operational amplifier")["Operating Input Voltage"] != "supply_voltage"  # an op amp's is a signal


def test_power_inputs_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "POWER_INPUTS", False)
    assert _inputs("voltage regulator")["Operating Input Voltage"] != "supply_voltage"


# --------------------------------------------------------------------------- qualifier names
@pytest.mark.parametrize(
    ("name", "unit", "want"),
    [("Supply current (quiescent)", "A", "quiescent_current"), ("Current (Shutdown)", "A", "standby_current"),
     ("Temperature (operating)", "°C", "operating_temperature"),
     ("Supply voltage (VIN)", "V", "supply_voltage"),  # a symbol in parentheses names no kind
     ("Frequency (after calibration)", "Hz", "frequency")],  # nor does a phrase
)
def test_a_word_in_parentheses_names_the_kind(name: str, unit: str, want: str) -> None:
    from layoutrag.specs import match_parameter

    assert match_parameter(name, unit=unit) == (want, True)


def test_qualifier_names_ablation(monkeypatch: pytest.MonkeyPatch) -> None:
    import layoutrag.specs as specs_mod
    from layoutrag.specs import match_parameter

    monkeypatch.setattr(specs_mod, "QUALIFIER_NAMES", False)
    assert match_parameter("Supply current (quiescent)", unit="A") == ("supply_current", True)
