"""De-duplicate overlapping detections of one page.

Layout models emit several boxes for one region: a complete table box and a truncated one, a
paragraph and its first lines. Ordering by confidence keeps whichever scored higher — often the
truncated box. :func:`area_dedup` orders by **area** instead, so the complete box is kept and the
fragments it swallows are dropped. :func:`confidence_dedup` (same rules, confidence order) exists
for the ablation only.

Rules, against every box already kept: drop a candidate when
  IoU > 0.85 (any class), or IoU > 0.55 (same class), or ≥ 85 % of it lies inside a kept box of the
  same class. Cross-class nesting (a caption inside a picture, text inside a table) is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from layoutrag.errors import InputError
from layoutrag.geometry import area, contains_frac, iou
from layoutrag.ingest.layout import Detection

__all__ = ["DedupStrategy", "area_dedup", "confidence_dedup", "dedup", "is_duplicate"]

IOU_ANY_CLASS = 0.85
IOU_SAME_CLASS = 0.55
INSIDE_SAME_CLASS = 0.85


class DedupStrategy(StrEnum):
    AREA = "area"
    CONFIDENCE = "confidence"


def is_duplicate(candidate: Detection, kept: Detection) -> bool:
    overlap = iou(candidate.bbox_pdf, kept.bbox_pdf)
    if overlap > IOU_ANY_CLASS:
        return True
    if candidate.label != kept.label:
        return False
    return overlap > IOU_SAME_CLASS or contains_frac(candidate.bbox_pdf, kept.bbox_pdf) >= INSIDE_SAME_CLASS


def _greedy(dets: Sequence[Detection], key: Callable[[Detection], tuple]) -> list[Detection]:
    kept: list[Detection] = []
    for d in sorted(dets, key=key):
        if not any(is_duplicate(d, k) for k in kept):
            kept.append(d)
    return kept


def area_dedup(dets: Sequence[Detection]) -> list[Detection]:
    """Sort by area desc, then confidence desc (then position, for determinism); keep greedily."""
    return _greedy(dets, lambda d: (-round(area(d.bbox_pdf), 6), -d.confidence, d.bbox_pdf, d.label))


def confidence_dedup(dets: Sequence[Detection]) -> list[Detection]:
    """The ablation: same rules, confidence desc first (area breaks ties)."""
    return _greedy(dets, lambda d: (-d.confidence, -round(area(d.bbox_pdf), 6), d.bbox_pdf, d.label))


def dedup(dets: Sequence[Detection], strategy: str) -> list[Detection]:
    """Dispatch on ``Settings.dedup_strategy``; an unknown name raises InputError listing the valid ones."""
    try:
        s = DedupStrategy(strategy)
    except ValueError:
        valid = ", ".join(m.value for m in DedupStrategy)
        raise InputError(f"unknown dedup strategy {strategy!r}; valid: {valid}") from None
    return area_dedup(dets) if s is DedupStrategy.AREA else confidence_dedup(dets)
