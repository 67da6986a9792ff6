"""Per-search options, immutable: what a caller (the service, a benchmark, the cross-validation)
changes for one search without touching the live index."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from layoutrag.config import FusionSettings, FusionStrategy, HitSettings, Settings
from layoutrag.errors import InputError

if TYPE_CHECKING:  # pragma: no cover
    from layoutrag.index.ranker import Ranker

__all__ = ["FUSION_CHOICES", "MODES", "SearchOptions"]

MODES = ("fused", "bm25", "dense")
# what `--fusion` accepts: the fusion strategies, and the two single paths
FUSION_CHOICES = (*(s.value for s in FusionStrategy), "bm25", "dense")


@dataclass(frozen=True)
class SearchOptions:
    """`mode`: fused, or one path alone; `fusion`/`hits`: None -> the index's settings; `ranker`:
    None -> the shipped weights (used when the fusion strategy is `learned`); `doc_boost`,
    `expand_glossary` and `units` are ablation switches; `focus_terms`: a scenario question's CJK text
    reaches BM25 as the glossary terms it holds, not as all its character bigrams
    (`SearchIndex.lexical_query`; off by default, docs/EVALUATION.md §3)."""

    mode: str = "fused"
    fusion: FusionSettings | None = None
    hits: HitSettings | None = None
    ranker: Ranker | None = None
    doc_boost: bool = True
    expand_glossary: bool = True
    focus_terms: bool = False
    units: bool = True  # the learned ranker may return a chunk's page as the hit (hits.py)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InputError(f"unknown search mode {self.mode!r}; valid: {', '.join(MODES)}")

    @classmethod
    def for_fusion(cls, name: str, settings: Settings, **kw: object) -> SearchOptions:
        """Options for a `--fusion` value: a strategy (rrf, weighted, learned) or a single path."""
        if name in ("bm25", "dense"):
            return cls(mode=name, **kw)  # type: ignore[arg-type]
        if name not in FUSION_CHOICES:
            raise InputError(f"unknown fusion {name!r}; valid: {', '.join(FUSION_CHOICES)}")
        return cls(fusion=settings.updated(fusion=name).fusion, **kw)  # type: ignore[arg-type]
