"""Spec values as numbers: printed values and units, parameter names, constraints (pure functions).

- `parse_unit("kΩ")` -> ("ohm", 1000.0); `parse_number("4u7")` -> 4.7e-6 (the letter is the prefix)
- `parse_value("−40～+85 °C")` -> ParsedValue(min=-40, max=85, unit="°C")
- `match_parameter("Load capacitance", "CL")` -> ("load_capacitance", "F")
- `parse_constraint("ESR <= 50 kohm")` -> SpecConstraint(parameter="esr", op="<=", value=50000, unit="ohm")
- `parse_query("32.768 kHz crystal ESR below 50k, 12.5 pF")` -> constraints + product type + rest
- `check(constraint, values)` -> "meets" | "fails" | "unknown"

The vocabularies are data (vocab.spec_parameters, vocab.spec_units); nothing here reads a PDF.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import NamedTuple, Protocol, TypeVar

from layoutrag.errors import InputError
from layoutrag.records import SpecConstraint
from layoutrag.vocab import product_types as type_patterns
from layoutrag.vocab import spec_parameters, spec_units, symbol_encoding

__all__ = [
    "BAND_EXEMPT",
    "FrequencyBand",
    "MODIFIER_WORDS",
    "Numbers",
    "ParsedValue",
    "as_ratio",
    "asked_frequency",
    "at_frequency",
    "check",
    "describe_constraint",
    "fold",
    "format_quantity",
    "frequency_band",
    "match_parameter",
    "name_key",
    "parameter_unit",
    "parse_constraint",
    "parse_number",
    "parse_query",
    "parse_unit",
    "parse_value",
    "singular_view",
    "split_footnotes",
    "vocabulary_names",
]

_PREFIX = {
    "p": 1e-12,
    "n": 1e-9,
    "u": 1e-6,
    "µ": 1e-6,
    "m": 1e-3,
    "k": 1e3,
    "K": 1e3,
    "M": 1e6,
    "G": 1e9,
    "R": 1.0,
}
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


# A symbol font's characters, as a PDF's text layer often gives them: code c at U+F000 + c (the
# "symbol" cmap of the OpenType spec, platform 3 encoding 0). Read by the Adobe Symbol encoding
# (`vocab.symbol_encoding`, the table pdf.py reads the text layer with), for the codes a spec value,
# unit or symbol prints with: ASCII punctuation and digits (as printed: "-", "*"), degree,
# plus-minus, the comparison signs, micro and the Greek letters of symbols (Ω ohm, θ thermal,
# Δ change), the infinity sign (not λ: U+F06C is also the bullet of Wingdings-drawn lists). Data
# ingested with text layer v2 has these read already for fonts named Symbol; this stays for other
# data and other fonts.
_SYMBOL_FONT_CODES = (
    0xB0, 0xB1, 0xA3, 0xB3, 0xB4, 0xB8, 0x6D, 0x57, 0x77, 0x71, 0x51, 0x44, 0x64,
    0x61, 0x62, 0x67, 0x70, 0x73, 0x74, 0xD6, 0xA5, 0xBB, 0xB9, 0xBC,
)  # fmt: skip
_SYMBOL_FONT = str.maketrans(
    {0xF000 + c: chr(c) for c in range(0x20, 0x40) if c not in (0x22, 0x24, 0x27)}  # ∀ ∃ ∋ there
    | {0xF000 + c: symbol_encoding()[c] for c in _SYMBOL_FONT_CODES}
)


_DEGREE_LOOKALIKES = str.maketrans({"˚": "°", "º": "°"})


@lru_cache(maxsize=1 << 16)  # the same cells and names are folded again and again by the spec stage
def fold(text: str) -> str:
    """NFKC, symbol-font characters read (`_SYMBOL_FONT`), one kind of minus, µ for micro, Ω for
    ohm, °C for ℃, single spaces."""
    # a ring above (U+02DA) or an ordinal º printed for the degree sign: read as ° before NFKC,
    # which would make them a space and a combining ring ("˚C" -> " ̊C"), or an "o"
    t = unicodedata.normalize("NFKC", text.translate(_SYMBOL_FONT).translate(_DEGREE_LOOKALIKES))
    t = (
        t.replace("−", "-")
        .replace("–", "-")
        .replace("—", "-")
        .replace("‐", "-")
        .replace("～", "~")
        .replace("〜", "~")
    )
    t = t.replace("μ", "µ").replace("Ω", "Ω").replace("℃", "°C")
    return re.sub(r"\s+", " ", t).strip()


@cache
def _unit_table() -> dict[str, tuple[str, float]]:
    table = dict(spec_units())
    extra: dict[str, tuple[str, float]] = {}
    for printed, v in table.items():
        for alt in (
            printed.replace("µ", "u"),
            printed.replace("Ω", "ohm"),
            printed.replace("Ω", "Ohm"),
            printed.replace("Ω", "ohms"),
            printed.replace("Ω", "Ohms"),
            printed.replace("Ω", "R") if printed != "Ω" else "ohm",
            printed.replace("²", "2"),  # NFKC folds the superscript
        ):
            extra.setdefault(alt, v)
    extra.setdefault("deg C", ("°C", 1.0))
    extra.setdefault("degC", ("°C", 1.0))
    for spelled in ("degrees C", "degree C", "deg. C", "degrees Celsius", "degree Celsius"):  # the unit's name spelled out (SI brochure: degree Celsius)
        extra.setdefault(spelled, ("°C", 1.0))
    extra.setdefault("C", ("°C", 1.0))  # a unit column saying "C" in a temperature row
    extra.setdefault("pcs", ("pcs", 1.0))
    for k, v in extra.items():
        table.setdefault(k, v)
    return table


PER_DEGREE_UNITS = True  # specs-37; off for an ablation (benchmarks/spec_rerun.py --without per-degree-units)


def parse_unit(text: str) -> tuple[str, float] | None:
    """A printed unit -> (canonical SI unit, factor), or None. Exact case first, then case-folded
    when that is unambiguous (kohm, KHZ)."""
    t = fold(text).strip().strip(".")
    if not t:
        return None
    table = _unit_table()
    if t in table:
        return table[t]
    # "mV/oC" (a raised o for the degree sign in older datasheets), "psP-P" / "mVrms" (a peak-to-peak
    # or rms qualifier run into the unit)
    # "ppm/C", "%/K", "µV/degC": a coefficient per degree written without the degree sign or per kelvin (a
    # temperature interval of 1 K is one of 1 °C - BIPM SI brochure)
    per_degree = re.sub(r"/(?:C|K|deg\.?\s?C?)$", "/°C", t) if PER_DEGREE_UNITS else t
    for alt in (
        re.sub(r"(?<=[/\d\s])oC$|^oC$", "°C", t),
        re.sub(r"\s*(?:\(?(?:p-p|pp|rms)\)?)$", "", t, flags=re.IGNORECASE),
        per_degree,
    ):
        if alt != t and alt in table:
            return table[alt]
    low = [v for k, v in table.items() if k.lower() == t.lower()]
    if len(t) > 1 and low and all(v == low[0] for v in low):
        return low[0]
    return None


_NUM = r"[-+±]?\s?(?:\d+(?:[.,]\d+)*(?:\.\d+)?|\.\d+)"
_NUM_RE = re.compile(_NUM)
_RKM_RE = re.compile(r"^(\d+)([pnuµmkKMGR])(\d+)$")  # 4u7, 2k2, 4R7


def parse_number(text: str) -> float | None:
    """A single printed number: 12.5, -40, +85, 1,000, 4u7 (-> 4.7e-6), 2k2 (-> 2200)."""
    t = fold(text).replace(" ", "")
    m = _RKM_RE.match(t)
    if m:
        return float(f"{m.group(1)}.{m.group(3)}") * _PREFIX[m.group(2)]
    t = t.lstrip("+")
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", t):
        t = t.replace(",", "")
    elif re.fullmatch(r"-?\d+,\d+", t):
        t = t.replace(",", ".")
    try:
        v = float(t)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


_FOOT_RE = re.compile(
    r"(?:\s*\(\s*(?:note\s*)?(\d{1,2}|[a-z]|\*+)\s*\)|\s*(?:note|注)\s*(\d{1,2})|([*†‡§]+)|([⁰¹²³⁴⁵⁶⁷⁸⁹]+)|\s+(\d)\))",
    re.IGNORECASE,
)


def split_footnotes(text: str) -> tuple[str, list[str]]:
    """("10 (1)") -> ("10", ["1"]): footnote markers printed next to a value, kept apart."""
    notes: list[str] = []

    def take(m: re.Match[str]) -> str:
        g = next(x for x in m.groups() if x)
        notes.append(g.translate(_SUPERSCRIPT))
        return ""

    sup = re.search(r"(?<=[\w%°)Ω])([⁰¹²³⁴⁵⁶⁷⁸⁹]+)\s*$", text)
    if sup:  # before NFKC folds them into digits
        notes.append(sup.group(1).translate(_SUPERSCRIPT))
        text = text[: sup.start()]
    t = fold(text)
    # only markers after a number or unit, never the number itself
    out = re.sub(r"(?<=[\w%°)Ω])" + _FOOT_RE.pattern, take, t, flags=re.IGNORECASE)
    return out.strip(), notes


@dataclass
class ParsedValue:
    min: float | None = None
    typ: float | None = None
    max: float | None = None
    unit: str = ""  # canonical
    unit_printed: str = ""
    footnotes: list[str] = field(default_factory=list)
    tolerance: bool = False  # printed as ±x

    @property
    def empty(self) -> bool:
        return self.min is None and self.typ is None and self.max is None


_RANGE_SEP = r"(?:\s*(?:~|to|…|\.\.\.?|/)\s*|\s+-\s*|\s*-\s+)"
_SHORT_TAIL = 12  # a unit printed after a number: up to 12 characters, its first word read when the whole is none
_UNIT_TAIL = r"\s*([^\d\s].{0,14}?)?"  # up to 15 characters: a unit's long name ("degrees Celsius")
_RANGE_RE = re.compile(
    rf"^(\d+[pnuµmkKMGR]\d+|{_NUM})\s*([^\d\s~\-+±.,][^\s~]*?)?{_RANGE_SEP}(\d+[pnuµmkKMGR]\d+|{_NUM}){_UNIT_TAIL}$"
)
# a range with its hyphen or en dash unspaced ("1.8-3.3 V", "-40–85 °C"; fold makes the en dash a hyphen):
# read when the second number is unsigned (or "+") and greater than the first, so "5-3" or a code is not one
_TIGHT_RANGE_RE = re.compile(rf"^(-?\d+(?:\.\d+)?)-(\+?\d+(?:\.\d+)?)(?![\d.,]){_UNIT_TAIL}$")
TIGHT_RANGES = True  # specs-18; off for an ablation (benchmarks/spec_rerun.py --without tight-ranges)
# a limit printed against ground ("GND - 0.3V to 5.5V", "VSS-0.3" under Min): ground is 0 V, so it is
# the negative number (JEDEC's pin-voltage ratings)
_BELOW_GROUND_RE = re.compile(r"^[ADP]?(?:GND|VSS)\s*-\s*(?=\d)", re.IGNORECASE)
# a ratings range up to a supply pin's voltage plus a margin ("-0.3V to VDD + 0.3V", "to (VCC+0.5)"):
# JEDEC's pin-voltage ratings are printed so
_TO_SUPPLY_RE = re.compile(r"(.+?)\s*(?:to|~)\s*\(?\s*V[A-Z]{1,5}\d?\s*[+]\s*\d[\d.]*\s*V?\s*\)?")
_SINGLE_RE = re.compile(
    rf"^(<=|>=|≤|≥|<|>|max\.?|min\.?|typ\.?)?\s*(\d+[pnuµmkKMGR]\d+(?![\d.])|{_NUM}){_UNIT_TAIL}$",
    re.IGNORECASE,
)
_QUAL_RE = re.compile(r"\s*\b(max|min|typ|maximum|minimum)\.?$", re.IGNORECASE)
_PAREN_QUAL_RE = re.compile(r"(.+?)\s*\(\s*(max|min|typ|maximum|minimum|typical)\.?\s*\)", re.IGNORECASE)


def _unit_of(tail: str | None, hint: str) -> tuple[str, float, str] | None:
    """(canonical, factor, printed) from a unit printed after a number, else from `hint` (a unit
    column or header); None when the tail is there but is no unit."""
    tail = (tail or "").strip().rstrip(".,;")
    if tail:
        u = parse_unit(tail)
        if u is None and len(tail) > _SHORT_TAIL:
            return None  # only a unit's long name ("degrees Celsius") is read whole past 12 characters
        if u is None:
            # "12 pF max" / "50 kΩ typ." were split off before; "MHz (fundamental)": first word
            first = tail.split(" ")[0].split("(")[0]
            u = parse_unit(first)
            if u is None:
                return None
            tail = first
        return u[0], u[1], tail
    if hint:
        u = parse_unit(hint)
        if u is not None:
            return u[0], u[1], hint
        return "", 1.0, hint
    return "", 1.0, ""


# specs-43: "+/-" and "+-" before a number are the ± sign typed in ASCII (datasheets exported from text, and queries)
PLUS_MINUS_ASCII = True  # off for an ablation (benchmarks/spec_rerun.py --without plus-minus-ascii)
_PLUS_MINUS_RE = re.compile(r"(?<![\w.])\+\s*/?\s*-\s*(?=\d)")


def parse_value(text: str, unit_hint: str = "", role: str = "value") -> ParsedValue | None:
    """One printed value cell -> numbers in the canonical unit; None when it is not a value.

    `role` is the column the cell sits in (min, typ, max or value): a plain number there is that
    field; ``±x`` is ``min=-x, max=x``; ``a to b`` / ``a ~ b`` / ``a - b`` is ``min=a, max=b``; ``< x``,
    ``x max`` is ``max=x``. The unit printed in the cell wins over `unit_hint`."""
    t, notes = split_footnotes(text)
    t = t.strip().rstrip(",;")
    if not t or t in ("-", "—", "/", "N/A", "n/a"):
        return None
    if PLUS_MINUS_ASCII:
        t = _PLUS_MINUS_RE.sub("±", t)  # "+/-20ppm", "+- 0.5 V": the ± typed in ASCII
    pv = ParsedValue(footnotes=notes)
    post = ""
    q = _QUAL_RE.search(t)
    if q and q.start() > 0:
        post, t = q.group(1), t[: q.start()].strip()
    t = _BELOW_GROUND_RE.sub("-", t)  # "GND - 0.3V", "VSS-0.3": a voltage below ground, ground being 0 V
    supply = _TO_SUPPLY_RE.fullmatch(t)
    if supply:  # "-0.3V to VDD + 0.3V": the upper end follows a supply pin; the lower end is a number
        low = parse_value(supply.group(1), unit_hint, "min")
        if low is None or low.max is not None or low.tolerance or (low.min is None) == (low.typ is None):
            return None
        low.min, low.typ = low.typ if low.min is None else low.min, None
        low.footnotes = notes + low.footnotes
        return low
    said = _PAREN_QUAL_RE.fullmatch(t)
    if said and not post:  # "1 µA (maximum)", "200 µA (typical)": the role in parentheses
        post, t = said.group(2), said.group(1).strip()
    paren = re.fullmatch(r"(.+?)\s*\(([^()]{3,})\)", t)
    if paren and re.search(r"\d", paren.group(1)):  # "255 (10 s max)": the rest is a condition
        t = paren.group(1).strip()
    inf = re.fullmatch(r"(.+?)\s*(?:to|~|-)\s*\+?(?:∞|\uf0a5|inf(?:inity)?)\s*", t, re.IGNORECASE)
    if inf:  # "6 pF to ∞" (∞ often in a symbol font, U+F0A5): a lower limit
        low = parse_value(inf.group(1), unit_hint, "min")
        if low is None or low.typ is not None or low.max is not None or low.tolerance:
            return None
        low.footnotes = notes + low.footnotes
        return low
    m = _RANGE_RE.match(t)
    if m and re.fullmatch(r"-\d[\d.,]*\s+-\d[\d.,]*(\s*\S+)?", t):
        return None  # "-15.0 -15.3": two negative numbers (two lines of one cell), not a range
    if m:
        a, mid_unit, b, tail = m.group(1), m.group(2), m.group(3), m.group(4)
        if mid_unit and re.match(r"^[^/]*?\s*/", t[m.end(2) :]):
            return None  # "3.5V/6.5 V": two values (one per variant), not a range (that is "45/55 %")
        u = _unit_of(tail or mid_unit, unit_hint)
        lo, hi = _num(a, u), _num(b, u)
        if mid_unit and tail and u is not None:  # "2 kHz to 80 MHz": each end in its own unit
            mu = _unit_of(mid_unit, unit_hint)
            if mu is not None and mu[0] == u[0]:
                lo = _num(a, mu)
        if u is None or lo is None or hi is None:
            return None
        if lo > hi and not (a.strip().startswith("-") or b.strip().startswith("-")):
            return None
        pv.min, pv.max = min(lo, hi), max(lo, hi)
        pv.unit, pv.unit_printed = u[0], u[2]
        return pv
    tight = _TIGHT_RANGE_RE.match(t) if TIGHT_RANGES else None
    if tight:
        u = _unit_of(tight.group(3), unit_hint)
        lo, hi = _num(tight.group(1), u), _num(tight.group(2), u)
        if u is None or lo is None or hi is None or lo >= hi:
            return None
        pv.min, pv.max = lo, hi
        pv.unit, pv.unit_printed = u[0], u[2]
        return pv
    m = _SINGLE_RE.match(t)
    if not m:
        return None
    pre, num, tail = m.group(1), m.group(2), m.group(3)
    u = _unit_of(tail, unit_hint)
    if u is None:
        return None
    tol = num.strip().startswith("±")
    v = _num(num.replace("±", ""), u)
    if v is None:
        return None
    pv.unit, pv.unit_printed = u[0], u[2]
    word = (pre or post or "").lower().rstrip(".")
    if tol:
        pv.min, pv.max, pv.tolerance = -abs(v), abs(v), True
    elif word in ("<", "<=", "≤", "max", "maximum"):
        pv.max = v
    elif word in (">", ">=", "≥", "min", "minimum"):
        pv.min = v
    elif word in ("typ", "typical"):
        pv.typ = v
    elif role == "min":
        pv.min = v
    elif role == "max":
        pv.max = v
    else:
        pv.typ = v
    return pv


def _num(text: str, u: tuple[str, float, str] | None) -> float | None:
    if u is None:
        return None
    v = parse_number(text)
    if v is None:
        return None
    return _clean(v * u[1])


def _clean(v: float) -> float:
    """Round off float noise from the unit factor (12.5e-12 stays 1.25e-11, not 1.2500000000000001e-11)."""
    return float(f"{v:.12g}")


_SHOW_PREFIX = ((1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""), (1e-3, "m"), (1e-6, "µ"), (1e-9, "n"), (1e-12, "p"), (1e-15, "f"))
_PREFIXABLE = {"Hz", "F", "ohm", "V", "A", "W", "s", "H", "m", "V/s", "C", "V/°C", "A/°C", "V/√Hz"}


def format_quantity(v: float, unit: str) -> str:
    """12.5e-12, "F" -> "12.5 pF"; 50000, "ohm" -> "50 kΩ"; -40, "°C" -> "-40 °C"."""
    shown = "Ω" if unit == "ohm" else unit
    if unit in _PREFIXABLE and v != 0:
        for f, p in _SHOW_PREFIX:
            if abs(v) >= f * 0.9999999:
                if unit == "m" and p not in ("", "m", "µ"):
                    continue
                return f"{_clean(v / f):g} {p}{shown}"
        return f"{v:g} {shown}"
    return f"{v:g} {shown}".strip()


# the parameters a datasheet states as a range the part works over: a range asked of them is one the part must cover
# ("operating temperature -40 to 85 °C", "supply voltage 2.7 to 5.5 V"); of any other parameter a range asks for a value
# within it ("load capacitance 12 to 20 pF", "frequency 20-30 MHz": a part printing one inside it, or a range meeting it)
COVERED_RANGES = frozenset({"operating_temperature", "storage_temperature", "junction_temperature", "supply_voltage",
                            "common_mode_input_range", "control_voltage", "pull_range"})
RANGES_WITHIN = True  # off for an ablation: every range must be covered, as before


def _covered(parameter: str) -> bool:
    return not RANGES_WITHIN or parameter in COVERED_RANGES


def describe_constraint(c: SpecConstraint) -> str:
    """The constraint as read, for showing it back: "esr <= 50 kΩ", "operating_temperature covers -40 to 85 °C",
    "load_capacitance within 12 pF to 20 pF"."""
    if c.op == "range":
        if _covered(c.parameter):
            low = format_quantity(c.value, c.unit) if c.unit != "°C" else format_quantity(c.value, "").strip()
            return f"{c.parameter} covers {low} to {format_quantity(c.value2 or 0.0, c.unit)}"
        return f"{c.parameter} within {format_quantity(c.value, c.unit)} to {format_quantity(c.value2 or 0.0, c.unit)}"
    return f"{c.parameter} {c.op} {format_quantity(c.value, c.unit)}"


# --------------------------------------------------------------------------- parameters
# specs-42: a spec list's item number printed before the name ("3.Frequency", "4. Temperature Range", "3.2.3. Operating
# Temperature") is no part of it
LIST_NUMBERS = True  # off for an ablation (benchmarks/spec_rerun.py --without list-numbers)
_LIST_NUMBER_RE = re.compile(r"^\(?\d{1,2}(?:\.\d{1,2})*[.)]\s*(?=[^\W\d_])")


def _norm_name(text: str) -> str:
    t = fold(text).lower()
    if LIST_NUMBERS:
        t = _LIST_NUMBER_RE.sub("", t.strip())
    t, _ = split_footnotes(t)
    t = re.sub(r"\((?:note|注)?\s*\d+\)|\[\d+\]", " ", t)
    t = re.sub(r"\s*\((?:[^()]*)\)\s*$", "", t) if not re.fullmatch(r".*\((?:th|on|rms)\)\s*", t) else t
    t = re.sub(r"[,:;*]+", " ", t)
    return re.sub(r"\s+", " ", t).strip()


def _dehyphen(t: str) -> str:
    """"low-level" and "low level" are one name."""
    return re.sub(r"(?<=[a-z])-(?=[a-z])", " ", t)


def printed_id(printed: str) -> str:
    """The id a parameter the vocabulary does not know is kept under: its printed name normalised."""
    return _dehyphen(_norm_name(printed)) or fold(printed).lower()


def name_key(word: str) -> str:
    """A printed word as the vocabulary's names are written: lower case, "start-up" as "start up"."""
    return _dehyphen(fold(word).lower())


