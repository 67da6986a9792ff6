"""Draw the real-datasheet spec sample for checking: N values from each of the first D documents
(most values first), with what the PDF's text layer prints in the value's row and cell boxes.

    python benchmarks/spec_real_sample.py DATA_DIR OUT.jsonl [--docs 20] [--per-doc 10] [--seed 0] [--only NAMES.txt]
        [--min-values N] [--unjudged] [--skip-census CHANGED.jsonl ...]

Each line: the extracted value (parameter, numbers, unit, printed text, page, boxes) and
`row_text_pdf` / `cell_text_pdf`: PyMuPDF's words inside the row box and the first cell's box,
read from the source PDF (not from the chunks), for a person to compare with the parsed value.
``--only``: a file of PDF file names, one a line - draw from those documents only (documents not
drawn before, for a held-out draw). Values are drawn from ``specs`` (what queries read), never
from ``withheld``. ``--min-values``: documents with at least N values take part (default: the
per-document count), each giving min(per-doc, its values) values.
``--unjudged``: only values no judged file holds (`spec_judged.judged_rows`: the samples, the draws,
the census files; a value whose first cell's centre lies in a judged cell box of the same page is
judged) - a draw held out by value. ``--skip-census``: a census file of a stage change (its
documents acted on by that change are not held out for it) - those documents left out.
The `verdict` field ("ok" / "wrong: why") is filled in by that person.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pymupdf

from layoutrag.records import DocChunks, DocSpecs, SpecValue


def _text(page: pymupdf.Page, box: list[float]) -> str:
    r = pymupdf.Rect(box) * page.derotation_matrix
    words = page.get_text("words", clip=r + (-0.5, -0.5, 0.5, 0.5))
    return " ".join(w[4] for w in sorted(words, key=lambda w: (round(w[1]), w[0])))


def _judged_boxes() -> list[tuple[str, int, list[float]]]:
    """(document, page, cell box) of every value a judged file holds: the samples and draws
    (`spec_judged.judged_rows`) and every census file's values as read after the change."""
    from spec_judged import _DATA, judged_rows

    out = [(r["doc"], int(r["page"]), r["cell_bbox"]) for r in judged_rows() if r.get("cell_bbox")]
    for f in sorted(_DATA.glob("spec_specs*_changed.jsonl")):
        for x in f.read_text(encoding="utf-8").splitlines():
            r = json.loads(x) if x.strip() else {}
            for v in (r.get("after"), r.get("before")):
                if v and v.get("cells"):
                    out.append((r["doc"], int(v["page"]), v["cells"][0]["bbox_pdf"]))
    return out


def _in_any(v: SpecValue, boxes: list[list[float]]) -> bool:
    b = v.cells[0].bbox_pdf if v.cells else v.row_bbox_pdf
    cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return any(j[0] - 1 <= cx <= j[2] + 1 and j[1] - 1 <= cy <= j[3] + 1 for j in boxes)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--docs", type=int, default=20)
    ap.add_argument("--per-doc", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", type=Path)
    ap.add_argument("--min-values", type=int)
    ap.add_argument("--unjudged", action="store_true")
    ap.add_argument("--skip-census", type=Path, nargs="*", default=[])
    a = ap.parse_args()
    judged: dict[tuple[str, int], list[list[float]]] = {}
    if a.unjudged:
        for r in _judged_boxes():
            judged.setdefault((r[0], r[1]), []).append(r[2])
    skip = {json.loads(x)["doc"] for f in a.skip_census for x in f.read_text(encoding="utf-8").splitlines() if x.strip()}
    only = None
    if a.only:
        only = {x.strip() for x in a.only.read_text(encoding="utf-8").splitlines() if x.strip()}
    rng = random.Random(a.seed)
    docs = []
    for d in sorted((a.data / "docs").iterdir()):
        sp = d / "specs.json"
        if not sp.exists():
            continue
        ds = DocSpecs.model_validate_json(sp.read_text(encoding="utf-8"))
        card = DocChunks.model_validate_json((d / "chunks.json").read_text(encoding="utf-8")).card
        if (only is not None and card.file_name not in only) or card.file_name in skip:
            continue
        specs = [v for v in ds.specs if not _in_any(v, judged.get((card.file_name, v.page), []))]
        if len(specs) >= (a.per_doc if a.min_values is None else a.min_values):
            docs.append((card.file_name, d, specs))
    rng.shuffle(docs)
    lines = []
    for name, d, specs in sorted(docs[: a.docs]):
        pdf = pymupdf.open(d / "source.pdf")
        for v in rng.sample(specs, min(a.per_doc, len(specs))):
            page = pdf[v.page - 1]
            lines.append(
                {
                    "doc": name,
                    "page": v.page,
                    "part": v.part,
                    "parameter": v.parameter,
                    "known": v.known,
                    "parameter_printed": v.parameter_printed,
                    "symbol": v.symbol,
                    "min": v.min,
                    "typ": v.typ,
                    "max": v.max,
                    "unit": v.unit,
                    "value_text": v.value_text,
                    "unit_printed": v.unit_printed,
                    "roles": [c.role for c in v.cells],
                    "cell_bbox": list(v.cells[0].bbox_pdf),
                    "row_text_pdf": _text(page, list(v.row_bbox_pdf)),
                    "cell_text_pdf": _text(page, list(v.cells[0].bbox_pdf)),
                    "conditions": v.conditions,
                    "verdict": "",
                }
            )
        pdf.close()
    a.out.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    print(f"{len(lines)} values from {len({x['doc'] for x in lines})} documents -> {a.out}")


if __name__ == "__main__":
    main()
