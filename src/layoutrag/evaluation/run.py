"""`layoutrag eval`: score the live index against a query file (and with `--compare`, the baselines
and ablations of :mod:`layoutrag.evaluation.systems`), print or write the report.

Above `harness` (queries, scoring) and `systems` (what is compared); neither imports this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from layoutrag.config import Settings
from layoutrag.errors import LayoutragError
from layoutrag.evaluation.harness import RegionQuery, SystemResult, evaluate, load_queries, locate_answers
from layoutrag.storage import DataDir

__all__ = ["print_summary", "run_eval_cli"]


def run_eval_cli(
    queries: Path,
    data_root: Path,
    *,
    as_json: bool,
    report: Path | None,
    compare: bool,
    pdfs: Path | None,
    console,  # rich.console.Console
    settings: Settings,
    fusion: str | None = None,
) -> list[SystemResult]:
    """`layoutrag eval`: score the live index (and with `compare`, the baselines and ablations)."""
    from layoutrag.evaluation.systems import EvalContext, compare_systems, main_systems

    s = settings
    qs = load_queries(queries)
    ctx = EvalContext.open(DataDir(data_root), settings=s, pdfs=pdfs, console=None if as_json else console)
    region_qs = [q for q in qs if isinstance(q, RegionQuery)]
    answers = locate_answers(region_qs, ctx.pdf_for_doc) if region_qs else {}
    unresolved = sorted(
        {q.doc for q in region_qs if q.doc not in ctx.doc_ids and q.doc not in ctx.index.cards}
    )
    systems = main_systems(ctx, fusion)
    if compare:
        systems += compare_systems(ctx, need_documents=bool(region_qs))
    results: list[SystemResult] = []
    for sys_ in systems:
        if not as_json:
            console.print(f"[dim]evaluating {sys_.name} …[/dim]")
        try:
            search = sys_.make()
            r = evaluate(
                qs,
                search,
                doc_ids=ctx.doc_ids,
                answer_boxes=answers,
                name=sys_.name,
                file_names=ctx.file_names,
            )
            r.n_units = sys_.n_units()
        except LayoutragError as e:
            r = SystemResult(name=sys_.name, error=str(e).splitlines()[0] if str(e) else type(e).__name__)
        r.note = sys_.note
        results.append(r)
    meta = {
        "queries": str(queries),
        "n_queries": len(qs),
        "data": str(data_root),
        "unresolved_docs": unresolved,
        "answers_located": len(answers),
        **ctx.describe(),
    }
    if report is not None:
        from layoutrag.evaluation.report import write_report

        path = write_report(Path(report), results, meta=meta)
        if not as_json:
            console.print(f"wrote {path}")
    if as_json:
        payload = {
            "meta": meta,
            "systems": {r.name: (r.metrics if not r.error else {"error": r.error}) for r in results},
        }
        from layoutrag.evaluation.report import metrics_json

        print(metrics_json(payload, indent=2))
    else:
        print_summary(results, console=console, meta=meta)
    return results


def print_summary(results: Sequence[SystemResult], *, console, meta: dict) -> None:
    from rich.table import Table

    from layoutrag.evaluation.report import CHUNK_COLUMNS, CONSOLE_REGION_COLUMNS, fmt

    for kind, cols in (("region", CONSOLE_REGION_COLUMNS), ("chunk", CHUNK_COLUMNS)):
        rows = [r for r in results if kind in r.metrics or r.error]
        if not any(kind in r.metrics for r in rows):
            continue
        t = Table(title=f"{kind} gold · {meta['n_queries']} queries", show_lines=False)
        t.add_column("system", overflow="fold", min_width=18)
        for _, label in cols:
            t.add_column(label, justify="right")
        for r in rows:
            if r.error:
                t.add_row(r.name, f"[red]{r.error}[/red]", *[""] * (len(cols) - 1))
                continue
            m = r.metrics[kind]
            t.add_row(r.name, *[fmt(m.get(key)) for key, _ in cols])
        console.print(t)
    if meta.get("unresolved_docs"):
        console.print(
            f"[yellow]{len(meta['unresolved_docs'])} gold documents not in the index[/yellow]: "
            + ", ".join(meta["unresolved_docs"][:5])
        )
