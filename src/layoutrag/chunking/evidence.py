"""Evidence images: one crop per member and one merged image per chunk.

Crops are cut from the page image rendered at ``Settings.dpi`` (the displayed page, the same space
as ``bbox_pdf``), padded by ``Settings.crop_padding_px`` pixels — the stored boxes stay unpadded.
The merged image shows the chunk in reading order: with slot boxes (the default) one crop of the
chunk's block per page, else the member crops stacked; where the chunk crosses a page break a marked
band ("page N") separates the parts.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pymupdf
from PIL import Image, ImageDraw

from layoutrag.geometry import pt_to_px, union_box
from layoutrag.pdf import open_document, render_page_image, source_pdf_path
from layoutrag.records import Chunk, Document
from layoutrag.storage import DataDir

__all__ = ["PageImages", "crop_box_px", "merge_crops", "write_evidence"]

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
    """Page images of one document at one dpi: the data dir's page cache, rendered on demand.

    The PDF is opened once, at the first page to render, and kept open until :meth:`close` (or the
    end of a ``with`` block); one page image is held at a time."""

    def __init__(self, doc: Document, data: DataDir, dpi: int) -> None:
        self.doc = doc
        self.data = data
        self.dpi = dpi
        self._pdf = source_pdf_path(self.doc, self.data)
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

    def get(self, page: int) -> Image.Image | None:
        if page in self._cache:
            return self._cache[page]
        if self._pdf is None:
            return None
        out = self.data.page_png(self.doc.doc_id, page, self.dpi)
        img: Image.Image | None = None
        if not out.exists():
            try:
                from layoutrag.pdf import write_page_png

                write_page_png(self._document(), page, self.dpi, out)
            except Exception:  # helper's renderer absent or failing: render here, in memory
                img = self._render(page)
        if img is None and out.exists():
            with Image.open(out) as im:
                img = im.convert("RGB")
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
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_evidence(
    chunks: list[Chunk], doc: Document, data: DataDir, dpi: int, pad_px: int, *, block_per_page: bool = True
) -> None:
    """Write crops and merged images for `chunks` and set their image paths (relative).

    With `block_per_page` (member boxes are slots that tile the chunk's block, see tiling.py) the
    merged image shows each page's part of the chunk as one crop of that block, so padded member
    crops do not repeat the strips they share; otherwise it stacks the member crops."""
    with PageImages(doc, data, dpi) as images:
        if images.available:
            _write_evidence(chunks, doc, data, dpi, pad_px, images, block_per_page)


def _write_evidence(
    chunks: list[Chunk],
    doc: Document,
    data: DataDir,
    dpi: int,
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
        if mi < 0:
            bbox = union_box(r.bbox_pdf for r in chunks[ci].regions if r.page == page)
        else:
            bbox = chunks[ci].regions[mi].bbox_pdf
        box = crop_box_px(bbox, dpi, pad_px, img.size)
        x0, y0, x1, y1 = box
        if x1 - x0 < 1 or y1 - y0 < 1:
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
            p = data.crop_png(doc.doc_id, c.chunk_id, mi)
            _write_png(p, im)
            paths.append(data.rel(p))
        pages = sorted({r.page for r in c.regions})
        if block_per_page and all((ci, pg) in blocks for pg in pages):
            merged = merge_crops([blocks[(ci, pg)] for pg in pages], pages)
        else:
            merged = merge_crops([im for _, im in mine], [c.regions[mi].page for mi, _ in mine])
        ep = data.evidence_png(doc.doc_id, c.chunk_id)
        _write_png(ep, merged)
        c.crop_images = paths
        c.evidence_image = data.rel(ep)
