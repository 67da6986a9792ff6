"""generate → ingest → index → search → eval on a small generated corpus (the session's `served_data`),
with metric values derived by hand from the search results, plus invariants every system must satisfy."""

from __future__ import annotations

import json
import shutil
import statistics
from pathlib import Path

import pytest

from layoutrag.evaluation.harness import evaluate, load_queries, locate_answers
from layoutrag.evaluation.metrics import union_area
from layoutrag.geometry import area, intersection


@pytest.fixture(scope="module")
def corpus(served_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The session's served corpus (tests/conftest.py), copied: evaluating writes embeddings of the
    baselines' texts into the data dir's cache, and the shared data dir stays read-only."""
    data = tmp_path_factory.mktemp("eval-data")
    shutil.copytree(served_data, data, dirs_exist_ok=True)
    return data / "samples", data


def _docs(pdfs: Path) -> list[dict]:
    return [json.loads(x) for x in (pdfs / "documents.jsonl").read_text().splitlines()]


def _leak(chunk, region) -> float:  # noqa: ANN001 - by hand: member boxes must not overlap
    boxes = [(r.page, r.bbox_pdf) for r in chunk.hit_regions()]  # with its companions
    for i, (p, a) in enumerate(boxes):
        for q, b in boxes[i + 1 :]:
            assert p != q or intersection(a, b) == 0, "members overlap; pick another chunk"
    return sum(area(b) for _, b in boxes) / area(region)


def test_cli_metrics_match_values_derived_by_hand(
    corpus: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app
    from layoutrag.index.store import load_index

    pdfs, data = corpus
    docs = _docs(pdfs)
    # one chunk a hit (no companions, and no page units: their threshold is 0 there), so some page
    # of the second document stays untouched by the top 15 (case C) in both this search and `eval`
    monkeypatch.setenv("LAYOUTRAG_HIT_PAGE_MEMBERS", "1")
    idx = load_index(data)
    name_of = {c.doc_id: c.file_name for c in idx.cards.values()}
    query = docs[0]["part_numbers"][-1]  # an exact ordering code
    hits = idx.search(query, top_k=15)
    assert len(hits) == 15 and all(h.unit == "unit" for h in hits)
    top = hits[0]
    # A: gold = the first member box of the top hit -> rank 1
    region_a = top.bboxes_pdf[0]
    # B: gold = the first member box of the first hit whose page no earlier hit touches -> that rank
    seen: set[tuple[str, int]] = set()
    r_b = None
    for i, h in enumerate(hits):
        pages = {(h.doc_id, r.page) for r in h.all_regions()}
        if i > 0 and (h.doc_id, h.page) not in seen:
            r_b = i + 1
            break
        seen |= pages
    assert r_b is not None
    hb = hits[r_b - 1]
    region_b = hb.bboxes_pdf[0]
    # C: a page of the corpus no hit touches -> a miss everywhere
    touched = {(h.doc_id, r.page) for h in hits for r in h.all_regions()}
    other = docs[1]["doc"]
    other_id = next(d for d, n in name_of.items() if n == other)
    page_c = next(p for p in range(1, docs[1]["pages"] + 1) if (other_id, p) not in touched)
    doc_rank_c = next((i + 1 for i, h in enumerate(hits) if h.doc_id == other_id), None)
    qs = [
        {
            "id": "A",
            "query": query,
            "lang": "en",
            "doc": name_of[top.doc_id],
            "page": top.page,
            "regions": [list(region_a)],
            "kind": "table",
            "answer": "",
        },
        {
            "id": "B",
            "query": query,
            "lang": "zh",
            "doc": name_of[hb.doc_id],
            "page": hb.page,
            "regions": [list(region_b)],
            "kind": "table",
            "answer": "",
        },
        {
            "id": "C",
            "query": query,
            "lang": "en",
            "doc": other,
            "page": page_c,
            "regions": [[0, 0, 10, 10]],
            "kind": "figure",
            "answer": "",
        },
    ]
    qfile = tmp_path / "q.jsonl"
    qfile.write_text("\n".join(json.dumps(q) for q in qs) + "\n")
    r = CliRunner().invoke(app, ["eval", str(qfile), "--data", str(data), "--json"])
    assert r.exit_code == 0, r.output
    m = json.loads(r.output)["systems"]["layoutrag (fused)"]
    assert m["region"]["hit@1"] == pytest.approx(1 / 3)
    assert m["region"]["hit@15"] == pytest.approx(2 / 3)
    assert m["region"]["hit@5"] == pytest.approx((1 + (r_b <= 5)) / 3)
    assert m["region"]["mrr@15"] == pytest.approx((1 + 1 / r_b) / 3)
    leaks = [_leak(top, region_a), _leak(hb, region_b)]
    assert m["region"]["leakage_median"] == pytest.approx(statistics.median(leaks), rel=1e-6)
    assert m["region"]["doc_hit@15"] == pytest.approx((2 + (doc_rank_c is not None)) / 3)
    assert m["region"]["by_lang"]["zh"]["mrr@15"] == pytest.approx(1 / r_b)
    assert m["region"]["by_kind"]["figure"]["hit@15"] == 0.0


def _strict_json(text: str) -> object:
    def refuse(constant: str) -> None:
        raise AssertionError(f"not valid JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def test_non_finite_metrics_are_written_as_null(
    corpus: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Leakage is infinite for a zero-area gold region: `eval --json` and metrics.json stay valid JSON."""
    import math

    from typer.testing import CliRunner

    import layoutrag.evaluation.harness as harness
    from layoutrag.cli import app

    real = harness.region_metrics

    def non_finite(results):  # noqa: ANN001, ANN202
        m = real(results)
        m["leakage_median"], m["iou_mean"] = math.inf, math.nan
        for group in m["by_kind"].values():
            group["leakage_p90"] = -math.inf
        return m

    monkeypatch.setattr(harness, "region_metrics", non_finite)
    pdfs, data = corpus
    report = tmp_path / "rep"
    r = CliRunner().invoke(
        app, ["eval", str(pdfs / "queries.jsonl"), "--data", str(data), "--json", "--report", str(report)]
    )
    assert r.exit_code == 0, r.output
    printed = _strict_json(r.output)["systems"]["layoutrag (fused)"]["region"]
    written = _strict_json((report / "metrics.json").read_text())["systems"]["layoutrag (fused)"]["metrics"][
        "region"
    ]
    for m in (printed, written):
        assert m["leakage_median"] is None and m["iou_mean"] is None and 0 <= m["hit@15"] <= 1
        assert m["by_kind"] and all(g["leakage_p90"] is None for g in m["by_kind"].values())


def test_generated_queries_obey_the_invariants(corpus: tuple[Path, Path], tmp_path: Path) -> None:
    from layoutrag.config import load_settings
    from layoutrag.evaluation.report import write_report
    from layoutrag.evaluation.systems import EvalContext, compare_systems, main_systems
    from layoutrag.storage import DataDir

    pdfs, data = corpus
    qs = load_queries(pdfs / "queries.jsonl")
    ctx = EvalContext.open(DataDir(data), settings=load_settings(), pdfs=pdfs, console=None)
    assert len(ctx.doc_ids) == 2  # gold file names resolve to doc ids
    answers = locate_answers(qs, ctx.pdf_for_doc)
    assert len(answers) == len(qs)  # the generator gives every answer's box
    systems = main_systems(ctx) + [
        s
        for s in compare_systems(ctx, need_documents=True)
        if "dedup" not in s.name and "layout " not in s.name
    ]
    names = [s.name for s in systems]
    assert "whole page (fused)" in names and "fixed 512-token windows (fused)" in names
    results = []
    for s in systems:
        res = evaluate(qs, s.make(), doc_ids=ctx.doc_ids, answer_boxes=answers, name=s.name)
        results.append(res)
        m = res.metrics["region"]
        assert m["n"] == len(qs)
        for k in (1, 5, 10, 15):
            assert m[f"hit@{k}"] <= m[f"page_hit@{k}"] <= m[f"doc_hit@{k}"] <= 1.0, (s.name, k)
        assert m["hit@1"] <= m["hit@5"] <= m["hit@10"] <= m["hit@15"], s.name
        for q in res.region:
            if q.leakage is not None:
                assert q.leakage >= 0.95 - 1e-9 and 0 < q.iou <= 1, (s.name, q.id)
    page = next(r for r in results if r.name == "whole page (fused)")
    m = page.metrics["region"]
    for k in (1, 5, 10, 15):  # a whole page covers every region on it
        assert m[f"hit@{k}"] == m[f"page_hit@{k}"]
    for q, gold in zip(page.region, qs, strict=True):
        if q.leakage is not None:
            size = _page_size(pdfs / gold.doc, gold.page)
            assert q.leakage == pytest.approx(size[0] * size[1] / union_area(list(gold.regions)), rel=1e-6)
    layout = results[0].metrics["region"]
    assert layout["by_kind"]["part_number"]["doc_hit@5"] == 1.0  # altered separators still find the document
    report = write_report(tmp_path / "rep", results, meta={"queries": "queries.jsonl", "n_queries": len(qs)})
    assert "whole page (fused)" in report.read_text()


def _page_size(pdf: Path, page: int) -> tuple[float, float]:
    import pymupdf

    with pymupdf.open(pdf) as d:
        r = d[page - 1].rect
        return r.width, r.height
