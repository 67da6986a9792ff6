"""The PDF module, below every stage: opening (with the limits), page geometry, rotation
conversion, the text layer, rendering, the source-PDF lookup and `PdfPage`. Nothing else in
layoutrag opens or renders a PDF itself.

Everything leaving this module is in the *displayed* page space (``bbox_pdf``): PDF points, origin
at the top-left of the page as displayed (after /Rotate, relative to the visible box), y down.
PyMuPDF reports text in the *unrotated* page space (already relative to the visible box), so every
text box goes through ``page.rotation_matrix``.

Page images are not kept by the pipeline: a 200 dpi Letter page is 1700×2200 px, about
0.2–0.6 MB as PNG (≈ 11 MB RGB in memory), so 1,100 pages would cost ~0.5 GB of disk for a cache
that is cheap to rebuild (~50 ms a page). They are rendered on demand and cached by whoever needs
them (:func:`render_page_png`; the evidence images of the chunking stage are cut from a page
rendered in memory, and only when one is first asked for).

A page of the source PDF comes as a :class:`PdfPage` to the chunking stage: loaded once per
document build, its vector drawings read at most once and shared by the ruling lines of table rows
and the ruled extents of tables and pictures (:func:`page_drawings`: ``get_cdrawings`` walks the
whole content stream; its items are left as tuples, not made PyMuPDF objects).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pymupdf
from PIL import Image

from layoutrag.config import Settings
from layoutrag.errors import DocumentError, NotFoundError
from layoutrag.records import BBox, Box, Document, Word
from layoutrag.storage import DataDir, atomic_write_bytes, path_text
from layoutrag.vocab import symbol_encoding

__all__ = [
    "PdfPage",
    "Span",
    "check_limits",
    "count_text_chars",
    "extract_spans",
    "extract_words",
    "open_document",
    "open_pdf",
    "page_count",
    "page_drawings",
    "page_png_bytes",
    "page_pixel_size",
    "page_size_pt",
    "MAX_RENDER_PIXELS",
    "render_dpi",
    "render_dpi_for_size",
    "render_page_image",
    "render_page_png",
    "render_page_rgb",
    "glyph_number_lines",
    "glyph_number_reader",
    "symbol_font_lines",
    "symbol_reader",
    "source_pdf_path",
    "standard_glyph_reader",
    "text_page",
    "text_status",
    "to_displayed",
    "write_page_png",
]

pymupdf.TOOLS.mupdf_display_errors(False)  # MuPDF warnings are not for users; failures still raise

# Pixel budget of one page render (RGB: 3 bytes a pixel, so ~120 MB). A page larger than the budget
# at the requested dpi renders at the highest whole dpi that fits: a 200 dpi Letter page is 3.7 Mpx,
# an A0 poster (2384x3370 pt) 62 Mpx -> 160 dpi, a 14,400 pt square page -> 31 dpi. Boxes are in
# points, so nothing but the pixel size of the image changes. Kept well under Pillow's
# decompression-bomb warning (89.5 Mpx) and error (179 Mpx).
MAX_RENDER_PIXELS = 40_000_000


@dataclass(frozen=True)
class Span:
    """A run of text in one font (from ``get_text('dict')``), for font size / weight per element."""

    bbox_pdf: BBox
    size: float
    bold: bool
    n_chars: int


def open_pdf(path: Path, settings: Settings) -> pymupdf.Document:
    """Open a PDF to ingest it or raise :class:`DocumentError` with a one-line reason (and check the
    limits)."""
    try:
        size = path.stat().st_size
    except OSError as e:
        raise DocumentError(f"cannot read file: {e.strerror or e}") from None
    if size == 0:
        raise DocumentError("empty file (0 bytes)")
    if size > settings.limits.max_file_mb * 1024 * 1024:
        raise DocumentError(f"file is {size / 1048576:.1f} MB, over the limit of {settings.limits.max_file_mb:g} MB")
    try:
        doc = _open(path, filetype="pdf")
    except Exception as e:  # MuPDF raises several types for broken files
        raise DocumentError(f"not a readable PDF: {_one_line(e)}") from None
    if doc.needs_pass:
        doc.close()
        raise DocumentError("password-protected PDF")
    if doc.page_count == 0:
        doc.close()
        raise DocumentError("PDF has no pages (truncated or broken)")
    try:
        check_limits(doc, settings)
    except DocumentError:
        doc.close()
        raise
    return doc


def check_limits(doc: pymupdf.Document, settings: Settings) -> None:
    if doc.page_count > settings.limits.max_pages:
        raise DocumentError(f"{doc.page_count} pages, over the limit of {settings.limits.max_pages}")
    for i in range(doc.page_count):
        w, h = page_size_pt(doc[i])
        if max(w, h) > settings.limits.max_page_side_pt:
            raise DocumentError(
                f"page {i + 1} is {w:.0f}x{h:.0f} pt, over the limit of {settings.limits.max_page_side_pt:g} pt a side"
            )
        if w < 1 or h < 1:
            raise DocumentError(f"page {i + 1} has an empty page box ({w:.0f}x{h:.0f} pt)")


def page_size_pt(page: pymupdf.Page) -> tuple[float, float]:
    """(width, height) of the displayed page in points (after /Rotate)."""
    r = page.rect
    return (float(r.width), float(r.height))


def to_displayed(page: pymupdf.Page, box: Sequence[float] | pymupdf.Rect) -> BBox:
    """Unrotated PyMuPDF page coordinates → displayed page space (bbox_pdf)."""
    r = pymupdf.Rect(box)
    if page.rotation % 360:
        r = r * page.rotation_matrix
        r.normalize()
    return Box(float(r.x0), float(r.y0), float(r.x1), float(r.y1))


def text_page(page: pymupdf.Page) -> pymupdf.TextPage:
    """The page's text layer parsed once for :func:`count_text_chars` and :func:`extract_words`
    (``get_text("text")`` and ``("words")`` parse with the same flags). Not for
    :func:`extract_spans`: ``"dict"`` keeps image blocks, and on some pages (11 of 1,717 dev pages)
    that changes a span."""
    return page.get_textpage(flags=pymupdf.TEXTFLAGS_WORDS)


def count_text_chars(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> int:
    """Non-whitespace characters of the text layer."""
    return sum(1 for c in page.get_text("text", textpage=textpage) if not c.isspace())


def text_status(n_chars: int, settings: Settings) -> str:
    return "pdf_layer" if n_chars > settings.render.text_layer_min_chars else "needs_ocr"


def extract_words(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> list[Word]:
    """Words of the text layer in displayed space, with PyMuPDF block/line numbers; characters of
    the Symbol font given as codes are read back (:func:`symbol_font_lines`), and so are the lines
    of a font giving glyph numbers (:func:`glyph_number_lines`: their words split again)."""
    raw = page.get_text("words", sort=False, textpage=textpage)
    try:
        fixed = symbol_font_lines(page, textpage)
    except Exception:  # a page whose characters cannot be re-read keeps its words as given
        fixed = {}
    texts = [w[4] for w in raw]
    if fixed:
        by_line: dict[tuple[int, int], list[int]] = {}
        for i, w in enumerate(raw):
            by_line.setdefault((w[5], w[6]), []).append(i)
        for key, pairs in fixed.items():
            idx = by_line.get(key, [])
            joined = "".join(texts[i] for i in idx)
            if "".join(a for a, _ in pairs) != joined:
                continue  # the line's words are not its characters in order: leave them as given
            pos = 0
            for i in idx:
                n = len(texts[i])
                texts[i] = "".join(b for _, b in pairs[pos : pos + n])
                pos += n
    # ("words" takes those glyph numbers for spaces: a line of them may give no word at all)
    glyph_lines: dict[tuple[int, int], list[tuple[str, BBox]]] = {}
    if any(ord(c) in _GLYPH_CODES for c in page.get_text("text", textpage=textpage)):
        try:
            glyph_lines = glyph_number_lines(page, textpage)
        except Exception:  # a page whose characters cannot be re-read keeps its words as given
            glyph_lines = {}
    marks = watermark_lines(page, textpage)
    pending = sorted(k for k in glyph_lines if k not in marks)  # lines read again, in reading order
    words: list[Word] = []

    def read_again_before(key: tuple[int, int] | None) -> None:
        while pending and (key is None or pending[0] <= key):
            k = pending.pop(0)
            words.extend(Word(text=t, bbox_pdf=box, block=k[0], line=k[1]) for t, box in glyph_lines[k])

    for (x0, y0, x1, y1, _, block, line, _n), text in zip(raw, texts, strict=True):
        key = (block, line)
        read_again_before(key)
        if key in marks or key in glyph_lines or not text.strip():
            continue
        words.append(Word(text=text, bbox_pdf=to_displayed(page, (x0, y0, x1, y1)), block=block, line=line))
    read_again_before(None)
    return words


# A watermark ("SiTime Corporation Confidential and Proprietary Information", "For ... Use Only")
# is text set large and diagonally across the page, over tables and text alike: its words would
# join the cells and lines they cross. Diagonal lines (neither horizontal nor vertical) set in 24 pt
# or more are taken for one; the 102 dev datasheets set theirs in 30-56 pt, while the diagonal
# labels of their drawings (angles, radii, pin names) are 3-16 pt and stay.
WATERMARK_MIN_SIZE = 24.0


def watermark_lines(page: pymupdf.Page, textpage: pymupdf.TextPage | None = None) -> set[tuple[int, int]]:
    """(block, line) of the page's watermark lines, as ``get_text("words")`` numbers them."""
    out: set[tuple[int, int]] = set()
    for bi, b in enumerate(page.get_text("dict", textpage=textpage)["blocks"]):
        for li, ln in enumerate(b.get("lines", ())):
            dx, dy = ln["dir"]
            if abs(dx) > 0.2 and abs(dy) > 0.2 and max((s["size"] for s in ln["spans"]), default=0) >= WATERMARK_MIN_SIZE:
                out.add((bi, li))
    return out


