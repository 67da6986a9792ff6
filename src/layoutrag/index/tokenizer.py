"""Tokenizers for the lexical path. `PartAwareTokenizer` is frozen: a JavaScript port must reproduce
its output byte for byte, checked against the golden vectors in ``layoutrag/data/tokenizer_vectors.json``.

The specification (every step is a plain regex or string operation, so a port is mechanical):

1. Normalise: Unicode NFKC, lower case, then map U+2212 (minus) and U+2010/U+2011 (hyphens) to
   ``-``, U+2013/U+2014 (en/em dash) and U+301C (wave dash) to ``~``, U+00B5/U+03BC (micro) to
   ``u``, U+03C9 (ohm, after NFKC and lower case) to ``ohm``. NFKC already turns ``℃`` into
   ``°c``, ``～`` into ``~`` and ``…`` into ``...``.
2. Values with units (``VALUE_RE``; the units, in alternation order, are the lines of
   ``layoutrag/data/units.tsv``) and ranges (``RANGE_RE``) are cut out of the text first and
   become value tokens: frequency is scaled to Hz (``32.768khz`` and ``32768 hz`` both give
   ``32768hz``), other units keep their unit (``20ppm``, ``-40°c``, ``3.3v``). A ``±`` value also
   gives ``±20ppm``. Each value also yields its number as written (normalised) and its unit word,
   so a bare number or unit in a query still matches. A range gives both ends with the unit.
3. The rest is scanned left to right for words (``WORD_RE``: letters/digits joined by ``- _ . / + #``)
   and CJK runs (``CJK_RE``). A *part-like* word (at least one digit, one letter and 4 alphanumerics)
   is indexed three ways: intact (when it had separators), compact (separators stripped), its
   alphanumeric subfields, and ``#``-prefixed character 3-grams of the compact form; so the whole
   code, a fragment, or the code typed with other separators all match. A number keeps its
   normalised form; any other word is split into subfields, dropping English stop words. A CJK run
   becomes character bigrams (a lone character stays a unigram): portable, no dictionary.

Token order: value tokens (in text order), then word/CJK tokens (in text order).
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum
from typing import Protocol

from layoutrag import vocab

__all__ = [
    "STOPWORDS",
    "PartAwareTokenizer",
    "StandardTokenizer",
    "Tokenizer",
    "TokenizerKind",
    "get_tokenizer",
    "is_part_like",
    "normalize_text",
    "cased_text",
    "compact",
]

STOPWORDS: frozenset[str] = frozenset(
    """a an and are as at be been but by can could do does for from had has have how i if in into is it
    its me my of on or our please should so some such than that the their them then there these they
    this those to us was we what when where which who whom why will with would you your""".split()
)

_CHAR_MAP = str.maketrans(
    {
        "\u2212": "-",
        "\u2010": "-",
        "\u2011": "-",
        "\u2013": "~",
        "\u2014": "~",
        "\u301c": "~",
        "\u00b5": "u",
        "\u03bc": "u",
        "\u03c9": "ohm",
    }
)

_NUM = r"\d+(?:\.\d+)?"
# the units, in alternation order: layoutrag/data/units.tsv (frozen with this tokenizer)
_UNITS = "|".join(vocab.units())
_UNIT = rf"(?:{_UNITS})(?![a-z0-9_/#+-])"
# a range: both ends numbers, the unit written once at the end (or on both ends)
RANGE_RE = re.compile(
    rf"(?<![a-z0-9._/#+-])([+-]?{_NUM})\s*(?:({_UNITS})\s*)?(?:~|\.\.\.|\.\.|\bto\b|至)\s*([+-]?{_NUM})\s*({_UNIT})"
)
VALUE_RE = re.compile(rf"(?<![a-z0-9._/#+-])(±\s*)?([+-]?{_NUM})\s*({_UNIT})")
WORD_RE = re.compile(
    r"[0-9a-z\u00df-\u024f\u0370-\u03ff\u0400-\u04ff]+(?:[-_./+#][0-9a-z\u00df-\u024f\u0370-\u03ff\u0400-\u04ff]+)*"
)
CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+")
_WORD_OR_CJK_RE = re.compile(f"(?P<word>{WORD_RE.pattern})|(?P<cjk>{CJK_RE.pattern})")
_SEP_RE = re.compile(r"[-_./+#]+")
_NUMBER_RE = re.compile(r"^\d+(?:\.\d+)?$")
_HZ_SHIFT = {"hz": 0, "khz": 3, "mhz": 6, "ghz": 9}


def normalize_text(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower().translate(_CHAR_MAP)


def cased_text(text: str) -> str:
    """`normalize_text` with the letters' case kept: where the two have one length, a span of one is the same
    span of the other (a code matched in lower case, read back as printed)."""
    return unicodedata.normalize("NFKC", text).translate(_CHAR_MAP)


def compact(token: str) -> str:
    """A code with its separators stripped: `7M-26.000MAAJ-T` and `7m 26000maajt` meet here."""
    return _SEP_RE.sub("", token)


def is_part_like(word: str) -> bool:
    c = compact(word)
    return len(c) >= 4 and any(ch.isdigit() for ch in c) and any("a" <= ch <= "z" for ch in c)


def _norm_number(num: str) -> str:
    """`+85` -> `85`, `26.000` -> `26`, `3.30` -> `3.3`, `-0` -> `0` (string ops, no floats)."""
    sign = "-" if num.startswith("-") else ""
    num = num.lstrip("+-")
    int_part, _, frac = num.partition(".")
    int_part = int_part.lstrip("0") or "0"
    frac = frac.rstrip("0")
    out = int_part + ("." + frac if frac else "")
    return out if out == "0" else sign + out


def _shift_decimal(num: str, places: int) -> str:
    """Multiply a decimal string by 10**places exactly (`32.768`, 3 -> `32768`)."""
    sign = "-" if num.startswith("-") else ""
    num = num.lstrip("+-")
    int_part, _, frac = num.partition(".")
    digits = int_part + frac
    point = len(int_part) + places
    digits = digits.ljust(point, "0")
    return _norm_number(sign + digits[:point] + "." + digits[point:])


def _value_token(num: str, unit: str) -> str:
    if unit in _HZ_SHIFT:
        return _shift_decimal(num, _HZ_SHIFT[unit]) + "hz"
    return _norm_number(num) + unit


def _ngrams(s: str, n: int = 3) -> list[str]:
    return ["#" + s[i : i + n] for i in range(len(s) - n + 1)]


class Tokenizer(Protocol):
    name: str

    def tokenize(self, text: str) -> list[str]: ...


class PartAwareTokenizer:
    """The frozen lexical tokenizer (see the module docstring for the specification)."""

    def __init__(self, *, ngrams: bool = True) -> None:
        self.ngrams = ngrams
        self.name = "part_aware" if ngrams else "part_aware_no_ngrams"

    def tokenize(self, text: str) -> list[str]:
        t = normalize_text(text)
        values: list[str] = []

        def _range(m: re.Match[str]) -> str:
            lo, unit_lo, hi, unit = m.group(1), m.group(2), m.group(3), m.group(4)
            values.extend([_value_token(lo, unit_lo or unit), _value_token(hi, unit)])
            values.extend([_norm_number(lo), _norm_number(hi), unit])
            return " "

        def _value(m: re.Match[str]) -> str:
            plus_minus, num, unit = m.group(1), m.group(2), m.group(3)
            tok = _value_token(num, unit)
            if plus_minus:
                values.append("±" + tok)
            values.extend([tok, _norm_number(num), unit])
            return " "

        t = RANGE_RE.sub(_range, t)
        t = VALUE_RE.sub(_value, t)
        out = values
        for m in _WORD_OR_CJK_RE.finditer(t):
            if m.lastgroup == "cjk":
                out.extend(self._cjk(m.group()))
            else:
                out.extend(self._word(m.group()))
        return out

    def _word(self, word: str) -> list[str]:
        if _NUMBER_RE.match(word):
            return [_norm_number(word)]
        if is_part_like(word):
            c = compact(word)
            toks = [word] if word != c else []
            toks.append(c)
            subs = [s for s in _SEP_RE.split(word) if s]
            if len(subs) > 1:
                toks.extend(subs)
            if self.ngrams:
                toks.extend(_ngrams(c))
            return toks
        return [s for s in _SEP_RE.split(word) if s and s not in STOPWORDS]

    @staticmethod
    def _cjk(run: str) -> list[str]:
        if len(run) == 1:
            return [run]
        return [run[i : i + 2] for i in range(len(run) - 1)]


class StandardTokenizer:
    """The baseline: lower case, Unicode `\\w+` words, English stop words dropped (as most BM25 kits)."""

    name = "standard"
    _word = re.compile(r"\w+")

    def tokenize(self, text: str) -> list[str]:
        t = unicodedata.normalize("NFKC", text).lower()
        return [w for w in self._word.findall(t) if w not in STOPWORDS]


class TokenizerKind(StrEnum):
    part_aware = "part_aware"
    part_aware_no_ngrams = "part_aware_no_ngrams"
    standard = "standard"


def get_tokenizer(name: str = "part_aware") -> Tokenizer:
    try:
        kind = TokenizerKind(name)
    except ValueError:
        valid = ", ".join(k.value for k in TokenizerKind)
        raise ValueError(f"unknown tokenizer {name!r}; valid: {valid}") from None
    if kind is TokenizerKind.standard:
        return StandardTokenizer()
    return PartAwareTokenizer(ngrams=kind is TokenizerKind.part_aware)
