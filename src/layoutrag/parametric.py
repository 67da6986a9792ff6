"""Parametric search and comparison over the stored spec values (``docs/*/specs.json``).

    find_parts(data, constraints, product_type=None) -> SpecSearchResult
    compare_parts(data, ["7M-26.000MAAJ-T", "ABM19"]) -> SpecComparison

A document's values apply to its series (spec tables) or to one ordering code (ordering tables);
an ordering code inherits its series' values and overrides them where it prints its own. A
result is a series, or an ordering code when its own values meet more constraints than its series.
Each constraint is "meets", "fails" or "unknown" for a result (no value of that parameter:
unknown, never fails); results are ranked by constraints met, then fewest failed. Absolute maximum
ratings answer a constraint only where the document prints no characteristic for the parameter, and
summary lines (a Features list's) only where no table of it prints the parameter.
"""

from __future__ import annotations

import gc
import json
import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from layoutrag.errors import InputError, NotFoundError
from layoutrag.records import (
    DocChunks,
    DocSpecs,
    DocumentCard,
    SpecCompareRow,
    SpecComparison,
    SpecConstraint,
    SpecMatch,
    SpecPartResult,
    SpecSearchResult,
    SpecValue,
)
from layoutrag.specs import (
    FUNCTION_WORDS,
    POWER_TYPES,
    FrequencyBand,
    asked_frequency,
    at_frequency,
    check,
    describe_constraint,
    frequency_band,
    parse_constraint,
    parse_query,
    singular_view,
    spelled_ranges,
)
from layoutrag.storage import DataDir
from layoutrag.vocab import product_types as type_patterns
from layoutrag.vocab import spec_parameters

__all__ = [
    "SpecStore",
    "StoredValue",
    "compare_parts",
    "covers_any",
    "find_parts",
    "frequency_control",
    "read_frequency",
    "load_spec_store",
    "named_type",
    "parse_constraints",
    "resolve_part",
]


class StoredValue(NamedTuple):
    """What matching reads of one stored value (`specs.Numbers`, with its part and table kind): the parametric
    store keeps these, about a tenth of a record's memory, and reads the records back for the results it shows."""

    parameter: str
    part: str
    table: str
    min: float | None
    typ: float | None
    max: float | None
    unit: str
    at: int  # the value's position in its document's spec file
    where: tuple[int, float]  # its page and row top: with the reading above, what tells it from another value
    band: FrequencyBand | None = None  # the nominal frequencies its conditions restrict it to (`frequency_band`)


@dataclass
class SpecStore:
    """Every document's card and spec values: full records (built in memory), or compact ones with the spec file
    each was read from (`load_spec_store`), whose records `record` / `records` read back."""

    cards: dict[str, DocumentCard]
    specs: dict[str, list[Any]]  # doc_id -> its values: `SpecValue`s, or `StoredValue`s with `paths`
    paths: dict[str, Path] = field(default_factory=dict)  # doc_id -> its spec file (compact values)
    _params: dict[str, frozenset[str]] | None = None  # doc_id -> the parameters it has values of (`parameters`)
    _records: dict[str, list[SpecValue]] = field(default_factory=dict)  # the records read back, a few documents'

    def product_types(self) -> tuple[str, ...]:
        return tuple(sorted({c.product_type for c in self.cards.values() if c.product_type}))

    def parameters(self, doc_id: str) -> frozenset[str]:
        """The parameters a document has values of (computed once per store): a document with none a query
        constrains meets nothing and is passed over without reading its values."""
        if self._params is None:
            self._params = {d: frozenset(v.parameter for v in vals) for d, vals in self.specs.items()}
        return self._params.get(doc_id, frozenset())

    def records(self, doc_id: str) -> list[SpecValue]:
        """A document's values as full records (cells, boxes, conditions): read back from its spec file."""
        path = self.paths.get(doc_id)
        if path is None:
            return list(self.specs[doc_id])
        got = self._records.get(doc_id)
        if got is None:
            if len(self._records) >= 256:
                self._records.clear()  # a few hundred documents' records at most (one query's results)
            got = DocSpecs.model_validate_json(path.read_text(encoding="utf-8")).specs
            self._records[doc_id] = got
        return got

    def record(self, doc_id: str, v: SpecValue | StoredValue) -> SpecValue:
        """The full record of a value. A spec file rewritten since the store loaded (`layoutrag specs --rebuild`
        while a server runs on the old store) is searched for the record with the same reading; failing that, the
        record is made from the compact value (no cells) rather than another value's shown."""
        if isinstance(v, SpecValue):
            return v
        recs = self.records(doc_id)

        def same(r: SpecValue) -> bool:
            return (r.parameter, r.part, r.table, r.min, r.typ, r.max, r.unit) == v[:7] and (
                r.page,
                r.row_bbox_pdf[1],
            ) == v.where

        if v.at < len(recs) and same(recs[v.at]):
            return recs[v.at]
        hit = next((r for r in recs if same(r)), None)
        if hit is not None:
            return hit
        return SpecValue(
            doc_id=doc_id, part=v.part, parameter=v.parameter, parameter_printed=v.parameter, min=v.min, typ=v.typ,
            max=v.max, unit=v.unit, page=v.where[0], row_bbox_pdf=(0.0, v.where[1], 0.0, v.where[1]), table=v.table,
        )


