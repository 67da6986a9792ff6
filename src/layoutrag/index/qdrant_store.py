"""The Qdrant store: index generations as Qdrant collections behind aliases (`--store qdrant`).

    DATA/index/STORE.json          which store the data dir's index lives in (read by every front)
    {prefix}-chunks-gNNNNNN        one point per chunk: "dense" vector, "bm25" sparse vector (IDF
                                   modifier) and, when `bm25_b_long` differs from `bm25_b`,
                                   "bm25_long" (the same terms saturated with `bm25_b_long`),
                                   payload: chunk record (JSON), doc_id, page, block_type
    {prefix}-pages-gNNNNNN         one point per page (its chunks' summed term counts) + members
    {prefix}-docs-gNNNNNN          one point per document, likewise
    {prefix}-terms-gNNNNNN         the df table: term -> sparse index, chunk df, document df
    {prefix}-meta-gNNNNNN          meta, document cards, doc ids, block types
    aliases {prefix}-chunks, -pages, -docs, -terms, -meta  -> the live generation's collections

Part-aware BM25 runs in Qdrant: terms come from the project's tokenizer (client side), each
point's sparse value is BM25's saturated term frequency `tf (k1+1) / (tf + k1 (1 - b + b |d|/avgdl))`
and Qdrant's IDF modifier multiplies in `ln(1 + (N - df + .5)/(df + .5))` — BM25's own idf, kept
right by Qdrant as points come and go. A query's sparse vector carries the same term weights the
embedded index uses, so scores agree. b is baked in, so a generation holds one sparse vector per b
a query may ask for (`bm25_vectors`): "bm25" with `bm25_b` for every query, "bm25_long" with
`bm25_b_long` for a scenario question (`base.LexicalQuery.b`, the b the learned ranker's features
were made with); the meta records both b values and `QdrantIndex.bm25_using` picks the vector. The
page and document runs query their own collections; the
query-side idf (routing gate, row bonus) reads the df table for the query's terms only; filters are
Qdrant payload filters. The searcher holds the document cards and a bounded cache of what queries
touched — never the corpus.

A build writes a fresh set of collections, then swaps all aliases in one request; a loaded index
resolved the aliases once, so searches in flight finish on the old collections (kept until the next
swap but one). Local mode (`QdrantClient(path=...)`) allows one process per path: use a server
(`--qdrant-url`) when `serve` and `index` run in different processes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, overload

import numpy as np

from layoutrag.config import Settings, StoreSettings
from layoutrag.errors import IndexMissingError, InputError
from layoutrag.index.base import ChunkTable, GroupKind, SearchIndex, empty_run
from layoutrag.index.bm25 import TermCounts, bm25_idf, group_term_counts
from layoutrag.index.candidates import warn_if_stale_passages
from layoutrag.index.embedders import Embedder, get_embedder
from layoutrag.index.glossary import expand_query
from layoutrag.index.options import SearchOptions
from layoutrag.index.query import _selects
from layoutrag.index.tokenizer import get_tokenizer
from layoutrag.records import Chunk, DocumentCard, SearchFilters
from layoutrag.storage import DataDir, atomic_write_text

__all__ = [
    "QdrantIndex",
    "QdrantStore",
    "read_store_record",
    "store_for",
    "write_store_record",
]

KINDS = ("chunks", "pages", "docs", "terms", "meta")
KEEP_GENERATIONS = 2
TIE_MARGIN = 20  # extra candidates fetched so ties at a run's cut break by id, as in the embedded index
CACHE_ITEMS = 200_000
LAYOUT = 2  # what a generation's points hold; a reader refuses another layout (rebuild)
ROW_FIELDS = ("c", "d", "page", "b", "pg", "n")  # the chunk table's columns in a chunk point's payload
PLAIN_VECTOR = "bm25"  # BM25 saturated with bm25_b: every query (and the term sets a point holds)
LONG_VECTOR = "bm25_long"  # ... with bm25_b_long: a scenario question's runs

log = logging.getLogger(__name__)

_CLIENTS: dict[str, Any] = {}
_CLIENTS_LOCK = threading.Lock()


# --------------------------------------------------------------------------- the data dir's record
def _record_path(data: DataDir) -> Path:
    return data.index / "STORE.json"


def read_store_record(data: DataDir) -> StoreSettings | None:
    """The store the data dir's index lives in (None: never recorded, i.e. embedded)."""
    try:
        raw = json.loads(_record_path(data).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return StoreSettings.model_validate(raw)


def write_store_record(data: DataDir, cfg: StoreSettings) -> None:
    data.index.mkdir(parents=True, exist_ok=True)
    atomic_write_text(_record_path(data), cfg.model_dump_json(indent=1) + "\n")


def store_for(data: DataDir, settings: Settings) -> QdrantStore | None:
    """The Qdrant store of a data dir (its record wins; else the settings), None when embedded."""
    cfg = read_store_record(data) or settings.store
    if cfg.kind != "qdrant":
        return None
    return QdrantStore(data, cfg)


# --------------------------------------------------------------------------- client
def _client(data: DataDir, cfg: StoreSettings) -> Any:
    try:
        from qdrant_client import QdrantClient
    except ImportError:
        raise InputError("the Qdrant store needs the scale extra: pip install 'layoutrag[scale]'") from None
    if cfg.url:
        key = "url:" + cfg.url
    elif cfg.engine == "edge":
        from layoutrag.index.qdrant_edge import EdgeClient

        root = _local_root(data, cfg)
        with _CLIENTS_LOCK:
            key = "edge:" + str(root.resolve())
            if key not in _CLIENTS:
                _CLIENTS[key] = EdgeClient(root)
            return _CLIENTS[key]
    else:
        path = _local_root(data, cfg)
        if cfg.path == ":memory:":
            key = "memory:" + str(data.root.resolve())
        else:
            key = "path:" + str(path.resolve())
    with _CLIENTS_LOCK:  # local mode allows one client per path in a process: share it
        client = _CLIENTS.get(key)
        if client is None:
            if cfg.url:
                client = QdrantClient(url=cfg.url, timeout=60)
            elif cfg.path == ":memory:":
                client = _Locked(QdrantClient(":memory:"))
            else:
                path.mkdir(parents=True, exist_ok=True)
                client = _Locked(QdrantClient(path=str(path)))
            _CLIENTS[key] = client
        return client


def _local_root(data: DataDir, cfg: StoreSettings) -> Path:
    """The directory of an in-process engine (local mode, Edge)."""
    if cfg.path and cfg.path != ":memory:":
        return Path(cfg.path)
    return data.root / ("qdrant-edge" if cfg.engine == "edge" else "qdrant")


class _Locked:
    """Local mode is a single-threaded engine: one call at a time (a server needs no lock)."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._lock = threading.RLock()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._client, name)
        if not callable(attr):
            return attr

        def call(*a: Any, **kw: Any) -> Any:
            with self._lock:
                return attr(*a, **kw)

        return call


def term_key(term: str) -> int:
    """A term's point id in the df table (63-bit hash; the stored term is checked on read)."""
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=8).digest(), "big") >> 1


