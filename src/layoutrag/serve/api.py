"""HTTP API and web UI: a thin FastAPI front over `layoutrag.service.LayoutRAG`.

    GET /api/search?q=&k=&doc=&type=        evidence packages
    GET /api/answer?q=&k=                   answer with [E1] citations (when LAYOUTRAG_LLM_* is set)
    GET /api/chunks/{chunk_id}              one chunk record
    GET /api/chunks/{chunk_id}/evidence.png its merged evidence image
    GET /api/documents                      document cards with counts
    GET /api/documents/{doc_id}             card, pages, chunks
    GET /api/documents/{doc_id}/pages/{n}.png   page image (rendered on demand, cached)
    GET /api/documents/{doc_id}/pdf         the PDF as ingested
    GET /api/info                           corpus summary, example queries, whether answers are on
    GET /                                   the web UI (static files, no build step)

Security: ids are checked with `storage.check_id` and looked up in the index before any file is
opened, so no request value becomes a path. With LAYOUTRAG_API_KEY set, every /api/ request must
carry it (header `X-API-Key`, `Authorization: Bearer`, or the `layoutrag_key` cookie the UI sets),
compared in constant time. Every error is a one-line JSON `{"error": ...}`; no traceback reaches a
client.
"""

import hmac
import logging
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import unquote

from fastapi import Depends, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from layoutrag.config import Settings, load_settings
from layoutrag.errors import (
    IndexMissingError,
    InputError,
    LayoutragError,
    NotFoundError,
    StorageError,
)
from layoutrag.records import Chunk, EvidencePackage, SearchFilters
from layoutrag.service import LayoutRAG
from layoutrag.storage import check_id

__all__ = ["STATUS_BY_ERROR", "create_app", "run_server"]

log = logging.getLogger("layoutrag.serve")

STATIC_DIR = Path(__file__).parent / "static"
STATUS_BY_ERROR: tuple[tuple[type[LayoutragError], int], ...] = (
    (InputError, 422),
    (NotFoundError, 404),
    (IndexMissingError, 503),
    (StorageError, 503),
)
NUMBERING_RE = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+")
CJK_RE = re.compile(r"[\u3000-\u9fff\uff00-\uffef]+")
MAX_PAGE = 100_000
NO_STORE = {"Cache-Control": "no-store"}
IMMUTABLE = {"Cache-Control": "private, max-age=3600"}  # page images: keyed by content hash and dpi
REVALIDATE = {"Cache-Control": "no-cache"}  # evidence images: a re-ingest may redraw the same chunk id


def _status_for(e: LayoutragError) -> int:
    for cls, status in STATUS_BY_ERROR:
        if isinstance(e, cls):
            return status
    return 500


def _one_line(msg: object, limit: int = 300) -> str:
    text = str(msg).strip().splitlines()[0] if str(msg).strip() else "error"
    return text[:limit]


