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


# --------------------------------------------------------------------------- scenario questions' b
# Long questions (>= 20 words or CJK characters) made of the served samples' words: their
# datasheets' text and their queries' Chinese terms (which reach the English text by the glossary).
SCENARIO_QUESTIONS = [
    "We design networking equipment and storage servers and need a CMOS clock oscillator with low "
    "phase jitter, a wide frequency range and low current consumption over the operating temperature "
    "range: which series would you recommend?",
    "Our FPGA and SoC reference clock needs a small ceramic package suited to lead-free reflow "
    "soldering, with output enable, a low standby current and a supply voltage from 1.8 V to 3.3 V; "
    "what are the part numbers and the packing?",
    "For a crystal in our set-top boxes we must know the load capacitance, the frequency stability "
    "including tolerance and aging, the maximum drive level and the recommended land pattern of the "
    "package.",
    "我们做网络设备和存储服务器，需要一款相位抖动低的振荡器，请问回流焊曲线峰值温度是多少，外形尺寸图在哪里？",
    "请推荐一款适合小型基站的晶振，我们关心激励功率最大值、负载电容、封装尺寸、频率温度特性曲线和每卷包装数量。",
]


def _same_hits(a: list, b: list, what: object) -> None:
    assert a, what
    assert [h.chunk_id for h in b] == [h.chunk_id for h in a], what
    assert [h.score for h in b] == pytest.approx([h.score for h in a], rel=1e-4, abs=1e-6), what
    assert [h.bm25_score for h in b] == pytest.approx([h.bm25_score for h in a], rel=1e-4, abs=1e-6), what


def _same_run(a: tuple, b: tuple, what: object) -> None:
    """Two runs (ids, scores) agree: scores everywhere, ids except among the ties at the cut (the
    embedded store keeps any of them, docs/SCALING.md "Equivalence")."""
    assert b[1] == pytest.approx(a[1], rel=1e-4), what
    above = [j for j, x in enumerate(a[1].tolist()) if x > a[1][-1] * (1 + 1e-4)]
    assert [b[0][j] for j in above] == [a[0][j] for j in above], what


def test_scenario_questions_score_as_embedded(pair: tuple[Path, Path]) -> None:
    """A scenario question's BM25 uses `bm25_b_long` on the chunk, page and document levels (the
    second sparse vector, `bm25_long`): same top-5 and scores as the embedded index in every
    fusion, and the learned ranker gets the features its trees were fit on."""
    from layoutrag.index.base import is_scenario_question
    from layoutrag.index.options import SearchOptions

    emb, qd = load_index(pair[0]), load_index(pair[1])
    s = emb.settings.index
    assert s.bm25_b_long != s.bm25_b  # else the questions would test nothing
    fusions = [SearchOptions.for_fusion(f, emb.settings) for f in ("bm25", "weighted", "rrf", "learned")]
    for query in SCENARIO_QUESTIONS:
        assert is_scenario_question(query), query
        lex = qd.lexical_query(query)
        assert lex.scenario and lex.b == s.bm25_b_long
        for opts in fusions:
            a, b = emb.search(query, top_k=5, options=opts), qd.search(query, top_k=5, options=opts)
            _same_hits(a, b, (query, opts))
        # every level of the lexical runs, compared directly
        _same_run(emb._bm25_run(emb.lexical_query(query), 30, None), qd._bm25_run(lex, 30, None), query)
        for kind in ("doc", "page"):
            g_e = emb.group_run(kind, emb.lexical_query(query), 10)
            g_q = qd.group_run(kind, lex, 10)
            _same_run(g_e, g_q, (query, kind))
            assert qd.group_scores(kind, lex, g_q[0]) == pytest.approx(
                emb.group_scores(kind, emb.lexical_query(query), g_q[0]), rel=1e-4
            ), (query, kind)
        ca, Xa = emb.features(query)
        cb, Xb = qd.features(query)
        assert [emb.table.chunk_ids[i] for i in ca] == [qd.table.chunk_ids[i] for i in cb], query
        assert Xb == pytest.approx(Xa, rel=1e-4, abs=1e-6), query


@pytest.mark.parametrize("engine", ENGINES)
def test_index_without_the_long_vector_still_searches(
    served_data: Path,
    tmp_path: Path,
    engine: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A generation written before `bm25_long` (one sparse vector, no `bm25_b_long` in its meta)
    loads and answers every query from `bm25`, as it did, and says once that a rebuild would
    give scenario questions their own b."""
    from qdrant_client import models as m

    from layoutrag.index import qdrant_store
    from layoutrag.index.options import SearchOptions
    from layoutrag.storage import DataDir

    data = tmp_path / "d"
    shutil.copytree(served_data, data)
    settings = _qdrant_settings(engine, tmp_path / "qd")
    monkeypatch.setattr(qdrant_store, "bm25_vectors", lambda s: {"bm25": s.index.bm25_b})
    build_index(data, settings=settings)
    monkeypatch.undo()
    store = qdrant_store.store_for(DataDir(data), settings)
    assert store is not None
    meta_name = f"{store.prefix}-meta-{store.current()}"
    payload = store.client.retrieve(meta_name, [0], with_payload=True)[0].payload
    del payload["meta"]["bm25_b_long"]  # as the old writer left it
    store.client.upsert(meta_name, [m.PointStruct(id=0, vector={}, payload=payload)], wait=True)

    qd = load_index(data)
    assert "bm25_b_long" not in qd.meta
    # every query scores with bm25_b: as the embedded index does when bm25_b_long is bm25_b
    plain = load_index(served_data, settings=load_settings().updated(bm25_b_long=load_settings().index.bm25_b))
    with caplog.at_level("WARNING", logger="layoutrag.index.qdrant_store"):
        for query in SCENARIO_QUESTIONS:
            for fusion in ("bm25", "weighted"):
                opts = SearchOptions.for_fusion(fusion, plain.settings)
                _same_hits(plain.search(query, top_k=5, options=opts), qd.search(query, top_k=5, options=opts), query)
            # the learned ranker asks for its own b (0): "bm25" answers it, without the embedded scores
            assert qd.search(query, top_k=5, options=SearchOptions.for_fusion("learned", qd.settings))
    warned = [r for r in caplog.records if "layoutrag index" in r.getMessage()]
    assert len(warned) == 1, caplog.text  # once per index, not per query
    # short queries are unaffected
    assert [h.chunk_id for h in qd.search("load capacitance", top_k=3)] == [
        h.chunk_id for h in plain.search("load capacitance", top_k=3)
    ]