def _saturated(counts: TermCounts, k1: float, b: float) -> Any:
    """BM25 without idf, as CSR rows (Qdrant's IDF modifier supplies the idf)."""
    import scipy.sparse as sp

    tf = sp.csr_matrix(counts.tf)
    n = tf.shape[0]
    avgdl = float(counts.doc_len.mean()) if n else 1.0
    avgdl = avgdl or 1.0
    row_of = np.repeat(np.arange(n), np.diff(tf.indptr))
    tfv = tf.data.astype(np.float32)
    norm = k1 * (1.0 - b + b * counts.doc_len[row_of] / avgdl)
    data = (tfv * (k1 + 1.0) / (tfv + norm)).astype(np.float32)
    return sp.csr_matrix((data, tf.indices, tf.indptr), shape=tf.shape)


def _sparse_row(m: Any, w: Any, i: int) -> Any:
    """Row i of a CSR matrix as a Qdrant sparse vector."""
    row = slice(w.indptr[i], w.indptr[i + 1])
    return m.SparseVector(indices=w.indices[row].tolist(), values=w.data[row].tolist())


def bm25_vectors(settings: Settings) -> dict[str, float]:
    """The BM25 sparse vectors a generation is written with, name -> the b saturating it: "bm25"
    (`bm25_b`) and, when a scenario question's `bm25_b_long` differs, "bm25_long". Both hold the
    same terms (a saturated tf is never 0), so Qdrant's IDF modifier gives them the same idf."""
    b, b_long = settings.index.bm25_b, settings.index.bm25_b_long
    return {PLAIN_VECTOR: b} if b_long == b else {PLAIN_VECTOR: b, LONG_VECTOR: b_long}


