"""`layoutrag export-site`: a data dir's live index as a static site that searches in the browser.

The site works from file:// and from any static host: no server, no request outside its folder.

    SITE/index.html            the page (the UI, style and scripts are inlined or next to it)
    SITE/site.js               tokenizer.js + search.js + app.js (plain ES modules, bundled into one
                               classic script: Chromium refuses module scripts from file://)
    SITE/style.css             the web UI's style (serve/static/style.css) plus the site's
    SITE/data/site-data.js     `window.LAYOUTRAG_SITE = {meta, index, vocab, chunks, glossary}`: the BM25
                               weights, vocabulary, chunk records and glossary, each gzip + base64 (a classic script,
                               because file:// pages cannot fetch()); DecompressionStream unpacks them
    SITE/pages/{doc}/p{n}.webp page images (~100 dpi) for the page viewer
    SITE/evidence/{chunk}.webp evidence images of the example queries' hits (or all, or none)

Only the lexical path travels: the same BM25 weights the Python index holds (float32), the
part-aware tokenizer and the zh<->en glossary, so the browser ranks exactly as
`HybridIndex.search(q, mode="bm25")` with the default options: a scenario question
(`index/base.is_scenario_question`) is scored with `bm25_b_long` (weights the page derives from the
exported term counts and chunk lengths, float32 step by step as numpy does), and a unit spanning
pages is returned at the page of its best-matching row, its other part a companion (the focus page,
`index/base.focus_page`, `index/hits.split_at_page`; the page tokenizes each document's card text).
Dense retrieval and fusion need the embedder and stay behind.

Index layout (little endian): u32 n_terms, u32 n_postings, u32 n_lengths, u32 indptr[n_terms + 1],
f32 weights[n_postings], then per term the gaps between its sorted chunk numbers as LEB128 varints;
when `bm25_b_long` differs from `bm25_b` (n_lengths = the number of chunks, else 0) the term count of
each posting as a LEB128 varint and f32 chunk lengths[n_lengths] follow.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
import shutil
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from layoutrag.index import base as index_base
from layoutrag.index.candidates import row_aka
from layoutrag.index.glossary import load_glossary
from layoutrag.index.hybrid import RUN_DEPTH, HybridIndex
from layoutrag.index.options import SearchOptions
from layoutrag.records import Chunk, DocumentCard
from layoutrag.specs import parameter_name_table

__all__ = [
    "STATIC",
    "ImageMode",
    "SiteData",
    "SiteReport",
    "bundle_js",
    "collect",
    "export_site",
    "parity_hits",
    "write_site",
]

STATIC = Path(__file__).resolve().parent / "static"
SERVE_STATIC = Path(__file__).resolve().parent.parent / "serve" / "static"
MODULES = ("tokenizer", "search", "app")  # dependency order
PAGE_DPI = 100
WEBP_QUALITY = 70
EXAMPLE_IMAGE_HITS = 5  # evidence images for the top hits (and their companions) of each example query
ImageMode = Literal["examples", "all", "none"]
CHUNK_FIELDS = (
    "chunk_id",
    "doc_id",
    "source_pdf",
    "page",
    "bboxes_pdf",
    "regions",
    "page_size_pt",
    "block_type",
    "section_title",
    "toc_path",
    "native_text",
    "description",
    "keywords",
    "rows",
    "header",
)


@dataclass
class SiteData:
    """What the site carries, before it is written: meta (settings, glossary, documents) and the parts."""

    meta: dict[str, Any]
    terms: list[str]
    indptr: np.ndarray
    indices: np.ndarray
    weights: np.ndarray
    chunks: list[dict[str, Any]]
    glossary: dict[str, Any] = field(default_factory=dict)
    # a scenario question's BM25 (`bm25_b_long`), when it differs from `bm25_b`: the raw term counts
    # (same postings as `weights`) and the chunks' lengths, from which the site derives its weights
    tf: np.ndarray | None = None
    doc_len: np.ndarray | None = None


@dataclass
class SiteReport:
    out: Path
    n_chunks: int
    n_docs: int
    sizes: dict[str, int] = field(default_factory=dict)  # part -> bytes on disk

    @property
    def data_bytes(self) -> int:
        return self.sizes.get("data/site-data.js", 0)


def _chunk_record(c: Chunk) -> dict[str, Any]:
    d = c.model_dump(include=set(CHUNK_FIELDS))
    # a row's canonical parameter's other names (candidates.row_aka): the site matches rows by them
    # too, as base.row_scores does
    for row, rec in zip(c.rows, d.get("rows") or [], strict=True):
        aka = row_aka(row)
        if aka:
            rec["aka"] = aka
    return {k: v for k, v in d.items() if v not in ("", [], None)}


def glossary_tables() -> dict[str, Any]:
    g = load_glossary()
    return {
        "zh_terms": list(g._zh_terms),
        "zh_to_en": g.zh_to_en,
        "en_terms": sorted(g.en_to_zh, key=lambda t: (-len(t), t)),
        "en_to_zh": g.en_to_zh,
        # a query naming a spec parameter also asks for its other names (base.lexical_query)
        "parameter_names": parameter_name_table() if index_base.PARAMETER_EXPANSION else [],
        "parameter_terms": {pid: index_base.parameter_expansion_terms(pid) for _, pid in parameter_name_table()},
    }


def collect(index: HybridIndex, *, examples: Sequence[str] = ()) -> SiteData:
    """The site's data from a loaded index (its BM25 weights as stored, its chunks, its cards)."""
    w = index.bm25.weights
    terms = [""] * len(index.bm25.vocab)
    for t, j in index.bm25.vocab.items():
        terms[j] = t
    n_terms = len(terms)
    s = index.settings
    counts = index._counts["chunk"]  # the term counts the BM25 weights were derived from
    long = s.index.bm25_b_long != s.index.bm25_b  # else a scenario question scores as any other
    cards: dict[str, DocumentCard] = index.cards
    meta = {
        "format": 2,
        "settings": {
            "top_k": s.search.top_k,
            "max_top_k": s.search.max_top_k,
            "max_query_chars": s.search.max_query_chars,
            "run_depth": RUN_DEPTH,
            "page_members": s.hits.page_members,
            "merge_depth": s.hits.merge_depth,
            "companion_score": s.hits.companion_score,
            "focus_page": s.hits.focus_page,
            "bm25_k1": s.index.bm25_k1,
            "bm25_b": s.index.bm25_b,
            "bm25_b_long": s.index.bm25_b_long,
            # numpy's float32 mean of the lengths, as bm25_weights reads it (JS would sum otherwise)
            "avgdl": float(counts.doc_len.mean()) if len(counts.doc_len) else 1.0,
        },
        "doc_ids": list(index.table.doc_ids),
        "docs": [
            {
                "doc_id": d,
                "file_name": cards[d].file_name if d in cards else "",
                "title": cards[d].title if d in cards else "",
                "vendor": cards[d].vendor if d in cards else "",
                "part_numbers": cards[d].part_numbers if d in cards else [],
                # with title, vendor and part numbers: the card text (candidates.card_text) whose
                # tokens the focus page leaves out of a row's match (base.focus_page)
                "series": cards[d].series if d in cards else [],
                "product_type": cards[d].product_type if d in cards else "",
                "pages": {},
            }
            for d in index.table.doc_ids
        ],
        "examples": list(examples),
        "images": {},
    }
    return SiteData(
        meta=meta,
        terms=terms,
        indptr=np.asarray(w.indptr[: n_terms + 1], dtype=np.uint32),
        indices=np.asarray(w.indices, dtype=np.uint32),
        weights=np.asarray(w.data, dtype=np.float32),
        chunks=[_chunk_record(c) for c in index.chunks],
        glossary=glossary_tables(),
        tf=np.asarray(counts.tf.data, dtype=np.float32) if long else None,
        doc_len=np.asarray(counts.doc_len, dtype=np.float32) if long else None,
    )


