"""Every judged spec value that the current spec stage still reads the same way, with its verdict.

    python benchmarks/spec_judged.py DATA_DIR OUT.jsonl [--withheld]

The judged files in ``benchmarks/data`` hold values checked by hand at earlier commits, each as it
was read then: the 200-value sample (``spec_real_sample.jsonl``, verdict of the recorded reading),
the held-out draws (``spec_heldout_sample.jsonl``, verdict given at draw time), the census of
specs-6 changes (``spec_specs6_changed.jsonl``), the merged-column check and the judged withheld
values. The spec stage of this checkout is re-run over DATA_DIR's stored chunks and words (as
``spec_rerun.py``, in memory); a judged value is matched to the value now read from the same cell
(same document and page, a value cell holding the judged cell box's centre; for the census, the
same row box to 2 pt) with the same parameter, numbers (to 1e-6) and unit. Only those keep their
verdict: a value read differently now was never judged in its present form and is left out.

Each output line: the current value (``SpecValue`` JSON, `doubt` set if the gate withholds it),
``label`` (1 right, 0 wrong), ``source`` (which file), ``doc`` (file name). ``--withheld`` also
matches against withheld values (the gate's own doubts); by default only kept values match, as
drawn.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from spec_real_sample_recheck import _same
from spec_rerun import rerun

from layoutrag.records import SpecValue
from layoutrag.storage import DataDir

_DATA = Path(__file__).parent / "data"


def _ok(verdict: str) -> int | None:
    v = (verdict or "").strip().lower()
    if v.startswith(("ok", "right")):
        return 1
    if v.startswith("wrong"):
        return 0
    return None


def judged_rows() -> list[dict]:
    """(doc, page, cell box or row box, reading, label, source) of every judged value."""
    out: list[dict] = []

    def read(name: str) -> list[dict]:
        return [json.loads(x) for x in (_DATA / name).read_text(encoding="utf-8").splitlines() if x.strip()]

    for r in read("spec_real_sample.jsonl"):
        out.append({**r, "label": _ok(r["verdict"]), "source": "sample"})
    for r in read("spec_heldout_sample.jsonl"):
        out.append({**r, "label": _ok(r["verdict"]), "source": "heldout:" + r["draw"].split()[0]})
    for r in read("spec_merged_columns_check.jsonl"):
        out.append({**r, "label": _ok(r["verdict"]), "source": "merged-columns"})
    for r in read("spec_specs6_changed.jsonl"):
        out.append({**r, "label": _ok(r["verdict"]), "source": "specs6-census"})
    for r in read("spec_heldout_withheld.jsonl"):
        j = r["judged"].lower()
        lab = 1 if j.startswith("right reading") else 0 if j.startswith("wrong") else None
        out.append({**r, "label": lab, "source": "withheld"})
    return [r for r in out if r["label"] is not None]


def _inside(v: SpecValue, r: dict) -> bool:
    if "cell_bbox" in r and r["cell_bbox"]:
        b = r["cell_bbox"]
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        return any(
            c.bbox_pdf[0] - 1 <= cx <= c.bbox_pdf[2] + 1 and c.bbox_pdf[1] - 1 <= cy <= c.bbox_pdf[3] + 1 for c in v.cells
        )
    rb = r["row_bbox"]
    return all(abs(a - b) <= 2 for a, b in zip(v.row_bbox_pdf, rb, strict=True))


def _reads_same(v: SpecValue, r: dict) -> bool:
    return (
        v.parameter == r["parameter"]
        and v.unit == r["unit"]
        and all(_same(getattr(v, k), r[k]) for k in ("min", "typ", "max"))
        and ("part" not in r or r["part"] is None or v.part == r["part"])
    )


def match(data: DataDir, rows: list[dict], with_withheld: bool) -> list[dict]:
    by_doc: dict[str, list[dict]] = {}
    for r in rows:
        by_doc.setdefault(r["doc"], []).append(r)
    names = {}
    for doc_id in data.doc_ids():
        cj = data.chunks_json(doc_id)
        if cj.exists():
            names[json.loads(cj.read_text(encoding="utf-8"))["card"]["file_name"]] = doc_id
    out = []
    for doc, rs in sorted(by_doc.items()):
        if doc not in names:
            continue
        _, kept, withheld = rerun(data, names[doc])
        pool = kept + (withheld if with_withheld else [])
        seen: set[int] = set()
        for r in rs:
            for i, v in enumerate(pool):
                if i in seen or v.page != int(r["page"]) or not _inside(v, r) or not _reads_same(v, r):
                    continue
                seen.add(i)
                out.append({"doc": doc, "source": r["source"], "label": r["label"], "value": v.model_dump(mode="json")})
                break
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--withheld", action="store_true")
    a = ap.parse_args()
    rows = judged_rows()
    got = match(DataDir(a.data), rows, a.withheld)
    a.out.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in got), encoding="utf-8")
    from collections import Counter

    judged = Counter(r["source"] for r in rows)
    kept = Counter(x["source"] for x in got)
    wrong = Counter(x["source"] for x in got if not x["label"])
    print(f"{'source':<16} {'judged':>7} {'same now':>9} {'wrong':>6}")
    for s in sorted(judged):
        print(f"{s:<16} {judged[s]:>7} {kept[s]:>9} {wrong[s]:>6}")
    print(f"{'all':<16} {sum(judged.values()):>7} {sum(kept.values()):>9} {sum(wrong.values()):>6}")


if __name__ == "__main__":
    main()
