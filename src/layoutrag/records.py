"""Typed records shared by every stage (the only module that defines data crossing a stage boundary).

Coordinates: every ``bbox_pdf`` is ``[x0, y0, x1, y1]`` in PDF points, origin at the top-left of the
page *as displayed* (after /Rotate, relative to the visible box), y growing downwards. Pixel boxes
are derived with :func:`layoutrag.geometry.pt_to_px`; they are never stored.

Record tree::

    Document ── pages: list[Page] ── elements: list[Element], words: list[Word]
    DocumentCard                        (per document: title, vendor, series, part numbers)
    Chunk ── regions: list[Region], rows: list[TableRow]
    EvidencePackage(Chunk) + query-time scores
    IngestResult                        (one line of the ingest report)
    DocSpecs ── specs: list[SpecValue] ── cells: list[SpecCell]   (parametric values, per document)
    SpecConstraint, SpecSearchResult, SpecComparison               (parametric queries and answers)
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "BLOCK_TYPES",
    "LABELS",
    "BBox",
    "Box",
    "Chunk",
    "Document",
    "DocChunks",
    "DocumentCard",
    "Element",
    "EvidencePackage",
    "EvidenceSpec",
    "IngestResult",
    "Label",
    "Page",
    "Record",
    "Region",
    "SearchFilters",
    "SpecCell",
    "SpecCompareRow",
    "SpecComparison",
    "SpecConstraint",
    "SpecMatch",
    "SpecPartResult",
    "SpecSearchResult",
    "SpecValue",
    "DocSpecs",
    "TableRow",
    "Word",
]

Label = Literal[
    "title",
    "section_header",
    "text",
    "list_item",
    "table",
    "picture",
    "caption",
    "footnote",
    "page_header",
    "page_footer",
    "formula",
]
LABELS: tuple[str, ...] = Label.__args__  # type: ignore[attr-defined]

BLOCK_TYPES: tuple[str, ...] = (
    "text",
    "table",
    "figure",
    "list",
    "heading",
    "title",
    "caption",
    "footnote",
    "formula",
    "page_header",
    "page_footer",
)
"""Every `Chunk.block_type` ingest makes (chunking.group.block_type_of); imported chunks may add others."""

class Box(NamedTuple):
    """A box ``(x0, y0, x1, y1)``, x0 <= x1 and y0 <= y1 for a real box. In records it is PDF points,
    top-left origin of the displayed page; its JSON form is the list ``[x0, y0, x1, y1]``. Box math
    beyond these few methods is in :mod:`layoutrag.geometry`; pixels come from `to_px` only."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def area(self) -> float:
        return max(0.0, self.x1 - self.x0) * max(0.0, self.y1 - self.y0)

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)

    def intersection(self, other: Box) -> float:
        """Area shared with `other` (0 when they do not overlap)."""
        w = min(self.x1, other[2]) - max(self.x0, other[0])
        h = min(self.y1, other[3]) - max(self.y0, other[1])
        return w * h if w > 0 and h > 0 else 0.0

    def union(self, other: Box) -> Box:
        """The smallest box holding both."""
        return Box(min(self.x0, other[0]), min(self.y0, other[1]), max(self.x1, other[2]), max(self.y1, other[3]))

    def to_px(self, dpi: float) -> Box:
        """Points -> pixels of a page image rendered at `dpi` (px = pt x dpi / 72)."""
        s = dpi / 72.0
        return Box(self.x0 * s, self.y0 * s, self.x1 * s, self.y1 * s)

    @classmethod
    def from_px(cls, box: tuple[float, float, float, float], dpi: float) -> Box:
        """Pixels of a page image rendered at `dpi` -> points."""
        s = 72.0 / dpi
        return cls(box[0] * s, box[1] * s, box[2] * s, box[3] * s)


BBox = Box
"""The type of every stored box: :class:`Box` (``[x0, y0, x1, y1]`` in PDF points, JSON a list)."""

TextSource = Literal["pdf_layer", "ocr", "none"]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Word(Record):
    text: str
    bbox_pdf: BBox
    block: int = 0
    line: int = 0


class Element(Record):
    element_id: str  # "{doc_id}_p{page}_e{nnn}", nnn = reading-order index on the page
    page: int  # 1-based
    label: Label
    confidence: float
    bbox_pdf: BBox
    text: str = ""
    text_source: TextSource = "pdf_layer"
    order: int = 0  # reading-order index within the page
    source_label: str = ""  # the backend's own class name
    font_size: float | None = None  # dominant font size of the element's text (points)
    bold: bool | None = None


