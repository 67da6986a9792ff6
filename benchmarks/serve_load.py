"""Load test: N searches from C concurrent clients against a real `layoutrag serve` on 127.0.0.1.

    .venv/bin/python benchmarks/serve_load.py [--data DIR] [--requests 2000] [--concurrency 20]

Without --data it generates and ingests a small sample corpus (the demo's path) into a temp dir.
Queries cycle through the corpus' region queries (English and Chinese). Bounded: stops issuing
requests after --budget seconds. Prints a Markdown table; exits 1 when any request failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from rich.console import Console


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _queries(data: Path, base: str) -> list[str]:
    qfile = data / "samples" / "queries.jsonl"
    if qfile.is_file():
        qs = [
            json.loads(line)["query"]
            for line in qfile.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        if qs:
            return qs
    return httpx.get(f"{base}/api/info", timeout=60).json()["examples"] or ["frequency"]


def _pct(sorted_ms: list[float], p: float) -> float:
    if not sorted_ms:
        return float("nan")
    i = min(len(sorted_ms) - 1, max(0, round(p / 100 * (len(sorted_ms) - 1))))
    return sorted_ms[i]


async def _load(base: str, queries: list[str], n: int, concurrency: int, k: int, budget_s: float) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    next_i = 0
    deadline = time.monotonic() + budget_s

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal next_i
        while next_i < n and time.monotonic() < deadline:
            i = next_i
            next_i += 1
            t0 = time.perf_counter()
            try:
                r = await client.get("/api/search", params={"q": queries[i % len(queries)], "k": k})
                ok = r.status_code == 200 and isinstance(r.json().get("hits"), list)
                if not ok:
                    errors.append(f"HTTP {r.status_code}")
            except httpx.HTTPError as e:
                errors.append(type(e).__name__)
                continue
            latencies.append((time.perf_counter() - t0) * 1000)

    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    t0 = time.perf_counter()
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
    return {"latencies": latencies, "errors": errors, "elapsed": time.perf_counter() - t0, "issued": next_i}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, default=20)
    ap.add_argument("--k", type=int, default=15)
    ap.add_argument(
        "--budget", type=float, default=600.0, help="stop issuing requests after this many seconds"
    )
    ap.add_argument("--sequential", type=int, default=50, help="searches from one client first (baseline)")
    ap.add_argument("--n-docs", type=int, default=4, help="sample datasheets when --data is not given")
    args = ap.parse_args()
    console = Console(stderr=True)

    tmp = None
    data = args.data
    if data is None:
        from layoutrag.serve.demo import prepare_demo

        tmp = tempfile.TemporaryDirectory(prefix="layoutrag-load-")
        data = Path(tmp.name)
        prepare_demo(data, n=args.n_docs, console=console)

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "layoutrag.cli", "serve", "--data", str(data), "--port", str(port)]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ))
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                err = server.stderr.read().decode(errors="replace") if server.stderr else ""
                console.print(f"[red]server did not start[/red]: {err[-500:]}")
                return 1
            time.sleep(0.2)
        queries = _queries(data, base)
        t0 = time.perf_counter()
        warm = httpx.get(f"{base}/api/search", params={"q": queries[0], "k": args.k}, timeout=300)
        warm_ms = (time.perf_counter() - t0) * 1000
        if warm.status_code != 200:
            console.print(f"[red]warm-up search failed[/red]: HTTP {warm.status_code} {warm.text[:200]}")
            return 1
        # one client first: the per-search cost without queueing, to read the concurrent numbers against
        seq = asyncio.run(_load(base, queries, args.sequential, 1, args.k, args.budget / 4))
        load_avg = os.getloadavg()[0]
        res = asyncio.run(_load(base, queries, args.requests, args.concurrency, args.k, args.budget))
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        if tmp is not None:
            tmp.cleanup()

    n_docs = len(list((data / "docs").glob("*/chunks.json"))) if tmp is None else args.n_docs
    print(
        f"serve load: k={args.k}, {len(queries)} distinct queries, {n_docs} documents, 127.0.0.1, "
        f"{os.cpu_count()} CPUs, load average {load_avg:.1f} when the run started"
    )
    print()
    print("| clients | requests | errors | p50 ms | p95 ms | p99 ms | max ms | mean ms | req/s |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for clients, r in ((1, seq), (args.concurrency, res)):
        lat = sorted(r["latencies"])
        mean = statistics.fmean(lat) if lat else float("nan")
        print(
            f"| {clients} | {r['issued']} | {len(r['errors'])} | {_pct(lat, 50):.1f} | {_pct(lat, 95):.1f} "
            f"| {_pct(lat, 99):.1f} | {lat[-1] if lat else float('nan'):.1f} | {mean:.1f} "
            f"| {len(lat) / r['elapsed']:.1f} |"
        )
    print(f"\nfirst search after start (index load + warm-up): {warm_ms:.0f} ms")
    if res["issued"] < args.requests:
        print(f"\nstopped after the {args.budget:.0f} s budget: {res['issued']} of {args.requests} issued")
    errors = seq["errors"] + res["errors"]
    if errors:
        print(f"\nerrors: {sorted(set(errors))[:5]}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
