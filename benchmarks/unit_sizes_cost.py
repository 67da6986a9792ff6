"""What indexing larger units (block, page; chunking/sizes.py) costs: chunks, index size, build time,
search latency, and what it does to hit@k / leakage on region queries.

For each ``chunk_sizes`` value the source data dir is copied (its ingest is reused), re-chunked
with that setting, indexed, and searched with every query of QUERIES.jsonl (top 15).

    python benchmarks/unit_sizes_cost.py SRC_DATA QUERIES.jsonl --work DIR [--sizes unit,block,page]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from pathlib import Path

from layoutrag.build import ingest_and_chunk, reindex
from layoutrag.config import load_settings
from layoutrag.geometry import area, covered_area
from layoutrag.records import Document
from layoutrag.storage import DataDir


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", type=Path)
    ap.add_argument("queries", type=Path)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--sizes", default="unit,block,page")
    args = ap.parse_args(argv)
    queries = [json.loads(line) for line in args.queries.read_text(encoding="utf-8").splitlines() if line.strip()]
    from layoutrag.service import open_index

    rows = []
    for size in args.sizes.split(","):
        root = args.work / f"sizes-{size}"
        if root.exists():
            shutil.rmtree(root)
        shutil.copytree(args.src / "docs", root / "docs", ignore=shutil.ignore_patterns("evidence", "crops", "chunks.json"))
        settings = load_settings(chunking={"chunk_sizes": size})
        data = DataDir(root)
        pdfs = [
            Path(Document.model_validate_json(data.document_json(d).read_text(encoding="utf-8")).source_pdf)
            for d in data.doc_ids()
        ]
        t0 = time.perf_counter()
        ingest_and_chunk(pdfs, root, settings=settings, progress=False)
        t_chunk = time.perf_counter() - t0
        t0 = time.perf_counter()
        reindex(root, settings=settings)
        t_index = time.perf_counter() - t0
        n_chunks = sum(
            len(json.loads(data.chunks_json(d).read_text(encoding="utf-8"))["chunks"]) for d in data.doc_ids()
        )
        index_bytes = sum(_size(p) for p in root.iterdir() if p.name != "docs")
        images = sum(_size(data.doc_dir(d) / "evidence") + _size(data.doc_dir(d) / "crops") for d in data.doc_ids())
        rag = open_index(root, settings=settings)
        names = {}
        for d in data.doc_ids():
            names[d] = Document.model_validate_json(data.document_json(d).read_text(encoding="utf-8")).file_name
        rag.search("warm up", top_k=15)
        lat, hits1, hits5, leaks, units = [], 0, 0, [], {"unit": 0, "block": 0, "page": 0}
        for q in queries:
            t0 = time.perf_counter()
            res = rag.search(q["query"], top_k=15)
            lat.append(time.perf_counter() - t0)
            for rank, h in enumerate(res):
                boxes = [r.bbox_pdf for r in h.hit_regions() if r.page == q["page"]]
                if names.get(h.doc_id) != q["doc"] or not boxes:
                    continue
                if all(covered_area(g, boxes) / max(area(g), 1e-9) >= 0.95 for g in q["regions"]):
                    hits1 += rank == 0
                    hits5 += rank < 5
                    leaks.append(sum(area(b) for b in boxes) / sum(area(g) for g in q["regions"]))
                    units[h.unit] += 1
                    break
        n = len(queries)
        row = {
            "chunk_sizes": size,
            "chunks": n_chunks,
            "index_mb": round(index_bytes / 1e6, 2),
            "evidence_mb": round(images / 1e6, 1),
            "chunk_s": round(t_chunk, 1),
            "index_s": round(t_index, 1),
            "search_ms_p50": round(1000 * statistics.median(lat), 1),
            "search_ms_p90": round(1000 * sorted(lat)[int(0.9 * (n - 1))], 1),
            "hit@1": round(hits1 / n, 3),
            "hit@5": round(hits5 / n, 3),
            "leak_p50": round(statistics.median(leaks), 2) if leaks else None,
            "first_cover_by": units,
        }
        rows.append(row)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
