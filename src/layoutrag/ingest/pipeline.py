"""Ingest one PDF: ``docs/{doc_id}/document.json`` (+ the source copy and the stage artifacts).

    hash → limits/open → copy source.pdf → text (text layer, OCR where none) → layout (backend)
    → de-dup → element text → reading order → document.json

The stages themselves are :mod:`layoutrag.ingest.stages`; running many documents, chunking them
and indexing them is the orchestrator's (:mod:`layoutrag.build`). Nothing here imports a later stage.

Resumability: ``document.json`` carries a key (content sha256 + stage version + layout backend +
de-dup strategy + dpi [+ YOLO confidence]); a document whose key matches is ``skipped``. The text
and layout stages keep their own keyed artifacts (:mod:`layoutrag.ingest.artifacts`), so changing
the backend re-runs layout only. Every file is written atomically (temp + rename), so a ``kill -9``
leaves either the old or the new artifact, never a torn one, and a re-run resumes.

A document that cannot be ingested comes back with ``status="failed"`` and a one-line reason;
earlier artifacts stay untouched.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pymupdf

from layoutrag.config import Settings
from layoutrag.errors import DocumentError, LayoutragError
from layoutrag.ingest.artifacts import (
    LayoutArtifact,
    TextArtifact,
    layout_artifact_path,
    load_artifact,
    save_artifact,
    text_artifact_path,
)
from layoutrag.ingest.layout import get_detector
from layoutrag.ingest.stages import (
    Tick,
    backend_tag,
    build_page,
    detect_layout,
    doc_title,
    document_key,
    extract_text,
    file_sha256,
    has_scanned_pages,
    layout_key,
    one_line,
    scan_key,
    stage_version,
    text_key,
)
from layoutrag.pdf import open_pdf
from layoutrag.records import Document, IngestResult
from layoutrag.storage import DataDir, atomic_write_json, path_text

__all__ = ["absolute_path", "collect_pdfs", "collect_sources", "ingest_document", "not_a_file"]


def collect_pdfs(paths: Sequence[Path]) -> list[Path]:
    """Files as given, folders expanded to their ``*.pdf`` entries (recursive, sorted). An entry
    named ``*.pdf`` that is not a regular file (a FIFO, a socket, a dangling symlink) is kept, so
    its ingest reports why it was not read instead of it being skipped silently."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.suffix.lower() == ".pdf" and not f.is_dir()))
        else:
            out.append(p)
    return out


def collect_sources(paths: Sequence[Path]) -> list[tuple[Path, str]]:
    """:func:`collect_pdfs` with the name each file is served under: its path relative to the folder
    given (posix separators), or its file name when the file itself was given."""
    out: list[tuple[Path, str]] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend((f, path_text(f.relative_to(p).as_posix())) for f in collect_pdfs([p]))
        else:
            out.append((p, path_text(p.name)))
    return out


def absolute_path(path: Path) -> str:
    """The absolute path as given (symlinks not resolved), as valid UTF-8 text."""
    return path_text(os.path.abspath(path))


def not_a_file(path: Path) -> str | None:
    """Why `path` cannot be read as a PDF file (None when it is a regular file)."""
    if path.is_file():
        return None
    if path.is_symlink() and not path.exists():
        return "broken symbolic link (its target does not exist)"
    if not path.exists():
        return "no such file"
    if path.is_fifo():
        return "not a regular file (a FIFO / named pipe)"
    if path.is_dir():
        return "is a directory"
    return "not a regular file (a socket or device)"


def _load_current(data: DataDir, doc_id: str, key: Callable[[Document], str]) -> Document | None:
    """The stored document when its key is the one `key` gives for it (the key depends on whether
    the document has scanned pages), and its source copy is there; else None."""
    try:
        doc = Document.model_validate_json(data.document_json(doc_id).read_bytes())
    except (OSError, ValueError):
        return None
    if doc.key != key(doc) or not data.source_pdf(doc_id).is_file():
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


