"""Ingest pipeline: PDFs → ``docs/{doc_id}/document.json`` (+ chunks via the chunking stage).

Per document (one worker call, in-process for ``jobs=1``, a process pool otherwise):

    hash → limits/open → copy source.pdf → text (text layer, OCR where none) → layout (backend)
    → de-dup → element text → reading order → document.json → chunk_and_save

Resumability: ``document.json`` carries a key (content sha256 + stage version + layout backend +
de-dup strategy + dpi [+ YOLO confidence]); a document whose key matches is ``skipped``. The text
and layout stages keep their own keyed artifacts (:mod:`layoutrag.ingest.artifacts`), so changing
the backend re-runs layout only. Every file is written atomically (temp + rename), so a ``kill -9``
leaves either the old or the new artifact, never a torn one, and a re-run resumes.

Bad input never stops the batch: a document that cannot be ingested gets ``status="failed"`` and a
one-line reason in ``ingest-report.json``; other documents go on, earlier artifacts stay untouched.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

import pymupdf

from layoutrag.config import Settings
from layoutrag.errors import DocumentError, InputError, LayoutragError
from layoutrag.geometry import clip
from layoutrag.ingest import render
from layoutrag.ingest.artifacts import (
    DetectionRecord,
    LayoutArtifact,
    PageLayout,
    PageText,
    SpanRecord,
    TextArtifact,
    layout_artifact_path,
    load_artifact,
    save_artifact,
    text_artifact_path,
)
from layoutrag.ingest.dedup import dedup
from layoutrag.ingest.layout import BACKENDS, Detection, LayoutDetector, get_detector
from layoutrag.ingest.reading_order import order_elements
from layoutrag.ingest.text import assign_text
from layoutrag.records import Document, Element, IngestResult, Page
from layoutrag.storage import DataDir, atomic_write_json, atomic_write_text

__all__ = ["collect_pdfs", "document_key", "ingest_document", "ingest_paths", "show_page", "stage_version"]

# Bump the version of the stage whose output changes; later stages re-run, earlier artifacts are reused.
TEXT_VERSION = 1  # text layer / OCR words
# detector output, per backend (pymupdf: 2 recovered graphics, 3 tables snapped to rulings, 4 no page
# frames, 5 pictures grown over the drawing they show, 6 invisible white fills are not drawings,
# 7 a table takes a larger ruling that holds no other element)
LAYOUT_VERSIONS = {"pymupdf": 7, "yolo": 3}
BUILD_VERSION = 3  # de-dup, element text, reading order, document.json (3: stricter band joining)


def stage_version(backend: str) -> str:
    """The versions of every stage a document built with `backend` went through."""
    return f"ingest-t{TEXT_VERSION}.l{LAYOUT_VERSIONS[backend]}.b{BUILD_VERSION}"


Tick = Callable[[int], None]


# --------------------------------------------------------------------------- keys and inputs
def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _backend_tag(backend: str, settings: Settings) -> str:
    return f"yolo-c{settings.yolo_confidence:g}" if backend == "yolo" else backend


def text_key(sha: str, settings: Settings) -> str:
    return f"{sha}|text-v{TEXT_VERSION}|dpi={settings.dpi}|min={settings.text_layer_min_chars}"


def layout_key(sha: str, backend: str, settings: Settings) -> str:
    return f"{sha}|layout-v{LAYOUT_VERSIONS[backend]}|{_backend_tag(backend, settings)}|dpi={settings.dpi}"


def document_key(sha: str, backend: str, settings: Settings) -> str:
    """Content hash + stage version + layout backend + de-dup strategy + dpi."""
    return (
        f"{sha}|{stage_version(backend)}|{_backend_tag(backend, settings)}|dedup={settings.dedup_strategy}"
        f"|dpi={settings.dpi}|min={settings.text_layer_min_chars}"
    )


def collect_pdfs(paths: Sequence[Path]) -> list[Path]:
    """Files as given, folders expanded to their ``*.pdf`` files (recursive, sorted)."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() == ".pdf"))
        else:
            out.append(p)
    return out


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    line = text.splitlines()[0] if text else type(e).__name__
    return line[:300]