class Page(Record):
    page: int  # 1-based
    width_pt: float
    height_pt: float
    rotation: int = 0
    text_status: Literal["pdf_layer", "needs_ocr"] = "pdf_layer"
    text_source: TextSource = "pdf_layer"
    n_chars: int = 0
    n_raw_detections: int = 0
    n_deduped: int = 0
    elements: list[Element] = Field(default_factory=list)
    words: list[Word] = Field(default_factory=list)
    error: str | None = None  # a page that failed to render/detect keeps a reason, the document goes on


class Document(Record):
    doc_id: str
    # what every hit, chunk and API answer shows: the file name, or the path relative to the folder
    # that was ingested (never the local absolute path)
    source_pdf: str
    # the absolute path as ingested: local only (revisions, --prune, the source lookup), never served
    source_path: str = ""
    # kept with `ingest --keep-revisions`: the doc id of the newer revision of the same source path
    superseded_by: str = ""
    file_name: str
    sha256: str
    n_pages: int
    layout_backend: str
    dpi: int
    stage_version: str
    title: str = ""
    pages: list[Page] = Field(default_factory=list)
    # resumability key (content hash + stage version + layout backend + dedup strategy + dpi);
    # "" when a page failed, so a re-run retries the document
    key: str = ""


class DocumentCard(Record):
    doc_id: str
    file_name: str = ""
    superseded_by: str = ""  # an older revision kept with --keep-revisions: the newer one's doc id
    title: str = ""
    vendor: str = ""
    series: list[str] = Field(default_factory=list)
    part_numbers: list[str] = Field(default_factory=list)
    product_type: str = ""
    key_parameters: dict[str, str] = Field(default_factory=dict)


class Region(Record):
    page: int
    bbox_pdf: BBox
    label: str = ""


class TableRow(Record):
    page: int
    bbox_pdf: BBox
    cells: list[str] = Field(default_factory=list)
    text: str = ""
    is_header: bool = False
    cell_boxes: list[BBox] = Field(default_factory=list)  # one per cell when known (chunk-11 on), else []


class Chunk(Record):
    """The unit that is indexed and returned. Field names are the evidence-package contract."""

    chunk_id: str  # "{doc_id}_p{page}_b{nn}"
    doc_id: str
    page: int  # first page (1-based)
    source_pdf: str = ""
    bboxes_pdf: list[BBox] = Field(default_factory=list)  # member boxes on `page`, never a union
    regions: list[Region] = Field(default_factory=list)  # every member, on every page
    page_size_pt: tuple[float, float] | None = None
    block_type: str = "text"
    section_title: str = ""
    toc_path: str = ""
    native_text: str = ""
    description: str = ""
    keywords: list[str] = Field(default_factory=list)
    rows: list[TableRow] = Field(default_factory=list)
    header: list[str] = Field(default_factory=list)  # table header cells, when known
    crop_images: list[str] = Field(default_factory=list)  # paths relative to the data dir
    evidence_image: str | None = None  # path relative to the data dir
    element_ids: list[str] = Field(default_factory=list)
    indexed: bool = True  # page headers/footers are kept but not indexed
    # size of the unit (chunking/sizes.py): "unit" a reading unit; "block", "page" the larger units
    # holding it; `parent` the id of the next larger unit holding this one, when those are made
    unit: Literal["unit", "block", "page"] = "unit"
    parent: str | None = None

    @field_validator("page")
    @classmethod
    def _page_positive(cls, v: int) -> int:
        if v < 1:
            raise ValueError("page is 1-based")
        return v

    def all_regions(self) -> list[Region]:
        """Regions, falling back to `bboxes_pdf` on `page` for chunks imported without regions."""
        if self.regions:
            return self.regions
        return [Region(page=self.page, bbox_pdf=b) for b in self.bboxes_pdf]


class EvidencePackage(Chunk):
    score: float = 0.0
    dense_rank: int | None = None
    bm25_rank: int | None = None
    dense_score: float | None = None
    bm25_score: float | None = None
    matched_row: int | None = None  # index into `rows` of the row that best matches the query
    # chunks of the same page that ranked right behind this one and are returned with it (one hit,
    # several highlighted blocks: the ranking could not tell them apart); their own rows and scores
    companions: list[EvidencePackage] = Field(default_factory=list)

    def hit_regions(self) -> list[Region]:
        """Every box the reader is shown for this hit: its own regions and its companions'."""
        return [*self.all_regions(), *(r for c in self.companions for r in c.all_regions())]


class DocChunks(Record):
    """The content of ``docs/{doc_id}/chunks.json``: a document's card and chunks, with the key
    (content hash + stage versions + layout backend) they were built from, for resumability."""

    key: str
    card: DocumentCard
    chunks: list[Chunk] = Field(default_factory=list)
    n_unassigned: int = 0  # elements no rule grouped, each made its own chunk (guard counter)


