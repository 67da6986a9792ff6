"""Cross-validation by document: every fitted choice is made on folds it is not reported on.

    corpora = [open_corpus("dev", DATA, [QUERIES...], folds=load_folds(FOLDS_TSV)), ...]
    report = crossvalidate(corpora, systems=SYSTEMS, scorings=SCORINGS)

- Folds: a datasheet's fold comes from `folds.tsv` (column `fold` per file name, 5 folds); a document
  it does not list (the generated sets) gets `sha256(file name) mod 5` — deterministic, by document.
- The learned ranker of fold k is fit on the candidates of the queries of every other fold (all
  corpora pooled) and scored on fold k; the other systems fit nothing here (`weighted` keeps its
  hand-set constants, which were set on `dev-queries.jsonl`: its numbers on those queries are not
  held-out numbers).
- Labels: a candidate chunk is positive when its member boxes on the gold page cover >= 95 % of the
  gold region (`metrics.covers`), i.e. when it alone would be a hit. Chunk-id questions (TKD, no
  regions) add training rows whose positive is a gold chunk id (`chunk_gold_rows`, joined to a fit
  by `with_rows`; fold = sha256(first gold document id) mod 5) and are scored held out by fold
  (`chunk_gold_results`); the unit-choice thresholds are chosen on region queries only.
- Scorings: "companions counted" (`hit_page_members` 3: a hit shows up to three chunks of one page,
  and its leakage counts them) and "one chunk a hit" (`hit_page_members` 1).
- Numbers are pooled over all held-out queries (each query scored once, by the model that did not
  see its document), with the per-fold numbers beside them.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from layoutrag.config import HitSettings, Settings, load_settings
from layoutrag.evaluation.harness import RegionQuery, evaluate, load_queries, to_hit
from layoutrag.evaluation.metrics import RegionQueryResult, covers, region_metrics
from layoutrag.index.options import SearchOptions
from layoutrag.index.ranker import FEATURES, TREE_GRID, LinearRanker, Ranker, TreeRanker, ranked_candidates
from layoutrag.records import Chunk
from layoutrag.storage import DataDir

__all__ = [
    "N_FOLDS",
    "SCORINGS",
    "Corpus",
    "CVResult",
    "crossvalidate",
    "doc_fold",
    "chunk_gold_fold",
    "chunk_gold_results",
    "chunk_gold_rows",
    "choose_tree_settings",
    "region_gain",
    "fit_ranker",
    "fit_unit_rankers",
    "label_candidates",
    "load_folds",
    "open_corpus",
    "training_rows",
    "unit_thresholds",
    "with_rows",
]

N_FOLDS = 5
SCORINGS = {"companions counted": 3, "one chunk a hit": 1}  # name -> hit_page_members
RANKER_C = 1.0  # LogisticRegression's regularisation: sklearn's default, not tuned


def load_folds(path: Path) -> dict[str, int]:
    """File name -> fold, from a TSV with columns `name` and `fold`."""
    with open(path, encoding="utf-8", newline="") as f:
        return {row["name"]: int(row["fold"]) for row in csv.DictReader(f, delimiter="\t")}


def doc_fold(name: str, folds: dict[str, int] | None = None, n: int = N_FOLDS) -> int:
    """A document's fold: from `folds` when listed, else sha256(file name) mod n."""
    if folds and name in folds:
        return folds[name]
    return int(hashlib.sha256(name.encode("utf-8")).hexdigest(), 16) % n


