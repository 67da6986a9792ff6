"""`layoutrag import-chunks FILE.jsonl`: index chunk records made elsewhere.

Each line is one JSON object with evidence-package field names; `chunk_id`, `doc_id` and `page` are
required, every other field is optional, and fields the record does not know (query-time scores,
a foreign system's extras) are ignored. A bad line is reported with its line number and skipped;
the rest is imported. Imported chunks are stored durably per document in
``DATA/imported/{doc_id}.json`` (a `DocChunks`, like an ingested document's chunks.json, with a
card derived from the chunks); `layoutrag.build.import_chunks` then rebuilds the index.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path, PurePath

from pydantic import ValidationError

from layoutrag.chunking.card import product_type_in
from layoutrag.errors import InputError, NotFoundError
from layoutrag.index.tokenizer import WORD_RE, cased_text, is_part_like, normalize_text
from layoutrag.records import Chunk, DocChunks, DocumentCard
from layoutrag.specs import parse_unit
from layoutrag.storage import ID_RE, DataDir, atomic_write_json

__all__ = ["IMPORTED_KEY", "derive_card", "import_chunks_file", "parse_chunk_lines"]

IMPORTED_KEY = "imported"
_REQUIRED = ("chunk_id", "doc_id", "page")
_FIELDS = set(Chunk.model_fields)


def parse_chunk_lines(lines: list[str]) -> tuple[list[Chunk], list[tuple[int, str]]]:
    """Valid chunks and (line number, reason) for every bad line. Blank lines are skipped silently."""
    chunks: dict[str, Chunk] = {}
    problems: list[tuple[int, str]] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            problems.append((n, f"not JSON ({getattr(e, 'msg', e)})"))
            continue
        if not isinstance(obj, dict):
            problems.append((n, "not a JSON object"))
            continue
        missing = [f for f in _REQUIRED if obj.get(f) in (None, "")]
        if missing:
            problems.append((n, f"missing required field(s): {', '.join(missing)}"))
            continue
        bad_id = next((f for f in ("chunk_id", "doc_id") if not _valid_id(obj[f])), None)
        if bad_id:
            problems.append((n, f"invalid {bad_id}: {str(obj[bad_id])[:60]!r}"))
            continue
        try:
            chunk = Chunk.model_validate({k: v for k, v in obj.items() if k in _FIELDS})
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(p) for p in err.get("loc", ()))
            problems.append((n, f"invalid field {where}: {err.get('msg', 'bad value')}"))
            continue
        if chunk.chunk_id in chunks:
            problems.append((n, f"duplicate chunk_id {chunk.chunk_id} (the later line wins)"))
        chunks[chunk.chunk_id] = chunk
    return list(chunks.values()), problems


def _valid_id(value: object) -> bool:
    return isinstance(value, str) and bool(ID_RE.match(value)) and ".." not in value


def derive_card(doc_id: str, chunks: list[Chunk]) -> DocumentCard:
    """A card from the chunks alone: title = the most common toc-path root, series = part-like codes
    in the title, part numbers = part-like codes in keywords and text that recur in the document."""
    roots = Counter(c.toc_path.split(" > ")[0].strip() for c in chunks if c.toc_path.strip())
    title = roots.most_common(1)[0][0] if roots else ""
    printed: dict[str, str] = {}  # a code as matched (lower case) -> as first printed ("7N-26.000MBP-T")
    series = [c for c in _codes(title, printed) if not _quantity(c)]  # "32.768khz" in a title is no series
    # "TXC 6U Series VCXO": the name printed before "Series" names the series, however short
    m = _SERIES_RE.search(title)
    if m and normalize_text(m.group(1)) not in series:
        series.append(normalize_text(m.group(1)))
        printed.setdefault(series[-1], m.group(1))
    seen: Counter[str] = Counter()
    for c in chunks:
        seen.update(set(_codes(" ".join(c.keywords), printed) + _codes(c.native_text, printed)))
    parts = [code for code, n in seen.most_common() if code not in series and (n >= 2 or len(chunks) == 1)][
        :50
    ]
    series = [printed.get(s, s) for s in series]
    parts = [printed.get(p, p) for p in parts]
    src = next((c.source_pdf for c in chunks if c.source_pdf), "")
    return DocumentCard(
        doc_id=doc_id,
        file_name=PurePath(src).name if src else "",
        title=title,
        vendor=title.split()[0] if title.split() and title.split()[0].isupper() else "",
        series=series,
        part_numbers=sorted(parts),
        # the type the title names ("TXC 7L Series TCXO"), as an ingested document's card reads its title first
        # (data/product_types.tsv), so parametric search and its --type filter reach imported documents too
        product_type=product_type_in(title) if title else "",
    )


_SERIES_RE = re.compile(r"\b([A-Z0-9][A-Z0-9-]{1,11})\s+Series\b")
# a number with a unit ("32.768khz", "50ohm", "8.0x3.0mm", "0.3vdd") is a quantity, not a part code
_QUANTITY_RE = re.compile(r"[-+]?\d+(?:\.\d+)?(?:x\d+(?:\.\d+)?)*([a-z%°µ/]+)")


def _quantity(word: str) -> bool:
    m = _QUANTITY_RE.fullmatch(word)
    return m is not None and (parse_unit(m.group(1)) is not None or m.group(1) in ("vdd", "vcc"))


def _codes(text: str, printed: dict[str, str] | None = None) -> list[str]:
    """The part-like words of `text`, as matched (`normalize_text`, lower case); `printed` collects each one's
    printed form (the case the document prints it in) where the text lower-cases letter for letter."""
    out: list[str] = []
    norm = normalize_text(text)
    upper = cased_text(text)
    same = printed is not None and len(upper) == len(norm)
    for m in WORD_RE.finditer(norm):
        w = m.group()
        if is_part_like(w) and w not in out:
            out.append(w)
            if same and printed is not None:
                printed.setdefault(w, upper[m.start() : m.end()])
    return out


def import_chunks_file(
    file: Path, data_root: Path, *, progress: bool = False
) -> tuple[int, list[tuple[int, str]]]:
    """Import a JSONL of chunk records and store them per document (the orchestrator,
    `layoutrag.build.import_chunks`, rebuilds the index).
    Returns (number of chunks imported, [(line number, reason)] for skipped lines)."""
    file = Path(file)
    if not file.is_file():
        raise NotFoundError(f"no such file: {file}")
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{file.name} is not UTF-8 text") from None
    chunks, problems = parse_chunk_lines(text.splitlines())
    data = DataDir(data_root)
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c)
    for doc_id, doc_chunks in by_doc.items():
        path = data.imported / f"{doc_id}.json"
        if path.exists():  # a re-import of a document merges with what is there (same id replaces)
            old = DocChunks.model_validate_json(path.read_text(encoding="utf-8")).chunks
            new_ids = {c.chunk_id for c in doc_chunks}
            doc_chunks = [c for c in old if c.chunk_id not in new_ids] + doc_chunks
        doc_chunks.sort(key=lambda c: (c.page, c.chunk_id))
        record = DocChunks(key=IMPORTED_KEY, card=derive_card(doc_id, doc_chunks), chunks=doc_chunks)
        atomic_write_json(path, record)
    return len(chunks), problems
