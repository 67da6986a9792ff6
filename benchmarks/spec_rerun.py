"""Re-run the spec stage over a data dir's stored chunks and pages (no re-ingest): counts.

    python benchmarks/spec_rerun.py DATA_DIR [--write] [--only FILE_NAMES.txt] [--show-withheld] [--json OUT]
        [--without gate|qualifier|conditions|one-row|modifiers|bilingual|spans|nameless|widened|leaders|supply-in-mode|
         symbol-font|leader-columns|leader-text|conditions-apart|one-group-part|condition-name|few-lines|section-rows|
         rating-names|symbol-names|fused-header|condition-span|figure-tables|gap-lists|rails|footnote-glued|
         title-rows|twin-temperatures|unheaded-cells|stray-cells|word-labels|block-supplies|pin-inputs|pair-rows|printed-part|colon-lines|value-first|file-name-part|whole-code|few-prints|row-parts|quantity-names|aligned-values|value-conditions|no-packages|unit-columns|option-lists|sibling-parts|carried-parts|own-numbers|continued-headers|wrapped-names|line-order|conditions-above|caption-signs|base-heads|shared-values|name-commas|dash-leaders|figure-leaders|title-parts|name-codes|stacked-heads|category-names|title-sections|hanging-labels|percent-of-rail|symbol-subscripts|amplifier-inputs|per-degree-units|gain-decibels|temperature-items|turn-on-times|named-temperatures|symbol-only-names|side-halves|list-numbers|plus-minus-ascii|part-ranges|stem-letters ...]

For every chunked document: its stored ``chunks.json`` and the words of its ``document.json`` read
by the current spec stage (``extract_specs``), in memory. Prints the documents read, the values
kept (what parametric queries read) and the values withheld by the confidence gate, by reason
(``doubt``). ``--write`` also stores the result as each document's ``specs.json`` (the spec stage
itself, ``specs_and_save``, made afresh even where the stored file has the current key: run it on
a copy of a shared data dir). ``--only``: a file of PDF file
names, one a line - only those documents. ``--show-withheld``: every withheld value, one a line.
``--without``: an ablation - the run (and what ``--write`` stores) without one specs-4 change: the
gate (every value kept), the min./max. qualifier column, condition rows continuing the parameter
above, one-row tables read per line, the offset/drift/deviation words; or without one specs-5
reader: bilingual header cells, body cells spanning header grid columns, an unheaded first column
left of Symbol as the names, edge columns and a header
line the grid left out, dot-leader ratings lists; or without one specs-6 change: symbol-font
characters read (U+F02D as minus, ...), dot-leader lists the grid cut into cells or printed side by
side, dot-leader lists in text chunks, the operating conditions printed under their own heading
in a ratings block; or without a specs-7 change: a Parameter cell stating a condition ("V S=+30V")
doubted, value cells of two or three lines under a merged "Typ Max" header split, a section printed as
one grid row read line by line; or without a specs-8 change: "Rating" heading the names column
when a value column stands right of it, a name that is a symbol read as that symbol, a header line
the grid fused into a table's first row split off, the unheaded columns right of a Conditions column
read as conditions, a table the layout model took for a figure read from the page words, a ratings list printed without
dot leaders read at each line's widest space; or without a specs-9 change: a supply rail's name or symbol
(AVDD, VDDIO, IDDA) read as its supply voltage or current, a footnote number glued to a name's last word;
or without a specs-10 change: a caption merged over the grid taken for no header (and a cell merged over
every part's column read as the document's), one ratings row for two temperatures read as both, a value
in a grid column under no header read by its position, a unit or condition cell merged over its header's
column moved under that header, a table whose rows are named by register bit values left unread; or without specs-11: a supply
voltage or current in a function block's section ("12-bit ADC Characteristics") kept as the block's, a pin's input voltage ("Voltage on I/O pins | VIN") not read as the supply, a table of name | value rows under no value header read where the name is a vocabulary name, a value's default part a name the document prints; or without specs-12: printed "name: value" lines in text
and list chunks (a Features list's "Operating voltage range: 2.7 V to 5.5 V") read where the name is a vocabulary name; or without specs-13: a Features line that is a value, then its
name ("80 kHz bandwidth"); a document without a part name on its card named by a printed piece of its
file name ("TEN 8" of Traco_TEN8.pdf); or without specs-17: a table whose header names a Unit column and
no value column read one value per column (TI's Thermal Information), a value cell listing options
("12 pF, 20 pF, or specify") read one value per option; or without specs-21: a table under a ratings heading
printed as the last heading line of the text block above it (heading-above), a symbol printed on each value line
of a grid row though it begins with a small letter (stacked-symbols), note numbers in a Notes column read as
footnotes, not conditions (note-columns); or without specs-22: a ± in the Typ column beside a ± limit kept as
typ, its magnitude (typical-spread); or without specs-23: every merged "MIN TYP MAX" header cell split, a grade's label
printed before its role words or on the line above the header naming its group (grouped-roles); or without specs-24:
a row of ± values whose Min prints one kept as magnitudes (least-magnitudes); or without specs-25: a sub-row
whose conditions begin with a family variant's code the card does not list read as that variant's (sibling-parts),
the sub-row right under a part's label in the same printed row read as that part's (carried-parts), a family
prefix printed a few times giving way to the part number printed more than twice as often (own-numbers), a table
continued on the next page without its header read under the header before it (continued-headers), a name's second
line the grid cut into a row of its own inside the row's box completing the name (wrapped-names), a cell's words read
line by line with a word raised by a superscript kept in its line (line-order), the test conditions printed in the
text block right above a table joined to its rows' (conditions-above), a caption's quantity set to a ± read
(caption-signs), a grade heading one group of a table's columns beside the base leaving the base the default part
(base-heads), a number printed once, centred between the lines of a two- or three-line cell beside it, holding for
each line (shared-values), a name line ending in a comma going on with the next (name-commas); or without
specs-26: a run of six or more hyphens read as a ratings list's leader (dash-leaders), a leader list the layout model
took for a figure read as one printed as text, its own heading lines saying ratings or conditions (figure-leaders),
a heading inside the grid or a table's caption naming one part of the document giving that part the rows under it
(title-parts; a code printed with an x for the rest of the part number, "x05B", names the one part number holding it),
a row name printing one code of a document part the card lists under a longer or shorter number giving the row that
part ("Operating Temperature: LM158"; name-codes), a part-number table whose header is printed on two or three lines
read as one header, each column named by the header cells over it and a Min / Typ / Max group under one name read as
one value (stacked-heads; a part-number column qualified in parentheses, "Part Number (Uni)", is one too), a value
named only by a quantity's category ("Temperature") taking the parameter a word of its item makes with it
("Junction range, TJ" -> junction temperature; category-names); or without specs-30: a symbol the vocabulary
holds printed with a subscript qualifier - an index, a footnote number, one letter for the side - read as that
symbol ("IDD(1)", "ICC1T", "RDS(ON),P"; symbol-subscripts); or without specs-33: an operational amplifier's or
comparator's characteristics row named "Input Voltage Range" read as its common-mode input range (amplifier-inputs); or
without specs-37: a coefficient per degree written "/C", "/K" or "/degC" read as per °C (per-degree-units); or without specs-38: a
voltage gain printed in dB stored as the ratio the vocabulary keeps it in (gain-decibels); or without specs-39: a group of
temperature ranges printed as items under one name ("Ambient temperature | Operating | Storage", "Temperature ranges
- Storage") read, each item naming its range (temperature-items); or without specs-40: a sensor's, regulator's or oscillator's
"Turn-On Time" read as its start-up time (turn-on-times); or without specs-41: a name that is a two-letter vocabulary
symbol and nothing else ("VS", a column headed "fo") read as that symbol (symbol-only-names), a table printed in halves
side by side ("Type | fo | Type | fo") naming each value by its own half's row name (side-halves); or without specs-42: a spec list's item number printed
before a name ("3.Frequency") left out of it (list-numbers); or without specs-43: "+/-" and "+-" before a number read as ± (plus-minus-ascii); or without specs-44: an operating or
storage temperature range no table gave read from the text line that begins with its name (named-temperatures); or
without specs-46: each part's operating range on the lines under a "TMIN to TMAX" placeholder (part-ranges); or
without specs-47: a series cut back to its digits names a part only with a letter left (stem-letters).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import layoutrag.chunking.specs as stage
import layoutrag.specs as specs_mod
from layoutrag.chunking.specs import SPEC_STAGE_VERSION, extract_specs, specs_and_save, specs_json
from layoutrag.records import DocChunks, Document, SpecValue, Word
from layoutrag.storage import DataDir


def rerun(data: DataDir, doc_id: str) -> tuple[DocChunks, list[SpecValue], list[SpecValue]]:
    dc = DocChunks.model_validate_json(data.chunks_json(doc_id).read_text(encoding="utf-8"))
    pages: dict[int, list[Word]] = {}
    dpath = data.document_json(doc_id)
    if dpath.exists():
        doc = Document.model_validate_json(dpath.read_text(encoding="utf-8"))
        pages = {p.page: p.words for p in doc.pages}
    withheld: list[SpecValue] = []
    kept = extract_specs(dc.card, dc.chunks, lambda p: pages.get(p, []), withheld)
    return dc, kept, withheld


# the changes that have a switch: (module, name of the flag turned False)
_FLAGS = {
    "title-sections": (stage, "TITLE_SECTIONS"),
    "hanging-labels": (stage, "HANGING_LABELS"),
    "percent-of-rail": (stage, "PERCENT_OF_RAIL"),
    "block-supplies": (stage, "BLOCK_SUPPLIES"),
    "pin-inputs": (specs_mod, "PIN_INPUTS"),
    "pair-rows": (stage, "PAIR_ROWS"),
    "colon-lines": (stage, "COLON_LINES"),
    "value-first": (stage, "VALUE_FIRST"),
    "file-name-part": (stage, "FILE_NAME_PART"),
    "whole-code": (stage, "WHOLE_CODE"),
    "few-prints": (stage, "FEW_PRINTS"),
    "stem-letters": (stage, "STEM_LETTERS"),
    "row-parts": (stage, "ROW_PARTS"),
    "quantity-names": (stage, "QUANTITY_NAMES"),
    "aligned-values": (stage, "ALIGNED_VALUES"),
    "unit-columns": (stage, "UNIT_COLUMNS"),
    "tight-ranges": (specs_mod, "TIGHT_RANGES"),
    "merged-units": (stage, "MERGED_UNITS"),
    "merged-conditions": (stage, "MERGED_CONDITIONS"),
    "gap-sections": (stage, "GAP_SECTIONS"),
    "item-columns": (stage, "ITEM_COLUMNS"),
    "rating-headings": (stage, "RATING_HEADINGS"),
    "own-heading": (stage, "OWN_HEADING"),
    "heading-above": (stage, "HEADING_ABOVE"),
    "typical-spread": (stage, "TYPICAL_SPREAD"),
    "grouped-roles": (stage, "GROUPED_ROLES"),
    "least-magnitudes": (stage, "LEAST_MAGNITUDES"),
    "sibling-parts": (stage, "SIBLING_PARTS"),
    "carried-parts": (stage, "CARRIED_PARTS"),
    "own-numbers": (stage, "OWN_NUMBERS"),
    "continued-headers": (stage, "CONTINUED_HEADERS"),
    "wrapped-names": (stage, "WRAPPED_NAMES"),
    "line-order": (stage, "LINE_ORDER"),
    "caption-signs": (stage, "CAPTION_SIGNS"),
    "conditions-above": (stage, "CONDITIONS_ABOVE"),
    "base-heads": (stage, "BASE_HEADS"),
    "shared-values": (stage, "SHARED_VALUES"),
    "name-commas": (stage, "NAME_COMMAS"),
    "stacked-symbols": (stage, "STACKED_SYMBOLS"),
    "note-columns": (stage, "NOTE_COLUMNS"),
    "rating-limits": (stage, "RATING_LIMITS"),
    "condition-parts": (stage, "CONDITION_PARTS"),
    "base-names": (stage, "BASE_NAMES"),
    "caption-modes": (stage, "CAPTION_MODES"),
    "named-bounds": (stage, "NAMED_BOUNDS"),
    "leaderless-lines": (stage, "LEADERLESS_LINES"),
    "power-inputs": (stage, "POWER_INPUTS"),
    "qualifier-names": (specs_mod, "QUALIFIER_NAMES"),
    "line-conditions": (stage, "LINE_CONDITIONS"),
    "conditions-left": (stage, "CONDITIONS_LEFT"),
    "code-rows": (stage, "CODE_ROWS"),
    "table-conditions": (stage, "TABLE_CONDITIONS"),
    "description-cases": (stage, "DESCRIPTION_CASES"),
    "option-lists": (stage, "OPTION_LISTS"),
    "value-conditions": (stage, "VALUE_CONDITIONS"),
    "no-packages": (stage, "NO_PACKAGES"),
    "figure-leaders": (stage, "FIGURE_LEADERS"),
    "title-parts": (stage, "TITLE_PARTS"),
    "name-codes": (stage, "NAME_CODES"),
    "stacked-heads": (stage, "STACKED_HEADS"),
    "category-names": (stage, "CATEGORY_NAMES"),
    "printed-part": (stage, "PRINTED_PART"),
    "supply-in-mode": (specs_mod, "SUPPLY_IN_MODE"),
    "bilingual": (stage, "_BILINGUAL"),
    "spans": (stage, "_SPANS"),
    "nameless": (stage, "_NAMELESS"),
    "leader-columns": (stage, "LEADER_COLUMNS"),
    "leader-text": (stage, "LEADER_TEXT"),
    "conditions-apart": (stage, "CONDITIONS_APART"),
    "condition-name": (stage, "CONDITION_NAME"),
    "few-lines": (stage, "FEW_LINES"),
    "section-rows": (stage, "SECTION_ROWS"),
    "rating-names": (stage, "RATING_NAMES"),
    "symbol-names": (specs_mod, "SYMBOL_NAMES"),
    "fused-header": (stage, "FUSED_HEADER"),
    "condition-span": (stage, "CONDITION_SPAN"),
    "figure-tables": (stage, "FIGURE_TABLES"),
    "gap-lists": (stage, "GAP_LISTS"),
    "rails": (specs_mod, "RAILS"),
    "footnote-glued": (specs_mod, "FOOTNOTE_GLUED"),
    "symbol-subscripts": (specs_mod, "SYMBOL_SUBSCRIPTS"),
    "per-degree-units": (specs_mod, "PER_DEGREE_UNITS"),
    "gain-decibels": (specs_mod, "GAIN_DECIBELS"),
    "temperature-items": (stage, "TEMPERATURE_ITEMS"),
    "turn-on-times": (stage, "TURN_ON_TIMES"),
    "named-temperatures": (stage, "NAMED_TEMPERATURES"),
    "part-ranges": (stage, "PART_RANGES"),
    "symbol-only-names": (specs_mod, "SYMBOL_ONLY_NAMES"),
    "side-halves": (stage, "SIDE_HALVES"),
    "list-numbers": (specs_mod, "LIST_NUMBERS"),
    "plus-minus-ascii": (specs_mod, "PLUS_MINUS_ASCII"),
    "amplifier-inputs": (stage, "AMPLIFIER_INPUTS"),
    "one-group-part": (stage, "ONE_GROUP_PART"),
    "title-rows": (stage, "TITLE_ROWS"),
    "twin-temperatures": (stage, "TWIN_TEMPERATURES"),
    "unheaded-cells": (stage, "UNHEADED_CELLS"),
    "stray-cells": (stage, "STRAY_CELLS"),
    "word-labels": (stage, "WORD_LABELS"),
}


def _without(change: str) -> None:
    """Turn one specs-4 to specs-8 change off in this process (an ablation)."""
    if change == "gate":
        real = stage._long_row

        def no_doubt(*args, **kw):  # noqa: ANN002, ANN003, ANN202
            vs, prev = real(*args, **kw)
            for _, v in vs:
                v.doubt = ""
            return vs, prev

        stage._long_row = no_doubt
        stage._doubt = lambda v: ""
    elif change == "qualifier":
        stage._qualifier = lambda row, cols: None
    elif change == "conditions":
        stage._is_condition = lambda name: False
    elif change == "one-row":
        stage._own_per_line = lambda name_cols, band_texts: set()
    elif change == "modifiers":
        specs_mod._modified = lambda name, matched: False
    elif change in _FLAGS:  # a module switch of its own
        module, name = _FLAGS[change]
        setattr(module, name, False)
    elif change == "symbol-font":
        specs_mod._SYMBOL_FONT.clear()
    elif change == "dash-leaders":  # specs-26: dot leaders only
        stage._LEADER_RE = re.compile(stage._DOT_LEADER)
        stage._LEADER_LINE_RE = re.compile(r"(?:" + stage._DOT_LEADER + r")[^\n]*\d")
    elif change in ("widened", "leaders"):
        drop = stage._widened if change == "widened" else stage._leader_rows
        stage._FALLBACKS[:] = [f for f in stage._FALLBACKS if f is not drop]
    else:
        raise SystemExit(f"--without: unknown change {change!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--write", action="store_true", help="store specs.json (the spec stage) too")
    ap.add_argument("--only", type=Path, help="a file of PDF file names, one a line")
    ap.add_argument("--show-withheld", action="store_true")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--without", action="append", default=[])
    a = ap.parse_args()
    for change in a.without:
        _without(change)
    data = DataDir(a.data)
    only = None
    if a.only:
        only = {x.strip() for x in a.only.read_text(encoding="utf-8").splitlines() if x.strip()}
    n_docs = n_kept = 0
    reasons: Counter[str] = Counter()
    per_doc: dict[str, dict[str, int]] = {}
    for doc_id in data.doc_ids():
        if not data.chunks_json(doc_id).exists():
            continue
        dc, kept, held = rerun(data, doc_id)
        if only is not None and dc.card.file_name not in only:
            continue
        n_docs += 1
        n_kept += len(kept)
        reasons.update(v.doubt for v in held)
        per_doc[dc.card.file_name] = {"kept": len(kept), "withheld": len(held)}
        if a.show_withheld:
            for v in held:
                nums = "/".join("" if x is None else f"{x:g}" for x in (v.min, v.typ, v.max))
                print(
                    f"{v.doubt:8} {dc.card.file_name} p{v.page} {v.parameter_printed[:50]!r} "
                    f"{v.value_text!r} -> {nums} {v.unit}"
                )
        if a.write:  # written afresh, even over a file of the same stage version (a rule changed)
            specs_json(data, doc_id).unlink(missing_ok=True)
            specs_and_save(data, doc_id)
    out = {
        "spec_stage": SPEC_STAGE_VERSION,
        "without": a.without,
        "documents": n_docs,
        "kept": n_kept,
        "withheld": sum(reasons.values()),
        "withheld_by_doubt": dict(reasons.most_common()),
        "per_document": per_doc,
    }
    print(json.dumps({k: v for k, v in out.items() if k != "per_document"}, indent=1, ensure_ascii=False))
    if a.json:
        a.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    sys.exit(0)


if __name__ == "__main__":
    main()
