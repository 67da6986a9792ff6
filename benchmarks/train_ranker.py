"""Fit the shipped ranker weights (`src/layoutrag/data/ranker.json`) on every fold of every corpus.

    /work/main/.venv/bin/pip install -e '.[learn]'     # scikit-learn: training only (Platt, the linear model)
    PYTHONPATH=src .venv/bin/python benchmarks/train_ranker.py \\
        --dev-data /work/evaldata/pymupdf --shared /work/shared \\
        --gen-data /work/evaldata/generated-rank --gen-queries /work/evaldata/gen-pdfs-rank/queries.jsonl \\
        --tkd-data TKD_DATA [--out src/layoutrag/data/ranker.json]

`--model trees` (default, shipped): LightGBM LambdaRank; `--model linear`: the previous model.
The same candidates, features and labels as `benchmarks/crossval.py` (layoutrag.evaluation.crossval),
with no fold left out: the cross-validated numbers are those of this procedure; the shipped
weights are one more fit of it on all queries.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from crossval import add_corpus_args, open_corpora, open_tkd

from layoutrag.config import load_settings
from layoutrag.evaluation.crossval import (
    SCORINGS,
    Rows,
    chunk_gold_rows,
    fit_ranker,
    fit_trees,
    training_rows,
    unit_thresholds,
    with_rows,
)
from layoutrag.index.ranker import LinearRanker

OUT = Path(__file__).resolve().parents[1] / "src/layoutrag/data/ranker.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_corpus_args(ap, shared=Path("/work/shared"), tkd_help="imported TKD chunks (chunk-id questions)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--model", choices=("trees", "linear"), default="trees", help="LambdaRank trees (shipped) or linear"
    )
    args = ap.parse_args()
    s = load_settings()
    corpora = open_corpora(ap, args, s)
    rows = training_rows(corpora, progress=lambda m: print(m, file=sys.stderr))
    extra = None
    if args.tkd_data:
        index, questions = open_tkd(args.tkd_data, args.shared, s)
        extra = chunk_gold_rows(index, questions, "tkd")
    write_ranker(rows, corpora, args.out, model=args.model, extra=extra)


def write_ranker(
    rows: Rows, corpora: list, out: Path, *, model: str = "trees", extra: Rows | None = None
) -> None:
    """Fit on every row (and the `extra` chunk-id rows), choose the unit-choice thresholds on
    held-out folds of the region sets, write the weights."""
    fit = with_rows(fit_trees if model == "trees" else fit_ranker, extra)
    meta = {"corpora": ", ".join(f"{c.name} ({len(c.queries)} queries)" for c in corpora)}
    if extra is not None:
        meta["corpora"] += f", tkd ({len(set(extra.qid.tolist()))} chunk-id questions, training only)"
    thresholds = unit_thresholds(rows, sorted(set(SCORINGS.values())), fit=fit)
    ranker = fit(rows, meta=meta).with_page_below(thresholds)
    print(f"unit-choice thresholds (page_members -> probability; chosen on held-out folds): {thresholds}")
    out.write_text(json.dumps(ranker.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}: {ranker.n_parameters} parameters, {dict(ranker.meta)}")
    if isinstance(ranker, LinearRanker):
        for name, c in sorted(zip(ranker.features, ranker.coef, strict=True), key=lambda t: -abs(t[1])):
            print(f"  {name:16s} {c:+.3f}")
    else:
        gain = ranker.booster.feature_importance(importance_type="gain")
        for name, g in sorted(zip(ranker.features, gain, strict=True), key=lambda t: -t[1])[:12]:
            print(f"  {name:16s} gain {g:.1f}")


if __name__ == "__main__":
    main()
