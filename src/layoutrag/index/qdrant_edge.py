"""Qdrant Edge as the Qdrant store's engine (`--qdrant-engine edge`): Qdrant's own engine (the Rust
segments, sparse inverted index, payload indexes, HNSW) in process, from the `qdrant-edge-py` package.

Edge has shards, not collections or aliases. `EdgeClient` speaks the part of qdrant-client's API
the store uses (create/delete a collection, upsert, retrieve, scroll, query_points, payload
indexes, aliases) on this layout:

    ROOT/collections/{name}/      one Edge shard per collection (a generation is five of them)
    ROOT/ALIASES.json             alias -> collection, the pointer a swap replaces atomically
                                  (temp file + rename): a reader sees the old set or the new one

A generation's shards are written once, flushed, and only then pointed at; they run without a
write-ahead log (nothing is appended after the swap), which is also what lets several processes
open the same shards: `serve` in one process and `index` in another work on one path (local
mode allows one process per path). Requests and answers are qdrant-client's models
(`qdrant_client.models`), translated here, so `QdrantStore` and `QdrantIndex` have one code path.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from layoutrag.errors import InputError
from layoutrag.storage import atomic_write_text

__all__ = ["EdgeClient"]

ALIASES = "ALIASES.json"
PLACEHOLDER = "_"  # Edge needs a vector per shard: payload-only collections get an empty sparse one


def _edge() -> Any:
    try:
        import qdrant_edge
    except ImportError:
        raise InputError(
            "the Qdrant Edge engine needs the scale extra: pip install 'layoutrag[scale]'"
        ) from None
    return qdrant_edge


class EdgeClient:
    """qdrant-client's calls the store makes, on Edge shards under `root` (thread-safe)."""

    def __init__(self, root: Path) -> None:
        self.q = _edge()
        self.root = Path(root)
        (self.root / "collections").mkdir(parents=True, exist_ok=True)
        self._shards: dict[str, Any] = {}
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ shards
    def _dir(self, name: str) -> Path:
        if not name or "/" in name or name.startswith("."):
            raise InputError(f"bad collection name {name!r}")
        return self.root / "collections" / name

    def _shard(self, name: str) -> Any:
        with self._lock:
            shard = self._shards.get(name)
            if shard is None:
                path = self._dir(name)
                if not (path / "edge_config.json").is_file():
                    raise InputError(f"no Qdrant Edge collection {name} in {self.root}")
                shard = self._shards[name] = self.q.EdgeShard.load(str(path))
            return shard

    def get_collections(self) -> Any:
        names = sorted(p.name for p in (self.root / "collections").iterdir() if p.is_dir())
        return SimpleNamespace(collections=[SimpleNamespace(name=n) for n in names])

    def create_collection(
        self, name: str, *, vectors_config: dict | None = None, sparse_vectors_config: dict | None = None
    ) -> None:
        q = self.q
        dense = {
            k: q.EdgeVectorParams(size=int(v.size), distance=_distance(q, v.distance))
            for k, v in (vectors_config or {}).items()
        }
        sparse = {
            k: q.EdgeSparseVectorParams(modifier=q.Modifier.Idf if v.modifier is not None else None)
            for k, v in (sparse_vectors_config or {}).items()
        }
        if not dense and not sparse:
            sparse = {PLACEHOLDER: q.EdgeSparseVectorParams()}
        path = self._dir(name)
        if path.exists():
            raise InputError(f"Qdrant Edge collection {name} exists already in {self.root}")
        cfg = q.EdgeConfig(vectors=dense or None, sparse_vectors=sparse or None, wal_enabled=False)
        with self._lock:
            self._shards[name] = q.EdgeShard.create(str(path), cfg)

    def delete_collection(self, name: str) -> None:
        with self._lock:
            shard = self._shards.pop(name, None)
            if shard is not None:
                shard.close()
            shutil.rmtree(self._dir(name), ignore_errors=True)

    def create_payload_index(self, name: str, field: str, *, field_schema: str) -> None:
        q = self.q
        schema = {"keyword": q.PayloadSchemaType.Keyword, "integer": q.PayloadSchemaType.Integer}[field_schema]
        self._shard(name).update(q.UpdateOperation.create_field_index(field, schema))

    # ------------------------------------------------------------------ aliases (the pointer file)
    def _read_aliases(self) -> dict[str, str]:
        try:
            return dict(json.loads((self.root / ALIASES).read_text(encoding="utf-8")))
        except (OSError, ValueError):
            return {}

    def get_aliases(self) -> Any:
        return SimpleNamespace(
            aliases=[SimpleNamespace(alias_name=a, collection_name=c) for a, c in self._read_aliases().items()]
        )

    def update_collection_aliases(self, *, change_aliases_operations: list[Any]) -> None:
        """All alias changes in one atomic replace of the pointer file (the shards they name are
        flushed first, so a reader never follows a pointer to data not yet on disk)."""
        with self._lock:
            aliases = self._read_aliases()
            for op in change_aliases_operations:
                if getattr(op, "delete_alias", None) is not None:
                    aliases.pop(op.delete_alias.alias_name, None)
                elif getattr(op, "create_alias", None) is not None:
                    name = op.create_alias.collection_name
                    self._shard(name).flush()
                    aliases[op.create_alias.alias_name] = name
            atomic_write_text(self.root / ALIASES, json.dumps(aliases, indent=1, sort_keys=True) + "\n")

    # ------------------------------------------------------------------ points
    def upsert(self, name: str, points: list[Any], wait: bool = True) -> None:
        q = self.q
        pts = [
            q.Point(
                id=int(p.id),
                vector={k: _vector(q, v) for k, v in (p.vector or {}).items()},
                payload=p.payload,
            )
            for p in points
        ]
        if pts:
            self._shard(name).update(q.UpdateOperation.upsert_points(pts))

    def retrieve(
        self, name: str, ids: list[int], with_payload: Any = True, with_vectors: Any = False
    ) -> list[Any]:
        return list(self._shard(name).retrieve([int(i) for i in ids], with_payload, with_vectors))

    def scroll(self, name: str, *, limit: int, offset: Any = None, with_payload: Any = True) -> tuple[list, Any]:
        req = self.q.ScrollRequest(offset=offset, limit=limit, with_payload=with_payload, with_vector=False)
        pts, nxt = self._shard(name).scroll(req)
        return list(pts), nxt

    def query_points(
        self,
        name: str,
        *,
        query: Any,
        using: str,
        limit: int,
        query_filter: Any = None,
        with_payload: Any = True,
        search_params: Any = None,
    ) -> Any:
        q = self.q
        req = q.QueryRequest(
            limit=int(limit),
            query=q.Query.Nearest(_vector(q, query), using=using),
            filter=_filter(q, query_filter),
            with_payload=with_payload,
            with_vector=False,
            params=q.SearchParams(exact=bool(search_params.exact)) if search_params is not None else None,
        )
        return SimpleNamespace(points=list(self._shard(name).query(req)))


