"""Helpers for the tests that run a server process on the loopback interface."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path
from typing import Any


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_serve(data: Path, port: int, cwd: Path, *, stdout: Any = subprocess.DEVNULL) -> subprocess.Popen[str]:
    """`layoutrag serve --data DATA --port PORT` as a child process (stderr discarded)."""
    return subprocess.Popen(
        [sys.executable, "-m", "layoutrag.cli", "serve", "--data", str(data), "--port", str(port)],
        stdout=stdout,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=cwd,
    )