def _varint_gaps(indptr: np.ndarray, indices: np.ndarray) -> bytes:
    gaps = indices.astype(np.int64).copy()
    starts = indptr[:-1].astype(np.int64)
    nonempty = indptr[1:] > indptr[:-1]
    # within a term, each index minus the previous one; the first keeps its value
    gaps[1:] -= indices[:-1].astype(np.int64)
    gaps[starts[nonempty]] = indices[starts[nonempty]]
    return _varints(gaps)


def _b64gz(raw: bytes) -> str:
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def _varints(values: np.ndarray) -> bytes:
    out = bytearray()
    for v in values.tolist():
        while v >= 0x80:
            out.append((v & 0x7F) | 0x80)
            v >>= 7
        out.append(v)
    return bytes(out)


def encode_index(data: SiteData) -> bytes:
    n_terms = len(data.terms)
    n_len = 0 if data.doc_len is None else len(data.doc_len)
    head = struct.pack("<III", n_terms, len(data.weights), n_len)
    parts = [
        head,
        data.indptr.astype("<u4").tobytes(),
        data.weights.astype("<f4").tobytes(),
        _varint_gaps(data.indptr, data.indices),
    ]
    if data.tf is not None and data.doc_len is not None:
        tf = data.tf.astype(np.int64)
        if len(data.tf) != len(data.weights) or not np.array_equal(tf, data.tf) or tf.min(initial=1) < 1:
            raise ValueError("term counts must be positive whole numbers, one per posting")
        parts += [_varints(tf), data.doc_len.astype("<f4").tobytes()]
    return b"".join(parts)


