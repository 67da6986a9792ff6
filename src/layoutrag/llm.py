"""A small client for OpenAI-compatible endpoints (chat completions and embeddings).

Optional everywhere: configured by LAYOUTRAG_LLM_BASE_URL / LAYOUTRAG_LLM_MODEL / LAYOUTRAG_LLM_API_KEY
(and LAYOUTRAG_EMBED_BASE_URL / _MODEL / _API_KEY for embeddings). Nothing in layoutrag needs it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import httpx

from layoutrag.config import LLMSettings
from layoutrag.errors import BackendError

__all__ = ["OpenAICompatible", "llm_client", "llm_from_env"]


@dataclass(frozen=True)
class OpenAICompatible:
    base_url: str  # e.g. http://127.0.0.1:8080/v1
    model: str
    api_key: str = ""
    timeout: float = 60.0

    def _post(self, path: str, payload: dict) -> dict:
        url = self.base_url.rstrip("/") + path
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            r = httpx.post(url, json=payload, headers=headers, timeout=self.timeout)
        except httpx.HTTPError as e:
            raise BackendError(f"endpoint {url} unreachable: {type(e).__name__}") from None
        if r.status_code != 200:
            raise BackendError(f"endpoint {url} answered HTTP {r.status_code}")
        try:
            return r.json()
        except ValueError:
            raise BackendError(f"endpoint {url} answered with invalid JSON") from None

    def chat(self, messages: list[dict], *, temperature: float = 0.0, max_tokens: int = 1024) -> str:
        data = self._post(
            "/chat/completions",
            {"model": self.model, "messages": messages, "temperature": temperature, "max_tokens": max_tokens},
        )
        try:
            return data["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise BackendError("chat completion without choices[0].message.content") from None

    def embed(self, texts: list[str]) -> list[list[float]]:
        data = self._post("/embeddings", {"model": self.model, "input": texts})
        try:
            items = sorted(data["data"], key=lambda d: d["index"])
            return [d["embedding"] for d in items]
        except (KeyError, TypeError):
            raise BackendError("embeddings answer without data[].embedding") from None


def llm_client(llm: LLMSettings) -> OpenAICompatible | None:
    """The endpoint of the settings tree's `llm` branch, or None when its base URL is unset."""
    if not llm.base_url:
        return None
    return OpenAICompatible(base_url=llm.base_url, model=llm.model, api_key=llm.api_key.get_secret_value())


def llm_from_env(prefix: str = "LAYOUTRAG_LLM") -> OpenAICompatible | None:
    """The configured endpoint, or None when `{prefix}_BASE_URL` is unset (the feature is off)."""
    base = os.environ.get(f"{prefix}_BASE_URL")
    if not base:
        return None
    return OpenAICompatible(
        base_url=base,
        model=os.environ.get(f"{prefix}_MODEL", "default"),
        api_key=os.environ.get(f"{prefix}_API_KEY", ""),
    )
