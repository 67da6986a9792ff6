"""The Markdown evaluation report: systems side by side, curves, distributions, and every miss.

DIR/report.md
DIR/recall_at_k.png      hit@k (region gold) or recall@k (chunk gold) for k = 1..15, per system
DIR/leakage.png          leakage of the first covering hit (log scale), per system
DIR/iou.png              IoU of the first covering hit, per system
DIR/metrics.json         every number in the report
"""

from __future__ import annotations

import json
import math
import subprocess
from collections.abc import Sequence
from pathlib import Path

from layoutrag.evaluation.metrics import ChunkQueryResult, RegionQueryResult
from layoutrag.storage import atomic_write_text

__all__ = [
    "CHUNK_COLUMNS",
    "CONSOLE_REGION_COLUMNS",
    "bar_verdict",
    "REGION_COLUMNS",
    "fmt",
    "git_commit",
    "metrics_json",
    "write_report",
]

REGION_COLUMNS = [
    ("hit@1", "hit@1"),
    ("hit@5", "hit@5"),
    ("hit@10", "hit@10"),
    ("hit@15", "hit@15"),
    ("mrr@15", "MRR@15"),
    ("ndcg@10", "nDCG@10"),
    ("page_hit@5", "page@5"),
    ("doc_hit@5", "doc@5"),
    ("answer_hit@5", "answer@5"),
    ("leakage_median", "leak p50"),
    ("leakage_p90", "leak p90"),
    ("iou_median", "IoU p50"),
]
CONSOLE_REGION_COLUMNS = [
    ("hit@1", "@1"),
    ("hit@5", "@5"),
    ("hit@15", "@15"),
    ("mrr@15", "MRR"),
    ("page_hit@5", "pg@5"),
    ("answer_hit@5", "ans@5"),
    ("leakage_median", "leak"),
]
CHUNK_COLUMNS = [("recall@5", "R@5"), ("recall@15", "R@15"), ("mrr@15", "MRR@15"), ("hit@5", "hit@5")]
CURVE_KS = range(1, 16)
# the distributions compare retrieval units, not every ablation
_DISTRIBUTION_SYSTEMS = (
    "layoutrag (fused)",
    "layoutrag BM25-only",
    "fixed 512-token windows (fused)",
    "whole page (fused)",
)


def _finite(o: object) -> object:
    if isinstance(o, float):
        return o if math.isfinite(o) else None
    if isinstance(o, dict):
        return {k: _finite(v) for k, v in o.items()}
    if isinstance(o, list | tuple):
        return [_finite(v) for v in o]
    return o


def metrics_json(payload: object, *, indent: int) -> str:
    """Valid JSON for a metrics payload: a non-finite number (the leakage of a zero-area gold region is
    infinite) becomes null, never the `NaN`/`Infinity` json.dumps would write."""
    return json.dumps(_finite(payload), ensure_ascii=False, indent=indent, allow_nan=False)


def fmt(v: object) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        if not math.isfinite(v):
            return "–"
        return f"{v:.1f}" if abs(v) >= 10 else f"{v:.3f}"
    return str(v)


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _md_table(header: list[str], rows: list[list[str]]) -> str:
    esc = [[c.replace("|", "\\|").replace("\n", " ") for c in r] for r in rows]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in esc]
    return "\n".join(lines)


def _curve_region(rs: Sequence[RegionQueryResult]) -> list[float]:
    return [sum(1 for r in rs if r.rank is not None and r.rank <= k) / len(rs) for k in CURVE_KS]


def _curve_chunk(rs: Sequence[ChunkQueryResult]) -> list[float]:
    return [
        sum(sum(1 for g in r.gold_ranks if g <= k) / max(r.n_gold, 1) for r in rs) / len(rs) for k in CURVE_KS
    ]


