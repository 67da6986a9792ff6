"""The ingest stages of one document, public so that the pipeline and `show` share them.

    keys      file_sha256, stage versions, the resumability keys of each stage's artifact
    text      extract_text: the text layer, OCR where a page has none            (per page)
    layout    detect_layout: the layout backend; on scanned pages YOLO and the
              PyMuPDF model over the OCR words (Settings.layout.scan_layout)    (per page)
    build     build_page: de-dup, element text, reading order                     (per page)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import pymupdf

from layoutrag.config import Settings
from layoutrag.geometry import clip
from layoutrag.ingest.artifacts import (
    DetectionRecord,
    LayoutArtifact,
    PageLayout,
    PageText,
    SpanRecord,
    TextArtifact,
)
from layoutrag.ingest.dedup import dedup
from layoutrag.ingest.heap import release_freed_memory
from layoutrag.ingest.layout import Detection, LayoutDetector, PyMuPDFLayoutDetector, get_detector
from layoutrag.ingest.reading_order import order_elements
from layoutrag.ingest.text import assign_text
from layoutrag.pdf import (
    Span,
    count_text_chars,
    extract_spans,
    extract_words,
    page_size_pt,
    render_dpi,
    render_page_rgb,
    text_page,
    text_status,
)
from layoutrag.records import Box, Element, Page
from layoutrag.storage import path_text

__all__ = [
    "BUILD_VERSION",
    "LAYOUT_VERSIONS",
    "TEXT_VERSION",
    "Tick",
    "backend_tag",
    "build_page",
    "detect_layout",
    "doc_title",
    "document_key",
    "extract_text",
    "file_sha256",
    "has_scanned_pages",
    "layout_key",
    "needs_image_fallback",
    "one_line",
    "scan_detections",
    "scan_key",
    "stage_version",
    "text_key",
]

# Bump the version of the stage whose output changes; later stages re-run, earlier artifacts are reused.
TEXT_VERSION = 4  # text layer / OCR words (2: Symbol-font codes read as the characters drawn; 3: watermarks dropped;
# 4: fonts giving glyph numbers read through the standard glyph order)
# detector output, per backend (pymupdf: 2 recovered graphics, 3 tables snapped to rulings, 4 no page
# frames, 5 pictures grown over the drawing they show, 6 invisible white fills are not drawings,
# 7 a table takes a larger ruling that holds no other element)
LAYOUT_VERSIONS = {"pymupdf": 7, "yolo": 3}
BUILD_VERSION = 3  # de-dup, element text, reading order, document.json (3: stricter band joining)


def stage_version(backend: str) -> str:
    """The versions of every stage a document built with `backend` went through."""
    return f"ingest-t{TEXT_VERSION}.l{LAYOUT_VERSIONS[backend]}.b{BUILD_VERSION}"


# --------------------------------------------------------------------------- keys and inputs
def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def backend_tag(backend: str, settings: Settings) -> str:
    return f"yolo-c{settings.layout.yolo_confidence:g}" if backend == "yolo" else backend


def text_key(sha: str, settings: Settings) -> str:
    return f"{sha}|text-v{TEXT_VERSION}|dpi={settings.render.dpi}|min={settings.render.text_layer_min_chars}"


def layout_key(sha: str, backend: str, settings: Settings) -> str:
    return f"{sha}|layout-v{LAYOUT_VERSIONS[backend]}|{backend_tag(backend, settings)}|dpi={settings.render.dpi}"


def document_key(sha: str, backend: str, settings: Settings, *, scanned: bool = False) -> str:
    """Content hash + stage version + layout backend + de-dup strategy + dpi (+ how pages without a
    text layer are segmented, for a document that has such pages: a change of that setting then
    re-builds only the documents it touches)."""
    return (
        f"{sha}|{stage_version(backend)}|{backend_tag(backend, settings)}|dedup={settings.layout.dedup_strategy}"
        f"|dpi={settings.render.dpi}|min={settings.render.text_layer_min_chars}"
        + (f"|scan={settings.layout.scan_layout}" if scanned else "")
    )


Tick = Callable[[int], None]


def one_line(e: BaseException) -> str:
    text = path_text(str(e)).strip()  # a message quoting an undecodable file name stays valid UTF-8
    line = text.splitlines()[0] if text else type(e).__name__
    return line[:300]


def extract_text(doc: pymupdf.Document, settings: Settings, tick: Tick) -> TextArtifact:
    pages = []
    for i in range(doc.page_count):
        try:
            page = doc[i]
            w, h = page_size_pt(page)
            textpage = text_page(page)  # parsed once for the count and the words
            n_chars = count_text_chars(page, textpage)
            status = text_status(n_chars, settings)
            pt = PageText(
                page=i + 1,
                width_pt=w,
                height_pt=h,
                rotation=page.rotation % 360,
                n_chars=n_chars,
                text_status=status,
            )
            if status == "pdf_layer":
                pt.words = extract_words(page, textpage)
                pt.spans = [SpanRecord(**s.__dict__) for s in extract_spans(page)]
            else:
                from layoutrag.ingest.ocr import ocr_words

                dpi = render_dpi(page, settings.render.dpi)  # less on a page over the pixel budget
                image = render_page_rgb(page, dpi)
                pt.words = ocr_words(image, dpi, (w, h))
                pt.text_source = "ocr" if pt.words else "none"
        except Exception as e:  # one bad page never sinks the document's other pages
            pt = PageText(page=i + 1, width_pt=1.0, height_pt=1.0, error=f"text: {one_line(e)}")
        pages.append(pt)
        tick(1)
    return TextArtifact(key="", pages=pages)


def needs_image_fallback(detector: LayoutDetector, text: PageText | None) -> bool:
    """PyMuPDF's model reads page objects: on a scanned page (no text layer) it sees one image and
    returns nothing. Such pages are detected by ``Settings.layout.scan_layout`` instead."""
    return not detector.needs_image and text is not None and text.text_status == "needs_ocr"


def has_scanned_pages(pages: Iterable[PageText | Page]) -> bool:
    """Does the document have a page without a text layer (read by OCR)?"""
    return any(p.text_status == "needs_ocr" for p in pages)


def scan_key(detector: LayoutDetector, texts: Sequence[PageText], settings: Settings) -> str:
    """The layout key's part for scanned pages ('' when the document has none or they are
    detected as every other page: the YOLO backend with ``scan_layout = yolo``)."""
    mode = settings.layout.scan_layout
    if not has_scanned_pages(texts):
        return ""
    if mode == "yolo":
        return "" if detector.needs_image else f"|scan-fallback={backend_tag('yolo', settings)}"
    return f"|scan-layout={mode}|{backend_tag('yolo', settings)}"


def scan_detections(page: pymupdf.Page, text: PageText, dpi: int, settings: Settings) -> list[Detection]:
    """A page without a text layer, detected as ``scan_layout`` says: YOLO on the page image,
    PyMuPDF's model on the OCR words laid over the image (:func:`ocr_page_layout`), or both (the
    build stage's de-dup then keeps one of two boxes of the same region)."""
    mode = settings.layout.scan_layout
    image = render_page_rgb(page, dpi)  # one render for both readers
    out: list[Detection] = []
    if mode in ("ocr", "yolo+ocr") and text.words:
        model = get_detector("pymupdf")
        assert isinstance(model, PyMuPDFLayoutDetector)
        out += model.detect_scan(page, text.words, image, dpi)
    if mode in ("yolo", "yolo+ocr") or not out:
        yolo = get_detector("yolo", confidence=settings.layout.yolo_confidence)
        out += yolo.detect(page, image, dpi)
    return out


