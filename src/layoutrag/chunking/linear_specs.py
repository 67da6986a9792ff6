"""Spec values of a table that reaches layoutrag only as text: imported chunks.

A chunk brought in with `import-chunks` carries its table as one run of text - the cells read left
to right, row after row, header first ("Parameters Symbol Min. Typ. Max. Units Notes Nominal
Frequency F 1 ~ 204 MHz Frequency Tolerance FT ± 50 ppm @ -40~105℃ ...") - and no rows, cells or
page words. This reader:

1. finds the header's value columns (Min / Typ / Max, in their printed order); a text without them
   is not read;
2. finds where rows begin by the parameter vocabulary (`data/spec_parameters.tsv`): a row starts
   where a known name is printed (not after "vs.", "over", "@": there it is a condition); a row
   whose name the vocabulary does not know is not read - without layout nothing tells where it
   begins and ends;
3. reads each row's value groups - numbers, "-" for an empty cell, "±", "a ~ b", options "1.8 ,
   2.5 , 3.3" - into the header's columns, a group's unit from the unit printed after it, else the
   row's first unit that fits the named parameter; a group with a unit of another quantity
   ("8~12MHz" in an ESR row), after "@", in parentheses or relative to a supply ("90%Vdd") is a
   condition, not a value; the row ends at the next known name, at a word or a value printed
   straight after its Units cell, or at a value of another kind than its first (the next row's);
4. gives a row the sub-rows printed above its name (a merged name cell is printed at the middle of
   its sub-rows: "± 25 @ -40~85°C Frequency Stability ST ± 30 ppm @ -40~105°C ± 50 @ -40~125°C"; the first
   name's too when only a heading precedes them),
   and a group between two names to the row it keeps most centred (`_balance`); a "vs. load" /
   "vs. supply voltage" note makes a stability sub-row that stability;
5. hands the values to the spec stage's gate like any table's.

A value's cells carry the chunk's box (the finest box an imported chunk has); `row_bbox_pdf` is the
same box. What the reader gets right is measured on TXC datasheets it was not written on:
`benchmarks/spec_txc.py`, docs/EVALUATION.md §5.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from layoutrag.geometry import union_box
from layoutrag.records import BBox, Chunk, SpecCell, SpecValue
from layoutrag.specs import (
    fold,
    match_parameter,
    name_key,
    parameter_unit,
    parse_number,
    parse_unit,
    vocabulary_names,
)

__all__ = ["LINEAR_VERSION", "linear_table", "read_linear_table"]

LINEAR_VERSION = "linear-9"  # a change of this reader re-reads imported documents on their next spec stage
# linear-2: a whole-text-only name printed twice, the second time as the row's symbol ("APR APR ±50 - - ppm"),
# heads its row - the second was taken for a word inside a longer name and the first for a symbol after a word
# linear-3: the words after the numbers that follow a sub-row's unit ("- - 5 ns 10% → 90% Vdd Level") are its
# test condition, not the name of an unknown row; a sub-row printed above a name with the row's own unit over
# its columns is the name's; a later group with a unit of another quantity starts the next row
# linear-4: a sub-row above a name is of the row's kind of value when it is of the kind of the row's first group that
# prints a number ("± 3 1st Year Aging - ppm ± 15 15th Year": the Symbol column's "-" is no group of values); a number
# followed by an all-capital word is a value and its option's name ("15~700 HCSL"), not the number of a condition
# ("10 Years"). Tried and dropped: the text before a table's first name as that name's sub-rows (+3 development facts
# of one template, 3 wrong duty cycles of another)
# linear-5: a row's last group of plain numbers filling the columns two or more times over (its units cell printed
# before its values, so no unit closes the group) keeps its first columns, the rest are the next row's sub-rows
# linear-6: a sub-row printing one number without its empty cells' dashes takes the column its sibling sub-rows print
# their one number in, when they agree (a lone number is otherwise typical)
# linear-7: two names of one parameter joined by "/" or "&" ("Rise Time / Fall Time Tr / Tf") are one name cell, read
# as one row (its sub-rows printed above it were lost with the first half, which has no values of its own)
# linear-8: values printed before a table's first name, after nothing but a heading's words ("LVPECL / LVDS / HCSL Common
# Electrical Characteristics 15~2100 LVPECL / LVDS Nominal Frequency F MHz 15~700 HCSL"), are that name's sub-rows
# printed above it; after other rows' numbers (a row the vocabulary does not know: "High Level VOH - - +2.7 V Low Level
# VOL -0.3 - - Duty Cycle") they are not - linear-4's dropped attempt took those too
# linear-9: a name whose values print no unit, followed by a name of the same parameter, is the first line of one merged
# cell whose unit is printed once, at the second ("Phase Noise 1Hz - -86 - 10Hz - -119 - ... Phase Noise (10MHz) 1kHz
# - -157 - dBc/Hz"; "Frequency Range and Stability 1 ~ 156.25 @ 2.5 V Nominal Frequency F MHz 1 ~ 125 @ 1.8 V"): its
# values are the second name's sub-rows printed above it - they were dropped with the unitless row
# each rule's switch, off for an ablation (tests/test_specs_linear.py; benchmarks/spec_txc.py numbers with each:
# docs/EVALUATION.md §5)
REPEATED_NAMES = True  # linear-2
CONDITION_WORDS = True  # linear-3
NUMBERED_SHAPE = True  # linear-4
ACRONYM_OPTIONS = True  # linear-4
OVERFULL_ROWS = True  # linear-5
LONE_COLUMNS = True  # linear-6
JOINED_NAMES = True  # linear-7
FIRST_SUBROWS = True  # linear-8
UNITLESS_NAMES = True  # linear-9

_HEADER_RE = re.compile(
    r"\bmin(?:imum)?\.?\s+(?:(typ(?:ical)?|nom(?:inal)?)\.?\s+)?max(?:imum)?\.?"
    r"(?:\s+units?\.?)?(?:\s+(?:conditions?\s*(?:&|and)\s*notes?|test\s+conditions?|conditions?|notes?|remarks?))?",
    re.IGNORECASE,
)
# the notes printed under a table ("Note 1 : Inclusive of ...", "Note：The table shows ...")
_NOTES_RE = re.compile(r"\bnotes?\s*\d*\s*:", re.IGNORECASE)
# a number, alone or with a unit or range run into it: "8~12MHz", "-40~105°C", "±3ppb", "0.7VDD"
_GLUED_RE = re.compile(r"^([+\-±]?\d+(?:\.\d+)?)(?:~([+\-±]?\d+(?:\.\d+)?))?(.*)$")
_RELATIVE_RE = re.compile(r"%?\s*v(?:dd|cc|ss|ee)\b|^%v", re.IGNORECASE)
_DASHES = frozenset({"-", "–", "—", "−"})
_SEPARATORS = frozenset({",", "/", "or", "、"})
_BEFORE_CONDITION = frozenset({"vs", "vs.", "over", "at", "@", "of", "to", "with", "for", "and", "from"})
_MAX_NAME_WORDS = 7
_NAME_JOINERS = frozenset({"/", "&", "and", "、"})  # two names printed as one ("Rise Time / Fall Time")
# a bare number or percentage, as a sub-row's condition prints them ("10% → 90% Vdd Level")
_NUMBER_RE = re.compile(r"[+\-±]?\d+(?:\.\d+)?%?")
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z./'-]*")
# quantities that are never negative, so never printed as ±x (SI: frequency, capacitance, resistance,
# power, time, inductance)
_NON_NEGATIVE = frozenset({"Hz", "F", "ohm", "W", "s", "H"})


@dataclass
class _Group:
    """One value group of a row: its entries (None for a printed "-"), as printed."""

    entries: list[tuple[float, ...] | None] = field(default_factory=list)  # (x,) or a range (a, b)
    pm: list[bool] = field(default_factory=list)  # each entry printed with "±"
    options: bool = False
    unit: str = ""  # printed right after the group
    relative: bool = False
    text: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    start: int = -1  # the index of its first token

    def numbers(self) -> int:
        return sum(e is not None for e in self.entries)


def linear_table(text: str) -> bool:
    """Whether a chunk's text is a spec table read out as text (a Min ... Max header)."""
    return _HEADER_RE.search(fold(text)) is not None


