"""How the parametric query parser reads natural queries: constraints and product type against a hand-written set.

    python benchmarks/spec_query_reading.py QUERIES.jsonl [--json OUT] [-v]

QUERIES.jsonl: one object a line, ``{"query", "type", "constraints": [[param, op, value, value2, unit], ...]}`` -
what the query means under the reading conventions of ``benchmarks/data/README-specs.md`` (canonical units; a bare
value's unit names its default parameter; "between" is two bounds; a range is "range"). Each query is read by
``parametric.parse_constraints`` with every product type of ``data/product_types.tsv`` known (as if the library held
all of them). Prints per-query misreadings (``-v``) and: queries read exactly (constraints and type), constraint
precision and recall (a constraint matches on parameter, operator, unit and values to 1e-6 relative), type accuracy.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

from layoutrag.parametric import parse_constraints
from layoutrag.vocab import product_type_names


def _key(c: list) -> tuple:
    param, op, value, value2, unit = c
    return (param, op, unit, value, value2)


def _same(a: tuple, b: tuple) -> bool:
    if a[:3] != b[:3]:
        return False
    for x, y in zip(a[3:], b[3:], strict=True):
        if (x is None) != (y is None):
            return False
        if x is not None and not math.isclose(float(x), float(y), rel_tol=1e-6, abs_tol=1e-15):
            return False
    return True


def score(rows: list[dict], verbose: bool = False) -> dict:
    types = product_type_names()
    exact = tp = n_got = n_gold = type_ok = 0
    misses: list[dict] = []
    for r in rows:
        cons, ptype, rest = parse_constraints(None, r["query"], types)
        got = [(c.parameter, c.op, c.unit, c.value, c.value2) for c in cons]
        gold = [_key(c) for c in r["constraints"]]
        left = list(gold)
        hits = 0
        for g in got:
            k = next((i for i, x in enumerate(left) if _same(g, x)), None)
            if k is not None:
                hits += 1
                left.pop(k)
        tp += hits
        n_got += len(got)
        n_gold += len(gold)
        t_ok = (ptype or None) == (r.get("type") or None)
        type_ok += t_ok
        ok = hits == len(got) == len(gold) and t_ok
        exact += ok
        if not ok:
            misses.append({"query": r["query"], "got": got, "type": ptype, "gold": gold, "gold_type": r.get("type"),
                           "unread": rest})
            if verbose:
                print(f"- {r['query']}\n    read {got} type {ptype!r} (unread {rest!r})\n    gold {gold} type {r.get('type')!r}")
    n = len(rows)
    return {
        "queries": n,
        "read_exactly": exact,
        "exact_rate": round(exact / n, 3) if n else 0.0,
        "constraint_precision": round(tp / n_got, 3) if n_got else 0.0,
        "constraint_recall": round(tp / n_gold, 3) if n_gold else 0.0,
        "type_accuracy": round(type_ok / n, 3) if n else 0.0,
        "misses": misses,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("queries", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args()
    rows = [json.loads(line) for line in a.queries.read_text(encoding="utf-8").splitlines() if line.strip()]
    out = score(rows, a.verbose)
    if a.json:
        a.json.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    print("| queries | read exactly | constraint precision | constraint recall | type accuracy |")
    print("|---|---|---|---|---|")
    print(f"| {out['queries']} | {out['read_exactly']} ({out['exact_rate']:.3f}) | {out['constraint_precision']:.3f} | "
          f"{out['constraint_recall']:.3f} | {out['type_accuracy']:.3f} |")


if __name__ == "__main__":
    main()
