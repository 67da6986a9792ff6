"""Group a page's layout elements into reading units (rules over geometry, labels and text).

A group is what a person reads as one thing:

- a **table** with its caption (nearest, above or below, same column), the header/notes that the
  detector split off, and the footnotes / "Note:" lines directly under it;
- a **figure** (picture) with its caption and the callouts drawn inside it;
- a **text run**: consecutive text, list items and formulas under one section header, in reading
  order, split at ``Settings.chunk_max_chars`` characters, at a vertical gap larger than
  ``Settings.chunk_split_gap_frac`` of the page height, at a column change, and where a text run
  turns into a list (or back);
- **page headers / footers**: kept, one group per band, not indexed — except on page 1, where the
  header band is usually the title block (vendor, series, part number) and is indexed.

Guards (each tested): no element is in two groups; no element is lost (an element no rule took
becomes its own group, counted as unassigned); table and figure groups are never dropped; members
farther apart than ``Settings.chunk_max_gap_frac`` of the page height never share a group.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from layoutrag.config import Settings
from layoutrag.geometry import contains_frac
from layoutrag.records import Element, Page, TableRow

__all__ = [
    "Group",
    "apply_guards",
    "block_type_of",
    "enforce_gap_limit",
    "group_page",
    "is_caption_text",
    "is_note_text",
    "vertical_gap",
    "x_overlap_frac",
]

ANCHOR_LABELS = ("table", "picture")
BAND_LABELS = ("page_header", "page_footer")
FLOW_LABELS = ("title", "section_header", "text", "list_item", "formula", "caption", "footnote")

_CAPTION_RE = re.compile(
    r"^\s*(table|tab\.|figure|fig\.?|diagram|chart|graph|图|表)\s*[\dA-Z]", re.IGNORECASE
)
_TABLE_CAPTION_RE = re.compile(r"^\s*(table|tab\.|表)", re.IGNORECASE)
_FIGURE_CAPTION_RE = re.compile(r"^\s*(figure|fig\.?|diagram|chart|graph|图)", re.IGNORECASE)
_NOTE_RE = re.compile(
    r"^\s*(notes?\b|note\s*\d|\*|†|‡|\(\d{1,2}\)|\[\d{1,2}\]|\d{1,2}\)\s|注)", re.IGNORECASE
)

CAPTION_MAX_GAP_FRAC = (
    0.07  # a caption farther than this share of page height from its anchor is not its caption
)
NOTE_MAX_GAP_FRAC = 0.035  # footnotes chain downwards from the table with at most this gap
_SHORT_PT = 24.0  # elements at most this tall side by side on one line are one grid row (key: value)
INSIDE_FRAC = 0.6  # an element with this share of its area inside a picture/table is a callout / part of it


@dataclass
class Group:
    """A chunk before ids, TOC and descriptions: member elements in reading order."""

    members: list[Element]
    block_type: str
    indexed: bool = True
    rows: list[TableRow] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    description: str = ""  # set by the optional LLM pass; the template fills it otherwise

    @property
    def first(self) -> Element:
        return self.members[0]

    @property
    def pages(self) -> list[int]:
        return sorted({m.page for m in self.members})

    def sort_members(self) -> None:
        self.members.sort(key=lambda e: (e.page, e.order, e.bbox_pdf[1], e.bbox_pdf[0]))

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.members if m.text)


# --------------------------------------------------------------------------- geometry helpers
def x_overlap_frac(a: Sequence[float], b: Sequence[float]) -> float:
    """Horizontal overlap as a share of the narrower box's width."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    narrow = min(a[2] - a[0], b[2] - b[0])
    return max(0.0, w) / narrow if narrow > 0 else 0.0


def vertical_gap(a: Sequence[float], b: Sequence[float]) -> float:
    """Empty vertical space between two boxes (0 when they overlap in y)."""
    return max(0.0, max(a[1], b[1]) - min(a[3], b[3]))


def is_caption_text(text: str) -> bool:
    return bool(_CAPTION_RE.match(text or ""))


def is_note_text(text: str) -> bool:
    return bool(_NOTE_RE.match(text or ""))


def block_type_of(members: Iterable[Element]) -> str:
    labels = [m.label for m in members]
    if "table" in labels:
        return "table"
    if "picture" in labels:
        return "figure"
    content = [lab for lab in labels if lab not in ("section_header", "title")]
    if not content:
        return "title" if "title" in labels else "heading"
    if all(lab == "list_item" for lab in content):
        return "list"
    if all(lab == "formula" for lab in content):
        return "formula"
    if all(lab in BAND_LABELS for lab in content):
        return content[0]
    if all(lab == "caption" for lab in content):
        return "caption"
    if all(lab == "footnote" for lab in content):
        return "footnote"
    if "title" in labels:
        return "title"
    return "text"


