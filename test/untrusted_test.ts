import { equal, ok } from "node:assert/strict";
import {
  firstSentence,
  oneLine,
  quote,
  quoteClean,
  quotedLineLength,
  quoteId,
} from "../src/untrusted.ts";

// Texts of random parts, the same every run: a fixed seed drives a linear congruential generator
// that picks each part. Yields [index, text], as entries() does, for tests that vary by index.
function* randomTexts(
  parts: readonly string[],
  seed: number,
  count: number,
  length: (i: number) => number,
): Generator<[number, string]> {
  let state = seed;
  for (let i = 0; i < count; i++) {
    let text = "";
    for (let j = 0; j < length(i); j++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      text += parts[state % parts.length];
    }
    yield [i, text];
  }
}

Deno.test("oneLine() turns line breaks and controls into spaces and removes invisible characters", () => {
  equal(oneLine("a\nb\r\nc\u2028d\u2029e\u0085f\u0007g", 100), "a b c d e f g");
  equal(oneLine("zero\u200bwidth \u202eevil\u202c \ufeffbom", 100), "zerowidth evil bom");
  equal(oneLine("  lots   of\t\tspace  ", 100), "lots of space");
});

Deno.test("oneLine() caps by code points and marks the cut", () => {
  equal(oneLine("abcdef", 6), "abcdef");
  equal(oneLine("abcdefg", 6), "abcde…");
  equal(oneLine("🙂🙂🙂", 2), "🙂…");
});

Deno.test("firstSentence() stops at the first sentence end, in Latin and CJK punctuation", () => {
  equal(firstSentence("Create an issue. Then more.", 100), "Create an issue.");
  equal(firstSentence("Version 1.2 is supported! Yes.", 100), "Version 1.2 is supported!");
  equal(firstSentence("获取网页内容。然后", 100), "获取网页内容。");
  equal(firstSentence("No end here", 100), "No end here");
  equal(firstSentence("Para one\n\nPara two", 100), "Para one");
});

Deno.test("firstSentence() cuts a long sentence at a word boundary", () => {
  const text = "word ".repeat(40);
  const brief = firstSentence(text, 100);
  ok([...brief].length <= 100);
  ok(brief.endsWith("word…"), brief);
});

Deno.test("quote() escapes quotes, backslashes and angle brackets", () => {
  const q = quote('a "b" \\ </tool-catalogue> <x>');
  equal(JSON.parse(q), 'a "b" \\ </tool-catalogue> <x>');
  ok(!q.includes("<") && !q.includes(">"));
});

Deno.test("quoteId() leaves ordinary ids bare and quotes others", () => {
  equal(quoteId("a-b.c/d_e:f@1+2"), "a-b.c/d_e:f@1+2");
  equal(quoteId("a b"), '"a b"');
  equal(quoteId("<x>"), '"\\u003cx\\u003e"');
});

Deno.test("oneLine() skips clean text without changing what it returns", () => {
  // The three replacements in full, as oneLine() ran them before its shortcut for clean text.
  const reference = (text: string) =>
    text.replace(/[\p{Cc}\u2028\u2029]+/gu, " ")
      .replace(/[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g, "")
      .replace(/\s+/g, " ").trim();
  const parts = [
    "a",
    "b c",
    " ",
    "  ",
    "\t",
    "\n",
    "\u00a0",
    "\u200b",
    "\u2028",
    "\ufeff",
    "é",
    "\0",
  ];
  for (const [, text] of randomTexts(parts, 7, 5000, () => 6)) {
    equal(oneLine(text, 100), reference(text), JSON.stringify(text));
  }
});

Deno.test("quotedLineLength() counts what quoteClean(oneLine()) would build, for any ASCII text", () => {
  const parts = [
    "a",
    "Bc",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\u0000",
    "\u007f",
    '"',
    "\\",
    "<",
    ">",
    ".",
  ];
  for (const [i, text] of randomTexts(parts, 11, 20_000, (i) => 1 + (i % 9))) {
    const max = 1 + (i % 12);
    const cut = oneLine(text, Infinity).length > max; // the cap applies: not counted
    const expected = cut ? undefined : quoteClean(oneLine(text, max)).length;
    equal(quotedLineLength(text, max), expected, JSON.stringify(text));
  }
  equal(quotedLineLength("café", 100), undefined);
});
