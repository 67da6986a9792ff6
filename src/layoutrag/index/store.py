"""The embedded store: index generations in ``DATA/index``, swapped atomically.

    index/CURRENT                 name of the live generation (replaced with os.replace)
    index/gen-NNNNNN/             one immutable generation:
        meta.json                 counts, tokenizer, embedder, format version
        chunks.jsonl, chunk_offsets.npy    chunk records (parsed lazily by offset)
        table.json, table.npz     chunk ids, doc ids, pages, block types (filters, ties)
        cards.json                DocumentCard per document
        vocab.json, tf_*.npy, doc_len.npy  BM25 term counts (weights derived at load, so k1/b
                                  can change without a rebuild)
        vectors.npy (+ row_chunk, centroids, offsets .npy for IVF)   dense matrix, memory-mapped
    index/.build.lock             one build at a time

A build writes into ``.tmp-gen-*`` and renames it to ``gen-NNNNNN`` only when complete, then swaps
CURRENT. A reader follows CURRENT once and sees a whole generation; a build killed at any point
leaves the old generation serving (the next build sweeps the debris). Passage vectors come from
the embedding cache, so a rebuild embeds only new or changed texts.
"""

from __future__ import annotations

import fcntl
import json
import mmap
import os
import shutil
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, overload

import numpy as np
import scipy.sparse as sp

from layoutrag.config import Settings, load_settings
from layoutrag.errors import IndexMissingError, InputError, LayoutragError
from layoutrag.index.base import SearchIndex
from layoutrag.index.bm25 import TermCounts, count_terms
from layoutrag.index.candidates import PASSAGE_VERSION, warn_if_stale_passages
from layoutrag.index.dense import DenseIndex
from layoutrag.index.embedders import (
    Embedder,
    EmbeddingCache,
    embed_with_cache,
    get_embedder,
    resolve_embedder_name,
)
from layoutrag.index.hybrid import ChunkTable, HybridIndex, bm25_text, embed_text
from layoutrag.index.tokenizer import get_tokenizer
from layoutrag.records import Chunk, DocChunks, DocumentCard
from layoutrag.storage import DataDir, atomic_write_text, with_path

__all__ = [
    "FORMAT_VERSION",
    "FileStore",
    "IndexStats",
    "Store",
    "build_index",
    "load_index",
    "write_generation",
]

FORMAT_VERSION = 1
KEEP_GENERATIONS = 2


@dataclass(frozen=True)
class IndexStats:
    generation: str
    chunks: int
    documents: int
    embedded: int  # texts embedded by this build (the rest came from the cache)
    embedder: str
    dim: int
    seconds: float
    bytes: int


class Store(Protocol):
    """Where index generations live. The file store is the embedded default; a distributed engine
    would implement the same three calls."""

    def current(self) -> str | None: ...

    def write(self, chunks: Sequence[Chunk], cards: Mapping[str, DocumentCard], **kw: object) -> str: ...

    def load(self, *, settings: Settings) -> SearchIndex: ...


# --------------------------------------------------------------------------- lazy chunk records
class LazyChunks(Sequence[Chunk]):
    """Chunk records read from a generation's chunks.jsonl on access (an index of a million chunks
    loads in a second and parses only the hits it returns)."""

    def __init__(self, path: Path, offsets: np.ndarray) -> None:
        self._offsets = offsets
        self._file = open(path, "rb")  # noqa: SIM115 -- held for the index's lifetime
        size = os.fstat(self._file.fileno()).st_size
        self._buf = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ) if size else b""

    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, i: int) -> Chunk: ...
    @overload
    def __getitem__(self, i: slice) -> list[Chunk]: ...
    def __getitem__(self, i: int | slice) -> Chunk | list[Chunk]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        i = int(i)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        lo, hi = int(self._offsets[i]), int(self._offsets[i + 1])
        return Chunk.model_validate_json(self._buf[lo:hi])

    def __iter__(self) -> Iterator[Chunk]:
        for i in range(len(self)):
            yield self[i]


# --------------------------------------------------------------------------- writing
def _gens(index_dir: Path) -> list[Path]:
    if not index_dir.is_dir():
        return []
    return sorted(p for p in index_dir.iterdir() if p.is_dir() and p.name.startswith("gen-"))


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _save_npy(path: Path, arr: np.ndarray) -> None:
    with open(path, "wb") as f:
        np.save(f, np.ascontiguousarray(arr))
        f.flush()
        os.fsync(f.fileno())