def read_linear_table(chunk: Chunk, part: str) -> list[SpecValue]:
    """The spec values of a table chunk that has no rows, read from its text (module docstring)."""
    text = fold(chunk.native_text)
    heads = list(_HEADER_RE.finditer(text))
    if not heads:
        return []
    columns = ["min", "typ", "max"] if heads[0].group(1) else ["min", "max"]
    body = " ".join(text[m.end() : (heads[i + 1].start() if i + 1 < len(heads) else len(text))] for i, m in enumerate(heads))
    note = _NOTES_RE.search(body)
    if note:
        body = body[: note.start()]
    tokens = re.sub(r"(?<=\S),(?=\s|$)", " ,", body).split()  # "2.5, 3.3": the comma apart
    box = BBox(*union_box(chunk.bboxes_pdf)) if chunk.bboxes_pdf else BBox(0, 0, 0, 0)
    anchors = _anchors(tokens)
    rows: list[_Row] = []
    lead: list[str] = []  # the tokens after the previous row ended: sub-rows printed above this name
    if FIRST_SUBROWS and anchors:
        first = tokens[: anchors[0][0]]
        rest = _leading(first)
        if rest and not any(re.search(r"\d", t) for t in first[: len(first) - len(rest)]):
            lead = rest  # linear-8: values before the first name, after nothing but a heading's words
    joined: list[str] = []  # the first half of a name printed as two joined names
    named = [match_parameter(" ".join(tokens[start:end])) for start, end in anchors]  # each name's parameter, once
    for k, (start, end) in enumerate(anchors):
        stop = anchors[k + 1][0] if k + 1 < len(anchors) else len(tokens)
        between = tokens[end:stop]
        if JOINED_NAMES and k + 1 < len(anchors) and _joined(named[k], between, named[k + 1]):
            joined = [*joined, *tokens[start:stop]]
            continue  # linear-7: "Rise Time / Fall Time Tr / Tf": one name cell, read as one row with its sub-rows above
        after = named[k + 1][0] if k + 1 < len(anchors) else None
        row, lead = _row([*joined, *tokens[start:end]], between, _leading(lead), after)
        joined = []
        if row is not None:
            rows.append(row)
    if OVERFULL_ROWS:
        _split_overfull(rows, len(columns))
    _balance(rows)
    if LONE_COLUMNS:
        _place_lone_numbers(rows, len(columns))
    out: list[SpecValue] = []
    for r in rows:
        for g in [*r.above, *r.groups]:
            pid = _vs_parameter(r.pid, g.conditions)
            out.extend(_values(chunk, part, columns, pid, r.printed, r.symbol, g, r.unit, box))
    return out


