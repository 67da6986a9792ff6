"""Hit assembly: a ranked list of chunks -> the top k hits, each a lead chunk with the companions of
its page, and the table row of a chunk that best matches the query (`matched_row`)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from layoutrag.config import HitSettings

__all__ = ["best_row", "page_hits"]


def page_hits(
    ranked: list[tuple[int, float]],
    k: int,
    *,
    doc_index: np.ndarray,
    pages: np.ndarray,
    hits: HitSettings,
) -> list[list[tuple[int, float]]]:
    """The top k hits, each a lead chunk and up to `page_members - 1` companions: chunks of the
    lead's page ranked within `merge_depth` whose score is at least `companion_score` of the lead's.
    Blocks of one page that the ranking cannot separate (the list naming the part, the table holding
    the value) are one hit a reader checks on one page, not several hits that push other pages out
    of the top k."""
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
        if h is not None and rank < depth and len(out[h]) < members:
            lead_score = out[h][0][1]
            if lead_score > 0 and score >= share * lead_score:
                out[h].append((i, score))
                continue
        if len(out) < k:
            lead_of.setdefault(key, len(out))
            out.append([(i, score)])
    return out


def best_row(row_scores: Iterable[float]) -> int | None:
    """The row with the highest positive score (the first on a tie), else None."""
    scores = list(row_scores)
    best = max(scores, default=0.0)
    return scores.index(best) if best > 0 else None
