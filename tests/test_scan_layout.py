"""Scanned pages segmented from their OCR result and image (Settings.layout.scan_layout): PyMuPDF's
layout model reads the OCR words laid over the page image, on pages the tests rasterize."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from layoutrag.build import ingest_and_chunk
from layoutrag.config import Settings
from layoutrag.geometry import area, covered_area
from layoutrag.ingest.artifacts import LayoutArtifact, layout_artifact_path
from layoutrag.ingest.layout import PyMuPDFLayoutDetector, get_detector, image_rulings, ocr_page_layout
from layoutrag.ingest.ocr import ocr_words
from layoutrag.pdf import render_page_rgb
from layoutrag.records import BBox, Document
from layoutrag.storage import DataDir
from pdf_factory import add_table_page

DPI = 150
YOLO_CLASSES = {"Caption", "Footnote", "Formula", "List-item", "Page-footer", "Page-header", "Picture",
                "Section-header", "Table", "Text", "Title"}  # fmt: skip


def _scanned_table_pdf(path: Path, rotation: int = 0) -> dict[str, BBox]:
    """A born-digital table page rasterized into an image-only page (as a scanner would give it)."""
    src = pymupdf.open()
    truth = add_table_page(src)
    pix = src[0].get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
    src.close()
    doc = pymupdf.open()
    page = doc.new_page(width=pix.width * 72 / DPI, height=pix.height * 72 / DPI)
    page.insert_image(page.rect, stream=pix.tobytes("png"))
    if rotation:  # the scan stored sideways with /Rotate to show it upright
        doc2 = pymupdf.open()
        p2 = doc2.new_page(width=page.rect.height, height=page.rect.width)
        p2.show_pdf_page(p2.rect, doc, 0, rotate=rotation)
        p2.set_rotation(rotation)
        doc.close()
        doc = doc2
    doc.save(path)
    doc.close()
    return {k: BBox(*v) for k, v in truth.boxes.items()}


def _cover(target: BBox, boxes: list[BBox]) -> float:
    return covered_area(target, boxes) / area(target)


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("scans")
    truth = _scanned_table_pdf(root / "upright.pdf")
    _scanned_table_pdf(root / "sideways.pdf", rotation=90)
    return {"root": root, "truth": truth}


def test_ocr_words_over_the_image_give_the_model_a_page_to_read(scans: dict) -> None:
    truth = scans["truth"]
    with pymupdf.open(scans["root"] / "upright.pdf") as doc:
        page = doc[0]
        assert not page.get_text().strip()  # image only
        image = render_page_rgb(page, 200)
        pw, ph = page.rect.width, page.rect.height
        words = ocr_words(image, 200, (pw, ph))
        assert {"ESR", "Capacitance"} <= {w.text for w in words}
        model = get_detector("pymupdf")
        assert isinstance(model, PyMuPDFLayoutDetector)
        dets = model.detect_scan(page, words, image, 200)
        assert ocr_page_layout(page, []) == []
        # the table's grid is seen in the image: one cluster of rules, the grid's box within 2 pt
        grids = [b for b in image_rulings(image, 200) if _cover(truth["table"], [b]) > 0.9]
        assert len(grids) == 1 and all(abs(a - b) <= 2 for a, b in zip(grids[0], truth["table"], strict=True))
    labels = {d.label for d in dets}
    assert "table" in labels and "text" in labels
    tables = [d.bbox_pdf for d in dets if d.label == "table"]
    assert _cover(truth["table"], tables) > 0.9
    # the heading and the body paragraph are not inside the table box
    assert all(t.y0 > 150 for t in tables)
    for d in dets:
        assert d.source_label not in YOLO_CLASSES  # PyMuPDF's model named them
        assert 0 <= d.bbox_pdf.x0 < d.bbox_pdf.x1 <= pw
        assert 0 <= d.bbox_pdf.y0 < d.bbox_pdf.y1 <= ph


def test_a_rotated_scan_is_read_in_displayed_space(scans: dict) -> None:
    with (
        pymupdf.open(scans["root"] / "upright.pdf") as up,
        pymupdf.open(scans["root"] / "sideways.pdf") as side,
    ):
        p_up, p_side = up[0], side[0]
        assert p_side.rotation == 90 and p_side.rect.width == pytest.approx(p_up.rect.width, abs=0.5)
        size = (p_side.rect.width, p_side.rect.height)
        image = render_page_rgb(p_side, 200)
        words = ocr_words(image, 200, size)
        model = get_detector("pymupdf")
        assert isinstance(model, PyMuPDFLayoutDetector)
        tables = [d.bbox_pdf for d in model.detect_scan(p_side, words, image, 200) if d.label == "table"]
    assert _cover(scans["truth"]["table"], tables) > 0.9


@pytest.mark.parametrize("mode", ["ocr", "yolo+ocr"])
def test_ingest_segments_scans_as_configured(scans: dict, mode: str, tmp_path: Path) -> None:
    settings = Settings().updated(scan_layout=mode)
    data = tmp_path / "data"
    (r,) = ingest_and_chunk([scans["root"] / "upright.pdf"], data, progress=False, settings=settings)
    assert r.status == "ok", r.error
    dd = DataDir(data)
    doc = Document.model_validate_json(dd.document_json(r.doc_id).read_bytes())
    (page,) = doc.pages
    assert page.text_status == "needs_ocr" and page.text_source == "ocr"
    tables = [e.bbox_pdf for e in page.elements if e.label == "table"]
    assert _cover(scans["truth"]["table"], tables) > 0.9
    art = LayoutArtifact.model_validate_json(
        layout_artifact_path(dd, r.doc_id, "pymupdf", settings.render.dpi).read_bytes()
    )
    assert f"scan-layout={mode}" in art.key
    sources = {d.source_label for d in art.pages[0].detections}
    assert sources - YOLO_CLASSES  # the OCR-page model's detections are there
    assert bool(sources & YOLO_CLASSES) == (mode == "yolo+ocr")
    # switching to YOLO alone re-runs the layout stage (a different key), not OCR
    yolo_only = Settings().updated(scan_layout="yolo")
    (again,) = ingest_and_chunk([scans["root"] / "upright.pdf"], data, progress=False, settings=yolo_only)
    assert again.status == "ok"
    art2 = LayoutArtifact.model_validate_json(
        layout_artifact_path(dd, r.doc_id, "pymupdf", settings.render.dpi).read_bytes()
    )
    assert "scan-fallback=" in art2.key and {d.source_label for d in art2.pages[0].detections} <= YOLO_CLASSES


def test_scan_setting_rebuilds_only_documents_with_scanned_pages(scans: dict, tmp_path: Path) -> None:
    born_digital = tmp_path / "table.pdf"
    doc = pymupdf.open()
    add_table_page(doc)
    doc.save(born_digital)
    pdfs = [born_digital, scans["root"] / "upright.pdf"]
    first = ingest_and_chunk(
        pdfs, tmp_path / "d", progress=False, settings=Settings().updated(scan_layout="ocr")
    )
    assert [r.status for r in first] == ["ok", "ok"]
    again = ingest_and_chunk(
        pdfs, tmp_path / "d", progress=False, settings=Settings().updated(scan_layout="yolo")
    )
    assert [r.status for r in again] == ["skipped", "ok"]
    same = ingest_and_chunk(
        pdfs, tmp_path / "d", progress=False, settings=Settings().updated(scan_layout="yolo")
    )
    assert [r.status for r in same] == ["skipped", "skipped"]