@dataclass
class _Row:
    """One known row: its parameter, name and symbol as printed, unit, and its value groups printed
    above its name (`above`) and from its name on (`groups`)."""

    pid: str
    printed: str
    symbol: str
    unit: tuple[str, float, str]
    above: list[_Group]
    groups: list[_Group]
    adjacent: bool = False  # the next row's name follows this row's last group (nothing between)


def _balance(rows: list[_Row]) -> None:
    """A merged name cell is printed at the middle of its sub-rows, so a value group between two
    names - after the first row's condition, before the second's name - belongs to the row it keeps
    most centred: the trailing groups of a row move to the next row's top when that balances the
    two rows' sub-rows above and below their names better (ties stay). Only groups without a unit
    of their own and of the next row's kind of value move."""
    for p, n in zip(rows, rows[1:], strict=False):
        own = [g for g in n.groups if g.numbers() and not g.relative]
        if not p.adjacent or p.pid == n.pid or not own or own[0] is not n.groups[0] or len(p.groups) < 2:
            continue
        shape = any(n.groups[0].pm)
        movable = 0
        for g in reversed(p.groups[1:]):
            if g.unit or any(g.pm) != shape:
                break
            movable += 1

        # groups below a name: all but the one printed on the name's line (closed by the Units cell)
        below_p = len(p.groups) - (1 if p.groups[0].unit else 0)
        below_n = len(own) - (1 if own[0].unit else 0)

        costs = [abs(len(p.above) - (below_p - j)) + abs(len(n.above) + j - below_n) for j in range(movable + 1)]
        best = costs.index(min(costs))  # ties: the fewest moved
        if best:
            n.above = [*p.groups[-best:], *n.above]
            p.groups = p.groups[:-best]


