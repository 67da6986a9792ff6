"""Test-PDF factory: small, deterministic PDFs with known content, built with PyMuPDF.

Every ``add_*`` function appends one page to a ``pymupdf.Document`` and returns a :class:`PageTruth`
that names the boxes it drew, in the *displayed* page space (PDF points, top-left origin, y down —
the space of ``bbox_pdf``). Tests of any area may import it (``from pdf_factory import ...``;
``tests/`` is on the pythonpath)::

    doc = pymupdf.open()
    truth = add_table_page(doc)          # table + caption + footnote
    add_two_column_page(doc)             # title, "Features" | "Applications" columns
    doc.save(tmp_path / "sample.pdf")

``write_sample_pdf`` builds the standard mixed document; ``write_bad_input_zoo`` writes the files a
robust ingest must reject (empty, truncated, random bytes, password-protected, over the limits).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

__all__ = [
    "PageTruth",
    "add_drawing_page",
    "add_image_only_page",
    "add_offset_mediabox_page",
    "add_rotated_page",
    "add_table_page",
    "add_two_column_page",
    "symbol_codes_pdf",
    "write_bad_input_zoo",
    "write_sample_pdf",
]

LETTER = (612.0, 792.0)
BODY = (
    "The oscillator provides a stable reference clock for wireless and industrial designs. "
    "Frequency stability is specified over the full operating temperature range, including "
    "initial tolerance, supply voltage variation and first year aging at room temperature."
)


@dataclass
class PageTruth:
    """What a builder put on its page: named boxes in displayed points, and words that must be found."""

    page: int  # 1-based
    boxes: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    words: list[str] = field(default_factory=list)


def _box(r: pymupdf.Rect) -> tuple[float, float, float, float]:
    return (float(r.x0), float(r.y0), float(r.x1), float(r.y1))


def _textbox(
    page: pymupdf.Page, rect: pymupdf.Rect, text: str, size: float = 9.5, font: str = "helv"
) -> None:
    """Insert wrapped text, shrinking the font until it fits (insert_textbox writes nothing otherwise)."""
    while size >= 4:
        if page.insert_textbox(rect, text, fontsize=size, fontname=font) >= 0:
            return
        size -= 0.5
    raise ValueError(f"text does not fit in {rect}: {text[:40]!r}")


def add_table_page(doc: pymupdf.Document) -> PageTruth:
    """Heading, a paragraph, 'Table 1' caption, a ruled 4×6 table, and a 'Note 1' footnote under it."""
    page = doc.new_page(width=LETTER[0], height=LETTER[1])
    truth = PageTruth(page=page.number + 1, words=["ESR", "Capacitance", "Note"])
    page.insert_text((56, 70), "1. Electrical characteristics", fontsize=15, fontname="hebo")
    _textbox(page, pymupdf.Rect(56, 90, 556, 150), BODY + " " + BODY)
    cap = pymupdf.Rect(56, 170, 556, 186)
    page.insert_text((56, 182), "Table 1. Electrical characteristics at 25 °C", fontsize=10, fontname="hebo")
    truth.boxes["caption"] = _box(cap)
    rows = [
        ["Parameter", "Symbol", "Min", "Typ", "Max", "Unit"],
        ["Nominal frequency", "F0", "8", "26.000", "54", "MHz"],
        ["Load capacitance", "CL", "6", "12", "20", "pF"],
        ["Equivalent series resistance ESR", "R1", "-", "40", "60", "Ohm"],
        ["Shunt Capacitance", "C0", "-", "1.2", "3", "pF"],
        ["Operating temperature", "Topr", "-40", "25", "85", "°C"],
        ["Frequency tolerance", "f_tol", "-10", "-", "+10", "ppm"],
    ]
    x = [56, 230, 300, 360, 420, 480, 556]
    y0, rh = 196, 20
    table = pymupdf.Rect(x[0], y0, x[-1], y0 + rh * len(rows))
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            page.insert_text(
                (x[c] + 4, y0 + r * rh + 14), cell, fontsize=9, fontname="hebo" if r == 0 else "helv"
            )
    for r in range(len(rows) + 1):
        page.draw_line((x[0], y0 + r * rh), (x[-1], y0 + r * rh), width=0.6)
    for xv in x:
        page.draw_line((xv, y0), (xv, table.y1), width=0.6)
    truth.boxes["table"] = _box(table)
    note = pymupdf.Rect(56, table.y1 + 6, 556, table.y1 + 30)
    _textbox(
        page, note, "Note 1: ESR measured with a crystal impedance meter at the nominal drive level.", size=8
    )
    truth.boxes["footnote"] = _box(note)
    _textbox(page, pymupdf.Rect(56, 420, 556, 520), BODY + " " + BODY + " " + BODY)
    return truth


def add_drawing_page(doc: pymupdf.Document) -> PageTruth:
    """A vector package drawing (outline, pads, dimension lines, callouts) with a 'Figure 1' caption."""
    page = doc.new_page(width=LETTER[0], height=LETTER[1])
    truth = PageTruth(page=page.number + 1, words=["Figure", "outline"])
    page.insert_text((56, 70), "2. Package outline", fontsize=15, fontname="hebo")
    draw = pymupdf.Rect(150, 110, 460, 400)
    shape = page.new_shape()
    shape.draw_rect(pymupdf.Rect(200, 150, 410, 330))
    for px, py in ((215, 165), (345, 165), (215, 265), (345, 265)):
        shape.draw_rect(pymupdf.Rect(px, py, px + 50, py + 50))
    shape.draw_circle((305, 240), 12)
    shape.draw_line((200, 360), (410, 360))
    shape.draw_line((440, 150), (440, 330))
    shape.finish(color=(0, 0, 0), width=1.2)
    shape.commit()
    page.insert_text((285, 375), "3.2 mm", fontsize=9)
    page.insert_text((445, 245), "2.5", fontsize=9)
    page.insert_text((160, 140), "Pin 1", fontsize=9)
    truth.boxes["picture"] = _box(draw)
    cap = pymupdf.Rect(150, 410, 460, 426)
    page.insert_text((180, 422), "Figure 1. Package outline (unit: mm)", fontsize=10, fontname="hebo")
    truth.boxes["caption"] = _box(cap)
    _textbox(page, pymupdf.Rect(56, 450, 556, 560), BODY + " " + BODY + " " + BODY)
    return truth


def add_two_column_page(doc: pymupdf.Document) -> PageTruth:
    """Full-width title, then 'Features' (left) and 'Applications' (right) lists side by side whose
    items line up row by row — the case where sorting by y interleaves the two columns."""
    page = doc.new_page(width=LETTER[0], height=LETTER[1])
    truth = PageTruth(page=page.number + 1, words=["Features", "Applications"])
    page.insert_text((56, 64), "XO-7M Series Crystal Oscillator", fontsize=20, fontname="hebo")
    page.insert_text((56, 110), "Features", fontsize=13, fontname="hebo")
    page.insert_text((330, 110), "Applications", fontsize=13, fontname="hebo")
    feats = [
        "Low jitter 0.3 ps RMS",
        "Supply voltage 1.8 V to 3.3 V",
        "Tight stability 10 ppm",
        "Small 2.0 x 1.6 mm package",
    ]
    apps = [
        "Wireless LAN modules",
        "Bluetooth and Zigbee radios",
        "Industrial Ethernet switches",
        "Consumer set-top boxes",
    ]
    for i, (f, a) in enumerate(zip(feats, apps, strict=True)):
        y = 134 + i * 22
        page.insert_text((60, y), f"- {f}", fontsize=10)
        page.insert_text((334, y), f"- {a}", fontsize=10)
    truth.boxes["left"] = (56.0, 96.0, 290.0, 134 + 3 * 22 + 6.0)
    truth.boxes["right"] = (330.0, 96.0, 560.0, 134 + 3 * 22 + 6.0)
    _textbox(page, pymupdf.Rect(56, 260, 280, 520), BODY + " " + BODY)
    _textbox(page, pymupdf.Rect(330, 260, 556, 520), BODY + " " + BODY)
    truth.boxes["left_body"] = (56.0, 260.0, 280.0, 520.0)
    truth.boxes["right_body"] = (330.0, 260.0, 556.0, 520.0)
    return truth


def add_image_only_page(doc: pymupdf.Document, *, dpi: int = 150) -> PageTruth:
    """A page that is one raster image of text (no text layer) — it must go through OCR."""
    src = pymupdf.open()
    sp = src.new_page(width=LETTER[0], height=LETTER[1])
    sp.insert_text((72, 100), "OSCILLATOR SPECIFICATION", fontsize=24, fontname="hebo")
    sp.insert_text((72, 150), "Frequency 25.000 MHz", fontsize=18)
    sp.insert_text((72, 190), "Stability 20 ppm", fontsize=18)
    pix = sp.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
    src.close()
    page = doc.new_page(width=LETTER[0], height=LETTER[1])
    page.insert_image(page.rect, stream=pix.tobytes("png"))
    return PageTruth(
        page=page.number + 1,
        words=["OSCILLATOR", "Frequency", "Stability"],
        boxes={"title": (72.0, 76.0, 420.0, 106.0)},
    )


def add_rotated_page(doc: pymupdf.Document, rotation: int = 90) -> PageTruth:
    """A portrait page with /Rotate `rotation`; boxes are given in the displayed (landscape) space."""
    page = doc.new_page(width=LETTER[0], height=LETTER[1])
    page.insert_text((56, 70), "Rotated ordering information", fontsize=15, fontname="hebo")
    _textbox(page, pymupdf.Rect(56, 90, 556, 200), BODY + " " + BODY)
    marker = pymupdf.Rect(56, 250, 200, 330)
    page.draw_rect(marker, color=(0, 0, 0), fill=(0, 0, 0))
    page.set_rotation(rotation)
    shown = marker * page.rotation_matrix
    shown.normalize()
    return PageTruth(page=page.number + 1, boxes={"marker": _box(shown)}, words=["Rotated", "ordering"])


def add_offset_mediabox_page(doc: pymupdf.Document) -> PageTruth:
    """A page whose MediaBox starts at (100, 50), not (0, 0); the marker box is in displayed space."""
    page = doc.new_page(width=LETTER[0] + 100, height=LETTER[1] + 50)
    # pymupdf draws in its top-left space of the *current* box; draw first, then move the box
    page.insert_text((156, 120), "Offset media box page", fontsize=15, fontname="hebo")
    _textbox(page, pymupdf.Rect(156, 140, 656, 250), BODY + " " + BODY)
    marker = pymupdf.Rect(156, 300, 300, 380)
    page.draw_rect(marker, color=(0, 0, 0), fill=(0, 0, 0))
    # MediaBox in PDF (bottom-up) coordinates: x from 100, y from 0 → displayed origin moves by (100, 0)
    page.set_mediabox(pymupdf.Rect(100, 0, LETTER[0] + 100, LETTER[1] + 50 - 50))
    shown = pymupdf.Rect(marker.x0 - 100, marker.y0 - 50, marker.x1 - 100, marker.y1 - 50)
    return PageTruth(page=page.number + 1, boxes={"marker": _box(shown)}, words=["Offset", "media"])


def write_sample_pdf(path: Path, *, ocr_page: bool = True) -> list[PageTruth]:
    """The standard mixed test document: table, drawing, two columns, [image-only], rotated, offset."""
    doc = pymupdf.open()
    truths = [add_table_page(doc), add_drawing_page(doc), add_two_column_page(doc)]
    if ocr_page:
        truths.append(add_image_only_page(doc))
    truths += [add_rotated_page(doc), add_offset_mediabox_page(doc)]
    doc.set_metadata({"title": "Factory sample datasheet"})
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(path, garbage=3, deflate=True)
    doc.close()
    return truths


def write_bad_input_zoo(folder: Path, *, seed: int = 0) -> dict[str, Path]:
    """Files an ingest must reject with a one-line reason. Keys name the case."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    out["empty"] = folder / "empty.pdf"
    out["empty"].write_bytes(b"")
    out["random"] = folder / "random.pdf"
    out["random"].write_bytes(random.Random(seed).randbytes(4096))
    good = pymupdf.open()
    add_table_page(good)
    full = good.tobytes()
    out["truncated"] = folder / "truncated.pdf"
    out["truncated"].write_bytes(full[:200])  # header and a few objects, no page tree
    out["password"] = folder / "password.pdf"
    good.save(out["password"], encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    good.close()
    huge = pymupdf.open()
    huge.new_page(width=20000, height=800)  # beyond the 14,400 pt page-side limit
    out["huge_page"] = folder / "huge_page.pdf"
    huge.save(out["huge_page"])
    huge.close()
    return out


def cut_short_pdfs(folder: Path) -> tuple[Path, Path]:
    """A three-page PDF cut short twice, as an interrupted download leaves it: before any page's
    content stream ("none.pdf": MuPDF repairs it into three empty pages) and right after the first
    page's ("first.pdf": page 1 whole, pages 2-3 empty). The page tree comes before the content
    streams, so both still open with three pages."""
    doc = pymupdf.open()
    add_table_page(doc)
    add_two_column_page(doc)
    add_two_column_page(doc)
    full = doc.tobytes(garbage=0, deflate=False)
    page1 = len(doc[0].get_text())
    doc.close()

    def texts(cut: int) -> list[int]:
        with pymupdf.open(stream=full[:cut], filetype="pdf") as d:
            return [len(p.get_text()) for p in d]

    first = next(m.end() for m in re.finditer(rb"endstream", full) if texts(m.end()) == [page1, 0, 0])
    folder.mkdir(parents=True, exist_ok=True)
    none, one = folder / "none.pdf", folder / "first.pdf"
    none.write_bytes(full[: full.index(b"stream")])
    one.write_bytes(full[:first])
    return none, one


def symbol_codes_pdf(runs: list[tuple[str, bytes]], *, encoding: str = "WinAnsiEncoding") -> bytes:
    """A one-page PDF written by hand, as some datasheet tools write them: text runs alternating
    Helvetica ("H") and the standard Symbol font ("S") declared with a single-byte `encoding` and
    no ToUnicode map, so the text layer gives the Symbol font's codes (b"m" for µ, b"W" for Ω), not
    the characters it draws. `runs`: (font, bytes of a PDF string) in order, on one line."""
    ops = b"".join(b"/%s 10 Tf (%s) Tj " % (b"F1" if f == "H" else b"F2", t) for f, t in runs)
    content = b"BT 72 700 Td " + ops + b"ET"
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Symbol /Encoding /" + encoding.encode() + b" >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return out
