"""Rank fusion. Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009):

    rrf(d) = sum over runs r of  w_r / (k + rank_r(d))        rank 1-based, k = 60

`rrf_fuse` is the plain contract (all weights 1, full lists). The default strategy
(`FusionStrategy.weighted`) routes by query type:
- a query naming a document's part number or series, or one whose words BM25's top chunk mostly
  holds (idf-weighted share >= `lexical_gate`) - the lexical route: BM25 decides, the dense run
  only breaks ties (weight 0.01); on such queries part-aware BM25 is near perfect and under plain
  RRF the bundled models' rank-1..60 noise outvotes its correct hits;
- any other query (descriptive route): the dense run votes at half weight to depth 20, the top 10
  documents ranked by BM25 over all their text vote (weight 2) for their chunks, and the block
  family the question asks for (a drawing, or a spec table/feature list) gets a prior (0.5);
- on both routes, the top 10 pages ranked by BM25 over all their chunks' text vote (weight 1) for
  their chunks: the page that holds the whole question lifts its blocks;
- on the lexical route, a residual run - BM25 of the query minus the top document's own card words
  (which every chunk of it carries, so length normalization favours short running headers) over
  that document's chunks - votes at weight 1, and the block-family prior at 0.25;
- on both routes, a table chunk among the leading 30 whose best row holds the query's words (idf
  share, the document's card words left out) gets up to 0.25 votes, unless a drawing is asked for.
The constants come from benchmarks/search_quality.py (numbers in the README).
Ties are broken by (-score, id), as pyserini does.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

__all__ = ["FusionConfig", "FusionStrategy", "fuse", "rrf_fuse"]

T = TypeVar("T", bound=Hashable)


def rrf_fuse(
    runs: Sequence[Sequence[T]],
    *,
    k: int = 60,
    weights: Sequence[float] | None = None,
    depth: Sequence[int | None] | None = None,
) -> list[tuple[T, float]]:
    """Fuse ranked runs (best first) into [(id, score)], best first, ties by id ascending."""
    weights = weights or [1.0] * len(runs)
    depth = depth or [None] * len(runs)
    scores: dict[T, float] = {}
    for run, w, d in zip(runs, weights, depth, strict=True):
        if w == 0:
            continue
        for rank, item in enumerate(run[:d] if d else run, start=1):
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))  # type: ignore[operator]


class FusionStrategy(StrEnum):
    rrf = "rrf"  # plain RRF, the contract baseline
    weighted = "weighted"  # lexical weight 1, dense weight `dense_weight`, dense depth-limited


@dataclass(frozen=True)
class FusionConfig:
    """Weighted fusion constants (defaults mirrored in Settings; numbers in search_quality.py)."""

    strategy: FusionStrategy = FusionStrategy.weighted
    dense_weight: float = 0.5  # the dense run's vote relative to BM25's
    dense_depth: int = 20  # dense ranks beyond this do not vote
    doc_weight: float = 2.0  # a third run: documents ranked by BM25 over all their text
    doc_depth: int = 10  # documents beyond this rank do not vote
    type_prior: float = 0.5  # vote for chunks of the block family the query asks for
    page_weight: float = 1.0  # a fourth run: pages ranked by BM25 over all their chunks' text
    page_depth: int = 10  # pages beyond this rank do not vote
    page_on_lexical: bool = True  # the page run votes on the lexical route too
    row_weight: float = 0.25  # vote for a leading table chunk whose best row holds the query's terms
    row_depth: int = 30  # only the leading candidates are checked for a matching row
    residual_weight: float = 1.0  # lexical route: BM25 of the query minus the top document's names
    residual_depth: int = 30  # residual ranks beyond this do not vote
    residual_docs: int = 1  # the residual run ranks chunks of the documents of BM25's top this many
    lexical_type_prior: float = 0.25  # the block-family prior on the lexical route
    named_dense_weight: float = 0.01  # dense weight on the lexical route: it only breaks ties
    lexical_gate: float = 0.5  # lexical route when BM25's top chunk holds this share of the query's idf

    @classmethod
    def parse(cls, strategy: str, **kw: float | bool) -> FusionConfig:
        try:
            s = FusionStrategy(strategy)
        except ValueError:
            valid = ", ".join(x.value for x in FusionStrategy)
            raise ValueError(f"unknown fusion {strategy!r}; valid: {valid}") from None
        return cls(strategy=s, **kw)  # type: ignore[arg-type]


def fuse(
    bm25_run: Sequence[T], dense_run: Sequence[T], *, k: int, config: FusionConfig, named: bool = False
) -> list[tuple[T, float]]:
    """Fuse the two runs of the hybrid index according to `config`. `named`: the query names a
    document's part number or series, so the lexical run is trusted and the dense run only nudges."""
    if config.strategy is FusionStrategy.rrf or not bm25_run:
        # no lexical evidence at all: the dense run alone decides, at full weight
        return rrf_fuse([bm25_run, dense_run], k=k)
    return rrf_fuse(
        [bm25_run, dense_run],
        k=k,
        weights=[1.0, config.named_dense_weight if named else config.dense_weight],
        depth=[None, config.dense_depth],
    )
