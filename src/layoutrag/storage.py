"""The data directory: where every durable artifact lives, and the only place paths are built.

    DATA/
      ingest-report.json                 one IngestResult per document of the last run
      docs/{doc_id}/source.pdf           a copy of the ingested PDF (pages re-render from it)
      docs/{doc_id}/document.json        Document: pages, elements, words   (stages render..reading order)
      docs/{doc_id}/chunks.json          {"card": DocumentCard, "chunks": [Chunk], "key": ...}
      docs/{doc_id}/evidence/{chunk_id}.png   merged evidence image
      docs/{doc_id}/crops/{chunk_id}_{i}.png  one crop per member
      docs/{doc_id}/pages/{n}.png        page image cache (re-rendered on demand)
      index/CURRENT                      name of the live generation (swapped atomically)
      index/gen-{n}/...                  one immutable index generation
      cache/embeddings/...               embedding cache by (model id, text hash)

Ids coming from users are validated against ``ID_RE`` before any path is built, so no request
value ever walks the filesystem.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel

from layoutrag.errors import InputError, NotFoundError

__all__ = ["ID_RE", "DataDir", "path_text", "with_path", "atomic_write_bytes", "atomic_write_json", "atomic_write_text", "check_id"]

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def check_id(value: str, what: str = "id") -> str:
    """Return `value` when it is a safe id (no separators, no dot-dot, no NUL); else NotFoundError."""
    if not isinstance(value, str) or not ID_RE.match(value) or ".." in value:
        raise NotFoundError(f"unknown {what}: {value[:80]!r}")
    return value


def path_text(path: str | os.PathLike[str]) -> str:
    """A path as text that is always valid UTF-8: bytes the file system gave that do not decode
    (Python keeps them as lone surrogates) are written as backslash escapes (`\\xe9`), so a report
    or a record can always be serialised."""
    return os.fspath(path).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise with_path(e, path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def with_path(e: OSError, path: str | os.PathLike[str]) -> OSError:
    """`e`, naming `path` when it names no file (a failed write: ENOSPC carries no file name)."""
    if e.filename is not None:
        return e
    return type(e)(e.errno, e.strerror or str(e), os.fspath(path))


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: Path, obj: object) -> None:
    if isinstance(obj, BaseModel):
        text = obj.model_dump_json()
    else:
        text = json.dumps(obj, ensure_ascii=False, default=_default)
    atomic_write_text(path, text)


def _default(o: object) -> object:
    if isinstance(o, BaseModel):
        return o.model_dump(mode="json")
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


class DataDir:
    def __init__(self, root: str | os.PathLike[str]) -> None:
        """A data dir need not exist yet (ingest creates it); a path that is something else is refused."""
        self.root = Path(root)
        if self.root.exists() and not self.root.is_dir():
            raise InputError(f"data dir {self.root} is not a directory")

    # --- layout -------------------------------------------------------------------------
    @property
    def docs(self) -> Path:
        return self.root / "docs"

    @property
    def index(self) -> Path:
        return self.root / "index"

    @property
    def cache(self) -> Path:
        return self.root / "cache"

    @property
    def imported(self) -> Path:
        """Chunks brought in with `import-chunks`, one DocChunks file a document (beside docs/, so
        ingest never touches them)."""
        return self.root / "imported"

    def imported_ids(self) -> list[str]:
        """The documents brought in with `import-chunks` (imported/{doc_id}.json)."""
        if not self.imported.is_dir():
            return []
        return sorted(p.stem for p in self.imported.glob("*.json") if ID_RE.match(p.stem))

    @property
    def report(self) -> Path:
        return self.root / "ingest-report.json"

    def doc_dir(self, doc_id: str) -> Path:
        return self.docs / check_id(doc_id, "document")

    def source_pdf(self, doc_id: str) -> Path:
        return self.doc_dir(doc_id) / "source.pdf"

    def document_json(self, doc_id: str) -> Path:
        return self.doc_dir(doc_id) / "document.json"

    def chunks_json(self, doc_id: str) -> Path:
        return self.doc_dir(doc_id) / "chunks.json"

    def evidence_png(self, doc_id: str, chunk_id: str) -> Path:
        return self.doc_dir(doc_id) / "evidence" / f"{check_id(chunk_id, 'chunk')}.png"

    def crop_png(self, doc_id: str, chunk_id: str, i: int) -> Path:
        return self.doc_dir(doc_id) / "crops" / f"{check_id(chunk_id, 'chunk')}_{int(i)}.png"

    def page_png(self, doc_id: str, page: int, dpi: int) -> Path:
        return self.doc_dir(doc_id) / "pages" / f"{int(page)}@{int(dpi)}.png"

    def rel(self, path: Path) -> str:
        """Path relative to the data dir, as stored in records (posix separators)."""
        return path.relative_to(self.root).as_posix()

    def resolve(self, rel: str) -> Path:
        """Resolve a stored relative path; refuses anything that leaves the data dir."""
        p = (self.root / rel).resolve()
        if not p.is_relative_to(self.root.resolve()):
            raise NotFoundError(f"path outside the data dir: {rel[:80]!r}")
        return p

    def doc_ids(self) -> Iterator[str]:
        if not self.docs.is_dir():
            return
        for d in sorted(self.docs.iterdir()):
            if d.is_dir() and ID_RE.match(d.name) and (d / "document.json").exists():
                yield d.name
