"""The learned ranker (`fusion = learned`): candidate chunks from every run, a feature vector per
candidate, and a model fit offline (`benchmarks/train_ranker.py`) and shipped as `data/ranker.json`:
either gradient-boosted trees (LightGBM's LambdaRank, `TreeRanker`) or a linear model (scikit-learn's
LogisticRegression on candidate pairs, `LinearRanker`); `load_ranker` reads either.

    candidates  BM25 top `BM25_DEPTH` ∪ dense top `DENSE_DEPTH` ∪ chunks of the page run's top
                `PAGE_DEPTH` pages ∪ the residual run's top `RESIDUAL_DEPTH` (filters respected)
    features    `FEATURES` below: each run's rank and score, the document and page runs, part-number
                match, how much of the query the chunk / its section / its best table row holds,
                block family against the family asked for, position and size on the page
    score       sigmoid(a . model(features) + b), a and b a 1-D Platt fit on the model's training
                rows: the probability that the chunk covers the evidence region (training label: its
                member boxes on the gold page cover >= 95 % of the gold region)

The model is the only fitted part: no per-feature weight is set by hand. What a feature *is* is
fixed in code (and listed in the weights file, which must match it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple, Protocol, Self

import numpy as np

from layoutrag.errors import InputError
from layoutrag.index.query import wanted_family

__all__ = [
    "FEATURES",
    "LinearRanker",
    "Ranker",
    "RankingIndex",
    "TreeRanker",
    "candidate_features",
    "default_ranker",
    "load_ranker",
    "ranked_candidates",
]

BM25_DEPTH = 100
DENSE_DEPTH = 50
PAGE_DEPTH = 5
RESIDUAL_DEPTH = 30
GROUP_DEPTH = 50  # document/page ranks beyond this count as absent

FEATURES: tuple[str, ...] = (
    "bm25_rr",  # 1 / rank in the BM25 run (0: not in the run)
    "bm25_rel",  # BM25 score / the run's top score
    "dense_rr",  # 1 / rank in the dense run
    "dense_gap",  # the dense run's top score minus this chunk's (absent: the run's last minus 0.05)
    "dense_score",  # cosine with the query (absent: the run's last score)
    "doc_rr",  # 1 / rank of the chunk's document by BM25 over the whole document
    "doc_rel",  # that document's score / the top document's
    "page_rr",  # 1 / rank of the chunk's page by BM25 over the whole page
    "page_rel",
    "resid_rr",  # 1 / rank in the residual run (query minus the top document's card words)
    "named",  # the chunk's document is named by a part number / series in the query (1, 0.8, 0)
    "other_named",  # the query names some document, not this chunk's
    "rare_code",  # the query carries a rare part-like code and the chunk's document holds it
    "held",  # idf share of the query's known terms the chunk holds
    "held_own",  # the same, the document's own card words left out
    "held_gap",  # the best candidate's `held` minus this one's (features relative to the query's field)
    "held_own_gap",
    "section",  # idf share of the query's known terms in the chunk's section title / toc path
    "row",  # best table row's idf share (card words left out); 0 for other chunks
    "family_fit",  # the chunk's block family is the one the query asks for (figure / spec)
    "want_figure",  # the query asks for a drawing or a curve
    "is_table",
    "is_figure",
    "is_text",
    "y_top",  # top of the chunk's first box / page height
    "area",  # chunk box area / page area
    "log_len",  # log(1 + the chunk's BM25 bag length)
    "lexconf",  # idf share of the query BM25's top chunk holds (query-level)
    "lexconf_x_bm25",
    "lexconf_x_dense",
    "zh_x_dense",  # the query has CJK: the dense run's reciprocal rank
    "scenario",  # the query is a scenario question (base.is_scenario_question; query-level)
    "scenario_x_dense",  # ... and the dense run's reciprocal rank
    "scenario_x_doc",  # ... and the document run's reciprocal rank
)


class RankingIndex(Protocol):
    """What the ranker reads of an index (`base.SearchIndex`: the embedded store's `HybridIndex`
    or the Qdrant store's `QdrantIndex`) - the runs and statistics, never the whole corpus."""

    table: Any
    chunks: Any
    bm25: Any  # LexicalStats: vocab, idf, df, holds
    doc_bm25: Any
    family: np.ndarray
    matcher: Any

    def card_terms(self, doc_id: str) -> set[str]: ...
    def section_terms(self, i: int) -> set[str]: ...
    def chunk_shape(self, i: int) -> ChunkShape: ...
    def row_scores(self, i: int, tokens: set[str]) -> list[float]: ...
    def known_terms(self, query: str) -> set[str]: ...
    def idf_mass(self, terms: Iterable[str]) -> float: ...
    def names_rare_code(self, query: str) -> set[str]: ...
    def residual_run(
        self, lex: dict[str, float], b_idx: np.ndarray, mask: Any, depth: int, docs: int
    ) -> np.ndarray: ...
    def group_run(self, kind: Any, lex: dict[str, float], depth: int) -> tuple[np.ndarray, np.ndarray]: ...
    def group_scores(self, kind: Any, lex: dict[str, float], groups: np.ndarray) -> np.ndarray: ...
    def group_members(self, kind: Any, group: int) -> np.ndarray: ...
    def page_index(self, i: int) -> int: ...
    def holders(self, rows: np.ndarray, terms: Sequence[str]) -> np.ndarray: ...
    def docs_holding(self, term: str) -> set[int]: ...
    def bag_len(self, i: int) -> float: ...
    def prefetch(self, rows: Iterable[int], *, records: bool = False) -> None: ...


def _rr(rank: dict[int, int], i: int) -> float:
    r = rank.get(i)
    return 1.0 / r if r else 0.0


class _GroupRanks:
    """A document or page run for the features: 1/rank within the top GROUP_DEPTH (else 0) and
    score / the top group's score, read for the groups the candidates fall in."""

    def __init__(self, ix: RankingIndex, kind: str, lex: dict[str, float]) -> None:
        g_idx, g_score = ix.group_run(kind, lex, GROUP_DEPTH)
        self.lead = g_idx
        self.rr = {int(g): 1.0 / rank for rank, g in enumerate(g_idx.tolist(), start=1)}
        self.top = (float(g_score[0]) or 1.0) if len(g_score) else 1.0
        self.ix, self.kind, self.lex = ix, kind, lex
        self.rel: dict[int, float] = {}

    def read(self, groups: Iterable[int]) -> None:
        want = np.array(sorted({int(g) for g in groups} - self.rel.keys()), dtype=np.int64)
        if not len(want):
            return
        if not self.rr:  # nothing scores
            self.rel.update(dict.fromkeys(want.tolist(), 0.0))
            return
        rel = self.ix.group_scores(self.kind, self.lex, want) / self.top
        self.rel.update(zip(want.tolist(), rel.tolist(), strict=True))


def _held_mass(ix: RankingIndex, ordered: list[str], held: np.ndarray) -> np.ndarray:
    """Per candidate: the idf mass of the terms `ordered` (sorted) it holds, added in that order; `held`: a candidates x
    `ordered` mask (`ix.holders(cands, ordered)`, or a part of it)."""
    out = np.zeros(len(held), dtype=np.float64)
    for j, t in enumerate(ordered):
        out += held[:, j] * ix.bm25.idf(t)
    return out


def candidate_features(
    ix: RankingIndex,
    query: str,
    lex: dict[str, float],
    runs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    mask: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """(candidate chunk indices, feature matrix len(candidates) x len(FEATURES)) for a query.
    `runs`: the BM25 run (indices, scores) and the dense run (indices, scores), best first."""
    b_idx, b_score, d_idx, d_score = runs
    b_idx, b_score = b_idx[:BM25_DEPTH], b_score[:BM25_DEPTH]
    d_idx, d_score = d_idx[:DENSE_DEPTH], d_score[:DENSE_DEPTH]
    table = ix.table
    docs = _GroupRanks(ix, "doc", lex)
    pages = _GroupRanks(ix, "page", lex)
    resid = ix.residual_run(lex, b_idx, mask, RESIDUAL_DEPTH, 1) if len(b_idx) else np.zeros(0, np.int64)
    parts = [b_idx, d_idx, resid]
    for p in pages.lead[:PAGE_DEPTH].tolist():
        chunks = ix.group_members("page", int(p))
        parts.append(chunks[mask[chunks]] if mask is not None else chunks)
    cands = np.unique(np.concatenate([np.asarray(p, dtype=np.int64) for p in parts]))
    if not len(cands):
        return cands, np.zeros((0, len(FEATURES)))
    ix.prefetch(cands.tolist(), records=True)
    cand_docs = [int(table.doc_index[i]) for i in cands.tolist()]
    cand_pages = [ix.page_index(i) for i in cands.tolist()]
    docs.read(cand_docs)
    pages.read(cand_pages)

    b_rank = {int(i): r for r, i in enumerate(b_idx, start=1)}
    d_rank = {int(i): r for r, i in enumerate(d_idx, start=1)}
    r_rank = {int(i): r for r, i in enumerate(resid, start=1)}
    b_val = dict(zip(b_idx.tolist(), b_score.tolist(), strict=True))
    d_val = dict(zip(d_idx.tolist(), d_score.tolist(), strict=True))
    b_top = float(b_score[0]) if len(b_score) else 1.0
    d_top = float(d_score[0]) if len(d_score) else 0.0
    d_last = float(d_score[-1]) if len(d_score) else 0.0

    named = ix.matcher.match(query)
    rare = ix.names_rare_code(query)
    rare_docs: set[int] = set()
    for code in sorted(rare):
        rare_docs.update(ix.docs_holding(code))
    known = ix.known_terms(query)
    total = ix.idf_mass(known)
    ordered = sorted(known)
    holders = ix.holders(cands, ordered)  # cands x ordered: read by `held` and `held_own`
    held = _held_mass(ix, ordered, holders) / total if total > 0 else np.zeros(len(cands), dtype=np.float64)
    lexconf = float(held[np.searchsorted(cands, b_idx[0])]) if len(b_idx) else 0.0
    want = wanted_family(query)
    zh = any("\u3400" <= ch <= "\u9fff" for ch in query)
    scenario = bool(getattr(lex, "scenario", False))  # a LexicalQuery knows (base.lexical_query)

    X = np.zeros((len(cands), len(FEATURES)), dtype=np.float64)
    col = {f: k for k, f in enumerate(FEATURES)}
    # per document: the query's known terms its card does not hold (as a mask over `ordered`) and their idf mass
    own_of: dict[str, tuple[set[str], float, np.ndarray]] = {}
    for d in set(cand_docs):
        doc_id = table.doc_ids[d]
        card = ix.card_terms(doc_id)
        own_known = known - card
        own_of[doc_id] = (own_known, ix.idf_mass(own_known), np.array([t not in card for t in ordered], dtype=bool))
    # the idf mass of the known terms each candidate's bag holds that its document's card does not (per term, `own`)
    own = [own_of[table.doc_ids[d]][2] for d in cand_docs]
    held_own = _held_mass(ix, ordered, holders & np.vstack(own)) if ordered and own else np.zeros(len(cands))
    for row, i in enumerate(cands.tolist()):
        shape = ix.chunk_shape(i)
        d = cand_docs[row]
        doc_id = table.doc_ids[d]
        page = cand_pages[row]
        family = ix.family[table.block_codes[i]]
        own_known, own_total, _ = own_of[doc_id]
        f = X[row]
        f[col["bm25_rr"]] = _rr(b_rank, i)
        f[col["bm25_rel"]] = b_val.get(i, 0.0) / b_top if b_top else 0.0
        f[col["dense_rr"]] = _rr(d_rank, i)
        ds = d_val.get(i)
        f[col["dense_gap"]] = d_top - ds if ds is not None else d_top - d_last + 0.05
        f[col["dense_score"]] = ds if ds is not None else d_last
        f[col["doc_rr"]] = docs.rr.get(d, 0.0)
        f[col["doc_rel"]] = docs.rel[d]
        f[col["page_rr"]] = pages.rr.get(page, 0.0)
        f[col["page_rel"]] = pages.rel[page]
        f[col["resid_rr"]] = _rr(r_rank, i)
        f[col["named"]] = named.get(doc_id, 0.0)
        f[col["other_named"]] = 1.0 if named and doc_id not in named else 0.0
        f[col["rare_code"]] = 1.0 if d in rare_docs else 0.0
        f[col["held"]] = held[row]
        if own_total > 0:
            f[col["held_own"]] = held_own[row] / own_total
            f[col["section"]] = ix.idf_mass(own_known & ix.section_terms(i)) / own_total
            if shape.has_rows and want == "spec":
                f[col["row"]] = max(ix.row_scores(i, own_known), default=0.0) / own_total
        f[col["family_fit"]] = 1.0 if family == want else 0.0
        f[col["want_figure"]] = 1.0 if want == "figure" else 0.0
        bt = shape.block_type.lower()
        f[col["is_table"]] = 1.0 if "table" in bt else 0.0
        f[col["is_figure"]] = 1.0 if family == "figure" else 0.0
        f[col["is_text"]] = 1.0 if bt in ("text", "list", "paragraph") else 0.0
        f[col["y_top"]], f[col["area"]] = shape.top, shape.area
        f[col["log_len"]] = math.log1p(ix.bag_len(i))
        f[col["lexconf"]] = lexconf
        f[col["lexconf_x_bm25"]] = lexconf * f[col["bm25_rr"]]
        f[col["lexconf_x_dense"]] = lexconf * f[col["dense_rr"]]
        f[col["zh_x_dense"]] = f[col["dense_rr"]] if zh else 0.0
        if scenario:
            f[col["scenario"]] = 1.0
            f[col["scenario_x_dense"]] = f[col["dense_rr"]]
            f[col["scenario_x_doc"]] = f[col["doc_rr"]]
    for name in ("held", "held_own"):
        X[:, col[name + "_gap"]] = X[:, col[name]].max() - X[:, col[name]]
    return cands, X


def ranked_candidates(cands: np.ndarray, z: np.ndarray, chunk_ids: list[str]) -> list[tuple[int, float]]:
    """[(chunk index, probability)] ordered by logit `z` (a probability saturates; its logit does
    not), ties by chunk id: what the learned fusion returns and the hit assembly reads."""
    prob = 1.0 / (1.0 + np.exp(-z))
    order = sorted(range(len(cands)), key=lambda j: (-z[j], chunk_ids[int(cands[j])]))
    return [(int(cands[j]), float(prob[j])) for j in order]


class ChunkShape(NamedTuple):
    """What the features read of a chunk's record (`SearchIndex.chunk_shape`, memoized per index)."""

    top: float  # top of its first box on its page / page height
    area: float  # its boxes' area on its page / page area
    has_rows: bool  # a table with rows
    block_type: str


def chunk_position(chunk: Any) -> tuple[float, float]:
    w, h = chunk.page_size_pt if chunk.page_size_pt else (0.0, 0.0)
    boxes = [r.bbox_pdf for r in chunk.all_regions() if r.page == chunk.page] or list(chunk.bboxes_pdf)
    if not boxes or w <= 0 or h <= 0:
        return 0.5, 0.0
    top = min(y0 for _, y0, _, _ in boxes) / h
    area = sum(max(0.0, x1 - x0) * max(0.0, y1 - y0) for x0, y0, x1, y1 in boxes) / (w * h)
    return float(top), float(min(area, 1.0))


def _common_fields(obj: dict) -> dict[str, Any]:
    """The fields both weights files hold alike: features, meta, unit-choice thresholds."""
    return {
        "features": tuple(obj["features"]),
        "meta": tuple((str(k), str(v)) for k, v in (obj.get("meta") or {}).items()),
        "page_below": tuple(sorted((int(m), float(t)) for m, t in (obj.get("page_below") or {}).items())),
    }


class _Shared:
    """What both rankers do the same way: check the features against the code, hold the
    unit-choice thresholds, and turn logits into probabilities."""

    features: tuple[str, ...]
    # unit choice (hits.py): per `page_members`, the probability below which a hit is its page
    page_below: tuple[tuple[int, float], ...]

    def __post_init__(self) -> None:
        if tuple(self.features) != FEATURES:
            missing = sorted(set(FEATURES) ^ set(self.features))
            raise InputError(f"ranker weights do not match the features in code (differ: {missing[:5]})")

    def page_threshold(self, page_members: int) -> float | None:
        """The fitted unit-choice threshold for hits of `page_members` chunks (None: chunks only)."""
        return dict(self.page_below).get(int(page_members))

    def with_page_below(self, thresholds: dict[int, float]) -> Self:
        return replace(  # type: ignore[type-var]
            self, page_below=tuple(sorted((int(m), float(t)) for m, t in thresholds.items()))
        )

    def logits(self, X: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def score(self, X: np.ndarray) -> np.ndarray:
        """The probability that a candidate covers the evidence (the hit's `score`)."""
        return 1.0 / (1.0 + np.exp(-self.logits(X)))


@dataclass(frozen=True, eq=False)
class LinearRanker(_Shared):
    """A linear model over standardized features: p = sigmoid(((x - mean) / scale) . coef + b)."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    meta: tuple[tuple[str, str], ...] = ()
    page_below: tuple[tuple[int, float], ...] = ()

    @property
    def n_parameters(self) -> int:
        """Fitted numbers: one coefficient a feature and the intercept (mean/scale are the
        standardization, fit on the same training rows, counted apart in `n_standardization`)."""
        return len(self.coef) + 1 + len(self.page_below)

    def logits(self, X: np.ndarray) -> np.ndarray:
        """What candidates are ordered by (a probability saturates; its logit does not)."""
        return np.asarray(((X - self.mean) / self.scale) @ self.coef + self.intercept, dtype=np.float64)

    def to_json(self) -> dict:
        return {
            "kind": "linear",
            "model": "linear model over standardized features: logistic regression (scikit-learn), see meta.objective",
            "features": list(self.features),
            "mean": [round(float(x), 8) for x in self.mean],
            "scale": [round(float(x), 8) for x in self.scale],
            "coef": [round(float(x), 8) for x in self.coef],
            "intercept": round(float(self.intercept), 8),
            "page_below": {str(m): round(t, 8) for m, t in self.page_below},
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, obj: dict) -> LinearRanker:
        try:
            return cls(
                mean=np.asarray(obj["mean"], dtype=np.float64),
                scale=np.asarray(obj["scale"], dtype=np.float64),
                coef=np.asarray(obj["coef"], dtype=np.float64),
                intercept=float(obj["intercept"]),
                **_common_fields(obj),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"bad ranker weights: {e}") from None

    @classmethod
    def load(cls, path: Path) -> LinearRanker:
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))

    @classmethod
    def fit(
        cls,
        X: np.ndarray,
        y: np.ndarray,
        groups: np.ndarray,
        *,
        C: float = 1.0,
        pairwise: bool = True,
        meta: dict | None = None,
    ) -> LinearRanker:
        """Fit on candidate rows grouped by query (needs scikit-learn: the `learn` extra; search
        does not). `pairwise` (the default): logistic regression on the differences between each
        positive candidate and every negative one of the same query (a linear RankNet/RankSVM), so
        the weights order candidates within a query; then a 1-D logistic fit of the labels on that
        order (Platt scaling) gives the score a probability's scale (the companion rule compares
        scores). Otherwise: plain logistic regression on the rows."""
        from sklearn.linear_model import LogisticRegression

        mean = X.mean(axis=0)
        scale = X.std(axis=0)
        scale[scale == 0] = 1.0
        Z = (X - mean) / scale
        if not pairwise:
            model = LogisticRegression(C=C, max_iter=2000, class_weight="balanced")
            model.fit(Z, y)
            coef, intercept = model.coef_[0].astype(np.float64), float(model.intercept_[0])
        else:
            diffs = []
            for g in np.unique(groups):
                rows = np.flatnonzero(groups == g)
                pos, neg = rows[y[rows] == 1], rows[y[rows] == 0]
                if len(pos) and len(neg):
                    diffs.append((Z[pos][:, None, :] - Z[neg][None, :, :]).reshape(-1, Z.shape[1]))
            D = np.vstack(diffs)
            pairs = LogisticRegression(C=C, max_iter=2000, fit_intercept=False)
            pairs.fit(np.vstack([D, -D]), np.r_[np.ones(len(D)), np.zeros(len(D))])
            w = pairs.coef_[0].astype(np.float64)
            platt = LogisticRegression(C=C, max_iter=2000)
            platt.fit((Z @ w)[:, None], y)
            a, intercept = float(platt.coef_[0][0]), float(platt.intercept_[0])
            coef = w * a
        return cls(
            features=FEATURES,
            mean=mean,
            scale=scale,
            coef=coef,
            intercept=intercept,
            meta=tuple(
                (str(k), str(v))
                for k, v in {"objective": "pairwise" if pairwise else "pointwise", **(meta or {})}.items()
            ),
        )


# LightGBM's usual settings, set once before any run and not tuned on the folds
TREE_SETTINGS: dict[str, Any] = {
    "n_estimators": 200,
    "learning_rate": 0.05,
    "num_leaves": 15,
    "min_child_samples": 20,
}
# The candidates `evaluation.crossval.choose_tree_settings` picks among by nested cross-validation
# (written before any run, not edited after one): the usual settings first (a tie keeps them),
# then smaller and larger trees, more regularised leaves, and bagging (rows and features drawn per
# tree, which averages out some of the refit churn of one fit) at the same and half the step.
TREE_GRID: tuple[dict[str, Any], ...] = (
    TREE_SETTINGS,
    {**TREE_SETTINGS, "num_leaves": 7, "min_child_samples": 40},
    {**TREE_SETTINGS, "num_leaves": 31},
    {**TREE_SETTINGS, "min_child_samples": 80},
    {**TREE_SETTINGS, "subsample": 0.7, "subsample_freq": 1, "colsample_bytree": 0.7, "random_state": 0},
    {**TREE_SETTINGS, "n_estimators": 400, "learning_rate": 0.025, "subsample": 0.7, "subsample_freq": 1,
     "colsample_bytree": 0.7, "random_state": 0},
)


@dataclass(frozen=True, eq=False)
class TreeRanker(_Shared):
    """Gradient-boosted trees (LightGBM's LambdaRank objective: the order of candidates within a
    query) over the same features, with a 1-D Platt fit of the labels on the trees' scores so a
    score is a probability (the unit choice compares it with `page_below`). The trees ship in
    LightGBM's own text format inside the weights file; scoring needs lightgbm (a dependency)."""

    features: tuple[str, ...]
    model_text: str  # lightgbm.Booster.model_to_string()
    a: float
    b: float
    meta: tuple[tuple[str, str], ...] = ()
    page_below: tuple[tuple[int, float], ...] = ()

    @cached_property
    def booster(self) -> Any:
        import lightgbm as lgb

        try:
            booster = lgb.Booster(model_str=self.model_text)
        except lgb.basic.LightGBMError as e:
            raise InputError(f"bad ranker trees: {str(e).splitlines()[0]}") from None
        if booster.num_feature() != len(FEATURES):
            raise InputError(
                f"ranker trees read {booster.num_feature()} features, the code makes {len(FEATURES)}"
            )
        return booster

    @property
    def n_parameters(self) -> str:
        return f"{self.booster.num_trees()} trees + 2 (Platt) + {len(self.page_below)}"

    def logits(self, X: np.ndarray) -> np.ndarray:
        if not len(X):
            return np.zeros(0, dtype=np.float64)
        raw = self.booster.predict(np.asarray(X, dtype=np.float64), num_threads=1)
        return np.asarray(self.a * raw + self.b, dtype=np.float64)

    def to_json(self) -> dict:
        return {
            "kind": "trees",
            "model": "gradient-boosted trees, LightGBM LambdaRank, + Platt scaling (a * trees + b)",
            "features": list(self.features),
            "platt": [round(self.a, 10), round(self.b, 10)],
            "page_below": {str(m): round(t, 8) for m, t in self.page_below},
            "meta": dict(self.meta),
            "trees": self.model_text,
        }

    @classmethod
    def from_json(cls, obj: dict) -> TreeRanker:
        try:
            a, b = (float(x) for x in obj["platt"])
            return cls(
                model_text=str(obj["trees"]),
                a=a,
                b=b,
                **_common_fields(obj),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"bad ranker weights: {e}") from None

    @classmethod
    def fit(
        cls,
        X: np.ndarray,
        y: np.ndarray,
        groups: np.ndarray,
        *,
        meta: dict | None = None,
        settings: dict[str, Any] | None = None,
    ) -> TreeRanker:
        """LambdaRank on candidate rows grouped by query (rows of one query need not be adjacent),
        then Platt scaling on the training rows' scores (needs scikit-learn: the `learn` extra).
        `settings`: LightGBM's (default `TREE_SETTINGS`)."""
        import lightgbm as lgb
        from sklearn.linear_model import LogisticRegression

        order = np.argsort(np.asarray(groups), kind="stable")
        X, y, groups = X[order], y[order], np.asarray(groups)[order]
        _, counts = np.unique(groups, return_counts=True)
        settings = dict(settings or TREE_SETTINGS)
        model = lgb.LGBMRanker(**settings, verbose=-1, n_jobs=1)
        model.fit(X, y, group=counts)
        raw = np.asarray(model.booster_.predict(X, num_threads=1), dtype=np.float64)
        platt = LogisticRegression(max_iter=2000).fit(raw[:, None], y)
        info = {"objective": "lambdarank", **{k: str(v) for k, v in settings.items()}, **(meta or {})}
        return cls(
            features=FEATURES,
            model_text=model.booster_.model_to_string(),
            a=float(platt.coef_[0][0]),
            b=float(platt.intercept_[0]),
            meta=tuple((str(k), str(v)) for k, v in info.items()),
        )


Ranker = LinearRanker | TreeRanker


def load_ranker(obj: dict) -> Ranker:
    """A weights file's ranker: `kind` trees or linear (a file without `kind` is linear)."""
    if not isinstance(obj, dict):
        raise InputError("bad ranker weights: not a JSON object")
    kind = obj.get("kind", "linear")
    if kind == "trees":
        return TreeRanker.from_json(obj)
    if kind == "linear":
        return LinearRanker.from_json(obj)
    raise InputError(f"bad ranker weights: unknown kind {kind!r} (trees, linear)")


@cache
def default_ranker() -> Ranker:
    """The shipped weights (`layoutrag/data/ranker.json`, trained on every dev fold)."""
    text = resources.files("layoutrag").joinpath("data/ranker.json").read_text(encoding="utf-8")
    return load_ranker(json.loads(text))
