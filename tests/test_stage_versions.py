"""A stage's output changes only with its version. Ingest skips a document whose stored chunks and spec
values carry the current stage key (a hash of the document, the stage version and the vocabularies), so
a code change that alters what a stage writes without bumping CHUNK_STAGE_VERSION / SPEC_STAGE_VERSION
leaves users' stored data stale after an upgrade (seen in the fifteenth session: the twelfth session's
stored chunks differed from a fresh ingest under the same keys). This test chunks the served sample
corpus (2 generated datasheets, pymupdf layout) and compares a digest of what each stage wrote with the
one recorded for the current version in tests/data/stage_digests.json.

When it fails: if the change to the output is intended, bump the stage's version and record the new
digest under it (the failure message prints it); the old version's line may stay. The digests were
recorded with the PyMuPDF and onnxruntime versions named in the file; with others the test skips
(their layout and text can differ without any change of ours)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from layoutrag.chunking.pipeline import CHUNK_STAGE_VERSION
from layoutrag.chunking.specs import SPEC_STAGE_VERSION

RECORD = Path(__file__).parent / "data" / "stage_digests.json"


def _digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        data = json.loads(f.read_text(encoding="utf-8"))
        data.pop("key", None)  # the stage key hashes the document record, whose source path is a temp dir
        h.update(f.parent.name.encode() + b"\0" + json.dumps(data, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()[:20]


def _libraries() -> dict[str, str]:
    import onnxruntime
    import pymupdf

    return {"pymupdf": pymupdf.version[1], "onnxruntime": onnxruntime.__version__}


@pytest.mark.parametrize(
    ("stage", "version", "file"),
    # the spec stage reads the chunks: its output is recorded under both versions
    [("chunk", CHUNK_STAGE_VERSION, "chunks.json"), ("specs", f"{CHUNK_STAGE_VERSION}/{SPEC_STAGE_VERSION}", "specs.json")],
)
def test_a_stage_output_changes_only_with_its_version(served_data: Path, stage: str, version: str, file: str) -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    if record["libraries"] != _libraries():
        pytest.skip(f"digests recorded with {record['libraries']}, installed {_libraries()}")
    files = sorted(served_data.glob(f"docs/*/{file}"))
    assert len(files) == 2  # both sample datasheets were chunked
    got = _digest(files)
    want = record[stage].get(version)
    assert want is not None, f'{stage} stage {version} has no recorded digest: add "{version}": "{got}" to {RECORD.name}'
    assert got == want, (
        f"the {stage} stage's output changed under {version} ({want} -> {got}): bump its version so stored "
        f'data is rebuilt, and record "<new version>": "{got}" in {RECORD.name}'
    )