# A font named Symbol or SymbolMT (Adobe's, or Monotype's with the same encoding; "ABCDEF+" is a
# subset tag) draws Greek letters and signs at the codes of Latin letters and Latin-1 characters.
# Most PDFs map its codes to the characters drawn; some give the codes themselves: U+F000 + code
# (the symbol cmap of a TrueType font), the code's ASCII letter (µ as "m", Ω as "W", θ as "q"), or
# for a code over 0x7F the character that code has in WinAnsi or MacRoman (° as MacRoman's "∞").
# A subset of SymbolMT named "FF<n>_<n>_Symbol_<n>" (the fonts of one PDF typesetter, in TI
# datasheets) gives each character's glyph number in SymbolMT instead, as a WinAnsi character: that
# font's glyphs are its codes in order from glyph 3 (0x20-0x7E, then 0xA1-0xFE), so "P" (0x50) is
# µ (0x6D), "q" is °, ":" is Ω. Other fonts with "Symbol" in their name ("InterleafSymbols") have
# encodings of their own and are left as given.
_SYMBOL_FONT_RE = re.compile(r"(?:[A-Z]{6}\+)?Symbol(?:MT)?(?:[,-].*)?")
_GLYPH_NUMBER_FONT_RE = re.compile(r"(?:[A-Z]{6}\+)?FF\d+_\d+_Symbol_\d+")


