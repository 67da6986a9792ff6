"""`layoutrag serve` says it serves only once it answers: the "serving on" line is printed after the
socket accepts connections (a user, a script or the demo's "open http://..." reader may use the
address at once)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_serving_line_comes_when_the_server_answers(served_data: Path, tmp_path: Path) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "layoutrag.cli", "serve", "--data", str(served_data), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # blocks until the server prints (or exits: "")
        assert line.startswith("layoutrag: serving") and f":{port}/" in line, line
        r = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10)  # no retry: it must answer now
        assert r.status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
