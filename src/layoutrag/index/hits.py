"""Hit assembly: a ranked list of chunks -> the top k hits, each a lead chunk with the companions of
its page, and the table row of a chunk that best matches the query (`matched_row`).

Units at two sizes: when the ranker's scores are probabilities (the learned ranker) and a page's best
chunk is less likely than `page_below` to hold the evidence, the hit is that chunk's **page** (the
larger unit that holds it, never worse than the page it is on), shown with the chunks that ranked on
it; the threshold is fitted with the ranker on the training folds (evaluation/crossval.py).

A unit spanning pages (a table continued over a page break) is shown at the page that holds the
asked row (`split_at_page`; `HitSettings.focus_page`): the hit is its part there, the other pages'
part a companion of the hit - the smaller unit that holds the evidence, the rest one click away."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from layoutrag.config import HitSettings
from layoutrag.records import EvidencePackage

__all__ = ["PageHit", "best_row", "page_hits", "split_at_page"]


class PageHit(list):
    """A hit that is its lead chunk's whole page; the list holds the page's ranked chunks shown on it."""


def page_hits(
    ranked: list[tuple[int, float]],
    k: int,
    *,
    doc_index: np.ndarray,
    pages: np.ndarray,
    hits: HitSettings,
    page_below: float | None = None,
) -> list[list[tuple[int, float]]]:
    """The top k hits, each a lead chunk and up to `page_members - 1` companions: chunks of the
    lead's page ranked within `merge_depth` whose score is at least `companion_score` of the lead's.
    Blocks of one page that the ranking cannot separate (the list naming the part, the table holding
    the value) are one hit a reader checks on one page, not several hits that push other pages out
    of the top k. With `page_below`, a chunk scored below it that would lead a hit makes its page
    the hit instead (a `PageHit`); later chunks of that page join it up to `merge_depth`, beyond it
    they are dropped (the page already holds them)."""
    members = max(1, hits.page_members)
    depth = hits.merge_depth if members > 1 else 0
    share = hits.companion_score
    out: list[list[tuple[int, float]]] = []
    lead_of: dict[tuple[int, int], int] = {}
    for rank, (i, score) in enumerate(ranked):
        if rank >= depth and len(out) >= k:
            break
        key = (int(doc_index[i]), int(pages[i]))
        h = lead_of.get(key)
        if h is not None and isinstance(out[h], PageHit):
            if rank < depth:
                out[h].append((i, score))
            continue
        if h is not None and rank < depth and len(out[h]) < members:
            lead_score = out[h][0][1]
            if lead_score > 0 and score >= share * lead_score:
                out[h].append((i, score))
                continue
        if len(out) < k:
            if page_below is not None and score < page_below:
                lead_of[key] = len(out)
                out.append(PageHit([(i, score)]))
                continue
            lead_of.setdefault(key, len(out))
            out.append([(i, score)])
    return out


def best_row(row_scores: Iterable[float]) -> int | None:
    """The row with the highest positive score (the first on a tie), else None."""
    scores = list(row_scores)
    best = max(scores, default=0.0)
    return scores.index(best) if best > 0 else None


def split_at_page(hit: EvidencePackage, page: int) -> tuple[EvidencePackage, EvidencePackage | None]:
    """`hit` cut to its regions on `page` (the lead, with the hit's scores and matched row) and the
    regions on its other pages (a companion with the same chunk id); `hit` unchanged, and no
    companion, when it has no region on `page` or none elsewhere."""
    regions = hit.all_regions()
    here = [r for r in regions if r.page == page]
    there = [r for r in regions if r.page != page]
    if not here or not there:
        return hit, None
    lead = hit.model_copy(
        update={"page": page, "regions": here, "bboxes_pdf": [r.bbox_pdf for r in here]}
    )
    first = min(r.page for r in there)
    part = hit.model_copy(
        update={
            "page": first,
            "regions": there,
            "bboxes_pdf": [r.bbox_pdf for r in there if r.page == first],
            "matched_row": None,
            "companions": [],
        }
    )
    return lead, part
