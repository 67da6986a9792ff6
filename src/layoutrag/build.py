"""The orchestrator: the one place that runs ingest -> chunk -> index for a data dir.

    build(paths, data_root, settings=...)      ingest + chunk every PDF (a process pool with jobs > 1),
                                               write ingest-report.json, then build the index
    ingest_and_chunk(...)                      the same without the index step
    reindex(data_root, settings=...)           a new index generation from what is stored
    import_chunks(file, data_root, settings=...)   chunk records made elsewhere, then the index
    build_specs(data_root)                     the spec stage alone over every chunked document

Every front (CLI, `layoutrag.LayoutRAG`, demo, evaluation variants, test fixtures) calls these;
the stages below never call each other upwards (ingest knows nothing of chunking, chunking nothing
of the index). Per document the job is ``ingest_document`` then ``chunk_and_save``, in the same
worker, so a document's chunks are written as soon as it is ingested; then the spec stage
(``specs_and_save``: chunks.json -> specs.json, parametric values with their cell boxes).

Bad input never stops the batch: a document that cannot be ingested or chunked gets
``status="failed"`` and a one-line reason in ``ingest-report.json``; other documents go on.
"""

from __future__ import annotations

import functools
import multiprocessing
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from layoutrag.config import Settings, load_settings
from layoutrag.errors import DocumentError, InputError, LayoutragError
from layoutrag.ingest.dedup import dedup
from layoutrag.ingest.layout import BACKENDS
from layoutrag.ingest.pipeline import collect_pdfs, ingest_document
from layoutrag.ingest.stages import Tick, file_sha256, one_line
from layoutrag.pdf import page_count
from layoutrag.records import Document, IngestResult
from layoutrag.storage import DataDir, atomic_write_text

__all__ = ["BuildResult", "build", "build_specs", "chunk_document", "spec_document", "import_chunks", "ingest_and_chunk", "process_document", "reindex"]


@dataclass
class BuildResult:
    results: list[IngestResult]
    index: Any = None  # layoutrag.index.store.IndexStats when the index was built
    problems: list[tuple[int, str]] = field(default_factory=list)  # import-chunks: bad lines
    imported: int = 0  # import-chunks: chunks stored

    @property
    def failed(self) -> list[IngestResult]:
        return [r for r in self.results if r.status == "failed"]


# --------------------------------------------------------------------------- one document
def chunk_document(doc: Document, data: DataDir, settings: Settings) -> int:
    """The chunking stage for one ingested document, then its spec stage (each resumable itself);
    DocumentError on failure."""
    from layoutrag.chunking.pipeline import chunk_and_save

    try:
        n = int(chunk_and_save(doc, data, settings))
    except LayoutragError as e:
        raise DocumentError(f"chunking failed: {one_line(e)}") from None
    except Exception as e:  # noqa: BLE001 - a neighbour's bug must not crash the batch
        raise DocumentError(f"chunking failed: {type(e).__name__}: {one_line(e)}") from None
    spec_document(doc.doc_id, data)
    return n


def spec_document(doc_id: str, data: DataDir) -> int:
    """The spec stage for one chunked document (chunks.json -> specs.json, resumable); DocumentError
    on failure."""
    from layoutrag.chunking.specs import specs_and_save

    try:
        return specs_and_save(data, doc_id)
    except LayoutragError as e:
        raise DocumentError(f"spec stage failed: {one_line(e)}") from None
    except Exception as e:  # noqa: BLE001 - a neighbour's bug must not crash the batch
        raise DocumentError(f"spec stage failed: {type(e).__name__}: {one_line(e)}") from None


def build_specs(data_root: Path) -> tuple[int, int, list[tuple[str, str]]]:
    """Run the spec stage over every chunked document of a data dir (documents chunked before the
    stage existed, or after a change of it): (documents, values, [(doc_id, error)])."""
    data = DataDir(data_root)
    n_docs = n_values = 0
    errors: list[tuple[str, str]] = []
    for doc_id in data.doc_ids():
        if not data.chunks_json(doc_id).exists():
            continue
        try:
            n_values += spec_document(doc_id, data)
            n_docs += 1
        except DocumentError as e:
            errors.append((doc_id, one_line(e)))
    return n_docs, n_values, errors


def process_document(
    path: Path, data_root: Path, *, backend: str, settings: Settings, tick: Tick | None = None, sha: str | None = None
) -> IngestResult:
    """Ingest then chunk one PDF. Never raises: failures come back as ``status="failed"``."""
    t0 = time.perf_counter()
    result, document = ingest_document(path, data_root, backend=backend, settings=settings, tick=tick, sha=sha)
    if document is not None and result.status != "failed":
        status, result.status = result.status, "failed"
        try:
            result.chunks = chunk_document(document, DataDir(data_root), settings)
            result.status = status
        except LayoutragError as e:
            result.error = one_line(e)
    result.seconds = round(time.perf_counter() - t0, 3)
    return result