# --------------------------------------------------------------------------- stages
def _extract_text(doc: pymupdf.Document, settings: Settings, tick: Tick) -> TextArtifact:
    pages = []
    for i in range(doc.page_count):
        try:
            page = doc[i]
            w, h = render.page_size_pt(page)
            n_chars = render.count_text_chars(page)
            status = render.text_status(n_chars, settings)
            pt = PageText(
                page=i + 1,
                width_pt=w,
                height_pt=h,
                rotation=page.rotation % 360,
                n_chars=n_chars,
                text_status=status,
            )
            if status == "pdf_layer":
                pt.words = render.extract_words(page)
                pt.spans = [SpanRecord(**s.__dict__) for s in render.extract_spans(page)]
            else:
                from layoutrag.ingest.ocr import ocr_words

                image = render.render_page_rgb(page, settings.dpi)
                pt.words = ocr_words(image, settings.dpi, (w, h))
                pt.text_source = "ocr" if pt.words else "none"
        except Exception as e:  # one bad page never sinks the document's other pages
            pt = PageText(page=i + 1, width_pt=1.0, height_pt=1.0, error=f"text: {_one_line(e)}")
        pages.append(pt)
        tick(1)
    return TextArtifact(key="", pages=pages)


def _needs_image_fallback(detector: LayoutDetector, text: PageText | None) -> bool:
    """PyMuPDF's model reads page objects: on a scanned page (no text layer) it sees one image and
    returns nothing. Such pages are detected with the image model instead."""
    return not detector.needs_image and text is not None and text.text_status == "needs_ocr"


def _detect_layout(
    doc: pymupdf.Document,
    detector: LayoutDetector,
    settings: Settings,
    tick: Tick,
    text_pages: Sequence[PageText] | None = None,
) -> LayoutArtifact:
    pages = []
    for i in range(doc.page_count):
        try:
            page = doc[i]
            text = text_pages[i] if text_pages is not None else None
            image = render.render_page_rgb(page, settings.dpi) if detector.needs_image else None
            dets = detector.detect(page, image, settings.dpi)
            if not dets and _needs_image_fallback(detector, text):
                fallback = get_detector("yolo", confidence=settings.yolo_confidence)
                dets = fallback.detect(page, render.render_page_rgb(page, settings.dpi), settings.dpi)
            pl = PageLayout(page=i + 1, detections=[DetectionRecord(**d._asdict()) for d in dets])
        except Exception as e:
            pl = PageLayout(page=i + 1, error=f"layout: {_one_line(e)}")
        pages.append(pl)
        tick(1)
    return LayoutArtifact(key="", pages=pages)


def _round_box(box: Sequence[float], w: float, h: float) -> tuple[float, float, float, float]:
    """Round to 0.01 pt without ever leaving the page."""
    x0, y0, x1, y1 = clip(box, w, h)
    return (round(x0, 2), round(y0, 2), min(round(x1, 2), w), min(round(y1, 2), h))


def build_page(text: PageText, layout: PageLayout, *, doc_id: str, settings: Settings) -> Page:
    """De-dup, element text, reading order: cheap, recomputed from the stage artifacts every time."""
    error = text.error or layout.error
    raw = [Detection(d.label, d.source_label, d.confidence, d.bbox_pdf) for d in layout.detections]
    kept = dedup(raw, settings.dedup_strategy)
    spans = [render.Span(s.bbox_pdf, s.size, s.bold, s.n_chars) for s in text.spans]
    source = text.text_source if text.text_source in ("pdf_layer", "ocr") else "none"
    elements: list[Element] = assign_text(
        kept, text.words, spans, page=text.page, text_source=source, rotation=text.rotation
    )
    w, h = text.width_pt, text.height_pt
    elements = [e.model_copy(update={"bbox_pdf": _round_box(e.bbox_pdf, w, h)}) for e in elements]
    elements = [e for e in elements if e.bbox_pdf[2] > e.bbox_pdf[0] and e.bbox_pdf[3] > e.bbox_pdf[1]]
    return Page(
        page=text.page,
        width_pt=w,
        height_pt=h,
        rotation=text.rotation,
        text_status=text.text_status,  # type: ignore[arg-type]
        text_source=source,  # type: ignore[arg-type]
        n_chars=text.n_chars,
        n_raw_detections=len(raw),
        n_deduped=len(kept),
        elements=order_elements(elements, doc_id),
        words=text.words,
        error=error,
    )