def vocabulary_names() -> tuple[tuple[str, str, bool], ...]:
    """(name as `name_key` writes it, canonical id, whole text only) of every parameter name, longest first."""
    return tuple((n, pid, whole) for n, pid, _, whole in _names())


@cache
def _names() -> tuple[tuple[str, str, str, bool], ...]:
    """(name, id, unit, whole text only), longest name first."""
    rows = [
        (_dehyphen(n.lstrip("=")), pid, unit, n.startswith("="))
        for pid, unit, names, _ in spec_parameters()
        for n in names
    ]
    return tuple(sorted(rows, key=lambda r: -len(r[0])))


def _whole_name(text: str) -> tuple[str, str] | None:
    """(id, unit) of the vocabulary name `text` is as a whole (the first in `_names` order), else None."""
    return next(((pid, punit) for n, pid, punit, _ in _names() if n == text), None)


@cache
def _symbols() -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for pid, unit, _, syms in spec_parameters():
        for s in syms:
            out.setdefault(s, (pid, unit))
    return out


def parameter_unit(pid: str) -> str | None:
    """The canonical unit of a canonical parameter ("" for a text parameter), None when unknown."""
    for p, unit, _, _ in spec_parameters():
        if p == pid:
            return "" if unit == "-" else unit
    return None


