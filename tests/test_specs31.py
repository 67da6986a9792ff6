"""specs-31 / specs-32: the terms of the other common device classes (IEC 60748-3, IEC 60747-2/-8, JEDEC JESD24 / JESD99) as
canonical parameters - op-amp input offset current, CMRR, PSRR, large-signal voltage gain; diode and FET forward
voltage, reverse recovery time, input / output capacitance, total gate charge; input and output leakage current;
thermal shutdown temperature and soft-start time - and the names they must not take (a regulator's external
capacitors, an MCU's I/O pin current, an I/O pin's capacitance, a hysteresis). A known name printed with another
quantity's unit is kept under the id any unknown name gets (`printed_id`)."""

from __future__ import annotations

import pytest

import layoutrag.chunking.specs as stage
import layoutrag.parametric as parametric_mod
import layoutrag.specs as specs_mod
from chunk_factory import grid_chunk, grid_row, printed_words, table_chunk
from layoutrag.chunking.card import product_type_in
from layoutrag.chunking.specs import extract_specs
from layoutrag.errors import InputError
from layoutrag.parametric import parse_constraints
from layoutrag.records import Box, Chunk, DocumentCard, Region
from layoutrag.specs import format_quantity, match_parameter, parse_constraint, parse_unit, parse_value

CARD = DocumentCard(doc_id="d", file_name="opamp.pdf", series=["XY358"], part_numbers=["XY358"])
COLS = [(60, 200), (200, 250), (250, 300), (300, 350), (350, 400), (400, 450)]


@pytest.mark.parametrize(
    ("name", "symbol", "unit", "pid"),
    [
        ("Input Offset Current", "IOS", "A", "input_offset_current"),
        ("Common-Mode Rejection Ratio", "", "dB", "cmrr"),
        ("Supply Voltage Rejection Ratio", "kSVR", "dB", "psrr"),  # not the supply voltage
        ("Power supply rejection ratio (ripple rejection)", "", "dB", "psrr"),
        ("Large Signal Voltage Gain", "AVOL", "V/V", "open_loop_gain"),
        ("Maximum Instantaneous Forward Voltage", "vF", "V", "forward_voltage"),
        ("Body Diode Reverse Recovery Time", "trr", "s", "reverse_recovery_time"),
        ("Input capacitance (all input-only pins)", "CI", "F", "input_capacitance"),
        ("Output Capacitance", "Coss", "F", "output_capacitance"),
        ("Total Gate Charge", "Qg(10V)", "C", "total_gate_charge"),
        ("输入漏电流", "ILI", "A", "input_leakage_current"),
        ("Output leakage current", "ILO", "A", "output_leakage_current"),
        ("Thermal shutdown temperature", "TSD", "°C", "thermal_shutdown_temperature"),
        ("Soft-start time", "tSS", "s", "soft_start_time"),
        # specs-32: the same standards' next terms
        ("Input Offset Voltage Drift", "", "V/°C", "input_offset_voltage_drift"),
        ("Average Input Offset Voltage Drift", "TCVos", "V/°C", "input_offset_voltage_drift"),
        ("Input Offset Current Drift", "", "A/°C", "input_offset_current_drift"),
        ("Input Common-Mode Voltage Range", "", "V", "common_mode_input_range"),
        ("Voltage Noise Density", "en", "V/√Hz", "voltage_noise_density"),
        ("Maximum repetitive peak reverse voltage", "VRRM", "V", "repetitive_peak_reverse_voltage"),
        ("Maximum DC blocking voltage", "VDC", "V", "reverse_voltage"),
        ("Average Rectified Forward Current", "IF(AV)", "A", "average_forward_current"),
        ("non-repetitive peak forward current", "IFSM", "A", "surge_forward_current"),
        ("Collector-emitter saturation voltage", "VCE (sat)", "V", "collector_emitter_saturation_voltage"),
        # specs-34: a current limit is no output current
        ("Output current limit", "", "A", "current_limit"),
        ("SW Current Limit (1)", "", "A", "current_limit"),
        ("Self Protection Current Limit", "ILIMIT", "A", "current_limit"),
        # specs-35
        ("VIN under-voltage lockout threshold rising", "VINVTH", "V", "uvlo_threshold"),
        ("输入欠压锁定下门限", "", "V", "uvlo_threshold"),
        ("Resolution", "", "bit", "resolution"),
        # specs-36
        ("Differential input voltage, VID (see Note 2)", "", "V", "differential_input_voltage"),
        ("Channel Separation (at 1.0 kHz)", "", "dB", "channel_separation"),
    ],
)
def test_device_terms_are_canonical_parameters(name: str, symbol: str, unit: str, pid: str) -> None:
    assert match_parameter(name, symbol, unit=unit) == (pid, True)


@pytest.mark.parametrize(
    ("name", "symbol", "unit", "not_pid"),
    [
        ("CIN Input capacitor", "", "F", "input_capacitance"),  # a regulator's external capacitor
        ("COUT Output capacitance", "", "F", "output_capacitance"),
        ("Output Capacitance Load", "CLOAD", "F", "output_capacitance"),  # the load on the output
        ("Input/output capacitance (DQ, DM)", "CIO", "F", "output_capacitance"),  # an I/O pin's
        ("Sink current on any I/O pins", "IIO", "A", "input_offset_current"),  # I_IO is an MCU's pin current too
        ("Thermal shutdown hysteresis", "", "°C", "thermal_shutdown_temperature"),
        ("Input Noise Voltage", "en", "V", "voltage_noise_density"),  # 0.1 Hz to 10 Hz peak-to-peak: a voltage
        ("Reverse voltage coefficient", "", "V", "reverse_voltage"),  # a reverse voltage is the whole name only
        ("Current limit threshold", "", "V", "current_limit"),  # a threshold voltage, not the current
        ("UVLO hysteresis", "", "V", "uvlo_threshold"),  # a hysteresis is another quantity
        ("输入欠压锁定迟滞量", "", "V", "uvlo_threshold"),  # 迟滞: the same modifier in Chinese
        ("Timer resolution", "", "bit", "resolution"),  # the whole name only
    ],
)
def test_names_that_only_look_like_device_terms_are_not_read_so(name: str, symbol: str, unit: str, not_pid: str) -> None:
    assert match_parameter(name, symbol, unit=unit)[0] != not_pid


def test_a_gain_printed_in_v_per_mv_is_stored_as_a_ratio_and_filters() -> None:
    pv = parse_value("50", "V/mV")
    assert pv is not None
    assert (pv.typ, pv.unit, pv.unit_printed) == (pytest.approx(50_000), "V/V", "V/mV")
    c = parse_constraint("CMRR >= 80 dB")
    assert (c.parameter, c.op, c.value, c.unit) == ("cmrr", ">=", 80.0, "dB")


