"""Chunking on real datasheet pages (skipped when ../shared is absent).

A table continued across a page break in a real datasheet becomes one chunk: DRV2605 (TI), section
11.2 "Waveform Library Effects List", continued on the next page under a "(continued)" heading.
The two pages are cut out of the PDF and ingested with the real pipeline (PyMuPDF layout model).
"""

from __future__ import annotations

import pymupdf
import pytest

from layoutrag.chunking.pipeline import load_doc_chunks
from layoutrag.storage import DataDir

pytestmark = pytest.mark.shared


def _cut(src, first: int, last: int, out):
    with pymupdf.open(src) as pdf, pymupdf.open() as part:
        part.insert_pdf(pdf, from_page=first - 1, to_page=last - 1)
        part.save(out)
    return out


def test_real_cross_page_table_is_one_chunk(shared_dir, tmp_path):
    from layoutrag.ingest.pipeline import ingest_paths

    pdf = _cut(shared_dir / "datasheets" / "DRV2605.pdf", 55, 56, tmp_path / "drv2605-p55-56.pdf")
    results = ingest_paths([pdf], tmp_path / "data", progress=False)
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
    assert chunk.evidence_image and data.resolve(chunk.evidence_image).exists()
    assert dc.n_unassigned == 0