def match_parameter(printed: str, symbol: str = "", *, unit: str = "") -> tuple[str, bool]:
    """(canonical id, True) for a printed parameter name (or, failing that, its symbol), else
    (the printed name normalised, False). `unit` (canonical), when given, must agree with the
    parameter's unit for a name found inside a longer text or a symbol-only match."""
    name = _dehyphen(_norm_name(printed))
    raw = fold(printed).lower()
    if name and _UNDER_BIAS_RE.search(name):
        return name, False  # a stress rating's temperature, not a range the part works in
    kind = _QUALIFIER_RE.fullmatch(raw) if QUALIFIER_NAMES else None
    if kind and name:
        # "Supply current (quiescent)", "Current (Shutdown)": the word in parentheses names the kind -
        # "quiescent current", "shutdown current" - when that is a whole name of the vocabulary
        hit = _whole_name(f"{kind.group(2)} {name.split()[-1]}")
        if hit and _unit_ok(hit[1], unit):
            return hit[0], True
    if name:
        hit = _whole_name(name)
        if hit:
            return _qualified(_refined(hit[0], name, symbol, unit), raw), True
        for n, pid, punit, whole in _names():
            if (
                not whole
                and _contains(name, n)
                and _unit_ok(punit, unit)
                and not _crossed(name, n, pid)
                and not _modified(name, n)
                and not (pid == "supply_voltage" and _pin_input(name))
            ):
                return _qualified(_refined(pid, n, symbol, unit), raw), True
        # a header naming two things ("Load / Output"): a piece that is a whole name and fits the unit
        # ("input/output capacitance" is one thing, an I/O pin's)
        for piece in (p.strip() for p in re.sub(r"\binput/output\b", "i/o", name).split("/") if "/" in name):
            for n, pid, punit, _ in _names():
                if piece == n and _unit_ok(punit, unit, strict=True):
                    return pid, True
        # a footnote number printed against the name's last word ("Frequency Range1")
        glued = re.fullmatch(r"(.*[a-z]{3})\d{1,2}", name) if FOOTNOTE_GLUED else None
        if glued and not re.search(r"\d", glued.group(1)):
            pid, known = match_parameter(glued.group(1), symbol, unit=unit)
            if known:
                return pid, True
    sym = fold(symbol).replace(" ", "")
    words = fold(printed).split()
    if (
        not sym
        and len(words) >= (1 if SYMBOL_NAMES else 2)
        and (len(words[0]) >= 3 or (SYMBOL_ONLY_NAMES and len(words) == 1))
        and (words[0] in _symbols() or _rail(words[0]))
    ):
        sym = words[0]  # "IDD Current": the name begins with the symbol; "VDD": the name is one
    # a symbol alone decides only when no name is printed, or when it is distinctive (ESR, TSTG,
    # RDS(on)): two-letter symbols (IS, VC) mean different things in different datasheets - but a row
    # whose whole name is the symbol ("VS | -0.3 V to +3.6 V") prints no other name: the symbol decides
    # there, its unit agreeing (specs-41)
    only = SYMBOL_ONLY_NAMES and bool(sym) and fold(printed).replace(" ", "") == sym
    if sym and (not name or len(sym) >= 3 or only):
        hit = _symbols().get(sym) or (None if _RAIL_NOT_RE.search(name) else _rail(sym)) or _subscripted(sym)
        if hit and hit[0] == "supply_voltage" and _pin_input(name):
            hit = None
        if hit and _unit_ok(hit[1], unit, strict=True):
            return _qualified(hit[0], raw), True
    return (name or fold(printed).lower()), False


# specs-9: a supply rail's voltage or current printed under the rail's own name. JEDEC JESD99 writes
# a supply voltage V_DD / V_CC and its current I_DD / I_CC, with a subscript naming the domain when
# a part has several supplies (V_DDA analog, V_DDD digital, V_DDIO the I/O ring, V_CCINT core, V_DD1);
# datasheets print the same domain as a prefix too (AVDD, DVDD, IOVDD, PVDD). A row named or
# symbolled so is that supply's voltage (unit V) or current (unit A); "AVDD to AGND" in a ratings
# list is the supply's rating. The quiescent and power-down currents (I_DDQ, I_DD(PD)) are not read so.
RAILS = True  # off for an ablation (benchmarks/spec_rerun.py --without rails)
FOOTNOTE_GLUED = True  # specs-9; off for an ablation (--without footnote-glued)
_DOMAIN = r"(?:A|D|IO|CORE|INT|AUX|PLL|[A-D]?\d)"
_RAIL_V_RE = re.compile(rf"(?:[ADP]|IO)?V(?:DD|CC)(?:{_DOMAIN}|_[A-Z0-9]{{1,6}})?(?:TO[ADP]?(?:GND|VSS))?")
# the voltage of pins referred to a rail ("Voltage on input pins (VDDIO)"), or one rail against
# another ("AVDD to DVDD"): not a supply voltage
_RAIL_NOT_RE = re.compile(r"\b(?:pins?|inputs?|outputs?|any)\b|\bto (?![adp]?(?:gnd|vss)\b)\S+")
_RAIL_I_RE = re.compile(rf"I(?:DD|CC)(?:{_DOMAIN}|_[A-Z0-9]{{1,6}})")


def _rail(symbol: str) -> tuple[str, str] | None:
    """("supply_voltage", "V") for a supply rail's name or symbol (AVDD, VDDIO, V_CCINT), ("supply_current",
    "A") for a domain's supply current (IDDA, ICC_IO); None otherwise."""
    if not RAILS:
        return None
    s = symbol.upper().replace(" ", "")
    if _RAIL_V_RE.fullmatch(s):
        return "supply_voltage", "V"
    if _RAIL_I_RE.fullmatch(s):
        return "supply_current", "A"
    return None


# specs-30: a symbol the vocabulary does not hold that is one it holds with a subscript qualifier - JEDEC JESD99 /
# IEC 60748-1 write a letter symbol's subscripts as an index (I_CC1, V_IL2), an index and a letter (I_CC1T), a
# footnote reference (I_DD(1)) or one letter for the side or channel (R_DS(on),P, R_DSON_H: high / low side, P / N
# channel) - is that symbol's quantity. A subscript naming a pin or bus (V_IN_VC, V_IH_I2C) names another node
# and is not read so; the stem must have three characters or more (two-letter symbols collide).
SYMBOL_SUBSCRIPTS = True  # off for an ablation (benchmarks/spec_rerun.py --without symbol-subscripts)
_SUBSCRIPT_RE = re.compile(r"(.{3,}?)(?:\(\d{1,2}\)|\d{1,2}[A-Z]?|[,_][A-Za-z])")


def _subscripted(symbol: str) -> tuple[str, str] | None:
    """(id, unit) of the vocabulary symbol `symbol` is with a subscript qualifier ("IDD(1)", "ICC1T",
    "RDS(ON),P"), else None."""
    m = _SUBSCRIPT_RE.fullmatch(symbol) if SYMBOL_SUBSCRIPTS else None
    return _symbols().get(m.group(1)) if m else None


QUALIFIER_NAMES = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without qualifier-names)
_QUALIFIER_RE = re.compile(r"(.+?)\s*\(([a-z]{4,})\)\s*")  # a name, then one word in parentheses


# specs-11: the voltage on a pin ("Input voltage on the FT pin | VIN", "OSCI 管脚输入电压", "Voltage on
# I/O pins | VIN") is a pin's input voltage, not the part's supply, unless the name says supply
# ("Supply voltage (pin 3)", "Voltage on VDD pin"): "input voltage" / 输入电压 / VIN name a regulator's
# supply, a pin named beside them makes them the pin's
PIN_INPUTS = True  # off for an ablation (benchmarks/spec_rerun.py --without pin-inputs)
_PIN_RE = re.compile(r"\bpins?\b|管脚|引脚")
_SUPPLY_WORD_RE = re.compile(r"\bsupply\b|\bpower\b|电源|供电|\b[adp]?v(?:dd|cc)")


def _pin_input(name: str) -> bool:
    return PIN_INPUTS and bool(_PIN_RE.search(name)) and not _SUPPLY_WORD_RE.search(name)