# --------------------------------------------------------------------------- batch
def ingest_and_chunk(
    paths: Sequence[Path],
    data_root: Path,
    *,
    settings: Settings | None = None,
    layout: str | None = None,
    jobs: int = 1,
    progress: bool = True,
) -> list[IngestResult]:
    """Ingest and chunk every PDF in `paths` (files or folders) into `data_root`; one result per
    input file, in input order. Writes ``ingest-report.json``. Never raises for a bad document.
    `settings` None: the defaults and the environment (`load_settings()`)."""
    settings = settings or load_settings()
    backend = layout or settings.layout.layout_backend
    if backend not in BACKENDS:
        raise InputError(f"unknown layout backend {backend!r}; valid: {', '.join(BACKENDS)}")
    dedup([], settings.layout.dedup_strategy)  # validates the strategy name before any work
    files = collect_pdfs(list(paths))
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

    page_counts = {i: page_count(files[i]) for i in todo}
    with _Progress(progress, len(todo), 2 * sum(page_counts.values())) as bar:
        if jobs <= 1 or len(todo) <= 1:
            for i in todo:
                bar.start_doc(files[i].name)
                tick: Tick = functools.partial(bar.pages, doc=i)
                results[i] = process_document(
                    files[i],
                    data.root,
                    backend=backend,
                    settings=settings,
                    tick=tick,
                    sha=shas[i],
                )
                bar.done_doc(i, 2 * page_counts[i])
        else:
            _run_pool(files, shas, todo, page_counts, data.root, backend, settings, jobs, bar, results)

    final = [r for r in results if r is not None]
    atomic_write_text(data.report, "[\n" + ",\n".join(r.model_dump_json() for r in final) + "\n]\n")
    return final


def build(
    paths: Sequence[Path],
    data_root: Path,
    *,
    settings: Settings | None = None,
    layout: str | None = None,
    jobs: int = 1,
    progress: bool = True,
    index: bool = True,
) -> BuildResult:
    """Ingest and chunk `paths`, then (unless `index=False`) build and swap in a new index generation."""
    settings = settings or load_settings()
    results = ingest_and_chunk(paths, data_root, settings=settings, layout=layout, jobs=jobs, progress=progress)
    stats = reindex(data_root, settings=settings, progress=progress) if index else None
    return BuildResult(results=results, index=stats)


def reindex(data_root: Path, *, settings: Settings | None = None, progress: bool = False, require_documents: bool = False):  # noqa: ANN201
    """A new index generation from every stored document's chunks (only changed texts re-embedded)."""
    from layoutrag.index.store import build_index

    return build_index(data_root, settings=settings, progress=progress, require_documents=require_documents)


def import_chunks(file: Path, data_root: Path, *, settings: Settings | None = None, progress: bool = False) -> BuildResult:
    """Store chunk records made elsewhere (bad lines reported and skipped), then rebuild the index."""
    from layoutrag.index.importer import import_chunks_file

    n, problems = import_chunks_file(file, data_root, progress=progress)
    stats = reindex(data_root, settings=settings, progress=progress) if n else None
    return BuildResult(results=[], index=stats, problems=problems, imported=n)


# --------------------------------------------------------------------------- process pool
_TICK_QUEUE = None


def _pool_init(queue) -> None:  # noqa: ANN001 - a multiprocessing queue proxy
    global _TICK_QUEUE
    _TICK_QUEUE = queue


def _pool_worker(
    index: int, path: str, data_root: str, backend: str, settings: Settings, sha: str | None
) -> IngestResult:
    def tick(n: int) -> None:
        if n and _TICK_QUEUE is not None:
            _TICK_QUEUE.put((index, n))

    return process_document(Path(path), Path(data_root), backend=backend, settings=settings, tick=tick, sha=sha)


def _run_pool(files, shas, todo, page_counts, root, backend, settings, jobs, bar, results) -> None:  # noqa: ANN001
    ctx = multiprocessing.get_context("spawn")  # no model state inherited by fork
    with ctx.Manager() as manager:
        queue = manager.Queue()
        with ProcessPoolExecutor(
            max_workers=jobs, mp_context=ctx, initializer=_pool_init, initargs=(queue,)
        ) as pool:
            futures: dict[Future, int] = {
                pool.submit(_pool_worker, i, str(files[i]), str(root), backend, settings, shas[i]): i
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
                            path=str(files[i]), status="failed", error=f"worker crashed: {one_line(e)}"
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


