"""A local stub of an OpenAI-compatible server (the one outside paid service layoutrag can talk to).

It speaks the real HTTP protocol on 127.0.0.1 (POST /v1/chat/completions, POST /v1/embeddings), so
the code under test uses its real client. Replies come from functions the test provides; every
request is recorded for assertions.

Chat messages may carry OpenAI content parts (``[{"type": "text", ...}, {"type": "image_url",
"image_url": {"url": "data:image/png;base64,..."}}]``). Every image part is checked the way a vision
endpoint would: a base64 data URL whose bytes decode to a PNG or JPEG matching the declared type
(and, with ``image_long_side``, of that long side); a malformed part gets HTTP 400, a well-formed
one is recorded in ``images`` (format, size, the decoded image). ``vision=False`` plays a text-only
model: any image part gets HTTP 400.

    with OpenAIStub(chat=lambda messages: "answer [E1]") as stub:
        os.environ["LAYOUTRAG_LLM_BASE_URL"] = stub.base_url
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image

ChatFn = Callable[[list[dict]], str]
EmbedFn = Callable[[list[str]], list[list[float]]]


_DATA_URL_RE = re.compile(r"data:image/(png|jpeg);base64,([A-Za-z0-9+/=]+)\Z")


@dataclass
class ReceivedImage:
    request: int  # index into OpenAIStub.requests
    format: str  # "PNG" | "JPEG"
    size: tuple[int, int]
    image: Image.Image


def check_image_part(part: dict, long_side: int | None) -> tuple[str, Image.Image]:
    """Decode one image_url part; ValueError with a reason when it is not well formed."""
    url = (part.get("image_url") or {}).get("url") if isinstance(part.get("image_url"), dict) else None
    m = _DATA_URL_RE.match(url or "")
    if not m:
        raise ValueError("image_url.url is not a base64 data:image/png|jpeg URL")
    try:
        raw = base64.b64decode(m.group(2), validate=True)
        img = Image.open(io.BytesIO(raw))
        img.load()
    except (binascii.Error, OSError) as e:
        raise ValueError(f"image does not decode: {e}") from None
    want = {"png": "PNG", "jpeg": "JPEG"}[m.group(1)]
    if img.format != want:
        raise ValueError(f"declared {want}, got {img.format}")
    if long_side is not None and max(img.size) != long_side:
        raise ValueError(f"image is {img.size}, long side {long_side} expected")
    return want, img


def message_text(message: dict) -> str:
    """A message's text, whether its content is a string or a list of parts."""
    c = message.get("content")
    if isinstance(c, str):
        return c
    return "\n".join(p.get("text", "") for p in c or [] if isinstance(p, dict) and p.get("type") == "text")


class OpenAIStub:
    def __init__(
        self,
        *,
        chat: ChatFn | None = None,
        embed: EmbedFn | None = None,
        api_key: str = "",
        vision: bool = True,
        image_long_side: int | None = None,
    ) -> None:
        self.chat = chat or (lambda messages: "")
        self.embed = embed or (lambda texts: [[float(len(t)), 1.0] for t in texts])
        self.api_key = api_key
        self.vision = vision
        self.image_long_side = image_long_side
        self.requests: list[tuple[str, dict]] = []
        self.images: list[ReceivedImage] = []
        self.rejected: list[str] = []  # reasons of the 400 answers
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
                    try:
                        found = stub._check_images(payload.get("messages", []))
                    except ValueError as e:
                        stub.rejected.append(str(e))
                        return self._send(400, {"error": {"message": str(e)}})
                    req = len(stub.requests) - 1
                    stub.images.extend(ReceivedImage(req, f, im.size, im) for f, im in found)
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

    def _check_images(self, messages: list[dict]) -> list[tuple[str, Image.Image]]:
        found = []
        for msg in messages:
            content = msg.get("content")
            if isinstance(content, str) or content is None:
                continue
            if not isinstance(content, list):
                raise ValueError("content must be a string or a list of parts")
            for part in content:
                kind = part.get("type") if isinstance(part, dict) else None
                if kind == "text" and isinstance(part.get("text"), str):
                    continue
                if kind != "image_url":
                    raise ValueError(f"unknown content part {kind!r}")
                if not self.vision:
                    raise ValueError("this model does not accept images")
                found.append(check_image_part(part, self.image_long_side))
        return found

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