def _crossed(name: str, matched: str, pid: str) -> bool:
    """A name found inside a longer one that says the other direction ("input load current" holds
    "load current", an output parameter's name): not that parameter."""
    rest = name.replace(matched, " ")
    if pid.startswith("output") and re.search(r"\binput\b|输入", rest):
        return True
    return pid.startswith("input") and re.search(r"\boutput\b|输出", rest) is not None


# words that make a quantity's name the name of another quantity: "frequency deviation", "output
# voltage drift", "offset current" is not a frequency, an output voltage, a current of the part. Source:
# the general terms of JEDEC JESD99 / IEC 60748 (offset, drift, temperature coefficient, error,
# regulation, rejection ratio) - a value named so is a difference or a ratio of the base quantity.
MODIFIER_WORDS = (
    "offset", "drift", "deviation", "error", "variation", "change", "shift", "ripple", "noise",
    "coefficient", "tempco", "hysteresis", "mismatch", "regulation", "rejection", "sensitivity",
    "linearity", "accuracy", "tolerance", "stability",
)  # fmt: skip
_MODIFIER_RE = re.compile(
    r"\b(?:" + "|".join((*MODIFIER_WORDS, "deviations", "errors", "nonlinearity")) + r")\b"
    r"|偏差|漂移|失调|误差|温漂|纹波|噪声|迟滞"
)


def _modified(name: str, matched: str) -> bool:
    """A name found inside a longer one whose other words say it is a difference, a drift or an
    error of that quantity ("frequency deviation", "output voltage drift"): not that quantity
    (the vocabulary names such parameters in full - "input offset voltage", "frequency stability" -
    and the longest name is tried first)."""
    if _MODIFIER_RE.search(matched):
        return False
    return _MODIFIER_RE.search(name.replace(matched, " ")) is not None


_STORAGE_RE = re.compile(r"\bstorage\b|存储|贮存")
# "Ambient temperature under bias" / "with power applied": the absolute-maximum stress rating of the
# temperature a powered part survives (the wording of MIL-STD-883 / JEDEC JESD22 bias-life tests,
# printed in the ratings of Microchip, Intel, Atmel parts), not the operating range
_UNDER_BIAS_RE = re.compile(r"\bunder bias\b|\bpower applied\b")  # "with power applied" too


# the low-power modes a supply current is printed for ("Supply current in Standby mode", "IDD in
# power-down"): the vocabulary's standby-current names (standby, shutdown, sleep, power-down, 待机,
# 关断), said of a mode
_STANDBY_RE = re.compile(r"\b(?:standby|shutdown|shut-down|sleep|power[- ]?down|deep[- ]sleep)\b|待机|关断|休眠")


def _qualified(pid: str, name: str) -> str:
    """A temperature named "... during storage" / "storage ambient temperature" is the storage
    temperature, whatever operating-temperature words it also holds; a supply current named for a
    low-power mode ("Supply current in Standby mode") is the standby current."""
    if pid == "operating_temperature" and _STORAGE_RE.search(name):
        return "storage_temperature"
    if SUPPLY_IN_MODE and pid == "supply_current" and _STANDBY_RE.search(name):
        return "standby_current"
    return pid


SUPPLY_IN_MODE = True  # off for an ablation (benchmarks/spec_rerun.py --without supply-in-mode)
# specs-8: a name that is a symbol of three or more characters ("VDD", "VCC" printed as the row's
# name) is read as that symbol, when the unit agrees
SYMBOL_NAMES = True  # off for an ablation (benchmarks/spec_rerun.py --without symbol-names)
# specs-41: a name that is a two-letter symbol of the vocabulary and nothing else ("VS", "IB" printed as the row's
# whole name) is read as that symbol when the unit agrees
SYMBOL_ONLY_NAMES = True  # off for an ablation (benchmarks/spec_rerun.py --without symbol-only-names)


def _refined(pid: str, matched: str, symbol: str, unit: str) -> str:
    """The symbol refines a generic name: "Output voltage" printed with VOH is the output high
    voltage, because VOH's parameter has a name that goes on from the words matched ("output
    voltage high"). A symbol of an unrelated parameter changes nothing (two-letter symbols collide)."""
    sym = fold(symbol).replace(" ", "")
    hit = _symbols().get(sym) if sym else None
    if hit is None or hit[0] == pid or not _unit_ok(hit[1], unit, strict=True):
        return pid
    if any(p == hit[0] and n.startswith(matched + " ") for n, p, _, _ in _names()):
        return hit[0]
    return pid


def _find(text: str, name: str) -> int:
    """Where `name` first stands in `text` as a whole name (a Chinese name anywhere), else -1."""
    if name not in text:  # the cheap necessary test first (this runs for every name on every row)
        return -1
    if re.search(r"[\u4e00-\u9fff]", name):
        return text.index(name)
    m = re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text)
    return m.start() if m else -1


def _contains(text: str, name: str) -> bool:
    return _find(text, name) >= 0


def _unit_ok(punit: str, unit: str, strict: bool = False) -> bool:
    if not unit:
        return not strict or punit != "-"
    if punit == "-":
        return False
    return punit == unit


# --------------------------------------------------------------------------- constraints
_OPS = {
    "<=": "<=",
    "=<": "<=",
    "≤": "<=",
    "<": "<",
    ">=": ">=",
    "=>": ">=",
    "≥": ">=",
    ">": ">",
    "=": "=",
    "==": "=",
}
_WORD_OPS = (
    (r"(?:below|under|less than|at most|max(?:imum)?|up to|no more than|not exceeding|not more than|within|不超过|不大于|不高于|"
     r"小于|低于|以下|最大|最高|≤)", "<="),
    (r"(?:above|over|more than|greater than|at least|no less than|not less than|min(?:imum)?|不低于|不小于|大于|高于|"
     r"以上|至少|最小|最低|≥)", ">="),
)
# an operator after the value ("0.3 pF max", "3A以上", "200mV以下")
_POSTFIX_RE = re.compile(r"\s*(max(?:imum)?\.?|min(?:imum)?\.?|typ(?:ical)?\.?|或?以下|或?以上)(?![A-Za-z])", re.IGNORECASE)
_POSTFIX_OPS = {"max": "<=", "maximum": "<=", "以下": "<=", "min": ">=", "minimum": ">=", "以上": ">=", "typ": "=",
                "typical": "="}


def _postfix(text: str) -> tuple[str, int]:
    """The operator a value's next words state, and their length; ("", 0) when none."""
    m = _POSTFIX_RE.match(text)
    if not m:
        return "", 0
    return _POSTFIX_OPS[m.group(1).lower().rstrip(".").lstrip("或")], m.end()


_CONSTRAINT_RE = re.compile(r"^\s*(.+?)\s*(<=|=<|>=|=>|==|≤|≥|<|>|=)\s*(.+?)\s*$")


def _param_from_text(text: str) -> tuple[str, str] | None:
    """A parameter named in a constraint: canonical id and unit, or None. A symbol typed in another case than the
    vocabulary prints it ("Vds", "vgs(th)") is that symbol when every symbol spelled so names one parameter."""
    pid, known = match_parameter(text, text.strip())
    if known:
        return pid, parameter_unit(pid) or ""
    hit = _symbols_folded().get(fold(text).replace(" ", "").lower())
    if hit is not None:
        return hit[0], "" if hit[1] == "-" else hit[1]
    return None


@cache
def _symbols_folded() -> dict[str, tuple[str, str]]:
    """The vocabulary's symbols of two or more characters by their lower-case spelling, where every symbol so
    spelled names the same parameter ("VDS" -> drain_source_voltage; "IS" / "Is" would be left out if they differed)."""
    out: dict[str, tuple[str, str] | None] = {}
    for sym, hit in _symbols().items():
        k = sym.lower()
        if len(k) < 2:
            continue
        out[k] = hit if k not in out or out[k] == hit else None
    return {k: v for k, v in out.items() if v is not None}


# specs-38: a voltage gain printed in dB is 20 log10 of the ratio (IEC 60027-3, logarithmic quantities): a gain the
# vocabulary stores as a ratio (V/V - "Large Signal Voltage Gain 100 V/mV") read in dB ("Open-Loop Gain 120 dB") is
# stored as that ratio, its printed unit kept
GAIN_DECIBELS = True  # off for an ablation (benchmarks/spec_rerun.py --without gain-decibels)


def as_ratio(pv: ParsedValue) -> ParsedValue:
    """A value in dB as the voltage ratio it states (min / typ / max each 10^(x/20)); unit V/V, printed unit kept."""

    def r(x: float | None) -> float | None:
        return None if x is None else _clean(10 ** (x / 20))

    return ParsedValue(min=r(pv.min), typ=r(pv.typ), max=r(pv.max), unit="V/V", unit_printed=pv.unit_printed,
                       footnotes=pv.footnotes, tolerance=pv.tolerance)


def _value_and_unit(text: str, punit: str, what: str) -> tuple[float, float | None, str]:
    """ "50 kohm" -> (50000, None, "ohm"); "-40~85" -> (-40, 85, "°C"); a number without unit takes the
    parameter's unit; "50k" reads k as the prefix of that unit."""
    t = fold(text)
    m = re.fullmatch(r"([-+±]?\d+(?:\.\d+)?)\s*([pnuµmkKMG])", t)
    if m and punit:  # "50k": a prefix of the parameter's unit
        return _clean(float(m.group(1).lstrip("±")) * _PREFIX[m.group(2)]), None, punit
    pv = parse_value(t, "", "value")
    rev = re.fullmatch(r"([-+]?\d+(?:\.\d+)?)(\s*(?:to|~)\s*)([-+]?\d+(?:\.\d+)?)(\s*\S*)", t)
    if pv is None and rev and float(rev.group(1)) > float(rev.group(3)):
        pv = parse_value(f"{rev.group(3)}{rev.group(2)}{rev.group(1)}{rev.group(4)}", "", "value")  # "20 to 12 pF"
    if pv is None:
        m = re.fullmatch(r"[-+±]?\d+(?:\.\d+)?\s*(\S.*)", t)
        if m and parse_unit(m.group(1)) is None:
            raise InputError(f"{what}: unknown unit {m.group(1)!r}")
        if not re.search(r"\d", t):
            raise InputError(f"{what}: {text!r} is not a number")
        raise InputError(f"{what}: cannot read {text!r} as a value with a unit")
    if pv.unit_printed and not pv.unit:
        raise InputError(f"{what}: unknown unit {pv.unit_printed!r}")
    if not punit and pv.unit:
        # "output 3.3V": output type (like package) is a word, not a quantity in a unit
        raise InputError(f"{what}: the parameter holds no value in {pv.unit_printed!r}")
    unit = pv.unit or punit
    if GAIN_DECIBELS and punit == "V/V" and pv.unit == "dB":
        pv = as_ratio(pv)  # "open loop gain >= 100 dB": the gain's ratio
        unit = "V/V"
    if punit and pv.unit and pv.unit != punit:
        raise InputError(f"{what}: unit {pv.unit_printed!r} does not fit the parameter (expected {punit})")
    if pv.min is not None and pv.max is not None and not pv.tolerance:
        return pv.min, pv.max, unit
    if pv.tolerance:
        return abs(pv.max or 0.0), None, unit
    one = pv.typ if pv.typ is not None else (pv.max if pv.max is not None else pv.min)
    assert one is not None
    return one, None, unit


