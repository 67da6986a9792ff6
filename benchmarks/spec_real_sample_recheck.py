"""Re-read the 200-value real sample against the current extraction.

    python benchmarks/spec_real_sample_recheck.py DATA_DIR [--sample benchmarks/data/spec_real_sample.jsonl]

For each sampled value, the value now extracted from the same cell (same document and page, a
value cell whose box holds the centre of the sampled cell's box) is compared with the one that was
checked: unchanged -> its verdict stands; changed or gone -> listed, to be checked again (the
verdicts of re-checked values are written into the sample as `verdict_specs3`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from layoutrag.records import DocChunks, DocSpecs


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-30)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("--sample", type=Path, default=Path(__file__).parent / "data" / "spec_real_sample.jsonl")
    a = ap.parse_args()
    specs: dict[str, list] = {}
    for d in sorted((a.data / "docs").iterdir()):
        if (d / "specs.json").exists() and (d / "chunks.json").exists():
            name = DocChunks.model_validate_json((d / "chunks.json").read_text(encoding="utf-8")).card.file_name
            specs[name] = DocSpecs.model_validate_json((d / "specs.json").read_text(encoding="utf-8")).specs
    rows = [json.loads(x) for x in a.sample.read_text(encoding="utf-8").splitlines() if x.strip()]
    same = changed = gone = 0
    for r in rows:
        vs = specs.get(r["doc"])
        if vs is None:
            print(f"{r['id']}: document not in DATA_DIR")
            continue
        cx = (r["cell_bbox"][0] + r["cell_bbox"][2]) / 2
        cy = (r["cell_bbox"][1] + r["cell_bbox"][3]) / 2
        hit = [
            v
            for v in vs
            if v.page == r["page"]
            and any(c.bbox_pdf[0] - 1 <= cx <= c.bbox_pdf[2] + 1 and c.bbox_pdf[1] - 1 <= cy <= c.bbox_pdf[3] + 1 for c in v.cells)
        ]
        now = next(
            (
                v
                for v in hit
                if v.parameter == r["parameter"] and v.unit == r["unit"]
                and _same(v.min, r["min"]) and _same(v.typ, r["typ"]) and _same(v.max, r["max"])
                and v.part == r["part"]
            ),
            None,
        )
        verdict = r.get("verdict_specs3") or r["verdict"]
        if now is not None:
            same += 1
            r["now"] = "same"
            continue
        if not hit:
            gone += 1
            r["now"] = "gone"
        else:
            changed += 1
            v = hit[0]
            r["now"] = (
                f"{v.parameter} [{v.symbol}] {v.min}/{v.typ}/{v.max} {v.unit} part={v.part} "
                f"({' / '.join(c.role for c in v.cells)}: {v.value_text}) cond={v.conditions[:60]}"
            )
        print(f"{r['id']:3d} {r['doc'][:28]:28s} p{r['page']} was: {r['parameter']} {r['min']}/{r['typ']}/{r['max']} {r['unit']} "
              f"({r['verdict'][:50]})\n      now: {r['now']}   [{verdict[:40]}]")
    print(f"same {same}, changed {changed}, gone {gone}")


if __name__ == "__main__":
    main()
