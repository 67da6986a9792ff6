"""`SearchIndex`: the store-agnostic search over one index generation — query handling, the
fusions (learned, weighted, rrf), hits and evidence packages. A store supplies two things:

    the chunk table   `chunks` (records by row), `table` (chunk ids, doc index, pages, block codes,
                      the distinct doc ids and block types), `cards`
    the runs          `_bm25_run`, `_dense_run`, `group_run` / `group_scores` / `group_members`
                      (documents and pages ranked by BM25 over all their chunks' text),
                      `residual_run`, `_filter_mask`, and the lexical statistics `bm25` / `doc_bm25`
                      (`LexicalStats`: vocab, idf, df, holds) with `holders`, `docs_holding`,
                      `page_index`, `bag_len` for the learned ranker's features

and may override two hooks that fetch ahead what a search will read: `prepare(query, options)`
(before ranking: e.g. the df rows of the query's terms) and `prefetch(rows, records=...)` (rows
of the chunk table, and chunk records, that the next step reads). The embedded store
(`hybrid.HybridIndex`) holds everything in memory and needs neither hook; the Qdrant store
(`qdrant_store.QdrantIndex`) answers the runs with Qdrant queries and fills bounded caches in them.

Per-search options (mode, fusion, hit settings, ranker) come in one frozen `SearchOptions`
(options.py), never by changing the index.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

import numpy as np

from layoutrag.config import FusionSettings, FusionStrategy, Settings
from layoutrag.errors import InputError
from layoutrag.geometry import union_box
from layoutrag.index.candidates import card_text, row_aka
from layoutrag.index.embedders import Embedder
from layoutrag.index.fusion import fuse
from layoutrag.index.glossary import expand_query, load_glossary
from layoutrag.index.hits import PageHit, best_row, page_hits, split_at_page
from layoutrag.index.options import MODES, SearchOptions
from layoutrag.index.query import (
    CardMatcher,
    block_family,
    is_searchable,
    normalize_query,
    query_codes,
    wanted_family,
)
from layoutrag.index.ranker import (
    ChunkShape,
    Ranker,
    candidate_features,
    chunk_position,
    default_ranker,
    ranked_candidates,
)
from layoutrag.index.spec_constraints import boost_constraints
from layoutrag.index.tokenizer import CJK_RE, WORD_RE, Tokenizer, is_part_like, normalize_text
from layoutrag.records import Box, Chunk, DocumentCard, EvidencePackage, Region, SearchFilters
from layoutrag.specs import parameter_names, parameters_named

__all__ = [
    "RUN_DEPTH",
    "ChunkTable",
    "GroupKind",
    "LexicalQuery",
    "LexicalStats",
    "SearchIndex",
    "empty_run",
    "is_scenario_question",
    "page_unit_id",
    "ranker_b_long",
    "parse_page_unit_id",
    "query_token_weight",
]

RUN_DEPTH = 100  # each path contributes at most this many candidates to fusion
RARE_CODE_DOCS = 5  # a part-like code in at most this many documents names them

GroupKind = Literal["doc", "page"]
Runs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


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


class LexicalStats(Protocol):
    """What the search asks of a BM25 index besides scoring: is a term known, its idf and df, does
    a row (chunk or document) hold it."""

    @property
    def vocab(self) -> Any: ...  # supports `term in vocab`
    def idf(self, term: str) -> float: ...
    def df(self, term: str) -> int: ...
    def holds(self, doc: int, term: str) -> bool: ...


class SearchIndex:
    """Search over one generation of a store: see the module docstring for what a store supplies."""

    bm25: LexicalStats  # chunk level
    doc_bm25: LexicalStats  # document level (df: documents holding a term)

    def __init__(
        self,
        chunks: Sequence[Chunk],
        cards: Mapping[str, DocumentCard],
        *,
        table: Any,  # ChunkTable, or a store's lazy columns with the same interface
        embedder: Embedder | None,
        tokenizer: Tokenizer,
        settings: Settings,
    ) -> None:
        self.chunks = chunks
        self.cards = dict(cards)
        self.table = table
        self.embedder = embedder
        self.tokenizer = tokenizer
        self.settings = settings
        self.family = np.array([block_family(b) or "" for b in table.block_types], dtype=object)
        self.matcher = CardMatcher(self.cards)
        self._card_tokens: dict[tuple[int, str], set[str]] = {}  # (tokenizer, doc id) -> card tokens
        self._section_tokens: dict[int, set[str]] = {}  # chunk -> section title / toc path tokens
        self._row_tokens: dict[int, list[set[str]]] = {}  # chunk -> tokens of each table row
        self._shapes: dict[int, ChunkShape] = {}  # chunk -> what the ranker reads of its record
        self._page_units: dict[int, Chunk] = {}  # page group -> its page unit (`_page_unit_of`)

    # ------------------------------------------------------------------ the runs (a store supplies)
    def _filter_mask(self, filters: SearchFilters | None) -> Any:
        """Which chunks the filters keep, indexable like a boolean array by chunk row (None: all)."""
        raise NotImplementedError

    def _bm25_run(self, lex: dict[str, float], depth: int, mask: Any) -> tuple[np.ndarray, np.ndarray]:
        """The chunk BM25 run for the query's term weights: (rows, scores) best first, ties by
        chunk id, at most `depth`, filters respected."""
        raise NotImplementedError

    def _dense_run(self, query: str, depth: int, mask: Any) -> tuple[np.ndarray, np.ndarray]:
        """The dense run: (rows, inner products) best first, at most `depth`, filters respected."""
        raise NotImplementedError

    def group_run(self, kind: GroupKind, lex: dict[str, float], depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Documents or pages ranked by BM25 over all their chunks' text: (group numbers, scores)
        best first, ties by group number, at most `depth`. Pages are numbered in (document, page)
        order, documents as `table.doc_ids`."""
        raise NotImplementedError

    def group_scores(self, kind: GroupKind, lex: dict[str, float], groups: np.ndarray) -> np.ndarray:
        """The BM25 scores (float32, 0 where nothing matches) of the given groups."""
        raise NotImplementedError

    def group_members(self, kind: GroupKind, group: int) -> np.ndarray:
        """The chunk rows of a document or page."""
        raise NotImplementedError

    def page_index(self, i: int) -> int:
        """The page number (as `group_run` numbers pages) of chunk row i."""
        raise NotImplementedError

    def residual_run(
        self, lex: dict[str, float], b_idx: np.ndarray, mask: Any, depth: int, docs: int
    ) -> np.ndarray:
        """Within the lexical run's leading `docs` documents, the query minus the top document's own
        names (its card words - title, vendor, series, part numbers - which every chunk of it
        carries, so BM25's length normalization turns them into a bonus for short headers) ranks
        the chunks by what the question asks about: the top `depth` chunk rows, best first."""
        raise NotImplementedError

    def holders(self, rows: np.ndarray, terms: Sequence[str]) -> np.ndarray:
        """len(rows) x len(terms) booleans: does chunk row r's BM25 bag hold term t."""
        raise NotImplementedError

    def docs_holding(self, term: str) -> set[int]:
        """The documents (numbers into `table.doc_ids`) whose text holds the term."""
        raise NotImplementedError

    def bag_len(self, i: int) -> float:
        """The length of chunk row i's BM25 bag (tokens)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ hooks (a store may override)
    def prepare(self, query: str, options: SearchOptions) -> None:
        """Called once a query is normalised, before ranking."""

    def prefetch(self, rows: Iterable[int], *, records: bool = False) -> None:
        """The next step reads these rows of the chunk table (and, with `records`, their chunk records)."""

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
        if not is_searchable(query) or not len(self.chunks):
            return []  # nothing searchable (empty, only punctuation or symbols)
        self.prepare(query, opts)
        ranked, runs = self.rank(query, k, filters=filters, options=opts)
        hit_cfg = opts.hits or self.settings.hits
        self.prefetch((i for i, _ in ranked[: max(hit_cfg.merge_depth, k) * 3]), records=True)
        b_idx, b_score, d_idx, d_score = runs
        hits = page_hits(
            ranked,
            k,
            doc_index=self.table.doc_index,
            pages=self.table.pages,
            hits=hit_cfg,
            # a block-type filter asks for that kind of unit: never answer it with a page
            page_below=None if filters and filters.block_type else self._page_below(opts, hit_cfg.page_members),
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
            rest: list[EvidencePackage] = []
            if hit_cfg.focus_page:
                page = self.focus_page(members[0][0], q_tokens or set())  # q_tokens: set by package()
                if page is not None:
                    lead, part = split_at_page(lead, page)
                    rest = [part] if part is not None else []
            # the unit's other part is a companion like any other: a hit shows at most page_members
            # parts, so only the members that still fit are packaged
            room = max(0, hit_cfg.page_members - 1)
            shown = rest + [package(i, s) for i, s in members[1 : 1 + max(0, room - len(rest))]]
            lead.companions = shown[:room]
            out.append(lead)
        return out

    def focus_page(self, i: int, q_tokens: set[str]) -> int | None:
        """For a unit spanning pages (a table continued over a page break): the page of its row that
        holds the most of the query's informative terms (`q_tokens`: the expanded query's tokens,
        as the matched row reads them), the document's own names left out (as the row bonus reads
        rows: every row of the document is about its part). None when the unit is on one page or
        no row holds such a term."""
        chunk = self.chunks[i]
        if not chunk.rows or len({r.page for r in chunk.all_regions()}) < 2:
            return None
        known = self.known_of(q_tokens) - self.card_terms(chunk.doc_id)
        best = best_row(self.row_scores(i, known)) if known else None
        return None if best is None else chunk.rows[best].page

    # ------------------------------------------------------------------ page units (hits.py)
    def _page_below(self, opts: SearchOptions, page_members: int) -> float | None:
        """The learned ranker's unit-choice threshold, when the search uses it."""
        cfg = opts.fusion or self.settings.fusion
        if opts.mode != "fused" or cfg.strategy is not FusionStrategy.learned or not opts.units:
            return None
        return (opts.ranker or default_ranker()).page_threshold(page_members)

    def _page_package(self, i: int, shown: list[EvidencePackage]) -> EvidencePackage:
        """The page of chunk i as one hit, with the chunks that ranked on it as companions
        (highlighted on the page) and the best one's scores."""
        lead = shown[0]
        unit = self._page_unit_of(self.page_index(i))
        return EvidencePackage(
            **{
                **unit.model_dump(),
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

    def _page_unit_of(self, group: int) -> Chunk:
        """The page unit of page group `group` (memoized: it is made from every chunk record of its page, fixed for
        the index's life; read it, do not change it - `page_unit` hands out copies)."""
        unit = self._page_units.get(group)
        if unit is None:
            unit = self._page_units[group] = self._make_page_unit(group)
        return unit

    def _make_page_unit(self, group: int) -> Chunk:
        rows = [int(j) for j in self.group_members("page", group)]
        self.prefetch(rows, records=True)
        members = [self.chunks[j] for j in rows]
        first = members[0]
        boxes = [r.bbox_pdf for c in members for r in c.all_regions() if r.page == first.page]
        if first.page_size_pt:
            box: Box | None = Box(0.0, 0.0, float(first.page_size_pt[0]), float(first.page_size_pt[1]))
        else:
            box = union_box(boxes) if boxes else None
        return Chunk(
            chunk_id=page_unit_id(first.doc_id, first.page),
            doc_id=first.doc_id,
            page=first.page,
            source_pdf=first.source_pdf,
            bboxes_pdf=[box] if box else [],
            regions=[Region(page=first.page, bbox_pdf=box)] if box else [],
            page_size_pt=first.page_size_pt,
            block_type="page",
            unit="page",
            native_text="\n\n".join(c.native_text for c in members if c.native_text),
        )

    def page_unit(self, doc_id: str, page: int) -> Chunk | None:
        """The page unit a search may return as a hit (`{doc_id}_p{page}_page`), or None when the
        page has no indexed chunk."""
        try:
            d = self.table.doc_ids.index(doc_id)
        except ValueError:
            return None
        rows = np.flatnonzero((self.table.doc_index == d) & (self.table.pages == int(page)))
        return self._page_unit_of(self.page_index(int(rows[0]))).model_copy(deep=True) if len(rows) else None

    def rank(
        self,
        query: str,
        k: int,
        *,
        filters: SearchFilters | None = None,
        options: SearchOptions | None = None,
    ) -> tuple[list[tuple[int, float]], Runs]:
        """[(chunk index, score)] best first for a normalised query, and the BM25 and dense runs
        (indices, scores) it was made from."""
        opts = options or SearchOptions()
        mask = self._filter_mask(filters)
        depth = max(RUN_DEPTH, k)
        mode = opts.mode
        lex = (
            self.lexical_query(query, expand=opts.expand_glossary, focus=opts.focus_terms)
            if mode != "dense"
            else LexicalQuery()
        )
        cfg = opts.fusion or self.settings.fusion
        learned = mode == "fused" and cfg.strategy is FusionStrategy.learned
        ranker = (opts.ranker or default_ranker()) if learned else None
        if ranker is not None and lex.scenario:
            lex.b = ranker_b_long(ranker)  # the learned ranker's features as it was fit
        b_idx, b_score = self._bm25_run(lex, depth, mask) if mode != "dense" else empty_run()
        d_idx, d_score = self._dense_run(query, depth, mask) if mode != "bm25" else empty_run()
        runs = (b_idx, b_score, d_idx, d_score)
        if mode == "bm25":
            return list(zip(b_idx.tolist(), b_score.tolist(), strict=True)), runs
        if mode == "dense":
            return list(zip(d_idx.tolist(), d_score.tolist(), strict=True)), runs
        if ranker is not None:
            ranked = self._learned(query, lex, runs, mask, ranker)
        else:
            ranked = self._fuse(query, lex, b_idx, d_idx, mask, cfg, doc_boost=opts.doc_boost)
        # numeric constraints in the query ("stability ±10 ppm"): index/spec_constraints.py
        return boost_constraints(self, query, ranked, self.settings.search.spec_constraint_weight), runs

    def features(
        self,
        query: str,
        *,
        filters: SearchFilters | None = None,
        expand_glossary: bool = True,
        focus_terms: bool = False,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(candidate chunk indices, their feature matrix) for a normalised query (ranker.py)."""
        self.prepare(query, SearchOptions(expand_glossary=expand_glossary, focus_terms=focus_terms))
        mask = self._filter_mask(filters)
        lex = self.lexical_query(query, expand=expand_glossary, focus=focus_terms)
        b_idx, b_score = self._bm25_run(lex, RUN_DEPTH, mask)
        d_idx, d_score = self._dense_run(query, RUN_DEPTH, mask)
        return candidate_features(self, query, lex, (b_idx, b_score, d_idx, d_score), mask)

    def _learned(
        self, query: str, lex: dict[str, float], runs: Runs, mask: Any, ranker: Ranker
    ) -> list[tuple[int, float]]:
        cands, X = candidate_features(self, query, lex, runs, mask)
        if not len(cands):
            return []
        return ranked_candidates(cands, ranker.logits(X), self.table.chunk_ids)

    def _fuse(
        self,
        query: str,
        lex: dict[str, float],
        b_idx: np.ndarray,
        d_idx: np.ndarray,
        mask: Any,
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
                self._add_group_run("doc", cfg.doc_weight, cfg.doc_depth, lex, scores, mask)
                self._add_type_prior(query, scores, cfg.type_prior)
            if not lexical or cfg.page_on_lexical:
                self._add_group_run("page", cfg.page_weight, cfg.page_depth, lex, scores, mask)
            if lexical and cfg.residual_weight > 0:
                r_idx = self.residual_run(lex, b_idx, mask, cfg.residual_depth, cfg.residual_docs)
                for rank, i in enumerate(r_idx.tolist(), start=1):
                    scores[i] = scores.get(i, 0.0) + cfg.residual_weight / (k + rank)
            if lexical:
                self._add_type_prior(query, scores, cfg.lexical_type_prior)
            self._add_row_bonus(query, scores, cfg)
        self.prefetch(scores)  # the ties below read every scored chunk's id and document
        if named:  # the named documents' chunks first
            bonus = 1.0 / (k + 1)
            for i in scores:
                scores[i] += bonus * named.get(self.table.doc_ids[self.table.doc_index[i]], 0.0)
        if (
            mask is not None
        ):  # every run above must respect the filters; this is the one place that ensures it
            scores = {i: s for i, s in scores.items() if mask[i]}
        return sorted(scores.items(), key=lambda t: (-t[1], ids[t[0]]))

    def lexical_query(self, query: str, *, expand: bool = True, focus: bool = False) -> LexicalQuery:
        """Query term -> weight for BM25: the query's own tokens (3-grams at a quarter), each CJK run
        and each glossary expansion weighing about two terms (their tokens share it) - a 7-character
        Chinese phrase is 6 bigrams, and at full weight it would outvote the part number beside it.
        `focus` (SearchOptions.focus_terms), for a scenario question only (`is_scenario_question`):
        its CJK runs give only the glossary's terms found in them (`Glossary.zh_terms_in`), each
        weighed like a run; the other character bigrams of a long question ("我们是一家…") are
        filler that matches Chinese-printed chunks at random."""
        weights = LexicalQuery()
        weights.scenario = is_scenario_question(query)
        weights.b = self.settings.index.bm25_b_long if weights.scenario else None
        for t in self.tokenizer.tokenize(query):
            if not CJK_RE.search(t):
                weights[t] = weights.get(t, 0.0) + query_token_weight(t)
        runs = CJK_RE.findall(normalize_text(query))
        if focus and weights.scenario:
            runs = [term for run in runs for term in load_glossary().zh_terms_in(run)]
        for run in runs:  # each CJK run (or glossary term), like an expansion, ~2 terms
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
        if expand and PARAMETER_EXPANSION:
            # a parameter the query names (spec vocabulary): its other English names and its
            # distinctive symbols, all of them together weighing like one expansion
            for pid in parameters_named(query):
                new: list[str] = []
                for term in parameter_expansion_terms(pid):
                    for t in self.tokenizer.tokenize(term):
                        if t not in weights and t not in new and not _is_ngram(t):
                            new.append(t)
                share = min(1.0, EXPANSION_TOKENS / len(new)) if new else 0.0
                for t in new:
                    weights[t] = share * query_token_weight(t)
        return weights

    def known_terms(self, query: str) -> set[str]:
        """The query's tokens the corpus knows, as typed (no 3-grams)."""
        return self.known_of(self.tokenizer.tokenize(query))

    def known_of(self, tokens: Iterable[str]) -> set[str]:
        """The tokens the corpus knows, 3-grams left out."""
        return {t for t in tokens if t in self.bm25.vocab and not _is_ngram(t)}

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
        kind: GroupKind,
        weight: float,
        depth: int,
        lex: dict[str, float],
        scores: dict[int, float],
        mask: Any,
    ) -> None:
        """Groups of chunks (documents, pages) ranked by BM25 over all their chunks' text vote for
        their chunks: the group that best matches the whole question lifts its chunks, even those
        that match only in part."""
        if weight <= 0 or depth <= 0:
            return
        g_idx, _ = self.group_run(kind, lex, depth)
        for rank, g in enumerate(g_idx.tolist(), start=1):
            vote = weight / (self.settings.search.rrf_k + rank)
            chunks = self.group_members(kind, int(g))
            if mask is not None:
                chunks = chunks[mask[chunks]]
            for i in chunks.tolist():
                scores[i] = scores.get(i, 0.0) + vote

    def _add_row_bonus(self, query: str, scores: dict[int, float], cfg: FusionSettings) -> None:
        """A table chunk among the leading candidates whose best row holds the query's informative
        terms (idf share of the terms the corpus knows, no 3-grams) gets up to `row_weight` votes:
        the table that lists the asked value outranks the list or text that only names it."""
        if cfg.row_weight <= 0 or not scores or wanted_family(query) != "spec":
            return  # a drawing or a curve is asked for, not a table value
        q_known = self.known_terms(query)
        ids = self.table.chunk_ids
        self.prefetch(scores)
        lead = sorted(scores.items(), key=lambda t: (-t[1], ids[t[0]]))[: cfg.row_depth]
        self.prefetch((i for i, _ in lead), records=True)
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

    def chunk_shape(self, i: int) -> ChunkShape:
        """What the ranker reads of chunk i's record - its position on the page, whether it has table rows, its block
        type: fixed for the index's life, so the record is parsed once for them, not once per query (memoized)."""
        shape = self._shapes.get(i)
        if shape is None:
            c = self.chunks[i]
            top, area = chunk_position(c)
            shape = self._shapes[i] = ChunkShape(top, area, bool(c.rows), c.block_type)
        return shape

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
        self.prefetch(scores)
        codes = self.table.block_codes
        for i in scores:
            if self.family[codes[i]] == want:
                scores[i] += vote

    def row_scores(self, i: int, tokens: set[str]) -> list[float]:
        """Per row of table chunk i: the idf mass of `tokens` the row holds (header rows 0)."""
        rows = self._row_tokens.get(i)
        if rows is None:
            rows = self._row_tokens[i] = [
                set()
                if row.is_header
                else set(self.tokenizer.tokenize(f"{row.text or ' '.join(row.cells)}\n{row_aka(row)}"))
                for row in self.chunks[i].rows
            ]
        return [self.idf_mass(held & tokens) for held in rows]

    def idf_mass(self, terms: Iterable[str]) -> float:
        """The summed idf of `terms`, added in sorted order: a set's iteration order changes with
        the process's string hashing, and float sums in another order can break a tie between two
        rows (the matched row) differently from one run to the next."""
        return sum(self.bm25.idf(t) for t in sorted(terms))


# A scenario question ("we make smart meters ... which clock would you recommend?") runs to
# several clauses. The bar is set to scope, not fit: the region sets' queries (a part and a
# parameter) have at most 17 CJK characters and 17 words (dev-queries, dev-queries-2; the
# generated ones fewer), TKD's questions at least 40 characters or 26 words, so any bar from 18
# to 26 gives the same result on every set measured - and the region sets' ranking is unchanged.
SCENARIO_MIN = 20


def is_scenario_question(query: str) -> bool:
    """A long question of several clauses: at least SCENARIO_MIN CJK characters or words."""
    text = normalize_text(query)
    cjk = sum(len(run) for run in CJK_RE.findall(text))
    return cjk >= SCENARIO_MIN or len(WORD_RE.findall(CJK_RE.sub(" ", text))) >= SCENARIO_MIN


class LexicalQuery(dict[str, float]):
    """Query term -> BM25 weight (`SearchIndex.lexical_query`), knowing whether it came from a
    scenario question and which BM25 length normalization scores it (`b`; None: the index's
    `bm25_b`). `HybridIndex` weighs with any b; the Qdrant store with the b values it was written
    with (`bm25_b`, `bm25_b_long`: `QdrantIndex.bm25_using`); the static site with `bm25_b_long`
    too (site/static/search.js, from exported term counts)."""

    scenario: bool = False
    b: float | None = None


def ranker_b_long(ranker: Ranker) -> float | None:
    """The `bm25_b_long` a ranker's features were computed with (its weights file's meta), None
    for a ranker fit before scenario questions had their own b: its features used `bm25_b` for
    every query, and a search with it must too (the features must be made as at fit time)."""
    value = dict(ranker.meta).get("bm25_b_long")
    return None if value in (None, "", "None") else float(value)


NGRAM_QUERY_WEIGHT = 0.25
# a query naming a spec parameter ("operating current") also asks for its other names (spec_parameters.tsv)
PARAMETER_EXPANSION = True
EXPANSION_TOKENS = 2.0  # a glossary expansion (or a CJK run) weighs at most as much as two query terms
ZH_EXPANSION_TOKENS = 0.5  # ... a Chinese expansion of an English query, half a term


def parameter_expansion_terms(pid: str) -> list[str]:
    """What a query naming parameter `pid` also asks for: its English names and its symbols of at
    least 3 characters (spec_parameters.tsv; shorter symbols - IS, ID, CL - are words and
    part-number pieces in a query)."""
    names, symbols = parameter_names(pid)
    return [n for n in names if not CJK_RE.search(n)] + [s for s in symbols if len(s) >= 3]


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


def empty_run() -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
