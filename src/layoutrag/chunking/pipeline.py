"""Chunking stage: Document -> chunks.json (card + chunks) + evidence images, resumable.

Steps: group each page (group.py) -> table rows (tables.py) -> join tables continued over a page
break -> optional LLM regroup/describe (enrich.py, only when LAYOUTRAG_LLM_BASE_URL is set) ->
guards (no element twice, none lost) -> TOC paths (toc.py) -> document card (card.py) -> chunk
ids, descriptions (describe.py) -> evidence images (evidence.py) -> DocChunks, written atomically.

Resumable: ``DocChunks.key`` = hash of the document record + ``CHUNK_STAGE_VERSION`` + the
settings that shape chunks; when the stored key is current, nothing is redone.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from pathlib import PurePath
from typing import TYPE_CHECKING

import pymupdf

from layoutrag.chunking.card import build_card
from layoutrag.chunking.describe import describe_group, keywords_for
from layoutrag.chunking.evidence import clear_images, evidence_spec_path, plan_evidence, write_evidence
from layoutrag.chunking.figures import split_multi_figure_pictures
from layoutrag.chunking.group import ANCHOR_LABELS, Group, apply_guards, group_page
from layoutrag.chunking.rules import enabled
from layoutrag.chunking.sizes import larger_units
from layoutrag.chunking.tables import join_continued_tables, ruled_boxes, table_rows
from layoutrag.chunking.tiling import grow_into_margin, tile_boxes
from layoutrag.chunking.toc import SectionInfo, assign_sections, document_title
from layoutrag.config import Settings

if TYPE_CHECKING:
    from layoutrag.chunking.enrich import ChatModel
from layoutrag.errors import NotFoundError
from layoutrag.geometry import union_box
from layoutrag.pdf import PdfPage, open_document, source_pdf_path
from layoutrag.records import BBox, Chunk, DocChunks, Document, DocumentCard, EvidenceSpec, Page, Region
from layoutrag.storage import DataDir, atomic_write_json

__all__ = [
    "CHUNK_STAGE_VERSION",
    "build_doc_chunks",
    "chunk_and_save",
    "chunks_key",
    "evidence_spec",
    "load_doc_chunks",
    "page_units_in_memory",
]

CHUNK_STAGE_VERSION = "chunk-20"  # 20: a table is read in its ruled extent too, that reading kept when it has no fewer rows and more words (a last row whose closing rule lies outside the detector box, cut-off unit columns); 19: a table cell no page word touches gets no text (find_tables read a watermark's letters there); 18: table rules drawn as thin filled paths with curved ends read as rules (find_tables skips them); 17: document-control labels (表单编号, 文件编号, Form No.) mark document numbers, not parts; 16: card product types from the distributor categories (data/product_types.tsv); 15: clipped_paragraph rule removed (it cost coverage held out); 11: source_pdf is the served name; 12: unit margins, ruled table widths, rules removed; 13: table rows carry cell boxes; 14: card vendor from the document's own company + public registries

log = logging.getLogger(__name__)


def served_name(doc: Document) -> str:
    """The source name a chunk shows: `doc.source_pdf`, or the file name for a document ingested
    before source_pdf stopped holding the absolute path."""
    return doc.file_name if PurePath(doc.source_pdf).is_absolute() else doc.source_pdf


def chunks_key(doc: Document, settings: Settings, extra: str = "") -> str:
    # the local path and the revision mark do not change a chunk (the mark is copied onto the card)
    h = hashlib.sha256(doc.model_dump_json(exclude={"source_path", "superseded_by"}).encode("utf-8"))
    shape = (
        f"{settings.chunking.chunk_max_chars}/{settings.chunking.chunk_max_gap_frac}/{settings.chunking.chunk_split_gap_frac}/"
        f"{settings.render.dpi}/{settings.chunking.crop_padding_px}/{settings.chunking.chunk_member_boxes}/"
        f"{settings.chunking.chunk_margin_pt}/{settings.chunking.chunk_sizes}/{settings.chunking.chunk_block_gap_frac}"
    )
    h.update(shape.encode())
    return f"{h.hexdigest()[:32]}+{CHUNK_STAGE_VERSION}{('+' + extra) if extra else ''}"


def load_doc_chunks(data: DataDir, doc_id: str) -> DocChunks:
    path = data.chunks_json(doc_id)
    if not path.exists():
        raise NotFoundError(f"no chunks for document {doc_id}")
    return DocChunks.model_validate_json(path.read_text(encoding="utf-8"))


def group_document(
    doc: Document, detected: Document, settings: Settings, pdf: pymupdf.Document | None
) -> tuple[dict[int, list[Group]], dict[str, BBox]]:
    """Per page groups with table rows, tables continued over a page break joined; and the fitted
    box of each element as detected (`fitted_boxes`). `doc` is `detected` with its multi-figure
    pictures split (the same pages in the same order).

    One pass over the pages: each page of `pdf` is loaded once and its drawings are read once, for
    table rows and ruled extents alike, and let go before the next page."""
    groups_by_page: dict[int, list[Group]] = {}
    fitted: dict[str, BBox] = {}
    for page, as_detected in zip(doc.pages, detected.pages, strict=True):
        pdf_page = PdfPage.load(pdf, page.page)
        fit = fitted_boxes(as_detected, pdf_page)
        groups_by_page[page.page] = page_groups(page, settings, pdf_page, fit)
        fitted.update(fit)
    return join_continued_tables(groups_by_page, {p.page: p for p in doc.pages}), fitted


def page_groups(
    page: Page, settings: Settings, pdf_page: PdfPage | None, fitted: dict[str, BBox] | None = None
) -> list[Group]:
    """The page's groups (group.py) with the rows of their tables, each table read in the
    detector's box and in its fitted box (`fitted_boxes`: grown to the rulings drawn across its
    edge; `tables.table_rows` keeps the better reading) - a detector box a few points short of the
    closing rule under the last row would leave that row unclosed."""
    groups = group_page(page, settings)
    for g in groups:
        if g.block_type != "table":
            continue
        for t in (m for m in g.members if m.label == "table"):
            box = (fitted or {}).get(t.element_id) if enabled("ruled_rows_read") else None
            rows, header = table_rows(t, page.words, pdf_page, box)
            g.rows.extend(rows)
            if header and not g.header:
                g.header = header
    return groups


def build_doc_chunks(
    doc: Document, settings: Settings, *, data: DataDir | None = None, key: str = "", llm: ChatModel | None = None
) -> tuple[DocChunks, list[Group]]:
    """The document's card and chunks (without evidence images), and the groups they came from."""
    # a picture holding several captioned figures is read as one picture per figure (figures.py)
    detected = doc
    doc = doc.model_copy(update={"pages": [split_multi_figure_pictures(p) for p in doc.pages]})
    pdf_path = source_pdf_path(doc, data)
    pdf: pymupdf.Document | None = None
    if pdf_path is not None:
        try:
            pdf = open_document(pdf_path)
        except Exception:
            pdf = None
    try:
        # fitted boxes of the detected elements: sub-pictures keep the exact tiles they were cut as
        groups_by_page, fitted = group_document(doc, detected, settings, pdf)
    finally:
        if pdf is not None:
            pdf.close()
    groups = [g for p in sorted(groups_by_page) for g in groups_by_page[p]]
    if llm is not None:
        from layoutrag.chunking.enrich import enrich_groups

        try:
            groups = enrich_groups(doc, groups, llm, settings, data=data)
        except Exception as e:  # the optional pass never breaks ingest
            log.warning("LLM enrichment skipped for %s: %s", doc.doc_id, e)
    all_elements = [e for p in doc.pages for e in sorted(p.elements, key=lambda x: x.order)]
    groups, n_unassigned = apply_guards(groups, all_elements)

    title = document_title(doc)
    sections = assign_sections(doc, title)
    card = build_card(doc, title, groups).model_copy(update={"superseded_by": doc.superseded_by})
    chunks = _to_chunks(doc, groups, sections, card, settings, fitted)
    return DocChunks(key=key, card=card, chunks=chunks, n_unassigned=n_unassigned), groups


