"""Spec values from a document's table chunks -> ``docs/{doc_id}/specs.json`` (the spec stage).

A table is read when its header names what its columns hold:

- a *long* table (electrical characteristics, absolute maximum ratings): a parameter column and
  value columns (Min. / Typ. / Max., or one merged "Value" / "Rating" column, sub-headers under a
  merged "Value" allowed), with optional Symbol, Unit and Conditions columns. One value per row; a
  row with an empty parameter cell continues the parameter above it (ESR per frequency band).
- a *wide* table (ordering information): a part-number column and columns named by a parameter
  ("Frequency", "Stability", "Temp. range"); one value per cell, for the part of its row.

A table continued over a page break is one chunk (chunking.tables) and keeps its header; a header
row repeated on the next page is skipped; a continuation the chunker kept apart (a chunk of its own on
the next page, no header, the same section and columns) is read under the header before it
(specs-25). Every value keeps its printed text, its row box and the box of each cell it was read
from: the rows' ``cell_boxes`` (chunk-11 on), else the cell's words found in the row. Numbers, units
and parameter names are read by :mod:`layoutrag.specs`.

Resumable: ``DocSpecs.key`` = the chunks' key + ``SPEC_STAGE_VERSION`` + a hash of the parameter
and unit vocabularies.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import pymupdf

from layoutrag import specs as specs_mod
from layoutrag.chunking.card import is_package_code, product_type_in
from layoutrag.chunking.linear_specs import LINEAR_VERSION, linear_table, read_linear_table
from layoutrag.errors import NotFoundError
from layoutrag.geometry import union_box
from layoutrag.records import (
    BBox,
    Chunk,
    DocChunks,
    DocSpecs,
    Document,
    DocumentCard,
    SpecCell,
    SpecValue,
    TableRow,
    Word,
)
from layoutrag.specs import (
    MODIFIER_WORDS,
    POWER_TYPES,
    ParsedValue,
    as_ratio,
    fold,
    match_parameter,
    parameter_unit,
    parse_unit,
    parse_value,
    printed_id,
    split_footnotes,
)
from layoutrag.storage import DataDir, atomic_write_json, check_id
from layoutrag.vocab import package_prefixes

__all__ = [
    "SPEC_STAGE_VERSION",
    "chunk_specs",
    "extract_specs",
    "load_doc_specs",
    "imported_specs_and_save",
    "specs_and_save",
    "specs_json",
]

SPEC_STAGE_VERSION = "specs-47"  # specs-47: a series cut back to its digits names a part only with a letter left (stem-letters); specs-46: part-ranges (each part's operating range under a TMIN to TMAX placeholder)

_ROLE_RES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (role, re.compile(pat, re.IGNORECASE))
    for role, pat in (
        ("min", r"^(min|minimum|最小值?|下限)\.?$"),
        ("typ", r"^(typ|typical|nom|nominal|典型值?|标准值)\.?$"),
        ("max", r"^(max|maximum|最大值?|上限)\.?$"),
        ("unit", r"^(units?|单位)\.?$"),
        ("symbol", r"^(symbols?|sym\.?|符号|代号)$"),
        (
            "conditions",
            r"^((test )?conditions?|conditions? ?/ ?notes?|notes?|remarks?|comments?|"
            r"(测试)?条件|备注|说明)\b.*$",
        ),
        (
            "value",
            r"^(values?|ratings?|max(imum)? ratings?|specs?|specifications?|limits?|spec\.? value|"
            r"规格|规格值|参数值|数值|额定值|特性值|标称值)\.?( ?\(.*\))?$",
        ),
        (
            "parameter",
            r"^(parameters?|items?|characteristics?|descriptions?|test items?|specification items?|"
            r"names?|parameter ?/ ?item|items? ?/ ?type|参数|参数名称|项目|特性|名称)\.?$",
        ),
        (
            "part",
            r"^(part ?(number|no\.?|#)|ordering (code|number|part number)|order(ing)? code|model( number)?|"
            r"型号|料号|订货号|产品型号)$",
        ),
    )
)
_VALUE_ROLES = ("min", "typ", "max", "value")


@cache
def _vocab_hash() -> str:
    """The parameter and unit vocabularies the values were read with: a change re-reads them."""
    h = hashlib.sha256()
    for name in ("spec_parameters.tsv", "spec_units.tsv"):
        h.update((resources.files("layoutrag") / "data" / name).read_bytes())
    return h.hexdigest()[:12]


def specs_json(data: DataDir, doc_id: str) -> Path:
    """docs/{id}/specs.json; for a document only imported (no docs/{id}/), imported/specs/{id}.json."""
    if not data.doc_dir(doc_id).is_dir() and (data.imported / f"{doc_id}.json").exists():
        return data.imported / "specs" / f"{doc_id}.json"
    return data.doc_dir(doc_id) / "specs.json"


def imported_specs_and_save(data: DataDir, doc_id: str) -> int:
    """The spec stage for an imported document (imported/{id}.json -> imported/specs/{id}.json):
    its table chunks with rows are read like an ingested document's, its tables given only as text
    by `linear_specs`. Skipped when the stored specs were made from the same chunks by this stage."""
    cpath = data.imported / f"{check_id(doc_id, 'document')}.json"
    if not cpath.exists():
        raise NotFoundError(f"no imported chunks for document {doc_id}")
    raw = cpath.read_bytes()
    key = f"imported-{hashlib.sha256(raw).hexdigest()[:16]}+{SPEC_STAGE_VERSION}+{LINEAR_VERSION}+{_vocab_hash()}"
    path = data.imported / "specs" / f"{doc_id}.json"
    if path.exists():
        try:
            if DocSpecs.model_validate_json(path.read_text(encoding="utf-8")).key == key:
                return -1
        except Exception:  # a corrupt or outdated file is rebuilt
            pass
    dc = DocChunks.model_validate_json(raw)
    withheld: list[SpecValue] = []
    specs = extract_specs(dc.card, dc.chunks, None, withheld)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_json(path, DocSpecs(key=key, doc_id=doc_id, specs=specs, withheld=withheld, card=dc.card))
    return len(specs)


def load_doc_specs(data: DataDir, doc_id: str) -> DocSpecs:
    path = specs_json(data, doc_id)
    if not path.exists():
        raise NotFoundError(f"no specs for document {doc_id}")
    return DocSpecs.model_validate_json(path.read_text(encoding="utf-8"))


def specs_and_save(data: DataDir, doc_id: str) -> int:
    """Read the spec values of one chunked document into ``specs.json``; returns the count. Skips
    the work when the stored specs were made from the current chunks by this stage version."""
    cpath = data.chunks_json(doc_id)
    if not cpath.exists():
        raise NotFoundError(f"no chunks for document {doc_id}")
    dc = DocChunks.model_validate_json(cpath.read_text(encoding="utf-8"))
    key = f"{dc.key}+{SPEC_STAGE_VERSION}+{_vocab_hash()}"
    path = specs_json(data, doc_id)
    if path.exists():
        try:
            old = load_doc_specs(data, doc_id)
            if old.key == key:
                return len(old.specs)
        except Exception:  # a corrupt or outdated file is rebuilt
            pass
    words_cache: dict[int, list[Word]] | None = None

    def words(page: int) -> list[Word]:
        nonlocal words_cache
        if words_cache is None:
            words_cache = {}
            dpath = data.document_json(doc_id)
            if dpath.exists():
                doc = Document.model_validate_json(dpath.read_text(encoding="utf-8"))
                words_cache = {p.page: p.words for p in doc.pages}
        return words_cache.get(page, [])

    withheld: list[SpecValue] = []
    specs = extract_specs(dc.card, dc.chunks, words, withheld)
    atomic_write_json(path, DocSpecs(key=key, doc_id=doc_id, specs=specs, withheld=withheld, card=dc.card))
    return len(specs)


# --------------------------------------------------------------------------- one document
def default_part(card: DocumentCard) -> str:
    """The part a long table applies to: the document's series, else its first part number."""
    if card.series:
        return card.series[0]
    if card.part_numbers:
        return card.part_numbers[0]
    return Path(card.file_name).stem or card.doc_id


PRINTED_PART = True  # specs-11; off for an ablation (benchmarks/spec_rerun.py --without printed-part)
# specs-47: a series cut back to its digits is a name only with a letter left ("OPA130" of OPA130P); "6" of TXC's
# "6U Series" is any number the text prints (off: --without stem-letters)
STEM_LETTERS = True


def printed_part(card: DocumentCard, chunks: list[Chunk]) -> str:
    """`default_part`, as a name the document prints: the card's series are part-number stems for
    search ("OPA130P" of OPA130PA, a prefix that also reaches OPA130PA-typed queries), and a stem the
    document never prints alone is no name to give a value. The first series printed in the chunks'
    text (printed only inside one code, that code: BTA16-600B, not BTA16); else one cut back to
    its digits when that is printed ("OPA130"); else the first part number of the first series
    (RB168MM-40TF of "RB168M"); else as `default_part`. A series or part number that is a package
    code ("TO-220" of a title's "TO-220/TO-220FP") names no part."""
    card = _naming_card(card)
    text = " ".join(c.native_text for c in chunks if c.native_text)
    tokens: set[str] = set()
    for t in re.findall(r"[A-Za-z0-9][A-Za-z0-9-]*", text.upper()):
        pieces = t.split("-")
        tokens.update("-".join(pieces[: k + 1]) for k in range(len(pieces)))  # BTA16 of BTA16-600B
    for s in card.series:
        if s.upper() in tokens:
            base = _base_name(s, card.series, tokens, text, chunks)
            if base:
                return base
            name = _whole_code(s, text) if WHOLE_CODE else s
            return _own_number(name, card, text) if name == s else name
        if (
            s[-1:].isalpha()
            and s[:-1].upper() in tokens
            and re.search(r"\d$", s[:-1])
            and (not STEM_LETTERS or re.search(r"[A-Za-z]", s[:-1]))
        ):
            if FEW_PRINTS:
                # the stem cut back is a family prefix printed once or twice (CH32 of CH32X in a naming
                # rule) where the part's own number is printed throughout (CH32X035): that number
                own = next((p for p in card.part_numbers if p.upper().startswith(s.upper())), "")
                if own and _prints(own, text) > _prints(s[:-1], text):
                    return own
            return s[:-1]
    if card.series:
        # no series printed: the first part number of the first series, else the series as before
        first = card.series[0].upper()
        return next((p for p in card.part_numbers if p.upper().startswith(first)), card.series[0])
    if not card.part_numbers and FILE_NAME_PART:
        return _printed_file_token(card.file_name, text) or default_part(card)
    return default_part(card)


OWN_NUMBERS = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without own-numbers)


def _own_number(series: str, card: DocumentCard, text: str) -> str:
    """A series printed alone where a part number of the card that begins with it is printed more than
    twice as often - a family prefix ("W25N" of W25N01GV, printed three times against 43) beside the
    part's own number: the shortest such number (`FEW_PRINTS` does the same for a series cut back to
    its digits)."""
    if not OWN_NUMBERS:
        return series
    alone = _prints(series, text)
    own = [
        p
        for p in card.part_numbers
        if p.upper().startswith(series.upper()) and len(p) > len(series) and _prints(p, text) > 2 * alone
    ]
    return min(own, key=lambda p: (len(p), -_prints(p, text))) if own else series


NO_PACKAGES = True  # specs-16; off for an ablation (benchmarks/spec_rerun.py --without no-packages)


def _naming_card(card: DocumentCard) -> DocumentCard:
    """The card with the series and part numbers that can name a part: not package codes ("TO-220")."""
    if not NO_PACKAGES:
        return card
    return card.model_copy(
        update={
            "series": [s for s in card.series if not is_package_code(s)],
            "part_numbers": [p for p in card.part_numbers if not is_package_code(p)],
        }
    )

FEW_PRINTS = True  # specs-14; off for an ablation (benchmarks/spec_rerun.py --without few-prints)
BASE_NAMES = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without base-names)
# specs-25: a table heading columns with the lettered code beside the base ("CA3306, CA3306A | CA3306C"
# over Min / Typ / Max) heads one grade's columns, not the document's: the base stays the default part
BASE_HEADS = True  # off for an ablation (benchmarks/spec_rerun.py --without base-heads)
_MTM_RE = re.compile(r"\b(?:min|typ|max)\b", re.IGNORECASE)


def _base_name(s: str, series: list[str], tokens: set[str], text: str, chunks: list[Chunk]) -> str:
    """A series that is another listed series with a package or grade letter or two after it
    (DS1302S of DS1302, PCF8563T of PCF8563), where the document prints that base name at least as
    often and no spec table prints the lettered code in its top rows (a grade heading the columns:
    "AD824A | Min Typ Max") unless it prints the base there too (one grade's columns among others':
    "CA3306, CA3306A | CA3306C", `BASE_HEADS`): the base - the name the document's tables are printed
    for, the lettered code one of its variants. "" when there is none."""
    if not BASE_NAMES:
        return ""
    heads = " ".join(
        r.text
        for c in chunks
        if c.block_type == "table" and _MTM_RE.search(" ".join(r.text for r in c.rows[:4]))
        for r in c.rows[:4]
    )
    for b in series:
        rest = s.upper()[len(b):] if s.upper().startswith(b.upper()) else ""
        if _prints(s, heads) and not (BASE_HEADS and _prints(b, heads)):
            continue  # a table heads its columns with the lettered code alone: the document's part
        if (
            len(b) >= 5
            and re.fullmatch(r"[A-Z]{1,2}", rest)
            and re.search(r"\d$", b)
            and b.upper() in tokens
            and _prints(b, text) >= _prints(s, text)
        ):
            return b
    return ""


def _prints(name: str, text: str) -> int:
    """How often `text` prints `name` as a whole word (a code of it before a hyphen counting)."""
    return len(re.findall(rf"(?<![A-Z0-9]){re.escape(name.upper())}(?![A-Z0-9])", text.upper()))


ROW_PARTS = True  # specs-14; off for an ablation (benchmarks/spec_rerun.py --without row-parts)
WHOLE_CODE = True  # specs-14; off for an ablation (benchmarks/spec_rerun.py --without whole-code)


def _whole_code(stem: str, text: str) -> str:
    """A series printed only inside one ordering code ("BTA16" only as "BTA16-600B", "NDB7775" only
    as "NDB7775-07"): that code, the name the document gives the part; else the series."""
    up = text.upper()
    if re.search(rf"(?<![A-Z0-9-]){re.escape(stem.upper())}(?![A-Z0-9-])", up):
        return stem
    codes = {m.group(0) for m in re.finditer(rf"(?<![A-Z0-9-]){re.escape(stem.upper())}-[A-Z0-9]+(?![A-Z0-9])", up)}
    return codes.pop() if len(codes) == 1 else stem


FILE_NAME_PART = True  # specs-13; off for an ablation (benchmarks/spec_rerun.py --without file-name-part)


def _printed_file_token(file_name: str, text: str) -> str:
    """A document whose card found no part name (a scan, a catalogue page): the first piece of its
    file name that looks like a part name (four or more characters with a digit, not a quantity)
    and that the document prints, as printed - "TEN 8" of Traco_TEN8.pdf, "8253" of
    Intel_8253_scan.pdf, "µA78H05" of Fairchild_uA78H05_...pdf (u for µ, a space between letters
    and digits allowed). "" when none is printed (the file name then stays the part)."""
    folded = fold(text)
    for piece in re.split(r"[_\s]+", Path(file_name).stem):
        for t in (piece, *piece.split("-")):
            t = fold(t).replace("µ", "u")
            if len(t) < 4 or not re.search(r"\d", t) or ((parse_value(t) or ParsedValue()).unit):
                continue
            pat = "".join(
                ("[uµ]" if ch in "uU" else re.escape(ch)) + (r"\s?" if k + 1 < len(t) and t[k].isdigit() != t[k + 1].isdigit() else "")
                for k, ch in enumerate(t)
            )
            m = re.search(rf"(?<![A-Za-z0-9]){pat}(?![A-Za-z0-9])", folded, re.IGNORECASE)
            if m:
                return m.group(0)
    return ""


_PER_YEAR_RE = re.compile(r"/\s*y(?:ea)?r\.?$", re.IGNORECASE)
LINEAR_TABLES = True  # imported tables given as text (linear_specs); off for an ablation


def extract_specs(
    card: DocumentCard,
    chunks: list[Chunk],
    words: Callable[[int], list[Word]] | None = None,
    withheld: list[SpecValue] | None = None,
) -> list[SpecValue]:
    """The values of a document's table chunks that pass the confidence gate (`_doubt`); the
    doubted ones (their `doubt` set) go to `withheld` when a list is given, else are dropped."""
    out: list[SpecValue] = []
    part = printed_part(card, chunks) if PRINTED_PART else default_part(card)
    named = _naming_card(card)
    parts = (*named.series, *named.part_numbers)
    seen: set[tuple[Any, ...]] = set()  # a line two chunks hold (a list and the text around it) is read once

    def _key(v: SpecValue) -> tuple[Any, ...]:
        # its numbers whatever their roles: a figure's ratings list and a table chunk cut from it read
        # one line twice, the table without the ratings heading above it ("300°C" as typ, not max)
        nums = sorted({x for x in (v.min, v.typ, v.max) if x is not None}) if FIGURE_LEADERS else [v.min, v.typ, v.max]
        return (v.page, v.part, *(round(x) for x in v.row_bbox_pdf), *nums, v.unit)

    above: Chunk | None = None  # the reading unit before `c` (`_heading_above`)
    headed: Chunk | None = None  # the last table chunk read, when it printed a header (`_continued`)
    for c in chunks:
        prev, above = above, (c if c.unit == "unit" else above)
        if not c.rows and not c.regions and LINEAR_TABLES and linear_table(c.native_text):
            values = read_linear_table(c, part)  # an imported table given as text only (no layout)
        elif c.block_type in ("text", "list") and c.unit == "unit":
            values = _text_list_specs(card.doc_id, part, c, words, parts)
        elif c.block_type == "figure" and FIGURE_TABLES and words is not None and c.unit == "unit":
            values = []
            for heading, rows in _figure_tables(c, words):
                read = _read_rows(card.doc_id, part, c, rows, words, parts)
                for v in read:
                    if v.table != "ordering" and _ratings_heading(heading):
                        v.table = "ratings"
                values.extend(read)
            if not values and FIGURE_LEADERS and LEADER_TEXT and _leader_lines(c.native_text):
                # a ratings list the layout model took for (a part of) a figure: read as a text chunk's
                listed = _leader_text(c, words)
                values = _read_rows(card.doc_id, part, c, listed, words, parts) if listed else []
                kinds = _kind_heads(c, words)  # its own heading lines say ratings or conditions, line by line
                for v in values:
                    if _kind_above(v, kinds) is False:
                        v.table = "ratings"
        elif c.block_type != "table" or not c.rows:
            continue
        else:
            heads = _continued(c, headed)
            # a continuation whose first row prints no name goes on with the named row above the page break
            # ("| | VDD = 2.0V | 400 | 600" under IDD2's lines): read under that row, keeping this chunk's own values
            tail = _named_tail(headed) if heads and headed is not None and c.rows[0].cells and not c.rows[0].cells[0].strip() else []
            values = _table_specs(card.doc_id, part, c.model_copy(update={"rows": [*heads, *tail, *c.rows]}) if heads else c,
                                  words, parts)
            if tail:
                pages = {r.page for r in c.rows}
                values = [v for v in values if v.page in pages]
            if c.rows and any(_is_header_row(r) for r in c.rows):
                headed = c
            elif not heads:
                headed = None
            titled = _caption_part(c, prev, parts) if TITLE_PARTS and parts else None
            if titled and titled != part:
                for v in values:
                    if v.part == part:
                        v.part = titled
            _condition_parts(values, part, parts)  # the row's own conditions, before the caption's join them
            if TABLE_CONDITIONS:
                _add_table_conditions(values, _table_conditions(c, words))
            _add_table_conditions(values, _conditions_above(c, prev))
        ratings = _in_ratings(c) or _heading_above(c, prev)
        block = _block_of(c, card)
        for v in values:
            if block and v.parameter in _BLOCK_SUPPLY_IDS:
                _block_supply(v, block)
            if v.table != "ordering" and ratings:
                v.table = "ratings"
            if _PER_YEAR_RE.search(v.unit_printed) and v.unit == "ppm":
                v.parameter, v.known = "aging", True  # a frequency change per year is aging (IEC 60679-1)
        if ratings and words is not None and values and _CONDITIONS_RE.search(c.native_text):
            _conditions_apart(c, values, words)
        _category_names(values)
        _temperature_items(values)
        _rating_limits(values)
        _named_bounds(values)
        _power_inputs(values, card)
        _amplifier_inputs(values, card)
        _turn_on_times(values, card)
        _gain_decibels(values)
        kept, doubted = _gate(_with_twins(values))
        out.extend(v for v in kept if _key(v) not in seen)
        seen.update(_key(v) for v in kept)
        if withheld is not None:
            withheld.extend(doubted)

    def gated(values: list[SpecValue]) -> None:
        kept, doubted = _gate(values)
        out.extend(kept)
        if withheld is not None:
            withheld.extend(doubted)

    # the text-line readers, after the tables: each reads what no reader before it gave
    if PART_RANGES and words is not None:
        gated(_part_ranges(card.doc_id, chunks, words, out))
    if NAMED_TEMPERATURES and words is not None:
        gated(_named_temperatures(card.doc_id, part, chunks, words, out))
    return out


NAMED_TEMPERATURES = True  # specs-44; off for an ablation (benchmarks/spec_rerun.py --without named-temperatures)
# the two temperature ranges every component datasheet states - where it works, where it is stored - found by
# no table reader (a ratings list the layout model split into a names block and a values block, a spec sheet
# whose table rows came out scrambled, a line under a ratings list): read from the page's text lines, a line
# that begins with the name and the first °C range printed after it on that line or the next three
_TEMPERATURE_IDS = ("operating_temperature", "storage_temperature")
_LINE_LEAD_RE = re.compile(r"^\s*(?:[•·▪■◆●○*\-–—]\s*|\(?\d{1,2}(?:\.\d{1,2})*[.)]?\s+)?")
_NOT_A_LABEL_RE = re.compile(r"^(?:over|across|at|in|within|for|from|throughout|under|the|a|an|and|or|to)\b|^[(（]", re.IGNORECASE)
_NAME_END_RE = re.compile(r"[:：]|(?<![A-Za-z])[-+−–]?\d")


def _page_lines(ws: list[Word]) -> list[tuple[str, list[Word]]]:
    """A page's text lines in the text layer's order: (text, words)."""
    out: list[tuple[str, list[Word]]] = []
    key: tuple[int, int] | None = None
    for w in ws:
        if (w.block, w.line) != key:
            out.append(("", []))
            key = (w.block, w.line)
        t, got = out[-1]
        out[-1] = (f"{t} {w.text}".strip(), [*got, w])
    return out


def _label_lines(
    units: list[Chunk], words: Callable[[int], list[Word]]
) -> Iterator[tuple[int, list[tuple[str, list[Word]]], int, str, str]]:
    """Each text line of the pages the reading units cover, for the readers that look for a name at a line's start:
    (page, the page's lines, the line's index, the line folded, the line folded without a leading bullet or item
    number)."""
    for page in sorted({r.page for c in units for r in c.all_regions()}):
        lines = _page_lines(words(page))
        for i, (text, _) in enumerate(lines):
            folded = fold(text)
            yield page, lines, i, folded, _LINE_LEAD_RE.sub("", folded, count=1)


def _named_temperatures(
    doc_id: str, part: str, chunks: list[Chunk], words: Callable[[int], list[Word]], have: list[SpecValue]
) -> list[SpecValue]:
    """The operating / storage temperature range of a document whose tables gave none (`NAMED_TEMPERATURES`): a
    text line that begins with the parameter's name (after a bullet or an item number; not a condition's "over
    the operating temperature range"), then the first range in °C printed after the name on that line or on the
    next three lines - lines that print no value are passed over (a note mark, the parts a range is for), another
    parameter's name, a value in another unit or an "=" (a condition, an ordering code's option) ends the search. The name's chunk says ratings or
    characteristics; the cell is the range's words."""
    missing = [p for p in _TEMPERATURE_IDS if not any(v.parameter == p for v in have)]
    if not missing:
        return []
    units = [c for c in chunks if c.unit == "unit"]
    out: list[SpecValue] = []
    for page, lines, i, folded, head in _label_lines(units, words):
        ws = lines[i][1]
        if not head or _NOT_A_LABEL_RE.match(head) or "=" in head:
            continue
        end = _NAME_END_RE.search(head)
        name = head[: end.start()].strip() if end else head.strip()
        pid, known = match_parameter(name, unit="°C")
        if not known or pid not in missing or len(name.split()) > 8:
            continue
        tail = head[end.start():].lstrip(":： ") if end else ""
        found = None
        for j, cand in enumerate([tail, *(fold(t) for t, _ in lines[i + 1 : i + 4])]):
            if "=" in cand:
                break  # a condition ("TA = -40 to 85 °C") or a coded option ("I = -40°C to +85°C"), not the range
            stop = _NAME_END_RE.search(cand)
            label = (cand[: stop.start()] if stop else cand).strip()
            if j and label and match_parameter(label)[1]:
                break  # another parameter's line
            if not cand or not re.search(r"\d", cand):
                continue
            pv = parse_value(cand)
            if pv is None or pv.empty:
                continue
            if pv.unit != "°C":
                break
            if pv.min is not None and pv.max is not None and pv.min < pv.max:
                found = (j, cand, pv)
            break
        if found is None:
            continue
        j, cand, pv = found
        vws = ws if j == 0 else lines[i + j][1]
        if j == 0:
            lead = len(folded.split()) - len(head.split())  # a bullet's or an item number's words
            vws = [w for w in ws if w.bbox_pdf.x0 >= _name_right(ws[lead:], name)] or ws
        box = BBox(*union_box(w.bbox_pdf for w in vws))
        row = BBox(*union_box([*(w.bbox_pdf for w in ws), box]))
        c = _chunk_at(units, page, ws[0].bbox_pdf)
        out.append(
            SpecValue(
                doc_id=doc_id, part=part, parameter=pid, parameter_printed=name, known=True,
                min=pv.min, typ=pv.typ, max=pv.max, unit=pv.unit, unit_printed=pv.unit_printed, value_text=cand,
                footnotes=pv.footnotes, page=page, row_bbox_pdf=row,
                cells=[SpecCell(role="value", text=cand, bbox_pdf=box)],
                chunk_id=c.chunk_id if c else "",
                table="ratings" if c is not None and _in_ratings(c) else "characteristics",
            )
        )
        missing.remove(pid)
        if not missing:
            return out
    return out


PART_RANGES = True  # specs-46; off for an ablation (benchmarks/spec_rerun.py --without part-ranges)
# an operating temperature range stated as a placeholder ("Temperature Range | TMIN ≤ TA ≤ TMAX", "Specified Operating
# Temperature Range: TMIN to TMAX") and then given per part on the lines under it ("LM35C, LM35CA -40°C to +110°C",
# "DAC0808 | 0 ≤ TA ≤ +75°C"): the operating ratings of National Semiconductor's (and TI's) linear parts
_PLACEHOLDER_RE = re.compile(r"T ?MIN ?(?:to|-|~|≤ ?T ?[AJ] ?≤|< ?T ?[AJ] ?<) ?T ?MAX", re.IGNORECASE)
_BOUND_RE = r"([-+]?\d+(?:\.\d+)?) ?(?:°C?)?"
_INEQUALITY_RE = re.compile(_BOUND_RE + r" ?[≤<] ?T ?[AJ] ?[≤<] ?([-+]?\d+(?:\.\d+)?) ?°C")
_PART_CODE_RE = re.compile(r"[A-Z][A-Z0-9]*\d[A-Z0-9-]*")
_RANGE_PARTS = 8  # the lines read under the placeholder, and above it for a heading
_NOTE_MARK_RE = re.compile(r"\(?\s*notes?\s*\d+\s*\)?", re.IGNORECASE)
_OPERATING_RATINGS_RE = re.compile(r"operating ratings", re.IGNORECASE)  # National's heading of the conditions of use


def _range_text(text: str) -> ParsedValue | None:
    """A °C range printed "-40°C to +85°C" or "-40°C ≤ TA ≤ +85°C" (either as the whole text's end)."""
    m = _INEQUALITY_RE.search(text)
    if m:
        lo, hi = float(m.group(1)), float(m.group(2))
        return ParsedValue(min=lo, typ=None, max=hi, unit="°C", unit_printed="°C") if lo < hi else None
    pv = parse_value(text)
    if pv is None or pv.empty or pv.unit != "°C" or pv.min is None or pv.max is None or pv.min >= pv.max:
        return None
    return pv


