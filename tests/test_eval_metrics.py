"""Evaluation metrics against hand-computed cases; query loading; baseline units; the report."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pymupdf
import pytest

from layoutrag.errors import InputError
from layoutrag.evaluation.baselines import page_chunks, window_chunks
from layoutrag.evaluation.harness import (
    ChunkQuery,
    RegionQuery,
    evaluate,
    load_queries,
    locate_answers,
)
from layoutrag.evaluation.metrics import (
    Hit,
    answer_rank,
    coverage,
    covers,
    first_rank,
    iou_on_page,
    leakage,
    mrr,
    ndcg,
    percentile,
    recall_at,
    region_metrics,
    score_chunk_query,
    score_region_query,
    union_area,
)
from layoutrag.records import Chunk, Document, Page, Region, Word

R = (0.0, 0.0, 100.0, 100.0)


def hit(*boxes, doc="d", page=1) -> Hit:  # noqa: ANN001, ANN002
    return Hit(doc_id=doc, boxes=tuple((page, b) for b in boxes))


# --------------------------------------------------------------------------- geometry
def test_covers_at_95_percent() -> None:
    assert covers(hit((0, 0, 100, 96)), "d", 1, [R])
    assert covers(hit((0, 0, 100, 95)), "d", 1, [R])
    assert not covers(hit((0, 0, 100, 94)), "d", 1, [R])
    # two halves cover together; overlap is not counted twice
    assert covers(hit((0, 0, 50, 100), (50, 0, 100, 100)), "d", 1, [R])
    assert not covers(hit((0, 0, 60, 100), (10, 0, 90, 100)), "d", 1, [R])  # 90 % only
    # wrong page or document never covers
    assert not covers(hit(R, page=2), "d", 1, [R])
    assert not covers(hit(R, doc="e"), "d", 1, [R])


def test_coverage_of_a_region_in_two_parts() -> None:
    parts = [(0, 0, 10, 10), (20, 0, 30, 20)]  # areas 100 and 200
    assert coverage(parts, [(0, 0, 10, 10)]) == pytest.approx(1 / 3)
    assert coverage(parts, [(0, 0, 30, 20)]) == pytest.approx(1.0)


def test_leakage_and_iou() -> None:
    assert leakage(hit((0, 0, 200, 100)), [R]) == pytest.approx(2.0)
    # overlapping member boxes count once: union of (0,0,100,100) and (50,0,150,100) = 15000
    assert leakage(hit((0, 0, 100, 100), (50, 0, 150, 100)), [R]) == pytest.approx(1.5)
    # a chunk over two pages: what the reader looks at on both pages
    two_pages = Hit("d", ((1, (0, 0, 100, 100)), (2, (0, 0, 100, 50))))
    assert leakage(two_pages, [R]) == pytest.approx(1.5)
    assert iou_on_page([(50, 0, 150, 100)], [R]) == pytest.approx(5000 / 15000)
    assert iou_on_page([R], [R]) == pytest.approx(1.0)
    assert union_area([(0, 0, 10, 10), (0, 0, 10, 10)]) == pytest.approx(100)


# --------------------------------------------------------------------------- ranks
def test_rank_mrr_ndcg() -> None:
    flags = [False, False, True, False, True]
    assert first_rank(flags) == 3
    assert first_rank([False]) is None
    assert mrr(3) == pytest.approx(1 / 3)
    assert mrr(16) == 0.0 and mrr(None) == 0.0
    dcg = 1 / math.log2(4) + 1 / math.log2(6)
    idcg = 1 + 1 / math.log2(3)
    assert ndcg(flags) == pytest.approx(dcg / idcg)
    assert ndcg([True]) == pytest.approx(1.0)
    assert ndcg([False] * 10 + [True]) == 0.0  # beyond depth 10


def test_answer_rank_needs_the_occurrence_inside_a_box() -> None:
    ans = [(10, 10, 20, 15)]
    hits = [hit((0, 0, 100, 9)), hit((0, 0, 100, 100), doc="x"), hit((5, 5, 25, 20))]
    assert answer_rank(hits, "d", 1, ans) == 3
    assert answer_rank(hits, "d", 1, []) is None


def test_recall_and_chunk_scoring() -> None:
    assert recall_at(["a", "b", "c"], ["c", "z"], 2) == 0.0
    assert recall_at(["a", "b", "c"], ["c", "z"], 3) == 0.5
    r = score_chunk_query(["x", "g1", "y", "g2"], ["g1", "g2", "g3"])
    assert r.rank == 2 and r.recall5 == pytest.approx(2 / 3) and r.gold_ranks == [2, 4] and r.n_gold == 3


def test_percentile() -> None:
    assert percentile([1, 2, 3, 4], 50) == pytest.approx(2.5)
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == pytest.approx(9.1)
    assert percentile([], 50) is None


def test_region_summary_by_hand() -> None:
    # four queries; the covering hit comes at rank 1, 3, never, 12
    results = []
    for qid, rank, kind, lang in (
        ("a", 1, "table", "en"),
        ("b", 3, "figure", "zh"),
        ("c", None, "table", "en"),
        ("d", 12, "text", "en"),
    ):
        hits = [hit((0, 0, 10, 10)) for _ in range(15)]  # on the page, covering nothing
        if rank is not None:
            hits[rank - 1] = hit((0, 0, 100, 200))  # covers, leakage 2
        results.append(
            score_region_query(hits, doc_id="d", page=1, regions=[R], qid=qid, kind=kind, lang=lang)
        )
    m = region_metrics(results)
    assert m["hit@1"] == 0.25 and m["hit@5"] == 0.5 and m["hit@10"] == 0.5 and m["hit@15"] == 0.75
    assert m["mrr@15"] == pytest.approx((1 + 1 / 3 + 0 + 1 / 12) / 4)
    assert m["page_hit@1"] == 1.0 and m["doc_hit@5"] == 1.0
    assert m["covered"] == 3 and m["leakage_median"] == pytest.approx(2.0)
    assert m["iou_median"] == pytest.approx(0.5)
    assert m["by_kind"]["table"]["n"] == 2 and m["by_kind"]["table"]["hit@1"] == 0.5
    assert m["by_lang"]["zh"]["hit@5"] == 1.0 and m["by_lang"]["en"]["hit@5"] == pytest.approx(1 / 3)
    assert m["answer_located"] == 0 and m["answer_hit@5"] is None


# --------------------------------------------------------------------------- harness
def _chunk(cid: str, doc: str, page: int, box) -> Chunk:  # noqa: ANN001
    return Chunk(
        chunk_id=cid, doc_id=doc, page=page, bboxes_pdf=[box], regions=[Region(page=page, bbox_pdf=box)]
    )


def test_evaluate_maps_file_names_and_scores_both_gold_kinds() -> None:
    ranked = [_chunk("c1", "id1", 2, (0, 0, 50, 50)), _chunk("c2", "id1", 1, (0, 0, 300, 300))]
    queries = [
        RegionQuery("q1", "anything", "en", "a.pdf", 1, ((10, 10, 110, 110),), "table", "", None),
        ChunkQuery("q2", "anything", "zh", ("c2", "c9")),
    ]
    res = evaluate(queries, lambda q, k: ranked, doc_ids={"a.pdf": "id1"}, file_names={"id1": "a.pdf"})
    (r,) = res.region
    assert r.rank == 2 and r.page_rank == 2 and r.doc_rank == 1
    assert r.leakage == pytest.approx(90000 / 10000)
    assert r.top[0]["doc"] == "a.pdf"
    (c,) = res.chunk
    assert c.rank == 2 and c.recall5 == 0.5
    assert res.metrics["region"]["mrr@15"] == 0.5 and res.metrics["chunk"]["recall@15"] == 0.5


def test_load_queries_reports_the_bad_line(tmp_path: Path) -> None:
    p = tmp_path / "q.jsonl"
    good = {"id": "q1", "query": "x", "lang": "en", "doc": "a.pdf", "page": 1, "regions": [[0, 0, 1, 1]]}
    p.write_text(json.dumps(good) + "\n" + "{not json\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 2"):
        load_queries(p)
    p.write_text(json.dumps({**good, "regions": [[5, 5, 1, 1]]}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="empty box"):
        load_queries(p)
    p.write_text('{"id": "q", "query": "x", "doc": "a.pdf", "page": 1, "regions": [[0, 0, NaN, 1]]}\n')
    with pytest.raises(InputError, match="finite"):
        load_queries(p)
    p.write_text(
        json.dumps(good) + "\n\n" + json.dumps({"id": "t", "question": "y", "gold_chunks": ["c"]}) + "\n"
    )
    qs = load_queries(p)
    assert isinstance(qs[0], RegionQuery) and isinstance(qs[1], ChunkQuery) and qs[1].gold_chunks == ("c",)


def test_locate_answers_in_the_region_only(tmp_path: Path) -> None:
    pdf = tmp_path / "a.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 50), "ESR 60 max", fontsize=10)
    page.insert_text((20, 200), "ESR 60 typ", fontsize=10)
    doc.save(pdf)
    q = RegionQuery("q", "esr", "en", "a.pdf", 1, ((0, 150, 300, 300),), "table", "60", None)
    boxes = locate_answers([q], lambda d: tmp_path / d)
    (b,) = boxes["q"]
    assert 150 < b[1] < 210  # the occurrence in the region, not the one above it
    q2 = RegionQuery("q2", "x", "en", "a.pdf", 1, ((0, 0, 10, 10),), "table", "", (1, 2, 3, 4))
    assert locate_answers([q2], lambda d: None) == {"q2": [(1, 2, 3, 4)]}


def _doc_with_words(n: int) -> Document:
    words = [
        Word(
            text=f"w{i}",
            bbox_pdf=(10 + (i % 20) * 20, 10 + (i // 20) * 10, 25 + (i % 20) * 20, 18 + (i // 20) * 10),
        )
        for i in range(n)
    ]
    page = Page(page=1, width_pt=600, height_pt=800, words=words)
    return Document(
        doc_id="d1",
        source_pdf="a.pdf",
        file_name="a.pdf",
        sha256="0",
        n_pages=1,
        layout_backend="pymupdf",
        dpi=200,
        stage_version="1",
        pages=[page],
    )


def test_window_chunks_512_with_10_percent_overlap() -> None:
    chunks = window_chunks(_doc_with_words(1000))
    # stride 512 - 51 = 461: windows start at words 0, 461, 922
    assert [c.native_text.split()[0] for c in chunks] == ["w0", "w461", "w922"]
    assert [len(c.native_text.split()) for c in chunks] == [512, 512, 78]
    # the box is the union of the window's words: words 0..511 span rows 0..25
    assert chunks[0].bboxes_pdf[0] == (10, 10, 405, 18 + 25 * 10)
    assert chunks[0].chunk_id == "d1_p1_w00" and chunks[0].regions[0].page == 1


def test_page_chunks_box_is_the_page() -> None:
    (c,) = page_chunks(_doc_with_words(3))
    assert c.bboxes_pdf == [(0.0, 0.0, 600.0, 800.0)] and c.native_text == "w0 w1 w2"


def test_report_has_the_systems_table_first(tmp_path: Path) -> None:
    from layoutrag.evaluation.report import write_report

    ranked = [_chunk("c1", "id1", 1, (0, 0, 200, 200))]
    queries = [
        RegionQuery("q1", "a query", "en", "a.pdf", 1, ((0, 0, 100, 100),), "table", "", None),
        RegionQuery("q2", "missed", "zh", "a.pdf", 3, ((0, 0, 100, 100),), "figure", "", None),
    ]
    a = evaluate(queries, lambda q, k: ranked, doc_ids={"a.pdf": "id1"}, name="sys A")
    b = evaluate(queries, lambda q, k: [], name="sys B")
    path = write_report(tmp_path, [a, b], meta={"queries": "q.jsonl", "n_queries": 2})
    text = path.read_text()
    first_table = text[text.index("|") :].split("\n\n")[0]
    assert "sys A" in first_table and "sys B" in first_table and "hit@5" in first_table
    assert "| sys A | 0.500 |" in first_table
    assert "missed" in text and "a.pdf p.3" in text  # the miss, with its expected page
    for png in ("recall_at_k.png", "leakage.png", "iou.png"):
        assert (tmp_path / png).stat().st_size > 1000
    assert (
        json.loads((tmp_path / "metrics.json").read_text())["systems"]["sys A"]["metrics"]["region"]["hit@1"]
        == 0.5
    )
