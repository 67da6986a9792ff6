"""Group a page's layout elements into reading units (rules over geometry, labels and text).

A group is what a person reads as one thing:

- a **table** with its caption (nearest, above or below, same column; a caption reaches its table
  past a sub-caption, the table's own note, or a short conditions line between them), the
  header/notes that the detector split off, and the footnotes / "Note:" lines directly under it;
  "Table 3 shows ..." is a sentence about a table, not its caption;
- a **figure** (picture) with its caption, the callouts drawn inside it (not a paragraph the
  picture box merely clips), the notes directly under it, and — when it has no caption — the
  short title line right above it ("OUTLINE DRAWING:"); overlapping pictures are one drawing
  boxed in pieces, unless they have different captions;
- a **text run**: consecutive text, list items and formulas under one section header, in reading
  order, split at ``Settings.chunk_max_chars`` characters, at a vertical gap larger than
  ``Settings.chunk_split_gap_frac`` of the page height, at a column change, and where a text run
  turns into a list (or back). (List sub-headings, list sub-columns and paragraphs wrapped into
  the next column were joined by three rules written for one dev document each; measured on held-out
  document folds they helped no other document and were removed: docs/EVALUATION.md §4.)
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

from scipy.cluster.hierarchy import DisjointSet

from layoutrag.chunking.figures import is_sub_picture
from layoutrag.chunking.rules import enabled
from layoutrag.config import Settings
from layoutrag.geometry import area, contains_frac, intersection
from layoutrag.records import Element, Page, TableRow

__all__ = [
    "Group",
    "apply_guards",
    "block_type_keeping_band",
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
# "Table 3-1 shows the ...", "Table 18 below lists ...": a sentence referring to a table, not its caption
_REFERENCE_RE = re.compile(
    r"^\s*(?:table|tab\.|figure|fig\.?|diagram|chart|graph)\s*[\dA-Z][\w.\-]*\s+"
    r"(?:is|are|was|has|have|can|may|will|also|and|or|to|through|below|above|shows?|lists?|gives?|"
    r"describes?|summari[sz]es?|provides?|contains?|illustrates?|depicts?|presents?|defines?|details|"
    r"specifies|outlines?|indicates?|displays?|includes?|explains?|compares?)\b",
    re.IGNORECASE,
)
_TABLE_CAPTION_RE = re.compile(r"^\s*(table|tab\.|表)", re.IGNORECASE)
_FIGURE_CAPTION_RE = re.compile(r"^\s*(figure|fig\.?|diagram|chart|graph|图)", re.IGNORECASE)
# a bare "NOTES:" / "Notes (continued):" label
_NOTES_LABEL_RE = re.compile(r"^\s*(notes?|注)\s*[:：]?\s*(\(cont[^)]*\))?\s*[:：]?\s*$", re.IGNORECASE)
_ENUM_RE = re.compile(r"^\s*\(?[A-Za-z0-9]{1,2}[.)]\s")  # "A. ", "2) ", "(b) "
_NOTE_RE = re.compile(
    r"^\s*(notes?\b|note\s*\d|\*|†|‡|\(\d{1,2}\)|\[\d{1,2}\]|\d{1,2}\)\s|注)", re.IGNORECASE
)

CAPTION_MAX_GAP_FRAC = (
    0.07  # a caption farther than this share of page height from its anchor is not its caption
)
NOTE_MAX_GAP_FRAC = 0.035  # footnotes chain downwards from the table with at most this gap
_SHORT_PT = 24.0  # elements at most this tall side by side on one line are one grid row (key: value)
INSIDE_FRAC = 0.6  # an element with this share of its area inside a picture/table is a callout / part of it
TITLE_MAX_GAP_FRAC = 0.03  # a title line this close above a caption-less figure is its caption
_FRAGMENT_OVERLAP = 0.1  # pictures overlapping by this share of the smaller one are one drawing
_TITLE_LINE_CHARS = 60
_LABEL_GAP_PT = 24.0  # note lines this close beside a bare "NOTES:" label go on from it
_BRIDGE_CHARS = 300  # a text between a table caption and its table up to this long joins them


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
        self.members.sort(key=lambda e: (e.page, e.order, e.bbox_pdf.y0, e.bbox_pdf.x0))

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.members if m.text)


# --------------------------------------------------------------------------- geometry helpers
def x_overlap_frac(a: Sequence[float], b: Sequence[float]) -> float:
    """Horizontal overlap as a share of the narrower box's width."""
    ax0, _, ax1, _ = a
    bx0, _, bx1, _ = b
    w = min(ax1, bx1) - max(ax0, bx0)
    narrow = min(ax1 - ax0, bx1 - bx0)
    return max(0.0, w) / narrow if narrow > 0 else 0.0


