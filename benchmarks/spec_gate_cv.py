"""A learned confidence gate for the spec stage, cross-validated by document (an experiment).

    python benchmarks/spec_gate_cv.py DATA_DIR JUDGED.jsonl [--folds ../shared/eval/datasheets/folds.tsv]
        [--target 0.95] [--show]

JUDGED.jsonl is `spec_judged.py`'s output: values the current spec stage reads as they were read
when judged by hand, with their verdicts. Each value's features (`spec_gate_features.py`) are
computed from DATA_DIR's page words. A logistic regression predicts "wrong"; in each fold (the
datasheet folds of the shared evaluation, every value of a document in one fold) it is fitted on
the other folds, and the threshold is the largest withholding threshold at which the training
folds' kept values reach the target precision (or the one with the best training precision). The
held-out fold's values above the threshold are withheld; the table prints, per fold and over all
folds, the values, the wrong ones, what is kept and its precision - the pooled out-of-fold result,
not the best fold - then the same by judged file, and the weights fitted on all.

Result (docs/EVALUATION.md §5, at 40fcb41): the gate withholds 116 of 738 values and 6 of their 47 wrong ones -
it does not separate them, and it is not part of the spec stage.
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from spec_gate_features import FEATURES, features

from layoutrag.chunking.specs import default_part
from layoutrag.records import DocChunks, Document, SpecValue, Word
from layoutrag.storage import DataDir


def load(data: DataDir, judged: Path) -> tuple[np.ndarray, np.ndarray, list[str], list[dict]]:
    rows = [json.loads(x) for x in judged.read_text(encoding="utf-8").splitlines() if x.strip()]
    names: dict[str, str] = {}
    for doc_id in data.doc_ids():
        cj = data.chunks_json(doc_id)
        if cj.exists():
            names[json.loads(cj.read_text(encoding="utf-8"))["card"]["file_name"]] = doc_id
    cache: dict[str, tuple[dict[int, list[Word]], str]] = {}
    X, y, docs = [], [], []
    for r in rows:
        doc_id = names[r["doc"]]
        if doc_id not in cache:
            d = Document.model_validate_json(data.document_json(doc_id).read_text(encoding="utf-8"))
            card = DocChunks.model_validate_json(data.chunks_json(doc_id).read_text(encoding="utf-8")).card
            cache[doc_id] = ({p.page: p.words for p in d.pages}, default_part(card))
        pages, part = cache[doc_id]
        v = SpecValue.model_validate(r["value"])
        X.append(features(v, lambda p, pages=pages: pages.get(p, []), part))
        y.append(1 - int(r["label"]))  # 1 = wrong
        docs.append(r["doc"])
    return np.array(X), np.array(y), docs, rows


def fit(X: np.ndarray, y: np.ndarray) -> LogisticRegression:
    m = LogisticRegression(C=1.0, class_weight="balanced", max_iter=1000)
    m.fit(X, y)
    return m


def threshold(p: np.ndarray, y: np.ndarray, target: float) -> float:
    """The highest threshold (least withheld) at which the kept values (p < t) reach `target`
    precision; failing that the one with the best precision."""
    best_t, best_prec = 1.0 + 1e-9, -1.0
    for t in sorted(set(np.round(p, 6)) | {1.0 + 1e-9}, reverse=True):
        kept = p < t
        if kept.sum() == 0:
            break
        prec = 1 - y[kept].mean()
        if prec >= target:
            return float(t)
        if prec > best_prec:
            best_t, best_prec = float(t), prec
    return best_t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", type=Path)
    ap.add_argument("judged", type=Path)
    ap.add_argument("--folds", type=Path, default=Path("../shared/eval/datasheets/folds.tsv"))
    ap.add_argument("--target", type=float, default=0.95)
    ap.add_argument("--show", action="store_true", help="print every out-of-fold withheld or wrong value")
    a = ap.parse_args()
    X, y, docs, rows = load(DataDir(a.data), a.judged)
    fold_of = {}
    for line in a.folds.read_text(encoding="utf-8").splitlines()[1:]:
        name, f, *_ = line.split("\t")
        fold_of[name] = int(f)
    folds = np.array([fold_of[d] for d in docs])
    p_oof = np.zeros(len(y))
    kept_oof = np.zeros(len(y), dtype=bool)
    print(f"{len(y)} judged values the current stage reads as judged, {int(y.sum())} wrong, "
          f"{len(set(docs))} documents; target precision {a.target}")
    print(f"{'fold':>4} {'values':>7} {'wrong':>6} {'prec. all':>9} {'kept':>5} {'wrong kept':>10} {'prec. kept':>10}")
    for f in sorted(set(folds)):
        tr, te = folds != f, folds == f
        m = fit(X[tr], y[tr])
        t = threshold(m.predict_proba(X[tr])[:, 1], y[tr], a.target)
        p = m.predict_proba(X[te])[:, 1]
        p_oof[te] = p
        kept_oof[te] = p < t
        k = kept_oof[te]
        print(f"{f:>4} {te.sum():>7} {y[te].sum():>6} {1 - y[te].mean():>9.3f} {k.sum():>5} "
              f"{y[te][k].sum():>10} {1 - y[te][k].mean() if k.any() else math.nan:>10.3f}")
    k = kept_oof
    print(f"{'all':>4} {len(y):>7} {y.sum():>6} {1 - y.mean():>9.3f} {k.sum():>5} {y[k].sum():>10} {1 - y[k].mean():>10.3f}")
    by_src: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r, yy, kk in zip(rows, y, k, strict=True):
        s = by_src[r["source"]]
        s[0] += 1
        s[1] += int(yy)
        s[2] += int(kk)
        s[3] += int(yy and kk)
    print(f"\n{'source':<18} {'values':>7} {'wrong':>6} {'kept':>5} {'wrong kept':>10}")
    for s, (n, w, kn, wk) in sorted(by_src.items()):
        print(f"{s:<18} {n:>7} {w:>6} {kn:>5} {wk:>10}")
    m = fit(X, y)
    print("\nweights (fitted on all):")
    for name, w in sorted(zip(FEATURES, m.coef_[0], strict=True), key=lambda z: -abs(z[1])):
        print(f"  {name:<18} {w:+.3f}")
    if a.show:
        for r, yy, kk, pp in sorted(zip(rows, y, k, p_oof, strict=True), key=lambda z: -z[3]):
            if yy or not kk:
                v = r["value"]
                print(f"{'WRONG' if yy else 'right'} {'kept' if kk else 'withheld'} p={pp:.2f} {r['doc'][:28]} "
                      f"p{v['page']} {v['parameter_printed'][:40]!r} -> {v['parameter']} {v['value_text'][:30]!r}")


if __name__ == "__main__":
    main()
