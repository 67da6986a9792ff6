"""The orchestrator: the one place that runs ingest -> chunk -> index for a data dir.

    build(paths, data_root, settings=...)      ingest + chunk every PDF (a process pool with jobs > 1),
                                               write ingest-report.json, then build the index
    ingest_and_chunk(...)                      the same without the index step
    reindex(data_root, settings=...)           a new index generation from what is stored
    import_chunks(file, data_root, settings=...)   chunk records made elsewhere, then the index
    build_specs(data_root)                     the spec stage alone over every chunked or imported document

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
import json
import multiprocessing
import re
import shutil
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from layoutrag.config import Settings, load_settings
from layoutrag.errors import DocumentError, InputError, LayoutragError, StorageError, os_error_line
from layoutrag.ingest.dedup import dedup
from layoutrag.ingest.layout import BACKENDS
from layoutrag.ingest.pipeline import absolute_path, collect_sources, ingest_document
from layoutrag.ingest.stages import Tick, file_sha256, one_line
from layoutrag.pdf import page_count
from layoutrag.records import DocChunks, Document, IngestResult
from layoutrag.storage import DataDir, atomic_write_json, atomic_write_text, check_id, path_text

__all__ = [
    "BuildResult",
    "build",
    "build_specs",
    "chunk_document",
    "import_chunks",
    "ingest_and_chunk",
    "process_document",
    "reindex",
    "spec_document",
    "remove_documents",
    "stored_sources",
]


@dataclass
class BuildResult:
    results: list[IngestResult]
    index: Any = None  # layoutrag.index.store.IndexStats when the index was built
    problems: list[tuple[int, str]] = field(default_factory=list)  # import-chunks: bad lines
    imported: int = 0  # import-chunks: chunks stored
    notes: list[str] = field(default_factory=list)  # one line each, for the user (e.g. --jobs capped)
    removed: list[str] = field(default_factory=list)  # doc ids removed (older revisions, pruned, `remove`)
    kept_revisions: list[str] = field(default_factory=list)  # older revisions kept and marked

    @property
    def failed(self) -> list[IngestResult]:
        return [r for r in self.results if r.status == "failed"]

    def counts(self) -> tuple[int, int, int, int]:
        """(ingested, skipped, failed, ingested with a warning) - `status_counts` of the results."""
        return status_counts(self.results)


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
    i_docs, i_values, i_errors = import_specs(data)
    return n_docs + i_docs, n_values + i_values, errors + i_errors


def import_specs(data: DataDir) -> tuple[int, int, list[tuple[str, str]]]:
    """The spec stage over the imported documents that are not also ingested (imported/*.json ->
    imported/specs/*.json; unchanged ones skipped): (documents, values, [(doc_id, error)])."""
    from layoutrag.chunking.specs import imported_specs_and_save, load_doc_specs

    n_docs = n_values = 0
    errors: list[tuple[str, str]] = []
    for doc_id in data.imported_ids():
        if data.doc_dir(doc_id).is_dir():
            continue  # ingested here too: the ingested document's specs answer
        try:
            n = imported_specs_and_save(data, doc_id)
            n_values += n if n >= 0 else len(load_doc_specs(data, doc_id).specs)
            n_docs += 1
        except Exception as e:  # noqa: BLE001 - one bad record must not stop the others
            errors.append((doc_id, f"spec stage failed: {one_line(e)}"))
    return n_docs, n_values, errors


def process_document(
    path: Path,
    data_root: Path,
    *,
    backend: str,
    settings: Settings,
    tick: Tick | None = None,
    sha: str | None = None,
    name: str | None = None,
) -> IngestResult:
    """Ingest then chunk one PDF. Never raises: failures come back as ``status="failed"``."""
    t0 = time.perf_counter()
    result, document = ingest_document(
        path, data_root, backend=backend, settings=settings, tick=tick, sha=sha, name=name
    )
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
WORKER_MEMORY_MB = 1900  # a worker's peak RSS on scanned pages (README, Benchmarks: 1,864 MB with scan_layout yolo+ocr)


def cap_jobs(jobs: int) -> tuple[int, str | None]:
    """`jobs` capped by the cores and by the memory available (one worker per WORKER_MEMORY_MB);
    the note says why when it was capped."""
    import os

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    mem_mb = _available_memory_mb()
    by_mem = max(1, mem_mb // WORKER_MEMORY_MB) if mem_mb else jobs
    n = max(1, min(jobs, cores, by_mem))
    if n >= jobs:
        return max(1, jobs), None
    why = f"{cores} cores" + (f", {mem_mb / 1024:.1f} GB available at ~{WORKER_MEMORY_MB / 1024:.1f} GB a worker" if mem_mb else "")
    return n, f"--jobs {jobs} capped to {n} ({why})"


def _available_memory_mb() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def ingest_and_chunk(
    paths: Sequence[Path],
    data_root: Path,
    *,
    settings: Settings | None = None,
    layout: str | None = None,
    jobs: int = 1,
    progress: bool = True,
    executor: str | None = None,
) -> list[IngestResult]:
    """Ingest and chunk every PDF in `paths` (files or folders) into `data_root`; one result per
    input file, in input order. Writes ``ingest-report.json``. Never raises for a bad document.
    `settings` None: the defaults and the environment (`load_settings()`). `jobs` is capped by the
    cores and the memory available (:func:`cap_jobs`)."""
    settings = settings or load_settings()
    jobs, _ = cap_jobs(jobs)
    executor = executor or settings.executor.kind
    if executor not in ("local", "ray"):
        raise InputError(f"unknown executor {executor!r}; valid: local, ray")
    backend = layout or settings.layout.layout_backend
    if backend not in BACKENDS:
        raise InputError(f"unknown layout backend {backend!r}; valid: {', '.join(BACKENDS)}")
    dedup([], settings.layout.dedup_strategy)  # validates the strategy name before any work
    sources = collect_sources(list(paths))
    files = [f for f, _ in sources]
    names = [n for _, n in sources]
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
                path=path_text(f),
                doc_id=sha[:16],
                status="skipped",
                error=f"same content as {path_text(files[first_by_sha[sha]].name)}",
            )
            continue
        if sha:
            first_by_sha[sha] = i
        todo.append(i)

    page_counts = {i: page_count(files[i]) for i in todo}
    with _Progress(progress, len(todo), 2 * sum(page_counts.values())) as bar:
        if executor == "ray" and todo:
            _run_ray(files, shas, todo, page_counts, data.root, backend, settings, bar, results)
        elif jobs <= 1 or len(todo) <= 1:
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
                    name=names[i],
                )
                bar.done_doc(i, 2 * page_counts[i])
        else:
            _run_pool(files, shas, names, todo, page_counts, data.root, backend, settings, jobs, bar, results)

    final = [r for r in results if r is not None]
    try:
        atomic_write_text(data.report, "[\n" + ",\n".join(r.model_dump_json() for r in final) + "\n]\n")
    except OSError as e:
        raise StorageError(f"writing the ingest report failed: {os_error_line(e)} ({summary(final)})") from None
    return final


def status_counts(results: Sequence[IngestResult]) -> tuple[int, int, int, int]:
    """(ingested, skipped, failed, ingested with a warning): what `summary` and the CLI's last line count."""
    ok = sum(r.status == "ok" for r in results)
    skipped = sum(r.status == "skipped" for r in results)
    failed = sum(r.status == "failed" for r in results)
    warned = sum(bool(r.warning) and r.status == "ok" for r in results)
    return ok, skipped, failed, warned


def summary(results: Sequence[IngestResult], limit: int = 3) -> str:
    """One line: counts by status and the first failures with their reasons."""
    ok, skipped, n_failed, warned = status_counts(results)
    failed = [r for r in results if r.status == "failed"]
    line = f"{ok} ingested" + (f" ({warned} with a warning)" if warned else "") + f", {skipped} skipped, {n_failed} failed"
    if failed:
        shown = "; ".join(f"{Path(r.path).name}: {r.error}" for r in failed[:limit])
        line += f": {shown}" + (f"; +{len(failed) - limit} more" if len(failed) > limit else "")
    return line


def build(
    paths: Sequence[Path],
    data_root: Path,
    *,
    settings: Settings | None = None,
    layout: str | None = None,
    jobs: int = 1,
    progress: bool = True,
    index: bool = True,
    keep_revisions: bool = False,
    prune: bool = False,
    executor: str | None = None,
) -> BuildResult:
    """Ingest and chunk `paths`, then (unless `index=False`) build and swap in a new index generation.

    Revisions: a document id is its content hash, so an updated PDF under the same path is a new
    document. By default the previous revision of every path ingested here is removed (left out of
    the new generation, then its artifacts deleted once that generation is live); with
    `keep_revisions` it stays searchable, marked ``superseded_by`` the new one (document and card).
    `prune` also removes every document whose source file is gone. Removal needs the index swap:
    with `index=False` nothing is removed (a note says so)."""
    settings = settings or load_settings()
    jobs, note = cap_jobs(jobs)
    notes = [note] if note else []
    results = ingest_and_chunk(
        paths, data_root, settings=settings, layout=layout, jobs=jobs, progress=progress, executor=executor
    )
    data = DataDir(data_root)
    older, kept = _older_revisions(data, results, keep=keep_revisions)
    drop = sorted(set(older) | (set(_missing_sources(data)) if prune else set()))
    if not index:
        if drop:
            notes.append(f"{len(drop)} older or pruned documents not removed: --no-index leaves the live index as it is")
        return BuildResult(results=results, notes=notes, kept_revisions=kept)
    try:
        stats = reindex(data_root, settings=settings, progress=progress, exclude=drop)
    except StorageError as e:
        raise StorageError(
            f"{e} (documents: {summary(results)}; their artifacts and ingest-report.json are kept: free "
            "space and run `layoutrag index`)"
        ) from None
    _delete_documents(data, drop)
    return BuildResult(results=results, index=stats, notes=notes, removed=drop, kept_revisions=kept)


def remove_documents(
    data_root: Path, doc_ids: Sequence[str], *, settings: Settings | None = None, progress: bool = False
) -> BuildResult:
    """Remove stored documents: a new index generation without them goes live first, then their
    artifacts (docs/{id}/, imported/{id}.json) are deleted, so a reader never meets a half-removed one."""
    ids = sorted(set(doc_ids))
    stats = reindex(data_root, settings=settings, progress=progress, exclude=ids)
    _delete_documents(DataDir(data_root), ids)
    return BuildResult(results=[], index=stats, removed=ids)


def stored_sources(data: DataDir) -> dict[str, tuple[str, str]]:
    """doc id -> (absolute source path, superseded_by) of every ingested document; the path is ""
    when not known (an older document whose record holds none)."""
    out: dict[str, tuple[str, str]] = {}
    for doc_id in data.doc_ids():
        head = _document_head(data.document_json(doc_id))
        if head is not None:
            out[doc_id] = head
    return out


_HEAD_RE = {k: re.compile(rf'"{k}":("(?:[^"\\]|\\.)*")') for k in ("source_path", "source_pdf", "superseded_by")}


def _document_head(path: Path) -> tuple[str, str] | None:
    """(source path, superseded_by) read off the start of a document.json (these fields come before
    the pages, so a large document is not parsed whole)."""
    try:
        with path.open("rb") as f:
            head = f.read(16384).decode("utf-8", "replace")
    except OSError:
        return None
    found = {k: json.loads(m.group(1)) for k, rx in _HEAD_RE.items() if (m := rx.search(head))}
    source = found.get("source_path") or found.get("source_pdf", "")
    return (source if Path(source).is_absolute() else "", found.get("superseded_by", ""))


def _older_revisions(data: DataDir, results: list[IngestResult], *, keep: bool) -> tuple[list[str], list[str]]:
    """Stored documents ingested earlier from a path this run ingested, under another content hash.
    Without `keep` they are returned for removal; with it they are marked superseded (returned second)."""
    current: dict[str, str] = {}
    for r in results:
        if r.doc_id and r.status in ("ok", "skipped"):
            current[absolute_path(Path(r.path))] = r.doc_id
    if not current:
        return [], []
    stored = stored_sources(data)
    older: list[str] = []
    for doc_id, (source, superseded) in stored.items():
        newer = current.get(source) if source else None
        if doc_id in current.values():
            if superseded:  # ingested again as the current revision: no longer superseded
                _mark_superseded(data, doc_id, "")
            continue
        if newer is None or newer == doc_id:
            continue
        older.append(doc_id)
        if keep and superseded != newer:
            _mark_superseded(data, doc_id, newer)
    return ([], older) if keep else (older, [])


def _mark_superseded(data: DataDir, doc_id: str, newer: str) -> None:
    """Set (or clear) the revision mark on a stored document and its card (no re-chunking: the
    mark is not part of the chunks' key)."""
    try:
        doc = Document.model_validate_json(data.document_json(doc_id).read_bytes())
        atomic_write_json(data.document_json(doc_id), doc.model_copy(update={"superseded_by": newer}))
        if data.chunks_json(doc_id).is_file():
            dc = DocChunks.model_validate_json(data.chunks_json(doc_id).read_bytes())
            dc.card = dc.card.model_copy(update={"superseded_by": newer})
            atomic_write_json(data.chunks_json(doc_id), dc)
    except (OSError, ValueError):
        pass  # an unreadable record is left as it is; the next ingest rebuilds it


def _missing_sources(data: DataDir) -> list[str]:
    """Ingested documents whose source file is gone (documents with no known path are kept)."""
    return sorted(d for d, (source, _) in stored_sources(data).items() if source and not Path(source).is_file())


def _delete_documents(data: DataDir, doc_ids: Sequence[str]) -> None:
    for doc_id in doc_ids:
        shutil.rmtree(data.doc_dir(doc_id), ignore_errors=True)
        (data.imported / f"{check_id(doc_id, 'document')}.json").unlink(missing_ok=True)
        (data.imported / "specs" / f"{doc_id}.json").unlink(missing_ok=True)


def reindex(
    data_root: Path,
    *,
    settings: Settings | None = None,
    progress: bool = False,
    require_documents: bool = False,
    exclude: Sequence[str] = (),
):  # noqa: ANN201
    """A new index generation from every stored document's chunks (only changed texts re-embedded),
    but the doc ids in `exclude`."""
    from layoutrag.index.store import build_index

    try:
        return build_index(
            data_root, settings=settings, progress=progress, require_documents=require_documents, exclude=exclude
        )
    except OSError as e:  # a full disk: the stage and the path, one line; the live index is unchanged
        raise StorageError(f"index build failed: {os_error_line(e)}; the live index is unchanged") from None


def import_chunks(file: Path, data_root: Path, *, settings: Settings | None = None, progress: bool = False) -> BuildResult:
    """Store chunk records made elsewhere (bad lines reported and skipped), then rebuild the index."""
    from layoutrag.index.importer import import_chunks_file

    n, problems = import_chunks_file(file, data_root, progress=progress)
    if n:
        import_specs(DataDir(data_root))  # a document whose spec stage fails keeps its chunks, without values
    stats = reindex(data_root, settings=settings, progress=progress) if n else None
    return BuildResult(results=[], index=stats, problems=problems, imported=n)


# --------------------------------------------------------------------------- process pool
_TICK_QUEUE = None


def die_with_parent(parent_pid: int) -> None:
    """Make this (child) process die when `parent_pid` does: the kernel's parent-death signal on
    Linux (``prctl(PR_SET_PDEATHSIG, SIGKILL)``), and everywhere a daemon thread that exits the
    process once its parent pid changes (re-parented to init: the parent is gone). A worker left
    behind would keep writing queued documents and race with a re-run."""
    import os
    import sys
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # no prctl: the watchdog below still works
            pass
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


def _pool_init(queue, parent_pid: int, threads: int = 0) -> None:  # noqa: ANN001 - a multiprocessing queue
    global _TICK_QUEUE
    die_with_parent(parent_pid)
    _TICK_QUEUE = queue
    if threads:
        from layoutrag.ingest.layout import set_model_threads

        set_model_threads(threads)  # the workers share the cores: no oversubscribed thread pools


def _pool_worker(
    index: int, path: str, data_root: str, backend: str, settings: Settings, sha: str | None, name: str
) -> IngestResult:
    def tick(n: int) -> None:
        if n and _TICK_QUEUE is not None:
            _TICK_QUEUE.put((index, n))

    return process_document(
        Path(path), Path(data_root), backend=backend, settings=settings, tick=tick, sha=sha, name=name
    )


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Interrupted (Ctrl-C, SIGTERM): drop the queued documents and stop the running ones now,
    instead of letting `shutdown(wait=True)` work through the whole queue."""
    pool.shutdown(wait=False, cancel_futures=True)
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=5)
        if proc.is_alive():
            proc.kill()


def largest_first(todo: Sequence[int], page_counts: dict[int, int]) -> list[int]:
    """The order documents are handed to parallel workers: most pages first, input order among
    equals. A long document started last would leave the other workers idle while it finishes
    (longest-processing-time-first scheduling: were time proportional to pages, the run would end
    within 4/3 of the best order's time). Results stay in input order whatever the order of work."""
    return sorted(todo, key=lambda i: -page_counts.get(i, 0))


def _run_pool(files, shas, names, todo, page_counts, root, backend, settings, jobs, bar, results) -> None:  # noqa: ANN001
    import os
    import queue as queue_mod

    ctx = multiprocessing.get_context("spawn")  # no model state inherited by fork
    # a plain queue handed to each worker at its start (no Manager process that could outlive us)
    ticks = ctx.Queue()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    threads = max(1, cores // jobs)
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=ctx, initializer=_pool_init, initargs=(ticks, os.getpid(), threads)
    )
    try:
        futures: dict[Future, int] = {
            pool.submit(_pool_worker, i, str(files[i]), str(root), backend, settings, shas[i], names[i]): i
            for i in largest_first(todo, page_counts)
        }
        pending = set(futures)
        while pending:
            while True:
                try:
                    i, n = ticks.get_nowait()
                except queue_mod.Empty:
                    break
                bar.pages(n, i)
            done = {f for f in pending if f.done()}
            for f in sorted(done, key=lambda f: futures[f]):
                i = futures[f]
                try:
                    results[i] = f.result()
                except Exception as e:  # a worker that died (e.g. killed by the OS)
                    results[i] = IngestResult(
                        path=path_text(files[i]), status="failed", error=f"worker crashed: {one_line(e)}"
                    )
                bar.done_doc(i, 2 * page_counts[i])
            pending -= done
            if pending:
                time.sleep(0.05)
    except BaseException:
        _stop_pool(pool)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        ticks.close()
        ticks.cancel_join_thread()


# --------------------------------------------------------------------------- Ray (layoutrag.executors)
def _run_ray(files, shas, todo, page_counts, root, backend, settings, bar, results) -> None:  # noqa: ANN001
    """Each document's `process_document` as a Ray task; the bar counts finished tasks."""
    from layoutrag.executors import Job, run_ray

    jobs = [
        Job(i, files[i], (files[i], root), {"backend": backend, "settings": settings, "sha": shas[i]})
        for i in largest_first(todo, page_counts)
    ]

    def done(i: int, result: IngestResult) -> None:
        results[i] = result
        bar.done_doc(i, 2 * page_counts[i])

    run_ray(jobs, process_document, settings=settings, done=done)


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


