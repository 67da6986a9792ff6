"""Intermediate per-document stage artifacts, so a re-run redoes only what changed.

    docs/{doc_id}/stages/text@{dpi}.json            TextArtifact   (text layer / OCR words per page)
    docs/{doc_id}/stages/layout-{backend}@{dpi}.json LayoutArtifact (raw detections per page)

Each carries the key it was built from; a stale or unreadable artifact is simply rebuilt. Changing
the layout backend therefore re-runs layout only: the (possibly OCR'd) words are reused, and
switching back reuses the earlier backend's detections.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from layoutrag.records import BBox, Word
from layoutrag.storage import DataDir, atomic_write_json

__all__ = [
    "DetectionRecord",
    "LayoutArtifact",
    "PageLayout",
    "PageText",
    "SpanRecord",
    "TextArtifact",
    "layout_artifact_path",
    "load_artifact",
    "save_artifact",
    "text_artifact_path",
]


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SpanRecord(_Rec):
    bbox_pdf: BBox
    size: float
    bold: bool
    n_chars: int


class PageText(_Rec):
    page: int
    width_pt: float
    height_pt: float
    rotation: int = 0
    n_chars: int = 0
    text_status: str = "pdf_layer"
    text_source: str = "pdf_layer"
    words: list[Word] = Field(default_factory=list)
    spans: list[SpanRecord] = Field(default_factory=list)
    error: str | None = None


class TextArtifact(_Rec):
    key: str
    pages: list[PageText] = Field(default_factory=list)


class DetectionRecord(_Rec):
    label: str
    source_label: str
    confidence: float
    bbox_pdf: BBox


class PageLayout(_Rec):
    page: int
    detections: list[DetectionRecord] = Field(default_factory=list)
    error: str | None = None


class LayoutArtifact(_Rec):
    key: str
    pages: list[PageLayout] = Field(default_factory=list)


def text_artifact_path(data: DataDir, doc_id: str, dpi: int) -> Path:
    return data.doc_dir(doc_id) / "stages" / f"text@{int(dpi)}.json"


def layout_artifact_path(data: DataDir, doc_id: str, backend: str, dpi: int) -> Path:
    return data.doc_dir(doc_id) / "stages" / f"layout-{backend}@{int(dpi)}.json"


T = TypeVar("T", bound=BaseModel)


def load_artifact(path: Path, model: type[T], key: str) -> T | None:
    """The artifact at `path` when it exists, parses, and was built from `key`; else None."""
    try:
        art = model.model_validate_json(path.read_bytes())
    except (OSError, ValidationError, ValueError):
        return None
    return art if getattr(art, "key", None) == key else None


def save_artifact(path: Path, art: BaseModel) -> None:
    atomic_write_json(path, art)