def test_a_known_name_in_another_quantitys_unit_keeps_the_printed_id() -> None:
    rows = [
        grid_row(["Parameter", "Symbol", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        grid_row(["Output-Voltage", "VOUT", "-1", "", "1", "%"], 112, COLS),  # an accuracy in %, not volts
        grid_row(["Input Offset Current", "IOS", "", "0.5", "5", "nA"], 124, COLS),
    ]
    got = {v.parameter_printed: (v.parameter, v.known) for v in extract_specs(CARD, [table_chunk(rows)], None)}
    assert got["Output-Voltage"] == ("output voltage", False)  # as any unknown name: hyphen read as a space
    assert got["Input Offset Current"] == ("input_offset_current", True)


# specs-33 amplifier-inputs: an op amp's or comparator's characteristics "Input Voltage Range" is its common-mode
# input range (a regulator's "Input Voltage" is its supply, specs-19's power-inputs)
def _input_range(product_type: str, title: str = "Electrical Characteristics") -> dict[str, str]:
    card = CARD.model_copy(update={"product_type": product_type})
    rows = [
        grid_row(["Parameter", "Symbol", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        grid_row(["Input Voltage Range", "", "-0.2", "", "3.0", "V"], 112, COLS),
    ]
    return {v.parameter_printed: v.parameter for v in extract_specs(card, [table_chunk(rows, title=title)], None)}


def test_an_amplifiers_input_voltage_range_is_its_common_mode_range() -> None:
    assert _input_range("operational amplifier")["Input Voltage Range"] == "common_mode_input_range"
    assert _input_range("comparator")["Input Voltage Range"] == "common_mode_input_range"
    assert _input_range("voltage regulator")["Input Voltage Range"] == "supply_voltage"
    assert _input_range("microcontroller")["Input Voltage Range"] == "input voltage range"


def test_amplifier_inputs_leave_ratings_and_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _input_range("operational amplifier", "Absolute Maximum Ratings")["Input Voltage Range"] == "input voltage range"
    monkeypatch.setattr(stage, "AMPLIFIER_INPUTS", False)
    assert _input_range("operational amplifier")["Input Voltage Range"] == "input voltage range"


def test_a_query_names_its_product_type_by_any_of_the_types_words() -> None:
    types = ("operational amplifier", "voltage regulator", "MOSFET", "crystal")
    cons, ptype, rest = parse_constraints(None, "op amp CMRR above 90 dB", types)
    assert (ptype, rest) == ("operational amplifier", "")
    assert [(c.parameter, c.op, c.value) for c in cons] == [("cmrr", ">=", 90.0)]
    cons, ptype, rest = parse_constraints(None, "LDO dropout below 300 mV", types)
    assert (ptype, rest) == ("voltage regulator", "")
    assert [(c.parameter, c.op, c.value, c.unit) for c in cons] == [("dropout_voltage", "<=", pytest.approx(0.3), "V")]
    assert parse_constraints(None, "op amp CMRR above 90 dB", ("crystal",))[1:] == (None, "op amp")  # not in the store


def test_new_units_are_shown_with_their_prefix() -> None:
    assert format_quantity(2e-8, "C") == "20 nC"
    assert format_quantity(1.5e-6, "V/°C") == "1.5 µV/°C"
    assert format_quantity(1.6e-8, "V/√Hz") == "16 nV/√Hz"


# specs-37: a coefficient per degree written without the degree sign ("ppm/C", "uV/C") or per kelvin ("%/K": a
# temperature interval of 1 K is one of 1 °C) is per °C; a percentage per degree is stored in ppm/°C
@pytest.mark.parametrize(
    ("printed", "unit", "factor"),
    [("ppm/C", "ppm/°C", 1.0), ("uV/C", "V/°C", 1e-6), ("%/K", "ppm/°C", 1e4), ("%/°C", "ppm/°C", 1e4), ("mV/degC", "V/°C", 1e-3)],
)
def test_a_coefficient_per_degree_is_per_degree_celsius(printed: str, unit: str, factor: float) -> None:
    assert parse_unit(printed) == (unit, pytest.approx(factor))
    assert parse_unit("K/W") == ("°C/W", 1.0)  # a thermal resistance is not touched


def test_a_user_types_a_drift_without_the_degree_sign() -> None:
    c = parse_constraint("input offset voltage drift < 2 uV/C")
    assert (c.parameter, c.op, c.value, c.unit) == ("input_offset_voltage_drift", "<", pytest.approx(2e-6), "V/°C")


def test_per_degree_units_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(specs_mod, "PER_DEGREE_UNITS", False)
    assert parse_unit("ppm/C") is None


def test_a_chinese_query_or_title_names_the_type_by_its_chinese_category_name() -> None:
    types = ("operational amplifier", "comparator", "voltage regulator")
    cons, ptype, rest = parse_constraints(None, "运放 共模抑制比 大于 80 dB", types)
    assert (ptype, rest, [c.parameter for c in cons]) == ("operational amplifier", "", ["cmrr"])
    assert product_type_in("XY393 低功耗双路电压比较器") == "comparator"
    assert product_type_in("XY1117 线性稳压器") == "voltage regulator"


# specs-38 gain-decibels: a voltage gain printed in dB is 20 log10 of the ratio (IEC 60027-3)
def _gain_rows() -> dict[str, tuple[float | None, str, str]]:
    rows = [
        grid_row(["Parameter", "Symbol", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        grid_row(["Open-Loop Gain", "AOL", "100", "120", "", "dB"], 112, COLS),
        grid_row(["Large Signal Voltage Gain", "AVOL", "50", "", "", "V/mV"], 124, COLS),
    ]
    return {v.parameter_printed: (v.typ if v.typ is not None else v.min, v.parameter, v.unit_printed)
            for v in extract_specs(CARD, [table_chunk(rows)], None)}


def test_a_gain_in_db_is_stored_as_its_voltage_ratio() -> None:
    got = _gain_rows()
    assert got["Open-Loop Gain"] == (pytest.approx(1e6), "open_loop_gain", "dB")
    assert got["Large Signal Voltage Gain"] == (pytest.approx(5e4), "open_loop_gain", "V/mV")
    c = parse_constraint("open loop gain >= 100 dB")
    assert (c.parameter, c.value, c.unit) == ("open_loop_gain", pytest.approx(1e5), "V/V")


def test_gain_decibels_off_keeps_the_printed_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(specs_mod, "GAIN_DECIBELS", False)
    assert _gain_rows()["Open-Loop Gain"][1] == "open loop gain"


# specs-39 temperature-items: temperature ranges printed as items under one group name (IEC 60068-1: operating and
# storage ranges are distinct ratings)
def _items(rows: list[list[str]], cols: list[tuple[float, float]], title: str = "General Specifications") -> dict[str, tuple]:
    chunk = table_chunk([grid_row(r, 100 + 12 * i, cols) for i, r in enumerate(rows)], title=title)
    return {v.parameter_printed: (v.parameter, v.min, v.max) for v in extract_specs(CARD, [chunk], None)}


def test_temperature_items_under_one_name_are_each_their_range() -> None:
    three = [(40.0, 160.0), (160.0, 240.0), (240.0, 500.0)]
    got = _items([["Ambient temperature", "Operating", "-30° to 80°C with no icing"],
                  ["", "Storage", "-30° to 100°C with no icing"],
                  ["Humidity", "Operating", "45% to 85% RH"]], three)
    assert got["Ambient temperature Operating"] == ("operating_temperature", -30.0, 80.0)
    assert got["Ambient temperature Storage"] == ("storage_temperature", -30.0, 100.0)
    two = [(40.0, 300.0), (300.0, 500.0)]
    got = _items([["Temperature ranges – Operating", "–40 °C to +85°C"], ["– Case temperature", "+100 °C max."],
                  ["– Storage", "–55 °C to +105°C"]], two)
    assert got == {"Temperature ranges - Operating": ("operating_temperature", -40.0, 85.0),  # the dash folded
                   "Temperature ranges - Storage": ("storage_temperature", -55.0, 105.0)}  # "Case temperature": no range


def test_a_temperature_range_whose_item_is_storage_in_its_conditions_is_a_storage_temperature(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = [
        grid_row(["Parameter", "Conditions", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        grid_row(["Ambient temperature", "Operation", "0", "", "50", "°C"], 112, COLS),
        grid_row(["", "Storage", "-20", "", "70", "°C"], 124, COLS),
    ]
    got = {(v.min, v.max): v.parameter for v in extract_specs(CARD, [table_chunk(rows)], None)}
    assert got == {(0.0, 50.0): "operating_temperature", (-20.0, 70.0): "storage_temperature"}
    monkeypatch.setattr(stage, "TEMPERATURE_ITEMS", False)
    got = {(v.min, v.max): v.parameter for v in extract_specs(CARD, [table_chunk(rows)], None)}
    assert got == {(0.0, 50.0): "operating_temperature", (-20.0, 70.0): "operating_temperature"}


def test_temperature_items_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "TEMPERATURE_ITEMS", False)
    got = _items([["Ambient temperature", "Operating", "-30° to 80°C"], ["", "Storage", "-30° to 100°C"]],
                 [(40.0, 160.0), (160.0, 240.0), (240.0, 500.0)])
    assert "Ambient temperature Storage" not in got


# specs-40: a sensor's, regulator's or oscillator's turn-on / power-up time is its start-up time (IEC 60679-1); a
# switching device's turn-on time is a switching time (IEC 60747-1's t_on) and stays as printed
def _turn_on(product_type: str) -> dict[str, str]:
    card = CARD.model_copy(update={"product_type": product_type})
    rows = [
        grid_row(["Parameter", "Symbol", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        grid_row(["Device Turn-On Time", "", "", "0.5", "1", "ms"], 112, COLS),
        grid_row(["Power-up Time", "TRDY", "", "2", "10", "ms"], 124, COLS),
        grid_row(["Turn-On Delay Time", "td(on)", "", "7", "", "ns"], 136, COLS),
    ]
    return {v.parameter_printed: v.parameter for v in extract_specs(card, [table_chunk(rows)], None)}


def test_a_sensors_turn_on_time_is_its_start_up_time() -> None:
    got = _turn_on("temperature sensor")
    assert got == {"Device Turn-On Time": "startup_time", "Power-up Time": "startup_time",
                   "Turn-On Delay Time": "turn on delay time"}
    assert _turn_on("optocoupler")["Device Turn-On Time"] == "device turn on time"  # a switching time
    assert _turn_on("optocoupler")["Power-up Time"] == "startup_time"  # the vocabulary's name, any type


def test_turn_on_times_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "TURN_ON_TIMES", False)
    assert _turn_on("voltage regulator")["Device Turn-On Time"] == "device turn on time"


# specs-41: a row whose whole name is a two-letter vocabulary symbol prints no other name (symbol-only-names); a
# table printed in halves side by side names each value by its own half's row name (side-halves)
def test_a_name_that_is_only_a_two_letter_symbol_is_that_symbol() -> None:
    assert match_parameter("VS", unit="V") == ("supply_voltage", True)
    assert match_parameter("VS Sense", unit="V")[1] is False  # a name printed beside it: two letters decide nothing
    assert match_parameter("VS", unit="A")[1] is False  # the unit must agree
    rows = [["Parameter", "Rating"], ["VS", "−0.3 V to +3.6 V"], ["Temperature Range (Storage)", "−65°C to +150°C"]]
    got = {v.parameter_printed: (v.parameter, v.min, v.max) for v in extract_specs(CARD, [grid_chunk(rows, COLS[:2])], None)}
    assert got["VS"] == ("supply_voltage", -0.3, 3.6)


def _halves() -> list[tuple[str, str, float | None]]:
    rows = [["Type", "fo", "Type", "fo"], ["TSOP1730", "30 kHz", "TSOP1733", "33 kHz"], ["TSOP1756", "56 kHz", "", ""]]
    card = CARD.model_copy(update={"part_numbers": ["TSOP1730", "TSOP1733", "TSOP1756"]})
    return sorted((v.part, v.conditions, v.typ) for v in extract_specs(card, [grid_chunk(rows, COLS[:4])], None))


def test_a_table_printed_in_halves_names_each_value_by_its_half() -> None:
    assert _halves() == [("TSOP1730", "TSOP1730", 30000.0), ("TSOP1733", "TSOP1733", 33000.0),
                         ("TSOP1756", "TSOP1756", 56000.0)]


def test_side_halves_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "SIDE_HALVES", False)
    assert ("TSOP1730", "TSOP1730", 33000.0) in _halves()  # the right half under the left half's name
    monkeypatch.setattr(specs_mod, "SYMBOL_ONLY_NAMES", False)
    assert match_parameter("VS", unit="V")[1] is False


# specs-42 list-numbers: a spec list's item number is no part of the name
@pytest.mark.parametrize(
    ("printed", "unit", "pid"),
    [("3.Frequency(标称频率)", "Hz", "frequency"), ("4. Temperature Range", "°C", "operating_temperature"),
     ("12.Operating Temperature Range（工作温度范围）", "°C", "operating_temperature"), ("(2) Load Capacitance", "F", "load_capacitance")],
)
def test_a_list_number_before_a_name_is_no_part_of_it(printed: str, unit: str, pid: str) -> None:
    assert match_parameter(printed, unit=unit) == (pid, True)


def test_a_number_that_is_a_value_is_not_a_list_number(monkeypatch: pytest.MonkeyPatch) -> None:
    assert specs_mod._LIST_NUMBER_RE.match("1.5 V Output") is None and specs_mod._LIST_NUMBER_RE.match("3.Frequency")
    monkeypatch.setattr(specs_mod, "LIST_NUMBERS", False)
    assert match_parameter("3.Frequency", unit="Hz")[1] is False


# natural parametric queries: a bare range, a symbol typed in another case, a value owned by an unread word, a family
def _read(q: str, types: tuple[str, ...] = ("crystal", "TCXO", "MOSFET", "temperature sensor")) -> tuple[list, str | None, str]:
    cons, ptype, rest = parse_constraints(None, q, types)
    return [(c.parameter, c.op, c.value, c.value2, c.unit) for c in cons], ptype, rest


def test_a_bare_range_is_a_range_the_part_must_cover() -> None:
    cons, _, rest = _read("LDO dropout below 200 mV, -40 to 125 °C")
    assert ("operating_temperature", "range", -40.0, 125.0, "°C") in cons and "-40" not in rest


def test_a_symbol_typed_in_another_case_names_its_parameter() -> None:
    cons, ptype, rest = _read("MOSFET Rds(on) < 50 mOhm, Vds >= 30 V")
    assert ptype == "MOSFET" and rest == ""
    assert cons == [("rds_on", "<", pytest.approx(0.05), None, "ohm"), ("drain_source_voltage", ">=", 30.0, None, "V")]


def test_a_value_after_a_word_no_parameter_names_is_left_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _read("temperature sensor accuracy ±1 °C") == ([], "temperature sensor", "accuracy ±1 °C")
    cons, _, rest = _read("supply 3.3 V TCXO 26 MHz")  # a word of the default parameter's names reads with it
    assert cons == [("supply_voltage", "=", 3.3, None, "V"), ("frequency", "=", 26e6, None, "Hz")] and rest == ""
    monkeypatch.setattr(specs_mod, "BARE_OWNERS", False)
    assert _read("temperature sensor accuracy ±1 °C")[0] == [("operating_temperature", "=", 1.0, None, "°C")]


def test_a_query_names_a_family_of_types() -> None:
    from layoutrag.parametric import covers_any

    assert _read("oscillator startup time under 5 ms")[1] == "oscillator"  # the TCXO is one; the crystal is not
    assert covers_any("oscillator", ("TCXO",)) and not covers_any("oscillator", ("crystal",))
    assert covers_any("sensor", ("temperature sensor",)) and not covers_any("sensor", ("crystal",))
    assert _read("oscillator startup time under 5 ms", ("crystal",))[1] is None  # no oscillator in the store


# specs-43: "+/-" typed for ±, the Chinese names of SI units (GB 3100 / 3102), Chinese text run together with values
@pytest.mark.parametrize(
    ("text", "expect"),
    [("+/-20ppm", (-20.0, None, 20.0, "ppm")), ("+- 0.5 V", (-0.5, None, 0.5, "V")), ("60 欧姆", (None, 60.0, None, "ohm")),
     ("10千欧", (None, 1e4, None, "ohm")), ("26兆赫", (None, 26e6, None, "Hz")), ("12皮法", (None, pytest.approx(12e-12), None, "F")),
     ("5 毫安", (None, pytest.approx(5e-3), None, "A"))],
)
def test_ascii_plus_minus_and_chinese_unit_names(text: str, expect: tuple) -> None:
    pv = parse_value(text)
    assert pv is not None and (pv.min, pv.typ, pv.max, pv.unit) == expect


def test_a_chinese_query_run_together_reads_its_values_and_type(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _read("工作温度-40~85的TCXO")[:2] == ([("operating_temperature", "range", -40.0, 85.0, "°C")], "TCXO")
    assert _read("晶振 26兆赫 负载电容 12皮法")[0] == [("load_capacitance", "=", pytest.approx(1.2e-11), None, "F"),
                                                ("frequency", "=", 26e6, None, "Hz")]
    assert _read("frequency stability +/-20ppm")[0] == [("frequency_stability", "=", 20.0, None, "ppm")]
    monkeypatch.setattr(specs_mod, "PLUS_MINUS_ASCII", False)
    assert parse_value("+/-20ppm") is None


def test_a_positive_bound_on_a_value_printed_negative_is_on_its_magnitude(monkeypatch: pytest.MonkeyPatch) -> None:
    from layoutrag.records import SpecValue
    from layoutrag.specs import check_value

    def value(lo: float | None, typ: float | None, hi: float | None, unit: str = "V") -> SpecValue:
        return SpecValue(doc_id="d", part="P", parameter="vgs_th", parameter_printed="VGS(th)", min=lo, typ=typ, max=hi,
                         unit=unit, page=1, row_bbox_pdf=(0, 0, 1, 1), chunk_id="c")

    p_channel = value(-0.5, -0.9, -1.3)  # a p-channel threshold: min / max are magnitudes
    assert check_value(parse_constraint("vgs(th) <= 1.5 V"), p_channel) is True
    assert check_value(parse_constraint("vgs(th) <= 1 V"), p_channel) is False  # |max| 1.3 V
    assert check_value(parse_constraint("vgs(th) >= 0.4 V"), p_channel) is True
    assert check_value(parse_constraint("vgs(th) <= -1 V"), p_channel) is True  # a negative bound: as printed
    assert check_value(parse_constraint("vgs(th) <= 1 V"), value(-1.0, None, 1.0)) is True  # a ± range: as printed
    monkeypatch.setattr(specs_mod, "MAGNITUDES", False)
    assert check_value(parse_constraint("vgs(th) >= 0.4 V"), p_channel) is False


def test_ranges_spelled_with_both_units_or_between() -> None:
    assert _read("TCXO -40℃~+85℃")[0] == [("operating_temperature", "range", -40.0, 85.0, "°C")]
    assert _read("crystal 8 pF to 12 pF")[0] == [("load_capacitance", "range", pytest.approx(8e-12), pytest.approx(12e-12), "F")]
    assert _read("operating temperature from -40 to 85")[0] == [("operating_temperature", "range", -40.0, 85.0, "°C")]
    assert _read("ESR between 20 and 50 ohm")[0] == [("esr", ">=", 20.0, None, "ohm"), ("esr", "<=", 50.0, None, "ohm")]
    cons, _, _ = parse_constraints(["load capacitance between 8 pF and 12 pF"], None, ())
    assert [(c.op, c.value) for c in cons] == [(">=", pytest.approx(8e-12)), ("<=", pytest.approx(12e-12))]
    assert _read("op amp 2.7V to 5.5V", ("operational amplifier",))[:2] == (
        [("supply_voltage", "range", 2.7, 5.5, "V")], "operational amplifier")
    assert _read("oscillator 26 MHz")[:2] == ([("frequency", "=", 26e6, None, "Hz")], "oscillator")


def test_compare_shows_what_the_part_does_before_its_ratings() -> None:
    from layoutrag.parametric import SpecStore, compare_parts
    from layoutrag.records import SpecValue

    def value(table: str, lo: float, hi: float, page: int) -> SpecValue:
        return SpecValue(doc_id="d", part="XY358", parameter="supply_voltage", parameter_printed="Supply voltage",
                         min=lo, max=hi, unit="V", page=page, row_bbox_pdf=(0, 0, 1, 1), chunk_id="c", table=table)

    store = SpecStore({"d": CARD}, {"d": [value("ratings", -0.3, 6.0, 2), value("summary", 2.7, 5.5, 1),
                                          value("characteristics", 2.7, 5.5, 4)]})
    cell = compare_parts(store, ["XY358"]).rows[0].cells[0]
    assert [v.table for v in cell] == ["characteristics", "summary", "ratings"]


@pytest.mark.parametrize(
    ("query", "types", "expect"),
    [
        ("standby current 10 uA max", (), [("standby_current", "<=", pytest.approx(1e-5), None, "A")]),  # an operator after
        ("压差200mV以下 饱和电流3A以上", (),
         [("dropout_voltage", "<=", pytest.approx(0.2), None, "V"), ("rated_current", ">=", 3.0, None, "A")]),
        ("stability within ±0.28 ppm over -40 to +85°C", (),
         [("frequency_stability", "<=", 0.28, None, "ppm"), ("operating_temperature", "range", -40.0, 85.0, "°C")]),
        ("RDS(on) < 5 mOhm at VGS = 10 V", (), [("rds_on", "<", pytest.approx(0.005), None, "ohm")]),  # a condition
        ("PSRR at least 70 dB at 1 kHz", (), [("psrr", ">=", 70.0, None, "dB")]),
        ("power-on time below 10 ms", (), [("startup_time", "<=", pytest.approx(0.01), None, "s")]),  # hyphen or space
        ("RTC 1.8-5.5V", ("real-time clock",), [("supply_voltage", "range", 1.8, 5.5, "V")]),
        ("电源电压介于1.7V和5.5V之间", (), [("supply_voltage", ">=", 1.7, None, "V"), ("supply_voltage", "<=", 5.5, None, "V")]),
        ("aging less than 0.5 ppb/day", (), []),  # a unit the parser does not know: unread, not read without it
        ("12MHz晶体谐振器", ("crystal",), [("frequency", "=", 12e6, None, "Hz")]),
    ],
)
def test_natural_query_forms(query: str, types: tuple[str, ...], expect: list) -> None:
    assert _read(query, types or ("crystal",))[0] == expect


@pytest.mark.parametrize(
    ("query", "types", "ptype"),
    [("TVS diode 5V standoff", ("ESD protection", "diode"), "ESD protection"),  # the earliest words win
     ("TVS管 钳位电压不超过38.9V", ("ESD protection",), "ESD protection"),  # Chinese runs into the Latin word
     ("isolated converter 5V", ("DC-DC converter", "AC-DC converter"), "converter"),  # the family's own word
     ("low-noise amplifier", ("operational amplifier", "audio amplifier"), "amplifier"),
     ("buck converter 2 MHz", ("DC-DC converter",), "DC-DC converter"),
     ("serial flash memory 3.3V", ("flash memory",), "flash memory")],
)
def test_a_query_names_its_type_or_family(query: str, types: tuple[str, ...], ptype: str) -> None:
    assert _read(query, types)[1] == ptype


@pytest.mark.parametrize(
    ("query", "expect"),
    [
        ("3.3V output voltage, ±20ppm frequency tolerance", [("output_voltage", "=", 3.3, None, "V"),
                                                               ("frequency_tolerance", "=", 20.0, None, "ppm")]),
        ("16-bit resolution", [("resolution", "=", 16.0, None, "bit")]),  # a value typed before its name
        ("clamping voltage not exceeding 9.2 V, current limit greater than 2 A",
         [("clamping_voltage", "<=", 9.2, None, "V"), ("current_limit", ">=", 2.0, None, "A")]),
        ("输出电流不小于500mA 压摆率至少20V/us 共模抑制比最小110dB",
         [("output_current", ">=", 0.5, None, "A"), ("slew_rate", ">=", pytest.approx(2e7), None, "V/s"),
          ("cmrr", ">=", 110.0, None, "dB")]),
        ("-40…+85°C", [("operating_temperature", "range", -40.0, 85.0, "°C")]),  # NFKC's "..."
        ("电源电压1.6V至5.5V", [("supply_voltage", "range", 1.6, 5.5, "V")]),
        ("晶振32.768KHz负载电容12.5pF", [("load_capacitance", "=", pytest.approx(1.25e-11), None, "F"),
                                         ("frequency", "=", 32768.0, None, "Hz")]),  # named pieces are read first
        ("rated voltage 25V", []),  # "rated" names another voltage than the supply's: left unread
        ("ABM8-16.000MHZ-B2-T 16MHz 18pF", [("frequency", "=", 16e6, None, "Hz"),
                                           ("load_capacitance", "=", pytest.approx(1.8e-11), None, "F")]),
        ("humidity sensor with supply voltage between 2.4 and 5.5 V",
         [("supply_voltage", ">=", 2.4, None, "V"), ("supply_voltage", "<=", 5.5, None, "V")]),
    ],
)
def test_natural_query_forms_2(query: str, expect: list) -> None:
    assert _read(query, ("crystal", "humidity sensor"))[0] == expect


@pytest.mark.parametrize(
    ("query", "expect"),
    [
        # "VDS" inside "LVDS" names no drain-source voltage; "XO" (IEC 60679-1's crystal oscillator, a type since the
        # twenty-fourth session) owns the frequency after it, as "oscillator 26 MHz" does; "LVDS", an output's logic,
        # owns no value: 2.5V is the supply (twenty-sixth session, OUTPUT_WORDS)
        ("XO 100MHz LVDS 2.5V", [("frequency", "=", 1e8, None, "Hz"), ("supply_voltage", "=", 2.5, None, "V")]),
        ("工作电压1.6V至5.5V", [("supply_voltage", "range", 1.6, 5.5, "V")]),
        ("电压噪声密度小于5nV/√Hz", [("voltage_noise_density", "<=", pytest.approx(5e-9), None, "V/√Hz")]),
        ("静态电流不大于100uA（Vin=5V）", [("quiescent_current", "<=", pytest.approx(1e-4), None, "A")]),  # a condition
        ("正向电压不高于2.2V", [("forward_voltage", "<=", 2.2, None, "V")]),
        ("LDO输出电压3.3V输出电流不小于500mA", [("output_voltage", "=", 3.3, None, "V"), ("output_current", ">=", 0.5, None, "A")]),
    ],
)
def test_natural_query_forms_3(query: str, expect: list) -> None:
    assert _read(query)[0] == expect


def test_a_range_asked_of_a_single_valued_parameter_is_a_value_within_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from layoutrag.records import SpecValue
    from layoutrag.specs import check_value, describe_constraint

    def value(parameter: str, lo: float | None, typ: float | None, hi: float | None, unit: str) -> SpecValue:
        return SpecValue(doc_id="d", part="P", parameter=parameter, parameter_printed=parameter, min=lo, typ=typ, max=hi,
                         unit=unit, page=1, row_bbox_pdf=(0, 0, 1, 1), chunk_id="c")

    cl = parse_constraint("load capacitance = 12 to 20 pF")
    assert describe_constraint(cl) == "load_capacitance within 12 pF to 20 pF"
    assert check_value(cl, value("load_capacitance", None, 18e-12, None, "F")) is True  # 18 pF: within
    assert check_value(cl, value("load_capacitance", None, 8e-12, None, "F")) is False
    assert check_value(parse_constraint("frequency = 20 to 30 MHz"), value("frequency", 1e6, None, 100e6, "Hz")) is True
    temp = parse_constraint("operating temperature = -40 to 85")  # a working range: the part must cover it
    assert describe_constraint(temp) == "operating_temperature covers -40 to 85 °C"
    assert check_value(temp, value("operating_temperature", -20.0, None, 70.0, "°C")) is False
    assert check_value(temp, value("operating_temperature", None, 25.0, None, "°C")) is None
    monkeypatch.setattr(specs_mod, "RANGES_WITHIN", False)
    assert check_value(cl, value("load_capacitance", None, 18e-12, None, "F")) is None


def test_a_range_typed_high_to_low_is_the_same_range() -> None:
    c = parse_constraint("load capacitance = 20 to 12 pF")
    assert (c.op, c.value, c.value2, c.unit) == ("range", pytest.approx(12e-12), pytest.approx(20e-12), "F")


# --------------------------------------------------------------------------- specs-44: named temperatures
def _text_chunk(n: int, box: tuple[float, float, float, float], title: str = "") -> Chunk:
    return Chunk(chunk_id=f"d_p1_b{n:02d}", doc_id="d", page=1, block_type="text", native_text="",
                 regions=[Region(page=1, bbox_pdf=Box(*box), label="text")], section_title=title)


def _temperatures(
    lines: list[tuple[float, float, str]], title: str = "", chunks: list[Chunk] | None = None, font: str = "helv"
) -> list:
    """The spec stage over a page printing `lines` (x, baseline y, text) as two text blocks - names left of x = 240,
    values right of it - with no table the readers could read."""
    words = printed_words(lines, font=font)
    units = [_text_chunk(1, (40, 60, 239, 400), title), _text_chunk(2, (240, 60, 500, 400), title)]
    return extract_specs(CARD, [*(chunks or []), *units], lambda page: words if page == 1 else [])


# a ratings list the layout model split into a block of names and a block of values, printed line by line
RATINGS_LIST = [(50, 100, "Voltage on Any Pin Relative to Ground"), (250, 100, "-0.3V to +7.0V"),
                (50, 112, "Storage Temperature Range"), (250, 112, "-40°C to +85°C"),
                (50, 124, "Soldering Temperature"), (250, 124, "+260°C for 10 seconds")]


def test_a_temperature_range_no_table_gave_is_read_from_the_line_after_its_name() -> None:
    got = [v for v in _temperatures(RATINGS_LIST, "Absolute Maximum Ratings") if v.parameter == "storage_temperature"]
    assert [(v.min, v.max, v.unit, v.table, v.chunk_id) for v in got] == [(-40.0, 85.0, "°C", "ratings", "d_p1_b01")]
    cell = got[0].cells[0].bbox_pdf  # the range's own words, right of the names
    assert cell.x0 >= 249 and cell.x1 < 330 and 102 <= cell.y1 <= 116
    assert got[0].row_bbox_pdf.x0 < 60 and got[0].parameter_printed == "Storage Temperature Range"


def test_lines_without_a_value_between_the_name_and_its_range_are_passed_over(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "PART_RANGES", False)  # each part's range under the placeholder: specs-46 below
    lines = [(50, 100, "Specified Operating Temperature Range: TMIN to TMAX"), (50, 112, "(Note 2)"),
             (50, 124, "XY358, XY358A"), (250, 124, "-55°C to +150°C")]
    got = [(v.parameter, v.min, v.max) for v in _temperatures(lines, "Absolute Maximum Ratings")]
    assert got == [("operating_temperature", -55.0, 150.0)]


@pytest.mark.parametrize("lines", [
    [(50, 100, "Over the operating temperature range (TA = -40°C to +85°C)")],  # a table's condition
    [(50, 100, "Operating temperature range"), (250, 100, "TA = -40°C to +85°C")],  # a condition's "="
    [(50, 100, "Temperature Range"), (250, 100, "I"), (270, 100, "="), (290, 100, "-40°C to +85°C")],  # an order code
    [(50, 100, "Operating temperature range"), (50, 112, "Supply voltage"), (250, 112, "-40 to 85 °C")],  # next name
    [(50, 100, "Operating temperature range"), (250, 100, "5 V"), (250, 112, "-40°C to +85°C")],  # another unit
    [(50, 100, "Operating temperature"), (250, 100, "85°C")],  # not a range
])
def test_a_condition_an_option_another_name_or_unit_or_a_single_number_is_not_read(lines: list) -> None:
    assert [v for v in _temperatures(lines) if v.parameter.endswith("_temperature")] == []


def test_a_temperature_a_table_gave_is_not_read_again() -> None:
    table = grid_chunk([["Parameter", "Min", "Max", "Unit"], ["Operating temperature", "-20", "70", "°C"]],
                       [(60, 200), (200, 250), (250, 300), (300, 350)], title="Recommended operating conditions")
    table.chunk_id = "d_p1_b00"
    lines = [(50, 300, "Operating temperature range"), (250, 300, "-40°C to +85°C")]
    got = [(v.min, v.max) for v in _temperatures(lines, chunks=[table]) if v.parameter == "operating_temperature"]
    assert got == [(-20.0, 70.0)]


def test_named_temperatures_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "NAMED_TEMPERATURES", False)
    assert [v for v in _temperatures(RATINGS_LIST, "Absolute Maximum Ratings") if v.parameter.endswith("_temperature")] == []


# --------------------------------------------------------------------------- specs-46: part ranges
# National Semiconductor's ratings list: the operating range named by a placeholder, then given per part
PART_LIST = [(50, 100, "Specified Operating Temperature Range: TMIN to TMAX"), (50, 112, "(Note 2)"),
             (50, 124, "XY35, XY35A"), (250, 124, "-55°C to +150°C"),
             (50, 136, "XY35C, XY35CA"), (250, 136, "-40°C to +110°C"),
             (50, 148, "XY35D"), (250, 148, "0°C to +100°C"),
             (50, 172, "Electrical Characteristics")]


def _ranges(lines: list[tuple[float, float, str]], title: str = "Absolute Maximum Ratings") -> list:
    # a CJK font: the base-14 fonts print no "≤"
    got = _temperatures(lines, title, font="china-s")
    return sorted((v.part, v.min, v.max, v.table) for v in got if v.parameter == "operating_temperature")


def test_each_part_under_a_placeholder_range_gets_its_own_range() -> None:
    assert _ranges(PART_LIST) == [
        ("XY35", -55.0, 150.0, "ratings"), ("XY35A", -55.0, 150.0, "ratings"),
        ("XY35C", -40.0, 110.0, "ratings"), ("XY35CA", -40.0, 110.0, "ratings"), ("XY35D", 0.0, 100.0, "ratings"),
    ]
    got = next(v for v in _temperatures(PART_LIST, "Absolute Maximum Ratings") if v.part == "XY35D")
    assert got.value_text == "0°C to +100°C" and got.parameter_printed == "Specified Operating Temperature Range"
    cell = got.cells[0].bbox_pdf  # the range's words, not the part's
    assert cell.x0 >= 249 and 140 <= cell.y1 <= 152
    assert got.row_bbox_pdf.x0 < 60  # the row spans the part's name and its range


def test_a_note_mark_after_the_placeholder_is_no_value() -> None:
    lines = [(50, 100, "Operating Temperature Range: TMIN to TMAX (Note 3)"), (50, 112, "XY35D"), (250, 112, "0°C to +100°C")]
    assert _ranges(lines) == [("XY35D", 0.0, 100.0, "ratings")]


def test_a_range_printed_as_an_inequality_under_operating_ratings_is_a_condition_of_use() -> None:
    # "Temperature Range | TMIN ≤ TA ≤ TMAX" over "XY808 | 0 ≤ TA ≤ +75°C" in the ratings block's "Operating Ratings"
    lines = [(50, 100, "Absolute Maximum Ratings"), (50, 112, "Storage Temperature Range"), (250, 112, "-65°C to +150°C"),
             (50, 136, "Operating Ratings"), (50, 148, "Temperature Range"), (250, 148, "TMIN ≤ TA ≤ TMAX"),
             (50, 160, "XY808"), (250, 160, "0 ≤ TA ≤ +75°C")]
    assert _ranges(lines) == [("XY808", 0.0, 75.0, "characteristics")]


@pytest.mark.parametrize("lines", [
    # no placeholder: a name and a part's line are no part list
    [(50, 100, "Operating Temperature Range"), (50, 112, "XY35"), (250, 112, "Operating conditions apply")],
    # a placeholder for another quantity
    [(50, 100, "Junction Temperature: TMIN to TMAX"), (50, 112, "XY35"), (250, 112, "-55°C to +150°C")],
    # a sentence after the placeholder ends the list before the range it prints
    [(50, 100, "Temperature Range: TMIN to TMAX"), (50, 112, "see the ordering table for XY35"),
     (50, 124, "XY35"), (250, 124, "-55°C to +150°C")],
])
def test_no_part_range_without_a_placeholder_for_the_operating_range_and_parts_under_it(lines: list) -> None:
    assert [v for v in _temperatures(lines) if v.parameter == "operating_temperature" and v.part != "XY358"] == []


def test_part_ranges_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage, "PART_RANGES", False)
    monkeypatch.setattr(stage, "NAMED_TEMPERATURES", False)
    assert _ranges(PART_LIST) == []


# --------------------------------------------------------------------------- a query's plurals and function words
@pytest.mark.parametrize(("query", "ptype", "cons"), [
    ("crystals with ESR below 50k", "crystal", [("esr", "<=", 50000.0)]),
    ("TCXOs 26 MHz", "TCXO", [("frequency", "=", 26e6)]),
    ("op amps with supply current < 50 uA", "operational amplifier", [("supply_current", "<", 5e-05)]),
    ("MOSFETs Vds >= 30 V", "MOSFET", [("drain_source_voltage", ">=", 30.0)]),
])
def test_a_type_typed_in_the_plural_is_that_type(query: str, ptype: str, cons: list) -> None:
    types = ("crystal", "TCXO", "operational amplifier", "MOSFET", "real-time clock")
    got, typ, rest = parse_constraints(None, query, types)
    assert typ == ptype and [(c.parameter, c.op, pytest.approx(c.value)) for c in got] == cons
    assert rest == ""  # the plural's ending and the function words ("with") are not shown back as unread


def test_function_words_are_not_shown_back_as_unread() -> None:
    _, typ, rest = parse_constraints(None, "一个工作温度为-40~85的晶振", ("crystal",))
    assert typ == "crystal" and rest == ""
    _, _, rest = parse_constraints(None, "a part with ESR below 50k for the bus", ("crystal",))
    assert rest == "part bus"  # content words a query did not state as a constraint still are
    assert specs_mod.singular_view("bus class switches diodes") == "bus class switch   diode "


# --------------------------------------------------------------------------- a supply's word, bits, Chinese type names
@pytest.mark.parametrize(("query", "cons"), [
    # "between A and B" spelled as two bounds, each after the name's word "supply"
    ("op amp, supply between 2.7 V and 5.5 V", [("supply_voltage", ">=", 2.7), ("supply_voltage", "<=", 5.5)]),
    ("ADC, single 5V supply", [("supply_voltage", "=", 5.0)]),  # the name's word after the value
    ("16 bit DAC", [("resolution", "=", 16.0)]),  # a bare value in bits is a resolution
])
def test_a_supply_word_beside_a_voltage_and_a_bare_bit_count_are_read(query: str, cons: list) -> None:
    got, _, rest = parse_constraints(None, query, ("operational amplifier", "ADC", "DAC"))
    assert [(c.parameter, c.op, pytest.approx(c.value)) for c in got] == cons
    assert "supply" not in rest and "bit" not in rest


def test_a_voltage_another_word_owns_stays_unread() -> None:
    got, _, rest = parse_constraints(None, "rated voltage 25V", ("capacitor",))
    assert got == [] and "25V" in rest  # "rated" names another quantity: not the supply


def test_name_words_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(specs_mod, "NAME_WORDS", False)
    got, _, _ = parse_constraints(None, "op amp, supply between 2.7 V and 5.5 V", ("operational amplifier",))
    assert got == []


@pytest.mark.parametrize(("query", "ptype"), [
    ("温补晶振TCXO 19.2MHz 频率稳定度±0.5ppm", "TCXO"),  # not the crystal its last two characters name
    ("恒温晶振 10MHz", "OCXO"),
    ("N沟道MOS管 漏源电压30V", "MOSFET"),
    ("贴片电容 电容量22微法", "capacitor"),
    ("精密电阻 阻值4.7k欧", "resistor"),
])
def test_chinese_trade_names_name_their_type(query: str, ptype: str) -> None:
    types = ("crystal", "TCXO", "OCXO", "MOSFET", "capacitor", "resistor")
    assert parse_constraints(None, query, types)[1] == ptype


@pytest.mark.parametrize(("query", "cons"), [
    ("LDO, input voltage range 2.5V~6V", [("supply_voltage", "range", 2.5)]),
    ("buck converter, input voltage 4.5V to 28V, output current 3 A", [("supply_voltage", "range", 4.5), ("output_current", "=", 3.0)]),
    ("converter, input between 18 V and 75 V", [("supply_voltage", ">=", 18.0), ("supply_voltage", "<=", 75.0)]),
])
def test_a_power_parts_input_voltage_is_its_supply(query: str, cons: list) -> None:
    got, ptype, _ = parse_constraints(None, query, ("voltage regulator", "DC-DC converter", "operational amplifier"))
    assert ptype in ("voltage regulator", "DC-DC converter", "converter")
    assert [(c.parameter, c.op, pytest.approx(c.value)) for c in got] == cons


def test_an_amplifiers_input_voltage_stays_a_signal_range(monkeypatch: pytest.MonkeyPatch) -> None:
    types = ("voltage regulator", "operational amplifier")
    assert parse_constraints(None, "op amp, input voltage range 0 to 5 V", types)[0] == []
    monkeypatch.setattr(parametric_mod, "POWER_INPUT_QUERIES", False)
    assert parse_constraints(None, "LDO, input voltage range 2.5V~6V", types)[0] == []


def test_vc_of_a_surge_protection_query_is_the_clamping_voltage(monkeypatch: pytest.MonkeyPatch) -> None:
    types = ("ESD protection", "VCXO")
    got, _, _ = parse_constraints(None, "VBR 6.4V min, VC 10.5V, PPPM 600W", types)
    assert [(c.parameter, c.value) for c in got] == [
        ("breakdown_voltage", 6.4), ("clamping_voltage", 10.5), ("peak_pulse_power", 600.0)]
    got, ptype, _ = parse_constraints(None, "VCXO 100 MHz VC 1.65 V", types)
    assert ptype == "VCXO" and ("control_voltage", 1.65) in [(c.parameter, c.value) for c in got]
    monkeypatch.setattr(parametric_mod, "CLAMP_SYMBOL", False)
    got, _, _ = parse_constraints(None, "TVS VRWM 3.3V VC 7V", types)
    assert "control_voltage" in [c.parameter for c in got]


def test_a_parameter_that_holds_no_quantity_takes_no_value_in_a_unit() -> None:
    with pytest.raises(InputError, match="holds no value in 'V'"):
        parse_constraint("output type = 3.3 V")  # a word (CMOS, LVDS), not a voltage
    got, _, rest = parse_constraints(None, "LDO output 3.3V", ("voltage regulator",))
    assert [c.parameter for c in got] == ["output_voltage"]  # "output" completed by the volt's quantity, never output_type



# --------------------------------------------------------------------------- ranges in two prefixes, a name's condition
@pytest.mark.parametrize(("query", "cons"), [
    ("buck converter, switching frequency 400 kHz to 2.2 MHz", [("frequency", "range", 4e5, 2.2e6)]),
    ("DC/DC buck fsw 400kHz-2.2MHz", [("frequency", "range", 4e5, 2.2e6)]),
    ("LDO, output current 10 mA to 1 A", [("output_current", "range", 0.01, 1.0)]),
    ("crystal 8 pF to 12 pF", [("load_capacitance", "range", 8e-12, 1.2e-11)]),  # one unit: as before
])
def test_a_range_whose_ends_print_two_prefixes_of_one_unit_is_one_range(query: str, cons: list) -> None:
    got, _, rest = parse_constraints(None, query, ("DC-DC converter", "voltage regulator", "crystal"))
    assert [(c.parameter, c.op, pytest.approx(c.value), pytest.approx(c.value2)) for c in got] == cons
    assert not any(ch.isdigit() for ch in rest)  # nothing of the range left unread


def test_two_prefixed_ends_of_different_quantities_are_no_range(monkeypatch: pytest.MonkeyPatch) -> None:
    assert specs_mod.spelled_ranges("5 V to 2 mA") == "5 V to 2 mA"
    assert specs_mod.spelled_ranges("400 kHz to 2.2 MHz") == "0.4 to 2.2 MHz"
    monkeypatch.setattr(specs_mod, "PREFIXED_RANGES", False)
    assert specs_mod.spelled_ranges("400 kHz to 2.2 MHz") == "400 kHz to 2.2 MHz"


def test_a_names_condition_in_parentheses_is_read_with_the_name(monkeypatch: pytest.MonkeyPatch) -> None:
    q = "Output Frequency 156.25 MHz | RMS Phase Jitter (12 kHz–20 MHz) 0.25 ps max | VDD 2.5 V"
    got, _, _ = parse_constraints(None, q, ("oscillator",))
    assert [(c.parameter, c.op, pytest.approx(c.value)) for c in got] == [
        ("frequency", "=", 1.5625e8), ("phase_jitter", "<=", 2.5e-13), ("supply_voltage", "=", 2.5)]
    got, _, _ = parse_constraints(None, "oscillator supply current (no load) 5 mA", ("oscillator",))
    assert [(c.parameter, pytest.approx(c.value)) for c in got] == [("supply_current", 0.005)]
    # a value in parentheses is a condition - the jitter's band is no frequency; a temperature range is the one it holds over
    got, _, _ = parse_constraints(None, "RMS phase jitter below 200 fs (12 kHz to 20 MHz), 156.25 MHz oscillator", ("oscillator",))
    assert [(c.parameter, c.op) for c in got] == [("phase_jitter", "<="), ("frequency", "=")]
    got, _, _ = parse_constraints(None, "Frequency Stability: ±10ppm max (-20~+70℃)", ())
    assert [(c.parameter, c.op) for c in got] == [("frequency_stability", "<="), ("operating_temperature", "range")]
    monkeypatch.setattr(specs_mod, "NAME_CONDITIONS", False)
    got, _, _ = parse_constraints(None, "oscillator supply current (no load) 5 mA", ("oscillator",))
    assert got == []


def test_a_type_word_before_a_names_word_is_no_other_quantity(monkeypatch: pytest.MonkeyPatch) -> None:
    types = ("voltage regulator", "oscillator", "capacitor")
    got, _, _ = parse_constraints(None, "LDO supply 2.7 to 5.5 V", types)
    assert [(c.parameter, c.op, c.value, c.value2) for c in got] == [("supply_voltage", "range", 2.7, 5.5)]
    got, _, _ = parse_constraints(None, "oscillators supply 1.8V", types)
    assert [(c.parameter, c.value) for c in got] == [("supply_voltage", 1.8)]
    assert parse_constraints(None, "capacitor rated voltage 25V", types)[0] == []  # "rated" still owns it
    monkeypatch.setattr(specs_mod, "TYPE_BEFORE_NAME", False)
    monkeypatch.setattr(specs_mod, "NOUN_COMPLETION", False)  # which reads "supply 2.7 to 5.5 V" as "supply voltage ..."
    assert parse_constraints(None, "LDO supply 2.7 to 5.5 V", types)[0] == []


@pytest.mark.parametrize(("query", "cons"), [
    ("精密电阻 阻值4.7KΩ", [("resistance", 4700.0)]),
    ("电解电容 容量220微法", [("capacitance", 2.2e-4)]),
    ("贴片电阻 额定功率0.25W", [("power_dissipation", 0.25)]),
    ("单片机 主频72MHz", [("frequency", 7.2e7)]),
    ("肖特基二极管 反向电压40V", [("reverse_voltage", 40.0)]),
])
def test_the_chinese_standards_terms_name_their_parameters(query: str, cons: list) -> None:
    types = ("resistor", "capacitor", "microcontroller", "diode")
    got, _, _ = parse_constraints(None, query, types)
    assert [(c.parameter, pytest.approx(c.value)) for c in got] == cons


def test_a_memorys_capacity_in_bits_is_no_capacitance() -> None:
    got, _, rest = parse_constraints(None, "EEPROM 容量64Kbit 工作电压1.7~5.5V", ("EEPROM",))
    assert [c.parameter for c in got] == ["supply_voltage"] and "容量64Kbit" in rest
    rows = [
        grid_row(["Parameter", "Symbol", "Min", "Typ", "Max", "Unit"], 100, COLS, header=True),
        grid_row(["容量", "", "", "64", "", "Kbit"], 112, COLS),  # a memory's capacity
        grid_row(["容量", "", "", "2000", "", "mAh"], 124, COLS),  # a battery's
        grid_row(["容量", "C", "", "220", "", "µF"], 136, COLS),  # a capacitor's
    ]
    got = [(v.parameter, v.typ) for v in extract_specs(CARD, [table_chunk(rows)], None)]
    assert ("capacitance", pytest.approx(2.2e-4)) in got and [p for p, _ in got].count("capacitance") == 1


def test_an_output_logic_word_owns_no_value(monkeypatch: pytest.MonkeyPatch) -> None:
    types = ("oscillator", "TCXO")
    got, _, rest = parse_constraints(None, "XO 100MHz LVDS 2.5V", types)
    assert [(c.parameter, c.value) for c in got] == [("frequency", 1e8), ("supply_voltage", 2.5)] and rest == "LVDS"
    got, _, _ = parse_constraints(None, "TCXO 40MHz clipped sine 1.8V", types)
    assert ("supply_voltage", 1.8) in [(c.parameter, c.value) for c in got]
    got, _, _ = parse_constraints(None, "oscillator accuracy 2.5V", types)
    assert [c.parameter for c in got] == []  # another word still owns its value
    monkeypatch.setattr(specs_mod, "OUTPUT_WORDS", False)
    got, _, _ = parse_constraints(None, "XO 100MHz LVDS 2.5V", types)
    assert [c.parameter for c in got] == ["frequency"]


@pytest.mark.parametrize(("query", "ptype"), [
    ("BJT PNP VCE(sat) max 0.25V", "transistor"),
    ("C0G MLCC capacitance 100 nF", "capacitor"),
    ("current sense resistor 10 mΩ", "resistor"),  # not the current sensor its first words name
    ("ZXCT1008 current sense amplifier", "current sensor"),
    ("升压芯片 输入电压0.9V~5V", "DC-DC converter"),
    ("仪表放大器 共模抑制比最小110dB", "instrumentation amplifier"),  # the catalogue categories' Chinese names
    ("DSC60XX MEMS 振荡器", "MEMS oscillator"),
    ("给图像传感器配的晶振", "crystal"),  # 传感器 alone names no type: the part asked for is the crystal
])
def test_device_class_abbreviations_name_their_type(query: str, ptype: str) -> None:
    types = ("transistor", "capacitor", "resistor", "current sensor", "DC-DC converter", "instrumentation amplifier",
             "MEMS oscillator", "crystal", "sensor")
    assert parse_constraints(None, query, types)[1] == ptype


def test_a_type_pattern_ending_inside_a_word_takes_the_whole_word() -> None:
    _, ptype, rest = parse_constraints(None, "ZXCT1008 current sense amplifier", ("current sensor",))
    assert ptype == "current sensor" and rest == "ZXCT1008 amplifier"  # not "... e amplifier"


def test_a_question_word_owns_no_value() -> None:
    # the issue's own example: "which" before the frequency is a question's word, not a parameter's name
    got, ptype, rest = parse_constraints(None, "which 32.768 kHz crystals have ESR ≤ 50 kΩ and CL = 12.5 pF", ("crystal",))
    assert ptype == "crystal" and rest == ""
    assert sorted((c.parameter, c.value) for c in got) == [
        ("esr", 50000.0), ("frequency", 32768.0), ("load_capacitance", pytest.approx(1.25e-11))]
    assert "which" in specs_mod.FUNCTION_WORDS and "accuracy" not in specs_mod.FUNCTION_WORDS


@pytest.mark.parametrize(("query", "cons"), [
    ("LDO output 3.3V", [("output_voltage", 3.3)]),  # the name's head typed, its quantity left to the unit
    ("LDO输出3.3V", [("output_voltage", 3.3)]),
    ("RTC standby 500nA", [("standby_current", 5e-7)]),
    ("op amp 单电源5V", [("supply_voltage", 5.0)]),
    ("RTC I2C bus clock 400kHz", [("bus_clock_frequency", 4e5)]),
])
def test_a_names_head_before_a_value_is_completed_by_the_units_quantity(query: str, cons: list) -> None:
    types = ("voltage regulator", "real-time clock", "operational amplifier")
    got, _, rest = parse_constraints(None, query, types)
    assert [(c.parameter, pytest.approx(c.value)) for c in got] == cons and rest in ("", "I2C", "单")


def test_noun_completion_leaves_types_operators_and_unknown_names(monkeypatch: pytest.MonkeyPatch) -> None:
    types = ("oscillator", "crystal", "capacitor")
    got, ptype, _ = parse_constraints(None, "oscillator 26 MHz", types)  # not "oscillator frequency": the type
    assert ptype == "oscillator" and [c.parameter for c in got] == ["frequency"]
    got, _, _ = parse_constraints(None, "无源晶振 8MHz 谐振电阻不超过80欧", types)  # 不超过 is an operator, not a name's head
    assert ("esr", "<=", 80.0) in [(c.parameter, c.op, c.value) for c in got]
    assert parse_constraints(None, "capacitor rated voltage 25V", types)[0] == []  # "rated voltage" is no name
    monkeypatch.setattr(specs_mod, "NOUN_COMPLETION", False)
    assert parse_constraints(None, "LDO output 3.3V", ("voltage regulator",))[0] == []


@pytest.mark.parametrize(("query", "cons"), [
    ("LDO supply voltage range 1.8V to 5.5V", [("supply_voltage", "range", 1.8, 5.5)]),
    ("buck output voltage range 0.8 to 5 V", [("output_voltage", "range", 0.8, 5.0)]),
    ("LDO 工作电压范围1.8~5.5V", [("supply_voltage", "range", 1.8, 5.5)]),
    ("VCXO 牵引范围大于±50ppm", [("pull_range", ">=", 50.0, None)]),  # a name that ends in 范围 itself: as before
])
def test_range_after_a_name_is_that_quantitys_range(query: str, cons: list, monkeypatch: pytest.MonkeyPatch) -> None:
    types = ("voltage regulator", "DC-DC converter", "VCXO")
    got, _, rest = parse_constraints(None, query, types)
    assert [(c.parameter, c.op, c.value, c.value2) for c in got] == cons and rest == ""
    if "range" in query and "to" in query:
        monkeypatch.setattr(specs_mod, "RANGE_WORDS", False)
        assert parse_constraints(None, query, types)[0] == []


@pytest.mark.parametrize(("query", "cons"), [
    ("LDO linear regulator 3.3V output", [("output_voltage", 3.3)]),  # was a supply voltage of 3.3 V
    ("LDO 500mA output, 3.3V output", [("output_current", 0.5), ("output_voltage", 3.3)]),
    ("ADC, 5V supply voltage", [("supply_voltage", 5.0)]),  # a longer name typed whole: read as before
])
def test_a_names_head_after_a_value_is_completed_too(query: str, cons: list) -> None:
    got, _, rest = parse_constraints(None, query, ("voltage regulator", "ADC"))
    assert [(c.parameter, pytest.approx(c.value)) for c in got] == cons and rest == ""


def test_the_types_other_words_are_not_shown_back_as_unread() -> None:
    _, ptype, rest = parse_constraints(None, "synchronous buck converter fsw 2MHz", ("DC-DC converter",))
    assert ptype == "DC-DC converter" and rest == "synchronous"  # "converter" is the type's word too


def test_input_after_a_value_is_not_the_next_values_name(monkeypatch: pytest.MonkeyPatch) -> None:
    types = ("voltage regulator", "DC-DC converter")
    got, _, _ = parse_constraints(None, "buck 12V input 5V output", types)  # was a 5 V supply, the 12 V left unread
    assert [(c.parameter, c.value) for c in got] == [("supply_voltage", 12.0), ("output_voltage", 5.0)]
    got, _, _ = parse_constraints(None, "buck converter input 4.5V to 28V", types)  # "input" before its value: as before
    assert [(c.parameter, c.op, c.value, c.value2) for c in got] == [("supply_voltage", "range", 4.5, 28.0)]


def test_a_value_after_at_is_a_condition_even_before_a_name() -> None:
    types = ("oscillator", "voltage regulator")
    got, _, _ = parse_constraints(None, "oscillator 3.3V at 25°C ambient", types)  # not an operating temperature of 25
    assert [(c.parameter, c.value) for c in got] == [("supply_voltage", 3.3)]
    got, _, _ = parse_constraints(None, "LDO dropout 200mV @ 100mA output current", types)  # not an output current
    assert [c.parameter for c in got] == ["dropout_voltage"]