def _doc_title(doc: pymupdf.Document, pages: Sequence[Page]) -> str:
    for p in pages[:2]:
        for e in p.elements:
            if e.label == "title" and e.text.strip():
                return " ".join(e.text.split())[:300]
    return " ".join(((doc.metadata or {}).get("title") or "").split())[:300]


# --------------------------------------------------------------------------- one document
def _load_current(data: DataDir, doc_id: str, key: str) -> Document | None:
    try:
        doc = Document.model_validate_json(data.document_json(doc_id).read_bytes())
    except (OSError, ValueError):
        return None
    if doc.key != key or not data.source_pdf(doc_id).is_file():
        return None
    return doc


def _copy_source(src: Path, dst: Path, sha: str) -> None:
    if dst.is_file() and dst.stat().st_size == src.stat().st_size and file_sha256(dst) == sha:
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(f".{dst.name}.{os.getpid()}.tmp")
    try:
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    finally:
        tmp.unlink(missing_ok=True)


def _chunk(doc: Document, data: DataDir, settings: Settings) -> int:
    try:
        from layoutrag.chunking.pipeline import chunk_and_save
    except ModuleNotFoundError as e:  # chunking not installed in this tree yet: ingest still works
        if e.name and e.name.startswith("layoutrag.chunking"):
            return 0
        raise
    try:
        return int(chunk_and_save(doc, data, settings))
    except LayoutragError as e:
        raise DocumentError(f"chunking failed: {_one_line(e)}") from None
    except Exception as e:  # noqa: BLE001 - a neighbour's bug must not crash the batch
        raise DocumentError(f"chunking failed: {type(e).__name__}: {_one_line(e)}") from None


def ingest_document(
    path: Path,
    data_root: Path,
    *,
    backend: str,
    settings: Settings,
    tick: Tick | None = None,
    sha: str | None = None,
) -> IngestResult:
    """Ingest one PDF. Never raises: failures come back as ``status="failed"`` with a one-line reason.

    `sha` is the file's content hash when the caller has already computed it (``ingest_paths``
    hashes every file to find duplicates); it is computed here otherwise."""
    t0 = time.perf_counter()
    tick = tick or (lambda _n: None)
    data = DataDir(data_root)
    result = IngestResult(path=str(path), status="failed")
    try:
        if not path.is_file():
            raise DocumentError("no such file")
        sha = sha or file_sha256(path)
        doc_id = sha[:16]
        result.doc_id = doc_id
        key = document_key(sha, backend, settings)
        current = _load_current(data, doc_id, key)
        if current is not None:
            tick(2 * current.n_pages)
            result.pages = current.n_pages
            result.elements = sum(len(p.elements) for p in current.pages)
            result.chunks = _chunk(current, data, settings)  # resumable itself; raises → failed
            result.status = "skipped"
            return result
        with render.open_pdf(path, settings) as pdf:
            document = _ingest_open(
                pdf, path, sha, doc_id, data, backend=backend, settings=settings, tick=tick
            )
        result.pages, result.elements = document.n_pages, sum(len(p.elements) for p in document.pages)
        bad = [p for p in document.pages if p.error]
        if bad:
            result.error = f"page {bad[0].page}: {bad[0].error}" + (
                f" (+{len(bad) - 1} more)" if len(bad) > 1 else ""
            )
            return result
        result.chunks = _chunk(document, data, settings)
        result.status = "ok"
    except LayoutragError as e:
        result.error = _one_line(e)
    except MemoryError:
        result.error = "out of memory"
    except Exception as e:  # noqa: BLE001 - the batch must go on; the reason is reported
        result.error = f"{type(e).__name__}: {_one_line(e)}"
    finally:
        result.seconds = round(time.perf_counter() - t0, 3)
    return result


