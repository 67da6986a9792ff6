"""The Qdrant store (issue #15): same results as the embedded store, read by every front with no
flags, and searches that keep answering across a generation swap. Runs on both in-process engines
(no server): qdrant-client's local mode and Qdrant Edge (qdrant-edge-py); skipped when the `scale`
extra is not installed."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

pytest.importorskip("qdrant_client")

ENGINES = ["local", "edge"]


def _qdrant_settings(engine: str, path: Path):  # noqa: ANN202 - Settings
    if engine == "edge":
        pytest.importorskip("qdrant_edge")
    return load_settings().updated(store="qdrant", qdrant_engine=engine, qdrant_path=str(path))

from layoutrag.config import load_settings  # noqa: E402
from layoutrag.evaluation.harness import evaluate, load_queries  # noqa: E402
from layoutrag.index.store import build_index, load_index  # noqa: E402
from layoutrag.records import SearchFilters  # noqa: E402
from layoutrag.service import LayoutRAG  # noqa: E402

MIN_SAME_TOP5 = 0.95


@pytest.fixture(scope="module", params=ENGINES)
def pair(
    served_data: Path, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> tuple[Path, Path]:
    """The session's served corpus (embedded index) and a copy indexed into Qdrant (each engine)."""
    q = tmp_path_factory.mktemp(f"qdrant-{request.param}-data")
    shutil.copytree(served_data, q, dirs_exist_ok=True)
    settings = _qdrant_settings(request.param, q / "qdrant")
    build_index(q, settings=settings)
    return served_data, q


def _queries(data: Path) -> list[str]:
    return [json.loads(x)["query"] for x in (data / "samples" / "queries.jsonl").read_text().splitlines()]


def test_data_dir_records_the_store_and_open_follows_it(pair: tuple[Path, Path]) -> None:
    import layoutrag
    from layoutrag.index.qdrant_store import QdrantIndex

    _, q = pair
    record = json.loads((q / "index" / "STORE.json").read_text())
    assert record["kind"] == "qdrant" and record["engine"] in ENGINES
    idx = layoutrag.open(q)  # no store flags: the data dir says where its index lives
    assert isinstance(idx._index, QdrantIndex)
    assert idx.search("load capacitance", top_k=3)
    assert idx.generation().startswith("qdrant-g")
    # records and counts come from the store too
    some = idx.search("ESR", top_k=1)[0]
    assert idx.get_chunk(some.chunk_id).chunk_id == some.chunk_id
    assert sum(idx.chunk_counts().values()) == len(idx._index.chunks)


def test_same_top5_as_embedded(pair: tuple[Path, Path]) -> None:
    emb_dir, q_dir = pair
    emb, qd = load_index(emb_dir), load_index(q_dir)
    queries = _queries(emb_dir)
    same = 0
    for query in queries:
        a = emb.search(query, top_k=5)
        b = qd.search(query, top_k=5)
        same += [h.chunk_id for h in a] == [h.chunk_id for h in b]
        for x, y in zip(a, b, strict=False):  # the scores agree wherever the ids do
            if x.chunk_id == y.chunk_id:
                assert y.score == pytest.approx(x.score, rel=1e-4, abs=1e-6)
    assert same / len(queries) >= MIN_SAME_TOP5, f"{same}/{len(queries)}"


def test_learned_fusion_same_top5_as_embedded(pair: tuple[Path, Path]) -> None:
    """`fusion = learned` reads its features from the store (group runs and scores, df, term
    holders, bag lengths) and ranks like the embedded store."""
    from layoutrag.index.options import SearchOptions

    emb, qd = load_index(pair[0]), load_index(pair[1])
    opts = SearchOptions.for_fusion("learned", emb.settings)
    queries = _queries(pair[0])
    same = 0
    for query in queries:
        a = emb.search(query, top_k=5, options=opts)
        b = qd.search(query, top_k=5, options=opts)
        assert a, query
        same += [h.chunk_id for h in a] == [h.chunk_id for h in b]
        for x, y in zip(a, b, strict=False):
            if x.chunk_id == y.chunk_id:
                assert y.score == pytest.approx(x.score, rel=1e-4, abs=1e-6)
    assert same / len(queries) >= MIN_SAME_TOP5, f"{same}/{len(queries)}"
    # the candidates' features agree, not only the order they give
    for query in queries[:6]:
        ca, Xa = emb.features(query)
        cb, Xb = qd.features(query)
        assert [emb.table.chunk_ids[i] for i in ca] == [qd.table.chunk_ids[i] for i in cb], query
        assert Xb == pytest.approx(Xa, rel=1e-4, abs=1e-6), query


