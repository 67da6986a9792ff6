"""What a change to the spec stage changes: the values this checkout reads against a stored run.

    python benchmarks/spec_changes.py DATA_DIR --dump OUT.jsonl        # the stage of this checkout
    python benchmarks/spec_changes.py DATA_DIR --stored --dump OUT.jsonl   # DATA_DIR's specs.json files
    python benchmarks/spec_changes.py DATA_DIR --against OLD.jsonl [--out CHANGED.jsonl] [--without FLAG ...]

``--dump`` writes every kept value (document file name, then the value's JSON) of the spec stage
re-run in memory over DATA_DIR's chunks and words (``spec_rerun.rerun``), or as stored with
``--stored``. ``--against`` re-runs the stage and compares, value by value, keyed by document,
page and first cell box (to 0.5 pt): values gone, new, and read differently (parameter, numbers,
unit, part), each printed with its row; ``--out`` stores them (before / after) to be judged.
``--without`` as in ``spec_rerun.py`` (an ablation of this checkout).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

from spec_rerun import _FLAGS, rerun

from layoutrag.records import DocChunks, DocSpecs, SpecValue
from layoutrag.storage import DataDir

_READING = ("parameter", "part", "min", "typ", "max", "unit", "table")


def values(data: DataDir, stored: bool) -> Iterator[tuple[str, SpecValue]]:
    for doc_id in sorted(data.doc_ids()):
        cj = data.chunks_json(doc_id)
        if not cj.exists():
            continue
        if stored:
            name = DocChunks.model_validate_json(cj.read_text(encoding="utf-8")).card.file_name
            sp = data.doc_dir(doc_id) / "specs.json"
            specs = DocSpecs.model_validate_json(sp.read_text(encoding="utf-8")).specs if sp.exists() else []
        else:
            dc, specs, _ = rerun(data, doc_id)  # the chunks it read name the document
            name = dc.card.file_name
        for v in specs:
            yield name, v


def _key(doc: str, v: dict) -> tuple:
    b = v["cells"][0]["bbox_pdf"] if v["cells"] else v["row_bbox_pdf"]
    return (doc, v["page"], *(round(x * 2) for x in b), v["cells"][0]["role"] if v["cells"] else "")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("--dump", type=Path)
    ap.add_argument("--stored", action="store_true")
    ap.add_argument("--against", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--without", nargs="*", default=[], choices=sorted(_FLAGS))
    a = ap.parse_args()
    for name in a.without:
        mod, attr = _FLAGS[name]
        setattr(mod, attr, False)
    data = DataDir(a.data)
    if a.dump:
        with a.dump.open("w", encoding="utf-8") as f:
            for doc, v in values(data, a.stored):
                f.write(json.dumps({"doc": doc, "value": v.model_dump(mode="json")}, ensure_ascii=False) + "\n")
        return
    def keyed(rows: Iterator[dict]) -> dict[tuple, dict]:
        # two values of one cell (a row for two temperatures) are told apart by their order
        out: dict[tuple, dict] = {}
        for r in rows:
            k = _key(r["doc"], r["value"])
            n = 0
            while (*k, n) in out:
                n += 1
            out[(*k, n)] = r
        return out

    old = keyed(json.loads(line) for line in a.against.read_text(encoding="utf-8").splitlines())
    new = keyed({"doc": doc, "value": v.model_dump(mode="json")} for doc, v in values(data, False))
    changed = []
    for k in sorted(set(old) | set(new), key=str):
        o, n = old.get(k), new.get(k)
        if o and n and all(o["value"][f] == n["value"][f] for f in _READING):
            continue
        kind = "gone" if n is None else "new" if o is None else "changed"
        changed.append({"kind": kind, "doc": k[0], "before": o and o["value"], "after": n and n["value"]})

    def show(v: dict | None) -> str:
        if v is None:
            return "-"
        return (f"{v['parameter'][:34]} [{v['part'][:12]}] {v['min']}/{v['typ']}/{v['max']} {v['unit']} "
                f"({v['parameter_printed'][:40]!r}: {v['value_text'][:24]!r})")

    for c in changed:
        v = c["after"] or c["before"]
        print(f"{c['kind']:<8} {c['doc'][:30]:<30} p{v['page']:<3} {show(c['before'])}\n{'':>44}-> {show(c['after'])}")
    docs = {c["doc"] for c in changed}
    print(f"{len(changed)} values differ ({sum(c['kind'] == 'changed' for c in changed)} changed, "
          f"{sum(c['kind'] == 'new' for c in changed)} new, {sum(c['kind'] == 'gone' for c in changed)} gone) "
          f"on {len(docs)} documents; {len(old)} before, {len(new)} now")
    if a.out:
        a.out.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in changed), encoding="utf-8")


if __name__ == "__main__":
    main()