def _ingest_open(
    pdf: pymupdf.Document,
    path: Path,
    sha: str,
    doc_id: str,
    data: DataDir,
    *,
    backend: str,
    settings: Settings,
    tick: Tick,
) -> Document:
    _copy_source(path, data.source_pdf(doc_id), sha)

    t_path, t_key = text_artifact_path(data, doc_id, settings.dpi), text_key(sha, settings)
    text = load_artifact(t_path, TextArtifact, t_key)
    if text is None:
        text = _extract_text(pdf, settings, tick)
        text.key = t_key if not any(p.error for p in text.pages) else ""
        save_artifact(t_path, text)
    else:
        tick(pdf.page_count)

    detector = get_detector(backend, confidence=settings.yolo_confidence)
    l_path, l_key = (
        layout_artifact_path(data, doc_id, _backend_tag(backend, settings), settings.dpi),
        layout_key(sha, backend, settings),
    )
    if any(_needs_image_fallback(detector, t) for t in text.pages):
        l_key += f"|scan-fallback={_backend_tag('yolo', settings)}"
    layout = load_artifact(l_path, LayoutArtifact, l_key)
    if layout is None:
        layout = _detect_layout(pdf, detector, settings, tick, text.pages)
        layout.key = l_key if not any(p.error for p in layout.pages) else ""
        save_artifact(l_path, layout)
    else:
        tick(pdf.page_count)

    pages = [
        build_page(t, lp, doc_id=doc_id, settings=settings)
        for t, lp in zip(text.pages, layout.pages, strict=True)
    ]
    document = Document(
        doc_id=doc_id,
        source_pdf=str(path),
        file_name=path.name,
        sha256=sha,
        n_pages=pdf.page_count,
        layout_backend=backend,
        dpi=settings.dpi,
        stage_version=stage_version(backend),
        title=_doc_title(pdf, pages),
        pages=pages,
        key="" if any(p.error for p in pages) else document_key(sha, backend, settings),
    )
    atomic_write_json(data.document_json(doc_id), document)
    return document


# --------------------------------------------------------------------------- batch
_TICK_QUEUE = None


def _pool_init(queue) -> None:  # noqa: ANN001 - a multiprocessing queue proxy
    global _TICK_QUEUE
    _TICK_QUEUE = queue


def _pool_worker(
    index: int, path: str, data_root: str, backend: str, settings_json: str, sha: str | None
) -> IngestResult:
    settings = Settings.model_validate_json(settings_json)

    def tick(n: int) -> None:
        if n and _TICK_QUEUE is not None:
            _TICK_QUEUE.put((index, n))

    return ingest_document(
        Path(path), Path(data_root), backend=backend, settings=settings, tick=tick, sha=sha
    )


def _page_count(path: Path) -> int:
    try:
        with pymupdf.open(path) as d:
            return d.page_count if not d.needs_pass else 0
    except Exception:
        return 0


def ingest_paths(
    paths: list[Path],
    data_root: Path,
    *,
    layout: str | None = None,
    jobs: int = 1,
    progress: bool = True,
    settings: Settings | None = None,
) -> list[IngestResult]:
    """Ingest every PDF in `paths` (files or folders) into `data_root`; one result per input file,
    in input order. Writes ``ingest-report.json``. Never raises for a bad document."""
    settings = settings or Settings()
    backend = layout or settings.layout_backend
    if backend not in BACKENDS:
        raise InputError(f"unknown layout backend {backend!r}; valid: {', '.join(BACKENDS)}")
    dedup([], settings.dedup_strategy)  # validates the strategy name before any work
    files = collect_pdfs(paths)
    if not files:
        raise InputError("no PDF files found in the given paths")
    data = DataDir(data_root)
    data.root.mkdir(parents=True, exist_ok=True)

    results: list[IngestResult | None] = [None] * len(files)
    # the same content under two names is ingested once; each file is hashed here only, the
    # document's worker gets the hash
    first_by_sha: dict[str, int] = {}
    shas: list[str | None] = [None] * len(files)
    todo: list[int] = []
    for i, f in enumerate(files):
        try:
            sha = file_sha256(f) if f.is_file() else None
        except OSError:
            sha = None
        shas[i] = sha
        if sha and sha in first_by_sha:
            results[i] = IngestResult(
                path=str(f),
                doc_id=sha[:16],
                status="skipped",
                error=f"same content as {files[first_by_sha[sha]].name}",
            )
            continue
        if sha:
            first_by_sha[sha] = i
        todo.append(i)

    page_counts = {i: _page_count(files[i]) for i in todo}
    with _Progress(progress, len(todo), 2 * sum(page_counts.values())) as bar:
        if jobs <= 1 or len(todo) <= 1:
            for i in todo:
                bar.start_doc(files[i].name)
                results[i] = ingest_document(
                    files[i],
                    data.root,
                    backend=backend,
                    settings=settings,
                    tick=lambda n, i=i: bar.pages(n, i),
                    sha=shas[i],
                )
                bar.done_doc(i, 2 * page_counts[i])
        else:
            _run_pool(files, shas, todo, page_counts, data.root, backend, settings, jobs, bar, results)

    final = [r for r in results if r is not None]
    atomic_write_text(data.report, "[\n" + ",\n".join(r.model_dump_json() for r in final) + "\n]\n")
    return final


