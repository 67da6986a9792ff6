"""The texts each search path sees of a chunk: the lexical bag (BM25), the passage the embedder
reads, and the words of the chunk's document card. Built once at index time; the query side is in
`index/query.py`, the ranking in `index/ranker.py` and `index/fusion.py`."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from layoutrag.records import Chunk, DocumentCard

__all__ = ["PASSAGE_VERSION", "bm25_text", "card_text", "embed_text", "warn_if_stale_passages"]

# what `embed_text` gives; an index records it (meta "passage") so a load can tell vectors made from
# another passage text: 2 = a table as its rows' names, no letterless tokens (9b0d920)
PASSAGE_VERSION = 2
log = logging.getLogger(__name__)

_LETTER = re.compile(r"[^\W\d_]")  # a token holding a letter (any script)


def card_text(card: DocumentCard | None) -> str:
    if card is None:
        return ""
    return " ".join([card.title, card.vendor, *card.series, *card.part_numbers, card.product_type])


def bm25_text(chunk: Chunk, card: DocumentCard | None) -> str:
    """The lexical bag: where the chunk sits, what it says, and the words of its document's card
    (so `<part number> <parameter>` finds the parameter's chunk in that part's datasheet)."""
    parts = [
        chunk.section_title,
        chunk.toc_path,
        chunk.native_text,
        chunk.description,
        " ".join(chunk.keywords),
    ]
    if not chunk.native_text and chunk.rows:
        parts.append(" ".join(r.text or " ".join(r.cells) for r in chunk.rows))
    parts.append(card_text(card))
    return "\n".join(p for p in parts if p)


def embed_text(chunk: Chunk, max_chars: int = 1500, card: DocumentCard | None = None) -> str:
    """card line -> toc path -> section -> description -> text, truncated (the passage the dense
    path sees). The card line (title, vendor, product type, first series) says which part the
    passage belongs to: queries name the part ("8Q drive level"), and without it a passage of one
    datasheet reads like the same section of every other one (issue #12: dense-only region hit@5
    on the generated set 0.442 -> 0.495, page-hit@5 0.702 -> 0.774, docs/EVALUATION.md).

    A sentence encoder reads words, not number grids: a table is given as its rows' names (each
    row's first cell), and every token without a letter is left out ("25 °C" keeps "°C"). Chosen by
    `benchmarks/dense_text.py` (cross-validated by document over the region sets, the variant best
    on the other folds in each of the five): dense-only one-chunk hit@5 0.347 -> 0.427
    (docs/EVALUATION.md §0)."""
    head = ""
    if card is not None:
        head = " ".join(p for p in (card.title, card.vendor, card.product_type, *card.series[:1]) if p)
    body = chunk.native_text
    if chunk.rows:
        names = ((r.cells[0] if r.cells else r.text).strip() for r in chunk.rows)
        body = "\n".join(n for n in names if n)
    parts = [head, chunk.toc_path, chunk.section_title, chunk.description, body]
    lines = (" ".join(t for t in line.split() if _LETTER.search(t)) for p in parts if p for line in p.split("\n"))
    text = "\n".join(line for line in lines if line)
    return (text or chunk.chunk_id)[:max_chars]


def warn_if_stale_passages(meta: Mapping[str, Any], where: str) -> bool:
    """Log one warning when an index's passage vectors were made from another `embed_text` than
    this one (meta "passage"; an index written before it records none): the search answers, but
    its dense run (and the ranker's dense features) reads vectors of the old texts. True if stale."""
    got = meta.get("passage")
    if got == PASSAGE_VERSION:
        return False
    log.warning(
        "index %s: its passage vectors were made from passage text %s, this layoutrag embeds version %s; "
        "run `layoutrag index` to re-embed them",
        where,
        got if got is not None else "1 (before it was recorded)",
        PASSAGE_VERSION,
    )
    return True


# A table row is matched against a query by its own words and, when its name is a canonical
# parameter of `data/spec_parameters.tsv` (IEC / JEDEC terms, English and Chinese, with symbols:
# the vocabulary of the spec stage), by that parameter's other names: "Current consumption" is
# found by "operating current" and by 工作电流. Used by the matched row, the ranker's `row` feature
# and the focus page (index.base.row_scores) and by the static site (site/export ships it).
ROW_PARAMETER_NAMES = True


def row_aka(row: Any) -> str:
    """The other names and symbols of the canonical parameter a table row prints ("" when its name
    is none of them, or for a header row): `match_parameter` on its first cell (the second as the
    symbol)."""
    if not ROW_PARAMETER_NAMES or getattr(row, "is_header", False):
        return ""
    cells = [c for c in getattr(row, "cells", []) or [] if c and c.strip()]
    if not cells:
        return ""
    from layoutrag.specs import match_parameter, parameter_names

    pid, known = match_parameter(cells[0], cells[1] if len(cells) > 1 else "")
    if not known:
        return ""
    names, symbols = parameter_names(pid)
    return " | ".join([*names, *symbols])
