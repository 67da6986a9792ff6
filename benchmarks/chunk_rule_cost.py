"""What a chunking rule costs in time: the chunk stage (grouping, table rows, cards, chunks; no
evidence images, nothing written) run over every ingested document of DATA with the rule on and
off, alternating, each pass timed by the process's CPU seconds and the wall clock.

    python benchmarks/chunk_rule_cost.py DATA --rule ruled_rows_read [--passes 2] [--only NAME ...]

Prints a table: per pass and setting the seconds, and the ratio on / off of the summed CPU time.
``--only``: documents whose file name holds one of these strings (e.g. the table-heavy ones)."""

from __future__ import annotations

import argparse
import time

from layoutrag.chunking.pipeline import build_doc_chunks
from layoutrag.chunking.rules import RULES, disabled
from layoutrag.config import Settings
from layoutrag.records import Document
from layoutrag.storage import DataDir


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data")
    ap.add_argument("--rule", required=True, choices=sorted(RULES))
    ap.add_argument("--passes", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=[])
    a = ap.parse_args()
    data, settings = DataDir(a.data), Settings()
    docs = []
    for doc_id in sorted(data.doc_ids()):
        doc = Document.model_validate_json(data.document_json(doc_id).read_text(encoding="utf-8"))
        if not a.only or any(s in doc.file_name for s in a.only):
            docs.append(doc)
    pages = sum(len(d.pages) for d in docs)
    print(f"{len(docs)} documents, {pages} pages; rule {a.rule}\n")
    print("| pass | rule | CPU s | wall s |\n|---:|---|---:|---:|")
    cpu = {True: 0.0, False: 0.0}
    for p in range(1, a.passes + 1):
        for on in (False, True):
            c0, w0 = time.process_time(), time.perf_counter()
            for doc in docs:
                if on:
                    build_doc_chunks(doc, settings, data=data)
                else:
                    with disabled(a.rule):
                        build_doc_chunks(doc, settings, data=data)
            c, w = time.process_time() - c0, time.perf_counter() - w0
            cpu[on] += c
            print(f"| {p} | {'on' if on else 'off'} | {c:.1f} | {w:.1f} |", flush=True)
    print(f"\nCPU on / off: {cpu[True] / cpu[False]:.2f}")


if __name__ == "__main__":
    main()
