"""Does the ranker gain from TKD's chunk-id questions as training rows? (issue #12, an experiment)

    PYTHONPATH=src .venv/bin/python benchmarks/tkd_training.py \\
        --dev-data DEV_DATA --shared ../shared --gen-data GEN_DATA --gen-queries GEN/queries.jsonl \\
        --tkd-data TKD_DATA [--fits trees,trees+tkd,linear]

TKD_DATA: `layoutrag import-chunks ../shared/eval/tkd/chunks.jsonl --data TKD_DATA`. A TKD candidate
is positive when its chunk id is gold; a question's fold is sha256(its first gold document id) mod 5
(by document, as the region sets). Per outer fold k: the ranker is fit without fold k of every set
(and its unit-choice thresholds by nested CV on the region sets only), then scores fold k's region
queries (the unit-choice simulation of `crossval.threshold_results`) and fold k's TKD questions
(a real search of the TKD index). Prints region hit@1 / hit@5 / leakage and TKD R@5 / R@15 / MRR@15.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from crossval import add_corpus_args, open_corpora, open_tkd

from layoutrag.config import load_settings
from layoutrag.evaluation import crossval as cv
from layoutrag.evaluation.metrics import chunk_metrics, region_metrics


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_args(ap, shared=Path("../shared"), tkd_help="imported TKD chunks (required)")
    ap.add_argument("--fits", default="trees,trees+tkd")
    args = ap.parse_args()
    if not (args.dev_data and args.gen_data and args.gen_queries and args.tkd_data):
        ap.error("give --dev-data, --gen-data, --gen-queries and --tkd-data")
    s = load_settings()
    corpora = open_corpora(ap, args, s)
    rows = cv.training_rows(corpora)
    tix, tq = open_tkd(args.tkd_data, args.shared, s)
    T = cv.chunk_gold_rows(tix, tq, "tkd")
    per_fold = np.bincount([cv.chunk_gold_fold(q.gold_chunks) for q in tq], minlength=cv.N_FOLDS)
    print(
        f"TKD: {len(tq)} questions, {len(T.y)} candidate rows, {int(T.y.sum())} positive, "
        f"{len(set(T.qid[T.y == 1].tolist()))} questions with a gold candidate; "
        f"questions per fold {per_fold.tolist()}"
    )
    fits = {"trees": cv.fit_trees, "trees+tkd": cv.with_rows(cv.fit_trees, T), "linear": cv.fit_ranker}
    print("| fit | scoring | region hit@1 | region hit@5 | leak p50 | TKD R@5 | TKD R@15 | TKD MRR@15 |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.fits.split(","):
        fit = fits[name]
        region: dict[int, list] = {3: [], 1: []}
        rankers = {}
        for k in range(cv.N_FOLDS):
            th = cv.unit_thresholds(rows, [3, 1], outside=(k,), fit=fit)
            rankers[k] = fit(rows, exclude_fold=k).with_page_below(th)
            for m in (3, 1):
                hits = s.hits.model_copy(update={"page_members": m})
                region[m] += cv.threshold_results(rows, rankers[k], rows.fold == k, hits)[th[m]]
        tkd = {
            m: cv.chunk_gold_results(tix, tq, rankers, s.hits.model_copy(update={"page_members": m}))
            for m in (3, 1)
        }
        for m, label in ((3, "companions counted"), (1, "one chunk a hit")):
            x, c = region_metrics(region[m]), chunk_metrics(tkd[m])
            print(
                f"| {name} | {label} | {x['hit@1']:.3f} | {x['hit@5']:.3f} | {x['leakage_median']:.2f} "
                f"| {c['recall@5']:.3f} | {c['recall@15']:.3f} | {c['mrr@15']:.3f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