def _joined(first: tuple[str, bool], between: list[str], second: tuple[str, bool]) -> bool:
    """Whether two known names - their (parameter, known) - joined by "/" or "&" ("Rise Time / Fall Time") are one
    name cell: nothing else between them and the same parameter."""
    if not between or len(between) > 2 or not all(t in _NAME_JOINERS for t in between):
        return False
    (a, known_a), (b, known_b) = first, second
    return known_a and known_b and a == b


def _split_overfull(rows: list[_Row], width: int) -> None:
    """A row's last group of plain numbers and dashes that fills the Min/Typ/Max columns two or more
    times over ("Operating Temperature Topr °C -40 - 105 2.375 2.5 2.625 Supply Voltage": the units cell
    printed before the values, so no unit closes the group) keeps its first columns - as many sub-rows
    as it prints above its name, at least one -; the rest are the next row's sub-rows printed above
    its name (linear-5)."""
    for p, n in zip(rows, rows[1:], strict=False):
        if not p.groups or not p.adjacent or p.pid == n.pid:
            continue
        g = p.groups[-1]
        k = len(g.entries)
        if g.unit or g.options or k < 2 * width or k % width or any(g.pm) or len(g.text) != k:
            continue
        if any(e is not None and len(e) != 1 for e in g.entries):
            continue
        if _numbered_kind(n.groups):
            continue  # the next row prints tolerances, these are plain numbers
        parts = [
            _Group(entries=g.entries[i : i + width], pm=g.pm[i : i + width], text=g.text[i : i + width], start=g.start + i)
            for i in range(0, k, width)
        ]
        keep = min(len(parts) - 1, max(1, len(p.above)))  # a merged name is printed amid its sub-rows (`_balance`)
        parts[keep - 1].conditions = g.conditions
        p.groups[-1:] = parts[:keep]
        n.above = [*parts[keep:], *n.above]


def _single_column(g: _Group, width: int) -> int | None:
    """The column of a group printing one plain number in full columns ("- - 50": 2), else None."""
    if len(g.entries) != width or g.options or any(g.pm):
        return None
    at = [i for i, e in enumerate(g.entries) if e is not None]
    if len(at) != 1 or len(g.entries[at[0]] or ()) != 1:
        return None
    return at[0]


def _place_lone_numbers(rows: list[_Row], width: int) -> None:
    """A sub-row printing one number without its empty cells' dashes ("40 >40MHz" under "- - 50 16~40MHz", "Fall
    Time Tf 0.5 ns" under "Rise Time Tr - - 0.5 ns") is in the column its name's other sub-rows - or the sub-rows
    of the row of the same parameter just before - print their one number in, when they all agree (linear-6); a
    lone number is otherwise a typical value."""
    if width < 2:
        return
    for k, r in enumerate(rows):
        family = [*r.above, *r.groups]
        if k and rows[k - 1].pid == r.pid:
            family += [*rows[k - 1].above, *rows[k - 1].groups]
        cols = {c for g in family if (c := _single_column(g, width)) is not None}
        if len(cols) != 1:
            continue
        col = cols.pop()
        for g in [*r.above, *r.groups]:
            if len(g.entries) == 1 and g.entries[0] is not None and len(g.entries[0]) == 1 and not any(g.pm) and not g.options:
                g.entries = [None] * col + g.entries + [None] * (width - col - 1)
                g.pm = [False] * width


def _leading(tokens: list[str]) -> list[str]:
    """What may be sub-rows of the next name: the tokens after the last run of two or more words
    (the name of a row the vocabulary does not know, or a note)."""
    last = 0
    run = 0
    condition = False  # the run is a sub-row's condition ("5 ns 10% → 90% Vdd Level")
    for i, t in enumerate(tokens):
        if _WORD_RE.fullmatch(t) and parse_unit(t) is None and not _vs_note(tokens, i - run):
            if not run:
                condition = CONDITION_WORDS and _after_unit_numbers(tokens, i)
            run += 1
            if run >= 2 and not condition:
                last = i + 1
        else:
            run = 0
    return tokens[last:]


def _after_unit_numbers(tokens: list[str], i: int) -> bool:
    """Whether the words from `i` follow numbers printed after a value's unit ("5 ns 10% → 90% Vdd
    Level": the condition of the sub-row "- - 5 ns"), not after a word ("To 90% of Vp-p")."""
    j = i
    while j > 0 and not _WORD_RE.fullmatch(tokens[j - 1]) and parse_unit(tokens[j - 1]) is None:
        j -= 1
    if j == i or _NUMBER_RE.fullmatch(tokens[i - 1]) is None or j == 0:
        return False
    return parse_unit(tokens[j - 1]) is not None and not tokens[j - 1][:1].isdigit()


