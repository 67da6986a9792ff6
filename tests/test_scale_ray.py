"""The Ray executor (issue #15) against real local Ray clusters: artifacts byte-identical to a local
run, resumable across executors, failures reported like local ones, a killed worker retried with
nothing lost or duplicated, and a `ray start --head` + worker pair joined by address. Skipped when
the `scale` extra is not installed. Ray is kept to 1-2 CPUs."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from serve_helpers import free_port

ray = pytest.importorskip("ray")

from layoutrag.build import ingest_and_chunk, process_document  # noqa: E402
from layoutrag.config import load_settings  # noqa: E402
from layoutrag.executors import Job, run_ray  # noqa: E402

pytestmark = pytest.mark.slow


def _artifacts(root: Path) -> dict[str, bytes]:
    return {
        f"{p.parent.name}/{p.name}": p.read_bytes()
        for name in ("document.json", "chunks.json")
        for p in sorted((root / "docs").glob(f"*/{name}"))
    }


def _pdfs(served_data: Path) -> list[Path]:
    return sorted((served_data / "samples").glob("*.pdf"))


def _settings(**kw: object):  # noqa: ANN202
    return load_settings().updated(**{"executor": "ray", "ray_num_cpus": 2, "ray_task_memory_mb": 0, **kw})


def test_ray_artifacts_byte_identical_and_resumable(served_data: Path, tmp_path: Path) -> None:
    data = tmp_path / "ray"
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 not really a pdf")
    pdfs = _pdfs(served_data)
    results = ingest_and_chunk([*pdfs, bad], data, settings=_settings(), layout="pymupdf", progress=True)
    assert [r.status for r in results] == ["ok", "ok", "failed"]
    assert results[2].error  # one line, like a local failure
    local = ingest_and_chunk([bad], tmp_path / "local", layout="pymupdf", progress=False)
    assert results[2].error == local[0].error
    assert _artifacts(data) == _artifacts(served_data)  # served_data was ingested locally
    # a re-run skips what is done, whichever executor did it
    again = ingest_and_chunk(pdfs, data, layout="pymupdf", progress=False)  # local this time
    assert [r.status for r in again] == ["skipped", "skipped"]
    served_copy = tmp_path / "served"
    shutil.copytree(served_data, served_copy)
    again = ingest_and_chunk(pdfs, served_copy, settings=_settings(), layout="pymupdf", progress=False)
    assert [r.status for r in again] == ["skipped", "skipped"]


def _pid_then_work(pid_file: str, delay: float, path: Path, root: Path, **kw: object):  # noqa: ANN202
    """A job that says which worker runs it, then waits (time for the test to kill that worker)."""
    first = not Path(pid_file).exists()
    Path(pid_file).write_text(str(os.getpid()))
    if first:
        time.sleep(delay)
    return process_document(path, root, **kw)


def test_killed_worker_is_retried_nothing_lost_or_duplicated(served_data: Path, tmp_path: Path) -> None:
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    data = tmp_path / "ray"
    pid_file = tmp_path / "worker.pid"
    settings = _settings(ray_num_cpus=1, ray_max_retries=2)
    pdf = _pdfs(served_data)[0]
    job = Job(0, pdf, (str(pid_file), 60.0, pdf, data), {"backend": "pymupdf", "settings": settings})
    results = {}
    import threading

    def killer() -> None:
        deadline = time.time() + 120
        while not pid_file.exists() and time.time() < deadline:
            time.sleep(0.2)
        os.kill(int(pid_file.read_text()), signal.SIGKILL)  # the worker process running the task

    t = threading.Thread(target=killer)
    t.start()
    run_ray([job], _pid_then_work, settings=settings, done=lambda i, r: results.__setitem__(i, r))
    t.join()
    assert results[0].status == "ok", results[0].error  # retried on a new worker
    assert not list(data.rglob("*.tmp*"))  # the dead attempt left nothing half-written
    assert _artifacts(data) == {
        k: v for k, v in _artifacts(served_data).items() if k.startswith(results[0].doc_id)
    }

    # with no retries left the document is reported, not lost
    pid_file.unlink()
    shutil.rmtree(data)
    settings = _settings(ray_num_cpus=1, ray_max_retries=0)
    job = Job(0, pdf, (str(pid_file), 60.0, pdf, data), {"backend": "pymupdf", "settings": settings})
    t = threading.Thread(target=killer)
    t.start()
    run_ray([job], _pid_then_work, settings=settings, done=lambda i, r: results.__setitem__(i, r))
    t.join()
    assert results[0].status == "failed" and "crash" in (results[0].error or "")
    assert not (data / "docs").exists() or not list((data / "docs").glob("*/chunks.json"))


def test_head_and_worker_started_with_ray_start(served_data: Path, tmp_path: Path) -> None:
    ray_bin = Path(sys.executable).with_name("ray")
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH", "")]
        ),
    }
    temp = tempfile.mkdtemp(prefix="lr-ray-", dir="/tmp")  # short: Ray's socket paths must fit
    common = ["--block", "--num-cpus=1", "--disable-usage-stats"]
    head = subprocess.Popen(
        [
            str(ray_bin),
            "start",
            "--head",
            f"--port={port}",
            "--include-dashboard=false",
            f"--temp-dir={temp}",
            *common,
        ],
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = None
    try:
        address = f"127.0.0.1:{port}"
        time.sleep(8)
        worker = subprocess.Popen(
            [str(ray_bin), "start", f"--address={address}", *common],
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        ray.init(address=address, logging_level="ERROR", log_to_driver=False)
        deadline = time.time() + 60
        while len([n for n in ray.nodes() if n["Alive"]]) < 2 and time.time() < deadline:
            time.sleep(1)
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        ray.shutdown()
        data = tmp_path / "cluster"
        results = ingest_and_chunk(
            _pdfs(served_data),
            data,
            settings=_settings(ray_address=address),
            layout="pymupdf",
            progress=False,
        )
        assert [r.status for r in results] == ["ok", "ok"]
        assert _artifacts(data) == _artifacts(served_data)
    finally:
        for p in (worker, head):
            if p is not None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in (worker, head):
            if p is not None:
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)