@dataclass
class Corpus:
    """One data dir (its own index) and the region queries over its documents."""

    name: str
    data: DataDir
    index: Any  # layoutrag.index.hybrid.HybridIndex
    queries: list[RegionQuery]
    folds: dict[str, int]  # query id -> fold
    doc_ids: dict[str, str]  # gold doc (file name) -> doc id
    unresolved: list[str] = field(default_factory=list)  # query ids whose document is not indexed
    sets: dict[str, str] = field(default_factory=dict)  # query id -> the query file it came from
    _units: dict[str, Any] = field(default_factory=dict, repr=False)

    def fold_queries(self, k: int | None = None, *, exclude: int | None = None) -> list[RegionQuery]:
        return [
            q
            for q in self.queries
            if (k is None or self.folds[q.id] == k) and (exclude is None or self.folds[q.id] != exclude)
        ]

    def unit_index(self, kind: str, settings: Settings) -> Any:
        """Whole pages or 512-token windows of the same documents, BM25 only (no fitting)."""
        if kind not in self._units:
            from layoutrag.evaluation.baselines import (
                build_unit_index,
                iter_documents,
                page_chunks,
                window_chunks,
            )

            chunks: list[Chunk] = []
            for doc in iter_documents(self.data):
                chunks += window_chunks(doc) if kind == "windows" else page_chunks(doc)
            self._units[kind] = build_unit_index(
                chunks, self.index.cards, data=self.data, settings=settings, dense=False
            )
        return self._units[kind]


def open_corpus(
    name: str,
    data: Path,
    query_files: Sequence[Path],
    *,
    folds: dict[str, int] | None = None,
    settings: Settings | None = None,
) -> Corpus:
    from layoutrag.index.store import load_index

    s = settings or load_settings()
    dd = DataDir(data)
    index = load_index(dd, settings=s)
    doc_ids = {c.file_name: d for d, c in index.cards.items() if c.file_name}
    queries: list[RegionQuery] = []
    unresolved: list[str] = []
    seen: set[str] = set()
    sets: dict[str, str] = {}
    for qf in query_files:
        for q in load_queries(Path(qf)):
            if not isinstance(q, RegionQuery):
                continue
            if q.id in seen:  # ids must be unique within a corpus: prefix by the file's stem
                q = replace(q, id=f"{Path(qf).stem}:{q.id}")
            seen.add(q.id)
            sets[q.id] = Path(qf).stem
            if q.doc in doc_ids or q.doc in index.cards:
                queries.append(q)
            else:
                unresolved.append(q.id)
    return Corpus(
        name=name,
        data=dd,
        index=index,
        queries=queries,
        folds={q.id: doc_fold(q.doc, folds) for q in queries},
        doc_ids=doc_ids,
        unresolved=unresolved,
        sets=sets,
    )


# --------------------------------------------------------------------------- training
def label_candidates(index: Any, cands: np.ndarray, q: RegionQuery, doc_id: str) -> np.ndarray:
    """1 for a candidate whose boxes on the gold page cover >= 95 % of the gold region."""
    return np.array(
        [covers(to_hit(index.chunks[int(i)]), doc_id, q.page, q.regions) for i in cands.tolist()],
        dtype=np.int8,
    )


@dataclass
class Rows:
    X: np.ndarray
    y: np.ndarray
    qid: np.ndarray  # "corpus/query id" per row
    fold: np.ndarray
    cand: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))  # chunk index per row
    queries: dict[str, tuple[Corpus, RegionQuery]] = field(default_factory=dict)  # qid -> where it is


def training_rows(corpora: Sequence[Corpus], *, progress: Callable[[str], None] | None = None) -> Rows:
    """Every query's candidates, features and labels (computed once; folds select from them)."""
    from layoutrag.index.query import normalize_query

    Xs, ys, qids, folds, cand_rows = [], [], [], [], []
    where: dict[str, tuple[Corpus, RegionQuery]] = {}
    for corpus in corpora:
        ix = corpus.index
        for n, q in enumerate(corpus.queries):
            text = normalize_query(q.query, max_chars=ix.settings.search.max_query_chars)
            cands, X = ix.features(text)
            y = label_candidates(ix, cands, q, corpus.doc_ids.get(q.doc, q.doc))
            Xs.append(X)
            ys.append(y)
            cand_rows.append(np.asarray(cands, dtype=np.int64))
            where[f"{corpus.name}/{q.id}"] = (corpus, q)
            qids += [f"{corpus.name}/{q.id}"] * len(y)
            folds += [corpus.folds[q.id]] * len(y)
            if progress and n % 50 == 0:
                progress(f"{corpus.name}: features for {n}/{len(corpus.queries)} queries")
    return Rows(
        X=np.vstack(Xs) if Xs else np.zeros((0, len(FEATURES))),
        y=np.concatenate(ys) if ys else np.zeros(0, dtype=np.int8),
        qid=np.array(qids, dtype=object),
        fold=np.array(folds, dtype=np.int64),
        cand=np.concatenate(cand_rows) if cand_rows else np.zeros(0, dtype=np.int64),
        queries=where,
    )