_VS_RE = re.compile(r"(?:[a-z]{1,3} )?vs\.? ", re.IGNORECASE)


def _vs_note(tokens: list[str], i: int) -> bool:
    """Whether the words from `i` are a "vs." note ("ST VS Output Load", "vs. Supply Voltage"): what
    a stability sub-row is measured against, printed in the Notes column."""
    return _VS_RE.match(" ".join(tokens[i : i + 3]) + " ") is not None


def _norm(token: str) -> str:
    return name_key(token.strip(",;:"))


def _anchors(tokens: list[str]) -> list[tuple[int, int]]:
    """(first, past-last) token of every known parameter name printed as a row's name."""
    names = {n: whole for n, _, whole in vocabulary_names()}
    pids = {n: pid for n, pid, _ in vocabulary_names()}
    norm = [_norm(t) for t in tokens]
    out: list[tuple[int, int]] = []
    i = 0
    last_pid = ""
    while i < len(tokens):
        hit = 0
        for k in range(min(_MAX_NAME_WORDS, len(tokens) - i), 0, -1):
            phrase = " ".join(norm[i : i + k])
            whole = names.get(phrase)
            if whole is None:
                continue
            # a whole-text-only name ("frequency", "stability") heads a row only when a symbol or a
            # value follows it, not inside a longer name
            if whole and i + k < len(tokens) and re.match(r"[a-z]{3,}$", norm[i + k]) and not (
                REPEATED_NAMES and norm[i + k] == phrase
            ):
                continue  # (a name printed again as its own symbol, "APR APR ±50", heads its row)
            if whole and i > 1 and re.fullmatch(r"[A-Z]{1,3}", tokens[i - 1]) and _WORD_RE.fullmatch(tokens[i - 2]):
                continue  # "CS C Load", "CS R Load": a symbol after a word names the row, not the word
            hit = k
            break
        if not hit:
            i += 1
            continue
        pid = pids[" ".join(norm[i : i + hit])]
        if out and out[-1][1] == i and pid == last_pid:
            pass  # "Equivalent Series Resistance ESR": the same parameter's symbol, right after its name
        elif tokens[i][:1].isupper() and (i == 0 or norm[i - 1] not in _BEFORE_CONDITION):
            out.append((i, i + hit))
            last_pid = pid
        i += hit  # a name in a condition ("Over Operating Temp. Range") is passed over whole
    return out


def _row(name: list[str], rest: list[str], lead: list[str], after: str | None = None) -> tuple[_Row | None, list[str]]:
    """One row - its name's tokens, the tokens up to the next row's name, and `lead`: the tokens
    printed above the name since the row before ended (a merged name cell is printed between its
    sub-rows) - and the tokens after the row ended (the next row's `lead`). `after`: the parameter the
    next row's name names."""
    anchor = name  # the vocabulary name the row was found by, before the words after it join it
    symbol: list[str] = []
    i = 0
    # the rest of a longer name ("Frequency Stability Over Operating Temp. Range") and a symbol
    while i < len(rest) and not _valueish(rest[i]) and parse_unit(rest[i]) is None and not rest[i].startswith(("@", "(")):
        if rest[i] in (":", "："):
            i += 1
            continue
        symbol.append(rest[i])
        i += 1
    # words of the vocabulary's names before the symbol ("Output Voltage Range Vdiff", "Frequency
    # Stability vs. Load") are the rest of the name; more than three other words are a name too
    while symbol and _norm(symbol[0]) in _name_words():
        name = [*name, symbol.pop(0)]
    if len(symbol) > 3:
        name = name + symbol
        symbol = []
    printed = " ".join(name)
    groups, row_unit, stopped = _groups(rest[i:], printed)
    tail = rest[i + stopped :]
    if not row_unit:
        if UNITLESS_NAMES and after is not None and match_parameter(" ".join(anchor))[0] == after:
            return None, rest[i:]  # linear-9: its values are sub-rows of the next name, whose unit they share
        return None, tail
    pid, known = match_parameter(printed, " ".join(symbol), unit=row_unit[0])
    if not known or parameter_unit(pid) != row_unit[0]:
        return None, tail
    above, _, _ = _groups(lead, printed)
    # a sub-row above the name prints no unit of its own (the Units cell is merged with the name's)
    # and the same kind of value as the row (a tolerance "± 25" above "± 30 ppm")
    shape = any(groups[0].pm) if groups else None
    if NUMBERED_SHAPE:  # linear-4: the kind of the row's first group that prints a number ("Aging - ppm ± 15")
        shape = _numbered_kind(groups, shape)
    above = [g for g in above if _unit_above(g, row_unit) and (shape is None or any(g.pm) == shape)]
    sym = " ".join(symbol)
    row = _Row(pid, printed, "" if sym in _DASHES else sym, row_unit, above, groups, adjacent=stopped == len(rest) - i)
    return row, tail


