// The JavaScript tokenizer reproduces the Python tokenizer's golden vectors exactly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PartAwareTokenizer, STOPWORDS } from "../../src/layoutrag/site/static/tokenizer.js";

const VECTORS = fileURLToPath(new URL("../../src/layoutrag/data/tokenizer_vectors.json", import.meta.url));
const golden = JSON.parse(readFileSync(VECTORS, "utf-8"));

test("stop words are the Python tokenizer's", () => {
  assert.deepEqual([...STOPWORDS].sort(), golden.stopwords);
});

test("golden vectors, with and without 3-grams", () => {
  const withNgrams = new PartAwareTokenizer();
  const without = new PartAwareTokenizer({ ngrams: false });
  assert.equal(golden.version, 1);
  for (const c of golden.cases) {
    assert.deepEqual(withNgrams.tokenize(c.text), c.part_aware, c.text);
    assert.deepEqual(without.tokenize(c.text), c.part_aware_no_ngrams, c.text);
  }
});
