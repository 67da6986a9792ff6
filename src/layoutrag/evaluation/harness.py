"""The evaluation harness: load gold queries, run a system, score it.

    results = evaluate(queries, search, doc_ids=..., answer_boxes=...)   # pure-ish: no files

The `layoutrag eval` command that composes it with the systems and the report is
:mod:`layoutrag.evaluation.run`.

A *system* is a name and a search function ``(query, top_k) -> list[Chunk-like]``. `--compare` runs,
in one go and scored by the same code: layoutrag fused / BM25-only / dense-only / plain RRF, the
tokenizer ablations, de-duplication by confidence, the other layout backend (both from sibling data
dirs, ingested when missing and reused when current), fixed 512-token windows and whole pages.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from layoutrag.errors import InputError
from layoutrag.evaluation.metrics import (
    ChunkQueryResult,
    Hit,
    RegionQueryResult,
    chunk_metrics,
    region_metrics,
    score_chunk_query,
    score_region_query,
)
from layoutrag.records import BBox, Box, Chunk, EvidencePackage

__all__ = [
    "ChunkQuery",
    "RegionQuery",
    "SystemResult",
    "evaluate",
    "load_queries",
    "locate_answers",
    "to_hit",
]

TOP_K = 15
SearchFn = Callable[[str, int], Sequence[Chunk]]


# --------------------------------------------------------------------------- gold
@dataclass(frozen=True)
class RegionQuery:
    id: str
    query: str
    lang: str
    doc: str
    page: int
    regions: tuple[BBox, ...]
    kind: str = ""
    answer: str = ""
    answer_bbox: BBox | None = None


@dataclass(frozen=True)
class ChunkQuery:
    id: str
    query: str
    lang: str
    gold_chunks: tuple[str, ...]
    kind: str = ""


def _box(v: object, where: str) -> BBox:
    if not isinstance(v, list | tuple) or len(v) != 4 or not all(isinstance(x, int | float) for x in v):
        raise InputError(f"{where}: a box must be [x0, y0, x1, y1]")
    b = tuple(float(x) for x in v)
    if not all(math.isfinite(x) for x in b):
        raise InputError(f"{where}: box coordinates must be finite numbers")
    x0, y0, x1, y1 = b
    if x1 <= x0 or y1 <= y0:
        raise InputError(f"{where}: empty box {list(b)}")
    return b  # type: ignore[return-value]


def parse_query(obj: dict, where: str) -> RegionQuery | ChunkQuery:
    if not isinstance(obj, dict):
        raise InputError(f"{where}: not a JSON object")
    qid = str(obj.get("id") or where)
    text = obj.get("query") or obj.get("question")
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{where}: no query text")
    lang = str(obj.get("lang") or "")
    if "gold_chunks" in obj:
        gold = obj["gold_chunks"]
        if not isinstance(gold, list) or not gold:
            raise InputError(f"{where}: gold_chunks must be a non-empty list")
        return ChunkQuery(
            qid, text, lang, tuple(str(g) for g in gold), str(obj.get("intent") or obj.get("kind") or "")
        )
    try:
        doc, page, regions = obj["doc"], int(obj["page"]), obj["regions"]
    except (KeyError, TypeError, ValueError):
        raise InputError(f"{where}: needs doc, page and regions (or gold_chunks)") from None
    if not isinstance(regions, list) or not regions:
        raise InputError(f"{where}: regions must be a non-empty list of boxes")
    ab = obj.get("answer_bbox")
    return RegionQuery(
        id=qid,
        query=text,
        lang=lang,
        doc=str(doc),
        page=page,
        regions=tuple(_box(r, where) for r in regions),
        kind=str(obj.get("kind") or ""),
        answer=str(obj.get("answer") or ""),
        answer_bbox=_box(ab, where) if ab else None,
    )


def load_queries(path: Path) -> list[RegionQuery | ChunkQuery]:
    """Queries from a JSONL file; a bad line is an InputError naming its line number."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise InputError(f"cannot read queries file {path}: {e.strerror or e}") from None
    out: list[RegionQuery | ChunkQuery] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{Path(path).name} line {n}: invalid JSON ({e.msg})") from None
        out.append(parse_query(obj, f"{Path(path).name} line {n}"))
    if not out:
        raise InputError(f"no queries in {path}")
    return out


# --------------------------------------------------------------------------- answers
def _answer_variants(answer: str) -> list[str]:
    vs = [
        answer,
        answer.replace("−", "-"),
        answer.replace("˚", "°"),
        answer.replace("−", "-").replace("˚", "°"),
    ]
    return list(dict.fromkeys(v for v in vs if v.strip()))


