"""Search with numeric constraints: does a chunk whose rows meet "stability ±10 ppm" rank above
one that merely shares the words? (issue 16 item 5; index/spec_constraints.py)

    python benchmarks/spec_constraint_search.py DATA_DIR SAMPLES_DIR [--weights 0,0.5,1] [--fusion weighted,learned] [--json OUT]

DATA_DIR: the generated corpus ingested; SAMPLES_DIR: what ``layoutrag samples`` wrote (its
``specs_truth.jsonl``: every value cell the generator printed, with its box). The queries are made
here from templates ("frequency stability ±{x} ppm {type}", "ESR below {x}", ...) with the values
the corpus prints; a hit is *relevant* when one of its boxes on its page holds the centre of a
printed cell whose value meets the constraint (decided from the truth file with the rules written
here, not by the system). Per query: precision of the top 5 hits (lead chunks) and the reciprocal
rank of the first relevant hit within 10; mean over the queries, for each weight
(``SearchSettings.spec_constraint_weight``; 0 = the ranking without the feature).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from layoutrag.config import load_settings
from layoutrag.service import LayoutRAG


def _tol(t: dict) -> float | None:
    """|x| of a "±x" cell, else None."""
    if t.get("min") is not None and t.get("max") is not None and t["min"] < 0 < t["max"] and abs(t["min"] + t["max"]) < 1e-9:
        return t["max"]
    return None


def _nums(t: dict) -> list[float]:
    return [t[k] for k in ("min", "max", "value") if t.get(k) is not None]


TEMPLATES = [
    # (parameter, query template, op, unit factor for the printed number, where the value comes from)
    ("frequency_stability", "frequency stability ±{x:g} ppm {kind}", "tol", 1.0),
    ("frequency_tolerance", "frequency tolerance ±{x:g} ppm {kind}", "tol", 1.0),
    ("aging", "aging ±{x:g} ppm per year {kind}", "tol", 1.0),
    ("load_capacitance", "load capacitance {x:g} pF {kind}", "eq", 1e-12),
    ("esr", "ESR below {x:g} ohm {kind}", "le", 1.0),
    ("supply_current", "supply current below {x:g} mA {kind}", "le", 1e-3),
    ("drive_level", "drive level below {x:g} uW {kind}", "le", 1e-6),
]


def make_queries(truth: list[dict], kinds: dict[str, str]) -> list[dict]:
    seen: set[tuple[str, float, str]] = set()
    out: list[dict] = []
    for param, tmpl, op, f in TEMPLATES:
        vals: dict[tuple[float, str], None] = {}
        for t in truth:
            if t["parameter"] != param:
                continue
            kind = kinds.get(t["doc"], "")
            if op == "tol":
                x = _tol(t)
                if x is not None:
                    vals[(round(x, 6), kind)] = None
            else:
                for x in _nums(t):
                    vals[(round(x / f, 6), kind)] = None
        for x, kind in sorted(vals):
            if (param, x, kind) in seen:
                continue
            seen.add((param, x, kind))
            out.append({"param": param, "op": op, "x": x * f, "query": tmpl.format(x=x, kind=kind).strip()})
    return out


def meets(q: dict, t: dict) -> bool:
    if t["parameter"] != q["param"]:
        return False
    x = q["x"]
    rel = lambda a, b: abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)  # noqa: E731
    if q["op"] == "tol":
        tol = _tol(t)
        return tol is not None and rel(tol, x)
    if q["op"] == "eq":
        return any(rel(v, x) for v in _nums(t)) or (
            t.get("min") is not None and t.get("max") is not None and t["min"] <= x <= t["max"]
        )
    worst = t.get("max") if t.get("max") is not None else t.get("value")
    return worst is not None and worst <= x * (1 + 1e-9)


def relevant(hit, cells: list[dict]) -> bool:
    for t in cells:
        if t["doc"] != Path(hit.source_pdf).name or t["page"] != hit.page:
            continue
        cx, cy = (t["bbox"][0] + t["bbox"][2]) / 2, (t["bbox"][1] + t["bbox"][3]) / 2
        if any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in hit.bboxes_pdf):
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("samples", type=Path)
    ap.add_argument("--weights", default="0,0.5,1")
    ap.add_argument("--fusion", default="weighted,learned")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    truth = [json.loads(x) for x in (a.samples / "specs_truth.jsonl").read_text(encoding="utf-8").splitlines() if x]
    docs = [json.loads(x) for x in (a.samples / "documents.jsonl").read_text(encoding="utf-8").splitlines() if x]
    kinds = {d["doc"]: d.get("product_type", "").replace("_", " ") for d in docs}
    queries = make_queries(truth, kinds)
    results: dict[str, dict] = {}
    per_query: dict[str, list] = defaultdict(list)
    for w in [float(x) for x in a.weights.split(",")]:
        svc = LayoutRAG(a.data, settings=load_settings().updated(spec_constraint_weight=w))
        for fusion in a.fusion.split(","):
            p5 = rr = 0.0
            for q in queries:
                cells = [t for t in truth if meets(q, t)]
                hits = svc.search(q["query"], top_k=10, fusion=fusion)
                flags = [relevant(h, cells) for h in hits]
                p5 += sum(flags[:5]) / 5
                first = next((k for k, f in enumerate(flags, start=1) if f), None)
                rr += 1 / first if first else 0.0
                per_query[f"{fusion} w={w:g}"].append(sum(flags[:5]))
            n = len(queries)
            results[f"{fusion} w={w:g}"] = {"P@5": round(p5 / n, 4), "MRR@10": round(rr / n, 4), "queries": n}
            print(f"{fusion:9s} weight {w:<4g} P@5 {p5 / n:.3f}  MRR@10 {rr / n:.3f}  ({n} queries)", flush=True)
    if a.json:
        a.json.write_text(json.dumps({"results": results, "queries": queries}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