def site_data_js(data: SiteData) -> tuple[str, dict[str, int]]:
    """The data script and the compressed size of each part (base64 included)."""
    parts = {
        "index": _b64gz(encode_index(data)),
        "vocab": _b64gz("\n".join(data.terms).encode("utf-8")),
        "chunks": _b64gz(json.dumps(data.chunks, ensure_ascii=False, separators=(",", ":")).encode("utf-8")),
        "glossary": _b64gz(
            json.dumps(data.glossary, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        ),
    }
    meta = json.dumps(data.meta, ensure_ascii=False, separators=(",", ":"))
    body = ",".join(f'"{k}":"{v}"' for k, v in parts.items())
    # `</` never appears in base64; in the meta JSON it is escaped so the script cannot be closed early
    meta = meta.replace("</", "<\\/")
    js = f'window.LAYOUTRAG_SITE={{"meta":{meta},{body}}};\n'
    sizes = {f"data: {k}": len(v) for k, v in parts.items()}
    sizes["data: meta"] = len(meta.encode("utf-8"))
    return js, sizes


_IMPORT_RE = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([a-z_]+)\.js";\s*$', re.M)
_EXPORT_RE = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|class|const|let)\s+([A-Za-z_$][\w$]*)", re.M)


def bundle_js(modules: Sequence[str] = MODULES, static: Path = STATIC) -> str:
    """The ES modules as one classic script (file:// pages cannot load module scripts in Chromium):
    each module becomes a function scope returning its exports; imports read them. No other change."""
    out = ['"use strict";', "(() => {", "const __modules = {};"]
    for name in modules:
        src = (static / f"{name}.js").read_text(encoding="utf-8")
        exports = _EXPORT_RE.findall(src)
        src = _IMPORT_RE.sub(lambda m: f"const {{{m.group(1)}}} = __modules.{m.group(2)};", src)
        src = re.sub(r"^export\s+", "", src, flags=re.M)
        if re.search(r"^\s*(import|export)\b", src, re.M):
            raise ValueError(f"{name}.js: an import or export form the bundler does not know")
        out.append(f"__modules.{name} = (() => {{\n{src}\nreturn {{ {', '.join(exports)} }};\n}})();")
    out.append("})();")
    return "\n".join(out) + "\n"


INDEX_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' file:; style-src 'self' file: 'unsafe-inline'; img-src 'self' file: data:; connect-src 'none'; base-uri 'none'; form-action 'none'">
<title>layoutrag · static search</title>
<link rel="stylesheet" href="style.css">
<link rel="icon" href="data:,">
</head>
<body>
<header class="topbar">
  <a class="brand" href="#/search">layout<b>rag</b></a>
  <nav>
    <a href="#/search" data-nav="search">Search</a>
    <a href="#/docs" data-nav="docs">Documents</a>
  </nav>
  <span class="corpus" id="corpus">loading…</span>
