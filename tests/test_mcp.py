"""The MCP server over stdio, driven by the official SDK's own client (a real subprocess)."""

from __future__ import annotations

import asyncio
import base64
import os
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import ImageContent, TextContent

from layoutrag.service import LayoutRAG
from test_api import sample_queries


def _server(data: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k.startswith(("LAYOUTRAG_", "PYTHON", "OMP_", "HF_"))}
    env.pop("LAYOUTRAG_DATA", None)
    return StdioServerParameters(
        command=sys.executable, args=["-m", "layoutrag.cli", "mcp", "--data", str(data)], env=env
    )


def _text(result) -> str:
    return " ".join(c.text for c in result.content if isinstance(c, TextContent))


@pytest.fixture(scope="module")
def session_results(served_data: Path) -> dict:
    """One server process for the module: every call's result, collected in a single session."""
    query = sample_queries(served_data)[0]["query"]
    doc_name = sample_queries(served_data)[0]["doc"]

    async def run() -> dict:
        out: dict = {}
        async with Client(_server(served_data)) as client:
            out["tools"] = await client.list_tools()
            out["search"] = await client.call_tool("build_evidence_package", {"query": query, "top_k": 3})
            hit = out["search"].structured_content["hits"][0]
            out["filtered"] = await client.call_tool(
                "build_evidence_package",
                {"query": query, "top_k": 5, "filters": {"doc": doc_name, "block_type": "table"}},
            )
            out["chunk"] = await client.call_tool("get_chunk", {"chunk_id": hit["chunk_id"]})
            out["image"] = await client.call_tool("get_evidence_image", {"chunk_id": hit["chunk_id"]})
            out["bad_chunk"] = await client.call_tool("get_chunk", {"chunk_id": "../../etc/passwd"})
            out["bad_image"] = await client.call_tool("get_evidence_image", {"chunk_id": "nope_p1_b00"})
            out["long_query"] = await client.call_tool("build_evidence_package", {"query": "x" * 1001})
            out["bad_k"] = await client.call_tool(
                "build_evidence_package", {"query": "frequency", "top_k": 500}
            )
            out["bad_type"] = await client.call_tool(
                "build_evidence_package", {"query": "frequency", "filters": {"block_type": "bogus"}}
            )
            out["find_parts"] = await client.call_tool(
                "find_parts", {"where": ["operating temperature = -40 to 85"], "query": "load capacitance below 30 pF"}
            )
            out["bad_constraint"] = await client.call_tool("find_parts", {"where": ["ESR <= banana"]})
            series = out["find_parts"].structured_content["results"][0]["part"]
            out["compare"] = await client.call_tool("compare_parts", {"parts": [series]})
            out["hit"] = hit
        return out

    return asyncio.run(asyncio.wait_for(run(), timeout=240))


def test_lists_the_tools(session_results: dict) -> None:
    tools = {t.name: t for t in session_results["tools"].tools}
    assert set(tools) == {"build_evidence_package", "get_chunk", "get_evidence_image", "find_parts", "compare_parts"}
    props = tools["build_evidence_package"].input_schema["properties"]
    assert {"query", "top_k", "filters"} <= set(props)


def test_build_evidence_package_matches_the_service(session_results: dict, served_data: Path) -> None:
    result = session_results["search"]
    assert not result.is_error
    hits = result.structured_content["hits"]
    assert 1 <= len(hits) <= 3
    query = result.structured_content["query"]
    expected = LayoutRAG(served_data).search(query, top_k=3)
    assert [h["chunk_id"] for h in hits] == [h.chunk_id for h in expected]
    assert hits[0]["bboxes_pdf"] and hits[0]["page_size_pt"] and "score" in hits[0]


def test_filters_restrict_document_and_type(session_results: dict, served_data: Path) -> None:
    result = session_results["filtered"]
    assert not result.is_error, _text(result)
    doc_id = LayoutRAG(served_data).resolve_doc(sample_queries(served_data)[0]["doc"])
    hits = result.structured_content["hits"]
    assert hits and all(h["doc_id"] == doc_id and h["block_type"] == "table" for h in hits)


def test_get_chunk_and_image(session_results: dict, served_data: Path) -> None:
    chunk = session_results["chunk"]
    assert not chunk.is_error and chunk.structured_content["chunk_id"] == session_results["hit"]["chunk_id"]
    image = session_results["image"]
    assert not image.is_error
    [content] = [c for c in image.content if isinstance(c, ImageContent)]
    assert content.mime_type == "image/png"
    png = base64.b64decode(content.data)
    assert png == (served_data / chunk.structured_content["evidence_image"]).read_bytes()


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("bad_chunk", "unknown chunk"),
        ("bad_image", "unknown chunk"),
        ("long_query", "query too long"),
        ("bad_k", "top_k must be between 1 and 100"),
        ("bad_type", "unknown block type 'bogus'; valid: caption, figure,"),
    ],
)
def test_errors_are_tool_errors_with_a_clear_message(session_results: dict, key: str, message: str) -> None:
    result = session_results[key]
    assert result.is_error
    text = _text(result)
    assert message in text and "Traceback" not in text and "\n" not in text


def test_a_running_server_sees_a_new_index_generation(served_data: Path, tmp_path: Path) -> None:
    """One session across a re-index: chunks imported (and indexed by the orchestrator) while the
    server runs are found by the next call, without a restart."""
    import shutil

    from layoutrag.build import import_chunks

    data = tmp_path / "data"
    shutil.copytree(served_data, data)
    extra = tmp_path / "extra.jsonl"
    extra.write_text(
        '{"chunk_id": "zzq_p1_b00", "doc_id": "zzq", "page": 1, "block_type": "text", '
        '"native_text": "Quokkatron QX-77 flux capacitor rating 1.21 gigawatts"}\n',
        encoding="utf-8",
    )

    async def run() -> tuple[list[str], list[str]]:
        async with Client(_server(data)) as client:
            before = await client.call_tool("build_evidence_package", {"query": "Quokkatron QX-77", "top_k": 3})
            import_chunks(extra, data)  # a new generation goes live while the server runs
            after = await client.call_tool("build_evidence_package", {"query": "Quokkatron QX-77", "top_k": 3})
        ids = [[h["doc_id"] for h in r.structured_content["hits"]] for r in (before, after)]
        return ids[0], ids[1]

    before, after = asyncio.run(asyncio.wait_for(run(), timeout=240))
    assert "zzq" not in before
    assert after[0] == "zzq"


def test_find_parts_and_compare_parts(session_results: dict, served_data: Path) -> None:
    res = session_results["find_parts"].structured_content
    assert res["constraints_read"] == ["operating_temperature covers -40 to 85 °C", "load_capacitance <= 30 pF"]
    svc = LayoutRAG(served_data).find_parts(["operating temperature = -40 to 85"], "load capacitance below 30 pF")
    assert [r["part"] for r in res["results"]] == [r.part for r in svc.results]
    met = [m for r in res["results"] for m in r["matches"] if m["status"] == "meets"]
    assert met and all(v["cells"] and len(v["cells"][0]["bbox_pdf"]) == 4 for m in met for v in m["values"])
    bad = session_results["bad_constraint"]
    assert bad.is_error and "'banana' is not a number" in _text(bad)
    cmp = session_results["compare"].structured_content
    assert len(cmp["parts"]) == 1 and cmp["rows"]
