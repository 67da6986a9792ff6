"""``layoutrag show``: draw a page's detected elements (box, reading order, label, score) over it.

The debugging view of the pipeline. Uses the stored document when given an ingested doc id, file
name or PDF; otherwise runs the pipeline on that one page in memory, writing no artifact.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from layoutrag.config import Settings
from layoutrag.errors import NotFoundError
from layoutrag.ingest.layout import get_detector
from layoutrag.ingest.stages import build_page, detect_layout, extract_text, file_sha256
from layoutrag.pdf import open_document, open_pdf, render_dpi
from layoutrag.records import Document, Page
from layoutrag.storage import DataDir, atomic_write_bytes

__all__ = ["show_page"]

_COLOURS = {
    "title": (0.8, 0.0, 0.0),
    "section_header": (0.9, 0.4, 0.0),
    "text": (0.0, 0.3, 0.9),
    "list_item": (0.0, 0.6, 0.6),
    "table": (0.0, 0.6, 0.0),
    "picture": (0.6, 0.0, 0.7),
    "caption": (0.7, 0.5, 0.0),
    "footnote": (0.4, 0.4, 0.4),
    "page_header": (0.5, 0.5, 0.5),
    "page_footer": (0.5, 0.5, 0.5),
    "formula": (0.9, 0.0, 0.5),
}


def _find_doc(pdf_or_doc: str, data: DataDir) -> Document | None:
    candidates = []
    if len(pdf_or_doc) <= 128 and "/" not in pdf_or_doc and "\\" not in pdf_or_doc:
        try:
            candidates.append(data.document_json(pdf_or_doc))
        except NotFoundError:
            pass
    path = Path(pdf_or_doc)
    if path.is_file():
        sha = file_sha256(path)
        candidates.append(data.document_json(sha[:16]))
    for c in candidates:
        if c.is_file():
            return Document.model_validate_json(c.read_bytes())
    for doc_id in data.doc_ids():  # by file name
        doc = Document.model_validate_json(data.document_json(doc_id).read_bytes())
        if doc.file_name == pdf_or_doc or doc.file_name == path.name:
            return doc
    return None


def show_page(
    pdf_or_doc: str, *, page: int, out: Path, data: Path, settings: Settings, layout: str | None = None
) -> None:
    """Draw the detected elements (box, label, reading order) over a rendered page → PNG at `out`.

    Uses the stored document when `pdf_or_doc` is an ingested doc id, file name or PDF; otherwise
    runs the pipeline on that one page in memory (backend `layout`) without writing any artifact.
    """
    dd = DataDir(data)
    doc = _find_doc(str(pdf_or_doc), dd)
    if doc is not None and (layout is None or layout == doc.layout_backend):
        pdf_path = dd.source_pdf(doc.doc_id)
        if not 1 <= page <= doc.n_pages:
            raise NotFoundError(f"page {page} out of range (document has {doc.n_pages} pages)")
        pg = doc.pages[page - 1]
    else:
        pdf_path = Path(pdf_or_doc)
        if not pdf_path.is_file():
            raise NotFoundError(f"no ingested document or PDF file named {str(pdf_or_doc)[:80]!r}")
        pg = _page_in_memory(pdf_path, page, layout or settings.layout.layout_backend, settings)
    with open_document(pdf_path) as pdf:
        if not 1 <= page <= pdf.page_count:
            raise NotFoundError(f"page {page} out of range (document has {pdf.page_count} pages)")
        src = pdf[page - 1]
        canvas = pymupdf.open()
        p = canvas.new_page(width=src.rect.width, height=src.rect.height)
        p.show_pdf_page(p.rect, pdf, page - 1)  # honours /Rotate: the canvas is the displayed page
        for e in pg.elements:
            colour = _COLOURS.get(e.label, (0, 0, 0))
            r = pymupdf.Rect(e.bbox_pdf)
            p.draw_rect(r, color=colour, width=0.8)
            tag = f"{e.order} {e.label}" + (f" {e.confidence:.2f}" if e.confidence not in (0.0, 1.0) else "")
            p.insert_text((r.x0 + 1, max(r.y0 - 1.5, 6)), tag, fontsize=5.5, color=colour)
        dpi = render_dpi(p, settings.render.dpi // 2 if settings.render.dpi > 150 else settings.render.dpi)
        png = p.get_pixmap(dpi=dpi).tobytes("png")
        canvas.close()
    atomic_write_bytes(Path(out), png)


def _page_in_memory(pdf_path: Path, page: int, backend: str, settings: Settings) -> Page:
    with open_pdf(pdf_path, settings) as pdf:
        if not 1 <= page <= pdf.page_count:
            raise NotFoundError(f"page {page} out of range (document has {pdf.page_count} pages)")
        single = pymupdf.open()
        single.insert_pdf(pdf, from_page=page - 1, to_page=page - 1)
        text = extract_text(single, settings, lambda _n: None).pages[0]
        layout = detect_layout(
            single,
            get_detector(backend, confidence=settings.layout.yolo_confidence),
            settings,
            lambda _n: None,
            [text],
        ).pages[0]
        single.close()
    text.page = layout.page = page
    return build_page(text, layout, doc_id="preview", settings=settings)
