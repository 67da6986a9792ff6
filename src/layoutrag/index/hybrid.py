"""`HybridIndex`: part-aware BM25 and dense vectors over the same chunks, fused at query time into
evidence packages.

    lexical  query + glossary expansion -> PartAwareTokenizer -> BM25 (chunk text + card words)
    dense    query -> embedder("query") -> inner product with passage vectors
    fused    `learned`: candidates from every run scored by the shipped linear model (ranker.py);
             `weighted`: depth-limited RRF of the two runs, document-, page- and residual-BM25
             votes, block-family prior and table-row bonus (fusion.py), then a boost for chunks of
             documents whose part number or series the query names; `rrf`: plain RRF
    hits     the ranked chunks -> hits with their page's companions (hits.py)

The chunk texts each path sees are in candidates.py; per-search options (mode, fusion, hit
settings, ranker) come in one frozen `SearchOptions` (options.py), never by changing the index.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
from typing_extensions import TypeIs

from layoutrag.config import FusionSettings, FusionStrategy, Settings, load_settings
from layoutrag.errors import InputError
from layoutrag.geometry import union_box
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
from layoutrag.index.fusion import fuse
from layoutrag.index.glossary import expand_query, load_glossary
from layoutrag.index.hits import PageHit, best_row, page_hits
from layoutrag.index.options import MODES, SearchOptions
from layoutrag.index.query import (
    CardMatcher,
    block_family,
    filter_mask,
    is_searchable,
    normalize_query,
    query_codes,
    wanted_family,
)
from layoutrag.index.ranker import LinearRanker, candidate_features, default_ranker
from layoutrag.index.spec_constraints import boost_constraints
from layoutrag.index.tokenizer import CJK_RE, Tokenizer, get_tokenizer, is_part_like, normalize_text
from layoutrag.records import Box, Chunk, DocumentCard, EvidencePackage, Region, SearchFilters

__all__ = [
    "MODES",
    "ChunkTable",
    "HybridIndex",
    "page_unit_id",
    "parse_page_unit_id",
    "SearchOptions",
    "bm25_text",
    "card_text",
    "embed_text",
]

RUN_DEPTH = 100  # each path contributes at most this many candidates to fusion
RARE_CODE_DOCS = 5  # a part-like code in at most this many documents names them


@dataclass
class ChunkTable:
    """Per-chunk columns the search needs without parsing chunk records (filters, ids, fusion ties)."""

    chunk_ids: list[str]
    doc_ids: list[str]  # distinct doc ids; doc_index points into it
    doc_index: np.ndarray
    pages: np.ndarray
    block_types: list[str]  # distinct block types; block_codes points into it
    block_codes: np.ndarray

    @classmethod
    def from_chunks(cls, chunks: Sequence[Chunk]) -> ChunkTable:
        doc_ids = sorted({c.doc_id for c in chunks})
        block_types = sorted({c.block_type for c in chunks})
        dpos = {d: i for i, d in enumerate(doc_ids)}
        bpos = {b: i for i, b in enumerate(block_types)}
        return cls(
            chunk_ids=[c.chunk_id for c in chunks],
            doc_ids=doc_ids,
            doc_index=np.fromiter((dpos[c.doc_id] for c in chunks), dtype=np.int32, count=len(chunks)),
            pages=np.fromiter((c.page for c in chunks), dtype=np.int32, count=len(chunks)),
            block_types=block_types,
            block_codes=np.fromiter((bpos[c.block_type] for c in chunks), dtype=np.int16, count=len(chunks)),
        )


class HybridIndex:
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
        self.chunks = chunks
        self.cards = dict(cards)
        self.table = table
        self.bm25 = BM25Index(counts, k1=settings.index.bm25_k1, b=settings.index.bm25_b)
        self.doc_len = counts.doc_len
        self.doc_bm25 = BM25Index(
            doc_term_counts(counts, table), k1=settings.index.bm25_k1, b=settings.index.bm25_b
        )
        order = np.argsort(table.doc_index, kind="stable")
        self.doc_chunks = np.split(
            order, np.cumsum(np.bincount(table.doc_index, minlength=len(table.doc_ids)))[:-1]
        )
        # pages: (document, page) of each chunk's first region; page_bm25 ranks whole pages
        page_key = table.doc_index.astype(np.int64) * (int(table.pages.max(initial=0)) + 1) + table.pages
        _, page_of = np.unique(page_key, return_inverse=True)
        self.page_of: np.ndarray = page_of.reshape(-1)
        n_pages = int(self.page_of.max(initial=-1)) + 1
        self.page_bm25 = BM25Index(
            group_term_counts(counts, self.page_of, n_pages),
            k1=settings.index.bm25_k1,
            b=settings.index.bm25_b,
        )
        order = np.argsort(self.page_of, kind="stable")
        self.page_chunks = np.split(order, np.cumsum(np.bincount(self.page_of, minlength=n_pages))[:-1])
        self._page_group: dict[tuple[str, int], int] | None = None  # (doc, page) -> page group
        self.family = np.array([block_family(b) or "" for b in table.block_types], dtype=object)
        self.dense = dense
        self.embedder = embedder
        self.tokenizer = tokenizer
        self.settings = settings
        self.matcher = CardMatcher(self.cards)
        self._card_tokens: dict[tuple[int, str], set[str]] = {}  # (tokenizer, doc id) -> card tokens
        self._section_tokens: dict[int, set[str]] = {}  # chunk -> section title / toc path tokens
        self._row_tokens: dict[int, list[set[str]]] = {}  # chunk -> tokens of each table row

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

    # ------------------------------------------------------------------ search
    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        filters: SearchFilters | None = None,
        mode: str | None = None,
        options: SearchOptions | None = None,
    ) -> list[EvidencePackage]:
        """Evidence packages, best first. An empty or unsearchable query gives an empty list.
        `options` (frozen) change this one search; `mode` is a shorthand for `options.mode`."""
        opts = options or SearchOptions()
        if mode is not None:
            if mode not in MODES:
                raise InputError(f"unknown search mode {mode!r}; valid: {', '.join(MODES)}")
            opts = replace(opts, mode=mode)
        k = self.settings.search.top_k if top_k is None else int(top_k)
        if k < 1:
            raise InputError("top_k must be at least 1")
        query = normalize_query(query, max_chars=self.settings.search.max_query_chars)
        if not is_searchable(query) or not self.table.chunk_ids:
            return []  # nothing searchable (empty, only punctuation or symbols)
        ranked, runs = self.rank(query, k, filters=filters, options=opts)
        b_idx, b_score, d_idx, d_score = runs
        hit_cfg = opts.hits or self.settings.hits
        hits = page_hits(
            ranked,
            k,
            doc_index=self.table.doc_index,
            pages=self.table.pages,
            hits=hit_cfg,
            page_below=self._page_below(opts, hit_cfg.page_members),
        )
        b_rank = {int(i): r for r, i in enumerate(b_idx, start=1)}
        d_rank = {int(i): r for r, i in enumerate(d_idx, start=1)}
        b_val = dict(zip(b_idx.tolist(), b_score.tolist(), strict=True))
        d_val = dict(zip(d_idx.tolist(), d_score.tolist(), strict=True))
        q_tokens: set[str] | None = None

        def package(i: int, score: float) -> EvidencePackage:
            nonlocal q_tokens
            chunk = self.chunks[i]
            if chunk.rows and q_tokens is None:
                q_tokens = set(self.tokenizer.tokenize(expand_query(query)))
            return EvidencePackage(
                **chunk.model_dump(),
                score=float(score),
                bm25_rank=b_rank.get(i),
                dense_rank=d_rank.get(i),
                bm25_score=b_val.get(i),
                dense_score=d_val.get(i),
                matched_row=best_row(self.row_scores(i, q_tokens)) if chunk.rows and q_tokens else None,
            )

        out = []
        for members in hits:
            if isinstance(members, PageHit):
                out.append(self._page_package(members[0][0], [package(i, s) for i, s in members]))
                continue
            lead = package(*members[0])
            lead.companions = [package(i, s) for i, s in members[1:]]
            out.append(lead)
        return out

    def _page_below(self, opts: SearchOptions, page_members: int) -> float | None:
        """The learned ranker's unit-choice threshold (hits.py), when the search uses it."""
        cfg = opts.fusion or self.settings.fusion
        if opts.mode != "fused" or cfg.strategy is not FusionStrategy.learned or not opts.units:
            return None
        return (opts.ranker or default_ranker()).page_threshold(page_members)

    def _page_package(self, i: int, shown: list[EvidencePackage]) -> EvidencePackage:
        """The page of chunk i as one hit, with the chunks that ranked on it as companions
        (highlighted on the page) and the best one's scores."""
        lead = shown[0]
        unit = self._page_unit_of(int(self.page_of[i]))
        return unit.model_copy(
            update={
                "score": lead.score,
                "bm25_rank": lead.bm25_rank,
                "dense_rank": lead.dense_rank,
                "bm25_score": lead.bm25_score,
                "dense_score": lead.dense_score,
                "section_title": lead.section_title,
                "toc_path": lead.toc_path,
                "companions": shown,
            }
        )

    def _page_unit_of(self, group: int) -> EvidencePackage:
        members = [self.chunks[int(j)] for j in self.page_chunks[group]]
        first = members[0]
        if first.page_size_pt:
            box = Box(0.0, 0.0, float(first.page_size_pt[0]), float(first.page_size_pt[1]))
        else:
            box = union_box(r.bbox_pdf for c in members for r in c.all_regions() if r.page == first.page)
        return EvidencePackage(
            chunk_id=page_unit_id(first.doc_id, first.page),
            doc_id=first.doc_id,
            page=first.page,
            source_pdf=first.source_pdf,
            bboxes_pdf=[box],
            regions=[Region(page=first.page, bbox_pdf=box)],
            page_size_pt=first.page_size_pt,
            block_type="page",
            unit="page",
            native_text="\n\n".join(c.native_text for c in members if c.native_text),
        )

    def page_unit(self, doc_id: str, page: int) -> EvidencePackage | None:
        """The page unit a search may return as a hit (`{doc_id}_p{page}_page`), or None when the
        page has no indexed chunk."""
        if self._page_group is None:
            self._page_group = {
                (self.table.doc_ids[int(self.table.doc_index[int(g[0])])], int(self.table.pages[int(g[0])])): n
                for n, g in enumerate(self.page_chunks)
                if len(g)
            }
        group = self._page_group.get((doc_id, int(page)))
        return self._page_unit_of(group) if group is not None else None

    def rank(
        self,
        query: str,
        k: int,
        *,
        filters: SearchFilters | None = None,
        options: SearchOptions | None = None,
    ) -> tuple[list[tuple[int, float]], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """[(chunk index, score)] best first for a normalised query, and the BM25 and dense runs
        (indices, scores) it was made from."""
        opts = options or SearchOptions()
        mask = self._filter_mask(filters)
        depth = max(RUN_DEPTH, k)
        mode = opts.mode
        lex = self.lexical_query(query, expand=opts.expand_glossary) if mode != "dense" else {}
        b_idx, b_score = self._bm25_run(lex, depth, mask) if mode != "dense" else _empty()
        d_idx, d_score = self._dense_run(query, depth, mask) if mode != "bm25" else _empty()
        runs = (b_idx, b_score, d_idx, d_score)
        if mode == "bm25":
            return list(zip(b_idx.tolist(), b_score.tolist(), strict=True)), runs
        if mode == "dense":
            return list(zip(d_idx.tolist(), d_score.tolist(), strict=True)), runs
        cfg = opts.fusion or self.settings.fusion
        if cfg.strategy is FusionStrategy.learned:
            ranked = self._learned(query, lex, runs, mask, opts.ranker or default_ranker())
        else:
            ranked = self._fuse(query, lex, b_idx, d_idx, mask, cfg, doc_boost=opts.doc_boost)
        # numeric constraints in the query ("stability ±10 ppm"): index/spec_constraints.py
        return boost_constraints(self, query, ranked, self.settings.search.spec_constraint_weight), runs

    def features(
        self, query: str, *, filters: SearchFilters | None = None, expand_glossary: bool = True
    ) -> tuple[np.ndarray, np.ndarray]:
        """(candidate chunk indices, their feature matrix) for a normalised query (ranker.py)."""
        mask = self._filter_mask(filters)
        lex = self.lexical_query(query, expand=expand_glossary)
        b_idx, b_score = self._bm25_run(lex, RUN_DEPTH, mask)
        d_idx, d_score = self._dense_run(query, RUN_DEPTH, mask)
        return candidate_features(self, query, lex, (b_idx, b_score, d_idx, d_score), mask)

    def _learned(
        self,
        query: str,
        lex: dict[str, float],
        runs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        mask: np.ndarray | None,
        ranker: LinearRanker,
    ) -> list[tuple[int, float]]:
        cands, X = candidate_features(self, query, lex, runs, mask)
        if not len(cands):
            return []
        z = ranker.logits(X)
        prob = 1.0 / (1.0 + np.exp(-z))
        ids = self.table.chunk_ids
        order = sorted(range(len(cands)), key=lambda j: (-z[j], ids[int(cands[j])]))
        return [(int(cands[j]), float(prob[j])) for j in order]

    def _filter_mask(self, filters: SearchFilters | None) -> np.ndarray | None:
        """Which chunks the filters keep (None: all); a store that filters itself overrides this."""
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
        idx, scores = self.bm25.scores(lex)
        if mask is not None and len(idx):
            keep = mask[idx]
            idx, scores = idx[keep], scores[keep]
        if not len(idx):
            return _empty()
        sel = top_k(scores, depth)
        best = idx[sel]
        # ties by chunk id (not storage order), so a rebuild cannot reorder equal scores
        order = sorted(range(len(sel)), key=lambda j: (-float(scores[sel[j]]), self.table.chunk_ids[best[j]]))
        return best[order], scores[sel][order]

    def _dense_run(self, query: str, depth: int, mask: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        if self.dense is None or self.embedder is None or self.dense.n == 0:
            return _empty()
        qv = self.embedder.embed([query], "query")[0]
        return self.dense.search(qv, depth, mask)

    def _fuse(
        self,
        query: str,
        lex: dict[str, float],
        b_idx: np.ndarray,
        d_idx: np.ndarray,
        mask: np.ndarray | None,
        cfg: FusionSettings,
        *,
        doc_boost: bool = True,
    ) -> list[tuple[int, float]]:
        """The hand-set fusions (`weighted`, `rrf`). `lex`: the query's lexical term weights
        (`lexical_query`), shared by every BM25 run."""
        ids = self.table.chunk_ids
        k = self.settings.search.rrf_k
        named = self.matcher.match(query) if doc_boost else {}
        lexical = bool(named) or bool(self.names_rare_code(query))
        if not lexical and len(b_idx) and cfg.strategy is FusionStrategy.weighted:
            lexical = self._lexical_confidence(query, int(b_idx[0])) >= cfg.lexical_gate
        fused = fuse([ids[i] for i in b_idx], [ids[i] for i in d_idx], k=k, config=cfg, named=lexical)
        pos = {ids[i]: int(i) for i in (*b_idx.tolist(), *d_idx.tolist())}
        scores = {pos[cid]: s for cid, s in fused}
        if cfg.strategy is FusionStrategy.weighted and len(b_idx):
            if not lexical:
                self._add_group_run(
                    self.doc_bm25, self.doc_chunks, cfg.doc_weight, cfg.doc_depth, lex, scores, mask
                )
                self._add_type_prior(query, scores, cfg.type_prior)
            if not lexical or cfg.page_on_lexical:
                self._add_group_run(
                    self.page_bm25, self.page_chunks, cfg.page_weight, cfg.page_depth, lex, scores, mask
                )
            if lexical and cfg.residual_weight > 0:
                r_idx = self.residual_run(lex, b_idx, mask, cfg.residual_depth, cfg.residual_docs)
                for rank, i in enumerate(r_idx.tolist(), start=1):
                    scores[i] = scores.get(i, 0.0) + cfg.residual_weight / (k + rank)
            if lexical:
                self._add_type_prior(query, scores, cfg.lexical_type_prior)
            self._add_row_bonus(query, scores, cfg)
        if named:  # the named documents' chunks first
            bonus = 1.0 / (k + 1)
            for i in scores:
                scores[i] += bonus * named.get(self.table.doc_ids[self.table.doc_index[i]], 0.0)
        if (
            mask is not None
        ):  # every run above must respect the filters; this is the one place that ensures it
            scores = {i: s for i, s in scores.items() if mask[i]}
        return sorted(scores.items(), key=lambda t: (-t[1], ids[t[0]]))

    def lexical_query(self, query: str, *, expand: bool = True) -> dict[str, float]:
        """Query term -> weight for BM25: the query's own tokens (3-grams at a quarter), each CJK run
        and each glossary expansion weighing about two terms (their tokens share it) - a 7-character
        Chinese phrase is 6 bigrams, and at full weight it would outvote the part number beside it."""
        weights: dict[str, float] = {}
        for t in self.tokenizer.tokenize(query):
            if not CJK_RE.search(t):
                weights[t] = weights.get(t, 0.0) + query_token_weight(t)
        for run in CJK_RE.findall(normalize_text(query)):  # each CJK run, like an expansion, ~2 terms
            toks = self.tokenizer.tokenize(run)
            for t in toks:
                weights[t] = weights.get(t, 0.0) + min(1.0, EXPANSION_TOKENS / len(toks))
        if expand:
            for term in load_glossary().expansions(query):
                toks = self.tokenizer.tokenize(term)
                # a Chinese term added to an English query only serves Chinese-only datasheets: in a
                # bilingual one the English words match already, so it weighs little
                budget = ZH_EXPANSION_TOKENS if CJK_RE.search(term) else EXPANSION_TOKENS
                share = min(1.0, budget / len(toks)) if toks else 0.0
                for t in toks:
                    weights[t] = weights.get(t, 0.0) + share * query_token_weight(t)
        return weights

    def known_terms(self, query: str) -> set[str]:
        """The query's tokens the corpus knows, as typed (no 3-grams)."""
        return {t for t in self.tokenizer.tokenize(query) if t in self.bm25.vocab and not _is_ngram(t)}

    def _lexical_confidence(self, query: str, top: int) -> float:
        """Share of the query's idf mass (terms the corpus knows, as typed, no 3-grams) that BM25's
        top chunk holds: high for a keyword query that BM25 answers, low for a long question whose
        words the chunks do not use (where the dense run and the document run earn their votes).
        What the chunk holds is read off the BM25 postings (they were counted from its text)."""
        known = self.known_terms(query)
        total = self.idf_mass(known)
        held = self.idf_mass(t for t in known if self.bm25.holds(top, t))
        return held / total if total > 0 else 0.0

    def names_rare_code(self, query: str) -> set[str]:
        """The query's part-like codes that occur in only a few documents: such a code names
        something specific (even when no card lists it) and the lexical route is the right one."""
        return {
            code
            for code in query_codes(query)
            if is_part_like(code) and 0 < self.doc_bm25.df(code) <= RARE_CODE_DOCS
        }

    def _add_group_run(
        self,
        index: BM25Index,
        members: list[np.ndarray],
        weight: float,
        depth: int,
        lex: dict[str, float],
        scores: dict[int, float],
        mask: np.ndarray | None,
    ) -> None:
        """Groups of chunks (documents, pages) ranked by BM25 over all their chunks' text vote for
        their chunks: the group that best matches the whole question lifts its chunks, even those
        that match only in part."""
        if weight <= 0:
            return
        g_idx, g_score = index.scores(lex)
        if not len(g_idx):
            return
        for rank, g in enumerate(top_k(g_score, depth), start=1):
            vote = weight / (self.settings.search.rrf_k + rank)
            chunks = members[int(g_idx[g])]
            if mask is not None:
                chunks = chunks[mask[chunks]]
            for i in chunks.tolist():
                scores[i] = scores.get(i, 0.0) + vote

    def residual_run(
        self, lex: dict[str, float], b_idx: np.ndarray, mask: np.ndarray | None, depth: int, docs: int
    ) -> np.ndarray:
        """Within the lexical run's leading `docs` documents, the query minus the top document's own
        names (its card words - title, vendor, series, part numbers - which every chunk of it
        carries, so BM25's length normalization turns them into a bonus for short headers) ranks
        the chunks by what the question asks about: the top `depth` chunk indices, best first."""
        none = np.zeros(0, dtype=np.int64)
        if depth <= 0 or not len(b_idx):
            return none
        own = self.card_terms(self.table.doc_ids[self.table.doc_index[int(b_idx[0])]])
        weights = {t: w for t, w in lex.items() if t not in own}
        if not weights:
            return none
        r_idx, r_score = self.bm25.scores(weights)
        if not len(r_idx):
            return none
        lead = {int(self.table.doc_index[int(i)]) for i in b_idx[:docs]}
        keep = np.isin(self.table.doc_index[r_idx], list(lead))
        if mask is not None:
            keep &= mask[r_idx]
        r_idx, r_score = r_idx[keep], r_score[keep]
        return np.asarray(r_idx[top_k(r_score, depth)], dtype=np.int64)

    def _add_row_bonus(self, query: str, scores: dict[int, float], cfg: FusionSettings) -> None:
        """A table chunk among the leading candidates whose best row holds the query's informative
        terms (idf share of the terms the corpus knows, no 3-grams) gets up to `row_weight` votes:
        the table that lists the asked value outranks the list or text that only names it."""
        if cfg.row_weight <= 0 or not scores or wanted_family(query) != "spec":
            return  # a drawing or a curve is asked for, not a table value
        q_known = self.known_terms(query)
        ids = self.table.chunk_ids
        lead = sorted(scores.items(), key=lambda t: (-t[1], ids[t[0]]))[: cfg.row_depth]
        vote = cfg.row_weight / (self.settings.search.rrf_k + 1)
        for i, _ in lead:
            chunk = self.chunks[i]
            if not chunk.rows:
                continue
            known = q_known - self.card_terms(chunk.doc_id)  # its own names say nothing about the row
            total = self.idf_mass(known)
            if total > 0:
                scores[i] += vote * max(self.row_scores(i, known), default=0.0) / total

    def card_terms(self, doc_id: str) -> set[str]:
        """The tokens of a document's card (title, vendor, series, part numbers, product type):
        fixed for the index's life, so tokenized once per document, not once per query."""
        key = (id(self.tokenizer), doc_id)  # a shallow copy with another tokenizer shares this memo
        terms = self._card_tokens.get(key)
        if terms is None:
            terms = self._card_tokens[key] = set(self.tokenizer.tokenize(card_text(self.cards.get(doc_id))))
        return terms

    def section_terms(self, i: int) -> set[str]:
        """The tokens of chunk i's section title and toc path (memoized)."""
        terms = self._section_tokens.get(i)
        if terms is None:
            c = self.chunks[i]
            terms = self._section_tokens[i] = set(self.tokenizer.tokenize(f"{c.section_title}\n{c.toc_path}"))
        return terms

    def _add_type_prior(self, query: str, scores: dict[int, float], weight: float) -> None:
        if weight <= 0 or not scores:
            return
        want = wanted_family(query)
        vote = weight / (self.settings.search.rrf_k + 1)
        codes = self.table.block_codes
        for i in scores:
            if self.family[codes[i]] == want:
                scores[i] += vote

    def row_scores(self, i: int, tokens: set[str]) -> list[float]:
        """Per row of table chunk i: the idf mass of `tokens` the row holds (header rows 0)."""
        rows = self._row_tokens.get(i)
        if rows is None:
            rows = self._row_tokens[i] = [
                set() if row.is_header else set(self.tokenizer.tokenize(row.text or " ".join(row.cells)))
                for row in self.chunks[i].rows
            ]
        return [self.idf_mass(held & tokens) for held in rows]

    def idf_mass(self, terms: Iterable[str]) -> float:
        """The summed idf of `terms`, added in sorted order: a set's iteration order changes with
        the process's string hashing, and float sums in another order can break a tie between two
        rows (the matched row) differently from one run to the next."""
        return sum(self.bm25.idf(t) for t in sorted(terms))


NGRAM_QUERY_WEIGHT = 0.25
EXPANSION_TOKENS = 2.0  # a glossary expansion (or a CJK run) weighs at most as much as two query terms
ZH_EXPANSION_TOKENS = 0.5  # ... a Chinese expansion of an English query, half a term


def page_unit_id(doc_id: str, page: int) -> str:
    """The id of a page unit (hits.py): `{doc_id}_p{page}_page`."""
    return f"{doc_id}_p{int(page)}_page"


def parse_page_unit_id(chunk_id: str) -> tuple[str, int] | None:
    """(doc_id, page) of a page-unit id, else None."""
    if not chunk_id.endswith("_page"):
        return None
    head, sep, tail = chunk_id[: -len("_page")].rpartition("_p")
    if not sep or not head or not tail.isdigit():
        return None
    return head, int(tail)


def query_token_weight(token: str) -> float:
    """A part number yields ~10 query tokens (intact, compact, subfields, 3-grams); the 3-grams only
    exist to catch fragments and other separators, so they count a quarter each, keeping a named
    part from outvoting the words that say which chunk of its datasheet is wanted."""
    return NGRAM_QUERY_WEIGHT if _is_ngram(token) else 1.0


def _is_ngram(token: str) -> bool:
    return token.startswith("#") and len(token) == 4


def _is_embedder(obj: object) -> TypeIs[Embedder]:
    return obj is not None and not isinstance(obj, str) and hasattr(obj, "embed")


def _empty() -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
