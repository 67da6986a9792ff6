"""A bounded schemathesis run against a live `layoutrag serve` on 127.0.0.1: every operation of
/openapi.json, all checks, 0 failures (#18.11). Skips when schemathesis is not installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from serve_helpers import free_port, start_serve

pytest.importorskip("schemathesis")


@pytest.mark.slow
def test_schemathesis_finds_no_failures(served_data: Path, tmp_path: Path) -> None:
    st = shutil.which("st", path=str(Path(sys.executable).parent))
    if st is None:
        pytest.skip("the schemathesis CLI (st) is not installed")
    port = free_port()
    server = start_serve(served_data, port, tmp_path)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        run = subprocess.run(
            [st, "run", f"{base}/openapi.json", "--checks", "all", "--max-examples", "5", "--max-time", "60",
             "--workers", "1", "--seed", "1", "--request-timeout", "30",
             # free-text constraints and crop boxes answer 422 when they do not parse, by design: a
             # schema cannot say which strings are constraints (tests/test_specs.py checks those 422s)
             "--exclude-path-regex", r"^/api/(specs|compare|documents/\{doc_id\}/crop\.png)$"],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,
        )
        assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    finally:
        server.terminate()
        server.wait(timeout=30)
