"""Test-PDF builders for the chunking tests: real PDFs (PyMuPDF) with known layout elements.

Each builder draws a page from element specs and returns the PDF path plus a `Document` whose
elements are the ground truth (label, box, text, font), with the words read back from the PDF —
so grouping tests are exact and deterministic, while table rows, rotation and evidence images run
against a real PDF.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from layoutrag.records import Box, Chunk, Document, Element, Page, Region, TableRow, Word

PAGE_W, PAGE_H = 595.0, 842.0


@dataclass
class Spec:
    label: str
    box: tuple[float, float, float, float]
    text: str = ""  # lines separated by "\n"
    size: float = 9.0
    bold: bool = False
    cells: list[list[str]] | None = None  # tables: drawn as a ruled grid
    drawing: bool = False  # pictures: draw an outline so the page has vector content


@dataclass
class PageSpec:
    specs: list[Spec] = field(default_factory=list)
    rotation: int = 0
    order: list[int] | None = None  # reading order as indices into specs (default: as listed)


def _draw_table(page: pymupdf.Page, box: tuple[float, float, float, float], cells: list[list[str]]) -> None:
    x0, y0, x1, y1 = box
    n_rows, n_cols = len(cells), max(len(r) for r in cells)
    rh = (y1 - y0) / n_rows
    cw = (x1 - x0) / n_cols
    for i in range(n_rows + 1):
        _line(page, (x0, y0 + i * rh), (x1, y0 + i * rh), 0.6)
    for j in range(n_cols + 1):
        _line(page, (x0 + j * cw, y0), (x0 + j * cw, y1), 0.6)
    for i, row in enumerate(cells):
        for j, text in enumerate(row):
            _text(page, (x0 + j * cw + 3, y0 + i * rh + rh * 0.68), text, min(8.0, rh * 0.6), "helv")


# Specs are in the displayed space; drawing happens in the unrotated space (derotated points,
# text rotated with the page) so that, displayed, everything is upright where the spec says.
def _pt(page: pymupdf.Page, p: tuple[float, float]) -> pymupdf.Point:
    return pymupdf.Point(p) * page.derotation_matrix


def _line(page: pymupdf.Page, a: tuple[float, float], b: tuple[float, float], width: float) -> None:
    page.draw_line(_pt(page, a), _pt(page, b), width=width)


def _text(page: pymupdf.Page, at: tuple[float, float], text: str, size: float, font: str) -> None:
    page.insert_text(_pt(page, at), text, fontsize=size, fontname=font, rotate=page.rotation)


def _draw_spec(page: pymupdf.Page, s: Spec) -> None:
    if s.cells:
        _draw_table(page, s.box, s.cells)
        return
    x0, y0, x1, y1 = s.box
    if s.drawing:
        for a, b in (
            ((x0 + 2, y0 + 2), (x1 - 2, y0 + 2)),
            ((x1 - 2, y0 + 2), (x1 - 2, y1 - 2)),
            ((x1 - 2, y1 - 2), (x0 + 2, y1 - 2)),
            ((x0 + 2, y1 - 2), (x0 + 2, y0 + 2)),
            ((x0 + 2, y0 + 2), (x1 - 2, y1 - 2)),
        ):
            _line(page, a, b, 0.8)
        return
    y = y0 + s.size
    for line in s.text.split("\n"):
        _text(page, (x0 + 1, y), line, s.size, "hebo" if s.bold else "helv")
        y += s.size * 1.25


def _words(page: pymupdf.Page) -> list[Word]:
    m = page.rotation_matrix
    out = []
    for w in page.get_text("words"):
        r = pymupdf.Rect(w[:4]) * m
        r.normalize()
        out.append(Word(text=w[4], bbox_pdf=(r.x0, r.y0, r.x1, r.y1), block=w[5], line=w[6]))
    return out


def printed_words(lines: list[tuple[float, float, str]], *, size: float = 8, font: str = "helv") -> list[Word]:
    """A one-page PDF printing each (x, baseline y, text); its words as the text layer gives them."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    for x, y, text in lines:
        page.insert_text((x, y), text, fontsize=size, fontname=font)
    words = [Word(text=w[4], bbox_pdf=Box(*w[:4]), block=w[5], line=w[6]) for w in page.get_text("words")]
    doc.close()
    return words