def _symbol_font_kind(name: str) -> str:
    """"codes" (a Symbol font), "glyphs" (a SymbolMT subset giving glyph numbers) or ""."""
    if _SYMBOL_FONT_RE.fullmatch(name):
        return "codes"
    return "glyphs" if _GLYPH_NUMBER_FONT_RE.fullmatch(name) else ""


def glyph_number_reader(c: str) -> str:
    """A character of a SymbolMT subset that gives glyph numbers, read as the character drawn."""
    try:
        g = c.encode("cp1252")[0]
    except UnicodeEncodeError:
        return c
    code = g + 0x1D if g + 0x1D <= 0x7E else g + 0x3F
    return symbol_encoding().get(code, c) if g >= 3 else c


def symbol_reader(chars: set[str]) -> Callable[[str], str]:
    """How the characters one Symbol font gives on a page are read back. U+F020-U+F0FF: by their
    code. ASCII letters (Symbol draws none) say the PDF gives codes; then a character over 0x7F is
    a code too, read through the one single-byte encoding (WinAnsi, else MacRoman) that holds every
    such character of the font on the page - unless one is Greek (then those are the drawn
    characters, and only the letters are codes). Digits and ASCII signs are left as given."""
    enc = symbol_encoding()
    codec = None
    if any(c.isascii() and c.isalpha() for c in chars):
        high = [c for c in chars if ord(c) > 0x7F and not 0xF000 <= ord(c) <= 0xF0FF]
        if not any("GREEK" in unicodedata.name(c, "") or c == "µ" for c in high):
            for name in ("cp1252", "mac_roman"):
                try:
                    for c in high:
                        c.encode(name)
                except UnicodeEncodeError:
                    continue
                codec = name
                break

    def read(c: str) -> str:
        o = ord(c)
        if 0xF020 <= o <= 0xF0FF:
            return enc.get(o - 0xF000, c)
        if c.isascii() and c.isalpha():
            return enc.get(o, c)
        if codec is not None and o > 0x7F:
            return enc.get(c.encode(codec)[0], c)
        return c

    return read


