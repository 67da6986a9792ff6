"""Region check: can one unit of a data dir cover each gold region of region-annotated queries?

A unit covers a query when it is on the query's document and page and its member boxes on that page
cover >= 95 % of every gold region (layoutrag.geometry.covered_area). The area ratio of a covered
query is the smallest covering unit's on-page box area / region area (median over covered queries:
keep it <= 1.5). Units are the stored chunks (reading units) and, with ``--sizes``, the larger units
of docs/DESIGN.md "Units at several sizes" (block, page: every unit of the page, their member
boxes) and ``page_hit``, the page unit a search returns when the ranker is unsure (its box is the
page's; it exists when the page has a unit): a level's numbers use the smallest unit of that level
or below.

Reported per query set, layout backend, kind (table, figure, text, part_number), document fold
(folds.tsv) and for image-only (OCR) pages apart. ``--rechunk`` scores chunks re-made in memory
from each document.json with the current code (only the query pages: no evidence images, no table
rows), so rule changes are measured without re-running the chunk stage; ``--ablate`` does that
once per chunking rule switched off (chunking/rules.py) and picks, for each fold, whether to keep
the rule from the other four folds only, then scores the held-out fold with that choice.

    python benchmarks/region_check.py DATA_DIR [QUERIES.jsonl]          # the old form
    python benchmarks/region_check.py --data pymupdf=DIR --data yolo=DIR \\
        --queries dev1=Q1.jsonl --queries dev2=Q2.jsonl --gen gen=QUERIES.jsonl@DIR@DIR_YOLO \\
        [--folds folds.tsv] [--rechunk] [--sizes] [--ablate] [--misses] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from layoutrag.chunking.pipeline import load_doc_chunks
from layoutrag.geometry import area, covered_area
from layoutrag.records import BBox, Chunk, Document
from layoutrag.storage import DataDir

SHARED = Path(__file__).resolve().parents[2] / "shared" / "eval" / "datasheets"
DEFAULT_QUERIES = SHARED / "dev-queries.jsonl"
DEFAULT_FOLDS = SHARED / "folds.tsv"
COVER = 0.95
MAX_RATIO = 1.5  # the bar on the median area ratio of the smallest covering unit
LEVELS = ("unit", "block", "page", "page_hit")  # page_hit: the page unit a search returns (the page's box)
R = {lv: f"ratio_{lv}" for lv in LEVELS}  # a row's key for the ratio at each size
N_FOLDS = 5


def chunk_boxes_on(c: Chunk, page: int) -> list[BBox]:
    return [r.bbox_pdf for r in c.all_regions() if r.page == page]


# --------------------------------------------------------------------------- documents and units
class Corpus:
    """One data dir: documents by file name, their stored or re-made units per query page."""

    def __init__(self, root: Path, *, rechunk: bool = False) -> None:
        self.data = DataDir(root)
        self.rechunk = rechunk
        self.settings = None  # in-memory units: Settings to build them with (None: the defaults)
        self.ids: dict[str, str] = {}
        for did in self.data.doc_ids():
            path = self.data.document_json(did)
            if path.exists():
                self.ids[_file_name(path)] = did
        self._doc: tuple[str, Document] | None = None  # the last document read
        self._chunks: tuple[str, list[Chunk]] | None = None  # and its chunks
        self._pages: dict[tuple, list[tuple[str, list[BBox]]]] = {}  # in-memory units by page and run
        self.needed: dict[str, set[int]] = {}  # pages worth keeping in memory, by file name
        self._kept: dict[str, Document] = {}
        self._fitted: dict = {}  # fitted member boxes by page (they read the PDF's drawings)

    def document(self, name: str) -> Document | None:
        """The document (kept in memory with only its queried pages when `needed` names them)."""
        if name not in self.ids:
            return None
        if name in self._kept:
            return self._kept[name]
        if self._doc is None or self._doc[0] != name:
            path = self.data.document_json(self.ids[name])
            doc = Document.model_validate_json(path.read_text(encoding="utf-8"))
            if name in self.needed:
                pages = [
                    p if p.page in self.needed[name] else p.model_copy(update={"elements": [], "words": []})
                    for p in doc.pages
                ]
                self._kept[name] = doc.model_copy(update={"pages": pages})
                return self._kept[name]
            self._doc = (name, doc)
        return self._doc[1]

    def units(self, name: str, page: int) -> list[tuple[str, list[BBox]]] | None:
        """(level, member boxes on `page`) of every unit on the page, the search's page unit (its box
        the page's, when the page has a unit) last; None: document not chunked."""
        units = self._units(name, page)
        doc = self.document(name) if units else None
        if units and doc is not None and 1 <= page <= len(doc.pages):
            p = doc.pages[page - 1]
            units = [*units, ("page_hit", [BBox(0.0, 0.0, p.width_pt, p.height_pt)])]
        return units

    def _units(self, name: str, page: int) -> list[tuple[str, list[BBox]]] | None:
        did = self.ids.get(name)
        if did is None:
            return None
        if self.rechunk:
            from layoutrag.chunking.pipeline import page_units_in_memory

            key = (
                name,
                page,
                self.settings.model_dump_json() if self.settings else "",
                tuple(sorted(_off())),
            )
            if key not in self._pages:
                doc = self.document(name)
                assert doc is not None
                self._pages[key] = page_units_in_memory(doc, page, self.data, self.settings, self._fitted)
            return self._pages[key]
        if not self.data.chunks_json(did).exists():
            return None
        if self._chunks is None or self._chunks[0] != name:
            self._chunks = (name, load_doc_chunks(self.data, did).chunks)
        out = []
        for c in self._chunks[1]:
            boxes = chunk_boxes_on(c, page)
            if boxes:
                out.append((getattr(c, "unit", "unit") or "unit", boxes))
        return out