@pytest.mark.parametrize("mode", ["bm25", "dense"])
def test_single_paths_match(pair: tuple[Path, Path], mode: str) -> None:
    emb, qd = load_index(pair[0]), load_index(pair[1])
    for query in _queries(pair[0])[:20]:
        a = [h.chunk_id for h in emb.search(query, top_k=10, mode=mode)]
        b = [h.chunk_id for h in qd.search(query, top_k=10, mode=mode)]
        assert a == b, query


def test_filters_are_payload_filters(pair: tuple[Path, Path]) -> None:
    emb, qd = load_index(pair[0]), load_index(pair[1])
    doc = sorted(emb.cards)[1]
    for f in (
        SearchFilters(doc_id=doc),
        SearchFilters(block_type="table"),
        SearchFilters(page_min=2, page_max=2),
        SearchFilters(doc_id=doc, block_type="figure"),
    ):
        for query in ("frequency stability", "外形尺寸", "ESR"):
            a = [h.chunk_id for h in emb.search(query, top_k=5, filters=f)]
            b = [h.chunk_id for h in qd.search(query, top_k=5, filters=f)]
            assert a == b, (f, query)
            hits = qd.search(query, top_k=5, filters=f)
            assert all(f.doc_id is None or h.doc_id == f.doc_id for h in hits)
            assert all(f.page_min is None or h.page >= f.page_min for h in hits)


def test_region_metrics_match(pair: tuple[Path, Path]) -> None:
    emb_dir, q_dir = pair
    queries = load_queries(emb_dir / "samples" / "queries.jsonl")
    results = []
    for d in (emb_dir, q_dir):
        idx = load_index(d)
        names = {c.file_name: c.doc_id for c in idx.cards.values()}
        results.append(evaluate(queries, lambda q, k, idx=idx: idx.search(q, top_k=k), doc_ids=names))
    a, b = (r.metrics["region"] for r in results)
    for key, value in a.items():
        if isinstance(value, int | float):
            assert abs(b[key] - value) <= 0.01, (key, value, b[key])


@pytest.mark.parametrize("engine", ENGINES)
def test_cli_index_store_qdrant_then_search(served_data: Path, tmp_path: Path, engine: str) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app

    _qdrant_settings(engine, tmp_path)
    data = tmp_path / "d"
    shutil.copytree(served_data, data)
    runner = CliRunner()
    res = runner.invoke(
        app,
        ["index", "--data", str(data), "--store", "qdrant", "--qdrant-path", str(tmp_path / "qd")]
        + ["--qdrant-engine", engine],
    )
    assert res.exit_code == 0, res.output
    assert json.loads((data / "index" / "STORE.json").read_text())["engine"] == engine
    res = runner.invoke(app, ["search", "load capacitance", "--data", str(data), "--json", "-k", "3"])
    assert res.exit_code == 0, res.output
    hits = json.loads(res.output)
    assert [h["chunk_id"] for h in hits] == [
        h.chunk_id for h in load_index(served_data).search("load capacitance", top_k=3)
    ]
    # back to the embedded store, recorded too
    res = runner.invoke(app, ["index", "--data", str(data), "--store", "embedded"])
    assert res.exit_code == 0, res.output
    from layoutrag.index.hybrid import HybridIndex
    from layoutrag.index.qdrant_store import QdrantIndex

    idx = load_index(data)
    assert isinstance(idx, HybridIndex) and not isinstance(idx, QdrantIndex)