def _plots(out: Path, results: Sequence) -> list[str]:  # noqa: ANN001 - SystemResult list
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    ok = [r for r in results if not r.error]
    fig, ax = plt.subplots(figsize=(9.5, 4.8))
    colors = plt.cm.tab20.colors  # type: ignore[attr-defined]
    for i, r in enumerate(ok):
        ys = _curve_region(r.region) if r.region else _curve_chunk(r.chunk) if r.chunk else None
        if ys:
            baseline = not r.name.startswith("layoutrag")
            ax.plot(
                list(CURVE_KS),
                ys,
                marker=".",
                label=r.name,
                color=colors[i % len(colors)],
                linestyle="--" if baseline else "-",
            )
    ax.set_xlabel("k")
    ax.set_ylabel("hit@k (covering region)" if any(r.region for r in ok) else "recall@k (gold chunks)")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(out / "recall_at_k.png", dpi=110)
    plt.close(fig)
    written.append("recall_at_k.png")
    if any(r.region for r in ok):
        for attr, fname, xlabel, log in (
            ("leakage", "leakage.png", "leakage = area(hit boxes) / area(region), first covering hit", True),
            ("iou", "iou.png", "IoU(hit boxes, region), first covering hit", False),
        ):
            fig, ax = plt.subplots(figsize=(9.5, 4.2))
            keep = [r for r in ok if r.name in _DISTRIBUTION_SYSTEMS] or ok[:4]
            series = [
                (r.name, [getattr(q, attr) for q in r.region if getattr(q, attr) is not None]) for r in keep
            ]
            series = [(n, v) for n, v in series if v]
            if series:
                if log:
                    import numpy as np

                    lo = max(min(min(v) for _, v in series), 0.5)
                    hi = max(max(v) for _, v in series) * 1.05
                    bins: list[float] = np.geomspace(lo, max(hi, lo * 2), 30).tolist()
                    ax.set_xscale("log")
                else:
                    bins = [i / 20 for i in range(21)]
                ax.hist(
                    [v for _, v in series],
                    bins=bins,
                    label=[n for n, _ in series],
                    histtype="step",
                    linewidth=1.3,
                )
                ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
            ax.set_xlabel(xlabel)
            ax.set_ylabel("queries")
            ax.grid(alpha=0.3)
            fig.tight_layout()
            fig.savefig(out / fname, dpi=110)
            plt.close(fig)
            written.append(fname)
    return written


def _systems_table(results: Sequence, kind: str) -> str:  # noqa: ANN001
    cols = REGION_COLUMNS if kind == "region" else CHUNK_COLUMNS
    rows = []
    for r in results:
        if r.error:
            rows.append([r.name, f"error: {r.error}"] + [""] * (len(cols) + 1))
            continue
        m = r.metrics.get(kind)
        if m is None:
            continue
        rows.append([r.name, *[fmt(m.get(k)) for k, _ in cols], str(r.n_units), f"{r.seconds:.1f}"])
    return _md_table(["system", *[label for _, label in cols], "units", "s"], rows)


def _breakdown(results: Sequence, kind: str, attr: str) -> str:  # noqa: ANN001
    key = "hit@5" if kind == "region" else "recall@5"
    groups: list[str] = sorted(
        {g for r in results if kind in r.metrics for g in r.metrics[kind][f"by_{attr}"]}
    )
    rows = []
    for r in results:
        if kind not in r.metrics:
            continue
        by = r.metrics[kind][f"by_{attr}"]
        rows.append([r.name, *[fmt(by[g].get(key)) if g in by else "–" for g in groups]])
    n: dict[str, dict] = next((r.metrics[kind][f"by_{attr}"] for r in results if kind in r.metrics), {})
    return _md_table([f"{key} by {attr}", *[f"{g} (n={n[g]['n']})" if g in n else g for g in groups]], rows)


def _misses_region(r) -> str:  # noqa: ANN001
    rows = []
    for q in r.region:
        if q.rank is not None and q.rank <= 5:
            continue
        first = q.top[0] if q.top else None
        got = f"{first['doc']} p.{first['page']} {first['type']}: {first['text']}" if first else "(nothing)"
        found = f"rank {q.rank}" if q.rank else ("page found" if q.page_rank else "miss")
        rows.append([q.id, q.kind, q.query, f"{q.doc} p.{q.page}", found, got])
    if not rows:
        return "_No query missed the top 5._"
    return _md_table(["id", "kind", "query", "expected", "covering hit", "first result"], rows)


def _misses_chunk(r) -> str:  # noqa: ANN001
    rows = []
    for q in r.chunk:
        if q.rank is not None and q.rank <= 5:
            continue
        first = q.top[0] if q.top else None
        got = f"{first['chunk_id']}: {first['text']}" if first else "(nothing)"
        rows.append([q.id, q.query[:120], f"rank {q.rank}" if q.rank else "miss", got])
    if not rows:
        return "_No query missed the top 5._"
    return _md_table(["id", "question", "first gold", "first result"], rows)