</header>
<main id="app" aria-live="polite"></main>
<script src="data/site-data.js"></script>
<script src="site.js"></script>
</body>
</html>
"""


def _render_pages(pdf: Path, out_dir: Path, rel: str, *, dpi: int = PAGE_DPI) -> dict[int, dict[str, Any]]:
    from layoutrag.pdf import open_document, render_page_image

    pages: dict[int, dict[str, Any]] = {}
    out_dir.mkdir(parents=True, exist_ok=True)
    with open_document(pdf) as doc:
        for n, page in enumerate(doc, start=1):
            img = render_page_image(page, dpi=dpi)
            name = f"p{n}.webp"
            img.save(out_dir / name, "WEBP", quality=WEBP_QUALITY, method=6)
            pages[n] = {
                "w": round(page.rect.width, 2),
                "h": round(page.rect.height, 2),
                "img": f"{rel}/{name}",
            }
    return pages


def write_site(
    data: SiteData,
    out: Path,
    *,
    pdf_of: Callable[[str], Path | None] = lambda d: None,
    evidence_of: Callable[[str], Path | None] = lambda c: None,
    evidence_ids: Sequence[str] = (),
    page_images: bool = True,
) -> SiteReport:
    """Write the site into `out` (replacing a previous export's files; other files are left alone)."""
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    for sub in ("data", "pages", "evidence"):
        shutil.rmtree(out / sub, ignore_errors=True)
    (out / "data").mkdir()
    report = SiteReport(out=out, n_chunks=len(data.chunks), n_docs=len(data.meta["docs"]))
    img_bytes = {"pages": 0, "evidence": 0}

    # pages: size in points always (for the boxes), images when asked
    for i, doc in enumerate(data.meta["docs"]):
        pdf = pdf_of(doc["doc_id"]) if page_images else None
        if pdf is not None and pdf.exists():
            rel = f"pages/{i}"
            doc["pages"] = _render_pages(pdf, out / rel, rel)
            img_bytes["pages"] += sum(p.stat().st_size for p in (out / rel).iterdir())
    for c in data.chunks:  # page sizes the records know, for documents without a PDF
        doc = data.meta["docs"][data.meta["doc_ids"].index(c["doc_id"])]
        if c.get("page_size_pt") and c["page"] not in doc["pages"]:
            w, h = c["page_size_pt"]
            doc["pages"][c["page"]] = {"w": w, "h": h}

    ev = data.meta["images"]
    for cid in evidence_ids:
        src = evidence_of(cid)
        if src is None or not src.exists() or cid in ev:
            continue
        name = f"evidence/{len(ev)}.webp"
        (out / "evidence").mkdir(exist_ok=True)
        with Image.open(src) as im:
            im.convert("RGB").save(out / name, "WEBP", quality=WEBP_QUALITY, method=6)
        img_bytes["evidence"] += (out / name).stat().st_size
        ev[cid] = name

    js, part_sizes = site_data_js(data)
    (out / "data" / "site-data.js").write_text(js, encoding="utf-8")
    (out / "site.js").write_text(bundle_js(), encoding="utf-8")
    css = (SERVE_STATIC / "style.css").read_text(encoding="utf-8") + (STATIC / "site.css").read_text(
        encoding="utf-8"
    )
    (out / "style.css").write_text(css, encoding="utf-8")
    (out / "index.html").write_text(INDEX_HTML, encoding="utf-8")

    report.sizes.update(part_sizes)
    for name in ("data/site-data.js", "site.js", "style.css", "index.html"):
        report.sizes[name] = (out / name).stat().st_size
    report.sizes["page images"] = img_bytes["pages"]
    report.sizes["evidence images"] = img_bytes["evidence"]
    return report


def parity_hits(index: HybridIndex, query: str, top_k: int | None = None) -> list[dict[str, Any]]:
    """The Python lexical path's hits in the shape the site's search returns (what parity compares)."""

    def one(h: Any) -> dict[str, Any]:
        return {
            "chunk_id": h.chunk_id,
            "page": h.page,
            "score": h.score,
            "bm25_rank": h.bm25_rank,
            "matched_row": h.matched_row,
        }

    hits = index.search(query, top_k=top_k, options=SearchOptions(mode="bm25"))
    return [{**one(h), "companions": [one(c) for c in h.companions]} for h in hits]


def export_site(
    data_dir: Path,
    out: Path,
    *,
    images: ImageMode = "examples",
    examples: Sequence[str] = (),
    settings: Any = None,
) -> SiteReport:
    """Export the live index of `data_dir` to `out` (see the module docstring)."""
    from layoutrag.service import LayoutRAG

    svc = LayoutRAG(data_dir, settings=settings)
    index: HybridIndex = svc._index
    data = collect(index, examples=examples)
    if images == "all":
        ids = [c["chunk_id"] for c in data.chunks]
    elif images == "examples":
        ids = []
        for q in examples:
            for h in index.search(q, mode="bm25", top_k=EXAMPLE_IMAGE_HITS):
                ids += [h.chunk_id, *(c.chunk_id for c in h.companions)]
    else:
        ids = []

    def pdf_of(doc_id: str) -> Path | None:
        try:
            return svc.pdf_path(doc_id)
        except Exception:
            return None

    def evidence_of(chunk_id: str) -> Path | None:
        try:
            return svc.evidence_image(chunk_id)
        except Exception:
            return None

    return write_site(
        data, out, pdf_of=pdf_of, evidence_of=evidence_of, evidence_ids=ids, page_images=images != "none"
    )


def default_examples(data_dir: Path, n: int = 6) -> list[str]:
    """Example queries: the sample corpus's queries when it has them (a mix of kinds and languages)."""
    qfile = Path(data_dir) / "samples" / "queries.jsonl"
    if not qfile.exists():
        return []
    rows = [json.loads(line) for line in qfile.read_text(encoding="utf-8").splitlines() if line.strip()]
    picked: list[str] = []
    seen: set[tuple[str, str]] = set()
    for r in rows:
        key = (r.get("kind", ""), r.get("lang", ""))
        if key not in seen:
            seen.add(key)
            picked.append(r["query"])
        if len(picked) >= n:
            break
    return picked


def read_examples(path: Path) -> list[str]:
    """One query a line, or JSON lines with a `query` field."""
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("{"):
            q = json.loads(line).get("query") or json.loads(line).get("question")
            if q:
                out.append(str(q))
        else:
            out.append(line)
    return out
