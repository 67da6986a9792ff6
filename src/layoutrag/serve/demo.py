"""`layoutrag demo`: sample datasheets → ingest → index → serve, in one command.

Every step reuses what the data dir already holds: the generated corpus is kept with a small
marker (n, seed), ingestion skips documents whose artifacts are current, and the index is rebuilt
only when something was ingested or no index exists — so a second run starts in seconds.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from layoutrag.config import Settings, load_settings
from layoutrag.errors import DocumentError
from layoutrag.storage import DataDir, atomic_write_json

__all__ = ["prepare_demo", "run_demo"]

SEED = 0
MARKER = ".layoutrag-samples.json"


def _samples_current(out: Path, n: int) -> bool:
    marker = out / MARKER
    if not marker.is_file():
        return False
    try:
        meta = json.loads(marker.read_text(encoding="utf-8"))
    except ValueError:
        return False
    return meta == {"n": n, "seed": SEED} and len(list(out.glob("*.pdf"))) >= 1


def prepare_demo(data_root: Path, *, n: int, console: Console, settings: Settings | None = None) -> Path:
    """Make sure the samples exist, are ingested and indexed; return the samples folder."""
    settings = settings or load_settings()
    from layoutrag.build import ingest_and_chunk, reindex
    from layoutrag.samples.generator import generate_corpus

    data = DataDir(data_root)
    out = data.root / "samples"
    t0 = time.perf_counter()
    if _samples_current(out, n):
        console.print(f"[dim]samples: reusing {escape(str(out))}[/dim]")
    else:
        console.print(f"generating {n} sample datasheets into {escape(str(out))} …")
        summary = generate_corpus(out, n=n, seed=SEED)
        atomic_write_json(out / MARKER, {"n": n, "seed": SEED})
        console.print(f"[dim]{summary}[/dim]")
    pdfs = sorted(out.glob("*.pdf"))
    if not pdfs:
        raise DocumentError(f"the sample generator wrote no PDFs into {out}")
    results = ingest_and_chunk(pdfs, data.root, settings=settings, progress=True)
    failed = [r for r in results if r.status == "failed"]
    for r in failed:
        console.print(f"[red]failed[/red] {escape(f'{r.path}: {r.error}')}", highlight=False)
    ingested = sum(r.status == "ok" for r in results)
    has_index = (data.index / "CURRENT").is_file()
    if ingested or not has_index:
        reindex(data.root, settings=settings, progress=True)
    else:
        console.print("[dim]index: current[/dim]")
    console.print(
        f"demo ready in {time.perf_counter() - t0:.1f}s: {len(pdfs)} datasheets, "
        f"{ingested} newly ingested, {len(failed)} failed"
    )
    return out


def run_demo(
    data_root: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    n: int = 12,
    serve: bool = True,
    console: Console | None = None,
    settings: Settings | None = None,
) -> None:
    console = console or Console()
    settings = settings or load_settings()
    prepare_demo(Path(data_root), n=n, console=console, settings=settings)
    if not serve:
        return
    from layoutrag.serve.api import run_server

    run_server(Path(data_root), host=host, port=port, settings=settings, ready=f"open http://{host}:{port}/  (Ctrl-C to stop)")