def _write_text(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def write_generation(
    tmp: Path,
    chunks: Sequence[Chunk],
    cards: Mapping[str, DocumentCard],
    *,
    counts: TermCounts,
    dense: DenseIndex,
    meta: dict,
) -> None:
    """Write every file of a generation into the (fresh) directory `tmp`."""
    offsets = np.zeros(len(chunks) + 1, dtype=np.int64)
    with open(tmp / "chunks.jsonl", "wb") as f:
        pos = 0
        for i, c in enumerate(chunks):
            line = c.model_dump_json().encode("utf-8") + b"\n"
            f.write(line)
            pos += len(line)
            offsets[i + 1] = pos
        f.flush()
        os.fsync(f.fileno())
    _save_npy(tmp / "chunk_offsets.npy", offsets)
    table = ChunkTable.from_chunks(chunks)
    _write_text(
        tmp / "table.json",
        json.dumps(
            {"chunk_ids": table.chunk_ids, "doc_ids": table.doc_ids, "block_types": table.block_types}
        ),
    )
    np.savez(tmp / "table.npz", doc_index=table.doc_index, pages=table.pages, block_codes=table.block_codes)
    _write_text(
        tmp / "cards.json",
        json.dumps([c.model_dump(mode="json") for c in cards.values()], ensure_ascii=False),
    )
    vocab = sorted(counts.vocab, key=counts.vocab.__getitem__)
    _write_text(tmp / "vocab.json", json.dumps(vocab, ensure_ascii=False))
    tf = counts.tf.tocsc()
    _save_npy(tmp / "tf_data.npy", tf.data.astype(np.float32))
    _save_npy(tmp / "tf_indices.npy", tf.indices.astype(np.int32))
    _save_npy(tmp / "tf_indptr.npy", tf.indptr.astype(np.int64))
    _save_npy(tmp / "doc_len.npy", counts.doc_len.astype(np.float32))
    _save_npy(tmp / "vectors.npy", np.asarray(dense.matrix, dtype=np.float32))
    if dense.centroids is not None:
        assert dense.row_chunk is not None and dense.offsets is not None
        _save_npy(tmp / "row_chunk.npy", dense.row_chunk)
        _save_npy(tmp / "centroids.npy", dense.centroids)
        _save_npy(tmp / "ivf_offsets.npy", dense.offsets)
    _write_text(tmp / "meta.json", json.dumps({**meta, "format": FORMAT_VERSION}, indent=1))
    _fsync_dir(tmp)


def publish_generation(index_dir: Path, tmp: Path) -> str:
    """Rename a complete `tmp` to the next gen-NNNNNN and swap CURRENT to it; prune old ones."""
    gens = _gens(index_dir)
    nxt = (int(gens[-1].name[4:]) + 1) if gens else 1
    name = f"gen-{nxt:06d}"
    os.rename(tmp, index_dir / name)
    _fsync_dir(index_dir)
    atomic_write_text(index_dir / "CURRENT", name + "\n")
    for old in _gens(index_dir)[:-KEEP_GENERATIONS]:
        shutil.rmtree(old, ignore_errors=True)  # readers holding its mmaps keep reading (POSIX)
    return name


@contextmanager
def _build_lock(index_dir: Path) -> Iterator[None]:
    """One writer at a time per data dir (readers never lock: they follow CURRENT)."""
    index_dir.mkdir(parents=True, exist_ok=True)
    with open(index_dir / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _sources(data: DataDir, exclude: Collection[str] = ()) -> list[Path]:
    """The chunk files of every imported and every ingested document (imported first), but those
    of the doc ids in `exclude` (documents being removed)."""
    sources = []
    if data.imported.is_dir():
        sources += sorted(p for p in data.imported.glob("*.json") if p.stem not in exclude)
    if data.docs.is_dir():
        sources += sorted(
            p / "chunks.json" for p in data.docs.iterdir() if (p / "chunks.json").is_file() and p.name not in exclude
        )
    return sources


def _gather(data: DataDir, exclude: Collection[str] = ()) -> tuple[list[Chunk], dict[str, DocumentCard]]:
    """Indexed chunks and cards of every ingested and every imported document (ingested wins)."""
    docs: dict[str, DocChunks] = {}
    for path in _sources(data, exclude):
        try:
            dc = DocChunks.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a damaged chunks file drops that document, never the build
        if dc.card.doc_id in exclude:
            continue
        docs[dc.card.doc_id or path.parent.name] = dc
    chunks = [c for d in sorted(docs) for c in docs[d].chunks if c.indexed]
    cards = {d: docs[d].card for d in sorted(docs)}
    return chunks, cards


def build_index(
    data_root: Path,
    *,
    progress: bool = False,
    settings: Settings | None = None,
    embedder: Embedder | str | None = None,
    require_documents: bool = False,
    exclude: Collection[str] = (),
) -> IndexStats:
    """Build a new generation from docs/*/chunks.json and imported chunks (but the doc ids in
    `exclude`: documents about to be removed), then swap it in.
    With `require_documents` a data dir with no document to index is an InputError (nothing is
    written); without, it gets an empty index."""
    t0 = time.perf_counter()
    s = settings or load_settings()
    data = DataDir(data_root)
    if require_documents and not _sources(data):
        raise InputError(f"no ingested documents in {data.root}; run `layoutrag ingest` first")
    index_dir = data.index
    index_dir.mkdir(parents=True, exist_ok=True)
    with _build_lock(index_dir):
        for debris in index_dir.glob(".tmp-gen-*"):
            shutil.rmtree(debris, ignore_errors=True)
        tmp = index_dir / f".tmp-gen-{os.getpid()}"
        tmp.mkdir()
        try:
            chunks, cards = _gather(data, exclude)
            if require_documents and not cards:  # every chunks file is damaged: keep the live index
                raise InputError(f"no readable chunks in {data.root}; run `layoutrag ingest` again")
            if embedder is None or isinstance(embedder, str):
                emb_name = resolve_embedder_name(embedder or s.index.embedder)
                emb = get_embedder(emb_name)
            else:
                emb, emb_name = embedder, embedder.model_id
            tok = get_tokenizer("part_aware")
            counts = count_terms(tok.tokenize(bm25_text(c, cards.get(c.doc_id))) for c in chunks)
            cache = EmbeddingCache(data.cache, emb.model_id)
            texts = [embed_text(c, s.index.embed_max_chars, cards.get(c.doc_id)) for c in chunks]
            vectors, n_embedded = embed_with_cache(emb, texts, cache, progress=progress)
            meta = {
                "chunks": len(chunks),
                "documents": len(cards),
                "tokenizer": tok.name,
                "embedder": emb_name,
                "embedder_model_id": emb.model_id,
                "dim": int(vectors.shape[1]) if len(chunks) else emb.dim,
                "passage": PASSAGE_VERSION,
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            }
            qdrant = _qdrant_store(data, s)
            if qdrant is not None:  # the index lives in Qdrant (layoutrag.index.qdrant_store)
                name = qdrant.write(chunks, cards, counts=counts, vectors=vectors, meta=meta, settings=s)
                size = qdrant.size()
                shutil.rmtree(tmp, ignore_errors=True)
                atomic_write_text(index_dir / "CURRENT", f"qdrant-{name}\n")  # what refresh() follows
            else:
                dense = (
                    DenseIndex.build(vectors) if len(chunks) else DenseIndex(np.zeros((0, emb.dim), np.float32))
                )
                write_generation(tmp, chunks, cards, counts=counts, dense=dense, meta=meta)
                size = sum(f.stat().st_size for f in tmp.iterdir())
                name = publish_generation(index_dir, tmp)
        except OSError as e:  # a full disk: name where (a write's error names no file)
            shutil.rmtree(tmp, ignore_errors=True)
            raise with_path(e, tmp) from None
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return IndexStats(
        generation=name,
        chunks=len(chunks),
        documents=len(cards),
        embedded=n_embedded,
        embedder=emb.model_id,
        dim=int(meta["dim"]),  # type: ignore[call-overload]
        seconds=round(time.perf_counter() - t0, 2),
        bytes=size,
    )


# --------------------------------------------------------------------------- reading
def current_generation(data: DataDir) -> Path:
    try:
        name = (data.index / "CURRENT").read_text(encoding="utf-8").strip()
    except OSError:
        raise IndexMissingError(
            f"no index in {data.root} yet (run `layoutrag ingest` or `layoutrag index`)"
        ) from None
    path = data.index / name
    if not name.startswith("gen-") or not path.is_dir():
        raise IndexMissingError(f"index pointer in {data.root} names a missing generation {name[:40]!r}")
    return path


def _load_npy(path: Path, mmap_mode: Literal["r"] | None = "r") -> np.ndarray:
    return np.load(path, mmap_mode=mmap_mode)


def load_generation(gen: Path, *, settings: Settings, embedder: Embedder | None = None) -> HybridIndex:
    meta = json.loads((gen / "meta.json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT_VERSION:
        raise IndexMissingError(
            f"index format {meta.get('format')} is not {FORMAT_VERSION}; rebuild with `layoutrag index`"
        )
    offsets = _load_npy(gen / "chunk_offsets.npy", None)
    chunks = LazyChunks(gen / "chunks.jsonl", offsets)
    tj = json.loads((gen / "table.json").read_text(encoding="utf-8"))
    with np.load(gen / "table.npz") as z:
        table = ChunkTable(
            chunk_ids=tj["chunk_ids"],
            doc_ids=tj["doc_ids"],
            doc_index=z["doc_index"],
            pages=z["pages"],
            block_types=tj["block_types"],
            block_codes=z["block_codes"],
        )
    cards = {
        c["doc_id"]: DocumentCard.model_validate(c)
        for c in json.loads((gen / "cards.json").read_text(encoding="utf-8"))
    }
    vocab_list = json.loads((gen / "vocab.json").read_text(encoding="utf-8"))
    n = len(chunks)
    tf = sp.csc_matrix(
        (
            _load_npy(gen / "tf_data.npy", None),
            _load_npy(gen / "tf_indices.npy", None),
            _load_npy(gen / "tf_indptr.npy", None),
        ),
        shape=(n, max(len(vocab_list), 1)),
    )
    counts = TermCounts(
        tf=tf, vocab={t: i for i, t in enumerate(vocab_list)}, doc_len=_load_npy(gen / "doc_len.npy", None)
    )
    dense = DenseIndex(matrix=_load_npy(gen / "vectors.npy"), nprobe=settings.index.dense_nprobe)
    if (gen / "centroids.npy").exists():
        dense.row_chunk = _load_npy(gen / "row_chunk.npy", None)
        dense.centroids = _load_npy(gen / "centroids.npy", None)
        dense.offsets = _load_npy(gen / "ivf_offsets.npy", None)
    if embedder is None:
        embedder = get_embedder(meta.get("embedder") or "default")
    warn_if_stale_passages(meta, str(gen))
    if embedder.model_id != meta.get("embedder_model_id"):
        raise LayoutragError(
            f"index was built with {meta.get('embedder_model_id')}, not {embedder.model_id}; rebuild with `layoutrag index`"
        )
    return HybridIndex(
        chunks,
        cards,
        table=table,
        counts=counts,
        dense=dense,
        embedder=embedder,
        tokenizer=get_tokenizer(meta.get("tokenizer", "part_aware")),
        settings=settings,
    )


def load_index(data: DataDir | Path | str, *, settings: Settings | None = None) -> SearchIndex:
    """The live generation of a data dir (IndexMissingError when there is none)."""
    data = data if isinstance(data, DataDir) else DataDir(data)
    settings = settings or load_settings()
    qdrant = _qdrant_store(data, settings)
    if qdrant is not None:
        return qdrant.load(settings=settings)
    return load_generation(current_generation(data), settings=settings)


def _qdrant_store(data: DataDir, settings: Settings):  # noqa: ANN202 - QdrantStore | None
    """The data dir's Qdrant store when its index lives in Qdrant (STORE.json, else the settings)."""
    from layoutrag.index.qdrant_store import store_for

    return store_for(data, settings)


class FileStore:
    """The embedded `Store`: generations as files in DataDir.index."""

    def __init__(self, data: DataDir) -> None:
        self.data = data

    def current(self) -> str | None:
        try:
            return current_generation(self.data).name
        except IndexMissingError:
            return None

    def write(self, chunks: Sequence[Chunk], cards: Mapping[str, DocumentCard], **kw: object) -> str:
        """Write a generation from chunks and precomputed parts (`counts`, `dense`, `meta`)."""
        with _build_lock(self.data.index):
            tmp = self.data.index / f".tmp-gen-{os.getpid()}-w"
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir()
            try:
                write_generation(tmp, chunks, cards, **kw)  # type: ignore[arg-type]
                return publish_generation(self.data.index, tmp)
            except BaseException:
                shutil.rmtree(tmp, ignore_errors=True)
                raise

    def load(self, *, settings: Settings) -> SearchIndex:
        return load_index(self.data, settings=settings)
