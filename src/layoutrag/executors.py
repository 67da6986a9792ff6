"""Where per-document jobs run: the Ray executor (`layoutrag ingest --executor ray`).

The local executor (in-process, or a process pool with `--jobs N`) lives in `build.py`, which
is the one orchestrator; it calls `run_ray` here with the same per-document job function it runs
locally (`build.process_document`), so a document's artifacts are written by the same code, in the
same atomic, keyed, resumable way, whichever executor ran it: a re-run skips what is done.

    run_ray(jobs, fn, settings=..., done=...)   every job a Ray task; `done(i, result)` as each ends

- No `ray_address`: a local Ray (num_cpus = `ray_num_cpus`, no dashboard) is started for the run
  and stopped after it; with an address (`auto`, `ray://...`, `host:port`) the run joins that
  cluster and leaves it running.
- Each task declares `ray_task_cpus` CPUs and `ray_task_memory_mb` memory; a document whose first
  pages carry (almost) no text layer will need OCR and declares `ray_ocr_cpus` instead.
- A worker that dies mid-task (OOM, killed, node lost) is retried up to `ray_max_retries` times: the
  artifacts are written with temp-file-then-rename, so the dead attempt left none half-written and
  the retry resumes from what the attempt finished. A document that keeps killing its worker, or a
  job that raises, comes back as ``status="failed"`` with a one-line reason, like a local failure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from layoutrag.config import ExecutorSettings, Settings
from layoutrag.errors import InputError
from layoutrag.records import IngestResult

__all__ = ["Job", "needs_ocr", "ray_available", "run_ray"]

OCR_PROBE_PAGES = 3


@dataclass
class Job:
    """One document: `fn(*args, **kwargs)` returns its IngestResult; `path` names it in a failure."""

    index: int
    path: Path
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def needs_ocr(path: Path, settings: Settings) -> bool:
    """Will this document need OCR? (Its first pages have less text than the OCR threshold.)"""
    from layoutrag.pdf import count_text_chars, open_document

    try:
        with open_document(path) as doc:
            pages = [doc[i] for i in range(min(OCR_PROBE_PAGES, doc.page_count))]
            return bool(pages) and all(
                count_text_chars(p) <= settings.render.text_layer_min_chars for p in pages
            )
    except Exception:  # noqa: BLE001 - an unreadable file fails in its task, not here
        return False


def _task(fn: Callable[..., IngestResult], args: tuple, kwargs: dict[str, Any]) -> IngestResult:
    return fn(*args, **kwargs)


def _start_ray(cfg: ExecutorSettings) -> bool:
    """Connect to the configured cluster, or start a local one; True when this call started it."""
    import ray

    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": "ERROR"}
    if cfg.ray_address:
        ray.init(address=cfg.ray_address, **quiet)
        return True  # connected: disconnect (the cluster itself stays up)
    # "local": always a fresh cluster of our own, never one a stale /tmp/ray/ray_current_cluster names
    ray.init(address="local", num_cpus=cfg.ray_num_cpus, include_dashboard=False, **quiet)
    return True


def run_ray(
    jobs: Sequence[Job],
    fn: Callable[..., IngestResult],
    *,
    settings: Settings,
    done: Callable[[int, IngestResult], None],
) -> None:
    """Run every job as a Ray task; `done(job.index, result)` as each finishes (in finishing order)."""
    if not ray_available():
        raise InputError("the Ray executor needs the scale extra: pip install 'layoutrag[scale]'")
    import ray
    from ray.exceptions import RayError

    cfg = settings.executor
    started = _start_ray(cfg)
    try:
        remote = ray.remote(_task)
        fn_ref = ray.put(fn)
        pending: dict[Any, Job] = {}
        for job in jobs:
            cpus = cfg.ray_ocr_cpus if needs_ocr(job.path, settings) else cfg.ray_task_cpus
            opts: dict[str, Any] = {
                "num_cpus": cpus,
                "max_retries": cfg.ray_max_retries,
                "retry_exceptions": False,
            }
            if cfg.ray_task_memory_mb:
                opts["memory"] = cfg.ray_task_memory_mb * 1024 * 1024
            ref = remote.options(**opts).remote(fn_ref, job.args, job.kwargs)
            pending[ref] = job
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                job = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except RayError as e:  # the worker died past its retries, or the job raised
                    result = IngestResult(path=str(job.path), status="failed", error=_ray_reason(e))
                done(job.index, result)
    finally:
        if started:
            ray.shutdown()


def _ray_reason(e: BaseException) -> str:
    from ray.exceptions import WorkerCrashedError

    if isinstance(e, WorkerCrashedError):
        return "worker crashed (retries exhausted)"
    text = " ".join(str(e).split())
    return f"task failed: {type(e).__name__}: {text[:240]}"