def parse_constraint(text: str) -> SpecConstraint:
    """``PARAM OP VALUE [UNIT]`` (OP: <=, <, >=, >, =) or ``PARAM = LO to HI``. InputError (one line)
    for anything else: an unknown parameter, a value that is no number, a unit that is unknown or
    does not fit."""
    if not isinstance(text, str) or not text.strip():
        raise InputError("empty constraint")
    m = _CONSTRAINT_RE.match(fold(text))
    if not m:
        raise InputError(f"constraint {text[:80]!r}: expected PARAMETER OP VALUE, e.g. 'ESR <= 50 kohm'")
    name, op, rhs = m.group(1), _OPS[m.group(2)], m.group(3)
    p = _param_from_text(name)
    if p is None:
        raise InputError(f"constraint {text[:80]!r}: unknown parameter {name[:40]!r}")
    pid, punit = p
    v, v2, unit = _value_and_unit(rhs, punit, f"constraint {text[:80]!r}")
    if v2 is not None:
        if op != "=":
            raise InputError(f"constraint {text[:80]!r}: a range goes with '=', not {op!r}")
        return SpecConstraint(parameter=pid, op="range", value=v, value2=v2, unit=unit, text=text.strip())
    return SpecConstraint(parameter=pid, op=op, value=v, unit=unit, text=text.strip())


# a bare value typed right after an operator or after a word that names no parameter the query read ("Vds >= 30 V"
# with Vds unknown, "accuracy ±1 °C") is that word's value: left unread (shown back as such), not given to the
# parameter its unit names by default; a word of that default parameter's own names ("supply 3.3 V", "temperature
# -40 to 85 °C"), a product type's and a joining word ("with", 的) leave it a bare value; after "at" / "@" it is a test condition
BARE_OWNERS = True  # off for an ablation
# The words that state no quantity: English articles, prepositions, conjunctions, pronouns, auxiliaries and a question's
# request verbs (the closed word classes of English grammar; "which 32.768 kHz crystals have ...", "find LDOs with ...")
# and the Chinese structural words (的, 和, 及, 或, 在). One set for both uses: such a word owns no value typed after it,
# and a query's unread rest is shown back without them (`parametric._content_words`).
FUNCTION_WORDS = frozenset(
    "a an the of with without and or for in on at to from by per as about around approx approximately is are be "
    "that which who whose its their any some all each every than then i we you me my our have has "
    "need needs want wants find show list give please 的 和 及 或 在".split()
)


# the words of an output type's values - the logic families of JEDEC's interface standards (JESD8: LVCMOS, LVTTL, HSTL,
# SSTL; TIA/EIA-644 LVDS; the ECL family's PECL / LVPECL; HCSL, CML) and IEC 60679-1's output waveforms (sine, clipped
# sine, square): a value of the output type, which owns no number typed after it
OUTPUT_WORDS = True  # off for an ablation
_OUTPUT_LOGIC = frozenset({"cmos", "lvcmos", "hcmos", "ttl", "lvttl", "hstl", "sstl", "lvds", "pecl", "lvpecl", "ecl",
                           "hcsl", "cml", "sine", "sinewave", "square"})


_PLURAL_RE = re.compile(r"(?<![A-Za-z])([A-Za-z][A-Za-z-]*?[A-Za-z])((?:(?<=ch)|(?<=sh)|(?<=[xz]))es|(?<![su])s)(?![A-Za-z])")


def singular_view(text: str) -> str:
    """`text` with an English plural's ending blanked ("crystals", "TCXOs", "switches", "op amps" -> "crystal ",
    "TCXO ", "switch  ", "op amp "), so a type's pattern, written for a datasheet title's singular, finds the word a
    query types in the plural; the blanks keep every position, and the type reader (`parametric.named_type`) takes
    the ending out with the word. A word ending in "ss" / "us" / "is" is no plural ("bus", "class")."""
    return _PLURAL_RE.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)


# the product types whose input is their supply: a regulator's, a converter's, a charger's "input voltage" (JESD99's V_I
# of a voltage regulator) is what it runs from - an op amp's is a signal range (chunking/specs.py's power-inputs; a
# query's "input voltage" of such a part, `parametric.parse_constraints`)
POWER_TYPES = frozenset({"voltage regulator", "DC-DC converter", "AC-DC converter", "battery charger"})


TYPE_BEFORE_NAME = True  # a product type's word before a name's word ("LDO supply 3.3 V") names no other quantity; ablation
NAME_WORDS = True  # a word of a bare unit's parameter's names beside its value ("supply >= 2.7 V", "5V supply"); off for an ablation


def _names_word(word: str, pid: str) -> bool:
    """Is `word` a word of `pid`'s names and no product type's word ("supply" of supply voltage; not "oscillator")?"""
    return any(word.lower() in n.split() for n in parameter_names(pid)[0]) and not any(
        re.search(pattern, word, re.IGNORECASE) for pattern, _ in type_patterns()
    )


def _name_word(word: str, pid: str) -> bool:
    """`_names_word`, a word of three letters or more that is no joining word."""
    return len(word) >= 3 and word.lower() not in FUNCTION_WORDS and _names_word(word, pid)


def _name_word_op(head: str, pid: str) -> tuple[int, str] | None:
    """(start, operator) of "WORD >= " ending `head`, WORD a word of `pid`'s names (`_name_word`): the spelled form of
    "supply between 2.7 V and 5.5 V" ("supply >= 2.7 V, supply <= 5.5 V")."""
    m = re.search(r"([^\W\d_]+)\s*(<=|>=|≤|≥|<|>)\s*$", head)
    if m is None or not _name_word(m.group(1), pid):
        return None
    return m.start(1), _OPS[m.group(2)]


def _name_word_after(t: str, end: int, pid: str) -> int | None:
    """The end of a word of `pid`'s names right after a value ("single 5V supply"), else None."""
    m = re.match(r"\s*([^\W\d_]+)\b", t[end:])
    return end + m.end() if m and _name_word(m.group(1), pid) else None


def _ends_in_type(text: str) -> bool:
    """Does `text` end in a word a product type names its part by ("oscillator", "LDO", "op amp", "TCXOs" - the plural
    read as the singular)?"""
    plain = singular_view(text)
    return any(re.search(rf"(?:{pattern})[\w-]*\s*$", plain, re.IGNORECASE) for pattern, _ in type_patterns())


def _owned(t: str, start: int, used: list[tuple[int, int]], pid: str, ranged: bool = False) -> bool:
    """Is the bare value at `start` of `t` the value of something the query names and the parser did not read (or a
    condition in parentheses)? A value after "at" / "@" never gets here: `parse_query` passes over it as a test
    condition before it looks for the value's name."""
    before = list(t[:start])
    for a, b in used:  # what was read is no owner, and ends what comes before it
        for k in range(a, min(b, start)):
            before[k] = ","
    head = "".join(before).rstrip().rstrip("±").rstrip()  # "精度±5ppm": the ± is the value's
    if NAME_CONDITIONS and pid != "operating_temperature" and head.endswith("("):
        return True  # "jitter below 200 fs (12 kHz to 20 MHz)", "noise uVrms (10Hz-100kHz)": in parentheses, a condition (a
        # temperature range there is the range the part holds over, read: "±10 ppm max (-20~+70 °C)")
    if ranged and re.search(r"\b(?:over|across)$", head, re.IGNORECASE):
        return False  # "over -40 to +85 °C": the range the query asks it to hold over
    if re.search(rf"(?:<=|>=|≤|≥|<|>|=|{'|'.join(w for w, _ in _WORD_OPS)})$", head, re.IGNORECASE):
        return True  # "Vds >= 30 V": an operator with no parameter read before it
    if _ends_in_type(head):
        return False  # a type the query names its part by ("oscillator", "LDO", "op amp", "MEMS oscillator")
    m = re.search(r"(?<![0-9.])([^\W\d_][\w()/.-]*)$", head)  # not a value's unit ("16MHz 18pF")
    if m is None:
        return False
    word = m.group(1).lower().rstrip(".")
    if OUTPUT_WORDS and word in _OUTPUT_LOGIC:
        return False  # "LVDS 2.5V", "clipped sine 1.8V": an output's logic or waveform - a value, not a name
    if word in FUNCTION_WORDS or re.search(r"\d", word):
        return False  # a joining word; a part number or code ("ABM8-16.000MHZ-B2-T 16MHz") owns no value
    names, _ = parameter_names(pid)
    if any(word in n.split() for n in names):
        # "supply 3.3 V", "temperature -40 to 85 °C" - but "rated voltage 25V", "isolation voltage 5000 Vrms": the
        # word before names another quantity the vocabulary does not hold
        prev = re.search(r"([^\W\d_]+)[\s-]+[^\W\d_]+$", head)
        other = prev.group(1).lower() if prev else ""
        if TYPE_BEFORE_NAME and other and _ends_in_type(other):
            return False  # "LDO supply 2.7 to 5.5 V", "TCXO supply 3.3 V": the part's type, then the name's word
        return bool(other) and other not in FUNCTION_WORDS and not any(other in n.split() for n in names)
    return len(word) >= 2


# natural queries: "<param> [op] <value><unit>" pieces, and bare values whose unit names the parameter
_BARE_UNIT_PARAM = {
    "Hz": "frequency",
    "F": "load_capacitance",
    "ppm": "frequency_stability",
    "°C": "operating_temperature",
    "V": "supply_voltage",
    "bit": "resolution",
}


@cache
def _param_regex() -> re.Pattern[str]:
    alts = sorted(
        {n for n, _, _, _ in _names()} | {s.lower() for s in _symbols() if len(s) >= 2}, key=len, reverse=True
    )
    # a name's words joined by a space or a hyphen ("power-on time", "open-loop gain")
    # ... and not inside a longer Latin word ("VDS" is no drain-source voltage in "LVDS", "DC" no duty cycle in "ADC")
    def alt(a: str) -> str:
        e = re.escape(a).replace(r"\ ", r"[\s-]")
        head = r"(?<![A-Za-z0-9])" if re.match(r"[A-Za-z0-9]", a) else ""  # Chinese runs into Latin: no edge there
        tail = r"(?![A-Za-z])" if re.search(r"[A-Za-z0-9)]$", a) else ""
        return head + e + tail

    return re.compile("(" + "|".join(alt(a) for a in alts) + ")", re.IGNORECASE)


@cache
def _name_after_regex() -> re.Pattern[str]:
    """A parameter name right after a value ("3.3V output voltage")."""
    return re.compile(rf"[\s,]*({_param_regex().pattern})(?![A-Za-z])", re.IGNORECASE)