# --------------------------------------------------------------------------- page grouping
def group_page(page: Page, settings: Settings) -> list[Group]:
    """All groups of one page (anchors, text runs, header/footer bands), in reading order."""
    els = sorted(page.elements, key=lambda e: (e.order, e.bbox_pdf[1], e.bbox_pdf[0]))
    h = page.height_pt or 792.0
    taken: set[str] = set()
    groups: list[Group] = []

    # anchors: one group per table / picture
    anchor_groups: dict[str, Group] = {}
    for e in els:
        if e.label in ANCHOR_LABELS:
            g = Group(members=[e], block_type="table" if e.label == "table" else "figure")
            anchor_groups[e.element_id] = g
            groups.append(g)
            taken.add(e.element_id)
    anchors = [e for e in els if e.label in ANCHOR_LABELS]

    # callouts and detector fragments lying inside an anchor belong to it
    for e in els:
        if e.element_id in taken or e.label in BAND_LABELS:
            continue
        inside = [a for a in anchors if contains_frac(e.bbox_pdf, a.bbox_pdf) >= INSIDE_FRAC]
        if inside:
            host = min(inside, key=lambda a: _box_area(a.bbox_pdf))
            anchor_groups[host.element_id].members.append(e)
            taken.add(e.element_id)

    # captions: nearest anchor above/below, same column, nothing in between
    for e in els:
        if e.element_id in taken or not _caption_candidate(e):
            continue
        host = _caption_host(e, anchors, els, taken, h)
        if host is not None:
            anchor_groups[host.element_id].members.append(e)
            taken.add(e.element_id)

    # footnotes / notes directly under a table, chained downwards
    for a in anchors:
        if a.label != "table":
            continue
        g = anchor_groups[a.element_id]
        bottom = max(m.bbox_pdf[3] for m in g.members if m.bbox_pdf[1] >= a.bbox_pdf[1] - 1)
        for e in els:
            if e.element_id in taken or e.label not in ("footnote", "text", "list_item", "caption"):
                continue
            if e.bbox_pdf[1] < a.bbox_pdf[3] - 2:
                continue
            if e.label != "footnote" and not is_note_text(e.text):
                continue
            if x_overlap_frac(e.bbox_pdf, a.bbox_pdf) < 0.5:
                continue
            if e.bbox_pdf[1] - bottom > NOTE_MAX_GAP_FRAC * h:
                continue
            if _blocked(e.bbox_pdf, (a.bbox_pdf[0], bottom, a.bbox_pdf[2], e.bbox_pdf[1]), els, taken, e):
                continue
            g.members.append(e)
            taken.add(e.element_id)
            bottom = max(bottom, e.bbox_pdf[3])

    # header / footer bands
    for label in BAND_LABELS:
        band = [e for e in els if e.label == label and e.element_id not in taken]
        if band:
            groups.append(
                Group(members=band, block_type=label, indexed=(page.page == 1 and label == "page_header"))
            )
            taken.update(e.element_id for e in band)

    # text runs over what is left; a run of headings alone right above a table/figure titles it
    for run in _text_runs(els, taken, h, settings):
        host = (
            _titled_anchor(run, anchor_groups, els, h) if all(_is_heading(m) for m in run.members) else None
        )
        if host is not None:
            host.members.extend(run.members)
        else:
            groups.append(run)

    for g in groups:
        g.sort_members()
        g.block_type = _final_type(g)
    groups = [sub for g in groups for sub in enforce_gap_limit(g, settings.chunk_max_gap_frac * h)]
    groups.sort(key=lambda g: (g.first.order, g.first.bbox_pdf[1]))
    return groups


def _final_type(g: Group) -> str:
    if g.block_type in BAND_LABELS:
        return g.block_type
    return block_type_of(g.members)


def _box_area(b: Sequence[float]) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _caption_candidate(e: Element) -> bool:
    if e.label == "caption":
        return True
    if e.label in ("text", "section_header", "footnote"):
        return is_caption_text(e.text) and len(e.text) < 300
    return False


def _titled_anchor(
    run: Group, anchor_groups: dict[str, Group], els: list[Element], page_h: float
) -> Group | None:
    """The table/figure group directly below a heading-only run ("5 Pin Description" over its table)."""
    last = max(run.members, key=lambda m: m.bbox_pdf[3])
    lb = last.bbox_pdf
    best: tuple[float, Group] | None = None
    for g in anchor_groups.values():
        top = min(g.members, key=lambda m: m.bbox_pdf[1])
        tb = top.bbox_pdf
        if tb[1] < lb[3] - 2 or x_overlap_frac(lb, tb) < 0.3:
            continue
        gap = tb[1] - lb[3]
        if gap > CAPTION_MAX_GAP_FRAC * page_h:
            continue
        strip = (max(lb[0], tb[0]), lb[3], min(lb[2], tb[2]), tb[1])
        if _strip_blocked(strip, els, [*run.members, *g.members], top):
            continue
        if best is None or gap < best[0]:
            best = (gap, g)
    return best[1] if best else None


