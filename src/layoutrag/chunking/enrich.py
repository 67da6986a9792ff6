"""Optional LLM/VLM pass: regroup a page's elements and describe each group.

Only runs when ``LAYOUTRAG_LLM_BASE_URL`` points to an OpenAI-compatible endpoint (see
:mod:`layoutrag.llm`). The model sees the page's elements numbered 0..n-1 (label and text head,
never coordinates) plus the rule-based grouping as a starting point, and answers with JSON::

    {"groups": [{"elements": [0, 1, 2], "description": "Table of ..."}, ...]}

Only element indices come back; boxes always stay the detector's. After the pass the guards are
re-applied by the caller (no element twice, none lost, tables and figures kept, the gap limit),
and a page whose answer cannot be parsed keeps its rule-based groups.
"""

from __future__ import annotations

import json
import re
from typing import Protocol

from layoutrag.chunking.group import BAND_LABELS, Group, block_type_of, enforce_gap_limit
from layoutrag.config import Settings
from layoutrag.errors import BackendError
from layoutrag.records import Document, Element, TableRow

__all__ = ["SYSTEM_PROMPT", "ChatModel", "enrich_groups", "page_prompt", "parse_groups"]

_TEXT_HEAD = 160

SYSTEM_PROMPT = (
    "You group the layout elements of one datasheet page into reading units: a table with its "
    "caption, header and footnotes; a figure with its caption and callouts; a section's paragraphs "
    "or a list. Elements are numbered. Answer with JSON only: "
    '{"groups": [{"elements": [<element numbers>], "description": "<one sentence: what the unit '
    'is and its key values>"}]}. Use element numbers only, never coordinates; put every element in '
    "exactly one group; never merge elements that are far apart on the page."
)


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
        desc = g.get("description") if isinstance(g.get("description"), str) else ""
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
                    or t.bbox_pdf[1] - 2 <= (r.bbox_pdf[1] + r.bbox_pdf[3]) / 2 <= t.bbox_pdf[3] + 2
                )
            ]
            out[t.element_id] = (rows, g.header)
    return out


def enrich_groups(doc: Document, groups: list[Group], llm: ChatModel, settings: Settings) -> list[Group]:
    """Regroup and describe page by page; groups spanning pages (continued tables) are kept."""
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
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": page_prompt(elements, content)},
        ]
        try:
            parsed = parse_groups(llm.chat(messages, max_tokens=2048), len(elements))
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
            out.extend(enforce_gap_limit(g, settings.chunk_max_gap_frac * page.height_pt))
        # elements the model left out are caught by the caller's no-loss guard
    return out