def _unit_above(g: _Group, row_unit: tuple[str, float, str]) -> bool:
    """Whether a sub-row printed above a name may be the name's: no unit of its own, or (linear-3) the
    row's own printed unit over its columns ("- - 5 ns 10% → 90% Vdd Level" above "Rise Time Tr - - 4 ns";
    not a lone "90%" of a note)."""
    return not g.unit or (CONDITION_WORDS and g.unit == row_unit[2] and len(g.entries) >= 2)


def _vs_parameter(pid: str, conditions: list[str]) -> str:
    """A stability sub-row noted "vs. (output) load" or "vs. supply voltage" is that stability
    (IEC 60679-1's frequency/load and frequency/supply-voltage coefficients)."""
    if pid not in ("frequency_stability", "frequency_tolerance"):
        return pid
    text = " ".join(conditions).lower()
    if re.search(r"\bvs\.?\s+(?:output\s+)?load", text):
        return "stability_vs_load"
    if re.search(r"\bvs\.?\s+(?:supply|vdd|vcc|power)", text):
        return "stability_vs_supply"
    return pid


@cache
def _name_words() -> frozenset[str]:
    return frozenset(w for n, _, _ in vocabulary_names() for w in n.split() if re.fullmatch(r"[a-z][a-z.]+", w))


def _valueish(t: str) -> bool:
    return t in _DASHES or t in ("±", "~") or _GLUED_RE.match(t) is not None