def _part_ranges(
    doc_id: str, chunks: list[Chunk], words: Callable[[int], list[Word]], have: list[SpecValue]
) -> list[SpecValue]:
    """Each part's operating temperature range under a name whose value is the placeholder TMIN to TMAX
    (`PART_RANGES`): the lines after it that print part codes and a °C range - on one line, or the codes on one
    and the range on the next - give that range to each code (a note mark's line is passed over; a line that is
    neither ends the list). A value the tables already gave that part is not given twice."""
    units = [c for c in chunks if c.unit == "unit"]
    out: list[SpecValue] = []
    for page, lines, i, _, head in _label_lines(units, words):
        m = _PLACEHOLDER_RE.search(head)
        tail_at = 0
        below = fold(lines[i + 1][0]) if m is None and i + 1 < len(lines) else ""
        if m is None and (m2 := _PLACEHOLDER_RE.match(below)):
            name, tail_at = head.strip(" :："), 1  # the name on its line, the placeholder on the next
            if _NOTE_MARK_RE.sub("", below[m2.end():]).strip():
                continue
        elif m is not None and not _NOTE_MARK_RE.sub("", head[m.end():]).strip():
            name = head[: m.start()].strip(" :：")
        else:
            continue
        if match_parameter(name, unit="°C")[0] != "operating_temperature":
            continue
        # under a heading of the conditions of use ("Operating Ratings", "Recommended Operating Conditions") in a
        # ratings block: a condition of use, not a rating
        conditions_kind = any(
            len(x) <= 40 and (_OPERATING_RATINGS_RE.search(x) or _CONDITIONS_RE.search(x))
            for x, _ in lines[max(0, i - _RANGE_PARTS) : i + 1]
        )
        pending: list[tuple[str, list[Word]]] = []
        for text2, ws2 in lines[i + 1 + tail_at : i + 1 + tail_at + _RANGE_PARTS]:
            t = fold(text2)
            if not _NOTE_MARK_RE.sub("", t).strip():
                continue  # "(Note 2)"
            pv = _range_text(t)
            lead = t  # the words before the range: the part codes it is for
            if pv is not None:
                ineq = _INEQUALITY_RE.search(t)
                lead = t[: ineq.start()] if ineq else re.split(r"(?<![A-Za-z0-9])[-+]?\d+(?:\.\d+)? ?°", t, maxsplit=1)[0]
            codes = [x for x in re.split(r"[,/ ]+", lead.strip()) if x]
            if codes and not all(_PART_CODE_RE.fullmatch(x) for x in codes):
                break  # another name, a sentence: the list has ended
            if pv is None:
                if not codes or pending:
                    break
                pending = [(x, ws2) for x in codes]
                continue
            named = [(x, ws2) for x in codes] or pending
            pending = []
            if not named:
                break
            vws = [w for w in ws2 if w.text.strip(",/") not in codes] or ws2
            box = BBox(*union_box(w.bbox_pdf for w in vws))
            printed = fold(" ".join(w.text for w in vws))
            for code, cws in named:
                if any(v.parameter == "operating_temperature" and v.part == code and v.min == pv.min and v.max == pv.max
                       for v in [*have, *out]):
                    continue
                row = BBox(*union_box([*(w.bbox_pdf for w in cws), box]))
                c = _chunk_at(units, page, cws[0].bbox_pdf)
                out.append(
                    SpecValue(
                        doc_id=doc_id, part=code, parameter="operating_temperature", parameter_printed=name,
                        known=True, min=pv.min, typ=None, max=pv.max, unit="°C", unit_printed=pv.unit_printed,
                        value_text=printed, page=page, row_bbox_pdf=row,
                        cells=[SpecCell(role="value", text=printed, bbox_pdf=box)],
                        chunk_id=c.chunk_id if c else "",
                        table="ratings" if c is not None and _in_ratings(c) and not conditions_kind else "characteristics",
                    )
                )
    return out


def _name_right(ws: list[Word], name: str) -> float:
    """The right edge of a line's first words that spell `name`."""
    n = len(name.split())
    return max((w.bbox_pdf.x1 for w in ws[:n]), default=ws[0].bbox_pdf.x0 if ws else 0.0)


def _chunk_at(chunks: list[Chunk], page: int, box: BBox) -> Chunk | None:
    """The reading unit whose region on `page` holds the centre of `box`."""
    cx, cy = box.center
    for c in chunks:
        for r in c.all_regions():
            b = r.bbox_pdf
            if r.page == page and b.x0 - 1 <= cx <= b.x1 + 1 and b.y0 - 1 <= cy <= b.y1 + 1:
                return c
    return None


CONTINUED_HEADERS = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without continued-headers)


def _continued(c: Chunk, headed: Chunk | None) -> list[TableRow]:
    """The header rows a table chunk printing none carries over from the table read just before it,
    when it is that table's continuation the chunker kept apart: on the next page, under the same
    section heading, its rows cut into the same columns at the same places (every cell edge within
    3 pt of one of the header's, one row at least printing them all). [] otherwise."""
    if not CONTINUED_HEADERS or headed is None or not c.rows or any(_is_header_row(r) for r in c.rows):
        return []
    heads = [r for r in headed.rows if _is_header_row(r)]
    if not heads or c.section_title != headed.section_title or c.page != max(r.page for r in headed.rows) + 1:
        return []
    ref = heads[-1]

    def edges(r: TableRow) -> list[float]:
        return [b.x0 for b in r.cell_boxes] + [r.cell_boxes[-1].x1] if r.cell_boxes else []

    e = edges(ref)
    if not e or len(c.rows[0].cells) != len(ref.cells):
        return []

    def on_grid(r: TableRow) -> bool:  # a merged cell's box collapses onto an edge of the grid
        return all(any(abs(a - b) <= 3.0 for b in e) for a in edges(r))

    def whole(r: TableRow) -> bool:
        return len(edges(r)) == len(e) and all(abs(a - b) <= 3.0 for a, b in zip(edges(r), e, strict=True))

    return heads if all(on_grid(r) for r in c.rows) and any(whole(r) for r in c.rows) else []


def _named_tail(headed: Chunk) -> list[TableRow]:
    """The rows of a table from its last row printing a name in the first column to its end: the
    printed row a continuation's first, nameless row goes on with."""
    body = [r for r in headed.rows if not _is_header_row(r)]
    last = max((i for i, r in enumerate(body) if r.cells and r.cells[0].strip()), default=None)
    return body[last:] if last is not None else []


BLOCK_SUPPLIES = True  # specs-11; off for an ablation (benchmarks/spec_rerun.py --without block-supplies)
# a supply voltage or current printed in the section of one function block of a larger part ("12-bit ADC
# Characteristics | Supply current | IDD | 290 uA" in a microcontroller's datasheet) is that block's, not
# the part's: the block is named by a product type of data/product_types.tsv (distributor categories)
# that the section title names and the document's title does not (an ADC's own datasheet names ADC in
# its title: its "ADC characteristics" are the part's)
_BLOCK_SUPPLY_IDS = frozenset({"supply_voltage", "supply_current"})


def _block_of(c: Chunk, card: DocumentCard) -> str:
    """The function block the chunk's section is about, when it is not what the document is."""
    if not BLOCK_SUPPLIES or not c.section_title or not card.product_type:
        return ""
    block = product_type_in(c.section_title)
    if not block or block == card.product_type or product_type_in(card.title, first=False, among=(block,)):
        return ""
    return block


def _block_supply(v: SpecValue, block: str) -> None:
    """`v` kept under its block's name ("ADC supply current"): a printed name, not the part's supply."""
    name = v.parameter_printed if block.lower() in v.parameter_printed.lower() else f"{block} {v.parameter_printed}"
    v.parameter, v.known = printed_id(name), False


TWIN_TEMPERATURES = True  # specs-10; off for an ablation (benchmarks/spec_rerun.py --without twin-temperatures)
# one ratings row for two temperatures ("Operating junction and storage temperature range | TJ, TSTG |
# -55 to 150"): JEDEC JESD51 / JEP-style discrete datasheets print the junction (or operating) and
# the storage range in one row; the value is each of them
_JUNCTION_AND_STORAGE_RE = re.compile(
    r"\bjunction\b.*\b(?:and|&)\s+storage\b|\bstorage\b.*\b(?:and|&)\s+(?:operating\s+)?junction\b"
)
_OPERATING_AND_STORAGE_RE = re.compile(
    r"\boperating\b.*\b(?:and|&)\s+storage\b|\bstorage\b.*\b(?:and|&)\s+operating\b|"
    r"工作(?:及|和|与|、)(?:存储|贮存)"
)
_TWIN_SYMBOLS = {"tj": "junction_temperature", "ta": "operating_temperature", "topr": "operating_temperature"}


def _twin_temperature(v: SpecValue) -> SpecValue | None:
    """The second temperature of a row printed for two (see `_JUNCTION_AND_STORAGE_RE`): a copy of
    the storage-temperature value as the junction or operating temperature, its symbols or its name
    saying which; None for any other value."""
    if not TWIN_TEMPERATURES or v.parameter != "storage_temperature":
        return None
    syms = {s for s in re.split(r"[\s,/;]+", fold(v.symbol).lower()) if s}
    other = next((_TWIN_SYMBOLS[s] for s in sorted(syms) if s in _TWIN_SYMBOLS), None) if "tstg" in syms else None
    name = fold(v.parameter_printed).lower()
    if other is None and _JUNCTION_AND_STORAGE_RE.search(name):
        other = "junction_temperature"
    if other is None and _OPERATING_AND_STORAGE_RE.search(name):
        other = "operating_temperature"
    if other is None:
        return None
    return v.model_copy(update={"parameter": other}, deep=True)


def _with_twins(values: list[SpecValue]) -> list[SpecValue]:
    out: list[SpecValue] = []
    for v in values:
        out.append(v)
        twin = _twin_temperature(v)
        if twin is not None:
            out.append(twin)
    return out


def chunk_specs(chunk: Chunk) -> list[SpecValue]:
    """The spec values of one table chunk read from its rows alone, or of a dot-leader list or
    "name: value" lines printed as text read from its text's lines (no page words, no document card: the part is
    left empty) - what search checks a query's numeric constraints against. Values the gate
    doubts are left out, as from the stored specs."""
    if not chunk.rows and not chunk.regions and LINEAR_TABLES and linear_table(chunk.native_text):
        return _gate(read_linear_table(chunk, ""))[0]  # an imported table given as text only (no layout)
    if chunk.block_type in ("text", "list"):
        box = union_box(chunk.bboxes_pdf) if chunk.bboxes_pdf else BBox(0, 0, 0, 0)
        lines = [t.strip() for t in chunk.native_text.splitlines() if t.strip()]
        rows = [TableRow(page=chunk.page, bbox_pdf=BBox(*box), cells=[t], text=t, cell_boxes=[BBox(*box)]) for t in lines]
        listed: list[TableRow] | None = None
        if LEADER_TEXT and _leader_lines(chunk.native_text):
            listed = _leader_list(rows, None, need_unit=True)
        elif not _test_section(chunk):
            listed = _summary_list(rows, None, chunk.native_text)
        return _gate(_read_rows(chunk.doc_id, "", chunk, listed, None))[0] if listed else []
    if chunk.block_type != "table" or not chunk.rows:
        return []
    return _gate(_with_twins(_table_specs(chunk.doc_id, "", chunk, None)))[0]


def _gate(values: list[SpecValue]) -> tuple[list[SpecValue], list[SpecValue]]:
    """(the values the gate passes, the doubted ones), each doubted value's `doubt` set."""
    kept: list[SpecValue] = []
    doubted: list[SpecValue] = []
    for v in values:
        v.doubt = v.doubt or _doubt(v)
        (doubted if v.doubt else kept).append(v)
    return kept, doubted


# --------------------------------------------------------------------------- the confidence gate
# The head noun of a printed name and the canonical units a value so named can have (a "... current"
# in V is a misread row or column). Source: SI quantities (voltage V, current A, ...); thermal
# resistance is printed in °C/W (JEDEC JESD51), noise densities per √Hz.
_HEAD_UNITS: dict[str, tuple[str, ...]] = {
    "voltage": ("V", "V/√Hz"),
    "voltages": ("V",),
    "current": ("A", "A/√Hz"),
    "currents": ("A",),
    "frequency": ("Hz",),
    "capacitance": ("F",),
    "inductance": ("H",),
    "resistance": ("ohm", "°C/W"),
    "impedance": ("ohm", "°C/W"),
    "temperature": ("°C",),
    "power": ("W", "dBm"),
    "time": ("s",),
    "delay": ("s",),
    "电压": ("V",),
    "电流": ("A",),
    "频率": ("Hz",),
    "电容": ("F",),
    "电阻": ("ohm", "°C/W"),
    "温度": ("°C",),
    "功率": ("W", "dBm"),
    "时间": ("s",),
}
# units of a physical quantity: a value in one of them under another quantity's name is a misread
# row or column; a ratio (dB, %, ppm) under a quantity's name is a relative spec (image-frequency
# rejection in dB), not a misreading
_QUANTITY_UNITS = frozenset({"V", "A", "Hz", "F", "ohm", "W", "s", "H", "°C"})
_NUMBER_RE = re.compile(r"(?<![A-Za-zµΩ\d.,])\d+(?:[.,]\d+)*")
_CODE_RE = re.compile(r"\b(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*\d)[A-Z0-9][A-Z0-9-]{3,}\b")


def _numbers_in(text: str) -> int:
    """How many numbers a value cell prints (footnote markers and parenthesised conditions not
    counted; "4u7", "m2", "√Hz" are one number or none)."""
    t = split_footnotes(text)[0]
    t = re.sub(r"\([^()]*\)", " ", t)
    t = re.sub(r"(\d)[pnuµmkKMGR](\d)", r"\1\2", t)
    return len(_NUMBER_RE.findall(t))


def _doubt(v: SpecValue) -> str:
    """Why a reading is not to be trusted, or "" (the gate): the numbers out of order (min > max),
    a physical unit that is not the named quantity's ("Supply current" in MHz; a ratio - dB, %,
    ppm - under a quantity's name is a relative spec, not doubted), a name that is no name ("(note
    9)", "-"), a value cell holding a part number or package code. `_long_row` adds "numbers" (more
    numbers in a cell than the value holds) and "unit" (a vocabulary name in another quantity's unit)."""
    nums = [x for x in (v.min, v.typ, v.max) if x is not None]
    rising = all(a <= b for a, b in zip(nums, nums[1:], strict=False))
    # a P-channel part's "-0.5 | -0.9 | -1.3" prints magnitudes growing: read as printed, not doubted
    falling_negative = all(x <= 0 for x in nums) and all(a >= b for a, b in zip(nums, nums[1:], strict=False))
    if not rising and not falling_negative:
        return "order"
    name = _norm_printed(v.parameter_printed)
    bare = re.sub(r"\([^()]*\)?", " ", name)  # "(peak-to-peak)", "(note 2)": nothing left
    if not v.known and (not re.search(r"[^\W\d_]", bare) or re.match(r"^\(?notes?\b", name)):
        return "name"
    if not v.known and CONDITION_NAME and _condition_name(name):
        return "name"  # "V S=+30V, +25 °C", "VDRM = VRRM", "Φ=25°": a condition, not a name
    if not v.known and v.unit in _QUANTITY_UNITS and not _MODIFIED_RE.search(name):
        head = name.split()[-1] if name.split() else ""
        head = head[-2:] if re.search(r"[\u4e00-\u9fff]{2}$", head) else head
        want = _HEAD_UNITS.get(head)
        if want is not None and v.unit not in want:
            return "unit"
    for c in v.cells:
        for code in _CODE_RE.findall(fold(c.text)):
            if parse_unit(code) is None and parse_value(code) is None:
                return "code"  # "LM2904-N", "SOT-23" in a value cell: its number is a piece of a name
    return ""


# a relative quantity's name (the modifiers of layoutrag.specs, and ratios, densities, rates):
# its unit need not be the head noun's
_MODIFIED_RE = re.compile(
    r"\b(?:" + "|".join((*MODIFIER_WORDS, "ratio", "gain", "density", "rate", "slope", "per", "vs", "versus"))
    + r")\b|/"
)


CONDITION_NAME = True  # specs-7; off for an ablation (benchmarks/spec_rerun.py --without condition-name)


def _condition_name(name: str) -> bool:
    """A Parameter cell that states a condition, not a quantity: an "=" with no word before it
    (a symbol, a number, a unit - "V S=+30V", "VDRM = VRRM", "Φ=25°"); "Ripple Rejection (Vin-Vout
    = 6.4 V)" names a quantity before its condition."""
    if "=" not in name:
        return False
    head = name.split("=", 1)[0]
    return not re.search(r"[a-z]{4,}|[\u4e00-\u9fff]{2,}", head)


def _norm_printed(text: str) -> str:
    t = split_footnotes(fold(text).lower())[0]
    if not t.startswith("("):
        t = re.sub(r"\s*\((?:[^()]*)\)\s*$|\s*\([^()]*$", "", t).strip()  # "(note 1)", "(VDDIO power"
    return t


_RATINGS_RE = re.compile(
    r"absolute maximum|maximum ratings|limiting values|极限参数|绝对最大|最大额定", re.IGNORECASE
)
RATING_HEADINGS = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without rating-headings)
# TI's datasheet outline prints the storage temperature and ESD levels apart from its Absolute Maximum
# Ratings, as "Handling Ratings" / "ESD Ratings"; Chinese datasheets head the limiting values (IEC
# 60747-1 "limiting values", GB/T 4589.1 极限值) 极限值 / 极限工作参数 / 极限工作条件 as well as 极限参数
_MORE_RATINGS_RE = re.compile(r"handling ratings|esd ratings|极限(?:工作)?(?:参数|条件|值)", re.IGNORECASE)


def _ratings_heading(text: str) -> re.Match[str] | None:
    """The first ratings heading `text` prints."""
    found = [m for m in (_RATINGS_RE.search(text), _MORE_RATINGS_RE.search(text) if RATING_HEADINGS else None) if m]
    return min(found, key=lambda m: m.start()) if found else None


# the heading of a characteristics table (IEC 60747-1 "characteristics"; JEDEC "electrical
# characteristics"; GB/T 电特性 / 电气特性)
_CHARACTERISTICS_RE = re.compile(
    r"^(?:(?:table|tab\.)\s*[\w.\-]+\s*[:.]?\s*|[\d.]+\s+|[一二三四五六七八九十\d.、]+\s*)?"  # "Table 1-1:", "6.5", "四、"
    r"(?:(?:electrical|dc|ac|switching|static|dynamic|operating) characteristics|电气特性|电特性|电性能)",
    re.IGNORECASE | re.MULTILINE,
)
OWN_HEADING = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without own-heading)


def _in_ratings(c: Chunk) -> bool:
    """Whether a chunk's values are ratings: a ratings heading in its own text or its section (the
    last heading before it) says so, unless its own text prints a characteristics heading and no
    ratings one ("Electrical Characteristics (VCC = +15 V)" atop a table on the page after the
    ratings, whose section title is still the ratings'). A chapter "1.0 Electrical
    Characteristics" over its "Absolute Maximum Ratings" stays ratings."""
    head = c.native_text[:300]
    if OWN_HEADING and _ratings_heading(head) is None and _CHARACTERISTICS_RE.search(head):
        return False
    return bool(_ratings_heading(" ".join((c.section_title, head, c.description))))


HEADING_ABOVE = True  # specs-21; off for an ablation (benchmarks/spec_rerun.py --without heading-above)
# a numbered or line-initial heading ("6.1. Absolute maximum rating (Stresses above ...", "极限参数（温度=25℃）")
_HEADING_LINE_RE = re.compile(r"^\s*(?:[\d.]+\s*|[一二三四五六七八九十]+、\s*|[^\w\s(（]\s*)?(?=\S)")


def _block_above(c: Chunk, prev: Chunk) -> bool:
    """Is `prev` a text block lying directly above table chunk `c` on its page (its bottom at most 30 pt
    above the table's top, or overlapping it by 2 pt at most)?"""
    if c.block_type != "table" or prev.block_type not in ("text", "heading"):
        return False
    if prev.page != c.page or not prev.bboxes_pdf or not c.bboxes_pdf:
        return False
    bottom, top = max(b.y1 for b in prev.bboxes_pdf), min(b.y0 for b in c.bboxes_pdf)
    return -2 <= top - bottom <= 30


def _heading_above(c: Chunk, prev: Chunk | None) -> bool:
    """A table whose ratings heading is printed as the last heading line of the text block just
    above it (a numbered sub-heading inside a paragraph block, "6. Parameter / 6.1. Absolute maximum
    rating (Stresses above ...)"; a bilingual heading pair after the section's own, "光电参数 /
    极限参数（温度=25℃） / Absolute Maximum Ratings"), the section title being the chapter's: its
    values are ratings. Of the block's last four lines, up to a dot-leader line (a ratings list
    printed above the table holds its own heading), the last that begins with a ratings,
    characteristics or operating-conditions heading decides; a line naming the ratings inside a
    sentence ("... Absolute Maximum Ratings may cause damage") is no heading. Not when the table's own
    text prints a characteristics heading."""
    if not HEADING_ABOVE or prev is None or not _block_above(c, prev):
        return False
    if _CHARACTERISTICS_RE.search(c.native_text[:300]):
        return False  # the table prints its own heading
    for line in reversed(prev.native_text.splitlines()[-4:]):
        if _LEADER_RE.search(line):
            return False  # a line of a dot-leader list: the block holds values, not a heading over the table
        rest = _HEADING_LINE_RE.sub("", line, count=1)  # the line without its number or bullet
        if _CHARACTERISTICS_RE.match(rest) or _CONDITIONS_RE.match(rest):
            return False
        m = _ratings_heading(rest)
        if m is not None and m.start() == 0 and _HEADING_TAIL_RE.fullmatch(rest[m.end() :]):
            return True
    return False


CONDITIONS_ABOVE = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without conditions-above)
# a line that begins like a statement of test conditions: "At VS = 5.0 V, ...", "(TA = 25 °C unless
# otherwise noted)", "Unless otherwise specified, ...", "VDD = 3.3 V, TA = 25 °C"
_CONDITIONS_LINE_RE = re.compile(
    r"\s*[(（]?\s*(?:at\b|@|unless\b|test conditions?\b|conditions?\b|over\b|T[AJC]\s*=|V[A-Z][A-Za-z0-9_]{0,6}\s*=)",
    re.IGNORECASE,
)


def _conditions_above(c: Chunk, prev: Chunk | None) -> str:
    """The conditions a line printed right above a table states for its rows, when the layout model
    put that line in a text block of its own ("At VS = 5.0 V, VCM = 0 V, TA = 25°C; unless otherwise
    noted." over each of a datasheet's per-supply tables): the block's last lines from one of its
    last three that begins like such a statement, sentence by sentence, each read as a caption
    (`_caption_condition`; a sentence stating none is a remark, left out). The block must lie directly
    above the table on its page (`_block_above`). "" otherwise."""
    if not CONDITIONS_ABOVE or prev is None or not _block_above(c, prev):
        return ""
    lines = [x for x in prev.native_text.splitlines() if x.strip()]
    if not lines:
        return ""
    for k in range(1, min(3, len(lines)) + 1):
        if _CONDITIONS_LINE_RE.match(fold(lines[-k])) and not any(_LEADER_RE.search(x) for x in lines[-k:]):
            # sentence by sentence: those stating conditions ("All limits TA = TJ = 25°C"), not the
            # remarks after them ("All minimum and maximum specifications are guaranteed.")
            said = [_caption_condition(t) for t in re.split(r"\.\s+(?=[A-Z])", " ".join(lines[-k:]))]
            return "; ".join(dict.fromkeys(x for x in said if x and len(x) <= 120))
    return ""


# what may follow a ratings heading on its line: its "rating(s)" word, a parenthesis or a colon
# ("(Note 1)", "（温度=25℃）", "(Stresses above ...") - not a sentence going on ("... may cause damage")
_HEADING_TAIL_RE = re.compile(r"\s*(?:ratings?\b)?\s*(?:[(（:：].*)?", re.IGNORECASE | re.DOTALL)


# the heading of the conditions a part is specified to work in (JEDEC: "recommended operating
# conditions"), printed in the same block as its ratings
_CONDITIONS_RE = re.compile(r"(?:recommended )?operating conditions|推荐工作条件|工作条件", re.IGNORECASE)
CONDITIONS_APART = True  # specs-6; off for an ablation (benchmarks/spec_rerun.py --without conditions-apart)


def _conditions_apart(c: Chunk, values: list[SpecValue], words: Callable[[int], list[Word]]) -> None:
    """A ratings block that also prints the operating conditions under their own heading (a ratings
    list, then "Recommended Operating Conditions" and its lines, in one column): the values below
    that heading, up to the next ratings heading in the same column, are characteristics."""
    if not CONDITIONS_APART:
        return
    heads = _kind_heads(c, words)
    for v in values:
        if v.table == "ratings" and _kind_above(v, heads) is True:
            v.table = "characteristics"


def _kind_heads(c: Chunk, words: Callable[[int], list[Word]]) -> list[tuple[TableRow, bool]]:
    """The chunk's short lines that head ratings or operating conditions: (line, is it conditions)."""
    return [
        (r, bool(_CONDITIONS_RE.search(r.text)))
        for r in _line_rows(c, words)
        if len(r.text) <= 60 and (_CONDITIONS_RE.search(r.text) or _ratings_heading(r.text))
    ]


def _kind_above(v: SpecValue, heads: list[tuple[TableRow, bool]]) -> bool | None:
    """Whether the nearest of `heads` above a value's row, in its column (the heading begins left of
    the row's start and reaches past it), heads operating conditions (True) or ratings (False); None
    when none does."""
    rb = v.row_bbox_pdf
    above = [
        (h, cond)
        for h, cond in heads
        if h.page == v.page and h.bbox_pdf.center[1] <= rb.y0 + 1 and h.bbox_pdf.x0 <= rb.x0 + 3 < h.bbox_pdf.x1
    ]
    return max(above, key=lambda hc: hc[0].bbox_pdf.y1)[1] if above else None


CATEGORY_NAMES = True  # specs-26; off for an ablation (benchmarks/spec_rerun.py --without category-names)
_CATEGORY_RE = re.compile(r"temperatures?|voltages?|currents?|温度|电压|电流", re.IGNORECASE)


def _category_names(values: list[SpecValue]) -> None:
    """A value named only by a quantity's category ("Temperature" merged down over TI's "Junction range, TJ" /
    "Storage range, Tstg" items, LM358's "Temperature | PDIP Package (P): Soldering (10 seconds)"), its item
    or case in the conditions: the vocabulary parameter a word of the item makes with the category ("junction
    temperature", "soldering temperature"), in the value's unit - the first such word; else left as printed."""
    if not CATEGORY_NAMES:
        return
    for v in values:
        name = fold(v.parameter_printed).strip()
        if v.known or not _CATEGORY_RE.fullmatch(name):
            continue
        for w in re.findall(r"[A-Za-z]{4,}", v.conditions):
            pid, known = match_parameter(f"{w} {name}", v.symbol, unit=v.unit)
            if known and parameter_unit(pid) == v.unit:
                v.parameter, v.known = pid, True
                break


TEMPERATURE_ITEMS = True  # specs-39; off for an ablation (benchmarks/spec_rerun.py --without temperature-items)
# a group of temperature ranges printed as items under one name ("Ambient temperature | Operating | Storage",
# "Temperature ranges - Operating / - Storage", "TEMPERATURE RANGE" over "Operating Range" / "Storage" rows): the
# item word names the range (IEC 60747-1 / IEC 60068-1: operating and storage temperature ranges are distinct ratings)
_TEMP_GROUP = r"(?:ambient\s+)?temp(?:erature)?s?\.?(?:\s+ranges?)?"
_TEMP_ITEMS = {"storage": "storage_temperature", "operating": "operating_temperature", "operation": "operating_temperature"}
_TEMP_ITEM_RE = re.compile(rf"{_TEMP_GROUP}\s*[-–—:]?\s*(storage|operating|operation)(?:\s+range)?", re.IGNORECASE)
_DASH_ITEM_RE = re.compile(r"[-–—]\s*[^\W\d_]")  # "– Storage": an item of the name above


def _temperature_item(name: str) -> str | None:
    """The temperature range a group name and its item word name ("Temperature ranges – Storage")."""
    m = _TEMP_ITEM_RE.fullmatch(_bare_text(name))
    return _TEMP_ITEMS[m.group(1).lower()] if m else None


