"""The spec values a generated datasheet prints, as ground truth for the spec stage.

One record per printed value cell: document, page, part (the series for the spec tables, the
ordering code for the ordering table), table (ratings, characteristics, ordering), canonical parameter, the cell's role (min, typ, max or
value), its text, the numbers it states in the canonical unit, the unit, and the cell's text box
and row box in PDF points, and the row's conditions as printed. The generator knows what it printed, so nothing here reads the PDF;
numbers are read from the generator's own strings with the small rules below (its formats only),
independently of ``layoutrag.specs``.
"""

from __future__ import annotations

import re
from typing import Any

from layoutrag.samples.queries import Facts
from layoutrag.samples.spec import DocSpec

__all__ = ["PARAMETER_IDS", "spec_truth"]

# printed parameter name -> canonical id (data/spec_parameters.tsv); names not listed are kept
# under their printed name, lower case (what the spec stage does with unknown parameters)
PARAMETER_IDS = {
    "Frequency range": "frequency",
    "Nominal frequency": "frequency",
    "Frequency tolerance": "frequency_tolerance",
    "Frequency stability": "frequency_stability",
    "Clock accuracy": "frequency_tolerance",
    "Stability vs. supply voltage": "stability_vs_supply",
    "Operating temperature range": "operating_temperature",
    "Storage temperature range": "storage_temperature",
    "Storage temperature": "storage_temperature",
    "Soldering temperature": "soldering_temperature",
    "Turnover temperature": "turnover_temperature",
    "Parabolic coefficient": "parabolic_coefficient",
    "Load capacitance": "load_capacitance",
    "Shunt capacitance": "shunt_capacitance",
    "Equivalent series resistance": "esr",
    "Drive level": "drive_level",
    "Aging": "aging",
    "Insulation resistance": "insulation_resistance",
    "Supply voltage": "supply_voltage",
    "Current consumption": "supply_current",
    "Standby current": "standby_current",
    "Output level": "output_level",
    "Output load": "output_load",
    "Phase noise at 1 kHz offset": "phase_noise",
    "Start-up time": "startup_time",
    "Rise / fall time": "rise_fall_time",
    "Duty cycle": "duty_cycle",
    "Phase jitter (RMS)": "phase_jitter",
    "Pull range": "pull_range",
    "Control voltage": "control_voltage",
    "Linearity": "linearity",
    "I2C bus clock frequency": "bus_clock_frequency",
    # ordering-table columns
    "Frequency": "frequency",
    "Stability": "frequency_stability",
    "Load / Output": "load_capacitance",
    "Temp. range": "operating_temperature",
}

# the units the generator prints -> (canonical unit, factor)
UNITS = {
    "MHz": ("Hz", 1e6),
    "kHz": ("Hz", 1e3),
    "ppm": ("ppm", 1.0),
    "ppm/°C²": ("ppm/°C²", 1.0),
    "°C": ("°C", 1.0),
    "pF": ("F", 1e-12),
    "Ω": ("ohm", 1.0),
    "kΩ": ("ohm", 1e3),
    "MΩ": ("ohm", 1e6),
    "µW": ("W", 1e-6),
    "V": ("V", 1.0),
    "mA": ("A", 1e-3),
    "µA": ("A", 1e-6),
    "nA": ("A", 1e-9),
    "ms": ("s", 1e-3),
    "ns": ("s", 1e-9),
    "ps": ("s", 1e-12),
    "%": ("%", 1.0),
    "dBc/Hz": ("dBc/Hz", 1.0),
}


def _numbers(text: str, factor: float) -> dict[str, Any] | None:
    """The generator's value formats: "8.000", "+105", "±10", "-55 to +125", "255 (10 s max)",
    "12.000 MHz", "-40 to +85 °C" (unit stripped by the caller)."""
    t = re.sub(r"\s*\(.*\)$", "", text.strip())
    m = re.fullmatch(r"([-+]?\d+(?:\.\d+)?) to ([-+]?\d+(?:\.\d+)?)", t)
    if m:
        return {"min": _f(m.group(1), factor), "max": _f(m.group(2), factor)}
    m = re.fullmatch(r"±(\d+(?:\.\d+)?)", t)
    if m:
        x = _f(m.group(1), factor)
        return {"min": -x, "max": x}
    m = re.fullmatch(r"[-+]?\d+(?:\.\d+)?", t)
    if m:
        return {"value": _f(t, factor)}
    return None


def _f(s: str, factor: float) -> float:
    return float(f"{float(s) * factor:.12g}")


def _record(
    d: DocSpec,
    page: int,
    part: str,
    printed: str,
    role: str,
    text: str,
    unit: str,
    cell: Any,
    row: Any,
    num: str = "",
    table: str = "characteristics",
    conditions: str = "",
) -> dict[str, Any] | None:
    if unit not in UNITS:
        return None
    canon, factor = UNITS[unit]
    nums = _numbers(num or text, factor)
    if nums is None:
        return None
    if role == "min" and (num or text).strip().startswith("±") and "max" in nums:
        nums = {"value": nums["max"]}  # "±80" under Min (a pull range): a least magnitude, as the spec stage keeps it
    return {
        "doc": d.file_name,
        "page": page,
        "part": part,
        "parameter": PARAMETER_IDS.get(printed, printed.lower()),
        "parameter_printed": printed,
        "role": role,
        "text": text,
        **nums,
        "unit": canon,
        "table": table,
        "bbox": [round(x, 2) for x in cell],
        "row_bbox": [round(x, 2) for x in row],
        "conditions": conditions,  # as printed in the row's Conditions column ("16 MHz ≤ f0 < 24 MHz")
    }


def spec_truth(d: DocSpec, facts: Facts) -> list[dict[str, Any]]:
    """Every value cell of the spec tables (Table 1 ratings, Table 2 characteristics) and of the
    ordering table that states a number with a unit."""
    out: list[dict[str, Any]] = []
    if facts.abs_max is not None:
        page, _, rows = facts.abs_max
        for cells, (rb, boxes) in zip(rows, facts.abs_max_rows, strict=True):
            r = _record(
                d, page, d.series, cells[0], "value", cells[1], cells[2], boxes[1], rb, table="ratings"
            )
            if r:
                out.append(r)
    for row, page, _, rb, boxes in facts.spec:
        for col, role in ((2, "min"), (3, "typ"), (4, "max")):
            text = row.cells()[col]
            if not text:
                continue
            r = _record(d, page, d.series, row.parameter, role, text, row.unit, boxes[col], rb, conditions=row.condition)
            if r:
                out.append(r)
    if facts.ordering is not None:
        page, _, orders = facts.ordering
        heads = ["Part number", "Frequency", "Stability", "Load / Output", "Temp. range", "Packing"]
        for o, rb, boxes in orders:
            for col in (1, 2, 3, 4):
                text = o.cells()[col]
                m = re.fullmatch(r"(.+?) ((?:MHz|kHz|ppm|pF|°C))", text)
                if not m:
                    continue
                r = _record(
                    d, page, o.code, heads[col], "value", text, m.group(2), boxes[col], rb, m.group(1)
                )
                if r:
                    out.append(r)
    return out