def _run_pool(files, shas, todo, page_counts, root, backend, settings, jobs, bar, results) -> None:  # noqa: ANN001
    ctx = multiprocessing.get_context("spawn")  # no model state inherited by fork
    with ctx.Manager() as manager:
        queue = manager.Queue()
        with ProcessPoolExecutor(
            max_workers=jobs, mp_context=ctx, initializer=_pool_init, initargs=(queue,)
        ) as pool:
            futures: dict[Future, int] = {
                pool.submit(
                    _pool_worker, i, str(files[i]), str(root), backend, settings.model_dump_json(), shas[i]
                ): i
                for i in todo
            }
            pending = set(futures)
            while pending:
                while not queue.empty():
                    i, n = queue.get()
                    bar.pages(n, i)
                done = {f for f in pending if f.done()}
                for f in sorted(done, key=lambda f: futures[f]):
                    i = futures[f]
                    try:
                        results[i] = f.result()
                    except Exception as e:  # a worker that died (e.g. killed by the OS)
                        results[i] = IngestResult(
                            path=str(files[i]), status="failed", error=f"worker crashed: {_one_line(e)}"
                        )
                    bar.done_doc(i, 2 * page_counts[i])
                pending -= done
                if pending:
                    time.sleep(0.05)


class _Progress:
    """Rich progress with two bars (documents, pages); a no-op when disabled."""

    def __init__(self, enabled: bool, n_docs: int, n_page_steps: int) -> None:
        self.enabled = enabled
        self.n_docs, self.n_steps = n_docs, n_page_steps
        self._steps: dict[int, int] = {}

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                transient=False,
            )
            self.progress.__enter__()
            self.docs_task = self.progress.add_task("documents", total=self.n_docs)
            # each page counts twice: text stage + layout stage
            self.pages_task = self.progress.add_task("page steps", total=self.n_steps)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.progress.__exit__(None, None, None)

    def start_doc(self, name: str) -> None:
        if self.enabled:
            self.progress.update(self.docs_task, description=f"documents ({name[:40]})")

    def pages(self, n: int, doc: int) -> None:
        """`n` page steps done for document `doc` (steps are counted per document, so a document's
        remainder — pages it skipped — can be added exactly once when it finishes)."""
        self._steps[doc] = self._steps.get(doc, 0) + n
        if self.enabled:
            self.progress.advance(self.pages_task, n)

    def done_doc(self, doc: int, steps: int) -> None:
        rest = steps - self._steps.pop(doc, 0)
        if self.enabled:
            if rest > 0:
                self.progress.advance(self.pages_task, rest)
            self.progress.advance(self.docs_task, 1)


# --------------------------------------------------------------------------- show
def show_page(pdf_or_doc: str, *, page: int, out: Path, data: Path, layout: str | None = None) -> None:
    """Draw a page's detected elements over it → PNG (see :mod:`layoutrag.ingest.show`)."""
    from layoutrag.ingest.show import show_page as draw  # lazy: show builds on this module

    draw(pdf_or_doc, page=page, out=out, data=data, layout=layout)
