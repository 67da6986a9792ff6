"""Generate realistic sample datasheets (crystals, XO/TCXO/VCXO, RTCs) with their ground truth.

    generate_corpus(Path("samples"), n=30, seed=0)

writes ``{vendor}_{series}.pdf`` files, ``ground_truth.jsonl`` (one layout element a line: doc, page,
label, bbox in PDF points top-left origin, text, role), ``queries.jsonl`` (region-annotated queries,
DESIGN.md format), ``documents.jsonl`` (one line per document: vendor, series, part numbers) and
``specs_truth.jsonl`` (every spec value printed in a table cell, with its parameter, number, unit and
cell box: samples/spectruth.py).

Deterministic: a (seed, document index) pair seeds its own `random.Random`, so the same seed gives
byte-identical ground truth and PDFs with identical text and geometry.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pymupdf
from PIL import Image

from layoutrag.errors import InputError
from layoutrag.geometry import union_box
from layoutrag.pdf import open_document
from layoutrag.samples import drawings
from layoutrag.samples.pagekit import GREY, Canvas, GTElement, TableBox
from layoutrag.samples.queries import Facts, QueryRecord, make_queries
from layoutrag.samples.spec import DocSpec, OrderRow
from layoutrag.samples.spectruth import spec_truth
from layoutrag.samples.vocab import (
    APPLICATIONS,
    FEATURES,
    PACKAGES,
    PRODUCT_TYPES,
    VENDORS,
    SpecRow,
    make_part_number,
    make_series,
    spec_rows,
)

BBox = tuple[float, float, float, float]  # the generator draws with plain tuples; records turn them into Box

__all__ = ["DocSpec", "generate_corpus", "plan_document", "render_document"]

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
MARGIN = 42.0
KIND_CYCLE = ("crystal", "xo", "tcxo", "rtc", "tuning_fork", "vcxo")
FREQS = {
    "crystal": [12.0, 16.0, 19.2, 24.0, 25.0, 26.0, 27.12, 32.0, 38.4, 40.0, 48.0],
    "tuning_fork": [32.768],
    "xo": [10.0, 12.0, 20.0, 24.0, 25.0, 33.333, 48.0, 50.0, 100.0, 125.0],
    "tcxo": [10.0, 16.369, 19.2, 20.0, 26.0, 38.4, 40.0, 52.0],
    "vcxo": [19.44, 27.0, 74.25, 77.76, 100.0, 122.88, 148.5, 155.52],
    "rtc": [32.768],
}
SPEC_WIDTHS = [118, 34, 34, 34, 34, 36, 0]  # last column takes the rest


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-")


def _freq_text(kind: str, f: float) -> str:
    return "32.768 kHz" if kind in ("tuning_fork", "rtc") else f"{f:.3f} MHz"


def plan_document(index: int, seed: int, used_series: set[str]) -> DocSpec:
    """Choose vendor, product, parameters and part numbers for document `index` (pure in its inputs)."""
    rng = random.Random(f"layoutrag-samples/{seed}/{index}")
    kind = KIND_CYCLE[(index + seed) % len(KIND_CYCLE)]
    vendor = VENDORS[(index * 5 + seed + index // len(VENDORS)) % len(VENDORS)]
    pkg_choices = PACKAGES[:4] if kind in ("tuning_fork", "rtc") else PACKAGES
    if kind == "vcxo":
        pkg_choices = PACKAGES[3:]
    pkg = rng.choice(pkg_choices)
    series = make_series(vendor, rng, pkg, used_series)
    freq = rng.choice(FREQS[kind])
    spec, key = spec_rows(kind, rng, freq=freq, pkg=pkg)
    temps = ["-20 to +70 °C", "-40 to +85 °C", "-40 to +105 °C", "-40 to +125 °C"]
    orders = []
    codes: set[str] = set()
    freqs = sorted(set(rng.sample(FREQS[kind], k=min(len(FREQS[kind]), 7))) | {freq})
    for f in freqs:
        for _ in range(1 if len(freqs) > 3 else 3):
            code = make_part_number(vendor.style, series, f, rng, kind)
            if code in codes:
                continue
            codes.add(code)
            stab = key.get("stab") or key.get("tol") or key.get("acc") or "±20 ppm"
            load = key.get("cl") or (
                "LVDS"
                if kind == "vcxo"
                else "CMOS, 15 pF"
                if kind == "xo"
                else "Clipped sine"
                if kind == "tcxo"
                else "I2C"
            )
            orders.append(
                OrderRow(
                    code,
                    _freq_text(kind, f),
                    stab,
                    load,
                    rng.choice(temps[1:3]),
                    rng.choice(["T&R 3k", "T&R 1k", "Bulk"]),
                )
            )
    feats = rng.sample(FEATURES[kind], k=min(len(FEATURES[kind]), rng.randint(5, 7)))
    apps = rng.sample(APPLICATIONS[kind], k=min(len(APPLICATIONS[kind]), rng.randint(4, 5)))
    file_name = f"{vendor.key}_{_slug(series)}_{pkg.code}.pdf"
    return DocSpec(
        index=index,
        file_name=file_name,
        vendor=vendor,
        ptype=PRODUCT_TYPES[kind],
        series=series,
        pkg=pkg,
        freq=freq,
        spec=spec,
        key=key,
        orders=orders,
        features=feats,
        applications=apps,
        reflow=(rng.choice([250, 255, 260]), 217, rng.choice([10, 20, 30])),
        revision=f"{rng.randint(1, 3)}.{rng.randint(0, 9)}",
        scanned_page=(index % 4 == 1),
        i2c_address=rng.choice(["0x32", "0x51", "0x52", "0x68"]) if kind == "rtc" else "",
        notes=[
            "Other frequencies and specifications are available on request.",
            "Measured with a network analyser per IEC 60444-5; values at 25 °C unless noted.",
        ],
    )


# --------------------------------------------------------------------------- page furniture
def _header(cv: Canvas, d: DocSpec) -> None:
    x0, x1 = MARGIN, cv.width - MARGIN
    if cv.page_no == 1:
        logo = cv.rect((x0, 26, x0 + 96, 48), color=None, fill=d.vendor.color)
        name = d.vendor.name.split(" ")[0].upper()
        t = cv.text(x0 + 6, 31, name, 10, bold=True, color=(1, 1, 1))
        r = cv.text(
            x0,
            30,
            f"{d.ptype.title}  |  Datasheet Rev. {d.revision}",
            7.5,
            color=GREY,
            align="right",
            width=x1 - x0,
        )
        cv.line((x0, 54), (x1, 54), width=1.2, color=d.vendor.color)
        cv.add("page_header", union_box([logo, t]), name)
        cv.add("page_header", r, f"{d.ptype.title} | Datasheet Rev. {d.revision}")
    else:
        a = cv.text(x0, 28, f"{d.series} Series", 7.5, bold=True, color=d.vendor.color)
        b = cv.text(x0, 28, d.ptype.title, 7.5, color=GREY, align="right", width=x1 - x0)
        cv.line((x0, 40), (x1, 40), width=0.6, color=d.vendor.color)
        cv.add("page_header", a, f"{d.series} Series")
        cv.add("page_header", b, d.ptype.title)


def _footer(cv: Canvas, d: DocSpec) -> None:
    x0, x1 = MARGIN, cv.width - MARGIN
    y = cv.height - 34
    cv.line((x0, y - 4), (x1, y - 4), width=0.4, color=GREY)
    a = cv.text(x0, y, f"{d.vendor.name}  ·  {d.vendor.url}", 6.5, color=GREY)
    b = cv.text(x0, y, f"Page {cv.page_no} of {d.n_pages}", 6.5, color=GREY, align="right", width=x1 - x0)
    cv.add("page_footer", a, f"{d.vendor.name} · {d.vendor.url}")
    cv.add("page_footer", b, f"Page {cv.page_no} of {d.n_pages}")


def _section(cv: Canvas, d: DocSpec, y: float, title: str, zh: str = "", x: float = MARGIN) -> float:
    s = f"{title} {zh}" if (zh and d.vendor.bilingual) else title
    b = cv.text(x, y, s, 10.5, bold=True, color=d.vendor.color)
    cv.add("section_header", b, s)
    return b[3] + 6


def _caption(cv: Canvas, y: float, text: str, x: float = MARGIN, role: str = "") -> float:
    b = cv.text(x, y, text, 7.5, bold=True)
    cv.add("caption", b, text, role)
    return b[3] + 4


def _spec_widths(cv: Canvas) -> list[float]:
    w: list[float] = list(SPEC_WIDTHS)
    w[-1] = cv.width - 2 * MARGIN - sum(w[:-1])
    return w


def _table(
    cv: Canvas,
    x: float,
    y: float,
    widths: list[float],
    header: list[str],
    rows: list[list[str]],
    role: str,
    align: list[str] | None = None,
) -> TableBox:
    tb = cv.table(x, y, widths, header, rows, align=align)
    text = " ".join(" ".join(c for c in r if c) for r in [header, *rows])
    cv.add("table", tb.bbox, text, role)
    return tb


# --------------------------------------------------------------------------- pages
SPEC_HEADER = ["Parameter", "Symbol", "Min.", "Typ.", "Max.", "Unit", "Conditions / Notes"]


def _abs_max(cv: Canvas, d: DocSpec, y: float, facts: Facts) -> float:
    y = _section(cv, d, y, "1. Absolute Maximum Ratings", "极限参数")
    y = _caption(cv, y, "Table 1. Absolute maximum ratings")
    amr = [
        ["Storage temperature", "-55 to +125", "°C"],
        ["Soldering temperature", f"{d.reflow[0]} (10 s max)", "°C"],
        ["Shock resistance", "3000 g, 0.3 ms half sine", "—"],
    ]
    if d.kind in ("xo", "tcxo", "vcxo", "rtc"):
        amr.insert(0, ["Supply voltage", "-0.3 to +6.0" if d.kind == "rtc" else "-0.5 to +4.0", "V"])
    tb = _table(cv, MARGIN, y, [170, 150, 50], ["Item", "Rating", "Unit"], amr, "abs_max")
    facts.abs_max = (1, tb.bbox, amr)
    facts.abs_max_rows = list(zip(tb.row_boxes, tb.cell_boxes, strict=True))
    return tb.bbox[3]


def _page1(cv: Canvas, d: DocSpec, facts: Facts) -> list[SpecRow]:
    """Title block, features/applications, description, the start of the spec table; returns rows left."""
    _header(cv, d)
    x0, x1 = MARGIN, cv.width - MARGIN
    t = cv.text(x0, 66, f"{d.series} Series", 22, bold=True)
    cv.add("title", t, f"{d.series} Series", "title")
    sub = f"{d.pkg.length} × {d.pkg.width} mm {d.ptype.title}"
    if d.vendor.bilingual:
        sub += f" {d.ptype.title_zh}"
    s = cv.text(x0, t[3] + 5, sub, 11, color=(0.25, 0.25, 0.25))
    cv.add("text", s, sub, "subtitle")
    pn_text = "Part numbers: " + ", ".join(o.code for o in d.orders[:3])
    pb, pn_drawn = cv.paragraph(x0, s[3] + 6, 330, pn_text, 8)
    cv.add("text", pb, pn_drawn, "part_list")
    pic = drawings.product_view(cv, x1 - 150, 74, d.pkg, d.vendor.name.split(" ")[0].upper())
    cv.add("picture", pic, "", "product_view")
    y = max(pb[3], pic[3]) + 16
    col_w = (x1 - x0 - 24) / 2
    blocks = {}
    for col, (title, zh, items) in enumerate(
        (("Features", "产品特点", d.features), ("Applications", "应用领域", d.applications))
    ):
        cx = x0 + col * (col_w + 24)
        yy = _section(cv, d, y, title, zh, x=cx)
        boxes = []
        for it in items:
            b, txt = cv.paragraph(cx, yy, col_w, it, 8.3, bullet="•")
            cv.add("list_item", b, txt, title.lower())
            boxes.append(b)
            yy = b[3] + 3.5
        blocks[title] = (boxes, items, yy)
    # a list is a region in parts (one per item): the gaps between items are not evidence
    facts.applications = (1, blocks["Applications"][0], d.applications)
    facts.features = (1, blocks["Features"][0], d.features)
    y = max(v[2] for v in blocks.values()) + 10
    y = _section(cv, d, y, "Description", "产品描述")
    vendor = d.vendor.name.split(" 华")[0].rstrip(".")
    desc = (
        f"The {d.series} series is a {d.ptype.title.split(' (')[0]} in a {d.pkg.length} × {d.pkg.width} × "
        f"{d.pkg.height} mm ceramic package from {vendor}. It covers "
        f"{_freq_text(d.kind, d.freq) if d.kind in ('tuning_fork', 'rtc') else d.spec[0].min + ' to ' + d.spec[0].max + ' MHz'} "
        f"and operates from {d.key['temp']}. The package is hermetically sealed and suited to automatic "
        f"placement and lead-free reflow soldering."
    )
    b, txt = cv.paragraph(x0, y, x1 - x0, desc, 8.5)
    cv.add("text", b, txt, "description")
    facts.description = (1, b, txt)
    y = _abs_max(cv, d, b[3] + 14, facts)
    y = _section(cv, d, y + 14, "2. Electrical Specifications", "电气特性")
    y = _caption(
        cv, y, "Table 2. Electrical characteristics (Ta = 25 °C unless otherwise noted)", role="spec_caption"
    )
    widths = _spec_widths(cv)
    head_h = cv.row_height(SPEC_HEADER, widths, bold=True)
    limit = cv.height - 62 - head_h - y
    used, n_fit = 0.0, 0
    for r in d.spec:
        h = cv.row_height(r.cells(), widths)
        if used + h > limit:
            break
        used += h
        n_fit += 1
    n_fit = min(n_fit, len(d.spec) - 3)  # a table continued on the next page, always
    rows = d.spec[:n_fit]
    tb = _table(
        cv,
        x0,
        y,
        widths,
        SPEC_HEADER,
        [r.cells() for r in rows],
        "spec_table",
        align=["left"] + ["center"] * 5 + ["left"],
    )
    for r, rb, cells in zip(rows, tb.row_boxes, tb.cell_boxes, strict=True):
        facts.spec.append((r, 1, tb.bbox, rb, cells))
    _footer(cv, d)
    return d.spec[n_fit:]


def _page2(cv: Canvas, d: DocSpec, rest: list[SpecRow], facts: Facts) -> None:
    _header(cv, d)
    x0, x1 = MARGIN, cv.width - MARGIN
    y = _caption(cv, 54, "Table 2. Electrical characteristics (continued)", role="spec_caption")
    tb = _table(
        cv,
        x0,
        y,
        _spec_widths(cv),
        SPEC_HEADER,
        [r.cells() for r in rest],
        "spec_table_continued",
        align=["left"] + ["center"] * 5 + ["left"],
    )
    for r, rb, cells in zip(rest, tb.row_boxes, tb.cell_boxes, strict=True):
        facts.spec.append((r, 2, tb.bbox, rb, cells))
    y = tb.bbox[3] + 6
    note = "Notes: " + " ".join(f"({i + 1}) {n}" for i, n in enumerate(d.notes))
    b, txt = cv.paragraph(x0, y, x1 - x0, note, 7)
    cv.add("footnote", b, txt, "spec_notes")
    y = b[3] + 18
    if d.kind == "rtc":
        y = _section(cv, d, y, "3. I2C Bus Interface", "I2C总线接口")
        txt = (
            f"The {d.series} is a slave on the I2C bus. Its 7-bit slave address is {d.i2c_address} "
            f"(0b{int(d.i2c_address, 16):07b}). The bus supports standard mode (100 kHz) and fast mode "
            f"(400 kHz); SDA and SCL require external pull-up resistors. Registers auto-increment "
            f"after each byte, and a read or write that reaches the last register wraps to address 00h."
        )
        b, drawn = cv.paragraph(x0, y, x1 - x0, txt, 8.5)
        cv.add("text", b, drawn, "i2c")
        facts.i2c = (2, b, d.i2c_address)
    else:
        y = _section(cv, d, y, "3. Frequency–Temperature Characteristics", "频率温度特性")
        stab = float(re.sub(r"[^0-9.]", "", d.key.get("stab") or d.key.get("tol") or "20"))
        lo, hi = (int(v) for v in re.findall(r"[-+]?\d+", d.key["temp"])[:2])
        fig, labels = drawings.stability_curve(cv, x0 + 40, y + 4, 320, 170, stab, lo, hi)
        cv.add("picture", fig, "", "stability_curve")
        y = _caption(cv, fig[3] + 6, "Figure 1. Frequency stability vs. temperature (typical)", x=x0 + 40)
        facts.stability = (2, fig, labels)
    _footer(cv, d)


def _page3(cv: Canvas, d: DocSpec, facts: Facts) -> None:
    _header(cv, d)
    x0, x1 = MARGIN, cv.width - MARGIN
    y = _section(cv, d, 56, "4. Ordering Information", "订购信息")
    ex = d.orders[0].code
    b, txt = cv.paragraph(
        x0,
        y,
        x1 - x0,
        f"Order by the complete part number, for example {ex}. Codes for "
        "stability, load capacitance, temperature range and packing are listed below.",
        8.5,
    )
    cv.add("text", b, txt, "ordering_intro")
    y = _caption(cv, b[3] + 10, "Table 3. Standard part numbers")
    head = ["Part number", "Frequency", "Stability", "Load / Output", "Temp. range", "Packing"]
    widths = [150, 70, 60, 72, 80, x1 - x0 - 432]
    tb = _table(
        cv,
        x0,
        y,
        widths,
        head,
        [o.cells() for o in d.orders],
        "ordering",
        align=["left", "center", "center", "center", "center", "center"],
    )
    facts.ordering = (
        3,
        tb.bbox,
        [(o, rb, cells) for o, rb, cells in zip(d.orders, tb.row_boxes, tb.cell_boxes, strict=True)],
    )
    b, txt = cv.paragraph(
        x0,
        tb.bbox[3] + 5,
        x1 - x0,
        "Note: non-standard frequencies and tighter stability on request; minimum order quantity applies.",
        7,
    )
    cv.add("footnote", b, txt, "ordering_note")
    y = b[3] + 20
    y = _section(cv, d, y, "5. Pin Configuration", "引脚定义")
    y = _caption(cv, y, "Table 4. Pin description")
    pins = [list(p) for p in d.ptype.pins]
    tb = _table(
        cv,
        x0,
        y,
        [40, 70, 260],
        ["Pin", "Symbol", "Function"],
        pins,
        "pins",
        align=["center", "center", "left"],
    )
    facts.pins = (
        3,
        tb.bbox,
        [(p, rb, cells) for p, rb, cells in zip(pins, tb.row_boxes, tb.cell_boxes, strict=True)],
    )
    _footer(cv, d)


def _page4(cv: Canvas, d: DocSpec, facts: Facts) -> None:
    _header(cv, d)
    x0, x1 = MARGIN, cv.width - MARGIN
    y = _section(cv, d, 56, "6. Package Dimensions", "外形尺寸")
    fig, labels = drawings.package_outline(cv, x0 + 20, y + 4, x1 - x0 - 40, d.pkg, len(d.ptype.pins), "±0.1")
    cv.add("picture", fig, "", "package_outline")
    facts.outline = (4, fig, labels)
    y = _caption(cv, fig[3] + 8, "Figure 2. Package outline (unit: mm)", x=x0 + 20)
    y = _section(cv, d, y + 18, "7. Recommended Land Pattern", "推荐焊盘尺寸")
    fig, labels = drawings.land_pattern(cv, x0 + 20, y + 4, x1 - x0 - 200, d.pkg, len(d.ptype.pins))
    cv.add("picture", fig, "", "land_pattern")
    facts.land = (4, fig, labels)
    y = _caption(cv, fig[3] + 8, "Figure 3. Recommended land pattern (unit: mm)", x=x0 + 20)
    b, txt = cv.paragraph(
        x0,
        y + 12,
        x1 - x0,
        "The land pattern is a recommendation; adjust pad size to the "
        "solder paste process. Keep signal traces away from the area under the package and "
        "connect the ground pads to the ground plane with several vias.",
        8.5,
    )
    cv.add("text", b, txt, "land_note")
    _footer(cv, d)


def _page5(cv: Canvas, d: DocSpec, facts: Facts) -> None:
    _header(cv, d)
    x0, x1 = MARGIN, cv.width - MARGIN
    peak, tl, tp = d.reflow
    y = _section(cv, d, 56, "8. Recommended Reflow Profile", "回流焊温度曲线")
    fig, labels = drawings.reflow_profile(cv, x0 + 10, y + 6, 330, 190, peak, tl, tp)
    cv.add("picture", fig, "", "reflow_chart")
    facts.reflow = (5, fig, labels)
    y = _caption(cv, fig[3] + 6, "Figure 4. Reflow profile (J-STD-020)", x=x0 + 10)
    y = _caption(cv, y + 10, "Table 5. Reflow conditions")
    rows = [
        ["Preheat temperature", "150 to 200 °C"],
        ["Preheat time", "60 to 120 s"],
        ["Liquidus temperature (TL)", f"{tl} °C"],
        ["Time above liquidus", "60 to 150 s"],
        ["Peak temperature (TP)", f"{peak} °C"],
        ["Time at peak (tp)", f"{tp} s max"],
        ["Number of reflow cycles", "2 max"],
    ]
    tb = _table(cv, x0, y, [170, 120], ["Profile feature", "Condition"], rows, "reflow_table")
    facts.reflow_table = (5, tb.bbox, rows)
    y = _section(cv, d, tb.bbox[3] + 18, "9. Packaging", "包装")
    qty = {
        "1612": "5,000",
        "2016": "4,000",
        "2520": "3,000",
        "3225": "3,000",
        "5032": "1,000",
        "7050": "1,000",
    }
    txt = (
        f"Embossed carrier tape, 8 mm wide, on 180 mm reels of {qty[d.pkg.code]} pieces. Moisture "
        "sensitivity level MSL 1 (unlimited floor life at ≤ 30 °C / 85 % RH)."
    )
    b, drawn = cv.paragraph(x0, y, x1 - x0, txt, 8.5)
    cv.add("text", b, drawn, "packaging")
    facts.packaging = (5, b, qty[d.pkg.code])
    y = _section(cv, d, b[3] + 18, "Revision History")
    rows = [
        ["1.0", "2021-03", "Initial release"],
        [d.revision, "2024-06", "Updated ordering codes and reflow profile"],
    ]
    _table(cv, x0, y, [50, 70, 250], ["Rev.", "Date", "Changes"], rows, "revisions")
    _footer(cv, d)


def _page6_reliability(cv: Canvas, d: DocSpec) -> None:
    _header(cv, d)
    x0 = MARGIN
    y = _section(cv, d, 56, "10. Reliability Tests", "可靠性测试")
    rows = [
        ["High temperature storage", "+125 °C, 1000 h", "±5 ppm"],
        ["Low temperature storage", "-55 °C, 1000 h", "±5 ppm"],
        ["Temperature cycling", "-55 °C to +125 °C, 100 cycles", "±5 ppm"],
        ["Damp heat", "85 °C / 85 % RH, 1000 h", "±5 ppm"],
        ["Drop test", "1.5 m onto hardwood, 3 times", "±3 ppm"],
        ["Vibration", "10–2000 Hz, 20 g, 2 h per axis", "±3 ppm"],
        ["Solder heat resistance", f"{d.reflow[0]} °C, 10 s, 2 times", "±3 ppm"],
    ]
    y = _caption(cv, y, "Table 6. Reliability test conditions (per MIL-STD-883 / JESD22)")
    _table(cv, x0, y, [150, 200, 90], ["Test item", "Condition", "∆f after test"], rows, "reliability")
    _footer(cv, d)


_PLAIN_PAGES: dict[int, Callable[[Canvas, DocSpec, Facts], None]] = {3: _page3, 4: _page4, 5: _page5}


def _scan(doc: pymupdf.Document, pno: int, seed_key: str) -> None:
    """Replace page `pno` by a noisy greyscale image of itself: an image-only, scanned-like page."""
    page = doc[pno]
    pix = page.get_pixmap(dpi=110, colorspace=pymupdf.csGRAY)
    arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.width).astype(np.int16)
    rng = np.random.default_rng(abs(hash_seed(seed_key)))
    arr = arr + rng.normal(0, 9, arr.shape).astype(np.int16) - 12  # sensor noise and a greyish paper
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), mode="L")
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    w, h = page.rect.width, page.rect.height
    doc.delete_page(pno)
    new = doc.new_page(pno, width=w, height=h)
    new.insert_image(new.rect, stream=buf.getvalue())


def hash_seed(key: str) -> int:
    import hashlib

    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


class InkMap:
    """Shrinks a drawn box to the ink inside it, from a render of the page.

    Boxes from font metrics (ascender to descender) are taller than the printed glyphs; a person,
    and a layout model, draws the box around what is printed. Ground truth uses the ink box."""

    ZOOM = 4.0

    def __init__(self, doc: pymupdf.Document) -> None:
        self._masks: dict[int, np.ndarray] = {}
        for i, page in enumerate(doc.pages(), start=1):  # typed Iterable[Page]; iter(doc) is untyped
            pix = page.get_pixmap(matrix=pymupdf.Matrix(self.ZOOM, self.ZOOM), colorspace=pymupdf.csGRAY)
            arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, : pix.width]
            self._masks[i] = arr < 200  # light fills (table headers) are not ink

    def box(self, page: int, b: BBox) -> BBox:
        mask = self._masks[page]
        z = self.ZOOM
        x0, y0 = max(int(b[0] * z), 0), max(int(b[1] * z), 0)
        x1, y1 = min(int(np.ceil(b[2] * z)), mask.shape[1]), min(int(np.ceil(b[3] * z)), mask.shape[0])
        sub = mask[y0:y1, x0:x1]
        rows, cols = np.flatnonzero(sub.any(axis=1)), np.flatnonzero(sub.any(axis=0))
        if not len(rows):
            return b
        return (
            round((x0 + cols[0]) / z, 2),
            round((y0 + rows[0]) / z, 2),
            round((x0 + cols[-1] + 1) / z, 2),
            round((y0 + rows[-1] + 1) / z, 2),
        )


def render_document(d: DocSpec, path: Path) -> tuple[list[GTElement], Facts]:
    """Draw the datasheet to `path`; return its ground-truth elements and the facts queries point at."""
    size = LETTER if d.vendor.letter else A4
    doc = pymupdf.open()
    facts = Facts()
    elements: list[GTElement] = []
    rest: list[SpecRow] = []
    for i in range(1, d.n_pages + 1):  # pages 1–5, and 6 (reliability) when a page is scanned
        cv = Canvas(doc.new_page(width=size[0], height=size[1]), i)
        if i == 1:
            rest = _page1(cv, d, facts)
        elif i == 2:
            _page2(cv, d, rest, facts)
        elif i in _PLAIN_PAGES:
            _PLAIN_PAGES[i](cv, d, facts)
        else:
            _page6_reliability(cv, d)
        elements += cv.elements
    ink = InkMap(doc)
    for e in elements:
        e.bbox = ink.box(e.page, e.bbox)
    facts.ink = ink
    if d.scanned_page:
        _scan(doc, d.n_pages - 1, f"{d.file_name}/scan")
        facts.scanned_pages.append(d.n_pages)
    stamp = "D:20240601000000Z"
    doc.set_metadata(
        {
            "title": f"{d.series} Series {d.ptype.title}",
            "author": d.vendor.name,
            "subject": "Datasheet",
            "creator": "layoutrag samples",
            "producer": "layoutrag samples",
            "creationDate": stamp,
            "modDate": stamp,
            "keywords": "",
        }
    )
    doc.subset_fonts()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".pdf.tmp")
    doc.save(tmp, garbage=3, deflate=True, no_new_id=True)
    doc.close()
    tmp.replace(path)
    return elements, facts


def _pin_answers(pdf: Path, queries: list[QueryRecord], facts: Facts) -> None:
    """Narrow each `answer_bbox` (the cell or label that holds the answer) to the printed answer
    itself, e.g. "260" inside the label "Peak 260 °C"."""
    with open_document(pdf) as doc:
        for q in queries:
            if not q.get("answer_bbox"):
                continue
            page = doc[q["page"] - 1]
            x0, y0, x1, y1 = q["answer_bbox"]
            hits = page.search_for(q["answer"], clip=pymupdf.Rect(x0 - 2, y0 - 2, x1 + 2, y1 + 2))
            if hits:
                r = hits[0]
                box = (r.x0, r.y0, r.x1, r.y1)
                q["answer_bbox"] = list(facts.ink.box(q["page"], box) if facts.ink else box)


def generate_corpus(out: Path, *, n: int = 30, seed: int = 0) -> str:
    """Write `n` sample datasheets and their ground truth to `out`; return a one-line summary."""
    if n < 1 or n > 1000:
        raise InputError(f"--n must be between 1 and 1000, got {n}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"output folder {out} is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
    gt_lines: list[str] = []
    q_lines: list[str] = []
    doc_lines: list[str] = []
    spec_lines: list[str] = []
    n_pages = 0
    for i in range(n):
        d = plan_document(i, seed, used)
        elements, facts = render_document(d, out / d.file_name)
        n_pages += d.n_pages
        for e in elements:
            gt_lines.append(
                json.dumps(
                    {
                        "doc": d.file_name,
                        "page": e.page,
                        "label": e.label,
                        "bbox": list(e.bbox),
                        "text": e.text,
                        "role": e.role,
                    },
                    ensure_ascii=False,
                )
            )
        spec_lines += [json.dumps(t, ensure_ascii=False) for t in spec_truth(d, facts)]
        rng = random.Random(f"layoutrag-queries/{seed}/{i}")
        queries = make_queries(d, facts, rng, prefix=f"s{seed}-{i:03d}")
        _pin_answers(out / d.file_name, queries, facts)
        for q in queries:
            q_lines.append(json.dumps(q, ensure_ascii=False))
        doc_lines.append(
            json.dumps(
                {
                    "doc": d.file_name,
                    "vendor": d.vendor.name,
                    "series": d.series,
                    "product_type": d.kind,
                    "package": d.pkg.code,
                    "part_numbers": [o.code for o in d.orders],
                    "pages": d.n_pages,
                    "scanned_pages": facts.scanned_pages,
                },
                ensure_ascii=False,
            )
        )
    (out / "ground_truth.jsonl").write_text("\n".join(gt_lines) + "\n", encoding="utf-8")
    (out / "queries.jsonl").write_text("\n".join(q_lines) + "\n", encoding="utf-8")
    (out / "documents.jsonl").write_text("\n".join(doc_lines) + "\n", encoding="utf-8")
    (out / "specs_truth.jsonl").write_text("\n".join(spec_lines) + "\n", encoding="utf-8")
    return (
        f"wrote {n} datasheets ({n_pages} pages), {len(gt_lines)} ground-truth elements and "
        f"{len(q_lines)} queries to {out}"
    )
