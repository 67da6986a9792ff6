"""Screenshots of the web UI's Parts (parametric filter table) and Compare pages for the docs.

    python tools/ui_screenshots.py --data DEMO_DATA [--out docs/img]

DEMO_DATA: a data dir `layoutrag demo --no-serve --data DEMO_DATA` made (the generated sample
datasheets: no vendor's page is published in the repo). Runs a real `layoutrag serve` app on a free
loopback port and Debian's Chromium via Playwright, as tests/test_browser.py does, and writes
parts.png (the filter table of a query), parts-cell.png (one of its values opened in the page
viewer, the cell highlighted) and compare.png (two of the parts, parameters as rows).
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import uvicorn

from layoutrag.serve.api import create_app

CHROMIUM = "/usr/bin/chromium"
WHERE = "operating temperature = -40 to 85"
QUERY = "crystal ESR below 100 ohm, load capacitance 8 to 20 pF"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_images(page) -> None:  # noqa: ANN001 - a Playwright page
    page.wait_for_function(
        "() => [...document.querySelectorAll('.page-frame img')].every(i => i.complete && i.naturalWidth > 0)"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--out", type=Path, default=Path("docs/img"))
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(args.data), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        res = httpx.get(f"{url}/api/specs", params={"where": WHERE, "q": QUERY}, timeout=60).json()
        parts: list[str] = []
        docs: set[str] = set()
        for r in res["results"]:  # one part per document: a comparison of two families
            if r["doc_id"] not in docs and len(parts) < 3:
                docs.add(r["doc_id"])
                parts.append(r["part"])
        if len(parts) < 2:
            print(f"error: the query finds {len(parts)} part(s) in {args.data}: not the demo data?", file=sys.stderr)
            return 1
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{url}/#/specs?where={quote(WHERE)}&q={quote(QUERY)}")
            page.wait_for_selector("#spec-table a.speccell")
            page.screenshot(path=str(args.out / "parts.png"))
            page.locator("#spec-table a.speccell").first.click()
            page.wait_for_selector("rect.cell")
            _wait_images(page)
            page.locator("rect.cell").first.scroll_into_view_if_needed()
            page.screenshot(path=str(args.out / "parts-cell.png"))
            page.goto(f"{url}/#/compare")
            page.wait_for_selector("#cmp-parts")
            page.fill("#cmp-parts", ", ".join(parts))
            page.press("#cmp-parts", "Enter")
            page.wait_for_selector("#cmp-table a.speccell")
            page.screenshot(path=str(args.out / "compare.png"), full_page=False)
            browser.close()
    finally:
        server.should_exit = True
    for name in ("parts.png", "parts-cell.png", "compare.png"):
        print(args.out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