def _to_chunks(
    doc: Document,
    groups: list[Group],
    sections: dict[str, SectionInfo],
    card: DocumentCard,
    settings: Settings,
    fitted: dict[str, BBox] | None = None,
) -> list[Chunk]:
    pages = {p.page: p for p in doc.pages}
    for g in groups:
        g.sort_members()
    groups = sorted(groups, key=lambda g: (g.first.page, g.first.order, g.first.bbox_pdf.y0))
    content = page_content_boxes(groups, fitted)
    page_sizes = {p.page: (p.width_pt, p.height_pt) for p in doc.pages}
    per_page: dict[int, int] = {}
    chunks: list[Chunk] = []
    for g in groups:
        first = g.first
        nn = per_page.get(first.page, 0)
        per_page[first.page] = nn + 1
        anchor = next(
            (m for m in g.members if m.label not in ("caption", "page_header", "page_footer")), first
        )
        sec = sections.get(anchor.element_id) or SectionInfo("", "")
        page = pages.get(first.page)
        boxes = _member_boxes(
            g,
            settings.chunking.chunk_member_boxes,
            fitted,
            others_of(g, content),
            settings.chunking.chunk_margin_pt,
            page_sizes,
        )
        chunks.append(
            Chunk(
                chunk_id=f"{doc.doc_id}_p{first.page}_b{nn:02d}",
                doc_id=doc.doc_id,
                page=first.page,
                source_pdf=served_name(doc),
                bboxes_pdf=[b for m, b in zip(g.members, boxes, strict=True) if m.page == first.page],
                regions=[
                    Region(page=m.page, bbox_pdf=b, label=m.label)
                    for m, b in zip(g.members, boxes, strict=True)
                ],
                page_size_pt=(page.width_pt, page.height_pt) if page else None,
                block_type=g.block_type,
                section_title=sec.section_title,
                toc_path=sec.toc_path,
                native_text="\n".join(m.text for m in g.members if m.text),
                description=g.description or describe_group(g, card, sec.section_title),
                keywords=keywords_for(g, card),
                rows=g.rows,
                header=g.header,
                element_ids=[m.element_id for m in g.members],
                indexed=g.indexed,
            )
        )
    if settings.chunking.chunk_sizes != "unit":
        own = {eid: box for eid, (_, box) in content.items()}
        heights = {p.page: p.height_pt for p in doc.pages}
        chunks.extend(larger_units(chunks, own, heights, settings))
    return chunks


