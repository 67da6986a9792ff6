"""The spec values a vocabulary change makes: the current spec stage with and without some canonical ids.

    python benchmarks/spec_vocab_census.py DATA_DIR --ids ID,ID,... OUT.jsonl

Re-runs the spec stage (as ``spec_rerun.py``, in memory) over every chunked document of DATA_DIR twice: with the
vocabulary of ``data/spec_parameters.tsv`` and with the rows of the given canonical ids left out (the caches of the
name and symbol tables cleared between). Each value read differently is one line ``{"kind": changed | new | gone,
"rule": "vocabulary", "doc", "verdict": "", "before", "after"}`` (values paired by their place, as
``spec_chunk_census.changes`` pairs them) for the developer or a helper to judge; prints the count by new parameter.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import spec_rerun as sr
from spec_chunk_census import changes

import layoutrag.chunking.linear_specs as linear_mod
import layoutrag.chunking.specs as stage_mod
import layoutrag.specs as specs_mod
from layoutrag.storage import DataDir
from layoutrag.vocab import spec_parameters


def _turn(rows: tuple) -> None:
    specs_mod.spec_parameters = lambda: rows  # type: ignore[assignment]
    for mod in (specs_mod, stage_mod, linear_mod):
        for f in list(vars(mod).values()):
            if hasattr(f, "cache_clear") and getattr(f, "__module__", "") == mod.__name__:
                f.cache_clear()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("--ids", required=True, help="comma-separated canonical ids the change added")
    ap.add_argument("out", type=Path)
    a = ap.parse_args()
    data, new = DataDir(a.data), set(a.ids.split(","))
    full = spec_parameters()
    without = tuple(r for r in full if r[0] not in new)
    counts: Counter[str] = Counter()
    with a.out.open("w") as out:
        for d in sorted((a.data / "docs").iterdir()):
            if not (d / "chunks.json").exists():
                continue
            _turn(full)
            dc, on, _ = sr.rerun(data, d.name)
            _turn(without)
            _, off, _ = sr.rerun(data, d.name)
            for line in changes(dc.card.file_name, [v.model_dump(mode="json") for v in off],
                                [v.model_dump(mode="json") for v in on]):
                counts[(line["after"] or line["before"])["parameter"]] += 1
                out.write(json.dumps({"kind": line["kind"], "rule": "vocabulary", "doc": line["doc"], "verdict": "",
                                      "before": line["before"], "after": line["after"]}, ensure_ascii=False) + "\n")
    _turn(full)
    print("| parameter | values |\n|---|---|")
    for pid, n in counts.most_common():
        print(f"| {pid} | {n} |")
    print(f"| all | {sum(counts.values())} |")


if __name__ == "__main__":
    main()
