"""`layoutrag chunks DOC`: list a document's chunks (a table, or evidence packages as JSON lines)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rich.console import Console
from rich.table import Table

from layoutrag.chunking.pipeline import load_doc_chunks
from layoutrag.errors import NotFoundError
from layoutrag.records import Document, EvidencePackage
from layoutrag.storage import ID_RE, DataDir

__all__ = ["print_chunks", "resolve_doc"]

_FILE_NAME_RE = re.compile(r'"file_name"\s*:\s*"((?:[^"\\]|\\.)*)"')


def _file_name_of(data: DataDir, doc_id: str) -> str:
    """The document's file name, read from the head of document.json (the field comes early)."""
    path = data.document_json(doc_id)
    with path.open("r", encoding="utf-8") as f:
        head = f.read(8192)
    m = _FILE_NAME_RE.search(head)
    if m:
        return json.loads(f'"{m.group(1)}"')
    return Document.model_validate_json(path.read_text(encoding="utf-8")).file_name


def resolve_doc(data: DataDir, doc: str) -> str:
    """Doc id for a doc id or a PDF file name (NotFoundError when neither is known)."""
    if ID_RE.match(doc) and ".." not in doc and data.chunks_json(doc).exists():
        return doc
    name = Path(doc).name
    for doc_id in data.doc_ids():
        if _file_name_of(data, doc_id) == name:
            return doc_id
    raise NotFoundError(f"unknown document: {doc[:80]!r} (give a doc id or the PDF's file name)")


def _pages(c) -> str:
    pages = sorted({r.page for r in c.all_regions()}) or [c.page]
    return str(pages[0]) if len(pages) == 1 else f"{pages[0]}-{pages[-1]}"


def _head(text: str, n: int = 60) -> str:
    t = re.sub(r"\s+", " ", text).strip()
    return t if len(t) <= n else t[: n - 1] + "…"


def print_chunks(doc: str, *, data: Path, as_json: bool, console: Console) -> None:
    dd = DataDir(data)
    doc_id = resolve_doc(dd, doc)
    doc_chunks = load_doc_chunks(dd, doc_id)
    if as_json:
        for c in doc_chunks.chunks:
            pkg = EvidencePackage(**c.model_dump())
            console.out(json.dumps(pkg.model_dump(mode="json"), ensure_ascii=False), highlight=False)
        return
    card = doc_chunks.card
    title = f"{card.file_name or doc_id} — {card.title}" if card.title else (card.file_name or doc_id)
    table = Table(title=title, show_lines=False)
    id_width = max((len(c.chunk_id) for c in doc_chunks.chunks), default=10)
    table.add_column("id", no_wrap=True, min_width=id_width)
    table.add_column("type", no_wrap=True, min_width=12)
    table.add_column("pages", no_wrap=True, justify="right", min_width=5)
    table.add_column("boxes", no_wrap=True, justify="right", min_width=5)
    table.add_column("toc path", overflow="ellipsis", no_wrap=True, max_width=50)
    table.add_column("text", overflow="ellipsis", no_wrap=True)
    for c in doc_chunks.chunks:
        kind = c.block_type if c.indexed else f"{c.block_type} (not indexed)"
        if c.rows:
            kind += f" [{len(c.rows)} rows]"
        table.add_row(
            c.chunk_id,
            kind,
            _pages(c),
            str(len(c.all_regions())),
            _head(c.toc_path, 50),
            _head(c.native_text),
        )
    console.print(table)
    extra = f", {doc_chunks.n_unassigned} unassigned elements" if doc_chunks.n_unassigned else ""
    console.print(f"{len(doc_chunks.chunks)} chunks{extra}", highlight=False)
