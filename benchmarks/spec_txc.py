"""Spec values of imported chunks (tables as text), measured on TXC datasheets the reader was not written on.

    python benchmarks/spec_txc.py DATA_DIR --facts FACTS.tsv [--facts FACTS2.tsv ...] [--json OUT]

DATA_DIR: `../shared/eval/txc/chunks.jsonl` imported (`layoutrag import-chunks`), so its spec stage
has run on every document. The TXC chunks carry their tables as text only (no rows, cells or page
words): `layoutrag.chunking.linear_specs` reads them. The 108 TXC documents were split by family
(the doc id's first two characters, so "og_1".."og_3" and "8w"/"8wz" stay together; sha1 of it,
even = evaluation): the reader was written looking only at the 47 development documents' text; the
61 evaluation documents' facts (`benchmarks/data/spec_facts_txc.tsv`) were read by hand from
their tables' text by helpers who neither ran nor opened layoutrag, and the queries below were
written before any evaluation fact or result was looked at.

Two scores over the evaluation documents:
- values: a fact (doc, parameter, min/typ/max as printed) is found when the document has a stored
  value of that parameter with the same numbers (canonical units); a stored value of a parameter
  the facts cover is right when it equals some fact of its document. Precision and recall, pooled.
- queries: each query's gold documents are those whose facts meet every constraint (the rules of
  `spec_queries_real.gold`); returned documents are results meeting every constraint. Macro
  precision and recall over the queries.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

from spec_queries import score_query
from spec_queries_real import gold

from layoutrag.chunking.specs import load_doc_specs
from layoutrag.service import LayoutRAG

# written before any evaluation fact or result was seen: what an engineer asks of an oscillator catalogue
QUERIES: list[dict] = [
    {"where": ["frequency stability <= 0.5 ppm"]},
    {"where": ["frequency stability <= 2.5 ppm"]},
    {"where": ["frequency stability <= 20 ppm"]},
    {"where": ["frequency stability <= 50 ppm"]},
    {"where": ["frequency tolerance <= 10 ppm"]},
    {"where": ["frequency = 26 MHz"]},
    {"where": ["frequency = 100 MHz"]},
    {"where": ["frequency = 156.25 MHz"]},
    {"where": ["frequency = 32.768 kHz"]},
    {"where": ["frequency = 10 MHz"]},
    {"where": ["operating temperature = -40 to 85"]},
    {"where": ["operating temperature = -40 to 105"]},
    {"where": ["operating temperature = -40 to 125"]},
    {"where": ["operating temperature = -20 to 70"]},
    {"where": ["supply voltage = 1.8 V"]},
    {"where": ["supply voltage = 3.3 V"]},
    {"where": ["supply voltage = 2.5 V"]},
    {"where": ["supply current <= 5 mA"]},
    {"where": ["supply current <= 50 mA"]},
    {"where": ["phase jitter <= 1 ps"]},
    {"where": ["phase jitter <= 0.3 ps"]},
    {"where": ["aging <= 1 ppm"]},
    {"where": ["startup time <= 5 ms"]},
    {"where": ["load capacitance = 15 pF"]},
    {"where": ["frequency stability <= 2.5 ppm", "operating temperature = -40 to 85"]},
    {"where": ["frequency = 100 MHz", "phase jitter <= 1 ps"]},
    {"where": ["supply voltage = 1.8 V", "supply current <= 5 mA"]},
    {"where": ["operating temperature = -40 to 125", "frequency stability <= 50 ppm"]},
    {"where": ["frequency = 26 MHz", "frequency stability <= 0.5 ppm"]},
    {"where": ["supply voltage = 3.3 V", "operating temperature = -40 to 105"]},
    {"query": "frequency stability ±0.5 ppm, operating temperature -40 to 85", "expect": ["frequency_stability = 0.5", "operating_temperature range -40..85"]},
    {"query": "工作温度 -40~125 电源电压 3.3 V", "expect": ["operating_temperature range -40..125", "supply_voltage = 3.3"]},
    {"query": "phase jitter below 1 ps, 156.25 MHz", "expect": ["phase_jitter <= 1e-12", "frequency = 1.5625e+08"]},
]

_PREFIX = {"p": 1e-12, "n": 1e-9, "µ": 1e-6, "u": 1e-6, "m": 1e-3, "": 1.0, "k": 1e3, "K": 1e3, "M": 1e6}
_BASE = ("V", "A", "Hz", "HZ", "s", "F", "W", "ohm", "Ohm", "Ω")  # base units the facts print


def family(doc_id: str) -> str:
    return doc_id[:2]


def is_eval(doc_id: str) -> bool:
    """The evaluation half: the family's sha1 is even (the split the facts were read on)."""
    return hashlib.sha1(family(doc_id).encode()).digest()[0] % 2 == 0


def to_canonical(x: str, unit: str) -> float | None:
    x = x.strip().lstrip("+")
    if not x:
        return None
    v = float(x)
    u = unit.strip().replace("℃", "°C").replace("°c", "°C").removesuffix(".").removesuffix("/yr")
    if u in ("°C", "ppm", "%", "dBc/Hz"):
        return v
    if u == "ppb":
        return float(f"{v * 1e-3:.12g}")
    if u == "min":
        return v * 60
    if u == "Ma":  # printed for mA (no datasheet quantity is in megaamperes)
        return float(f"{v * 1e-3:.12g}")
    for base in sorted(_BASE, key=len, reverse=True):
        if u.endswith(base) and u[: -len(base)] in _PREFIX:
            return float(f"{v * _PREFIX[u[: -len(base)]]:.12g}")
    raise SystemExit(f"facts: unit {unit!r} not in the benchmark's table")


