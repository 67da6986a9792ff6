"""HTTP API through an in-process ASGI client: endpoints, traversal and limit tests, API key, no tracebacks.

The data dir is real: `served_data` (tests/conftest.py), two generated sample datasheets ingested and
indexed once per session, shared with test_answer, test_mcp, test_browser and test_eval_e2e.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path

import httpx
import pytest

from conftest import SERVED_SAMPLE_DOCS as SAMPLE_DOCS
from layoutrag.records import Chunk, EvidencePackage
from layoutrag.serve.api import GuardMiddleware, create_app


def sample_queries(data: Path) -> list[dict]:
    lines = (data / "samples" / "queries.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def call(app, method: str, url: str, **kw) -> httpx.Response:
    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.request(method, url, **kw)

    return asyncio.run(go())


@pytest.fixture(scope="module")
def app(served_data: Path):
    return create_app(served_data)


def get(app, url: str, **kw) -> httpx.Response:
    return call(app, "GET", url, **kw)


def assert_clean_error(r: httpx.Response, *statuses: int) -> None:
    assert r.status_code in statuses, (r.status_code, r.text[:300])
    body = r.json()
    assert set(body) == {"error"} and "\n" not in body["error"]
    assert "Traceback" not in r.text and 'File "' not in r.text


# --------------------------------------------------------------------------- search
def test_search_returns_evidence_packages(app, served_data: Path) -> None:
    q = sample_queries(served_data)[0]
    r = get(app, "/api/search", params={"q": q["query"], "k": 5})
    assert r.status_code == 200
    body = r.json()
    assert body["query"] == q["query"] and body["k"] == 5
    hits = [EvidencePackage.model_validate(h) for h in body["hits"]]
    assert 1 <= len(hits) <= 5
    top = hits[0]
    assert top.bboxes_pdf and top.page_size_pt and top.regions
    assert top.score > 0 and (top.bm25_rank is not None or top.dense_rank is not None)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_search_chinese_query_and_filters(app, served_data: Path) -> None:
    r = get(app, "/api/search", params={"q": "工作温度范围", "k": 3})
    assert r.status_code == 200 and r.json()["hits"]
    docs = get(app, "/api/documents").json()["documents"]
    target = docs[0]
    by_name = get(app, "/api/search", params={"q": "frequency", "doc": target["file_name"], "type": "table"})
    assert by_name.status_code == 200
    hits = by_name.json()["hits"]
    assert hits and all(h["doc_id"] == target["doc_id"] and h["block_type"] == "table" for h in hits)


@pytest.mark.parametrize(
    "params",
    [
        {"q": "x" * 1001},
        {"q": "frequency", "k": 101},
        {"q": "frequency", "k": 0},
        {"q": "frequency", "k": "many"},
        {"q": "   "},
        {},
        {"q": "frequency", "type": "../../etc"},
    ],
)
def test_search_limits_are_422_json(app, params: dict) -> None:
    assert_clean_error(get(app, "/api/search", params=params), 422)


def test_search_limits_edge_values_pass(app) -> None:
    assert get(app, "/api/search", params={"q": "x" * 1000, "k": 100}).status_code == 200


def test_unknown_block_type_is_422_naming_the_valid_types(app) -> None:
    r = get(app, "/api/search", params={"q": "frequency", "type": "bogus"})
    assert_clean_error(r, 422)
    assert r.json()["error"].startswith("unknown block type 'bogus'; valid: caption, figure, ")
    assert get(app, "/api/search", params={"q": "frequency", "type": "Table"}).status_code == 200


def test_unknown_doc_filter_is_404(app) -> None:
    assert_clean_error(get(app, "/api/search", params={"q": "frequency", "doc": "../../etc/passwd"}), 404)


# --------------------------------------------------------------------------- records
def test_chunk_and_evidence_image(app, served_data: Path) -> None:
    hit = get(app, "/api/search", params={"q": "electrical characteristics", "k": 1}).json()["hits"][0]
    r = get(app, f"/api/chunks/{hit['chunk_id']}")
    assert r.status_code == 200
    chunk = Chunk.model_validate(r.json())
    assert chunk.chunk_id == hit["chunk_id"] and chunk.native_text == hit["native_text"]
    png = get(app, f"/api/chunks/{hit['chunk_id']}/evidence.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    if chunk.unit == "page":  # the learned ranker's unit choice returned the page: its evidence is the page
        page = get(app, f"/api/documents/{chunk.doc_id}/pages/{chunk.page}.png")
        assert png.content.startswith(b"\x89PNG") and png.content == page.content
        assert chunk.bboxes_pdf and chunk.native_text and hit["companions"]
        hit = hit["companions"][0]  # the chunk highlighted on it: a stored chunk with its own image
        chunk = Chunk.model_validate(get(app, f"/api/chunks/{hit['chunk_id']}").json())
        png = get(app, f"/api/chunks/{hit['chunk_id']}/evidence.png")
    assert (
        png.content.startswith(b"\x89PNG")
        and png.content == (served_data / chunk.evidence_image).read_bytes()
    )


def test_documents_pages_and_pdf(app) -> None:
    docs = get(app, "/api/documents").json()["documents"]
    assert len(docs) == SAMPLE_DOCS and all(d["n_chunks"] > 0 for d in docs)
    doc_id = docs[0]["doc_id"]
    detail = get(app, f"/api/documents/{doc_id}").json()
    assert detail["card"]["doc_id"] == doc_id and detail["has_pdf"]
    assert detail["n_pages"] == len(detail["pages"]) >= 1
    first = detail["pages"][0]
    assert first["page"] == 1 and first["width_pt"] > 100 and first["chunk_ids"]
    listed = {c["chunk_id"] for c in detail["chunks"]}
    assert set(first["chunk_ids"]) <= listed
    png = get(app, f"/api/documents/{doc_id}/pages/1.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    pdf = get(app, f"/api/documents/{doc_id}/pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert_clean_error(get(app, f"/api/documents/{doc_id}/pages/{detail['n_pages'] + 1}.png"), 404)
    assert_clean_error(get(app, f"/api/documents/{doc_id}/pages/0.png"), 404, 422)


def test_info_lists_examples_from_the_corpus(app) -> None:
    info = get(app, "/api/info").json()
    assert info["index_ready"] and info["n_documents"] == SAMPLE_DOCS and info["n_chunks"] > 0
    assert "table" in info["block_types"]
    assert info["examples"]
    for q in info["examples"][:3]:
        assert get(app, "/api/search", params={"q": q, "k": 1}).json()["hits"], q


def test_info_and_documents_counts_come_from_the_index_without_parsing_chunks(
    served_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from layoutrag.index.store import LazyChunks

    app = create_app(served_data)
    first_info, first_docs = get(app, "/api/info").json(), get(app, "/api/documents").json()
    chunks = app.state.layoutrag.service.chunks()
    assert first_info["n_chunks"] == len(chunks)
    assert first_info["block_types"] == sorted({c.block_type for c in chunks})
    per_doc = Counter(c.doc_id for c in chunks)
    assert {d["doc_id"]: d["n_chunks"] for d in first_docs["documents"]} == per_doc
    parsed = []
    read = LazyChunks.__getitem__
    monkeypatch.setattr(LazyChunks, "__getitem__", lambda self, i: parsed.append(i) or read(self, i))
    assert get(app, "/api/info").json() == first_info  # example queries: made once per generation
    assert get(app, "/api/documents").json() == first_docs
    assert parsed == []


def test_fresh_runs_once_per_request(served_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(served_data)
    state = app.state.layoutrag
    calls = []
    fresh = state.fresh
    monkeypatch.setattr(state, "fresh", lambda: calls.append(1) or fresh())
    doc = get(app, "/api/documents").json()["documents"][0]["doc_id"]
    detail = get(app, f"/api/documents/{doc}").json()
    hit = get(app, "/api/search", params={"q": "frequency", "k": 1}).json()["hits"][0]["chunk_id"]
    unindexed = [c["chunk_id"] for c in detail["chunks"] if not c["indexed"]]
    urls = [
        "/api/info",
        "/api/documents",
        f"/api/documents/{doc}",
        f"/api/documents/{doc}/pages/1.png",
        f"/api/documents/{doc}/pdf",
        "/api/search?q=frequency&k=3",
        "/api/answer?q=frequency&k=3",
        f"/api/chunks/{hit}",
        f"/api/chunks/{hit}/evidence.png",
        f"/api/chunks/{doc}_p1_b99",  # unknown: looked up in the index, then among the stored chunks
        *[f"/api/chunks/{c}" for c in unindexed[:1]],
    ]
    for url in urls:
        calls.clear()
        r = get(app, url)
        assert r.status_code in (200, 404), (url, r.status_code)
        assert len(calls) == 1, (url, len(calls))


def test_reindex_while_serving_is_seen_on_the_next_request(served_data: Path, tmp_path: Path) -> None:
    import shutil

    from layoutrag.index.store import build_index

    data = tmp_path / "data"
    shutil.copytree(served_data, data)
    app = create_app(data)
    before = get(app, "/api/info").json()
    docs = get(app, "/api/documents").json()["documents"]
    gone = docs[0]["doc_id"]
    assert get(app, f"/api/documents/{gone}").status_code == 200
    shutil.rmtree(data / "docs" / gone)
    build_index(data, progress=False)
    after = get(app, "/api/info").json()
    assert after["n_documents"] == before["n_documents"] - 1
    assert after["n_chunks"] == before["n_chunks"] - docs[0]["n_chunks"]
    assert [d["doc_id"] for d in get(app, "/api/documents").json()["documents"]] == [docs[1]["doc_id"]]
    assert_clean_error(get(app, f"/api/documents/{gone}"), 404)
    hits = get(app, "/api/search", params={"q": "frequency", "k": 10}).json()["hits"]
    assert hits and all(h["doc_id"] != gone for h in hits)


def test_ui_and_openapi_are_served(app) -> None:
    page = get(app, "/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "style.css"):
        assert get(app, f"/static/{name}").status_code == 200
    paths = get(app, "/openapi.json").json()["paths"]
    for p in (
        "/api/search",
        "/api/chunks/{chunk_id}",
        "/api/chunks/{chunk_id}/evidence.png",
        "/api/documents",
        "/api/documents/{doc_id}",
        "/api/documents/{doc_id}/pages/{page}.png",
        "/api/documents/{doc_id}/pdf",
    ):
        assert p in paths


# --------------------------------------------------------------------------- traversal
EVIL_IDS = [
    "..",
    "../../etc/passwd",
    "..%2F..%2Fetc%2Fpasswd",
    "%2e%2e",
    "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "..%5c..%5cwindows",
    "%2fetc%2fpasswd",
    "abc%00def",
    "abc%00",
    "C:%5cWindows",
    "a" * 300,
    "source.pdf",
    "0123456789abcdef",
    "0123456789abcdef_p1_b00",
]


@pytest.mark.parametrize("evil", EVIL_IDS)
def test_traversal_and_unknown_ids_never_reach_files(app, evil: str) -> None:
    for url in (
        f"/api/chunks/{evil}",
        f"/api/chunks/{evil}/evidence.png",
        f"/api/documents/{evil}",
        f"/api/documents/{evil}/pdf",
        f"/api/documents/{evil}/pages/1.png",
    ):
        r = get(app, url)
        assert r.status_code in (404, 422), (url, r.status_code)
        assert r.headers["content-type"].startswith("application/json"), url
        assert "root:" not in r.text and "Traceback" not in r.text


def test_static_mount_does_not_escape(app) -> None:
    for url in (
        "/static/../api.py",
        "/static/%2e%2e/api.py",
        "/static/..%2fapi.py",
        "/static/%2e%2e%2f%2e%2e%2fconfig.py",
    ):
        r = get(app, url)
        assert r.status_code == 404, url
        assert "def create_app" not in r.text


# --------------------------------------------------------------------------- API key and errors
def test_api_key_is_required_when_set(served_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAYOUTRAG_API_KEY", "s3cret-key")
    keyed = create_app(served_data)
    assert_clean_error(get(keyed, "/api/documents"), 401)
    assert_clean_error(get(keyed, "/api/documents", headers={"X-API-Key": "wrong"}), 401)
    assert_clean_error(get(keyed, "/api/documents", headers={"X-API-Key": "s3cret-ke"}), 401)
    assert get(keyed, "/api/documents", headers={"X-API-Key": "s3cret-key"}).status_code == 200
    assert get(keyed, "/api/documents", headers={"Authorization": "Bearer s3cret-key"}).status_code == 200
    assert get(keyed, "/api/documents", headers={"Cookie": "layoutrag_key=s3cret-key"}).status_code == 200
    monkeypatch.setenv("LAYOUTRAG_API_KEY", "k&y=;x")  # the UI stores the cookie URI-encoded
    odd = create_app(served_data)
    assert get(odd, "/api/documents", headers={"Cookie": "layoutrag_key=k%26y%3D%3Bx"}).status_code == 200
    assert_clean_error(get(odd, "/api/documents", headers={"Cookie": "layoutrag_key=k%26y"}), 401)
    assert get(keyed, "/").status_code == 200  # the UI shell carries no data; it asks for the key


def test_api_key_cookie_beside_odd_cookies(served_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another site's cookies with a space or JSON in the value must not hide the UI's key."""
    monkeypatch.setenv("LAYOUTRAG_API_KEY", "s3cret-key")
    keyed = create_app(served_data)
    for header in (
        'prefs={"theme": "dark"}; layoutrag_key=s3cret-key',
        "greeting=hello world; layoutrag_key=s3cret-key",
        'layoutrag_key=s3cret-key; other="a b"; x={"y":[1,2]}',
    ):
        assert get(keyed, "/api/documents", headers={"Cookie": header}).status_code == 200, header
    assert_clean_error(get(keyed, "/api/documents", headers={"Cookie": "greeting=hello world; layoutrag_key=no"}), 401)


