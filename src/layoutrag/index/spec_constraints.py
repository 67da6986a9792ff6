"""Numeric constraints in a search query: chunks whose table rows meet them rank higher.

"stability ±10 ppm TCXO" names a value, not only words: a table whose stability row prints
±10 ppm (or better, for "<=") answers it, one that merely says "stability" and "ppm" does not.
The constraints are read from the query by the parser the parametric search uses
(:func:`layoutrag.specs.parse_query`, strict: a named parameter with an operator or a value
with its own unit - the numbers of part codes and test conditions are not constraints); a chunk's values are read from its table rows
(or a dot-leader ratings list's or "name: value" text lines) by the spec stage's reader (:func:`layoutrag.chunking.specs.chunk_specs`, without the page words the stored
``specs.json`` was made with), once per chunk and index. A candidate among the leading
``depth`` whose values meet k of the n constraints gains ``weight * k / n`` of the leading
candidates' score spread (top score minus the score at ``depth``): it moves ahead of chunks that
share only the words, by no more than ``weight`` of that spread, so a strong lexical or dense
match is not buried by any table that happens to hold a matching number. A query with no
constraint, or no candidate with a matching value, is ranked exactly as before. A query asking a nominal frequency
("crystal frequency 26 MHz, ESR below 60 ohm", or a range of them) reads a crystal's or oscillator's values of the
bands that hold it only, as parametric search does (`specs.at_frequency`, `parametric.read_frequency`).

The hook is one call at the end of ``HybridIndex.rank`` (fused modes only; ``bm25``/``dense``
stay pure) - ``SearchSettings.spec_constraint_weight`` 0 turns it off.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Protocol

from layoutrag.chunking.specs import chunk_specs
from layoutrag.parametric import read_frequency
from layoutrag.records import Chunk, DocumentCard, SpecConstraint, SpecValue
from layoutrag.specs import asked_frequency, at_frequency, check, parse_query

__all__ = ["boost_constraints", "chunk_meets", "query_constraints"]

DEPTH = 30  # leading candidates checked


class _Ranked(Protocol):
    @property
    def chunks(self) -> Sequence[Chunk]: ...

    @property
    def cards(self) -> Mapping[str, DocumentCard]: ...


@lru_cache(maxsize=512)
def _parsed(query: str) -> tuple[SpecConstraint, ...]:
    cons, _, _ = parse_query(query, strict=True)
    return tuple(cons)


def query_constraints(query: str) -> tuple[SpecConstraint, ...]:
    """The numeric constraints a search query states ("ESR below 50k", "±10 ppm", "12.5 pF")."""
    return _parsed(query)


_VALUES: weakref.WeakKeyDictionary[object, dict[int, list[SpecValue]]] = weakref.WeakKeyDictionary()


def _values(index: _Ranked, i: int) -> list[SpecValue]:
    """Chunk i's spec values, read once per index object (an index swap brings a new object)."""
    try:
        memo = _VALUES.setdefault(index, {})
    except TypeError:  # an object without weak references: no memo
        memo = {}
    vals = memo.get(i)
    if vals is None:
        vals = memo[i] = chunk_specs(index.chunks[i])
    return vals


def chunk_meets(constraints: tuple[SpecConstraint, ...], values: list[SpecValue]) -> int:
    """How many of the constraints some value of the chunk meets (a missing value meets none)."""
    return sum(1 for c in constraints if check(c, values)[0] == "meets")


def boost_constraints(
    index: _Ranked, query: str, ranked: list[tuple[int, float]], weight: float, depth: int = DEPTH
) -> list[tuple[int, float]]:
    """`ranked` ([(chunk index, score)], best first) with the leading candidates that meet the
    query's constraints moved up (see the module docstring); unchanged when nothing applies."""
    if weight <= 0 or len(ranked) < 2:
        return ranked
    cons = query_constraints(query)
    if not cons:
        return ranked
    lead = ranked[:depth]
    spread = lead[0][1] - lead[-1][1]
    if spread <= 0:
        spread = abs(lead[0][1]) or 1.0
    bonus: dict[int, float] = {}
    f = asked_frequency(cons)
    for i, _ in lead:
        values = _values(index, i)
        if f is not None:
            # a crystal's or oscillator's value printed for another band of nominal frequency than the one asked
            # answers nothing (as in parametric search)
            card = index.cards.get(index.chunks[i].doc_id)
            if card is not None:
                values = at_frequency(values, read_frequency(card.product_type, f))
        k = chunk_meets(cons, values)
        if k:
            bonus[i] = weight * spread * k / len(cons)
    if not bonus:
        return ranked
    moved = [(i, s + bonus.get(i, 0.0)) for i, s in lead]
    # ties keep the order they had (a stable sort on the new score)
    order = sorted(range(len(moved)), key=lambda j: (-moved[j][1], j))
    return [moved[j] for j in order] + ranked[depth:]
