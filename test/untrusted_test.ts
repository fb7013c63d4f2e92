import { equal, ok } from "node:assert/strict";
import { firstSentence, oneLine, quote, quoteId } from "../src/untrusted.ts";

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
