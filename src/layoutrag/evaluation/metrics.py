"""Retrieval metrics over page regions and over chunk ids. Pure functions; no I/O.

Region gold (DESIGN.md "Evaluation data formats"): a query names a document, a page and a region
(one box, or several parts of one region, e.g. a paragraph that wraps into the next column). A hit
**covers** the query when it is on the same document and page and the union of its boxes on that
page covers ≥ 95 % of the region's area (evidence sufficiency).

    rank            1-based position of the first covering hit in the returned list (None: none)
    hit@k           rank ≤ k
    MRR@15          1/rank when rank ≤ 15, else 0
    nDCG@10         binary gains (1 for each covering hit in the top 10, log2 discount); the ideal
                    puts the covering hits found (at least one) first
    page-hit@k      some hit in the top k lies on the gold document and page
    doc-hit@k       some hit in the top k comes from the gold document
    answer-hit@k    some hit in the top k has a box on the gold page holding the printed answer
                    (most — ≥ 50 % — of one occurrence's box inside one hit box, so glyph-cell and
                    ink-tight box conventions agree): rewards row-level precision
    leakage         area(first covering hit's boxes, union per page, summed over pages) / area(region)
                    — how much a reader must look at to find the evidence (1 = exactly the region)
    IoU             |H ∩ R| / |H ∪ R| for the first covering hit, H its boxes on the gold page

Chunk-id gold: Recall@k = |gold ∩ top-k| / |gold|, MRR@15 = 1/rank of the first gold chunk.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from layoutrag.geometry import area, contains_frac, covered_area, union_box
from layoutrag.records import BBox

__all__ = [
    "COVER_THRESHOLD",
    "HIT_KS",
    "ChunkQueryResult",
    "Hit",
    "RegionQueryResult",
    "answer_rank",
    "chunk_metrics",
    "coverage",
    "covers",
    "first_rank",
    "hit_area",
    "iou_on_page",
    "leakage",
    "mrr",
    "ndcg",
    "percentile",
    "recall_at",
    "region_metrics",
    "score_chunk_query",
    "score_region_query",
    "summarize_chunk_results",
    "summarize_region_results",
    "union_area",
]

COVER_THRESHOLD = 0.95
HIT_KS = (1, 5, 10, 15)
MRR_DEPTH = 15
NDCG_DEPTH = 10


@dataclass(frozen=True)
class Hit:
    """One returned result, reduced to what scoring needs: its document and its boxes per page."""

    doc_id: str
    boxes: tuple[tuple[int, BBox], ...]  # (page, bbox_pdf) for every member
    chunk_id: str = ""

    def boxes_on(self, page: int) -> list[BBox]:
        return [b for p, b in self.boxes if p == page]

    def on_page(self, page: int) -> bool:
        return any(p == page for p, _ in self.boxes)


# --------------------------------------------------------------------------- geometry
def union_area(boxes: Sequence[BBox]) -> float:
    """Area of the union of boxes (overlaps counted once)."""
    if not boxes:
        return 0.0
    return covered_area(union_box(boxes), boxes)


def coverage(regions: Sequence[BBox], boxes: Sequence[BBox]) -> float:
    """Share of the region (the union of its parts, assumed disjoint) covered by the boxes."""
    total = sum(area(r) for r in regions)
    if total <= 0:
        return 0.0
    return sum(covered_area(r, boxes) for r in regions) / total


def covers(
    hit: Hit, doc_id: str, page: int, regions: Sequence[BBox], threshold: float = COVER_THRESHOLD
) -> bool:
    if hit.doc_id != doc_id:
        return False
    boxes = hit.boxes_on(page)
    return bool(boxes) and coverage(regions, boxes) >= threshold - 1e-9


def hit_area(hit: Hit) -> float:
    """What a reader looks at: the union of the hit's boxes on each page, summed over its pages."""
    pages = sorted({p for p, _ in hit.boxes})
    return sum(union_area(hit.boxes_on(p)) for p in pages)


