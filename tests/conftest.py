"""Shared fixtures. Tests that need ../shared skip cleanly when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATASHEETS = SHARED / "datasheets"
EVAL = SHARED / "eval"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not DATASHEETS.is_dir():
        pytest.skip("../shared/datasheets is absent")
    return SHARED
