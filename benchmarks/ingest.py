"""Ingest throughput against baselines on the same files and cores, peak RSS, a stage profile.

Rows (each a fresh process, so its peak RSS (``os.wait4``, the largest process of its tree)
includes model loading, and nothing is cached between rows):

* ``layoutrag``  — ``ingest_and_chunk`` into a temporary data dir with ``--jobs`` workers: render,
  text/OCR, layout, reading order, chunking, spec stage (evidence images lazy unless
  ``--eager-images``); no index.
* ``pymupdf4llm`` — ``pymupdf4llm.to_markdown(path, page_chunks=True)`` per file (its defaults: the
  same PyMuPDF layout model, its own OCR decision), the files spread over ``--jobs`` processes.
* ``rapidocr page`` — the whole-page OCR baseline for scanned pages: each page rendered at the
  ingest dpi and given to ``RapidOCR()`` (its defaults), files over ``--jobs`` processes.

The born-digital set is compared with pymupdf4llm, the scanned set (every page's text layer
≤ ``text_layer_min_chars``) with both; the ratio column is baseline seconds / layoutrag seconds.

    python benchmarks/ingest.py [DATASHEETS_DIR] [--docs N] [--jobs 2] [--backends pymupdf]
    python benchmarks/ingest.py --spread 6 --sets born-digital    # every 6th by size: small and large alike
    python benchmarks/ingest.py --profile [--docs N]     # per-stage breakdown of one in-process run
    python benchmarks/ingest.py --memory [--pages 500]   # peak RSS: a 5-page PDF vs the same pages repeated

`--profile` wraps the stage functions with wall-clock timers (exclusive time: a stage nested in
another is counted once, in the inner one) and runs the documents in this process, one job. The
PyMuPDF layout model is broken down too: its image-feature model, its Python features, its own
text page and render; what is left of it ("layout model (PyMuPDF get_layout)") is the graph
model's ONNX run and glue.
The machine may be shared: compare ratios within one run.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "datasheets"


# --------------------------------------------------------------------------- workers (one process each)
def _layoutrag_worker(backend: str, jobs: int, eager: bool, files: list[str]) -> dict[str, Any]:
    from layoutrag.build import ingest_and_chunk
    from layoutrag.config import load_settings

    settings = load_settings()
    if eager:
        settings = settings.updated(eager_images=True)
    with tempfile.TemporaryDirectory(prefix="lr-bench-") as tmp:
        t0 = time.perf_counter()
        results = ingest_and_chunk(
            [Path(f) for f in files], Path(tmp), layout=backend, jobs=jobs, progress=False, settings=settings
        )
        seconds = time.perf_counter() - t0
    return {
        "pages": sum(r.pages for r in results),
        "seconds": seconds,
        "failed": sum(r.status == "failed" for r in results),
    }


def _p4llm_one(path: str) -> int:
    import pymupdf4llm

    chunks = pymupdf4llm.to_markdown(path, page_chunks=True)
    return len(chunks)


_OCR = None


def _ocr_one(path: str) -> int:
    global _OCR
    import logging

    import numpy as np
    import pymupdf
    from rapidocr import RapidOCR

    from layoutrag.config import load_settings

    if _OCR is None:
        _OCR = RapidOCR(params={"Global.log_level": "critical"})
        logging.getLogger("RapidOCR").setLevel(logging.CRITICAL)
    dpi = load_settings().render.dpi
    n = 0
    with pymupdf.open(path) as doc:
        for page in doc:
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)
            img = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3)
            _OCR(img)
            n += 1
    return n


def _pool_worker(kind: str, jobs: int, files: list[str]) -> dict[str, Any]:
    fn = {"pymupdf4llm": _p4llm_one, "rapidocr": _ocr_one}[kind]
    import pymupdf

    t0 = time.perf_counter()
    if jobs <= 1:
        for f in files:
            fn(f)
    else:
        import multiprocessing

        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            list(pool.map(fn, files))
    seconds = time.perf_counter() - t0
    pages = 0
    for f in files:
        with pymupdf.open(f) as d:
            pages += d.page_count
    return {"pages": pages, "seconds": seconds, "failed": 0}


def _run(args: list[str], src: Path | None = None) -> dict[str, Any]:
    """Run this script as a worker in a fresh process (layoutrag from `src` when given); its stats
    + peak RSS (MB) + CPU seconds."""
    cmd = [sys.executable, __file__, "--worker", json.dumps(args)]
    env = dict(os.environ, PYTHONPATH=str(src)) if src else None
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"benchmark worker failed: {args[:2]}")
    stats = json.loads(out.strip().splitlines()[-1])
    stats["peak_rss_mb"] = usage.ru_maxrss / 1024  # KiB on Linux; the largest process of the tree
    stats["cpu_s"] = usage.ru_utime + usage.ru_stime  # the whole tree (workers are reaped by the worker)
    return stats


def _worker_main(spec: str) -> None:
    kind, *rest = json.loads(spec)
    if kind == "layoutrag":
        backend, jobs, eager, files = rest
        out = _layoutrag_worker(backend, int(jobs), bool(eager), files)
    else:
        jobs, files = rest
        out = _pool_worker(kind, int(jobs), files)
    print(json.dumps(out), flush=True)


# --------------------------------------------------------------------------- file sets
def _is_scanned(path: Path) -> bool:
    import pymupdf

    from layoutrag.config import load_settings
    from layoutrag.pdf import count_text_chars

    limit = load_settings().render.text_layer_min_chars
    with pymupdf.open(path) as doc:
        return all(count_text_chars(p) <= limit for p in doc)


def _sets(folder: Path, docs: int, spread: int = 0) -> dict[str, list[Path]]:
    pdfs = sorted(folder.glob("*.pdf"))
    if not pdfs:
        raise SystemExit(f"no PDFs in {folder}")
    scanned = [p for p in pdfs if _is_scanned(p)]
    digital = [p for p in pdfs if p not in scanned]
    if docs:
        digital = sorted(digital, key=lambda p: p.stat().st_size)[:docs]
    elif spread:  # every K-th by file size, from the smallest: small and large datasheets alike
        digital = sorted(digital, key=lambda p: p.stat().st_size)[::spread]
    return {"born-digital": digital, "scanned": scanned}


# --------------------------------------------------------------------------- --profile
# (category, "module:attribute" or "module:Class.method"): every function timed; exclusive time
# goes to the innermost category running.
LAYOUT_MODEL = "layout model (PyMuPDF get_layout)"
PROFILED: list[tuple[str, str]] = [
    (LAYOUT_MODEL, "pymupdf:Page.get_layout"),
    # inside the model (pymupdf-layout): each shows as "layout model: ..."; its text page and its
    # 72 dpi render are the text extraction and rendering rows below
    ("image features (ONNX, page at 300x300)", "pymupdf.layout.onnx.ImageFeatureExtractorV1:ImageFeatureExtractorV1.predict"),
    ("RF features (Python)", "pymupdf.layout.pymupdf_util_ext:extract_rf_features"),
    ("graph features, pooling (Python)", "pymupdf.layout.onnx.BoxRFDGNN:get_nn_input_from_datadict"),
    ("table grid (ONNX, not used by layoutrag)", "pymupdf.layout.onnx.TableGridExtractorV2:TableGridExtractorV2.predict"),
    ("layout model (YOLO)", "layoutrag.ingest.layout:YoloLayoutDetector.detect"),
    ("layout post (drawing clusters, graphics)", "layoutrag.ingest.layout:PyMuPDFLayoutDetector.detect"),
    ("drawings (get_drawings, cluster)", "pymupdf:Page.get_drawings"),
    ("drawings (get_drawings, cluster)", "pymupdf:Page.get_cdrawings"),
    ("drawings (get_drawings, cluster)", "pymupdf:Page.cluster_drawings"),
    ("text extraction (text layer)", "layoutrag.ingest.pipeline:extract_text"),
    ("text extraction (text layer)", "pymupdf:Page.get_textpage"),
    ("rendering (pixmaps)", "pymupdf:Page.get_pixmap"),
    ("OCR (rapidocr)", "layoutrag.ingest.ocr:ocr_words"),
    ("ingest build (dedup, element text, order)", "layoutrag.ingest.pipeline:build_page"),
    ("table rows (find_tables, rules)", "layoutrag.chunking.pipeline:page_groups"),
    ("grouping, boxes, card (chunk stage)", "layoutrag.chunking.pipeline:build_doc_chunks"),
    ("evidence images (crops, merge)", "layoutrag.chunking.pipeline:write_evidence"),
    ("PNG encode", "PIL.Image:Image.save"),
    ("PNG encode", "pymupdf:Pixmap.tobytes"),
    ("spec stage", "layoutrag.build:spec_document"),
    ("JSON writing", "layoutrag.ingest.pipeline:atomic_write_json"),
    ("JSON writing", "layoutrag.ingest.artifacts:atomic_write_json"),
    ("JSON writing", "layoutrag.chunking.pipeline:atomic_write_json"),
    ("JSON reading/validation", "layoutrag.chunking.pipeline:load_doc_chunks"),
]


class StageTimer:
    def __init__(self) -> None:
        self.total: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[list[float]] = []  # [child seconds] per open call
        self._owners: list[str] = []  # the category of each open call

    def wrap(self, category: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def timed(*a: Any, **k: Any) -> Any:
            # inside the layout model, its own text pages and renders are the model's cost
            name = category
            if category != LAYOUT_MODEL and LAYOUT_MODEL in self._owners:
                name = f"{LAYOUT_MODEL[:12]}: {category.split(' (')[0]}"
            self._stack.append([0.0])
            self._owners.append(category)
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                dt = time.perf_counter() - t0
                child = self._stack.pop()[0]
                self._owners.pop()
                self.total[name] += dt - child
                self.calls[name] += 1
                if self._stack:
                    self._stack[-1][0] += dt

        return timed

    def install(self) -> None:
        import importlib

        for category, target in PROFILED:
            mod_name, attr = target.split(":")
            owner: Any = importlib.import_module(mod_name)
            *path, name = attr.split(".")
            for p in path:
                owner = getattr(owner, p)
            if hasattr(owner, name):
                setattr(owner, name, self.wrap(category, getattr(owner, name)))


def profile(files: list[Path], backend: str, eager: bool) -> None:
    import pymupdf.layout  # noqa: F401  (the model loads here, outside the timed run)

    from layoutrag.build import ingest_and_chunk
    from layoutrag.config import load_settings
    from layoutrag.ingest.layout import get_detector

    get_detector(backend)
    timer = StageTimer()
    timer.install()
    settings = load_settings()
    if eager:
        settings = settings.updated(eager_images=True)
    with tempfile.TemporaryDirectory(prefix="lr-prof-") as tmp:
        t0 = time.perf_counter()
        results = ingest_and_chunk(files, Path(tmp), layout=backend, jobs=1, progress=False, settings=settings)
        seconds = time.perf_counter() - t0
    pages = sum(r.pages for r in results)
    timed = sum(timer.total.values())
    print(f"profile: {len(files)} documents, {pages} pages, {seconds:.1f} s ({pages / seconds:.2f} pages/s), one job")
    print(f"{'stage':<44} {'seconds':>8} {'share':>6} {'ms/page':>8} {'calls':>6}")
    rows = sorted(timer.total.items(), key=lambda kv: -kv[1])
    rows.append(("other (untimed: hashing, copies, reading order glue)", seconds - timed))
    for name, s in rows:
        print(f"{name:<44} {s:>8.2f} {s / seconds:>6.1%} {1000 * s / max(pages, 1):>8.0f} {timer.calls.get(name, 0):>6}")


# --------------------------------------------------------------------------- --memory
def memory(folder: Path, n_pages: int, source: str, backend: str, before_src: Path | None = None) -> None:
    import pymupdf

    src = folder / source
    with tempfile.TemporaryDirectory(prefix="lr-mem-") as tmp:
        small = Path(tmp) / "small.pdf"
        big = Path(tmp) / f"big-{n_pages}.pdf"
        with pymupdf.open(src) as s:
            with pymupdf.open() as out:
                out.insert_pdf(s, from_page=0, to_page=min(4, s.page_count - 1))
                out.save(small)
            with pymupdf.open() as out:
                while out.page_count < n_pages:
                    out.insert_pdf(s, to_page=min(s.page_count, n_pages - out.page_count) - 1)
                out.save(big)
        print(f"memory: {source} -> {small.name} and {big.name} ({backend}, one job)")
        print(f"{'file':<22} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'peak RSS MB':>12}")
        rss: dict[str, list[float]] = {}
        runs: list[tuple[str, Path, Path | None]] = [("", small, None), ("", big, None)]
        if before_src:
            runs += [(" (before)", small, before_src), (" (before)", big, before_src)]
        for label, f, src in runs:
            s = _run(["layoutrag", backend, 1, False, [str(f)]], src)
            rss.setdefault(label, []).append(s["peak_rss_mb"])
            name = f.name + label
            print(f"{name:<22} {s['pages']:>6} {s['seconds']:>8.1f} {s['pages'] / s['seconds']:>8.2f} {s['peak_rss_mb']:>12.0f}")
        for label, (r_small, r_big) in rss.items():
            print(f"peak RSS difference{label} ({big.name} - {small.name}): {r_big - r_small:+.0f} MB")


# --------------------------------------------------------------------------- main
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    ap.add_argument("--docs", type=int, default=0, help="only the N smallest born-digital documents")
    ap.add_argument("--spread", type=int, default=0, help="every K-th born-digital document by size (not with --docs)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="processes, every row alike")
    ap.add_argument("--backends", default="pymupdf")
    ap.add_argument("--eager-images", action="store_true", help="layoutrag writes evidence images at ingest")
    ap.add_argument("--no-baselines", action="store_true", help="layoutrag rows only")
    ap.add_argument(
        "--baselines", default="pymupdf4llm,rapidocr", help="which baselines to run (rapidocr: scanned set only)"
    )
    ap.add_argument("--sets", default="born-digital,scanned")
    ap.add_argument("--before-src", type=Path, help="also run layoutrag from this src/ (an older commit), same files")
    ap.add_argument("--profile", action="store_true", help="stage breakdown of one in-process run")
    ap.add_argument("--memory", action="store_true", help="peak RSS of a 5-page PDF vs --pages of them")
    ap.add_argument("--pages", type=int, default=500)
    ap.add_argument("--memory-source", default="AOS_AO3401.pdf")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        _worker_main(args.worker)
        return
    if args.memory:
        memory(args.folder, args.pages, args.memory_source, args.backends.split(",")[0], args.before_src)
        return
    sets = _sets(args.folder, args.docs, args.spread)
    wanted = args.sets.split(",")
    if args.profile:
        files = [f for name in wanted for f in sets.get(name, [])]
        profile(files, args.backends.split(",")[0], args.eager_images)
        return
    print(
        f"jobs {args.jobs} for every row; ratio = baseline / layoutrag on the same set, by wall seconds and by CPU "
        "seconds of the process tree (less sensitive to other load on a shared machine)"
    )
    print(
        f"{'system':<22} {'set':<13} {'docs':>5} {'pages':>6} {'seconds':>8} {'pages/s':>8} {'ratio':>6} "
        f"{'CPU s':>8} {'pages/CPU-s':>11} {'CPU ratio':>9} {'peak RSS MB':>12}"
    )
    for name in wanted:
        files = sets.get(name, [])
        if not files:
            continue
        paths = [str(f) for f in files]
        rows: list[tuple[str, dict[str, Any]]] = []
        for backend in args.backends.split(","):
            rows.append((f"layoutrag {backend}", _run(["layoutrag", backend, args.jobs, args.eager_images, paths])))
            if args.before_src:
                before = _run(["layoutrag", backend, args.jobs, False, paths], args.before_src)
                rows.append((f"layoutrag {backend} before", before))
        baselines = [] if args.no_baselines else args.baselines.split(",")
        if "pymupdf4llm" in baselines:
            rows.append(("pymupdf4llm", _run(["pymupdf4llm", args.jobs, paths])))
        if "rapidocr" in baselines and name == "scanned":
            rows.append(("rapidocr whole page", _run(["rapidocr", args.jobs, paths])))
        ours, ours_cpu = rows[0][1]["seconds"], rows[0][1]["cpu_s"]
        for system, s in rows:
            mine = system == rows[0][0]
            ratio = "" if mine else f"{s['seconds'] / ours:.2f}"
            cpu_ratio = "" if mine else f"{s['cpu_s'] / ours_cpu:.2f}"
            print(
                f"{system:<22} {name:<13} {len(files):>5} {s['pages']:>6} {s['seconds']:>8.1f} "
                f"{s['pages'] / s['seconds']:>8.2f} {ratio:>6} {s['cpu_s']:>8.1f} {s['pages'] / s['cpu_s']:>11.2f} "
                f"{cpu_ratio:>9} {s['peak_rss_mb']:>12.0f}"
                + (f"  ({s['failed']} failed)" if s["failed"] else ""),
                flush=True,
            )


if __name__ == "__main__":
    main()