def _error(status: int, msg: object, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": _one_line(msg)}, status_code=status, headers={**NO_STORE, **(headers or {})})


class ErrorBody(BaseModel):
    """Every error: one line."""

    error: str


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for the error statuses a route can answer (each a one-line ErrorBody)."""
    what = {
        401: "Missing or wrong API key (when LAYOUTRAG_API_KEY is set).",
        404: "Unknown id, document or page.",
        422: "Invalid parameter (one line naming it).",
        503: "No index yet (ingest first), or the disk is full.",
    }
    return {c: {"model": ErrorBody, "description": what[c]} for c in codes}


PNG: dict[int | str, dict[str, Any]] = {200: {"content": {"image/png": {}}, "description": "PNG image."}}
PDF: dict[int | str, dict[str, Any]] = {200: {"content": {"application/pdf": {}}, "description": "The PDF."}}
# a query the search can read: at least one printable character that is not a space
QUERY_PATTERN = r"[^\s\x00-\x1f\x7f-\x9f]"


class GuardMiddleware:
    """Outermost layer: the optional API key, and a last-resort 500 so no traceback leaves the app."""

    def __init__(self, app: ASGIApp, api_key: str | None) -> None:
        self.app = app
        self.api_key = api_key.encode() if api_key else None

    def _authorized(self, scope: Scope) -> bool:
        assert self.api_key is not None
        given = b""
        for name, value in scope.get("headers", []):
            if name == b"x-api-key":
                given = value
            elif name == b"authorization" and value[:7].lower() == b"bearer ":
                given = value[7:]
            elif name == b"cookie" and not given:
                # Starlette's lenient parser: another site's cookie holding a space or JSON does not
                # hide ours (SimpleCookie drops the whole header on such a value)
                cookies = cookie_parser(value.decode("latin-1"))
                if "layoutrag_key" in cookies:
                    # the UI stores the key URI-encoded (encodeURIComponent)
                    given = unquote(cookies["layoutrag_key"]).encode("utf-8", "replace")
        return hmac.compare_digest(given.strip(), self.api_key)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.api_key and scope["path"].startswith("/api/") and not self._authorized(scope):
            await _error(401, "missing or wrong API key")(scope, receive, send)
            return
        started = False

        async def send_tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, send_tracking)
        except Exception as e:  # the last resort: log it here, tell the client one line
            log.error("unhandled error on %s: %s: %s", scope.get("path", "?")[:200], type(e).__name__, e)
            if not started:
                await _error(500, "internal error")(scope, receive, send)


class ServeState:
    """What the HTTP front derives from the service for its pages (document details, example
    queries), dropped when the service reports a new index generation.

    Each request calls `fresh()` once (the endpoints get the service through the `fresh_service`
    dependency) and hands that service to the methods here."""

    def __init__(self, data_root: Path, settings: Settings) -> None:
        self.service = LayoutRAG(data_root, settings=settings)
        self.settings = settings
        self._doc_cache: dict[str, dict[str, Any]] = {}
        self._examples: list[str] | None = None  # /api/info's example queries, made once per generation
        # searches are CPU-bound (query embedding, matrix products): more of them at once than there are
        # cores only adds thread contention, so the rest wait their turn here
        self.search_slots = threading.BoundedSemaphore(max(1, os.cpu_count() or 1))

    def search(
        self, svc: LayoutRAG, q: str, *, top_k: int, filters: SearchFilters | None = None
    ) -> list[EvidencePackage]:
        """A query the schema allows (a printable non-space character) but with nothing searchable
        left after normalising (e.g. only unassigned code points) has no hits, as punctuation-only
        queries have; the filters are still checked."""
        from layoutrag.index.query import check_block_type, normalize_query

        if not normalize_query(q, max_chars=self.settings.search.max_query_chars):
            if filters is not None and filters.block_type is not None:
                check_block_type(filters.block_type, svc.block_type_values())
            return []
        with self.search_slots:
            return svc.search(q, top_k=top_k, filters=filters)

    def fresh(self) -> LayoutRAG:
        """The service, reloaded first when `layoutrag ingest/index` swapped in a new generation."""
        if self.service.refresh():
            self._doc_cache = {}
            self._examples = None
        return self.service

    def doc_detail(self, svc: LayoutRAG, doc_id: str) -> dict[str, Any]:
        cached = self._doc_cache.get(doc_id)
        if cached is not None:
            return cached
        card = svc.card(doc_id)
        chunks = svc.document_chunks(doc_id)
        pages = _page_summaries(svc, doc_id, chunks)
        on_page: dict[int, list[str]] = {p["page"]: [] for p in pages}
        for c in chunks:
            for pg in sorted({r.page for r in c.all_regions()} or {c.page}):
                on_page.setdefault(pg, []).append(c.chunk_id)
        for p in pages:
            p["chunk_ids"] = on_page.get(p["page"], [])
        detail = {
            "card": card.model_dump(mode="json"),
            "has_pdf": svc.data.source_pdf(doc_id).exists(),
            "n_pages": len(pages),
            "pages": pages,
            "chunks": [_chunk_summary(c) for c in chunks],
        }
        self._doc_cache[doc_id] = detail
        return detail

    def examples(self, svc: LayoutRAG) -> list[str]:
        """Example queries for the UI: they read every chunk record, so once per index generation."""
        if self._examples is None:
            self._examples = _example_queries(svc)
        return self._examples


def _page_summaries(svc: LayoutRAG, doc_id: str, chunks: list[Chunk]) -> list[dict[str, Any]]:
    """Pages from document.json when ingested here; else derived from the chunks (imported corpora)."""
    try:
        doc = svc.document(doc_id)
    except (NotFoundError, ValueError):
        doc = None
    if doc is not None:
        return [
            {
                "page": p.page,
                "width_pt": p.width_pt,
                "height_pt": p.height_pt,
                "rotation": p.rotation,
                "text_source": p.text_source,
                "n_elements": len(p.elements),
                "error": p.error,
            }
            for p in doc.pages
        ]
    sizes: dict[int, tuple[float, float] | None] = {}
    for c in chunks:
        for r in c.all_regions():
            sizes.setdefault(r.page, None)
        if c.page_size_pt:
            sizes[c.page] = c.page_size_pt
    default = next((s for s in sizes.values() if s), None)
    out = []
    for pg in sorted(sizes):
        size = sizes[pg] or default
        out.append(
            {
                "page": pg,
                "width_pt": size[0] if size else None,
                "height_pt": size[1] if size else None,
                "rotation": 0,
                "text_source": None,
                "n_elements": None,
                "error": None,
            }
        )
    return out


def _chunk_summary(c: Chunk) -> dict[str, Any]:
    return {
        "chunk_id": c.chunk_id,
        "page": c.page,
        "pages": sorted({r.page for r in c.all_regions()} or {c.page}),
        "block_type": c.block_type,
        "section_title": c.section_title,
        "toc_path": c.toc_path,
        "regions": [r.model_dump(mode="json") for r in c.all_regions()],
        "text_head": c.native_text[:160],
        "indexed": c.indexed,
    }


def _example_queries(svc: LayoutRAG, limit: int = 8) -> list[str]:
    """Queries a visitor can click, taken from the corpus: part numbers and table section titles."""
    examples: list[str] = []
    seen: set[str] = set()

    def add(q: str) -> None:
        q = " ".join(q.split())[:120]
        if q and q.lower() not in seen:
            seen.add(q.lower())
            examples.append(q)

    cards = sorted(svc.cards(), key=lambda c: c.doc_id)[:3]
    for card in cards:
        # a full orderable code shows part-aware matching best; the bare series name is the fallback
        full = [p for p in card.part_numbers if len(p) >= 9 and any(ch.isdigit() for ch in p)]
        if full or card.part_numbers:
            add((full or card.part_numbers)[0])
    chunks = svc.chunks()
    tables = [c for c in chunks if "table" in c.block_type and c.section_title]
    for card in cards:
        section = next((c.section_title for c in tables if c.doc_id == card.doc_id), "")
        section = CJK_RE.sub("", NUMBERING_RE.sub("", section)).strip()  # bilingual titles: the English half
        if section:
            add(f"{card.series[0]} {section.lower()}" if card.series else section.lower())
    if len(examples) < 4:  # corpora without cards (imported chunks): the most common section titles
        titles = Counter(
            NUMBERING_RE.sub("", c.section_title).strip().lower() for c in chunks if c.section_title
        )
        for title, _ in sorted(titles.items(), key=lambda kv: (-kv[1], kv[0]))[:4]:
            add(title)
    if tables:
        add("工作温度范围")  # "operating temperature range": Chinese queries reach English datasheets
    return examples[:limit]


def create_app(data_root: Path, *, settings: Settings | None = None) -> FastAPI:
    settings = settings or load_settings()
    state = ServeState(Path(data_root), settings)
    app = FastAPI(
        title="layoutrag",
        version="0.1.0",
        description="Search engineering datasheets; every hit is a page region you can check.",
        docs_url="/api/docs",
        redoc_url=None,
        # no trailing-slash redirects: Starlette builds them from the request's Host header
        redirect_slashes=False,
        responses=_errors(401, 503),
    )
    app.state.layoutrag = state
    default_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        """The schema, with the `type` filter's valid values as of the live index generation."""
        app.openapi_schema = None
        schema = default_openapi()
        values = ["", *state.fresh().block_type_values()]  # "": any type
        for param in schema.get("paths", {}).get("/api/search", {}).get("get", {}).get("parameters", []):
            if param.get("name") == "type":
                param["schema"] = {
                    "anyOf": [{"type": "string", "enum": values}, {"type": "null"}],
                    "title": "Type",
                    "description": param.get("description", "Block type."),
                }
        return schema

    app.openapi = openapi  # type: ignore[method-assign]

    def fresh_service() -> LayoutRAG:
        """The service for one request: `fresh()` runs once, so a re-ingest is seen from the next request."""
        return state.fresh()

    Svc = Annotated[LayoutRAG, Depends(fresh_service)]

    @app.exception_handler(LayoutragError)
    async def _layoutrag_error(request: Request, e: LayoutragError) -> JSONResponse:
        status = _status_for(e)
        if status == 500:
            log.error("%s on %s: %s", type(e).__name__, request.url.path[:200], e)
        return _error(status, e)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("query", "path"))
        return _error(422, f"invalid {where or 'request'}: {first.get('msg', 'bad value')}")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException) -> JSONResponse:
        # keeps the exception's headers: a 405 carries `Allow` (RFC 9110)
        return _error(e.status_code, e.detail if isinstance(e.detail, str) else "error", headers=e.headers)

    max_q = settings.search.max_query_chars
    max_k = settings.search.max_top_k
    Q = Annotated[
        str,
        Query(min_length=1, max_length=max_q, pattern=QUERY_PATTERN, description="Query (English or Chinese)."),
    ]
    K = Annotated[int, Query(ge=1, le=max_k, description="Number of hits.")]

    def _filters(svc: LayoutRAG, doc: str | None, block_type: str | None) -> SearchFilters | None:
        if not doc and not block_type:
            return None
        doc_id = svc.resolve_doc(doc) if doc else None
        return SearchFilters(doc_id=doc_id, block_type=block_type or None)

    @app.get("/api/search", tags=["search"], responses=_errors(404, 422))
    def search(
        svc: Svc,
        q: Q,
        k: K = settings.search.top_k,
        doc: Annotated[str | None, Query(max_length=256, description="Doc id or PDF file name.")] = None,
        type: Annotated[  # noqa: A002
            str | None, Query(max_length=40, description="Block type (the valid values are listed in the schema).")
        ] = None,
    ) -> JSONResponse:
        """Search; each hit is an evidence package (document, page, PDF-point boxes, text, image)."""
        hits = state.search(svc, q, top_k=k, filters=_filters(svc, doc, type))
        return JSONResponse(
            {"query": q, "k": k, "hits": [h.model_dump(mode="json") for h in hits]}, headers=NO_STORE
        )

    @app.get("/api/answer", tags=["search"], responses=_errors(422))
    def answer(svc: Svc, q: Q, k: Annotated[int, Query(ge=1, le=20)] = 6) -> JSONResponse:
        """Answer from the top evidence packages, citing them as [E1], [E2] … (needs LAYOUTRAG_LLM_*)."""
        from layoutrag.index.query import normalize_query
        from layoutrag.llm import llm_client
        from layoutrag.serve.answer import answer_question, evidence_list

        question = normalize_query(q, max_chars=max_q)
        hits = evidence_list(state.search(svc, question, top_k=k)) if question else []
        result = answer_question(question, hits, llm_client(settings.llm))
        body = result.model_dump(mode="json")
        body["hits"] = [h.model_dump(mode="json") for h in hits]
        return JSONResponse(body, headers=NO_STORE)

    @app.get("/api/specs", tags=["specs"], responses=_errors(422))
    def find_parts(
        svc: Svc,
        where: Annotated[
            list[str] | None, Query(max_length=200, description="Constraints, e.g. 'ESR <= 50 kohm' (repeatable).")
        ] = None,
        q: Annotated[str | None, Query(max_length=max_q, description="Constraints in words.")] = None,
        type: Annotated[str | None, Query(max_length=40, description="Product type.")] = None,  # noqa: A002
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
    ) -> JSONResponse:
        """Parametric search: parts and series whose spec values meet the constraints, ranked by
        constraints met; the constraints as read come back with them; every value names its cells."""
        res = svc.find_parts(where or [], q or None, product_type=type or None, limit=limit)
        from layoutrag.specs import describe_constraint

        body = res.model_dump(mode="json")
        body["constraints_read"] = [describe_constraint(c) for c in res.constraints]
        return JSONResponse(body, headers=NO_STORE)

    @app.get("/api/compare", tags=["specs"], responses=_errors(404, 422))
    def compare(
        svc: Svc, part: Annotated[list[str], Query(max_length=200, description="Parts to compare (repeatable).")]
    ) -> JSONResponse:
        """Parameters as rows, parts as columns; each cell the values with their cell boxes."""
        return JSONResponse(svc.compare_parts(part).model_dump(mode="json"), headers=NO_STORE)

    @app.get("/api/documents/{doc_id}/specs", tags=["specs"], responses=_errors(404, 422))
    def doc_specs(svc: Svc, doc_id: str) -> JSONResponse:
        """A document's spec values, each with its row box and its cells' boxes."""
        check_id(doc_id, "document")
        values = svc.specs(doc_id)
        held = svc.withheld_specs(doc_id)
        return JSONResponse(
            {
                "doc_id": doc_id,
                "specs": [v.model_dump(mode="json") for v in values],
                "withheld": [v.model_dump(mode="json") for v in held],
            }
        )

    @app.get("/api/documents/{doc_id}/crop.png", tags=["specs"], responses=_errors(404, 422))
    def crop_png(
        svc: Svc,
        doc_id: str,
        page: Annotated[int, Query(ge=1, le=MAX_PAGE)],
        bbox: Annotated[str, Query(max_length=100, description="x0,y0,x1,y1 in PDF points.")],
    ) -> Response:
        """The evidence crop of one page region (a spec value's cell)."""
        check_id(doc_id, "document")
        try:
            box = [float(x) for x in bbox.split(",")]
        except ValueError:
            raise InputError("bbox must be four numbers x0,y0,x1,y1 in PDF points") from None
        return Response(svc.crop_png(doc_id, page, box), media_type="image/png", headers=REVALIDATE)

    @app.get("/api/chunks/{chunk_id}", tags=["records"], responses=_errors(404))
    def chunk(svc: Svc, chunk_id: str) -> JSONResponse:
        """One chunk (the evidence-package fields without query-time scores)."""
        return JSONResponse(_lookup_chunk(state, svc, chunk_id).model_dump(mode="json"))

    @app.get(
        "/api/chunks/{chunk_id}/evidence.png", tags=["records"], response_class=FileResponse, responses={**PNG, **_errors(404, 503)}
    )
    def evidence_png(svc: Svc, chunk_id: str) -> FileResponse:
        """The chunk's merged evidence image (rendered from its stored boxes on first request)."""
        c = _lookup_chunk(state, svc, chunk_id)
        return FileResponse(svc.evidence_image_of(c), media_type="image/png", headers=REVALIDATE)

    @app.get("/api/documents", tags=["documents"])
    def documents(svc: Svc) -> JSONResponse:
        """Every indexed document's card, with its chunk count."""
        counts = svc.chunk_counts()
        cards = sorted(svc.cards(), key=lambda c: (c.file_name or c.doc_id).lower())
        return JSONResponse(
            {"documents": [{**c.model_dump(mode="json"), "n_chunks": counts.get(c.doc_id, 0)} for c in cards]}
        )

    @app.get("/api/documents/{doc_id}", tags=["documents"], responses=_errors(404))
    def document(svc: Svc, doc_id: str) -> JSONResponse:
        """A document's card, pages (size, chunk ids on each) and chunk summaries."""
        check_id(doc_id, "document")
        return JSONResponse(state.doc_detail(svc, doc_id))

    @app.get(
        "/api/documents/{doc_id}/pages/{page}.png",
        tags=["documents"],
        response_class=FileResponse,
        responses={**PNG, **_errors(404, 422)},
    )
    def page_png(svc: Svc, doc_id: str, page: Annotated[int, PathParam(ge=1, le=MAX_PAGE)]) -> Response:
        """A page image at the ingest dpi (rendered from the stored PDF on first request)."""
        check_id(doc_id, "document")
        detail = state.doc_detail(svc, doc_id)
        if detail["pages"] and page > max(p["page"] for p in detail["pages"]):
            raise NotFoundError(f"document {doc_id} has no page {page}")
        image = svc.page_image_data(doc_id, page)  # rendered in memory when the disk is full
        if isinstance(image, bytes):
            return Response(image, media_type="image/png", headers=IMMUTABLE)
        return FileResponse(image, media_type="image/png", headers=IMMUTABLE)

    @app.get(
        "/api/documents/{doc_id}/pdf", tags=["documents"], response_class=FileResponse, responses={**PDF, **_errors(404)}
    )
    def pdf(svc: Svc, doc_id: str) -> FileResponse:
        """The PDF as ingested."""
        path = svc.pdf_path(doc_id)
        card = svc.card(doc_id)
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", card.file_name or f"{doc_id}.pdf")
        return FileResponse(path, media_type="application/pdf", filename=name)

    @app.get("/api/info", tags=["meta"])
    def info(svc: Svc) -> JSONResponse:
        """Corpus summary for the UI: counts, block types, example queries, whether answers are on."""
        try:
            n_chunks = sum(svc.chunk_counts().values())
            types = svc.block_types()
            n_docs = len(svc.cards())
            examples = state.examples(svc)
            index_ready = True
        except IndexMissingError:
            n_chunks, types, n_docs, examples, index_ready = 0, [], 0, [], False
        return JSONResponse(
            {
                "index_ready": index_ready,
                "n_documents": n_docs,
                "n_chunks": n_chunks,
                "block_types": types,
                "examples": examples,
                "answers_enabled": bool(settings.llm.base_url),
                "dpi": settings.render.dpi,
                "max_query_chars": max_q,
                "max_top_k": max_k,
                "default_top_k": settings.search.top_k,
            },
            headers=NO_STORE,
        )

    @app.get("/api/health", tags=["meta"])
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/", include_in_schema=False)
    def index_html() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers=NO_STORE)

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(GuardMiddleware, api_key=settings.serve.api_key.get_secret_value() if settings.serve.api_key else None)
    return app