def load_facts(paths: list[Path], printed_names: bool = False) -> dict[str, list[dict]]:
    """doc_id -> facts ({pid, kind, min, typ, max, row: the printed row}); kind "c" (characteristic) for every TXC row.
    `printed_names`: a row printed "Frequency Tolerance" is frequency_tolerance even where the
    fact reader filed it as frequency_stability (its note says it includes temperature, supply and
    aging) - the printed-name convention the development facts and the reader follow."""
    out: dict[str, list[dict]] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            doc, pid, lo, ty, hi, unit, _page, row = line.split("\t")[:8]
            if printed_names and pid == "frequency_stability" and row.lower().startswith("frequency tolerance"):
                pid = "frequency_tolerance"
            out.setdefault(doc, []).append(
                {"pid": pid, "kind": "c", "min": to_canonical(lo, unit), "typ": to_canonical(ty, unit), "max": to_canonical(hi, unit),
                 "row": row}
            )
    return out


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)


def _equal(v: dict, f: dict) -> bool:
    return v["pid"] == f["pid"] and all(_same(v[k], f[k]) for k in ("min", "typ", "max"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--facts", type=Path, action="append", required=True)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--show", action="store_true", help="print every missed fact and wrong value")
    ap.add_argument("--printed-names", action="store_true", help="score facts by the printed row name (load_facts)")
    a = ap.parse_args(argv)
    facts = load_facts(a.facts, a.printed_names)
    svc = LayoutRAG(a.data)
    covered = {f["pid"] for rows in facts.values() for f in rows}
    found = n_facts = right = n_values = 0
    wrong_by: Counter[str] = Counter()
    missed_by: Counter[str] = Counter()
    for doc, rows in sorted(facts.items()):
        try:
            stored = load_doc_specs(svc.data, doc).specs
        except Exception:
            stored = []
        vals = [{"pid": v.parameter, "min": v.min, "typ": v.typ, "max": v.max, "text": v.value_text} for v in stored]
        vals = [v for v in vals if v["pid"] in covered]
        for f in rows:
            n_facts += 1
            if any(_equal(v, f) for v in vals):
                found += 1
            else:
                missed_by[f["pid"]] += 1
                if a.show:
                    print(f"missed {doc} {f}")
        for v in vals:
            n_values += 1
            if any(_equal(v, f) for f in rows):
                right += 1
            else:
                wrong_by[v["pid"]] += 1
                if a.show:
                    print(f"wrong  {doc} {v}")
    name_of = {}
    for doc in facts:
        try:
            name_of[doc] = svc._spec_store().cards[doc].file_name
        except Exception:
            name_of[doc] = doc
    by_name = {name_of[d]: rows for d, rows in facts.items()}
    eval_names = set(by_name)
    qrows = []
    for q in QUERIES:
        res, read, g, got, _p, _r = score_query(svc, q, lambda cons: gold(by_name, cons))
        got = got & eval_names  # development documents are in the data dir too: not scored
        p = len(got & g) / len(got) if got else (1.0 if not g else 0.0)
        r = len(got & g) / len(g) if g else (1.0 if not got else 0.0)
        if "expect" in q and read != q["expect"]:
            p = r = 0.0
        qrows.append({"q": q, "read": read, "gold": sorted(g), "got": sorted(got), "precision": round(p, 3), "recall": round(r, 3)})
    n = len(qrows)
    summary = {
        "documents": len(facts),
        "facts": n_facts,
        "facts_found": found,
        "value_recall": round(found / max(n_facts, 1), 4),
        "values": n_values,
        "values_right": right,
        "value_precision": round(right / max(n_values, 1), 4),
        "wrong_by_parameter": dict(wrong_by.most_common()),
        "missed_by_parameter": dict(missed_by.most_common()),
        "queries": n,
        "query_precision": round(sum(x["precision"] for x in qrows) / n, 4),
        "query_recall": round(sum(x["recall"] for x in qrows) / n, 4),
        "queries_with_empty_gold": sum(1 for x in qrows if not x["gold"]),
        "rows": qrows,
    }
    for x in qrows:
        flag = "" if x["precision"] == 1 and x["recall"] == 1 else "  <--"
        print(f"P={x['precision']:.2f} R={x['recall']:.2f} gold={len(x['gold'])} got={len(x['got'])} "
              f"{x['q'].get('where') or x['q'].get('query')} -> {x['read']}{flag}")
        if flag:
            print(f"     missing {sorted(set(x['gold']) - set(x['got']))}\n     extra   {sorted(set(x['got']) - set(x['gold']))}")
    print(f"\n{'':28s}{'value':>8s}{'of':>6s}{'share':>8s}")
    print(f"{'facts found (recall)':28s}{found:8d}{n_facts:6d}{summary['value_recall']:8.3f}")
    print(f"{'values right (precision)':28s}{right:8d}{n_values:6d}{summary['value_precision']:8.3f}")
    print(f"{'queries macro precision':28s}{'':8s}{n:6d}{summary['query_precision']:8.3f}")
    print(f"{'queries macro recall':28s}{'':8s}{n:6d}{summary['query_recall']:8.3f}")
    print(f"wrong by parameter: {dict(wrong_by.most_common())}\nmissed by parameter: {dict(missed_by.most_common())}")
    if a.json:
        a.json.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
