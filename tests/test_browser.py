"""A real browser (Playwright + Debian's headless Chromium) against a real uvicorn server on 127.0.0.1.

Searches, opens a result, and checks that the highlight box lies where the chunk's `bbox_pdf` says
(within 2 px, from the page size in points and the displayed image size). Saves screenshots under
the test's tmp dir. Skips when /usr/bin/chromium is absent; never downloads a browser.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from layoutrag.serve.answer import NOT_IN_EVIDENCE
from layoutrag.serve.api import create_app
from llm_stub import OpenAIStub
from serve_helpers import free_port
from test_api import sample_queries

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TOLERANCE_PX = 2.0

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is absent"),
]


@pytest.fixture(scope="module")
def server_url(served_data: Path) -> Iterator[str]:
    yield from _serve(create_app(served_data))


def _serve(app) -> Iterator[str]:  # noqa: ANN001 - a FastAPI app
    """Run `app` with uvicorn on a free loopback port until the generator is closed."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield b
        b.close()


def _rect(page, selector: str) -> dict:
    return page.eval_on_selector(
        selector,
        "el => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }",
    )


def test_search_open_result_and_highlight_lands_on_the_bbox(
    browser,
    server_url: str,
    served_data: Path,
    tmp_path: Path,
) -> None:
    # a hit that shows companions (tables' queries first, then the first such hit of a query):
    # more blocks of its page, or — when the learned ranker's unit choice returned the page — the
    # chunks highlighted on it
    def hits(q: str) -> list[dict]:
        return httpx.get(f"{server_url}/api/search", params={"q": q}).json()["hits"]

    def others(h: dict) -> list[dict]:  # companions that are other chunks (not a multi-page unit's rest)
        return [c for c in h["companions"] if c["chunk_id"] != h["chunk_id"]]

    query, rank = next(
        (q["query"], i)
        for q in sorted(sample_queries(served_data), key=lambda q: q["kind"] != "table")
        for i, h in enumerate(hits(q["query"])[:5])
        if others(h)
    )
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server_url + "/")
    page.wait_for_selector("#q")
    page.fill("#q", query)
    page.press("#q", "Enter")
    page.wait_for_selector(".card")
    cards = page.locator(".card")
    assert cards.count() > rank
    chunk_id = cards.nth(rank).get_attribute("data-chunk")
    page.screenshot(path=str(tmp_path / "search.png"))

    cards.nth(rank).click()
    page.wait_for_selector("rect.hit")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.page-frame img')].every(i => i.complete && i.naturalWidth > 0)"
    )

    chunk = httpx.get(f"{server_url}/api/chunks/{chunk_id}").json()
    detail = httpx.get(f"{server_url}/api/documents/{chunk['doc_id']}").json()
    info = httpx.get(f"{server_url}/api/info").json()
    width_pt, height_pt = next(
        (p["width_pt"], p["height_pt"]) for p in detail["pages"] if p["page"] == chunk["page"]
    )

    frame = f'.page-frame[data-page="{chunk["page"]}"]'
    img = _rect(page, f"{frame} img")
    natural = page.eval_on_selector(f"{frame} img", "i => [i.naturalWidth, i.naturalHeight]")
    # the page image is the page rendered at the ingest dpi: px = pt * dpi / 72
    assert abs(natural[0] - width_pt * info["dpi"] / 72) <= 1.0
    assert abs(natural[1] - height_pt * info["dpi"] / 72) <= 1.0

    sx, sy = img["w"] / width_pt, img["h"] / height_pt
    member_boxes = [r["bbox_pdf"] for r in chunk["regions"] if r["page"] == chunk["page"]] or chunk[
        "bboxes_pdf"
    ]
    hit = hits(query)[rank]
    assert hit["chunk_id"] == chunk_id
    # the hit's companions (more blocks of its page returned with it) are highlighted too
    companion_boxes = [
        r["bbox_pdf"] for c in others(hit) for r in c["regions"] if r["page"] == chunk["page"]
    ]
    assert companion_boxes, "this hit has a companion: the test must see it drawn"
    for selector, boxes in (
        ("rect.hit:not(.companion)", member_boxes),
        ("rect.hit.companion", companion_boxes),
    ):
        drawn = page.eval_on_selector_all(
            f"{frame} {selector}",
            "els => els.map(el => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })",
        )
        assert len(drawn) == len(boxes)
        # drawn in the page's reading order, not the hit's: each box must land on one drawn rect
        left = [(g["x"], g["y"], g["x"] + g["w"], g["y"] + g["h"]) for g in drawn]
        for x0, y0, x1, y1 in boxes:
            expected = (img["x"] + x0 * sx, img["y"] + y0 * sy, img["x"] + x1 * sx, img["y"] + y1 * sy)
            match = next(
                (a for a in left if all(abs(e - v) <= TOLERANCE_PX for e, v in zip(expected, a, strict=True))),
                None,
            )
            assert match is not None, (expected, left)
            left.remove(match)

    # the table row that holds the value, when the hit names one, is highlighted where its bbox says
    if hit["matched_row"] is not None:
        row = chunk["rows"][hit["matched_row"]]
        row_frame = f'.page-frame[data-page="{row["page"]}"]'
        assert page.get_attribute(f"{row_frame} rect.row", "data-row") == str(hit["matched_row"])
        assert page.locator("table.rows tr.matched").count() == 1
        row_img = _rect(page, f"{row_frame} img")
        row_w, row_h = next(
            (p["width_pt"], p["height_pt"]) for p in detail["pages"] if p["page"] == row["page"]
        )
        rx, ry = row_img["w"] / row_w, row_img["h"] / row_h
        got = _rect(page, f"{row_frame} rect.row")
        x0, y0, x1, y1 = row["bbox_pdf"]
        expected = (
            row_img["x"] + x0 * rx,
            row_img["y"] + y0 * ry,
            row_img["x"] + x1 * rx,
            row_img["y"] + y1 * ry,
        )
        actual = (got["x"], got["y"], got["x"] + got["w"], got["y"] + got["h"])
        for e, a in zip(expected, actual, strict=True):
            assert abs(e - a) <= TOLERANCE_PX, (expected, actual)

    page.screenshot(path=str(tmp_path / "viewer.png"), full_page=True)
    assert (tmp_path / "viewer.png").stat().st_size > 10_000
    assert errors == []
    page.close()