def _lookup_chunk(state: ServeState, svc: LayoutRAG, chunk_id: str) -> Chunk:
    """An indexed chunk, or a stored-but-unindexed one (page header/footer) of a known document."""
    check_id(chunk_id, "chunk")
    try:
        return svc.get_chunk(chunk_id)
    except NotFoundError:
        doc_id = chunk_id.rsplit("_p", 1)[0]
        if doc_id != chunk_id and doc_id in svc.doc_ids():
            for c in svc.document_chunks(doc_id):
                if c.chunk_id == chunk_id:
                    return c
        raise


def _is_loopback(host: str) -> bool:
    return host in ("127.0.0.1", "localhost", "::1")


def _warm_up(state: ServeState) -> None:
    """Load the index and the query embedder, pick the example queries and load the parametric spec store,
    before the first visitor asks (errors surface later)."""
    try:
        svc = state.fresh()
        svc.search("warm up", top_k=1)
        state.examples(svc)
        svc.load_specs()
    except Exception as e:  # an empty data dir is fine here; /api/info says so
        log.info("warm-up skipped: %s", _one_line(e))


def run_server(
    data_root: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    settings: Settings | None = None,
    ready: str = "",
) -> None:
    """Serve the API and the UI with uvicorn (blocking). The "serving on" line (and `ready`, a line of
    the caller's, such as the demo's "open http://...") is printed once the socket accepts
    connections, not before: a user who opens the address at once finds it answering."""
    import uvicorn

    settings = settings or load_settings()

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    if not _is_loopback(host) and settings.serve.api_key is None:
        log.warning("serving on %s without LAYOUTRAG_API_KEY: anyone who can reach it can search", host)
    app = create_app(Path(data_root), settings=settings)
    threading.Thread(target=_warm_up, args=(app.state.layoutrag,), daemon=True).start()
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False))

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            print(f"layoutrag: serving {Path(data_root)} on http://{host}:{port}/", flush=True)
            if ready:
                print(ready, flush=True)

    threading.Thread(target=announce, daemon=True).start()
    server.run()
