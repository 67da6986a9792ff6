"""What the spec parameter vocabulary costs a search: per-query CPU with and without it.

    PYTHONPATH=src .venv/bin/python benchmarks/vocab_search_cost.py DATA_DIR QUERIES.jsonl [QUERIES.jsonl ...]

Two switches, both on by default: `index.base.PARAMETER_EXPANSION` (a query naming a parameter also
asks for its other names) and `index.candidates.ROW_PARAMETER_NAMES` (a table row is matched by
its parameter's other names too). For each setting the data dir's index is loaded afresh (cold row
caches, as a new process has them) and every query is searched once with the default (learned)
fusion; then once more (warm). CPU time per query is the thread's (`time.thread_time`), robust to
other load; the settings run interleaved in one process, so compare ratios within one run.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from pathlib import Path

import layoutrag.index.base as base
import layoutrag.index.candidates as candidates
from layoutrag.service import LayoutRAG

SETTINGS = {
    "both on (default)": (True, True),
    "query expansion off": (False, True),
    "row names off": (True, False),
    "both off": (False, False),
}


def run(data: Path, queries: list[str], expand: bool, rows: bool) -> tuple[list[float], list[float]]:
    base.PARAMETER_EXPANSION, candidates.ROW_PARAMETER_NAMES = expand, rows
    gc.collect()
    svc = LayoutRAG(data)
    svc.search("warm up the model and the memory maps", top_k=15)
    out = []
    for _ in range(2):  # cold row caches, then warm
        times = []
        for q in queries:
            t0 = time.thread_time()
            svc.search(q, top_k=15)
            times.append((time.thread_time() - t0) * 1000)
        out.append(times)
    return out[0], out[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("queries", type=Path, nargs="+")
    args = ap.parse_args()
    queries = [
        json.loads(line)["query"]
        for f in args.queries
        for line in f.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    print(f"{len(queries)} queries over {args.data}\n")
    print("| setting | cold p50 ms | cold p90 ms | cold total s | warm p50 ms | warm p90 ms |")
    print("|---|---|---|---|---|---|")
    for name, (expand, rows) in SETTINGS.items():
        cold, warm = run(args.data, queries, expand, rows)
        q = statistics.quantiles
        print(
            f"| {name} | {statistics.median(cold):.1f} | {q(cold, n=10)[-1]:.1f} | {sum(cold) / 1000:.1f} "
            f"| {statistics.median(warm):.1f} | {q(warm, n=10)[-1]:.1f} |"
        )
    base.PARAMETER_EXPANSION, candidates.ROW_PARAMETER_NAMES = True, True


if __name__ == "__main__":
    main()
