"""The imported-table reader (`chunking/linear_specs.py`) on the generated datasheets' tables, read out as text.

    python benchmarks/spec_linear_generated.py DATA_DIR SAMPLES_DIR [--show]

DATA_DIR: the generated corpus ingested (`layoutrag samples --out SAMPLES_DIR ...`, then
`layoutrag ingest SAMPLES_DIR --data DATA_DIR`). Every table chunk's cells are joined left to right,
row after row, header first - the text an export without layout gives (as in the TXC chunks) - and
read by `read_linear_table` alone (no rows, no words, no page). The generator's tables were never
looked at while that reader was written (it was written on TXC text), so this is a second held-out
style. Truth: `specs_truth.jsonl`, grouped into rows (document, page, row box).

- recall: truth rows whose parameter is a vocabulary parameter (the reader reads no other) found -
  a value of the same document and parameter whose numbers are the row's (each printed cell's
  number in its role; ``±x`` and ``a to b`` as min/max);
- precision: values read whose parameter and numbers are those of a truth row of their document
  (by document, not page: a table chunk may run over a page break).
Two exports: empty cells left out (a lone number's column cannot be told, so it matches in any
role) or printed "-" (`--dash`, as TXC's export). Tables whose header has no Min ... Max columns (a merged Value column, most ratings tables) are
outside the reader: their rows count as missed, and are also reported apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from layoutrag.chunking.linear_specs import linear_table, read_linear_table
from layoutrag.chunking.specs import _gate
from layoutrag.records import Chunk, DocChunks
from layoutrag.specs import parameter_unit
from layoutrag.storage import DataDir


def _close(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)


def linearised(c: Chunk, dash: bool = False) -> Chunk:
    """The chunk as an export without layout gives it: its rows' cells as one run of text, an empty
    cell left out (or, with `dash`, printed "-" as the TXC export does)."""
    text = " ".join(" ".join(cell if cell.strip() else "-" for cell in r.cells if dash or cell.strip()) for r in c.rows)
    return c.model_copy(update={"rows": [], "regions": [], "native_text": text})


def truth_rows(samples: Path) -> dict[tuple[str, int], list[dict]]:
    """(file name, page) -> rows: {parameter, cells: [(role, min, value, max)]}."""
    rows: dict[tuple[str, int, tuple], dict] = {}
    for line in (samples / "specs_truth.jsonl").read_text(encoding="utf-8").splitlines():
        if not line:
            continue
        t = json.loads(line)
        key = (t["doc"], t["page"], tuple(round(x) for x in t["row_bbox"]))
        r = rows.setdefault(key, {"parameter": t["parameter"], "cells": []})
        r["cells"].append((t["role"], t.get("min"), t.get("value"), t.get("max")))
    out: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for (doc, page, _), r in rows.items():
        out[(doc, page)].append(r)
    return out


def row_matches(r: dict, v, lone_any: bool = False) -> bool:  # noqa: ANN001 - a SpecValue
    """`lone_any`: a row printing one number matches in any role (its column cannot be told from
    text whose empty cells were left out)."""
    if r["parameter"] != v.parameter:
        return False
    if lone_any and len(r["cells"]) == 1 and r["cells"][0][2] is not None:
        return any(_close(r["cells"][0][2], y) for y in (v.min, v.typ, v.max))
    for role, lo, x, hi in r["cells"]:
        if x is None:  # "±x" / "a to b"
            if not (_close(lo, v.min) and _close(hi, v.max)):
                return False
        elif role == "value":
            if not any(_close(x, y) for y in (v.min, v.typ, v.max)):
                return False
        elif not _close(x, getattr(v, role)):
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("samples", type=Path)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--dash", action="store_true", help='empty cells printed "-" (else left out)')
    a = ap.parse_args(argv)
    data = DataDir(a.data)
    truth = truth_rows(a.samples)
    n_rows = found = n_values = right = 0
    outside = 0
    wrong: Counter[str] = Counter()
    for doc_id in data.doc_ids():
        dc = DocChunks.model_validate_json(data.chunks_json(doc_id).read_text(encoding="utf-8"))
        name = dc.card.file_name
        read: dict[int, list] = defaultdict(list)
        readable_pages: set[int] = set()
        for c in dc.chunks:
            if c.block_type != "table" or not c.rows:
                continue
            lin = linearised(c, a.dash)
            if linear_table(lin.native_text):
                readable_pages.add(c.page)
            read[0].extend(_gate(read_linear_table(lin, ""))[0])  # a chunk may run over pages: matched by document
        for (doc, page), rows in truth.items():
            if doc != name:
                continue
            for r in rows:
                if parameter_unit(r["parameter"]) is None:
                    continue  # kept under its printed name: outside this reader
                n_rows += 1
                if any(row_matches(r, v, not a.dash) for v in read[0]):
                    found += 1
                else:
                    outside += page not in readable_pages
                    if a.show:
                        print(f"missed {name} p{page} {r}")
        rows = [r for (doc, _), rs in truth.items() if doc == name for r in rs]
        for page, vals in read.items():
            for v in vals:
                n_values += 1
                if any(row_matches(r, v, not a.dash) for r in rows):
                    right += 1
                else:
                    wrong[v.parameter] += 1
                    if a.show:
                        print(f"wrong  {name} p{page} {v.parameter} {v.min}/{v.typ}/{v.max} {v.unit} [{v.value_text}]")
    print(f"{'':36s}{'count':>7s}{'of':>7s}{'share':>8s}")
    print(f"{'truth rows found (recall)':36s}{found:7d}{n_rows:7d}{found / max(n_rows, 1):8.3f}")
    print(f"{'  of them on pages with no Min..Max table':36s}{outside:7d}")
    print(f"{'values right (precision)':36s}{right:7d}{n_values:7d}{right / max(n_values, 1):8.3f}")
    print(f"wrong by parameter: {dict(wrong.most_common())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
