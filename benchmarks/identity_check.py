"""Byte-identity check for refactors: the same inputs must give the same artifacts and results.

    # before the change (run against the old tree, e.g. a git worktree of the base commit)
    PYTHONPATH=/tmp/base/src .venv/bin/python benchmarks/identity_check.py snapshot --out /tmp/before.json
    # after the change (--render-images: evidence images are lazy; render them all through the
    # on-demand renderer first, so they are compared byte for byte with eagerly written ones)
    .venv/bin/python benchmarks/identity_check.py snapshot --out /tmp/after.json --render-images
    .venv/bin/python benchmarks/identity_check.py compare /tmp/before.json /tmp/after.json

Both snapshots run in the same work folder (`--work`, emptied first), so every absolute path written
into an artifact is the same in both and every byte can be compared as it is.

`snapshot` generates the sample corpus (fixed seed), ingests it and a dozen real dev datasheets
(rotated pages and scans among them; from ../shared when present) with the command line of the
`layoutrag` found on the path (`python -m layoutrag.cli`), then writes `manifest.json`: the sha256
of every artifact in the data dir (document.json, chunks.json, evidence images, crops, the index
generation's files; meta.json without its creation time, the report without timings) and of the ranked evidence packages of
every query (generated set, dev queries on the chosen datasheets, a few fixed queries), searched
through the Python API. `compare` prints every difference and exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

# A dozen dev datasheets: rotated pages (amphenol, HX_TYPE-C), image-only scans (Fairchild, crystal,
# STP2145A), tables, drawings, Chinese text, multi-page tables.
DEV_DOCS = [
    "FA-128.pdf",
    "RV-3032-C7.pdf",
    "amphenol_08112017_10101704XX2A-A-1139714.pdf",
    "HX_TYPE-C_16PIN.pdf",
    "Fairchild_uA78H05_uA78H05A_5V_5A_Hybrid_Regulator_scan.pdf",
    "crystal.pdf",
    "STP2145A.pdf",
    "TopPower_TP4056.pdf",
    "AOS_AO3401.pdf",
    "Sharp_PC817.pdf",
    "X503210MSB2GI.pdf",
    "TAXM12M4RLBDDT2T_12MHz.pdf",
    "2410121606_KDS-Daishinku-1XTW26000MAA_C213404.pdf",
]
FIXED_QUERIES = [
    "load capacitance",
    "ESR max",
    "package dimensions land pattern",
    "工作温度范围",
    "FA-128 frequency tolerance",
    "absolute maximum ratings",
    "pin configuration",
]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _cli(*args: str) -> None:
    cmd = [sys.executable, "-m", "layoutrag.cli", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):  # 1: some document failed, which is itself part of the output
        sys.exit(f"{' '.join(cmd[:5])} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")


def _queries(shared: Path, gen_dir: Path) -> list[str]:
    qs = list(FIXED_QUERIES)
    for f in ("dev-queries.jsonl", "dev-queries-2.jsonl"):
        path = shared / "eval" / "datasheets" / f
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                q = json.loads(line)
                if q["doc"] in DEV_DOCS:
                    qs.append(q["query"])
    gq = gen_dir / "queries.jsonl"
    if gq.is_file():
        qs += [json.loads(line)["query"] for line in gq.read_text(encoding="utf-8").splitlines()]
    return qs


def _render_images(data: Path) -> None:
    """Every chunk's evidence image and crops through the one on-demand renderer (lazy images:
    nothing is written at ingest), so they are hashed like eagerly written ones."""
    from layoutrag.chunking.evidence import chunk_image
    from layoutrag.chunking.pipeline import evidence_spec, load_doc_chunks
    from layoutrag.config import load_settings
    from layoutrag.storage import DataDir

    d = DataDir(data)
    spec = evidence_spec(load_settings())
    n = 0
    for doc_id in d.doc_ids():
        if not d.chunks_json(doc_id).exists():
            continue
        for c in load_doc_chunks(d, doc_id).chunks:
            for rel in [c.evidence_image, *c.crop_images]:
                if rel:
                    chunk_image(d, c, rel, spec)
                    n += 1
    print(f"{n} images rendered on request")


def snapshot(out: Path, work: Path, shared: Path, n_generated: int, jobs: int, render_images: bool = False) -> None:
    if work.exists():
        shutil.rmtree(work)
    gen_dir, data = work / "generated", work / "data"
    _cli("samples", "--out", str(gen_dir), "--n", str(n_generated), "--seed", "0")
    inputs = [str(gen_dir)]
    src = shared / "datasheets"
    inputs += [str(src / d) for d in DEV_DOCS if (src / d).is_file()]
    _cli("ingest", *inputs, "--data", str(data), "--jobs", str(jobs))
    if render_images:
        _render_images(data)

    files: dict[str, str] = {}
    for p in sorted(data.rglob("*")):
        rel = p.relative_to(data).as_posix()
        if not p.is_file() or rel.startswith("cache/") or rel.endswith(".lock") or "/pages/" in rel:
            continue
        if rel == "ingest-report.json":  # timings differ run to run: compare everything else
            report = json.loads(p.read_text(encoding="utf-8"))
            for r in report:
                r.pop("seconds", None)
                r["path"] = Path(r["path"]).name
            files[rel] = hashlib.sha256(json.dumps(report, sort_keys=True).encode()).hexdigest()
        elif p.name == "meta.json":
            meta = json.loads(p.read_text(encoding="utf-8"))
            meta.pop("created", None)
            files[rel] = hashlib.sha256(json.dumps(meta, sort_keys=True).encode()).hexdigest()
        else:
            files[rel] = _sha(p)

    import layoutrag

    idx = layoutrag.open(data)
    results: dict[str, str] = {}
    for q in _queries(shared, gen_dir):
        hits = idx.search(q, top_k=10)
        blob = json.dumps([h.model_dump(mode="json") for h in hits], sort_keys=True, ensure_ascii=False)
        results[q] = hashlib.sha256(blob.encode()).hexdigest()
    manifest = {"files": files, "searches": results, "layoutrag": str(Path(layoutrag.__file__).parent)}
    out.write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"{len(files)} files, {len(results)} searches -> {out}")


def compare(a: Path, b: Path, ignore: str = "") -> int:
    import re

    ma = json.loads(a.read_text(encoding="utf-8"))
    mb = json.loads(b.read_text(encoding="utf-8"))
    bad = 0
    for part in ("files", "searches"):
        xa, xb = ma[part], mb[part]
        skipped = [k for k in set(xa) | set(xb) if ignore and re.search(ignore, k)]
        if skipped:
            print(f"{part}: {len(skipped)} ignored (--ignore {ignore!r})")
        for k in sorted(set(xa) | set(xb) - set(skipped)):
            if xa.get(k) != xb.get(k):
                bad += 1
                state = "only before" if k not in xb else "only after" if k not in xa else "differs"
                print(f"{part}: {state}: {k}")
        print(f"{part}: {len(xa)} before, {len(xb)} after")
    print("IDENTICAL" if not bad else f"{bad} differences")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("--out", type=Path, required=True, help="the manifest to write (JSON)")
    s.add_argument("--work", type=Path, default=Path("/tmp/layoutrag-identity"), help="emptied first")
    s.add_argument("--shared", type=Path, default=Path(__file__).resolve().parents[2] / "shared")
    s.add_argument("--n", type=int, default=6, help="generated datasheets")
    s.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    s.add_argument(
        "--render-images", action="store_true", help="render every lazy evidence image and crop before hashing"
    )
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("--ignore", default="", help="regex of artifact paths / queries left out (say why)")
    args = ap.parse_args()
    if args.cmd == "snapshot":
        snapshot(args.out.resolve(), args.work.resolve(), args.shared.resolve(), args.n, args.jobs, args.render_images)
        return 0
    return compare(args.before, args.after, args.ignore)


if __name__ == "__main__":
    sys.exit(main())