def leakage(hit: Hit, regions: Sequence[BBox]) -> float:
    region = sum(area(r) for r in regions)
    return hit_area(hit) / region if region > 0 else math.inf


def iou_on_page(boxes: Sequence[BBox], regions: Sequence[BBox]) -> float:
    """IoU of two unions of boxes (the regions' parts assumed disjoint)."""
    inter = sum(covered_area(r, boxes) for r in regions)
    union = union_area(list(boxes)) + sum(area(r) for r in regions) - inter
    return inter / union if union > 0 else 0.0


# --------------------------------------------------------------------------- ranks
def first_rank(flags: Iterable[bool]) -> int | None:
    for i, f in enumerate(flags, start=1):
        if f:
            return i
    return None


def mrr(rank: int | None, depth: int = MRR_DEPTH) -> float:
    return 1.0 / rank if rank is not None and rank <= depth else 0.0


def ndcg(flags: Sequence[bool], depth: int = NDCG_DEPTH) -> float:
    """Binary nDCG@depth; the ideal ranking puts the relevant results found first (at least one)."""
    gains = [1.0 if f else 0.0 for f in flags[:depth]]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    n_rel = max(1, int(sum(gains)))
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(n_rel, depth)))
    return dcg / idcg


def answer_rank(hits: Sequence[Hit], doc_id: str, page: int, answer_boxes: Sequence[BBox]) -> int | None:
    """Rank of the first hit with a box on the gold page that holds one occurrence of the answer."""
    if not answer_boxes:
        return None
    for i, h in enumerate(hits, start=1):
        if h.doc_id != doc_id:
            continue
        for b in h.boxes_on(page):
            if any(contains_frac(a, b) >= 0.5 for a in answer_boxes):
                return i
    return None


def recall_at(ranked_ids: Sequence[str], gold: Sequence[str], k: int) -> float:
    g = set(gold)
    return len(g & set(ranked_ids[:k])) / len(g) if g else 0.0


def percentile(values: Sequence[float], q: float) -> float | None:
    vals = [v for v in values if v is not None and math.isfinite(v)]
    return float(np.percentile(vals, q)) if vals else None


# --------------------------------------------------------------------------- one query
@dataclass
class RegionQueryResult:
    id: str
    query: str
    kind: str
    lang: str
    doc: str
    page: int
    rank: int | None  # first covering hit
    page_rank: int | None
    doc_rank: int | None
    answer_rank: int | None
    answer_located: bool
    ndcg10: float
    leakage: float | None  # of the first covering hit (within the returned list)
    iou: float | None
    top: list[dict] = field(default_factory=list)  # what came back first (for the misses table)


def score_region_query(
    hits: Sequence[Hit],
    *,
    doc_id: str,
    page: int,
    regions: Sequence[BBox],
    answer_boxes: Sequence[BBox] = (),
    qid: str = "",
    query: str = "",
    kind: str = "",
    lang: str = "",
    doc: str = "",
) -> RegionQueryResult:
    flags = [covers(h, doc_id, page, regions) for h in hits]
    rank = first_rank(flags)
    lk = io = None
    if rank is not None:
        first = hits[rank - 1]
        lk = leakage(first, regions)
        io = iou_on_page(first.boxes_on(page), regions)
    return RegionQueryResult(
        id=qid,
        query=query,
        kind=kind,
        lang=lang,
        doc=doc,
        page=page,
        rank=rank,
        page_rank=first_rank(h.doc_id == doc_id and h.on_page(page) for h in hits),
        doc_rank=first_rank(h.doc_id == doc_id for h in hits),
        answer_rank=answer_rank(hits, doc_id, page, answer_boxes),
        answer_located=bool(answer_boxes),
        ndcg10=ndcg(flags),
        leakage=lk,
        iou=io,
    )


