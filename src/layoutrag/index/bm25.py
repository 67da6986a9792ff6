"""BM25 over scipy sparse matrices: term frequencies are stored, weights derived with (k1, b) at load,
so changing k1/b needs no rebuild. Scoring a query sums the columns of its terms; top-k uses
`argpartition` and sorts only the k kept (as bm25s does).

Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond" (2009):
    idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))
    w(t, d) = idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avgdl))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

__all__ = [
    "BM25Index",
    "TermCounts",
    "bm25_idf",
    "bm25_weights",
    "count_terms",
    "doc_term_counts",
    "group_term_counts",
    "top_k",
]


class TermCounts(NamedTuple):
    """Term frequencies as a CSC matrix (docs x terms), the vocabulary and the document lengths."""

    tf: sp.csc_matrix
    vocab: dict[str, int]
    doc_len: np.ndarray


def bm25_idf(df: np.ndarray, n_docs: int, dtype: type = np.float32) -> np.ndarray:
    return np.log1p((n_docs - df + 0.5) / (df + 0.5)).astype(dtype)


def bm25_weights(counts: TermCounts, *, k1: float, b: float) -> sp.csc_matrix:
    """The doc x term BM25 weight matrix (same sparsity as `tf`)."""
    tf = counts.tf
    n_docs = tf.shape[0]
    df = np.diff(tf.indptr)
    idf = bm25_idf(df, n_docs)
    avgdl = float(counts.doc_len.mean()) if n_docs else 1.0
    avgdl = avgdl or 1.0
    doc_len = counts.doc_len[tf.indices]
    tfv = tf.data.astype(np.float32)
    norm = k1 * (1.0 - b + b * doc_len / avgdl)
    term_of_entry = np.repeat(np.arange(tf.shape[1]), df)
    data = idf[term_of_entry] * tfv * (k1 + 1.0) / (tfv + norm)
    return sp.csc_matrix((data.astype(np.float32), tf.indices, tf.indptr), shape=tf.shape)


def count_terms(docs: Iterable[Sequence[str]], vocab: dict[str, int] | None = None) -> TermCounts:
    """Token lists -> term counts. A given vocab is extended with new terms."""
    vocab = {} if vocab is None else dict(vocab)
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    lens: list[int] = []
    for i, toks in enumerate(docs):
        counts = Counter(toks)
        ids = np.fromiter(
            (vocab.setdefault(t, len(vocab)) for t in counts), dtype=np.int64, count=len(counts)
        )
        rows.append(np.full(len(ids), i, dtype=np.int64))
        cols.append(ids)
        vals.append(np.fromiter(counts.values(), dtype=np.float32, count=len(counts)))
        lens.append(len(toks))
    n = len(lens)
    if n and any(len(r) for r in rows):
        r, c, v = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    else:
        r = c = np.zeros(0, dtype=np.int64)
        v = np.zeros(0, dtype=np.float32)
    tf = sp.csc_matrix((v, (r, c)), shape=(n, max(len(vocab), 1)), dtype=np.float32)
    tf.sort_indices()
    return TermCounts(tf=tf, vocab=vocab, doc_len=np.asarray(lens, dtype=np.float32))


def doc_term_counts(counts: TermCounts, table: object) -> TermCounts:
    """Term counts of whole documents: the sum of their chunks' counts (`table.doc_index`)."""
    return group_term_counts(counts, np.asarray(table.doc_index), len(table.doc_ids))  # type: ignore[attr-defined]


def group_term_counts(counts: TermCounts, group: np.ndarray, n_groups: int) -> TermCounts:
    """Term counts of groups of chunks (documents, pages): the sum of their members' counts."""
    n = len(group)
    member = sp.csr_matrix((np.ones(n, dtype=np.float32), (group, np.arange(n))), shape=(n_groups, n))
    tf = sp.csc_matrix(member @ counts.tf)
    tf.sort_indices()
    doc_len = np.bincount(group, weights=counts.doc_len, minlength=n_groups).astype(np.float32)
    return TermCounts(tf=tf, vocab=counts.vocab, doc_len=doc_len)


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k highest scores, best first; ties by index (stable)."""
    idx = np.arange(len(scores))
    vals = scores[idx]
    if len(idx) > k:
        part = np.argpartition(-vals, k - 1)[:k]
        idx, vals = idx[part], vals[part]
    order = np.lexsort((idx, -vals))
    return idx[order]


class BM25Index:
    """Query-time BM25: weights in CSC form so a query touches only its terms' postings."""

    def __init__(self, counts: TermCounts, *, k1: float, b: float) -> None:
        self.vocab = counts.vocab
        self.n_docs = counts.tf.shape[0]
        self.weights = bm25_weights(counts, k1=k1, b=b)
        # per term, made once; float64 for the query-side idf shares (routing gate, row bonus)
        self._idf = bm25_idf(np.diff(self.weights.indptr), self.n_docs, np.float64)

    def idf(self, term: str) -> float:
        """The term's idf (0 for a term the index does not know)."""
        j = self.vocab.get(term)
        return 0.0 if j is None else float(self._idf[j])

    def df(self, term: str) -> int:
        """How many documents hold the term."""
        j = self.vocab.get(term)
        return 0 if j is None else int(self.weights.indptr[j + 1] - self.weights.indptr[j])

    def holds(self, doc: int, term: str) -> bool:
        """Does document `doc` contain `term`? (A binary search in the term's sorted postings.)"""
        j = self.vocab.get(term)
        if j is None:
            return False
        lo, hi = self.weights.indptr[j], self.weights.indptr[j + 1]
        k = lo + int(np.searchsorted(self.weights.indices[lo:hi], doc))
        return k < hi and int(self.weights.indices[k]) == doc

    def scores(self, query_tokens: Sequence[str] | Mapping[str, float]) -> tuple[np.ndarray, np.ndarray]:
        """(doc indices with a positive score, their scores). Repeated query terms count once each
        time they occur (query term frequency), as in the reference implementations; a mapping gives
        each term its weight directly."""
        if isinstance(query_tokens, Mapping):
            qtf = {t: float(n) for t, n in query_tokens.items() if t in self.vocab and n > 0}
        else:
            qtf = dict(Counter(t for t in query_tokens if t in self.vocab))
        if not qtf:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        w = self.weights
        parts_i, parts_v = [], []
        for term, n in qtf.items():
            j = self.vocab[term]
            lo, hi = w.indptr[j], w.indptr[j + 1]
            parts_i.append(w.indices[lo:hi])
            parts_v.append(w.data[lo:hi] * n if n != 1 else w.data[lo:hi])
        idx = np.concatenate(parts_i)
        val = np.concatenate(parts_v)
        if len(qtf) == 1 and len(idx) == len(np.unique(idx)):
            return idx.astype(np.int64), val
        dense = np.bincount(idx, weights=val, minlength=self.n_docs).astype(np.float32)
        hit = np.flatnonzero(dense)
        return hit, dense[hit]
