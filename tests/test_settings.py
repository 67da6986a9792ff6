"""The settings tree: typed, checked, documented, and the environment reaches every stage.

The end-to-end test runs the real command line (`python -m layoutrag.cli`) on a generated PDF with
LAYOUTRAG_* variables set and checks what each stage wrote or returned."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pymupdf
import pytest
from PIL import Image

from layoutrag.config import ENV_PREFIX, Settings, flat_names, load_settings
from layoutrag.errors import InputError

REPO = Path(__file__).resolve().parents[1]


def _docs_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in [REPO / "README.md", *(REPO / "docs").glob("*.md")])


def test_every_setting_is_documented() -> None:
    docs = _docs_text()
    missing = [ENV_PREFIX + n.upper() for n in flat_names() if ENV_PREFIX + n.upper() not in docs]
    assert missing == []
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import settings_doc
    finally:
        sys.path.pop(0)
    assert (REPO / "docs" / "CONFIGURATION.md").read_text(encoding="utf-8") == settings_doc.render(), (
        "docs/CONFIGURATION.md is stale: run tools/settings_doc.py"
    )


def test_flat_names_are_unique_and_reach_their_leaf(monkeypatch: pytest.MonkeyPatch) -> None:
    names = flat_names()
    assert len(names) == len(set(names))
    monkeypatch.setenv("LAYOUTRAG_DPI", "144")
    monkeypatch.setenv("LAYOUTRAG_FUSION", "rrf")
    monkeypatch.setenv("LAYOUTRAG_FUSION_DENSE_WEIGHT", "0.3")
    monkeypatch.setenv("LAYOUTRAG_HIT_PAGE_MEMBERS", "1")
    monkeypatch.setenv("LAYOUTRAG_SEARCH__TOP_K", "7")  # the nested form
    s = load_settings()
    assert (s.render.dpi, s.fusion.strategy, s.fusion.dense_weight, s.hits.page_members, s.search.top_k) == (
        144,
        "rrf",
        0.3,
        1,
        7,
    )
    # an explicit value wins over the environment; `updated` copies by flat name and validates
    assert Settings(render={"dpi": 72}).render.dpi == 72
    assert s.updated(dpi=96).render.dpi == 96 and s.render.dpi == 144
    with pytest.raises(ValueError, match="unknown setting"):
        s.updated(no_such_thing=1)


@pytest.mark.parametrize(
    ("var", "value", "says"),
    [
        ("LAYOUTRAG_MAX_PAGES", "abc", "valid integer"),
        ("LAYOUTRAG_FUSION", "bogus", "'rrf', 'weighted' or 'learned'"),
        ("LAYOUTRAG_LLM_VISION", "maybe", "valid boolean"),
        ("LAYOUTRAG_DPI", "0", "greater than 0"),
        ("LAYOUTRAG_DPI", "601", "less than or equal to 600"),
        ("LAYOUTRAG_MAX_FILE_MB", "-1", "greater than 0"),
        ("LAYOUTRAG_LAYOUT_BACKEND", "tesseract", "'pymupdf' or 'yolo'"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, var: str, value: str, says: str
) -> None:
    monkeypatch.setenv(var, value)
    with pytest.raises(InputError) as e:
        load_settings()
    msg = str(e.value)
    assert "\n" not in msg and var in msg and says in msg, msg


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(ENV_PREFIX)}
    return subprocess.run(
        [sys.executable, "-m", "layoutrag.cli", *args], capture_output=True, text=True, env={**base, **env}, timeout=300
    )


def test_bad_environment_value_is_one_line_from_the_cli(tmp_path: Path) -> None:
    proc = _cli(["search", "x", "--data", str(tmp_path)], {"LAYOUTRAG_FUSION": "bogus"})
    assert proc.returncode != 0
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "LAYOUTRAG_FUSION" in lines[0] and "Traceback" not in proc.stderr, proc.stderr


def _two_page_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for i in range(2):
        page = doc.new_page(width=400, height=500)
        page.insert_text((40, 60), f"Section {i + 1} Electrical characteristics", fontsize=14)
        for j in range(8):
            page.insert_text((40, 100 + 18 * j), f"Parameter {j} load capacitance {10 + j} pF typical value", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_environment_reaches_ingest_chunking_index_and_search(tmp_path: Path) -> None:
    pdf = _two_page_pdf(tmp_path / "two.pdf")
    data = tmp_path / "data"
    env = {
        "LAYOUTRAG_DATA": str(data),  # no --data: the data dir itself comes from the environment
        "LAYOUTRAG_DPI": "100",  # ingest (document.json) and chunking (crop size)
        "LAYOUTRAG_CROP_PADDING_PX": "0",  # chunking
        "LAYOUTRAG_EMBED_MAX_CHARS": "1",  # index: every passage the embedder sees is one character
        "LAYOUTRAG_TOP_K": "2",  # search
    }
    proc = _cli(["ingest", str(pdf)], env)
    assert proc.returncode == 0, proc.stderr
    (doc_dir,) = (data / "docs").iterdir()
    document = json.loads((doc_dir / "document.json").read_text(encoding="utf-8"))
    assert document["dpi"] == 100
    chunks = json.loads((doc_dir / "chunks.json").read_text(encoding="utf-8"))["chunks"]
    c = chunks[0]
    x0, y0, x1, y1 = c["bboxes_pdf"][0]
    from layoutrag.service import LayoutRAG

    crop = LayoutRAG(data).crop_image(c["chunk_id"], 0)  # rendered now, cut as chunked: dpi 100, no padding
    with Image.open(crop) as im:
        assert abs(im.width - (x1 - x0) * 100 / 72) <= 2 and abs(im.height - (y1 - y0) * 100 / 72) <= 2
    gen = (data / "index" / "CURRENT").read_text(encoding="utf-8").strip()
    vectors = np.load(data / "index" / gen / "vectors.npy")
    assert len(vectors) >= 2 and len(np.unique(vectors.round(5), axis=0)) == 1  # one-character passages
    proc = _cli(["search", "load capacitance", "--json"], env)
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)) == 2


@pytest.mark.parametrize(
    ("var", "value", "reason"),
    [
        ("LAYOUTRAG_MAX_PAGES", "1", "2 pages, over the limit of 1"),
        ("LAYOUTRAG_MAX_FILE_MB", "0.0001", "over the limit of 0.0001 MB"),
        ("LAYOUTRAG_MAX_PAGE_SIDE_PT", "300", "over the limit of 300 pt a side"),
    ],
)
def test_limits_from_the_environment_reach_ingest(tmp_path: Path, var: str, value: str, reason: str) -> None:
    pdf = _two_page_pdf(tmp_path / "two.pdf")
    proc = _cli(["ingest", str(pdf), "--data", str(tmp_path / "data"), "--no-index"], {var: value})
    assert proc.returncode == 1
    report = json.loads((tmp_path / "data" / "ingest-report.json").read_text(encoding="utf-8"))
    assert report[0]["status"] == "failed" and reason in report[0]["error"], report
