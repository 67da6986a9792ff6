"""Map each layout backend's class names onto the one vocabulary of :data:`layoutrag.records.Label`."""

from __future__ import annotations

from layoutrag.records import LABELS

__all__ = ["map_label"]

# Both backends are trained on DocLayNet's 11 classes; they only spell them differently
# (PyMuPDF: "section-header", YOLO metadata: "Section-header"). Anything unknown is body text,
# so no detection is ever dropped for its name.
_ALIASES = {
    "list": "list_item",
    "figure": "picture",
    "image": "picture",
    "header": "page_header",
    "footer": "page_footer",
    "equation": "formula",
    "heading": "section_header",
    "paragraph": "text",
    "plain_text": "text",
}


def map_label(source_label: str) -> str:
    """`'Section-header'` → `'section_header'`; an unknown class → `'text'`."""
    key = source_label.strip().lower().replace("-", "_").replace(" ", "_")
    if key in LABELS:
        return key
    return _ALIASES.get(key, "text")