def _groups(tokens: list[str], name: str) -> tuple[list[_Group], tuple[str, float, str] | None, int]:
    """The value groups of a row and its unit (canonical, factor, printed): the first unit printed
    in the row that fits the row's name, else none. After a group closed by its printed unit (the
    Units column), a further group is read only after a condition ("± 30 ppm @ -40~105°C , Note 1
    ± 50 @ -40~125°C": the sub-rows of one name); a word or a value printed straight after it starts
    the next row (a merged name cell puts the name between its sub-rows' values)."""
    groups: list[_Group] = []
    cur = _Group()
    row_unit: tuple[str, float, str] | None = None
    pending_pm = pending_range = False
    depth = 0
    words = 0
    skip_next = False
    closed_by_unit = False  # a group of the row ended with its printed unit
    after_condition = False  # a condition was printed since
    stopped = len(tokens)
    in_note = False  # in a "vs." note

    def close() -> None:
        nonlocal cur, pending_pm, pending_range
        if cur.entries or cur.relative:
            groups.append(cur)
        cur = _Group()
        pending_pm = pending_range = False

    def condition(t: str) -> None:
        nonlocal after_condition
        close()
        if groups:
            groups[-1].conditions.append(t)
        after_condition = True

    def opening() -> bool:
        """Whether a value may start a group here (False: the row has ended)."""
        return cur.entries != [] or not closed_by_unit or after_condition

    for n, t in enumerate(tokens):
        nxt = tokens[n + 1] if n + 1 < len(tokens) else ""
        if depth or t.startswith("("):
            depth = max(0, depth + t.count("(") - t.count(")"))
            condition(t)
            continue
        if skip_next:
            skip_next = False
            if _GLUED_RE.match(t) or t in _DASHES:
                condition(t)
                continue
        if t.startswith("@") or "=" in t or t.lower().rstrip(".") in ("note", "notes"):
            condition(t)
            skip_next = t == "@" or t.lower().startswith("note")
            continue
        u = parse_unit(t)
        if u is not None and not re.match(r"\d", t):
            if row_unit is None and _fits(name, u[0]):
                row_unit = (u[0], u[1], t)
            if cur.entries:
                cur.unit = t
                closed_by_unit = closed_by_unit or cur.numbers() > 0  # "Aging - ppm": the symbol's "-"
                close()
                after_condition = False
            elif groups:
                groups[-1].conditions.append(t)
            words = 0
            continue
        if t in _DASHES or t == "±" or t == "~":
            if not opening():
                stopped = n
                break
            if cur.start < 0:
                cur.start = n
            in_note = False
            if t in _DASHES:
                cur.entries.append(None)
                cur.pm.append(False)
            elif t == "±":
                pending_pm = True
            else:
                pending_range = True
            cur.text.append(t)
            continue
        if t.lower() in _SEPARATORS and cur.entries:
            cur.options = True
            cur.text.append(t)
            continue
        m = _GLUED_RE.match(t)
        if m:
            words = 0
            a, b, tail = m.group(1), m.group(2), m.group(3).strip()
            if tail and _RELATIVE_RE.search(tail):
                cur.relative = True
                condition(t)
                continue
            tu = parse_unit(tail) if tail else None
            if tail and (tu is None or not _fits(name, tu[0])):
                condition(t)  # "8~12MHz" in an ESR row, "3rd", "±5%": a condition or a note
                continue
            if (
                not tail
                and re.fullmatch(r"[A-Za-z][A-Za-z.]+", nxt)
                and parse_unit(nxt) is None
                and nxt.lower() not in _SEPARATORS
                and not (ACRONYM_OPTIONS and nxt.isupper())  # linear-4: "15~700 HCSL": a value and its option's name
            ):
                condition(t)  # "10 Years", "2 times": a number of a condition
                continue
            if not opening():
                stopped = n
                break
            if cur.start < 0:
                cur.start = n
            if tu is not None and row_unit is None:
                row_unit = (tu[0], tu[1], tail)
            pm = pending_pm or a.startswith("±")
            x = parse_number(a.lstrip("±"))
            y = parse_number(b.lstrip("±")) if b is not None else None
            if x is None or (b is not None and y is None):
                condition(t)
                continue
            if y is not None:
                cur.entries.append((x, y))
                cur.pm.append(pm or b.startswith("±"))
            elif pending_range and cur.entries and cur.entries[-1] is not None:
                cur.entries[-1] = (cur.entries[-1][0], x)
                cur.pm[-1] = cur.pm[-1] or pm
            else:
                cur.entries.append((x,))
                cur.pm.append(pm)
            pending_pm = pending_range = False
            after_condition = in_note = False
            cur.text.append(t)
            if tail:
                cur.unit = tail
                close()
                closed_by_unit = True
            continue
        # a word: ends the group; after the row's Units column it starts the next (unknown) row
        close()
        if _WORD_RE.fullmatch(t) and (in_note or _vs_note(tokens, n)):
            in_note = True
            condition(t)
            continue
        if closed_by_unit and _WORD_RE.fullmatch(t):
            stopped = n
            break
        if _WORD_RE.fullmatch(t):
            words = words + 1 if (words or t[:1].isupper()) else 0
            if words >= 2 and row_unit is not None and groups:
                stopped = n - 1
                break
        else:
            words = 0
        if groups:
            groups[-1].conditions.append(t)
    close()
    # a value of another kind than the row's first starts the next row's sub-rows
    shape = _numbered_kind(groups)
    for i, g in enumerate(groups):
        if i and g.numbers() and any(g.pm) != shape and g.start >= 0:
            groups, stopped = groups[:i], min(stopped, g.start)
            break
        # linear-3: a later group closed by a unit of another quantity than the row's ("Output Voltage Low
        # VoL - - 10%Vdd V - - 5 ns"): the next row's sub-row, printed above its name
        gu = parse_unit(g.unit) if g.unit else None
        if CONDITION_WORDS and i and row_unit is not None and gu is not None and gu[0] != row_unit[0] and g.start >= 0:
            groups, stopped = groups[:i], min(stopped, g.start)
            break
    return groups, row_unit, stopped


def _numbered_kind(groups: list[_Group], default: bool | None = None) -> bool | None:
    """Whether the first group that prints a number prints tolerances (±), else `default`."""
    return next((any(g.pm) for g in groups if g.numbers()), default)


