"""The static site (`layoutrag export-site`): the JavaScript lexical path equals the Python one.

- the tokenizer port reproduces the golden vectors (node, tests/js/tokenizer.test.mjs);
- over a query set, the browser's hits equal `HybridIndex.search(q, mode="bm25")`: chunk ids in
  order, companions, matched rows, scores to 1e-6 - in node (tests/js/search.test.mjs) and in
  Chromium on the exported site's file:// URL;
- chunk text is data: `<script>` and `<img onerror>` in a chunk render as text;
- no request leaves the site's folder; the index + chunk records fit the size budget.
Node tests skip when node is absent; browser tests when /usr/bin/chromium is.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from layoutrag import vocab
from layoutrag.index.base import is_scenario_question
from layoutrag.index.candidates import row_aka
from layoutrag.index.tokenizer import CJK_RE
from layoutrag.site.export import (
    STATIC,
    bundle_js,
    default_examples,
    export_site,
    parity_hits,
)
from test_api import sample_queries

REPO = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
BUDGET_PER_1000 = 1.5e6
NOT_IN_SITE = "Dense retrieval and fusion are not in the static site"

EXTRA_QUERIES = [
    "7M-26.000MAAJ-T ESR",
    "load capacitance",
    "负载电容是多少",
    "频率稳定度",
    "operating temperature range -40 to +85 °C",
    "32.768 kHz crystal",
    "aging ppm per year",
    "推荐焊盘尺寸",
    "drive level",
    "frequency tolerance ±20ppm",
    "ESR",
    "what is the the of",  # only stop words: no hits
    "!!!",
]

# scenario questions (index/base.is_scenario_question: >= 20 words or CJK characters) are scored with
# `bm25_b_long`; the sample corpus is English, so the Chinese ones hit through the glossary
SCENARIO_QUERIES = [
    "We are designing a Bluetooth module for smartphones and wearables and need a crystal unit with low "
    "ESR, load capacitance of 8 pF and good frequency stability over the operating temperature range: "
    "which part would you recommend?",
    "Our industrial controller needs an oscillator: what are the phase jitter, supply voltage, current "
    "consumption and operating temperature range of the FA-678 series, and which part number fits?",
    "我们正在设计一款智能电表，需要一个晶体，请问8Q系列的负载电容和频率稳定度以及工作温度范围分别是多少？",
    "我们的工业控制器需要一个有源晶振，FA-678系列的相位抖动、电源电压和工作温度范围是多少？请推荐",
    # at the bar and one below it: 20 and 19 words (a part number is one word), 20 and 19 CJK characters
    "FA-678 load capacitance frequency stability operating temperature range storage temperature "
    "range drive level aging insulation resistance shunt capacitance equivalent series",
    "8Q-12.000MDGD-T load capacitance frequency stability operating temperature range storage temperature "
    "range drive level aging insulation resistance shunt capacitance equivalent",
    "负载电容频率稳定度工作温度范围电源电压吗",
    "负载电容频率稳定度工作温度范围电源电压",
]


def _index(data: Path):
    from layoutrag.service import LayoutRAG

    return LayoutRAG(data)._index


@pytest.fixture(scope="module")
def site(served_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    examples = default_examples(served_data, n=3)
    report = export_site(served_data, out, images="examples", examples=examples)
    assert report.n_chunks > 0 and (out / "index.html").exists()
    return out


@pytest.fixture(scope="module")
def parity_cases(served_data: Path, site: Path) -> list[dict]:
    index = _index(served_data)
    queries = [q["query"] for q in sample_queries(served_data)] + EXTRA_QUERIES
    # words of the corpus's own cards and chunk titles: part numbers with their separators
    for c in list(index.chunks)[:8]:
        if c.section_title:
            queries.append(c.section_title)
    for card in index.cards.values():
        queries += [f"{p} frequency stability" for p in card.part_numbers[:2]]
    queries += SCENARIO_QUERIES
    # a table continued over a page break (every generated document has one): its part number and
    # the first row on its last page, so the hit is the part on that page (index/base.focus_page)
    for c in index.chunks:
        pages = sorted({r.page for r in c.all_regions()})
        if c.rows and len(pages) > 1:
            row = next(r for r in c.rows if r.page == pages[-1] and not r.is_header)
            queries.append(f"{index.cards[c.doc_id].part_numbers[0]} {row.cells[0]}")
    # a row found by another name of its parameter (candidates.row_aka): the Chinese name of a row's
    # canonical parameter, the row printed in English
    aka_queries: list[str] = []
    for c in index.chunks:
        for r in c.rows:
            zh = [n for n in row_aka(r).split(" | ") if CJK_RE.search(n)]
            if zh and len(aka_queries) < 6:
                aka_queries.append(f"{index.cards[c.doc_id].part_numbers[0]} {zh[0]}")
    queries += aka_queries
    # spec parameter names (base.lexical_query's parameter expansion), also beside Chinese text
    queries += ["operating current", "FA-678 current consumption", "8Q ESR是多少", "8Q 的 ESR 是多少", "负载电容 8Q"]
    cases = []
    for q in queries:
        for k in (5, 15):
            cases.append({"query": q, "top_k": k, "hits": parity_hits(index, q, top_k=k)})
    # the parameter expansion changes some of these hits (else the cases would not test its port)
    from layoutrag.index import base as index_base

    index_base.PARAMETER_EXPANSION = False
    try:
        assert any(parity_hits(index, c["query"], top_k=c["top_k"]) != c["hits"] for c in cases)
    finally:
        index_base.PARAMETER_EXPANSION = True
    by_id = {c.chunk_id: c for c in index.chunks}
    assert any(
        h["matched_row"] is not None
        and q.split(" ", 1)[1] in row_aka(by_id[h["chunk_id"]].rows[h["matched_row"]])
        and q.split(" ", 1)[1] not in by_id[h["chunk_id"]].rows[h["matched_row"]].text
        for q in aka_queries
        for c in cases
        if c["query"] == q
        for h in c["hits"]
    ), "a row matched by its parameter's other name"
    assert sum(1 for c in cases if c["hits"]) > 20
    assert any(h["companions"] for c in cases for h in c["hits"]), "the set must exercise companions"
    assert any(h["matched_row"] is not None for c in cases for h in c["hits"]), "... and matched rows"
    scenario = [c for c in cases if c["query"] in SCENARIO_QUERIES]
    assert sum(map(is_scenario_question, SCENARIO_QUERIES)) == len(SCENARIO_QUERIES) - 2
    assert all(c["hits"] for c in scenario), "every scenario question hits"
    # ... and b_long scores them otherwise than bm25_b would (else the cases test nothing)
    long = [c for c in scenario if is_scenario_question(c["query"])]
    assert all(c["hits"][0]["score"] != _bm25_b_top(index, c["query"]) for c in long)
    # the focus page: a unit spanning pages returned at its asked row's page, its other part a companion
    split = [
        h for c in cases for h in c["hits"] if any(x["chunk_id"] == h["chunk_id"] for x in h["companions"])
    ]
    assert any(h["page"] > min(x["page"] for x in h["companions"]) for h in split), (
        "a hit on a table's 2nd page"
    )
    return cases


def _bm25_b_top(index, query: str) -> float:  # noqa: ANN001 - a HybridIndex
    """The top BM25 score a scenario question would get with `bm25_b` (the site's score before b_long)."""
    from layoutrag.index.query import normalize_query

    lex = index.lexical_query(normalize_query(query, max_chars=index.settings.search.max_query_chars))
    return float(index.bm25.scores(lex)[1].max())


@pytest.fixture(scope="module")
def parity_file(
    parity_cases: list[dict], served_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    p = tmp_path_factory.mktemp("parity") / "parity.json"
    p.write_text(json.dumps(parity_cases, ensure_ascii=False), encoding="utf-8")
    # each document's card tokens, which the focus page leaves out of a row's match
    index = _index(served_data)
    cards = {d: sorted(index.card_terms(d)) for d in index.table.doc_ids}
    (p.parent / "card_terms.json").write_text(json.dumps(cards, ensure_ascii=False), encoding="utf-8")
    return p


# ------------------------------------------------------------------ static checks (no node, no browser)
def test_js_units_are_the_frozen_units() -> None:
    src = (STATIC / "tokenizer.js").read_text(encoding="utf-8")
    block = re.search(r"export const UNITS = \[(.*?)\];", src, re.S)
    assert block is not None
    assert re.findall(r'"([^"]+)"', block.group(1)) == list(vocab.units())


def test_js_whitespace_class_is_pythons() -> None:
    src = (STATIC / "tokenizer.js").read_text(encoding="utf-8")
    m = re.search(r'export const PY_WS = "(.*?)";', src)
    assert m is not None
    cls = re.compile(m.group(1).replace("\\\\", "\\"))
    py = re.compile(r"\s")
    assert all(bool(cls.fullmatch(chr(c))) == bool(py.fullmatch(chr(c))) for c in range(0x110000))


def test_bundle_has_no_module_syntax_left() -> None:
    js = bundle_js()
    assert not re.search(r"^\s*(import|export)\b", js, re.M)
    assert "__modules.search = " in js and "__modules.app = " in js


def test_size_budget_and_parts(site: Path, served_data: Path) -> None:
    data = (site / "data" / "site-data.js").read_text(encoding="utf-8")
    obj = json.loads(data[len("window.LAYOUTRAG_SITE=") :].rstrip().rstrip(";"))
    n = len(list(_index(served_data).chunks))
    parts = sum(len(obj[k]) for k in ("index", "vocab", "chunks"))
    assert parts / n * 1000 <= BUDGET_PER_1000, f"{parts / n * 1000 / 1e6:.2f} MB per 1,000 chunks"
    assert obj["meta"]["images"], "the example queries' hits carry evidence images"
    assert list((site / "pages").rglob("*.webp")), "page images"


# ------------------------------------------------------------------ node
@pytest.mark.skipif(NODE is None, reason="node is absent")
def test_node_tokenizer_and_search_parity(site: Path, parity_file: Path) -> None:
    env = {
        "PATH": str(Path(NODE).parent),
        "LAYOUTRAG_SITE_DIR": str(site),
        "LAYOUTRAG_PARITY": str(parity_file),
    }
    files = sorted(str(p) for p in (REPO / "tests" / "js").glob("*.test.mjs"))
    r = subprocess.run(
        [NODE, "--test", *files], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "# skipped 0" in r.stdout and "# fail 0" in r.stdout


# ------------------------------------------------------------------ browser
@pytest.fixture(scope="module")
def browser() -> Iterator:
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is absent")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield b
        b.close()


def open_site(browser, site: Path, hash_: str = ""):  # noqa: ANN201 - a Playwright page
    """The site's file:// page, ready; records every request and page error on the page object."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.requests, page.errors = [], []  # type: ignore[attr-defined]
    page.on("request", lambda r: page.requests.append(r.url))  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)  # type: ignore[attr-defined]
    page.goto((site / "index.html").as_uri() + hash_)
    page.wait_for_function("() => window.layoutrag && window.layoutrag.ready")
    page.evaluate("() => window.layoutrag.ready")
    return page


def _requests_stay_inside(page, site: Path) -> None:
    root = site.resolve().as_uri() + "/"
    outside = [u for u in page.requests if not (u.startswith(root) or u.startswith("data:"))]
    assert not outside, outside


@pytest.mark.browser
def test_browser_parity_from_file_url(browser, site: Path, parity_cases: list[dict]) -> None:
    page = open_site(browser, site)
    got = page.evaluate(
        "cases => cases.map(c => window.layoutrag.search(c.query, c.top_k))",
        [{"query": c["query"], "top_k": c["top_k"]} for c in parity_cases],
    )
    for case, hits in zip(parity_cases, got, strict=True):
        want = case["hits"]
        assert [h["chunk_id"] for h in hits] == [h["chunk_id"] for h in want], case["query"]
        for g, w in zip(hits, want, strict=True):
            assert abs(g["score"] - w["score"]) <= 1e-6
            assert (g["bm25_rank"], g["matched_row"], g["page"]) == (
                w["bm25_rank"],
                w["matched_row"],
                w["page"],
            ), case["query"]
            assert [c["chunk_id"] for c in g["companions"]] == [c["chunk_id"] for c in w["companions"]]
            for gc, wc in zip(g["companions"], w["companions"], strict=True):
                assert abs(gc["score"] - wc["score"]) <= 1e-6, case["query"]
                assert (gc["matched_row"], gc["page"]) == (wc["matched_row"], wc["page"]), case["query"]
    assert not page.errors, page.errors
    _requests_stay_inside(page, site)
    page.close()


@pytest.mark.browser
def test_browser_ui_hits_viewer_and_tree(
    browser, site: Path, parity_cases: list[dict], tmp_path: Path
) -> None:
    case = next(c for c in parity_cases if c["top_k"] == 15 and any(h["companions"] for h in c["hits"]))
    page = open_site(browser, site)
    page.fill("#q", case["query"])
    page.press("#q", "Enter")
    page.wait_for_selector(".card.hit")
    ids = page.eval_on_selector_all(".card.hit", "els => els.map(e => e.dataset.chunkId)")
    assert ids == [h["chunk_id"] for h in case["hits"]]
    comp = page.eval_on_selector_all(".companion", "els => els.map(e => e.getAttribute('data-chunk-id'))")
    assert comp == [c["chunk_id"] for h in case["hits"] for c in h["companions"]]
    assert NOT_IN_SITE in page.inner_text("#mode-note")
    page.screenshot(path=str(tmp_path / "search.png"))
    page.locator(".card.hit").first.click()
    page.wait_for_selector("rect.hit")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.page-frame img')].every(i => i.complete && i.naturalWidth > 0)"
    )
    lead = case["hits"][0]["chunk_id"]
    assert (
        page.eval_on_selector_all("rect.hit:not(.companion)", "els => els.map(e => e.dataset.chunkId)")[0]
        == lead
    )
    assert page.locator(f'.details[data-chunk-id="{lead}"]').count() == 1
    assert page.locator(f'.tree a[data-chunk-id="{lead}"]').count() == 1
    page.goto((site / "index.html").as_uri() + "#/docs")
    page.wait_for_selector(".doccard")
    assert not page.errors, page.errors
    _requests_stay_inside(page, site)
    page.close()


@pytest.mark.browser
def test_browser_ui_a_table_split_at_its_focus_page(browser, site: Path, parity_cases: list[dict]) -> None:
    case, hit = next(
        (c, h)
        for c in parity_cases
        for h in c["hits"]
        if any(x["chunk_id"] == h["chunk_id"] and x["page"] < h["page"] for x in h["companions"])
    )
    page = open_site(browser, site)
    page.fill("#q", case["query"])
    page.press("#q", "Enter")
    card = page.locator(f'.card.hit[data-chunk-id="{hit["chunk_id"]}"]').first
    card.wait_for()
    assert f"page {hit['page']}" in card.inner_text()
    assert "its part on page" in card.locator(".companion").first.inner_text()
    params = parse_qs((card.get_attribute("data-href") or "").partition("?")[2])
    assert params["page"] == [str(hit["page"])]
    assert hit["chunk_id"] not in ",".join(params.get("also", [])).split(
        ","
    )  # the hit is not its own companion
    card.click()
    page.wait_for_selector("rect.hit")
    assert page.locator(".page-frame").get_attribute("data-page") == str(hit["page"])
    assert page.locator("rect.row").count() == 1  # the matched row is on this page
    assert not page.errors, page.errors
    page.close()


XSS = [
    "<script>window.__xss = 1</script> xsstoken crystal",
    '<img src=x onerror="window.__xss = 2"> xsstoken oscillator',
]


@pytest.fixture(scope="module")
def xss_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from layoutrag.service import LayoutRAG

    root = tmp_path_factory.mktemp("xss-data")
    lines = []
    for n, text in enumerate(XSS):
        lines.append(
            json.dumps(
                {
                    "chunk_id": f"evil_p{n + 1}_b00",  # one page each: two hits, not a hit and a companion
                    "doc_id": "evil",
                    "page": n + 1,
                    "bboxes_pdf": [[40, 40 + 100 * n, 300, 120 + 100 * n]],
                    "page_size_pt": [612, 792],
                    "block_type": "text",
                    "section_title": text,
                    "toc_path": f"evil > {text}",
                    "native_text": text,
                    "rows": [
                        {"page": n + 1, "bbox_pdf": [40, 40, 300, 60], "cells": [text, "x"], "text": text}
                    ],
                }
            )
        )
    f = root / "evil.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    LayoutRAG(root).import_chunks(f)
    out = root / "site"
    export_site(root, out, images="examples", examples=["xsstoken"])
    return out


@pytest.mark.browser
def test_browser_chunk_text_is_data_not_markup(browser, xss_site: Path) -> None:
    page = open_site(browser, xss_site)
    n_scripts = page.evaluate("() => document.scripts.length")
    page.fill("#q", "xsstoken")
    page.press("#q", "Enter")
    page.wait_for_selector(".card.hit")
    assert page.locator(".card.hit").count() == 2
    text = page.inner_text("#results")
    assert "<script>window.__xss = 1</script>" in text and '<img src=x onerror="window.__xss = 2">' in text
    page.locator(".card.hit").first.click()
    page.wait_for_selector(".details")
    assert "<script>" in page.inner_text(".details")
    page.goto((xss_site / "index.html").as_uri() + "#/doc/0?page=2&chunk=evil_p2_b00&row=0")
    page.wait_for_selector(".details")
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__xss") is None
    assert page.evaluate("() => document.scripts.length") == n_scripts
    assert page.locator("main img[src='x']").count() == 0
    assert not page.errors, page.errors
    _requests_stay_inside(page, xss_site)
    page.close()


def test_cli_export_site_prints_each_part(served_data: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from layoutrag.cli import app

    ex = tmp_path / "examples.txt"
    ex.write_text("# examples\nload capacitance\n", encoding="utf-8")
    out = tmp_path / "site"
    r = CliRunner().invoke(
        app,
        [
            "export-site",
            "--data",
            str(served_data),
            "--out",
            str(out),
            "--images",
            "none",
            "--examples",
            str(ex),
        ],
    )
    assert r.exit_code == 0, r.output
    for part in ("data: index", "data: vocab", "data: chunks", "data/site-data.js", "site.js", "page images"):
        assert part in r.output
    assert "per 1,000 chunks" in r.output
    assert not (out / "pages").exists() and (out / "index.html").exists()
    assert '"examples":["load capacitance"]' in (out / "data" / "site-data.js").read_text(encoding="utf-8")
    bad = CliRunner().invoke(
        app, ["export-site", "--data", str(served_data), "--out", str(out), "--images", "some"]
    )
    assert bad.exit_code != 0 and "--images" in bad.output