def fitted_boxes(page: Page, pdf_page: PdfPage | None) -> dict[str, BBox]:
    """Each element's box, for tables and pictures grown to the ruling lines drawn across its edge
    (tables.ruled_boxes): the extent a reader sees. Grouping uses the detector's boxes; the stored
    slot boxes start from these. (Text boxes were once grown to their own words, a rule for one
    dev document; with the blank-space margin it covered nothing more and only loosened units.)"""
    out: dict[str, BBox] = {e.element_id: e.bbox_pdf for e in page.elements}
    anchors = {e.element_id: e.bbox_pdf for e in page.elements if e.label in ANCHOR_LABELS}
    if pdf_page is not None and anchors and enabled("ruled_extent"):
        tables = {e.element_id for e in page.elements if e.label == "table"}
        others = {e.element_id: e.bbox_pdf for e in page.elements}
        with contextlib.suppress(Exception):
            out.update(ruled_boxes(pdf_page, anchors, tables=tables, others=others))
    return out


def _member_boxes(
    g: Group,
    mode: str,
    fitted: dict[str, BBox] | None = None,
    others: dict[int, list[BBox]] | None = None,
    margin: float = 0.0,
    page_sizes: dict[int, tuple[float, float]] | None = None,
) -> list[BBox]:
    """One box per member: the element's own box ("element") or its slot in the chunk's block on
    that page ("slot", see tiling.py), cut from the members' fitted boxes (`fitted_boxes`). In
    "slot" mode the block first reaches `margin` points into the blank space around it, up to the
    nearest box of `others` (the page's other content, by page; tiling.grow_into_margin)."""
    if mode == "element":
        return [m.bbox_pdf for m in g.members]
    if mode != "slot":
        raise ValueError(f"chunk_member_boxes must be 'slot' or 'element', not {mode!r}")
    fitted = fitted or {}
    own: list[BBox] = [fitted.get(m.element_id, m.bbox_pdf) for m in g.members]
    out: list[BBox] = list(own)
    for page in {m.page for m in g.members}:
        idx = [i for i, m in enumerate(g.members) if m.page == page]
        outer = None
        if margin > 0 and enabled("margin") and page_sizes and page in page_sizes:
            w, h = page_sizes[page]
            rect = union_box(own[i] for i in idx)
            outer = grow_into_margin(
                rect,
                (others or {}).get(page, []),
                margin,
                w,
                h,
                halfway=enabled("margin_halfway"),
            )
        for i, b in zip(idx, tile_boxes([own[i] for i in idx], outer), strict=True):
            out[i] = b
    return out


def page_content_boxes(groups: list[Group], fitted: dict[str, BBox] | None = None) -> dict[str, tuple[int, BBox]]:
    """Every member's (page, fitted box) by element id: the content a unit's margin stops at."""
    fitted = fitted or {}
    return {m.element_id: (m.page, fitted.get(m.element_id, m.bbox_pdf)) for g in groups for m in g.members}


def others_of(g: Group, content: dict[str, tuple[int, BBox]]) -> dict[int, list[BBox]]:
    """The boxes of the content on `g`'s pages that is not `g`'s, by page."""
    mine = {m.element_id for m in g.members}
    pages = {m.page for m in g.members}
    out: dict[int, list[BBox]] = {}
    for eid, (page, box) in content.items():
        if page in pages and eid not in mine:
            out.setdefault(page, []).append(box)
    return out