def ingest_document(
    path: Path,
    data_root: Path,
    *,
    backend: str,
    settings: Settings,
    tick: Tick | None = None,
    sha: str | None = None,
    name: str | None = None,
) -> tuple[IngestResult, Document | None]:
    """Ingest one PDF. Never raises: failures come back as ``status="failed"`` with a one-line reason.
    Returns the result (``ok``, or ``skipped`` when the stored document is current) and the document
    (None when there is none to chunk).

    `sha` is the file's content hash when the caller has already computed it (the orchestrator
    hashes every file to find duplicates); it is computed here otherwise. `name` is what the
    document's hits show as `source_pdf` (default: the file name); the absolute path is kept in
    `Document.source_path`, which is never served."""
    tick = tick or (lambda _n: None)
    data = DataDir(data_root)
    result = IngestResult(path=path_text(path), status="failed")
    try:
        if (why := not_a_file(path)) is not None:
            raise DocumentError(why)
        sha = sha or file_sha256(path)
        doc_id = sha[:16]
        result.doc_id = doc_id
        name = name or path_text(path.name)
        current = _load_current(
            data, doc_id, lambda d: document_key(sha, backend, settings, scanned=has_scanned_pages(d.pages))
        )
        if current is not None and (current.source_path, current.source_pdf) != (absolute_path(path), name):
            # the same content under another path: the record follows the file
            current = current.model_copy(update={"source_path": absolute_path(path), "source_pdf": name})
            atomic_write_json(data.document_json(doc_id), current)
        if current is not None:
            tick(2 * current.n_pages)
            result.pages = current.n_pages
            result.elements = sum(len(p.elements) for p in current.pages)
            result.status = "skipped"
            return result, current
        with open_pdf(path, settings) as pdf:
            repaired = bool(pdf.is_repaired)
            document = _ingest_open(
                pdf, path, sha, doc_id, data, backend=backend, settings=settings, tick=tick, name=name
            )
        result.pages, result.elements = document.n_pages, sum(len(p.elements) for p in document.pages)
        bad = [p for p in document.pages if p.error]
        if bad:
            result.error = f"page {bad[0].page}: {bad[0].error}" + (
                f" (+{len(bad) - 1} more)" if len(bad) > 1 else ""
            )
            return result, None
        if repaired:
            empty = [p.page for p in document.pages if not p.elements]
            if len(empty) == document.n_pages:
                data.document_json(doc_id).unlink(missing_ok=True)  # not a current document: a re-run says it again
                raise DocumentError(
                    f"damaged PDF (truncated?): MuPDF repaired it and none of its {document.n_pages} pages has content"
                )
            result.warning = repaired_warning(empty, document.n_pages)
        result.status = "ok"
        return result, document
    except LayoutragError as e:
        result.error = one_line(e)
    except MemoryError:
        result.error = "out of memory"
    except Exception as e:  # noqa: BLE001 - the batch must go on; the reason is reported
        result.error = f"{type(e).__name__}: {one_line(e)}"
    return result, None


def repaired_warning(empty: list[int], n_pages: int) -> str:
    """The ingest report's line for a damaged file MuPDF repaired (a broken cross-reference table, a
    truncated file): which pages came out empty, as far as layout detection can tell."""
    if not empty:
        return "damaged PDF repaired by MuPDF: every page has content; check them against the source"
    return f"damaged PDF repaired by MuPDF: {len(empty)} of {n_pages} pages have no content (pages {page_ranges(empty)})"


def page_ranges(pages: list[int]) -> str:
    """1, 2, 3, 5, 7, 8 -> "1-3, 5, 7-8"."""
    runs: list[list[int]] = []
    for p in sorted(pages):
        if runs and p == runs[-1][-1] + 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


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
    name: str,
) -> Document:
    _copy_source(path, data.source_pdf(doc_id), sha)

    t_path, t_key = text_artifact_path(data, doc_id, settings.render.dpi), text_key(sha, settings)
    text = load_artifact(t_path, TextArtifact, t_key)
    if text is None:
        text = extract_text(pdf, settings, tick)
        text.key = t_key if not any(p.error for p in text.pages) else ""
        save_artifact(t_path, text)
    else:
        tick(pdf.page_count)

    detector = get_detector(backend, confidence=settings.layout.yolo_confidence)
    l_path, l_key = (
        layout_artifact_path(data, doc_id, backend_tag(backend, settings), settings.render.dpi),
        layout_key(sha, backend, settings),
    )
    l_key += scan_key(detector, text.pages, settings)
    layout = load_artifact(l_path, LayoutArtifact, l_key)
    if layout is None:
        layout = detect_layout(pdf, detector, settings, tick, text.pages)
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
        source_pdf=name,
        source_path=absolute_path(path),
        file_name=path_text(path.name),
        sha256=sha,
        n_pages=pdf.page_count,
        layout_backend=backend,
        dpi=settings.render.dpi,
        stage_version=stage_version(backend),
        title=doc_title(pdf, pages),
        pages=pages,
        key=""
        if any(p.error for p in pages)
        else document_key(sha, backend, settings, scanned=has_scanned_pages(pages)),
    )
    atomic_write_json(data.document_json(doc_id), document)
    return document
