"""Tables whose grid is drawn with curved-end rules: rows with and without reading them (chunk-18).

    python benchmarks/curved_rules.py DATA_DIR [--pdfs DIR] [--only NAME_PART] [-v]

For every table region of every chunked document in DATA_DIR on a page that has such rules
(``tables.curved_rules``: thin filled paths with Bézier segments, which ``find_tables`` skips):
the rows ``rows_from_pymupdf`` reads without them (what chunk-17 read; no rows means the table fell
back to text lines) and with them. Prints, per document, the regions, how many changed, and how
many went from no grid to a grid; ``-v`` every changed region (page, rows and columns before/after).
The PDFs are looked up by file name in ``--pdfs`` (default ../shared/datasheets).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

import pymupdf

import layoutrag.chunking.tables as T
from layoutrag.pdf import PdfPage
from layoutrag.records import DocChunks, Document
from layoutrag.storage import DataDir


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("--pdfs", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "datasheets")
    ap.add_argument("--only", default="")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    data = DataDir(a.data)
    per_doc: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for doc_id in sorted(data.doc_ids()):
        if not data.chunks_json(doc_id).exists() or not data.document_json(doc_id).exists():
            continue
        dc = DocChunks.model_validate_json(data.chunks_json(doc_id).read_text(encoding="utf-8"))
        name = dc.card.file_name
        pdf_path = a.pdfs / name
        if (a.only and a.only.lower() not in name.lower()) or not pdf_path.exists():
            continue
        doc = Document.model_validate_json(data.document_json(doc_id).read_text(encoding="utf-8"))
        words = {p.page: p.words for p in doc.pages}
        pdf = pymupdf.open(pdf_path)
        pages: dict[int, PdfPage | None] = {}
        for c in dc.chunks:
            if c.block_type != "table":
                continue
            for reg in c.all_regions():
                if reg.page not in pages:
                    pages[reg.page] = PdfPage.load(pdf, reg.page)
                pp = pages[reg.page]
                rules = T.curved_rules(pp.drawings()) if pp is not None else []
                if pp is None or not rules:
                    continue
                before, _ = T.rows_from_pymupdf(pp.page, reg.bbox_pdf, reg.page, words.get(reg.page, []), None)
                after, _ = T.rows_from_pymupdf(pp.page, reg.bbox_pdf, reg.page, words.get(reg.page, []), rules)
                n = per_doc[name]
                n[0] += 1
                if [r.cells for r in before] != [r.cells for r in after]:
                    n[1] += 1
                    n[2] += len(before) < 2 <= len(after)
                    if a.v:
                        cols = [max((len(r.cells) for r in rs), default=0) for rs in (before, after)]
                        print(f"  {name[:40]:<40} p{reg.page:<3} rows {len(before)} -> {len(after)}, "
                              f"columns {cols[0]} -> {cols[1]}")
        pdf.close()
    print(f"{'document':<50} {'regions':>8} {'changed':>8} {'grid now':>8}")
    for name, (n, ch, grid) in sorted(per_doc.items(), key=lambda kv: -kv[1][1]):
        print(f"{name[:50]:<50} {n:>8} {ch:>8} {grid:>8}")
    tot = [sum(v[i] for v in per_doc.values()) for i in range(3)]
    print(f"{'all (' + str(len(per_doc)) + ' documents with such rules in a table region)':<50} "
          f"{tot[0]:>8} {tot[1]:>8} {tot[2]:>8}")


if __name__ == "__main__":
    main()
