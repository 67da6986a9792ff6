"""Faults found by fault injection (issue #18), each kept as a reproduction on generated PDFs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

from pdf_factory import add_table_page, add_two_column_page, cut_short_pdfs

REPO = Path(__file__).resolve().parents[1]


def _make_pdfs(folder: Path, n: int, tag: str = "doc") -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        doc = pymupdf.open()
        add_table_page(doc)
        add_two_column_page(doc)
        doc.set_metadata({"title": f"{tag} {i}"})  # different content -> different ids
        p = folder / f"{tag}{i}.pdf"
        doc.save(p)
        out.append(p)
    return out


# --------------------------------------------------------------------------- 1. orphaned workers
def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out.update(int(x) for x in (task / "children").read_text().split())
        except OSError:
            pass
    return out


def _descendants(pid: int) -> set[int]:
    seen: set[int] = set()
    todo = [pid]
    while todo:
        for c in _children(todo.pop()):
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


def _alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting for a reaper)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_killed_ingest_leaves_no_workers(tmp_path: Path, sig: signal.Signals) -> None:
    _make_pdfs(tmp_path / "in", 6)
    data = tmp_path / "data"
    cmd = [sys.executable, "-m", "layoutrag.cli", "ingest", str(tmp_path / "in"), "--data", str(data),
           "--jobs", "2", "--no-index"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 180
        kids: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            kids = _descendants(proc.pid)
            if len(kids) >= 2 and list(data.glob("docs/*/source.pdf")):  # workers are up and working
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the ingest finished before it could be killed"
        kids |= _descendants(proc.pid)
        os.kill(proc.pid, sig)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(k) for k in kids):
            time.sleep(0.1)
        left = [k for k in kids if _alive(k)]
        assert not left, f"processes left running after {sig.name}: {left}"
        if sig == signal.SIGTERM:
            assert proc.returncode == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------- --jobs is capped
def test_jobs_capped_by_cores_and_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    from layoutrag import build

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    monkeypatch.setattr(build, "_available_memory_mb", lambda: 24_000)
    assert build.cap_jobs(8)[0] == 2 and "capped to 2" in (build.cap_jobs(8)[1] or "")
    assert build.cap_jobs(2) == (2, None)
    assert build.cap_jobs(1) == (1, None)
    monkeypatch.setattr(build, "_available_memory_mb", lambda: 1_000)  # less than one worker's peak
    n, note = build.cap_jobs(2)
    assert n == 1 and note and "GB available" in note


def test_cli_notes_capped_jobs(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app

    pdf = _make_pdfs(tmp_path / "in", 1)[0]
    r = CliRunner().invoke(app, ["ingest", str(pdf), "--data", str(tmp_path / "d"), "--jobs", "512", "--no-index"])
    assert r.exit_code == 0, r.output
    assert "note: --jobs 512 capped to" in r.output


# --------------------------------------------------------------------------- 2. undecodable names
@pytest.mark.skipif(sys.platform != "linux", reason="needs a filesystem that takes any bytes")
def test_non_utf8_file_name_is_reported_escaped_and_ingested(tmp_path: Path) -> None:
    import json

    from layoutrag.build import ingest_and_chunk

    folder = tmp_path / "in"
    good = _make_pdfs(folder, 1, "good")[0]
    doc = pymupdf.open()
    add_table_page(doc)
    doc.set_metadata({"title": "latin1"})
    bad = os.fsencode(folder) + b"/latin1-\xe9\xff.pdf"
    with open(bad, "wb") as f:  # a bytes path: no decoding involved
        f.write(doc.tobytes())
    data = tmp_path / "data"
    results = ingest_and_chunk([folder], data, layout="pymupdf", progress=False)
    assert [r.status for r in results] == ["ok", "ok"], [r.error for r in results]
    report = json.loads((data / "ingest-report.json").read_text(encoding="utf-8"))
    paths = [r["path"] for r in report]
    assert any(p.endswith("latin1-\\xe9\\xff.pdf") for p in paths), paths
    assert any(p.endswith(good.name) for p in paths)


# --------------------------------------------------------------------------- files cut short
def test_a_pdf_cut_short_fails_or_warns_by_what_is_left(tmp_path: Path) -> None:
    """MuPDF repairs a truncated file silently into pages with nothing on them: with nothing left
    the document fails in one line (and a re-run says so again); with some pages left it is
    ingested and the report names the empty pages."""
    import json

    from layoutrag.build import ingest_and_chunk

    none, first = cut_short_pdfs(tmp_path / "in")
    with pymupdf.open(none) as d:
        assert d.page_count == 3 and d.is_repaired  # what makes the case: it opens, "repaired"
    data = tmp_path / "data"
    for _ in range(2):
        results = {Path(r.path).name: r for r in ingest_and_chunk([tmp_path / "in"], data, layout="pymupdf", progress=False)}
        assert results["none.pdf"].status == "failed"
        assert results["none.pdf"].error == (
            "damaged PDF (truncated?): MuPDF repaired it and none of its 3 pages has content"
        )
    ok = results["first.pdf"]
    assert ok.status in ("ok", "skipped") and ok.chunks > 0
    report = {Path(r["path"]).name: r for r in json.loads((data / "ingest-report.json").read_text(encoding="utf-8"))}
    first_run = ingest_and_chunk([first], tmp_path / "data2", layout="pymupdf", progress=False)[0]
    assert first_run.status == "ok"
    assert first_run.warning == "damaged PDF repaired by MuPDF: 2 of 3 pages have no content (pages 2-3)"
    assert report["none.pdf"]["status"] == "failed"


def test_page_ranges_are_runs() -> None:
    from layoutrag.ingest.pipeline import page_ranges

    assert page_ranges([8, 1, 2, 3, 5, 7]) == "1-3, 5, 7-8"
    assert page_ranges([4]) == "4"


# --------------------------------------------------------------------------- FIFOs, dangling links
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_and_dangling_symlink_are_reported(tmp_path: Path) -> None:
    from layoutrag.build import ingest_and_chunk

    folder = tmp_path / "in"
    _make_pdfs(folder, 1, "good")
    os.mkfifo(folder / "pipe.pdf")
    (folder / "gone.pdf").symlink_to(folder / "missing-target.pdf")
    results = ingest_and_chunk([folder], tmp_path / "data", layout="pymupdf", progress=False)
    by_name = {Path(r.path).name: r for r in results}
    assert by_name["good0.pdf"].status == "ok"
    assert by_name["pipe.pdf"].status == "failed" and "FIFO" in (by_name["pipe.pdf"].error or "")
    assert by_name["gone.pdf"].status == "failed" and "broken symbolic link" in (by_name["gone.pdf"].error or "")


# --------------------------------------------------------------------------- 3/4. huge pages
def _huge_pdf(path: Path, side: float) -> Path:
    """One square page of `side` points with a heading and a few paragraphs, scaled to the page."""
    doc = pymupdf.open()
    page = doc.new_page(width=side, height=side)
    k = side / 612
    page.insert_text((50 * k, 70 * k), "1. Electrical characteristics", fontsize=15 * k, fontname="hebo")
    body = "The oscillator provides a stable reference clock with low jitter and low power at 26 MHz."
    for i in range(4):
        r = pymupdf.Rect(50 * k, (100 + 60 * i) * k, 560 * k, (150 + 60 * i) * k)
        page.insert_textbox(r, f"{body} Paragraph {i} for a {side:.0f} pt page.", fontsize=9 * k)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.set_metadata({"title": f"huge {side:.0f}"})
    doc.save(path)
    return path


def test_render_dpi_fits_the_pixel_budget() -> None:
    from layoutrag.pdf import MAX_RENDER_PIXELS, render_dpi_for_size

    assert render_dpi_for_size(612, 792, 200) == 200  # ordinary pages are untouched
    for side in (4700, 6000, 14000, 14400):
        d = render_dpi_for_size(side, side, 200)
        assert d < 200 and (side * d / 72 + 1) ** 2 <= MAX_RENDER_PIXELS
    assert render_dpi_for_size(14400, 10, 200) == 200  # a long thin strip has few pixels


def test_huge_pages_ingest_with_evidence_and_serve(tmp_path: Path) -> None:
    import warnings

    from fastapi.testclient import TestClient
    from PIL import Image

    from layoutrag.build import build
    from layoutrag.config import load_settings
    from layoutrag.ingest.show import show_page
    from layoutrag.pdf import MAX_RENDER_PIXELS
    from layoutrag.serve.api import create_app
    from layoutrag.storage import DataDir

    pdfs = [_huge_pdf(tmp_path / "in" / f"huge{side}.pdf", side) for side in (4700, 6000, 14000)]
    data = tmp_path / "data"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        built = build(pdfs, data, layout="pymupdf", progress=False)
    assert [r.status for r in built.results] == ["ok"] * 3, [r.error for r in built.results]
    assert not [w for w in caught if "DecompressionBomb" in w.category.__name__], [str(w.message) for w in caught]
    dd = DataDir(data)
    client = TestClient(create_app(data, settings=load_settings()))
    for r in built.results:
        assert r.doc_id
        chunks = json_chunks(dd, r.doc_id)
        assert chunks and all(c["evidence_image"] for c in chunks), r.path
        resp = client.get(f"/api/documents/{r.doc_id}/pages/1.png")
        assert resp.status_code == 200, resp.text
        import io

        with Image.open(io.BytesIO(resp.content)) as im:
            assert im.width * im.height <= MAX_RENDER_PIXELS
    out = tmp_path / "show.png"
    show_page(built.results[2].doc_id or "", page=1, out=out, data=data, settings=load_settings())
    assert out.stat().st_size > 0


def json_chunks(dd, doc_id: str) -> list[dict]:  # noqa: ANN001
    import json

    return json.loads(dd.chunks_json(doc_id).read_text(encoding="utf-8"))["chunks"]


# --------------------------------------------------------------------------- 8. no local paths served
def test_source_pdf_is_the_name_under_the_ingested_folder(tmp_path: Path) -> None:
    import json

    from layoutrag.service import LayoutRAG

    root = tmp_path / "secret-home" / "datasheets"
    nested = _make_pdfs(root / "crystals", 1, "xtal")[0]
    single = _make_pdfs(tmp_path / "elsewhere", 1, "single")[0]
    data = tmp_path / "data"
    idx = LayoutRAG(data)
    built = idx.ingest([root, single])
    assert [r.status for r in built.results] == ["ok", "ok"]
    served = {c.source_pdf for c in idx.chunks()}
    assert served == {"crystals/xtal0.pdf", "single0.pdf"}
    for hit in idx.search("oscillator reference clock", top_k=5):
        assert not Path(hit.source_pdf).is_absolute() and "secret-home" not in hit.model_dump_json()
    report = json.loads((data / "ingest-report.json").read_text(encoding="utf-8"))
    assert {r["path"] for r in report} == {str(nested), str(single)}  # the local report keeps the path
    doc = idx.document(built.results[0].doc_id or "")
    assert doc.source_path == str(nested) and doc.source_pdf == "crystals/xtal0.pdf"


# --------------------------------------------------------------------------- 7. revisions, remove, prune
def _revision(path: Path, word: str) -> Path:
    doc = pymupdf.open()
    add_table_page(doc)
    page = doc.new_page()
    page.insert_text((72, 100), f"Revision note: this datasheet revision is {word}.", fontsize=12)
    page.insert_text((72, 130), f"{word} oscillator ordering information and marking " * 2, fontsize=9)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path)
    return path


def test_revisions_replace_keep_remove_and_prune(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app
    from layoutrag.errors import InputError
    from layoutrag.service import LayoutRAG
    from layoutrag.storage import DataDir

    pdf = tmp_path / "in" / "ds.pdf"
    data = tmp_path / "data"
    idx = LayoutRAG(data)
    v1 = idx.ingest([_revision(pdf, "alpharev")]).results[0].doc_id
    v2_built = idx.ingest([_revision(pdf, "betarev")])  # same path, new content: replaces v1
    v2 = v2_built.results[0].doc_id
    assert v1 and v2 and v1 != v2 and v2_built.removed == [v1]
    assert list(idx.doc_ids()) == [v2] and not DataDir(data).doc_dir(v1).exists()
    assert all(h.doc_id == v2 for h in idx.search("alpharev", top_k=5))

    kept = idx.ingest([_revision(pdf, "gammarev")], keep_revisions=True)  # both stay, v2 marked
    v3 = kept.results[0].doc_id
    assert v3 and kept.kept_revisions == [v2] and not kept.removed
    assert set(idx.doc_ids()) == {v2, v3}
    assert idx.card(v2).superseded_by == v3 and idx.card(v3).superseded_by == ""
    assert idx.document(v2).superseded_by == v3

    with pytest.raises(InputError, match="names 2 documents"):
        idx.remove(["ds.pdf"])  # two revisions share the name: a doc id is needed
    r = CliRunner().invoke(app, ["remove", v2, "--data", str(data)])
    assert r.exit_code == 0, r.output
    idx.refresh()
    assert list(idx.doc_ids()) == [v3] and not DataDir(data).doc_dir(v2).exists()

    other = _revision(tmp_path / "in2" / "other.pdf", "deltarev")
    idx.ingest([other])
    assert set(idx.doc_ids()) == {v3, idx.resolve_stored("other.pdf")}
    pdf.unlink()  # ds.pdf is gone: --prune removes its document
    pruned = idx.ingest([other], prune=True)
    assert pruned.removed == [v3] and list(idx.doc_ids()) == [idx.resolve_stored("other.pdf")]


# --------------------------------------------------------------------------- 9. full disk
def _enospc(*_a: object, **_k: object) -> None:
    import errno

    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_full_disk_during_index_build_names_path_stage_and_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app
    from layoutrag.index import store

    pdf = _make_pdfs(tmp_path / "in", 1, "disk")[0]
    data = tmp_path / "data"
    monkeypatch.setattr(store, "_write_text", _enospc)  # the disk fills while the index is written
    r = CliRunner().invoke(app, ["ingest", str(pdf), "--data", str(data)])
    assert r.exit_code == 1
    line = [ln for ln in r.output.splitlines() if ln.startswith("error:")]
    assert len(line) == 1, r.output
    msg = line[0]
    assert "index build failed" in msg and "no space left on device" in msg
    assert str(data / "index") in msg  # the path
    assert "1 ingested, 0 skipped, 0 failed" in msg  # what was done
    assert not (data / "index" / "CURRENT").exists()
    assert (data / "ingest-report.json").is_file()


def test_uncached_page_image_on_full_disk_is_served_from_memory(
    served_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from fastapi.testclient import TestClient

    from layoutrag import pdf
    from layoutrag.serve.api import create_app

    data = tmp_path / "copy"
    shutil.copytree(served_data, data, ignore=shutil.ignore_patterns("samples"))
    for png in data.glob("docs/*/pages/*.png"):
        png.unlink()
    doc_id = next(p.name for p in (data / "docs").iterdir() if (p / "document.json").is_file())
    monkeypatch.setattr(pdf, "atomic_write_bytes", _enospc)  # caching the page image hits a full disk
    client = TestClient(create_app(data))
    r = client.get(f"/api/documents/{doc_id}/pages/1.png")
    assert r.status_code == 200 and r.headers["content-type"] == "image/png" and r.content[:4] == b"\x89PNG"
    assert not list(data.glob("docs/*/pages/*.png"))


# --------------------------------------------------------------------------- MCP argument errors
def test_mcp_argument_errors_are_one_line(served_data: Path) -> None:
    import asyncio

    from mcp import Client
    from mcp.types import TextContent

    from layoutrag.serve.mcp_server import create_mcp_server

    async def run() -> list[tuple[bool, str]]:
        out = []
        async with Client(create_mcp_server(served_data)) as client:
            for args in (
                {"query": "frequency", "top_k": "many"},
                {"query": "frequency", "filters": {"nope": 1}},
                {"top_k": 3},
            ):
                r = await client.call_tool("build_evidence_package", args)
                out.append((r.is_error, " ".join(c.text for c in r.content if isinstance(c, TextContent))))
        return out

    results = asyncio.run(run())
    assert [ok for ok, _ in results] == [True, True, True]
    texts = [t for _, t in results]
    assert texts[0] == "InputError: invalid top_k: Input should be a valid integer, unable to parse string as an integer"
    assert texts[1] == "InputError: invalid filters.nope: Extra inputs are not permitted"
    assert texts[2] == "InputError: invalid query: Field required"
    assert all("\n" not in t and "pydantic" not in t for t in texts)
