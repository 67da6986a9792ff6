"""Evidence images: one crop per member and one merged image per chunk.

Crops are cut from the page image rendered at ``Settings.dpi`` (the displayed page, the same space
as ``bbox_pdf``), padded by ``Settings.crop_padding_px`` pixels — the stored boxes stay unpadded.
The merged image shows the chunk in reading order: with slot boxes (the default) one crop of the
chunk's block per page, else the member crops stacked; where the chunk crosses a page break a marked
band ("page N") separates the parts.

Lazy by default: the chunk stage only names each chunk's image files (:func:`plan_evidence`: the
crops that would not be empty, from the page's pixel size, which needs no render) and records how
they are cut (:class:`~layoutrag.records.EvidenceSpec`). Every reader of an image goes through
:func:`chunk_image`, which renders the chunk's images from its stored boxes on first request and
caches them in the data dir; they are the same bytes the eager path
(``chunking.eager_images``, :func:`write_evidence` at ingest) writes.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pymupdf
from PIL import Image, ImageDraw

from layoutrag.errors import NotFoundError
from layoutrag.geometry import pt_to_px, union_box
from layoutrag.pdf import (
    open_document,
    page_pixel_size,
    render_dpi,
    render_dpi_for_size,
    render_page_image,
    source_pdf_path,
)
from layoutrag.records import BBox, Chunk, Document, EvidenceSpec
from layoutrag.storage import DataDir, atomic_write_json, with_path

__all__ = [
    "PageImages",
    "chunk_image",
    "clear_images",
    "crop_box_px",
    "evidence_spec_path",
    "merge_crops",
    "plan_evidence",
    "render_chunk_images",
    "write_evidence",
]

_GAP_PX = 6
_BREAK_PX = 30


def crop_box_px(
    bbox_pdf: tuple[float, float, float, float], dpi: int, pad_px: int, size_px: tuple[int, int]
) -> tuple[int, int, int, int]:
    """The padded pixel crop of a PDF-point box, clipped to the image."""
    x0, y0, x1, y1 = pt_to_px(bbox_pdf, dpi)
    w, h = size_px
    return (
        max(0, int(x0) - pad_px),
        max(0, int(y0) - pad_px),
        min(w, int(x1 + 0.999) + pad_px),
        min(h, int(y1 + 0.999) + pad_px),
    )


class PageImages:
    """Page images of one document at one dpi: the data dir's page cache when a page is there, else
    rendered in memory (the pixels a cached PNG holds; the cache is not written here).

    The PDF is opened once, at the first page to render, and kept open until :meth:`close` (or the
    end of a ``with`` block); one page image is held at a time. `doc` None: `pdf` and `doc_id`
    name the document, and each page's dpi comes from the PDF page itself."""

    def __init__(
        self, doc: Document | None, data: DataDir, dpi: int, *, pdf: Path | None = None, doc_id: str = ""
    ) -> None:
        self.doc = doc
        self.data = data
        self.dpi = dpi
        self.doc_id = doc.doc_id if doc is not None else doc_id
        self._pdf = source_pdf_path(doc, data) if doc is not None else pdf
        self._cache: dict[int, Image.Image] = {}
        self._open: pymupdf.Document | None = None
        self._open_failed = False

    def __enter__(self) -> PageImages:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._open is not None:
            self._open.close()
            self._open = None
        self._cache = {}

    @property
    def available(self) -> bool:
        return self._pdf is not None

    def _document(self) -> pymupdf.Document:
        """The open PDF (opened on first use); raises when it cannot be opened."""
        if self._open is None:
            if self._open_failed or self._pdf is None:
                raise RuntimeError(f"cannot open {self._pdf}")
            try:
                self._open = open_document(self._pdf)
            except Exception:
                self._open_failed = True
                raise
        return self._open

    def dpi_for(self, page: int) -> int:
        """The dpi page `page`'s image is at: `dpi`, or less for a page over the pixel budget."""
        if self.doc is not None and 1 <= page <= len(self.doc.pages):
            p = self.doc.pages[page - 1]
            return render_dpi_for_size(p.width_pt, p.height_pt, self.dpi)
        if self.doc is None:
            try:
                return render_dpi(self._document()[page - 1], self.dpi)
            except Exception:
                return self.dpi
        return self.dpi

    def get(self, page: int) -> Image.Image | None:
        if page in self._cache:
            return self._cache[page]
        if self._pdf is None:
            return None
        out = self.data.page_png(self.doc_id, page, self.dpi)
        img: Image.Image | None = None
        if out.exists():
            try:
                with Image.open(out) as im:
                    img = im.convert("RGB")
            except Exception:  # a torn or foreign file: render instead
                img = None
        if img is None:
            img = self._render(page)
        if img is not None:
            self._cache = {page: img}  # one page at a time: members come in page order
        return img

    def _render(self, page: int) -> Image.Image | None:
        try:
            return render_page_image(self._document()[page - 1], dpi=self.dpi)
        except Exception:
            return None