def _text_in(words: list[Word], box: tuple[float, float, float, float]) -> str:
    inside = [
        w
        for w in words
        if box[0] <= (w.bbox_pdf[0] + w.bbox_pdf[2]) / 2 <= box[2]
        and box[1] <= (w.bbox_pdf[1] + w.bbox_pdf[3]) / 2 <= box[3]
    ]
    inside.sort(key=lambda w: (round(w.bbox_pdf[1]), w.bbox_pdf[0]))
    return " ".join(w.text for w in inside)


def build_pdf(path: Path, pages: list[PageSpec], *, title: str = "") -> Document:
    """Write the PDF and return its ground-truth Document (boxes in the displayed space)."""
    pdf = pymupdf.open()
    for ps in pages:
        w, h = (PAGE_H, PAGE_W) if ps.rotation in (90, 270) else (PAGE_W, PAGE_H)
        page = pdf.new_page(width=w, height=h)
        if ps.rotation:
            page.set_rotation(ps.rotation)
        for s in ps.specs:
            _draw_spec(page, s)
    pdf.save(path)
    pdf.close()
    data = path.read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    doc_id = sha[:16]
    pdf = pymupdf.open(path)
    out_pages = []
    for pno, ps in enumerate(pages, start=1):
        page = pdf[pno - 1]
        words = _words(page)
        order = ps.order or list(range(len(ps.specs)))
        els = []
        for rank, i in enumerate(order):
            s = ps.specs[i]
            text = s.text.replace("\n", " ")
            if s.label in ("table", "picture"):
                text = _text_in(words, s.box) or text
            els.append(
                Element(
                    element_id=f"{doc_id}_p{pno}_e{i:03d}",
                    page=pno,
                    label=s.label,  # type: ignore[arg-type]
                    confidence=0.9,
                    bbox_pdf=s.box,
                    text=text,
                    order=rank,
                    font_size=s.size,
                    bold=s.bold,
                )
            )
        out_pages.append(
            Page(
                page=pno,
                width_pt=page.rect.width,
                height_pt=page.rect.height,
                rotation=page.rotation,
                elements=els,
                words=words,
                n_chars=sum(len(w.text) for w in words),
            )
        )
    n = len(pdf)
    pdf.close()
    return Document(
        doc_id=doc_id,
        source_pdf=str(path),
        file_name=path.name,
        sha256=sha,
        n_pages=n,
        layout_backend="ground-truth",
        dpi=200,
        stage_version="test",
        title=title,
        pages=out_pages,
    )


def element_ids(doc: Document, page: int, *indices: int) -> list[str]:
    """Element ids of specs (by their index in the page spec) — for exact grouping assertions."""
    return [f"{doc.doc_id}_p{page}_e{i:03d}" for i in indices]


# --------------------------------------------------------------------------- scenarios
def table_caption_footnote_page() -> PageSpec:
    cells = [
        ["Parameter", "Symbol", "Typ", "Unit"],
        ["Frequency", "f0", "26.000", "MHz"],
        ["Load capacitance", "CL", "12", "pF"],
        ["ESR", "R1", "60", "Ohm"],
        ["Drive level", "DL", "100", "uW"],
    ]
    return PageSpec(
        [
            Spec("page_header", (40, 20, 300, 32), "XT26 Series Crystal Unit", 8),  # 0
            Spec("section_header", (40, 60, 400, 76), "3 Electrical Characteristics", 13, True),  # 1
            Spec(
                "text",
                (40, 84, 550, 120),
                "The XT26 crystal unit is specified at 25 C.\nValues below are typical.",
                9,
            ),  # 2
            Spec("caption", (40, 140, 400, 152), "Table 2. Electrical characteristics", 9, True),  # 3
            Spec("table", (40, 156, 550, 256), cells=cells),  # 4
            Spec("footnote", (40, 260, 550, 270), "Note 1: ESR measured with a network analyzer.", 7),  # 5
            Spec("text", (40, 330, 550, 366), "Storage should be dry.\nHandle with care.", 9),  # 6
            Spec("page_footer", (40, 810, 300, 820), "Rev 1.2 page 1", 7),  # 7
        ]
    )