def load_spec_store(data: DataDir) -> SpecStore:
    """Every document's card and its spec values as matching reads them (`StoredValue`), read with the JSON parser
    alone - a full record is validated only when a result shows it. The cyclic garbage collector is paused while
    they load: its passes over the growing heap made loading grow faster than the number of documents
    (benchmarks/spec_search_speed.py)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _load_spec_store(data)
    finally:
        if paused:
            gc.enable()


def _stored(raw: dict[str, Any], i: int) -> StoredValue:
    return StoredValue(
        sys.intern(raw["parameter"]),
        sys.intern(raw["part"]),
        sys.intern(raw.get("table", "characteristics")),
        _number(raw.get("min")),
        _number(raw.get("typ")),
        _number(raw.get("max")),
        sys.intern(raw.get("unit", "")),
        i,
        (int(raw["page"]), float(raw["row_bbox_pdf"][1])),
        frequency_band(raw.get("conditions")),
    )


def _number(x: Any) -> float | None:
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise ValueError(f"not a number: {x!r}")
    return float(x)


def _load_spec_store(data: DataDir) -> SpecStore:
    cards: dict[str, DocumentCard] = {}
    specs: dict[str, list[Any]] = {}
    paths: dict[str, Path] = {}
    ingested = list(data.doc_ids())
    seen = set(ingested)
    sources = [(d, data.doc_dir(d) / "specs.json", data.chunks_json(d)) for d in ingested]
    # imported documents (imported/{id}.json, their values in imported/specs/): the ingested one wins
    sources += [
        (d, data.imported / "specs" / f"{d}.json", data.imported / f"{d}.json")
        for d in data.imported_ids()
        if d not in seen
    ]
    for d, sp, cp in sources:
        if not sp.exists() or not cp.exists():
            continue
        try:
            raw = json.loads(sp.read_text(encoding="utf-8"))
            values = [_stored(v, i) for i, v in enumerate(raw["specs"])]
            # the card from the specs file (specs-45 on), else from the chunks file - its whole chunks parsed for it
            card = (
                DocumentCard.model_validate(raw["card"])
                if raw.get("card")
                else DocChunks.model_validate_json(cp.read_text(encoding="utf-8")).card
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # a damaged or foreign file: the document is left out, as a missing one is
        cards[d] = card
        specs[d] = values
        paths[d] = sp
    return SpecStore(cards, specs, paths)


def _norm_part(s: str) -> str:
    return re.sub(r"[\s\-_./]", "", s).upper()


def _covers(want: str, have: str) -> bool:
    """Does the product type a query names cover a card's type: the same type, or the family its last word names -
    "sensor" covers "temperature sensor", "converter" "DC-DC converter", "amplifier" "operational amplifier",
    "oscillator" the TCXO, VCXO, OCXO, XO and MEMS oscillators."""
    w, h = want.lower(), have.lower()
    if not w or not h:
        return False
    if h == w or h.endswith(" " + w):
        return True
    return w == "oscillator" and (h.endswith("xo") or "oscillator" in h)


def covers_any(want: str, types: tuple[str, ...]) -> bool:
    """Does a product type or family a query names (`_covers`) cover any of `types` (a store's)?"""
    return any(_covers(want, t) for t in types)


def _type_ok(card: DocumentCard, want: str | None) -> bool:
    return not want or _covers(want, card.product_type)


def _groups(values: list[Any], series: str) -> dict[str, list[Any]]:
    """part -> the values that apply to it: the series' own, and each ordering code's own over its
    series' (an ordering code's value of a parameter replaces the series' values of it)."""
    base = [v for v in values if v.table != "ordering"]
    out: dict[str, list[Any]] = {series: base}
    codes: dict[str, list[Any]] = {}
    for v in values:
        if v.table == "ordering":
            codes.setdefault(v.part, []).append(v)
    for code, own in codes.items():
        params = {v.parameter for v in own}
        out[code] = own + [v for v in base if v.parameter not in params]
    return out


def _usable(values: list[Any], parameter: str) -> list[Any]:
    """A document's values of `parameter` that answer a constraint: its characteristics (and
    ordering codes'), else its absolute maximum ratings, else its summary lines (a Features list
    abstracts the tables - a headline typical, a wider range - and a table printing the parameter
    is the specification)."""
    mine = [v for v in values if v.parameter == parameter]
    for kinds in (("characteristics", "ordering"), ("ratings",), ("summary",)):
        chosen = [v for v in mine if v.table in kinds]
        if chosen:
            return chosen
    return mine


def _own_frequency(values: list[Any]) -> float | None:
    """The one nominal frequency an ordering code prints ("XC-26.000" at 26.000 MHz), or None (none, several)."""
    points = {
        x
        for v in values
        if v.parameter == "frequency" and v.table == "ordering" and v.unit == "Hz"
        for x in (v.min, v.typ, v.max)
        if x is not None
    }
    return points.pop() if len(points) == 1 else None


@lru_cache(maxsize=256)  # a store holds a few dozen types; asked once per document and query
def frequency_control(product_type: str) -> bool:
    """Crystals, resonators and oscillators: their "frequency" is the nominal frequency, and a frequency band in a
    row's conditions is a band of it (IEC 60122-1 / 60679-1 specify ESR, tolerance, current per nominal frequency).
    Elsewhere a frequency in the conditions is a test frequency (PSRR at 100 kHz) and restricts nothing."""
    return any(_covers(w, product_type) for w in ("oscillator", "crystal", "resonator"))


def read_frequency(
    product_type: str, asked: float | FrequencyBand | None = None, own: float | None = None
) -> float | FrequencyBand | None:
    """The nominal frequency (or band of them) a part's values printed per frequency band are read at
    (`specs.at_frequency`): for a crystal, resonator or oscillator the frequencies the query asks, else the part's own
    (an ordering code's); for any other type none - a frequency in its conditions is a test frequency. Parametric
    search, compare and search's constraint boost all choose through this."""
    if not frequency_control(product_type):
        return None
    return asked if asked is not None else own


def _evaluate(
    values: list[Any], constraints: list[SpecConstraint], frequency: float | FrequencyBand | None = None
) -> list[tuple[str, list[Any]]]:
    """Each constraint's status for a part's values and the values that decide it; at a nominal `frequency` (a
    frequency-control part's: the one asked, else an ordering code's own) a value printed for another frequency band
    does not answer."""
    values = at_frequency(values, frequency)
    return [check(c, _usable(values, c.parameter)) for c in constraints]


def parse_constraints(
    where: list[str] | None, query: str | None, product_types: tuple[str, ...]
) -> tuple[list[SpecConstraint], str | None, str]:
    """Constraints from ``--where`` strings (strict: a bad one is an InputError) and from a natural
    query (lenient: what is not read is returned as the rest)."""
    # "ESR between 20 and 50 ohm" is two constraints; "8 pF to 12 pF" one range
    cons = [parse_constraint(piece) for w in (where or []) for piece in _pieces(w)]
    ptype, rest = None, ""
    if query:
        # the type is read from the words the constraints leave (`named_type`: by its name or any of its words)
        more, _, rest = parse_query(query)
        if rest:
            ptype, rest = named_type(rest, product_types)
        if POWER_INPUT_QUERIES and ptype and any(_covers(ptype, t) for t in POWER_TYPES) and _INPUT_RE.search(query):
            # a regulator's or converter's input voltage is its supply ("buck converter, input voltage 4.5V to 28V"):
            # read again with the input named so, the type as read
            more, _, rest = parse_query(_INPUT_RE.sub("supply voltage", query))
            rest = named_type(rest, product_types)[1] if rest else rest
        cons += more
        rest = _content_words(rest)
    if CLAMP_SYMBOL and (ptype == "ESD protection" or any(c.parameter in _SURGE_PARAMS for c in cons)):
        # "VC 10.5V" beside "VBR 6.4V", "PPPM 600W": IEC 61643-321's clamping voltage V_C, not a VCXO's control voltage
        cons = [
            c.model_copy(update={"parameter": "clamping_voltage"})
            if c.parameter == "control_voltage" and re.match(r"v\s?c\b", c.text, re.IGNORECASE) else c
            for c in cons
        ]
    return cons, ptype, rest


CLAMP_SYMBOL = True  # "VC" of a surge-protection query is the clamping voltage; off for an ablation
# the parameters of surge-protective components (IEC 61643-321) that make a query's "VC" their clamping voltage
_SURGE_PARAMS = frozenset({"peak_pulse_power", "peak_pulse_current", "breakdown_voltage", "standoff_voltage"})


POWER_INPUT_QUERIES = True  # a power part's "input voltage" in a natural query is its supply; off for an ablation
# "input voltage (range)", "input supply voltage", "Vin", and "input" right before a comparison or a range
_INPUT_RE = re.compile(
    r"\binput\s+(?:supply\s+)?voltage(?:\s+range)?\b|\bv\s?in\b(?!\s*=)"
    # "input" before a comparison or a number - not after a value it names ("12V input 5V output": 12 V is the input)
    r"|(?<!\d[A-Za-z]\s)(?<!\d\s[A-Za-z]\s)\binput\b(?=\s*(?:between|from|>=|<=|≥|≤|[<>]|[-+]?\d))",
    re.IGNORECASE,
)


# The Chinese structural words a query is written with, beside `specs.FUNCTION_WORDS` (its English closed word classes):
# 的, 和, 与, 及, 或, 为, 是, 在, 一个, 一款, 有, 要求, 需要 - the particles, conjunctions and copulas of Chinese grammar, and the
# measure phrase "a" - run into the words around them, so matched inside a word.
_CJK_FUNCTION_RE = re.compile(r"的|和|与|及|或|为|是|在|一个|一款|一种|有|要求|需要|请|找|查找")


def _content_words(rest: str) -> str:
    """The unread words of a query without its function words (`specs.FUNCTION_WORDS`, `_CJK_FUNCTION_RE`)."""
    out = []
    for w in rest.split():
        if w.lower().strip(".?!:") in FUNCTION_WORDS:
            continue
        if re.search(r"[\u4e00-\u9fff]", w):
            w = _CJK_FUNCTION_RE.sub("", w)
        if w.strip(".?!:，。？！：、"):
            out.append(w)
    return " ".join(out)


def _pieces(where: str) -> list[str]:
    """A --where constraint as the constraints it states (`specs.spelled_ranges`)."""
    if not isinstance(where, str):
        return [where]
    spelled = spelled_ranges(where)
    return [p.strip() for p in spelled.split(",")] if spelled != where else [where]


# the last word several product types share names their family ("converter": DC-DC and AC-DC converters)
_FAMILIES = ("oscillator", "converter", "sensor", "amplifier", "driver", "transceiver", "diode", "switch")


def _latin_letter(c: str) -> bool:
    return c.isascii() and c.isalpha()


def named_type(text: str, among: tuple[str, ...]) -> tuple[str | None, str]:
    """The product type a query names by its name or another of its words (data/product_types.tsv: "op amp" for
    operational amplifier, "LDO" for voltage regulator, "TVS" for ESD protection), one of `among` (the store's types)
    or a family of them, and the text without those words. The earliest words win ("TVS diode": ESD protection), at
    one position the more specific pattern, as the card reads a title; a family's own word ("isolated converter",
    "low-noise amplifier") names the family. Word edges are ASCII ones: Chinese runs into Latin ("TVS管")."""
    best: tuple[int, int, str, re.Match[str]] | None = None
    again = ""  # the type's pattern: its other words after the first are the type's too ("buck converter")
    original, text = text, singular_view(text)
    for rank, (pattern, name) in enumerate(type_patterns()):
        if not covers_any(name, among):
            continue  # a type (or family: "oscillator", "sensor") the store holds no document of
        named = rf"(?:{pattern})|(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])"
        m = re.search(named, text, re.IGNORECASE | re.ASCII)
        if m and (best is None or (m.start(), rank) < best[:2]):
            best, again = (m.start(), rank, name, m), named
    if best is None:
        fam = next(
            (m for f in _FAMILIES if covers_any(f, among) and (m := re.search(rf"\b{f}s?\b", text, re.IGNORECASE))),
            None,
        )
        if fam is None:
            return None, text
        best = (fam.start(), 0, fam.group(0).lower().rstrip("s"), fam)
    m = best[3]
    name = best[2]
    word = m.group(0).lower().strip()
    if word in _FAMILIES and word != name.lower() and covers_any(word, among):
        name = word  # "converter" alone: DC-DC and AC-DC ones
    end = m.end()
    while end < len(original) and original[end].isalpha() and text[end] == " ":
        end += 1  # the plural ending `singular_view` blanked goes with its word
    while 0 < end < len(original) and _latin_letter(original[end - 1]) and _latin_letter(original[end]):
        end += 1  # a pattern that stops inside a word ("current sens" of "current sense amplifier") takes the whole word
    tail = re.sub(rf"(?:{again})[A-Za-z]*", " ", original[end:], flags=re.IGNORECASE | re.ASCII) if again else original[end:]
    return name, re.sub(r"\s+", " ", original[: m.start()] + " " + tail).strip()


def find_parts(
    store: SpecStore,
    constraints: list[SpecConstraint],
    *,
    product_type: str | None = None,
    unparsed: str = "",
    limit: int = 50,
) -> SpecSearchResult:
    if not constraints:
        unread = f" (not read: {unparsed[:60]!r})" if unparsed else ""
        raise InputError(
            f"no constraint{unread}: give --where 'PARAMETER OP VALUE' or a query with values, e.g. 'ESR <= 50 kohm'"
        )
    found: list[tuple[tuple[int, int, int, str, str], str, str, list[tuple[str, list[Any]]]]] = []
    wanted = {c.parameter for c in constraints}
    asked = asked_frequency(constraints)  # the nominal frequencies a crystal's or oscillator's values are read at

    def count(ms: list[tuple[str, list[Any]]], status: str) -> int:
        return sum(m[0] == status for m in ms)

    for doc_id, values in store.specs.items():
        card = store.cards[doc_id]
        if not _type_ok(card, product_type) or store.parameters(doc_id).isdisjoint(wanted):
            continue  # another type, or no value of a constrained parameter: it would meet none
        series = next((v.part for v in values if v.table != "ordering"), "") or (
            card.series[0] if card.series else card.file_name
        )
        groups = _groups(values, series)
        base = _evaluate(groups[series], constraints, read_frequency(card.product_type, asked))
        base_met = count(base, "meets")
        rows = [(series, base)]
        for part, vals in groups.items():
            if part == series:
                continue
            ms = _evaluate(vals, constraints, read_frequency(card.product_type, asked, _own_frequency(vals)))
            if count(ms, "meets") > base_met or (
                count(ms, "fails") < count(base, "fails") and count(ms, "meets") >= base_met
            ):
                rows.append((part, ms))
        for part, ms in rows:
            met = count(ms, "meets")
            if met:
                found.append(((-met, count(ms, "fails"), count(ms, "unknown"), card.file_name, part), doc_id, part, ms))
    found.sort(key=lambda r: r[0])
    # the records of the results shown only: a store of 20,000 documents has thousands of candidates
    described = [describe_constraint(c) for c in constraints]
    results = [
        SpecPartResult(
            doc_id=doc_id,
            part=part,
            file_name=store.cards[doc_id].file_name,
            product_type=store.cards[doc_id].product_type,
            n_met=-rank[0],
            n_failed=rank[1],
            n_unknown=rank[2],
            matches=[
                SpecMatch(constraint=d, status=st, values=[store.record(doc_id, v) for v in ev])
                for d, (st, ev) in zip(described, ms, strict=True)
            ],
        )
        for rank, doc_id, part, ms in found[:limit]
    ]
    return SpecSearchResult(constraints=constraints, product_type=product_type, unparsed=unparsed, results=results)


def resolve_part(store: SpecStore, name: str) -> tuple[str, str]:
    """(doc_id, part) for a part number, series, file name or doc id; NotFoundError otherwise."""
    want = _norm_part(name)
    if not want:
        raise InputError("empty part name")
    for doc_id, values in store.specs.items():
        for v in values:
            if _norm_part(v.part) == want:
                return doc_id, v.part
    for doc_id, card in store.cards.items():
        series = next((v.part for v in store.specs[doc_id] if v.table != "ordering"), "")
        if doc_id == name or card.file_name == name or _norm_part(card.file_name.rsplit(".", 1)[0]) == want:
            return doc_id, series
        if any(_norm_part(p) == want for p in (*card.series, *card.part_numbers)):
            return doc_id, series or name
    # a prefix of one ordering code or series (e.g. "ABM19-24")
    for doc_id, values in store.specs.items():
        for v in values:
            if _norm_part(v.part).startswith(want) and len(want) >= 4:
                return doc_id, v.part
    raise NotFoundError(f"unknown part: {name[:80]} (no document with spec values names it)")


_TABLE_ORDER = {"characteristics": 0, "ordering": 1, "summary": 2, "ratings": 3}


def _shown_first(v: SpecValue) -> tuple[int, int]:
    """A compare cell's order: what the part does (characteristics, its ordering code's) before a Features line's
    headline and the absolute maximum ratings (limits it must not be taken to), then as printed (page order)."""
    return _TABLE_ORDER.get(v.table, 1), v.page


def compare_parts(store: SpecStore, parts: list[str]) -> SpecComparison:
    if not parts:
        raise InputError("compare needs at least one part")
    if len(parts) > 12:
        raise InputError("compare takes at most 12 parts")
    cols: list[tuple[str, str, list[SpecValue]]] = []
    for name in parts:
        doc_id, part = resolve_part(store, name)
        values = store.records(doc_id)
        series = next((v.part for v in values if v.table != "ordering"), part)
        groups = _groups(values, series)
        vals = groups.get(part, groups[series])
        vals = at_frequency(vals, read_frequency(store.cards[doc_id].product_type, own=_own_frequency(vals)))
        cols.append((doc_id, part, vals))
    order = {pid: i for i, (pid, *_rest) in enumerate(spec_parameters())}
    params: list[str] = []
    for _, _, vals in cols:
        for v in vals:
            if v.parameter not in params:
                params.append(v.parameter)
    params.sort(key=lambda p: (order.get(p, len(order)), p))
    rows = [
        SpecCompareRow(
            parameter=p, cells=[sorted((v for v in vals if v.parameter == p), key=_shown_first) for _, _, vals in cols]
        )
        for p in params
    ]
    return SpecComparison(parts=[p for _, p, _ in cols], doc_ids=[d for d, _, _ in cols], rows=rows)