def bar_verdict(results: Sequence) -> str:  # noqa: ANN001
    """The bar of the evaluation issue, stated plainly: layoutrag's hit@5 against the best baseline's,
    and its median leakage (≤ 2)."""
    ok = {r.name: r.metrics["region"] for r in results if not r.error and "region" in r.metrics}
    main = ok.get("layoutrag (fused)")
    baselines = {n: m for n, m in ok.items() if not n.startswith("layoutrag")}
    if main is None or not baselines:
        return ""
    best_name, best = max(baselines.items(), key=lambda kv: (kv[1].get("hit@5") or 0.0, kv[0]))
    h, hb, leak = main.get("hit@5") or 0.0, best.get("hit@5") or 0.0, main.get("leakage_median")
    met = h >= hb - 1e-9 and leak is not None and leak <= 2.0
    return (
        f"**Bar {'met' if met else 'NOT met'}:** layoutrag (fused) hit@5 {fmt(h)} vs the best baseline, "
        f"{best_name}, {fmt(hb)}; layoutrag's median leakage {fmt(leak)} (bar ≤ 2; the baseline's "
        f"{fmt(best.get('leakage_median'))})."
    )


def _top1_types(r) -> str:  # noqa: ANN001
    from collections import Counter

    types = Counter(q.top[0]["type"] for q in r.region if q.top)
    good = Counter(q.top[0]["type"] for q in r.region if q.top and q.rank == 1)
    rows = [[t, str(n), str(good[t])] for t, n in types.most_common()]
    return _md_table(["block type of the first result", "queries", "of which covering"], rows)


def write_report(out: Path, results: Sequence, *, meta: dict) -> Path:  # noqa: ANN001 - SystemResult list
    """Write DIR/report.md (+ plots and metrics.json); returns the report path."""
    out.mkdir(parents=True, exist_ok=True)
    commit = git_commit()
    plots = _plots(out, results)
    kinds = [k for k in ("region", "chunk") if any(k in r.metrics for r in results)]
    parts = [
        f"# layoutrag evaluation — {Path(str(meta.get('queries', ''))).name}",
        "",
        f"commit `{commit}` · {meta.get('n_queries')} queries · data `{meta.get('data')}` · "
        f"{meta.get('documents')} documents, {meta.get('chunks')} chunks · embedder `{meta.get('embedder')}` · "
        f"layout `{meta.get('layout_backend') or '–'}` · fusion `{meta.get('fusion')}`",
        "",
    ]
    for kind in kinds:
        parts += [f"## Systems side by side ({kind} gold)", "", _systems_table(results, kind), ""]
    verdict = bar_verdict(results)
    if verdict:
        parts += [verdict, ""]
    notes = [f"- **{r.name}**: {r.note}" for r in results if r.note]
    if notes:
        parts += ["System notes:", "", *notes, ""]
    if "region" in kinds:
        parts += [
            "Definitions: a hit *covers* a query when it is on the gold document and page and its boxes cover "
            "≥ 95 % of the gold region; hit@k = a covering hit within the top k; page@5 / doc@5 = a hit on "
            "the gold page / document in the top 5; answer@5 = a returned box holds the printed answer "
            f"(located for {meta.get('answers_located')} queries); leakage = area of the first covering "
            "hit's boxes / area of the region (1 = exactly the region); IoU of the same hit.",
            "",
        ]
    parts += ["## Curves and distributions", ""]
    parts += [f"![{p}]({p})" for p in plots] + [""]
    for kind in kinds:
        parts += [
            f"## Breakdown ({kind} gold)",
            "",
            _breakdown(results, kind, "kind"),
            "",
            _breakdown(results, kind, "lang"),
            "",
        ]
    main = next((r for r in results if not r.error), None)
    if main is not None and main.region:
        parts += [f"## What {main.name} returned first", "", _top1_types(main), ""]
    if main is not None:
        parts += [f"## Misses of {main.name} (no covering hit in the top 5)", ""]
        if main.region:
            parts += [_misses_region(main), ""]
        if main.chunk:
            parts += [_misses_chunk(main), ""]
    if meta.get("unresolved_docs"):
        parts += ["Gold documents not found in the index: " + ", ".join(meta["unresolved_docs"]), ""]
    path = out / "report.md"
    atomic_write_text(path, "\n".join(parts))
    payload = {
        "meta": {**meta, "commit": commit},
        "systems": {
            r.name: {
                "metrics": r.metrics,
                "error": r.error,
                "units": r.n_units,
                "seconds": r.seconds,
                "note": r.note,
            }
            for r in results
        },
    }
    atomic_write_text(out / "metrics.json", metrics_json(payload, indent=1))
    return path