# --------------------------------------------------------------------------- the store
class QdrantStore:
    """The Qdrant `Store`: write a generation (collections + alias swap), load the live one."""

    def __init__(self, data: DataDir, cfg: StoreSettings) -> None:
        self.data, self.cfg = data, cfg
        self.client = _client(data, cfg)
        self.prefix = cfg.prefix

    def _alias(self, kind: str) -> str:
        return f"{self.prefix}-{kind}"

    def _generations(self) -> list[int]:
        pat = re.compile(rf"^{re.escape(self.prefix)}-meta-g(\d{{6}})$")
        out = []
        for c in self.client.get_collections().collections:
            m = pat.match(c.name)
            if m:
                out.append(int(m.group(1)))
        return sorted(out)

    def current(self) -> str | None:
        for a in self.client.get_aliases().aliases:
            if a.alias_name == self._alias("meta"):
                return str(a.collection_name).rsplit("-", 1)[-1]
        return None

    def size(self) -> int:
        """Bytes on disk (local mode; 0 for a server)."""
        if self.cfg.url:
            return 0
        root = _local_root(self.data, self.cfg)
        return sum(f.stat().st_size for f in root.rglob("*") if f.is_file()) if root.is_dir() else 0

    # ------------------------------------------------------------------ write
    def write(
        self,
        chunks: Sequence[Chunk],
        cards: Mapping[str, DocumentCard],
        *,
        counts: TermCounts,
        vectors: np.ndarray,
        meta: dict,
        settings: Settings,
    ) -> str:
        from qdrant_client import models as m

        k1, b = settings.index.bm25_k1, settings.index.bm25_b
        b_of = bm25_vectors(settings)
        gens = self._generations()
        gen = f"g{(gens[-1] + 1) if gens else 1:06d}"
        names = {k: f"{self.prefix}-{k}-{gen}" for k in KINDS}
        dim = int(vectors.shape[1]) if len(vectors) else int(meta.get("dim", 1))
        table = ChunkTable.from_chunks(chunks)
        page_key = table.doc_index.astype(np.int64) * (int(table.pages.max(initial=0)) + 1) + table.pages
        _, page_of = np.unique(page_key, return_inverse=True)
        page_of = page_of.reshape(-1)
        n_pages = int(page_of.max(initial=-1)) + 1
        sparse_cfg = {name: m.SparseVectorParams(modifier=m.Modifier.IDF) for name in b_of}
        try:
            self.client.create_collection(
                names["chunks"],
                vectors_config={"dense": m.VectorParams(size=dim, distance=m.Distance.DOT)},
                sparse_vectors_config=sparse_cfg,
            )
            for kind in ("pages", "docs"):
                self.client.create_collection(
                    names[kind], vectors_config={}, sparse_vectors_config=sparse_cfg
                )
            for kind in ("terms", "meta"):
                self.client.create_collection(names[kind], vectors_config={})
            if self.cfg.url or self.cfg.engine == "edge":  # payload indexes for the filters (local mode has none)
                for fname, schema in (("doc_id", "keyword"), ("block_type", "keyword"), ("page", "integer")):
                    self.client.create_payload_index(names["chunks"], fname, field_schema=schema)

            vocab = sorted(counts.vocab, key=counts.vocab.__getitem__)
            w_chunks = {name: _saturated(counts, k1, bv) for name, bv in b_of.items()}
            bs = self.cfg.batch
            for lo in range(0, len(chunks), bs):
                pts = []
                for i in range(lo, min(lo + bs, len(chunks))):
                    c = chunks[i]
                    pts.append(
                        m.PointStruct(
                            id=i,
                            vector={
                                "dense": vectors[i].astype(np.float32).tolist(),
                                **{name: _sparse_row(m, w, i) for name, w in w_chunks.items()},
                            },
                            payload={
                                "c": c.chunk_id,
                                "d": int(table.doc_index[i]),
                                "b": int(table.block_codes[i]),
                                "pg": int(page_of[i]),
                                "n": float(counts.doc_len[i]),
                                "doc_id": c.doc_id,
                                "page": int(c.page),
                                "block_type": c.block_type,
                                "rec": c.model_dump_json(),
                            },
                        )
                    )
                self.client.upsert(names["chunks"], pts, wait=True)

            # pages and documents, numbered as the embedded index numbers them
            groups = {
                "pages": (page_of, n_pages),
                "docs": (np.asarray(table.doc_index, dtype=np.int64), len(table.doc_ids)),
            }
            doc_df = np.zeros(len(vocab), dtype=np.int64)
            for kind, (group, n_groups) in groups.items():
                g_counts = group_term_counts(counts, np.asarray(group), n_groups)
                w_groups = {name: _saturated(g_counts, k1, bv) for name, bv in b_of.items()}
                order = np.argsort(group, kind="stable")
                members = np.split(order, np.cumsum(np.bincount(group, minlength=n_groups))[:-1])
                if kind == "docs" and len(vocab):
                    doc_df = np.diff(g_counts.tf.indptr)  # CSC: postings per term
                for lo in range(0, n_groups, bs):
                    pts = [
                        m.PointStruct(
                            id=g,
                            vector={name: _sparse_row(m, w, g) for name, w in w_groups.items()},
                            payload={"members": members[g].tolist()},
                        )
                        for g in range(lo, min(lo + bs, n_groups))
                    ]
                    self.client.upsert(names[kind], pts, wait=True)

            chunk_df = np.diff(counts.tf.indptr) if len(vocab) else np.zeros(0, dtype=np.int64)
            tbs = bs * 8
            for lo in range(0, len(vocab), tbs):
                self.client.upsert(
                    names["terms"],
                    [
                        m.PointStruct(
                            id=term_key(t),
                            vector={},
                            payload={"t": t, "i": j, "df": int(chunk_df[j]), "ddf": int(doc_df[j])},
                        )
                        for j, t in enumerate(vocab[lo : lo + tbs], start=lo)
                    ],
                    wait=True,
                )
            self.client.upsert(
                names["meta"],
                [
                    m.PointStruct(
                        id=0,
                        vector={},
                        payload={
                            "meta": {
                                **meta,
                                "bm25_k1": k1,
                                "bm25_b": b,
                                "bm25_b_long": b_of.get(LONG_VECTOR, b),  # == bm25_b: no "bm25_long"
                                "generation": gen,
                                "layout": LAYOUT,
                            },
                            "n_chunks": len(chunks),
                            "n_pages": n_pages,
                            "doc_ids": table.doc_ids,
                            "doc_counts": np.bincount(table.doc_index, minlength=len(table.doc_ids)).tolist(),
                            "block_types": table.block_types,
                            "cards": json.dumps(
                                [c.model_dump(mode="json") for c in cards.values()], ensure_ascii=False
                            ),
                        },
                    )
                ],
                wait=True,
            )
        except BaseException:
            for name in names.values():
                try:
                    self.client.delete_collection(name)
                except Exception:  # noqa: BLE001, S110 - best effort cleanup of a failed build
                    pass
            raise
        self._swap(gen)
        if read_store_record(self.data) != self.cfg:
            write_store_record(self.data, self.cfg)
        return gen

    def _swap(self, gen: str) -> None:
        """Point every alias at `gen` in one request, then drop generations older than the kept ones."""
        from qdrant_client import models as m

        existing = {a.alias_name for a in self.client.get_aliases().aliases}
        ops: list[Any] = []
        for kind in KINDS:
            alias = self._alias(kind)
            if alias in existing:
                ops.append(m.DeleteAliasOperation(delete_alias=m.DeleteAlias(alias_name=alias)))
            ops.append(
                m.CreateAliasOperation(
                    create_alias=m.CreateAlias(
                        collection_name=f"{self.prefix}-{kind}-{gen}", alias_name=alias
                    )
                )
            )
        self.client.update_collection_aliases(change_aliases_operations=ops)
        for old in self._generations()[:-KEEP_GENERATIONS]:
            for kind in KINDS:
                self.client.delete_collection(f"{self.prefix}-{kind}-g{old:06d}")

    # ------------------------------------------------------------------ read
    def load(self, *, settings: Settings, embedder: Embedder | None = None) -> QdrantIndex:
        gen = self.current()
        if gen is None:
            raise IndexMissingError(
                f"no index in Qdrant ({self.prefix}) for {self.data.root} yet (run `layoutrag index`)"
            )
        names = {k: f"{self.prefix}-{k}-{gen}" for k in KINDS}
        recs = self.client.retrieve(names["meta"], [0], with_payload=True)
        if not recs:
            raise IndexMissingError(
                f"Qdrant generation {gen} has no meta record; rebuild with `layoutrag index`"
            )
        p = recs[0].payload
        meta = p["meta"]
        if meta.get("layout") != LAYOUT:
            raise IndexMissingError(
                f"Qdrant generation {gen} was written by another version of layoutrag; rebuild with `layoutrag index`"
            )
        if embedder is None:
            embedder = get_embedder(meta.get("embedder") or "default")
        if embedder.model_id != meta.get("embedder_model_id"):
            raise IndexMissingError(
                f"index was built with {meta.get('embedder_model_id')}, not {embedder.model_id}; rebuild with `layoutrag index`"
            )
        warn_if_stale_passages(meta, f"{self.prefix} {gen}")
        cards = {c["doc_id"]: DocumentCard.model_validate(c) for c in json.loads(p["cards"])}
        return QdrantIndex(
            self.client,
            names,
            cards=cards,
            n_chunks=int(p["n_chunks"]),
            doc_ids=list(p["doc_ids"]),
            doc_counts=list(p["doc_counts"]),
            block_types=list(p["block_types"]),
            meta=meta,
            embedder=embedder,
            settings=settings,
            exact=self.cfg.exact,
        )