def vertical_gap(a: Sequence[float], b: Sequence[float]) -> float:
    """Empty vertical space between two boxes (0 when they overlap in y)."""
    _, ay0, _, ay1 = a
    _, by0, _, by1 = b
    return max(0.0, max(ay0, by0) - min(ay1, by1))


def is_caption_text(text: str) -> bool:
    return bool(_CAPTION_RE.match(text or "")) and not _REFERENCE_RE.match(text or "")


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


def block_type_keeping_band(block_type: str, members: Iterable[Element]) -> str:
    """`block_type` when it is a header/footer band label (a band stays a band whatever its members
    look like), else the type its `members` make (:func:`block_type_of`)."""
    if block_type in BAND_LABELS:
        return block_type
    return block_type_of(members)


# --------------------------------------------------------------------------- page grouping
def group_page(page: Page, settings: Settings) -> list[Group]:
    """All groups of one page (anchors, text runs, header/footer bands), in reading order."""
    els = sorted(page.elements, key=lambda e: (e.order, e.bbox_pdf.y0, e.bbox_pdf.x0))
    h = page.height_pt or 792.0
    taken: set[str] = set()
    groups: list[Group] = []

    # anchors: one group per table / picture; the fragments of one drawing (overlapping pictures)
    # share one group
    anchors = [e for e in els if e.label in ANCHOR_LABELS]
    anchor_groups: dict[str, Group] = {}
    for members in _anchor_clusters(anchors, els, h):
        g = Group(
            members=members, block_type="table" if any(m.label == "table" for m in members) else "figure"
        )
        groups.append(g)
        for m in members:
            anchor_groups[m.element_id] = g
            taken.add(m.element_id)

    # callouts and detector fragments lying inside an anchor belong to it
    for e in els:
        if e.element_id in taken or e.label in BAND_LABELS or not enabled("callouts_inside"):
            continue
        inside = [a for a in anchors if contains_frac(e.bbox_pdf, a.bbox_pdf) >= INSIDE_FRAC]
        if inside:
            host = min(inside, key=lambda a: area(a.bbox_pdf))
            anchor_groups[host.element_id].members.append(e)
            taken.add(e.element_id)

    # captions, then notes under tables / figures, then captions again: a caption under a table's
    # footnote, or over a sub-caption, is reached once the element between them has joined
    _attach_captions(els, anchors, anchor_groups, taken, h)
    if enabled("notes_under_anchor"):
        _attach_notes(els, anchors, anchor_groups, taken, h)
    if enabled("second_caption_pass"):
        _attach_captions(els, anchors, anchor_groups, taken, h)
    if enabled("title_lines"):
        _attach_title_lines(els, anchors, anchor_groups, taken, h)

    # header / footer bands
    for label in BAND_LABELS:
        band = [e for e in els if e.label == label and e.element_id not in taken]
        if band:
            groups.append(
                Group(members=band, block_type=label, indexed=(page.page == 1 and label == "page_header"))
            )
            taken.update(e.element_id for e in band)

    # text runs over what is left; a run of headings alone right above a table/figure titles it
    # (headings nearest their table first, so a heading stacked over another one reaches it too)
    runs = _text_runs(els, taken, h, settings)
    for run in sorted(runs, key=lambda r: -max(m.bbox_pdf.y1 for m in r.members)):
        titled = (
            _titled_anchor(run, anchor_groups, els, h)
            if enabled("titled_anchor") and all(_is_heading(m) for m in run.members)
            else None
        )
        if titled is not None:
            titled.members.extend(run.members)
        else:
            groups.append(run)

    for g in groups:
        g.sort_members()
        g.block_type = block_type_keeping_band(g.block_type, g.members)
    groups = [sub for g in groups for sub in enforce_gap_limit(g, settings.chunking.chunk_max_gap_frac * h)]
    groups.sort(key=lambda g: (g.first.order, g.first.bbox_pdf.y0))
    return groups