def symbol_font_lines(
    page: pymupdf.Page, textpage: pymupdf.TextPage | None = None
) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """(block, line) -> the line's non-space characters as (given, read) pairs, for the lines of
    the page with a character of a Symbol font read differently than given (:func:`symbol_reader`,
    :func:`glyph_number_reader`; a character read as a space is dropped)."""
    if not any(_symbol_font_kind(f[3]) for f in page.get_fonts()):
        return {}  # the common case, without a character-level pass over the page
    blocks = page.get_text("rawdict", textpage=textpage)["blocks"]
    seen: dict[str, set[str]] = {}
    for b in blocks:
        for ln in b.get("lines", ()):
            for s in ln["spans"]:
                if _symbol_font_kind(s["font"]):
                    seen.setdefault(s["font"], set()).update(ch["c"] for ch in s["chars"])
    if not seen:
        return {}
    readers = {
        font: symbol_reader(chars) if _symbol_font_kind(font) == "codes" else glyph_number_reader
        for font, chars in seen.items()
    }
    out: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for b in blocks:
        for li, ln in enumerate(b.get("lines", ())):
            pairs: list[tuple[str, str]] = []
            changed = False
            for s in ln["spans"]:
                read = readers.get(s["font"])
                for ch in s["chars"]:
                    c = ch["c"]
                    if c.isspace():
                        continue
                    r = read(c) if read is not None else c
                    changed = changed or r != c
                    pairs.append((c, "" if r.isspace() else r))
            if changed:
                out[(b["number"], li)] = pairs
    return out


# A font whose PDF maps no code to a character (no /ToUnicode, an Identity encoding) and whose
# glyphs are in the standard Macintosh order - Apple's 258 standard glyph names (TrueType ``post``
# format 1), the order of Arial, Meiryo, PingFang and most TrueType fonts: glyph 3 space, 20 "1",
# 36 "A", 131 "°", 147 "±" - gives glyph numbers as characters, each character's ASCII code less 29:
# "Bit set to" as "\x03%LW\x03VHW\x03WR", "-25 °C" as "\x10\x15\x18\x83&". No text character is
# U+0003-U+001F other than tab, line feed and return, while every digit, space and "(),-./:" of such
# a font is: a span with two or more of them, and more of them than plain spaces, is read through
# the standard order, and so is a span of its font next to it on its line holding no plain space
# ("5HVHW", "Reset", set apart; a PDF may hold a second font of the same name that maps its codes).
# A single such character in a span is left as given (a symbol font's own code, "\x02" for "µ");
# Symbol fonts have their readers above. A glyph past the standard 258 (a CJK glyph, given as
# the CJK character of its number) is not known and is dropped.
_GLYPH_CODES = frozenset(range(0x03, 0x20)) - {0x09, 0x0A, 0x0D}


