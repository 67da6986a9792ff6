"""A local stub of an OpenAI-compatible server (the one outside paid service layoutrag can talk to).

It speaks the real HTTP protocol on 127.0.0.1 (POST /v1/chat/completions, POST /v1/embeddings), so
the code under test uses its real client. Replies come from functions the test provides; every
request is recorded for assertions.

    with OpenAIStub(chat=lambda messages: "answer [E1]") as stub:
        os.environ["LAYOUTRAG_LLM_BASE_URL"] = stub.base_url
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ChatFn = Callable[[list[dict]], str]
EmbedFn = Callable[[list[str]], list[list[float]]]


class OpenAIStub:
    def __init__(
        self, *, chat: ChatFn | None = None, embed: EmbedFn | None = None, api_key: str = ""
    ) -> None:
        self.chat = chat or (lambda messages: "")
        self.embed = embed or (lambda texts: [[float(len(t)), 1.0] for t in texts])
        self.api_key = api_key
        self.requests: list[tuple[str, dict]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def _send(self, code: int, obj: dict) -> None:
                body = json.dumps(obj).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:  # noqa: N802 (http.server naming)
                n = int(self.headers.get("Content-Length") or 0)
                try:
                    payload = json.loads(self.rfile.read(n) or b"{}")
                except ValueError:
                    return self._send(400, {"error": {"message": "invalid JSON"}})
                stub.requests.append((self.path, payload))
                if stub.api_key and self.headers.get("Authorization") != f"Bearer {stub.api_key}":
                    return self._send(401, {"error": {"message": "bad key"}})
                if self.path.endswith("/chat/completions"):
                    content = stub.chat(payload.get("messages", []))
                    return self._send(
                        200,
                        {
                            "id": "chatcmpl-stub",
                            "object": "chat.completion",
                            "model": payload.get("model", "stub"),
                            "choices": [
                                {
                                    "index": 0,
                                    "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop",
                                }
                            ],
                        },
                    )
                if self.path.endswith("/embeddings"):
                    inputs = payload.get("input", [])
                    inputs = [inputs] if isinstance(inputs, str) else inputs
                    vecs = stub.embed(inputs)
                    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vecs)]
                    return self._send(200, {"object": "list", "data": data, "model": payload.get("model")})
                return self._send(404, {"error": {"message": "unknown path"}})

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> OpenAIStub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