# --------------------------------------------------------------------------- reading helpers
class _Cache(OrderedDict):
    def put(self, key: Any, value: Any) -> None:
        self[key] = value
        if len(self) > CACHE_ITEMS:
            self.popitem(last=False)


class _Rows:
    """Per-chunk payload columns (id, doc, page, block) fetched from Qdrant as queries touch them."""

    def __init__(self, client: Any, collection: str, n: int) -> None:
        self.client, self.collection, self.n = client, collection, n
        self.cache = _Cache()
        self.lock = threading.Lock()

    def fill(self, points: Iterable[Any]) -> None:
        with self.lock:
            for pt in points:
                p = pt.payload
                self.cache.put(
                    int(pt.id), (p["c"], int(p["d"]), int(p["page"]), int(p["b"]), int(p["pg"]), float(p["n"]))
                )

    def ensure(self, ids: Iterable[int]) -> None:
        with self.lock:
            missing = sorted({int(i) for i in ids} - self.cache.keys())
        for lo in range(0, len(missing), 4096):
            self.fill(
                self.client.retrieve(
                    self.collection, missing[lo : lo + 4096], with_payload=list(ROW_FIELDS)
                )
            )

    def get(self, i: int) -> tuple[str, int, int, int, int, float]:
        row = self.cache.get(int(i))
        if row is None:
            self.ensure([i])
            row = self.cache[int(i)]
        return row


