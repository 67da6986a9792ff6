"""The systems `layoutrag eval` scores: the live index, its ablations, the baselines and the variants
that need another ingest (de-duplication by confidence, the other layout backend).

Variants live in sibling data dirs, ``{data}.dedup-confidence`` and ``{data}.layout-{backend}``,
ingested from ``--pdfs`` (or the PDFs stored in the data dir) with `layoutrag.build.ingest_and_chunk`, which skips
documents whose artifacts are current — so a second run reuses them. They are indexed in memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from layoutrag.config import Settings
from layoutrag.errors import LayoutragError
from layoutrag.evaluation.baselines import build_unit_index, iter_documents, page_chunks, window_chunks
from layoutrag.index.options import SearchOptions
from layoutrag.records import Chunk, DocumentCard
from layoutrag.storage import DataDir

__all__ = ["BACKENDS", "EvalContext", "SystemSpec", "compare_systems", "main_systems", "variant_root"]

BACKENDS = ("pymupdf", "yolo")
SearchFn = Callable[[str, int], Sequence[Chunk]]


@dataclass
class SystemSpec:
    """A named system; `build` makes its search function lazily (indexes are built on first use)."""

    name: str
    build: Callable[[], tuple[SearchFn, int]]  # -> (search, number of indexed units)
    note: str = ""
    _units: int = field(default=0, repr=False)

    def make(self) -> SearchFn:
        search, self._units = self.build()
        return search

    def n_units(self) -> int:
        return self._units


def variant_root(data: DataDir, suffix: str) -> Path:
    return data.root.parent / f"{data.root.name}.{suffix}"


def _sha_id(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


@dataclass
class EvalContext:
    data: DataDir
    settings: Settings
    pdfs: Path | None = None
    console: object | None = None  # rich Console for progress lines (None: quiet)
    doc_ids: dict[str, str] = field(default_factory=dict)  # gold doc (file name) -> doc id
    file_names: dict[str, str] = field(default_factory=dict)  # doc id -> file name
    pdf_paths: dict[str, Path] = field(default_factory=dict)  # doc id -> PDF under --pdfs

    @classmethod
    def open(
        cls, data: DataDir, *, settings: Settings, pdfs: Path | None, console: object | None
    ) -> EvalContext:
        ctx = cls(data=data, settings=settings, pdfs=pdfs, console=console)
        ctx._map_documents()
        return ctx

    @cached_property
    def index(self):  # noqa: ANN201 - layoutrag.index.hybrid.HybridIndex
        from layoutrag.index.store import load_index

        return load_index(self.data, settings=self.settings)

    def _map_documents(self) -> None:
        for card in self.index.cards.values():
            if card.file_name:
                self.doc_ids.setdefault(card.file_name, card.doc_id)
                self.file_names.setdefault(card.doc_id, card.file_name)
        if self.pdfs is not None and self.pdfs.is_dir():
            # content hash -> doc id, so a renamed or re-ingested copy still resolves
            for p in sorted(self.pdfs.glob("*.pdf")):
                doc_id = _sha_id(p)
                if doc_id in self.index.cards:
                    self.doc_ids.setdefault(p.name, doc_id)
                    self.file_names.setdefault(doc_id, p.name)
                    self.pdf_paths[doc_id] = p

    def pdf_for_doc(self, doc: str) -> Path | None:
        if self.pdfs is not None and (self.pdfs / doc).is_file():
            return self.pdfs / doc
        doc_id = self.doc_ids.get(doc, doc)
        try:
            p = self.data.source_pdf(doc_id)
        except LayoutragError:
            return None
        return p if p.exists() else None

    @cached_property
    def chunks(self) -> list[Chunk]:
        return list(self.index.chunks)

    @cached_property
    def main_backend(self) -> str:
        for doc in iter_documents(self.data, list(self.data.doc_ids())[:1]):
            return doc.layout_backend
        return self.settings.layout.layout_backend

    @cached_property
    def _unit_indexes(self) -> dict:
        return {}

    def unit_index(self, kind: str):  # noqa: ANN201 - HybridIndex over baseline units, built once
        if kind not in self._unit_indexes:
            self.say(f"building {kind} baseline units …")
            chunks: list[Chunk] = []
            for doc in iter_documents(self.data):
                chunks += window_chunks(doc) if kind == "windows" else page_chunks(doc)
            self._unit_indexes[kind] = build_unit_index(
                chunks, self.index.cards, data=self.data, settings=self.settings, embedder=self.index.embedder
            )
        return self._unit_indexes[kind]

    def describe(self) -> dict:
        idx = self.index
        return {
            "chunks": len(idx.chunks),
            "documents": len(idx.cards),
            "embedder": getattr(idx.embedder, "model_id", ""),
            "tokenizer": type(idx.tokenizer).__name__,
            "fusion": self.settings.fusion.strategy.value,
            "layout_backend": self.main_backend if any(True for _ in self.data.doc_ids()) else "",
        }

    def say(self, msg: str) -> None:
        if self.console is not None:
            self.console.print(f"[dim]{msg}[/dim]")  # type: ignore[attr-defined]

    def source_pdfs(self) -> list[Path]:
        """The PDFs of the documents in the main data dir (variants must hold the same documents):
        from --pdfs when given (so file names stay), else the copies stored in the data dir."""
        out = []
        for d in self.data.doc_ids():
            p = self.pdf_paths.get(d) or self.data.source_pdf(d)
            if p.exists():
                out.append(p)
        return out


def _searcher(index, mode: str = "fused", options: SearchOptions | None = None) -> SearchFn:  # noqa: ANN001
    opts = replace(options or SearchOptions(), mode=mode)

    def search(query: str, k: int) -> Sequence[Chunk]:
        return index.search(query, top_k=k, options=opts)

    return search


def main_systems(ctx: EvalContext, fusion: str | None = None) -> list[SystemSpec]:
    """The live index, with the configured fusion or the one `fusion` names (a strategy or a path)."""
    opts = SearchOptions.for_fusion(fusion or ctx.settings.fusion.strategy.value, ctx.settings)
    how = f"{(opts.fusion or ctx.settings.fusion).strategy.value} fusion" if opts.mode == "fused" else "one path"
    return [
        SystemSpec(
            f"layoutrag ({opts.mode})",
            lambda: (_searcher(ctx.index, opts.mode, opts), len(ctx.index.chunks)),
            f"the live index, {how}",
        )
    ]


def _strategy(ctx: EvalContext, name: str, note: str) -> SystemSpec:
    opts = SearchOptions.for_fusion(name, ctx.settings)
    return SystemSpec(f"layoutrag, {name} fusion", lambda: (_searcher(ctx.index, options=opts), len(ctx.index.chunks)), note)


def _rebuilt(ctx: EvalContext, *, tokenizer: str) -> SystemSpec:
    def build() -> tuple[SearchFn, int]:
        idx = build_unit_index(
            ctx.chunks,
            ctx.index.cards,
            data=ctx.data,
            settings=ctx.settings,
            tokenizer=tokenizer,
            embedder=ctx.index.embedder,
        )
        return _searcher(idx), len(idx.chunks)

    label = {"standard": "standard tokenizer", "part_aware_no_ngrams": "part-aware, no 3-grams"}[tokenizer]
    return SystemSpec(f"layoutrag, {label}", build, "BM25 re-tokenized; dense vectors from the cache")


def _plain_rrf(ctx: EvalContext) -> SystemSpec:
    def build() -> tuple[SearchFn, int]:
        opts = SearchOptions.for_fusion("rrf", ctx.settings)
        return _searcher(ctx.index, options=opts), len(ctx.index.chunks)

    return SystemSpec("layoutrag, plain RRF", build, "RRF k=60 over both full runs")


def _units(ctx: EvalContext, kind: str, mode: str) -> Callable[[], tuple[SearchFn, int]]:
    def build() -> tuple[SearchFn, int]:
        idx = ctx.unit_index(kind)
        return _searcher(idx, mode), len(idx.chunks)

    return build


def _variant(ctx: EvalContext, *, suffix: str, layout: str, dedup: str, name: str, note: str) -> SystemSpec:
    def build() -> tuple[SearchFn, int]:
        from layoutrag.build import ingest_and_chunk
        from layoutrag.chunking.pipeline import load_doc_chunks

        root = variant_root(ctx.data, suffix)
        pdfs = ctx.source_pdfs()
        if not pdfs:
            raise LayoutragError("no PDFs to ingest for this variant (give --pdfs)")
        ctx.say(
            f"ingesting {len(pdfs)} PDFs into {root} (layout={layout}, dedup={dedup}; current documents are skipped) …"
        )
        s = ctx.settings.updated(dedup_strategy=dedup, layout_backend=layout)
        results = ingest_and_chunk(pdfs, root, layout=layout, jobs=1, progress=ctx.console is not None, settings=s)
        failed = [r for r in results if r.status == "failed"]
        if failed:
            ctx.say(f"{len(failed)} documents failed in {root.name}: {failed[0].error}")
        data = DataDir(root)
        chunks: list[Chunk] = []
        cards: dict[str, DocumentCard] = {}
        for doc_id in data.doc_ids():
            try:
                dc = load_doc_chunks(data, doc_id)
            except LayoutragError:
                continue
            cards[doc_id] = dc.card
            chunks += [c for c in dc.chunks if c.indexed]
        # imported chunks (no PDFs) are not part of a variant
        idx = build_unit_index(chunks, cards, data=data, settings=ctx.settings, embedder=ctx.index.embedder)
        return _searcher(idx), len(idx.chunks)

    return SystemSpec(name, build, note)


def compare_systems(ctx: EvalContext, *, need_documents: bool) -> list[SystemSpec]:
    """Ablations of the live index, then (for region gold over ingested PDFs) baselines and variants."""
    out = [
        SystemSpec("layoutrag BM25-only", lambda: (_searcher(ctx.index, "bm25"), len(ctx.index.chunks))),
        SystemSpec("layoutrag dense-only", lambda: (_searcher(ctx.index, "dense"), len(ctx.index.chunks))),
        _plain_rrf(ctx),
        *[
            _strategy(ctx, name, note)
            for name, note in (
                ("weighted", "the hand-set votes (FusionSettings)"),
                ("learned", "the shipped learned ranker (data/ranker.json)"),
            )
            if name != ctx.settings.fusion.strategy.value
        ],
        _rebuilt(ctx, tokenizer="standard"),
        _rebuilt(ctx, tokenizer="part_aware_no_ngrams"),
    ]
    if not need_documents or not any(True for _ in ctx.data.doc_ids()):
        return out
    windows, pages = _units(ctx, "windows", "fused"), _units(ctx, "pages", "fused")
    out += [
        SystemSpec(
            "fixed 512-token windows (fused)",
            windows,
            "BM25 + same dense model + fusion; box = union of words",
        ),
        SystemSpec("fixed 512-token windows (BM25)", _units(ctx, "windows", "bm25"), ""),
        SystemSpec("whole page (fused)", pages, "box = the page"),
        SystemSpec("whole page (BM25)", _units(ctx, "pages", "bm25"), "box = the page"),
    ]
    main = ctx.main_backend
    out.append(
        _variant(
            ctx,
            suffix="dedup-confidence",
            layout=main,
            dedup="confidence",
            name="layoutrag, dedup by confidence",
            note=f"layout {main}, de-duplicated by confidence",
        )
    )
    for other in BACKENDS:
        if other != main:
            out.append(
                _variant(
                    ctx,
                    suffix=f"layout-{other}",
                    layout=other,
                    dedup=ctx.settings.layout.dedup_strategy,
                    name=f"layoutrag, layout {other}",
                    note=f"main index uses {main}",
                )
            )
    return out
