"""Parametric queries over the generated datasheets, gold part sets from the generator's own values.

    python benchmarks/spec_queries.py DATA_DIR SAMPLES_DIR [--json OUT]

DATA_DIR: the generated corpus ingested (spec stage run); SAMPLES_DIR: what ``layoutrag samples``
wrote (``specs_truth.jsonl``, ``documents.jsonl``). The queries are fixed below (constraints as a
user writes them, and natural-language ones); each query's gold set is the documents (series)
whose *printed* values meet every constraint, decided from ``specs_truth.jsonl`` with the rules
written out here (independent of ``layoutrag.parametric``): ``=`` holds when the number is printed
or lies in the printed min..max (a ``±x`` matches x); ``<=`` when the worst case (max, else typ,
else min; ``±x`` -> x) is at most the bound; ``>=`` likewise from below; a range when the printed
range covers it. A series' values are its spec tables' (ratings only for a parameter its
characteristics do not print); an ordering code's own values replace its series' for their
parameters; a document is gold when its series or one of its codes meets everything.

Returned documents: the results that meet every constraint (no fail, no unknown). Scored per
query by precision and recall of the document set, macro-averaged.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

from layoutrag.errors import InputError
from layoutrag.parametric import parse_constraints
from layoutrag.records import SpecSearchResult
from layoutrag.service import LayoutRAG
from layoutrag.vocab import product_type_names

QUERIES: list[dict] = [
    {"where": ["load capacitance = 12.5 pF"]},
    {"where": ["load capacitance = 8 pF"]},
    {"where": ["load capacitance = 18 pF"]},
    {"where": ["load capacitance = 20 pF"]},
    {"where": ["load capacitance <= 9 pF"]},
    {"where": ["ESR <= 50 kohm"]},
    {"where": ["ESR <= 60 ohm"]},
    {"where": ["ESR <= 100 ohm"]},
    {"where": ["frequency tolerance <= 10 ppm"]},
    {"where": ["frequency tolerance <= 20 ppm"]},
    {"where": ["frequency stability <= 1 ppm"]},
    {"where": ["frequency stability <= 25 ppm"]},
    {"where": ["frequency stability <= 0.5 ppm"]},
    {"where": ["operating temperature = -40 to 85"]},
    {"where": ["operating temperature = -40 to 105"]},
    {"where": ["operating temperature = -40 to 125"]},
    {"where": ["supply voltage = 3.3 V"]},
    {"where": ["supply voltage = 1.8 V"]},
    {"where": ["supply voltage = 2.5 V"]},
    {"where": ["aging <= 1 ppm"]},
    {"where": ["phase jitter <= 1 ps"]},
    {"where": ["supply current <= 5 mA"]},
    {"where": ["drive level <= 100 uW"]},
    {"where": ["frequency = 32.768 kHz"]},
    {"where": ["frequency = 26 MHz"]},
    {"where": ["frequency = 100 MHz"]},
    {"where": ["startup time <= 5 ms"]},
    {"where": ["pull range >= 50 ppm"]},
    {"where": ["load capacitance = 12.5 pF", "ESR <= 70 kohm"]},
    {"where": ["frequency tolerance <= 20 ppm", "operating temperature = -40 to 85"]},
    {"where": ["supply voltage = 3.3 V", "frequency stability <= 25 ppm"]},
    # natural queries: `expect` is how they must be read (a misread query scores 0)
    {
        "query": "32.768 kHz ESR below 70k, 12.5 pF",
        "expect": ["esr <= 70000", "frequency = 32768", "load_capacitance = 1.25e-11"],
    },
    {
        "query": "工作温度 -40~105 频率稳定度 ≤ 2 ppm",
        "expect": ["operating_temperature range -40..105", "frequency_stability <= 2"],
    },
    {
        "query": "frequency 26 MHz load capacitance 10 pF",
        "expect": ["frequency = 2.6e+07", "load_capacitance = 1e-11"],
    },
    {
        "query": "supply voltage 1.8 V current consumption below 3 mA",
        "expect": ["supply_voltage = 1.8", "supply_current <= 0.003"],
    },
    {"query": "负载电容 9 pF 等效串联电阻 ≤ 80 kΩ", "expect": ["load_capacitance = 9e-12", "esr <= 80000"]},
]

_UNITS = {"pF": 1e-12, "kohm": 1e3, "ohm": 1.0, "ppm": 1.0, "V": 1.0, "mA": 1e-3, "ps": 1e-12, "uW": 1e-6}


def _vals(t: dict) -> tuple[float | None, float | None, float | None, bool]:
    if "value" in t:
        x = t["value"]
        return (
            (x, None, None, False)
            if t["role"] == "min"
            else (None, None, x, False)
            if t["role"] == "max"
            else (None, x, None, False)
        )
    tol = t["text"].strip().startswith("±")
    return t["min"], None, t["max"], tol


def _meets(op: str, lo: float, hi: float | None, rows: list[dict]) -> bool:
    """rows: the printed cells of one value (one table row) of the parameter."""
    mn = [r for r in rows if "min" in r and r["role"] != "value"]
    nums: dict[str, float] = {}
    tol = None
    for r in rows:
        a, b, c, is_tol = _vals(r)
        if is_tol:
            tol = abs(c or 0.0)
            continue
        for k, v in (("min", a), ("typ", b), ("max", c)):
            if v is not None:
                nums[k] = v
        if "min" in r and "max" in r and r["role"] == "value":
            nums["min"], nums["max"] = r["min"], r["max"]
    del mn
    if tol is not None:
        nums.setdefault("min", -tol)
        nums["max"] = tol
    if not nums:
        return False
    rel = lambda a, b: abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)  # noqa: E731
    if op == "<=":
        x = nums.get("max", nums.get("typ", nums.get("min")))
        return x is not None and x <= lo * (1 + 1e-9)
    if op == ">=":
        x = tol if tol is not None else nums.get("min", nums.get("typ", nums.get("max")))
        return x is not None and x >= lo * (1 - 1e-9)
    if op == "=":
        if tol is not None:
            return rel(tol, abs(lo))
        if any(rel(v, lo) for v in nums.values()):
            return True
        return "min" in nums and "max" in nums and nums["min"] <= lo <= nums["max"]
    return "min" in nums and "max" in nums and nums["min"] <= lo and nums["max"] >= (hi or 0)


def gold(truth: list[dict], constraints: list[tuple[str, str, float, float | None]]) -> set[str]:
    by_doc: dict[str, list[dict]] = {}
    for t in truth:
        by_doc.setdefault(t["doc"], []).append(t)
    out = set()
    for doc, ts in by_doc.items():
        series = [t for t in ts if t["table"] != "ordering"]
        codes: dict[str, list[dict]] = {}
        for t in ts:
            if t["table"] == "ordering":
                codes.setdefault(t["part"], []).append(t)
        candidates = [series] + [
            own + [t for t in series if t["parameter"] not in {o["parameter"] for o in own}]
            for own in codes.values()
        ]
        for vals in candidates:
            ok = True
            for pid, op, lo, hi in constraints:
                mine = [t for t in vals if t["parameter"] == pid]
                chars = [t for t in mine if t["table"] != "ratings"] or mine
                rows: dict[tuple, list[dict]] = {}
                for t in chars:
                    rows.setdefault((t["page"], tuple(t["row_bbox"])), []).append(t)
                if not any(_meets(op, lo, hi, r) for r in rows.values()):
                    ok = False
                    break
            if ok:
                out.add(doc)
                break
    return out


NO_TYPE_RE = re.compile(r"no (.+) in this library \(")


def score_query(svc: LayoutRAG, q: dict, gold_of: Callable[[list], set[str]]) -> tuple:
    """(result, constraints as read, gold files, returned files, precision, recall) of one query.
    The constraints as the system read them are scored against gold made from the same
    constraints (`gold_of`): a query the parser misreads shows up as a constraint list that differs
    from its `expect`, and scores 0."""
    try:
        res = svc.find_parts(q.get("where"), q.get("query"), limit=500)
    except InputError as e:
        if not NO_TYPE_RE.match(str(e)):
            raise
        # the query names a product type the data dir holds no document of: nothing is returned; its constraints, read
        # as the service reads them, make the gold as for any other query
        cons, ptype, rest = parse_constraints(q.get("where"), q.get("query"), product_type_names())
        res = SpecSearchResult(constraints=cons, product_type=ptype, unparsed=rest, results=[])
    cons = [(c.parameter, c.op, c.value, c.value2) for c in res.constraints]
    g = gold_of(cons)
    got = {r.file_name for r in res.results if r.n_met == len(res.constraints)}
    p = len(got & g) / len(got) if got else (1.0 if not g else 0.0)
    r = len(got & g) / len(g) if g else (1.0 if not got else 0.0)
    read = [f"{c[0]} range {c[2]:g}..{c[3]:g}" if c[1] == "range" else f"{c[0]} {c[1]} {c[2]:g}" for c in cons]
    if "expect" in q and read != q["expect"]:
        p = r = 0.0
    return res, read, g, got, p, r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("samples", type=Path)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    truth = [
        json.loads(x) for x in (a.samples / "specs_truth.jsonl").read_text(encoding="utf-8").splitlines() if x
    ]
    svc = LayoutRAG(a.data)
    rows = []
    for q in QUERIES:
        _, read, g, got, p, r = score_query(svc, q, lambda cons: gold(truth, cons))
        rows.append(
            {
                "q": q,
                "read": read,
                "gold": len(g),
                "got": len(got),
                "precision": round(p, 3),
                "recall": round(r, 3),
            }
        )
    n = len(rows)
    summary = {
        "queries": n,
        "precision": round(sum(x["precision"] for x in rows) / n, 4),
        "recall": round(sum(x["recall"] for x in rows) / n, 4),
        "queries_with_empty_gold": sum(1 for x in rows if x["gold"] == 0),
        "rows": rows,
    }
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    if a.json:
        a.json.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