_RANGE_SEP = r"(?:~|to|-|…|\.\.\.|到|至)"  # "..." is the NFKC of "…"; fold() reads "～" as "~"


@cache
def _val() -> str:
    """A value as a query types it: a number or a range, its unit - Latin letters, or a Chinese unit name of the unit
    table (GB 3100: 毫安, 兆赫, 欧), or an operator written after it (以下 / 以上)."""
    cjk = sorted((u for u in _unit_table() if re.search(r"[\u4e00-\u9fff]", u)), key=len, reverse=True)
    units = "|".join(map(re.escape, [*cjk, "或以下", "或以上", "以下", "以上"]))
    return (rf"[-+±]?\d+(?:\.\d+)?(?:\s*{_RANGE_SEP}\s*[-+]?\d+(?:\.\d+)?)?\s*"
            rf"(?:(?:[a-zA-Zµ°Ω%/√]+(?:/°C)?)(?:{units})?|{units})?")


_NUM = r"[-+±]?\d+(?:\.\d+)?"
_UNIT_WORD = r"[a-zA-Zµ°Ω%/\u4e00-\u9fff]+"
# "8 pF to 12 pF", "-40℃~+85℃": a range whose ends both print the unit, read as "8 to 12 pF"
_TWO_UNITS_RE = re.compile(rf"({_NUM})\s*({_UNIT_WORD})\s*({_RANGE_SEP})\s*({_NUM})\s*\2(?![A-Za-z0-9_])")
# "400 kHz to 2.2 MHz", "400kHz-2.2MHz": a range's ends in units of one quantity with two prefixes
PREFIXED_RANGES = True  # off for an ablation
_PREFIXED_RE = re.compile(rf"({_NUM})\s*([a-zA-Zµ°Ω%/]+)\s*({_RANGE_SEP})\s*({_NUM})\s*([a-zA-Zµ°Ω%/]+)(?![A-Za-z0-9_])")


def _one_unit_range(m: re.Match[str]) -> str:
    """ "400 kHz to 2.2 MHz" -> "0.4 to 2.2 MHz": the first end in the second's unit, when both units are of one quantity
    (`parse_unit`); anything else as it was."""
    a, ua, sep, b, ub = m.groups()
    pa, pb = parse_unit(ua), parse_unit(ub)
    if pa is None or pb is None or pa[0] != pb[0] or not pb[1] or re.search(r"[±\s]", a):
        return m.group(0)
    sign = a[0] if a[0] in "+-" else ""
    return f"{sign}{_clean(float(a.lstrip('+-')) * pa[1] / pb[1]):g} {sep} {b} {ub}"


# "ESR between 20 and 50 ohm", "between 20 ohm and 50 ohm": the value lies within - at least the one, at most the other
_BETWEEN_RE = re.compile(
    rf"(?P<name>[^\W\d_][^,;<>=≤≥]*?)\s+between\s+(?P<a>{_NUM})\s*(?P<ua>{_UNIT_WORD})?\s+and\s+(?P<b>{_NUM})\s*(?P<ub>{_UNIT_WORD})?",
    re.IGNORECASE,
)


_BETWEEN_ZH_RE = re.compile(
    rf"(?P<name>[\u4e00-\u9fff]+)\s*介于\s*(?P<a>{_NUM})\s*(?P<ua>{_UNIT_WORD[:-1]}*?)\s*(?:和|与|到|至|~)\s*(?P<b>{_NUM})\s*(?P<ub>[a-zA-Zµ°Ω%/]*)\s*之间"
)


# "RMS phase jitter (12 kHz to 20 MHz) 0.25 ps", "supply current (no load) 5 mA": a name's printed condition in
# parentheses between it and its value, read with the name (not as a value of its own)
NAME_CONDITIONS = True  # off for an ablation
_NAME_CONDITION = r"(?:\([^()]{1,40}\)\s*)?"
# "supply voltage range 1.8 V to 5.5 V", "工作电压范围1.8~5.5V": "range" after a name is the range of that quantity (the
# vocabulary's own "operating temperature range", "frequency range" are such names), not another parameter
RANGE_WORDS = True  # off for an ablation
_RANGE_WORD = r"(?:\s*(?:range|范围)(?![A-Za-z]))?"


def spelled_ranges(text: str) -> str:
    """A query's or constraint's ranges as the parser reads them: "8 pF to 12 pF" -> "8 to 12 pF"; "X between A and B
    unit" -> "X >= A unit, X <= B unit" (the value lies within; "X = A to B" is a range the part must cover)."""
    t = _TWO_UNITS_RE.sub(lambda m: f"{m.group(1)} {m.group(3)} {m.group(4)} {m.group(2)}", text)
    if PREFIXED_RANGES:
        t = _PREFIXED_RE.sub(_one_unit_range, t)

    def both(m: re.Match[str]) -> str:
        unit_b = m.group("ub") or m.group("ua") or ""
        unit_a = m.group("ua") or unit_b
        name = m.group("name").strip()
        named = list(_param_regex().finditer(name))  # "humidity sensor with supply voltage": its last parameter name
        lead = name[: named[-1].start()] if named else ""
        name = name[named[-1].start() :] if named else name
        return f"{lead}{name} >= {m.group('a')} {unit_a}, {name} <= {m.group('b')} {unit_b}".replace("  ", " ").strip()

    return _BETWEEN_ZH_RE.sub(both, _BETWEEN_RE.sub(both, t))  # 电源电压介于1.7V和5.5V之间


# "output 3.3V", "standby 1uA", "输出3.3V", "工作-40~85℃": a word right before a value, completed by the quantity the
# value's unit measures, is a parameter's name ("output voltage", "standby current", 输出电压, 工作温度) - the name's head
# typed, its quantity noun left to the unit. Only where the completed words are a name of a parameter in that unit and the
# word alone names no parameter in it.
NOUN_COMPLETION = True  # off for an ablation
_UNIT_NOUNS = {"V": ("voltage", "电压"), "A": ("current", "电流"), "Hz": ("frequency", "频率"), "°C": ("temperature", "温度"),
               "F": ("capacitance", "电容"), "ohm": ("resistance", "电阻"), "W": ("power", "功率"), "s": ("time", "时间")}
_COMPLETION_RE = re.compile(
    r"((?<![A-Za-z0-9_()-])[A-Za-z]{3,}|[\u4e00-\u9fff]{2,})(\s*)"  # a Chinese word runs on from Latin ("LDO输出")
    r"(?=[-+±]?\d+(?:\.\d+)?(?:\s*(?:~|to|-|…)\s*[-+]?\d+(?:\.\d+)?)?\s*([a-zA-Zµ°Ω℃]+|[\u4e00-\u9fff]+))"
)


# ... and the same head after a value ("3.3V output", "500mA output"), not after "at" / "@" (a test condition)
_COMPLETION_AFTER_RE = re.compile(r"(?<![\w.])((?:\bat\s+|@\s*)?)([-+±]?\d+(?:\.\d+)?\s*([a-zA-Zµ°Ω]+)\s+)([A-Za-z]{3,})(?![\w-])",
                                  re.IGNORECASE)


def _completing_noun(word: str, unit_text: str) -> str | None:
    """The quantity noun that completes `word` to a whole vocabulary name in `unit_text`'s unit, else None."""
    u = parse_unit(unit_text) or parse_unit(unit_text[:1])  # "5Vdc": its first letter the unit
    nouns = _UNIT_NOUNS.get(u[0]) if u else None
    if u is None or nouns is None:
        return None
    cjk = bool(re.match(r"[\u4e00-\u9fff]", word))
    if not cjk and any(re.fullmatch(rf"(?:{p})s?", word, re.IGNORECASE) for p, _ in type_patterns()):
        return None  # a type's word ("oscillator 26 MHz"): the part's type, read apart
    for head in [word[-k:] for k in (4, 3, 2) if len(word) >= k] if cjk else [word.lower()]:
        alone = _whole_name(head)
        if alone is not None and alone[1] == u[0]:
            return None  # the word names the parameter already ("load 12.5 pF")
        whole = _whole_name(f"{head}{nouns[1]}" if cjk else f"{head} {nouns[0]}")
        if whole is not None and whole[1] == u[0]:  # a whole name of the vocabulary, not one inside longer words
            return nouns[1] if cjk else nouns[0]
    return None


def _complete_names(t: str) -> str:
    """`t` with each name head beside a value completed by the value's quantity (`NOUN_COMPLETION`)."""

    def before(m: re.Match[str]) -> str:
        noun = _completing_noun(m.group(1), m.group(3))
        if noun is None:
            return m.group(0)
        if not noun.isascii():  # a Chinese name runs on: 输出 + 电压
            return f"{m.group(1)}{noun}{m.group(2)}"
        return f"{m.group(1)} {noun}{m.group(2) or ' '}"

    def after(m: re.Match[str]) -> str:
        typed = _param_regex().match(m.string, m.start(4))
        if m.group(1) or (typed and typed.end() > m.end(4)):
            return m.group(0)  # a test condition's value; a longer name typed whole after it ("3.3 V supply voltage")
        noun = _completing_noun(m.group(4), m.group(3))
        return m.group(0) if noun is None else f"{m.group(0)} {noun}"

    return _COMPLETION_AFTER_RE.sub(after, _COMPLETION_RE.sub(before, t))


