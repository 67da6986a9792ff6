"""Layout coverage: how well do a data dir's layout *elements* cover the gold regions of the dev set?

Picks the default layout backend (Settings.layout_backend). For each gold region of each query
(document, page, box), over the elements of that page:

* any-cover  — the elements that overlap the region together cover >= 95 % of it;
* area ratio — the total area of those overlapping elements / region area (how much a chunk built
  from them would show beyond the region; median over covered regions, lower is tighter);
* one-cover  — a single element covers >= 95 % of the region (the region is one detected block);
  one-cover ratio = area of the smallest such element / region area (median);
* by kind (table / figure / text).

    .venv/bin/python benchmarks/layout_coverage.py DATA_DIR [DATA_DIR ...] [--queries Q.jsonl]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from pathlib import Path

from layoutrag.geometry import area, covered_area, intersection
from layoutrag.records import Document
from layoutrag.storage import DataDir

DEFAULT_QUERIES = Path(__file__).resolve().parents[2] / "shared" / "eval" / "datasheets" / "dev-queries.jsonl"
COVER = 0.95


def load_docs(data: Path) -> dict[str, Document]:
    dd = DataDir(data)
    out = {}
    for doc_id in dd.doc_ids():
        doc = Document.model_validate_json(dd.document_json(doc_id).read_bytes())
        out[doc.file_name] = doc
    return out


def score(data: Path, queries: list[dict], only: set[str] | None = None) -> dict[str, object]:
    docs = {name: d for name, d in load_docs(data).items() if only is None or name in only}
    rows: list[dict] = []
    for q in queries:
        doc = docs.get(q["doc"])
        for region in q["regions"]:
            row = {
                "kind": q.get("kind", "?"),
                "any": False,
                "one": False,
                "ratio": None,
                "missing": doc is None,
                "table": False,
            }
            if doc is not None and 1 <= q["page"] <= doc.n_pages:
                elements = doc.pages[q["page"] - 1].elements
                boxes = [e.bbox_pdf for e in elements]
                tables = [e.bbox_pdf for e in elements if e.label == "table"]
                row["table"] = bool(tables) and covered_area(region, tables) / max(area(region), 1e-9) >= 0.5
                over = [b for b in boxes if intersection(b, region) > 0]
                a = area(region)
                if over and a > 0:
                    row["any"] = covered_area(region, over) / a >= COVER
                    row["ratio"] = sum(area(b) for b in over) / a
                    single = [area(b) / a for b in boxes if covered_area(region, [b]) / a >= COVER]
                    row["one"] = bool(single)
                    row["one_ratio"] = min(single) if single else None
            rows.append(row)
    backends = sorted({d.layout_backend for d in docs.values()})

    def summary(rs: list[dict]) -> dict[str, object]:
        ratios = [r["ratio"] for r in rs if r["any"] and r["ratio"] is not None]
        ones = [r["one_ratio"] for r in rs if r.get("one_ratio") is not None]
        n = len(rs) or 1
        return {
            "n": len(rs),
            "any_cover": round(sum(r["any"] for r in rs) / n, 3),
            "one_cover": round(sum(r["one"] for r in rs) / n, 3),
            "median_ratio": round(statistics.median(ratios), 2) if ratios else None,
            "table_detected": round(sum(r["table"] for r in rs) / n, 3),
            "median_one_ratio": round(statistics.median(ones), 2) if ones else None,
        }

    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
    return {
        "data": str(data),
        "backend": ",".join(backends),
        "all": summary(rows),
        "by_kind": {k: summary(v) for k, v in sorted(by_kind.items())},
        "missing_docs": sum(r["missing"] for r in rows),
    }


def corpus_checks(data: Path) -> dict[str, object]:
    """Done-when checks over a data dir: failures, boxes outside their page, OCR pages, tables."""
    dd = DataDir(data)
    report = json.loads(dd.report.read_text()) if dd.report.is_file() else []
    docs = [Document.model_validate_json(dd.document_json(d).read_bytes()) for d in dd.doc_ids()]
    pages = [p for d in docs for p in d.pages]

    def inside(b: tuple[float, float, float, float], w: float, h: float) -> bool:
        return 0 <= b[0] < b[2] <= w and 0 <= b[1] < b[3] <= h

    ocr = [p for p in pages if p.text_status == "needs_ocr"]
    return {
        "report_docs": len(report),
        "failed": [(r["path"], r["error"]) for r in report if r["status"] == "failed"],
        "docs": len(docs),
        "pages": len(pages),
        "elements": sum(len(p.elements) for p in pages),
        "boxes_outside_page": sum(
            1 for p in pages for e in p.elements if not inside(e.bbox_pdf, p.width_pt, p.height_pt)
        ),
        "pages_with_error": sum(1 for p in pages if p.error),
        "ocr_pages": len(ocr),
        "ocr_pages_with_text": sum(1 for p in ocr if any(e.text.strip() for e in p.elements)),
        "ocr_docs": sorted({d.file_name for d in docs for p in d.pages if p.text_status == "needs_ocr"}),
        "pages_with_table": sum(1 for p in pages if any(e.label == "table" for e in p.elements)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", type=Path)
    ap.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--checks", action="store_true", help="also print the corpus checks per data dir")
    ap.add_argument("--common", action="store_true", help="only queries on documents in every data dir")
    args = ap.parse_args()
    if args.checks:
        for d in args.data:
            print(d, json.dumps(corpus_checks(d)))
    queries = [json.loads(line) for line in args.queries.read_text().splitlines() if line.strip()]
    only = None
    if args.common:  # compare backends on the documents every data dir has (partial ingests)
        only = set.intersection(*(set(load_docs(d)) for d in args.data))
        queries = [q for q in queries if q["doc"] in only]
    results = [score(d, queries, only) for d in args.data]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"{'backend':<10} {'kind':<12} {'n':>4} {'any-cover':>10} {'one-cover':>10} {'median area ratio':>18} "
        f"{'one-cover ratio':>15} {'table-detected':>15}"
    )
    for r in results:
        for kind, s in [("all", r["all"]), *r["by_kind"].items()]:
            ratio = s["median_ratio"] if s["median_ratio"] is not None else "-"
            one = s["median_one_ratio"]
            print(
                f"{r['backend']:<10} {kind:<12} {s['n']:>4} {s['any_cover']:>10.3f} {s['one_cover']:>10.3f} "
                f"{ratio:>18} {one if one is not None else '-':>15} {s['table_detected']:>15.3f}"
            )
        if r["missing_docs"]:
            print(f"  ({r['missing_docs']} regions on documents not in {r['data']})")


if __name__ == "__main__":
    main()