def chunk_gold_fold(gold_chunks: Sequence[str], n: int = N_FOLDS) -> int:
    """A chunk-id question's fold, by document: sha256(the first of its gold documents' ids) mod n."""
    doc = sorted(g.split("_p")[0] for g in gold_chunks)[0]
    return int(hashlib.sha256(doc.encode("utf-8")).hexdigest(), 16) % n


def chunk_gold_rows(index: Any, queries: Sequence[Any], name: str, *, focus_terms: bool = False) -> Rows:
    """Training rows from chunk-id questions (TKD: `gold_chunks`, no regions): a candidate is
    positive when its chunk id is gold. They join the fits (`with_rows`), not the unit choice, which
    needs region gold. `focus_terms`: the lexical query as `SearchOptions.focus_terms` makes it."""
    from layoutrag.index.query import normalize_query

    Xs, ys, qids, folds = [], [], [], []
    for q in queries:
        text = normalize_query(q.query, max_chars=index.settings.search.max_query_chars)
        cands, X = index.features(text, focus_terms=focus_terms)
        gold = set(q.gold_chunks)
        y = np.array([index.chunks[int(i)].chunk_id in gold for i in cands.tolist()], dtype=np.int8)
        Xs.append(X)
        ys.append(y)
        qids += [f"{name}/{q.id}"] * len(y)
        folds += [chunk_gold_fold(q.gold_chunks)] * len(y)
    return Rows(
        X=np.vstack(Xs) if Xs else np.zeros((0, len(FEATURES))),
        y=np.concatenate(ys) if ys else np.zeros(0, dtype=np.int8),
        qid=np.array(qids, dtype=object),
        fold=np.array(folds, dtype=np.int64),
    )


def with_rows(fit: Callable[..., Any], extra: Rows | None) -> Callable[..., Any]:
    """`fit` on its rows plus `extra` (the same folds left out of both)."""
    if extra is None or not len(extra.y):
        return fit

    def fit_both(rows: Rows, **kw: Any) -> Any:
        both = Rows(
            X=np.vstack([rows.X, extra.X]),
            y=np.concatenate([rows.y, extra.y]),
            qid=np.concatenate([rows.qid, extra.qid]),
            fold=np.concatenate([rows.fold, extra.fold]),
        )
        return fit(both, **kw)

    return fit_both


def _training_mask(rows: Rows, excluded: set[int | None]) -> np.ndarray:
    """The rows outside the `excluded` folds whose query has a positive candidate (a query without
    one says nothing about which candidate is better)."""
    keep = (
        ~np.isin(rows.fold, sorted(f for f in excluded if f is not None))
        if excluded
        else np.ones(len(rows.y), dtype=bool)
    )
    positive_q = set(rows.qid[(rows.y == 1) & keep].tolist())
    keep &= np.fromiter((q in positive_q for q in rows.qid), dtype=bool, count=len(rows.qid))
    return keep