def _temperature_items(values: list[SpecValue]) -> None:
    """A temperature range named by its group ("Ambient temperature Storage", "TEMPERATURE RANGE" with "Storage" as
    the row's condition, MC1604C's "AMBIENT TEMPERATURE" under a "STORAGE" column): the item's range - a storage
    temperature is not an operating one."""
    if not TEMPERATURE_ITEMS:
        return
    for v in values:
        if v.unit != "°C" or (v.known and v.parameter not in ("operating_temperature", "storage_temperature")):
            continue
        item = _temperature_item(v.parameter_printed)
        if item is None and re.fullmatch(_TEMP_GROUP, _bare_name(v), re.IGNORECASE):
            words = [x.strip().lower() for x in v.conditions.split(";")]
            found = {_TEMP_ITEMS[w] for w in words if w in _TEMP_ITEMS}
            item = found.pop() if len(found) == 1 else None
        if item is not None:
            v.parameter, v.known = item, True


RATING_LIMITS = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without rating-limits)
_NOT_A_LIMIT_RE = re.compile(r"\b(?:typ(?:ical)?|esd|electrostatic|isolation|withstand(?:ing)?)\b|典型|静电|绝缘|隔离", re.IGNORECASE)


def _rating_limits(values: list[SpecValue]) -> None:
    """A lone number in a ratings table's value column ("Junction temperature | TJ | 150 | °C" under
    "Rating | Symbol | Value | Unit", "Power dissipation .... 70 mW") is a limit, not a typical value
    (IEC 60747-1: a limiting value is the value not to be exceeded): the record's max, or its min
    when the number is negative (a p-channel part's "VDS | -30 V", the bound on the negative side).
    A range, a ± and numbers in Min / Typ / Max columns keep their roles; so do what a ratings table
    prints beside its limits without being one: a thermal resistance (a characteristic, IEC 60747-1,
    JESD51), a withstand level (ESD, isolation: the part survives at least that), a value its name
    calls typical."""
    if not RATING_LIMITS:
        return
    for v in values:
        if v.table != "ratings" or v.typ is None or v.min is not None or v.max is not None:
            continue
        if not v.cells or any(cell.role != "value" for cell in v.cells) or v.unit == "°C/W":
            continue
        if v.parameter == "esd" or _NOT_A_LIMIT_RE.search(v.parameter_printed):
            continue
        _lone_value_as(v, "min" if v.typ < 0 else "max")


POWER_INPUTS = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without power-inputs)
# a regulator's, a converter's, a charger's "input voltage" is its supply (`specs.POWER_TYPES`)
_INPUT_VOLTAGE_RE = re.compile(
    r"(?:maximum |max\.? |operating |dc )?input (?:supply )?voltage(?: range)?", re.IGNORECASE
)


def _power_inputs(values: list[SpecValue], card: DocumentCard) -> None:
    """A regulator's, converter's or charger's row named just "(Operating) Input Voltage (Range)" in
    volts is its supply voltage; a name saying more ("Enable input voltage", "Input UVLO threshold")
    is left as it is."""
    if not POWER_INPUTS or card.product_type not in POWER_TYPES:
        return
    for v in values:
        if not v.known and v.unit == "V" and _INPUT_VOLTAGE_RE.fullmatch(_bare_name(v)):
            v.parameter, v.known = "supply_voltage", True


TURN_ON_TIMES = True  # specs-40; off for an ablation (benchmarks/spec_rerun.py --without turn-on-times)
# the product types whose "turn-on time" is the time from power applied to a valid output (a sensor's, a regulator's, an
# oscillator's: IEC 60679-1's start-up time); a switching device's turn-on time is a switching time (IEC 60747-1's t_on:
# delay plus rise), so it stays as printed for every other type
_START_UP_TYPES = frozenset({
    "TCXO", "OCXO", "VCXO", "clock generator", "MEMS oscillator", "oscillator", "real-time clock", "accelerometer",
    "gyroscope", "humidity sensor", "pressure sensor", "Hall sensor", "temperature sensor", "current sensor", "sensor",
    "voltage regulator", "DC-DC converter", "AC-DC converter", "voltage reference",
})
_TURN_ON_RE = re.compile(r"(?:t\s?on\s+)?(?:device\s+)?turn-?\s?on\s+time\d?", re.IGNORECASE)


def _turn_on_times(values: list[SpecValue], card: DocumentCard) -> None:
    """A sensor's, regulator's or oscillator's row named "(Device) Turn-On Time" in seconds is its start-up time."""
    if not TURN_ON_TIMES or card.product_type not in _START_UP_TYPES:
        return
    for v in values:
        if not v.known and v.unit == "s" and _TURN_ON_RE.fullmatch(_bare_name(v)):
            v.parameter, v.known = "startup_time", True


def _bare_text(name: str) -> str:
    """A printed name without its note references ("Input Voltage (1)", "(Note 2)") and edge punctuation."""
    return re.sub(r"\s*\((?:\d+|note\s*\d+)\)", "", fold(name), flags=re.IGNORECASE).strip(" ,:")


def _bare_name(v: SpecValue) -> str:
    """`v`'s printed name as `_bare_text` reads it."""
    return _bare_text(v.parameter_printed)


AMPLIFIER_INPUTS = True  # specs-33; off for an ablation (benchmarks/spec_rerun.py --without amplifier-inputs)
# the other side of power-inputs: an amplifier's or comparator's "Input Voltage Range" in its characteristics is the
# common-mode input voltage range (IEC 60748-3's V_ICR: the range of input voltage over which the part works), its
# input is a signal; in the ratings it is a stress limit and stays as printed
_SIGNAL_TYPES = frozenset({"operational amplifier", "comparator"})
_SIGNAL_RANGE_RE = re.compile(r"input voltage range|input range", re.IGNORECASE)


def _amplifier_inputs(values: list[SpecValue], card: DocumentCard) -> None:
    """An operational amplifier's or comparator's characteristics row named just "Input Voltage Range" in volts is its
    common-mode input range."""
    if not AMPLIFIER_INPUTS or card.product_type not in _SIGNAL_TYPES:
        return
    for v in values:
        if not v.known and v.unit == "V" and v.table != "ratings" and _SIGNAL_RANGE_RE.fullmatch(_bare_name(v)):
            v.parameter, v.known = "common_mode_input_range", True


def _gain_decibels(values: list[SpecValue]) -> None:
    """A gain the vocabulary stores as a voltage ratio (V/V) printed in dB ("Open-Loop Gain | 120 | dB") is stored as
    that ratio, 10^(x/20) (`specs.GAIN_DECIBELS`); its printed unit and cells stay as printed."""
    if not specs_mod.GAIN_DECIBELS:
        return
    for v in values:
        if v.known or v.unit != "dB":
            continue
        pid, known = match_parameter(v.parameter_printed, v.symbol)
        if not known or parameter_unit(pid) != "V/V":
            continue
        pv = as_ratio(ParsedValue(min=v.min, typ=v.typ, max=v.max, unit="dB", unit_printed=v.unit_printed))
        v.min, v.typ, v.max, v.unit = pv.min, pv.typ, pv.max, "V/V"
        v.parameter, v.known = pid, True


NAMED_BOUNDS = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without named-bounds)
_BOUND_NAME_RE = re.compile(r"^\s*(max(?:imum)?|min(?:imum)?)\.?(?=\s)", re.IGNORECASE)


def _named_bounds(values: list[SpecValue]) -> None:
    """A lone number in a value column whose printed name begins with "Maximum" / "Minimum" ("Maximum
    Junction Temperature | 125 °C", "Minimum Supply Voltage | 2.7 V", "Maximum Thermal Resistance") is
    that bound: max or min, not a typical value."""
    if not NAMED_BOUNDS:
        return
    for v in values:
        m = _BOUND_NAME_RE.match(v.parameter_printed)
        if m is None or v.typ is None or v.min is not None or v.max is not None:
            continue
        if not v.cells or any(cell.role != "value" for cell in v.cells):
            continue
        _lone_value_as(v, "max" if m.group(1).lower().startswith("max") else "min")


def _lone_value_as(v: SpecValue, role: Literal["min", "max"]) -> None:
    """A value read as typical from a lone number, read as that bound instead (its cells too)."""
    v.min, v.max = (v.typ, None) if role == "min" else (None, v.typ)
    v.typ = None
    for cell in v.cells:
        cell.role = role


@dataclass
class _Group:
    """One Min/Typ/Max (or Value) column group; a table printing one group per part or grade has
    several, each named by the header words above it."""

    cols: list[tuple[int, str]]  # (column index, role)
    label: str = ""  # the header words above the group
    part: str = ""  # the label when it names parts of the document


@dataclass
class _Cols:
    roles: dict[int, str] = field(default_factory=dict)  # column index -> role
    names: dict[int, str] = field(default_factory=dict)  # column index -> header text
    unit_hints: dict[int, str] = field(default_factory=dict)  # "Max (mA)" -> mA
    boxes: dict[int, BBox] = field(default_factory=dict)  # column index -> its header cell's box
    label_rows: list[TableRow] = field(default_factory=list)  # header rows above the Min/Typ/Max row
    head_row: TableRow | None = None  # the last header row
    head_boxes: list[BBox] = field(default_factory=list)  # the last header row's cell boxes
    part_cols: dict[int, str] = field(default_factory=dict)  # a value column headed by a part name
    groups: list[_Group] = field(default_factory=list)  # value column groups (one per part or grade)
    cases: int | None = None  # a second name column ("Description") read as each row's case
    tops: dict[int, str] = field(default_factory=dict)  # a part-number table's top header line over each column

    def col(self, role: str) -> int | None:
        return next((i for i, r in sorted(self.roles.items()) if r == role), None)

    named: dict[int, str] = field(default_factory=dict)  # column -> the parameter its header names

    @property
    def kind(self) -> str:
        rs = set(self.roles.values())
        if rs & set(_VALUE_ROLES) and ("parameter" in rs or "symbol" in rs):
            return "long"
        if "part" in rs:
            return "wide"
        if self.named and not rs & set(_VALUE_ROLES) and "parameter" not in rs:
            return "named"  # "Range | Temp. range (°C)": rows named by a grade, columns by a parameter
        return ""


def _role_of(text: str) -> tuple[str | None, str]:
    t = split_footnotes(fold(text).strip())[0].rstrip(_MARKS)  # "MAX(1)", "Typ.²", "TYP†"
    if re.fullmatch(r"(?:[^\W\d_] ){2,}[^\W\d_]\.?", t):
        t = t.replace(" ", "")  # a letter-spaced header: "I T E M"
    hint = ""
    m = re.fullmatch(r"(.+?)\s*[\(\[]\s*([^()\[\]]{1,8})\s*[\)\]]", t)
    if m and parse_unit(m.group(2)) is not None:
        t, hint = m.group(1).strip(), m.group(2)
    for role, rx in _ROLE_RES:
        if rx.match(t):
            return role, hint
    qualified = re.fullmatch(r"(.+?)\s*\([^()]{1,12}\)", t)
    if qualified and STACKED_HEADS and _role_of(qualified.group(1))[0] == "part":
        return "part", hint  # "Part Number (Uni) | Part Number (Bi)": a part-number column for each kind
    glued = re.fullmatch(r"([A-Za-z][A-Za-z. ]*[A-Za-z.])\d{1,2}", t)
    if glued and SECTION_ROWS:  # "Parameter1": a footnote mark the text layer glued to the header word
        return _role_of(glued.group(1))[0], hint
    # a bilingual header cell ("下限 Min.", "项目 Item", "单位 Units"): the Chinese and the Latin
    # part each name the column; they must not name two different ones
    halves = [h.strip() for h in re.findall(r"[\u4e00-\u9fff]+|[^\u4e00-\u9fff]+", t) if h.strip()]
    if len(halves) == 2 and _BILINGUAL:
        found = {r for h in halves if (r := _role_of(h)[0]) is not None}
        if len(found) == 1:
            return found.pop(), hint
    return None, hint


_FALLBACKS: list[Callable[[Chunk, Callable[[int], list[Word]] | None], list[TableRow] | None]] = []
_NAMELESS = True  # specs-5; off for an ablation (--without nameless)
_SPANS = True  # specs-5; off for an ablation (--without spans)
_BILINGUAL = True  # specs-5; off for an ablation (benchmarks/spec_rerun.py --without bilingual)


# specs-8: "Rating | Symbol | Value | Unit": "Rating" heads the names column when a value column
# stands right of it (it heads the values in "Characteristics | Symbol | Rating | Unit")
RATING_NAMES = True  # off for an ablation (benchmarks/spec_rerun.py --without rating-names)
# specs-8: a header line fused into the first row of a table that reads nothing (`_fused_header`)
FUSED_HEADER = True  # off for an ablation (benchmarks/spec_rerun.py --without fused-header)
# specs-8: the unheaded grid columns right of a Conditions column (its header merged over them) are
# conditions too
CONDITION_SPAN = True  # off for an ablation (benchmarks/spec_rerun.py --without condition-span)
# specs-8: a table the layout model took for a figure, read from the page words (`_figure_tables`)
FIGURE_TABLES = True  # off for an ablation (benchmarks/spec_rerun.py --without figure-tables)
# specs-8: a ratings list printed without dot leaders, read line by line at the widest space (`_gap_list`)
GAP_LISTS = True  # off for an ablation (benchmarks/spec_rerun.py --without gap-lists)

_MARKS = "†‡§*"
# specs-7: a merged-role value cell of two or three lines (three modes of a crystal, "Logic 0 Input"
# at two supplies) is split too; a section printed as one grid row holds many more lines
FEW_LINES = True  # off for an ablation (benchmarks/spec_rerun.py --without few-lines)
# specs-7: a section printed as one grid row (Analog Devices' tables: "INPUT CHARACTERISTICS" over
# many lines, "Min Typ Max" in one header cell) is split too and read line by line (`_split_lines`);
# a header word with a footnote mark glued to it ("Parameter1") names its column
SECTION_ROWS = True  # off for an ablation (benchmarks/spec_rerun.py --without section-rows)


GROUPED_ROLES = True  # specs-23; off for an ablation (benchmarks/spec_rerun.py --without grouped-roles)


def _merged_roles(cell: str) -> tuple[list[str], str] | None:
    """The roles of a header cell printing several value columns' names ("MIN TYP† MAX": the
    grid has no rule between them) and the label printed before them in the same cell, else None.
    A label ("LT1006AM/AC MIN TYP MAX": the part grade the columns are for) only with
    `GROUPED_ROLES`."""
    toks = cell.split()
    roles = [_role_of(t)[0] for t in toks]
    k = len(toks)
    while k > 0 and roles[k - 1] in ("min", "typ", "max"):
        k -= 1
    tail = [r for r in roles[k:] if r is not None]
    if len(tail) < 2 or len(set(tail)) != len(tail) or (k and not GROUPED_ROLES):
        return None
    label = " ".join(toks[:k])
    if label and (any(r is not None for r in roles[:k]) or not re.search(r"\d", label)):
        return None  # a label names a part or grade (a code with a digit), no other column
    return tail, label


def _split_merged_roles(rows: list[TableRow], words: Callable[[int], list[Word]] | None) -> list[TableRow]:
    """A table whose header prints Min, Typ and Max in one grid cell (no rules between the value
    columns: "MIN TYP MAX" over "2 10 30") with those columns split: each header word is a column,
    each body word in that cell goes to the column whose header word its centre is nearest to.
    Needs the page words (the header words' positions). A section printed as one grid row - names,
    symbols and values of many parameters run together - is split too (`SECTION_ROWS`; without it
    only a table whose every body row prints at most three lines there, `FEW_LINES`); rows of
    another grid end it. With `GROUPED_ROLES` every such cell of the header is split (one per part
    or grade: "Min Max | Min Max" under "8253 | 8253-5"), and a label printed before the roles in
    the cell ("LT1006AM/AC MIN TYP MAX") becomes a line of its own above the header, naming the
    group as a label row does (`_value_groups`)."""
    if words is None:
        return rows
    out: list[TableRow] = []
    seg: list[tuple[TableRow | None, TableRow]] = []  # (row as stored, row split) since the merged header
    ok = True
    # per merged cell: column, centres, header words, and the header's cell count
    splits: list[tuple[int, list[float], list[str], int]] = []

    def flush() -> None:
        nonlocal seg, ok
        out.extend(x for a, b in seg if (x := b if ok else a) is not None)
        seg, ok = [], True

    def split_all(row: TableRow, page_words: list[Word] | None) -> tuple[TableRow, bool]:
        one = True
        for sp in sorted(splits, key=lambda x: -x[0]):  # right to left: the indices to the left hold
            row, fine = _split_row(row, sp, page_words)
            one = one and fine
        return row, one

    for row in rows:
        boxed = len(row.cell_boxes) == len(row.cells)
        hits = [(i, m) for i, cell in enumerate(row.cells) if (m := _merged_roles(fold(cell))) is not None]
        if not GROUPED_ROLES:
            hits = hits[:1]
        if boxed and hits:
            flush()
            found: list[tuple[int, list[float], list[str], int]] = []
            labels: list[tuple[int, str]] = []
            for i, (roles, label) in hits:
                b = row.cell_boxes[i]
                heads = sorted(
                    (w for w in _words_in(words(row.page), b) if _role_of(w.text)[0] in roles),
                    key=lambda w: w.bbox_pdf.x0,
                )
                if [_role_of(w.text)[0] for w in heads] != roles:
                    found = []
                    break
                found.append((i, [w.bbox_pdf.center[0] for w in heads], [w.text for w in heads], len(row.cells)))
                if label:
                    labels.append((i, label))
            if found:
                splits = found
                head, _ = split_all(row, None)
                if labels:
                    # the labels as a line above the header, each over its cell's first split column
                    firsts = {i: i + sum(len(sp[1]) - 1 for sp in splits if sp[0] < i) for i, _ in labels}
                    cells = ["" for _ in head.cells]
                    for i, label in labels:
                        cells[firsts[i]] = label
                    lab = head.model_copy(update={"cells": cells, "text": " ".join(x for x in cells if x), "is_header": False})
                    seg.append((None, lab))  # no line of its own when the split is given up
                seg.append((row, head))
                continue
            splits = []
        if splits and boxed and len(row.cells) == splits[0][3]:
            done, one_line = split_all(row, words(row.page))
            ok = ok and one_line
            seg.append((row, done))
        elif not splits or _is_header_row(row):
            splits = []
            flush()
            out.append(row)
        else:
            seg.append((row, row))  # a row of another grid inside the table: as it is
    flush()
    return out


def _words_in(words: list[Word], b: BBox) -> list[Word]:
    """The words whose centre lies in box b (half a point of slack)."""
    return [
        w
        for w in words
        if b.x0 - 0.5 <= w.bbox_pdf.center[0] <= b.x1 + 0.5 and b.y0 - 0.5 <= w.bbox_pdf.center[1] <= b.y1 + 0.5
    ]


def _split_row(
    row: TableRow, split: tuple[int, list[float], list[str], int], page_words: list[Word] | None
) -> tuple[TableRow, bool]:
    """Cell `i` of a row cut into one cell per merged value column (see `_split_merged_roles`), and
    whether the cell held few enough lines of values (one; three with `FEW_LINES`; any number with
    `SECTION_ROWS`)."""
    i, centres, head_texts, _ = split
    b = row.cell_boxes[i]
    cuts = [b.x0] + [(a + c) / 2 for a, c in zip(centres, centres[1:], strict=False)] + [b.x1]
    slots = [BBox(cuts[k], b.y0, cuts[k + 1], b.y1) for k in range(len(centres))]
    one_line = True
    if page_words is None:  # the header row itself
        texts, boxes = list(head_texts), slots
    else:
        inside = _words_in(page_words, b)
        ys = sorted(w.bbox_pdf.center[1] for w in inside)
        lines = 1 + sum(1 for a, c in zip(ys, ys[1:], strict=False) if c - a > 2.5)
        one_line = not ys or ys[-1] - ys[0] <= 2.5 or (FEW_LINES and lines <= 3) or SECTION_ROWS
        got: list[list[Word]] = [[] for _ in centres]
        for w in inside:
            got[min(range(len(centres)), key=lambda k: abs(centres[k] - w.bbox_pdf.center[0]))].append(w)
        for ws in got:
            ws[:] = _in_reading(ws)
        texts = [" ".join(w.text for w in ws) for ws in got]
        boxes = [
            union_box(w.bbox_pdf for w in ws) if ws else slot for ws, slot in zip(got, slots, strict=True)
        ]
    done = TableRow(
        page=row.page,
        bbox_pdf=row.bbox_pdf,
        cells=[*row.cells[:i], *texts, *row.cells[i + 1 :]],
        text=row.text,
        is_header=row.is_header,
        cell_boxes=[*row.cell_boxes[:i], *boxes, *row.cell_boxes[i + 1 :]],
    )
    return done, one_line


TITLE_ROWS = True  # specs-10; off for an ablation (benchmarks/spec_rerun.py --without title-rows)


def _title_row(row: TableRow) -> bool:
    """A table's caption drawn inside its grid ("MAXIMUM RATINGS (TA = 25 °C unless otherwise
    noted)" in one cell merged over every column): one filled cell, every cell the same box. It
    names no column, though its first word may be a column header's ("Maximum ratings")."""
    if not TITLE_ROWS or len(row.cells) < 3 or len(row.cell_boxes) != len(row.cells):
        return False
    if sum(1 for c in row.cells if c.strip()) != 1:
        return False
    b0 = row.cell_boxes[0]
    return all(
        abs(b.x0 - b0.x0) <= 0.5 and abs(b.x1 - b0.x1) <= 0.5 for b in row.cell_boxes[1:]
    )


def _is_header_row(row: TableRow) -> bool:
    filled = [c for c in row.cells if c.strip()]
    if not filled or _title_row(row):
        return False
    hits = sum(1 for c in filled if _role_of(c)[0] is not None)
    if hits >= 2 or (row.is_header and hits >= 1):
        return True
    # a header row naming parameters only ("Range | Temp. range (°C) | VCC"), marked as the header
    return row.is_header and any(match_parameter(c, "")[0] and match_parameter(c, "")[1] for c in filled[1:])


DESCRIPTION_CASES = True  # specs-18; off for an ablation (benchmarks/spec_rerun.py --without description-cases)


def _columns(header_rows: list[TableRow]) -> _Cols:
    """Column roles from one or more header rows; a sub-header (Min/Typ/Max under a merged
    "Value") wins over the row above it."""
    cols = _Cols()
    for row in header_rows:
        boxed = len(row.cell_boxes) == len(row.cells)
        roles_here = False
        if _title_row(row):
            cols.label_rows.append(row)  # a caption above the header names no column
            continue
        for i, cell in enumerate(row.cells):
            role, hint = _role_of(cell)
            if cell.strip():
                cols.names[i] = fold(cell)
            if role is None:
                continue
            if role in ("min", "typ", "max") or i not in cols.roles:
                cols.roles[i] = role
                if boxed:
                    cols.boxes[i] = row.cell_boxes[i]
            if role in _VALUE_ROLES:
                roles_here = True
            if hint:
                cols.unit_hints[i] = hint
        if not roles_here:
            cols.label_rows.append(row)
        if boxed:
            cols.head_boxes = list(row.cell_boxes)
        cols.head_row = row
    if RATING_NAMES and cols.col("parameter") is None:
        # "Rating | Symbol | Value | Unit" (the ratings tables of ON Semiconductor, Freescale/NXP):
        # "Rating" heads the names when a column right of it holds the values
        values = sorted(i for i, r in cols.roles.items() if r in _VALUE_ROLES)
        first = values[0] if values else None
        if (
            first is not None
            and len(values) > 1
            and cols.roles[first] == "value"
            and re.fullmatch(r"ratings?", cols.names.get(first, "").strip().lower())
        ):
            cols.roles[first] = "parameter"
            cols.boxes.pop(first, None)
    # a merged "Value" spanning sub-headers: find_tables repeats its text in every spanned cell,
    # the sub-header row names them; cells still "value" with a min/typ/max neighbour are fine.
    if cols.kind == "" and cols.col("value") is not None and cols.col("parameter") is None:
        # "Item | Rating | Unit" without a parameter header: the first unnamed text column is it
        first = next((i for i in range(len(header_rows[-1].cells)) if i not in cols.roles), None)
        if first is not None and first < (cols.col("value") or 0):
            cols.roles[first] = "parameter"
    if cols.kind == "" and any(r in _VALUE_ROLES for r in cols.roles.values()) and 0 not in cols.roles:
        cols.roles[0] = "parameter"
    names = sorted(i for i, r in cols.roles.items() if r == "parameter")
    if DESCRIPTION_CASES and len(names) >= 2 and cols.col("conditions") is None:
        # "Parameter | Description | Min | Typ | Max | Unit" (Espressif, Microchip/Micrel): the name
        # is in the first; the second holds each row's case ("F = F0 + 2 MHz"), its condition
        cols.roles[names[1]] = "conditions"
        cols.cases = names[1]
    scol = cols.col("symbol")
    if (
        _NAMELESS
        and cols.kind == "long"
        and cols.col("parameter") is None
        and scol is not None
        and scol > 0
        and not any(_cell(r, 0) for r in header_rows)
    ):
        # "| Symbol | Condition | Min. | ...": the unheaded first column left of Symbol holds the names
        cols.roles[0] = "parameter"
    if cols.kind == "" and header_rows:
        for i, cell in enumerate(header_rows[-1].cells):
            if i == 0 or i in cols.roles or not cell.strip():
                continue
            pid, known = match_parameter(cell, "")
            if known and parameter_unit(pid):
                cols.named[i] = pid
                hint = _role_of(cell)[1]
                if hint:
                    cols.unit_hints[i] = hint
    return cols


TABLE_CONDITIONS = True  # specs-18; off for an ablation (benchmarks/spec_rerun.py --without table-conditions)
# where a caption states its conditions: a quantity set equal to a number ("TA = 25°C", "VDD = 5 V") or
# a temperature range ("-40°C to +85°C")
_CAPTION_COND_RE = re.compile(
    r"\b(?:T[AaJjCc]|V[A-Z][A-Za-z0-9_]{0,6})\s*=\s*[-+]?\d|[-+]?\d+(?:\.\d+)?\s*°C\s*(?:to|~|\.\.\.?)\s*[-+]?\d"
)
CAPTION_SIGNS = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without caption-signs)
# a caption's quantity set to a ± or a minus sign ("VS = ±15.0 V", "VEE = −5 V") sets it as much as a
# bare number does: read it (the clause was dropped, the caption read from the next one on)
_CAPTION_SIGNED_RE = re.compile(
    r"\b(?:T[AaJjCc]|V[A-Z][A-Za-z0-9_]{0,6})\s*=\s*[-+±−–]?\s?\d|[-+−–]?\d+(?:\.\d+)?\s*°C\s*(?:to|~|\.\.\.?)\s*[-+−–]?\d"
)


def _caption_cond_re() -> re.Pattern[str]:
    return _CAPTION_SIGNED_RE if CAPTION_SIGNS else _CAPTION_COND_RE


_UNLESS_RE = re.compile(r"\(?\s*,?\s*unless\s+(?:otherwise\s+)?(?:noted|specified|stated|indicated|otherwise)[^,.;)]*[,.;]?\s*\)?",
                        re.IGNORECASE)


CAPTION_MODES = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without caption-modes)
_TABLE_CAPTION_RE = re.compile(r"^(?:table|tab\.)\s*[A-Z]?[\d.\-]+[.:]?\s", re.IGNORECASE)
_VOLT_PAREN_RE = re.compile(r"\(\s*([-+±]?\d+(?:\.\d+)?\s*V)\s*\)")
_NO_MODE_RE = re.compile(r"cont(?:inued|'d|’d)?\b|\bpage\b|\bnote", re.IGNORECASE)


def _caption_mode(t: str) -> str:
    """A caption that sets no quantity but names the case its table is for: a numbered caption's
    mode after its spaced dash ("Table 4-22. Receiver Characteristics - Bluetooth LE 1 Mbps"), or a
    supply voltage in parentheses ("DC Electrical Characteristics Over the operating range (5V)"),
    where the document prints one table per mode or supply. "" for a continuation ("- Continued")."""
    volt = _VOLT_PAREN_RE.findall(t)
    if len(volt) == 1:
        return volt[0].replace(" ", "")
    if not _TABLE_CAPTION_RE.match(t) or " - " not in t:
        return ""
    mode = t.rsplit(" - ", 1)[1].strip(" ,;.")
    return mode if 2 <= len(mode) <= 40 and not _NO_MODE_RE.search(mode) else ""


ITEM_COLUMNS = True  # specs-18; off for an ablation (benchmarks/spec_rerun.py --without item-columns)
_NAME_SYMBOL_RE = re.compile(r"(.+?),\s*([A-Za-z][A-Za-z0-9_()]{0,8})")  # "Junction range, TJ"


