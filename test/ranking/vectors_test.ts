import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { decodeVectors, encodeVectors, type VectorTable } from "../../src/ranking/vectors_codec.ts";
import {
  englishVectors,
  MAX_SPELT_CHARS,
  vectorsOf,
  WORD_WEIGHT_SMOOTHING,
} from "../../src/ranking/vectors.ts";
import { tablesOf } from "../../src/ranking/ranking_data_write.ts";
import { englishRankingData } from "../../src/ranking/english_data.ts";
import { STOP_WORDS } from "../../src/ranking/terms.ts";
import { gzipSize } from "../_gzip.ts";
import { random } from "./_random.ts";

const SMALL: VectorTable = {
  dimensions: 3,
  scale: 0.25,
  words: ["cat", "dog2"],
  pieces: [{ piece: "_c", logp: -1.5 }, { piece: "at", logp: -2.125 }],
  rows: Int8Array.from([127, -127, 0, -1, 1, 64, -64, 3, -3, 100, -100, 5]),
};

// The fields of SMALL's text form, to break one at a time.
const fieldsOf = (table: VectorTable) => encodeVectors(table).split("|");
const withField = (index: number, value: string) => {
  const fields = fieldsOf(SMALL);
  fields[index] = value;
  return fields.join("|");
};
const base64 = (bytes: number[]) => btoa(String.fromCharCode(...bytes));

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let d = 0; d < a.length; d++) {
    dot += a[d]! * b[d]!;
    na += a[d]! * a[d]!;
    nb += b[d]! * b[d]!;
  }
  return dot / Math.sqrt(na * nb);
}

Deno.test("encodeVectors() and decodeVectors() round-trip words, pieces and signed bytes", () => {
  const text = encodeVectors(SMALL);
  ok(text.startsWith("v1|3|0.25|cat dog2|_c:-1.5 at:-2.125|"), text);
  const table = decodeVectors(text);
  deepEqual(table, SMALL);
  equal(table.rows[0], 127);
  equal(table.rows[1], -127);
  equal(table.rows[3], -1);
  const empty = { dimensions: 2, scale: 1, words: [], pieces: [], rows: new Int8Array(0) };
  deepEqual(decodeVectors(encodeVectors(empty)), empty);
});

Deno.test("decodeVectors() throws SyntaxError on a wrong version or field count", () => {
  const fields = fieldsOf(SMALL);
  throws(() => decodeVectors(["v2", ...fields.slice(1)].join("|")), SyntaxError);
  throws(() => decodeVectors(fields.slice(0, 5).join("|")), SyntaxError);
  throws(() => decodeVectors([...fields, ""].join("|")), SyntaxError);
  throws(() => decodeVectors(""), SyntaxError);
  throws(() => decodeVectors("v0|"), SyntaxError);
});

Deno.test("decodeVectors() throws SyntaxError on bad dimensions or scale", () => {
  for (const dimensions of ["x", "0", "-3", "1.5", ""]) {
    throws(
      () => decodeVectors(withField(1, dimensions)),
      SyntaxError,
      `dimensions "${dimensions}"`,
    );
  }
  for (const scale of ["0", "-0.25", "abc", ""]) {
    throws(() => decodeVectors(withField(2, scale)), SyntaxError, `scale "${scale}"`);
  }
});

Deno.test("decodeVectors() throws SyntaxError on a malformed piece", () => {
  for (const pieces of ["_c at:-2", "_c:0 at:-2", "_c:0.5 at:-2", "_c:x at:-2", ":-1 at:-2"]) {
    throws(() => decodeVectors(withField(4, pieces)), SyntaxError, `pieces "${pieces}"`);
  }
  throws(() => decodeVectors(withField(4, "_C:-1 at:-2")), SyntaxError);
  throws(() => decodeVectors(withField(4, "c_:-1 at:-2")), SyntaxError);
});

Deno.test("decodeVectors() throws SyntaxError on a word outside [a-z][a-z0-9]*", () => {
  for (const words of ["Cat dog2", "cat\tx dog2", "cat\u00a0x dog2", "cat 2dog", "cat dög"]) {
    throws(() => decodeVectors(withField(3, words)), SyntaxError, JSON.stringify(words));
  }
});

Deno.test("decodeVectors() throws SyntaxError on rows that are not base64 or do not line up", () => {
  throws(() => decodeVectors(withField(5, "!!not base64!!")), SyntaxError);
  const bytes = Array.from(SMALL.rows, (value) => value & 0xff);
  throws(() => decodeVectors(withField(5, base64(bytes.slice(1)))), SyntaxError);
  throws(() => decodeVectors(withField(5, base64([...bytes, 0]))), SyntaxError);
  throws(() => decodeVectors(withField(5, "")), SyntaxError);
  deepEqual(decodeVectors(withField(5, base64(bytes))).rows, SMALL.rows);
});