def _feature_meta() -> dict[str, Any]:
    """What the features of a fit's rows were made with, recorded in its meta: a scenario
    question's BM25 length normalization (`index.bm25_b_long`, read back by `base.ranker_b_long`
    so a search computes the features as the fit did). The rows come from indexes opened with the
    process's settings; a caller that made them otherwise passes `meta={"bm25_b_long": b}`."""
    return {"bm25_b_long": load_settings().index.bm25_b_long}


def fit_ranker(
    rows: Rows,
    *,
    exclude_fold: int | None = None,
    meta: dict | None = None,
    pairwise: bool = True,
    exclude: Sequence[int] = (),
) -> LinearRanker:
    """Fit on every row not in `exclude_fold` (nor in `exclude`), leaving out queries without any
    positive candidate (they say nothing about which candidate is better)."""
    keep = _training_mask(rows, {exclude_fold, *exclude} - {None})
    positive_q = set(rows.qid[keep].tolist())
    info = {
        "rows": int(keep.sum()),
        "positives": int(rows.y[keep].sum()),
        "queries": len(positive_q),
        "C": RANKER_C,
        **_feature_meta(),
        **(meta or {}),
    }
    return LinearRanker.fit(
        rows.X[keep], rows.y[keep], rows.qid[keep], C=RANKER_C, pairwise=pairwise, meta=info
    )


def fit_trees(
    rows: Rows,
    *,
    exclude_fold: int | None = None,
    exclude: Sequence[int] = (),
    meta: dict | None = None,
    settings: dict[str, Any] | None = None,
) -> TreeRanker:
    """LambdaRank trees (`ranker.TreeRanker`) on the rows outside the excluded folds, queries with
    a positive candidate only (as `fit_ranker`); `settings`: LightGBM's (default `TREE_SETTINGS`)."""
    keep = _training_mask(rows, {exclude_fold, *exclude} - {None})
    info = {"rows": int(keep.sum()), "positives": int(rows.y[keep].sum()), **_feature_meta(), **(meta or {})}
    info["queries"] = len(set(rows.qid[keep].tolist()))
    return TreeRanker.fit(rows.X[keep], rows.y[keep], rows.qid[keep], meta=info, settings=settings)