class _Column:
    """One payload column as the embedded ChunkTable's array: `col[i]`, `col[array]`, `len(col)`."""

    def __init__(self, rows: _Rows, field: int) -> None:
        self.rows, self.field = rows, field

    def __len__(self) -> int:
        return self.rows.n

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, int | np.integer):
            return self.rows.get(int(i))[self.field]
        ids = np.asarray(i).ravel().tolist()
        self.rows.ensure(ids)
        return np.array([self.rows.get(j)[self.field] for j in ids])

    def __iter__(self) -> Iterator[Any]:
        return iter(self[np.arange(self.rows.n)].tolist())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self[np.arange(self.rows.n)], dtype=dtype)


class _Table:
    def __init__(self, rows: _Rows, doc_ids: list[str], block_types: list[str]) -> None:
        self.chunk_ids = _Column(rows, 0)
        self.doc_index = _Column(rows, 1)
        self.pages = _Column(rows, 2)
        self.block_codes = _Column(rows, 3)
        self.doc_ids = doc_ids
        self.block_types = block_types


class _Mask:
    """The filters evaluated on payload columns, as the embedded boolean mask is indexed."""

    def __init__(self, table: _Table, filters: SearchFilters) -> None:
        self.table, self.f = table, filters
        want = filters.block_type.lower() if filters.block_type else None
        self.codes = (
            None if want is None else {i for i, t in enumerate(table.block_types) if _selects(want, t)}
        )
        self.doc = (
            None
            if filters.doc_id is None
            else (table.doc_ids.index(filters.doc_id) if filters.doc_id in table.doc_ids else -2)
        )

    def _keep(self, i: int) -> bool:
        _, d, page, b, _, _ = self.table.chunk_ids.rows.get(i)
        f = self.f
        return (
            (self.doc is None or d == self.doc)
            and (self.codes is None or b in self.codes)
            and (f.page_min is None or page >= f.page_min)
            and (f.page_max is None or page <= f.page_max)
        )

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, int | np.integer):
            return self._keep(int(i))
        ids = np.asarray(i).ravel().tolist()
        self.table.chunk_ids.rows.ensure(ids)
        return np.array([self._keep(j) for j in ids], dtype=bool)


class _Records(Sequence[Chunk]):
    """Chunk records read from the points' payload on access (a bounded cache)."""

    def __init__(self, client: Any, collection: str, n: int) -> None:
        self.client, self.collection, self.n = client, collection, n
        self.cache = _Cache()
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return self.n

    def prefetch(self, ids: Iterable[int]) -> None:
        with self.lock:
            missing = sorted({int(i) for i in ids} - self.cache.keys())
        if missing:
            pts = self.client.retrieve(self.collection, missing, with_payload=["rec"])
            with self.lock:
                for pt in pts:
                    self.cache.put(int(pt.id), Chunk.model_validate_json(pt.payload["rec"]))

    @overload
    def __getitem__(self, i: int) -> Chunk: ...
    @overload
    def __getitem__(self, i: slice) -> list[Chunk]: ...
    def __getitem__(self, i: int | slice) -> Chunk | list[Chunk]:
        if isinstance(i, slice):
            idx = list(range(*i.indices(self.n)))
            self.prefetch(idx)
            return [self[j] for j in idx]
        i = int(i) + (self.n if int(i) < 0 else 0)
        if not 0 <= i < self.n:
            raise IndexError(i)
        c = self.cache.get(i)
        if c is None:
            self.prefetch([i])
            c = self.cache[i]
        return c

    def __iter__(self) -> Iterator[Chunk]:
        offset = None
        while True:  # scroll in id order, without filling the cache
            pts, offset = self.client.scroll(self.collection, limit=1024, offset=offset, with_payload=["rec"])
            for pt in sorted(pts, key=lambda p: int(p.id)):
                yield Chunk.model_validate_json(pt.payload["rec"])
            if offset is None:
                break


class _Lexicon:
    """The df table of a generation, read for the terms a query uses."""

    def __init__(self, client: Any, collection: str, n_chunks: int, n_docs: int) -> None:
        self.client, self.collection = client, collection
        self.n = {"df": n_chunks, "ddf": n_docs}
        self.cache = _Cache()
        self.lock = threading.Lock()

    def prefetch(self, terms: Iterable[str]) -> None:
        with self.lock:
            missing = sorted(set(terms) - self.cache.keys())
        if not missing:
            return
        keys = {term_key(t): t for t in missing}
        found: dict[str, tuple[int, int, int]] = {}
        for lo in range(0, len(missing), 2048):
            ids = list(keys)[lo : lo + 2048]
            for pt in self.client.retrieve(self.collection, ids, with_payload=True):
                p = pt.payload
                if keys.get(int(pt.id)) == p["t"]:
                    found[p["t"]] = (int(p["i"]), int(p["df"]), int(p["ddf"]))
        with self.lock:
            for t in missing:
                self.cache.put(t, found.get(t))

    def get(self, term: str) -> tuple[int, int, int] | None:
        if term not in self.cache:
            self.prefetch([term])
        return self.cache.get(term)