def _off() -> set[str]:
    from layoutrag.chunking import rules

    return {r for r in rules.RULES if not rules.enabled(r)}


def _file_name(document_json: Path) -> str:
    """A document's file name, read from the head of its document.json (not the whole file)."""
    with document_json.open(encoding="utf-8") as f:
        head = f.read(4096)
    key = '"file_name":'
    i = head.find(key)
    if i >= 0:
        try:
            return str(json.loads(head[i + len(key) :].lstrip().split(",", 1)[0]))
        except ValueError:
            pass
    return Document.model_validate_json(document_json.read_text(encoding="utf-8")).file_name


def score_query(q: dict, units: list[tuple[str, list[BBox]]] | None) -> dict:
    """Per level: covered, area ratio of the smallest covering unit of that level or below."""
    row: dict = {"best_cover": 0.0}
    for lv in LEVELS:
        row[R[lv]] = None  # area ratio of the smallest covering unit of this size or smaller
    if units is None:
        row["note"] = "document not chunked"
        return row
    regions = q["regions"]
    region_area = sum(area(r) for r in regions)
    for level, boxes in units:
        cov = min(covered_area(r, boxes) / max(area(r), 1e-9) for r in regions)
        if level == "unit":
            row["best_cover"] = max(row["best_cover"], cov)
        if cov < COVER:
            continue
        ratio = sum(area(b) for b in boxes) / max(region_area, 1e-9)
        for lv in LEVELS[LEVELS.index(level) :]:
            if row[R[lv]] is None or ratio < row[R[lv]]:
                row[R[lv]] = ratio
    return row


def check(data: DataDir, queries: list[dict], *, element_boxes: bool = False) -> list[dict]:
    """One row per query over the stored chunks (the earlier API): covered, ratio, best_cover."""
    del element_boxes
    corpus = Corpus(data.root)
    out = []
    for q in queries:
        r = score_query(q, corpus.units(q["doc"], q["page"]))
        out.append(
            {
                "id": q["id"],
                "doc": q["doc"],
                "page": q["page"],
                "kind": q.get("kind", ""),
                "covered": r[R["unit"]] is not None,
                "ratio": r[R["unit"]],
                "best_cover": r["best_cover"],
                "note": r.get("note", q.get("note", "")),
            }
        )
    return out


# --------------------------------------------------------------------------- folds and scoring
def load_folds(path: Path) -> dict[str, int]:
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) >= 2 and parts[1].strip().isdigit():
            out[parts[0]] = int(parts[1])
    return out


def fold_of(doc: str, folds: dict[str, int]) -> int:
    """The document's fold from folds.tsv; documents it does not list (the generated set) by a
    hash of their name, so they too are split by document."""
    if doc in folds:
        return folds[doc]
    return zlib.crc32(doc.encode("utf-8")) % N_FOLDS


def is_scan_page(corpus: Corpus, name: str, page: int) -> bool:
    doc = corpus.document(name)
    if doc is None or not 1 <= page <= len(doc.pages):
        return False
    p = doc.pages[page - 1]
    return p.text_status == "needs_ocr" or p.text_source == "ocr"


