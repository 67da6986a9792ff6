"""Every tunable has one default here. Environment variables override with the LAYOUTRAG_ prefix."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, ConfigDict

__all__ = ["Settings", "default_data_dir", "settings"]


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # render
    dpi: int = 200
    text_layer_min_chars: int = 50  # more than this on a page -> pdf_layer, else needs_ocr
    # layout
    # pymupdf | yolo. Default by measured region coverage on the dev set (benchmarks/layout_coverage.py):
    # pymupdf 57/74 gold regions covered >= 95 % by its elements, yolo 56/74 (chunks: 56 vs 54 of 73)
    layout_backend: str = "pymupdf"
    yolo_confidence: float = 0.25
    dedup_strategy: str = "area"  # area | confidence  (confidence only for the ablation)
    # limits for one document (bad input never stops a batch)
    max_file_mb: float = 200.0
    max_pages: int = 2000
    max_page_side_pt: float = 14400.0  # 200 inches, the PDF spec's user-space limit
    # chunking
    chunk_max_chars: int = 1500
    chunk_max_gap_frac: float = 0.18  # members farther apart than this share of page height never join
    chunk_split_gap_frac: float = 0.045  # a text run ends at a vertical gap larger than this share
    chunk_member_boxes: str = "slot"  # slot (member's slot in its chunk's block) | element (detector box)
    crop_padding_px: int = 8
    llm_vision: bool = True  # LLM pass (chunking/enrich.py) sends the numbered page image; False: text only
    llm_image_max_side: int = 1024  # long side (px) of the page image sent to the VLM
    # index / search
    bm25_k1: float = 1.5
    bm25_b: float = 0.75
    rrf_k: int = 60
    top_k: int = 15
    max_top_k: int = 100
    max_query_chars: int = 1000
    embed_max_chars: int = 1500
    embedder: str = "default"  # resolved by layoutrag.index.embedders
    fusion: str = (
        "weighted"  # weighted | rrf  (layoutrag.index.fusion; chosen by benchmarks/search_quality.py)
    )
    fusion_dense_weight: float = 0.5  # weight of the dense run under weighted fusion (BM25's is 1)
    fusion_dense_depth: int = 20  # dense ranks beyond this do not vote under weighted fusion
    fusion_doc_weight: float = 2.0  # weight of the document-level BM25 run (its top 10 documents)
    fusion_type_prior: float = 0.5  # vote for the block family the query asks for (figure | spec)
    # page run, residual run, lexical type prior, row bonus: measured on the real dev set (73 queries),
    # the generated set and TKD (docs/EVALUATION.md); each helps at least one set and hurts none
    fusion_page_weight: float = 1.0  # weight of the page-level BM25 run (pages ranked by their chunks' text)
    fusion_page_depth: int = 10  # pages beyond this rank do not vote
    fusion_page_on_lexical: bool = (
        True  # the page run also votes on the lexical route (docs/EVALUATION.md §1)
    )
    fusion_row_weight: float = 0.25  # vote for a leading table chunk whose best row holds the query's terms
    fusion_row_depth: int = 30  # leading candidates checked for a matching table row
    fusion_residual_weight: float = 1.0  # lexical route: BM25 run of the query minus the top document's names
    fusion_residual_depth: int = 30  # residual ranks beyond this do not vote
    fusion_residual_docs: int = 1  # residual run restricted to the documents of BM25's top this many chunks
    fusion_lexical_type_prior: float = 0.25  # the block-family prior on the lexical route
    dense_nprobe: int = 32  # IVF lists probed per query (large indexes only)
    # a chunk ranked within `hit_merge_depth` whose page already has a better hit, and whose score is
    # at least `hit_companion_score` of that hit's (the ranking cannot tell them apart), joins that
    # hit as a companion, up to `hit_page_members` chunks a hit (1: every chunk is its own hit)
    hit_page_members: int = 3
    hit_merge_depth: int = 15
    hit_companion_score: float = 0.9


def _from_env() -> Settings:
    values: dict[str, object] = {}
    for name, field in Settings.model_fields.items():
        raw = os.environ.get(f"LAYOUTRAG_{name.upper()}")
        if raw is not None:
            values[name] = field.annotation(raw) if field.annotation in (int, float, str) else raw  # type: ignore[misc]
    return Settings(**values)


settings = _from_env()


def default_data_dir() -> Path:
    return Path(os.environ.get("LAYOUTRAG_DATA") or "./layoutrag-data")
