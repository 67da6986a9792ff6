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
