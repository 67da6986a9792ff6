"""MCP server (official `mcp` SDK 2.x, stdio): the core service as tools for agents.

    build_evidence_package(query, top_k, filters) -> {"query", "hits": [evidence package, ...]}
    get_chunk(chunk_id)                          -> one chunk record
    get_evidence_image(chunk_id)                 -> the merged evidence image (image content)
    find_parts(where, query, product_type)       -> parts meeting spec constraints, with evidence cells
    compare_parts(parts)                         -> parameters x parts, each cell values with their cells

A LayoutragError becomes a tool error (`isError: true`) whose text is the error's one-line
message, so the calling model can read what went wrong; anything else is reported by the SDK
without internals.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.types import Image
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from layoutrag.config import Settings, load_settings
from layoutrag.errors import LayoutragError, NotFoundError
from layoutrag.records import SearchFilters
from layoutrag.service import LayoutRAG

__all__ = ["EvidenceFilters", "create_mcp_server", "run_stdio"]

INSTRUCTIONS = """layoutrag searches engineering datasheets (crystals, oscillators, RTCs, ...).
Call build_evidence_package with a question or a part number; each hit is a page region with its
document, page, PDF-point boxes, text, table rows and an evidence image. Quote values from
`native_text` or `rows` and cite the document and page. get_evidence_image shows the region.
find_parts answers parametric questions ("ESR <= 50 kohm", "load capacitance = 12.5 pF") with
parts and the table cells their values come from; compare_parts puts parts side by side."""


class EvidenceFilters(BaseModel):
    """Optional search filters: a document (doc id or PDF file name), a block type, a page range."""

    model_config = ConfigDict(extra="forbid")

    doc: str | None = Field(default=None, description="Doc id or the PDF's file name.")
    block_type: str | None = Field(default=None, description="table, figure, text, list, ...")
    page_min: int | None = Field(default=None, ge=1)
    page_max: int | None = Field(default=None, ge=1)


def _tool_error(e: LayoutragError) -> ToolError:
    msg = str(e).splitlines()[0] if str(e) else type(e).__name__
    return ToolError(f"{type(e).__name__}: {msg}")


def validation_line(e: ValidationError) -> str:
    """One line for bad tool arguments, like the CLI and the HTTP API: the field and what is wrong."""
    errors = e.errors()
    if not errors:
        return "InputError: invalid arguments"
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or "arguments"
    msg = (str(first["msg"]).splitlines() or ["bad value"])[0]
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"InputError: invalid {where}: {msg}{more}"


class _Server(MCPServer):
    """The SDK's server, with argument validation errors in one line (the SDK's own text is the
    pydantic report: several lines and a link)."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as e:
            if isinstance(e.__cause__, ValidationError):
                raise ToolError(validation_line(e.__cause__)) from e.__cause__
            raise


def create_mcp_server(data_root: Path, *, settings: Settings | None = None) -> MCPServer:
    service = LayoutRAG(Path(data_root), settings=settings or load_settings())

    def fresh() -> LayoutRAG:
        """The service, reloaded first when a new index generation went live (one look per call)."""
        service.refresh()
        return service

    server: MCPServer = _Server(
        "layoutrag", instructions=INSTRUCTIONS, version="0.1.0", log_level="WARNING"
    )

    @server.tool(
        description="Search the datasheets. Returns evidence packages (document, page, PDF-point boxes, "
        "text, table rows, fused score and both ranks), best first."
    )
    def build_evidence_package(
        query: str, top_k: int = 5, filters: EvidenceFilters | None = None
    ) -> dict[str, Any]:
        try:
            search_filters = None
            if filters is not None:
                search_filters = SearchFilters(
                    doc_id=fresh().resolve_doc(filters.doc) if filters.doc else None,
                    block_type=filters.block_type,
                    page_min=filters.page_min,
                    page_max=filters.page_max,
                )
            svc = fresh()
            hits = svc.search(query, top_k=top_k, filters=search_filters)
        except LayoutragError as e:
            raise _tool_error(e) from None
        return {"query": query, "hits": [h.model_dump(mode="json") for h in hits]}

    @server.tool(description="One chunk by id (as returned in a hit's chunk_id).")
    def get_chunk(chunk_id: str) -> dict[str, Any]:
        try:
            return fresh().get_chunk(chunk_id).model_dump(mode="json")
        except LayoutragError as e:
            raise _tool_error(e) from None

    @server.tool(description="The chunk's evidence image (PNG): the page region the hit came from.")
    def get_evidence_image(chunk_id: str) -> Image:
        try:
            path = fresh().evidence_image(chunk_id)
        except LayoutragError as e:
            raise _tool_error(e) from None
        if not path.is_file():
            raise _tool_error(NotFoundError(f"no evidence image for chunk {chunk_id}"))
        return Image(path=path)

    @server.tool(
        description="Parametric search: parts/series whose spec values meet constraints. `where`: "
        "constraints like 'ESR <= 50 kohm', 'load capacitance = 12.5 pF', 'operating temperature = -40 to 85'; "
        "'ESR between 20 and 50 ohm' (two bounds); `query`: the same in words ('32.768 kHz crystal ESR below 50k', "
        "'MOSFET Vds >= 30 V', '工作温度 -40~85 的 TCXO'); `product_type`: a type or family ('TCXO', 'oscillator', "
        "'sensor'). Returns the constraints as read, what was not read (`unparsed`), and results ranked by "
        "constraints met (meets / fails / unknown), each value with page and cell boxes."
    )
    def find_parts(
        where: list[str] | None = None, query: str | None = None, product_type: str | None = None, limit: int = 20
    ) -> dict[str, Any]:
        try:
            from layoutrag.specs import describe_constraint

            res = fresh().find_parts(where or [], query, product_type=product_type, limit=limit)
        except LayoutragError as e:
            raise _tool_error(e) from None
        body = res.model_dump(mode="json")
        body["constraints_read"] = [describe_constraint(c) for c in res.constraints]
        return body

    @server.tool(
        description="Compare parts (part numbers, series or PDF file names): parameters as rows, parts as "
        "columns, each cell the printed values with page and cell boxes."
    )
    def compare_parts(parts: list[str]) -> dict[str, Any]:
        try:
            return fresh().compare_parts(parts).model_dump(mode="json")
        except LayoutragError as e:
            raise _tool_error(e) from None

    return server


def run_stdio(data_root: Path, *, settings: Settings | None = None) -> None:
    """Serve over stdio until the client closes the pipe (logs go to stderr)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    create_mcp_server(Path(data_root), settings=settings).run("stdio")
