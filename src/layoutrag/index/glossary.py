"""Bilingual datasheet glossary (zh <-> en) for query expansion on the lexical path.

A Chinese question over English datasheets shares no token with them; the glossary adds the English
terms for every Chinese term found in the query (and the Chinese terms for English ones), so BM25
can match without any online translation. The data lives in ``layoutrag/data/glossary_zh_en.tsv``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from layoutrag.index.tokenizer import CJK_RE

__all__ = ["DATA_DIR", "Glossary", "expand_query", "load_glossary"]

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


class Glossary:
    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.zh_to_en: dict[str, list[str]] = {}
        self.en_to_zh: dict[str, list[str]] = {}
        for zh, en in pairs:
            self.zh_to_en.setdefault(zh, [])
            if en not in self.zh_to_en[zh]:
                self.zh_to_en[zh].append(en)
            # the left column is what a user types; an entry there without Chinese ("GPS", "WiFi")
            # is a one-way hint (GPS -> TCXO), not a translation: TCXO does not mean GPS
            if not CJK_RE.search(zh):
                continue
            self.en_to_zh.setdefault(en.lower(), [])
            if zh not in self.en_to_zh[en.lower()]:
                self.en_to_zh[en.lower()].append(zh)
        # longest first, so the expansion order is stable and specific terms come first
        self._zh_terms = sorted(self.zh_to_en, key=lambda t: (-len(t), t))
        en_terms = sorted(self.en_to_zh, key=lambda t: (-len(t), t))
        self._en_re = (
            re.compile(r"(?<![a-z0-9])(" + "|".join(re.escape(t) for t in en_terms) + r")(?![a-z0-9])")
            if en_terms
            else None
        )

    def __len__(self) -> int:
        return sum(len(v) for v in self.zh_to_en.values())

    def zh_terms_in(self, text: str) -> list[str]:
        """The glossary's Chinese terms found in `text`, longest first and without overlap (a term
        found is blanked before shorter ones are looked for, so 相位噪声 does not also count 噪声):
        the datasheet terms of a Chinese sentence, the rest of it being words the glossary does not
        know (`SearchIndex.lexical_query` with `focus`)."""
        found: list[str] = []
        for zh in self._zh_terms:
            if zh in text and CJK_RE.search(zh):
                found.append(zh)
                text = text.replace(zh, " ")
        return found

    def expansions(self, query: str) -> list[str]:
        """Terms in the other language for every glossary term in `query` (deduplicated, stable)."""
        out: list[str] = []
        seen: set[str] = set()

        def add(term: str) -> None:
            if term.lower() not in seen and term.lower() not in query.lower():
                seen.add(term.lower())
                out.append(term)

        for zh in self._zh_terms:
            if zh in query:
                for en in self.zh_to_en[zh]:
                    add(en)
        if self._en_re is not None:
            for m in self._en_re.finditer(query.lower()):
                for zh in self.en_to_zh[m.group(1)]:
                    add(zh)
        return out


def _parse(text: str) -> list[tuple[str, str]]:
    pairs = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        zh, _, en = line.partition("\t")
        if zh.strip() and en.strip():
            pairs.append((zh.strip(), en.strip()))
    return pairs


@lru_cache(maxsize=1)
def load_glossary() -> Glossary:
    text = (DATA_DIR / "glossary_zh_en.tsv").read_text(encoding="utf-8")
    return Glossary(_parse(text))


def expand_query(query: str) -> str:
    """The query followed by its glossary expansions (the lexical path's query text)."""
    extra = load_glossary().expansions(query)
    return query if not extra else query + " " + " ".join(extra)
