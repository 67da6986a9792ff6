"""Parametric search at a vendor's scale: loading the spec store and answering a query over 100 .. 20,000 datasheets.

    python benchmarks/spec_search_speed.py DATA_DIR [--copies 1,20,200] [--work DIR]

DATA_DIR: an ingested data dir (the 102 dev datasheets). Its documents are replicated `--copies` times into a work
data dir as hard links (each copy a document of its own id; nothing is copied on disk), once with the spec files as
written before specs-45 (no card: the store parses each document's whole chunks file for its card) and once as
specs-45 writes them (the card inside `specs.json`). For each size: the time `load_spec_store` takes (what the
first parametric query after an index change pays; the service caches the store per index generation) and the
median time of `find_parts` over a fixed query mix (5 runs each), the store loaded, and the process's peak memory.
Wall-clock times on one core.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from layoutrag.parametric import find_parts, load_spec_store, parse_constraints
from layoutrag.records import DocChunks, DocSpecs
from layoutrag.storage import DataDir

QUERIES = (
    "operating temperature -40 to 85, supply voltage 3.3 V",  # most documents hold these parameters
    "op amp input offset voltage below 1 mV",
    "frequency stability below 20 ppm",
    "storage temperature -65 to 150",
    "supply current < 1 mA",
)


def _replicate(src: DataDir, dst: Path, copies: int, with_card: bool) -> int:
    """`copies` hard-linked replicas of every document of `src` under dst/docs; returns the document count."""
    docs = dst / "docs"
    docs.mkdir(parents=True)
    staged = dst / "staged"
    staged.mkdir()
    n = 0
    for doc_id in src.doc_ids():
        d = src.doc_dir(doc_id)
        if not (d / "specs.json").exists() or not (d / "chunks.json").exists():
            continue
        ds = DocSpecs.model_validate_json((d / "specs.json").read_text(encoding="utf-8"))
        card = DocChunks.model_validate_json((d / "chunks.json").read_text(encoding="utf-8")).card if with_card else None
        spec_file = staged / f"{doc_id}.json"
        spec_file.write_text(ds.model_copy(update={"card": card}).model_dump_json(), encoding="utf-8")
        for k in range(copies):
            out = docs / f"{doc_id}-{k}"
            out.mkdir()
            os.link(d / "document.json", out / "document.json")
            os.link(d / "chunks.json", out / "chunks.json")
            os.link(spec_file, out / "specs.json")
            n += 1
    return n


def _rss_mb() -> float:
    """The process's peak resident memory so far (MB): the largest store loaded dominates it."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--copies", default="1,20,200")
    ap.add_argument("--work", type=Path, default=None, help="a directory on the data dir's file system (hard links)")
    a = ap.parse_args(argv)
    src = DataDir(a.data)
    work = Path(tempfile.mkdtemp(dir=a.work or a.data.parent, prefix="spec-speed-"))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; queries: {len(QUERIES)}")
    print("| documents | values | load, card from chunks.json (s) | load, card in specs.json (s) | query median (ms) | "
          "query max (ms) | peak RSS (MB) |")
    print("|---|---|---|---|---|---|---|")
    try:
        for copies in (int(x) for x in a.copies.split(",")):
            loads = []
            for with_card in (False, True):
                dst = work / f"{copies}-{int(with_card)}"
                n = _replicate(src, dst, copies, with_card)
                t = time.perf_counter()
                store = load_spec_store(DataDir(dst))
                loads.append(time.perf_counter() - t)
                if not with_card:
                    shutil.rmtree(dst)  # the queries below read records back from the store's own files
            values = sum(len(v) for v in store.specs.values())
            store.parameters("")  # the per-document parameter sets, built once per store
            times = []
            for q in QUERIES:
                cons, ptype, _ = parse_constraints(None, q, store.product_types())
                runs = []
                for _ in range(5):
                    t = time.perf_counter()
                    find_parts(store, cons, product_type=ptype)
                    runs.append(time.perf_counter() - t)
                times.append(statistics.median(runs))
            print(f"| {n:,} | {values:,} | {loads[0]:.2f} | {loads[1]:.2f} | "
                  f"{1000 * statistics.median(times):.0f} | {1000 * max(times):.0f} | {_rss_mb():,.0f} |")
            shutil.rmtree(dst)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