def test_missing_index_is_503(tmp_path: Path) -> None:
    empty = create_app(tmp_path / "nothing-here")
    assert_clean_error(get(empty, "/api/search", params={"q": "frequency"}), 503)
    info = get(empty, "/api/info").json()
    assert info["index_ready"] is False and info["examples"] == []


def test_unexpected_errors_become_one_line_500() -> None:
    async def crashing_app(scope, receive, send) -> None:
        raise RuntimeError("secret internals at /home/user/x.py line 3\nsecond line")

    guarded = GuardMiddleware(crashing_app, api_key=None)
    r = call(guarded, "GET", "/api/search?q=x")
    assert_clean_error(r, 500)
    assert r.json() == {"error": "internal error"}


# --------------------------------------------------------------------------- demo
def test_demo_second_run_reuses_everything(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from layoutrag.serve.demo import prepare_demo

    data = tmp_path / "demo"
    first = io.StringIO()
    prepare_demo(data, n=1, console=Console(file=first, width=200))
    assert "1 newly ingested" in first.getvalue()
    generation = (data / "index" / "CURRENT").read_text()
    pdf_bytes = {p.name: p.read_bytes() for p in (data / "samples").glob("*.pdf")}

    second = io.StringIO()
    prepare_demo(data, n=1, console=Console(file=second, width=200))
    out = second.getvalue()
    assert "samples: reusing" in out and "0 newly ingested" in out and "index: current" in out
    assert (data / "index" / "CURRENT").read_text() == generation
    assert {p.name: p.read_bytes() for p in (data / "samples").glob("*.pdf")} == pdf_bytes
    hits = get(create_app(data), "/api/search", params={"q": "frequency", "k": 3}).json()["hits"]
    assert hits


# --------------------------------------------------------------------------- HTTP conformance (#18.11)
def test_405_carries_allow(app) -> None:
    r = call(app, "POST", "/api/search", params={"q": "frequency"})
    assert r.status_code == 405 and r.headers.get("allow") == "GET"
    assert call(app, "DELETE", "/api/health").headers.get("allow") == "GET"


def test_openapi_declares_errors_and_block_types(app) -> None:
    schema = get(app, "/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/api/chunks/{chunk_id}",
        "/api/chunks/{chunk_id}/evidence.png",
        "/api/documents/{doc_id}",
        "/api/documents/{doc_id}/pages/{page}.png",
        "/api/documents/{doc_id}/pdf",
        "/api/search",
    ):
        assert "404" in paths[path]["get"]["responses"], path
    assert "image/png" in paths["/api/documents/{doc_id}/pages/{page}.png"]["get"]["responses"]["200"]["content"]
    param = next(p for p in paths["/api/search"]["get"]["parameters"] if p["name"] == "type")
    values = param["schema"]["anyOf"][0]["enum"]
    assert "table" in values and "figure" in values
    for value in values:  # every value the schema allows is accepted
        assert get(app, "/api/search", params={"q": "frequency", "k": 1, "type": value}).status_code == 200, value


def test_trailing_slash_does_not_echo_host(app) -> None:
    r = get(app, "/api/search/", params={"q": "frequency"}, headers={"Host": "evil.example"})
    assert r.status_code == 404
    assert "evil.example" not in r.headers.get("location", "")


def test_unsearchable_but_schema_valid_query_has_no_hits(app) -> None:
    r = get(app, "/api/search", params={"q": "\U0003bc20"})  # an unassigned code point: nothing to match
    assert r.status_code == 200 and r.json()["hits"] == []
    assert get(app, "/api/answer", params={"q": "\U0003bc20"}).status_code == 200