@cache
def _standard_glyph_text() -> tuple[str, ...]:
    """The character of each glyph of the standard order ("" for glyphs 0-2, which draw none)."""
    from fontTools.agl import toUnicode
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    return tuple("" if i < 3 else toUnicode(name) for i, name in enumerate(standardGlyphOrder))


def standard_glyph_reader(c: str) -> str:
    """A character of a span giving glyph numbers in the standard Macintosh order, read as the
    glyph's character. A plain space stays one; U+00A0-U+0101 stay as given (a simple font's codes
    over 0x7F come already mapped through its encoding: "³" is not glyph 179 there); a glyph past
    the order's 258 is not known ("", dropped)."""
    g = ord(c)
    if c == " " or 0xA0 <= g <= 0x101:
        return c
    names = _standard_glyph_text()
    return names[g] if g < len(names) else ""


def _glyph_numbered(text: str) -> bool:
    n = sum(1 for c in text if ord(c) in _GLYPH_CODES)
    return n >= 2 and n > text.count(" ")


def _words_of(page: pymupdf.Page, chars: Iterable[tuple[str, Sequence[float]]]) -> list[tuple[str, BBox]]:
    """Characters as read, with their unrotated boxes, split into words at what reads as a space."""
    words: list[tuple[str, BBox]] = []
    text: list[str] = []
    box: list[float] = []
    for c, (x0, y0, x1, y1) in (*chars, (" ", (0.0, 0.0, 0.0, 0.0))):
        if c.isspace():
            if text:
                words.append(("".join(text), to_displayed(page, box)))
            text, box = [], []
        elif c:
            box = [x0, y0, x1, y1] if not box else [min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)]
            text.append(c)
    return words


def glyph_number_lines(
    page: pymupdf.Page, textpage: pymupdf.TextPage | None = None
) -> dict[tuple[int, int], list[tuple[str, BBox]]]:
    """(block, line) -> the line's words, read again, for the lines of the page holding a span of a
    font that gives glyph numbers in the standard order (:func:`standard_glyph_reader`): the line's
    characters read (those spans' through the standard order, the others as given) and split at
    what reads as a space, each word with the box of its characters."""
    blocks = page.get_text("rawdict", textpage=textpage)["blocks"]
    out: dict[tuple[int, int], list[tuple[str, BBox]]] = {}
    for b in blocks:
        for li, ln in enumerate(b.get("lines", ())):
            spans = ln["spans"]
            texts = ["".join(ch["c"] for ch in s["chars"]) for s in spans]
            read = [not _symbol_font_kind(s["font"]) and _glyph_numbered(t) for s, t in zip(spans, texts, strict=True)]
            if not any(read):
                continue
            for order in (range(len(spans)), range(len(spans) - 1, -1, -1)):  # to the right, then left
                j = -1  # the last span passed that is not blank (a gap's space is a span of its own)
                for i in order:
                    if not texts[i].strip():
                        continue
                    if j >= 0 and read[j] and not read[i] and spans[i]["font"] == spans[j]["font"] and " " not in texts[i]:
                        read[i] = True  # a word of the same font set apart, next to one read so
                    j = i
            chars = (
                (standard_glyph_reader(ch["c"]) if glyphs else ch["c"], ch["bbox"])
                for s, glyphs in zip(spans, read, strict=True)
                for ch in s["chars"]
            )
            out[(b["number"], li)] = _words_of(page, chars)
    return out


def extract_spans(page: pymupdf.Page) -> list[Span]:
    spans = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", ()):
            for s in line["spans"]:
                n = len(s["text"].strip())
                if n == 0:
                    continue
                bold = bool(s["flags"] & 16) or "bold" in s["font"].lower()
                spans.append(Span(to_displayed(page, s["bbox"]), float(s["size"]), bold, n))
    return spans