def merge_crops(crops: list[Image.Image], pages: list[int]) -> Image.Image:
    """Stack crops top to bottom; a marked band separates parts on different pages."""
    width = max(c.width for c in crops)
    height = sum(c.height for c in crops) + _GAP_PX * (len(crops) - 1)
    breaks = sum(1 for a, b in zip(pages, pages[1:], strict=False) if a != b)
    height += breaks * (_BREAK_PX - _GAP_PX)
    out = Image.new("RGB", (width, max(1, height)), "white")
    draw = ImageDraw.Draw(out)
    y = 0
    for i, c in enumerate(crops):
        if i:
            if pages[i] != pages[i - 1]:
                mid = y + _BREAK_PX // 2
                for x in range(0, width, 12):
                    draw.line([(x, mid), (min(width, x + 6), mid)], fill=(200, 30, 30), width=2)
                draw.text((4, mid - 13), f"page {pages[i]}", fill=(200, 30, 30))
                y += _BREAK_PX
            else:
                y += _GAP_PX
        out.paste(c, (0, y))
        y += c.height
    return out


def _write_png(path: Path, img: Image.Image) -> None:
    """Atomic (temp + rename) but not fsynced: evidence images are derived and cheap to redo, and
    fsync per crop cost more than the chunking itself. Fast zlib level for the same reason."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(buf.getvalue())
        os.replace(tmp, path)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise with_path(e, path) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def evidence_spec_path(data: DataDir, doc_id: str) -> Path:
    return data.doc_dir(doc_id) / "stages" / "evidence.json"


def clear_images(data: DataDir, doc_id: str) -> None:
    """Delete the document's evidence images and crops (before its chunks are rebuilt: a lazily
    rendered image must never outlive the boxes it was cut from)."""
    for sub in ("evidence", "crops"):
        d = data.doc_dir(doc_id) / sub
        if d.is_dir():
            for f in d.iterdir():
                if f.is_file():
                    f.unlink(missing_ok=True)


def _nonempty(box: tuple[int, int, int, int]) -> bool:
    x0, y0, x1, y1 = box
    return x1 - x0 >= 1 and y1 - y0 >= 1


def _block_bbox(chunk: Chunk, page: int) -> BBox:
    return union_box(r.bbox_pdf for r in chunk.regions if r.page == page)


def plan_evidence(chunks: list[Chunk], doc: Document, data: DataDir, spec: EvidenceSpec) -> None:
    """Set each chunk's image paths as :func:`write_evidence` would, without rendering anything,
    and record `spec` for the renders on first request. A crop is named when it is not empty on
    the page image, whose pixel size comes from the page size (``pdf.page_pixel_size``)."""
    atomic_write_json(evidence_spec_path(data, doc.doc_id), spec)
    if source_pdf_path(doc, data) is None:
        return
    sizes = {p.page: page_pixel_size(p.width_pt, p.height_pt, spec.dpi) for p in doc.pages}
    dpis = {p.page: render_dpi_for_size(p.width_pt, p.height_pt, spec.dpi) for p in doc.pages}
    for c in chunks:
        mine = [
            mi
            for mi, r in enumerate(c.regions)
            if r.page in sizes and _nonempty(crop_box_px(r.bbox_pdf, dpis[r.page], spec.crop_padding_px, sizes[r.page]))
        ]
        if not mine:
            continue
        c.crop_images = [data.rel(data.crop_png(doc.doc_id, c.chunk_id, mi)) for mi in mine]
        c.evidence_image = data.rel(data.evidence_png(doc.doc_id, c.chunk_id))


def write_evidence(
    chunks: list[Chunk], doc: Document, data: DataDir, dpi: int, pad_px: int, *, block_per_page: bool = True
) -> None:
    """Write crops and merged images for `chunks` and set their image paths (relative).

    With `block_per_page` (member boxes are slots that tile the chunk's block, see tiling.py) the
    merged image shows each page's part of the chunk as one crop of that block, so padded member
    crops do not repeat the strips they share; otherwise it stacks the member crops."""
    with PageImages(doc, data, dpi) as images:
        if images.available:
            _write_evidence(chunks, doc.doc_id, data, pad_px, images, block_per_page)


def render_chunk_images(data: DataDir, chunk: Chunk, spec: EvidenceSpec, pdf: Path) -> None:
    """Render one chunk's crops and merged image from its stored boxes into the data dir (the
    files :func:`plan_evidence` named; the same bytes :func:`write_evidence` writes)."""
    with PageImages(None, data, spec.dpi, pdf=pdf, doc_id=chunk.doc_id) as images:
        _write_evidence(
            [chunk.model_copy()], chunk.doc_id, data, spec.crop_padding_px, images, spec.block_per_page
        )


def chunk_image(data: DataDir, chunk: Chunk, rel: str, default: EvidenceSpec) -> Path:
    """The file of `rel`, the chunk's `evidence_image` or one of its `crop_images`: the cached file,
    else all of the chunk's images rendered from its stored boxes now (and cached). Every reader
    of an evidence image or crop goes through this. NotFoundError when `rel` is not one of the
    chunk's images or its page cannot be rendered (no PDF)."""
    if rel not in {chunk.evidence_image, *chunk.crop_images} or not rel:
        raise NotFoundError(f"no such image for chunk {chunk.chunk_id}")
    path = data.resolve(rel)
    if path.is_file():
        return path
    try:
        spec = EvidenceSpec.model_validate_json(evidence_spec_path(data, chunk.doc_id).read_bytes())
    except (OSError, ValueError):
        spec = default
    pdf: Path | None = data.source_pdf(chunk.doc_id)
    if pdf is None or not pdf.is_file():
        try:
            doc = Document.model_validate_json(data.document_json(chunk.doc_id).read_bytes())
            pdf = source_pdf_path(doc, data)
        except (OSError, ValueError):
            pdf = None
    if pdf is None:
        raise NotFoundError(f"no evidence image for chunk {chunk.chunk_id}: its PDF is not stored")
    render_chunk_images(data, chunk, spec, pdf)
    if not path.is_file():
        raise NotFoundError(f"no evidence image for chunk {chunk.chunk_id}")
    return path


