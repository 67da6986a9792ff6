"""Spec extraction against the generated datasheets' ground truth (``specs_truth.jsonl``).

    python benchmarks/spec_extraction.py DATA_DIR SAMPLES_DIR [--rechunk] [--json OUT]

DATA_DIR holds the generated corpus ingested (``layoutrag ingest SAMPLES_DIR``); SAMPLES_DIR is what
``layoutrag samples`` wrote (its ``specs_truth.jsonl``). With ``--rechunk`` each document is chunked
again in memory with the current chunking code (nothing is written: a data dir chunked by an older
stage version is read as the current code would chunk it); without, the stored chunks are used.

A printed value cell counts as extracted when one spec value of its document has a cell whose box
holds the centre of the printed text's box and no other printed value cell's centre of that row,
and that value has the right parameter, unit and number: for ``±x`` min = -x and max = x; for
``a to b`` min = a and max = b; for a plain number, the field of its column (min, typ or max; a
merged Value column: any field). Precision: extracted values whose every cell is such a match.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from layoutrag.chunking.pipeline import build_doc_chunks
from layoutrag.chunking.specs import extract_specs
from layoutrag.config import load_settings
from layoutrag.records import DocChunks, Document, SpecValue
from layoutrag.storage import DataDir


def _close(a: float | None, b: float | None) -> bool:
    return a is not None and b is not None and abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)


def _inside(pt: tuple[float, float], box: tuple[float, float, float, float], pad: float = 0.5) -> bool:
    return box[0] - pad <= pt[0] <= box[2] + pad and box[1] - pad <= pt[1] <= box[3] + pad


def _center(b: list[float]) -> tuple[float, float]:
    return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)


def number_ok(t: dict, v: SpecValue) -> bool:
    if "value" in t:
        x = t["value"]
        if t["role"] == "value":
            return any(_close(x, y) for y in (v.min, v.typ, v.max))
        return _close(x, getattr(v, t["role"]))
    return _close(t["min"], v.min) and _close(t["max"], v.max)


def specs_of(data: DataDir, doc_id: str, rechunk: bool, settings) -> list[SpecValue]:  # noqa: ANN001
    doc = Document.model_validate_json(data.document_json(doc_id).read_text(encoding="utf-8"))
    words = {p.page: p.words for p in doc.pages}
    if rechunk:
        dc, _ = build_doc_chunks(doc, settings, data=data)
    else:
        dc = DocChunks.model_validate_json(data.chunks_json(doc_id).read_text(encoding="utf-8"))
    return extract_specs(dc.card, dc.chunks, lambda p: words.get(p, []))


def evaluate(data_root: Path, samples: Path, rechunk: bool) -> dict:
    data = DataDir(data_root)
    settings = load_settings()
    truth = [
        json.loads(x) for x in (samples / "specs_truth.jsonl").read_text(encoding="utf-8").splitlines() if x
    ]
    by_doc: dict[str, list[dict]] = {}
    for t in truth:
        by_doc.setdefault(t["doc"], []).append(t)
    names = {}
    for d in data.doc_ids():
        dc = DocChunks.model_validate_json(data.chunks_json(d).read_text(encoding="utf-8"))
        names[dc.card.file_name] = d
    found = 0
    n_values = n_good_values = 0
    misses: Counter[str] = Counter()
    examples: list[str] = []
    for name, ts in sorted(by_doc.items()):
        if name not in names:
            misses["document not ingested"] += len(ts)
            continue
        specs = specs_of(data, names[name], rechunk, settings)
        good_cells: set[tuple[int, int]] = set()  # (value index, cell index)
        for t in ts:
            c = _center(t["bbox"])
            others = [
                _center(o["bbox"])
                for o in ts
                if o is not t and o["page"] == t["page"] and o["row_bbox"] == t["row_bbox"]
            ]
            hit = None
            why = "no value with this cell"
            for vi, v in enumerate(specs):
                if v.page != t["page"]:
                    continue
                for ci, cell in enumerate(v.cells):
                    if not _inside(c, cell.bbox_pdf) or any(_inside(o, cell.bbox_pdf, -0.5) for o in others):
                        continue
                    if v.parameter != t["parameter"]:
                        why = f"parameter {v.parameter!r} != {t['parameter']!r}"
                    elif v.unit != t["unit"]:
                        why = f"unit {v.unit!r} != {t['unit']!r}"
                    elif not number_ok(t, v):
                        why = f"number {v.min}/{v.typ}/{v.max} for {t['text']!r}"
                    else:
                        hit = (vi, ci)
                        break
                if hit:
                    break
            if hit:
                found += 1
                good_cells.add(hit)
            else:
                misses[why.split(" ")[0]] += 1
                if len(examples) < 25:
                    examples.append(
                        f"{name} p{t['page']} {t['parameter_printed']} {t['role']} {t['text']!r}: {why}"
                    )
        for vi, v in enumerate(specs):
            n_values += 1
            if all((vi, ci) in good_cells for ci in range(len(v.cells))):
                n_good_values += 1
    return {
        "truth_cells": len(truth),
        "recall": round(found / max(1, len(truth)), 4),
        "extracted_values": n_values,
        "precision": round(n_good_values / max(1, n_values), 4),
        "misses": dict(misses),
        "examples": examples,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("samples", type=Path)
    ap.add_argument("--rechunk", action="store_true")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    r = evaluate(a.data, a.samples, a.rechunk)
    print(json.dumps(r, indent=1, ensure_ascii=False))
    if a.json:
        a.json.write_text(json.dumps(r, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