def parse_query(
    text: str, product_types: tuple[str, ...] = (), *, strict: bool = False
) -> tuple[list[SpecConstraint], str | None, str]:
    """Constraints read from a natural query, the product type it names (one of `product_types`,
    matched case-insensitively), and the rest of the query. Reads "ESR below 50k", "ESR <= 50 kΩ",
    "12.5 pF" (a bare value: its unit names the parameter), "工作温度 -40~85".

    `strict` (what search uses, where most numbers are part numbers or test conditions - "ECX-1612MV",
    "at 25C", "1 kHz offset"): only a named parameter followed by an operator or by a value with its
    own unit ("stability ±10 ppm", "ESR below 50k", "ESR <= 50 kΩ"); no bare values."""
    t = fold(text)
    if PLUS_MINUS_ASCII:
        t = _PLUS_MINUS_RE.sub("±", t)
    # "1.6V至5.5V", "-40℃到125℃", "-40…+85°C" (NFKC "..."): a range's "to"
    t = re.sub(r"(?<=[\dA-Za-zΩ°%])\s*(?:至|到|\.\.\.)\s*(?=[-+]?\d)", " to ", t)
    t = spelled_ranges(t)
    if NOUN_COMPLETION:
        t = _complete_names(t)
    ptype = None
    for pt in sorted(product_types, key=len, reverse=True):
        # a type's name as a word of its own; Chinese text runs words together ("-40~85的TCXO")
        named = rf"(?<![A-Za-z0-9_-]){re.escape(pt)}(?![A-Za-z0-9_-])"
        if re.search(named, t, re.IGNORECASE):
            ptype = pt
            t = re.sub(named, " ", t, count=1, flags=re.IGNORECASE)
            break
    out: list[SpecConstraint] = []
    used: list[tuple[int, int]] = []
    word_ops = "|".join(w for w, _ in _WORD_OPS)
    # what ends a test condition's lead: "at" / "@", and in search queries "with" / "for" too
    condition_end = r"(?:\bat|@|\bwith|\bfor)\s*$" if strict else r"(?:\bat|@)\s*$"
    piece = re.compile(
        rf"{_param_regex().pattern}{_RANGE_WORD if RANGE_WORDS else ''}\s*{_NAME_CONDITION if NAME_CONDITIONS else ''}"
        rf"(?:is\s+|of\s+|from\s+|为\s*|:\s*)?"
        rf"(<=|>=|≤|≥|<|>|=|{word_ops})?\s*({_val()})",
        re.IGNORECASE,
    )
    for m in piece.finditer(t):
        p = _param_from_text(m.group(1))
        if p is None:
            continue
        op_text = (m.group(2) or "").lower()
        if strict:
            val = m.group(3).strip()
            tail = re.sub(r"^[-+±]?\d+(?:\.\d+)?(?:\s*(?:~|to|-|…)\s*[-+]?\d+(?:\.\d+)?)?\s*", "", val)
            ranged = bool(re.search(r"\d\s*(?:~|to|…)\s*[-+]?\d", val))
            if not op_text and not ranged and (not tail or parse_unit(tail) is None):
                continue  # "7M" after a name: a series code, not a value
            if not m.group(3)[-1:].isspace() and re.match(r"[\w-]", t[m.end(3) : m.end(3) + 1] or " "):
                continue  # the value runs on into a word: part of a code
        before = t[: m.start()]
        if re.search(condition_end, before, re.IGNORECASE) or before.count("(") > before.count(")"):
            continue  # "at Vcc 2.5 V", "RDS(on) < 5 mOhm at VGS = 10 V", "(Vin=5V)": a test condition, not a constraint
        op = _OPS.get(op_text)
        if op is None:
            op = next((o for w, o in _WORD_OPS if op_text and re.fullmatch(w, op_text)), "=")
        val = m.group(3).strip()
        post = re.search(r"(?<=[0-9A-Za-zµ°%Ω])(或?以下|或?以上)$", val)  # "200mV以下"
        if post:
            val = val[: post.start()]
        try:
            v, v2, unit = _value_and_unit(val, p[1], "query")
            end = m.start(3) + len(val)
        except InputError:
            # "-40 to 85 TCXO": the word after the number is the next word, not a unit
            bare = re.sub(r"\s+[^\d\s]\S*$", "", val)
            if bare == val:  # "-40~85的": a Chinese word run on after the number
                bare = re.sub(r"(?<=[0-9A-Za-zµ°%Ω])[\u4e00-\u9fff].*$", "", bare)
            lead = re.match(r"\s*([a-zA-Zµ°Ω%]+)", val[len(bare) :])
            if bare == val or (lead and parse_unit(lead.group(1)) is not None):
                continue  # "0.5 ppb/day": a unit the parser does not know - left unread, not read without it
            try:
                v, v2, unit = _value_and_unit(bare, p[1], "query")
            except InputError:
                continue
            end = m.start(3) + len(bare)  # the word after it is not read with it
        if not op_text:
            post_op, n = (_POSTFIX_OPS[post.group(1).lstrip("或")], 0) if post else _postfix(t[end:])
            if post_op and v2 is None:
                op, end = post_op, (m.start(3) + len(m.group(3).strip()) if post else end + n)
        if v2 is not None and op_text in ("over", "across"):
            op = "="  # "stability ±0.28 ppm over -40 to +85 °C": the range it holds over
        c = SpecConstraint(
            parameter=p[0],
            op="range" if v2 is not None else op,
            value=v,
            value2=v2,
            unit=unit,
            text=t[m.start() : end].strip(),
        )
        if c.op == "range" and op != "=":
            continue
        out.append(c)
        used.append((m.start(), end))
    # bare values: "32.768 kHz", "12.5 pF", "-40 to 125 °C" (a range: the part must cover it)
    # not inside a part code ("ABM8-16.000MHZ-B2-T": its "16.000MHZ" is no value)
    bare_re = (rf"(?<![A-Za-z0-9_.])(?<![A-Za-z0-9]-)([-+±]?\d+(?:\.\d+)?)(?:\s*{_RANGE_SEP}\s*([-+]?\d+(?:\.\d+)?))?"
               r"\s*-?([a-zA-Zµ°Ω%]+(?![A-Za-z0-9_]|-[A-Za-z0-9])|[\u4e00-\u9fff]{1,3})")
    for m in [] if strict else re.finditer(bare_re, t):
        if any(a <= m.start() < b for a, b in used):
            continue
        u = parse_unit(m.group(3))
        if u is None or (BARE_OWNERS and re.search(r"(?:\bat|@)\s*$", t[: m.start()], re.IGNORECASE)):
            continue  # a unit the parser does not know; a test condition's value ("PSRR 70 dB at 1 kHz", "@1kHz", "at
            # 25°C ambient" - before a name too)
        # a value typed before the name it is ("3.3V output voltage", "±20ppm frequency tolerance", "16-bit resolution")
        named_after = _name_after_regex().match(t, m.end())
        after = _param_from_text(named_after.group(1)) if named_after else None
        named_op: tuple[int, str] | None = None
        named_next: int | None = None
        if named_after and after is not None and after[1] == u[0] and not any(c.parameter == after[0] for c in out):
            pid, name_end = after[0], named_after.end()
        elif u[0] in _BARE_UNIT_PARAM:
            pid, name_end = _BARE_UNIT_PARAM[u[0]], m.end()
            named_op = _name_word_op(t[: m.start()], pid) if NAME_WORDS else None
            named_next = _name_word_after(t, m.end(), pid) if NAME_WORDS else None
            # a second bound of one parameter only as its spelled range's other half ("supply <= 5.5 V")
            if (any(c.parameter == pid for c in out) and named_op is None) or (
                BARE_OWNERS and named_op is None and named_next is None
                and _owned(t, m.start(), used, pid, m.group(2) is not None)
            ):
                continue
        else:
            continue
        num = parse_number(m.group(1).replace("±", ""))
        num2 = parse_number(m.group(2)) if m.group(2) else None
        if num is None:
            continue
        # a word of the parameter's own names just before it ("supply 3.3 V") is read with it
        word_before = re.search(r"([^\W\d_]+)\s*$", t[: m.start()])
        start, pre_op = m.start(), ""
        if named_op is not None and num2 is None:
            start, pre_op = named_op  # "supply >= 2.7 V": the name's word, then the operator
        elif named_next is not None:
            name_end = max(name_end, named_next)  # "single 5V supply": the name's word after the value
        if word_before and _names_word(word_before.group(1), pid):
            start = word_before.start(1)  # not a type's word ("oscillator 26 MHz": the type, read apart)
        post_op, n = _postfix(t[m.end() :]) if num2 is None else ("", 0)
        post_op = post_op or pre_op
        end = max(m.end() + n, name_end)
        text_read = t[start:end].strip()
        if num2 is not None:
            lo, hi = sorted((_clean(num * u[1]), _clean(num2 * u[1])))
            out.append(SpecConstraint(parameter=pid, op="range", value=lo, value2=hi, unit=u[0], text=text_read))
        else:
            out.append(SpecConstraint(parameter=pid, op=post_op or "=", value=_clean(num * u[1]), unit=u[0], text=text_read))
        used.append((start, end))
    rest = t
    for a, b in sorted(used, reverse=True):
        rest = rest[:a] + " " + rest[b:]
    rest = re.sub(r"[,;，、]+", " ", rest)
    rest = re.sub(r"\s+", " ", rest).strip()
    return out, ptype, rest


# --------------------------------------------------------------------------- checking
class Numbers(Protocol):
    """What matching reads of a value: a stored record (`SpecValue`) or the parametric store's compact copy of one."""

    @property
    def parameter(self) -> str: ...
    @property
    def min(self) -> float | None: ...
    @property
    def typ(self) -> float | None: ...
    @property
    def max(self) -> float | None: ...
    @property
    def unit(self) -> str: ...


class _Signed(NamedTuple):
    parameter: str
    min: float | None
    typ: float | None
    max: float | None
    unit: str


V = TypeVar("V", bound=Numbers)


def _bounds(v: Numbers) -> tuple[float | None, float | None]:
    nums = [x for x in (v.min, v.typ, v.max) if x is not None]
    if not nums:
        return None, None
    return min(nums), max(nums)


def _rel_eq(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)


MAGNITUDES = True  # a positive voltage or current bound on a value printed negative only: its magnitude; off for an ablation


def check_value(c: SpecConstraint, v: Numbers) -> bool | None:
    """Does one value meet the constraint? None when it says nothing (no number, another unit).

    <= / <: the value's worst case (max, else typ, else min; |x| for a ±tolerance) is within;
    >= / >: its worst case the other way (min, else typ, else max); = : the number is printed
    (as min, typ or max) or lies in the printed min..max; range: the printed range covers it."""
    if v.unit != c.unit and c.unit:
        return None
    if MAGNITUDES and c.unit in ("V", "A") and c.value > 0 and (c.value2 is None or c.value2 > 0):
        nums = [x for x in (v.min, v.typ, v.max) if x is not None]
        if nums and all(x <= 0 for x in nums) and any(x < 0 for x in nums):
            # a p-channel part's or a negative rail's value printed with its sign ("VDS -30 V", "VGS(th) -0.5 / -1.3
            # V"): a positive bound is on its magnitude, the roles kept (min is the least magnitude), as a
            # distributor's parametric table lists it
            neg = [None if x is None else -x for x in (v.min, v.typ, v.max)]
            v = _Signed(v.parameter, neg[0], neg[1], neg[2], v.unit)
    lo, hi = _bounds(v)
    if lo is None or hi is None:
        return None
    tol = v.min is not None and v.max is not None and v.min < 0 < v.max and _rel_eq(-v.min, v.max)
    if c.op in ("<=", "<"):
        x = v.max if v.max is not None else (v.typ if v.typ is not None else v.min)
        assert x is not None
        if tol and c.value >= 0:
            x = v.max or 0.0
        return x <= c.value * (1 + 1e-9) if c.op == "<=" else x < c.value
    if c.op in (">=", ">"):
        x = v.min if v.min is not None else (v.typ if v.typ is not None else v.max)
        assert x is not None
        if tol and c.value >= 0:  # "±100 ppm min" pull range: its magnitude
            x = v.max or 0.0
        return x >= c.value * (1 - 1e-9) if c.op == ">=" else x > c.value
    if c.op == "=":
        if tol:
            return _rel_eq(v.max or 0.0, abs(c.value))
        if any(x is not None and _rel_eq(x, c.value) for x in (v.min, v.typ, v.max)):
            return True
        return v.min is not None and v.max is not None and v.min <= c.value <= v.max
    # range
    assert c.value2 is not None
    if not _covered(c.parameter):
        return lo <= c.value2 + 1e-9 * abs(c.value2) and hi >= c.value - 1e-9 * abs(c.value)  # a value within, or meeting it
    if v.min is None or v.max is None:
        return None
    return v.min <= c.value + 1e-9 and v.max >= c.value2 - 1e-9