def _anchor_clusters(anchors: list[Element], els: list[Element], page_h: float) -> list[list[Element]]:
    """Anchors that belong to one group, in reading order: pictures whose boxes overlap by at least
    ``_FRAGMENT_OVERLAP`` of the smaller one (a drawing the detector boxed in pieces, or a picture
    inside a picture), except sub-pictures cut from a multi-figure picture (figures.py) and pictures
    that have different figure captions (two figures under one over-large detector box). A table
    inside a picture's box keeps its own group: such pictures are mostly the detector boxing a
    whole page region, and the table is what a reader looks up."""
    n = len(anchors)
    sets = DisjointSet(range(n))
    captions: dict[int, set[str]] = {}
    for i, a in enumerate(anchors):
        cap = _nearest_figure_caption(a, els, page_h) if a.label == "picture" else None
        captions[i] = {cap.element_id} if cap is not None else set()

    for i in range(n):
        for j in range(i + 1, n):
            ai, aj = anchors[i], anchors[j]
            if ai.label != "picture" or aj.label != "picture" or not enabled("picture_fragments"):
                continue
            if is_sub_picture(ai.element_id) or is_sub_picture(aj.element_id):
                continue  # cut apart on purpose, one per figure caption
            box_i, box_j = ai.bbox_pdf, aj.bbox_pdf
            if intersection(box_i, box_j) < _FRAGMENT_OVERLAP * min(area(box_i), area(box_j)):
                continue
            ri, rj = sets[i], sets[j]
            if ri == rj or (captions[ri] and captions[rj] and not captions[ri] & captions[rj]):
                continue
            sets.merge(ri, rj)
            captions[sets[ri]] = captions[ri] | captions[rj]  # the merged set's captions, at its root
    clusters = [[anchors[i] for i in sorted(c)] for c in sets.subsets()]
    return sorted(clusters, key=lambda c: min(m.order for m in c))


def _nearest_figure_caption(pic: Element, els: list[Element], page_h: float) -> Element | None:
    """The closest caption (above, below or inside) of a picture, by vertical gap."""
    best: tuple[float, Element] | None = None
    for e in els:
        if not _caption_candidate(e) or _TABLE_CAPTION_RE.match(e.text or ""):
            continue
        if x_overlap_frac(e.bbox_pdf, pic.bbox_pdf) < 0.3:
            continue
        gap = vertical_gap(e.bbox_pdf, pic.bbox_pdf)
        if gap > CAPTION_MAX_GAP_FRAC * page_h:
            continue
        if best is None or gap < best[0]:
            best = (gap, e)
    return best[1] if best else None


def _attach_captions(
    els: list[Element], anchors: list[Element], anchor_groups: dict[str, Group], taken: set[str], h: float
) -> None:
    """Captions: nearest anchor above/below, same column, nothing in between but the anchor's own
    members. A table caption may bring the short conditions / notes line between it and its table."""
    for e in els:
        if e.element_id in taken or not _caption_candidate(e):
            continue
        found = _caption_host(e, anchors, els, taken, h, anchor_groups)
        if found is not None:
            host, bridge = found
            anchor_groups[host.element_id].members.extend([e, *bridge])
            taken.add(e.element_id)
            taken.update(b.element_id for b in bridge)


