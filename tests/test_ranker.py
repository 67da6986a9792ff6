"""The learned ranker: candidate features, the weights file, learned search, immutable search
options, hit assembly, and the cross-validation protocol's pieces (folds, labels, fitting)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from layoutrag.config import FusionSettings, FusionStrategy, HitSettings, load_settings
from layoutrag.errors import InputError
from layoutrag.evaluation.crossval import Rows, doc_fold, fit_ranker, label_candidates
from layoutrag.evaluation.harness import RegionQuery
from layoutrag.index.base import parse_page_unit_id
from layoutrag.index.hits import PageHit, best_row, page_hits
from layoutrag.index.hybrid import HybridIndex
from layoutrag.index.options import SearchOptions
from layoutrag.index.ranker import FEATURES, LinearRanker, TreeRanker, default_ranker, load_ranker
from layoutrag.records import Region
from test_index import corpus


@pytest.fixture(scope="module")
def lexical() -> HybridIndex:
    chunks, cards = corpus()
    for c in chunks:  # boxes, so labels and position features have something to read
        y = 100.0 if c.block_type == "table" else 400.0
        c.regions = [Region(page=c.page, bbox_pdf=(50.0, y, 500.0, y + 100.0), label=c.block_type)]
        c.bboxes_pdf = [(50.0, y, 500.0, y + 100.0)]
        c.page_size_pt = (600.0, 800.0)
    return HybridIndex.build(chunks, cards, dense=False)


def test_the_shipped_weights_match_the_features() -> None:
    r = default_ranker()
    assert r.features == FEATURES
    X = np.random.default_rng(0).normal(size=(5, len(FEATURES)))
    p = r.score(X)
    assert p.shape == (5,) and ((p > 0) & (p < 1)).all()
    if isinstance(r, LinearRanker):
        assert len(r.coef) == len(FEATURES) and r.n_parameters == len(FEATURES) + 1 + len(r.page_below)
    else:
        assert r.booster.num_feature() == len(FEATURES)


def test_weights_round_trip_and_refuse_other_features() -> None:
    n = len(FEATURES)
    r = LinearRanker(FEATURES, np.zeros(n), np.ones(n), np.linspace(-0.1, 0.1, n), 0.5)
    again = LinearRanker.from_json(json.loads(json.dumps(r.to_json())))
    X = np.random.default_rng(0).normal(size=(4, n))
    assert np.allclose(r.score(X), again.score(X))
    assert ((r.score(X) > 0) & (r.score(X) < 1)).all()
    bad = r.to_json() | {"features": [*FEATURES[:-1], "something_else"]}
    with pytest.raises(InputError, match="do not match"):
        LinearRanker.from_json(bad)


def _separable_rows(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """100 queries x 12 candidates; the positive is the one with the largest `held` (plus noise
    features), interleaved so rows of a query are not adjacent."""
    rng = np.random.default_rng(seed)
    n, per = 100, 12
    X = rng.normal(size=(n * per, len(FEATURES)))
    groups = np.repeat(np.arange(n), per)
    held = FEATURES.index("held")
    y = np.zeros(n * per, dtype=np.int8)
    for q in range(n):
        rows = np.flatnonzero(groups == q)
        y[rows[np.argmax(X[rows, held])]] = 1
    order = rng.permutation(n * per)
    return X[order], y[order], groups[order].astype(str)


def test_trees_fit_order_candidates_and_round_trip() -> None:
    pytest.importorskip("sklearn")
    X, y, g = _separable_rows()
    r = TreeRanker.fit(X, y, g, meta={"note": "test"})
    Xt, yt, gt = _separable_rows(seed=1)  # queries the trees were not fit on
    z = r.logits(Xt)
    top = [np.flatnonzero(gt == q)[np.argmax(z[gt == q])] for q in np.unique(gt)]
    assert np.mean(yt[top]) >= 0.7  # the positive leads most unseen queries (chance: 1/12)
    p = r.score(Xt)
    assert ((p > 0) & (p < 1)).all() and p[yt == 1].mean() > p[yt == 0].mean()
    again = load_ranker(json.loads(json.dumps(r.with_page_below({3: 0.05}).to_json())))
    assert isinstance(again, TreeRanker) and again.page_threshold(3) == 0.05
    assert np.allclose(again.logits(Xt), z)
    assert r.logits(np.zeros((0, len(FEATURES)))).shape == (0,)


def test_bad_weights_files_are_one_line_errors() -> None:
    with pytest.raises(InputError, match="unknown kind"):
        load_ranker({"kind": "forest"})
    with pytest.raises(InputError, match="bad ranker weights"):
        load_ranker({"kind": "trees", "features": list(FEATURES)})
    broken = TreeRanker(FEATURES, "not a lightgbm model", 1.0, 0.0)
    with pytest.raises(InputError, match="bad ranker trees"):
        broken.logits(np.zeros((1, len(FEATURES))))


def test_candidate_features(lexical: HybridIndex) -> None:
    cands, X = lexical.features("RV-3032-C7 equivalent series resistance ESR")
    assert X.shape == (len(cands), len(FEATURES)) and np.isfinite(X).all()
    col = {f: i for i, f in enumerate(FEATURES)}
    table = lexical.table.chunk_ids.index("drv_p1_b01")
    row = X[list(cands).index(table)]
    assert row[col["named"]] == 1.0 and row[col["is_table"]] == 1.0
    assert row[col["row"]] > 0  # its ESR row holds the asked terms
    other = X[list(cands).index(lexical.table.chunk_ids.index("dfa_p1_b01"))]
    assert other[col["named"]] == 0.0 and other[col["other_named"]] == 1.0


def test_learned_search_and_filters(lexical: HybridIndex) -> None:
    opts = SearchOptions(fusion=FusionSettings(strategy=FusionStrategy.learned))
    hits = lexical.search("RV-3032-C7 ESR", top_k=3, options=opts)
    assert hits and all(0 < h.score < 1 for h in hits)
    assert hits[0].doc_id == "drv"
    only = lexical.search("ESR", top_k=5, options=opts, filters=None)
    assert only
    from layoutrag.records import SearchFilters

    f = SearchFilters(doc_id="dfa")
    assert {h.doc_id for h in lexical.search("ESR load capacitance", top_k=5, options=opts, filters=f)} == {
        "dfa"
    }


def test_options_are_immutable_and_leave_the_index_alone(lexical: HybridIndex) -> None:
    opts = SearchOptions.for_fusion("rrf", load_settings())
    with pytest.raises(AttributeError):
        opts.mode = "bm25"  # type: ignore[misc]
    before = [h.chunk_id for h in lexical.search("FA-128 load capacitance", top_k=3)]
    lexical.search("FA-128 load capacitance", top_k=3, options=opts)
    assert [h.chunk_id for h in lexical.search("FA-128 load capacitance", top_k=3)] == before
    assert SearchOptions.for_fusion("bm25", load_settings()).mode == "bm25"
    with pytest.raises(InputError, match="unknown fusion"):
        SearchOptions.for_fusion("borda", load_settings())


def test_page_hits_companions_and_one_chunk_a_hit() -> None:
    doc_index = np.array([0, 0, 0, 1])
    pages = np.array([1, 1, 2, 1])
    ranked = [(0, 1.0), (1, 0.95), (2, 0.9), (3, 0.5)]
    three = page_hits(ranked, 3, doc_index=doc_index, pages=pages, hits=HitSettings(page_members=3))
    assert [[i for i, _ in h] for h in three] == [[0, 1], [2], [3]]
    one = page_hits(ranked, 3, doc_index=doc_index, pages=pages, hits=HitSettings(page_members=1))
    assert [[i for i, _ in h] for h in one] == [[0], [1], [2]]
    assert best_row([0.0, 2.0, 2.0]) == 1 and best_row([0.0]) is None


def test_page_hits_fall_back_to_the_page_below_the_threshold() -> None:
    doc_index = np.array([0, 0, 0, 1, 1])
    pages = np.array([1, 1, 2, 1, 1])
    ranked = [(0, 0.9), (2, 0.4), (1, 0.35), (3, 0.3), (4, 0.1)]
    hits = page_hits(
        ranked, 3, doc_index=doc_index, pages=pages, hits=HitSettings(page_members=1), page_below=0.5
    )
    assert [isinstance(h, PageHit) for h in hits] == [False, True, True]
    assert [[i for i, _ in h] for h in hits] == [[0], [2], [1]]  # chunk 1's page: a page of its own
    # chunk 4 never leads a hit: its page (doc 1, page 1) is already shown by chunk 3's page hit
    more = page_hits(
        ranked, 5, doc_index=doc_index, pages=pages, hits=HitSettings(page_members=1), page_below=0.5
    )
    assert [[i for i, _ in h] for h in more] == [[0], [2], [1], [3]]
    grouped = page_hits(
        ranked, 5, doc_index=doc_index, pages=pages, hits=HitSettings(page_members=3), page_below=0.5
    )
    assert [[i for i, _ in h] for h in grouped] == [[0], [2], [1], [3, 4]]
    plain = page_hits(ranked, 5, doc_index=doc_index, pages=pages, hits=HitSettings(page_members=1))
    assert not any(isinstance(h, PageHit) for h in plain) and len(plain) == 5


def test_a_page_hit_is_the_whole_page_with_the_ranked_chunks_highlighted(lexical: HybridIndex) -> None:
    ranker = default_ranker().with_page_below({1: 1.0, 3: 1.0})  # every hit is its page
    opts = SearchOptions(fusion=FusionSettings(strategy=FusionStrategy.learned), ranker=ranker)
    hits = lexical.search("RV-3032-C7 ESR", top_k=3, options=opts)
    assert hits and all(h.unit == "page" and h.block_type == "page" for h in hits)
    top = hits[0]
    assert top.chunk_id == f"{top.doc_id}_p{top.page}_page"
    assert top.bboxes_pdf == [(0.0, 0.0, 600.0, 800.0)] and top.companions
    assert all(c.page == top.page and c.doc_id == top.doc_id for c in top.companions)
    assert len({(h.doc_id, h.page) for h in hits}) == len(hits)  # a page is shown once
    unit = lexical.page_unit(top.doc_id, top.page)  # what get_chunk / the fronts look it up by
    assert unit is not None and unit.chunk_id == top.chunk_id and unit.native_text
    # page units are memoized per index: what a caller gets is a copy, and changing it changes no later answer
    unit.native_text = "changed by a caller"
    unit.bboxes_pdf.clear()
    assert lexical.page_unit(top.doc_id, top.page).native_text != "changed by a caller"
    assert lexical.search("RV-3032-C7 ESR", top_k=3, options=opts)[0].bboxes_pdf == top.bboxes_pdf
    assert parse_page_unit_id(top.chunk_id) == (top.doc_id, top.page)
    assert parse_page_unit_id("drv_p1_b01") is None and lexical.page_unit(top.doc_id, 99) is None
    off = lexical.search("RV-3032-C7 ESR", top_k=3, options=replace(opts, units=False))
    assert all(h.unit == "unit" for h in off)
    again = load_ranker(json.loads(json.dumps(ranker.to_json())))
    assert type(again) is type(ranker)
    assert again.page_threshold(3) == 1.0 and again.page_threshold(2) is None


def test_folds_are_by_document_and_deterministic() -> None:
    assert doc_fold("a.pdf", {"a.pdf": 3}) == 3
    assert doc_fold("x.pdf") == doc_fold("x.pdf") and 0 <= doc_fold("x.pdf") < 5


def test_labels_need_95_percent_cover(lexical: HybridIndex) -> None:
    cands = np.array([lexical.table.chunk_ids.index(c) for c in ("drv_p1_b01", "drv_p1_b00", "dfa_p1_b01")])
    q = RegionQuery("q", "ESR", "en", "drv", 1, ((60.0, 110.0, 400.0, 190.0),))
    assert label_candidates(lexical, cands, q, "drv").tolist() == [1, 0, 0]


def test_fit_leaves_the_fold_out() -> None:
    pytest.importorskip("sklearn")
    rng = np.random.default_rng(0)
    n = len(FEATURES)
    X = rng.normal(size=(200, n))
    y = (X[:, 0] > 0.5).astype(np.int8)
    fold = np.repeat(np.arange(5), 40)
    qid = np.array([f"q{i // 10}" for i in range(200)], dtype=object)
    rows = Rows(X=X, y=y, qid=qid, fold=fold)
    r = fit_ranker(rows, exclude_fold=2)
    assert int(dict(r.meta)["rows"]) <= 160
    assert r.coef[0] == max(r.coef)  # the informative feature carries the weight


def test_fusion_choice_in_the_service_and_the_cli(served_data) -> None:  # noqa: ANN001
    from typer.testing import CliRunner

    from layoutrag.cli import app
    from layoutrag.service import LayoutRAG

    svc = LayoutRAG(served_data)
    for fusion in ("learned", "weighted", "rrf", "bm25", "dense"):
        assert svc.search("load capacitance", top_k=3, fusion=fusion), fusion
    with pytest.raises(InputError, match="unknown fusion"):
        svc.search("load capacitance", fusion="borda")
    r = CliRunner().invoke(
        app, ["search", "load capacitance", "--data", str(served_data), "--fusion", "learned", "--json"]
    )
    assert r.exit_code == 0, r.output
    assert 0 < json.loads(r.output)[0]["score"] < 1
    samples = served_data / "samples" / "queries.jsonl"
    r = CliRunner().invoke(
        app, ["eval", str(samples), "--data", str(served_data), "--fusion", "bm25", "--json"]
    )
    assert r.exit_code == 0, r.output
    assert "layoutrag (bm25)" in json.loads(r.output)["systems"]


def _synthetic_rows(*, seed: int, queries: int, signal: Any, margin: float) -> Rows:
    """20 noise candidates a query, 5 folds of equal size; the positive is the candidate with the
    largest `signal(X)`, its feature 0 raised by `margin`."""
    rng = np.random.default_rng(seed)
    n_rows = queries * 20
    X = rng.normal(size=(n_rows, len(FEATURES)))
    qid = np.array([f"q{i // 20}" for i in range(n_rows)], dtype=object)
    y = np.zeros(n_rows, dtype=np.int8)
    score = signal(X)
    for q in range(queries):
        r = np.arange(q * 20, q * 20 + 20)
        top = r[np.argmax(score[r])]
        y[top] = 1
        X[top, 0] += margin
    return Rows(X=X, y=y, qid=qid, fold=np.repeat(np.arange(5), n_rows // 5))


def test_lambdarank_trees_rank_by_the_informative_feature_and_give_probabilities() -> None:
    pytest.importorskip("lightgbm")
    from layoutrag.evaluation.crossval import fit_trees

    # one positive a query: the row with the largest feature 0, by a clear margin (without it, which
    # held-out query a tie-close pair flips depends on the noise draw)
    rows = _synthetic_rows(seed=1, queries=20, signal=lambda X: X[:, 0], margin=1.0)
    X, y = rows.X, rows.y
    trees = fit_trees(rows, exclude_fold=4).with_page_below({3: 0.05})
    held = np.arange(320, 400)
    p = trees.score(X[held])
    assert ((p > 0) & (p < 1)).all() and trees.page_threshold(3) == 0.05
    for q in range(16, 20):  # held-out queries: the positive is ranked first
        r = np.arange(q * 20, q * 20 + 20)
        assert y[r[np.argmax(trees.logits(X[r]))]] == 1


def test_chunk_id_questions_become_training_rows_by_document_fold(lexical: HybridIndex) -> None:
    from layoutrag.evaluation.crossval import chunk_gold_fold, chunk_gold_rows, with_rows
    from layoutrag.evaluation.harness import ChunkQuery

    gold = lexical.chunks[0]
    q = ChunkQuery(
        id="t1", query=gold.native_text[:60] or gold.chunk_id, lang="en", gold_chunks=(gold.chunk_id,)
    )
    extra = chunk_gold_rows(lexical, [q], "tkd")
    assert len(extra.y) > 1 and int(extra.y.sum()) == 1  # its gold chunk is among the candidates, once
    fold = chunk_gold_fold((gold.chunk_id,))
    assert set(extra.fold.tolist()) == {fold} and set(extra.qid.tolist()) == {"tkd/t1"}
    assert chunk_gold_fold((f"{gold.doc_id}_p9_b00", gold.chunk_id)) == fold  # by document, not chunk

    seen: list[int] = []

    def fit(rows: Rows, **kw: object) -> int:
        seen.append(len(rows.y))
        return len(rows.y)

    base = Rows(
        X=np.zeros((3, len(FEATURES))),
        y=np.array([1, 0, 0], dtype=np.int8),
        qid=np.array(["a/1"] * 3, dtype=object),
        fold=np.zeros(3, dtype=np.int64),
    )
    assert with_rows(fit, extra)(base, exclude_fold=2) == 3 + len(extra.y)
    assert with_rows(fit, None) is fit


def test_tree_settings_are_chosen_on_folds_their_fits_did_not_see() -> None:
    pytest.importorskip("lightgbm")
    from layoutrag.evaluation.crossval import choose_tree_settings, fit_trees
    from layoutrag.index.ranker import TREE_SETTINGS

    # the positive: the row with the largest feature 0 + feature 1
    rows = _synthetic_rows(seed=2, queries=25, signal=lambda X: X[:, 0] + X[:, 1], margin=0.5)
    stump = {"n_estimators": 1, "learning_rate": 0.05, "num_leaves": 2, "min_child_samples": 20}
    seen: list[tuple[tuple[int, ...], int]] = []

    def hits_at_1(rows: Rows, ranker: object, fold: int) -> float:  # held-out queries ranked right
        mask = rows.fold == fold
        seen.append((tuple(sorted(set(range(5)) - set(np.unique(fit_folds[-1])))), fold))
        z = ranker.logits(rows.X[mask])  # type: ignore[attr-defined]
        ys, qs = rows.y[mask], rows.qid[mask]
        return float(sum(ys[qs == q][np.argmax(z[qs == q])] for q in np.unique(qs)))

    fit_folds: list[np.ndarray] = []

    def fit(rows: Rows, **kw: object) -> object:
        excluded = set(kw.get("exclude", ()))  # type: ignore[call-overload]
        fit_folds.append(np.unique(rows.fold[~np.isin(rows.fold, sorted(excluded))]))
        return fit_trees(rows, **kw)  # type: ignore[arg-type]

    chosen = choose_tree_settings(rows, outside=(4,), fit=fit, grid=(stump, TREE_SETTINGS), gain=hits_at_1)
    assert chosen == TREE_SETTINGS  # a single stump ranks worse on held-out folds than 200 trees
    # every fit left out fold 4 and the fold it was scored on, and nothing else
    assert sorted(seen) == sorted([((j, 4), j) for j in range(4)] * 2)
    # a tie keeps the earlier settings
    assert choose_tree_settings(rows, outside=(4,), grid=(stump, TREE_SETTINGS), gain=lambda r, m, j: 1.0) == stump