Deno.test("encodeVectors() throws RangeError on a bad word or piece, or rows that do not line up", () => {
  for (const words of [["Cat"], ["a b"], ["2cat"], [""], ["na\u00efve"], ["a|b"]]) {
    throws(
      () => encodeVectors({ ...SMALL, words: [...words, "dog2"] }),
      RangeError,
      JSON.stringify(words),
    );
  }
  for (
    const piece of [{ piece: "a:b", logp: -1 }, { piece: "", logp: -1 }, { piece: "x y", logp: -1 }]
  ) {
    throws(() => encodeVectors({ ...SMALL, pieces: [piece, SMALL.pieces[1]!] }), RangeError);
  }
  for (const logp of [0, 1, Number.NaN]) {
    throws(
      () => encodeVectors({ ...SMALL, pieces: [{ piece: "_c", logp }, SMALL.pieces[1]!] }),
      RangeError,
      `logp ${logp}`,
    );
  }
  throws(() => encodeVectors({ ...SMALL, rows: SMALL.rows.subarray(1) }), RangeError);
  throws(() => encodeVectors({ ...SMALL, dimensions: 4 }), RangeError);
});

Deno.test("the committed vectors are well-formed: 48 dimensions, 10,000 words, 5,909 pieces", () => {
  const table = tablesOf(englishRankingData()).vectors;
  equal(table.dimensions, 48);
  ok(table.scale > 0);
  equal(table.words.length, 10_000);
  equal(new Set(table.words).size, 10_000);
  for (const word of table.words) {
    ok(/^[a-z][a-z0-9]*$/.test(word), word);
    ok(!STOP_WORDS.has(word), word);
  }
  equal(table.pieces.length, 5_909);
  equal(new Set(table.pieces.map(({ piece }) => piece)).size, 5_909);
  for (const { piece, logp } of table.pieces) {
    ok(/^_?[a-z0-9]+$/.test(piece), piece);
    ok(logp < 0, `${piece}:${logp}`);
  }
  equal(table.rows.length, (10_000 + 5_909) * 48);
});

Deno.test("the committed vectors stay within their size budget (800 KiB gzipped)", async () => {
  const gzip = await gzipSize(encodeVectors(tablesOf(englishRankingData()).vectors));
  ok(gzip <= 800 * 1024, `${gzip} bytes gzipped`);
});

Deno.test("englishVectors() relates words by meaning", () => {
  const vectors = englishVectors();
  equal(vectors.dimensions, 48);
  equal(englishVectors(), vectors);
  const v = (word: string) => {
    const found = vectors.get(word);
    ok(found !== undefined, word);
    equal(found.vector.length, 48);
    return found.vector;
  };
  ok(cosine(v("picture"), v("image")) > cosine(v("picture"), v("delete")));
  ok(cosine(v("remove"), v("delete")) > cosine(v("remove"), v("weather")));
});

Deno.test("englishVectors() weighs frequent words less than rare ones, within (0, 1)", () => {
  const table = tablesOf(englishRankingData()).vectors;
  const vectors = englishVectors();
  const first = vectors.get(table.words[0]!)!;
  const last = vectors.get(table.words.at(-1)!)!;
  ok(first.weight < last.weight, `${first.weight} < ${last.weight}`);
  for (const { weight } of [first, last]) ok(weight > 0 && weight < 1, String(weight));
});

Deno.test("englishVectors() spells a word outside the table in pieces", () => {
  const words = new Set(tablesOf(englishRankingData()).vectors.words);
  const vectors = englishVectors();
  for (const word of ["kubernetes", "screenshotting"]) {
    ok(!words.has(word), word);
    const found = vectors.get(word);
    ok(found !== undefined, word);
    equal(found.vector.length, 48);
    ok(found.vector.some((x) => x !== 0), word);
    ok(found.vector.every(Number.isFinite), word);
    ok(found.weight > 0 && found.weight < 1, `${word}: ${found.weight}`);
    deepEqual(vectors.get(word), found);
  }
  for (const word of ["naïve", "a-b", "", "Picture x", "x".repeat(MAX_SPELT_CHARS + 1)]) {
    equal(vectors.get(word), undefined, JSON.stringify(word));
  }
});

Deno.test("vectorsOf() spells a word by its most probable segmentation, and gives it the pieces' mean", () => {
  // "_abc" is "_a" + "bc" or "_ab" + "c": whichever pair is more probable wins, not the longest
  // first piece nor the first found.
  const table = (first: number, second: number): VectorTable => ({
    dimensions: 2,
    scale: 0.5,
    words: ["cat"],
    pieces: [
      { piece: "_a", logp: first },
      { piece: "bc", logp: first },
      { piece: "_ab", logp: second },
      { piece: "c", logp: second },
    ],
    rows: Int8Array.from([9, 9, 2, 4, 6, 8, -2, -4, -6, -8]),
  });
  const weight = (logp: number) => WORD_WEIGHT_SMOOTHING / (WORD_WEIGHT_SMOOTHING + Math.exp(logp));
  const shortFirst = vectorsOf(table(-1, -3)).get("abc");
  deepEqual(shortFirst, { vector: Float32Array.from([2, 3]), weight: weight(-1) });
  const longFirst = vectorsOf(table(-3, -1)).get("abc");
  deepEqual(longFirst, { vector: Float32Array.from([-2, -3]), weight: weight(-1) });
  // A word of the table has its own row, even when it could be spelt.
  deepEqual(vectorsOf(table(-1, -3)).get("cat")?.vector, Float32Array.from([4.5, 4.5]));
});