def _attach_notes(
    els: list[Element], anchors: list[Element], anchor_groups: dict[str, Group], taken: set[str], h: float
) -> None:
    """Footnotes / "Note:" lines directly under a table or figure, chained downwards (tables
    first: a table's notes are not its surrounding picture's)."""
    for a in sorted(anchors, key=lambda a: a.label != "table"):
        g = anchor_groups[a.element_id]
        if a is not max((m for m in g.members if m.label in ANCHOR_LABELS), key=lambda m: m.bbox_pdf.y1):
            continue  # one pass per group, from its lowest anchor
        bottom = max(m.bbox_pdf.y1 for m in g.members if m.bbox_pdf.y0 >= a.bbox_pdf.y0 - 1)
        block: list[Element] = []  # a bare "NOTES:" label and the note lines beside / under it
        for e in els:
            if e.element_id in taken or e.label not in ("footnote", "text", "list_item", "caption"):
                continue
            if e.bbox_pdf.y0 < a.bbox_pdf.y1 - 2:
                continue
            continues = enabled("notes_label_block") and any(_continues_label(e, b) for b in block)
            if e.label != "footnote" and not is_note_text(e.text) and not continues:
                continue
            if x_overlap_frac(e.bbox_pdf, a.bbox_pdf) < 0.5:
                continue
            if e.bbox_pdf.y0 - bottom > NOTE_MAX_GAP_FRAC * h:
                continue
            strip = (a.bbox_pdf.x0, bottom, a.bbox_pdf.x1, e.bbox_pdf.y0)
            if _blocked(e.bbox_pdf, strip, els, taken, e, exclude=g.members):
                continue
            g.members.append(e)
            taken.add(e.element_id)
            bottom = max(bottom, e.bbox_pdf.y1)
            if continues or _NOTES_LABEL_RE.match(e.text or ""):
                block.append(e)


def _continues_label(e: Element, prev: Element) -> bool:
    """Does `e` go on from `prev` in a notes block: beside it on its line, or right under it?"""
    eb, pb = e.bbox_pdf, prev.bbox_pdf
    if _same_line(eb, pb) and 0 <= eb[0] - pb[2] <= _LABEL_GAP_PT:
        return True
    # under it: the next line, or the next enumerated note ("B. ...") a little further down
    reach = _LABEL_GAP_PT if _ENUM_RE.match(e.text or "") else _LABEL_GAP_PT / 4
    return 0 <= eb[1] - pb[1] and vertical_gap(eb, pb) <= reach and x_overlap_frac(eb, pb) >= 0.5


def _is_title_line(e: Element) -> bool:
    """A short one-line title ("OUTLINE DRAWING:", "TAPE & REEL:"): upper-case or ending in a colon."""
    text = (e.text or "").strip()
    if e.label not in ("text", "section_header") or not text or "\n" in text or len(text) > _TITLE_LINE_CHARS:
        return False
    letters = [c for c in text if c.isalpha()]
    wordy = "=" not in text and len(letters) >= 0.7 * len(text.replace(" ", ""))  # not a formula / value
    upper = len(letters) >= 3 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)
    return wordy and (text.endswith(":") or upper)


def _attach_title_lines(
    els: list[Element], anchors: list[Element], anchor_groups: dict[str, Group], taken: set[str], h: float
) -> None:
    """A figure without a caption takes the short title line right above it as its caption."""
    for a in anchors:
        g = anchor_groups[a.element_id]
        if a.label != "picture" or g.block_type != "figure":
            continue
        if any(m.label == "caption" or (m.label != "picture" and is_caption_text(m.text)) for m in g.members):
            continue
        top = min(m.bbox_pdf.y0 for m in g.members)
        best: tuple[float, Element] | None = None
        for e in els:
            if e.element_id in taken or not _is_title_line(e):
                continue
            eb = e.bbox_pdf
            if eb[3] > a.bbox_pdf.y0 + 2 or x_overlap_frac(eb, a.bbox_pdf) < 0.5:
                continue
            gap = max(0.0, top - eb[3])
            if gap > TITLE_MAX_GAP_FRAC * h:
                continue
            if _blocked(eb, (eb[0], eb[3], eb[2], top), els, taken, e, exclude=g.members):
                continue
            if best is None or gap < best[0]:
                best = (gap, e)
        if best is not None:
            g.members.append(best[1])
            taken.add(best[1].element_id)


def _caption_candidate(e: Element) -> bool:
    if e.label == "caption":
        return not _REFERENCE_RE.match(e.text or "")  # "Table 5-4 shows ..." boxed as a caption
    if e.label in ("text", "section_header", "footnote"):
        return is_caption_text(e.text) and len(e.text) < 300
    return False


