// The part-aware tokenizer (layoutrag.index.tokenizer.PartAwareTokenizer), ported to plain JavaScript.
// Frozen by src/layoutrag/data/tokenizer_vectors.json: this port reproduces every vector exactly
// (tests/js/tokenizer.test.mjs). Python's Unicode regex classes are spelled out where JavaScript's
// differ: `\s` (Python's whitespace set), `\d` (= \p{Nd}) and `\b` (Python's \w is [\p{L}\p{N}_]).

export const STOPWORDS = new Set(
  `a an and are as at be been but by can could do does for from had has have how i if in into is it
  its me my of on or our please should so some such than that the their them then there these they
  this those to us was we what when where which who whom why will with would you your`.split(/\s+/).filter(Boolean),
);

// layoutrag/data/units.tsv, in alternation order (frozen with the tokenizer; tests/test_site.py checks it)
export const UNITS = [
  "ghz", "mhz", "khz", "hz", "ppm", "ppb", "°c", "dbc/hz", "dbc", "dbm", "db", "kohm", "mohm", "ohm",
  "mv", "kv", "v", "ma", "ua", "na", "a", "mw", "uw", "w", "pf", "nf", "uf", "ps", "ns", "us", "ms", "mm",
];

const CHAR_MAP = {
  "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2013": "~", "\u2014": "~", "\u301c": "~",
  "\u00b5": "u", "\u03bc": "u", "\u03c9": "ohm",
};
const CHAR_MAP_RE = /[\u2212\u2010\u2011\u2013\u2014\u301c\u00b5\u03bc\u03c9]/g;

// Python's `\s` for str patterns (not JavaScript's: no U+FEFF, but U+001C-U+001F and U+0085)
export const PY_WS = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const D = "\\p{Nd}";
const PY_W = "[\\p{L}\\p{N}_]";
const NUM = `${D}+(?:\\.${D}+)?`;
const UNITS_ALT = UNITS.join("|");
const UNIT = `(?:${UNITS_ALT})(?![a-z0-9_/#+-])`;
const S = `${PY_WS}*`;
export const RANGE_RE = new RegExp(
  `(?<![a-z0-9._/#+-])([+-]?${NUM})${S}(?:(${UNITS_ALT})${S})?(?:~|\\.\\.\\.|\\.\\.|(?<!${PY_W})to(?!${PY_W})|至)${S}([+-]?${NUM})${S}(${UNIT})`,
  "gu",
);
export const VALUE_RE = new RegExp(`(?<![a-z0-9._/#+-])(±${S})?([+-]?${NUM})${S}(${UNIT})`, "gu");
const WORD = "[0-9a-z\\u00df-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff]+(?:[-_./+#][0-9a-z\\u00df-\\u024f\\u0370-\\u03ff\\u0400-\\u04ff]+)*";
const CJK = "[\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff]+";
export const CJK_RE = new RegExp(CJK, "u");
export const CJK_RE_G = new RegExp(CJK, "gu");
export const WORD_RE_G = new RegExp(WORD, "g"); // layoutrag.index.tokenizer.WORD_RE (every class in the BMP)
// no `u` flag here: every class is in the BMP (a surrogate half matches none), and V8 scans faster
const WORD_OR_CJK_RE = new RegExp(`(${WORD})|(${CJK})`, "g");
const SEP_RE = /[-_./+#]+/;
const SEP_RE_G = /[-_./+#]+/g;
const NUMBER_RE = new RegExp(`^${D}+(?:\\.${D}+)?$`, "u");
const DIGIT_RE = new RegExp(D, "u");
const HZ_SHIFT = { hz: 0, khz: 3, mhz: 6, ghz: 9 };

export function normalizeText(text) {
  return text.normalize("NFKC").toLowerCase().replace(CHAR_MAP_RE, (c) => CHAR_MAP[c]);
}

export function compact(token) {
  return token.replace(SEP_RE_G, "");
}

export function isPartLike(word) {
  const c = compact(word);
  return [...c].length >= 4 && DIGIT_RE.test(c) && /[a-z]/.test(c);
}

function lstripSigns(s) {
  return s.replace(/^[+-]+/, "");
}

function partition(s, sep) {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ""] : [s.slice(0, i), s.slice(i + sep.length)];
}

export function normNumber(num) {
  const sign = num.startsWith("-") ? "-" : "";
  num = lstripSigns(num);
  let [intPart, frac] = partition(num, ".");
  intPart = intPart.replace(/^0+/, "") || "0";
  frac = frac.replace(/0+$/, "");
  const out = intPart + (frac ? "." + frac : "");
  return out === "0" ? out : sign + out;
}

function shiftDecimal(num, places) {
  const sign = num.startsWith("-") ? "-" : "";
  num = lstripSigns(num);
  const [intPart, frac] = partition(num, ".");
  let digits = intPart + frac;
  const point = intPart.length + places;
  if (digits.length < point) digits = digits + "0".repeat(point - digits.length);
  return normNumber(sign + digits.slice(0, point) + "." + digits.slice(point));
}

function valueToken(num, unit) {
  if (Object.hasOwn(HZ_SHIFT, unit)) return shiftDecimal(num, HZ_SHIFT[unit]) + "hz";
  return normNumber(num) + unit;
}

function ngrams(s, n = 3) {
  const out = [];
  for (let i = 0; i + n <= s.length; i++) out.push("#" + s.slice(i, i + n));
  return out;
}

function splitSeps(word) {
  return word.split(SEP_RE).filter((s) => s);
}

export class PartAwareTokenizer {
  constructor({ ngrams: withNgrams = true } = {}) {
    this.ngrams = withNgrams;
    this.name = withNgrams ? "part_aware" : "part_aware_no_ngrams";
  }

  tokenize(text) {
    let t = normalizeText(text);
    const values = [];
    t = t.replace(RANGE_RE, (_m, lo, unitLo, hi, unit) => {
      values.push(valueToken(lo, unitLo || unit), valueToken(hi, unit));
      values.push(normNumber(lo), normNumber(hi), unit);
      return " ";
    });
    t = t.replace(VALUE_RE, (_m, plusMinus, num, unit) => {
      const tok = valueToken(num, unit);
      if (plusMinus) values.push("±" + tok);
      values.push(tok, normNumber(num), unit);
      return " ";
    });
    const out = values;
    WORD_OR_CJK_RE.lastIndex = 0;
    for (let m; (m = WORD_OR_CJK_RE.exec(t)) !== null; ) {
      if (m[2] !== undefined) out.push(...cjkTokens(m[0]));
      else out.push(...this.word(m[0]));
    }
    return out;
  }

  word(word) {
    if (NUMBER_RE.test(word)) return [normNumber(word)];
    if (isPartLike(word)) {
      const c = compact(word);
      const toks = word !== c ? [word] : [];
      toks.push(c);
      const subs = splitSeps(word);
      if (subs.length > 1) toks.push(...subs);
      if (this.ngrams) toks.push(...ngrams(c));
      return toks;
    }
    return splitSeps(word).filter((s) => !STOPWORDS.has(s));
  }
}

function cjkTokens(run) {
  if (run.length === 1) return [run];
  const out = [];
  for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
  return out;
}