def _distance(q: Any, distance: Any) -> Any:
    return {"Dot": q.Distance.Dot, "Cosine": q.Distance.Cosine, "Euclid": q.Distance.Euclid}[
        str(getattr(distance, "value", distance))
    ]


def _vector(q: Any, v: Any) -> Any:
    """A qdrant-client vector (a list, or models.SparseVector) as Edge's."""
    if hasattr(v, "indices"):
        return q.SparseVector(indices=[int(i) for i in v.indices], values=[float(x) for x in v.values])
    return [float(x) for x in v]


def _filter(q: Any, f: Any) -> Any:
    """models.Filter(must=[FieldCondition(match=MatchValue|MatchAny, range=Range) | HasIdCondition])."""
    if f is None:
        return None
    must = []
    for c in f.must or []:
        if hasattr(c, "has_id"):
            must.append(q.HasIdCondition(point_ids={int(i) for i in c.has_id}))
        elif c.match is not None and hasattr(c.match, "any"):
            must.append(q.FieldCondition(key=c.key, match=q.MatchAny(any=list(c.match.any))))
        elif c.match is not None:
            must.append(q.FieldCondition(key=c.key, match=q.MatchValue(value=c.match.value)))
        elif c.range is not None:
            must.append(q.FieldCondition(key=c.key, range=q.RangeFloat(gte=c.range.gte, lte=c.range.lte)))
        else:
            raise InputError(f"filter condition not supported on Qdrant Edge: {c!r}")
    return q.Filter(must=must)
