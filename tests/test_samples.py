"""The sample-datasheet generator: determinism, ground-truth geometry, queries that hold up against
the PDF text layer."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pymupdf
import pytest

from layoutrag.errors import InputError
from layoutrag.geometry import contains_frac
from layoutrag.records import LABELS
from layoutrag.samples.generator import generate_corpus
from layoutrag.samples.queries import alter_separators


def _read_jsonl(p: Path) -> list[dict]:
    return [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("samples")
    summary = generate_corpus(out, n=3, seed=7)
    assert "3 datasheets" in summary
    return out


def _words(pdf: Path) -> list[list]:
    with pymupdf.open(pdf) as d:
        return [
            [
                (round(w[0], 2), round(w[1], 2), round(w[2], 2), round(w[3], 2), w[4])
                for w in p.get_text("words")
            ]
            for p in d
        ]


def test_same_seed_same_corpus(corpus: Path, tmp_path: Path) -> None:
    generate_corpus(tmp_path, n=3, seed=7)
    for name in ("ground_truth.jsonl", "queries.jsonl", "documents.jsonl"):
        assert (tmp_path / name).read_bytes() == (corpus / name).read_bytes(), name
    pdfs = sorted(p.name for p in corpus.glob("*.pdf"))
    assert pdfs == sorted(p.name for p in tmp_path.glob("*.pdf"))
    for name in pdfs:
        assert _words(corpus / name) == _words(tmp_path / name), name


def test_other_seed_other_corpus(corpus: Path, tmp_path: Path) -> None:
    generate_corpus(tmp_path, n=3, seed=8)
    assert (tmp_path / "ground_truth.jsonl").read_bytes() != (corpus / "ground_truth.jsonl").read_bytes()


def test_bad_n_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        generate_corpus(tmp_path, n=0)


def test_ground_truth_boxes_lie_in_their_pages_and_hold_their_text(corpus: Path) -> None:
    gt = _read_jsonl(corpus / "ground_truth.jsonl")
    docs = {d["doc"]: d for d in _read_jsonl(corpus / "documents.jsonl")}
    assert len(docs) == 3
    assert set(e["doc"] for e in gt) == set(docs)
    labels = Counter(e["label"] for e in gt)
    assert set(labels) <= set(LABELS)
    for must in ("title", "section_header", "text", "list_item", "table", "picture", "caption", "footnote"):
        assert labels[must] > 0, must
    checked = 0
    for name in docs:
        with pymupdf.open(corpus / name) as pdf:
            scanned = set(docs[name]["scanned_pages"])
            for e in (e for e in gt if e["doc"] == name):
                page = pdf[e["page"] - 1]
                x0, y0, x1, y1 = e["bbox"]
                assert 0 <= x0 < x1 <= page.rect.width and 0 <= y0 < y1 <= page.rect.height, e
                if e["page"] in scanned or e["label"] in ("picture", "table") or not e["text"]:
                    continue
                # the first word of the element's text is printed inside its box
                first = e["text"].split()[0]
                inside = page.get_text("words", clip=pymupdf.Rect(x0 - 1, y0 - 1, x1 + 1, y1 + 1))
                assert any(w[4] == first for w in inside), (e["label"], e["text"][:40])
                checked += 1
    assert checked > 50


def test_every_document_has_the_datasheet_furniture(corpus: Path) -> None:
    gt = _read_jsonl(corpus / "ground_truth.jsonl")
    docs = _read_jsonl(corpus / "documents.jsonl")
    for d in docs:
        roles = {(e["role"], e["page"]) for e in gt if e["doc"] == d["doc"]}
        # a table continued on the next page, the ordering table, the drawings, the reflow chart
        assert ("spec_table", 1) in roles and ("spec_table_continued", 2) in roles
        for role in ("ordering", "pins", "package_outline", "land_pattern", "reflow_chart", "product_view"):
            assert any(r == role for r, _ in roles), role
        with pymupdf.open(corpus / d["doc"]) as pdf:
            text = "".join(p.get_text() for p in pdf)
            for code in d["part_numbers"]:
                assert code in text
            for p in d["scanned_pages"]:  # image-only: no text layer, one image
                assert pdf[p - 1].get_text().strip() == ""
                assert len(pdf[p - 1].get_images()) == 1
    assert any(d["scanned_pages"] for d in docs)  # document 1 of every corpus has a scanned page


def test_queries_point_at_their_answers(corpus: Path) -> None:
    qs = _read_jsonl(corpus / "queries.jsonl")
    per_doc = Counter(q["doc"] for q in qs)
    assert all(5 <= n <= 10 for n in per_doc.values()), per_doc
    assert {q["lang"] for q in qs} == {"en", "zh"}
    assert {"table", "figure", "text", "part_number"} <= {q["kind"] for q in qs}
    assert len({q["id"] for q in qs}) == len(qs)
    for q in qs:
        assert set(q) >= {"id", "query", "lang", "doc", "page", "regions", "kind", "answer"}
        with pymupdf.open(corpus / q["doc"]) as pdf:
            page = pdf[q["page"] - 1]
            for region in q["regions"]:
                assert 0 <= region[0] < region[2] <= page.rect.width
                assert 0 <= region[1] < region[3] <= page.rect.height
            found = [tuple(r) for r in page.search_for(q["answer"])]
            inside = [b for b in found if any(contains_frac(b, reg) >= 0.5 for reg in q["regions"])]
            assert inside, (q["id"], q["answer"])
            if q.get("answer_bbox"):  # the ink box of one printed occurrence
                assert any(contains_frac(q["answer_bbox"], b) > 0.9 for b in inside), q["id"]


def test_part_number_queries_alter_the_separators(corpus: Path) -> None:
    qs = [q for q in _read_jsonl(corpus / "queries.jsonl") if q["kind"] == "part_number"]
    assert qs
    for q in qs:
        assert q["answer"] not in q["query"]  # never typed as printed
        norm = re.sub(r"[^0-9a-z]", "", q["answer"].lower())
        assert norm in re.sub(r"[^0-9a-z]", "", q["query"].lower())


def test_alter_separators_keeps_the_characters() -> None:
    import random

    rng = random.Random(1)
    for code in ("7M-26.000MAAJ-T", "SiT5358AI-FQ033IT-19.200000", "X322526MLB4SI"):
        for _ in range(5):
            alt = alter_separators(code, rng)
            assert alt != code
            assert re.sub(r"[^0-9a-z.]", "", alt.lower()).replace(".", "") == re.sub(
                r"[^0-9a-z]", "", code.lower()
            )


def test_samples_cli(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app

    r = CliRunner().invoke(app, ["samples", "--out", str(tmp_path), "--n", "1", "--seed", "2"])
    assert r.exit_code == 0, r.output
    assert len(list(tmp_path.glob("*.pdf"))) == 1
    assert (tmp_path / "queries.jsonl").exists()


def test_samples_cli_out_is_a_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app

    out = tmp_path / "notes.txt"
    out.write_text("keep me")
    r = CliRunner().invoke(app, ["samples", "--out", str(out), "--n", "1"])
    assert isinstance(r.exception, SystemExit) and r.exit_code == 2
    assert r.output.strip() == f"error: output folder {out} is not a directory"
    assert out.read_text() == "keep me"
