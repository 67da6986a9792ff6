"""Query understanding: the query text every front and the index accept, part numbers and series
named in a query, and search filters as row masks.

A code in a query is matched against every document card's part numbers, series, title codes and
file name, compared in compact form (separators stripped), so `7M26000MAAJT`, `7m-26.000-maaj-t`
and `7M 26.000 MAAJ T` all name the same part. Matches are graded: exact, or a prefix either
way (a partial part number, or a series that heads a full part number).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePath

import numpy as np

from layoutrag.errors import InputError
from layoutrag.index.tokenizer import WORD_RE, compact, is_part_like, normalize_text
from layoutrag.records import BLOCK_TYPES, DocumentCard, SearchFilters

__all__ = [
    "BLOCK_FAMILIES",
    "CardMatcher",
    "block_family",
    "block_type_values",
    "check_block_type",
    "filter_mask",
    "is_searchable",
    "normalize_query",
    "query_codes",
    "wanted_family",
]

EXACT, PREFIX = 1.0, 0.8
_MAX_DOCS_PER_CODE = 3  # a code shared by more documents than this (AEC-Q200, SOT-23) names none
_MAX_WINDOW = 4  # a code typed with spaces for separators spans up to this many words


def normalize_query(query: str, *, max_chars: int) -> str:
    """The query text as searched: InputError (one line) when longer than `max_chars`, then every
    non-printable character blanked and whitespace collapsed. May return "" - the service calls that
    an error (`validate_query`), the index an empty result (`is_searchable`)."""
    if len(query) > max_chars:
        raise InputError(f"query too long: {len(query)} characters (limit {max_chars})")
    return " ".join("".join(ch if ch.isprintable() else " " for ch in query).split())


def is_searchable(query: str) -> bool:
    """Whether a normalised query has anything to match (not empty, not only punctuation or symbols)."""
    return any(ch.isalnum() for ch in query)


# Routing by query type: a question about a drawing (footprint, outline, curve, pinout) wants a
# figure; any other datasheet question wants the spec-bearing blocks (tables, feature lists).
BLOCK_FAMILIES = {
    "figure": re.compile(
        r"figure|picture|image|drawing|dimension|footprint|land|pattern|pin|diagram|chart|curve|graph"
    ),
    "spec": re.compile(r"table|spec|feature|characteristic|application|stability|list|rating"),
}
_FIGURE_CUES = re.compile(
    r"footprint|land pattern|pad layout|solder pad|pcb layout|hole layout|outline|drawing|dimension|pinout|"
    r"pin ?(?:out|diagram|assignment|configuration)|curve|plot|graph|diagram|waveform|profile|"
    r"焊盘|尺寸|外形|封装图|引脚图|管脚图|脚位|曲线|框图|波形|示意图|布局"
)


def wanted_family(query: str) -> str:
    """`figure` when the query asks for a drawing or a plot, else `spec`."""
    return "figure" if _FIGURE_CUES.search(query.lower()) else "spec"


def block_family(block_type: str) -> str | None:
    bt = block_type.lower()
    for name, pattern in BLOCK_FAMILIES.items():
        if pattern.search(bt):
            return name
    return None


def query_codes(query: str) -> set[str]:
    """Compact codes a query may be naming: each part-like word, and runs of up to 4 adjacent words
    whose concatenation is part-like (a code typed with spaces)."""
    words = [m.group() for m in WORD_RE.finditer(normalize_text(query))]
    codes: set[str] = set()
    for i in range(len(words)):
        joined = ""
        for j in range(i, min(i + _MAX_WINDOW, len(words))):
            joined += compact(words[j])
            if is_part_like(joined) or (j == i and _is_series_like(joined)):
                codes.add(joined)
    return codes


def _is_series_like(code: str) -> bool:
    """Short series names such as `7m` or `fa128` (a digit and a letter, at least two characters)."""
    return len(code) >= 2 and any(c.isdigit() for c in code) and any("a" <= c <= "z" for c in code)


def card_codes(card: DocumentCard) -> set[str]:
    codes = {compact(normalize_text(p)) for p in [*card.part_numbers, *card.series] if p.strip()}
    for text in (card.title, PurePath(card.file_name).stem if card.file_name else ""):
        for m in WORD_RE.finditer(normalize_text(text)):
            if is_part_like(m.group()):
                codes.add(compact(m.group()))
    return {c for c in codes if _is_series_like(c)}


class CardMatcher:
    """Matches query codes to documents; built once per index from the cards. Lookups are a dict
    (exact), a bisect over the sorted codes (query code as a prefix) and the query code's own
    prefixes (a series heading a full part number), so cost does not grow with the corpus."""

    def __init__(self, cards: Mapping[str, DocumentCard]) -> None:
        pairs = sorted({(code, doc_id) for doc_id, card in cards.items() for code in card_codes(card)})
        self._codes = [c for c, _ in pairs]
        self._docs = [d for _, d in pairs]

    def match(self, query: str) -> dict[str, float]:
        """doc_id -> strength (1.0 exact, 0.8 prefix) for documents the query names."""
        found: dict[str, float] = {}
        if not self._codes:
            return found

        def add(lo: int, hi: int, strength: float) -> None:
            if hi <= lo or len(set(self._docs[lo : min(hi, lo + 64)])) > _MAX_DOCS_PER_CODE:
                return
            for i in range(lo, hi):
                if strength > found.get(self._docs[i], 0.0):
                    found[self._docs[i]] = strength

        for q in query_codes(query):
            lo = bisect.bisect_left(self._codes, q)
            hi = bisect.bisect_right(self._codes, q)
            add(lo, hi, EXACT)
            if len(q) >= 4:  # a partial code: every card code it begins
                add(hi, bisect.bisect_left(self._codes, q + "\U0010ffff"), PREFIX)
            if is_part_like(q):  # a full code: card series that head it
                for n in range(3, len(q)):
                    p = q[:n]
                    add(bisect.bisect_left(self._codes, p), bisect.bisect_right(self._codes, p), PREFIX)
        return found


def _selects(want: str, block_type: str) -> bool:
    """A block-type filter selects a type by name or by a component of a compound type (`table`
    selects `electrical_specifications_table`)."""
    t = block_type.lower()
    return t == want or want in t.split("_")


def block_type_values(index_types: Sequence[str] = ()) -> list[str]:
    """Every value `check_block_type` accepts (lower case; it ignores case): the block types ingest
    makes and those in the index, and each component of a compound type."""
    out: set[str] = set()
    for t in {*BLOCK_TYPES, *index_types}:
        t = t.lower()
        out.add(t)
        out.update(part for part in t.split("_") if part)
    return sorted(out)


def check_block_type(value: str, index_types: Sequence[str] = ()) -> str:
    """`value` when it selects a block type ingest makes or one in the index (`index_types`: imported
    chunks may bring their own); else InputError naming the valid types."""
    known = sorted({*BLOCK_TYPES, *index_types})
    want = value.lower() if isinstance(value, str) else ""
    if not want or not any(_selects(want, t) for t in known):
        raise InputError(f"unknown block type {str(value)[:40]!r}; valid: {', '.join(known)}")
    return value


def filter_mask(
    filters: SearchFilters | None,
    *,
    doc_index: np.ndarray,
    doc_ids: list[str],
    pages: np.ndarray,
    block_codes: np.ndarray,
    block_types: list[str],
) -> np.ndarray | None:
    """Boolean row mask for the filters (None = no filtering)."""
    if filters is None or not any(
        v is not None for v in (filters.doc_id, filters.block_type, filters.page_min, filters.page_max)
    ):
        return None
    mask = np.ones(len(pages), dtype=bool)
    if filters.doc_id is not None:
        mask &= doc_index == (doc_ids.index(filters.doc_id) if filters.doc_id in doc_ids else -2)
    if filters.block_type is not None:
        want = filters.block_type.lower()
        codes = [i for i, t in enumerate(block_types) if _selects(want, t)]
        mask &= np.isin(block_codes, codes)
    if filters.page_min is not None:
        mask &= pages >= filters.page_min
    if filters.page_max is not None:
        mask &= pages <= filters.page_max
    return mask