def test_a_table_continued_over_a_page_break_opens_at_the_page_of_its_row(browser, server_url: str, served_data: Path) -> None:
    # the generated datasheets continue a table over a page break: some sample query's hit is its
    # part on the page of the matched row, the rest of the table a companion with the same chunk id
    found = None
    for q in sample_queries(served_data):
        for i, h in enumerate(httpx.get(f"{server_url}/api/search", params={"q": q["query"]}).json()["hits"][:5]):
            rest = [c for c in h["companions"] if c["chunk_id"] == h["chunk_id"]]
            if rest:
                found = (q["query"], i, h, rest[0])
                break
        if found:
            break
    assert found, "the sample corpus has tables continued over a page break"
    query, rank, hit, rest = found
    assert {r["page"] for r in hit["regions"]} == {hit["page"]}
    assert hit["page"] not in {r["page"] for r in rest["regions"]}
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(server_url + "/")
    page.wait_for_selector("#q")
    page.fill("#q", query)
    page.press("#q", "Enter")
    page.wait_for_selector(".card")
    card = page.locator(".card").nth(rank)
    assert card.get_attribute("data-chunk") == hit["chunk_id"]
    rest_pages = sorted({r["page"] for r in rest["regions"]})
    assert card.locator(".companion.rest").inner_text().endswith(f"on page {', '.join(map(str, rest_pages))}")
    assert f"page {hit['page']}" in card.locator(".head .muted").inner_text()
    card.click()
    page.wait_for_selector("rect.hit")
    # the viewer opens at the page of the matched row, the whole table highlighted as the hit
    assert f"page={hit['page']}" in page.url
    for p_no in sorted({hit["page"], *rest_pages}):
        assert page.locator(f'.page-frame[data-page="{p_no}"] rect.hit:not(.companion)').count() >= 1
    if hit["matched_row"] is not None:
        row = hit["rows"][hit["matched_row"]]
        assert row["page"] == hit["page"]
        assert page.get_attribute(f'.page-frame[data-page="{row["page"]}"] rect.row', "data-row") == str(hit["matched_row"])
    page.close()