def run(sets: dict[str, tuple[list[dict], dict[str, Corpus]]], folds: dict[str, int]) -> list[dict]:
    """One row per (set, backend, query)."""
    rows = []
    for set_name, (queries, corpora) in sets.items():
        for backend, corpus in corpora.items():
            for q in sorted(queries, key=lambda q: q["doc"]):
                r = score_query(q, corpus.units(q["doc"], q["page"]))
                r.update(
                    set=set_name,
                    backend=backend,
                    id=q["id"],
                    doc=q["doc"],
                    page=q["page"],
                    kind=q.get("kind", ""),
                    fold=fold_of(q["doc"], folds),
                    scan=is_scan_page(corpus, q["doc"], q["page"]),
                )
                rows.append(r)
    return rows


def summary(rows: Sequence[dict], level: str = "unit") -> tuple[int, int, float | None]:
    """(n, covered, median ratio) at `level`."""
    ratios = [r[R[level]] for r in rows if r[R[level]] is not None]
    return len(rows), len(ratios), (statistics.median(ratios) if ratios else None)


def fmt(rows: Sequence[dict], level: str = "unit") -> str:
    n, c, med = summary(rows, level)
    m = f"{med:.2f}" if med is not None else "-"
    return f"{c:>3}/{n:<3} {c / max(n, 1):.3f} r{m:>5}"


def print_tables(rows: list[dict], levels: Iterable[str]) -> None:
    levels = list(levels)
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["set"], r["backend"])].append(r)
    head = "".join(f" {lv + ' cover / median ratio':>22}" for lv in levels)
    for (set_name, backend), rs in groups.items():
        print(f"\n== {set_name} / {backend}")
        print(f"{'slice':24}{head}")

        def line(label: str, sub: list[dict]) -> None:
            if sub:
                print(f"{label:24}" + "".join(f" {fmt(sub, lv):>22}" for lv in levels))

        line("all", rs)
        for k in sorted({r["kind"] for r in rs}):
            line(f"kind {k}", [r for r in rs if r["kind"] == k])
        for f in sorted({r["fold"] for r in rs}):
            line(f"fold {f}", [r for r in rs if r["fold"] == f])
        line("born-digital pages", [r for r in rs if not r["scan"]])
        line("image-only (OCR) pages", [r for r in rs if r["scan"]])


def print_misses(rows: list[dict]) -> None:
    print("\nmisses (no covering unit) and loose covers (ratio > 2):")
    for r in rows:
        u = r[R["unit"]]
        if u is None or u > 2:
            ratio = f"{u:.2f}" if u is not None else "-"
            print(
                f"  {r['set']:5} {r['backend']:7} {r['id']:12} f{r['fold']} {r['doc'][:38]:38} p{r['page']:<3} "
                f"{r['kind']:11} cover={r['best_cover']:.2f} ratio={ratio}{' scan' if r['scan'] else ''}"
            )


# --------------------------------------------------------------------------- ablation by fold
def _cov(r: dict) -> int:
    return int(r[R["unit"]] is not None)


