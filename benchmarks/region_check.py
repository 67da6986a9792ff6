"""Region check: can the chunks of a data dir cover the gold regions of region-annotated queries?

For each query: is there a chunk on its document and page whose member boxes on that page cover
>= 95 % of every gold region (layoutrag.geometry.covered_area), and, over the covering chunks, how
big is the chunk compared with the region (the smallest covering chunk's on-page box area /
region area; the median over queries is the number to keep <= 2).

    .venv/bin/python benchmarks/region_check.py DATA_DIR [QUERIES.jsonl] [--misses]
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from layoutrag.chunking.pipeline import load_doc_chunks
from layoutrag.geometry import area, covered_area
from layoutrag.records import Chunk, Document
from layoutrag.storage import DataDir

DEFAULT_QUERIES = Path(__file__).resolve().parents[2] / "shared" / "eval" / "datasheets" / "dev-queries.jsonl"
COVER = 0.95


def chunk_boxes_on(c: Chunk, page: int) -> list[tuple[float, float, float, float]]:
    return [r.bbox_pdf for r in c.all_regions() if r.page == page]


def check(data: DataDir, queries: list[dict]) -> list[dict]:
    by_name: dict[str, str] = {}
    for did in data.doc_ids():
        doc = Document.model_validate_json(data.document_json(did).read_text(encoding="utf-8"))
        by_name[doc.file_name] = did
    out = []
    for q in queries:
        did = by_name.get(q["doc"])
        row = {
            "id": q["id"],
            "doc": q["doc"],
            "page": q["page"],
            "kind": q.get("kind", ""),
            "covered": False,
            "ratio": None,
            "best_cover": 0.0,
            "note": q.get("note", ""),
        }
        if did is None or not data.chunks_json(did).exists():
            row["note"] = "document not chunked"
            out.append(row)
            continue
        chunks = load_doc_chunks(data, did).chunks
        regions = q["regions"]
        region_area = sum(area(r) for r in regions)
        ratios = []
        for c in chunks:
            boxes = chunk_boxes_on(c, q["page"])
            if not boxes:
                continue
            cov = min(covered_area(r, boxes) / max(area(r), 1e-9) for r in regions)
            row["best_cover"] = max(row["best_cover"], cov)
            if cov >= COVER:
                ratios.append(sum(area(b) for b in boxes) / max(region_area, 1e-9))
        if ratios:
            row["covered"] = True
            row["ratio"] = min(ratios)
        out.append(row)
    return out


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    data = DataDir(args[0])
    qfile = Path(args[1]) if len(args) > 1 else DEFAULT_QUERIES
    queries = [json.loads(line) for line in qfile.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = check(data, queries)
    n = len(rows)
    covered = [r for r in rows if r["covered"]]
    ratios = [r["ratio"] for r in covered]
    print(
        f"queries {n}  coverable {len(covered)}/{n} = {len(covered) / max(n, 1):.3f}  "
        f"median chunk/region area ratio {statistics.median(ratios) if ratios else float('nan'):.2f}"
    )
    kinds = sorted({r["kind"] for r in rows})
    print(f"{'kind':12} {'n':>3} {'coverable':>9} {'median ratio':>12}")
    for k in kinds:
        rs = [r for r in rows if r["kind"] == k]
        cs = [r["ratio"] for r in rs if r["covered"]]
        med = f"{statistics.median(cs):.2f}" if cs else "-"
        print(f"{k:12} {len(rs):3} {len(cs):9} {med:>12}")
    if "--misses" in argv:
        for r in rows:
            if not r["covered"] or (r["ratio"] or 0) > 2:
                ratio = f"{r['ratio']:.2f}" if r["ratio"] else "-"
                print(
                    f"  {r['id']} {r['doc'][:34]:34} p{r['page']:<3} {r['kind']:11} cover={r['best_cover']:.2f} ratio={ratio} {r['note'][:50]}"
                )


if __name__ == "__main__":
    main(sys.argv[1:])
