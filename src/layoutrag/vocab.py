"""Domain vocabularies kept as data: vendor names, product types, package and standard prefixes, units.

Each list is a file in ``layoutrag/data/``: UTF-8, one entry a line, columns separated by tabs,
blank lines skipped, ``#`` lines are comments (every file opens with where its entries come from).
Entries keep the file's order: the lists become regex alternations and first-match rules, where
order decides. Each function reads its file once and returns an immutable structure.

- ``vendors.tsv`` -> `vendors()`: name as printed (lower case) -> canonical vendor (chunking/card.py)
- ``product_types.tsv`` -> `product_types()`: (regex, type), most specific first (chunking/card.py);
  `product_type_names()`: the distinct types (parametric queries)
- ``packages.tsv`` -> `package_prefixes()`: SOT, SOIC, QFN, ... (chunking/card.py)
- ``standards.tsv`` -> `standard_prefixes()`: J-STD, IEC, AEC-Q, ... (chunking/card.py)
- ``units.tsv`` -> `units()`: ghz, ppm, °c, ... (index/tokenizer.py; frozen with the tokenizer)
- ``spec_parameters.tsv`` -> `spec_parameters()`: canonical parameters, names (en/zh), symbols (specs.py)
- ``spec_units.tsv`` -> `spec_units()`: printed unit -> (canonical SI unit, factor) (specs.py)
- ``symbol_encoding.tsv`` -> `symbol_encoding()`: Adobe Symbol font code -> character (pdf.py)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType

__all__ = [
    "FILES",
    "package_prefixes",
    "parse_table",
    "product_types",
    "read_table",
    "spec_parameters",
    "spec_units",
    "standard_prefixes",
    "symbol_encoding",
    "units",
    "vendors",
]

FILES = (
    "vendors.tsv",
    "product_types.tsv",
    "packages.tsv",
    "standards.tsv",
    "units.tsv",
    "spec_parameters.tsv",
    "spec_units.tsv",
    "symbol_encoding.tsv",
)

# names spliced into a regex alternation as written: no character that means anything there
# ("-" is literal outside a character class)
_LITERAL_RE = re.compile(r"[0-9A-Za-z°/-]+")


def read_table(name: str, columns: int) -> tuple[tuple[str, ...], ...]:
    """The rows of ``layoutrag/data/<name>`` in file order (see `parse_table`)."""
    text = (resources.files("layoutrag") / "data" / name).read_text(encoding="utf-8")
    return parse_table(text, columns, name=name)


def parse_table(text: str, columns: int, *, name: str = "<text>") -> tuple[tuple[str, ...], ...]:
    """The rows of a data file's text. ValueError, naming the file and line, for a row without
    exactly `columns` non-empty fields (no spaces around them) or a first field an earlier row has."""
    rows: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = tuple(line.split("\t"))
        if len(fields) != columns or any(not f or f != f.strip() for f in fields):
            raise ValueError(f"{name}:{n}: expected {columns} tab-separated non-empty fields: {line!r}")
        if fields[0] in seen:
            raise ValueError(f"{name}:{n}: duplicate entry {fields[0]!r}")
        seen.add(fields[0])
        rows.append(fields)
    return tuple(rows)


def _literals(name: str) -> tuple[str, ...]:
    out = tuple(row[0] for row in read_table(name, 1))
    for entry in out:
        if not _LITERAL_RE.fullmatch(entry):
            raise ValueError(f"{name}: {entry!r} is not a plain name (letters, digits, '°', '/', '-')")
    return out


@cache
def vendors() -> Mapping[str, str]:
    """Vendor name as datasheets print it (lower case) -> canonical vendor name, in file order."""
    return MappingProxyType({printed: canon for printed, canon in read_table("vendors.tsv", 2)})


@cache
def product_types() -> tuple[tuple[str, str], ...]:
    """(case-insensitive regex, product type), most specific first."""
    return tuple((pattern, kind) for pattern, kind in read_table("product_types.tsv", 2))


@cache
def product_type_names() -> tuple[str, ...]:
    """The distinct product types of `product_types()`, sorted: every type a query or ``--type`` may name."""
    return tuple(sorted({kind for _, kind in product_types()}))


@cache
def package_prefixes() -> tuple[str, ...]:
    """Package family prefixes (SOT, SOIC, QFN, ...) in alternation order."""
    return _literals("packages.tsv")


@cache
def standard_prefixes() -> tuple[str, ...]:
    """Prefixes of cited standards (J-STD, IEC, AEC-Q, ...) in alternation order."""
    return _literals("standards.tsv")


@cache
def units() -> tuple[str, ...]:
    """Units of value tokens as `normalize_text` leaves them (ghz, ppm, °c, ...), in alternation
    order: a unit before any shorter unit it begins with."""
    return _literals("units.tsv")


@cache
def spec_parameters() -> tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...]:
    """(canonical id, canonical unit or "-", names (en and zh, lower case), symbols), in file order."""
    out = []
    for pid, unit, names, symbols in read_table("spec_parameters.tsv", 4):
        syms = () if symbols == "-" else tuple(s for s in symbols.split("|") if s)
        out.append((pid, unit, tuple(n.strip().lower() for n in names.split("|") if n.strip()), syms))
    return tuple(out)


@cache
def spec_units() -> Mapping[str, tuple[str, float]]:
    """Printed unit (exact case) -> (canonical SI unit, factor to it), in file order."""
    return MappingProxyType({p: (c, float(f)) for p, c, f in read_table("spec_units.tsv", 3)})


@cache
def symbol_encoding() -> Mapping[int, str]:
    """Code (0x20-0xFE) of the Adobe Symbol font's built-in encoding -> the character it draws."""
    return MappingProxyType({int(code, 16): chr(int(u, 16)) for code, u, _name in read_table("symbol_encoding.tsv", 3)})