def test_document_tree_chunk_browser_and_answers_off(browser, server_url: str, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server_url + "/#/docs")
    page.wait_for_selector(".doccard")
    page.locator(".doccard .name a").first.click()
    page.wait_for_selector(".tree")
    page.wait_for_selector(".page-frame rect.other")
    n_boxes = page.locator(".page-frame rect.other").count()
    assert n_boxes >= 1
    page.click("#next")
    page.wait_for_selector('.page-frame[data-page="2"]')

    doc_href = page.locator(".tree a.cur").first.get_attribute("href")
    doc_id = doc_href.split("/")[2].split("?")[0]
    page.goto(f"{server_url}/#/chunks/{doc_id}?type=table")
    page.wait_for_selector("table.grid")
    types = page.eval_on_selector_all("table.grid tbody .badge", "els => els.map(e => e.textContent)")
    assert types and set(types) == {"table"}

    page.goto(server_url + "/#/answer?q=" + "工作温度范围")
    page.wait_for_selector("#off")
    page.wait_for_selector(".card")
    assert "Answers are off" in page.inner_text("#off")
    page.screenshot(path=str(tmp_path / "answer-off.png"))
    assert errors == []
    page.close()


def test_answer_page_links_citations_to_the_page_viewer(browser, served_data: Path) -> None:
    def chat(messages: list[dict]) -> str:
        return (
            NOT_IN_EVIDENCE if "price" in messages[-1]["content"] else "Operating range: -40 to +85 °C [E1]."
        )

    from layoutrag.config import load_settings

    with OpenAIStub(chat=chat) as stub:
        # the server takes its settings tree once, at start: this one points its answers at the stub
        app = create_app(served_data, settings=load_settings().updated(llm_base_url=stub.base_url))
        serving = _serve(app)
        server_url = next(serving)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server_url + "/#/answer?q=operating temperature range")
        page.wait_for_selector("#answer a.cite")
        assert page.locator("#off").count() == 0
        first_card = page.locator(".card").first.get_attribute("data-chunk")
        page.click("#answer a.cite")
        page.wait_for_selector("rect.hit")
        assert f"chunk={first_card}" in page.url

        page.goto(server_url + "/#/answer?q=price of the part in euros")
        page.wait_for_selector("#answer-status")
        assert "does not contain the answer" in page.inner_text("#answer-status")
        assert page.locator("#answer").count() == 0
        page.close()
        serving.close()


def _assert_box_drawn(page, frame: str, selector: str, box, width_pt: float, height_pt: float) -> None:
    img = _rect(page, f"{frame} img")
    sx, sy = img["w"] / width_pt, img["h"] / height_pt
    got = _rect(page, f"{frame} {selector}")
    x0, y0, x1, y1 = box
    expected = (img["x"] + x0 * sx, img["y"] + y0 * sy, img["x"] + x1 * sx, img["y"] + y1 * sy)
    actual = (got["x"], got["y"], got["x"] + got["w"], got["y"] + got["h"])
    # 2 pt on the page, in displayed pixels
    tol = 2.0 * sx
    for e, a in zip(expected, actual, strict=True):
        assert abs(e - a) <= tol, (expected, actual)