def _titled_anchor(
    run: Group, anchor_groups: dict[str, Group], els: list[Element], page_h: float
) -> Group | None:
    """The table/figure group directly below a heading-only run ("5 Pin Description" over its table)."""
    last = max(run.members, key=lambda m: m.bbox_pdf.y1)
    lb = last.bbox_pdf
    best: tuple[float, Group] | None = None
    for g in {id(g): g for g in anchor_groups.values()}.values():
        # the heading sits above one of the group's anchors (a picture boxed in pieces has
        # several), over or beside the group's own caption
        for top in (m for m in g.members if m.label in ANCHOR_LABELS):
            tb = top.bbox_pdf
            # above it: the heading's middle is over the anchor's top (a loose picture box may
            # reach up into the heading's last line)
            if tb[1] < (lb[1] + lb[3]) / 2 or x_overlap_frac(lb, tb) < 0.3:
                continue
            gap = max(0.0, tb[1] - lb[3])
            if gap > CAPTION_MAX_GAP_FRAC * page_h:
                continue
            strip = (max(lb[0], tb[0]), lb[3], min(lb[2], tb[2]), tb[1])
            if _strip_blocked(strip, els, [*run.members, *g.members], top):
                continue
            if best is None or gap < best[0]:
                best = (gap, g)
    return best[1] if best else None


def _caption_host(
    cap: Element,
    anchors: list[Element],
    els: list[Element],
    taken: set[str],
    page_h: float,
    anchor_groups: dict[str, Group] | None = None,
) -> tuple[Element, list[Element]] | None:
    """The anchor a caption belongs to, and the elements bridging them (see `_bridge`)."""
    best: tuple[float, Element, list[Element]] | None = None
    for a in anchors:
        if x_overlap_frac(cap.bbox_pdf, a.bbox_pdf) < 0.3:
            continue
        own = anchor_groups[a.element_id].members if anchor_groups else [a]
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
        kind_match = (_TABLE_CAPTION_RE.match(cap.text) and a.label == "table") or (
            _FIGURE_CAPTION_RE.match(cap.text) and a.label == "picture"
        )
        kind_clash = (_TABLE_CAPTION_RE.match(cap.text) and a.label == "picture") or (
            _FIGURE_CAPTION_RE.match(cap.text) and a.label == "table"
        )
        bridge: list[Element] = []
        if between is not None:
            blockers = _blockers(cap.bbox_pdf, between, els, cap, exclude=own)
            if blockers:
                above_table = a.label == "table" and cy <= ab[1] and kind_match
                bridge = (
                    _bridge(cap, a, blockers, taken, page_h) if above_table and enabled("caption_bridge") else []
                )
                if not bridge:
                    continue
        score = gap + penalty - (20.0 if kind_match else 0.0) + (40.0 if kind_clash else 0.0)
        if best is None or score < best[0]:
            best = (score, a, bridge)
    return (best[1], best[2]) if best else None


def _bridge(
    cap: Element, table: Element, blockers: list[Element], taken: set[str], page_h: float
) -> list[Element]:
    """The short text lines between a "Table N" caption and the table under it (test conditions,
    "In accordance with ...", "Bit positions labelled x ..."), when they chain caption -> table
    with small gaps; empty when anything else sits between them."""
    chain = sorted(blockers, key=lambda o: o.bbox_pdf.y0)
    if any(
        o.element_id in taken
        or o.label not in ("text", "footnote", "caption")
        or len(o.text or "") > _BRIDGE_CHARS
        for o in chain
    ):
        return []
    prev = cap.bbox_pdf.y1
    for o in [*chain, table]:
        if o.bbox_pdf.y0 - prev > NOTE_MAX_GAP_FRAC * page_h:
            return []
        prev = max(prev, o.bbox_pdf.y1)
    return chain


def _blockers(
    subject: Sequence[float],
    between: Sequence[float],
    els: list[Element],
    who: Element,
    exclude: Iterable[Element] = (),
) -> list[Element]:
    """The other content elements in the strip between `who` and its would-be host."""
    if between[3] - between[1] <= 1.0:
        return []
    skip = {who.element_id, *(x.element_id for x in exclude)}
    out = []
    for o in els:
        if o.element_id in skip or o.label in BAND_LABELS:
            continue
        ob = o.bbox_pdf
        cy = (ob[1] + ob[3]) / 2
        if between[1] + 1 < cy < between[3] - 1 and x_overlap_frac(ob, subject) > 0.3:
            out.append(o)
    return out


