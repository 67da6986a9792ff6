"""The static site in a real browser: data size and query time at 1k / 10k chunks.

    .venv/bin/python benchmarks/site_speed.py --data layoutrag-data [--sizes 1000,10000] [--work DIR]

The corpus replicates the data dir's chunks (the sample corpus of `layoutrag demo`) the way
benchmarks/search_speed.py does: replica r of a chunk gets a new doc id, one changed digit and a
`rev{r}` word, its card's part numbers a replica suffix. Each size is indexed (BM25 only) and exported
as a site (no images), opened in Chromium (Debian's /usr/bin/chromium, headless, via Playwright) from
its file:// URL, and every query of a fixed mix is timed in the page (`performance.now()` around the
site's search): its first run (cold: nothing of it cached, JIT still warming) and `--repeat` runs
after it - the time a user waits between Enter and the hits, without
drawing them. Load = from navigation to the decoded index (gunzip + parse). Prints a table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_speed import QUERIES, pct, replica, replica_cards  # noqa: E402

from layoutrag.index.hybrid import HybridIndex  # noqa: E402
from layoutrag.service import LayoutRAG  # noqa: E402
from layoutrag.site.export import collect, write_site  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def build_site(data: Path, n: int, out: Path) -> tuple[int, dict[str, int], HybridIndex]:
    svc = LayoutRAG(data)
    base = list(svc._index.chunks)
    cards = svc._index.cards
    chunks = [replica(base[i % len(base)], i // len(base)) for i in range(n)]
    n_rep = -(-n // len(base))
    idx = HybridIndex.build(chunks, replica_cards(cards, n_rep), dense=False, settings=svc.settings)
    report = write_site(collect(idx, examples=QUERIES[:3]), out, page_images=False)
    return len(chunks), report.sizes, idx


def measure(url: str, repeat: int) -> tuple[float, list[float]]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = b.new_page()
        t0 = time.perf_counter()
        page.goto(url)
        page.wait_for_function("() => window.layoutrag && window.layoutrag.ready")
        page.evaluate("() => window.layoutrag.ready")
        load = (time.perf_counter() - t0) * 1000
        cold, warm = page.evaluate(
            """([qs, repeat]) => {
                const cold = [], warm = [];
                for (const q of qs) {
                    cold.push(window.layoutrag.time(q, 15));  // the first run: nothing cached yet
                    for (let i = 0; i < repeat; i++) warm.push(window.layoutrag.time(q, 15));
                }
                return [cold, warm];
            }""",
            [QUERIES, repeat],
        )
        b.close()
    return load, cold, warm


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=Path("layoutrag-data"))
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--work", type=Path, default=None)
    a = ap.parse_args()
    work = a.work or Path(tempfile.mkdtemp(prefix="site-speed-"))
    rows = []
    for n in (int(s) for s in a.sizes.split(",")):
        out = work / f"site-{n}"
        n_chunks, sizes, idx = build_site(a.data, n, out)
        parts = sizes["data: index"] + sizes["data: vocab"] + sizes["data: chunks"]
        load, cold, times = measure((out / "index.html").resolve().as_uri(), a.repeat)
        py = []
        for q in QUERIES:
            idx.search(q, mode="bm25")
            t0 = time.perf_counter()
            idx.search(q, mode="bm25")
            py.append((time.perf_counter() - t0) * 1000)
        idx_b = sizes["data: index"] + sizes["data: vocab"]
        rows.append((n_chunks, idx_b, sizes["data: chunks"], parts, load, cold, times, py))
        print(f"  {n_chunks} chunks: site in {out}", file=sys.stderr)
    print(
        f"Chromium (headless, /usr/bin/chromium), file:// URL, {len(QUERIES)} queries, {a.repeat} repeats, top 15"
    )
    print()
    print(
        "| chunks | index + vocab (gz+b64) | chunk records (gz+b64) | MB per 1,000 chunks | load "
        "| first run median / max | repeated median / p95 / max | Python bm25 median |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for n, idx_b, ch_b, parts, load, c, t, py in rows:
        print(
            f"| {n:,} | {idx_b / 1e6:.2f} MB | {ch_b / 1e6:.2f} MB | {parts / n * 1000 / 1e6:.2f} | {load:.0f} ms "
            f"| {statistics.median(c):.1f} / {max(c):.1f} ms "
            f"| {statistics.median(t):.1f} / {pct(t, 95):.1f} / {max(t):.1f} ms | {statistics.median(py):.1f} ms |"
        )


if __name__ == "__main__":
    main()
