// The site's search (search.js over an exported site's data) ranks exactly as the Python lexical path.
// Run by tests/test_site.py, which exports a site and writes the Python hits for a query set:
//   LAYOUTRAG_SITE_DIR=site/ LAYOUTRAG_PARITY=parity.json node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SiteSearch, normalizeQuery, isSearchable, isScenarioQuestion } from "../../src/layoutrag/site/static/search.js";

const SITE = process.env.LAYOUTRAG_SITE_DIR;
const PARITY = process.env.LAYOUTRAG_PARITY;

export function loadSiteData(dir) {
  const js = readFileSync(join(dir, "data", "site-data.js"), "utf-8");
  const prefix = "window.LAYOUTRAG_SITE=";
  assert.ok(js.startsWith(prefix));
  return JSON.parse(js.slice(prefix.length).trimEnd().replace(/;$/, ""));
}

function slim(h) {
  return { chunk_id: h.chunk_id, page: h.chunk.page, score: h.score, bm25_rank: h.bm25_rank, matched_row: h.matched_row };
}

function assertSame(got, want, query) {
  assert.deepEqual(got.map((h) => h.chunk_id), want.map((h) => h.chunk_id), `${query}: chunk ids`);
  got.forEach((g, i) => {
    const w = want[i];
    assert.ok(Math.abs(g.score - w.score) <= 1e-6, `${query}: score of ${w.chunk_id} ${g.score} vs ${w.score}`);
    assert.equal(g.bm25_rank, w.bm25_rank, `${query}: bm25 rank of ${w.chunk_id}`);
    assert.equal(g.matched_row, w.matched_row, `${query}: matched row of ${w.chunk_id}`);
    assert.equal(g.page, w.page, `${query}: page of ${w.chunk_id}`);
    assert.deepEqual(g.companions.map((c) => c.chunk_id), w.companions.map((c) => c.chunk_id), `${query}: companions of ${w.chunk_id}`);
    g.companions.forEach((c, j) => {
      assert.ok(Math.abs(c.score - w.companions[j].score) <= 1e-6, `${query}: companion score`);
      assert.equal(c.matched_row, w.companions[j].matched_row, `${query}: companion matched row`);
      assert.equal(c.page, w.companions[j].page, `${query}: companion page`);
    });
  });
}

test("query text is normalised like Python's normalize_query", () => {
  assert.equal(normalizeQuery("  a\u0000b\t\tc \u200b d  ", 100), "a b c d");
  assert.throws(() => normalizeQuery("x".repeat(11), 10), /query too long/);
  assert.equal(isSearchable("!!! ??"), false);
  assert.equal(isSearchable("负载"), true);
});

test("a scenario question is one of >= 20 words or CJK characters, counted as Python counts", () => {
  assert.equal(isScenarioQuestion(Array(20).fill("w").join(" ")), true);
  assert.equal(isScenarioQuestion(Array(19).fill("w").join(" ")), false);
  assert.equal(isScenarioQuestion("FA-678/x.y " + Array(18).fill("w").join(" ")), false); // one word
  assert.equal(isScenarioQuestion("负".repeat(20)), true);
  assert.equal(isScenarioQuestion("负".repeat(19)), false);
  assert.equal(isScenarioQuestion("负".repeat(10) + "a" + "载".repeat(9)), false); // 19 CJK, 1 word
  assert.equal(isScenarioQuestion("ＡＢＣ " + Array(19).fill("w").join(" ")), true); // NFKC: abc is a word
});

test("browser search = Python lexical path (chunk ids, order, companions, rows, scores to 1e-6)", { skip: !SITE || !PARITY }, async () => {
  const engine = await SiteSearch.load(loadSiteData(SITE));
  const cases = JSON.parse(readFileSync(PARITY, "utf-8"));
  assert.ok(cases.length > 0);
  for (const c of cases) {
    const got = engine.search(c.query, { topK: c.top_k }).map((h) => ({ ...slim(h), companions: h.companions.map(slim) }));
    assertSame(got, c.hits, c.query);
  }
});

test("a scenario question's weights: bm25Weights(b) reproduces the exported bm25_b weights bit for bit", { skip: !SITE }, async () => {
  const engine = await SiteSearch.load(loadSiteData(SITE));
  const s = engine.settings;
  assert.notEqual(s.bm25_b_long, s.bm25_b, "the test export must carry term counts");
  const again = engine.bm25Weights(s.bm25_b);
  let differ = 0;
  for (let k = 0; k < again.length; k++) if (again[k] !== engine.weights[k]) differ++;
  assert.equal(differ, 0, `${differ} of ${again.length} weights differ`);
  const long = engine.bm25Weights(s.bm25_b_long);
  assert.ok(long.some((w, k) => w !== engine.weights[k]), "b_long weighs otherwise");
});

test("a document's card tokens (the focus page leaves them out) = Python's SearchIndex.card_terms", { skip: !SITE || !PARITY }, async () => {
  const engine = await SiteSearch.load(loadSiteData(SITE));
  const want = JSON.parse(readFileSync(join(dirname(PARITY), "card_terms.json"), "utf-8"));
  assert.ok(Object.keys(want).length > 0);
  for (const [doc, terms] of Object.entries(want)) assert.deepEqual([...engine.cardTerms(doc)].sort(), terms, doc);
});