class EvidenceSpec(Record):
    """How a document's evidence images are cut from its pages (``docs/{id}/stages/evidence.json``,
    written by the chunk stage): an image not yet rendered is made from the stored boxes with
    these, on first request."""

    dpi: int
    crop_padding_px: int
    block_per_page: bool


class SearchFilters(Record):
    doc_id: str | None = None
    block_type: str | None = None
    page_min: int | None = None
    page_max: int | None = None


class IngestResult(Record):
    path: str
    doc_id: str | None = None
    status: Literal["ok", "skipped", "failed"]
    pages: int = 0
    elements: int = 0
    chunks: int = 0
    seconds: float = 0.0
    error: str | None = None
    warning: str | None = None  # ingested, but the user should look: a damaged file MuPDF repaired


# --------------------------------------------------------------------------- parametric values
SpecRole = Literal["min", "typ", "max", "value"]


class SpecCell(Record):
    """One printed table cell a value was read from."""

    role: SpecRole
    text: str
    bbox_pdf: BBox


class SpecValue(Record):
    """One spec value read from a table row, traceable to its cells. Numbers are in `unit`, the
    canonical SI unit (Hz, F, ohm, V, A, W, s, °C, ppm, ...); a ``±x`` is ``min=-x, max=x``."""

    doc_id: str
    part: str  # the part or series the row applies to
    parameter: str  # canonical id (data/spec_parameters.tsv), else the printed name normalised
    parameter_printed: str
    known: bool = True  # `parameter` is a canonical id
    symbol: str = ""
    conditions: str = ""
    min: float | None = None
    typ: float | None = None
    max: float | None = None
    unit: str = ""  # canonical
    unit_printed: str = ""
    value_text: str = ""  # the value cells as printed, " / " between them
    footnotes: list[str] = Field(default_factory=list)  # markers printed next to a number, kept apart
    page: int
    row_bbox_pdf: BBox
    cells: list[SpecCell] = Field(default_factory=list)
    chunk_id: str = ""
    # absolute maximum ratings apart; "summary": a line of the document's own summary outside any table
    # (a Features list's "Supply current: 200 µA (typical)", "80 kHz bandwidth")
    table: Literal["characteristics", "ratings", "ordering", "summary"] = "characteristics"
    # why the spec stage doubts this reading ("unit", "order", "numbers", "code", "name"):
    # a doubted value is stored under DocSpecs.withheld, never among the values queries read
    doubt: str = ""

    def printed(self) -> str:
        """The value as printed with its unit once ("150°C", "12.5 pF"): `value_text`, with
        `unit_printed` after it unless the cell printed the unit already."""
        if not self.unit_printed or self.value_text.rstrip().endswith(self.unit_printed):
            return self.value_text
        return f"{self.value_text} {self.unit_printed}"


class DocSpecs(Record):
    """The content of ``docs/{doc_id}/specs.json``."""

    key: str
    doc_id: str
    specs: list[SpecValue] = Field(default_factory=list)
    # values the stage read but doubts (each with its `doubt`): shown on request, never an answer
    withheld: list[SpecValue] = Field(default_factory=list)
    # the document's card, as its chunks carry it (specs-45): parametric search reads one small file per
    # document instead of the whole chunks file; None in files written before
    card: DocumentCard | None = None


class SpecConstraint(Record):
    """``parameter op value [unit]``; op is one of <=, <, >=, >, =, range (lo..hi)."""

    parameter: str
    op: Literal["<=", "<", ">=", ">", "=", "range"]
    value: float
    value2: float | None = None  # the upper end of a range
    unit: str = ""  # canonical
    text: str = ""  # as the user wrote it, or the part of the query it was read from


class SpecMatch(Record):
    constraint: str  # specs.describe_constraint: "esr <= 50 kΩ"
    status: Literal["meets", "fails", "unknown"]
    values: list[SpecValue] = Field(default_factory=list)  # the evidence (empty when unknown)


class SpecPartResult(Record):
    doc_id: str
    part: str
    file_name: str = ""
    product_type: str = ""
    n_met: int = 0
    n_failed: int = 0
    n_unknown: int = 0
    matches: list[SpecMatch] = Field(default_factory=list)


class SpecSearchResult(Record):
    constraints: list[SpecConstraint] = Field(default_factory=list)
    product_type: str | None = None
    unparsed: str = ""  # what of a natural query was not read as a constraint
    results: list[SpecPartResult] = Field(default_factory=list)


class SpecCompareRow(Record):
    parameter: str
    cells: list[list[SpecValue]] = Field(default_factory=list)  # one list per part (column)


class SpecComparison(Record):
    parts: list[str] = Field(default_factory=list)  # column heads as asked
    doc_ids: list[str] = Field(default_factory=list)
    rows: list[SpecCompareRow] = Field(default_factory=list)