def _caption_host(
    cap: Element, anchors: list[Element], els: list[Element], taken: set[str], page_h: float
) -> Element | None:
    best: tuple[float, Element] | None = None
    for a in anchors:
        if x_overlap_frac(cap.bbox_pdf, a.bbox_pdf) < 0.3:
            continue
        cb, ab = cap.bbox_pdf, a.bbox_pdf
        cy = (cb[1] + cb[3]) / 2
        if cy <= ab[1]:  # caption above the anchor
            gap = max(0.0, ab[1] - cb[3])
            between = (min(cb[0], ab[0]), cb[3], max(cb[2], ab[2]), ab[1])
            # tables carry their caption above, figures below: the other side costs a little
            penalty = 0.0 if a.label == "table" else 6.0
        elif cy >= ab[3]:  # below
            gap = max(0.0, cb[1] - ab[3])
            between = (min(cb[0], ab[0]), ab[3], max(cb[2], ab[2]), cb[1])
            penalty = 0.0 if a.label == "picture" else 6.0
        else:  # beside the anchor, in its band: only when it overlaps it a good deal
            if contains_frac(cb, ab) < 0.3:
                continue
            gap, between, penalty = 0.0, None, 0.0
        if gap > CAPTION_MAX_GAP_FRAC * page_h:
            continue
        if between is not None and _blocked(cap.bbox_pdf, between, els, taken, cap, exclude=a):
            continue
        kind_match = (_TABLE_CAPTION_RE.match(cap.text) and a.label == "table") or (
            _FIGURE_CAPTION_RE.match(cap.text) and a.label == "picture"
        )
        kind_clash = (_TABLE_CAPTION_RE.match(cap.text) and a.label == "picture") or (
            _FIGURE_CAPTION_RE.match(cap.text) and a.label == "table"
        )
        score = gap + penalty - (20.0 if kind_match else 0.0) + (40.0 if kind_clash else 0.0)
        if best is None or score < best[0]:
            best = (score, a)
    return best[1] if best else None


def _blocked(
    subject: Sequence[float],
    between: Sequence[float],
    els: list[Element],
    taken: set[str],
    who: Element,
    exclude: Element | None = None,
) -> bool:
    """Is there another content element in the strip between `who` and its would-be host?"""
    if between[3] - between[1] <= 1.0:
        return False
    for o in els:
        if o is who or o is exclude or o.label in BAND_LABELS:
            continue
        ob = o.bbox_pdf
        cy = (ob[1] + ob[3]) / 2
        if between[1] + 1 < cy < between[3] - 1 and x_overlap_frac(ob, subject) > 0.3:
            return True
    return False


def _text_runs(els: list[Element], taken: set[str], page_h: float, settings: Settings) -> list[Group]:
    """Text runs, built geometrically so a reading order that interleaves columns cannot mix them.

    Elements are visited in reading order; each joins the open run whose last member sits directly
    above it (same column, small gap, nothing in between) or beside it on the same line, else
    opens a run. Headings always open a run (a heading right under another one joins it)."""
    split_gap = settings.chunk_split_gap_frac * page_h
    flow = [e for e in els if e.element_id not in taken]
    runs: list[list[Element]] = []
    for e in flow:
        best: tuple[float, list[Element]] | None = None
        for run in runs:
            d = _join_distance(run, e, els, split_gap, settings.chunk_max_chars)
            if d is not None and (best is None or d < best[0]):
                best = (d, run)
        if best is None:
            runs.append([e])
        else:
            best[1].append(e)
        taken.add(e.element_id)
    return [Group(members=r, block_type="text") for r in runs]


def _is_heading(e: Element) -> bool:
    return e.label in ("section_header", "title")


def _width(b: Sequence[float]) -> float:
    return b[2] - b[0]


def _same_line(a: Sequence[float], b: Sequence[float]) -> bool:
    ov = min(a[3], b[3]) - max(a[1], b[1])
    return ov >= 0.5 * min(a[3] - a[1], b[3] - b[1])