def _item_column(row: TableRow, cols: _Cols, pcol: int, name: str, symbol: str) -> tuple[str, str, str]:
    """An unheaded column between the names and the first headed column right of them (TI's absolute
    maximum ratings: "Voltage | VIN", "Temperature | Junction range, TJ", "Power dissipation | PDIP
    (P)"; the category merged down over its items), read by `_item_column_read`. A column under a header
    merged with the conditions' is the conditions' side (a symbol or part of the condition, never the
    name); a condition the grid cut over two cells ("VIN" | "= 0 V") stays one. (name, symbol, condition)."""
    first = min((i for i in cols.roles if i > pcol), default=len(row.cells))
    cut = re.match(r"\s*[=≤≥<>]", _cell(row, cols.col("conditions")))  # "VIN" | "= 0 V": one condition cut in two
    heads = cols.head_boxes
    # a column under a header cell merged with a headed one ("TEST CONDITIONS" over two) is that one's;
    # merged with the names' header it is an item of them
    merged = {
        i
        for i in range(len(heads))
        for j, r in cols.roles.items()
        if j != i and r not in ("parameter", "symbol") and j < len(heads) and heads[i] == heads[j]
    }
    items = [_cell(row, i) for i in range(pcol + 1, first) if i not in cols.named and i not in merged and _cell(row, i)]
    side = [_cell(row, i) for i in range(pcol + 1, first) if i not in cols.named and i in merged and _cell(row, i)]
    if cut:
        return name, symbol, " ".join(items + side)
    if side:  # under the conditions' header: a symbol ("VOH") or part of the condition ("Sink"), never the name
        if not symbol and _SYMBOL_CELL_RE.fullmatch(side[0]) and not (len(side) > 1 and re.match(r"[=≤≥<>]", side[1])):
            symbol, side = side[0], side[1:]  # not "VIN" | "= 0 V": one condition cut over two cells
        name, symbol, cond = _item_column_read(" ".join(items).strip(), name, symbol)
        return name, symbol, " ".join(x for x in (cond, *side) if x)
    return _item_column_read(" ".join(items).strip(), name, symbol)


def _item_column_read(item: str, name: str, symbol: str) -> tuple[str, str, str]:
    """One item's reading, in order: a number is a value's, not an item; a bare symbol is the symbol;
    a symbol then words is the symbol and a condition; a condition or a note is the row's case; beside
    a symbol-only name it is the name; a name the vocabulary knows names the row; else the row's case."""
    if not item:
        return name, symbol, ""
    if re.fullmatch(r"[-+±]?\d[\d.,]*", item) or (parse_value(item) or ParsedValue()).unit:
        return name, symbol, ""  # a number under no header: a value's, not an item
    if not symbol and _SYMBOL_CELL_RE.fullmatch(item):
        return name, item, ""  # a bare symbol ("VIN" under "Voltage", "RDC 1", "VOL" beside "Swing")
    lead = re.match(r"(\S+)\s+(.+)", item)
    if (
        not symbol
        and lead
        and not _SYMBOL_CELL_RE.fullmatch(name.replace(" ", ""))  # a name that is a symbol itself ("VCC")
        and _SYMBOL_CELL_RE.fullmatch(lead.group(1))
        and lead.group(1) not in package_prefixes()  # "PDIP (P)", "SOIC (D)": a package, the row's case
        and not re.match(r"[=≤≥<>]", lead.group(2))  # "VIN = VDD": the condition's own quantity
    ):
        return name, lead.group(1), lead.group(2)  # "ICC VCC = 5.0 V, output open", "CLOAD VIOUT to GND": a symbol, then the condition
    if re.search(r"[=≤≥<>]", item) or _is_condition(item):
        return name, symbol, item  # a test condition printed in a column of its own
    if not symbol and _SYMBOL_CELL_RE.fullmatch(name.replace(" ", "")) and re.search(r"[A-Za-z]{3,}\s+[A-Za-z]{3,}", item):
        return item, name, ""  # "VCC | Voltage source (VCC connects to power)": the symbol, then the name
    if len(item.split()) >= 6 or item.endswith("."):
        return name, symbol, item  # a note printed in a column of its own
    m = _NAME_SYMBOL_RE.fullmatch(item)
    iname, isym = (m.group(1), m.group(2)) if m else (item, "")
    pid_i, known_i = match_parameter(iname, isym)
    pid_n, known_n = match_parameter(name, symbol) if name else ("", False)
    if known_i and (not known_n or pid_i == pid_n):
        # the item names the row ("Storage range, Tstg" under "Temperature"), or names it as a
        # symbol-only name does ("Tstg | Storage temperature"): the item is the name
        own = symbol or (name if known_n and " " not in name.strip() else "")
        return iname if m else item, isym or own, ""
    return name, symbol, item


CONDITIONS_LEFT = True  # specs-18; off for an ablation (benchmarks/spec_rerun.py --without conditions-left)
_SYMBOL_CELL_RE = re.compile(r"[A-Z][A-Z0-9_]{0,5}(?: ?\d)?")  # a symbol's cell: capitals, an index


def _caption_condition(text: str) -> str:
    """The conditions a table's caption states for every row: its parenthesised clauses that set a
    quantity or a temperature range ("Electrical Characteristics (Ta = 25°C)"), else the caption from
    its first such clause on ("Static characteristics Ta = -40 °C to +85 °C for commercial
    applications"; "Jitter & Phase Noise - Clipped Sinewave, 0°C to 70°C": from the spaced dash, the
    mode the table is for; a bare temperature range counts only so or in parentheses). "Unless
    otherwise noted" is left out (a row's own condition wins)."""
    t = re.sub(r"\s+", " ", fold(text)).strip()
    parens = [p.strip() for p in re.findall(r"\(([^()]*)\)", t) if _caption_cond_re().search(p)]
    if parens:
        return "; ".join(_UNLESS_RE.sub(" ", p).strip(" ,;.") for p in parens)
    if re.search(r"\.{4,}|…{2,}", t):
        return ""  # a ratings line with dot leaders: a value, not a caption
    m = _caption_cond_re().search(t)
    if m is None:
        return _caption_mode(t) if CAPTION_MODES else ""
    start = m.start()
    dash = t.rfind(" - ", 0, start)
    if dash >= 0 and len(t[dash + 3 : start]) <= 40:
        start = dash + 3  # the mode the table is for, after the caption's dash
    elif "=" not in m.group(0):
        return ""  # a bare range outside parentheses and after no dash: a value printed above the table
    return _UNLESS_RE.sub(" ", t[start:]).strip(" ,;.")


def _table_conditions(c: Chunk, words: Callable[[int], list[Word]] | None) -> str:
    """The conditions a table chunk's caption states: its section heading and the printed lines
    above its first row inside the chunk's region, or a caption row drawn inside the grid."""
    texts = [c.section_title] if c.section_title else []
    if c.rows:
        first = c.rows[0]
        if _title_row(first):
            texts.append(" ".join(x for x in first.cells if x.strip()))
        span = _region_span(c, first.page)
        if words is not None and span is not None:
            above = [w for w in _words_in(words(first.page), BBox(*span)) if w.bbox_pdf.center[1] < first.bbox_pdf.y0 - 1]
            texts += [" ".join(w.text for w in sorted(line, key=lambda w: w.bbox_pdf.x0)) for line in _printed_lines(above)]
    out: list[str] = []
    for t in texts:
        cond = _caption_condition(t)
        if cond and len(cond) <= 120 and not any(cond in o or o in cond for o in out):
            out.append(cond)
    return "; ".join(out)


_SET_QTY_RE = re.compile(r"(?<![A-Za-z0-9])@?\s*([A-Za-z][A-Za-z0-9_]{0,7})\s*(?:=|≤|<|≥|>)")


def _joined(conditions: str, more: str) -> str:
    """Two condition texts as one, "; " between them (either may be empty)."""
    return "; ".join(x for x in (conditions, more) if x)


def _add_table_conditions(values: list[SpecValue], cond: str) -> None:
    """The caption's conditions after each value's own (an ordering table's caption is no condition).
    A caption clause setting a quantity the row sets itself, in its conditions or its name ("TA =
    25°C" over a row "at TA = 50°C"), is left out for that row: the row's wins ("unless otherwise
    noted")."""
    if not cond:
        return
    clauses = [x.strip() for x in re.split(r";\s*|,\s*(?=@?\s*[A-Za-z][A-Za-z0-9_]{0,7}\s*=)", cond) if x.strip()]
    for v in values:
        if v.table == "ordering":
            continue
        own = {m.group(1).lower() for m in _SET_QTY_RE.finditer(fold(f"{v.conditions} {v.parameter_printed}"))}
        keep = [x for x in clauses if not ((m := _SET_QTY_RE.match(x)) and m.group(1).lower() in own)]
        add = cond if len(keep) == len(clauses) else ", ".join(keep)
        if not add or fold(add) in fold(v.conditions):
            continue
        v.conditions = _joined(v.conditions, add)


def _table_specs(
    doc_id: str,
    part: str,
    c: Chunk,
    words: Callable[[int], list[Word]] | None,
    parts: tuple[str, ...] = (),
) -> list[SpecValue]:
    """The values of one table chunk. When its grid as stored yields none, the table forms a
    grid detector misses are tried, each only then (a table read as stored is never read again):
    rows whose edge columns the grid left out (`_widened`), a ratings list printed with dot
    leaders (`_leader_rows`), one the grid cut into cells (`_leader_columns`). A table read as
    stored also gives a dot-leader list printed beside it in the chunk (`_leaders_beside`)."""
    out = _read_rows(doc_id, part, c, c.rows, words, parts)
    if out:
        return out + _leaders_beside(doc_id, part, c, words, parts, out)
    for reader in _FALLBACKS:
        rows = reader(c, words)
        if rows:
            out = _read_rows(doc_id, part, c, rows, words, parts)
            if out:
                return out
    return out


MERGED_UNITS = True  # specs-18; off for an ablation (benchmarks/spec_rerun.py --without merged-units)


MERGED_CONDITIONS = True  # specs-20; off for an ablation (benchmarks/spec_rerun.py --without merged-conditions)


def _merged_down(
    row: TableRow, col: int | None, span: tuple[int, BBox, str] | None, within: list[int] | None = None
) -> tuple[TableRow, tuple[int, BBox, str] | None]:
    """A cell merged down over several rows ("℃" once, centred on the three temperature rows; "IOUT =
    1 A, -40°C ≤ TJ ≤ 85°C" beside eight output-voltage lines): find_tables gives its text to the
    first row and a box reaching down over the others, whose cells in that column it leaves empty.
    A row whose cell is empty and whose middle lies inside that box takes its text; (the row, the
    span in force after it). The span is measured against the row's other cells, or, with `within`,
    against those cells only (the value cells: a name cell may be merged down further still)."""
    if col is None or col >= len(row.cells) or len(row.cell_boxes) != len(row.cells):
        return row, None
    text, box = row.cells[col].strip(), row.cell_boxes[col]
    if text:
        # the span in force: this cell, when its box reaches below the row's other cells
        others = [i for i in (within if within is not None else range(len(row.cells))) if i != col]
        reach = max((row.cell_boxes[i].y1 for i in others if i < len(row.cell_boxes)), default=box.y1)
        return row, ((row.page, box, text) if box.y1 > reach + 1 else None)
    if span is None or span[0] != row.page:
        return row, None
    mid = (row.bbox_pdf.y0 + row.bbox_pdf.y1) / 2
    if not (span[1].y0 < mid < span[1].y1):
        return row, None
    cells = list(row.cells)
    cells[col] = span[2]
    return row.model_copy(update={"cells": cells}), span


GAP_SECTIONS = True  # specs-20; off for an ablation (benchmarks/spec_rerun.py --without gap-sections)
_GAP_HEADER_RE = re.compile(r"\b(?:min|typ|max|value|units?|symbol|parameter|conditions?)\b", re.IGNORECASE)
_NOT_SECTION_RE = re.compile(r"^(?:table|figure|fig\.|note)\b", re.IGNORECASE)


def _gap_section(above: TableRow | None, row: TableRow, words: Callable[[int], list[Word]] | None) -> str | None:
    """A section heading the grid left out ("LINEIN -> ADC -> I2S OUT", "STN TYPE LCD Ta = 25℃"
    printed between two rows, in a gap no row covers): one line of words inside the table's width,
    beginning with a capital, no caption or note. Its text, or None when the rows touch or the gap
    holds no such line."""
    if not GAP_SECTIONS or words is None or above is None or above.page != row.page:
        return None
    g0, g1 = above.bbox_pdf.y1, row.bbox_pdf.y0
    if g1 - g0 < 6:
        return None
    x0, x1 = min(above.bbox_pdf.x0, row.bbox_pdf.x0), max(above.bbox_pdf.x1, row.bbox_pdf.x1)
    ws = [
        w
        for w in words(row.page)
        if g0 <= w.bbox_pdf.center[1] <= g1 and x0 - 2 <= w.bbox_pdf.x0 and w.bbox_pdf.x1 <= x1 + 2
    ]
    if not ws:
        return None
    ys = [w.bbox_pdf.center[1] for w in ws]
    if max(ys) - min(ys) > 3:
        return None  # several lines: a note, a drawing's labels - no heading
    return _section_text(" ".join(w.text for w in sorted(ws, key=lambda w: w.bbox_pdf.x0)))


TITLE_SECTIONS = True  # specs-27; off for an ablation (benchmarks/spec_rerun.py --without title-sections)


def _section_text(text: str) -> str | None:
    """`text` as a section heading of a long table (one line, a capital first, set in capitals or
    ending in a colon, no caption, note, column header or parameter name), or None."""
    text = text.strip()
    if "\n" in text or not (3 <= len(text) <= 80) or not re.match(r"[A-Z\u4e00-\u9fff]", text) or _NOT_SECTION_RE.match(text):
        return None
    if not re.search(r"[A-Za-z]{3}|[\u4e00-\u9fff]{2}", text) or re.search(r"\.{3}|…", text):
        return None  # no name, or a rating line with its dot leader that the grid lost
    if _GAP_HEADER_RE.search(text) or match_parameter(text)[1]:
        return None  # column headers, or a row the grid lost that names a parameter
    letters = [ch for ch in text if ch.isalpha() and ch.isascii()]
    upper = sum(ch.isupper() for ch in letters)
    if not (text.endswith(":") or (letters and upper >= 0.6 * len(letters))):
        return None  # a heading is set in capitals ("ELECTRICAL CHARACTERISTICS") or ends in a colon
    return text.rstrip(":").strip()


def _read_rows(
    doc_id: str,
    part: str,
    c: Chunk,
    rows: list[TableRow],
    words: Callable[[int], list[Word]] | None,
    parts: tuple[str, ...] = (),
) -> list[SpecValue]:
    out: list[SpecValue] = []
    cols: _Cols | None = None
    pending_header: list[TableRow] = []
    before: TableRow | None = None  # the row above a header: it may name the column groups
    prev: tuple[str, str, str] | None = None  # parameter text, symbol, unit of the row above
    last: dict[tuple[str, str], SpecValue] = {}  # the value above, per column group
    line_part = part  # the part the current line of a long table is printed for
    table_part = part  # the part a heading inside the grid named for the rows under it (`TITLE_PARTS`)
    wide_heads: list[TableRow] = []  # the header rows of the part-number table being read (`STACKED_HEADS`)
    wide_from = -1  # how many values were read when its header ended
    unit_span: tuple[int, BBox, str] | None = None  # a unit cell merged down over the rows below it
    cond_span: tuple[int, BBox, str] | None = None  # a conditions cell merged down likewise
    section = ""  # a section heading printed between two rows of a long table (`_gap_section`)
    above: TableRow | None = None  # the body row above
    wrapped = _Wrap()  # a name's second line printed as a grid row of its own (`_Wrap`)
    for row in _split_merged_roles(rows, words):
        if _is_header_row(row):
            if not pending_header and before is not None and (cols is None or not cols.kind):
                pending_header.append(before)
            pending_header.append(row)
            continue
        if pending_header:
            if STACKED_HEADS and cols is not None and cols.kind == "wide" and len(out) == wide_from:
                # a part-number table's header printed on two or three lines - the names above, their
                # units or Min / Max under them ("Breakdown Voltage VBR (Volts) @ IT" over "MIN | MAX"):
                # one header, read nothing since
                pending_header = [*wide_heads, *pending_header]
            new = _columns(pending_header)
            header_rows, pending_header = pending_header, []
            # a repeated header on the next page changes nothing; a different one starts afresh
            _part_columns(new, header_rows, parts)
            if cols is None or new.roles != cols.roles:
                cols, prev, line_part, section, table_part = new, None, part, "", part
                if cols.kind == "long":
                    cols.groups = _value_groups(cols, row, words, parts)
                if cols.kind == "wide":
                    wide_heads, wide_from = header_rows, len(out)
                    if STACKED_HEADS:
                        stacked = _stacked_names(header_rows, row)
                        cols.names.update({i: " ".join(ts) for i, ts in stacked.items()})
                        cols.tops = {i: ts[0] for i, ts in stacked.items()}
                        for i, name in cols.names.items():
                            if i not in cols.unit_hints and (hint := _name_unit(name)):
                                cols.unit_hints[i] = hint
        if cols is None or not cols.kind:
            before = row
            continue
        title = cols.kind == "long" and _title_row(row)
        heading = " ".join(x for x in row.cells if x.strip()).strip() if title else ""  # its one filled cell
        if cols.kind == "long":
            gap = _gap_section(above, row, words)
            above = row
            if gap is not None:
                section = gap
            elif title:
                # a heading inside the grid starts another part of the table; one set as a section
                # heading ("LINEIN -> ADC -> I2S OUT" read by the grid as a row of its own) is that part's
                # condition as it is when the grid leaves it out (`_gap_section`)
                section = (_section_text(heading) or "") if TITLE_SECTIONS else ""
        if title and TITLE_PARTS and parts:
            # a heading inside the grid naming one of the document's parts ("VCXO Specifications (Si5351B
            # only)", "x05B Performance Characteristics"): the rows under it, up to the next heading, are that part's
            table_part = _part_named(heading, parts) or _wild_part(heading, parts) or part
            line_part = table_part
        if title and QUANTITY_NAMES:
            if re.fullmatch(r"[^\d=:]{3,40}", heading) and re.search(r"[^\W\d_]{3}", heading):
                prev = (heading, "", "")  # "Phase Noise" merged over the table: it names the case rows below
                continue
        row = _aligned(row, cols)
        if cols.kind == "long":
            if MERGED_UNITS:
                row, unit_span = _merged_down(row, cols.col("unit"), unit_span)
            if MERGED_CONDITIONS:
                vcols = [i for i, r in cols.roles.items() if r in _VALUE_ROLES]
                row, cond_span = _merged_down(row, cols.col("conditions"), cond_span, vcols)
            for sub in _split_lines(row, cols, words):
                named = _cell(sub, cols.col("parameter"))
                if SECTION_ROWS and named and parts:
                    # a line naming one of the document's parts ("TMP36 Output Voltage", "AD7767-1
                    # Dynamic Range") is that part's, and so are the condition lines under it
                    line_part = _part_named(named, parts) or _name_code(named, parts) or table_part
                n_out = len(out)
                prev = _read_long(doc_id, line_part, c, sub, cols, prev, words, out, last)
                wrapped.see(sub, cols, out[n_out:])
                if section:
                    for v in out[n_out:]:
                        if section not in v.conditions:
                            v.conditions = _joined(v.conditions, section)
        elif cols.kind == "named":
            # a row named by one of the document's parts (an ordering table's "DS1302Z | 0°C to +70°C") is that part's
            out.extend(_named_row(doc_id, part, c, row, cols, words, parts))
        else:
            out.extend(_wide_row(doc_id, c, row, cols, words))
    wrapped.end()
    return out


WRAPPED_NAMES = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without wrapped-names)
_WRAP_NOT_RE = re.compile(r"\d|\(?\s*notes?\b|\*", re.IGNORECASE)  # a numbered heading, a note


def _upper_heading(text: str) -> bool:
    """A line in capitals ("POWER SUPPLY", "DYNAMIC PERFORMANCE"): a section heading."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 4 and sum(ch.isupper() for ch in letters) >= 0.7 * len(letters)


@dataclass
class _Wrap:
    """A row the grid cut out of the printed row above it: a row printing a name and no value, lying
    inside the box of the row above (which printed values), and followed by a row with a name of its
    own, is the second line of that row's name ("Common-Mode" over "Rejection Ratio", "Input
    Common-Mode" over "Voltage Range"): the values above take the whole name, and the line's
    conditions after theirs. A row followed by values under no name is their heading instead
    ("Supply Current" over "RL = ∞" lines); a line that is a name the vocabulary knows by itself,
    prints a value, unit or symbol, is a section heading in capitals, a numbered heading or a note
    is no second line."""

    above: list[SpecValue] = field(default_factory=list)  # the values of the row above
    top: float = 0.0  # where the row above begins and ends
    bottom: float = 0.0
    pending: tuple[list[SpecValue], str, str] | None = None  # (values, line, its conditions)

    def see(self, row: TableRow, cols: _Cols, values: list[SpecValue]) -> None:
        if not WRAPPED_NAMES:
            return
        name = _cell(row, cols.col("parameter"))
        if self.pending is not None:
            if name:
                self.end()
            self.pending = None
        vcols = [i for i, r in cols.roles.items() if r in _VALUE_ROLES]
        bare = not values and not any(_cell(row, i) for i in (*vcols, cols.col("unit"), cols.col("symbol")))
        if (
            bare
            and self.above
            and name
            and self.top - 0.5 <= row.bbox_pdf.y0 < self.bottom - 1.0  # inside the row above's box
            and not _is_condition(name)
            and not match_parameter(name)[1]
            and not _WRAP_NOT_RE.match(name)
            and not _upper_heading(name)
            and re.search(r"[^\W\d_]{3}", name) is not None  # words, not a mark ("≤") or labels ("N1 N3")
        ):
            self.pending = (self.above, name, _cell(row, cols.col("conditions")))
        self.above, self.top, self.bottom = (values, row.bbox_pdf.y0, row.bbox_pdf.y1) if values else ([], 0.0, 0.0)

    def end(self) -> None:
        if self.pending is None:
            return
        values, line, cond = self.pending
        self.pending = None
        for v in values:
            v.parameter_printed = f"{v.parameter_printed} {line}"
            pid, known = match_parameter(v.parameter_printed, v.symbol, unit=v.unit)
            if not known or parameter_unit(pid) in (v.unit, None):
                v.parameter, v.known = (pid, known) if known else (printed_id(v.parameter_printed), False)
            if cond and cond not in v.conditions:
                v.conditions = f"{v.conditions} {cond}" if v.conditions.endswith(",") else _joined(v.conditions, cond)


# --------------------------------------------------------------------------- tables the grid missed
def _region_span(c: Chunk, page: int) -> BBox | None:
    """The box around the chunk's members on a page (the table as the layout model saw it)."""
    boxes = [m.bbox_pdf for m in c.regions if m.page == page]
    return union_box(boxes) if boxes else None


