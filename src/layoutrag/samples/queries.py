"""Region-annotated queries for a generated datasheet (DESIGN.md "Evaluation data formats").

Each query names its gold region (the table, figure or text block a person must read), the answer
as it is printed (so it can be located in the text layer) and, beyond DESIGN.md's fields,
``answer_bbox`` (the exact printed occurrence) and ``intent``. English and Chinese; part numbers are
written with other separators than printed, as people type them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from layoutrag.samples.drawings import Labels  # a drawing's text labels and their boxes
from layoutrag.samples.spec import DocSpec, OrderRow
from layoutrag.samples.vocab import PARAM_ZH, SpecRow

BBox = tuple[float, float, float, float]  # the generator draws with plain tuples; records turn them into Box

__all__ = ["Facts", "InkBox", "alter_separators", "make_queries"]

_P = TypeVar("_P")
Located = tuple[int, BBox, _P]  # (page, region box, payload)
LocatedParts = tuple[int, list[BBox], _P]  # (page, one box per part of the region, payload)
Cells = list[str]  # the printed cells of one table row
PartRow = tuple[OrderRow, BBox, list[BBox]]  # an ordering-table row: part, row box, cell boxes
PinRow = tuple[Cells, BBox, list[BBox]]  # a pin-table row: (pin, symbol, function), row box, cell boxes
QueryRecord = dict[str, Any]  # one queries.jsonl line (JSON values)


class InkBox(Protocol):
    """Shrinks a drawn box to the printed ink inside it (implemented by generator.InkMap)."""

    def box(self, page: int, b: BBox) -> BBox: ...


@dataclass
class Facts:
    """Where the generator put the things queries ask about."""

    spec: list[tuple[SpecRow, int, BBox, BBox, list[BBox]]] = field(default_factory=list)
    ordering: Located[list[PartRow]] | None = None
    pins: Located[list[PinRow]] | None = None
    outline: Located[Labels] | None = None
    land: Located[Labels] | None = None
    reflow: Located[Labels] | None = None
    reflow_table: Located[list[Cells]] | None = None
    stability: Located[Labels] | None = None
    applications: LocatedParts[list[str]] | None = None  # a list is a region in parts, one per item
    features: LocatedParts[list[str]] | None = None
    description: Located[str] | None = None
    packaging: Located[str] | None = None  # reel quantity as printed
    abs_max: Located[list[Cells]] | None = None
    abs_max_rows: list[tuple[BBox, list[BBox]]] = field(default_factory=list)  # row box, cell text boxes
    i2c: Located[str] | None = None  # slave address as printed
    scanned_pages: list[int] = field(default_factory=list)
    ink: InkBox | None = None  # generator.InkMap: shrinks boxes to the printed ink


def alter_separators(code: str, rng: random.Random) -> str:
    """The same part number as a person might type it: other separators, none, or lower case."""
    if not re.search(r"[-. /]", code):
        m = re.match(r"([A-Za-z]+\d{4})(.*)", code)  # compact codes: split the series off
        return f"{m.group(1)}-{m.group(2)}".lower() if m else code.lower()
    style = rng.choice(["space", "none", "lower", "space_lower"])
    if style == "space":
        return re.sub(r"[-/]", " ", code)
    if style == "none":
        return re.sub(r"[-/ ]", "", code)
    if style == "lower":
        return code.lower().replace("-", "")
    return re.sub(r"[-/]", " ", code).lower()


def _value(row: SpecRow) -> tuple[str, int] | None:
    """The printed value a question about this row expects, and its column (max, typ, then min)."""
    for col, v in ((4, row.max), (3, row.typ), (2, row.min)):
        if v and v not in ("—",):
            return v, col
    return None


def _q(
    d: DocSpec,
    page: int,
    region: BBox | list[BBox],
    kind: str,
    query: str,
    lang: str,
    answer: str,
    answer_bbox: BBox | None,
    intent: str,
) -> QueryRecord:
    parts = region if isinstance(region, list) else [region]
    return {
        "query": query,
        "lang": lang,
        "doc": d.file_name,
        "page": page,
        "regions": [list(b) for b in parts],
        "kind": kind,
        "answer": answer,
        "answer_bbox": list(answer_bbox) if answer_bbox else None,
        "intent": intent,
    }


def _spec_query(
    d: DocSpec, facts: Facts, rng: random.Random, lang: str, prefer_page: int | None
) -> QueryRecord | None:
    cands = [s for s in facts.spec if _value(s[0]) and s[0].parameter not in ("Storage temperature range",)]
    if prefer_page is not None and any(s[1] == prefer_page for s in cands):
        cands = [s for s in cands if s[1] == prefer_page]
    if not cands:
        return None
    row, page, tbox, _rbox, cells = rng.choice(cands)
    found = _value(row)
    if found is None:  # cannot happen: every candidate row has a value
        return None
    value, col = found
    word = {4: "maximum", 3: "typical", 2: "minimum"}[col]
    p = row.parameter.lower()
    if row.condition and "MHz ≤" in row.condition:
        p = f"{p} at {row.condition.split('≤')[1].split('<')[0].strip()}" if rng.random() < 0.5 else p
    if lang == "en":
        q = rng.choice(
            [
                f"{d.series} {p} {word}",
                f"What is the {word} {p} of the {d.series} series?",
                f"{p} {d.series} {d.ptype.title.split('(')[0].strip().lower()}",
            ]
        )
    else:
        zh = PARAM_ZH.get(row.parameter, row.parameter)
        q = rng.choice([f"{d.series} 的{zh}是多少", f"{d.series}系列{zh}最大值", f"{d.series} {zh} 规格"])
    return _q(d, page, tbox, "table", q, lang, value, cells[col], "spec_lookup")


def make_queries(d: DocSpec, facts: Facts, rng: random.Random, *, prefix: str) -> list[QueryRecord]:
    """5–10 queries for one document; ids are `{prefix}-qNN`."""
    out: list[QueryRecord] = []
    first = _spec_query(d, facts, rng, "en", prefer_page=1)
    if first:
        out.append(first)
    cont = _spec_query(d, facts, rng, "zh", prefer_page=2)  # a row of the continued table
    if cont:
        out.append(cont)
    if facts.ordering:
        page, box, part_rows = facts.ordering
        order, _rb, cells = rng.choice(part_rows)
        alt = alter_separators(order.code, rng)
        lang = rng.choice(["en", "zh"])
        q = (
            rng.choice([f"{alt} datasheet", f"{alt} frequency and stability", f"specs of {alt}"])
            if lang == "en"
            else rng.choice([f"{alt} 的规格参数", f"{alt} 是什么频率", f"料号 {alt} 的工作温度"])
        )
        out.append(_q(d, page, box, "part_number", q, lang, order.code, cells[0], "part_lookup"))
    if facts.outline:
        page, box, labels = facts.outline
        label = next(iter(labels))  # the length dimension is drawn first
        lang = rng.choice(["en", "zh"])
        q = (
            rng.choice([f"{d.series} package dimensions", f"{d.series} outline drawing length width height"])
            if lang == "en"
            else rng.choice([f"{d.series} 外形尺寸图", f"{d.series} 封装尺寸是多少"])
        )
        out.append(_q(d, page, box, "figure", q, lang, label, labels[label], "package_mech"))
    texts: list[QueryRecord] = []  # one text query per document, always
    if facts.applications:
        page, item_boxes, items = facts.applications
        item = rng.choice(items)
        q, lang = rng.choice(
            [
                (f"what applications is the {d.series} designed for", "en"),
                (f"{d.series} 适用于哪些应用", "zh"),
            ]
        )
        texts.append(_q(d, page, item_boxes, "text", q, lang, item, None, "overview"))
    if facts.packaging:
        page, box, qty = facts.packaging
        q, lang = rng.choice(
            [(f"{d.series} tape and reel quantity per reel", "en"), (f"{d.series} 每卷包装数量", "zh")]
        )
        texts.append(_q(d, page, box, "text", q, lang, str(qty), None, "packaging"))
    if facts.i2c:
        page, box, addr = facts.i2c
        texts.append(
            _q(d, page, box, "text", f"{d.series} I2C slave address", "en", str(addr), None, "interface")
        )
    if texts:
        out.append(texts[-1] if facts.i2c else rng.choice(texts))
    optional: list[QueryRecord] = []
    if facts.land:
        page, box, labels = facts.land
        label = list(labels)[1] if len(labels) > 1 else next(iter(labels))  # the pad pitch
        optional.append(
            _q(
                d,
                page,
                box,
                "figure",
                rng.choice([f"{d.series} 推荐焊盘尺寸", f"{d.series} 焊盘间距"]),
                "zh",
                label,
                labels[label],
                "package_mech",
            )
        )
        optional.append(
            _q(
                d,
                page,
                box,
                "figure",
                f"recommended land pattern {d.series} solder pads",
                "en",
                label,
                labels[label],
                "package_mech",
            )
        )
    if facts.reflow:
        page, box, labels = facts.reflow
        key = next(k for k in labels if k.startswith("Peak"))
        peak_match = re.search(r"\d+", key)
        assert peak_match is not None, key  # drawings.reflow_profile labels the peak "Peak {peak} °C"
        peak = peak_match.group(0)
        optional.append(
            _q(
                d,
                page,
                box,
                "figure",
                rng.choice([f"{d.series} reflow profile peak temperature", f"{d.series} 回流焊曲线峰值温度"]),
                "en" if rng.random() < 0.5 else "zh",
                peak,
                labels[key],
                "assembly",
            )
        )
        if optional[-1]["query"].startswith(f"{d.series} 回"):
            optional[-1]["lang"] = "zh"
        else:
            optional[-1]["lang"] = "en"
    if facts.pins:
        page, box, pin_rows = facts.pins
        pin, _rb, cells = rng.choice(pin_rows)
        if rng.random() < 0.5:
            q, lang = f"{d.series} pin {pin[0]} function", "en"
        else:
            q, lang = f"{d.series} 第{pin[0]}脚是什么功能", "zh"
        optional.append(_q(d, page, box, "table", q, lang, pin[1], cells[1], "pinout"))
    if facts.stability:
        page, box, labels = facts.stability
        key = next(iter(labels))
        optional.append(
            _q(
                d,
                page,
                box,
                "figure",
                rng.choice([f"{d.series} frequency vs temperature curve", f"{d.series} 频率温度特性曲线"]),
                "en",
                key,
                labels[key],
                "spec_lookup",
            )
        )
        if "曲线" in optional[-1]["query"]:
            optional[-1]["lang"] = "zh"
    extra = _spec_query(d, facts, rng, rng.choice(["en", "zh"]), prefer_page=None)
    if extra and extra["answer_bbox"] != out[0]["answer_bbox"]:
        optional.append(extra)
    rng.shuffle(optional)
    out += optional[: rng.randint(1, 3)]
    for j, rec in enumerate(out):
        rec["id"] = f"{prefix}-q{j:02d}"
        if facts.ink is not None:  # gold boxes hug the printed ink, as the ground-truth elements do
            rec["regions"] = [list(facts.ink.box(rec["page"], tuple(b))) for b in rec["regions"]]
            if rec["answer_bbox"]:
                rec["answer_bbox"] = list(facts.ink.box(rec["page"], tuple(rec["answer_bbox"])))
    return [{"id": rec.pop("id"), **rec} for rec in out]
