"""The layout of the code: no import circle, no module importing a layer above its own
(tools/import_graph.py has the layers), and the orchestrator is the only caller of the chunking
and index stages from the ingest side."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("import_graph", REPO / "tools" / "import_graph.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["import_graph"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_no_import_circles_and_no_upward_imports() -> None:
    tool = _tool()
    g = tool.graph()
    assert len(g) > 50  # it really read the package
    assert "layoutrag.chunking.pipeline" in g["layoutrag.build"]
    assert tool.circles(g) == []
    assert tool.upward(g) == []


def test_the_checker_finds_a_circle_and_an_upward_import() -> None:
    tool = _tool()
    g = {"layoutrag.ingest.a": {"layoutrag.chunking.b"}, "layoutrag.chunking.b": {"layoutrag.ingest.a"}}
    assert [c for _, c in tool.circles(g)] == ["layoutrag.chunking.b <-> layoutrag.ingest.a"]
    assert tool.upward(g) == ["layoutrag.ingest.a (layer 4) imports layoutrag.chunking.b (layer 5)"]


def test_ingest_knows_nothing_of_later_stages() -> None:
    g = _tool().graph()
    for mod, deps in g.items():
        if mod.startswith("layoutrag.ingest"):
            later = [d for d in deps if d.startswith(("layoutrag.chunking", "layoutrag.index", "layoutrag.build"))]
            assert not later, (mod, later)


def test_only_the_pdf_module_opens_pdf_files() -> None:
    """`pymupdf.open(<a path>)` appears in layoutrag.pdf only (new empty documents are fine)."""
    import re

    pattern = re.compile(r"pymupdf\.open\((?!\))")
    offenders = [
        str(p.relative_to(REPO))
        for p in (REPO / "src" / "layoutrag").rglob("*.py")
        if p.name != "pdf.py" and pattern.search(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
