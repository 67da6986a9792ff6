"""Region check: can the chunks of a data dir cover the gold regions of region-annotated queries?

For each query: is there a chunk on its document and page whose member boxes on that page cover
>= 95 % of every gold region (layoutrag.geometry.covered_area), and, over the covering chunks, how
big is the chunk compared with the region (the smallest covering chunk's on-page box area /
region area; the median over queries is the number to keep <= 2).

    .venv/bin/python benchmarks/region_check.py DATA_DIR [QUERIES.jsonl] [--misses] [--captions]
        [--element-boxes]
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


def check(data: DataDir, queries: list[dict], *, element_boxes: bool = False) -> list[dict]:
    """One row per query. `element_boxes`: score the detector's own member boxes instead of the
    stored ones (slots), to show what the slot boxes change."""
    by_name: dict[str, str] = {}
    detector: dict[str, tuple[float, float, float, float]] = {}
    for did in data.doc_ids():
        doc = Document.model_validate_json(data.document_json(did).read_text(encoding="utf-8"))
        by_name[doc.file_name] = did
        if element_boxes:
            detector.update({e.element_id: e.bbox_pdf for p in doc.pages for e in p.elements})
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
            if element_boxes:
                boxes = [
                    detector.get(i, r.bbox_pdf)
                    for i, r in zip(c.element_ids, c.all_regions(), strict=False)
                    if r.page == q["page"]
                ]
            else:
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


def _components(boxes: list, max_gap: float) -> list[list[int]]:
    from layoutrag.chunking.group import vertical_gap

    comps: list[set[int]] = []
    for i, b in enumerate(boxes):
        linked = [c for c in comps if any(vertical_gap(b, boxes[j]) <= max_gap for j in c)]
        merged = {i}.union(*linked) if linked else {i}
        comps = [c for c in comps if c not in linked] + [merged]
    return [sorted(c) for c in comps]


def table_checks(data: DataDir, missed: list[str] | None = None) -> dict[str, int]:
    """Issue 3's done-when checks: captions directly above/below a table share its chunk; table
    chunks have rows; tables joined across a page break."""
    from layoutrag.chunking.group import _caption_candidate, is_caption_text, vertical_gap, x_overlap_frac

    out = {
        "captions_next_to_table": 0,
        "captions_with_their_table": 0,
        "table_chunks": 0,
        "table_chunks_with_rows": 0,
        "cross_page_tables": 0,
        "chunks_with_far_apart_members": 0,
    }
    for did in data.doc_ids():
        if not data.chunks_json(did).exists():
            continue
        doc = Document.model_validate_json(data.document_json(did).read_text(encoding="utf-8"))
        chunks = load_doc_chunks(data, did).chunks
        chunk_of = {e: c.chunk_id for c in chunks for e in c.element_ids}
        pages = {p.page: p for p in doc.pages}
        element = {e.element_id: e for p in doc.pages for e in p.elements}
        for c in chunks:
            # the detector's own boxes (a sub-picture cut from a multi-figure picture: its region)
            regions = c.all_regions()
            members = [
                (element[i].page, element[i].bbox_pdf) if i in element else (r.page, r.bbox_pdf)
                for i, r in zip(c.element_ids, regions, strict=False)
            ]
            for pg in {p for p, _ in members}:
                boxes = [b for p, b in members if p == pg]
                limit = 0.18 * pages[pg].height_pt
                if len(_components(boxes, limit)) > 1:
                    out["chunks_with_far_apart_members"] += 1
            if c.block_type == "table":
                out["table_chunks"] += 1
                out["table_chunks_with_rows"] += bool(c.rows)
                out["cross_page_tables"] += len({r.page for r in c.all_regions()}) > 1
        for p in doc.pages:
            tables = [e for e in p.elements if e.label == "table"]
            for cap in p.elements:
                if not (_caption_candidate(cap) and (cap.label == "caption" or is_caption_text(cap.text))):
                    continue
                if cap.text.strip().lower().startswith(("fig", "图")):
                    continue
                near = [
                    t
                    for t in tables
                    if x_overlap_frac(cap.bbox_pdf, t.bbox_pdf) >= 0.3
                    and vertical_gap(cap.bbox_pdf, t.bbox_pdf) <= 0.03 * p.height_pt
                ]
                if not near:
                    continue
                out["captions_next_to_table"] += 1
                kept = any(chunk_of.get(cap.element_id) == chunk_of.get(t.element_id) for t in near)
                out["captions_with_their_table"] += kept
                if not kept and missed is not None:
                    missed.append(
                        f"  {doc.file_name[:34]:34} p{p.page:<3} {cap.element_id.rsplit('_', 1)[-1]} "
                        f"{cap.label:14} {cap.text[:60]!r} (in {chunk_of.get(cap.element_id, '-')})"
                    )
    return out


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    data = DataDir(args[0])
    qfile = Path(args[1]) if len(args) > 1 else DEFAULT_QUERIES
    queries = [json.loads(line) for line in qfile.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = check(data, queries, element_boxes="--element-boxes" in argv)
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
    missed: list[str] = []
    checks = table_checks(data, missed)
    print(
        f"table captions directly above/below a table kept with it: {checks['captions_with_their_table']}"
        f"/{checks['captions_next_to_table']}; table chunks with rows: {checks['table_chunks_with_rows']}"
        f"/{checks['table_chunks']}; tables joined across a page break: {checks['cross_page_tables']}; "
        f"chunks with members > 18 % of the page height apart: {checks['chunks_with_far_apart_members']}"
    )
    if "--captions" in argv:
        print("table captions not kept with their table:")
        print("\n".join(missed) or "  none")
    if "--misses" in argv:
        for r in rows:
            if not r["covered"] or (r["ratio"] or 0) > 2:
                ratio = f"{r['ratio']:.2f}" if r["ratio"] else "-"
                print(
                    f"  {r['id']} {r['doc'][:34]:34} p{r['page']:<3} {r['kind']:11} cover={r['best_cover']:.2f} ratio={ratio} {r['note'][:50]}"
                )


if __name__ == "__main__":
    main(sys.argv[1:])
