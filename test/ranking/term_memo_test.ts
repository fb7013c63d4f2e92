import { deepEqual, equal } from "node:assert/strict";
import {
  MAX_MEMO_CHUNK_CHARS,
  MAX_MEMO_CHUNKS,
  memoizeTerms,
} from "../../src/ranking/term_memo.ts";
import { tokenize, tokenizeIdentifiers } from "../../src/ranking/terms.ts";
import { random } from "./_random.ts";

// Pieces whose terms depend on their neighbours, if anything does: case and letter–digit
// boundaries, separators, marks after a space, final sigma, NFKD expansions, CJK runs.
const PIECES = [
  "a",
  "B",
  "z",
  "Q",
  "1",
  "9",
  " ",
  " ",
  "\t",
  "\n",
  "\r",
  "_",
  "-",
  ".",
  ":",
  "/",
  "é",
  "\u0301",
  "e\u0301",
  "Σ",
  "ΑΣ",
  "σ",
  "\u00a0",
  "①",
  "ＡＰＩ",
  "搜",
  "索",
  "ア",
  "İ",
  "ß",
  "ﬁ",
  "’",
  "'",
  "\u200b",
  "x".repeat(45),
  "HTTP",
  "mp3",
  "getFile",
  "the",
  "\ud800",
];

function texts(count: number, seed: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    let text = "";
    const length = Math.floor(next() * 16);
    for (let i = 0; i < length; i++) text += PIECES[Math.floor(next() * PIECES.length)];
    return text;
  });
}

Deno.test("memoizeTerms gives the terms of the whole text, for prose and for identifiers", () => {
  const stop = new Set(["the", "a"]);
  const keep = (t: string) => !stop.has(t) && t.length <= 40;
  const text = memoizeTerms((t) => tokenize(t).filter(keep));
  const identifiers = memoizeTerms((t) => tokenizeIdentifiers(t).filter(keep));
  // Twice over the same texts: the second pass reads the memo.
  for (const sample of [...texts(5000, 1), ...texts(5000, 1)]) {
    deepEqual(text(sample), tokenize(sample).filter(keep), JSON.stringify(sample));
    deepEqual(identifiers(sample), tokenizeIdentifiers(sample).filter(keep));
  }
});

Deno.test("memoizeTerms keeps short chunks only, and at most MAX_MEMO_CHUNKS of them", () => {
  let calls = 0;
  const terms = memoizeTerms((t) => {
    calls++;
    return tokenize(t);
  });
  const long = "y".repeat(MAX_MEMO_CHUNK_CHARS + 1);
  terms(`${long} ${long} word word`);
  equal(calls, 3); // the long chunk twice, the short one once
  for (let i = 0; i < MAX_MEMO_CHUNKS + 10; i++) terms(`w${i}`);
  calls = 0;
  terms(`w0 w${MAX_MEMO_CHUNKS + 5}`);
  equal(calls, 1); // the first is remembered, one past the bound is not
});
