"""One root exception; fronts map it to an exit code, an HTTP status or an MCP error.

LayoutragError
├── InputError          bad user input (query too long, unknown option value)
├── NotFoundError       unknown doc id / chunk id / page
├── DocumentError       a PDF that cannot be ingested (broken, encrypted, over a limit)
├── IndexMissingError   the data dir has no index yet
└── BackendError        a model or endpoint failed (embedder, LLM)
"""

from __future__ import annotations

__all__ = [
    "BackendError",
    "DocumentError",
    "IndexMissingError",
    "InputError",
    "LayoutragError",
    "NotFoundError",
    "StorageError",
    "os_error_line",
]


class LayoutragError(Exception):
    """Root of every error layoutrag raises on purpose. Its message is one line, fit for a user."""


class InputError(LayoutragError, ValueError):
    pass


class NotFoundError(LayoutragError, KeyError):
    def __str__(self) -> str:  # KeyError quotes its message; a user should not see the quotes
        return str(self.args[0]) if self.args else "not found"


class DocumentError(LayoutragError):
    pass


class IndexMissingError(LayoutragError):
    pass


class BackendError(LayoutragError):
    pass


class StorageError(LayoutragError):
    """Writing the data dir failed (a full disk, a read-only mount): the message names the path,
    the stage and what was done before it failed."""


def os_error_line(e: OSError) -> str:
    """`PATH: problem` for an OSError (`[Errno 28] No space left on device` -> `x: no space left on device`)."""
    problem = (e.strerror or str(e) or type(e).__name__).lower()
    paths = [str(p) for p in (e.filename, e.filename2) if p is not None]
    return f"{' -> '.join(paths)}: {problem}" if paths else problem
