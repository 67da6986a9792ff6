"""Named chunking rules that can be switched off one at a time, to measure what each one does.

Every grouping rule that goes beyond "one detected element, one unit" has a name here. All are on
by default; :func:`disabled` switches some off inside a ``with`` block (benchmarks/region_check.py
``--ablate`` scores each rule by document fold on the documents it was not written for). The
switches are a measurement tool, not a setting: chunks are always built with every kept rule on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = ["RULES", "disabled", "enabled"]

RULES: dict[str, str] = {
    "picture_fragments": "overlapping pictures are one drawing boxed in pieces (group._anchor_clusters)",
    "callouts_inside": "elements lying inside a picture/table join it (group.group_page)",
    "caption_bridge": "a table caption reaches its table past a short conditions line (group._bridge)",
    "notes_under_anchor": "footnotes / Note: lines directly under a table or figure join it (group._attach_notes)",
    "notes_label_block": "lines beside / under a bare NOTES: label go on from it (group._continues_label)",
    "second_caption_pass": "captions again after notes joined (a caption under a table's footnote)",
    "title_lines": "a caption-less figure takes the short title line above it (group._attach_title_lines)",
    "titled_anchor": "a heading-only run right above a table/figure titles it (group._titled_anchor)",
    "grid_row": "short elements side by side on one line are one grid row (group._join_distance)",
    "wide_title_split": "a page-wide title over a column heading is not one heading block",
    "list_text_split": "a paragraph turning into a list (or back) starts a new unit",
    "multi_figure_split": "a picture holding several captioned figures is cut per caption (figures.py)",
    "ruled_rows": "a table is as wide as the row rules drawn through it (tables._row_rules_extent)",
    "margin": "a unit's boxes reach into the blank space around it (tiling.grow_into_margin)",
    "margin_halfway": "the margin stops halfway to the neighbouring content, not at it",
    "ruled_rows_read": "a table is read in its ruled extent too, kept with no fewer rows and more words (tables.table_rows)",
    "ruled_extent": "table/picture boxes grow to the rulings drawn across their edge (tables.ruled_boxes)",
}

_OFF: set[str] = set()


def enabled(name: str) -> bool:
    """Is rule `name` on? (Unknown names are a programming error.)"""
    if name not in RULES:
        raise KeyError(f"unknown chunking rule {name!r}")
    return name not in _OFF


@contextlib.contextmanager
def disabled(*names: str) -> Iterator[None]:
    """Switch the named rules off inside the block (not thread-safe: a benchmark tool)."""
    unknown = [n for n in names if n not in RULES]
    if unknown:
        raise KeyError(f"unknown chunking rules {unknown}")
    before = set(_OFF)
    _OFF.update(names)
    try:
        yield
    finally:
        _OFF.clear()
        _OFF.update(before)
