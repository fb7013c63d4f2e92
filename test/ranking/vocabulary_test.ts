import { deepEqual, equal, ok } from "node:assert/strict";
import { oneEdit, Vocabulary } from "../../src/ranking/vocabulary.ts";

const OPTIONS = { prefixMinLength: 4, prefixWeight: 0.5, fuzzyMinLength: 5, fuzzyWeight: 0.4 };
const WORDS = new Vocabulary(["screenshot", "screenshots", "screen", "search", "file", "files"]);

Deno.test("Vocabulary.expand() gives a known word itself with weight 1, first", () => {
  deepEqual(WORDS.expand("screen", OPTIONS)[0], { term: "screen", weight: 1 });
  equal(WORDS.has("screen"), true);
  equal(WORDS.size, 6);
});

Deno.test("Vocabulary.expand() reaches longer words a long enough word begins, weighted down", () => {
  const terms = WORDS.expand("screen", OPTIONS);
  deepEqual(terms.map((e) => e.term), ["screen", "screenshot", "screenshots"]);
  ok(terms[1]!.weight < 0.5 && terms[1]!.weight > terms[2]!.weight);
  deepEqual(WORDS.expand("fil", OPTIONS), []);
  deepEqual(WORDS.expand("scr", OPTIONS), []);
});

Deno.test("Vocabulary.expand() matches an unknown word one typo away, and only then", () => {
  deepEqual(WORDS.expand("serach", OPTIONS).map((e) => e.term), ["search"]);
  deepEqual(WORDS.expand("screenshto", OPTIONS).map((e) => e.term), ["screenshot"]);
  // "searches" has no exact or prefix match, and is two edits from "search".
  deepEqual(WORDS.expand("searches", OPTIONS), []);
  // Too short for typo matching.
  deepEqual(WORDS.expand("fils", OPTIONS), []);
  // A known word is not also matched to its neighbours.
  deepEqual(WORDS.expand("files", OPTIONS).map((e) => e.term), ["files"]);
});

Deno.test("Vocabulary.expand() turns each kind of expansion off with a weight of 0", () => {
  const off = { ...OPTIONS, prefixWeight: 0, fuzzyWeight: 0 };
  deepEqual(WORDS.expand("screen", off).map((e) => e.term), ["screen"]);
  deepEqual(WORDS.expand("serach", off), []);
});

Deno.test("oneEdit() accepts one insertion, deletion, substitution or swap, nothing else", () => {
  for (const [a, b] of [["abc", "abxc"], ["abxc", "abc"], ["abc", "axc"], ["abcd", "acbd"]]) {
    equal(oneEdit(a!, b!), true, `${a} ${b}`);
  }
  for (const [a, b] of [["abc", "abc"], ["abc", "a"], ["abcd", "badc"], ["ab", "cd"]]) {
    equal(oneEdit(a!, b!), false, `${a} ${b}`);
  }
  equal(oneEdit("ab", "ba"), true);
  equal(oneEdit("", "a"), true);
});