def two_column_page() -> PageSpec:
    left = [
        Spec("section_header", (40, 60, 280, 74), "Features", 12, True),
        Spec("list_item", (40, 80, 280, 90), "- Frequency 8 MHz to 54 MHz", 9),
        Spec("list_item", (40, 94, 280, 104), "- Supply voltage 1.8 V to 3.3 V", 9),
        Spec("list_item", (40, 108, 280, 118), "- Ceramic package 2.0 x 1.6 mm", 9),
        Spec("list_item", (40, 122, 280, 132), "- Operating -40 C to +85 C", 9),
    ]
    right = [
        Spec("section_header", (310, 60, 550, 74), "Applications", 12, True),
        Spec("list_item", (310, 80, 550, 90), "- Bluetooth and WLAN modules", 9),
        Spec("list_item", (310, 94, 550, 104), "- Wearables", 9),
        Spec("list_item", (310, 108, 550, 118), "- IoT sensors", 9),
    ]
    below = [
        Spec("section_header", (40, 170, 550, 184), "Description", 12, True),
        Spec(
            "text",
            (40, 190, 550, 226),
            "The XT26 is a small crystal unit for wireless modules.\nIt is AEC-Q200 qualified.",
            9,
        ),
    ]
    specs = left + right + below
    # a row-wise reading order that interleaves the columns (as a naive detector would)
    order = [0, 5, 1, 6, 2, 7, 3, 8, 4, 9, 10]
    return PageSpec(specs, order=order)


def _rows(n: int, start: int) -> list[list[str]]:
    return [[f"P{start + i}", f"GPIO{start + i}", "I/O", f"Pin {start + i} function"] for i in range(n)]


def split_table_pages() -> list[PageSpec]:
    header = ["Pin", "Name", "Type", "Description"]
    p1 = PageSpec(
        [
            Spec("section_header", (40, 500, 400, 514), "5 Pin Description", 12, True),  # 0
            Spec("caption", (40, 520, 400, 532), "Table 7. Pin description", 9, True),  # 1
            Spec("table", (40, 536, 550, 776), cells=[header, *_rows(11, 1)]),  # 2
            Spec("page_footer", (40, 810, 300, 820), "page 1", 7),  # 3
        ]
    )
    p2 = PageSpec(
        [
            Spec("page_header", (40, 20, 300, 32), "XT26 pin description", 8),  # 0
            Spec("caption", (40, 50, 400, 62), "Table 7. Pin description (continued)", 9, True),  # 1
            Spec("table", (40, 66, 550, 226), cells=[header, *_rows(7, 12)]),  # 2
            Spec("text", (40, 260, 550, 284), "All pins are 3.3 V tolerant.", 9),  # 3
            Spec("caption", (40, 500, 400, 512), "Table 8. Ordering information", 9, True),  # 4
            Spec(
                "table",
                (40, 516, 550, 576),
                cells=[
                    ["Part number", "Frequency"],
                    ["XT26-26.000MAAJ-T", "26 MHz"],
                    ["XT26-40.000MAAJ-T", "40 MHz"],
                ],
            ),  # 5
        ]
    )
    return [p1, p2]


def figure_callouts_page() -> PageSpec:
    return PageSpec(
        [
            Spec("section_header", (40, 60, 400, 74), "7 Package Dimensions", 12, True),  # 0
            Spec("text", (40, 80, 550, 92), "All dimensions in millimetres.", 9),  # 1
            Spec("picture", (100, 110, 450, 330), drawing=True),  # 2
            Spec("text", (120, 120, 170, 130), "2.0±0.1", 7),  # 3 callout
            Spec("text", (400, 300, 440, 310), "1.6±0.1", 7),  # 4 callout
            Spec("caption", (100, 336, 450, 348), "Figure 3. Package outline", 9, True),  # 5
            Spec("text", (40, 420, 550, 444), "Recommended land pattern follows IPC-7351.", 9),  # 6
        ]
    )