def render_dpi_for_size(width_pt: float, height_pt: float, dpi: int, max_pixels: int = MAX_RENDER_PIXELS) -> int:
    """The dpi a page of this displayed size renders at when `dpi` is asked for: `dpi`, or less so
    that the image holds at most `max_pixels` pixels. Every renderer goes through this, and so does
    every caller that maps pixels back to points (OCR, YOLO, evidence crops)."""
    w_px, h_px = max(width_pt, 1.0) * dpi / 72, max(height_pt, 1.0) * dpi / 72
    if (w_px + 1) * (h_px + 1) <= max_pixels:
        return int(dpi)
    fit = 72 * (max_pixels / (max(width_pt, 1.0) * max(height_pt, 1.0))) ** 0.5
    d = max(1, int(fit))
    while d > 1 and (max(width_pt, 1.0) * d / 72 + 1) * (max(height_pt, 1.0) * d / 72 + 1) > max_pixels:
        d -= 1
    return d


def page_pixel_size(width_pt: float, height_pt: float, dpi: int) -> tuple[int, int]:
    """(width, height) in pixels of the page image :func:`render_page_image` makes of a displayed
    page of this size at `dpi`, without rendering it: MuPDF's own transform and rounding of the
    page box (``JM_pixmap_from_display_list``), at ``render_dpi_for_size``."""
    z = render_dpi_for_size(width_pt, height_pt, dpi) / 72
    r = pymupdf.mupdf.fz_transform_rect(
        pymupdf.mupdf.FzRect(0, 0, float(width_pt), float(height_pt)), pymupdf.mupdf.FzMatrix(z, 0, 0, z, 0, 0)
    )
    ir = pymupdf.mupdf.fz_round_rect(r)
    return (int(ir.x1 - ir.x0), int(ir.y1 - ir.y0))


def render_dpi(page: pymupdf.Page, dpi: int) -> int:
    """:func:`render_dpi_for_size` for an open page."""
    return render_dpi_for_size(*page_size_pt(page), dpi)


def _pixmap(page: pymupdf.Page, dpi: int) -> pymupdf.Pixmap:
    return page.get_pixmap(dpi=render_dpi(page, dpi), colorspace=pymupdf.csRGB, alpha=False)


def render_page_rgb(page: pymupdf.Page, dpi: int) -> np.ndarray:
    """The displayed page as an H×W×3 uint8 array at ``render_dpi(page, dpi)`` (px = pt × dpi / 72;
    `dpi` itself unless the page is too large for the pixel budget)."""
    pix = _pixmap(page, dpi)
    return np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width, 3).copy()


def page_count(path: Path) -> int:
    """Pages of a PDF (for a progress bar); 0 when it cannot be read (its ingest will say why)."""
    if not Path(path).is_file():  # a FIFO would block the open
        return 0
    try:
        with _open(path) as d:
            return d.page_count if not d.needs_pass else 0
    except Exception:
        return 0


def open_document(path: Path) -> pymupdf.Document:
    """Open a stored or given PDF to read it (no limits: it was checked when ingested); a file that
    is not a readable PDF is a :class:`DocumentError` with a one-line reason."""
    try:
        return _open(path)
    except Exception as e:
        raise DocumentError(f"not a readable PDF: {_one_line(e)}") from None