def detect_layout(
    doc: pymupdf.Document,
    detector: LayoutDetector,
    settings: Settings,
    tick: Tick,
    text_pages: Sequence[PageText] | None = None,
) -> LayoutArtifact:
    pages = []
    for i in range(doc.page_count):
        try:
            page = doc[i]
            text = text_pages[i] if text_pages is not None else None
            dpi = render_dpi(page, settings.render.dpi)  # less on a page over the pixel budget
            if text is not None and text.text_status == "needs_ocr" and settings.layout.scan_layout != "yolo":
                dets = scan_detections(page, text, dpi, settings)
            elif text is not None and needs_image_fallback(detector, text):  # scan_layout = yolo
                dets = detector.detect(page, None, dpi) or scan_detections(page, text, dpi, settings)
            else:
                image = render_page_rgb(page, dpi) if detector.needs_image else None
                dets = detector.detect(page, image, dpi)
            pl = PageLayout(page=i + 1, detections=[DetectionRecord(**d._asdict()) for d in dets])
        except Exception as e:
            pl = PageLayout(page=i + 1, error=f"layout: {one_line(e)}")
        pages.append(pl)
        release_freed_memory()  # a long document must not grow the worker page by page (ingest/heap.py)
        tick(1)
    return LayoutArtifact(key="", pages=pages)


def _round_box(box: Sequence[float], w: float, h: float) -> Box:
    """Round to 0.01 pt without ever leaving the page."""
    x0, y0, x1, y1 = clip(box, w, h)
    return Box(round(x0, 2), round(y0, 2), min(round(x1, 2), w), min(round(y1, 2), h))


def build_page(text: PageText, layout: PageLayout, *, doc_id: str, settings: Settings) -> Page:
    """De-dup, element text, reading order: cheap, recomputed from the stage artifacts every time."""
    error = text.error or layout.error
    raw = [Detection(d.label, d.source_label, d.confidence, d.bbox_pdf) for d in layout.detections]
    kept = dedup(raw, settings.layout.dedup_strategy)
    spans = [Span(s.bbox_pdf, s.size, s.bold, s.n_chars) for s in text.spans]
    source = text.text_source if text.text_source in ("pdf_layer", "ocr") else "none"
    elements: list[Element] = assign_text(
        kept, text.words, spans, page=text.page, text_source=source, rotation=text.rotation
    )
    w, h = text.width_pt, text.height_pt
    elements = [e.model_copy(update={"bbox_pdf": _round_box(e.bbox_pdf, w, h)}) for e in elements]
    elements = [e for e in elements if e.bbox_pdf.x1 > e.bbox_pdf.x0 and e.bbox_pdf.y1 > e.bbox_pdf.y0]
    return Page(
        page=text.page,
        width_pt=w,
        height_pt=h,
        rotation=text.rotation,
        text_status=text.text_status,
        text_source=source,
        n_chars=text.n_chars,
        n_raw_detections=len(raw),
        n_deduped=len(kept),
        elements=order_elements(elements, doc_id),
        words=text.words,
        error=error,
    )


def doc_title(doc: pymupdf.Document, pages: Sequence[Page]) -> str:
    for p in pages[:2]:
        for e in p.elements:
            if e.label == "title" and e.text.strip():
                return " ".join(e.text.split())[:300]
    return " ".join(((doc.metadata or {}).get("title") or "").split())[:300]
