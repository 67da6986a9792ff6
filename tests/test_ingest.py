"""Integration tests of the ingest pipeline on PDFs the tests generate (always) and on
../shared/datasheets (when present)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner

from layoutrag.build import ingest_and_chunk, largest_first
from layoutrag.cli import app
from layoutrag.config import Settings
from layoutrag.errors import NotFoundError
from layoutrag.geometry import area, covered_area
from layoutrag.ingest.artifacts import layout_artifact_path, text_artifact_path
from layoutrag.ingest.show import show_page
from layoutrag.pdf import render_page_png
from layoutrag.records import Document, IngestResult
from layoutrag.storage import DataDir
from pdf_factory import add_table_page, add_two_column_page, write_bad_input_zoo, write_sample_pdf

REPO = Path(__file__).resolve().parents[1]


def load_doc(data: Path, doc_id: str) -> Document:
    return Document.model_validate_json(DataDir(data).document_json(doc_id).read_bytes())


def coverage(target, boxes) -> float:  # noqa: ANN001
    return covered_area(target, boxes) / area(target)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    root = tmp_path_factory.mktemp("ingest")
    pdf = root / "pdfs" / "sample.pdf"
    truths = write_sample_pdf(pdf)
    data = root / "data"
    results = ingest_and_chunk([pdf], data, layout="pymupdf", progress=False)
    return pdf, data, truths, results


def test_sample_ingests_with_provenance(sample) -> None:  # noqa: ANN001
    pdf, data, truths, results = sample
    (r,) = results
    assert r.status == "ok", r.error
    doc = load_doc(data, r.doc_id)
    assert doc.n_pages == len(truths) == len(doc.pages)
    assert DataDir(data).source_pdf(r.doc_id).read_bytes() == pdf.read_bytes()
    for page in doc.pages:
        assert page.elements, f"page {page.page} has no elements"
        assert page.n_deduped <= page.n_raw_detections
        for e in page.elements:
            x0, y0, x1, y1 = e.bbox_pdf
            assert 0 <= x0 < x1 <= page.width_pt and 0 <= y0 < y1 <= page.height_pt, e
            assert e.element_id == f"{doc.doc_id}_p{page.page}_e{e.order:03d}"
        # every word of the page is in some element's text (orphans become text elements)
        all_text = " ".join(e.text for e in page.elements)
        assert all(w.text in all_text for w in page.words)
    report = json.loads(DataDir(data).report.read_text())
    assert [IngestResult(**x).status for x in report] == ["ok"]


def test_table_caption_and_drawing_detected(sample) -> None:  # noqa: ANN001
    _, data, truths, results = sample
    doc = load_doc(data, results[0].doc_id)
    table_page, drawing_page = doc.pages[0], doc.pages[1]
    tables = [e.bbox_pdf for e in table_page.elements if e.label == "table"]
    assert tables and coverage(truths[0].boxes["table"], tables) > 0.9
    assert any("Table 1" in e.text for e in table_page.elements)
    assert any("Note 1" in e.text for e in table_page.elements)
    pictures = [e.bbox_pdf for e in drawing_page.elements if e.label == "picture"]
    assert pictures and coverage(truths[1].boxes["picture"], pictures) > 0.6


def test_image_only_page_is_ocred(sample) -> None:  # noqa: ANN001
    _, data, truths, results = sample
    doc = load_doc(data, results[0].doc_id)
    page = doc.pages[truths[3].page - 1]
    assert page.text_status == "needs_ocr" and page.text_source == "ocr"
    assert page.n_raw_detections > 0  # no text layer: detected on the image (YOLO fallback)
    text = " ".join(e.text for e in page.elements).upper()
    assert "OSCILLATOR" in text and "FREQUENCY" in text
    title = next(w for w in page.words if w.text.upper().startswith("OSCILLATOR"))
    # the OCR word box, in points, lies where the factory drew the title
    assert coverage(title.bbox_pdf, [truths[3].boxes["title"]]) > 0.8
    assert all(e.text_source == "ocr" for e in page.elements if e.text)


def test_rotated_and_offset_pages_keep_text(sample) -> None:  # noqa: ANN001
    _, data, truths, results = sample
    doc = load_doc(data, results[0].doc_id)
    rotated, offset = doc.pages[truths[4].page - 1], doc.pages[truths[5].page - 1]
    assert rotated.rotation == 90 and rotated.width_pt > rotated.height_pt
    assert any("Rotated ordering information" in e.text for e in rotated.elements)
    assert any("Offset media box page" in e.text for e in offset.elements)


def test_rerun_skips_and_backend_switch_reruns_layout_only(sample, tmp_path: Path) -> None:  # noqa: ANN001
    pdf, _, _, _ = sample
    data = tmp_path / "data"
    small = tmp_path / "small.pdf"
    doc = pymupdf.open()
    add_table_page(doc)
    add_two_column_page(doc)
    doc.save(small)
    (first,) = ingest_and_chunk([small], data, layout="pymupdf", progress=False)
    dd = DataDir(data)
    before = dd.document_json(first.doc_id).read_bytes()
    text_art = text_artifact_path(dd, first.doc_id, Settings().render.dpi)
    text_mtime = text_art.stat().st_mtime_ns
    (again,) = ingest_and_chunk([small], data, layout="pymupdf", progress=False)
    assert again.status == "skipped" and dd.document_json(first.doc_id).read_bytes() == before
    (yolo,) = ingest_and_chunk([small], data, layout="yolo", progress=False)
    assert yolo.status == "ok", yolo.error
    assert text_art.stat().st_mtime_ns == text_mtime  # the text stage was reused
    assert layout_artifact_path(dd, first.doc_id, "yolo-c0.25", Settings().render.dpi).is_file()
    ydoc = load_doc(data, first.doc_id)
    assert ydoc.layout_backend == "yolo"
    assert any(e.label == "table" for e in ydoc.pages[0].elements)
    assert all(
        0 < e.confidence <= 1 for p in ydoc.pages for e in p.elements if e.source_label != "orphan_text"
    )
    pm_layout = layout_artifact_path(dd, first.doc_id, "pymupdf", Settings().render.dpi)
    pm_mtime = pm_layout.stat().st_mtime_ns
    (back,) = ingest_and_chunk([small], data, layout="pymupdf", progress=False)
    assert back.status == "ok" and pm_layout.stat().st_mtime_ns == pm_mtime  # detections reused
    assert dd.document_json(first.doc_id).read_bytes() == before


def test_bad_input_zoo(tmp_path: Path) -> None:
    zoo = write_bad_input_zoo(tmp_path / "in")
    good = tmp_path / "in" / "good.pdf"
    doc = pymupdf.open()
    add_two_column_page(doc)
    doc.save(good)
    data = tmp_path / "data"
    (first,) = ingest_and_chunk([good], data, progress=False)
    kept = DataDir(data).document_json(first.doc_id)
    before = (kept.read_bytes(), kept.stat().st_mtime_ns)
    missing = tmp_path / "in" / "missing.pdf"
    results = ingest_and_chunk([*zoo.values(), missing, good], data, progress=False)
    by_name = {Path(r.path).name: r for r in results}
    for name in [*(p.name for p in zoo.values()), "missing.pdf"]:
        r = by_name[name]
        assert r.status == "failed", name
        assert r.error and "\n" not in r.error and "Traceback" not in r.error and len(r.error) < 320, r.error
    assert "password" in by_name["password.pdf"].error
    assert "limit" in by_name["huge_page.pdf"].error
    assert "0 bytes" in by_name["empty.pdf"].error
    assert by_name["good.pdf"].status == "skipped"
    assert (kept.read_bytes(), kept.stat().st_mtime_ns) == before
    report = json.loads(DataDir(data).report.read_text())
    assert len(report) == len(results)
    # the CLI: every document processed, failures listed without a traceback, exit code 1
    res = CliRunner().invoke(app, ["ingest", str(tmp_path / "in"), "--data", str(data), "--no-index"])
    assert res.exit_code == 1
    assert "Traceback" not in res.output and "1 skipped" in res.output


def test_limits_from_settings(tmp_path: Path) -> None:
    pdf = tmp_path / "two.pdf"
    doc = pymupdf.open()
    add_table_page(doc)
    add_table_page(doc)
    doc.save(pdf)
    (r,) = ingest_and_chunk([pdf], tmp_path / "d", progress=False, settings=Settings().updated(max_pages=1))
    assert r.status == "failed" and "over the limit of 1" in r.error
    (r,) = ingest_and_chunk([pdf], tmp_path / "d", progress=False, settings=Settings().updated(max_file_mb=0.0001))
    assert r.status == "failed" and "MB" in r.error


def test_jobs_give_identical_results(tmp_path: Path) -> None:
    pdfs = []
    for i, builder in enumerate((add_table_page, add_two_column_page, add_table_page)):
        doc = pymupdf.open()
        builder(doc)
        doc.set_metadata({"title": f"doc {i}"})  # different content → different ids
        p = tmp_path / "in" / f"d{i}.pdf"
        p.parent.mkdir(exist_ok=True)
        doc.save(p)
        pdfs.append(p)
    one = ingest_and_chunk(pdfs, tmp_path / "j1", jobs=1, progress=False)
    two = ingest_and_chunk(pdfs, tmp_path / "j2", jobs=2, progress=False)
    assert [(r.path, r.doc_id, r.status, r.pages, r.elements) for r in one] == [
        (r.path, r.doc_id, r.status, r.pages, r.elements) for r in two
    ]
    for r in one:
        a = DataDir(tmp_path / "j1").document_json(r.doc_id).read_bytes()
        b = DataDir(tmp_path / "j2").document_json(r.doc_id).read_bytes()
        assert a == b


def test_workers_get_the_longest_documents_first() -> None:
    assert largest_first([0, 2, 3, 5], {0: 3, 2: 40, 3: 3, 5: 7}) == [2, 5, 0, 3]  # ties: input order
    assert largest_first([], {}) == []


def test_kill_9_then_resume(tmp_path: Path) -> None:
    pdfs = []
    for i in range(4):
        doc = pymupdf.open()
        add_table_page(doc)
        add_two_column_page(doc)
        doc.set_metadata({"title": f"kill {i}"})
        p = tmp_path / "in" / f"k{i}.pdf"
        p.parent.mkdir(exist_ok=True)
        doc.save(p)
        pdfs.append(p)
    data = tmp_path / "data"
    cmd = [
        sys.executable,
        "-m",
        "layoutrag.cli",
        "ingest",
        str(tmp_path / "in"),
        "--data",
        str(data),
        "--no-index",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(data.glob("docs/*/stages/layout-*")):
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # whatever was written is whole: every JSON that exists parses
    for f in data.glob("docs/*/**/*.json"):
        json.loads(f.read_text())
    results = ingest_and_chunk(pdfs, data, progress=False)
    assert all(r.status in ("ok", "skipped") for r in results), [r.error for r in results]
    for r in results:
        assert load_doc(data, r.doc_id).pages


def test_show_page_and_render(sample, tmp_path: Path) -> None:  # noqa: ANN001
    pdf, data, _, results = sample
    out = tmp_path / "show.png"
    show_page(results[0].doc_id, page=1, out=out, data=data, settings=Settings())
    pix = pymupdf.Pixmap(str(out))
    assert pix.width > 500 and pix.height > 600
    # a PDF that was never ingested is analysed in memory, nothing written to the data dir
    fresh = tmp_path / "fresh.pdf"
    doc = pymupdf.open()
    add_two_column_page(doc)
    doc.save(fresh)
    show_page(str(fresh), page=1, out=tmp_path / "fresh.png", data=tmp_path / "nodata", settings=Settings())
    assert (tmp_path / "fresh.png").stat().st_size > 1000 and not (tmp_path / "nodata").exists()
    with pytest.raises(NotFoundError):
        show_page(results[0].doc_id, page=99, out=out, data=data, settings=Settings())
    png = tmp_path / "p1.png"
    render_page_png(pdf, 1, 100, png)
    assert pymupdf.Pixmap(str(png)).width == round(612 * 100 / 72)
    with pytest.raises(NotFoundError):
        render_page_png(pdf, 0, 100, png)


def test_real_datasheet(shared_dir: Path, tmp_path: Path) -> None:
    pdf = shared_dir / "datasheets" / "FA-128.pdf"
    if not pdf.is_file():
        pytest.skip("FA-128.pdf not in ../shared/datasheets")
    (r,) = ingest_and_chunk([pdf], tmp_path / "data", progress=False)
    assert r.status == "ok", r.error
    doc = load_doc(tmp_path / "data", r.doc_id)
    assert any(e.label == "table" for e in doc.pages[0].elements)
    assert any("FA-128" in e.text for e in doc.pages[0].elements)
