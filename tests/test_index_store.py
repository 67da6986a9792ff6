"""The file store: generations, the atomic swap (a build killed mid-way), import-chunks, the cache."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from layoutrag.build import import_chunks
from layoutrag.cli import app
from layoutrag.errors import IndexMissingError, InputError
from layoutrag.index.store import build_index, current_generation, load_index
from layoutrag.records import DocChunks, DocumentCard
from layoutrag.service import LayoutRAG
from layoutrag.storage import DataDir, atomic_write_json

REPO = Path(__file__).resolve().parents[1]


def chunk_line(doc: str, page: int, n: int, text: str, **extra: object) -> str:
    rec = {"chunk_id": f"{doc}_p{page}_b{n:02d}", "doc_id": doc, "page": page, "native_text": text}
    rec.update(extra)
    return json.dumps(rec, ensure_ascii=False)


def small_jsonl(path: Path, docs: int = 3) -> Path:
    lines = []
    for d in range(docs):
        doc = f"doc{d}"
        lines += [
            chunk_line(
                doc,
                1,
                0,
                f"XO-{d}100 series crystal oscillator features, low jitter",
                toc_path=f"XO-{d}100 > Features",
            ),
            chunk_line(
                doc,
                1,
                1,
                f"Load capacitance {8 + d} pF, ESR {40 + d} ohm",
                block_type="table",
                toc_path=f"XO-{d}100 > Specs",
            ),
            chunk_line(doc, 2, 0, "Recommended land pattern, dimensions in mm", block_type="figure"),
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_import_reports_bad_lines_and_indexes_the_rest(tmp_path: Path) -> None:
    good = small_jsonl(tmp_path / "good.jsonl", docs=1).read_text(encoding="utf-8").splitlines()
    bad = [
        good[0],
        "{not json",
        json.dumps({"doc_id": "x", "page": 1}),  # no chunk_id
        json.dumps({"chunk_id": "x_p1_b00", "doc_id": "x", "page": 0}),  # page is 1-based
        json.dumps({"chunk_id": "../evil", "doc_id": "x", "page": 1}),
        "[1, 2]",
        "",
        json.dumps(
            {"chunk_id": "y_p3_b00", "doc_id": "y", "page": 3, "score": 0.9, "foo": "bar"}
        ),  # extras ignored
        good[1],
        good[0],  # duplicate: reported, later wins
    ]
    f = tmp_path / "mixed.jsonl"
    f.write_text("\n".join(bad) + "\n", encoding="utf-8")
    data = tmp_path / "data"
    built = import_chunks(f, data)
    n, problems = built.imported, built.problems
    assert n == 3
    assert [line for line, _ in problems] == [2, 3, 4, 5, 6, 10]
    reasons = dict(problems)
    assert "not JSON" in reasons[2] and "chunk_id" in reasons[3] and "page" in reasons[4]
    assert "invalid chunk_id" in reasons[5] and "duplicate" in reasons[10]
    idx = load_index(DataDir(data))
    assert sorted(c.chunk_id for c in idx.chunks) == ["doc0_p1_b00", "doc0_p1_b01", "y_p3_b00"]
    assert (DataDir(data).imported / "doc0.json").exists()
    assert idx.cards["doc0"].title == "XO-0100"


def test_import_cli_and_search_cli(tmp_path: Path) -> None:
    data = tmp_path / "data"
    runner = CliRunner()
    res = runner.invoke(app, ["import-chunks", str(small_jsonl(tmp_path / "c.jsonl")), "--data", str(data)])
    assert res.exit_code == 0, res.output
    assert "imported 9 chunks" in res.output
    res = runner.invoke(app, ["search", "XO 2100 load capacitance", "--data", str(data), "--json", "-k", "3"])
    assert res.exit_code == 0, res.output
    hits = json.loads(res.output)
    # the chunk itself, or its page (the learned ranker's unit choice) with the chunk highlighted
    shown = [hits[0]["chunk_id"], *(c["chunk_id"] for c in hits[0]["companions"])]
    assert hits[0]["doc_id"] == "doc2" and "doc2_p1_b01" in shown
    assert {"score", "bm25_rank", "dense_rank", "bm25_score", "dense_score", "bboxes_pdf"} <= set(hits[0])
    res = runner.invoke(app, ["search", "x" * 10_000, "--data", str(data)])
    assert res.exit_code == 2 and "query too long" in res.output and "Traceback" not in res.output
    res = runner.invoke(app, ["search", "land pattern", "--data", str(tmp_path / "empty")])
    assert res.exit_code == 1 and "no index" in res.output


def test_cli_os_errors_are_one_line_naming_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    afile = tmp_path / "afile"
    afile.write_text("not a data dir")
    chunks = str(small_jsonl(tmp_path / "c.jsonl", docs=1))
    for args in (
        ["import-chunks", chunks, "--data", str(afile)],
        ["index", "--data", str(afile)],
        ["search", "frequency", "--data", str(afile)],
        ["chunks", "doc0", "--data", str(afile)],
    ):
        res = runner.invoke(app, args)
        assert isinstance(res.exception, SystemExit) and res.exit_code in (1, 2), (args, res.exception)
        assert res.output.strip() == f"error: data dir {afile} is not a directory", args
    assert afile.read_text() == "not a data dir"  # nothing lost
    # an OSError from anywhere below (here: an unreadable path) is one line naming path and problem
    import layoutrag.index.importer as importer

    def refuse(*a: object, **k: object) -> None:
        raise PermissionError(13, "Permission denied", str(tmp_path / "locked"))

    monkeypatch.setattr(importer, "import_chunks_file", refuse)
    res = runner.invoke(app, ["import-chunks", chunks, "--data", str(tmp_path / "d")])
    assert isinstance(res.exception, SystemExit) and res.exit_code == 1
    assert res.output.strip() == f"error: {tmp_path / 'locked'}: permission denied"
    # a programming error is not dressed up as a user error
    monkeypatch.setattr(importer, "import_chunks_file", lambda *a, **k: 1 / 0)
    res = runner.invoke(app, ["import-chunks", chunks, "--data", str(tmp_path / "d")])
    assert isinstance(res.exception, ZeroDivisionError)


def test_cli_error_text_is_not_read_as_markup(tmp_path: Path) -> None:
    data = tmp_path / "data"
    import_chunks(small_jsonl(tmp_path / "c.jsonl", docs=1), data)
    res = CliRunner().invoke(app, ["search", "frequency", "--doc", "[/x]", "--data", str(data)])
    assert isinstance(res.exception, SystemExit) and res.exit_code == 1
    assert res.output.strip() == "error: unknown document: [/x]"


def test_unknown_block_type_is_refused_naming_the_valid_types(tmp_path: Path) -> None:
    data = tmp_path / "data"
    lines = [
        small_jsonl(tmp_path / "c.jsonl", docs=1).read_text(encoding="utf-8").strip(),
        chunk_line("doc9", 1, 0, "Frequency stability over temperature", block_type="stability_curve"),
    ]
    (tmp_path / "c2.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_chunks(tmp_path / "c2.jsonl", data)
    runner = CliRunner()
    res = runner.invoke(app, ["search", "frequency", "--data", str(data), "--type", "bogus"])
    assert isinstance(res.exception, SystemExit) and res.exit_code == 2
    assert res.output.strip() == (
        "error: unknown block type 'bogus'; valid: caption, figure, footnote, formula, heading, list, "
        "page_footer, page_header, stability_curve, table, text, title"
    )
    rag = LayoutRAG(data)
    with pytest.raises(InputError, match="unknown block type 'bogus'; valid: "):
        rag.search("frequency", filters={"block_type": "bogus"})
    # a type ingest makes, an imported type, a component of it and another case are all accepted
    assert rag.search("frequency", filters={"block_type": "formula"}) == []
    assert [h.doc_id for h in rag.search("frequency", filters={"block_type": "curve"})] == ["doc9"]
    assert rag.search("frequency", filters={"block_type": "stability_curve"})
    res = runner.invoke(app, ["search", "land pattern", "--data", str(data), "--type", "Figure", "--json"])
    assert res.exit_code == 0, res.output
    assert {h["block_type"] for h in json.loads(res.output)} == {"figure"}


def test_index_cli_with_nothing_ingested_is_an_error(tmp_path: Path) -> None:
    runner = CliRunner()
    for data in (tmp_path / "missing", tmp_path):
        res = runner.invoke(app, ["index", "--data", str(data)])
        assert isinstance(res.exception, SystemExit) and res.exit_code == 2  # bad input: exit 2, as for every command
        assert res.output.strip() == f"error: no ingested documents in {data}; run `layoutrag ingest` first"
    assert not (tmp_path / "missing").exists() and not list(tmp_path.iterdir())  # nothing written
    import_chunks(small_jsonl(tmp_path / "c.jsonl", docs=1), tmp_path / "data")
    res = runner.invoke(app, ["index", "--data", str(tmp_path / "data")])
    assert res.exit_code == 0 and "3 chunks of 1 document," in res.output, res.output


def test_service_search_end_to_end(tmp_path: Path) -> None:
    data = tmp_path / "data"
    import_chunks(small_jsonl(tmp_path / "c.jsonl"), data)
    rag = LayoutRAG(data)
    hits = rag.search("xo1100 ESR", top_k=2)
    assert hits[0].doc_id == "doc1"
    assert rag.search("land pattern", filters={"block_type": "figure"}, top_k=10)
    assert all(h.block_type == "figure" for h in rag.search("land pattern", filters={"block_type": "figure"}))
    assert rag.get_chunk("doc1_p1_b01").native_text.startswith("Load capacitance 9 pF")


def test_load_without_index_raises(tmp_path: Path) -> None:
    with pytest.raises(IndexMissingError):
        load_index(DataDir(tmp_path))


def _ingested_doc(data: DataDir, doc: str, texts: list[str]) -> None:
    chunks = [json.loads(chunk_line(doc, 1, i, t)) for i, t in enumerate(texts)]
    dc = DocChunks.model_validate(
        {"key": "k", "card": DocumentCard(doc_id=doc).model_dump(), "chunks": chunks}
    )
    atomic_write_json(data.chunks_json(doc), dc)


def test_rebuild_embeds_only_changed_chunks(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "data")
    _ingested_doc(data, "aaaa", ["first text about crystals", "second text about oscillators"])
    s1 = build_index(data.root)
    assert s1.chunks == 2 and s1.embedded == 2 and s1.generation == "gen-000001"
    _ingested_doc(data, "bbbb", ["third text, new document"])
    s2 = build_index(data.root)
    assert s2.chunks == 3 and s2.embedded == 1 and s2.generation == "gen-000002"
    s3 = build_index(data.root)
    assert s3.embedded == 0
    gens = sorted(p.name for p in data.index.glob("gen-*"))
    assert gens == ["gen-000002", "gen-000003"]  # older generations are pruned
    assert current_generation(data).name == "gen-000003"


def test_build_killed_midway_leaves_old_generation_serving(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "data")
    _ingested_doc(data, "old0", ["the old generation serves this text about quartz"])
    build_index(data.root)
    before = current_generation(data).name
    # a much bigger second build (new texts to embed), killed once it has started writing
    for d in range(4):
        _ingested_doc(
            data, f"new{d}", [f"new document {d} chunk {i} about oscillators and jitter" for i in range(60)]
        )
    code = "import sys; from layoutrag.index.store import build_index; build_index(sys.argv[1])"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(data.root)], env={**os.environ, "PYTHONPATH": str(REPO / "src")}
    )
    try:
        deadline = time.monotonic() + 120
        while not list(data.index.glob(".tmp-gen-*")):
            assert proc.poll() is None, "the build finished before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert current_generation(data).name == before  # the old one still serves
    idx = load_index(data)
    assert [c.doc_id for c in idx.chunks] == ["old0"]
    assert idx.search("quartz", top_k=1)[0].doc_id == "old0"
    # a half-written generation directory is debris: ignored by readers, swept by the next build
    assert list(data.index.glob(".tmp-gen-*"))
    stats = build_index(data.root)
    assert stats.chunks == 241 and not list(data.index.glob(".tmp-gen-*"))
    assert load_index(data).search("new document 3 chunk 7", top_k=1)[0].doc_id == "new3"


def test_reader_keeps_its_generation_during_a_swap(tmp_path: Path) -> None:
    data = DataDir(tmp_path / "data")
    _ingested_doc(data, "aaaa", ["alpha crystal"])
    build_index(data.root)
    reader = load_index(data)
    _ingested_doc(data, "bbbb", ["beta oscillator"])
    build_index(data.root)
    build_index(data.root)  # prunes the reader's generation directory
    assert reader.search("alpha", top_k=1)[0].doc_id == "aaaa"  # still readable (mmaps stay valid)
    assert len(load_index(data).chunks) == 2


def _letters(texts: list[str]) -> list[list[float]]:
    """A deterministic toy embedding: letter counts (enough to rank by shared words)."""
    return [[float(t.lower().count(ch)) + 0.01 for ch in "abcdefghijklmnopqrstuvwxyz"] for t in texts]


def test_openai_compatible_embedder_and_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from llm_stub import OpenAIStub

    data = DataDir(tmp_path / "data")
    _ingested_doc(data, "aaaa", ["quartz crystal unit", "tuning fork"])
    with OpenAIStub(embed=_letters) as stub:
        monkeypatch.setenv("LAYOUTRAG_EMBED_BASE_URL", stub.base_url)
        monkeypatch.setenv("LAYOUTRAG_EMBED_MODEL", "toy")
        s1 = build_index(data.root, embedder="openai")
        assert s1.embedder == "openai/toy" and s1.dim == 26 and s1.embedded == 2
        _ingested_doc(data, "bbbb", ["zzz buzz fizz"])
        s2 = build_index(data.root, embedder="openai")
        assert s2.embedded == 1  # only the new text went to the endpoint
        embedded_texts = [
            t for path, body in stub.requests if path.endswith("/embeddings") for t in body["input"]
        ]
        assert sorted(embedded_texts) == sorted(["quartz crystal unit", "tuning fork", "zzz buzz fizz"])
        idx = load_index(data)
        hits = idx.search("fizzbuzz", top_k=1, mode="dense")
        assert hits[0].doc_id == "bbbb" and hits[0].dense_rank == 1


def test_empty_data_dir_builds_an_empty_index(tmp_path: Path) -> None:
    stats = build_index(tmp_path / "data")
    assert stats.chunks == 0
    idx = load_index(DataDir(tmp_path / "data"))
    assert idx.search("anything at all") == [] and len(idx.chunks) == 0


def test_cli_broken_pipe_exits_quietly(monkeypatch) -> None:
    """A reader that goes away (`layoutrag search ... | head`) ends the command quietly with the
    shell's status for a killed pipe writer (141), not with an error line."""
    from typer.testing import CliRunner

    import layoutrag.cli as cli

    def gone(*a, **k):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr("layoutrag.index.store.load_index", gone)
    r = CliRunner().invoke(cli.app, ["search", "frequency"])
    assert r.exit_code == 141 and "error" not in r.output.lower()


