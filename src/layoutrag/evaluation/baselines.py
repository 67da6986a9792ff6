"""Naive retrieval units to compare layoutrag's chunks against, built from the same ingested pages.

- fixed windows: 512 whitespace tokens with 10 % overlap, cut within a page; the box is the union
  of the window's word boxes (what a generic RAG stack returns, given word positions);
- whole page: one unit per page, the box is the page (the ceiling on page-hit, the floor on leakage).

Both become ordinary `Chunk` lists, so they are indexed by the same `HybridIndex` (same tokenizer,
same dense model, same fusion, same document cards) and scored by the same code: the comparison
isolates the retrieval unit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from layoutrag.config import Settings
from layoutrag.geometry import union_box
from layoutrag.index.embedders import Embedder
from layoutrag.records import Chunk, Document, DocumentCard, Page, Region
from layoutrag.storage import DataDir

__all__ = [
    "WINDOW_OVERLAP",
    "WINDOW_TOKENS",
    "build_unit_index",
    "iter_documents",
    "page_chunks",
    "window_chunks",
]

WINDOW_TOKENS = 512
WINDOW_OVERLAP = 0.10


def _page_words(page: Page) -> list[tuple[str, tuple[float, float, float, float]]]:
    if page.words:
        return [(w.text, w.bbox_pdf) for w in page.words if w.text.strip()]
    # no word list (e.g. a backend that stored element text only): fall back to element texts
    return [(t, e.bbox_pdf) for e in page.elements for t in e.text.split() if t]


def _unit_chunk(
    doc: Document, page: Page, suffix: str, box: tuple[float, float, float, float], kind: str, text: str
) -> Chunk:
    """One baseline unit: a single box on one page, typed `kind` ("window" or "page")."""
    return Chunk(
        chunk_id=f"{doc.doc_id}_p{page.page}_{suffix}",
        doc_id=doc.doc_id,
        page=page.page,
        source_pdf=doc.source_pdf,
        bboxes_pdf=[box],
        regions=[Region(page=page.page, bbox_pdf=box, label=kind)],
        page_size_pt=(page.width_pt, page.height_pt),
        block_type=kind,
        native_text=text,
    )


def window_chunks(
    doc: Document, *, size: int = WINDOW_TOKENS, overlap: float = WINDOW_OVERLAP
) -> list[Chunk]:
    """Fixed token windows within each page; the box is the union of the window's words."""
    if size < 1 or not 0 <= overlap < 1:
        raise ValueError("window size must be ≥ 1 and overlap in [0, 1)")
    stride = max(1, size - int(round(size * overlap)))
    out: list[Chunk] = []
    for page in doc.pages:
        words = _page_words(page)
        n = 0
        start = 0
        while start < len(words):
            win = words[start : start + size]
            box = union_box([b for _, b in win])
            text = " ".join(t for t, _ in win)
            out.append(_unit_chunk(doc, page, f"w{n:02d}", box, "window", text))
            n += 1
            if start + size >= len(words):
                break
            start += stride
    return out


def page_chunks(doc: Document) -> list[Chunk]:
    """One unit per page (pages without any text are kept: the dense path may still match them)."""
    out = []
    for page in doc.pages:
        box = (0.0, 0.0, page.width_pt, page.height_pt)
        text = " ".join(t for t, _ in _page_words(page))
        out.append(_unit_chunk(doc, page, "page", box, "page", text))
    return out


def iter_documents(data: DataDir, doc_ids: Iterable[str] | None = None) -> Iterator[Document]:
    ids = list(doc_ids) if doc_ids is not None else list(data.doc_ids())
    for doc_id in ids:
        path = data.document_json(doc_id)
        if path.exists():
            yield Document.model_validate_json(path.read_text(encoding="utf-8"))


def build_unit_index(
    chunks: Sequence[Chunk],
    cards: Mapping[str, DocumentCard],
    *,
    data: DataDir,
    settings: Settings,
    tokenizer: str = "part_aware",
    embedder: Embedder | None = None,
    dense: bool = True,
):  # -> layoutrag.index.hybrid.HybridIndex
    """An in-memory index over any chunk list, embedding through the data dir's cache."""
    from layoutrag.index.embedders import EmbeddingCache, get_embedder
    from layoutrag.index.hybrid import HybridIndex

    emb = embedder if embedder is not None else get_embedder(settings.index.embedder)
    cache = EmbeddingCache(data.cache, emb.model_id) if dense else None
    return HybridIndex.build(
        chunks, cards, embedder=emb, tokenizer=tokenizer, settings=settings, cache=cache, dense=dense
    )