def _widened(c: Chunk, words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """A table whose grid left out its edge columns (no outer rule: the Parameter column at the
    left, the Unit column at the right) or its header line, read from the page words inside the
    chunk's region: every row gets a cell of the words left of its grid and one of those right of
    it (empty where there are none), and when no row is a header the line of words just above the
    first row becomes one, each word in the column whose x-range holds it. None when nothing is
    outside the grid and the grid has its header."""
    if words is None or not c.rows or any(len(r.cell_boxes) != len(r.cells) for r in c.rows):
        return None
    out: list[TableRow] = []
    added = False
    for r in c.rows:
        span = _region_span(c, r.page)
        if span is None:
            out.append(r)
            continue
        X0, _, X1, _ = span
        rb = r.bbox_pdf
        band = [
            w
            for w in words(r.page)
            if rb.y0 + 0.5 <= w.bbox_pdf.center[1] <= rb.y1 - 0.5 and X0 - 1 <= w.bbox_pdf.center[0] <= X1 + 1
        ]
        def order(w: Word) -> tuple[int, float]:  # line by line, left to right
            return round(w.bbox_pdf.center[1] / 3), w.bbox_pdf.x0

        left = sorted((w for w in band if w.bbox_pdf.x1 <= rb.x0 + 1), key=order)
        right = sorted((w for w in band if w.bbox_pdf.x0 >= rb.x1 - 1), key=order)
        added = added or bool(left or right)
        lb = union_box(w.bbox_pdf for w in left) if left else BBox(X0, rb.y0, max(X0, rb.x0), rb.y1)
        rbx = union_box(w.bbox_pdf for w in right) if right else BBox(min(X1, rb.x1), rb.y0, X1, rb.y1)
        out.append(
            TableRow(
                page=r.page,
                bbox_pdf=union_box([rb, lb, rbx]) if (left or right) else rb,
                cells=[" ".join(w.text for w in left), *r.cells, " ".join(w.text for w in right)],
                text=r.text,
                is_header=r.is_header,
                cell_boxes=[lb, *r.cell_boxes, rbx],
            )
        )
    has_head = any(_is_header_row(r) for r in out)
    if not added and has_head:
        return None
    if not has_head:
        head = _header_above(c, out[0], words)
        if head is None:
            return None
        out.insert(0, head)
    return out


def _header_above(c: Chunk, first: TableRow, words: Callable[[int], list[Word]]) -> TableRow | None:
    """The header line printed just above a table's first row and left out of its grid: the words
    of the nearest line above it inside the chunk's region, each in the column of `first` whose
    x-range holds its centre. None unless that line reads as a header (`_is_header_row`)."""
    span = _region_span(c, first.page)
    if span is None:
        return None
    X0, Y0, X1, _ = span
    fb = first.bbox_pdf
    above = [
        w
        for w in words(first.page)
        if Y0 - 1 <= w.bbox_pdf.center[1] < fb.y0 and fb.y0 - w.bbox_pdf.y1 <= 20
        and X0 - 1 <= w.bbox_pdf.center[0] <= X1 + 1
    ]
    if not above:
        return None
    y = max(w.bbox_pdf.center[1] for w in above)
    line = [w for w in above if abs(w.bbox_pdf.center[1] - y) <= 3]
    cells = ["" for _ in first.cells]
    boxes: list[BBox | None] = [None for _ in first.cells]
    for w in sorted(line, key=lambda w: w.bbox_pdf.x0):
        cx = w.bbox_pdf.center[0]
        i = next((k for k, b in enumerate(first.cell_boxes) if b.x0 - 0.5 <= cx <= b.x1 + 0.5), None)
        if i is None:
            continue
        cells[i] = f"{cells[i]} {w.text}".strip()
        boxes[i] = w.bbox_pdf if boxes[i] is None else union_box([boxes[i], w.bbox_pdf])  # type: ignore[list-item]
    y0 = min(w.bbox_pdf.y0 for w in line)
    y1 = max(w.bbox_pdf.y1 for w in line)
    row = TableRow(
        page=first.page,
        bbox_pdf=BBox(first.bbox_pdf.x0, y0, first.bbox_pdf.x1, y1),
        cells=cells,
        text=" ".join(t for t in cells if t),
        is_header=True,
        cell_boxes=[b if b is not None else BBox(fb_.x0, y0, fb_.x1, y1) for b, fb_ in zip(boxes, first.cell_boxes, strict=True)],
    )
    return row if _is_header_row(row) else None


_FALLBACKS.append(_widened)


def _fused_header(c: Chunk, words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """A header line the grid fused into the first row (a shaded header band with no rule under
    it: "Symbol VDD | Parameter supply voltage | Min -0.5 | Max +3.6 | Unit V"), split off: every
    filled cell of the first row opens with a header word (`_role_of`) on a line of its own, the
    words below it are the row's. None unless two cells go on below their header word, one of
    them a value column."""
    if not FUSED_HEADER or words is None or not c.rows:
        return None
    first = c.rows[0]
    if len(first.cell_boxes) != len(first.cells):
        return None
    page_words = words(first.page)
    head: list[tuple[str, BBox]] = []
    body: list[tuple[str, BBox]] = []
    split_y = first.bbox_pdf.y0
    roles: list[str] = []
    for text, box in zip(first.cells, first.cell_boxes, strict=True):
        inside = _in_reading(
            w for w in page_words if box.x0 - 1 <= w.bbox_pdf.center[0] <= box.x1 + 1
            and box.y0 - 1 <= w.bbox_pdf.center[1] <= box.y1 + 1
        )
        if not text.strip() or not inside:
            head.append(("", box))
            body.append(("", box))
            continue
        top_y = round(inside[0].bbox_pdf.center[1] / 3)
        top = [w for w in inside if round(w.bbox_pdf.center[1] / 3) == top_y]
        rest = [w for w in inside if round(w.bbox_pdf.center[1] / 3) != top_y]
        role, _ = _role_of(" ".join(w.text for w in top))
        if role is None:
            return None
        hb = union_box(w.bbox_pdf for w in top)
        split_y = max(split_y, hb.y1)
        head.append((" ".join(w.text for w in top), hb))
        body.append((" ".join(w.text for w in rest), union_box(w.bbox_pdf for w in rest) if rest else box))
        if rest:
            roles.append(role)
    if len(roles) < 2 or not any(r in _VALUE_ROLES for r in roles):
        return None
    fb = first.bbox_pdf
    head_row = TableRow(
        page=first.page,
        bbox_pdf=BBox(fb.x0, fb.y0, fb.x1, split_y),
        cells=[t for t, _ in head],
        text=" | ".join(t for t, _ in head),
        is_header=True,
        cell_boxes=[b for _, b in head],
    )
    body_row = TableRow(
        page=first.page,
        bbox_pdf=BBox(fb.x0, split_y, fb.x1, fb.y1),
        cells=[t for t, _ in body],
        text=" | ".join(t for t, _ in body),
        cell_boxes=[b for _, b in body],
    )
    return [head_row, body_row, *c.rows[1:]]


_FALLBACKS.append(_fused_header)
_FALLBACKS.append(lambda c, words: _gap_list(c, words))  # a ratings list the layout model called a table


def _line_runs(line: list[Word], gap: float) -> list[list[Word]]:
    """A line's words split where the space between two is wider than `gap`: its table cells."""
    runs: list[list[Word]] = []
    for w in sorted(line, key=lambda w: w.bbox_pdf.x0):
        if runs and w.bbox_pdf.x0 - runs[-1][-1].bbox_pdf.x1 <= gap:
            runs[-1].append(w)
        else:
            runs.append([w])
    return runs


def _figure_tables(c: Chunk, words: Callable[[int], list[Word]]) -> list[tuple[str, list[TableRow]]]:
    """Tables the layout model took for a figure (small ratings tables drawn as one picture): the
    page words inside the chunk's region read line by line; a line of three or more word runs, two
    of them header words (`_role_of`), one a value column's, starts a table, and each line below
    it, up to the next header line, is a row whose runs go to the header column whose x-range holds their centre
    (the columns split halfway between two header runs). Each table comes with its heading: the
    line above its header line (inside the figure, else the page's line just above it), which says
    whether it holds ratings. A figure without a header line (a graph, a drawing) gives nothing."""
    region = next((r.bbox_pdf for r in c.regions if r.page == c.page), None)
    if region is None:
        return []
    page_words = words(c.page)
    inside = [
        w for w in page_words
        if region.x0 - 1 <= w.bbox_pdf.center[0] <= region.x1 + 1 and region.y0 - 1 <= w.bbox_pdf.center[1] <= region.y1 + 1
    ]
    if len(inside) < 6:
        return []
    ids = {id(w) for w in inside}
    above = [
        w for w in page_words
        if id(w) not in ids and w.bbox_pdf.x1 > region.x0 and w.bbox_pdf.x0 < region.x1
        and region.y0 - 30 <= w.bbox_pdf.center[1] < region.y0 + 1
    ]
    lines = _printed_lines(inside)
    tables: list[tuple[str, list[TableRow]]] = []
    edges: list[float] = []
    last = max(above, key=lambda w: w.bbox_pdf.center[1]) if above else None
    heading = " ".join(w.text for w in sorted(above, key=lambda w: w.bbox_pdf.x0)
                       if last and abs(w.bbox_pdf.center[1] - last.bbox_pdf.center[1]) <= 2)
    for line in lines:
        heights = sorted(w.bbox_pdf.y1 - w.bbox_pdf.y0 for w in line)
        runs = _line_runs(line, max(4.0, 0.6 * heights[len(heights) // 2]))
        boxes = [union_box(w.bbox_pdf for w in r) for r in runs]
        texts = [" ".join(w.text for w in r) for r in runs]
        y0, y1 = min(b.y0 for b in boxes), max(b.y1 for b in boxes)
        head = TableRow(page=c.page, bbox_pdf=BBox(region.x0, y0, region.x1, y1), cells=texts,
                        text=" | ".join(texts), is_header=True, cell_boxes=boxes)
        roles = [_role_of(t)[0] for t in texts]
        if len(runs) >= 3 and sum(r is not None for r in roles) >= 2 and any(r in _VALUE_ROLES for r in roles):
            edges = [(boxes[i].x1 + boxes[i + 1].x0) / 2 for i in range(len(boxes) - 1)]
            tables.append((heading, [head]))
            continue
        heading = " ".join(texts)
        if not tables:
            continue
        cells: list[list[Word]] = [[] for _ in range(len(edges) + 1)]
        for r, b in zip(runs, boxes, strict=True):
            col = sum(1 for e in edges if b.center[0] > e)
            if _between_values(b, tables[-1][1][0]):
                continue  # a cell merged over two value columns: its number's role is not known
            cells[col].extend(r)
        bounds = [region.x0, *edges, region.x1]
        tables[-1][1].append(
            TableRow(
                page=c.page,
                bbox_pdf=BBox(region.x0, y0, region.x1, y1),
                cells=[" ".join(w.text for w in _in_reading(ws)) for ws in cells],
                text=" ".join(texts),
                cell_boxes=[union_box(w.bbox_pdf for w in ws) if ws else BBox(bounds[i], y0, bounds[i + 1], y1)
                            for i, ws in enumerate(cells)],
            )
        )
    return [(h, t) for h, t in tables if len(t) > 1]


def _printed_lines(words: list[Word]) -> list[list[Word]]:
    """Words grouped into printed lines, top to bottom: a word joins the line above when its centre
    is within 0.4 of its height (2 pt at least) of that line's first word."""
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (w.bbox_pdf.center[1], w.bbox_pdf.x0)):
        h = w.bbox_pdf.y1 - w.bbox_pdf.y0
        if lines and abs(w.bbox_pdf.center[1] - lines[-1][0].bbox_pdf.center[1]) <= max(2.0, 0.4 * h):
            lines[-1].append(w)
        else:
            lines.append([w])
    return lines


def _between_values(box: BBox, head: TableRow) -> bool:
    """Does a body run sit under no header word, between two value columns' header words (a number
    of a cell merged over Min and Max)?"""
    hb = head.cell_boxes
    if any(box.x0 < h.x1 and h.x0 < box.x1 for h in hb):
        return False
    left = max((i for i, h in enumerate(hb) if h.x1 <= box.x0), default=None)
    right = min((i for i, h in enumerate(hb) if h.x0 >= box.x1), default=None)
    return (
        left is not None
        and right is not None
        and _role_of(head.cells[left])[0] in _VALUE_ROLES
        and _role_of(head.cells[right])[0] in _VALUE_ROLES
    )

# dots, ellipses or middle dots, mixed too; and (specs-26, `dash-leaders`) a run of six or more hyphens
# printed as the leader ("Supply Input Voltage -------- -0.3V to 6.0V"): no space inside it, so a minus
# sign after a space stays the value's ("-------  -0.3V") and a run ending on a digit gives the digit no
# sign. benchmarks/spec_rerun.py --without dash-leaders swaps in the dots-only patterns.
_DOT_LEADER = r"(?:[.…·]\s?){4,}|…{2,}"
_DASH_LEADER = r"-{6,}"
_LEADER_RE = re.compile(_DOT_LEADER + "|" + _DASH_LEADER)
_LEADER_CHARS = {".", "…", "·"}  # a word of these alone is a leader's piece (a dash run is one by `_LEADER_RE`)


def _leader_rows(c: Chunk, words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """A ratings list printed with dot leaders ("Supply Voltage, V+ to V– ........ 36V"), one line
    a grid row with one cell: a Parameter / Value / Conditions table, the name left of the leader,
    the value right of it ("10 mA @ 5 VDC": the value, then its condition). A line with no leader
    and nothing after it heads the indented lines below it ("Dielectric Withstanding Voltage" over
    "Sea Level ..... 1,000 VAC"). The cell boxes are the words' (a word holding the leader and the
    value is cut where its dots end, by its characters' widths). None unless most lines have a leader."""
    rows = [r for r in c.rows if " ".join(r.cells).strip()]
    if not rows or any(sum(1 for t in r.cells if t.strip()) > 1 for r in rows):
        return None
    return _leader_list(rows, words)


def _value_header(page: int, box: BBox) -> TableRow:
    """The header a list read as a table is given: "Parameter | Value | Conditions" (the readers
    of dot-leader lists, gap lists and name | value rows make their rows in these three columns)."""
    return TableRow(page=page, bbox_pdf=box, cells=["Parameter", "Value", "Conditions"],
                    text="Parameter Value Conditions", is_header=True, cell_boxes=[box, box, box])


def _leader_list(
    rows: list[TableRow], words: Callable[[int], list[Word]] | None, *, need_unit: bool = False
) -> list[TableRow] | None:
    """`_leader_rows` on rows of one cell each, in reading order. `need_unit`: a line is read only
    when its value prints a unit (a contents list's "Features ...... 1" is not a rating), and the
    lines need not be mostly leader lines (headings, a thermal table's bare numbers beside them)."""
    texts = [" ".join(t for t in r.cells if t.strip()) for r in rows]
    led = [bool(_LEADER_RE.search(t)) for t in texts]
    if sum(led) < 2 or (sum(led) * 2 < len(rows) and not need_unit):
        return None
    out = [_value_header(rows[0].page, rows[0].bbox_pdf)]
    heading: tuple[str, float] | None = None  # a leaderless line's text and left edge
    for r, t, has in zip(rows, texts, led, strict=True):
        ws = sorted(
            _words_in(words(r.page) if words is not None else [], r.bbox_pdf),
            key=lambda w: w.bbox_pdf.x0,
        )
        x_left = ws[0].bbox_pdf.x0 if ws else r.bbox_pdf.x0
        bare = _leaderless_line(t) if not has and LEADERLESS_LINES else None
        if not has and bare is None:
            # a heading: no number but in parentheses ("Continuous power dissipation (TA=+25°C) (2)")
            heading = (t.strip(" :"), x_left) if not re.search(r"\d", re.sub(r"\([^()]*\)", "", t)) else None
            continue
        if bare is not None:
            name, value = bare  # "Storage Temperature Range -65°C to 150°C" among leader lines
        else:
            leaders = list(_LEADER_RE.finditer(t))  # a leader broken by wider spaces is still one
            name, value = t[: leaders[0].start()].strip(" :,."), t[leaders[-1].end() :].strip(" .…·")
        name = name.lstrip("•·▪■◆●-–* ") if need_unit else name
        if not name or not value:
            continue
        unit = (parse_value(value) or ParsedValue()).unit
        if need_unit and not unit:
            continue
        name, cond, heading = _under_heading(heading, name, x_left, unit if need_unit else None)
        at = re.search(r"\s@\s?|\s(?=at\s)", value)
        if at:
            value, cond = value[: at.start()].strip(), ", ".join(x for x in (cond, value[at.end() :].strip()) if x)
        name_box, value_box = r.bbox_pdf, r.bbox_pdf
        if ws and bare is not None:
            n_value = len(value.split())
            if 0 < n_value < len(ws):
                name_box, value_box = union_box([w.bbox_pdf for w in ws[:-n_value]]), union_box([w.bbox_pdf for w in ws[-n_value:]])
        elif ws:
            k = max((i for i, w in enumerate(ws) if _LEADER_RE.search(w.text) or set(w.text) <= _LEADER_CHARS), default=-1)
            after = ws[k + 1 :]
            boxes = [w.bbox_pdf for w in after]
            if k >= 0:
                w = ws[k]
                tail = _LEADER_RE.split(w.text)[-1]
                if tail.strip():  # "....36V": the value's part of the word, cut by its characters
                    b = w.bbox_pdf
                    # the cut where the dots end, by the characters' widths in Helvetica (PyMuPDF's
                    # base-14 metrics; a dot is half a digit wide, so not by their count)
                    whole = pymupdf.get_text_length(w.text, fontname="helv", fontsize=1)
                    frac = 1 - pymupdf.get_text_length(tail, fontname="helv", fontsize=1) / max(whole, 1e-6)
                    boxes.insert(0, BBox(b.x0 + (b.x1 - b.x0) * frac, b.y0, b.x1, b.y1))
            if boxes:
                value_box = union_box(boxes)
            before = [w.bbox_pdf for w in ws[: max(k, 0)] if not set(w.text) <= _LEADER_CHARS]
            if before:
                name_box = union_box(before)
        out.append(
            TableRow(
                page=r.page,
                bbox_pdf=r.bbox_pdf,
                cells=[name, value, cond],
                text=t,
                cell_boxes=[name_box, value_box, r.bbox_pdf],
            )
        )
    return out if len(out) > 1 else None


_FALLBACKS.append(_leader_rows)

LEADERLESS_LINES = True  # specs-19; off for an ablation (benchmarks/spec_rerun.py --without leaderless-lines)


def _leaderless_line(t: str) -> tuple[str, str] | None:
    """A line of a dot-leader list printed without its leaders ("Storage Temperature Range -65°C to
    150°C" among "SW Voltage ........ -0.3V to 30V" lines): (name, value) where the line ends in the
    longest run of words that reads as a value with a unit and the words before it name something;
    else None (a heading, a note)."""
    short = re.search(r"\s?\.{2,3}\s?(?=[-+±–−]?\d)", t)  # "Operating junction temp. (TJ)... -40°C": a short leader
    if short:
        name, value = t[: short.start()].strip(" :,.…·"), t[short.end() :].strip()
    else:
        tokens = t.split()
        first = next((i for i in range(1, len(tokens)) if re.match(r"[-+±–−]?\d", tokens[i])), None)
        if first is None:
            return None
        name, value = " ".join(tokens[:first]).strip(" :,."), " ".join(tokens[first:])
    if (
        not _LEADERLESS_VALUE_RE.fullmatch(value)
        or re.search(r"[a-z]\. [A-Z][a-z]|[=<>≤≥]$", name)
        or name.count("(") != name.count(")")
    ):
        return None  # a note's sentence, a condition ("fOSC, TJ = 25 °C"), a name cut inside its parentheses
    pv = parse_value(value)
    if pv is None or pv.empty or not pv.unit or not re.match(r"[A-Z\u4e00-\u9fff]", name):
        return None
    return name, value


# a value and nothing else: a number with its unit, or two joined by "to" / "~" / a dash ("-65°C to 150°C")
_LEADERLESS_VALUE_RE = re.compile(
    r"[-+±–−]?\d[\d.,]*\s?[^\s\d.,]{0,6}(?:\s?(?:to|~|-|–)\s?[-+±–−]?\d[\d.,]*\s?[^\s\d.,]{0,6})?"
)


def _under_heading(
    heading: tuple[str, float] | None, name: str, x_left: float, unit: str | None
) -> tuple[str, str, tuple[str, float] | None]:
    """(name, condition, heading still open) of a list line under a heading line (its text and left
    edge): a line indented under it is named by it - as its case when the heading names a parameter
    of the value's `unit` and the line alone names none (`_sub_condition`; no `unit`: never), else as
    "heading, line"; a line not indented closes the heading."""
    if heading is None:
        return name, "", None
    if x_left <= heading[1] + 3:
        return name, "", None
    if unit is not None and _sub_condition(heading[0], name, unit):
        return heading[0], name, heading  # "Maximum Junction Temperature" over "Plastic Packages"
    return f"{heading[0]}, {name}", "", heading


def _sub_condition(heading: str, name: str, unit: str) -> bool:
    """A line indented under a heading names a case of the heading's parameter ("Temperature Range
    (TA)" over "Ceramic Package (D Suffix)"), when the heading names a parameter of the value's unit
    and the line alone names none."""
    pid, known = match_parameter(heading, "", unit=unit)
    if not known or parameter_unit(pid) != unit:
        return False
    return not match_parameter(f"{heading}, {name}", "", unit=unit)[1] and not match_parameter(name, "", unit=unit)[1]


def _line_rows(c: Chunk, words: Callable[[int], list[Word]]) -> list[TableRow]:
    """The printed lines inside a chunk's regions, one single-cell row each (words grouped by the
    text layer's own lines), in reading order column by column: lists printed side by side (a
    ratings list left, thermal data right) are split at every gap of 6 pt or more that no leader
    line crosses."""
    out: list[TableRow] = []
    for page in sorted({m.page for m in c.all_regions()}):
        span = _region_span(c, page) or union_box(b for b in c.bboxes_pdf)
        ws = _words_in(words(page), BBox(*span))
        groups: dict[tuple[int, int], list[Word]] = {}
        for w in ws:
            groups.setdefault((w.block, w.line), []).append(w)
        cut: list[list[Word]] = []  # a text-layer line cut where its words sit on different printed lines
        for g in groups.values():
            start = len(cut)
            for w in sorted(g, key=lambda w: w.bbox_pdf.center[1]):
                if len(cut) > start and w.bbox_pdf.center[1] - cut[-1][0].bbox_pdf.center[1] <= 3:
                    cut[-1].append(w)
                else:
                    cut.append([w])
        lines = sorted(
            (sorted(g, key=lambda w: w.bbox_pdf.x0) for g in cut),
            key=lambda g: (round(min(w.bbox_pdf.y0 for w in g)), g[0].bbox_pdf.x0),
        )
        boxes = [union_box(w.bbox_pdf for w in g) for g in lines]
        texts = [" ".join(w.text for w in g) for g in lines]
        # the x-ranges of the lines that hold a value: a gap none of them crosses splits the columns
        ranges = sorted((b[0], b[2]) for b, t in zip(boxes, texts, strict=True) if _LEADER_RE.search(t))
        cuts: list[float] = []
        if ranges:
            reach = ranges[0][1]
            for x0, x1 in ranges[1:]:
                if x0 - reach >= 6:
                    cuts.append((x0 + reach) / 2)
                reach = max(reach, x1)

        col = [sum(1 for x in cuts if b[0] >= x) for b in boxes]
        order = sorted(range(len(lines)), key=lambda i: (col[i], boxes[i][1], boxes[i][0]))
        for i in order:
            b = BBox(*boxes[i])
            out.append(TableRow(page=page, bbox_pdf=b, cells=[texts[i]], text=texts[i], cell_boxes=[b]))
    return out


def _leader_columns(c: Chunk, words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """A ratings list the table grid cut into cells (two lists side by side, names and values in
    different cells): its printed lines read as a dot-leader list (`_leader_list`), each value with
    a unit."""
    if words is None or not LEADER_COLUMNS or not _leader_lines(c.native_text):
        return None
    return _leader_text(c, words)


_FALLBACKS.append(_leader_columns)


PAIR_ROWS = True  # specs-11; off for an ablation (benchmarks/spec_rerun.py --without pair-rows)
_EXAMPLE_RE = re.compile(
    r"design (?:parameters?|requirements?|example)|application (?:example|information|circuit)|typical application",
    re.IGNORECASE,
)
_QUAL_ONLY_RE = re.compile(r"(?:min|max|typ|minimum|maximum|typical)\.?", re.IGNORECASE)
_NOTE_TAIL_RE = re.compile(r"\s*\((?:[^()]*)\)\s*$")


VALUE_CONDITIONS = True  # specs-16; off for an ablation (benchmarks/spec_rerun.py --without value-conditions)
_CELL_COND_RE = re.compile(r"\s(?:at|with|@)\s|\s?@(?=\s?[-+\d])", re.IGNORECASE)


def _value_then_condition(text: str, hint: str, role: str) -> tuple[ParsedValue | None, str]:
    """A value cell that states its own condition after the value ("1,000 MΩ min. at 500 VDC",
    "50 W @ 25°C Case", "-30° to 80°C (-22° to 176°F) with no icing"): the value before the first
    " at " / " with " / "@", and that condition - unless the condition prints another number in the
    value's unit (two values, each at its own condition: "±4 kHz @ 132 kHz ±2 kHz @ 66 kHz")."""
    m = _CELL_COND_RE.search(text)
    if m is None or not re.search(r"\d", text[: m.start()]):
        return None, ""
    pv = parse_value(text[: m.start()].strip(" ,;"), hint, role)
    said = text[m.start() :].strip(" ,;")
    if pv is None or pv.empty or not pv.unit or not said:
        return None, ""
    for u in re.findall(r"\d\s?([^\s\d,;()]+)", said):
        if (parse_unit(u) or ("", 1.0))[0] == pv.unit:
            return None, ""
    return pv, said


def _another_value(text: str, unit: str) -> bool:
    """A cell that is a value beside the row's first (a bare number, or a number in its unit), not a
    condition ("@+25 °C", "VDD = 3.3 V")."""
    if re.search(r"[=@<>≤≥]", text):
        return False
    pv = parse_value(_NOTE_TAIL_RE.sub("", text))
    return pv is not None and not pv.empty and pv.unit in ("", unit)


def _pair_rows(c: Chunk, words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """A table of "name | value" rows under no Min / Typ / Max or Value header (a module's or a
    connector's "General Specifications": "Switching frequency | 300 kHz typ.", "Operating
    temperature range | -30 °C to +85 °C (Note 1)"): the rows whose first filled cell is a name the
    vocabulary knows and whose first filled cell with a number is a value printing its own unit,
    that name's quantity (a name it does not know is no evidence the row is a spec: memory sizes,
    package sizes, part codes), and no other cell is a value (a row with two values compares parts
    or is a grid's split Min / Typ / Max; a number in a condition is no value). A cell between them
    without a number continues the name ("Ambient temperature | Operating | -30 to 80 °C"); the
    filled cells after the value are conditions, a first one saying only "Minimum" / "Max." the
    value's role. Not in an application example's table (its "Design
    parameters" are one circuit's, not the part's)."""
    if not PAIR_ROWS or _EXAMPLE_RE.search(" ".join((c.section_title, c.native_text[:200]))):
        return None
    box0 = c.rows[0].bbox_pdf if c.rows else BBox(0, 0, 0, 0)
    out = [_value_header(c.page, box0)]
    group = ""  # the name a group of sub-item rows is printed under (`TEMPERATURE_ITEMS`)
    for r in c.rows:
        if len(r.cell_boxes) != len(r.cells):
            continue
        head = r.cells[0].strip() if r.cells else ""
        if head and not _DASH_ITEM_RE.match(head):
            group = re.split(r"\s+[-–—]\s+", head, maxsplit=1)[0]
        filled = [(t.strip(), b) for t, b in zip(r.cells, r.cell_boxes, strict=False) if t.strip()]
        if len(filled) < 2:
            continue
        numbered = [i for i in range(1, len(filled)) if re.search(r"\d", filled[i][0])]
        if not numbered:
            continue
        k = numbered[0]
        name = " ".join(t for t, _ in filled[:k])
        value = _NOTE_TAIL_RE.sub("", filled[k][0])
        rest = [t for t, _ in filled[k + 1 :]]
        if rest and _QUAL_ONLY_RE.fullmatch(rest[0]):
            value = f"{value} {rest.pop(0)}"  # a Remarks cell saying "Minimum": the value's role
        pv = parse_value(value)
        if pv is None and VALUE_CONDITIONS:
            pv = _value_then_condition(value, "", "value")[0]  # "1,000 MΩ min. at 500 VDC" (its condition read in _read_rows)
        options = _options(value) if pv is None and OPTION_LISTS else None
        if options:
            pv = parse_value(options[0])
        if pv is None or pv.empty or not pv.unit or not re.search(r"[^\W\d_]{3}", name):
            continue
        if any(_another_value(filled[i][0], pv.unit) for i in numbered[1:]):
            continue  # a second value: parts compared side by side, or Min / Typ / Max cells
        pid, known = match_parameter(name, unit=pv.unit)
        if not known and TEMPERATURE_ITEMS and group and (not head or _DASH_ITEM_RE.match(head)):
            name = f"{group} {name}"  # "| Storage | -30 to 100 °C" under "Ambient temperature | Operating | ..."
        if not known and TEMPERATURE_ITEMS and (item := _temperature_item(name)):
            pid, known = item, True
        if not known or parameter_unit(pid) != pv.unit:
            continue
        cond = "; ".join(rest)
        if options:
            # one row per option, each its own condition where the conditions list as many ("@100Hz / 1kHz")
            conds = _split_like(cond, len(options))
            for opt, oc in zip(options, conds, strict=True):
                out.append(TableRow(page=r.page, bbox_pdf=r.bbox_pdf, cells=[name, opt, oc],
                                    text=f"{name} {opt}", cell_boxes=[filled[0][1], filled[k][1], r.bbox_pdf]))
            continue
        out.append(TableRow(page=r.page, bbox_pdf=r.bbox_pdf, cells=[name, value, cond],
                            text=f"{name} {value}", cell_boxes=[filled[0][1], filled[k][1], r.bbox_pdf]))
    return out if len(out) > 1 else None


OPTION_LISTS = True  # specs-17; off for an ablation (benchmarks/spec_rerun.py --without option-lists)
_SPECIFY_RE = re.compile(r"(?:\s*[,;])?\s*(?:\bor\b|(?<=[^\W\d_])or)?\s*[,;]?\s*(?:specify|specified|on request)\.?\s*$",
                         re.IGNORECASE)
_OPTION_SEPS = (r"\s*;\s*", r"\s+/\s+", r"\s*,?\s*\bor\b\s*", r"\s*,(?!\d{3})\s*", r"\s*/\s*")


def _options(text: str) -> list[str] | None:
    """A value cell listing the values a part is offered with ("±0.5ppm; ±1.0ppm; ±2.0ppm",
    "–20 to +70°C / –40 to +85°C", "12 pF, 20 pF, or specify"): the values, each of which parses
    alone in one unit, the list cut at the first separator that gives such pieces. A trailing "or
    specify" (a custom value on request) is no value. Two bare numbers of opposite sign ("-10% /
    +20%", "–65 °C / 150 °C") are one range's ends, not options. None when the cell is no list."""
    t = _SPECIFY_RE.sub("", text).strip(" ,;")
    if t != text.strip() and t:
        pv = parse_value(t)
        if pv is not None and not pv.empty and pv.unit:
            return [t]  # one value "or specify"
    for sep in _OPTION_SEPS:
        pieces = [x for x in re.split(sep, t) if x.strip()]
        if len(pieces) < 2:
            continue
        parsed = [parse_value(x) for x in pieces]
        if any(pv is None or pv.empty or not pv.unit for pv in parsed):
            continue
        units = {pv.unit for pv in parsed if pv is not None}
        if len(units) != 1:
            continue
        singles = [pv for pv in parsed if pv is not None and pv.min is None and pv.max is None]
        if len(pieces) == 2 and len(singles) == 2 and (singles[0].typ or 0) * (singles[1].typ or 0) < 0:
            return None  # "-10% / +20%": the ends of one range
        return pieces
    return None


def _split_like(cond: str, n: int) -> list[str]:
    """A conditions cell listing one condition per option ("@100Hz / 1kHz / 10kHz" beside three
    values, cut at a ";" or a spaced "/") cut into those n conditions; any other given whole to each
    ("@10kΩ/10pF" is one load, "VCC = 5 V, TA = 25 °C" one case)."""
    for sep in _OPTION_SEPS[:2]:
        pieces = [x.strip() for x in re.split(sep, cond) if x.strip()]
        if len(pieces) == n:
            lead = re.match(r"[@≥≤<>]\s*", pieces[0])
            return [pieces[0], *[(lead.group(0) if lead else "") + p for p in pieces[1:]]]
    return [cond] * n


UNIT_COLUMNS = True  # specs-17; off for an ablation (benchmarks/spec_rerun.py --without unit-columns)
_BARE_NUMBER_RE = re.compile(r"[-+±−–]?\d+(?:[.,]\d+)?(?:\(\d\)|[*†‡])?")


def _unit_columns(c: Chunk, words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """A table whose header names a Unit column and no Min / Typ / Max or Value column, its values
    bare numbers in the columns between the names and the units, one column per package or part
    (TI's "Thermal Information": "THERMAL METRIC | LP5907 | UNIT" over "DBV (SOT-23) | DQN (X2SON)"
    and "5 PINS | 4 PINS", rows "RθJA Junction-to-ambient thermal resistance | 193.4 | 216.1 | °C/W"):
    read as one "name | value | unit | conditions" row per value, the value's column heading (the
    header lines above it that are no column role) its condition. A unit cell left empty under
    the one above is that one (a unit merged down the column). Only rows whose name the vocabulary
    knows, in the unit of that name's quantity (a name it does not know is no evidence: part codes,
    dimensions); not in an application example's table."""
    if not UNIT_COLUMNS or not c.rows or _EXAMPLE_RE.search(" ".join((c.section_title, c.native_text[:200]))):
        return None
    rows = [r for r in c.rows if len(r.cell_boxes) == len(r.cells)]
    if not rows or not (rows[0].is_header or _is_header_row(rows[0])):
        return None
    n = len(rows[0].cells)
    roles = [_role_of(t)[0] for t in rows[0].cells]
    if "unit" not in roles or set(roles) & {*_VALUE_ROLES, "parameter", "part"}:
        return None
    ucol = roles.index("unit")
    body = [r for r in rows[1:] if len(r.cells) == n]
    if any(_role_of(t)[0] in _VALUE_ROLES for r in body[:3] for t in r.cells):
        return None  # a second header line names the limits ("Symbol | Max. | Max."): not bare values

    def bare(t: str) -> bool:
        return bool(_BARE_NUMBER_RE.fullmatch(t.strip()))

    numeric = [r for r in body if any(bare(t) for t in r.cells[:ucol])]
    vcols = [j for j in range(1, ucol) if numeric and 2 * sum(bare(r.cells[j]) for r in numeric) >= len(numeric)]
    if not vcols:
        return None
    first = vcols[0]
    heads = [r for r in body if not any(t.strip() for t in r.cells[:first])]  # "| | DBV (SOT-23) | ..."
    head_rows = [rows[0], *heads[: next((k for k, r in enumerate(heads) if any(bare(t) for t in r.cells)), len(heads))]]

    def label(j: int) -> str:
        return " ".join(
            t for r in head_rows if (t := fold(r.cells[j]).strip()) and _role_of(t)[0] is None
        )

    box0 = rows[0].bbox_pdf
    out = [TableRow(page=c.page, bbox_pdf=box0, cells=["Parameter", "Value", "Unit", "Conditions"],
                    text="Parameter Value Unit Conditions", is_header=True, cell_boxes=[box0] * 4)]
    unit, unit_box = "", box0
    for r in body:
        if r in head_rows:
            continue
        name_cells = [(t.strip(), b) for t, b in zip(r.cells[:first], r.cell_boxes[:first], strict=True) if t.strip()]
        if r.cells[ucol].strip():
            unit, unit_box = r.cells[ucol].strip(), r.cell_boxes[ucol]
        if not name_cells or not unit:
            continue
        name = " ".join(t for t, _ in name_cells)
        for j in vcols:
            t = r.cells[j].strip()
            if not bare(t):
                continue
            pv = parse_value(t, unit, "value")
            if pv is None or pv.empty or not pv.unit:
                continue
            pid, known = match_parameter(name, unit=pv.unit)
            if not known or parameter_unit(pid) != pv.unit:
                continue
            out.append(TableRow(page=r.page, bbox_pdf=r.bbox_pdf, cells=[name, t, unit, label(j)],
                                text=f"{name} {t} {unit}",
                                cell_boxes=[union_box(b for _, b in name_cells), r.cell_boxes[j], unit_box,
                                            rows[0].cell_boxes[j]]))
    return out if len(out) > 1 else None


_FALLBACKS.append(_unit_columns)
_FALLBACKS.append(_pair_rows)


def _leaders_beside(
    doc_id: str,
    part: str,
    c: Chunk,
    words: Callable[[int], list[Word]] | None,
    parts: tuple[str, ...],
    read: list[SpecValue],
) -> list[SpecValue]:
    """A dot-leader ratings list in the same chunk as a table the grid read (the list printed just
    above the characteristics table): its lines outside the rows already read (`_leader_columns`)."""
    rows = _leader_columns(c, words)
    if not rows:
        return []

    def inside(v: SpecValue) -> bool:
        cx, cy = v.row_bbox_pdf.center
        return any(
            u.page == v.page and u.row_bbox_pdf.x0 <= cx <= u.row_bbox_pdf.x1 and u.row_bbox_pdf.y0 <= cy <= u.row_bbox_pdf.y1
            for u in read
        )

    return [v for v in _read_rows(doc_id, part, c, rows, words, parts) if not inside(v)]


FIGURE_LEADERS = True  # specs-26; off for an ablation (benchmarks/spec_rerun.py --without figure-leaders)
LEADER_COLUMNS = True  # specs-6; off for an ablation (benchmarks/spec_rerun.py --without leader-columns)
LEADER_TEXT = True  # specs-6; off for an ablation (--without leader-text)
_LEADER_LINE_RE = re.compile(r"(?:" + _DOT_LEADER + "|" + _DASH_LEADER + r")[^\n]*\d")


def _leader_lines(text: str) -> bool:
    """Two or more lines of `text` hold a dot leader with a number after it: the cheap test before
    a chunk's lines are read as a dot-leader list."""
    return len(_LEADER_LINE_RE.findall(text)) >= 2


def _leader_text(c: Chunk, words: Callable[[int], list[Word]]) -> list[TableRow] | None:
    """A dot-leader list printed as a chunk's text lines (a text block's, or a figure region's), read as
    Parameter | Value | Conditions rows, each value printing a unit."""
    return _leader_list(_line_rows(c, words), words, need_unit=True)


def _text_list_specs(
    doc_id: str, part: str, c: Chunk, words: Callable[[int], list[Word]] | None, parts: tuple[str, ...]
) -> list[SpecValue]:
    """A ratings list printed as text (not a table to the layout model: "VDD ........ 6.0V" lines
    under "Absolute Maximum Ratings"): read as a dot-leader list when two or more of its lines
    have a leader and a number after it, each value with a unit."""
    if words is None:
        return []
    if LEADER_TEXT and _leader_lines(c.native_text):
        rows = _leader_text(c, words)
    else:
        rows = _gap_list(c, words)
    if not rows and not _test_section(c):
        listed = _summary_list(_line_rows(c, words), words, c.native_text) if COLON_LINES or VALUE_FIRST else None
        # the cell boxes are the words' already; a value run on to a second line is one value
        values = _read_rows(doc_id, part, c, listed, None, parts) if listed else []
        for v in values:
            v.table = "summary"  # a ratings block's lines become "ratings" in extract_specs
        return values
    return _read_rows(doc_id, part, c, rows, words, parts) if rows else []


COLON_LINES = True  # specs-12; off for an ablation (benchmarks/spec_rerun.py --without colon-lines)
_COLON_RE = re.compile(r"[:：]")
# a section that states how a part was measured, not what it does ("AC Test Conditions: Output Load
# 50 pF", "测试条件"), or one circuit's example values
_TEST_RE = re.compile(r"test(?:ing)? (?:conditions?|circuit|setup|load)|measurement conditions?|测试条件|测试电路", re.IGNORECASE)
_ITEM_RE = re.compile(r"^(?:[•·▪■◆●○◇□►▶*✓√!\-–—\ue000-\uf8ff](?:\s*(?=\D)|$)|\(?\d{1,2}[.)]\s)")  # a new list item
_BULLET_RE = re.compile(r"^[^\w(（]+|^(?:\(?\d{1,2}[.)]|[a-z][.)])\s+")  # "•", "!", a symbol-font glyph, "1."
_COND_SEP_RE = re.compile(r",\s|;\s?|\s@\s?|\s(?=(?:at|over|for|with)\s)")  # a value's condition follows
_CONNECTOR_RE = re.compile(r"(?:\bto|[-–~～,/])\s*$", re.IGNORECASE)


VALUE_FIRST = True  # specs-13; off for an ablation (benchmarks/spec_rerun.py --without value-first)
_FIRST_VALUE_RE = re.compile(
    r"^((?:[<>≤≥]\s?)?[-+±−–]?\s?\d[\d.,]*\s?[^\s\d]*(?:\s?(?:to|~|～|-|–)\s?[-+±−–]?\s?\d[\d.,]*\s?[^\s\d]*)?)"
    r"\s+([^\W\d][^\d:：=()]{3,48})$",
    re.IGNORECASE,
)
_ITEM_MARK_RE = re.compile(r"^(?:[•·▪■◆●○◇□►▶*✓√!\ue000-\uf8ff]+|[-–—](?=\s))\s*")  # a bullet, not a minus
_OPEN_END_RE = re.compile(r"\b(?:for|of|with|in|at|and|or|to|from|over|on|by|the|a|an|than|as|is|are)$", re.IGNORECASE)


def _value_first_list(rows: list[TableRow], words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """Printed lines that are a value, then the name of what it is ("80 kHz bandwidth", "6A
    Continuous Output Current", "175°C Operating Junction Temperature" - a Features list's short
    form) as Parameter | Value | Conditions rows: the whole line (a bullet dropped, a minus kept) is
    a value printing a unit and a short name (up to 5 words, no digits, not ending in "for", "of",
    ... - a sentence's piece; the line above not ending so either) that the vocabulary knows for that
    unit's quantity. The value's cell
    box is its words', the name's the rest."""
    out: list[TableRow] = []
    before = ""
    for r in rows:
        t = " ".join(x for x in r.cells if x.strip()).strip()
        m = _FIRST_VALUE_RE.match(_ITEM_MARK_RE.sub("", t))
        prev, before = before, t
        if not m or _OPEN_END_RE.search(prev) or prev.endswith((",", "-")):
            continue  # the rest of a sentence ("... seen at" over ">3.3V VDD.")
        value, name = m.group(1).strip(), m.group(2).strip(" .,;")
        if len(name.split()) > 5 or _OPEN_END_RE.search(name) or not re.search(r"[^\W\d_]{3}", name):
            continue
        pv = parse_value(value)
        if pv is None or pv.empty or not pv.unit:
            continue
        pid, known = match_parameter(name, "", unit=pv.unit)
        if not known or parameter_unit(pid) != pv.unit:
            continue
        ws = sorted(_words_in(words(r.page) if words is not None else [], r.bbox_pdf), key=lambda w: w.bbox_pdf.x0)
        ws = [w for w in ws if not _ITEM_MARK_RE.fullmatch(w.text + " ")]
        n = len(value.split())
        value_box = union_box(w.bbox_pdf for w in ws[:n]) if len(ws) > n else r.bbox_pdf
        name_box = union_box(w.bbox_pdf for w in ws[n:]) if len(ws) > n else r.bbox_pdf
        out.append(TableRow(page=r.page, bbox_pdf=r.bbox_pdf, cells=[name, value, ""], text=t,
                            cell_boxes=[name_box, value_box, r.bbox_pdf]))
    return [_value_header(out[0].page, out[0].bbox_pdf), *out] if out else None


def _summary_list(rows: list[TableRow], words: Callable[[int], list[Word]] | None, text: str) -> list[TableRow] | None:
    """A text or list chunk's summary lines as one Parameter | Value | Conditions table: its "name:
    value" lines (`_colon_list`, when `text` has any) and its value-first lines (`_value_first_list`)."""
    body: list[TableRow] = []
    if COLON_LINES and _colon_lines(text):
        body += (_colon_list(rows, words) or [])[1:]
    if VALUE_FIRST:
        body += (_value_first_list(rows, words) or [])[1:]
    return [_value_header(body[0].page, body[0].bbox_pdf), *body] if body else None


def _colon_lines(text: str) -> bool:
    """Some line of `text` prints a colon with a number after it: the cheap test before a chunk's
    lines are read as "name: value" lines."""
    return any(re.search(r"[:：][^:：]*\d", t) for t in text.splitlines())


def _test_section(c: Chunk) -> bool:
    """A chunk in a test-conditions or application-example section (its values are one setup's)."""
    head = " ".join((c.section_title, c.native_text[:120]))
    return bool(_TEST_RE.search(head) or _EXAMPLE_RE.search(head))


def _text_width(text: str) -> float:
    """A text's width at font size 1: Helvetica's widths (PyMuPDF's base-14 metrics), a CJK or
    full-width character one em."""
    wide = sum(1 for ch in text if ord(ch) >= 0x2E80)
    narrow = "".join(ch for ch in text if ord(ch) < 0x2E80)
    return wide + pymupdf.get_text_length(narrow, fontname="helv", fontsize=1)


def _cut_box(b: BBox, text: str, at: int) -> tuple[BBox, BBox]:
    """A word's box cut before its character `at`, by the characters' widths."""
    frac = _text_width(text[:at]) / max(_text_width(text), 1e-6)
    x = b.x0 + (b.x1 - b.x0) * frac
    return BBox(b.x0, b.y0, x, b.y1), BBox(x, b.y0, b.x1, b.y1)


def _colon_list(rows: list[TableRow], words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """Printed "name: value" lines (a Features list's "Operating voltage range: 2.7 V to 5.5 V",
    "Supply current: 200 µA (typical)", "宽工作电压范围：1.0～5.5V"; a crystal's "NOMINAL FREQUENCY:
    26.000MHz") as Parameter | Value | Conditions rows: a line with one colon, a name before it
    that the vocabulary knows (a bullet or list number dropped; a short name, not a sentence) and a
    value after it that prints a unit of that name's quantity (`_pair_rows`' test), a condition
    after ", ", "@" or " at " kept apart. A value that runs on to the next printed line ("-40" over
    "℃～85℃", "2.7 V to" over "5.5 V") is joined with it when that line has no colon and no
    bullet; a line printing a second value in the same unit is left. The cell boxes are the words'
    (a word holding the colon is cut at it by its characters' widths)."""
    out: list[TableRow] = []
    if ALIGNED_VALUES:
        rows = _aligned_pairs(rows)
    texts = [" ".join(x for x in r.cells if x.strip()) for r in rows]
    for i, (r, t) in enumerate(zip(rows, texts, strict=True)):
        if len(_COLON_RE.findall(t)) != 1:
            continue
        name, value = (x.strip() for x in _COLON_RE.split(t, maxsplit=1))
        lines = [r]
        nxt = texts[i + 1].strip() if i + 1 < len(rows) else ""
        head = _COND_SEP_RE.split(value, maxsplit=1)[0]
        if (
            nxt
            and rows[i + 1].page == r.page
            and not _COLON_RE.search(nxt)
            and not _ITEM_RE.match(nxt)
            and 0 <= rows[i + 1].bbox_pdf.y0 - r.bbox_pdf.y1 <= (r.bbox_pdf.y1 - r.bbox_pdf.y0)
            and (
                _CONNECTOR_RE.search(value)
                or not (parse_value(_NOTE_TAIL_RE.sub("", head)) or ParsedValue()).unit
                or re.match(r"[(（]", nxt)
            )
        ):
            value, lines = f"{value} {nxt}", [r, rows[i + 1]]  # the value runs on
        name = _BULLET_RE.sub("", _BULLET_RE.sub("", name)).strip()
        if not re.search(r"[^\W\d_]{3}|[\u4e00-\u9fff]{2}", name) or len(name) > 48 or len(name.split()) > 6:
            continue
        if re.search(r"[=<>≤≥]", name) or not value or _CONNECTOR_RE.search(value):
            continue
        cond = ""
        at = _COND_SEP_RE.search(value)
        if at:
            value, cond = value[: at.start()].strip(), value[at.end() :].strip()
        pv = parse_value(_NOTE_TAIL_RE.sub("", value))
        if pv is None or pv.empty or not pv.unit:
            continue
        if cond and _another_value(cond.split(",")[0].strip(), pv.unit):
            continue  # "5 V, 3.3 V": two values, no condition
        pid, known = match_parameter(name, "", unit=pv.unit)
        if not known or parameter_unit(pid) != pv.unit:
            continue
        row_box = union_box(x.bbox_pdf for x in lines)
        name_box, value_box = row_box, row_box
        ws = [
            w
            for x in lines
            for w in sorted(_words_in(words(x.page) if words is not None else [], x.bbox_pdf), key=lambda w: w.bbox_pdf.x0)
        ]
        k = next((j for j, w in enumerate(ws) if _COLON_RE.search(w.text)), None)
        if k is not None:
            w = ws[k]
            j = _COLON_RE.search(w.text).end()  # type: ignore[union-attr]
            left, right = _cut_box(w.bbox_pdf, w.text, j)
            before = [x.bbox_pdf for x in ws[:k]] + ([left] if j > 1 else [])
            after = ([right] if w.text[j:].strip() else []) + [x.bbox_pdf for x in ws[k + 1 :]]
            if before:
                name_box = union_box(before)
            if after:
                value_box = union_box(after)
        out.append(TableRow(page=r.page, bbox_pdf=row_box, cells=[name, value, cond], text=" ".join(x.text for x in lines),
                            cell_boxes=[name_box, value_box, row_box]))
    return [_value_header(out[0].page, out[0].bbox_pdf), *out] if out else None


ALIGNED_VALUES = True  # specs-16; off for an ablation (benchmarks/spec_rerun.py --without aligned-values)


def _aligned_pairs(rows: list[TableRow]) -> list[TableRow]:
    """A label list printed in two aligned columns ("CONTACT RESISTANCE:" left, "≤ 100 mΩ" in a
    column to its right, the text layer giving each its own line): a line ending in its colon is
    joined with the line printed beside it - on the same printed line (their heights overlap by
    half the lower one's) and right of it, the nearest such - into one "name: value" line."""
    used: set[int] = set()
    out: list[TableRow] = []
    for i, r in enumerate(rows):
        if i in used:
            continue
        t = " ".join(x for x in r.cells if x.strip()).strip()
        b = r.bbox_pdf
        beside = [
            j
            for j, o in enumerate(rows)
            if j != i
            and j not in used
            and o.page == r.page
            and o.bbox_pdf.x0 >= b.x1 - 1
            and min(b.y1, o.bbox_pdf.y1) - max(b.y0, o.bbox_pdf.y0) >= 0.5 * min(b.y1 - b.y0, o.bbox_pdf.y1 - o.bbox_pdf.y0)
        ]
        if not (t.endswith((":", "：")) and len(_COLON_RE.findall(t)) == 1 and beside):
            out.append(r)
            continue
        j = min(beside, key=lambda k: rows[k].bbox_pdf.x0)
        o = rows[j]
        value = " ".join(x for x in o.cells if x.strip()).strip()
        if _COLON_RE.search(value):
            out.append(r)
            continue
        used.add(j)
        box = BBox(*union_box([b, o.bbox_pdf]))
        text = f"{t} {value}"
        out.append(TableRow(page=r.page, bbox_pdf=box, cells=[text], text=text, cell_boxes=[box]))
    return out


def _gap_list(c: Chunk, words: Callable[[int], list[Word]] | None) -> list[TableRow] | None:
    """A ratings list printed without dot leaders ("Supply Voltage      +35V to -0.2V" under
    "Absolute Maximum Ratings"; a scan whose dots the OCR dropped), in a chunk that is or opens a
    ratings block: each printed line split at its widest space, read when that space is a column's
    (over 1.5 line heights) and the words right of it are a value with a unit; a line without a
    number names the indented lines under it (`_sub_condition`, as for dot-leader lists). None
    when fewer than two lines read so."""
    if not GAP_LISTS or words is None:
        return None
    if not (_ratings_heading(c.section_title) or _ratings_heading(c.native_text[:200])):
        return None
    lines: list[tuple[int, list[Word]]] = []
    for page in sorted({m.page for m in c.all_regions()}):
        span = _region_span(c, page)
        if span is not None:
            lines += [(page, line) for line in _printed_lines(_words_in(words(page), BBox(*span)))]
    first = c.rows[0] if c.rows else None
    box0 = first.bbox_pdf if first else (union_box(c.bboxes_pdf) if c.bboxes_pdf else BBox(0, 0, 0, 0))
    out = [_value_header(c.page, box0)]
    heading: tuple[str, float] | None = None
    for page, line in lines:
        ws = sorted(line, key=lambda w: w.bbox_pdf.x0)
        text = " ".join(w.text for w in ws)
        if not re.search(r"\d", re.sub(r"\([^()]*\)", "", text)):
            heading = (text.strip(" :;"), ws[0].bbox_pdf.x0)
            continue
        if len(ws) < 2:
            continue
        h = sorted(w.bbox_pdf.y1 - w.bbox_pdf.y0 for w in ws)[len(ws) // 2]
        gaps = [ws[i + 1].bbox_pdf.x0 - ws[i].bbox_pdf.x1 for i in range(len(ws) - 1)]
        k = max(range(len(gaps)), key=lambda i: gaps[i])
        name_ws, value_ws = ws[: k + 1], ws[k + 1 :]
        name, value = " ".join(w.text for w in name_ws).strip(" :,"), " ".join(w.text for w in value_ws)
        pv = parse_value(value)
        if gaps[k] < 1.5 * h or pv is None or pv.empty or not pv.unit or not re.search(r"[A-Za-z\u4e00-\u9fff]{2}", name):
            continue
        name, cond, heading = _under_heading(heading, name, name_ws[0].bbox_pdf.x0, pv.unit)
        if re.fullmatch(r"\S*\d\S*\d\S*", name):
            continue  # a part number alone ("µA78H05SM" under a heading not indented): no quantity named
        nb, vb = union_box(w.bbox_pdf for w in name_ws), union_box(w.bbox_pdf for w in value_ws)
        out.append(TableRow(page=page, bbox_pdf=union_box([nb, vb]),
                            cells=[name, value, cond], text=f"{name} {value}", cell_boxes=[nb, vb, vb]))
    return out if len(out) >= 3 else None


def _read_long(
    doc_id: str,
    part: str,
    c: Chunk,
    row: TableRow,
    cols: _Cols,
    prev: tuple[str, str, str] | None,
    words: Callable[[int], list[Word]] | None,
    out: list[SpecValue],
    last: dict[tuple[str, str], SpecValue],
) -> tuple[str, str, str] | None:
    """One body row of a long table into `out`; a row that only completes the value above (no name,
    symbol or unit of its own) is merged into it (`_completes`). Returns the row context to carry."""
    vs, prev = _long_row(doc_id, part, c, row, cols, prev, words)
    if PERCENT_OF_RAIL and (ucol := cols.col("unit")) is not None:
        if rail := _RAIL_UNIT_RE.fullmatch(_cell(row, ucol).strip()):
            for _, v in vs:
                if v.unit == "%":
                    v.unit_printed = f"% of {rail.group(1)}"  # "70%" under a Unit cell "Vdd": a fraction of the supply
    cont = not any(_cell(row, cols.col(r)) for r in ("parameter", "symbol", "unit"))
    for label, v in vs:
        above = last.get((v.part, label))
        if cont and above is not None and _completes(above, v):
            continue
        out.append(v)
        last[(v.part, label)] = v
    return prev


PERCENT_OF_RAIL = True  # specs-29; off for an ablation (benchmarks/spec_rerun.py --without percent-of-rail)
_RAIL_UNIT_RE = re.compile(r"%?\s*(?:of\s+)?(V\s?(?:DD|CC)[A-Z0-9_]*|VIN|VS)", re.IGNORECASE)
LINE_CONDITIONS = True  # specs-18; off for an ablation (benchmarks/spec_rerun.py --without line-conditions)


def _line_condition(row: TableRow, cols: _Cols) -> str:
    """The condition `_split_lines` put in a cell after the grid's: a line's own words under a name
    printed above it, in a table with no Conditions column."""
    n = len(cols.head_boxes) if cols.head_boxes else None
    if not LINE_CONDITIONS or cols.col("conditions") is not None or n is None or len(row.cells) != n + 1:
        return ""
    return fold(row.cells[n])


def _split_lines(row: TableRow, cols: _Cols, words: Callable[[int], list[Word]] | None) -> list[TableRow]:
    """A grid row holding several printed lines of values (no rule between them: "4 1 0.5" under
    Max, "A A A" under Unit, one line per condition) -> one row per value line. Each line's words
    go to the column whose cell box holds them, the lines above the first value line join the
    first; the parameter's name and symbol (and a unit printed once) hold for every line."""
    vcols = [i for i, r in sorted(cols.roles.items()) if r in _VALUE_ROLES]
    if words is None or len(row.cell_boxes) != len(row.cells) or not vcols:
        return [row]
    filled = [i for i in vcols if i < len(row.cells) and row.cells[i].strip()]
    if not filled or not any(len(re.findall(r"\d+(?:[.,]\d+)?", row.cells[i])) >= 2 for i in filled):
        return [row]
    y0, y1 = row.bbox_pdf.y0, row.bbox_pdf.y1
    inside = [w for w in words(row.page) if y0 - 0.5 <= w.bbox_pdf.center[1] <= y1 + 0.5]

    def column(w: Word) -> int | None:
        cx, cy = w.bbox_pdf.center
        return next(
            (
                i
                for i, b in enumerate(row.cell_boxes)
                if b.x0 - 0.5 <= cx <= b.x1 + 0.5 and b.y0 - 0.5 <= cy <= b.y1 + 0.5
            ),
            None,
        )

    once = _printed_once(inside, filled, column)
    value_lines = _lines_of(
        [w.bbox_pdf.center[1] for w in inside if column(w) in filled and column(w) not in once and re.search(r"\d", w.text)]
    )
    if len(value_lines) < 2:
        return [row]
    cuts = [y0 - 1] + [(a + b) / 2 for a, b in zip(value_lines, value_lines[1:], strict=False)] + [y1 + 1]
    shared = {cols.col("parameter"), cols.col("symbol")} - {None} | once
    extra: list[tuple[int, str]] = []
    ucol = cols.col("unit")
    subs: list[TableRow] = []
    bands = [
        [w for w in inside if cuts[k] <= w.bbox_pdf.center[1] < cuts[k + 1]] for k in range(len(value_lines))
    ]
    if ucol is not None and not all(any(column(w) == ucol for w in band) for band in bands):
        shared.add(ucol)  # one unit printed for all the lines
    # a name printed above the value lines ("Accuracy:" over "TA = +25 °C" / "-10 °C < TA < 85 °C"):
    # that is the name, the words on each value line are that line's condition
    pcol, ccol = cols.col("parameter"), cols.col("conditions")
    head = [w for w in inside if column(w) == pcol and w.bbox_pdf.center[1] < value_lines[0] - 2.5]
    band_texts = [
        {
            i: " ".join(w.text for w in sorted(band, key=lambda w: w.bbox_pdf.x0) if column(w) == i)
            for i in {column(w) for w in band}
            if i is not None
        }
        for band in bands
    ]
    section = False
    title = ""
    if head and SECTION_ROWS and pcol is not None:
        # a section heading over value lines of which several print a name of their own ("INPUT
        # CHARACTERISTICS" over "Offset Voltage" / "TMIN to TMAX" / "Input Bias Current" ...: a
        # section printed as one grid row) heads no line: each line has its own name, or none (a
        # condition line, which continues the name above it)
        title = " ".join(w.text for w in _in_reading(head))
        letters = re.sub(r"[^A-Za-z]", "", split_footnotes(title)[0])
        named = [t for b in band_texts if re.search(r"[A-Za-z]{4,}", t := b.get(pcol, "")) and not _is_condition(t)]
        known = sum(1 for t in named if match_parameter(t)[1])
        section = (
            len(letters) >= 4
            # a section title ("INPUT CHARACTERISTICS"), not a parameter's name ("Conversion Time:"
            # over "9-bit Resolution" lines)
            and letters.isupper()
            and len(named) >= 2
            # a title that is a quantity over lines that are not ("ACCURACY" over "TMP35 (F Grade)"
            # lines): the title names them, the lines are their cases
            and not (match_parameter(title)[1] and 2 * known < len(named))
        )
        if section:
            head = []
    scol = cols.col("symbol")
    names = {i for i in (pcol, scol) if i is not None}
    if section:
        # every printed line its own row: a line with a name and no number ("Large Signal Voltage
        # Gain" over "RL = 2 kΩ" lines) names the value lines below it, as rows of a grid would
        value_lines = _lines_of([w.bbox_pdf.center[1] for w in inside])
        cuts = [y0 - 1] + [(a + b) / 2 for a, b in zip(value_lines, value_lines[1:], strict=False)] + [y1 + 1]
        bands = [
            [w for w in inside if cuts[k] <= w.bbox_pdf.center[1] < cuts[k + 1]] for k in range(len(value_lines))
        ]
        shared -= names | {ucol}
    elif not head:
        shared -= _own_per_line(names, band_texts, scol)
    carried: list[Word] = []  # the label of the line above, printed left of a hanging indent
    above_own: list[Word] = []
    for k, band in enumerate(bands):
        cells = ["" for _ in row.cells]
        boxes = []
        for i, b in enumerate(row.cell_boxes):
            if i == pcol and head:
                cells[i] = " ".join(w.text for w in _in_reading(head))
                boxes.append(b)
                own = [w for w in band if column(w) == i and w not in head]
                if own and (ccol is not None or LINE_CONDITIONS):
                    if HANGING_LABELS:
                        carried = _hanging_label(above_own, own, carried)
                        above_own = own
                    extra.append((k, " ".join(w.text for w in [*carried, *_in_reading(own)])))
                continue
            if i in shared:  # the parameter's name and symbol (and a unit printed once) hold for every line
                cells[i] = row.cells[i]
                boxes.append(b)
                continue
            ws = _in_reading(
                w
                for w in band
                if column(w) == i
                # in a section, a line's name and symbol are the words on its value line: a line
                # above it is the heading or a row whose value is no number ("Input Impedance")
                and not (section and i in names and abs(w.bbox_pdf.center[1] - value_lines[k]) > 2.5)
            )
            cells[i] = " ".join(w.text for w in ws)
            boxes.append(
                union_box(w.bbox_pdf for w in ws) if ws else type(b)(b.x0, cuts[k], b.x1, cuts[k + 1])
            )
        for kk, text in extra:
            if kk == k and ccol is not None:
                cells[ccol] = f"{text}; {cells[ccol]}" if cells[ccol] else text
            elif kk == k and LINE_CONDITIONS and pcol is not None:
                # no Conditions column: the line's words under the name, in a cell after the grid's
                # (`_line_condition`), its condition ("(Vin - Vout = 1.4 V to 10 V, Iout = 10 mA to 800 mA)")
                cells.append(text)
                boxes.append(type(row.bbox_pdf)(row.cell_boxes[pcol].x0, cuts[k], row.cell_boxes[pcol].x1, cuts[k + 1]))
        if section and pcol is not None and _variant_label(cells[pcol]):
            # a line naming only variants ("TMP35/TMP36/TMP37 (F Grade)" under "ACCURACY"): the
            # section title names its quantity, the label is its case
            label = cells[pcol]
            cells[pcol] = title
            if ccol is not None:
                cells[ccol] = f"{label}; {cells[ccol]}" if cells[ccol] else label
        elif section and pcol is not None and scol is not None and not cells[pcol] and cells[scol]:
            cells[pcol] = cells[scol]  # a line printing a symbol and no name ("VIL") is named by it
        top, bottom = max(cuts[k], y0), min(cuts[k + 1], y1)
        subs.append(
            TableRow(
                page=row.page,
                bbox_pdf=type(row.bbox_pdf)(row.bbox_pdf.x0, top, row.bbox_pdf.x1, bottom),
                cells=cells,
                text=" ".join(t for t in cells if t),
                cell_boxes=boxes,
            )
        )
    return subs


HANGING_LABELS = True  # specs-28; off for an ablation (benchmarks/spec_rerun.py --without hanging-labels)


def _hanging_label(above: list[Word], own: list[Word], carried: list[Word]) -> list[Word]:
    """The label a condition line inherits from the line above it: ON Semiconductor's "1.8 V (Vin =
    3.8 V, ...)" over "(Vin = 3.2 V to 11.8 V, ...)", the second line set at the hanging indent of
    the first's text after its label. The words of the line above left of that indent (or the label
    that line inherited itself), when the line begins at least 10 pt right of the line above and a
    word of that line begins where it does (within 2 pt), the label set apart from it by more than a
    word space (0.45 of the line's height: "Input" of "Input Offset Voltage" over an indented "vs
    Temperature" is no label); a line at the same indent as the one above keeps that one's label."""
    if not above or not own:
        return []
    x = min(w.bbox_pdf.x0 for w in own)
    first = min(w.bbox_pdf.x0 for w in above)
    if abs(x - first) <= 2:
        return carried  # the next line of the same label
    if x - first < 10 or not any(abs(w.bbox_pdf.x0 - x) <= 2 for w in above):
        return []
    label = [w for w in _in_reading(above) if w.bbox_pdf.x1 <= x - 1]
    if not label or any(re.search(r"[=<>≤≥]", w.text) for w in label):
        return []  # the line above had no label, or printed a condition there
    last = label[-1].bbox_pdf
    if x - last.x1 < 0.45 * (last.y1 - last.y0):
        return []  # one phrase set on two lines, no label
    return label


SHARED_VALUES = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without shared-values)
_NUMBER_WORD_RE = re.compile(r"[-+±−–]?\d[\d.,]*[^\s\d]{0,4}")  # a number, its unit or a mark after it: "+85", "0.3V"


def _lines_of(ys: list[float]) -> list[float]:
    """The printed lines (their middles) of words with these middles: a new line 2.5 pt below the last."""
    out: list[float] = []
    for y in sorted(ys):
        if not out or y - out[-1] > 2.5:
            out.append(y)
    return out


def _printed_once(inside: list[Word], filled: list[int], column: Callable[[Word], int | None]) -> set[int]:
    """The value columns of a grid row printing one number, set between the lines another value column
    prints and on none of them (a cell merged down over the sub-rows: "-40" under Min beside "+85" /
    "+105" under Max, one per temperature grade): that number holds for every line, as a unit printed
    once does - it is no line of its own."""
    if not SHARED_VALUES:
        return set()
    lines = {i: _lines_of([w.bbox_pdf.center[1] for w in inside if column(w) == i and _NUMBER_WORD_RE.fullmatch(w.text)])
             for i in filled}
    many = [y for i in filled if len(lines[i]) >= 2 for y in lines[i]]
    if not many or len(_lines_of(many)) > 3:
        return set()  # a section's many lines, one value each in some column: no cell merged over them
    mid, span = (min(many) + max(many)) / 2, max(many) - min(many)
    return {
        i
        for i in filled
        if len(lines[i]) == 1
        and abs(lines[i][0] - mid) <= span / 4  # centred between the lines, as a merged cell's text is
        and all(abs(lines[i][0] - y) > 2.5 for y in many)
    }


# words that name a variant of a part, not a quantity (grades, versions, options of one datasheet)
_VARIANT_WORDS = re.compile(r"\b(?:grade|version|option|suffix|type|model|variant)s?\b", re.IGNORECASE)


def _variant_label(name: str) -> bool:
    """A Parameter cell naming only variants: part codes ("TMP35/TMP36", "AD7767-1") and variant
    words ("(F Grade)"), nothing of four letters or more left."""
    if not name or not _CODE_RE.search(name):
        return False
    rest = _VARIANT_WORDS.sub(" ", _CODE_RE.sub(" ", name))
    return not re.search(r"[A-Za-z]{4,}", rest)


def _reading(w: Word) -> tuple[int, float]:
    """Reading order of a cell's words by their tops, rounded (before specs-25; `_in_reading`)."""
    return round(w.bbox_pdf.y0), w.bbox_pdf.x0


LINE_ORDER = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without line-order)


def _in_reading(words: Iterable[Word]) -> list[Word]:
    """A cell's words in reading order: line by line, left to right. A word belongs to the line whose
    middle its own middle lies within half a word's height of, so a word raised by a superscript
    ("Time⁷" beside "Turn-On", its top half a point higher) stays in its line; the tops rounded to
    whole points put it before the line."""
    ws = list(words)
    if not LINE_ORDER:
        return sorted(ws, key=_reading)
    lines: list[list[Word]] = []
    for w in sorted(ws, key=lambda w: w.bbox_pdf.center[1]):
        line = lines[-1] if lines else None
        if line is not None:
            mid = sum(u.bbox_pdf.center[1] for u in line) / len(line)
            if abs(w.bbox_pdf.center[1] - mid) <= 0.5 * min(w.bbox_pdf.height, line[0].bbox_pdf.height):
                line.append(w)
                continue
        lines.append([w])
    return [w for line in lines for w in sorted(line, key=lambda w: w.bbox_pdf.x0)]


TYPICAL_SPREAD = True  # specs-22; off for an ablation (benchmarks/spec_rerun.py --without typical-spread)
# a ± printed in the Typ column beside a ± limit in the Min / Max column ("±0.4 | ±1.3 ppb"): the record keeps
# the limits as min / max and the typical spread as typ, its magnitude (it was dropped); not when it exceeds
# the limit (a ± under Min is a least magnitude: OP90's output swing "±13.5 | ±13.7")

LEAST_MAGNITUDES = True  # specs-24; off for an ablation (benchmarks/spec_rerun.py --without least-magnitudes)
# a ± printed under Min is a least magnitude: an output swing "±13 | ±14" under Min | Typ (|VOUT| >= 13 V), a pull
# range "±400" under Min, a gate-source breakdown "±30" - when every value cell of the row prints a ±, the record
# keeps the magnitudes (min 13, typ 14), not the range -13..13 it read before (which says "within ±13")

NOTE_COLUMNS = True  # specs-21; off for an ablation (benchmarks/spec_rerun.py --without note-columns)
_NOTES_HEAD_RE = re.compile(r"notes?|remarks?|comments?|备注|说明|注", re.IGNORECASE)
_NOTE_REFS_RE = re.compile(r"\(?\d{1,2}\)?(?:\s*[,，]\s*\(?\d{1,2}\)?|\s+\(?\d{1,2}\)?)*")


def _note_refs(conditions: str, cols: _Cols, ccol: int | None) -> list[str]:
    """The footnote numbers a Notes column prints for a row ("1,3", "2, 3", "5" under "Notes" - JEDEC
    and Dallas tables): references to the notes under the table, not a condition. Only under a
    header that says notes or remarks (a Conditions cell "5" is no reference)."""
    if not NOTE_COLUMNS or ccol is None or not _NOTES_HEAD_RE.fullmatch(fold(cols.names.get(ccol, "")).strip(" .:")):
        return []
    t = conditions.strip()
    return re.findall(r"\d+", t) if t and _NOTE_REFS_RE.fullmatch(t) else []


STACKED_SYMBOLS = True  # specs-21; off for an ablation (benchmarks/spec_rerun.py --without stacked-symbols)
# specs-25: a name line ending in a comma, hyphen or slash goes on with the line below ("Ambient Temperature," over
# "Operating"; "Drive Level Dependency (DLD," over "Minimum 7 points tested ...)"): one name, not one per line
NAME_COMMAS = True  # off for an ablation (benchmarks/spec_rerun.py --without name-commas)


def _own_per_line(name_cols: set[int], band_texts: list[dict[int, str]], symbol_col: int | None = None) -> set[int]:
    """The name columns (Parameter, Symbol) printing something on every value line of a grid row:
    a table printed as one grid row (no rules between its lines: a ratings list), each line its own
    parameter - not one name over several conditions (a line whose name is a condition, "VCC = 5 V",
    continues the one above: `_is_condition`), nor a name wrapped over the lines (a line beginning
    with a small letter, "Zero gate voltage / drain current", goes on with the name above). A symbol
    begins with a small letter by convention (JEDEC's time symbols tAH, tDH, tr): a Symbol column
    printing one symbol on every value line ("tAH1" over "tAH2" beside "5" over "30") is each line's
    own (`STACKED_SYMBOLS`); a line ending in a comma, hyphen or slash goes on with the next (`NAME_COMMAS`)."""

    def wraps(i: int, t: str) -> bool:
        if STACKED_SYMBOLS and i == symbol_col:
            return False
        return re.match(r"[a-z]", t) is not None

    def goes_on(i: int, t: str) -> bool:  # "Ambient Temperature," over "Operating": one name (`NAME_COMMAS`)
        return NAME_COMMAS and i != symbol_col and t.rstrip().endswith((",", "-", "/"))

    return {
        i
        for i in name_cols
        if all(t.get(i) for t in band_texts)
        and not any(wraps(i, t[i]) for t in band_texts[1:])
        and not any(goes_on(i, t[i]) for t in band_texts[:-1])
    }


def _part_columns(cols: _Cols, header_rows: list[TableRow], parts: tuple[str, ...]) -> None:
    """A column headed by one of the document's part names ("HA17324 | HA17324A" over a ratings
    table with no Value header) holds that part's values: a Value column of its own group."""
    if not parts:
        return
    for row in header_rows:
        for i, cell in enumerate(row.cells):
            t = fold(cell).strip()
            if i in cols.roles or not t or len(t) > 40 or not _names_part(t, parts):
                continue
            if not any(r in ("parameter", "symbol") for r in cols.roles.values()):
                continue
            cols.roles[i] = "value"
            cols.part_cols[i] = t
            if len(row.cell_boxes) == len(row.cells):
                cols.boxes[i] = row.cell_boxes[i]


STRAY_CELLS = True  # specs-10; off for an ablation (benchmarks/spec_rerun.py --without stray-cells)


_STRAY_HOMES = frozenset({*_VALUE_ROLES, "unit", "conditions"})  # not the name's: a symbol is no name


def _stray(row: TableRow, cols: _Cols) -> bool:
    """A filled cell under no header whose box is centred under an empty headed cell ("mA" in a cell
    merged over the Units column, the grid giving the text to the merged cell's first column)."""
    head = cols.head_boxes
    for j, t in enumerate(row.cells):
        if not t.strip() or j in cols.roles or j >= len(head):
            continue
        home = _head_under(head, row.cell_boxes[j].center[0])
        if home is not None and cols.roles.get(home) in _STRAY_HOMES and not _cell(row, home):
            return True
    return False


def _head_under(head: list[BBox], cx: float) -> int | None:
    """The one header cell whose x-range holds `cx` (0.5 pt slack), None for none or several."""
    inside = [i for i, h in enumerate(head) if h.x0 - 0.5 <= cx <= h.x1 + 0.5]
    return inside[0] if len(inside) == 1 else None


def _aligned(row: TableRow, cols: _Cols) -> TableRow:
    """A data row whose grid is shifted against the header (the header split into other cells
    than the body: "Min." in cell 10, the numbers in cell 9) re-indexed to the header's columns:
    each filled cell goes to the header cell whose x-range holds its centre."""
    head = cols.head_boxes
    if not head or len(row.cell_boxes) != len(row.cells):
        return row
    vcols = [i for i, r in cols.roles.items() if r in _VALUE_ROLES]
    other_grid = _SPANS and len(row.cells) != len(head)  # the body cut into other columns than the header
    stray = False
    if not other_grid and any(i < len(row.cells) and row.cells[i].strip() for i in vcols):
        if not (STRAY_CELLS and _stray(row, cols)):
            return row  # the values sit in their header's cells: nothing to fix
        stray = True  # only the stray cells move: a cell under its own header's centre stays

    def home(b: BBox) -> int | None:
        found = _head_under(head, b.center[0])
        if found is not None:
            return found
        if not _SPANS:
            return None
        # a body cell spanning several grid columns (its text in the first, the header's in the
        # second: merged cells drawn over a finer header grid): the one named header cell under it
        under = [i for i in cols.names if i < len(head) and b.x0 - 0.5 <= head[i].center[0] <= b.x1 + 0.5]
        return under[0] if len(under) == 1 else None

    cells = ["" for _ in head]
    boxes = [BBox(h.x0, row.bbox_pdf.y0, h.x1, row.bbox_pdf.y1) for h in head]
    moved = False
    for j, (t, b) in enumerate(zip(row.cells, row.cell_boxes, strict=True)):
        if not t.strip():
            continue
        own = stray and j in cols.roles and b.x0 - 0.5 <= head[j].center[0] <= b.x1 + 0.5
        i = j if own else home(b)
        if i is None:
            return row
        moved = moved or i != j
        cells[i] = f"{cells[i]} {t}".strip()
        boxes[i] = b if cells[i] == t else union_box([boxes[i], b])
    if not moved:
        return row
    return TableRow(
        page=row.page,
        bbox_pdf=row.bbox_pdf,
        cells=cells,
        text=row.text,
        is_header=row.is_header,
        cell_boxes=boxes,
    )


def _completes(above: SpecValue, v: SpecValue) -> bool:
    """A row with no parameter, symbol or unit of its own whose numbers fill only the columns the
    value above left empty (Typ on one line, Max under another condition on the next) completes
    that value: it is merged into it, its cells and conditions added."""
    if above.unit != v.unit:
        return False
    mine = {c.role for c in v.cells}
    theirs = {c.role for c in above.cells}
    if mine & theirs or "value" in mine | theirs:
        return False
    merged = [
        x
        for x in (
            v.min if v.min is not None else above.min,
            v.typ if v.typ is not None else above.typ,
            v.max if v.max is not None else above.max,
        )
        if x is not None
    ]
    if any(a >= b for a, b in zip(merged, merged[1:], strict=False)):
        return False  # min < typ < max or they are not one value
    above.min = v.min if v.min is not None else above.min
    above.typ = v.typ if v.typ is not None else above.typ
    above.max = v.max if v.max is not None else above.max
    above.cells += v.cells
    above.value_text = f"{above.value_text} / {v.value_text}"
    extra = v.conditions.split("; ")[0] if v.conditions else ""
    if extra and extra not in above.conditions:
        above.conditions = _joined(above.conditions, extra)
    above.footnotes += [n for n in v.footnotes if n not in above.footnotes]
    return True


def _line_above(head: TableRow, x0: float, x1: float, page_words: list[Word]) -> list[str]:
    """The words of the printed line just above a header row (within 14 pt) between x0 and x1: a
    group's name printed over its Min / Max columns where the grid gives it no row of its own
    ("8253 | 8253-5" over a table continued on the next page)."""
    above = [
        w for w in page_words
        if x0 - 0.5 <= w.bbox_pdf.center[0] <= x1 + 0.5 and head.bbox_pdf.y0 - 14 <= w.bbox_pdf.center[1] < head.bbox_pdf.y0 - 0.5
    ]
    if not above:
        return []
    low = max(w.bbox_pdf.center[1] for w in above)
    return [w.text for w in _in_reading(above) if low - w.bbox_pdf.center[1] <= 2.5]


def _cell(row: TableRow, i: int | None) -> str:
    if i is None or i >= len(row.cells):
        return ""
    return fold(row.cells[i])


def _value_groups(
    cols: _Cols, first: TableRow, words: Callable[[int], list[Word]] | None, parts: tuple[str, ...]
) -> list[_Group]:
    """The value columns in groups: a new group starts where a role repeats (Min Max Min Max). With
    several groups each is named by the header words above its columns; a name that holds one of
    the document's part numbers or series is the group's part, any other (a speed grade, a
    temperature range) goes with the value's conditions. A lone group is named only by a header of
    part names alone (the OP90A column of a family's datasheet): that part."""
    vcols = [(i, r) for i, r in sorted(cols.roles.items()) if r in _VALUE_ROLES]
    groups: list[_Group] = []
    for i, r in vcols:
        if not groups or any(r == q for _, q in groups[-1].cols):
            groups.append(_Group(cols=[]))
        groups[-1].cols.append((i, r))
    if not groups or (len(groups) < 2 and not (ONE_GROUP_PART and parts)):
        return groups
    page_words = words(first.page) if words is not None else []
    for g in groups:
        named = [cols.part_cols[i] for i, _ in g.cols if i in cols.part_cols]
        if named:
            g.label = g.part = named[0]
            continue
        xs = [cols.boxes[i] for i, _ in g.cols if i in cols.boxes]
        if not xs:
            continue
        x0, x1 = min(b.x0 for b in xs), max(b.x1 for b in xs)
        texts: list[str] = []
        for row in cols.label_rows:
            if len(groups) == 1 and not _is_header_row(row):
                continue  # a lone group's part is printed in the header itself, not in a line above it
            boxes = [row.cell_boxes[i] for i, _ in g.cols if i < len(row.cell_boxes)]
            y0 = min((b.y0 for b in boxes), default=row.bbox_pdf.y0)
            y1 = max((b.y1 for b in boxes), default=row.bbox_pdf.y1)
            inside = [
                w
                for w in page_words
                if x0 - 0.5 <= w.bbox_pdf.center[0] <= x1 + 0.5
                and y0 - 0.5 <= w.bbox_pdf.center[1] <= y1 + 0.5
                and row.page == first.page
            ]
            if inside:
                texts += [w.text for w in _in_reading(inside)]
            elif len(row.cell_boxes) == len(row.cells):
                texts += [
                    t
                    for t, b in zip(row.cells, row.cell_boxes, strict=True)
                    if t.strip() and x0 - 0.5 <= b.center[0] <= x1 + 0.5
                ]
        if not texts and GROUPED_ROLES and cols.head_row is not None and not cols.label_rows:
            texts = _line_above(cols.head_row, x0, x1, page_words)
        g.label = fold(" ".join(dict.fromkeys(t for t in texts if _role_of(t)[0] is None))).strip(" ,;")
        if g.label and _names_part(g.label, parts):
            g.part = g.label
    if len(groups) == 1:  # one group: named for a part only by a header of part names alone ("OP90A")
        g = groups[0]
        whole = bool(g.label) and all(_names_part(t, parts) for t in re.split(r"[\s,;]+", g.label) if t)
        g.label = g.part = g.label if whole else ""
    return groups


ONE_GROUP_PART = True  # specs-6; off for an ablation (benchmarks/spec_rerun.py --without one-group-part)


def _norm_part(s: str) -> str:
    return re.sub(r"[^0-9A-Z]", "", s.upper())


def _part_named(name: str, parts: tuple[str, ...]) -> str | None:
    """The one part of the document a row's name prints as a word of its own ("TMP36 Output
    Voltage"), else None."""
    known = {_norm_part(p): p for p in parts if len(_norm_part(p)) >= 5}
    hits = {known[t] for tok in re.split(r"[\s,;/()]+", name) if (t := _norm_part(tok)) in known}
    return hits.pop() if len(hits) == 1 else None


TITLE_PARTS = True  # specs-26; off for an ablation (benchmarks/spec_rerun.py --without title-parts)
_WILD_RE = re.compile(r"(?<![A-Za-z0-9])x([0-9A-Z]*\d[0-9A-Z]*)(?![A-Za-z0-9])")


def _wild_part(text: str, parts: tuple[str, ...]) -> str | None:
    """The one part number of the document that a code printed with an "x" for the rest of it names
    ("x05B" for ACS712ELCTR-05B-T, "x20A"): the part numbers holding its characters as a hyphen-cut
    piece of their own; None unless exactly one does and exactly one such code is printed."""
    codes = set(_WILD_RE.findall(text))
    if len(codes) != 1:
        return None
    code = codes.pop()
    hits = {p for p in parts if code in re.split(r"[-/ ]", p.upper())}
    return hits.pop() if len(hits) == 1 else None


_TITLE_WORDS_RE = re.compile(r"characteristics|specifications|ratings|特性|参数", re.IGNORECASE)


def _caption_part(c: Chunk, prev: Chunk | None, parts: tuple[str, ...]) -> str | None:
    """The one part of the document a table's title names ("x05B PERFORMANCE CHARACTERISTICS", "TMP36
    Specifications"): the first line of the table's own text, or the last line of the text block
    right above it (`_block_above`), when it is a title (it says characteristics, specifications or
    ratings); None when neither names exactly one part."""
    lines = [c.native_text.strip().split("\n", 1)[0]] if c.native_text.strip() else []
    if prev is not None and _block_above(c, prev) and prev.native_text.strip():
        lines.append(prev.native_text.strip().rsplit("\n", 1)[-1])
    found: set[str] = set()
    for line in lines:
        if _TITLE_WORDS_RE.search(line):
            before = _TITLE_WORDS_RE.split(line)[0]  # the part is named before the title word
            hit = _part_named(before, parts) or _wild_part(before, parts)
            if hit:
                found.add(hit)
    return found.pop() if len(found) == 1 else None


CODE_ROWS = True  # specs-18; off for an ablation (benchmarks/spec_rerun.py --without code-rows)
# specs-19: a row whose conditions name one of the document's parts ("IF = 5 mA; 1N4448", "TOP262LN,
# TJ = 25 °C") is that part's, when nothing else (a column group, a row name) named its part
CONDITION_PARTS = True  # off for an ablation (benchmarks/spec_rerun.py --without condition-parts)


def _condition_parts(values: list[SpecValue], part: str, parts: tuple[str, ...]) -> None:
    """A value of the document's default part whose own conditions hold a clause that begins with
    one of the document's parts ("1N4448" in "IF = 5 mA; 1N4448", "(MBRF20H100CT) - Junction-to-Case",
    "TPS737xx DCQ [SOT-223]") is that part's; a part named inside a clause ("Clock = 15 MHz for
    CA3306 or ...") names nothing."""
    if not CONDITION_PARTS or not parts:
        return
    above: tuple[SpecValue, str] | None = None  # the last value its conditions named, and its part
    for v in values:
        carried = _carried_part(v, above, part)
        above = None
        if v.part != part or v.table == "ordering" or not v.conditions:
            if carried:
                v.part = carried
            continue
        firsts = [
            first
            for clause in re.split(r"[;,]", v.conditions)
            if (first := clause.strip().strip("()[] ").split(" ")[0].strip("()[]"))
        ]
        named = {p for first in firsts if (p := _part_named(first, parts)) is not None}
        if not named and SIBLING_PARTS:
            named = {first for first in firsts if _sibling_code(first, part)}
        if len(named) == 1:
            v.part = named.pop()
            above = (v, v.part)
        elif carried:
            v.part = carried


CARRIED_PARTS = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without carried-parts)


def _carried_part(v: SpecValue, above: tuple[SpecValue, str] | None, part: str) -> str | None:
    """The sub-row right under one whose conditions named a part, in the same printed row (the same
    name and symbol, its row box touching the one above: "forward voltage | 1N4448 IF = 5 mA |
    IF = 100 mA"), naming no part itself, is that part's too - the label heads a block of sub-rows.
    One sub-row only: a longer block is not told apart from the part-less sub-rows after it ("AD7767-2
    Operational Current AIDD DIDD IREF | Static Current ... For all devices" in one name cell)."""
    if not CARRIED_PARTS or above is None or v.part != part or v.table == "ordering":
        return None
    u, named = above
    same = (u.page, u.parameter_printed, u.symbol, u.table) == (v.page, v.parameter_printed, v.symbol, v.table)
    touching = abs(v.row_bbox_pdf[1] - u.row_bbox_pdf[3]) <= 1.0
    return named if same and touching else None


SIBLING_PARTS = True  # specs-25; off for an ablation (benchmarks/spec_rerun.py --without sibling-parts)
_SIBLING_CODE_RE = re.compile(r"[A-Z]{1,5}\d[0-9A-Z]*")


def _sibling_code(token: str, part: str) -> bool:
    """Is `token` (a condition clause's first word) the code of one of the default part's siblings
    the card does not list - a variant of its family printed as a sub-row's label ("TOP254YN/EN" under
    TOP252, "AD7767-2" under AD7767, "CH390F/H" under CH390, "LM35A" under LM35)? A code of letters
    then digits that shares its first letters and at least one digit with the part (4 characters at
    least), is not the part and is not a prefix of it (the family's name: "TLV757" of TLV757P)."""
    t = _norm_part(token.split("/")[0])
    k = _norm_part(part)
    if not _SIBLING_CODE_RE.fullmatch(t) or not _SIBLING_CODE_RE.fullmatch(k) or t == k or k.startswith(t):
        return False
    common = len(os.path.commonprefix([t, k]))
    return common >= 4 and bool(re.search(r"\d", k[:common]))


def _code_of(cell: str, parts: tuple[str, ...]) -> str | None:
    """An ordering row named by a code the card does not list, one of a listed part's own ordering
    codes ("DS1307ZN+T&R" of DS1307Z, "LM358AMX/NOPB" of LM358A): that code, as printed - the row's
    values (its temperature range, its package) are that code's, not the series'. One token that
    begins with a listed part's name (5 characters at least) and goes on."""
    t = cell.strip()
    if not t or re.search(r"\s", t) or not re.search(r"\d", t):
        return None
    n = _norm_part(t)
    for p in parts:
        k = _norm_part(p)
        if len(k) >= 5 and n.startswith(k) and len(n) > len(k):
            return t
    return None


NAME_CODES = True  # specs-26; off for an ablation (benchmarks/spec_rerun.py --without name-codes)


def _name_code(name: str, parts: tuple[str, ...]) -> str | None:
    """The one code a row's name prints of a part of the document that the card lists under a longer or
    shorter number (`_names_part`: "LM158" of LM158-N, "LT1006AM/LT1006M", "AD7891-1"): "Operating
    Temperature: LM158", "Operating Temperature Range, LT1006AM/LT1006M (OBSOLETE)" - that code as printed,
    the row's part. None for a name printing several ("Supply Voltage: LM158. LM258, LM358") or none."""
    if not NAME_CODES:
        return None
    tokens = (t.strip(" .") for t in re.split(r"[\s,;:()]+", name))
    codes = {t for t in tokens if t and _names_part(t, parts)}
    return codes.pop() if len(codes) == 1 else None


def _names_part(label: str, parts: tuple[str, ...]) -> bool:
    """Does a group's header name a part of the document (LM2904 for LM2904-N, LM358A)?"""
    known = [_norm_part(p) for p in parts if len(_norm_part(p)) >= 5]
    for tok in re.split(r"[\s,;/]+", label):
        t = _norm_part(tok)
        if len(t) >= 5 and re.search(r"[A-Z]", t) and re.search(r"\d", t):
            if any(k.startswith(t) or t.startswith(k) for k in known):
                return True
    return False


def _head_centres(cols: _Cols, vcols: list[int], words: list[Word]) -> dict[int, float]:
    """x centre of each value column's header word (MIN, Typ., Max(1)): the grid's cell boxes can be
    shifted against the printed header, the word is where the column's numbers sit."""
    out: dict[int, float] = {}
    for i in vcols:
        b = cols.boxes[i]
        role = cols.roles[i]
        near = [
            w for w in words if b.y0 - 1 <= w.bbox_pdf.center[1] <= b.y1 + 1 and _role_of(w.text)[0] == role
        ]
        if near:
            w = min(near, key=lambda w: abs(w.bbox_pdf.center[0] - b.center[0]))
            if abs(w.bbox_pdf.center[0] - b.center[0]) <= max(b.width, 40.0):
                out[i] = w.bbox_pdf.center[0]
                continue
        out[i] = b.center[0]
    return out


UNHEADED_CELLS = True  # specs-10; off for an ablation (benchmarks/spec_rerun.py --without unheaded-cells)
# what a value cell under no header may hold: one number (a unit or footnote mark after it) or a dash
_LOOSE_VALUE_RE = re.compile(r"[-+±−–]?\s?\d[\d.,]*\s?[^\d\s]{0,6}|[-–—−]")


def _positional(
    row: TableRow, cols: _Cols, words: Callable[[int], list[Word]] | None
) -> dict[int, tuple[str, BBox]] | None:
    """The value cells of a row re-read from the words' positions, when the table grid put a value
    in another column than the header it sits under (merged cells, "-0.3 32" under Min and Max; a
    grid shifted against the header): each word goes to the value column whose header word it is
    nearest to. None when every value sits under its own header or the boxes are not known."""
    vcols = [i for i, r in sorted(cols.roles.items()) if r in _VALUE_ROLES and i in cols.boxes]
    if words is None or len(vcols) < 2 or len(row.cell_boxes) != len(row.cells):
        return None
    filled = [i for i in vcols if i < len(row.cells) and row.cells[i].strip()]
    if UNHEADED_CELLS:
        # a grid finer than the header ("Min" over two grid columns): a filled cell under no header
        # between the first and the last value column holds a value too
        lo, hi = min(cols.boxes[i].x0 for i in vcols), max(cols.boxes[i].x1 for i in vcols)
        filled += [
            i
            for i, t in enumerate(row.cells)
            if _LOOSE_VALUE_RE.fullmatch(t.strip())
            and i not in cols.roles
            and i not in cols.named
            and lo <= row.cell_boxes[i].center[0] <= hi
        ]
    if not filled:
        return None
    page_words = words(row.page)
    heads = _head_centres(cols, vcols, [w for w in page_words if w.bbox_pdf.y1 <= row.bbox_pdf.y0 + 1])
    # the value cells' height, not the row's: a parameter cell spanning sub-rows makes the row tall
    y0 = min(row.cell_boxes[i].y0 for i in filled)
    y1 = max(row.cell_boxes[i].y1 for i in filled)
    x0 = min(min(row.cell_boxes[i].x0 for i in filled), min(cols.boxes[i].x0 for i in vcols))
    x1 = max(max(row.cell_boxes[i].x1 for i in filled), max(cols.boxes[i].x1 for i in vcols))
    got: dict[int, list[Word]] = {}
    moved = False
    for w in page_words:
        cx, cy = w.bbox_pdf.center
        if not (x0 <= cx <= x1 and y0 - 0.5 <= cy <= y1 + 0.5):
            continue
        j = min(vcols, key=lambda k: abs(heads[k] - cx))
        home = next(
            (i for i in filled if row.cell_boxes[i].x0 - 0.5 <= cx <= row.cell_boxes[i].x1 + 0.5), None
        )
        if home is None:
            continue  # a word of another column (conditions, unit) inside the value area's height
        if home not in vcols and re.fullmatch(r"[-–—−/]+|n/?a", w.text.strip(), re.IGNORECASE):
            continue  # "-" in a cell under no header: no value printed there, not a minus sign
        if home != j:
            moved = True
        got.setdefault(j, []).append(w)
    if not moved:
        return None
    out: dict[int, tuple[str, BBox]] = {}
    for j, ws in got.items():
        ws[:] = _in_reading(ws)
        out[j] = (" ".join(w.text for w in ws), union_box(w.bbox_pdf for w in ws))
    return out


def _long_row(
    doc_id: str,
    part: str,
    c: Chunk,
    row: TableRow,
    cols: _Cols,
    prev: tuple[str, str, str] | None,
    words: Callable[[int], list[Word]] | None,
) -> tuple[list[tuple[str, SpecValue]], tuple[str, str, str] | None]:
    """The values of one body row of a long table, one per column group: (group label, value)."""
    pcol, scol, ucol, ccol = (
        cols.col("parameter"),
        cols.col("symbol"),
        cols.col("unit"),
        cols.col("conditions"),
    )
    name, symbol, unit_text = _cell(row, pcol), _cell(row, scol), _cell(row, ucol)
    described = False
    if cols.cases is not None and not symbol:
        # "Parameter | Description" where the first holds symbols ("VIH" | "High-level input
        # voltage"): the description is the name, the symbol the symbol - not a case
        desc = _cell(row, cols.cases)
        symbol_like = len(name.replace(" ", "")) <= 8 and not re.search(r"[a-z]{4}|^[A-Z][a-z]+$", name)
        if name and symbol_like and re.search(r"[A-Za-z]{3,}\s+[A-Za-z]{3,}", desc):
            name, symbol, described = desc, name, True
    if not name and pcol is not None:
        # the grid put symbol and name in an unlabelled cell left of the Parameter column ("IQ
        # Quiescent current" under no header): that is this row's name, not the row above's
        left = [_cell(row, i) for i in range(pcol) if i not in cols.roles and _cell(row, i)]
        if left:
            name = " ".join(left)
    fixed = _positional(row, cols, words)
    groups = cols.groups or [
        _Group(cols=[(i, r) for i, r in sorted(cols.roles.items()) if r in _VALUE_ROLES])
    ]
    per_group: list[tuple[_Group, list[tuple[int, str, str, BBox | None]]]] = []
    for g in groups:
        # a merged Value cell repeated over min/typ/max columns by find_tables: read it once
        seen_text: set[str] = set()
        filled: list[tuple[int, str, str, BBox | None]] = []
        for i, r in g.cols:
            if fixed is not None:
                if i in fixed:
                    filled.append((i, r, fold(fixed[i][0]), fixed[i][1]))
                continue
            if i >= len(row.cells):
                continue
            t = _cell(row, i)
            if not t:
                continue
            if t in seen_text and row.cell_boxes and i > 0 and row.cell_boxes[i] == row.cell_boxes[i - 1]:
                continue
            seen_text.add(t)
            filled.append((i, r, t, None))
        if filled:
            per_group.append((g, filled))
    if not per_group:
        return [], (name, symbol, unit_text) if name else prev
    inherited = False
    cond_name = ""
    if name and prev is not None and symbol in ("", prev[1]) and (_is_condition(name) or _quantity_case(name, unit_text, prev)):
        cond_name, name = name, ""  # "VCC = 5 V" under "Supply current": a condition of the row above
    if not name and prev is not None:
        name, symbol = prev[0], symbol or prev[1]
        unit_text = unit_text or prev[2]
        inherited = True
    if not name:
        return [], prev
    keep = (name, symbol, unit_text)
    item_cond = ""
    if ITEM_COLUMNS and pcol is not None:
        name, symbol, item_cond = _item_column(row, cols, pcol, name, symbol)
    out: list[tuple[str, SpecValue]] = []
    qual = _qualifier(row, cols)
    # the row's own conditions, the same for every column group
    conditions = "" if described else (_cell(row, ccol) or _line_condition(row, cols))
    if item_cond:
        glue = " " if re.match(r"\s*[=≤≥<>]", conditions) else "; "
        conditions = f"{item_cond}{glue}{conditions}" if conditions else item_cond
    if re.fullmatch(r"[-–—−/]+", conditions.strip()):
        conditions = ""  # "—" in a Conditions cell: none printed
    refs = _note_refs(conditions, cols, ccol)
    if refs:
        conditions = ""  # "2, 3" under "Notes": the notes below the table that apply, kept as footnotes
    if CONDITION_SPAN and ccol is not None:
        # a merged "Conditions" header over several grid columns: the unheaded cells right of it
        # (up to the next headed column) hold the rest of the row's conditions
        nxt = min((i for i in cols.roles if i > ccol), default=len(row.cells))
        rest = [_cell(row, i) for i in range(ccol + 1, nxt) if i not in cols.named and _cell(row, i)]
        before_c: list[str] = []
        if CONDITIONS_LEFT:
            # the header's word set over the right one of two merged grid columns ("TEST |
            # CONDITIONS", "| CONDITIONS"): the unheaded cells left of it, back to the column
            # before (a name, a symbol), hold the row's conditions too ("VCC = 2.0V | (Note 6)")
            prv = max((i for i in cols.roles if i < ccol), default=-1)
            before_c = [
                _cell(row, i)
                for i in range(prv + 1, ccol)
                if i not in cols.named and _cell(row, i) and not (ITEM_COLUMNS and prv == pcol)
            ]  # right of the names themselves, `_item_column` has read them
            if before_c and scol is None and _SYMBOL_CELL_RE.fullmatch(before_c[0]):
                # an unheaded symbol column ("L", "RDC 1", "VOH" left of "Test conditions"): the symbol
                symbol = symbol or before_c[0]
                before_c = before_c[1:]
        conditions = " ".join(x for x in (*before_c, conditions, *rest) if x)
    if cond_name:
        conditions = _joined(cond_name, conditions)
    row_conditions = conditions
    for g, filled in per_group:
        conditions = row_conditions
        if g.label and not g.part:
            conditions = _joined(conditions, g.label)
        variants = [filled]
        if OPTION_LISTS and len(filled) == 1 and filled[0][1] == "value" and parse_value(filled[0][2]) is None:
            # "12 pF, 20 pF, or specify": one value per option, each from the whole cell
            i0, r0, t0, b0 = filled[0]
            opts = _options(t0) or []
            if opts:
                variants = [[(i0, r0, o, b0 if b0 is not None else _cell_box(row, i0, words))] for o in opts]
        for cells_read in variants:
            v = SpecValue(
                doc_id=doc_id,
                part=g.part or part,
                parameter="",
                parameter_printed=name,
                symbol=symbol,
                conditions=conditions,
                page=row.page,
                row_bbox_pdf=row.bbox_pdf,
                chunk_id=c.chunk_id,
                footnotes=list(refs),
            )
            texts: list[str] = []
            tol_limit = False  # min/max set by a ± printed in a Min/Max/Value column
            spreads: dict[str, float] = {}  # the magnitude of each ± printed, by column role
            all_spreads = True  # every value cell of the row prints a ±
            for i, r, t, box in cells_read:
                hint = unit_text or cols.unit_hints.get(i, "") or _unit_in_name(name)
                if qual and r == "value":
                    r = qual[0]  # "72 | µH | min.": the lone number is a minimum
                    hint = qual[1] or hint
                pv = parse_value(t, hint, r)
                said = ""
                if pv is None and VALUE_CONDITIONS:
                    pv, said = _value_then_condition(t, hint, r)
                if pv is None or pv.empty:
                    continue
                if v.unit and pv.unit != v.unit:
                    continue
                if said and said not in v.conditions:
                    v.conditions = _joined(v.conditions, said)
                used = 2 if pv.min is not None and pv.max is not None and not pv.tolerance else 1
                if _numbers_in(t[: t.rfind(said)] if said else t) > used:  # the condition's numbers are its own
                    v.doubt = "numbers"  # "1.8 V 3.3 V": more numbers than the value holds
                v.unit, v.unit_printed = pv.unit, pv.unit_printed
                v.footnotes += [n for n in pv.footnotes if n not in v.footnotes]
                if pv.tolerance and pv.max is not None:
                    spreads[r] = pv.max
                else:
                    all_spreads = False
                if pv.tolerance and r == "typ":
                    # "±14" typical beside a "±13" limit, "-1.6 | ±0.8 | +1.6": the record keeps the limits
                    if not tol_limit and v.min is None and v.max is None:
                        v.min, v.max = pv.min, pv.max
                elif pv.tolerance or (r == "value" and pv.min is not None and pv.max is not None):
                    v.min, v.max = pv.min, pv.max
                    tol_limit = pv.tolerance
                else:
                    v.min = pv.min if pv.min is not None else v.min
                    v.typ = pv.typ if pv.typ is not None else v.typ
                    v.max = pv.max if pv.max is not None else v.max
                text = t if box is not None else row.cells[i]
                v.cells.append(
                    SpecCell(role=r, text=text, bbox_pdf=box if box is not None else _cell_box(row, i, words))
                )
                texts.append(t)
            typ_spread = spreads.get("typ")  # the magnitude of a ± printed in the Typ column
            if TYPICAL_SPREAD and tol_limit and typ_spread is not None and v.typ is None and v.max is not None:
                if 0 <= typ_spread <= v.max:
                    v.typ = typ_spread  # "±0.4 | ±1.3" under Typ | Max: limits ±1.3, typically within 0.4
            if LEAST_MAGNITUDES and all_spreads and "min" in spreads:
                least = [spreads.get(k) for k in ("min", "typ", "max")]
                known_ = [x for x in least if x is not None]
                if all(a <= b for a, b in zip(known_, known_[1:], strict=False)):
                    v.min, v.typ, v.max = least  # "±13 | ±14" under Min | Typ: |VOUT| at least 13, typically 14
            if not v.cells or not v.unit:
                continue  # nothing read, or a number without a unit (a pin number, a count): not a spec value
            pid, known = match_parameter(name, symbol, unit=v.unit)
            if known and parameter_unit(pid) not in (v.unit, None):
                if parameter_unit(pid) and v.unit in _QUANTITY_UNITS:  # another quantity (not "Output", not dB)
                    v.doubt = v.doubt or "unit"  # "Supply current ... V": the row or the column is misread
                pid, known = printed_id(name), False  # the id an unknown name is kept under
            v.parameter, v.known = pid, known
            v.value_text = " / ".join(texts)
            out.append((g.label, v))
    if not out:
        return [], (prev if inherited else keep)
    return out, keep


_QUAL_WORD = r"(min|max|typ|minimum|maximum|typical|nom|nominal)\.?"
_CONDITION_RE = re.compile(
    r"^(?:@|at\s|for\s|with\s|over\s|when\s|[A-Za-z][\w(),]{0,10}\s*(?:=|<|>|≤|≥)\s*[-+]?\d|"
    r"[-+]?\d+(?:\.\d+)?\s*°C\b)",
    re.IGNORECASE,
)


QUANTITY_NAMES = True  # specs-15; off for an ablation (benchmarks/spec_rerun.py --without quantity-names)
# a name cell that begins with a number in a unit: the row is a case of the parameter above ("1 Hz
# offset" under Phase Noise, "1.5 V (Vin = 2.9 V to 10 V)" under Load Regulation)
_QUANTITY_NAME_RE = re.compile(r"^[-+]?\d+(?:\.\d+)?\s*[pnuµmkMG]?(?:Hz|V|A|W|Ω|ohm|s|F)\b")


def _quantity_case(name: str, unit_text: str, prev: tuple[str, str, str]) -> bool:
    """A name cell that begins with a number in a unit ("1 Hz offset", "1.5 V (Vin = 2.9 V to 10 V)")
    printed in the unit of the row above, or under a row naming a parameter with no unit (a case of that
    parameter, not a row of another kind); the row above not itself such a case's name."""
    if not QUANTITY_NAMES or not _QUANTITY_NAME_RE.match(fold(name)) or _QUANTITY_NAME_RE.match(fold(prev[0])):
        return False
    # the row above names the parameter without a unit (a heading row: "Phase Noise") or in this unit
    return not prev[2] or fold(unit_text or prev[2]).lower() == fold(prev[2]).lower()


def _is_condition(name: str) -> bool:
    """Is a Parameter cell's text a test condition ("VCC = 5 V", "at 25 °C", "-40 °C to 85 °C")
    rather than a name: it begins like one and, the conditions taken out, names nothing (no two
    words of four letters and more left)."""
    t = fold(name)
    if not _CONDITION_RE.match(t):
        return False
    rest = re.sub(r"[A-Za-z][\w(),]*\s*(?:=|<|>|≤|≥)\s*[-+]?[\d.]+\s*[^\s,;]*", " ", t)
    rest = re.sub(
        r"\b(?:at|for|with|over|when|to|and|or|unless|otherwise|noted)\b|@", " ", rest, flags=re.IGNORECASE
    )
    return len(re.findall(r"[A-Za-z]{4,}", rest)) < 2


def _qualifier(row: TableRow, cols: _Cols) -> tuple[str, str] | None:
    """A row of a one-"Value"-column table that says which limit its number is, in a column of its
    own ("72 | µH | min." under "Value | Unit | Tol.") or after the unit ("µH max."): (role, the
    unit without the word). None when the row has Min/Typ/Max columns or says nothing."""
    if any(r in ("min", "typ", "max") for r in cols.roles.values()):
        return None
    vcol = cols.col("value")
    if vcol is None:
        return None
    ucol = cols.col("unit")
    for i in range(vcol + 1, len(row.cells)):
        if cols.roles.get(i) not in (None, "unit"):
            continue
        t = fold(row.cells[i]).strip()
        m = re.fullmatch(rf"(.*?)\s*\b{_QUAL_WORD}", t, re.IGNORECASE)
        if not m or (i != ucol and m.group(1)):
            continue
        role = {"min": "min", "minimum": "min", "max": "max", "maximum": "max"}.get(m.group(2).lower(), "typ")
        return role, m.group(1) if i == ucol else ""
    return None


def _unit_in_name(name: str) -> str:
    m = re.search(r"[\(\[]\s*([^()\[\]]{1,8})\s*[\)\]]\s*$", name)
    if m and parse_unit(m.group(1)) is not None:
        return m.group(1)
    return ""


WORD_LABELS = True  # specs-10; off for an ablation (benchmarks/spec_rerun.py --without word-labels)
SIDE_HALVES = True  # specs-41; off for an ablation (benchmarks/spec_rerun.py --without side-halves)


def _row_part(label: str, part: str, parts: tuple[str, ...]) -> str:
    """The part a row named `label` is for: one of the document's parts it names (an ordering table's "DS1302Z |
    0°C to +70°C"), else `part`."""
    named = _part_named(label, parts) if ROW_PARTS and parts else None
    if named is None and ROW_PARTS and CODE_ROWS and parts:
        named = _code_of(label, parts)
    return named or part


def _named_row(
    doc_id: str,
    part: str,
    c: Chunk,
    row: TableRow,
    cols: _Cols,
    words: Callable[[int], list[Word]] | None,
    parts: tuple[str, ...] = (),
) -> list[SpecValue]:
    """A body row of a table whose columns are named by parameters and whose first column names
    the row (a grade, a mode): one value per parameter column, the row's name as its condition and,
    when it names one of the document's parts, its part."""
    label = _cell(row, 0)
    if WORD_LABELS and not re.search(r"[^\W\d_]", label):
        return []  # "0 | 0 | 4096": a register's bit values name a setting, not a grade or a mode
    out: list[SpecValue] = []
    heads = [fold(x).strip().lower() for x in cols.head_row.cells] if SIDE_HALVES and cols.head_row else []
    for i, pid in sorted(cols.named.items()):
        t = _cell(row, i)
        # a table printed in halves side by side ("Type | fo | Type | fo"): a value's row name is the cell under
        # the nearest column left of it headed as the first column is
        half = max((k for k in range(1, min(i, len(heads))) if k not in cols.named and heads[k] == heads[0]), default=0)
        label = _cell(row, half)
        if not t or not label:
            continue
        pv = parse_value(t, cols.unit_hints.get(i, ""), "value")
        if pv is None or pv.empty or pv.unit != parameter_unit(pid):
            continue
        out.append(
            _cell_value(
                doc_id,
                c,
                row,
                i,
                pv,
                words,
                part=_row_part(label, part, parts),
                parameter=pid,
                printed=cols.names.get(i, ""),
                conditions=label,
            )
        )
    return out


def _cell_value(
    doc_id: str,
    c: Chunk,
    row: TableRow,
    i: int,
    pv: ParsedValue,
    words: Callable[[int], list[Word]] | None,
    *,
    part: str,
    parameter: str,
    printed: str,
    **extra: Any,
) -> SpecValue:
    """One known parameter's value read from one cell (column i) of a row."""
    return SpecValue(
        doc_id=doc_id,
        part=part,
        parameter=parameter,
        parameter_printed=printed,
        known=True,
        min=pv.min,
        typ=pv.typ,
        max=pv.max,
        unit=pv.unit,
        unit_printed=pv.unit_printed,
        value_text=_cell(row, i),
        footnotes=pv.footnotes,
        page=row.page,
        row_bbox_pdf=row.bbox_pdf,
        cells=[SpecCell(role="value", text=row.cells[i], bbox_pdf=_cell_box(row, i, words))],
        chunk_id=c.chunk_id,
        **extra,
    )


STACKED_HEADS = True  # specs-26; off for an ablation (benchmarks/spec_rerun.py --without stacked-heads)


def _stacked_names(header_rows: list[TableRow], body: TableRow) -> dict[int, list[str]]:
    """Each column's name in a part-number table whose header is printed on several lines: the texts of
    the header cells over it, top line first - a cell merged over several columns names each of them
    ("Maximum Allowable Voltage" over "ACrms(V) | DC(V)"), a Min / Typ / Max word adds nothing
    ("Breakdown Voltage VBR (Volts) @ IT" over "MIN | MAX"). A header cell is over a column when it
    covers more than half of the body row's cell (`body`, the first row under the header)."""
    if len(body.cell_boxes) != len(body.cells):
        return {}
    names: dict[int, list[str]] = {}
    for row in header_rows:
        if len(row.cell_boxes) != len(row.cells) or _title_row(row) or not any(t.strip() for t in row.cells):
            continue
        for i, cb in enumerate(body.cell_boxes):
            width = max(cb.x1 - cb.x0, 1e-6)
            for t, b in zip(row.cells, row.cell_boxes, strict=True):
                if not t.strip() or min(b.x1, cb.x1) - max(b.x0, cb.x0) <= 0.5 * width:
                    continue
                if _role_of(t)[0] in ("min", "typ", "max", "part"):
                    continue
                got = names.setdefault(i, [])
                if fold(t) not in got:
                    got.append(fold(t))
    return names


def _unit_free(name: str) -> str:
    """A column name without the unit it prints in parentheses or brackets ("Inductance [uH]")."""
    return re.sub(r"\s+", " ", _NAME_UNIT_RE.sub(lambda m: " " if _name_unit(m.group(0)) else m.group(0), name)).strip()


def _wide_row(
    doc_id: str, c: Chunk, row: TableRow, cols: _Cols, words: Callable[[int], list[Word]] | None
) -> list[SpecValue]:
    pcol = cols.col("part")
    part = _cell(row, pcol)
    if not part:
        return []
    out: list[SpecValue] = []
    groups = _wide_members(cols)
    grouped = {i for members in groups.values() for i, _ in members}
    for i, head in sorted(cols.names.items()):
        if i == pcol or i >= len(row.cells) or cols.roles.get(i) is not None or i in grouped:
            continue
        t = _cell(row, i)
        if not t:
            continue
        pv = parse_value(t, cols.unit_hints.get(i, ""), "value")
        if pv is None or pv.empty or not pv.unit:
            continue
        pid, known = match_parameter(_unit_free(head) if STACKED_HEADS else head, "", unit=pv.unit)
        if known and parameter_unit(pid) != pv.unit:
            continue
        if not known:
            continue  # an ordering column no parameter names (packing, marking): not a spec
        out.append(
            _cell_value(
                doc_id, c, row, i, pv, words, part=part, parameter=pid, printed=head, table="ordering"
            )
        )
    if STACKED_HEADS:
        out.extend(_wide_groups(doc_id, c, row, cols, words, part, groups))
    return out


def _wide_members(cols: _Cols) -> dict[str, list[tuple[int, str]]]:
    """A part-number table's column groups under one top header line holding Min / Typ / Max columns
    ("Varistor Voltage (@0.1mA)" over "Min. | Vb(Vdc) | Max."): the top line's text -> (column, role),
    one column without a role word among them the typical value."""
    if not STACKED_HEADS:
        return {}
    out: dict[str, list[tuple[int, str]]] = {}
    tops: dict[str, list[int]] = {}
    for i, top in cols.tops.items():
        if cols.roles.get(i) != "part":
            tops.setdefault(top, []).append(i)
    for top, idx in tops.items():
        roles = {i: cols.roles.get(i) for i in idx}
        if not any(r in ("min", "typ", "max") for r in roles.values()):
            continue
        plain = [i for i, r in roles.items() if r is None]
        members = [(i, r) for i, r in sorted(roles.items()) if r in ("min", "typ", "max")]
        if len(plain) == 1 and "typ" not in roles.values():
            members = sorted([*members, (plain[0], "typ")])
        out[top] = members
    return out


_UNIT_WORDS = {"volts": "V", "volt": "V", "amps": "A", "amperes": "A", "watts": "W", "ohms": "Ω"}  # "(Volts)"
_NAME_UNIT_RE = re.compile(r"[(\[]\s*([^()\[\]]{1,10}?)\s*[)\]]")


def _name_unit(name: str) -> str:
    """The unit a column's name prints in parentheses or brackets, the last one that reads as a unit
    ("Breakdown Voltage VBR (Volts) @ IT" -> V, "DC Resistance [mΩ]" -> mΩ); "" when none does."""
    for hint in reversed(_NAME_UNIT_RE.findall(name)):
        h = _UNIT_WORDS.get(hint.lower(), hint)
        if parse_unit(h) is not None:
            return h
    return ""


def _wide_groups(
    doc_id: str,
    c: Chunk,
    row: TableRow,
    cols: _Cols,
    words: Callable[[int], list[Word]] | None,
    part: str,
    groups: dict[str, list[tuple[int, str]]],
) -> list[SpecValue]:
    """A part-number table's Min / Typ / Max columns under one name (`groups`, `_wide_members`: "Breakdown
    Voltage VBR (Volts) @ IT" over "MIN | MAX", "DC Resistance [mΩ]" over "Max. | Typ."): one value per
    group and row, its numbers by role, its unit the name's. The name must be a vocabulary parameter of
    that unit."""
    out: list[SpecValue] = []
    for name, members in groups.items():
        hint = next((u for i, _ in members if (u := _name_unit(cols.names.get(i, "")))), "")
        got: dict[str, float] = {}
        cells: list[SpecCell] = []
        unit, printed_unit, footnotes = "", "", []
        for i, role in members:
            t = _cell(row, i) if i < len(row.cells) else ""
            if not t:
                continue
            pv = parse_value(t, hint, role)
            if pv is None or pv.empty or not pv.unit or (unit and pv.unit != unit):
                continue
            x = pv.typ if pv.typ is not None else (pv.max if pv.max is not None else pv.min)
            if x is None or role in got:
                continue
            got[role] = x
            unit, printed_unit = pv.unit, pv.unit_printed
            footnotes += pv.footnotes
            cells.append(SpecCell(role=role, text=row.cells[i], bbox_pdf=_cell_box(row, i, words)))
        if not got:
            continue
        pid, known = match_parameter(_unit_free(name), "", unit=unit)
        if not known or parameter_unit(pid) != unit:
            continue
        out.append(
            SpecValue(
                doc_id=doc_id, part=part, parameter=pid, parameter_printed=name, known=True,
                min=got.get("min"), typ=got.get("typ"), max=got.get("max"), unit=unit, unit_printed=printed_unit,
                value_text=" / ".join(c.text for c in cells), footnotes=footnotes, page=row.page,
                row_bbox_pdf=row.bbox_pdf, cells=cells, chunk_id=c.chunk_id, table="ordering",
            )
        )
    return out


# --------------------------------------------------------------------------- cell boxes
def _cell_box(row: TableRow, i: int, words: Callable[[int], list[Word]] | None) -> BBox:
    if len(row.cell_boxes) == len(row.cells) and i < len(row.cell_boxes):
        return row.cell_boxes[i]
    if words is not None:
        b = _locate(row, i, words(row.page))
        if b is not None:
            return b
    return row.bbox_pdf


def _locate(row: TableRow, i: int, words: list[Word]) -> BBox | None:
    """The box of cell `i`'s words inside the row: cells are matched left to right, each to words
    right of the cell before it (table cells do not overlap in x)."""
    x0, y0, x1, y1 = row.bbox_pdf
    inside = sorted(
        (
            w
            for w in words
            if x0 - 1 <= w.bbox_pdf.center[0] <= x1 + 1 and y0 - 1 <= w.bbox_pdf.center[1] <= y1 + 1
        ),
        key=lambda w: (w.bbox_pdf.x0, w.bbox_pdf.y0),
    )
    left = x0 - 1
    used: set[int] = set()
    for j, cell in enumerate(row.cells):
        toks = [fold(t) for t in cell.split()]
        if not toks:
            continue
        got: list[Word] = []
        for tok in toks:
            w = next(
                (
                    w
                    for w in inside
                    if id(w) not in used and w.bbox_pdf.x0 >= left - 0.5 and fold(w.text) == tok
                ),
                None,
            )
            if w is not None:
                got.append(w)
                used.add(id(w))
        if not got:
            if j == i:
                return None
            continue
        box = union_box(w.bbox_pdf for w in got)
        if j == i:
            return box
        left = max(left, min(w.bbox_pdf.x1 for w in got))
    return None
