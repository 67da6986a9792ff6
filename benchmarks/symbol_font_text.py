"""What the text layer's font reading changes: per PDF, the text lines read differently.

    python benchmarks/symbol_font_text.py PDF_DIR [--examples 2]

For every PDF in PDF_DIR, every page's lines that `layoutrag.pdf.symbol_font_lines` reads differently
from what PyMuPDF gives (a Symbol font's codes read as the characters it draws), and how many of those
lines `extract_words` leaves as given because the line's words are not its characters in order.
Prints a table (document, lines changed, lines left as given, examples) and the totals; then a second
table: the lines `layoutrag.pdf.glyph_number_lines` reads through the standard glyph order (a font
giving glyph numbers, text layer v4), per PDF, with examples of what they read.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pymupdf

from layoutrag.pdf import glyph_number_lines, symbol_font_lines, text_page


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdfs", type=Path)
    ap.add_argument("--examples", type=int, default=2)
    a = ap.parse_args()
    total = kept = docs = 0
    print("| document | lines read differently | left as given | examples |\n|---|---|---|---|")
    for path in sorted(a.pdfs.glob("*.pdf")):
        changed = skipped = 0
        examples: list[str] = []
        with pymupdf.open(path) as doc:
            for page in doc:
                tp = text_page(page)
                fixed = symbol_font_lines(page, tp)
                if not fixed:
                    continue
                by_line: dict[tuple[int, int], str] = {}
                for w in page.get_text("words", sort=False, textpage=tp):
                    by_line[(w[5], w[6])] = by_line.get((w[5], w[6]), "") + w[4]
                for key, pairs in fixed.items():
                    if "".join(c for c, _ in pairs) != by_line.get(key, ""):
                        skipped += 1
                        continue
                    changed += 1
                    if len(examples) < a.examples:
                        examples.append(f"`{''.join(c for c, _ in pairs)[:30]}` → `{''.join(r for _, r in pairs)[:30]}`")
        if changed or skipped:
            docs += 1
            total += changed
            kept += skipped
            print(f"| {path.name[:50]} | {changed} | {skipped} | {'; '.join(examples)} |")
    print(f"\n{docs} PDFs: {total} lines read differently, {kept} left as given")
    print("\n| document | lines read through the standard glyph order | examples |\n|---|---|---|")
    total = docs = 0
    for path in sorted(a.pdfs.glob("*.pdf")):
        n = 0
        examples = []
        with pymupdf.open(path) as doc:
            for page in doc:
                for words in glyph_number_lines(page, text_page(page)).values():
                    n += 1
                    if len(examples) < a.examples and words:
                        examples.append(f"`{' '.join(t for t, _ in words)[:40]}`")
        if n:
            docs += 1
            total += n
            print(f"| {path.name[:50]} | {n} | {'; '.join(examples)} |")
    print(f"\n{docs} PDFs: {total} lines read through the standard glyph order")


if __name__ == "__main__":
    main()