# --------------------------------------------------------------------------- serving through a swap
CLIENTS = 20


@pytest.mark.parametrize("store", ["embedded", *(f"qdrant-{e}" for e in ENGINES)])
def test_searches_answer_across_a_swap(served_data: Path, tmp_path: Path, store: str) -> None:
    """20 clients search while a new generation (one document fewer) is built and swapped in: no
    errors, and every response is exactly the old generation's or the new one's answer."""
    data = tmp_path / "d"
    shutil.copytree(served_data, data)
    settings = load_settings()
    if store.startswith("qdrant"):
        settings = _qdrant_settings(store.split("-")[1], tmp_path / "qd")
        build_index(data, settings=settings)
    svc = LayoutRAG(data, settings=settings)
    queries = _queries(data)[:12]
    old = {q: [h.chunk_id for h in svc.search(q, top_k=5)] for q in queries}
    gone = sorted(svc._index.cards)[0]
    (data / "docs" / gone / "chunks.json").rename(data / "docs" / gone / "chunks.json.off")

    errors: list[BaseException] = []
    seen: list[tuple[str, list[str]]] = []
    stop = threading.Event()

    def client(n: int) -> None:
        i = n
        while not stop.is_set() or i < n + len(queries):
            q = queries[i % len(queries)]
            try:
                svc.refresh()
                seen.append((q, [h.chunk_id for h in svc.search(q, top_k=5)]))
            except BaseException as e:  # noqa: BLE001
                errors.append(e)
            i += 1
            if i > n + 400:
                break

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for t in threads:
        t.start()
    svc.index(require_documents=True)  # the swap, while the clients search
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    svc.refresh()
    new = {q: [h.chunk_id for h in svc.search(q, top_k=5)] for q in queries}
    assert any(old[q] != new[q] for q in queries)  # the generations differ, so the check means something
    assert all(ids in (old[q], new[q]) for q, ids in seen), [
        x for x in seen if x[1] not in (old[x[0]], new[x[0]])
    ][:2]
    assert len(seen) >= CLIENTS * len(queries)


def test_edge_generations_are_shard_dirs_behind_a_pointer_file(served_data: Path, tmp_path: Path) -> None:
    """Qdrant Edge has no aliases: a generation is five shard directories, ALIASES.json the pointer
    a rebuild replaces; the previous generation stays on disk for searches in flight. Shards run
    without a WAL, so another process can open the live generation while this one holds it."""
    import subprocess
    import sys

    data = tmp_path / "d"
    shutil.copytree(served_data, data)
    settings = _qdrant_settings("edge", tmp_path / "qe")
    build_index(data, settings=settings)
    first = json.loads((tmp_path / "qe" / "ALIASES.json").read_text())
    assert set(first) == {f"layoutrag-{k}" for k in ("chunks", "pages", "docs", "terms", "meta")}
    assert all(c.endswith("-g000001") for c in first.values())
    idx = load_index(data)  # holds the g000001 shards open
    build_index(data, settings=settings)
    second = json.loads((tmp_path / "qe" / "ALIASES.json").read_text())
    assert all(c.endswith("-g000002") for c in second.values())
    collections = {p.name for p in (tmp_path / "qe" / "collections").iterdir()}
    assert set(first.values()) | set(second.values()) <= collections  # the old one is kept
    expected = [h.chunk_id for h in idx.search("load capacitance", top_k=3)]
    code = (
        "import json, sys, layoutrag; "
        "print(json.dumps([h.chunk_id for h in layoutrag.open(sys.argv[1]).search('load capacitance', top_k=3)]))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(data)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == expected


def test_bad_store_options_are_one_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app

    for args in (["--qdrant-engine", "server"], ["--store", "elastic"]):
        res = CliRunner().invoke(app, ["index", "--data", str(tmp_path), *args])
        assert res.exit_code != 0
        lines = [x for x in res.output.splitlines() if x.strip()]
        assert len(lines) == 1 and "should be" in lines[0], res.output