Deno.test("vectorsOf() gives no vector to a word it cannot spell, a too long one, or a non-[a-z0-9] one", () => {
  const vectors = vectorsOf({
    dimensions: 1,
    scale: 1,
    words: [],
    pieces: [{ piece: "_a", logp: -1 }, { piece: "a", logp: -1 }, { piece: "b", logp: -1 }],
    rows: Int8Array.from([3, 5, 7]),
  });
  // Mean of "_a" and 39 × "a".
  equal(vectors.get("a".repeat(MAX_SPELT_CHARS))?.vector[0], Math.fround((3 + 5 * 39) / 40));
  equal(vectors.get("a".repeat(MAX_SPELT_CHARS + 1)), undefined);
  equal(vectors.get("ab")?.vector[0], 5);
  // No piece starts a word with "b" (as the encoder has no "_q"): spelt with inner pieces alone.
  equal(vectors.get("ba")?.vector[0], 6);
  equal(vectors.get("ac"), undefined); // no piece holds "c"
  for (const word of ["naïve", "a-b", "", "a b", "A"]) {
    equal(vectors.get(word), undefined, JSON.stringify(word));
  }
});

Deno.test("englishVectors() survives hostile words: many distinct long ones, and a huge one", () => {
  const vectors = englishVectors();
  const next = random(12);
  const letters = "abcdefghijklmnopqrstuvwxyz0123456789";
  const words = new Set<string>();
  // More distinct words than the cache of spelt words holds (4,096), so it is cleared on the way.
  while (words.size < 6_000) {
    let word = "";
    for (let i = 0; i < MAX_SPELT_CHARS; i++) word += letters[Math.floor(next() * letters.length)];
    words.add(word);
  }
  const first = [...words][0]!;
  const before = vectors.get(first);
  let spelt = 0;
  for (const word of words) {
    const found = vectors.get(word);
    if (found === undefined) continue;
    spelt++;
    equal(found.vector.length, 48);
    ok(found.vector.every(Number.isFinite), word);
    ok(found.weight > 0 && found.weight < 1, word);
  }
  ok(spelt > words.size * 0.9, `${spelt} of ${words.size} spelt`);
  // The cache was cleared on the way (it holds 4,096 words): the word is spelt the same again.
  deepEqual(vectors.get(first), before);
  equal(vectors.get("a".repeat(10_000)), undefined);
  equal(vectors.get("kubernetes".repeat(1_000)), undefined);
});

Deno.test("englishVectors() spells words that start with a letter no piece starts a word with", () => {
  // The encoder has no "_q" piece; these were undefined before inner pieces became the fallback.
  for (const word of ["qdrant", "qemu", "qr", "qwerty"]) {
    ok(englishVectors().get(word) !== undefined, word);
  }
});

// The semantic match's weight for a query over a catalogue whose only words are "read" and "file".
function matchWeight(query: string[]): number {
  const fields = {
    name: ["read", "file"],
    title: [],
    keywords: [],
    server: [],
    serverText: [],
    description: [],
    params: [],
    paramDescriptions: [],
    related: [],
  };
  const known = (word: string) => word === "read" || word === "file";
  return englishVectors().index([fields]).weight(query, known, 1);
}

Deno.test("englishVectors().has() tells the table's words from words spelt in pieces", () => {
  const vectors = englishVectors();
  equal(vectors.has?.("picture"), true);
  equal(vectors.has?.("kubernetes"), false);
  ok(vectors.get("kubernetes") !== undefined);
});

Deno.test("the semantic match counts a query's everyday words the catalogue lacks, not its names or codes", () => {
  // "photo" is everyday English no tool uses; "qx7zk" and "kubernetes" are spelt in pieces: what
  // the request is about, not another wording of what to do.
  equal(matchWeight(["read", "file", "qx7zk", "kubernetes"]), 0);
  ok(matchWeight(["read", "file", "photo"]) > 0);
  equal(matchWeight(["photo", "picture"]), 1);
  equal(matchWeight([]), 0);
});

Deno.test("the semantic match's weight grows with the square of the share of words it is for", () => {
  const one = matchWeight(["read", "photo"]);
  const vectors = englishVectors();
  const w = (word: string) => vectors.get(word)!.weight;
  const share = w("photo") / (w("read") + w("photo"));
  ok(Math.abs(one - share ** 2) < 1e-12, `${one} vs ${share ** 2}`);
});
