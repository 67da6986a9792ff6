"""What a spec value's reading rests on, as numbers: the features of a learned confidence gate
(an experiment, `spec_gate_cv.py`; not part of the spec stage - it did not separate wrong readings).

Each feature says where a reading came from or how much it had to infer - never which document or
parameter it is: the printed name's words found in the value's own row or only above it (a name
taken from a group header, a row above or a condition column), the name matched to the vocabulary
whole or only in part, a name that reads like a test condition, how many numbers the cells print
against how many were read, a "±" typical beside limits, a row several lines high, a part other
than the document's, a unit printed only in a header.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from layoutrag.chunking.specs import _numbers_in
from layoutrag.records import SpecValue, Word
from layoutrag.specs import _dehyphen, _names, _norm_name, fold

FEATURES = (
    "name_outside",  # share of the printed name's words not in the value's own row (0..1)
    "unknown",  # kept under its printed name (no canonical id)
    "partial_match",  # a canonical id found inside a longer name, or from the symbol alone
    "name_long",  # printed name of 6 words or more
    "name_condition",  # the name holds "=", "@", a number with a unit, or a comparison
    "name_caps_word",  # the name is one capitalised word with no vocabulary meaning ("NORMAL")
    "lone_value",  # one number in a merged "Value" column (no Min/Typ/Max role)
    "three_numbers",  # min, typ and max all read
    "plus_minus",  # a "±" among the cells
    "extra_numbers",  # the cells print more numbers than were read
    "tall_row",  # the row box is more than 2.5 text lines high
    "other_part",  # the part is not the document's default part
    "ratings",  # an absolute-maximum-ratings table
    "no_symbol",  # no symbol printed
    "unit_not_in_cells",  # the unit is printed only in a header or name, not beside the number
)

_TOKEN_RE = re.compile(r"[^\W_]{2,}|[\u4e00-\u9fff]")
_COND_RE = re.compile(r"[=@≤≥<>]|\b\d+(?:\.\d+)?\s?(?:v|ma|µa|ua|a|hz|khz|mhz|°c|c|ω|k|pf|nf|µf|%)\b", re.IGNORECASE)


def _tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(fold(text).lower())


def _row_words(v: SpecValue, words: list[Word]) -> list[Word]:
    x0, y0, x1, y1 = v.row_bbox_pdf
    out = []
    for w in words:
        wx0, wy0, wx1, wy1 = w.bbox_pdf
        cy = (wy0 + wy1) / 2
        if y0 - 1 <= cy <= y1 + 1 and wx1 >= x0 - 2 and wx0 <= x1 + 2:
            out.append(w)
    return out


def _line_height(words: list[Word]) -> float:
    hs = sorted(w.bbox_pdf[3] - w.bbox_pdf[1] for w in words if w.bbox_pdf[3] > w.bbox_pdf[1])
    return hs[len(hs) // 2] if hs else 8.0


def _exact(v: SpecValue) -> bool:
    name = _dehyphen(_norm_name(v.parameter_printed))
    return any(n == name and pid == v.parameter for n, pid, _, _ in _names())


def features(v: SpecValue, page_words: Callable[[int], list[Word]] | None, part: str) -> list[float]:
    """The value's features, in the order of `FEATURES`. `page_words` gives a page's words (the
    name's place is then judged from them); without it the name counts as found in its row."""
    row = _row_words(v, page_words(v.page)) if page_words is not None else []
    name_toks = _tokens(v.parameter_printed)
    if page_words is not None and row and name_toks:
        have = {t for w in row for t in _tokens(w.text)}
        row_text = fold(" ".join(w.text for w in row)).lower()
        outside = sum(1 for t in name_toks if t not in have and t not in row_text) / len(name_toks)
    else:
        outside = 0.0
    printed = fold(v.parameter_printed)
    words = printed.split()
    cells_text = " ".join(c.text for c in v.cells)
    read = sum(x is not None for x in (v.min, v.typ, v.max))
    pm = "±" in cells_text or "±" in v.value_text
    height = v.row_bbox_pdf[3] - v.row_bbox_pdf[1]
    unit_in_cells = bool(v.unit_printed) and any(v.unit_printed in fold(c.text) for c in v.cells)
    return [
        outside,
        float(not v.known),
        float(v.known and not _exact(v)),
        float(len(words) >= 6),
        float(bool(_COND_RE.search(printed))),
        float(len(words) == 1 and printed.isupper() and not v.known and len(printed) > 2),
        float([c.role for c in v.cells] == ["value"]),
        float(read == 3),
        float(pm),
        float(_numbers_in(cells_text) > read + (1 if pm else 0)),
        float(height > 2.5 * _line_height(row) if row else 0.0),
        float(bool(v.part) and bool(part) and v.part != part),
        float(v.table == "ratings"),
        float(not v.symbol),
        float(bool(v.unit_printed) and not unit_in_cells),
    ]

