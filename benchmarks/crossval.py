"""Cross-validated region retrieval (issue #12): systems × {hit@1, hit@5, page@5, median leakage} ×
both scorings, pooled over held-out folds, per fold, per kind, per language, per corpus.

    PYTHONPATH=src .venv/bin/python benchmarks/crossval.py \\
        --dev-data /work/evaldata/pymupdf --shared /work/shared \\
        --gen-data /work/evaldata/generated-rank --gen-queries /work/evaldata/gen-pdfs-rank/queries.jsonl \\
        [--tkd-data TKD_DATA] [--json OUT.json] [--systems learned,weighted,...] [--write-ranker F]

Folds: `eval/datasheets/folds.tsv` for the shared datasheets, sha256(file name) mod 5 for the
generated ones, sha256(first gold document id) mod 5 for TKD's chunk-id questions
(layoutrag.evaluation.crossval). The learned ranker of fold k (LightGBM LambdaRank trees; `linear`:
the previous logistic-regression model) is fit on the other folds' queries (both region corpora,
and TKD's questions with `--tkd-data`), its unit-choice thresholds by nested CV inside them on the
region sets (the `learn` extra); nothing else is fitted here. TKD is scored held out by fold.
System `tuned` (not in the default list): the default with LightGBM's settings also chosen by
nested CV from `ranker.TREE_GRID` (`crossval.choose_tree_settings`) - measured, not adopted
(docs/EVALUATION.md §0).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from layoutrag.config import load_settings
from layoutrag.evaluation.crossval import (
    N_FOLDS,
    SCORINGS,
    Corpus,
    CVResult,
    chunk_gold_results,
    chunk_gold_rows,
    crossvalidate,
    fit_ranker,
    fit_trees,
    fit_unit_rankers,
    index_searcher,
    learned_searcher,
    load_folds,
    open_corpus,
    training_rows,
    unit_searcher,
    with_rows,
)
from layoutrag.evaluation.metrics import chunk_metrics
from layoutrag.index.options import SearchOptions
from layoutrag.index.ranker import FEATURES

WEIGHTED_CONSTANTS = 29  # issue #12's count: FusionSettings' 17 + hit and query-weighting constants


def say(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def fmt(v: object) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def table(results: list[CVResult]) -> str:
    cols = [("hit@1", "hit@1"), ("hit@5", "hit@5"), ("page_hit@5", "page@5"), ("leakage_median", "leak p50")]
    scorings = list(SCORINGS)
    head = "| system | params | " + " | ".join(f"{lab} ({s})" for s in scorings for _, lab in cols) + " |"
    out = [head, "|---" * (2 + len(cols) * len(scorings)) + "|"]
    by = {(r.system, r.scoring): r for r in results}
    for name in dict.fromkeys(r.system for r in results):
        cells = []
        for s in scorings:
            m = by[(name, s)].metrics
            cells += [fmt(m.get(key)) for key, _ in cols]
        out.append(f"| {name} | {by[(name, scorings[0])].n_params} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def breakdown(results: list[CVResult], attr: str, scoring: str, metric: str = "hit@5") -> str:
    rows = [r for r in results if r.scoring == scoring]
    if not rows:
        return ""
    if attr == "fold":
        groups = {str(k): {"n": rows[0].per_fold[k].get("n", 0)} for k in range(N_FOLDS)}
    elif attr in ("corpus", "set"):
        groups = rows[0].metrics[f"by_{attr}"]
    else:
        groups = rows[0].metrics[f"by_{attr}"]
    keys = list(groups)
    out = [
        f"| {metric} by {attr} ({scoring}) | "
        + " | ".join(f"{g} (n={groups[g].get('n', 0)})" for g in keys)
        + " |",
        "|---" * (len(keys) + 1) + "|",
    ]
    for r in rows:
        if attr == "fold":
            src = {str(k): r.per_fold[k] for k in range(N_FOLDS)}
        elif attr in ("corpus", "set"):
            src = r.metrics[f"by_{attr}"]
        else:
            src = r.metrics[f"by_{attr}"]
        out.append(f"| {r.system} | " + " | ".join(fmt(src.get(g, {}).get(metric)) for g in keys) + " |")
    return "\n".join(out)


def open_tkd(data: Path, shared: Path, s: Any) -> tuple[Any, list]:
    """The imported TKD index and its chunk-id questions."""
    from layoutrag.evaluation.harness import ChunkQuery, load_queries
    from layoutrag.index.store import load_index

    qs = [q for q in load_queries(shared / "eval/tkd/dev-queries.jsonl") if isinstance(q, ChunkQuery)]
    return load_index(data, settings=s), qs


def add_corpus_args(ap: argparse.ArgumentParser, *, shared: Path, tkd_help: str) -> None:
    """The data options every ranking benchmark takes (crossval, train_ranker, tkd_training)."""
    ap.add_argument("--shared", type=Path, default=shared)
    ap.add_argument("--dev-data", type=Path, default=None, help="ingested data dir of the shared datasheets")
    ap.add_argument("--gen-data", type=Path, default=None, help="ingested data dir of a generated set")
    ap.add_argument("--gen-queries", type=Path, default=None, help="its queries.jsonl")
    ap.add_argument("--tkd-data", type=Path, default=None, help=tkd_help)


def open_corpora(ap: argparse.ArgumentParser, args: argparse.Namespace, s: Any) -> list[Corpus]:
    """The region corpora the options name: the shared datasheets (folds.tsv) and a generated set."""
    corpora = []
    if args.dev_data:
        ev = args.shared / "eval/datasheets"
        corpora.append(
            open_corpus(
                "dev",
                args.dev_data,
                [ev / "dev-queries.jsonl", ev / "dev-queries-2.jsonl"],
                folds=load_folds(ev / "folds.tsv"),
                settings=s,
            )
        )
    if args.gen_data and args.gen_queries:
        corpora.append(open_corpus("generated", args.gen_data, [args.gen_queries], settings=s))
    if not corpora:
        ap.error("give --dev-data and/or --gen-data with --gen-queries")
    return corpora


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_args(
        ap,
        shared=Path("/work/shared"),
        tkd_help="imported TKD chunks: its chunk-id questions join the fits and are scored by fold",
    )
    ap.add_argument("--systems", default="learned,units,linear,weighted,bm25,dense,rrf,pages,windows")
    ap.add_argument("--json", type=Path, default=None, help="write every number here")
    ap.add_argument(
        "--write-ranker",
        type=Path,
        default=None,
        help="also fit the shipped weights on every fold (as benchmarks/train_ranker.py) and write them here",
    )
    args = ap.parse_args()
    s = load_settings()
    corpora = open_corpora(ap, args, s)
    for c in corpora:
        say(f"{c.name}: {len(c.queries)} queries, {len(c.unresolved)} on documents not indexed")
    wanted = args.systems.split(",")
    systems: dict = {}
    rankers = {}
    fold_rankers: dict[str, dict] = {}
    tkd = None
    if "learned" in wanted:
        rows = training_rows(corpora, progress=say)
        say(f"{len(rows.y)} candidate rows, {int(rows.y.sum())} positive")
        for c in corpora:  # the ceiling of any ranking of these candidates
            mine = np.array([q.startswith(c.name + "/") for q in rows.qid])
            covered = len(set(rows.qid[mine & (rows.y == 1)].tolist()))
            print(
                f"candidate ceiling, {c.name}: {covered}/{len(c.queries)} queries have a covering candidate"
            )
        members = sorted(set(SCORINGS.values()))
        tkd = open_tkd(args.tkd_data, args.shared, s) if args.tkd_data else None
        extra = chunk_gold_rows(tkd[0], tkd[1], "tkd") if tkd else None
        if extra is not None:
            say(f"TKD: {len(extra.y)} candidate rows, {int(extra.y.sum())} positive (training only)")
        fit_trees_all, fit_linear_all = with_rows(fit_trees, extra), with_rows(fit_ranker, extra)
        rankers = {k: fit_trees_all(rows, exclude_fold=k) for k in range(N_FOLDS)}
        systems["layoutrag learned, chunks only (CV)"] = (learned_searcher(rankers), rankers[0].n_parameters)
        if "units" in wanted:  # the default: trees + the unit choice (thresholds by nested CV)
            trees = fit_unit_rankers(rows, members, progress=say, fit=fit_trees_all)
            fold_rankers["layoutrag learned + page units (default, CV)"] = trees
            systems["layoutrag learned + page units (default, CV)"] = (
                learned_searcher(trees),
                trees[0].n_parameters,
            )
            # the same trees, a unit spanning pages returned whole (before HitSettings.focus_page)
            systems["layoutrag learned + page units, multi-page units whole (CV)"] = (
                learned_searcher(trees, focus_page=False),
                trees[0].n_parameters,
            )
        if "tuned" in wanted:  # the same, with LightGBM's settings chosen by nested CV (TREE_GRID)
            tuned = fit_unit_rankers(rows, members, progress=say, fit=fit_trees_all, tune_trees=True)
            fold_rankers["layoutrag learned + page units, tree settings by nested CV (CV)"] = tuned
            systems["layoutrag learned + page units, tree settings by nested CV (CV)"] = (
                learned_searcher(tuned),
                tuned[0].n_parameters,
            )
        if "linear" in wanted:  # the previous default: the linear model + the unit choice
            linear = fit_unit_rankers(rows, members, progress=say, fit=fit_linear_all)
            fold_rankers["layoutrag linear + page units (previous default, CV)"] = linear
            systems["layoutrag linear + page units (previous default, CV)"] = (
                learned_searcher(linear),
                len(FEATURES) + 1 + len(members),
            )
        if args.write_ranker:
            from train_ranker import write_ranker

            write_ranker(rows, corpora, args.write_ranker, model="trees", extra=extra)
    if "pointwise" in wanted:
        if not rankers:
            rows = training_rows(corpora, progress=say)
        pointwise = {k: fit_ranker(rows, exclude_fold=k, pairwise=False) for k in range(N_FOLDS)}
        systems["layoutrag learned, pointwise (CV)"] = (learned_searcher(pointwise), len(FEATURES) + 1)
    named = {
        "weighted": (
            "layoutrag weighted (old default)",
            index_searcher(SearchOptions.for_fusion("weighted", s)),
            WEIGHTED_CONSTANTS,
        ),
        "bm25": ("layoutrag BM25-only", index_searcher(SearchOptions(mode="bm25")), 0),
        "dense": ("layoutrag dense-only", index_searcher(SearchOptions(mode="dense")), 0),
        "rrf": ("layoutrag plain RRF", index_searcher(SearchOptions.for_fusion("rrf", s)), 0),
        "pages": ("whole page (BM25)", unit_searcher("pages", s), 0),
        "windows": ("512-token windows (BM25)", unit_searcher("windows", s), 0),
    }
    for key in wanted:
        if key in named:
            label, factory, n = named[key]
            systems[label] = (factory, n)
    results = crossvalidate(corpora, systems, settings=s, progress=say)
    n_q = sum(len(c.queries) for c in corpora)
    print(
        f"\n## Cross-validated ({N_FOLDS} folds by document), {n_q} held-out queries: "
        + ", ".join(f"{c.name} {len(c.queries)}" for c in corpora)
    )
    print()
    print(table(results))
    for scoring in SCORINGS:
        for attr in ("lang", "kind", "set", "fold"):
            print()
            print(breakdown(results, attr, scoring))
    if tkd and fold_rankers:
        print("\n| TKD, held out by fold (chunk-id gold) | scoring | R@5 | R@15 | MRR@15 | hit@5 |")
        print("|---|---|---|---|---|---|")
        for label, fr in fold_rankers.items():
            for scoring, m in SCORINGS.items():
                hits = s.hits.model_copy(update={"page_members": m})
                c = chunk_metrics(chunk_gold_results(tkd[0], tkd[1], fr, hits))
                print(
                    f"| {label} | {scoring} | {c['recall@5']:.3f} | {c['recall@15']:.3f} "
                    f"| {c['mrr@15']:.3f} | {c['hit@5']:.3f} |"
                )
    if rankers:
        print(
            "\nper-fold ranker training: "
            + "; ".join(f"fold {k}: {dict(r.meta)}" for k, r in rankers.items())
        )
    if args.json:
        payload = {
            r.system + " | " + r.scoring: {
                "metrics": r.metrics,
                "per_fold": r.per_fold,
                "params": r.n_params,
                # every held-out query once: a change's effect can be split by query (kind, scan, set)
                "queries": [
                    {"id": q.id, "kind": q.kind, "lang": q.lang, "doc": q.doc, "page": q.page, "rank": q.rank,
                     "page_rank": q.page_rank, "leakage": q.leakage}
                    for q in r.results
                ],
            }
            for r in results
        }
        args.json.write_text(json.dumps(payload, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
