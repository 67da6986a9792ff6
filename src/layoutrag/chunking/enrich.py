"""Optional LLM/VLM pass: regroup a page's elements and describe each group.

Only runs when ``LAYOUTRAG_LLM_BASE_URL`` points to an OpenAI-compatible endpoint (see
:mod:`layoutrag.llm`). The model sees the page's elements numbered 0..n-1 (label and text head,
never coordinates) plus the rule-based grouping as a starting point. With ``Settings.llm_vision``
(the default) it also sees the page image, downscaled to ``Settings.llm_image_max_side`` px on its
long side, with each element's box outlined and its number drawn at the box's top-left corner, sent
as an OpenAI ``image_url`` content part (a base64 data URL). The image is the data dir's page cache
(``pages/{n}@{dpi}.png``) when present, else the page rendered from the source PDF; a page without
one, ``LAYOUTRAG_LLM_VISION=0``, or an endpoint that refuses images (HTTP 4xx: a text-only model)
falls back to the text-only prompt. The model answers with JSON::

    {"groups": [{"elements": [0, 1, 2], "description": "Table of ..."}, ...]}

Only element indices come back; boxes always stay the detector's. After the pass the guards are
re-applied by the caller (no element twice, none lost, tables and figures kept, the gap limit),
and a page whose answer cannot be parsed keeps its rule-based groups.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import re
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont

from layoutrag.chunking.group import BAND_LABELS, Group, block_type_of, enforce_gap_limit
from layoutrag.config import Settings
from layoutrag.errors import BackendError
from layoutrag.pdf import open_document, render_page_image, source_pdf_path
from layoutrag.records import Document, Element, Page, TableRow
from layoutrag.storage import DataDir

__all__ = [
    "SYSTEM_PROMPT",
    "ChatModel",
    "enrich_groups",
    "image_data_url",
    "numbered_page_image",
    "page_image",
    "page_messages",
    "page_prompt",
    "parse_groups",
]

log = logging.getLogger(__name__)

_TEXT_HEAD = 160

SYSTEM_PROMPT = (
    "You group the layout elements of one datasheet page into reading units: a table with its "
    "caption, header and footnotes; a figure with its caption and callouts; a section's paragraphs "
    "or a list. Elements are numbered. Answer with JSON only: "
    '{"groups": [{"elements": [<element numbers>], "description": "<one sentence: what the unit '
    'is and its key values>"}]}. Use element numbers only, never coordinates; put every element in '
    "exactly one group; never merge elements that are far apart on the page."
)
VISION_NOTE = (
    "The attached page image shows each element outlined, with its number in a red tag at the "
    "box's top-left corner (just left of the box where there is room). Use the image to see which "
    "elements belong together; answer with the numbers only."
)
_MARK = (200, 0, 0)


class ChatModel(Protocol):
    def chat(self, messages: list[dict], *, temperature: float = 0.0, max_tokens: int = 1024) -> str: ...


def page_prompt(elements: list[Element], groups: list[Group]) -> str:
    idx = {e.element_id: i for i, e in enumerate(elements)}
    lines = [f"Page elements ({len(elements)}):"]
    for i, e in enumerate(elements):
        head = re.sub(r"\s+", " ", e.text).strip()[:_TEXT_HEAD]
        lines.append(f"[{i}] {e.label}: {head}")
    lines.append("Rule-based grouping to improve on:")
    for g in groups:
        lines.append(json.dumps([idx[m.element_id] for m in g.members if m.element_id in idx]))
    return "\n".join(lines)


def page_image(
    doc: Document, page: Page, max_side: int, *, data: DataDir | None = None, dpi: int = 200
) -> Image.Image | None:
    """The displayed page as RGB, scaled so its long side is `max_side` px; None without a source.

    The data dir's page cache (``pages/{n}@{dpi}.png``, the image evidence crops are cut from) is
    used when present; otherwise the page is rendered from the source PDF directly at the target
    size (nothing is written)."""
    scale = max_side / max(page.width_pt, page.height_pt)
    size = (max(1, round(page.width_pt * scale)), max(1, round(page.height_pt * scale)))
    img: Image.Image | None = None
    if data is not None:
        cached = data.page_png(doc.doc_id, page.page, dpi)
        if cached.is_file():
            try:
                with Image.open(cached) as im:
                    img = im.convert("RGB")
            except OSError:
                img = None
    if img is None:
        pdf = source_pdf_path(doc, data)
        if pdf is None:
            return None
        try:
            with open_document(pdf) as d:
                img = render_page_image(d[page.page - 1], scale=scale)
        except Exception:  # a broken or missing page: the text-only prompt still works
            return None
    return img if img.size == size else img.resize(size, Image.Resampling.LANCZOS)


def numbered_page_image(img: Image.Image, page: Page, elements: list[Element]) -> Image.Image:
    """A copy of `img` with element i's box outlined and the tag "i" at its top-left corner
    (just outside the box when the page leaves room, else inside)."""
    out = img.copy()
    draw = ImageDraw.Draw(out)
    sx, sy = out.width / page.width_pt, out.height / page.height_pt
    fs = max(10, round(max(out.size) / 64))
    try:
        font: ImageFont.FreeTypeFont | ImageFont.ImageFont = ImageFont.load_default(size=fs)
    except (OSError, TypeError):  # Pillow without FreeType: the small bitmap font
        font = ImageFont.load_default()
    lw = max(1, round(max(out.size) / 600))
    for e in elements:
        x0, y0, x1, y1 = e.bbox_pdf
        box = (x0 * sx, y0 * sy, max(x0 * sx + 1, x1 * sx), max(y0 * sy + 1, y1 * sy))
        draw.rectangle(box, outline=_MARK, width=lw)
    for i, e in enumerate(elements):  # tags last, so no outline crosses a number
        tag = str(i)
        tl, tt, tr, tb = draw.textbbox((0, 0), tag, font=font)
        w, h = tr - tl + 4, tb - tt + 4
        left = e.bbox_pdf.x0 * sx
        # in the margin left of the box when it fits (the element's first words stay readable)
        x = left - w if left >= w else min(max(0, left), out.width - w)
        y = min(max(0, e.bbox_pdf.y0 * sy), out.height - h)
        draw.rectangle((x, y, x + w, y + h), fill=_MARK)
        draw.text((x + 2 - tl, y + 2 - tt), tag, fill=(255, 255, 255), font=font)
    return out


def image_data_url(img: Image.Image) -> str:
    """PNG as a base64 data URL (sharp text and tags; a 1024 px datasheet page is ~0.1-0.3 MB)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def page_messages(prompt: str, image_url: str | None) -> list[dict]:
    """System + user messages; with an image the user content is the OpenAI parts array."""
    if image_url is None:
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": prompt}]
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": VISION_NOTE + "\n" + prompt},
                {"type": "image_url", "image_url": {"url": image_url}},
            ],
        },
    ]


