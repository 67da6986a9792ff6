"""The spec values a chunk-stage change makes: OLD's stored values against NEW's chunks read by the
current spec stage (with the named spec rules off), one line per value new, gone or changed.

    python benchmarks/spec_chunk_census.py OLD_DATA NEW_DATA [--without RULE ...] [--json OUT.jsonl]

OLD_DATA: a data dir as stored before the change (its ``specs.json``); NEW_DATA: the same PDFs
chunked after it. A value of NEW is "changed" when a value of OLD has its first cell at the same
place (page, rounded box) and differs in any field but the chunk id; "new" / "gone" otherwise.
Each JSON line: kind, doc, before, after - the census lines of `spec_specs27_changed.jsonl`'s
``ruled-rows-read`` rule before their verdicts were added."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import spec_rerun as sr

from layoutrag.storage import DataDir


def _key(v: dict) -> str:
    return json.dumps({k: x for k, x in v.items() if k != "chunk_id"}, sort_keys=True)


def _loc(v: dict) -> tuple:
    box = v["cells"][0]["bbox_pdf"] if v["cells"] else v["row_bbox_pdf"]
    return (v["page"], tuple(round(x) for x in box))


def census(old: Path, new: Path) -> list[dict]:
    out: list[dict] = []
    for d in sorted((new / "docs").iterdir()):
        if not (d / "chunks.json").exists() or not (old / "docs" / d.name / "specs.json").exists():
            continue
        dc, values, _ = sr.rerun(DataDir(new), d.name)
        after = [v.model_dump(mode="json") for v in values]
        before = json.loads((old / "docs" / d.name / "specs.json").read_text(encoding="utf-8"))["specs"]
        out += changes(dc.card.file_name, before, after)
    return out


def changes(doc: str, before: list[dict], after: list[dict]) -> list[dict]:
    """The values of one document read differently (`_key`, chunk ids aside): each new value paired with a gone one
    at the same place (`_loc`) as "changed", else "new"; the gone ones left over "gone"."""
    out: list[dict] = []
    ka, kb = {_key(v) for v in after}, {_key(v) for v in before}
    gone: dict[tuple, list[dict]] = {}
    for v in before:
        if _key(v) not in ka:
            gone.setdefault(_loc(v), []).append(v)
    for v in after:
        if _key(v) in kb:
            continue
        was = gone.get(_loc(v))
        b = was.pop(0) if was else None
        out.append({"kind": "changed" if b else "new", "doc": doc, "before": b, "after": v})
    for rest in gone.values():
        out += [{"kind": "gone", "doc": doc, "before": b, "after": None} for b in rest]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--without", action="append", default=[], help="a spec rule of spec_rerun._FLAGS to switch off")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    for rule in a.without:
        module, name = sr._FLAGS[rule]
        setattr(module, name, False)
    lines = census(a.old, a.new)
    counts: dict[tuple[str, str], int] = {}
    for x in lines:
        counts[(x["doc"], x["kind"])] = counts.get((x["doc"], x["kind"]), 0) + 1
    print("| document | kind | values |\n|---|---|---|")
    for (doc, kind), n in sorted(counts.items()):
        print(f"| {doc} | {kind} | {n} |")
    print(f"\n{len(lines)} values")
    if a.json:
        a.json.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")


if __name__ == "__main__":
    main()
