"""Product types of a data dir's documents against hand-written gold (the document card's type).

    python benchmarks/product_types.py DATA_DIR [--gold benchmarks/data/product_types_gold.tsv] [-v]

Each chunked document's type is worked out again in memory by the current code
(`chunking.card._doc_product_type` over the stored ``document.json``, with the stored card's title),
so a change of ``data/product_types.tsv`` is measured without re-chunking. Prints accuracy over the
documents the gold names (a "?" there is left out), the stored cards' accuracy beside it, and with
``-v`` every document whose type is wrong.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from layoutrag.chunking import card as card_mod
from layoutrag.records import DocChunks, Document
from layoutrag.storage import DataDir


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--gold", type=Path, default=Path(__file__).parent / "data" / "product_types_gold.tsv")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    gold = {}
    for line in a.gold.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, kind = line.split("\t")
            gold[name] = kind
    data = DataDir(a.data)
    n = now_ok = stored_ok = 0
    wrong: list[tuple[str, str, str, str]] = []
    for doc_id in data.doc_ids():
        if not data.chunks_json(doc_id).exists() or not data.document_json(doc_id).exists():
            continue
        dc = DocChunks.model_validate_json(data.chunks_json(doc_id).read_text(encoding="utf-8"))
        want = gold.get(dc.card.file_name)
        if want is None or want == "?":
            continue
        doc = Document.model_validate_json(data.document_json(doc_id).read_text(encoding="utf-8"))
        now = card_mod._doc_product_type(doc, dc.card.title, card_mod._title_block_text(doc))
        n += 1
        now_ok += now == want
        stored_ok += dc.card.product_type == want
        if now != want:
            wrong.append((dc.card.file_name, want, now, dc.card.product_type))
    print(f"{n} documents with a gold type: current code {now_ok} right ({now_ok / max(n, 1):.3f}), "
          f"stored cards {stored_ok} right ({stored_ok / max(n, 1):.3f})")
    if a.v:
        for name, want, now, stored in sorted(wrong):
            print(f"  {name[:55]:55s} gold {want!r:24s} now {now!r:24s} stored {stored!r}")


if __name__ == "__main__":
    main()