def check(c: SpecConstraint, values: Sequence[V]) -> tuple[str, list[V]]:
    """("meets" | "fails" | "unknown", the values that decided it). Several values of a parameter
    (ESR per frequency band, one per ordering code): meets when any meets - parametric search and search's boost first
    leave out the values printed for another frequency band than the one asked (`at_frequency`)."""
    decided = [(v, check_value(c, v)) for v in values if v.parameter == c.parameter]
    yes = [v for v, ok in decided if ok is True]
    if yes:
        return "meets", yes
    no = [v for v, ok in decided if ok is False]
    if no:
        return "fails", no
    return "unknown", []


# A value printed for a band of the nominal frequency ("ESR 80 Ω 20~38MHz, 60 Ω >38MHz", "16 MHz ≤ f0 < 24 MHz"):
# crystal and oscillator tables print ESR, drive level and supply current per band (IEC 60122-1 / 60679-1 specify
# them per frequency). The band is read from the value's conditions; a jitter or phase-noise row's frequency range is
# its integration band or offset, not the part's frequency, and is not read as one.
_HZ = r"([kKmMgG]?)[hH][zZ]"
_FNUM = r"(\d+(?:\.\d+)?)"
_FVAR = r"(?:f\w{0,3}|freq(?:uency)?|fo|fnom)"
_BAND_RES = (
    # 16 MHz ≤ f0 < 24 MHz, 16 ≤ f ≤ 24 MHz
    ("both", re.compile(rf"{_FNUM}\s*(?:{_HZ})?\s*(<=|≤|<)\s*{_FVAR}\s*(<=|≤|<)\s*{_FNUM}\s*{_HZ}")),
    # 16~40MHz, 16 to 40 MHz, 16 MHz - 40 MHz, 12.000 ... 15.999 MHz
    ("range", re.compile(rf"(?<![\d.])\s*{_FNUM}\s*(?:{_HZ})?\s*(?:~|to|-|\.\.\.?|…)\s*{_FNUM}\s*{_HZ}")),
    # >40MHz, ≥ 40 MHz, f0 > 40 MHz, over / above 40 MHz
    ("above", re.compile(rf"(>=|≥|>|\bover\b|\babove\b)\s*{_FNUM}\s*{_HZ}")),
    # < 16 MHz, ≤ 16 MHz, below / under / up to 16 MHz
    ("below", re.compile(rf"(<=|≤|<|\bbelow\b|\bunder\b|\bup to\b)\s*{_FNUM}\s*{_HZ}")),
)
_HZ_PREFIX = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9}
BAND_EXEMPT = ("phase_jitter", "phase_noise", "frequency")  # their frequency ranges are not the part's frequency


# a condition naming nominal frequencies only: "19.2MHz", "26、38.4MHz", "f0 = 26 MHz", "26 / 38.4 MHz"
_POINTS_RE = re.compile(rf"^(?:{_FVAR}\s*=\s*)?((?:\d+(?:\.\d+)?\s*(?:[kKmMgG]?[hH][zZ])?\s*(?:[,、/;]|and|or)\s*)*\d+(?:\.\d+)?)\s*{_HZ}$")


@dataclass(frozen=True)
class FrequencyBand:
    """The nominal frequencies a value applies to, Hz: spans (lo, hi, lo excluded, hi excluded); a printed
    frequency is a span of one point."""

    spans: tuple[tuple[float, float, bool, bool], ...]

    def holds(self, f: float) -> bool:
        eps = 1e-9 * max(abs(f), 1.0)
        for lo, hi, lo_strict, hi_strict in self.spans:
            above = f > lo + eps if lo_strict else f >= lo - eps
            below = f < hi - eps if hi_strict else f <= hi + eps
            if above and below:
                return True
        return False

    def reaches(self, other: FrequencyBand) -> bool:
        """Do the two share a frequency? ("20~60MHz" reaches into 20-30 MHz asked; ">60MHz" does not; "16~20MHz"
        does, at 20 MHz.)"""
        for a_lo, a_hi, a_lo_s, a_hi_s in self.spans:
            for b_lo, b_hi, b_lo_s, b_hi_s in other.spans:
                lo, lo_s = max((a_lo, a_lo_s), (b_lo, b_lo_s))  # the higher lower end (at a tie, the strict one)
                hi, hi_closed = min((a_hi, not a_hi_s), (b_hi, not b_hi_s))  # the lower upper end (a tie: the strict)
                eps = 1e-9 * max(abs(lo), 1.0)
                if lo < hi - eps or (abs(hi - lo) <= eps and not lo_s and hi_closed):
                    return True
        return False


def frequency_band(conditions: str | None) -> FrequencyBand | None:
    """The band of nominal frequency a value's conditions restrict it to, or None (no band, or two different ones).
    "16~40MHz" -> 16..40 MHz, ">40MHz" -> above 40 MHz, "16 MHz ≤ f0 < 24 MHz" -> [16, 24) MHz, a condition naming
    frequencies only ("26、38.4MHz", "f0 = 19.2 MHz") -> those; a test frequency among other conditions ("@100MHz",
    "f0 = 26 MHz, no load") is no band. Most conditions name no Hz: passed over before the reader's cache hashes them."""
    if not conditions or ("z" not in conditions and "Z" not in conditions):
        return None
    return _frequency_band(conditions)


@lru_cache(maxsize=1 << 14)
def _frequency_band(conditions: str) -> FrequencyBand | None:
    t = fold(conditions)
    pm = _POINTS_RE.match(t)
    if pm:
        k = _HZ_PREFIX[pm.group(2).lower()]
        nums = re.findall(r"\d+(?:\.\d+)?", pm.group(1))
        return FrequencyBand(tuple((float(x) * k, float(x) * k, False, False) for x in nums))
    found: list[tuple[float, float, bool, bool]] = []
    used: list[tuple[int, int]] = []
    for kind, rx in _BAND_RES:
        for m in rx.finditer(t):
            if any(a < m.end() and m.start() < b for a, b in used):
                continue
            g = m.groups()
            if kind == "both":
                hi_f = _HZ_PREFIX[g[5].lower()]
                lo_f = _HZ_PREFIX[g[1].lower()] if g[1] is not None else hi_f
                span = (float(g[0]) * lo_f, float(g[4]) * hi_f, g[2] == "<", g[3] == "<")
            elif kind == "range":
                hi_f = _HZ_PREFIX[g[3].lower()]
                lo_f = _HZ_PREFIX[g[1].lower()] if g[1] is not None else hi_f
                span = (float(g[0]) * lo_f, float(g[2]) * hi_f, False, False)
                if span[0] >= span[1]:
                    continue
            elif kind == "above":
                span = (float(g[1]) * _HZ_PREFIX[g[2].lower()], math.inf, g[0] in (">", "over", "above"), False)
            else:
                span = (0.0, float(g[1]) * _HZ_PREFIX[g[2].lower()], False, g[0] in ("<", "below", "under"))
            used.append(m.span())
            found.append(span)
    return FrequencyBand((found[0],)) if len(set(found)) == 1 else None


def asked_frequency(constraints: Sequence[SpecConstraint]) -> FrequencyBand | None:
    """The nominal frequencies constraints ask for, as a band: "frequency = 26 MHz" that one, "frequency = 20 to
    30 MHz" that range, "frequency >= 100 MHz" from there up (several constraints: what all allow); None when no
    frequency is asked or none meets them all."""
    lo, hi, lo_strict, hi_strict = 0.0, math.inf, False, False
    asked = False
    for c in constraints:
        if c.parameter != "frequency" or c.unit != "Hz":
            continue
        asked = True
        if c.op == "=":
            span = (c.value, c.value, False, False)
        elif c.op == "range":
            span = (c.value, c.value if c.value2 is None else c.value2, False, False)
        elif c.op in (">=", ">"):
            span = (c.value, math.inf, c.op == ">", False)
        else:
            span = (0.0, c.value, False, c.op == "<")
        lo, lo_strict = max((lo, lo_strict), (span[0], span[2]))
        hi, hi_closed = min((hi, not hi_strict), (span[1], not span[3]))
        hi_strict = not hi_closed
    if not asked or lo > hi * (1 + 1e-9) or (lo >= hi and (lo_strict or hi_strict)):
        return None
    return FrequencyBand(((lo, hi, lo_strict, hi_strict),))


def at_frequency(values: list[V], f: float | FrequencyBand | None) -> list[V]:
    """The values that apply at nominal frequency `f`, or at some frequency of the band `f`: a value printed for a
    band of frequencies (ESR "80 Ω 20~38MHz", "50 Ω 26、38.4MHz") is left out where `f` lies outside it (a band asked:
    where the two share no frequency); without a frequency, all. A value's band is its `band` (the parametric store's
    compact values) or read from its `conditions` (a record)."""
    if f is None:
        return values
    out = []
    for v in values:
        band = frequency_band(v.conditions) if hasattr(v, "conditions") else getattr(v, "band", None)
        if v.parameter in BAND_EXEMPT or band is None or (band.holds(f) if isinstance(f, float) else band.reaches(f)):
            out.append(v)
    return out


def parameter_name_table() -> list[tuple[str, str]]:
    """(name, canonical id) that `parameters_named` looks for, in the order it tries them (the
    static site's search reads the same table)."""
    return [(n, pid) for n, pid, _, _ in _names() if len(n) >= 3]


def parameters_named(text: str) -> list[str]:
    """The canonical parameters a free text names by one of their names (English or Chinese, at
    least 3 characters; symbols are left out - "IS", "ID", "CL" are words and part-number pieces in
    a query), longest name first, each place in the text read once; in order of first mention."""
    t = _dehyphen(fold(text).lower())
    found: list[tuple[int, str]] = []
    for n, pid in parameter_name_table():
        at = _find(t, n)
        if at < 0:
            continue
        found.append((at, pid))
        t = t[:at] + " " * len(n) + t[at + len(n) :]
    out: list[str] = []
    for _, pid in sorted(found):
        if pid not in out:
            out.append(pid)
    return out


def parameter_names(pid: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(names, symbols) of a canonical parameter (names lower case, "=" markers dropped)."""
    for p, _, names, symbols in spec_parameters():
        if p == pid:
            return tuple(n.lstrip("=") for n in names), symbols
    return (), ()
