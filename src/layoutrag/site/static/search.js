// The lexical search path of layoutrag (HybridIndex.search(query, mode="bm25")), ported to plain
// JavaScript: query normalisation, zh<->en glossary expansion, the weighted lexical query, BM25 over
// the exported weights (a scenario question's with `bm25_b_long`, derived here from the exported term
// counts), hits with companions from the same page, the matched table row, and the focus page of a
// unit spanning pages.
// Parity with Python is the contract (tests/js/search.test.mjs, tests/test_site.py): same chunk ids in
// the same order, same companions and matched rows, the same float32 scores.
// Dense retrieval and fusion are not here: a static site has no embedder.
import { CJK_RE, CJK_RE_G, PartAwareTokenizer, WORD_RE_G, normalizeText } from "./tokenizer.js";

export const NGRAM_QUERY_WEIGHT = 0.25;
export const EXPANSION_TOKENS = 2.0;
export const ZH_EXPANSION_TOKENS = 0.5;
export const SCENARIO_MIN = 20;

export class InputError extends Error {}

// --------------------------------------------------------------------------- payload decoding
export function base64Bytes(b64) {
  if (typeof atob === "function") {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  return new Uint8Array(Buffer.from(b64, "base64"));
}

export async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The site's data object (data/site-data.js: base64 gzip payloads) -> decoded parts. */
export async function decodeSite(data) {
  const [index, vocab, chunks, glossary] = await Promise.all(
    [data.index, data.vocab, data.chunks, data.glossary].map((p) => gunzip(base64Bytes(p))),
  );
  const dec = new TextDecoder();
  const view = new DataView(index.buffer, index.byteOffset, index.byteLength);
  const nTerms = view.getUint32(0, true);
  const nPost = view.getUint32(4, true);
  const nLen = view.getUint32(8, true); // chunk lengths (and term counts) present: 0 when not exported
  let off = 12;
  const indptr = new Uint32Array(nTerms + 1);
  for (let i = 0; i <= nTerms; i++, off += 4) indptr[i] = view.getUint32(off, true);
  const weights = new Float32Array(nPost);
  for (let i = 0; i < nPost; i++, off += 4) weights[i] = view.getFloat32(off, true);
  // doc indices: per term, LEB128 varints of the gaps between sorted chunk numbers
  const indices = new Uint32Array(nPost);
  for (let t = 0; t < nTerms; t++) {
    let prev = 0;
    for (let k = indptr[t]; k < indptr[t + 1]; k++) {
      let v = 0, shift = 0, b;
      do { b = index[off++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
      prev += v;
      indices[k] = prev;
    }
  }
  // a scenario question's BM25 (bm25_b_long): the term count of each posting (varints), chunk lengths
  let tf = null, docLen = null;
  if (nLen) {
    tf = new Float32Array(nPost);
    for (let k = 0; k < nPost; k++) {
      let v = 0, shift = 0, b;
      do { b = index[off++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
      tf[k] = v;
    }
    docLen = new Float32Array(nLen);
    for (let i = 0; i < nLen; i++, off += 4) docLen[i] = view.getFloat32(off, true);
  }
  const terms = nTerms ? dec.decode(vocab).split("\n") : [];
  return {
    meta: data.meta, terms, indptr, indices, weights, tf, docLen,
    chunks: JSON.parse(dec.decode(chunks)), glossary: JSON.parse(dec.decode(glossary)),
  };
}

// --------------------------------------------------------------------------- query text
const NONPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const ALNUM = /[\p{L}\p{N}]/u;

/** layoutrag.index.query.normalize_query: non-printable characters blanked, whitespace collapsed. */
export function normalizeQuery(query, maxChars) {
  const chars = [...query];
  if (chars.length > maxChars) throw new InputError(`query too long: ${chars.length} characters (limit ${maxChars})`);
  return chars.map((ch) => (ch !== " " && NONPRINTABLE.test(ch) ? " " : ch)).join("").split(" ").filter(Boolean).join(" ");
}

export function isSearchable(query) {
  return ALNUM.test(query);
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"); // `\-` is a syntax error in a `u` pattern
}

/** layoutrag.specs.fold: NFKC, one kind of minus, µ for micro, °C for ℃, single spaces. */
function specFold(text) {
  let t = text.normalize("NFKC");
  t = t.replace(/[\u2212\u2013\u2014\u2010]/g, "-").replace(/[\uff5e\u301c]/g, "~");
  t = t.replace(/\u03bc/g, "\u00b5").replace(/\u2103/g, "\u00b0C").replace(/\u00ba/g, "\u00b0").replace(/\u02da/g, "\u00b0");
  return t.replace(/\s+/gu, " ").trim();
}

/** layoutrag.index.glossary.Glossary, from its exported tables (term order as Python sorts them). */
export class Glossary {
  constructor(g) {
    this.zhTerms = g.zh_terms;
    this.zhToEn = g.zh_to_en;
    this.enToZh = g.en_to_zh;
    this.enRe = g.en_terms.length
      ? new RegExp("(?<![a-z0-9])(" + g.en_terms.map(escapeRe).join("|") + ")(?![a-z0-9])", "gu")
      : null;
    // layoutrag.specs.parameters_named: spec parameter names (longest first) and what each asks for
    this.paramNames = (g.parameter_names || []).map(([name, pid]) => [
      name,
      pid,
      /[\u4e00-\u9fff]/u.test(name) ? null : new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRe(name)}(?![\\p{L}\\p{N}_])`, "u"),
    ]);
    this.paramTerms = g.parameter_terms || {};
  }

  /** layoutrag.specs.parameters_named: the canonical parameters a query names, in order of mention. */
  parametersNamed(query) {
    if (!this.paramNames.length) return [];
    let t = specFold(query).toLowerCase().replace(/(?<=[a-z])-(?=[a-z])/g, " ");
    const found = [];
    for (const [name, pid, re] of this.paramNames) {
      if (!t.includes(name)) continue;
      let start = -1;
      if (re === null) start = t.indexOf(name);
      else {
        const m = re.exec(t);
        if (m) start = m.index;
      }
      if (start < 0) continue;
      found.push([start, pid]);
      t = t.slice(0, start) + " ".repeat(name.length) + t.slice(start + name.length);
    }
    found.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const out = [];
    for (const [, pid] of found) if (!out.includes(pid)) out.push(pid);
    return out;
  }

  expansions(query) {
    const out = [];
    const seen = new Set();
    const ql = query.toLowerCase();
    const add = (term) => {
      const tl = term.toLowerCase();
      if (!seen.has(tl) && !ql.includes(tl)) {
        seen.add(tl);
        out.push(term);
      }
    };
    for (const zh of this.zhTerms) if (query.includes(zh)) for (const en of this.zhToEn[zh]) add(en);
    if (this.enRe) for (const m of ql.matchAll(this.enRe)) for (const zh of this.enToZh[m[1]]) add(zh);
    return out;
  }

  expandQuery(query) {
    const extra = this.expansions(query);
    return extra.length ? query + " " + extra.join(" ") : query;
  }
}

/** layoutrag.index.base.is_scenario_question: at least SCENARIO_MIN CJK characters or words. */
export function isScenarioQuestion(query) {
  const text = normalizeText(query);
  let cjk = 0;
  for (const m of text.matchAll(CJK_RE_G)) cjk += m[0].length; // every CJK class is in the BMP
  if (cjk >= SCENARIO_MIN) return true;
  const words = text.replace(CJK_RE_G, " ").match(WORD_RE_G);
  return (words ? words.length : 0) >= SCENARIO_MIN;
}

/** layoutrag.records.Chunk.all_regions: the regions, else the boxes on `page`. */
export function allRegions(chunk) {
  if (chunk.regions && chunk.regions.length) return chunk.regions;
  return (chunk.bboxes_pdf || []).map((b) => ({ page: chunk.page, bbox_pdf: b }));
}

/** layoutrag.index.hits.best_row: the row with the highest positive score (the first on a tie). */
export function bestRow(scores) {
  const best = scores.length ? Math.max(...scores) : 0.0;
  return best > 0 ? scores.indexOf(best) : null;
}

/** layoutrag.index.hits.split_at_page: the hit cut to its regions on `page` and the rest (a companion). */
export function splitAtPage(hit, page) {
  const regions = allRegions(hit.chunk);
  const here = regions.filter((r) => r.page === page);
  const there = regions.filter((r) => r.page !== page);
  if (!here.length || !there.length) return [hit, null];
  const lead = { ...hit, chunk: { ...hit.chunk, page, regions: here, bboxes_pdf: here.map((r) => r.bbox_pdf) } };
  const first = Math.min(...there.map((r) => r.page));
  const part = {
    ...hit,
    chunk: { ...hit.chunk, page: first, regions: there, bboxes_pdf: there.filter((r) => r.page === first).map((r) => r.bbox_pdf) },
    matched_row: null,
    companions: [],
  };
  return [lead, part];
}

function isNgram(token) {
  return token.startsWith("#") && token.length === 4;
}

export function queryTokenWeight(token) {
  return isNgram(token) ? NGRAM_QUERY_WEIGHT : 1.0;
}

// --------------------------------------------------------------------------- the engine
export class SiteSearch {
  /** `site`: decodeSite's result. */
  constructor(site) {
    this.meta = site.meta;
    this.settings = site.meta.settings;
    this.terms = site.terms;
    this.vocab = new Map(site.terms.map((t, i) => [t, i]));
    this.indptr = site.indptr;
    this.indices = site.indices;
    this.weights = site.weights;
    this.tf = site.tf;
    this.docLen = site.docLen;
    this.longWeights = null; // bm25_b_long's, made on a scenario question's first search
    this.chunks = site.chunks;
    this.nDocs = site.chunks.length;
    this.tokenizer = new PartAwareTokenizer();
    this.glossary = new Glossary(site.glossary);
    this.docIndex = new Map(site.meta.doc_ids.map((d, i) => [d, i]));
    this.docs = new Map(site.meta.docs.map((d) => [d.doc_id, d]));
    this.cardTokens = new Map(); // doc id -> the tokens of its card text, made on first use
    this.acc = new Float64Array(this.nDocs);
    this.touched = new Uint8Array(this.nDocs);
  }

  static async load(data) {
    return new SiteSearch(await decodeSite(data));
  }

  idf(term) {
    const j = this.vocab.get(term);
    if (j === undefined) return 0.0;
    const df = this.indptr[j + 1] - this.indptr[j];
    return Math.log1p((this.nDocs - df + 0.5) / (df + 0.5));
  }

  idfMass(terms) {
    // summed in sorted order, as Python does (float sums in another order can break ties differently)
    return [...terms].sort().reduce((s, t) => s + this.idf(t), 0);
  }

  /** BM25Index's weights (bm25.bm25_weights) for length normalization `b`, from the exported term
   * counts: float32 arithmetic step by step as numpy does it (tests/js check the result equals the
   * exported `bm25_b` weights bit for bit). */
  bm25Weights(b) {
    if (!this.tf) throw new Error("this export carries no term counts (bm25_b_long = bm25_b)");
    const f = Math.fround, s = this.settings;
    const k1 = f(s.bm25_k1), kp1 = f(s.bm25_k1 + 1.0), b32 = f(b), rest = f(1.0 - b), avgdl = f(s.avgdl);
    // norm = k1 * (1.0 - b + b * doc_len / avgdl), each numpy step rounded to float32
    const norm = this.docLen.map((dl) => f(k1 * f(rest + f(f(b32 * dl) / avgdl))));
    const out = new Float32Array(this.weights.length);
    for (let j = 0; j + 1 < this.indptr.length; j++) {
      const lo = this.indptr[j], hi = this.indptr[j + 1];
      const idf = f(Math.log1p((this.nDocs - (hi - lo) + 0.5) / (hi - lo + 0.5))); // bm25_idf, float32
      for (let k = lo; k < hi; k++) {
        const tf = this.tf[k];
        out[k] = f(f(f(idf * tf) * kp1) / f(tf + norm[this.indices[k]]));
      }
    }
    return out;
  }

  /** The weights that score `lex`: `bm25_b_long`'s for a scenario question (HybridIndex._lexical). */
  weightsFor(lex) {
    const s = this.settings;
    if (!lex.scenario || s.bm25_b_long == null || s.bm25_b_long === s.bm25_b) return this.weights;
    if (!this.longWeights) this.longWeights = this.bm25Weights(s.bm25_b_long);
    return this.longWeights;
  }

  /** SearchIndex.lexical_query (mode "bm25" defaults: glossary expansion on, `focus` off): term ->
   * weight (a Map, in Python's insertion order), `scenario` set as LexicalQuery's. */
  lexicalQuery(query) {
    const w = new Map();
    w.scenario = isScenarioQuestion(query);
    const add = (t, v) => w.set(t, (w.get(t) ?? 0.0) + v);
    for (const t of this.tokenizer.tokenize(query)) if (!CJK_RE.test(t)) add(t, queryTokenWeight(t));
    for (const m of normalizeText(query).matchAll(CJK_RE_G)) {
      const toks = this.tokenizer.tokenize(m[0]);
      for (const t of toks) add(t, Math.min(1.0, EXPANSION_TOKENS / toks.length));
    }
    for (const term of this.glossary.expansions(query)) {
      const toks = this.tokenizer.tokenize(term);
      const budget = CJK_RE.test(term) ? ZH_EXPANSION_TOKENS : EXPANSION_TOKENS;
      const share = toks.length ? Math.min(1.0, budget / toks.length) : 0.0;
      for (const t of toks) add(t, share * queryTokenWeight(t));
    }
    // a spec parameter the query names: its other names, together weighing like one expansion
    for (const pid of this.glossary.parametersNamed(query)) {
      const fresh = [];
      for (const term of this.glossary.paramTerms[pid] || [])
        for (const t of this.tokenizer.tokenize(term)) if (!w.has(t) && !fresh.includes(t) && !isNgram(t)) fresh.push(t);
      const share = fresh.length ? Math.min(1.0, EXPANSION_TOKENS / fresh.length) : 0.0;
      for (const t of fresh) w.set(t, share * queryTokenWeight(t));
    }
    return w;
  }

  /** BM25Index.scores: [chunk numbers, float32 scores] of the chunks with a positive score. */
  scores(lex) {
    const acc = this.acc, touched = this.touched, hit = [];
    const weights = this.weightsFor(lex);
    for (const [term, n] of lex) {
      const j = this.vocab.get(term);
      if (j === undefined || !(n > 0)) continue;
      const f = Math.fround(n); // numpy: float32 weights times a Python float stay float32
      for (let k = this.indptr[j]; k < this.indptr[j + 1]; k++) {
        const d = this.indices[k];
        const v = n !== 1 ? Math.fround(weights[k] * f) : weights[k];
        if (!touched[d]) { touched[d] = 1; acc[d] = 0; hit.push(d); }
        acc[d] += v;
      }
    }
    const idx = [], val = [];
    for (const d of Uint32Array.from(hit).sort()) {
      touched[d] = 0;
      const s = Math.fround(acc[d]);
      if (s !== 0) { idx.push(d); val.push(s); }
    }
    return [idx, val];
  }

  /** HybridIndex._bm25_run: the top `depth`, ties by chunk id. */
  bm25Run(lex, depth) {
    const [idx, val] = this.scores(lex);
    // the top `depth` (Python: argpartition): everything at or above the depth-th best score, then
    // sorted by score, ties by chunk id (not storage order, so a rebuild cannot reorder equal scores)
    let keep = idx.map((_, j) => j);
    if (keep.length > depth) {
      const sorted = Float64Array.from(val).sort();
      const bar = sorted[sorted.length - depth];
      keep = keep.filter((j) => val[j] >= bar);
    }
    const ids = (j) => this.chunks[idx[j]].chunk_id;
    keep.sort((a, b) => val[b] - val[a] || (ids(a) < ids(b) ? -1 : ids(a) > ids(b) ? 1 : 0));
    return keep.slice(0, depth).map((j) => [idx[j], val[j]]);
  }

  /** HybridIndex._page_hits: lead chunks with companions of the same page. */
  pageHits(ranked, k) {
    const members = Math.max(1, this.settings.page_members);
    const depth = members > 1 ? this.settings.merge_depth : 0;
    const share = this.settings.companion_score;
    const hits = [];
    const leadOf = new Map();
    for (let rank = 0; rank < ranked.length; rank++) {
      const [i, score] = ranked[rank];
      if (rank >= depth && hits.length >= k) break;
      const c = this.chunks[i];
      const key = this.docIndex.get(c.doc_id) + ":" + c.page;
      const h = leadOf.get(key);
      const close = h !== undefined && hits[h][0][1] > 0 && score >= share * hits[h][0][1];
      if (rank < depth && h !== undefined && close && hits[h].length < members) {
        hits[h].push([i, score]);
        continue;
      }
      if (hits.length < k) {
        if (!leadOf.has(key)) leadOf.set(key, hits.length);
        hits.push([[i, score]]);
      }
    }
    return hits;
  }

  rowTokens(chunk) {
    // a table's row tokens, made once per chunk (rows are fixed for the site's life)
    if (!chunk._rowTokens) {
      // a row's words and its canonical parameter's other names (`aka`, exported), as base.row_scores
      const tokens = chunk.rows.map((row) =>
        row.is_header ? [] : [...new Set(this.tokenizer.tokenize(`${row.text || row.cells.join(" ")}\n${row.aka || ""}`))]);
      Object.defineProperty(chunk, "_rowTokens", { value: tokens, enumerable: false });
    }
    return chunk._rowTokens;
  }

  rowScores(chunk, tokens) {
    return this.rowTokens(chunk).map((held) => this.idfMass(held.filter((t) => tokens.has(t))));
  }

  matchedRow(chunk, qTokens) {
    return bestRow(qTokens && qTokens.size ? this.rowScores(chunk, qTokens) : []);
  }

  /** SearchIndex.card_terms: the tokens of a document's card text (candidates.card_text). */
  cardTerms(docId) {
    let terms = this.cardTokens.get(docId);
    if (!terms) {
      const d = this.docs.get(docId);
      const text = d ? [d.title, d.vendor, ...(d.series || []), ...(d.part_numbers || []), d.product_type || ""].join(" ") : "";
      terms = new Set(this.tokenizer.tokenize(text));
      this.cardTokens.set(docId, terms);
    }
    return terms;
  }

  /** SearchIndex.focus_page: for a unit spanning pages, the page of its row holding the most of the
   * query's informative terms (known to the index, no 3-grams, the document's card words left out). */
  focusPage(i, qTokens) {
    const chunk = this.chunks[i];
    if (!chunk.rows || !chunk.rows.length || new Set(allRegions(chunk).map((r) => r.page)).size < 2) return null;
    const card = this.cardTerms(chunk.doc_id);
    const known = new Set([...qTokens].filter((t) => this.vocab.has(t) && !isNgram(t) && !card.has(t)));
    const best = known.size ? bestRow(this.rowScores(chunk, known)) : null;
    return best === null ? null : chunk.rows[best].page;
  }

  /** Hits, best first: {chunk (the record), score, bm25_rank, bm25_score, matched_row, companions}. */
  search(query, { topK } = {}) {
    const k = topK == null ? this.settings.top_k : Math.trunc(topK);
    if (k < 1) throw new InputError("top_k must be at least 1");
    query = normalizeQuery(query, this.settings.max_query_chars);
    if (!isSearchable(query) || !this.nDocs) return [];
    const depth = Math.max(this.settings.run_depth, k);
    const lex = this.lexicalQuery(query);
    const ranked = this.bm25Run(lex, depth);
    const bRank = new Map(ranked.map(([i], r) => [i, r + 1]));
    let qTokens = null;
    const pkg = (i, score) => {
      const chunk = this.chunks[i];
      const hasRows = chunk.rows && chunk.rows.length;
      if (hasRows && qTokens === null) qTokens = new Set(this.tokenizer.tokenize(this.glossary.expandQuery(query)));
      return {
        chunk_id: chunk.chunk_id,
        chunk,
        score,
        bm25_rank: bRank.get(i) ?? null,
        bm25_score: score,
        matched_row: hasRows ? this.matchedRow(chunk, qTokens) : null,
        companions: [],
      };
    };
    const shownMax = Math.max(0, this.settings.page_members - 1);
    return this.pageHits(ranked, k).map((members) => {
      let lead = pkg(...members[0]);
      let rest = [];
      if (this.settings.focus_page) {
        const page = this.focusPage(members[0][0], qTokens || new Set()); // qTokens: set by pkg()
        if (page !== null) {
          const [cut, part] = splitAtPage(lead, page);
          lead = cut;
          rest = part ? [part] : [];
        }
      }
      // the unit's other part is a companion like any other: a hit shows at most page_members parts,
      // so only the members that still fit are packaged
      const fit = members.slice(1, 1 + Math.max(0, shownMax - rest.length));
      lead.companions = rest.concat(fit.map(([i, s]) => pkg(i, s))).slice(0, shownMax);
      return lead;
    });
  }
}
