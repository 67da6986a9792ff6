"""Section titles and TOC paths: "Document title > Section > Subsection".

Nesting comes from numbering first ("9." is a level-1 section, "9.1" its child, "三、" a Chinese
level-1 heading) and from font size and weight where there is no numbering (a smaller or lighter
heading under a bigger one is its child). Headings that are really captions ("Table 3 ...") or
repeated running heads do not open sections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from layoutrag.chunking.group import is_caption_text
from layoutrag.records import Document, Element

__all__ = ["Heading", "SectionInfo", "assign_sections", "document_title", "heading_number"]

_NUM_RE = re.compile(r"^\s*((?:\d{1,2}|[A-H])(?:\.\d{1,2}){0,4})(?:\.|\)|\s)\s*\S")
_CJK_NUM_RE = re.compile(r"^\s*([一二三四五六七八九十]{1,3})[、.．]")
_MAX_HEADING_CHARS = 160
_FONT_EPS = 0.6  # points: font sizes closer than this count as equal


@dataclass(frozen=True)
class Heading:
    title: str
    number: tuple[str, ...]  # ("9", "1") for "9.1"; () when unnumbered
    font_size: float
    bold: bool


@dataclass(frozen=True)
class SectionInfo:
    section_title: str
    toc_path: str


def heading_number(text: str) -> tuple[str, ...]:
    """("9", "1") for "9.1 Timing"; ("3",) for "三、最大额定值"; () when unnumbered."""
    m = _NUM_RE.match(text or "")
    if m:
        parts = tuple(m.group(1).split("."))
        # a bare letter needs a dot after it ("A.1", "B. Notes"); "A Note" is not numbered
        if parts[0].isalpha() and len(parts) == 1 and not re.match(r"^\s*[A-H]\.", text):
            return ()
        # "2 x 2.5 mm", "10 kHz": a number followed by a unit is not a section number
        if re.match(r"^\s*[\d.]+\s*(x|×|mm|v|ma|hz|khz|mhz|°|%|pf|ppm)\b", text, re.IGNORECASE):
            return ()
        return parts
    m = _CJK_NUM_RE.match(text or "")
    if m:
        return (str(_cjk_to_int(m.group(1))),)
    return ()


def _cjk_to_int(s: str) -> int:
    digits = "一二三四五六七八九"
    if s == "十":
        return 10
    if s.startswith("十"):
        return 10 + digits.index(s[1]) + 1
    if "十" in s:
        a, _, b = s.partition("十")
        return (digits.index(a) + 1) * 10 + (digits.index(b) + 1 if b else 0)
    return digits.index(s) + 1


def document_title(doc: Document) -> str:
    """The document's title: the ingest's, else page 1's title element, else the biggest heading."""
    if _usable_title(doc.title):
        return _clean(doc.title)
    if not doc.pages:
        return doc.file_name
    first = doc.pages[0]
    titles = [e for e in first.elements if e.label == "title" and e.text.strip()]
    if titles:
        return _clean(max(titles, key=lambda e: (e.font_size or 0, -e.order)).text)
    heads = [
        e
        for e in first.elements
        if e.label in ("section_header", "page_header", "text")
        and e.text.strip()
        and len(e.text) <= 120
        and e.bbox_pdf.y0 < first.height_pt * 0.4
        and not heading_number(e.text)  # "7 Package Dimensions" is a section, not the title
    ]
    if heads and any(e.font_size for e in heads):
        best = max(heads, key=lambda e: (e.font_size or 0, -e.order))
        if (best.font_size or 0) >= 11:
            return _clean(best.text)
    return doc.file_name.rsplit(".", 1)[0]


_GENERIC_TITLES = {"description", "features", "ordering information", "datasheet", "data sheet", "untitled"}


def _usable_title(title: str) -> bool:
    """PDF metadata titles are often tool residue ("Microsoft Word - x.doc", "<5C5C...>", a file name)."""
    t = _clean(title or "")
    if len(t) < 3 or t.lower() in _GENERIC_TITLES:
        return False
    if re.match(r"^(microsoft (word|excel|powerpoint)|untitled|document\d*$)", t, re.IGNORECASE):
        return False
    if re.search(r"\.(pdf|docx?|xlsx?|indd|qxd)\b", t, re.IGNORECASE) or re.match(r"^<[0-9A-F]+", t):
        return False
    return True


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()[:_MAX_HEADING_CHARS]


def _is_child(h: Heading, parent: Heading) -> bool:
    if h.number and parent.number:
        if h.number[: len(parent.number)] == parent.number and len(h.number) > len(parent.number):
            return True
        return len(h.number) > len(parent.number) and h.number[0] == parent.number[0]
    bigger = parent.font_size > h.font_size + _FONT_EPS
    same = abs(parent.font_size - h.font_size) <= _FONT_EPS
    heavier = parent.bold and not h.bold
    if h.number and not parent.number:
        return bigger  # "1 Features" under a big unnumbered chapter title
    if not h.number and parent.number:
        return bigger or (same and heavier) or (same and len(parent.number) == 1 and not h.bold)
    return bigger or (same and heavier)


def _heading_elements(doc: Document) -> set[str]:
    """Element ids that open sections: section headers, minus captions and running heads."""
    counts: dict[str, int] = {}
    for p in doc.pages:
        for e in p.elements:
            if e.label == "section_header":
                key = _clean(e.text).lower()
                counts[key] = counts.get(key, 0) + 1
    repeat_limit = max(3, len(doc.pages) // 2)
    out: set[str] = set()
    for p in doc.pages:
        for e in p.elements:
            if e.label != "section_header" or not e.text.strip():
                continue
            if is_caption_text(e.text) or len(e.text) > _MAX_HEADING_CHARS:
                continue
            if counts.get(_clean(e.text).lower(), 0) >= repeat_limit and len(doc.pages) > 3:
                continue  # the same "heading" on most pages is a running head
            out.add(e.element_id)
    return out


def assign_sections(doc: Document, title: str | None = None) -> dict[str, SectionInfo]:
    """Map every element id to the section it sits in (headings map to their own section)."""
    title = title or document_title(doc)
    heading_ids = _heading_elements(doc)
    stack: list[Heading] = []
    out: dict[str, SectionInfo] = {}
    for p in doc.pages:
        for e in sorted(p.elements, key=lambda x: x.order):
            if e.element_id in heading_ids and _clean(e.text).lower() != title.lower():
                h = _heading(e)
                while stack and not _is_child(h, stack[-1]):
                    stack.pop()
                stack.append(h)
            path = " > ".join([title, *(s.title for s in stack)]) if title else ""
            out[e.element_id] = SectionInfo(section_title=stack[-1].title if stack else "", toc_path=path)
    return out


def _heading(e: Element) -> Heading:
    return Heading(
        title=_clean(e.text),
        number=heading_number(e.text),
        font_size=float(e.font_size or 0.0),
        bold=bool(e.bold),
    )
