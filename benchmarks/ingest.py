"""Ingest throughput: pages/s and peak RSS per layout backend, born-digital pages vs OCR pages.

Each (backend, page set) runs in a fresh process (``ingest_paths`` into a temporary data dir, so
nothing is cached), which gives an honest peak RSS (``os.wait4``) including model loading.
Times include everything a user's ``layoutrag ingest`` does per document (render, layout, text/OCR,
reading order, and the chunking stage's chunks + evidence images), except building the index.

    .venv/bin/python benchmarks/ingest.py [DATASHEETS_DIR] [--docs N] [--backends pymupdf,yolo]

`--docs N` takes the N smallest born-digital documents (whole corpus by default); documents whose
pages have no text layer form the "OCR pages" set.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "datasheets"


def _worker(backend: str, files: list[str]) -> None:
    from layoutrag.build import ingest_and_chunk

    with tempfile.TemporaryDirectory(prefix="lr-bench-") as tmp:
        t0 = time.perf_counter()
        results = ingest_and_chunk([Path(f) for f in files], Path(tmp), layout=backend, progress=False)
        seconds = time.perf_counter() - t0
    print(
        json.dumps(
            {
                "pages": sum(r.pages for r in results),
                "seconds": seconds,
                "failed": sum(r.status == "failed" for r in results),
            }
        )
    )


def _is_scanned(path: Path) -> bool:
    import pymupdf

    from layoutrag.config import Settings
    from layoutrag.pdf import count_text_chars

    with pymupdf.open(path) as doc:
        return all(count_text_chars(p) <= Settings().text_layer_min_chars for p in doc)


def _run(backend: str, files: list[Path]) -> dict[str, float]:
    cmd = [sys.executable, __file__, "--worker", backend, *map(str, files)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"benchmark worker failed for {backend}")
    stats = json.loads(out.strip().splitlines()[-1])
    stats["peak_rss_mb"] = usage.ru_maxrss / 1024  # KiB on Linux
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--docs", type=int, default=0, help="only the N smallest born-digital documents")
    ap.add_argument("--backends", default="pymupdf,yolo")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args, rest = ap.parse_known_args()
    if args.worker:
        _worker(args.worker, [str(args.folder), *rest])
        return
    pdfs = sorted(args.folder.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"no PDFs in {args.folder}")
    scanned = [p for p in pdfs if _is_scanned(p)]
    digital = [p for p in pdfs if p not in scanned]
    if args.docs:
        digital = sorted(digital, key=lambda p: p.stat().st_size)[: args.docs]
    sets = {"born-digital": digital, "OCR pages": scanned}
    print(
        f"{'backend':<9} {'pages':<13} {'docs':>5} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'peak RSS MB':>12}"
    )
    for backend in args.backends.split(","):
        for name, files in sets.items():
            if not files:
                continue
            s = _run(backend, files)
            print(
                f"{backend:<9} {name:<13} {len(files):>5} {s['pages']:>6} {s['seconds']:>8.1f} "
                f"{s['pages'] / s['seconds']:>8.2f} {s['peak_rss_mb']:>12.0f}"
                + (f"  ({s['failed']} failed)" if s["failed"] else ""),
                flush=True,
            )


if __name__ == "__main__":
    main()