def _open(path: Path, filetype: str | None = None) -> pymupdf.Document:
    """`pymupdf.open` for any file name: MuPDF takes names as UTF-8, so a name with bytes that do
    not decode (kept by Python as lone surrogates) is opened from its bytes instead (files are at
    most `max_file_mb`)."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        return pymupdf.open(stream=Path(path).read_bytes(), filetype=filetype or "pdf")
    return pymupdf.open(path, filetype=filetype) if filetype else pymupdf.open(path)


def render_page_image(page: pymupdf.Page, *, dpi: int | None = None, scale: float | None = None) -> Image.Image:
    """The displayed page as an RGB PIL image, at ``render_dpi(page, dpi)`` or at `scale` (pixels per
    point; also held to the pixel budget)."""
    if scale is not None:
        scale = min(scale, render_dpi(page, max(1, int(scale * 72) + 1)) / 72)
        pix = page.get_pixmap(matrix=pymupdf.Matrix(scale, scale), colorspace=pymupdf.csRGB, alpha=False)
    else:
        pix = _pixmap(page, dpi or 72)
    return Image.frombytes("RGB", (pix.width, pix.height), pix.samples)


def render_page_png(pdf: Path, page: int, dpi: int, out: Path) -> None:
    """Render 1-based `page` of `pdf` at `dpi` to `out` (atomic write). NotFoundError if out of range."""
    with open_document(pdf) as doc:
        write_page_png(doc, page, dpi, out)


def write_page_png(doc: pymupdf.Document, page: int, dpi: int, out: Path) -> None:
    """Render 1-based `page` of the open `doc` at ``render_dpi(page, dpi)`` to `out` (atomic write).
    NotFoundError if out of range. For a caller rendering many pages of one document (opened once)."""
    atomic_write_bytes(out, page_png_bytes(doc, page, dpi))


def page_png_bytes(doc: pymupdf.Document, page: int, dpi: int) -> bytes:
    """1-based `page` of the open `doc` as PNG bytes at ``render_dpi(page, dpi)``, in memory."""
    if not 1 <= page <= doc.page_count:
        raise NotFoundError(f"page {page} out of range (document has {doc.page_count} pages)")
    return bytes(_pixmap(doc[page - 1], dpi).tobytes("png"))


def _one_line(e: BaseException) -> str:
    msg = path_text(str(e)).strip().splitlines()
    return (msg[0] if msg else type(e).__name__)[:200]


def source_pdf_path(doc: Document, data: DataDir | None) -> Path | None:
    """The document's PDF: the copy in the data dir, else the absolute path it was ingested from;
    None when neither is there (imported chunks, a moved file)."""
    if data is not None and data.source_pdf(doc.doc_id).is_file():
        return data.source_pdf(doc.doc_id)
    for given in (doc.source_path, doc.source_pdf):
        q = Path(given) if given else None
        if q is not None and q.is_absolute() and q.is_file():
            return q
    return None


class PdfPage:
    """One page of the document's PDF and its vector drawings, each read at most once."""

    def __init__(self, page: pymupdf.Page) -> None:
        self.page = page
        self._drawings: list[dict] | None = None
        self._read = False

    @classmethod
    def load(cls, pdf: pymupdf.Document | None, page_no: int) -> PdfPage | None:
        """1-based page `page_no` of `pdf`; None without a PDF, out of range or unreadable."""
        if pdf is None or not 1 <= page_no <= pdf.page_count:
            return None
        try:
            return cls(pdf[page_no - 1])
        except Exception:
            return None

    def drawings(self) -> list[dict] | None:
        """:func:`page_drawings`, read on first use; None when the drawing commands cannot be
        read. Callers only read the paths (never edit them): they are shared."""
        if not self._read:
            self._read = True
            try:
                self._drawings = page_drawings(self.page)
            except Exception:
                self._drawings = None
        return self._drawings


def page_drawings(page: pymupdf.Page) -> list[dict]:
    """The page's vector paths as ``get_cdrawings()`` gives them (unrotated space), each path's
    ``rect`` a ``pymupdf.Rect`` (what ``cluster_drawings`` reads). ``get_drawings()`` is the same
    data with every item's coordinates made ``Point``/``Rect``/``Quad`` objects in Python, which
    costs ~5x the read on a page of vector-drawn glyphs: the items stay tuples here —
    ``("l", p0, p1)``, ``("c", p0, p1, p2, p3)``, ``("re", (x0, y0, x1, y1), orientation)`` (not
    normalized), ``("qu", (ul, ur, ll, lr))`` — and a reader normalizes what it needs."""
    paths = page.get_cdrawings()
    for p in paths:
        if "rect" in p:
            p["rect"] = pymupdf.Rect(p["rect"])
    return paths
