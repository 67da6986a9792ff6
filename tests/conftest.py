"""Shared fixtures. Tests that need ../shared skip cleanly when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATASHEETS = SHARED / "datasheets"
EVAL = SHARED / "eval"

SERVED_SAMPLE_DOCS = 2
SERVED_SEED = 0


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not DATASHEETS.is_dir():
        pytest.skip("../shared/datasheets is absent")
    return SHARED


@pytest.fixture(scope="session")
def served_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small served corpus, built once per session: `SERVED_SAMPLE_DOCS` generated sample datasheets
    (seed `SERVED_SEED`) under ``samples/`` with their ground truth, ingested with the pymupdf layout
    backend and indexed into this data dir. Used by test_api, test_answer, test_mcp, test_browser and
    test_eval_e2e. Treat it as read-only: a test that writes into a data dir works on its own copy."""
    from layoutrag.build import build
    from layoutrag.samples.generator import generate_corpus

    root = tmp_path_factory.mktemp("served-data")
    samples = root / "samples"
    generate_corpus(samples, n=SERVED_SAMPLE_DOCS, seed=SERVED_SEED)
    built = build(sorted(samples.glob("*.pdf")), root, layout="pymupdf", progress=False)
    assert [r.status for r in built.results] == ["ok"] * SERVED_SAMPLE_DOCS, [r.error for r in built.results]
    return root
