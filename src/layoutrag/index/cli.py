"""`layoutrag search` output: a table of hits, or evidence packages as JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import PurePath

from rich.console import Console
from rich.table import Table

from layoutrag.records import EvidencePackage

__all__ = ["print_hits", "text_head"]


def text_head(hit: EvidencePackage, n: int = 90) -> str:
    text = hit.native_text or hit.description or hit.section_title
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def print_hits(hits: Sequence[EvidencePackage], *, as_json: bool, console: Console) -> None:
    """Each hit: fused score, both ranks, block type, page, source PDF and a text head; `as_json`
    prints the evidence packages (one JSON array, DESIGN.md field names)."""
    if as_json:
        console.print_json(json.dumps([h.model_dump(mode="json") for h in hits], ensure_ascii=False))
        return
    if not hits:
        console.print("no hits")
        return
    # on a narrow terminal (80 columns) the runs' ranks give way, so the text keeps room to be read
    ranks = console.width >= 110
    table = Table(show_lines=False, pad_edge=False, expand=True)
    for col, kw in (
        ("#", {"justify": "right"}),
        ("score", {"justify": "right"}),
        *((("bm25", {"justify": "right"}), ("dense", {"justify": "right"})) if ranks else ()),
        ("type", {}),
        ("page", {"justify": "right"}),
        ("source", {"no_wrap": True, "max_width": 28 if ranks else 20, "overflow": "ellipsis"}),
        ("text", {"no_wrap": True, "overflow": "ellipsis", "ratio": 1, "min_width": 20}),
    ):
        table.add_column(col, **kw)
    for i, hit in enumerate(hits, start=1):
        # a hit's companions (more blocks of its page, shown with it) follow it as "i+" rows
        for label, h in ((str(i), hit), *((f"{i}+", c) for c in hit.companions)):
            runs = ("-" if h.bm25_rank is None else str(h.bm25_rank), "-" if h.dense_rank is None else str(h.dense_rank))
            table.add_row(
                label,
                f"{h.score:.4f}",
                *(runs if ranks else ()),
                h.block_type,
                str(h.page),
                PurePath(h.source_pdf).name if h.source_pdf else h.doc_id,
                text_head(h),
            )
    console.print(table)
