"""`HybridIndex`: the embedded store's index — part-aware BM25 and dense vectors over the same chunks,
held in memory (memory-mapped where the store allows), searched by `base.SearchIndex`.

    lexical  query + glossary expansion -> PartAwareTokenizer -> BM25 (chunk text + card words)
    dense    query -> embedder("query") -> inner product with passage vectors
    groups   BM25 over whole documents and whole pages (their chunks' summed term counts)
    fused    `learned`: candidates from every run scored by the shipped linear model (ranker.py);
             `weighted`: depth-limited RRF of the two runs, document-, page- and residual-BM25
             votes, block-family prior and table-row bonus (fusion.py), then a boost for chunks of
             documents whose part number or series the query names; `rrf`: plain RRF
    hits     the ranked chunks -> hits with their page's companions (hits.py)

The search itself (fusion, hits, packages) is `base.SearchIndex`; this module supplies its runs
from in-memory arrays. The chunk texts each path sees are in candidates.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from typing_extensions import TypeIs

from layoutrag.config import Settings, load_settings
from layoutrag.index.base import RUN_DEPTH, ChunkTable, GroupKind, SearchIndex, empty_run
from layoutrag.index.bm25 import (
    BM25Index,
    TermCounts,
    count_terms,
    doc_term_counts,
    group_term_counts,
    top_k,
)
from layoutrag.index.candidates import bm25_text, card_text, embed_text
from layoutrag.index.dense import DenseIndex
from layoutrag.index.embedders import Embedder, EmbeddingCache, embed_with_cache, get_embedder
from layoutrag.index.options import MODES, SearchOptions
from layoutrag.index.query import filter_mask
from layoutrag.index.tokenizer import Tokenizer, get_tokenizer
from layoutrag.records import Chunk, DocumentCard, SearchFilters

__all__ = [
    "MODES",
    "RUN_DEPTH",
    "ChunkTable",
    "HybridIndex",
    "SearchIndex",
    "SearchOptions",
    "bm25_text",
    "card_text",
    "embed_text",
]


class HybridIndex(SearchIndex):
    """The embedded store's index: BM25 (chunks, documents, pages) and the dense matrix in memory."""

    bm25: BM25Index
    doc_bm25: BM25Index

    def __init__(
        self,
        chunks: Sequence[Chunk],
        cards: Mapping[str, DocumentCard],
        *,
        table: ChunkTable,
        counts: TermCounts,
        dense: DenseIndex | None,
        embedder: Embedder | None,
        tokenizer: Tokenizer,
        settings: Settings,
    ) -> None:
        super().__init__(chunks, cards, table=table, embedder=embedder, tokenizer=tokenizer, settings=settings)
        self.bm25 = BM25Index(counts, k1=settings.index.bm25_k1, b=settings.index.bm25_b)
        self.doc_len = counts.doc_len
        doc_counts = doc_term_counts(counts, table)
        self.doc_bm25 = BM25Index(doc_counts, k1=settings.index.bm25_k1, b=settings.index.bm25_b)
        order = np.argsort(table.doc_index, kind="stable")
        self.doc_chunks = np.split(
            order, np.cumsum(np.bincount(table.doc_index, minlength=len(table.doc_ids)))[:-1]
        )
        # pages: (document, page) of each chunk's first region; page_bm25 ranks whole pages
        page_key = table.doc_index.astype(np.int64) * (int(table.pages.max(initial=0)) + 1) + table.pages
        _, page_of = np.unique(page_key, return_inverse=True)
        self.page_of: np.ndarray = page_of.reshape(-1)
        n_pages = int(self.page_of.max(initial=-1)) + 1
        page_counts = group_term_counts(counts, self.page_of, n_pages)
        self.page_bm25 = BM25Index(page_counts, k1=settings.index.bm25_k1, b=settings.index.bm25_b)
        # a scenario question's BM25 (`index.bm25_b_long`), made on its first use
        self._counts = {"chunk": counts, "doc": doc_counts, "page": page_counts}
        self._long: dict[str, BM25Index] = {}
        order = np.argsort(self.page_of, kind="stable")
        self.page_chunks = np.split(order, np.cumsum(np.bincount(self.page_of, minlength=n_pages))[:-1])
        self.dense = dense

    # ------------------------------------------------------------------ build
    @classmethod
    def build(
        cls,
        chunks: Sequence[Chunk],
        cards: Mapping[str, DocumentCard] | Sequence[DocumentCard],
        *,
        embedder: Embedder | str | None = None,
        tokenizer: str = "part_aware",
        settings: Settings | None = None,
        vectors: np.ndarray | None = None,
        cache: EmbeddingCache | None = None,
        dense: bool = True,
    ) -> HybridIndex:
        """An index in memory. `embedder` None -> the configured default; `dense=False` -> BM25 only;
        `vectors` supplies passage vectors already made (one row per chunk)."""
        s = settings or load_settings()
        chunks = [c for c in chunks if c.indexed]
        card_map = dict(cards) if isinstance(cards, Mapping) else {c.doc_id: c for c in cards}
        tok = get_tokenizer(tokenizer)
        counts = count_terms(tok.tokenize(bm25_text(c, card_map.get(c.doc_id))) for c in chunks)
        emb: Embedder | None = None
        dense_index: DenseIndex | None = None
        if dense:
            emb = embedder if _is_embedder(embedder) else get_embedder(embedder or s.index.embedder)
            if vectors is None:
                texts = [embed_text(c, s.index.embed_max_chars, card_map.get(c.doc_id)) for c in chunks]
                vectors, _ = embed_with_cache(emb, texts, cache)
            dense_index = DenseIndex.build(vectors)
            dense_index.nprobe = s.index.dense_nprobe
        return cls(
            chunks,
            card_map,
            table=ChunkTable.from_chunks(chunks),
            counts=counts,
            dense=dense_index,
            embedder=emb,
            tokenizer=tok,
            settings=s,
        )

    # ------------------------------------------------------------------ scenario questions
    def _lexical(self, level: str, lex: Mapping[str, float]) -> BM25Index:
        """The BM25 of `level` (chunk, doc, page) that scores `lex`: with the length normalization
        the query asks for (`base.LexicalQuery.b`: `index.bm25_b_long` for a scenario question,
        or what the learned ranker was fit with), else `bm25_b`. A long question names many terms
        and the chunk (or document) that meets more of them is longer: full length normalization
        hands the lead to short chunks that hold one or two of them (docs/EVALUATION.md §3). The
        Qdrant store bakes `bm25_b` and `bm25_b_long` into two sparse vectors per point and picks
        the one a query asks for (`QdrantIndex.bm25_using`); the static site derives
        `bm25_b_long`'s weights from its exported term counts (site/export.py)."""
        plain = {"chunk": self.bm25, "doc": self.doc_bm25, "page": self.page_bm25}[level]
        b = getattr(lex, "b", None)
        if b is None or b == self.settings.index.bm25_b:
            return plain
        key = f"{level}/{b}"
        if key not in self._long:
            self._long[key] = BM25Index(self._counts[level], k1=self.settings.index.bm25_k1, b=b)
        return self._long[key]

    # ------------------------------------------------------------------ the runs, from memory
    def _filter_mask(self, filters: SearchFilters | None) -> np.ndarray | None:
        return filter_mask(
            filters,
            doc_index=self.table.doc_index,
            doc_ids=self.table.doc_ids,
            pages=self.table.pages,
            block_codes=self.table.block_codes,
            block_types=self.table.block_types,
        )

    def _bm25_run(
        self, lex: dict[str, float], depth: int, mask: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        idx, scores = self._lexical("chunk", lex).scores(lex)
        if mask is not None and len(idx):
            keep = mask[idx]
            idx, scores = idx[keep], scores[keep]
        if not len(idx):
            return empty_run()
        sel = top_k(scores, depth)
        best = idx[sel]
        # ties by chunk id (not storage order), so a rebuild cannot reorder equal scores
        order = sorted(range(len(sel)), key=lambda j: (-float(scores[sel[j]]), self.table.chunk_ids[best[j]]))
        return best[order], scores[sel][order]

    def _dense_run(self, query: str, depth: int, mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        if self.dense is None or self.embedder is None or self.dense.n == 0:
            return empty_run()
        qv = self.embedder.embed([query], "query")[0]
        return self.dense.search(qv, depth, mask)

    def _groups(self, kind: GroupKind, lex: Mapping[str, float]) -> tuple[BM25Index, list[np.ndarray]]:
        index = self._lexical(kind, lex)
        return (index, self.doc_chunks) if kind == "doc" else (index, self.page_chunks)

    def group_run(self, kind: GroupKind, lex: dict[str, float], depth: int) -> tuple[np.ndarray, np.ndarray]:
        index, _ = self._groups(kind, lex)
        g_idx, g_score = index.scores(lex)
        if not len(g_idx) or depth <= 0:
            return empty_run()
        sel = top_k(g_score, depth)  # ties by position in g_idx, which is ascending: by group number
        return np.asarray(g_idx[sel], dtype=np.int64), g_score[sel]

    def group_scores(self, kind: GroupKind, lex: dict[str, float], groups: np.ndarray) -> np.ndarray:
        index, members = self._groups(kind, lex)
        g_idx, g_score = index.scores(lex)
        full = np.zeros(len(members), dtype=np.float32)
        full[g_idx] = g_score
        return full[np.asarray(groups, dtype=np.int64)]

    def group_members(self, kind: GroupKind, group: int) -> np.ndarray:
        return (self.doc_chunks if kind == "doc" else self.page_chunks)[group]

    def page_index(self, i: int) -> int:
        return int(self.page_of[i])

    def residual_run(
        self, lex: dict[str, float], b_idx: np.ndarray, mask: np.ndarray | None, depth: int, docs: int
    ) -> np.ndarray:
        none = np.zeros(0, dtype=np.int64)
        if depth <= 0 or not len(b_idx):
            return none
        own = self.card_terms(self.table.doc_ids[self.table.doc_index[int(b_idx[0])]])
        weights = {t: w for t, w in lex.items() if t not in own}
        if not weights:
            return none
        r_idx, r_score = self._lexical("chunk", lex).scores(weights)
        if not len(r_idx):
            return none
        lead = {int(self.table.doc_index[int(i)]) for i in b_idx[:docs]}
        keep = np.isin(self.table.doc_index[r_idx], list(lead))
        if mask is not None:
            keep &= mask[r_idx]
        r_idx, r_score = r_idx[keep], r_score[keep]
        return np.asarray(r_idx[top_k(r_score, depth)], dtype=np.int64)

    def holders(self, rows: np.ndarray, terms: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(rows), len(terms)), dtype=bool)
        w = self.bm25.weights
        rows = np.asarray(rows, dtype=np.int64)
        if not len(rows):
            return out
        for j, t in enumerate(terms):
            k = self.bm25.vocab.get(t)
            if k is None:
                continue
            post = w.indices[w.indptr[k] : w.indptr[k + 1]]  # sorted (as `bm25.holds` reads them)
            if len(post):
                # a binary search per candidate: a common term's postings run to most of the corpus, and sorting them
                # with the candidates (`np.isin`) cost more than the rest of the ranking at 100k chunks
                at = np.minimum(np.searchsorted(post, rows), len(post) - 1)
                out[:, j] = post[at] == rows
        return out

    def docs_holding(self, term: str) -> set[int]:
        j = self.doc_bm25.vocab.get(term)
        if j is None:
            return set()
        w = self.doc_bm25.weights
        return set(w.indices[w.indptr[j] : w.indptr[j + 1]].tolist())

    def bag_len(self, i: int) -> float:
        return float(self.doc_len[i])


def _is_embedder(obj: object) -> TypeIs[Embedder]:
    return obj is not None and not isinstance(obj, str) and hasattr(obj, "embed")