def test_an_index_of_older_passages_warns_once_on_load_and_a_rebuild_clears_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """meta "passage" records which `embed_text` made the vectors; a generation without it (or
    with another) still loads and searches, with one warning to re-embed."""
    import logging

    from layoutrag.index.candidates import PASSAGE_VERSION

    data = DataDir(tmp_path / "data")
    _ingested_doc(data, "aaaa", ["first text about crystals", "second text about oscillators"])
    build_index(data.root)
    gen = current_generation(data)
    meta = json.loads((gen / "meta.json").read_text(encoding="utf-8"))
    assert meta["passage"] == PASSAGE_VERSION
    with caplog.at_level(logging.WARNING, logger="layoutrag.index.candidates"):
        load_index(data.root)
    assert not [r for r in caplog.records if "passage" in r.getMessage()]

    del meta["passage"]  # as an index written before the passage text was recorded
    atomic_write_json(gen / "meta.json", meta)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="layoutrag.index.candidates"):
        old = load_index(data.root)
    warned = [r.getMessage() for r in caplog.records if "passage" in r.getMessage()]
    assert len(warned) == 1 and "layoutrag index" in warned[0] and gen.name in warned[0]
    assert old.search("crystals", top_k=1)  # it still answers

    build_index(data.root)  # the rebuild re-embeds with this passage text: no warning
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="layoutrag.index.candidates"):
        load_index(data.root)
    assert not [r for r in caplog.records if "passage" in r.getMessage()]
