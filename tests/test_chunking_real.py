"""Chunking on real datasheet pages (skipped when ../shared is absent).

A table continued across a page break in a real datasheet becomes one chunk: DRV2605 (TI), section
11.2 "Waveform Library Effects List", continued on the next page under a "(continued)" heading.
The two pages are cut out of the PDF and ingested with the real pipeline (PyMuPDF layout model).
"""

from __future__ import annotations

import pymupdf
import pytest

from layoutrag.chunking.evidence import chunk_image
from layoutrag.chunking.pipeline import evidence_spec, load_doc_chunks
from layoutrag.config import Settings
from layoutrag.storage import DataDir

pytestmark = pytest.mark.shared


def _cut(src, first: int, last: int, out):
    with pymupdf.open(src) as pdf, pymupdf.open() as part:
        part.insert_pdf(pdf, from_page=first - 1, to_page=last - 1)
        part.save(out)
    return out


def test_real_cross_page_table_is_one_chunk(shared_dir, tmp_path):
    from layoutrag.build import ingest_and_chunk

    pdf = _cut(shared_dir / "datasheets" / "DRV2605.pdf", 55, 56, tmp_path / "drv2605-p55-56.pdf")
    results = ingest_and_chunk([pdf], tmp_path / "data", progress=False)
    assert results[0].status == "ok", results[0].error
    data = DataDir(tmp_path / "data")
    dc = load_doc_chunks(data, results[0].doc_id)
    tables = [c for c in dc.chunks if c.block_type == "table"]
    joined = [c for c in tables if {r.page for r in c.regions} == {1, 2}]
    assert len(joined) == 1
    chunk = joined[0]
    assert chunk.page == 1 and chunk.chunk_id.startswith(f"{results[0].doc_id}_p1_b")
    assert "Waveform Library Effects List" in chunk.native_text
    assert {r.page for r in chunk.rows} == {1, 2}  # rows recovered on both parts
    assert len(chunk.rows) > 20
    # every member keeps its own page and box; bboxes_pdf are the page-1 members only
    assert len(chunk.bboxes_pdf) == sum(1 for r in chunk.regions if r.page == 1)
    assert chunk.evidence_image
    assert chunk_image(data, chunk, chunk.evidence_image, evidence_spec(Settings())).is_file()  # rendered on request
    assert dc.n_unassigned == 0


def _cut_pages(sources, out):
    """One PDF made of the given (pdf, page) pairs, in that order."""
    with pymupdf.open() as part:
        for src, page in sources:
            with pymupdf.open(src) as pdf:
                part.insert_pdf(pdf, from_page=page - 1, to_page=page - 1)
        part.save(out)
    return out


def test_real_part_number_drawing_in_overlapping_pieces_is_one_figure(shared_dir, tmp_path):
    """A real first page whose reading unit the detector's boxes alone would split: a part-number
    decode drawing boxed in three overlapping pieces (Diodes D5V0L1B2LP3). (The list sub-heading,
    list sub-column and column-wrap cases once checked here were rules for one document each,
    removed after the fold ablation: docs/EVALUATION.md §4.)"""
    from layoutrag.build import ingest_and_chunk

    ds = shared_dir / "datasheets"
    pdf = _cut_pages([(ds / "ESD-D5V0L1B2LP3.pdf", 1)], tmp_path / "first-page.pdf")
    results = ingest_and_chunk([pdf], tmp_path / "data", progress=False)
    assert results[0].status == "ok", results[0].error
    dc = load_doc_chunks(DataDir(tmp_path / "data"), results[0].doc_id)
    needles = ("Ordering Information", "Polarity", "Voltage Capacitance")
    found = [c for c in dc.chunks if all(n in c.native_text for n in needles)]
    assert len(found) == 1
    decode = found[0]
    assert decode.block_type == "figure" and sum(r.label == "picture" for r in decode.regions) == 3
    assert dc.n_unassigned == 0


def test_real_figures_split_at_invisible_backdrops_and_ruled_table_frame(shared_dir, tmp_path):
    """Two real pages the layout got wrong before:
    - Cliff SMD DC sockets: two drawings laid on touching white backdrops were one picture, so the
      title "Part No. FC68148S" joined the drawing above it; now it titles its own drawing below;
    - Mini-Circuits T2-613-1-KK81: a table boxed by its text inside a wide ruled frame (2.3x its
      area) now takes the frame, and its heading "Typical Performance Data" joins it."""
    from layoutrag.build import ingest_and_chunk

    ds = shared_dir / "datasheets"
    pdf = _cut_pages([(ds / "powerjack_1864271.pdf", 1), (ds / "T2-613-1-KK81.pdf", 1)], tmp_path / "two.pdf")
    results = ingest_and_chunk([pdf], tmp_path / "data", progress=False)
    assert results[0].status == "ok", results[0].error
    dc = load_doc_chunks(DataDir(tmp_path / "data"), results[0].doc_id)

    socket = [c for c in dc.chunks if c.page == 1 and "FC68148S" in c.native_text]
    assert len(socket) == 1 and socket[0].block_type == "figure"
    box = socket[0].all_regions()
    gold = (197.0, 588.5, 568.5, 713.9)  # the DC-10AS/10BS outline and PCB layout drawing
    assert any(b.bbox_pdf[1] <= gold[1] + 2 and b.bbox_pdf[3] >= gold[3] - 2 for b in box)
    assert all(b.bbox_pdf[1] >= 530 for b in box)  # not the FC68145S drawings above

    perf = [
        c
        for c in dc.chunks
        if c.page == 2 and c.block_type == "table" and "Typical Performance" in c.native_text
    ]
    assert len(perf) == 1
    frame = (210.5, 437.7, 581.8, 550.7)
    x0, y0, x1, y1 = perf[0].all_regions()[-1].bbox_pdf
    assert x0 <= frame[0] + 2 and y0 <= frame[1] + 2 and x1 >= frame[2] - 2 and y1 >= frame[3] - 2
