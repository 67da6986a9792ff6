"""`layoutrag serve` says it serves only once it answers: the "serving on" line is printed after the
socket accepts connections (a user, a script or the demo's "open http://..." reader may use the
address at once)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import httpx

from serve_helpers import free_port, start_serve


def test_the_serving_line_comes_when_the_server_answers(served_data: Path, tmp_path: Path) -> None:
    port = free_port()
    server = start_serve(served_data, port, tmp_path, stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # blocks until the server prints (or exits: "")
        assert line.startswith("layoutrag: serving") and f":{port}/" in line, line
        r = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10)  # no retry: it must answer now
        assert r.status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
