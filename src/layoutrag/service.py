"""The one core service. CLI, HTTP API, MCP server and the demo are thin fronts over `LayoutRAG`.

idx = layoutrag.open("layoutrag-data")
hits = idx.search("7M-26.000MAAJ-T ESR", top_k=15)      # list[EvidencePackage]
idx.ingest(["datasheets/"], jobs=2)                     # writes: through the orchestrator (build.py)

Reads (search, records, images) follow the live index generation: `refresh()` reloads when
`ingest`/`index`/`import-chunks` (from this process or another) swapped in a new one; the HTTP and
MCP fronts call it once per request. Writes (ingest, index, import) run the orchestrator and then
refresh.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

from layoutrag.config import Settings, load_settings
from layoutrag.errors import InputError, LayoutragError, NotFoundError
from layoutrag.records import (
    Chunk,
    DocChunks,
    Document,
    DocumentCard,
    EvidencePackage,
    SearchFilters,
    SpecComparison,
    SpecSearchResult,
    SpecValue,
)
from layoutrag.storage import DataDir, check_id

__all__ = ["LayoutRAG", "open_index", "validate_query"]


def validate_query(query: str, *, max_chars: int) -> str:
    """Normalise a user query (`index.query.normalize_query`, shared with `HybridIndex.search`);
    raise InputError (one line) when it cannot be searched."""
    from layoutrag.index.query import normalize_query  # lazy: it brings numpy, `import layoutrag` does not

    if not isinstance(query, str):
        raise InputError("query must be a string")
    cleaned = normalize_query(query, max_chars=max_chars)
    if not cleaned:
        raise InputError("empty query")
    return cleaned


class LayoutRAG:
    def __init__(self, data: str | os.PathLike[str] | None = None, *, settings: Settings | None = None):
        self.settings = settings or load_settings()
        self.data = DataDir(data if data is not None else self.settings.data)
        self._lock = threading.Lock()
        self._generation: str | None = None

    # --- search -------------------------------------------------------------------------
    @cached_property
    def _index(self):  # layoutrag.index.base.SearchIndex, loaded lazily from the live generation
        from layoutrag.index.store import load_index

        return load_index(self.data, settings=self.settings)

    def reload(self) -> None:
        self.__dict__.pop("_index", None)
        self.__dict__.pop("_chunk_map", None)

    def generation(self) -> str:
        """The name of the live index generation ("" when there is none)."""
        try:
            return (self.data.index / "CURRENT").read_text(encoding="utf-8").strip()
        except OSError:
            return ""

    def refresh(self) -> bool:
        """Reload when another generation went live since the last look; True when it did."""
        gen = self.generation()
        if gen == self._generation:
            return False
        with self._lock:
            if gen == self._generation:
                return False
            self.reload()
            self._generation = gen
        return True

    # --- writes (the orchestrator, layoutrag.build) ----------------------------------------
    def ingest(
        self,
        paths: Sequence[str | os.PathLike[str]],
        *,
        layout: str | None = None,
        jobs: int = 1,
        progress: bool = False,
        index: bool = True,
        keep_revisions: bool = False,
        prune: bool = False,
    ):  # noqa: ANN201 - layoutrag.build.BuildResult
        """Ingest, chunk and (unless `index=False`) index PDFs or folders of PDFs. A path ingested
        before with other content replaces its previous revision unless `keep_revisions`; `prune`
        also removes the documents whose source file is gone (`layoutrag.build.build`)."""
        from layoutrag.build import build

        result = build(
            [Path(p) for p in paths],
            self.data.root,
            settings=self.settings,
            layout=layout,
            jobs=jobs,
            progress=progress,
            index=index,
            keep_revisions=keep_revisions,
            prune=prune,
        )
        self.refresh()
        return result

    def remove(self, docs: Sequence[str], *, progress: bool = False):  # noqa: ANN201 - BuildResult
        """Remove stored documents, each named by doc id or file name (or the name hits show): a new
        index generation without them goes live, then their artifacts are deleted."""
        from layoutrag.build import remove_documents

        if not docs:
            raise InputError("name at least one document (doc id or file name)")
        ids = [self.resolve_stored(d) for d in docs]
        result = remove_documents(self.data.root, ids, settings=self.settings, progress=progress)
        self.refresh()
        return result

    def resolve_stored(self, doc: str) -> str:
        """A stored (ingested or imported) document's id from its id, file name or served name;
        NotFoundError when none matches, InputError when a name matches several (revisions)."""
        from layoutrag.build import stored_sources

        ids = set(stored_sources(self.data))
        if self.data.imported.is_dir():
            ids |= {p.stem for p in self.data.imported.glob("*.json")}
        if doc in ids:
            return doc
        matches = []
        for doc_id in sorted(ids):
            try:
                d = self.document(doc_id)
                names = {d.file_name, d.source_pdf}
            except (NotFoundError, OSError, ValueError):
                try:
                    names = {self.card(doc_id).file_name}
                except LayoutragError:
                    names = set()
            if doc in names or Path(doc).name in names:
                matches.append(doc_id)
        if not matches:
            raise NotFoundError(f"unknown document: {doc[:80]}")
        if len(matches) > 1:
            raise InputError(f"{doc[:80]} names {len(matches)} documents ({', '.join(matches)}); give a doc id")
        return matches[0]

    def index(self, *, progress: bool = False, require_documents: bool = True):  # noqa: ANN201 - IndexStats
        """A new index generation from the stored chunks, swapped in atomically."""
        from layoutrag.build import reindex

        stats = reindex(self.data.root, settings=self.settings, progress=progress, require_documents=require_documents)
        self.refresh()
        return stats

    def import_chunks(self, file: str | os.PathLike[str], *, progress: bool = False):  # noqa: ANN201 - BuildResult
        """Chunk records made elsewhere (JSONL), then a new index generation."""
        from layoutrag.build import import_chunks

        result = import_chunks(Path(file), self.data.root, settings=self.settings, progress=progress)
        self.refresh()
        return result

    def search(
        self,
        query: str,
        *,
        top_k: int | None = None,
        filters: SearchFilters | dict | None = None,
        fusion: str | None = None,
    ) -> list[EvidencePackage]:
        """Evidence packages, best first. Every front (CLI, HTTP API, MCP) searches through here, so
        a bad query, top_k or filter is refused with the same one-line InputError everywhere.
        `fusion`: rrf | weighted | learned | bm25 | dense for this search (default: the settings')."""
        q = validate_query(query, max_chars=self.settings.search.max_query_chars)
        k = self.settings.search.top_k if top_k is None else int(top_k)
        if not 1 <= k <= self.settings.search.max_top_k:
            raise InputError(f"top_k must be between 1 and {self.settings.search.max_top_k}")
        f = SearchFilters.model_validate(filters) if isinstance(filters, dict) else filters
        if f is not None and f.block_type is not None:
            from layoutrag.index.query import check_block_type

            check_block_type(f.block_type, self._index.table.block_types)
        if fusion is None:
            return self._index.search(q, top_k=k, filters=f)
        from layoutrag.index.options import SearchOptions

        return self._index.search(q, top_k=k, filters=f, options=SearchOptions.for_fusion(fusion, self.settings))

    # --- records ------------------------------------------------------------------------
    @cached_property
    def _chunk_map(self) -> dict[str, Chunk]:
        return {c.chunk_id: c for c in self._index.chunks}

    def get_chunk(self, chunk_id: str) -> Chunk:
        check_id(chunk_id, "chunk")
        try:
            return self._chunk_map[chunk_id]
        except KeyError:
            pass
        from layoutrag.index.base import parse_page_unit_id

        where = parse_page_unit_id(chunk_id)  # a page a search returned as its hit (index/hits.py)
        unit = self._index.page_unit(*where) if where else None
        if unit is None:
            raise NotFoundError(f"unknown chunk: {chunk_id}")
        return unit

    def chunks(self, doc_id: str | None = None) -> list[Chunk]:
        cs = self._index.chunks
        return [c for c in cs if doc_id is None or c.doc_id == doc_id]

    def chunk_counts(self) -> dict[str, int]:
        """Indexed chunks per document (documents with none left out), read off the index's chunk
        table: no chunk record is parsed."""
        import numpy as np  # the index has loaded it already

        table = self._index.table
        counts = np.bincount(table.doc_index, minlength=len(table.doc_ids)).tolist()
        return {d: n for d, n in zip(table.doc_ids, counts, strict=True) if n}

    def block_types(self) -> list[str]:
        """The distinct block types of the indexed chunks, sorted (from the chunk table)."""
        return sorted(set(self._index.table.block_types))

    def block_type_values(self) -> list[str]:
        """Every value the block-type filter accepts now (ingest's types, the index's, and their
        components); ingest's alone when there is no index yet."""
        from layoutrag.errors import IndexMissingError
        from layoutrag.index.query import block_type_values

        try:
            types = list(self._index.table.block_types)
        except IndexMissingError:
            types = []
        return block_type_values(types)

    def cards(self) -> list[DocumentCard]:
        return list(self._index.cards.values())

    def card(self, doc_id: str) -> DocumentCard:
        check_id(doc_id, "document")
        try:
            return self._index.cards[doc_id]
        except KeyError:
            raise NotFoundError(f"unknown document: {doc_id}") from None

    def resolve_doc(self, doc: str) -> str:
        """A doc id, or the PDF's file name (as ingested), to a doc id."""
        if doc in self._index.cards:
            return doc
        name = Path(doc).name
        for c in self._index.cards.values():
            if c.file_name == name:
                return c.doc_id
        raise NotFoundError(f"unknown document: {doc[:80]}")

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        """Every chunk of a document, page headers/footers (not indexed) included when stored."""
        self.card(doc_id)  # validates the id and that the index knows it
        path = self.data.chunks_json(doc_id)
        if path.exists():
            try:
                return DocChunks.model_validate_json(path.read_text(encoding="utf-8")).chunks
            except ValueError:
                pass  # unreadable chunks.json: the index's chunks
        return self.chunks(doc_id)

    def document(self, doc_id: str) -> Document:
        path = self.data.document_json(doc_id)
        if not path.exists():
            raise NotFoundError(f"unknown document: {doc_id}")
        return Document.model_validate_json(path.read_text(encoding="utf-8"))

    # --- parametric values (docs/*/specs.json) ---------------------------------------------
    def _spec_store(self):  # noqa: ANN202 - layoutrag.parametric.SpecStore, cached per index generation
        from layoutrag.parametric import load_spec_store

        key = self.generation()
        cached = self.__dict__.get("_specs_cache")
        if cached is None or cached[0] != key:
            cached = (key, load_spec_store(self.data))
            self.__dict__["_specs_cache"] = cached
        return cached[1]

    def load_specs(self) -> int:
        """Load the parametric spec store now (it is cached per index generation; at 20,000 datasheets loading takes
        tens of seconds, benchmarks/spec_search_speed.py): the number of documents with spec values."""
        return len(self._spec_store().specs)

    def specs(self, doc_id: str) -> list[SpecValue]:
        """A document's spec values, each with its cells' boxes (NotFoundError when the document
        has no spec stage output: run `build_specs`, or ingest again)."""
        from layoutrag.chunking.specs import load_doc_specs

        return load_doc_specs(self.data, self.resolve_spec_doc(doc_id)).specs

    def withheld_specs(self, doc_id: str) -> list[SpecValue]:
        """The values the spec stage read from a document but doubts (each with its `doubt`):
        stored for inspection, never an answer to a parametric query."""
        from layoutrag.chunking.specs import load_doc_specs

        return load_doc_specs(self.data, self.resolve_spec_doc(doc_id)).withheld

    def resolve_spec_doc(self, doc: str) -> str:
        """A doc id or the PDF's file name, among the documents with spec values, to a doc id (no
        index needed)."""
        store = self._spec_store()
        if doc in store.cards:
            return doc
        name = Path(doc).name
        for d, card in store.cards.items():
            if card.file_name == name:
                return d
        check_id(doc, "document")
        raise NotFoundError(f"no spec values for document {doc[:80]} (not ingested, or its spec stage not run)")

    def find_parts(
        self,
        where: Sequence[str] | None = None,
        query: str | None = None,
        *,
        product_type: str | None = None,
        limit: int = 50,
    ) -> SpecSearchResult:
        """Parts and series whose spec values meet the constraints: ``where`` strings ("ESR <= 50
        kohm"; a bad one is a one-line InputError) and those read from a natural `query`; the
        constraints as read are returned with the results."""
        from layoutrag.parametric import covers_any, find_parts, named_type, parse_constraints
        from layoutrag.vocab import product_type_names

        if query is not None:
            validate_query(query, max_chars=self.settings.search.max_query_chars)
        if not 1 <= int(limit) <= 500:
            raise InputError("limit must be between 1 and 500")
        store = self._spec_store()
        held = store.product_types()
        # a query's type is read from the whole vocabulary, so "MOSFET ..." over a library of crystals says so
        # rather than leaving "MOSFET" unread and filtering every part on the rest
        known = product_type_names()
        cons, ptype, rest = parse_constraints(list(where or []), query, known)
        if product_type and not covers_any(product_type, known):
            named, left = named_type(product_type, known)  # --type by any of its words: "LDO", "op amp", 晶振
            product_type = named if named and not left else product_type
        ptype = product_type or ptype
        if ptype and not covers_any(ptype, held):
            here = f"the types here: {', '.join(held)}" if held else "no document has spec values yet"
            if covers_any(ptype, known):
                raise InputError(f"no {ptype} in this library ({here})")
            raise InputError(f"unknown product type {ptype!r} ({here})")
        return find_parts(store, cons, product_type=ptype, unparsed=rest, limit=int(limit))

    def compare_parts(self, parts: Sequence[str]) -> SpecComparison:
        """Parameters as rows, the named parts (part numbers, series or file names) as columns."""
        from layoutrag.parametric import compare_parts

        return compare_parts(self._spec_store(), [str(p) for p in parts])

    def crop_png(self, doc_id: str, page: int, bbox: Sequence[float], *, pad: float = 6.0) -> bytes:
        """A PNG of one page region (PDF points, top-left origin) with `pad` points around it: the
        evidence crop of a spec cell."""
        import io

        from PIL import Image

        if len(bbox) != 4 or not all(isinstance(x, int | float) for x in bbox):
            raise InputError("bbox must be four numbers x0,y0,x1,y1 in PDF points")
        x0, y0, x1, y1 = (float(x) for x in bbox)
        if not (x1 > x0 and y1 > y0):
            raise InputError("bbox must have x1 > x0 and y1 > y0")
        dpi = self.settings.render.dpi
        path = self.page_image(doc_id, page, dpi=dpi)
        s = dpi / 72.0
        with Image.open(path) as im:
            box = (
                max(0, int((x0 - pad) * s)),
                max(0, int((y0 - pad) * s)),
                min(im.width, int((x1 + pad) * s) + 1),
                min(im.height, int((y1 + pad) * s) + 1),
            )
            if box[2] <= box[0] or box[3] <= box[1]:
                raise InputError("bbox lies outside the page")
            out = io.BytesIO()
            im.crop(box).save(out, format="PNG")
        return out.getvalue()

    # --- images ---------------------------------------------------------------------------
    def evidence_image(self, chunk_id: str) -> Path:
        """The chunk's merged evidence image (rendered from its stored boxes on first request)."""
        return self.evidence_image_of(self.get_chunk(chunk_id))

    def evidence_image_of(self, c: Chunk) -> Path:
        """`c`'s merged evidence image; a page unit's (index/hits.py) is its page image."""
        if c.unit == "page" and not c.evidence_image:
            return self.page_image(c.doc_id, c.page)
        if not c.evidence_image:
            raise NotFoundError(f"no evidence image for chunk {c.chunk_id}")
        return self.chunk_image(c, c.evidence_image)

    def crop_image(self, chunk_id: str, i: int) -> Path:
        """The chunk's `i`-th member crop (``crop_images[i]``), rendered on first request."""
        c = self.get_chunk(chunk_id)
        if not 0 <= int(i) < len(c.crop_images):
            raise NotFoundError(f"chunk {chunk_id} has no crop {i}")
        return self.chunk_image(c, c.crop_images[int(i)])

    def chunk_image(self, chunk: Chunk, rel: str) -> Path:
        """One of `chunk`'s image files: the cached file, else rendered now from the chunk's stored
        boxes (every reader of evidence images and crops goes through here:
        ``chunking.evidence.chunk_image``). NotFoundError when it cannot be made; StorageError
        when it cannot be written."""
        from layoutrag.chunking.evidence import chunk_image
        from layoutrag.chunking.pipeline import evidence_spec
        from layoutrag.errors import StorageError, os_error_line

        try:
            return chunk_image(self.data, chunk, rel, evidence_spec(self.settings))
        except OSError as e:
            raise StorageError(f"cannot write the evidence image: {os_error_line(e)}") from None

    def pdf_path(self, doc_id: str) -> Path:
        self.card(doc_id)
        p = self.data.source_pdf(doc_id)
        if not p.exists():
            raise NotFoundError(f"no PDF stored for document {doc_id}")
        return p

    def page_image(self, doc_id: str, page: int, *, dpi: int | None = None) -> Path:
        """PNG of one page (cached in the data dir; re-rendered on demand). StorageError when it
        cannot be cached (a full disk): :meth:`page_image_data` renders it in memory then."""
        from layoutrag.errors import StorageError
        from layoutrag.pdf import render_page_png

        dpi = dpi or self.settings.render.dpi
        pdf = self.pdf_path(doc_id)
        out = self.data.page_png(doc_id, page, dpi)
        if not out.exists():
            try:
                render_page_png(pdf, page, dpi, out)  # raises NotFoundError for a page out of range
            except OSError as e:
                from layoutrag.errors import os_error_line

                raise StorageError(f"cannot cache the page image: {os_error_line(e)}") from None
        return out

    def page_image_data(self, doc_id: str, page: int, *, dpi: int | None = None) -> Path | bytes:
        """The cached page PNG's path, or the PNG itself rendered in memory when the cache cannot
        be written (a full disk): a reader is never refused a page because the disk is full."""
        from layoutrag.errors import StorageError
        from layoutrag.pdf import open_document, page_png_bytes

        try:
            return self.page_image(doc_id, page, dpi=dpi)
        except StorageError:
            with open_document(self.pdf_path(doc_id)) as doc:
                return page_png_bytes(doc, page, dpi or self.settings.render.dpi)

    def doc_ids(self) -> Sequence[str]:
        return sorted(self._index.cards)


def open_index(data: str | os.PathLike[str] | None = None, *, settings: Settings | None = None) -> LayoutRAG:
    return LayoutRAG(data, settings=settings)
