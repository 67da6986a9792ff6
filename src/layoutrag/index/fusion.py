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
The constants are `FusionSettings` in config.py (numbers in docs/EVALUATION.md).
Ties are broken by (-score, id), as pyserini does.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from layoutrag.config import FusionSettings, FusionStrategy

__all__ = ["FusionSettings", "FusionStrategy", "fuse", "rrf_fuse"]

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
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def fuse(
    bm25_run: Sequence[T], dense_run: Sequence[T], *, k: int, config: FusionSettings, named: bool = False
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