def _write_evidence(
    chunks: list[Chunk],
    doc_id: str,
    data: DataDir,
    pad_px: int,
    images: PageImages,
    block_per_page: bool,
) -> None:
    # visit members page by page so each page image is rendered/loaded once; mi -1 = the block
    jobs: list[tuple[int, int, int]] = []  # (page, chunk index, member index)
    for ci, c in enumerate(chunks):
        for mi, r in enumerate(c.regions):
            jobs.append((r.page, ci, mi))
        if block_per_page:
            jobs.extend((page, ci, -1) for page in sorted({r.page for r in c.regions}))
    jobs.sort()
    crops: dict[tuple[int, int], Image.Image] = {}
    blocks: dict[tuple[int, int], Image.Image] = {}
    for page, ci, mi in jobs:
        img = images.get(page)
        if img is None:
            continue
        bbox = _block_bbox(chunks[ci], page) if mi < 0 else chunks[ci].regions[mi].bbox_pdf
        box = crop_box_px(bbox, images.dpi_for(page), pad_px, img.size)
        if not _nonempty(box):
            continue
        if mi < 0:
            blocks[(ci, page)] = img.crop(box)
        else:
            crops[(ci, mi)] = img.crop(box)
    for ci, c in enumerate(chunks):
        mine = [(mi, crops[(ci, mi)]) for mi in range(len(c.regions)) if (ci, mi) in crops]
        if not mine:
            continue
        paths: list[str] = []
        for mi, im in mine:
            p = data.crop_png(doc_id, c.chunk_id, mi)
            _write_png(p, im)
            paths.append(data.rel(p))
        pages = sorted({r.page for r in c.regions})
        if block_per_page and all((ci, pg) in blocks for pg in pages):
            merged = merge_crops([blocks[(ci, pg)] for pg in pages], pages)
        else:
            merged = merge_crops([im for _, im in mine], [c.regions[mi].page for mi, _ in mine])
        ep = data.evidence_png(doc_id, c.chunk_id)
        _write_png(ep, merged)
        c.crop_images = paths
        c.evidence_image = data.rel(ep)
