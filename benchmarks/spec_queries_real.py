"""Parametric queries over real datasheets, gold part sets from hand-read facts.

    python benchmarks/spec_queries_real.py DATA_DIR [--facts benchmarks/data/spec_facts_real.tsv] [--json OUT]

DATA_DIR: the 20 real sample datasheets ingested (spec stage run). The facts
(`spec_facts_real.tsv`, its header says how they were read) are the values those datasheets print
in their tables for the parameters the queries ask about, read by hand, not by the system. Each
query's gold set is the documents whose facts meet every constraint, decided here with these rules
(independent of ``layoutrag.parametric``): ``=`` holds when the number is printed (min, typ or max)
or lies in a printed min..max (a ``±x`` row matches x); ``<=`` when a row's worst case (max, else
typ, else min) is at most the bound (a voltage or current row printed negative only is compared by its magnitude with
a positive bound: DAC0808's IEE -13 mA is no supply current <= 100 uA - since 2026-12-07, before signed); ``>=`` likewise from below (min, else typ, else max); a range
when one row's min..max covers it. A document's ratings rows answer a constraint only where it
prints no characteristic (or recommended-condition) row of that parameter. A document is gold
when every constraint is met by some row of it (one document = one part family; its part groups
are not told apart).

Returned documents: the results that meet every constraint (no fail, no unknown). Each query is
scored by precision and recall of that document set; macro averages over the queries. A natural
query carries `expect`: the constraints it must be read as (shown back); a misread query scores 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from spec_queries import score_query

from layoutrag.service import LayoutRAG

QUERIES: list[dict] = [
    {"where": ["operating temperature = -40 to 85"]},
    {"where": ["operating temperature = -40 to 125"]},
    {"where": ["operating temperature = 0 to 70"]},
    {"where": ["operating temperature = -55 to 125"]},
    {"where": ["operating temperature = -40 to 105"]},
    {"where": ["operating temperature = -20 to 70"]},
    {"where": ["storage temperature = -65 to 150"]},
    {"where": ["storage temperature = -55 to 150"]},
    {"where": ["storage temperature = -40 to 125"]},
    {"where": ["supply voltage = 3.3 V"]},
    {"where": ["supply voltage = 5 V"]},
    {"where": ["supply voltage = 1.8 V"]},
    {"where": ["supply voltage = 1.5 V"]},
    {"where": ["supply voltage >= 20 V"]},
    {"where": ["supply current <= 1 mA"]},
    {"where": ["supply current <= 100 uA"]},
    {"where": ["supply current >= 10 mA"]},
    {"where": ["input offset voltage <= 1 mV"]},
    {"where": ["input offset voltage <= 5 mV"]},
    {"where": ["frequency stability <= 1 ppm"]},
    {"where": ["frequency stability <= 30 ppm"]},
    {"where": ["Rds(on) <= 60 mohm"]},
    {"where": ["junction temperature >= 150"]},
    {"where": ["startup time <= 5 ms"]},
    {"where": ["frequency = 10 MHz"]},
    {"where": ["quiescent current <= 500 uA"]},
    {"where": ["operating temperature = -40 to 85", "supply voltage = 3.3 V"]},
    {"where": ["operating temperature = -40 to 85", "supply current <= 1 mA"]},
    {"where": ["supply voltage = 5 V", "supply current <= 2 mA"]},
    {"where": ["storage temperature = -65 to 150", "supply voltage = 5 V"]},
    # natural queries: `expect` is how they must be read (shown back; a misread query scores 0)
    {"query": "input offset voltage below 1 mV", "expect": ["input_offset_voltage <= 0.001"]},
    {
        "query": "工作温度 -40~85 电源电压 3.3 V",
        "expect": ["operating_temperature range -40..85", "supply_voltage = 3.3"],
    },
    {
        "query": "supply voltage 5 V, supply current below 2 mA, storage temperature -65 to 150",
        "expect": ["supply_voltage = 5", "supply_current <= 0.002", "storage_temperature range -65..150"],
    },
    {"query": "oscillator frequency stability ±50 ppm", "expect": ["frequency_stability = 50"]},
    {"query": "operating temperature -40 to 105 °C, 10 MHz", "expect": ["operating_temperature range -40..105", "frequency = 1e+07"]},
]

_PREFIX = {"p": 1e-12, "n": 1e-9, "µ": 1e-6, "u": 1e-6, "m": 1e-3, "": 1.0, "k": 1e3, "M": 1e6}
_UNITS = {"V": "V", "A": "A", "Ω": "ohm", "Hz": "Hz", "s": "s"}


def to_canonical(x: str, unit: str) -> float | None:
    if not x.strip():
        return None
    v = float(x)
    if unit == "°C":
        return v
    if unit == "ppm":
        return v
    if unit == "ppb":
        return float(f"{v * 1e-3:.12g}")
    for base in _UNITS:
        if unit.endswith(base) and unit[: -len(base)] in _PREFIX:
            return float(f"{v * _PREFIX[unit[: -len(base)]]:.12g}")
    raise SystemExit(f"facts: unit {unit!r} not in the benchmark's table")


def load_facts(path: Path) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        doc, pid, kind, lo, ty, hi, unit, _page = line.split("\t")
        base = next((b for b in ("V", "A") if unit.endswith(b) and unit[: -len(b)] in _PREFIX), "")
        out.setdefault(doc, []).append(
            {"pid": pid, "kind": kind, "min": to_canonical(lo, unit), "typ": to_canonical(ty, unit), "max": to_canonical(hi, unit),
             "unit": base}
        )
    return out


def _rel(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)


def row_meets(op: str, lo: float, hi: float | None, r: dict) -> bool:
    mn, ty, mx = r["min"], r["typ"], r["max"]
    nums = [x for x in (mn, ty, mx) if x is not None]
    if r.get("unit") in ("V", "A") and lo > 0 and (hi is None or hi > 0) and nums and all(x <= 0 for x in nums) and min(nums) < 0:
        # a voltage or current printed negative only (a negative rail's IEE, a p-channel part's VDS): a positive bound
        # is on its magnitude ("supply current <= 100 uA" is not met by -13 mA)
        mn, ty, mx = (None if x is None else -x for x in (mn, ty, mx))
    tol = mn is not None and mx is not None and mn < 0 < mx and _rel(-mn, mx)
    if op in ("<=", "<"):
        x = mx if mx is not None else (ty if ty is not None else mn)
        return x is not None and (x <= lo * (1 + 1e-9) if op == "<=" else x < lo)
    if op in (">=", ">"):
        x = mx if tol else (mn if mn is not None else (ty if ty is not None else mx))
        return x is not None and (x >= lo * (1 - 1e-9) if op == ">=" else x > lo)
    if op == "=":
        if tol:
            return _rel(mx, abs(lo))
        if any(v is not None and _rel(v, lo) for v in (mn, ty, mx)):
            return True
        return mn is not None and mx is not None and mn <= lo <= mx
    # range
    return mn is not None and mx is not None and mn <= lo + 1e-9 and mx >= (hi or 0.0) - 1e-9


def gold(facts: dict[str, list[dict]], cons: list[tuple[str, str, float, float | None]]) -> set[str]:
    out = set()
    for doc, rows in facts.items():
        ok = True
        for pid, op, lo, hi in cons:
            mine = [r for r in rows if r["pid"] == pid]
            use = [r for r in mine if r["kind"] == "c"] or mine
            if not any(row_meets(op, lo, hi, r) for r in use):
                ok = False
                break
        if ok:
            out.add(doc)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--facts", type=Path, default=Path(__file__).parent / "data" / "spec_facts_real.tsv")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    facts = load_facts(a.facts)
    svc = LayoutRAG(a.data)
    rows = []
    for q in QUERIES:
        res, read, g, got, p, r = score_query(svc, q, lambda cons: gold(facts, cons))
        rows.append(
            {
                "q": q,
                "read": read,
                "product_type": res.product_type,
                "gold": sorted(g),
                "got": sorted(got),
                "precision": round(p, 3),
                "recall": round(r, 3),
            }
        )
    n = len(rows)
    summary = {
        "queries": n,
        "precision": round(sum(x["precision"] for x in rows) / n, 4),
        "recall": round(sum(x["recall"] for x in rows) / n, 4),
        "queries_with_empty_gold": sum(1 for x in rows if not x["gold"]),
        "rows": rows,
    }
    for x in rows:
        flag = "" if x["precision"] == 1 and x["recall"] == 1 else "  <--"
        print(f"P={x['precision']:.2f} R={x['recall']:.2f} gold={len(x['gold'])} got={len(x['got'])} "
              f"{x['q'].get('where') or x['q'].get('query')} -> {x['read']}{flag}")
        if flag:
            print(f"     missing {sorted(set(x['gold']) - set(x['got']))}\n     extra   {sorted(set(x['got']) - set(x['gold']))}")
    print(f"{n} queries  macro P {summary['precision']:.3f}  R {summary['recall']:.3f}  empty gold {summary['queries_with_empty_gold']}")
    if a.json:
        a.json.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
