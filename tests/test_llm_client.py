from __future__ import annotations

import pytest

from layoutrag.errors import BackendError
from layoutrag.llm import OpenAICompatible, llm_from_env
from llm_stub import OpenAIStub


def test_chat_and_embeddings_over_real_http():
    with OpenAIStub(chat=lambda m: "echo:" + m[-1]["content"], api_key="k") as stub:
        client = OpenAICompatible(base_url=stub.base_url, model="m", api_key="k")
        assert client.chat([{"role": "user", "content": "hi"}]) == "echo:hi"
        assert client.embed(["abc", "de"]) == [[3.0, 1.0], [2.0, 1.0]]
        assert stub.requests[0][0] == "/v1/chat/completions"
        bad = OpenAICompatible(base_url=stub.base_url, model="m", api_key="wrong")
        with pytest.raises(BackendError, match="HTTP 401"):
            bad.chat([{"role": "user", "content": "hi"}])


def test_unreachable_endpoint_is_a_one_line_error():
    client = OpenAICompatible(base_url="http://127.0.0.1:9/v1", model="m", timeout=2)
    with pytest.raises(BackendError, match="unreachable"):
        client.chat([{"role": "user", "content": "x"}])


def test_llm_off_without_env(monkeypatch):
    monkeypatch.delenv("LAYOUTRAG_LLM_BASE_URL", raising=False)
    assert llm_from_env() is None