def _blocked(
    subject: Sequence[float],
    between: Sequence[float],
    els: list[Element],
    taken: set[str],
    who: Element,
    exclude: Iterable[Element] = (),
) -> bool:
    """Is there another content element in the strip between `who` and its would-be host?"""
    return bool(_blockers(subject, between, els, who, exclude))


def _text_runs(els: list[Element], taken: set[str], page_h: float, settings: Settings) -> list[Group]:
    """Text runs, built geometrically so a reading order that interleaves columns cannot mix them.

    Elements are visited in reading order; each joins the open run whose last member sits directly
    above it (same column, small gap, nothing in between) or beside it on the same line, else
    opens a run. Headings always open a run (a heading right under another one joins it)."""
    split_gap = settings.chunking.chunk_split_gap_frac * page_h
    flow = [e for e in els if e.element_id not in taken]
    runs: list[list[Element]] = []
    for e in flow:
        best: tuple[float, list[Element]] | None = None
        for run in runs:
            d = _join_distance(run, e, els, split_gap, settings.chunking.chunk_max_chars)
            if d is not None and (best is None or d < best[0]):
                best = (d, run)
        if best is None:
            runs.append([e])
        else:
            best[1].append(e)
        taken.add(e.element_id)
    return [Group(members=r, block_type="text") for r in runs if r]


def _is_heading(e: Element) -> bool:
    return e.label in ("section_header", "title")


def _width(b: Sequence[float]) -> float:
    x0, _, x1, _ = b
    return x1 - x0


def _same_line(a: Sequence[float], b: Sequence[float]) -> bool:
    _, ay0, _, ay1 = a
    _, by0, _, by1 = b
    ov = min(ay1, by1) - max(ay0, by0)
    return ov >= 0.5 * min(ay1 - ay0, by1 - by0)


def _join_distance(
    run: list[Element], e: Element, els: list[Element], split_gap: float, max_chars: int
) -> float | None:
    """How far `e` is from continuing `run` (None: it cannot)."""
    last = run[-1]
    only_headings = all(_is_heading(m) for m in run)
    if _is_heading(e) and not (only_headings and e.label == last.label):
        return None  # a heading opens a section
    if (
        enabled("wide_title_split")
        and _is_heading(e)
        and _is_heading(last)
        and _width(last.bbox_pdf) > 1.6 * _width(e.bbox_pdf)
    ):
        return None  # a page-wide title over a column heading: not one heading block
    lb, eb = last.bbox_pdf, e.bbox_pdf
    short = max(lb[3] - lb[1], eb[3] - eb[1]) <= _SHORT_PT
    if short and enabled("grid_row") and _same_line(lb, eb) and not _is_heading(e) and not _is_heading(last):
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
    if not only_headings and not _is_heading(e):
        content = [m for m in run if not _is_heading(m)]
        if (
            enabled("list_text_split")
            and (e.label == "list_item") != (content[-1].label == "list_item")
            and "formula" not in (e.label, content[-1].label)
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
                part = sorted(c, key=lambda e: e.order)
                out.append(
                    Group(
                        members=part,
                        block_type=block_type_keeping_band(g.block_type, part),
                        indexed=g.indexed,
                    )
                )
    g.members = main
    g.sort_members()
    return [g, *out]


def _connected(members: list[Element], max_gap: float) -> list[list[Element]]:
    n = len(members)
    sets = DisjointSet(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if vertical_gap(members[i].bbox_pdf, members[j].bbox_pdf) <= max_gap:
                sets.merge(i, j)
    comps = [[members[i] for i in sorted(c)] for c in sets.subsets()]
    return sorted(comps, key=lambda c: min(m.order for m in c))


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
            g.block_type = block_type_keeping_band(g.block_type, g.members)
            out.append(g)
    n_unassigned = 0
    for e in elements:
        if e.element_id not in seen:
            n_unassigned += 1
            seen.add(e.element_id)
            out.append(
                Group(
                    members=[e],
                    block_type=block_type_keeping_band(e.label, [e]),
                    indexed=e.label not in BAND_LABELS,
                )
            )
    return out, n_unassigned