def ablate(
    sets: dict[str, tuple[list[dict], dict[str, Corpus]]], folds: dict[str, int], select_sets: list[str]
) -> dict:
    """Each rule switched off alone. For each fold the rule is kept or dropped on the other folds
    (of the `select_sets`, both backends): kept when it covers more queries there, or as many at a
    median area ratio lower by more than 0.005 (a rule that splits units earns its place by
    tighter units); dropped otherwise (no measured help on documents it was not written for).
    Reported per rule: the held-out folds' coverage gain and median-ratio gain of having it."""
    from layoutrag.chunking.rules import RULES, disabled

    base = run(sets, folds)
    key = lambda r: (r["set"], r["backend"], r["id"])  # noqa: E731
    base_by = {key(r): r for r in base}
    out: dict[str, dict] = {}
    for rule in RULES:
        with disabled(rule):
            off = run(sets, folds)
        per_fold = {}
        for f in range(N_FOLDS):
            train_off = [r for r in off if r["fold"] != f and r["set"] in select_sets]
            train_on = [base_by[key(r)] for r in train_off]
            d_cov = sum(map(_cov, train_on)) - sum(map(_cov, train_off))
            d_med = (summary(train_off)[2] or 0.0) - (summary(train_on)[2] or 0.0)
            keep = d_cov > 0 or (d_cov == 0 and d_med > 0.005)
            held_off = [r for r in off if r["fold"] == f]
            held_on = [base_by[key(r)] for r in held_off]
            per_fold[f] = {
                "train_cov_gain": d_cov,
                "train_ratio_gain": round(d_med, 3),
                "keep": keep,
                "held_cov_gain": sum(map(_cov, held_on)) - sum(map(_cov, held_off)),
                "held_ratio_gain": round((summary(held_off)[2] or 0.0) - (summary(held_on)[2] or 0.0), 3),
            }
        changed = [
            (r["set"], r["backend"], r["id"], r["fold"], _cov(base_by[key(r)]), _cov(r))
            for r in off
            if _cov(r) != _cov(base_by[key(r)])
        ]
        tighter = sum(
            1
            for r in off
            if _cov(r) and _cov(base_by[key(r)]) and base_by[key(r)][R["unit"]] < r[R["unit"]] - 1e-6
        )
        looser = sum(
            1
            for r in off
            if _cov(r) and _cov(base_by[key(r)]) and base_by[key(r)][R["unit"]] > r[R["unit"]] + 1e-6
        )
        out[rule] = {
            "per_fold": per_fold,
            "changed": changed,
            "tighter_with_rule": tighter,
            "looser_with_rule": looser,
        }
        cov = " ".join(
            f"f{f}:{v['held_cov_gain']:+d}/{v['held_ratio_gain']:+.2f}{'' if v['keep'] else '(drop)'}"
            for f, v in per_fold.items()
        )
        print(
            f"{rule:20} held-out gain per fold (covered/median ratio) {cov}  "
            f"queries covered differently {len(changed)}, tighter {tighter}, looser {looser}",
            flush=True,
        )
    return out


def choose_by_fold(
    candidates: dict[str, list[dict]], score: Callable[[list[dict]], tuple]
) -> tuple[dict[int, str], list[dict]]:
    """For each fold, the candidate (a name and its rows) whose rows on the other folds `score`
    highest (ties: the first); returns the choices and the held-out folds' rows of the chosen."""
    chosen: dict[int, str] = {}
    held: list[dict] = []
    for f in range(N_FOLDS):
        chosen[f] = max(candidates, key=lambda c, f=f: score([r for r in candidates[c] if r["fold"] != f]))
        held += [r for r in candidates[chosen[f]] if r["fold"] == f]
    return chosen, held


def sweep(
    sets: dict[str, tuple[list[dict], dict[str, Corpus]]],
    folds: dict[str, int],
    param: str,
    values: list[str],
    select_sets: list[str],
) -> dict:
    """A chunking setting tried at each of `values`; for each fold the value is chosen on the other
    folds (median ratio <= MAX_RATIO in every selection set, then most covered, then the smaller
    median ratio), and the held-out fold is scored with it."""
    from layoutrag.config import load_settings

    group, _, leaf = param.partition(".")
    results: dict[str, list[dict]] = {}
    for v in values:
        settings = load_settings(**{group: {leaf: v}})
        for _, corpora in sets.values():
            for c in corpora.values():
                c.settings = settings
        results[v] = run(sets, folds)
        print(
            f"{param}={v}: "
            + "  ".join(f"{name} {fmt([r for r in results[v] if r['set'] == name])}" for name in sets),
            flush=True,
        )

    def train_score(train: list[dict]) -> tuple[bool, int, float]:
        rs = [r for r in train if r["set"] in select_sets]
        n, c, med = summary(rs)
        meds = [summary([r for r in rs if r["set"] == s])[2] or 0.0 for s in select_sets]
        return (max(meds, default=0.0) <= MAX_RATIO, c, -(med or 0.0))

    chosen, held = choose_by_fold(results, train_score)
    print(f"chosen per fold (on the other folds): {chosen}")
    for name in sets:
        for b in sorted({r["backend"] for r in held if r["set"] == name}):
            print(
                f"  held-out {name}/{b}: {fmt([r for r in held if r['set'] == name and r['backend'] == b])}"
            )
    return {"chosen": chosen, "held_out": held}


