"""Both layout detectors on born-digital pages: PyMuPDF's elements with some of YOLO's added, measured.

Issue 13 asks to use both detectors' evidence where it helps, chosen by measurement on the dev
folds. This rebuilds each queried born-digital page from the stored stage artifacts of BOTH
backends (the text artifact, ``layout-pymupdf@DPI.json``, ``layout-yolo-c0.25@DPI.json``) with
YOLO's detections of some labels added to PyMuPDF's - the build stage's area de-dup then keeps
the larger of two boxes of one region - re-chunks them in memory with the chunk stage's own code
(``region_check --rechunk``'s path) and scores region coverage by document fold; the merge rule is
chosen per fold on the other four (``region_check.choose``). Pages without a text layer keep what
was ingested (``scan_layout`` handles those).

Rules: ``none`` (PyMuPDF alone: reproduces the stored chunks' coverage), ``picture``,
``picture+table``, ``all`` (every YOLO detection), ``picture-merge`` (a YOLO picture that holds
two or more PyMuPDF elements, or a PyMuPDF picture).

The data dir needs both layout artifacts: ingest with the PyMuPDF backend, then again with
``--layout yolo`` into the same dir (text artifacts are reused)::

    layoutrag ingest ../shared/datasheets --data DIR --jobs 2
    layoutrag ingest ../shared/datasheets --data DIR --layout yolo --no-index --jobs 2
    python benchmarks/detector_merge.py DIR [--shared ../shared] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import region_check as rc  # noqa: E402

from layoutrag.config import load_settings  # noqa: E402
from layoutrag.geometry import contains_frac  # noqa: E402
from layoutrag.ingest.artifacts import (  # noqa: E402
    DetectionRecord,
    LayoutArtifact,
    PageLayout,
    TextArtifact,
    layout_artifact_path,
    text_artifact_path,
)
from layoutrag.ingest.stages import backend_tag, build_page  # noqa: E402
from layoutrag.records import Document  # noqa: E402

Merge = Callable[[Sequence[DetectionRecord], Sequence[DetectionRecord]], list[DetectionRecord]]


def _labels(labels: set[str] | None) -> Merge:
    def merge(primary: Sequence[DetectionRecord], other: Sequence[DetectionRecord]) -> list[DetectionRecord]:
        return list(primary) + [d for d in other if labels is None or d.label in labels]

    return merge


def _picture_merge(
    primary: Sequence[DetectionRecord], other: Sequence[DetectionRecord]
) -> list[DetectionRecord]:
    out = list(primary)
    for d in other:
        if d.label != "picture":
            continue
        inside = [e for e in primary if contains_frac(e.bbox_pdf, d.bbox_pdf) >= 0.8]
        if len(inside) >= 2 or any(e.label == "picture" for e in inside):
            out.append(d)
    return out


RULES: dict[str, Merge] = {
    "none": _labels(set()),
    "picture": _labels({"picture"}),
    "picture+table": _labels({"picture", "table"}),
    "all": _labels(None),
    "picture-merge": _picture_merge,
}


class Merged(rc.Corpus):
    """A data dir's documents with each queried born-digital page rebuilt from both backends'
    layout artifacts by `merge`."""

    def __init__(self, root: Path, merge: Merge) -> None:
        super().__init__(root, rechunk=True)
        self.merge = merge
        self.settings = load_settings()
        self._built: dict[str, Document] = {}

    def document(self, name: str) -> Document | None:
        if name in self._built:
            return self._built[name]
        doc = super().document(name)
        if doc is None:
            return None
        did, dpi, s = self.ids[name], doc.dpi, self.settings
        assert s is not None
        text = TextArtifact.model_validate_json(text_artifact_path(self.data, did, dpi).read_bytes())
        ours = LayoutArtifact.model_validate_json(
            layout_artifact_path(self.data, did, "pymupdf", dpi).read_bytes()
        )
        yolo_path = layout_artifact_path(self.data, did, backend_tag("yolo", s), dpi)
        theirs = LayoutArtifact.model_validate_json(yolo_path.read_bytes())
        wanted = self.needed.get(name, set())
        pages = []
        for pt, a, b, old in zip(text.pages, ours.pages, theirs.pages, doc.pages, strict=True):
            if old.page not in wanted or pt.text_status == "needs_ocr":
                pages.append(old)
                continue
            layout = PageLayout(page=a.page, detections=self.merge(a.detections, b.detections))
            pages.append(build_page(pt, layout, doc_id=doc.doc_id, settings=s))
        self._built[name] = doc.model_copy(update={"pages": pages})
        return self._built[name]


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path, help="a data dir with both backends' layout artifacts")
    ap.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    ap.add_argument("--rules", default=",".join(RULES))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    ev = args.shared / "eval" / "datasheets"
    folds = rc.load_folds(ev / "folds.tsv")
    queries = {
        "dev1": rc.load_queries(ev / "dev-queries.jsonl"),
        "dev2": rc.load_queries(ev / "dev-queries-2.jsonl"),
    }
    names = args.rules.split(",")
    corpora: dict[str, rc.Corpus] = {n: Merged(args.data, RULES[n]) for n in names}
    for c in corpora.values():
        for q in queries["dev1"] + queries["dev2"]:
            c.needed.setdefault(q["doc"], set()).add(int(q["page"]))
    rows = rc.run({k: (v, corpora) for k, v in queries.items()}, folds)
    rows = [r for r in rows if not r["scan"]]  # born-digital pages: what the merge changes
    rc.print_tables(rows, ("unit",))
    result = rc.choose(rows, names, scans_only=False)
    base = {(r["set"], r["id"]): r[rc.R["unit"]] for r in rows if r["backend"] == "none"}
    print("\nagainst PyMuPDF alone (queries covered by both: looser / tighter by > 5 %, median change):")
    for name in names[1:] if names[0] == "none" else names:
        pairs = [
            (base[(r["set"], r["id"])], r[rc.R["unit"]])
            for r in rows
            if r["backend"] == name and base.get((r["set"], r["id"])) and r[rc.R["unit"]]
        ]
        looser = sum(b > a * 1.05 for a, b in pairs)
        tighter = sum(b < a / 1.05 for a, b in pairs)
        change = statistics.median(b / a for a, b in pairs) if pairs else 1.0
        print(f"  {name:16} looser {looser:3}  tighter {tighter:3}  median ratio change x{change:.3f}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "chosen": result["chosen"]}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
