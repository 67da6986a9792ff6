"""Answers with [En] citations, against a local server speaking the OpenAI protocol (tests/llm_stub.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from layoutrag.llm import OpenAICompatible
from layoutrag.serve.answer import NOT_IN_EVIDENCE, answer_question, build_messages, parse_citations
from layoutrag.serve.api import create_app
from layoutrag.service import LayoutRAG
from llm_stub import OpenAIStub
from test_api import get

QUESTION = "What is the operating temperature range?"


@pytest.fixture(scope="module")
def hits(served_data: Path):
    return LayoutRAG(served_data).search(QUESTION, top_k=4)


def _llm(stub: OpenAIStub) -> OpenAICompatible:
    return OpenAICompatible(base_url=stub.base_url, model="stub-model")


def test_answer_cites_evidence_and_links_chunks(hits) -> None:
    seen: list[list[dict]] = []

    def chat(messages: list[dict]) -> str:
        seen.append(messages)
        return "The range is -40 to +85 °C [E2], see also [E1] and [E2]."

    with OpenAIStub(chat=chat) as stub:
        ans = answer_question(QUESTION, hits, _llm(stub))
    assert ans.status == "answered"
    assert [c.label for c in ans.citations] == ["E2", "E1"]  # distinct, in order of first use
    assert ans.citations[0].chunk_id == hits[1].chunk_id and ans.citations[1].page == hits[0].page
    # the model saw every piece of evidence, numbered, and was told not to invent
    system, user = seen[0][0]["content"], seen[0][1]["content"]
    assert "ONLY" in system and NOT_IN_EVIDENCE in system and "never guess or invent" in system
    for i, h in enumerate(hits, start=1):
        assert f"[E{i}]" in user and h.native_text[:40] in user
    assert QUESTION in user


def test_answer_says_when_evidence_lacks_it(hits) -> None:
    with OpenAIStub(chat=lambda messages: NOT_IN_EVIDENCE) as stub:
        ans = answer_question("What is the price of the 7M series in euros?", hits, _llm(stub))
    assert ans.status == "not_in_evidence"
    assert ans.answer == "" and ans.citations == []
    assert "does not contain the answer" in ans.message


def test_uncited_and_out_of_range_citations_are_not_trusted(hits) -> None:
    assert parse_citations("a [E1] b [E99] c [E0] [E3]", hits) == parse_citations("[E1][E3]", hits)
    with OpenAIStub(chat=lambda messages: "It is 12 pF [E9].") as stub:
        ans = answer_question(QUESTION, hits, _llm(stub))
    assert ans.status == "uncited" and "[E9]" not in ans.answer and "unverified" in ans.message


def test_answers_off_without_llm(hits) -> None:
    ans = answer_question(QUESTION, hits, None)
    assert ans.status == "off" and "Answers are off" in ans.message
    assert len(build_messages(QUESTION, hits)) == 2


def test_answer_endpoint_with_stub_server(served_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenAIStub(chat=lambda messages: "Operating temperature: -40 to +85 °C [E1].") as stub:
        monkeypatch.setenv("LAYOUTRAG_LLM_BASE_URL", stub.base_url)
        monkeypatch.setenv("LAYOUTRAG_LLM_MODEL", "stub-model")
        app = create_app(served_data)
        assert get(app, "/api/info").json()["answers_enabled"] is True
        r = get(app, "/api/answer", params={"q": QUESTION})
        assert stub.requests and stub.requests[0][1]["model"] == "stub-model"
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "answered" and body["citations"][0]["label"] == "E1"
    assert body["citations"][0]["chunk_id"] == body["hits"][0]["chunk_id"]


def test_answer_endpoint_off_still_shows_evidence(served_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAYOUTRAG_LLM_BASE_URL", raising=False)
    app = create_app(served_data)
    body = get(app, "/api/answer", params={"q": QUESTION}).json()
    assert body["status"] == "off" and body["hits"]
    assert get(app, "/api/info").json()["answers_enabled"] is False


def test_answer_endpoint_backend_failure_is_one_line(
    served_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(
        "LAYOUTRAG_LLM_BASE_URL", "http://127.0.0.1:9/v1"
    )  # nothing listens on the discard port
    r = get(create_app(served_data), "/api/answer", params={"q": QUESTION})
    assert r.status_code == 500 and "unreachable" in r.json()["error"] and "Traceback" not in r.text