def locate_answers(
    queries: Sequence[RegionQuery], pdf_for_doc: Callable[[str], Path | None]
) -> dict[str, list[BBox]]:
    """Where each query's printed answer lies inside its gold region, from the PDF's text layer.

    `answer_bbox` in the gold wins; else occurrences of the answer on the gold page with at least
    half their box inside the region. Queries whose answer cannot be located get no entry (they
    are left out of answer-hit)."""
    from layoutrag.geometry import contains_frac
    from layoutrag.pdf import open_document

    out: dict[str, list[BBox]] = {}
    by_doc: dict[str, list[RegionQuery]] = {}
    for q in queries:
        if q.answer_bbox is not None:
            out[q.id] = [q.answer_bbox]
        elif q.answer:
            by_doc.setdefault(q.doc, []).append(q)
    for doc, qs in by_doc.items():
        path = pdf_for_doc(doc)
        if path is None or not path.exists():
            continue
        try:
            pdf = open_document(path)
        except Exception:  # noqa: BLE001 - an unreadable PDF only leaves its answers unlocated
            continue
        with pdf:
            for q in qs:
                if not 1 <= q.page <= pdf.page_count:
                    continue
                page = pdf[q.page - 1]
                found: list[BBox] = []
                for v in _answer_variants(q.answer):
                    for r in page.search_for(v):
                        if page.rotation:
                            r = r * page.rotation_matrix  # text coordinates are unrotated
                        b = Box(r.x0, r.y0, r.x1, r.y1)
                        if any(contains_frac(b, reg) >= 0.5 for reg in q.regions):
                            found.append(b)
                    if found:
                        break
                if found:
                    out[q.id] = found
    return out


# --------------------------------------------------------------------------- scoring
def to_hit(c: Chunk) -> Hit:
    """A returned hit as scored: every box the reader is shown (a package's companions included)."""
    regions = c.hit_regions() if isinstance(c, EvidencePackage) else c.all_regions()
    return Hit(
        doc_id=c.doc_id,
        boxes=tuple((r.page, r.bbox_pdf) for r in regions),
        chunk_id=c.chunk_id,
    )


def ranked_chunk_ids(hits: Sequence[Chunk]) -> list[str]:
    """Chunk ids in the order shown: each hit's own, then its companions'. A page unit (a hit that
    is its page, index/hits.py) is not a chunk: its highlighted chunks (companions) stand for it."""
    out = []
    for h in hits:
        if h.unit != "page":
            out.append(h.chunk_id)
        if isinstance(h, EvidencePackage):
            out.extend(c.chunk_id for c in h.companions)
    return out


def _head(c: Chunk, n: int = 90) -> str:
    t = " ".join((c.native_text or c.description or c.section_title or "").split())
    return t[:n] + ("…" if len(t) > n else "")


@dataclass
class SystemResult:
    name: str
    note: str = ""
    region: list[RegionQueryResult] = field(default_factory=list)
    chunk: list[ChunkQueryResult] = field(default_factory=list)
    metrics: dict = field(default_factory=dict)  # {"region": {...}, "chunk": {...}}
    seconds: float = 0.0
    n_units: int = 0
    error: str = ""


def evaluate(
    queries: Sequence[RegionQuery | ChunkQuery],
    search: SearchFn,
    *,
    doc_ids: dict[str, str] | None = None,
    answer_boxes: dict[str, list[BBox]] | None = None,
    top_k: int = TOP_K,
    name: str = "system",
    file_names: dict[str, str] | None = None,
) -> SystemResult:
    """Run `search` for every query and score it. `doc_ids` maps a gold `doc` (PDF file name) to the
    ingested doc id (a gold doc that is already a doc id needs no entry); `file_names` is the
    reverse, for readable misses."""
    doc_ids = doc_ids or {}
    answer_boxes = answer_boxes or {}
    file_names = file_names or {}
    res = SystemResult(name=name)
    t0 = time.perf_counter()
    for q in queries:
        hits = list(search(q.query, top_k))[:top_k]
        top = [
            {
                "doc": file_names.get(h.doc_id, h.doc_id),
                "page": h.page,
                "type": h.block_type,
                "chunk_id": h.chunk_id,
                "text": _head(h),
            }
            for h in hits[:3]
        ]
        if isinstance(q, ChunkQuery):
            r = score_chunk_query(
                ranked_chunk_ids(hits), q.gold_chunks, qid=q.id, query=q.query, lang=q.lang, kind=q.kind
            )
            r.top = top
            res.chunk.append(r)
        else:
            rr = score_region_query(
                [to_hit(h) for h in hits],
                doc_id=doc_ids.get(q.doc, q.doc),
                page=q.page,
                regions=q.regions,
                answer_boxes=answer_boxes.get(q.id, ()),
                qid=q.id,
                query=q.query,
                kind=q.kind,
                lang=q.lang,
                doc=q.doc,
            )
            rr.top = top
            res.region.append(rr)
    res.seconds = time.perf_counter() - t0
    if res.region:
        res.metrics["region"] = region_metrics(res.region)
    if res.chunk:
        res.metrics["chunk"] = chunk_metrics(res.chunk)
    return res