def choose(rows: list[dict], names: list[str], *, scans_only: bool) -> dict:
    """Alternative ingests of the same documents (`--data` names: another layout backend or
    setting) compared by fold: for each fold the alternative is chosen on the other folds (median
    ratio <= MAX_RATIO, then most covered, then the smaller median ratio) and the held-out fold is
    scored with it. `scans_only`: only queries on image-only pages count (an alternative that
    changes only how scans are segmented)."""

    candidates = {
        name: [r for r in rows if r["backend"] == name and (r["scan"] or not scans_only)] for name in names
    }

    def train_score(train: list[dict]) -> tuple[bool, int, float]:
        n, c, med = summary(train)
        return ((med or 0.0) <= MAX_RATIO, c, -(med or 0.0))

    chosen, held = choose_by_fold(candidates, train_score)
    print(f"\nchosen per fold on the other folds{' (image-only pages)' if scans_only else ''}: {chosen}")
    for name in names:
        print(f"  {name:24} all folds {fmt(candidates[name])}")
    print(f"  {'held-out choice':24} all folds {fmt(held)}")
    for s in sorted({r["set"] for r in held}):
        print(f"    set {s:18} {fmt([r for r in held if r['set'] == s])}")
    return {"chosen": chosen, "held_out": held}


# --------------------------------------------------------------------------- main
def _pairs(values: list[str]) -> dict[str, str]:
    out = {}
    for v in values:
        name, _, rest = v.partition("=")
        out[name] = rest
    return out


def _drop_off(argv: list[str]) -> list[str]:
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "--off":
            skip = True
            continue
        if a.startswith("--off="):
            continue
        out.append(a)
    return out


def load_queries(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(argv: list[str]) -> None:
    if argv and not argv[0].startswith("--"):  # the old form: DATA_DIR [QUERIES]
        pos = [a for a in argv if not a.startswith("--")]
        argv = [
            "--data",
            f"pymupdf={pos[0]}",
            "--queries",
            f"dev={pos[1] if len(pos) > 1 else DEFAULT_QUERIES}",
        ] + [a for a in argv if a.startswith("--")]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", default=[], help="BACKEND=DIR (real datasheets)")
    ap.add_argument("--queries", action="append", default=[], help="SET=QUERIES.jsonl over the --data dirs")
    ap.add_argument("--gen", action="append", default=[], help="SET=QUERIES.jsonl@PYMUPDF_DIR[@YOLO_DIR]")
    ap.add_argument("--folds", type=Path, default=DEFAULT_FOLDS)
    ap.add_argument("--rechunk", action="store_true", help="re-make the units in memory with this code")
    ap.add_argument("--sizes", action="store_true", help="also score block and page units")
    ap.add_argument("--ablate", action="store_true")
    ap.add_argument("--sweep", default="", help="GROUP.LEAF=V1,V2,... a chunking setting chosen by fold")
    ap.add_argument(
        "--select", default="", help="sets the choices are made on, other folds only (default: all)"
    )
    ap.add_argument("--misses", action="store_true")
    ap.add_argument(
        "--choose", default="", help="NAME,NAME: --data alternatives chosen by fold on the others"
    )
    ap.add_argument(
        "--scans-only", action="store_true", help="--choose over queries on image-only pages only"
    )
    ap.add_argument(
        "--off", default="", help="RULE,RULE: chunking rules switched off for this run (--rechunk)"
    )
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)

    if args.off:
        from layoutrag.chunking.rules import disabled

        with disabled(*args.off.split(",")):
            main(_drop_off(argv))
        return
    folds = load_folds(args.folds)
    corpora = {b: Corpus(Path(d), rechunk=args.rechunk) for b, d in _pairs(args.data).items()}
    sets: dict[str, tuple[list[dict], dict[str, Corpus]]] = {}
    for name, q in _pairs(args.queries).items():
        sets[name] = (load_queries(Path(q)), corpora)
    for name, spec in _pairs(args.gen).items():
        qpath, *dirs = spec.split("@")
        gen = {
            b: Corpus(Path(d), rechunk=args.rechunk) for b, d in zip(("pymupdf", "yolo"), dirs, strict=False)
        }
        sets[name] = (load_queries(Path(qpath)), gen)

    if args.rechunk:
        for queries, cs in sets.values():
            for c in cs.values():
                for q in queries:
                    c.needed.setdefault(q["doc"], set()).add(int(q["page"]))
    if args.sweep:
        param, _, vals = args.sweep.partition("=")
        select = args.select.split(",") if args.select else list(sets)
        sweep(sets, folds, param, vals.split(","), select)
        return
    if args.ablate:
        select = args.select.split(",") if args.select else list(sets)
        result = ablate(sets, folds, select)
        if args.json:
            args.json.write_text(json.dumps(result, indent=1))
        return
    rows = run(sets, folds)
    print_tables(rows, LEVELS if args.sizes else ("unit",))
    if args.misses:
        print_misses(rows)
    if args.choose:
        choose(rows, args.choose.split(","), scans_only=args.scans_only)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
