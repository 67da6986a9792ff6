"""Ingest only the pages that region queries point at, with one layout backend, for region checks.

A full YOLO ingest of the shared datasheets renders and detects every page (hours on two shared
cores); region coverage only looks at the query pages. This writes, per queried document, a
document.json whose query pages went through the real ingest stages (text layer / OCR, the layout
backend, de-dup, element text, reading order: ingest/stages.py) and whose other pages are empty
(no elements), then chunks it with the chunk stage. The text artifact of another data dir
(`--text-from`, e.g. the pymupdf ingest) is reused when current, so OCR is not run twice.

    python benchmarks/query_pages_ingest.py --pdfs DIR --data OUT --layout yolo \\
        --queries Q1.jsonl [--queries Q2.jsonl] [--text-from DATA_DIR] [--no-chunk]

Scores from such a dir are the same as a full ingest's for coverage, except that a table continued
from a page that was not ingested is not joined to it (no effect on the boxes of the query page).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from layoutrag.chunking.pipeline import chunk_and_save
from layoutrag.config import load_settings
from layoutrag.ingest.artifacts import (
    DetectionRecord,
    LayoutArtifact,
    PageLayout,
    TextArtifact,
    load_artifact,
    text_artifact_path,
)
from layoutrag.ingest.layout import get_detector
from layoutrag.ingest.stages import (
    build_page,
    doc_title,
    extract_text,
    file_sha256,
    needs_image_fallback,
    stage_version,
    text_key,
)
from layoutrag.pdf import open_pdf, render_page_rgb
from layoutrag.records import Document
from layoutrag.storage import DataDir, atomic_write_json


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdfs", type=Path, required=True)
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--layout", default="yolo")
    ap.add_argument("--queries", type=Path, action="append", default=[])
    ap.add_argument("--text-from", type=Path)
    ap.add_argument("--no-chunk", action="store_true")
    args = ap.parse_args(argv)
    settings = load_settings(layout={"layout_backend": args.layout})
    pages: dict[str, set[int]] = {}
    for qf in args.queries:
        for line in qf.read_text(encoding="utf-8").splitlines():
            if line.strip():
                q = json.loads(line)
                pages.setdefault(q["doc"], set()).add(int(q["page"]))
    data = DataDir(args.data)
    detector = get_detector(args.layout, confidence=settings.layout.yolo_confidence)
    fallback = None
    for name in sorted(pages):
        path = args.pdfs / name
        if not path.is_file():
            print(f"missing {name}", flush=True)
            continue
        sha = file_sha256(path)
        doc_id = sha[:16]
        tag = f"query-pages:{args.layout}:{sorted(pages[name])}"
        out = data.document_json(doc_id)
        if out.is_file():
            old = Document.model_validate_json(out.read_text(encoding="utf-8"))
            if old.key == tag:
                if not args.no_chunk:
                    chunk_and_save(old, data, settings)
                continue
        t0 = time.perf_counter()
        with open_pdf(path, settings) as pdf:
            text = None
            if args.text_from is not None:
                src = DataDir(args.text_from)
                text = load_artifact(
                    text_artifact_path(src, doc_id, settings.render.dpi), TextArtifact, text_key(sha, settings)
                )
            if text is None:
                text = extract_text(pdf, settings, lambda _n: None)
            layouts = []
            for i in range(pdf.page_count):
                if i + 1 not in pages[name]:
                    layouts.append(PageLayout(page=i + 1))
                    continue
                page = pdf[i]
                image = render_page_rgb(page, settings.render.dpi) if detector.needs_image else None
                dets = detector.detect(page, image, settings.render.dpi)
                if not dets and needs_image_fallback(detector, text.pages[i]):
                    fallback = fallback or get_detector("yolo", confidence=settings.layout.yolo_confidence)
                    dets = fallback.detect(page, render_page_rgb(page, settings.render.dpi), settings.render.dpi)
                layouts.append(PageLayout(page=i + 1, detections=[DetectionRecord(**d._asdict()) for d in dets]))
            layout = LayoutArtifact(key="", pages=layouts)
            built = [
                build_page(t, lp, doc_id=doc_id, settings=settings)
                for t, lp in zip(text.pages, layout.pages, strict=True)
            ]
            data.doc_dir(doc_id).mkdir(parents=True, exist_ok=True)
            if not data.source_pdf(doc_id).exists():
                data.source_pdf(doc_id).write_bytes(path.read_bytes())
            doc = Document(
                doc_id=doc_id,
                source_pdf=str(path),
                file_name=path.name,
                sha256=sha,
                n_pages=pdf.page_count,
                layout_backend=args.layout,
                dpi=settings.render.dpi,
                stage_version=stage_version(args.layout),
                title=doc_title(pdf, built),
                pages=built,
                key=tag,
            )
        atomic_write_json(out, doc)
        n = 0 if args.no_chunk else chunk_and_save(doc, data, settings)
        print(f"{name}: {len(pages[name])} pages, {n} chunks, {time.perf_counter() - t0:.1f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
