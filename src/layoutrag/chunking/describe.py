"""Per-chunk template descriptions and keywords (deterministic; the LLM pass may replace them).

Description: what the block is, in which document and section, and its key values, e.g.
"Table 'Electrical Characteristics' in SiT5358 (SiTime, TCXO), section 'Specifications': columns
Parameter, Min, Typ, Max, Unit; 24 rows; values 10 MHz, ±0.1 ppm, 3.3 V".
Keywords: caption words, header cells, part-like tokens and values with units found in the chunk.
"""

from __future__ import annotations

import re

from layoutrag.chunking.card import part_like_tokens
from layoutrag.chunking.group import Group
from layoutrag.records import DocumentCard

__all__ = ["describe_group", "keywords_for", "values_with_units"]

_VALUE_RE = re.compile(
    r"[±+\-−]?\s?\d+(?:[.,]\d+)?\s?(?:~|to|–|-)?\s?(?:\d+(?:[.,]\d+)?)?\s?"
    r"(?:[kMGµunp]?Hz|ppm|ppb|[µunpm]?F|[kMm]?Ω|ohms?|[mµun]?A|[mµ]?V|°C|℃|dBc?/?H?z?|ms|µs|ns|ps|mm|mW|W|%)(?![A-Za-z])"
)
_TYPE_NAMES = {
    "table": "Table",
    "figure": "Figure",
    "list": "List",
    "text": "Text",
    "title": "Title block",
    "heading": "Heading",
    "formula": "Formula",
    "caption": "Caption",
    "footnote": "Footnote",
    "page_header": "Page header",
    "page_footer": "Page footer",
}


def values_with_units(text: str, limit: int = 8) -> list[str]:
    out: list[str] = []
    for m in _VALUE_RE.finditer(text or ""):
        v = re.sub(r"\s+", " ", m.group(0)).strip()
        if v not in out:
            out.append(v)
        if len(out) >= limit:
            break
    return out


def _caption(g: Group) -> str:
    for m in g.members:
        if m.label == "caption" and m.text.strip():
            return _short(m.text, 100)
    for m in g.members:
        if m.label in ("section_header", "title") and m.text.strip():
            return _short(m.text, 100)
    if g.block_type == "table":  # a title printed inside the table box ("Motional resistance (ESR)")
        first = next((m.text for m in g.members if m.label == "table" and m.text.strip()), "")
        line = first.strip().split("\n", 1)[0]
        header = " ".join(g.header)
        if line and len(line) <= 80 and not (header and line.startswith(header[:15])):
            return _short(line, 100)
    return ""


def _short(s: str, n: int) -> str:
    s = re.sub(r"\s+", " ", s).strip()
    return s if len(s) <= n else s[: n - 1].rstrip() + "…"


def _doc_label(card: DocumentCard) -> str:
    name = card.title or card.file_name
    extra = [x for x in (card.vendor, card.product_type) if x]
    return f"{_short(name, 80)} ({', '.join(extra)})" if extra else _short(name, 80)


def describe_group(g: Group, card: DocumentCard, section_title: str) -> str:
    kind = _TYPE_NAMES.get(g.block_type, g.block_type.capitalize())
    cap = _caption(g)
    pages = g.pages
    where = f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}–{pages[-1]}"
    head = f"{kind} '{cap}'" if cap else kind
    parts = [f"{head} in {_doc_label(card)}, {where}"]
    if section_title and section_title != cap:
        parts[0] += f", section '{_short(section_title, 80)}'"
    if g.block_type == "table":
        if g.header:
            parts.append("columns " + ", ".join(_short(h, 30) for h in g.header if h)[:200])
        body = [r for r in g.rows if not r.is_header]
        if body:
            parts.append(f"{len(body)} rows" + (" continued over a page break" if len(pages) > 1 else ""))
    elif g.block_type not in ("figure",):
        first = next((m.text for m in g.members if m.label not in ("section_header", "title") and m.text), "")
        if first:
            parts.append(_short(first, 120))
    vals = values_with_units(g.text, 6)
    if vals:
        parts.append("values " + ", ".join(vals))
    return "; ".join(parts)


def keywords_for(g: Group, card: DocumentCard, limit: int = 20) -> list[str]:
    kws: list[str] = []

    def add(x: str) -> None:
        x = re.sub(r"\s+", " ", x).strip(" .,:;")
        if x and len(x) <= 60 and x.lower() not in (k.lower() for k in kws):
            kws.append(x)

    cap = _caption(g)
    if cap:
        add(cap)
    for h in g.header:
        add(h)
    for t in part_like_tokens(g.text):
        add(t)
    for v in values_with_units(g.text, 8):
        add(v)
    if g.block_type == "table" and g.rows:
        for r in g.rows[:40]:
            if r.cells and r.cells[0] and not r.is_header:
                add(r.cells[0])
    for s in card.series[:2]:
        add(s)
    return kws[:limit]