def make_element(  # noqa: ANN001 - box: any 4-sequence
    doc_id: str, page: int, k: int, label: str, box, text: str, confidence: float = 1.0
) -> Element:
    """A ground-truth element: k is its reading order on the page."""
    return Element(
        element_id=f"{doc_id}_p{page}_e{k:03d}",
        page=page,
        label=label,
        confidence=confidence,
        order=k,
        bbox_pdf=box,
        text=text,
    )


def make_document(doc_id: str, pages: list[Page], *, file_name: str, source_pdf: str = "") -> Document:
    """A Document of ground-truth pages (no detector ran: layout backend "gt")."""
    return Document(
        doc_id=doc_id,
        source_pdf=source_pdf,
        file_name=file_name,
        sha256="0",
        n_pages=len(pages),
        layout_backend="gt",
        dpi=200,
        stage_version="t",
        pages=pages,
    )


def sample_document(index: int, out_dir: Path, *, doc_id: str = "g", used: set[str] | None = None):  # noqa: ANN201
    """A generated sample datasheet (layoutrag.samples, seed 0) rendered to `out_dir`, as a Document
    whose elements are the generator's own ground truth (label, box, text): chunking is then tested
    on exactly the layout the generator drew, independent of any detector. Returns (plan, Document);
    `used` carries the names taken by earlier documents of one corpus."""
    from layoutrag.samples.generator import plan_document, render_document

    d = plan_document(index, 0, set() if used is None else used)
    elements, _ = render_document(d, out_dir / d.file_name)
    w, h = (612, 792) if d.vendor.letter else (595, 842)
    pages = [
        Page(
            page=n,
            width_pt=w,
            height_pt=h,
            elements=[
                make_element(doc_id, n, k, x.label, x.bbox, x.text)
                for k, x in enumerate(x for x in elements if x.page == n)
            ],
        )
        for n in range(1, d.n_pages + 1)
    ]
    doc = make_document(doc_id, pages, file_name=d.file_name, source_pdf=str(out_dir / d.file_name))
    return d, doc


def table_chunk(rows: list[TableRow], region: Box | None = None, *, text: str = "", title: str = "") -> Chunk:
    """A page-1 table chunk of `rows` (chunk id d_p1_b01) for the spec readers' tests; its region
    the given box, else the rows' span."""
    if region is None:
        region = Box(rows[0].bbox_pdf.x0, rows[0].bbox_pdf.y0, rows[0].bbox_pdf.x1, rows[-1].bbox_pdf.y1)
    return Chunk(
        chunk_id="d_p1_b01",
        doc_id="d",
        page=1,
        block_type="table",
        rows=rows,
        native_text=text,
        regions=[Region(page=1, bbox_pdf=region, label="table")],
        section_title=title,
    )


def grid_row(cells: list[str], y: float, cols: list[tuple[float, float]], *, header: bool = False, h: float = 12) -> TableRow:
    """A page-1 table row of `cells`, one cell box per (x0, x1) of `cols`, from y to y + h."""
    return TableRow(page=1, bbox_pdf=Box(cols[0][0], y, cols[-1][1], y + h), cells=cells, text=" | ".join(cells),
                    is_header=header, cell_boxes=[Box(x0, y, x1, y + h) for x0, x1 in cols])


def grid_chunk(rows: list[list[str]], cols: list[tuple[float, float]], *, title: str = "") -> Chunk:
    """A table chunk of `rows` (the first the header), 12 pt each from y = 100, on the grid `cols`."""
    return table_chunk([grid_row(r, 100 + 12 * i, cols, header=i == 0) for i, r in enumerate(rows)], title=title)