def choose_tree_settings(
    rows: Rows,
    *,
    outside: Sequence[int] = (),
    fit: Callable[..., Any] | None = None,
    grid: Sequence[dict[str, Any]] = TREE_GRID,
    gain: Callable[[Rows, Any, int], float] | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The LightGBM settings of `grid` whose trees rank best on folds they were not fit on: for each
    fold j not in `outside`, trees fit without `outside` and j (with `fit`'s extra rows, e.g. TKD)
    are scored on fold j by `gain` (default `region_gain`: hit@1 + hit@5 counts of fold j's region
    queries, chunks only, both scorings); the settings with the largest total win, a tie keeping
    the earlier (the usual settings come first)."""
    fit = fit or fit_trees
    gain = gain or region_gain
    best, best_total = dict(grid[0]), -np.inf
    for n, g in enumerate(grid):
        total = 0.0
        for j in range(N_FOLDS):
            if j not in outside:
                total += gain(rows, fit(rows, exclude=(*outside, j), settings=g), j)
        if progress:
            progress(f"tree settings {n} (outside {tuple(outside)}): held-out gain {total:.1f}")
        if total > best_total + 1e-9:
            best, best_total = dict(g), total
    return best


def region_gain(rows: Rows, ranker: Ranker, fold: int) -> float:
    """How many hits@1 and hits@5 `ranker` gets on fold `fold`'s region queries, chunks only (no unit
    choice), summed over both scorings (`SCORINGS`): the count behind pooled hit@1 + hit@5."""
    s = load_settings()
    total = 0.0
    for m in sorted(set(SCORINGS.values())):
        hits = s.hits.model_copy(update={"page_members": m})
        res = threshold_results(rows, ranker, rows.fold == fold, hits, grid=(0.0,))[0.0]
        mt = region_metrics(res) if res else {}
        total += ((mt.get("hit@1") or 0.0) + (mt.get("hit@5") or 0.0)) * len(res)
    return total


# --------------------------------------------------------------------------- unit choice
LEAKAGE_BUDGET = {3: 2.0, 1: 1.5}  # median leakage the product promises per scoring (issue #12's bar)
# probabilities of a chunk covering the evidence are mostly small (most candidates are below 0.01):
# the grid is log-spaced, eight steps a decade from 0.001 to 1, so the choice is not stuck between
# "no page units" (0) and a first step that already turns many hits into pages
PAGE_BELOW_GRID = (0.0, *sorted({round(float(10 ** (-3 + i / 8)), 4) for i in range(25)}))


def _as_hits(ix: Any, assembled: list) -> list:
    """Assembled hits (hits.page_hits) as scored (metrics.Hit), page hits as their page units."""
    from layoutrag.evaluation.metrics import Hit
    from layoutrag.index.hits import PageHit

    out = []
    for members in assembled:
        lead = ix.chunks[members[0][0]]
        if isinstance(members, PageHit):  # the page unit the search returns (SearchIndex.page_unit)
            boxes: tuple = tuple(
                (r.page, r.bbox_pdf) for r in ix.page_unit(lead.doc_id, lead.page).all_regions()
            )
        else:
            boxes = tuple((r.page, r.bbox_pdf) for i, _ in members for r in ix.chunks[i].all_regions())
        out.append(Hit(doc_id=lead.doc_id, boxes=boxes, chunk_id=lead.chunk_id))
    return out


def threshold_results(
    rows: Rows,
    ranker: Ranker,
    row_mask: np.ndarray,
    hits: HitSettings,
    *,
    k: int = 5,
    grid: Sequence[float] = PAGE_BELOW_GRID,
) -> dict[float, list[RegionQueryResult]]:
    """Per grid threshold: the results of the queries of `row_mask` (queries the ranker was not fit
    on), by running the hit assembly on the candidates' probabilities (no search again; a query
    whose hits do not change between thresholds is scored once)."""
    from layoutrag.evaluation.metrics import score_region_query
    from layoutrag.index.hits import PageHit, page_hits

    z_all = ranker.logits(rows.X[row_mask]) if row_mask.any() else np.zeros(0)
    qids, cands = rows.qid[row_mask], rows.cand[row_mask]
    per_q: dict[str, list[int]] = {}
    for n, q in enumerate(qids.tolist()):
        per_q.setdefault(q, []).append(n)
    out: dict[float, list[RegionQueryResult]] = {t: [] for t in grid}
    for q, idx in per_q.items():
        corpus, rq = rows.queries[q]
        ix = corpus.index
        ranked = ranked_candidates(cands[idx], z_all[idx], ix.table.chunk_ids)
        doc_id = corpus.doc_ids.get(rq.doc, rq.doc)
        seen: dict[tuple, RegionQueryResult] = {}
        for t in grid:
            assembled = page_hits(
                ranked,
                k,
                doc_index=ix.table.doc_index,
                pages=ix.table.pages,
                hits=hits,
                page_below=t if t > 0 else None,
            )
            sig = tuple((isinstance(m, PageHit), tuple(i for i, _ in m)) for m in assembled)
            if sig not in seen:
                got = _as_hits(ix, assembled)
                seen[sig] = score_region_query(got, doc_id=doc_id, page=rq.page, regions=rq.regions)
            out[t].append(seen[sig])
    return out


def choose_threshold(per_fold: dict[int, dict[float, list[RegionQueryResult]]], budget: float) -> float:
    """The threshold with the most hit@5 + hit@1 (pooled over the folds given) whose median leakage
    is within `budget` on **every** one of those folds — a choice that must hold fold by fold, not
    just on the pool, so it does not sit on the edge of the budget; 0 (chunks only) when none does."""
    best, best_gain = 0.0, -1.0
    for t in PAGE_BELOW_GRID:
        folds = [res[t] for res in per_fold.values() if res.get(t)]
        if not folds:
            continue
        leaks = [region_metrics(r).get("leakage_median") for r in folds]
        if any(x is None or x > budget for x in leaks):
            continue
        m = region_metrics([x for r in folds for x in r])
        gain = (m.get("hit@1") or 0.0) + (m.get("hit@5") or 0.0)
        if gain > best_gain + 1e-12:
            best, best_gain = t, gain
    return best


def unit_thresholds(
    rows: Rows, members: Sequence[int], *, outside: Sequence[int] = (), fit: Callable[..., Any] | None = None
) -> dict[int, float]:
    """Per scoring (`page_members`): the unit-choice threshold chosen on held-out results only —
    for each fold j not in `outside`, a ranker fit without `outside` and j scores fold j; the
    threshold is chosen on those results (`choose_threshold`)."""
    s = load_settings()
    fit = fit or fit_ranker
    inner = {j: fit(rows, exclude=(*outside, j)) for j in range(N_FOLDS) if j not in outside}
    out = {}
    for m in members:
        hits = s.hits.model_copy(update={"page_members": m})
        per_fold = {j: threshold_results(rows, r, rows.fold == j, hits) for j, r in inner.items()}
        out[m] = choose_threshold(per_fold, LEAKAGE_BUDGET.get(m, 2.0))
    return out


def fit_unit_rankers(
    rows: Rows,
    members: Sequence[int],
    *,
    progress: Callable[[str], None] | None = None,
    fit: Callable[..., Any] | None = None,
    tune_trees: bool = False,
) -> dict[int, Any]:
    """Per outer fold k: the ranker fit without fold k, with unit-choice thresholds chosen by nested
    cross-validation inside the other folds (`unit_thresholds(outside=(k,))`): fold k is never seen.
    `tune_trees` (a `fit_trees` fit): its LightGBM settings too, chosen the same way first
    (`choose_tree_settings(outside=(k,))`)."""
    base: Callable[..., Any] = fit or fit_ranker
    out: dict[int, Any] = {}
    for k in range(N_FOLDS):
        fit_k = base
        if tune_trees:
            chosen = choose_tree_settings(rows, outside=(k,), fit=base, progress=progress)
            fit_k = partial(base, settings=chosen)
            if progress:
                progress(f"fold {k}: tree settings {chosen}")
        thresholds = unit_thresholds(rows, members, outside=(k,), fit=fit_k)
        out[k] = fit_k(rows, exclude_fold=k).with_page_below(thresholds)
        if progress:
            progress(f"fold {k}: unit-choice thresholds {thresholds}")
    return out


# --------------------------------------------------------------------------- evaluation
@dataclass
class CVResult:
    system: str
    scoring: str
    results: list[RegionQueryResult]  # every held-out query once, pooled over folds
    per_fold: dict[int, dict]
    n_params: int | str
    metrics: dict = field(default_factory=dict)


SystemFactory = Callable[[Corpus, int, HitSettings], Callable[[str, int], Sequence[Chunk]]]


def crossvalidate(
    corpora: Sequence[Corpus],
    systems: dict[str, tuple[SystemFactory, int | str]],
    *,
    settings: Settings | None = None,
    scorings: dict[str, int] = SCORINGS,
    progress: Callable[[str], None] | None = None,
) -> list[CVResult]:
    """Score each system on each fold's queries with the search function its factory makes for
    (corpus, fold, hit settings); pool the per-query results over folds and corpora."""
    s = settings or load_settings()
    out: list[CVResult] = []
    for name, (factory, n_params) in systems.items():
        for scoring, members in scorings.items():
            hits = s.hits.model_copy(update={"page_members": members})
            pooled: list[RegionQueryResult] = []
            per_fold: dict[int, dict] = {}
            set_of: dict[int, str] = {}
            for k in range(N_FOLDS):
                fold_results: list[RegionQueryResult] = []
                for corpus in corpora:
                    qs = corpus.fold_queries(k)
                    if not qs:
                        continue
                    search = factory(corpus, k, hits)
                    r = evaluate(qs, search, doc_ids=corpus.doc_ids, name=name)
                    for rr in r.region:
                        rr.top = []
                        rr.doc = f"{corpus.name}:{rr.doc}"
                        set_of[id(rr)] = f"{corpus.name}/{corpus.sets.get(rr.id, '')}"
                    fold_results += r.region
                per_fold[k] = region_metrics(fold_results) if fold_results else {"n": 0}
                pooled += fold_results
            if progress:
                progress(f"{name} / {scoring}: {len(pooled)} queries")
            res = CVResult(name, scoring, pooled, per_fold, n_params)
            res.metrics = region_metrics(pooled)
            res.metrics["by_corpus"] = {
                c.name: region_metrics([r for r in pooled if r.doc.startswith(c.name + ":")]) for c in corpora
            }
            res.metrics["by_set"] = {
                name: region_metrics([r for r in pooled if set_of[id(r)] == name])
                for name in sorted(set(set_of.values()))
            }
            out.append(res)
    return out


def chunk_gold_results(
    index: Any,
    queries: Sequence[Any],
    rankers: dict[int, Any],
    hits: HitSettings,
    *,
    name: str = "learned",
    options: SearchOptions | None = None,
) -> list:
    """Chunk-id questions (TKD) scored by search with the ranker of each question's fold (fit
    without that fold): the held-out R@k / MRR of the learned ranker on that set. `options`: the
    other search options (e.g. `focus_terms`); fusion, hits and ranker are set here."""
    from layoutrag.config import FusionSettings, FusionStrategy

    out: list = []
    base = options or SearchOptions()
    for k, ranker in rankers.items():
        opts = replace(
            base, fusion=FusionSettings(strategy=FusionStrategy.learned), hits=hits, ranker=ranker
        )

        def search(text: str, n: int, o: SearchOptions = opts) -> Sequence[Chunk]:
            return index.search(text, top_k=n, options=o)

        qs = [q for q in queries if chunk_gold_fold(q.gold_chunks) == k]
        out += evaluate(qs, search, name=name).chunk
    return out


def index_searcher(options: SearchOptions) -> SystemFactory:
    """A system that searches each corpus's own index with fixed options (nothing fitted)."""

    def factory(corpus: Corpus, fold: int, hits: HitSettings) -> Callable[[str, int], Sequence[Chunk]]:
        opts = replace(options, hits=hits)
        return lambda q, k: corpus.index.search(q, top_k=k, options=opts)

    return factory


def learned_searcher(rankers: dict[int, Ranker], **hit_updates: Any) -> SystemFactory:
    """The learned ranker of each fold (fit without that fold's documents); `hit_updates` change
    the hit settings (e.g. ``focus_page=False``)."""
    from layoutrag.config import FusionSettings, FusionStrategy

    fusion = FusionSettings(strategy=FusionStrategy.learned)

    def factory(corpus: Corpus, fold: int, hits: HitSettings) -> Callable[[str, int], Sequence[Chunk]]:
        hits = hits.model_copy(update=hit_updates) if hit_updates else hits
        opts = SearchOptions(fusion=fusion, hits=hits, ranker=rankers[fold])
        return lambda q, k: corpus.index.search(q, top_k=k, options=opts)

    return factory


def unit_searcher(kind: str, settings: Settings) -> SystemFactory:
    """Whole pages or 512-token windows, BM25 (one unit a hit: units never merge)."""

    def factory(corpus: Corpus, fold: int, hits: HitSettings) -> Callable[[str, int], Sequence[Chunk]]:
        idx = corpus.unit_index(kind, settings)
        opts = SearchOptions(mode="bm25", hits=hits)
        return lambda q, k: idx.search(q, top_k=k, options=opts)

    return factory