def _open_cell_and_check(page, server_url: str, link) -> None:
    href = link.get_attribute("href")
    link.click()
    page.wait_for_selector("rect.cell")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.page-frame img')].every(i => i.complete && i.naturalWidth > 0)"
    )
    from urllib.parse import parse_qs, unquote

    path, query = href[2:].split("?", 1)
    doc_id = unquote(path.split("/")[1])
    params = {k: v[0] for k, v in parse_qs(query).items()}
    cell = [float(x) for x in params["cell"].split(",")]
    detail = httpx.get(f"{server_url}/api/documents/{doc_id}").json()
    p = int(params["page"])
    w, h = next((x["width_pt"], x["height_pt"]) for x in detail["pages"] if x["page"] == p)
    specs = httpx.get(f"{server_url}/api/documents/{doc_id}/specs").json()["specs"]
    boxes = [c["bbox_pdf"] for v in specs if v["page"] == p for c in v["cells"]]
    # the link's box is a stored cell box (rounded to 0.01 pt), and the highlight lands on it
    assert any(all(abs(a - b) <= 0.01 for a, b in zip(cell, bx, strict=True)) for bx in boxes)
    _assert_box_drawn(page, f'.page-frame[data-page="{p}"]', "rect.cell", cell, w, h)


def test_parts_filter_table_cell_opens_the_viewer_on_its_cell(browser, server_url: str, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server_url + "/#/specs")
    page.wait_for_selector("#spec-where")
    page.fill("#spec-where", "ESR <= 1 Mohm; operating temperature = -40 to 85")
    page.fill("#spec-q", "load capacitance below 30 pF")
    page.press("#spec-q", "Enter")
    page.wait_for_selector("#spec-table a.speccell")
    assert "esr <= 1 MΩ" in page.inner_text("#spec-read")
    page.screenshot(path=str(tmp_path / "parts.png"))
    links = page.locator("#spec-table a.speccell")
    n = links.count()
    assert n >= 2
    for i in (0, n - 1):  # the first and the last cell of the filter table
        page.goto(server_url + "/#/specs?where=ESR%20%3C%3D%201%20Mohm%3B%20operating%20temperature%20%3D%20-40%20to%2085&q=load%20capacitance%20below%2030%20pF")
        page.wait_for_selector("#spec-table a.speccell")
        _open_cell_and_check(page, server_url, page.locator("#spec-table a.speccell").nth(i))
    page.screenshot(path=str(tmp_path / "parts-cell.png"))
    assert not errors, errors


def test_compare_view_cell_opens_the_viewer_on_its_cell(browser, server_url: str, tmp_path: Path) -> None:
    res = httpx.get(f"{server_url}/api/specs", params={"where": "ESR <= 1 Mohm"}).json()
    parts = [r["part"] for r in res["results"][:2]]
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server_url + "/#/compare")
    page.wait_for_selector("#cmp-parts")
    page.fill("#cmp-parts", ", ".join(parts))
    page.press("#cmp-parts", "Enter")
    page.wait_for_selector("#cmp-table a.speccell")
    heads = page.locator("#cmp-table thead th").all_inner_texts()
    assert [h.split("\n")[0] for h in heads[1:]] == parts
    page.screenshot(path=str(tmp_path / "compare.png"))
    _open_cell_and_check(page, server_url, page.locator("#cmp-table a.speccell").first)
    assert not errors, errors


def _imported_corpus(browser, tmp_path: Path, rows: list[dict]):  # noqa: ANN001, ANN202 - Playwright objects
    """A data dir of chunk records imported (no PDFs), served; (the server generator, a page, its page errors)."""
    import json

    from layoutrag.build import import_chunks

    f = tmp_path / "chunks.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    data = tmp_path / "data"
    import_chunks(f, data)
    serving = _serve(create_app(data))
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return serving, page, errors