def page_units_in_memory(
    doc: Document,
    page_no: int,
    data: DataDir | None = None,
    settings: Settings | None = None,
    fitted_cache: dict | None = None,
) -> list[tuple[str, list[BBox]]]:
    """(size, member boxes) of the units of one page, made in memory by the chunk stage's own
    grouping and box code (no table rows, no evidence images, no LLM pass, no table joined across
    a page break; `fitted_cache` keeps the fitted boxes, which read the PDF's drawings, between calls): what the chunk stage stores for this page, for measuring rules without
    re-running it. Block and page units are always made."""
    from layoutrag.config import load_settings

    settings = settings or load_settings()
    if not 1 <= page_no <= len(doc.pages):
        return []
    detected = doc.pages[page_no - 1]
    page = split_multi_figure_pictures(detected)
    groups = group_page(page, settings)
    groups, _ = apply_guards(groups, sorted(page.elements, key=lambda e: e.order))
    key = (doc.doc_id, page_no, enabled("ruled_extent"), enabled("ruled_rows"))
    fitted = (fitted_cache or {}).get(key)
    if fitted is None:
        path = source_pdf_path(doc, data)
        pdf = open_document(path) if path is not None else None
        try:
            fitted = fitted_boxes(detected, PdfPage.load(pdf, page_no))
        finally:
            if pdf is not None:
                pdf.close()
        if fitted_cache is not None:
            fitted_cache[key] = fitted
    content = page_content_boxes(groups, fitted)
    sizes = {page_no: (detected.width_pt, detected.height_pt)}
    chunks: list[Chunk] = []
    for k, g in enumerate(groups):
        g.sort_members()
        boxes = _member_boxes(
            g,
            settings.chunking.chunk_member_boxes,
            fitted,
            others_of(g, content),
            settings.chunking.chunk_margin_pt,
            sizes,
        )
        chunks.append(
            Chunk(
                chunk_id=f"{doc.doc_id}_p{page_no}_b{k:02d}",
                doc_id=doc.doc_id,
                page=page_no,
                regions=[Region(page=m.page, bbox_pdf=b, label=m.label) for m, b in zip(g.members, boxes, strict=True)],
                block_type=g.block_type,
                element_ids=[m.element_id for m in g.members],
                indexed=g.indexed,
            )
        )
    own = {m.element_id: fitted.get(m.element_id, m.bbox_pdf) for g in groups for m in g.members}
    every = settings.model_copy(update={"chunking": settings.chunking.model_copy(update={"chunk_sizes": "page"})})
    more = larger_units(chunks, own, {page_no: detected.height_pt}, every)
    return [(c.unit, [r.bbox_pdf for r in c.all_regions() if r.page == page_no]) for c in [*chunks, *more]]


def evidence_spec(settings: Settings) -> EvidenceSpec:
    """How evidence images are cut under `settings` (stored per document by the chunk stage)."""
    return EvidenceSpec(
        dpi=settings.render.dpi,
        crop_padding_px=settings.chunking.crop_padding_px,
        block_per_page=settings.chunking.chunk_member_boxes == "slot",
    )


def chunk_and_save(doc: Document, data: DataDir, settings: Settings) -> int:
    """Chunk one document into ``docs/{doc_id}/chunks.json`` (+ evidence images); returns the count.

    Skips the work when the stored chunks were built from this very document record."""
    from layoutrag.llm import llm_client

    llm = llm_client(settings.llm)
    # the LLM pass's model and whether it saw the page image are part of what the chunks depend on
    extra = f"llm:{llm.model}:{'vision' if settings.chunking.llm_vision else 'text'}" if llm is not None else ""
    key = chunks_key(doc, settings, extra=extra)
    path = data.chunks_json(doc.doc_id)
    if path.exists():
        try:
            old = load_doc_chunks(data, doc.doc_id)
            if old.key == key:
                return len(old.chunks)
        except Exception:  # a corrupt or outdated file is rebuilt
            pass
    doc_chunks, _ = build_doc_chunks(doc, settings, data=data, key=key, llm=llm)
    clear_images(data, doc.doc_id)  # images of the previous chunks, eager or rendered on request
    spec = evidence_spec(settings)
    if settings.chunking.eager_images:
        atomic_write_json(evidence_spec_path(data, doc.doc_id), spec)
        write_evidence(
            doc_chunks.chunks, doc, data, spec.dpi, spec.crop_padding_px, block_per_page=spec.block_per_page
        )
    else:
        plan_evidence(doc_chunks.chunks, doc, data, spec)  # rendered on first request (evidence.chunk_image)
    atomic_write_json(path, doc_chunks)
    return len(doc_chunks.chunks)