def _join_distance(
    run: list[Element], e: Element, els: list[Element], split_gap: float, max_chars: int
) -> float | None:
    """How far `e` is from continuing `run` (None: it cannot)."""
    last = run[-1]
    only_headings = all(_is_heading(m) for m in run)
    if _is_heading(e) and not (only_headings and e.label == last.label):
        return None  # a heading opens a section
    if _is_heading(e) and _width(last.bbox_pdf) > 1.6 * _width(e.bbox_pdf):
        return None  # a page-wide title over a column heading: not one heading block
    lb, eb = last.bbox_pdf, e.bbox_pdf
    short = max(lb[3] - lb[1], eb[3] - eb[1]) <= _SHORT_PT
    if short and _same_line(lb, eb) and not _is_heading(e) and not _is_heading(last):
        hgap = max(0.0, max(lb[0], eb[0]) - min(lb[2], eb[2]))
        if hgap > 0.25 * split_gap * 4:  # far apart on one line: two columns, not one grid row
            return None
        dist = hgap / 4
    else:
        if x_overlap_frac(lb, eb) < 0.2:
            return None  # another column
        if eb[1] < lb[1] + 2:
            return None  # above the run's end: not its continuation
        dist = vertical_gap(lb, eb)
        if dist > split_gap:
            return None
        strip = (max(lb[0], eb[0]), lb[3], min(lb[2], eb[2]), eb[1])
        if _strip_blocked(strip, els, run, e):
            return None
    if not only_headings:
        content = [m for m in run if not _is_heading(m)]
        if (e.label == "list_item") != (content[-1].label == "list_item") and "formula" not in (
            e.label,
            content[-1].label,
        ):
            return None  # a paragraph turning into a list (or back) is a new unit
        if sum(len(m.text) for m in run) + len(e.text) > max_chars:
            return None
    return dist


def _strip_blocked(strip: Sequence[float], els: list[Element], run: list[Element], e: Element) -> bool:
    if strip[3] - strip[1] <= 2 or strip[2] - strip[0] <= 2:
        return False
    inner = (strip[0] + 1, strip[1] + 1, strip[2] - 1, strip[3] - 1)
    members = {m.element_id for m in run}
    for o in els:
        if o is e or o.element_id in members or o.label in BAND_LABELS:
            continue
        ob = o.bbox_pdf
        if min(ob[2], inner[2]) > max(ob[0], inner[0]) and min(ob[3], inner[3]) > max(ob[1], inner[1]):
            return True
    return False


# --------------------------------------------------------------------------- guards
def enforce_gap_limit(g: Group, max_gap: float) -> list[Group]:
    """Split a group into parts whose members on one page are connected by gaps <= `max_gap`.

    Members on different pages (a table continued over a page break) stay together: the rule is
    about one page's evidence strip."""
    by_page: dict[int, list[Element]] = {}
    for m in g.members:
        by_page.setdefault(m.page, []).append(m)
    comps_per_page: list[list[list[Element]]] = []
    for page in sorted(by_page):
        comps_per_page.append(_connected(by_page[page], max_gap))
    if all(len(c) == 1 for c in comps_per_page):
        return [g]
    # keep the component holding the anchor (or the first member) as the group; others split off
    out: list[Group] = []
    main: list[Element] = []
    for comps in comps_per_page:
        anchor_i = next((i for i, c in enumerate(comps) if any(m.label in ANCHOR_LABELS for m in c)), 0)
        for i, c in enumerate(comps):
            if i == anchor_i:
                main.extend(c)
            else:
                sub = Group(members=sorted(c, key=lambda e: e.order), block_type="text", indexed=g.indexed)
                sub.block_type = g.block_type if g.block_type in BAND_LABELS else block_type_of(sub.members)
                out.append(sub)
    g.members = main
    g.sort_members()
    return [g, *out]


def _connected(members: list[Element], max_gap: float) -> list[list[Element]]:
    n = len(members)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if vertical_gap(members[i].bbox_pdf, members[j].bbox_pdf) <= max_gap:
                parent[find(i)] = find(j)
    comps: dict[int, list[Element]] = {}
    for i in range(n):
        comps.setdefault(find(i), []).append(members[i])
    return sorted(comps.values(), key=lambda c: min(m.order for m in c))


def apply_guards(groups: list[Group], elements: list[Element]) -> tuple[list[Group], int]:
    """No element in two groups (first claim wins), none lost (each leftover its own group).

    Returns the groups and the number of unassigned elements. Table and figure members are never
    dropped: a group that loses all members to an earlier claim disappears only if it is empty."""
    seen: set[str] = set()
    out: list[Group] = []
    for g in groups:
        g.members = [m for m in g.members if m.element_id not in seen]
        for m in g.members:
            seen.add(m.element_id)
        if g.members:
            if g.block_type not in BAND_LABELS:
                g.block_type = block_type_of(g.members)
            out.append(g)
    n_unassigned = 0
    for e in elements:
        if e.element_id not in seen:
            n_unassigned += 1
            seen.add(e.element_id)
            g = Group(members=[e], block_type=block_type_of([e]), indexed=e.label not in BAND_LABELS)
            if e.label in BAND_LABELS:
                g.block_type = e.label
            out.append(g)
    return out, n_unassigned