class _Vocab:
    def __init__(self, lexicon: _Lexicon) -> None:
        self.lexicon = lexicon

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and self.lexicon.get(term) is not None


class _LexicalStats:
    """`LexicalStats` (base.py) from the df table: `vocab`, `idf`, `df`, `holds`."""

    def __init__(self, index: QdrantIndex, field: str) -> None:
        self.index, self.field = index, field
        self.vocab = _Vocab(index.lexicon)
        self.n_docs = index.lexicon.n[field]

    def df(self, term: str) -> int:
        st = self.index.lexicon.get(term)
        return 0 if st is None else (st[1] if self.field == "df" else st[2])

    def idf(self, term: str) -> float:
        st = self.index.lexicon.get(term)
        if st is None:
            return 0.0
        return float(bm25_idf(np.array([self.df(term)]), self.n_docs, np.float64)[0])

    def holds(self, doc: int, term: str) -> bool:
        st = self.index.lexicon.get(term)
        return st is not None and st[0] in self.index.term_ids(doc)


# --------------------------------------------------------------------------- the index
GROUP_COLLECTION = {"doc": "docs", "page": "pages"}


class QdrantIndex(SearchIndex):
    """`SearchIndex` whose chunk table, records and runs are read from Qdrant: same fusion, hits
    and packages as the embedded store, from queries and bounded caches, not a copy of the corpus."""

    bm25: _LexicalStats
    doc_bm25: _LexicalStats

    def __init__(
        self,
        client: Any,
        names: dict[str, str],
        *,
        cards: dict[str, DocumentCard],
        n_chunks: int,
        doc_ids: list[str],
        doc_counts: list[int],
        block_types: list[str],
        meta: dict,
        embedder: Embedder,
        settings: Settings,
        exact: bool = True,
    ) -> None:
        self.client, self.names, self.meta, self.exact = client, names, meta, exact
        self.generation = str(meta.get("generation", ""))
        self.rows = _Rows(client, names["chunks"], n_chunks)
        super().__init__(
            _Records(client, names["chunks"], n_chunks),
            cards,
            table=_Table(self.rows, doc_ids, block_types),
            embedder=embedder,
            tokenizer=get_tokenizer(meta.get("tokenizer", "part_aware")),
            settings=settings,
        )
        self.doc_counts = doc_counts
        self.lexicon = _Lexicon(client, names["terms"], n_chunks, len(doc_ids))
        self.bm25 = _LexicalStats(self, "df")
        self.doc_bm25 = _LexicalStats(self, "ddf")
        self._term_ids = _Cache()
        self._members = _Cache()  # (group kind, group number) -> member chunk rows
        # BM25's k1 and b are baked into the points' sparse values: changing them needs `layoutrag index`.
        # b -> the sparse vector saturated with it; a generation written before "bm25_long" records
        # no bm25_b_long and has "bm25" only
        self.vector_of_b = {float(meta.get("bm25_b", settings.index.bm25_b)): PLAIN_VECTOR}
        b_long = meta.get("bm25_b_long")
        if b_long is not None and float(b_long) not in self.vector_of_b:
            self.vector_of_b[float(b_long)] = LONG_VECTOR
        self._warned: set[float] = set()

    # ------------------------------------------------------------------ hooks
    def prepare(self, query: str, options: SearchOptions) -> None:
        """The df rows of every term the search will weigh, in one read."""
        terms = set(self.tokenizer.tokenize(query)) | set(self.tokenizer.tokenize(expand_query(query)))
        if options.mode != "dense":
            terms |= set(
                self.lexical_query(query, expand=options.expand_glossary, focus=options.focus_terms)
            )
        self.lexicon.prefetch(terms)

    def prefetch(self, rows: Iterable[int], *, records: bool = False) -> None:
        rows = [int(i) for i in rows]
        self.rows.ensure(rows)
        if records:
            self.chunks.prefetch(rows)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ helpers
    def bm25_using(self, lex: Mapping[str, float]) -> str:
        """The sparse vector that scores `lex` with the BM25 length normalization it asks for
        (`base.LexicalQuery.b`), as `HybridIndex._lexical` picks its BM25: None (or the settings'
        `bm25_b`) -> "bm25"; a b the generation holds -> its vector ("bm25_long" for `bm25_b_long`).

        A b the generation does not hold - a generation written before "bm25_long" existed, one
        written with another `bm25_b_long` than the search's settings, or a learned ranker fit with
        another b (`base.ranker_b_long`) - is scored with "bm25" (`bm25_b`, what every query got
        before), and a warning telling to rebuild with `layoutrag index` is logged once per b and
        index: the search answers, but not with the scores the embedded store would give. Never
        the nearest stored b."""
        b = getattr(lex, "b", None)
        if b is None:
            return PLAIN_VECTOR
        name = self.vector_of_b.get(float(b))
        if name is not None:
            return name
        if b != self.settings.index.bm25_b and float(b) not in self._warned:
            self._warned.add(float(b))
            log.warning(
                "Qdrant generation %s holds BM25 for b in %s, not %s (a scenario question's): scoring "
                "it with b = %s; rebuild with `layoutrag index` (index.bm25_b_long = %s) for the "
                "embedded store's scores",
                self.generation,
                sorted(self.vector_of_b),
                b,
                next(iter(self.vector_of_b)),
                b,
            )
        return PLAIN_VECTOR

    def term_ids(self, i: int) -> set[int]:
        ids = self._term_ids.get(int(i))
        if ids is None:
            self._fetch_term_ids([int(i)])
            ids = self._term_ids[int(i)]
        return ids

    def _fetch_term_ids(self, rows: Sequence[int]) -> None:
        missing = sorted({int(i) for i in rows} - self._term_ids.keys())
        for lo in range(0, len(missing), 1024):
            got = {
                int(pt.id): pt
                for pt in self.client.retrieve(
                    self.names["chunks"], missing[lo : lo + 1024], with_payload=False, with_vectors=[PLAIN_VECTOR]
                )
            }
            for i in missing[lo : lo + 1024]:  # the terms a chunk holds: the same in every b's vector
                pt = got.get(i)
                vec = pt.vector.get(PLAIN_VECTOR) if pt is not None and pt.vector else None
                self._term_ids.put(i, set(vec.indices) if vec is not None else set())

    def _sparse(self, lex: Mapping[str, float]) -> Any:
        from qdrant_client import models as m

        self.lexicon.prefetch(lex)
        pairs: dict[int, float] = {}
        for t, w in lex.items():
            st = self.lexicon.get(t)
            if st is not None and w > 0:
                pairs[st[0]] = pairs.get(st[0], 0.0) + float(w)
        if not pairs:
            return None
        keys = sorted(pairs)
        return m.SparseVector(indices=keys, values=[pairs[k] for k in keys])

    def _qfilter(self, mask: Any, docs: Sequence[str] | None = None) -> Any:
        from qdrant_client import models as m

        filters = mask.f if isinstance(mask, _Mask) else None
        must: list[Any] = []
        if docs is not None:
            must.append(m.FieldCondition(key="doc_id", match=m.MatchAny(any=list(docs))))
        if filters is not None:
            if filters.doc_id is not None:
                must.append(m.FieldCondition(key="doc_id", match=m.MatchValue(value=filters.doc_id)))
            if filters.block_type is not None:
                want = filters.block_type.lower()
                types = [t for t in self.table.block_types if _selects(want, t)] or ["\0none"]
                must.append(m.FieldCondition(key="block_type", match=m.MatchAny(any=types)))
            if filters.page_min is not None or filters.page_max is not None:
                must.append(
                    m.FieldCondition(key="page", range=m.Range(gte=filters.page_min, lte=filters.page_max))
                )
        return m.Filter(must=must) if must else None

    def _query(
        self, collection: str, query: Any, using: str, limit: int, qfilter: Any, payload: Any
    ) -> list[Any]:
        from qdrant_client import models as m

        # local mode is always exact (and warns at search params); a server is asked for exactness
        server = not isinstance(self.client, _Locked)
        params = m.SearchParams(exact=True) if (using == "dense" and self.exact and server) else None
        res = self.client.query_points(
            collection,
            query=query,
            using=using,
            limit=limit,
            query_filter=qfilter,
            with_payload=payload,
            search_params=params,
        )
        return list(res.points)

    def _ranked(self, points: list[Any], depth: int, key_of: Any) -> tuple[np.ndarray, np.ndarray]:
        """Best first, ties by `key_of(id)` (the embedded order), cut at depth; scores as float32."""
        rows = sorted(((np.float32(p.score), int(p.id)) for p in points), key=lambda t: (-t[0], key_of(t[1])))
        rows = rows[:depth]
        return (
            np.array([r[1] for r in rows], dtype=np.int64),
            np.array([r[0] for r in rows], dtype=np.float32),
        )

    # ------------------------------------------------------------------ the runs, as Qdrant queries
    def _filter_mask(self, filters: SearchFilters | None) -> Any:
        if filters is None or not any(
            v is not None for v in (filters.doc_id, filters.block_type, filters.page_min, filters.page_max)
        ):
            return None
        return _Mask(self.table, filters)

    def _chunk_query(self, vec: Any, using: str, depth: int, qfilter: Any) -> list[Any]:
        pts = self._query(self.names["chunks"], vec, using, depth + TIE_MARGIN, qfilter, list(ROW_FIELDS))
        self.rows.fill(pts)
        return pts

    def _bm25_run(self, lex: dict[str, float], depth: int, mask: Any) -> tuple[np.ndarray, np.ndarray]:
        vec = self._sparse(lex)
        if vec is None:
            return empty_run()
        pts = self._chunk_query(vec, self.bm25_using(lex), depth, self._qfilter(mask))
        ids = {int(p.id): p.payload["c"] for p in pts}
        return self._ranked(pts, depth, ids.__getitem__)

    def _dense_run(self, query: str, depth: int, mask: Any) -> tuple[np.ndarray, np.ndarray]:
        if self.embedder is None or self.rows.n == 0:
            return empty_run()
        qv = self.embedder.embed([query], "query")[0]
        pts = self._chunk_query(np.asarray(qv, dtype=np.float32).tolist(), "dense", depth, self._qfilter(mask))
        return self._ranked(pts, depth, lambda i: i)

    def group_run(self, kind: GroupKind, lex: dict[str, float], depth: int) -> tuple[np.ndarray, np.ndarray]:
        vec = self._sparse(lex)
        if vec is None or depth <= 0:
            return empty_run()
        pts = self._query(
            self.names[GROUP_COLLECTION[kind]], vec, self.bm25_using(lex), depth + TIE_MARGIN, None, ["members"]
        )
        members = {int(p.id): np.asarray(p.payload["members"], dtype=np.int64) for p in pts}
        for g, rows in members.items():
            self._members.put((kind, g), rows)
        g_idx, g_score = self._ranked(pts, depth, lambda i: i)
        self.rows.ensure(i for g in g_idx.tolist() for i in members[g].tolist())
        return g_idx, g_score

    def group_scores(self, kind: GroupKind, lex: dict[str, float], groups: np.ndarray) -> np.ndarray:
        from qdrant_client import models as m

        groups = np.asarray(groups, dtype=np.int64)
        out = np.zeros(len(groups), dtype=np.float32)
        vec = self._sparse(lex)
        if vec is None or not len(groups):
            return out
        pts = self._query(
            self.names[GROUP_COLLECTION[kind]],
            vec,
            self.bm25_using(lex),
            len(groups),
            m.Filter(must=[m.HasIdCondition(has_id=groups.tolist())]),
            False,
        )
        score = {int(p.id): np.float32(p.score) for p in pts}
        for j, g in enumerate(groups.tolist()):
            out[j] = score.get(g, 0.0)
        return out

    def group_members(self, kind: GroupKind, group: int) -> np.ndarray:
        got = self._members.get((kind, int(group)))
        if got is None:
            pts = self.client.retrieve(self.names[GROUP_COLLECTION[kind]], [int(group)], with_payload=["members"])
            got = np.asarray(pts[0].payload["members"] if pts else [], dtype=np.int64)
            self._members.put((kind, int(group)), got)
        return got

    def page_index(self, i: int) -> int:
        return self.rows.get(i)[4]

    def bag_len(self, i: int) -> float:
        return self.rows.get(i)[5]

    def holders(self, rows: np.ndarray, terms: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(rows), len(terms)), dtype=bool)
        self.lexicon.prefetch(terms)
        ids = [(j, st[0]) for j, t in enumerate(terms) if (st := self.lexicon.get(t)) is not None]
        if not ids or not len(rows):
            return out
        self._fetch_term_ids(np.asarray(rows).tolist())
        for r, i in enumerate(np.asarray(rows).tolist()):
            held = self.term_ids(i)
            for j, t_id in ids:
                out[r, j] = t_id in held
        return out

    def docs_holding(self, term: str) -> set[int]:
        from qdrant_client import models as m

        st = self.lexicon.get(term)
        if st is None or st[2] <= 0:
            return set()
        vec = m.SparseVector(indices=[st[0]], values=[1.0])  # which documents, not a score: any b's vector
        return {int(p.id) for p in self._query(self.names["docs"], vec, PLAIN_VECTOR, st[2], None, False)}

    def residual_run(
        self, lex: dict[str, float], b_idx: np.ndarray, mask: Any, depth: int, docs: int
    ) -> np.ndarray:
        none = np.zeros(0, dtype=np.int64)
        if depth <= 0 or not len(b_idx):
            return none
        own = self.card_terms(self.table.doc_ids[self.table.doc_index[int(b_idx[0])]])
        weights = {t: w for t, w in lex.items() if t not in own}
        vec = self._sparse(weights) if weights else None
        if vec is None:
            return none
        lead_docs = sorted({self.table.doc_ids[int(self.table.doc_index[int(i)])] for i in b_idx[:docs]})
        pts = self._chunk_query(vec, self.bm25_using(lex), depth, self._qfilter(mask, lead_docs))
        r_idx, _ = self._ranked(pts, depth, lambda i: i)
        return np.asarray(r_idx, dtype=np.int64)