def parse_groups(answer: str, n: int) -> list[tuple[list[int], str]] | None:
    """The (indices, description) pairs of an answer; None when it is not the JSON asked for."""
    m = re.search(r"\{.*\}", answer or "", re.DOTALL)
    if not m:
        return None
    try:
        obj = json.loads(m.group(0))
    except ValueError:
        return None
    raw = obj.get("groups") if isinstance(obj, dict) else None
    if not isinstance(raw, list):
        return None
    out: list[tuple[list[int], str]] = []
    for g in raw:
        if not isinstance(g, dict) or not isinstance(g.get("elements"), list):
            continue
        ids = [i for i in g["elements"] if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n]
        raw = g.get("description")
        desc = raw if isinstance(raw, str) else ""
        if ids:
            out.append((ids, desc.strip()[:500]))
    return out


def _rows_by_table(groups: list[Group]) -> dict[str, tuple[list[TableRow], list[str]]]:
    """Each table element's rows and header, so a regrouped table keeps them."""
    out: dict[str, tuple[list[TableRow], list[str]]] = {}
    for g in groups:
        tables = [m for m in g.members if m.label == "table"]
        for t in tables:
            rows = [
                r
                for r in g.rows
                if r.page == t.page
                and (
                    len(tables) == 1
                    or t.bbox_pdf.y0 - 2 <= (r.bbox_pdf.y0 + r.bbox_pdf.y1) / 2 <= t.bbox_pdf.y1 + 2
                )
            ]
            out[t.element_id] = (rows, g.header)
    return out


def enrich_groups(
    doc: Document, groups: list[Group], llm: ChatModel, settings: Settings, *, data: DataDir | None = None
) -> list[Group]:
    """Regroup and describe page by page; groups spanning pages (continued tables) are kept."""
    vision = settings.chunking.llm_vision
    kept = [g for g in groups if len(g.pages) > 1]
    in_kept = {m.element_id for g in kept for m in g.members}
    table_rows = _rows_by_table(groups)
    out: list[Group] = list(kept)
    for page in doc.pages:
        page_groups = [g for g in groups if len(g.pages) == 1 and g.pages[0] == page.page]
        bands = [g for g in page_groups if g.block_type in BAND_LABELS]
        content = [g for g in page_groups if g.block_type not in BAND_LABELS]
        elements = [m for g in content for m in g.members if m.element_id not in in_kept]
        elements.sort(key=lambda e: e.order)
        out.extend(bands)
        if not elements:
            continue
        prompt = page_prompt(elements, content)
        url = None
        if vision:
            img = page_image(doc, page, settings.chunking.llm_image_max_side, data=data, dpi=settings.render.dpi)
            url = image_data_url(numbered_page_image(img, page, elements)) if img is not None else None
        try:
            parsed = parse_groups(llm.chat(page_messages(prompt, url), max_tokens=2048), len(elements))
        except BackendError as e:
            parsed = None
            if url is not None and re.search(r"HTTP 4\d\d", str(e)):
                # a text-only model refusing the image part: text only from here on
                log.warning("endpoint refused the page image (%s); text-only for %s", e, doc.doc_id)
                vision = False
                try:
                    parsed = parse_groups(
                        llm.chat(page_messages(prompt, None), max_tokens=2048), len(elements)
                    )
                except BackendError:
                    parsed = None
        if not parsed:
            out.extend(content)
            continue
        for ids, desc in parsed:
            members = [elements[i] for i in dict.fromkeys(ids)]
            g = Group(members=members, block_type=block_type_of(members), description=desc)
            for m in members:
                if m.label == "table" and m.element_id in table_rows:
                    rows, header = table_rows[m.element_id]
                    g.rows.extend(rows)
                    g.header = g.header or header
            g.sort_members()
            out.extend(enforce_gap_limit(g, settings.chunking.chunk_max_gap_frac * page.height_pt))
        # elements the model left out are caught by the caller's no-loss guard
    return out