@dataclass
class ChunkQueryResult:
    id: str
    query: str
    lang: str
    kind: str
    rank: int | None
    recall5: float
    recall15: float
    gold_ranks: list[int] = field(default_factory=list)  # ranks of the gold chunks found (for curves)
    n_gold: int = 0
    top: list[dict] = field(default_factory=list)


def score_chunk_query(
    ranked_ids: Sequence[str],
    gold: Sequence[str],
    *,
    qid: str = "",
    query: str = "",
    lang: str = "",
    kind: str = "",
) -> ChunkQueryResult:
    g = set(gold)
    return ChunkQueryResult(
        id=qid,
        query=query,
        lang=lang,
        kind=kind,
        rank=first_rank(cid in g for cid in ranked_ids),
        recall5=recall_at(ranked_ids, gold, 5),
        recall15=recall_at(ranked_ids, gold, 15),
        gold_ranks=[i for i, cid in enumerate(ranked_ids, start=1) if cid in g],
        n_gold=len(g),
    )


# --------------------------------------------------------------------------- aggregates
def _within(rank: int | None, k: int) -> float:
    return 1.0 if rank is not None and rank <= k else 0.0


def _mean(xs: Sequence[float]) -> float | None:
    return float(sum(xs) / len(xs)) if xs else None


def summarize_region_results(results: Sequence[RegionQueryResult], *, ks: Sequence[int] = HIT_KS) -> dict:
    """Means over queries (answer-hit over the queries whose answer was located), leakage and IoU
    distributions over the queries with a covering hit."""
    n = len(results)
    out: dict = {"n": n}
    if not n:
        return out
    for k in ks:
        out[f"hit@{k}"] = _mean([_within(r.rank, k) for r in results])
    out["mrr@15"] = _mean([mrr(r.rank) for r in results])
    out["ndcg@10"] = _mean([r.ndcg10 for r in results])
    for k in ks:
        out[f"page_hit@{k}"] = _mean([_within(r.page_rank, k) for r in results])
    for k in ks:
        out[f"doc_hit@{k}"] = _mean([_within(r.doc_rank, k) for r in results])
    located = [r for r in results if r.answer_located]
    out["answer_located"] = len(located)
    for k in ks:
        out[f"answer_hit@{k}"] = _mean([_within(r.answer_rank, k) for r in located])
    leaks = [r.leakage for r in results if r.leakage is not None]
    ious = [r.iou for r in results if r.iou is not None]
    out["covered"] = len(leaks)
    out["leakage_median"] = percentile(leaks, 50)
    out["leakage_p90"] = percentile(leaks, 90)
    out["iou_median"] = percentile(ious, 50)
    out["iou_p90"] = percentile(ious, 90)
    return out


def summarize_chunk_results(results: Sequence[ChunkQueryResult]) -> dict:
    n = len(results)
    out: dict = {"n": n}
    if not n:
        return out
    out["recall@5"] = _mean([r.recall5 for r in results])
    out["recall@15"] = _mean([r.recall15 for r in results])
    out["mrr@15"] = _mean([mrr(r.rank) for r in results])
    out["hit@5"] = _mean([_within(r.rank, 5) for r in results])
    return out


def chunk_metrics(results: Sequence[ChunkQueryResult]) -> dict:
    """Overall and per-language/per-kind aggregates for chunk-id gold."""
    return _with_breakdown(results, summarize_chunk_results)


def _with_breakdown(results, summarize) -> dict:  # noqa: ANN001 - either result type
    out = summarize(results)
    for attr in ("kind", "lang"):
        groups: dict[str, list] = {}
        for r in results:
            groups.setdefault(getattr(r, attr) or "-", []).append(r)
        out[f"by_{attr}"] = {g: summarize(rs) for g, rs in sorted(groups.items())}
    return out


def region_metrics(results: Sequence[RegionQueryResult]) -> dict:
    """Overall and per-kind/per-language aggregates for region gold."""
    return _with_breakdown(results, summarize_region_results)