def test_compare_names_the_band_of_each_value_and_parts_read_the_band_asked(browser, tmp_path: Path) -> None:
    # a crystal series printing ESR per band of nominal frequency: its compare column names each value's band; asked at
    # 26 MHz the Parts page reads the band that holds 26 MHz (80 ohm: fails ESR <= 60 ohm)
    head = "Parameters Symbol Min. Typ. Max. Units Notes "
    table = (head + "Nominal Frequency F 16 ~ 96 MHz Equivalent Series Resistance ESR - - 100 Ohm 16~20MHz "
             "- - 80 Ohm 20~60MHz - - 30 Ohm >60MHz")
    row = {"chunk_id": "xc_p1_b01", "doc_id": "xc", "page": 1, "block_type": "electrical_specifications_table",
           "toc_path": "ACME XC Series MHz Crystal", "bboxes_pdf": [[40.0, 100.0, 560.0, 420.0]], "native_text": table}
    serving, page, errors = _imported_corpus(browser, tmp_path, [row])
    url = next(serving)
    page.goto(url + "/#/compare?parts=XC")
    page.wait_for_selector("#cmp-table a.speccell")
    esr = page.locator("#cmp-table tbody tr", has_text="esr").inner_text()
    assert "16~20MHz" in esr and "20~60MHz" in esr and ">60MHz" in esr, esr
    page.goto(url + "/#/specs?where=frequency%20%3D%2026%20MHz;ESR%20%3C%3D%2060%20ohm")
    page.wait_for_selector("#spec-table td.st-fails")
    assert "80" in page.inner_text("#spec-table td.st-fails")
    assert not errors, errors
    page.close()
    serving.close()


def test_parts_of_an_imported_corpus_open_the_boxes_only_viewer_on_their_chunk(browser, tmp_path: Path) -> None:
    # a corpus imported as chunk records (no PDFs), its tables given as text: the Parts page lists
    # the part, and its value opens the viewer without a page image, the chunk's box highlighted
    head = "Parameters Symbol Min. Typ. Max. Units Notes "
    rows = [
        {"chunk_id": f"{d}_p1_b01", "doc_id": d, "page": 1, "block_type": "electrical_specifications_table",
         "toc_path": f"ACME {d.upper()} Series TCXO", "bboxes_pdf": [[40.0, 100.0, 560.0, 420.0]],
         "native_text": head + f"Nominal Frequency F 26 MHz Frequency Stability ST ± {stab} ppm @ -40~85℃"}
        for d, stab in (("t1", "0.5"), ("t2", "2.5"))
    ]
    serving, page, errors = _imported_corpus(browser, tmp_path, rows)
    url = next(serving)
    page.goto(url + "/#/specs?where=frequency%20stability%20%3C%3D%201%20ppm")
    page.wait_for_selector("#spec-table a.speccell")
    assert page.locator("#spec-table tbody tr").count() == 1
    assert page.inner_text("#spec-table tbody tr td").startswith("T1")  # the series as its title prints it
    page.screenshot(path=str(tmp_path / "parts-imported.png"))
    page.locator("#spec-table a.speccell").first.click()
    page.wait_for_selector("rect.cell")
    frame = '.page-frame[data-page="1"]'
    assert "no PDF stored" in page.inner_text(f"{frame} .nopdf")
    w = float(page.get_attribute(frame, "data-width-pt"))
    h = float(page.get_attribute(frame, "data-height-pt"))
    area = _rect(page, f"{frame} .nopdf")
    got = _rect(page, f"{frame} rect.cell")
    sx, sy = area["w"] / w, area["h"] / h
    expected = (area["x"] + 40 * sx, area["y"] + 100 * sy, area["x"] + 560 * sx, area["y"] + 420 * sy)
    actual = (got["x"], got["y"], got["x"] + got["w"], got["y"] + got["h"])
    for e, a in zip(expected, actual, strict=True):
        assert abs(e - a) <= 2.0 * sx, (expected, actual)
    page.screenshot(path=str(tmp_path / "parts-imported-cell.png"))
    assert not errors, errors
    page.close()
    serving.close()
