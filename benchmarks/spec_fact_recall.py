"""Per-value recall of hand-read spec facts: which printed values the spec stage stores, and why not.

    python benchmarks/spec_fact_recall.py DATA_DIR --facts benchmarks/data/spec_facts_rest31.tsv [-v] [--json OUT]

`spec_queries_real.py` scores documents returned by queries; this scores the fact lines themselves,
one by one, against the values stored for the fact's document (its specs.json). A fact is

- ``found``: a stored value of its parameter whose min / typ / max equal the fact's printed ones
  (every number the fact prints; the stored value may print more), from a table of its kind
  (``r``: ratings; ``c``: any other);
- ``kind``: found, but from a table of the other kind;
- ``withheld``: found only among the values the stage doubts (never read by queries);
- ``other-parameter``: the numbers are stored under another parameter (shown with -v);
- ``numbers``: the parameter is stored for the document, with other numbers;
- ``absent``: neither.

Prints counts per status and per parameter; ``-v`` prints every miss with what was stored.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from spec_queries_real import _rel, load_facts

from layoutrag.chunking.specs import load_doc_specs
from layoutrag.parametric import load_spec_store
from layoutrag.records import SpecValue
from layoutrag.storage import DataDir


def _same(fact: dict, v: SpecValue) -> bool:
    nums = [(fact[k], getattr(v, k)) for k in ("min", "typ", "max") if fact[k] is not None]
    return bool(nums) and all(b is not None and _rel(a, b) for a, b in nums)


def _nums(fact: dict) -> str:
    return "/".join("" if fact[k] is None else f"{fact[k]:g}" for k in ("min", "typ", "max"))


def _vnums(v: SpecValue) -> str:
    return "/".join("" if x is None else f"{x:g}" for x in (v.min, v.typ, v.max))


def classify(fact: dict, values: list[SpecValue], withheld: list[SpecValue]) -> tuple[str, list[SpecValue]]:
    mine = [v for v in values if v.parameter == fact["pid"]]
    same = [v for v in mine if _same(fact, v)]
    want = "ratings" if fact["kind"] == "r" else None
    if same:
        if any((v.table == "ratings") == (want == "ratings") for v in same):
            return "found", same
        return "kind", same
    held = [v for v in withheld if v.parameter == fact["pid"] and _same(fact, v)]
    if held:
        return "withheld", held
    other = [v for v in values if v.parameter != fact["pid"] and _same(fact, v)]
    if other:
        return "other-parameter", other
    if mine:
        return "numbers", mine
    return "absent", []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--facts", type=Path, required=True)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    facts = load_facts(a.facts)
    data = DataDir(a.data)
    by_name = {c.file_name: d for d, c in load_spec_store(data).cards.items()}
    status: Counter[str] = Counter()
    per_param: dict[str, Counter[str]] = defaultdict(Counter)
    rows = []
    for doc, fs in sorted(facts.items()):
        did = by_name.get(doc)
        if did is None:
            raise SystemExit(f"facts: document {doc!r} is not in {a.data}")
        stored = load_doc_specs(data, did)  # the values queries read and the withheld ones, one read
        values, withheld = stored.specs, stored.withheld
        for f in fs:
            st, hits = classify(f, values, withheld)
            status[st] += 1
            per_param[f["pid"]][st] += 1
            rows.append({"doc": doc, "parameter": f["pid"], "kind": f["kind"], "numbers": _nums(f), "status": st,
                         "stored": [{"parameter": v.parameter, "part": v.part, "page": v.page, "numbers": _vnums(v),
                                     "table": v.table, "printed": v.parameter_printed} for v in hits[:6]]})
            if a.verbose and st != "found":
                print(f"{st:16} {doc} {f['pid']} {f['kind']} {_nums(f)}")
                for v in hits[:4]:
                    print(f"{'':18}stored {v.parameter} [{v.part}] p{v.page} {_vnums(v)} {v.table} {v.parameter_printed!r}")
    n = sum(status.values())
    print(f"{n} facts: " + ", ".join(f"{k} {c} ({c / n:.3f})" for k, c in status.most_common()))
    print(f"{'parameter':26}{'facts':>6}{'found':>7}  misses")
    for pid, c in sorted(per_param.items(), key=lambda kv: -sum(kv[1].values())):
        tot = sum(c.values())
        miss = ", ".join(f"{k} {v}" for k, v in c.most_common() if k != "found")
        print(f"{pid:26}{tot:6}{c['found']:7}  {miss}")
    if a.json:
        a.json.write_text(json.dumps({"status": status, "rows": rows}, indent=1, ensure_ascii=False) + "\n",
                          encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