def _fits(name: str, unit: str) -> bool:
    """Whether a unit can be the value's of a row so named (its vocabulary parameter's unit)."""
    pid, known = match_parameter(name, unit=unit)
    if not known:
        return False
    want = parameter_unit(pid)
    return bool(want) and want == unit


def _values(
    chunk: Chunk,
    part: str,
    columns: list[str],
    pid: str,
    printed: str,
    symbol: str,
    g: _Group,
    row_unit: tuple[str, float, str],
    box: BBox,
) -> list[SpecValue]:
    """The values one group holds: one per option, else one with its numbers in the columns."""
    if g.relative or not g.numbers():
        return []
    if any(g.pm) and row_unit[0] in _NON_NEGATIVE:
        return []  # "± 3" in an ESR row: a value of another row (its name printed after it)
    unit, factor, unit_printed = row_unit
    if g.unit:
        u = parse_unit(g.unit)
        if u is None or u[0] != unit:
            return []
        factor, unit_printed = u[1], g.unit
    text = " ".join(g.text)
    entries = list(g.entries)
    pms = list(g.pm)
    if not symbol and entries and entries[0] is None and len(entries) - 1 in (1, len(columns)):
        entries, pms = entries[1:], pms[1:]  # the Symbol column's "-" ("Aging - ± 3 ppm")
    readings: list[tuple[dict[str, float], str]] = []  # ({role: number}, cell role)
    present = [(e, p) for e, p in zip(entries, pms, strict=True) if e is not None]
    if g.options or (len(present) == 2 and all(len(e) == 1 for e, _ in present) and all(p for _, p in present) and len(entries) == 2):
        for e, p in present:
            for x in e:  # "± 0.5 ~ ± 2.5": the ends of what is offered
                readings.append(({"min": -abs(x), "max": abs(x)} if p else {"typ": x}, "value"))
    elif len(present) == 1 and len(present[0][0]) == 2:
        (a, b), p = present[0]
        if p:
            for x in (a, b):
                readings.append(({"min": -abs(x), "max": abs(x)}, "value"))
        else:
            readings.append(({"min": a, "max": b}, "value"))
    elif len(entries) == 1:
        (e, p) = present[0]
        readings.append(({"min": -abs(e[0]), "max": abs(e[0])} if p else {"typ": e[0]}, "value"))
    elif len(entries) == len(columns) and all(e is None or len(e) == 1 for e in entries):
        nums = {c: e[0] for c, e in zip(columns, entries, strict=True) if e is not None}
        if any(pms):  # "±200 - ±500": the widest tolerance
            w = max(abs(x) for x in nums.values())
            readings.append(({"min": -w, "max": w}, "value"))
        else:
            readings.append((nums, "columns"))
    elif len(entries) == len(columns) and not any(pms) and sum(e is not None and len(e) == 2 for e in entries) == 1:
        # "- 0.15~0.2 0.25": a column's cell printed as a range - one reading at each end
        at = next(i for i, e in enumerate(entries) if e is not None and len(e) == 2)
        for end in entries[at] or ():
            nums = {c: (end if i == at else e[0]) for i, (c, e) in enumerate(zip(columns, entries, strict=True)) if e is not None}
            readings.append((nums, "columns"))
    else:
        return []  # numbers that do not fill the columns one to one: not guessed
    out: list[SpecValue] = []
    for nums, how in readings:
        scaled = {k: _scale(v, factor) for k, v in nums.items()}
        roles = list(scaled) if how == "columns" else ["value"]
        out.append(
            SpecValue(
                doc_id=chunk.doc_id,
                part=part,
                parameter=pid,
                parameter_printed=printed,
                known=True,
                symbol=symbol if symbol not in _DASHES else "",
                conditions=" ".join(g.conditions),
                min=scaled.get("min"),
                typ=scaled.get("typ"),
                max=scaled.get("max"),
                unit=unit,
                unit_printed=unit_printed,
                value_text=text,
                page=chunk.page,
                row_bbox_pdf=box,
                cells=[SpecCell(role=r, text=text, bbox_pdf=box) for r in roles],
                chunk_id=chunk.chunk_id,
            )
        )
    return out


def _scale(v: float, factor: float) -> float:
    return float(f"{v * factor:.12g}")
