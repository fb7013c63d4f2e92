import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { cutText, type CutWork, windowUnits } from "../../src/bridge/cut.ts";
import { estimateTokens } from "../../src/tokens.ts";

// Cuts a whole text into parts of `budget` tokens, as the parts of a cut answer are read: each
// from where the last ended, in a window of the rest.
function cutAll(
  text: string,
  budget: number,
  json: boolean,
  work?: CutWork,
  estimate = estimateTokens,
) {
  const parts: string[] = [];
  let at = 0;
  let inString = false;
  while (at < text.length) {
    let units = windowUnits(budget);
    for (;;) {
      const to = Math.min(text.length, at + units);
      const cut = cutText(text.slice(at, to), {
        budget,
        estimateTokens: estimate,
        json,
        inString,
        complete: to === text.length,
        ...(work ? { work } : {}),
      });
      if (cut === undefined) {
        units *= 2;
        continue;
      }
      ok(cut.end > 0, "every cut makes progress");
      ok(cut.tokens <= budget || cut.end <= 12, `a part of ${cut.tokens} tokens over ${budget}`);
      equal(cut.tokens, estimate(text.slice(at, at + cut.end)));
      parts.push(text.slice(at, at + cut.end));
      at += cut.end;
      inString = cut.inString;
      break;
    }
  }
  return parts;
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

Deno.test("cutText() cuts plain text after a line in the second half of the budget", () => {
  const text = "first line\nsecond line\nthird line\n";
  const cut = cutText(text, { budget: 6, estimateTokens, json: false, complete: true })!;
  equal(text.slice(0, cut.end), "first line\nsecond line\n");
  equal(cut.tokens, 6);
});

Deno.test("cutText() cuts at a space when no line ends in the second half, else at a code point", () => {
  const words = "lorem ipsum dolor sit amet consectetur";
  const cut = cutText(words, { budget: 5, estimateTokens, json: false, complete: true })!;
  equal(words.slice(0, cut.end), "lorem ipsum dolor ");
  const solid = "x".repeat(100);
  equal(cutText(solid, { budget: 5, estimateTokens, json: false, complete: true })!.end, 20);
});

Deno.test("cutText() cuts JSON after an array element or object member, the shallowest first", () => {
  const json = JSON.stringify({ a: [1, 2, 3, 4, 5, 6, 7, 8, 9], b: "text", c: { d: 1, e: 2 } });
  const parts = cutAll(json, 6, true);
  equal(parts.join(""), json);
  deepEqual(parts.slice(0, 2), ['{"a":[1,2,3,4,5,6,7,8,', '9],"b":"text",']);
  for (const part of parts.slice(0, -1)) ok(part.endsWith(","), part);
});

Deno.test("cutText() never ends a part inside a surrogate pair, a JSON escape or an escaped pair", () => {
  const emoji = "🙂".repeat(50);
  for (const part of cutAll(emoji, 3, false)) ok(!isHigh(part.charCodeAt(part.length - 1)), part);
  const escaped = JSON.stringify({ s: 'é\n"😀'.repeat(30) })
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const parts = cutAll(escaped, 3, true);
  equal(parts.join(""), escaped);
  for (const part of parts.slice(0, -1)) {
    // The boundary is never in `\u00e9`, `\n`, `\"` or between `\ud83d` and `\ude00`.
    ok(!/\\(u[0-9a-f]{0,3})?$/.test(part.replace(/\\\\/g, "")), part);
    ok(!/\\ud83d$/.test(part), part);
  }
});

Deno.test("cutText() joined parts are the text, byte for byte, for any text and budget", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ unit: "binary", maxLength: 400 }),
        fc.json({ maxDepth: 4 }),
        fc.string({ unit: "grapheme", maxLength: 200 }).map((s) => JSON.stringify({ s })),
      ),
      fc.integer({ min: 1, max: 40 }),
      fc.boolean(),
      (text, budget, json) => {
        const parts = cutAll(text, budget, json);
        equal(parts.join(""), text);
        const bytes = (s: string) => new TextEncoder().encode(s);
        deepEqual(bytes(parts.join("")), bytes(text));
        for (const part of parts.slice(0, -1)) ok(!isHigh(part.charCodeAt(part.length - 1)));
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("cutText() with another estimator keeps each part within its count", () => {
  // One token a word: a count the default's four code points a token knows nothing of.
  const words = (text: string) => text.split(/\s+/).filter((w) => w !== "").length;
  const text = Array.from({ length: 500 }, (_, i) => `word${i}`).join(" ");
  const parts = cutAll(text, 40, false, undefined, words);
  equal(parts.join(""), text);
  for (const part of parts) ok(words(part) <= 40, `${words(part)}`);
  ok(parts.length <= 14, `${parts.length} parts`);
});

Deno.test("cutting 8 MiB into parts reads each code unit a bounded number of times", () => {
  const line = "a line of a large log file, with some words in it: 0123456789\n";
  const text = line.repeat(Math.ceil((8 * 1024 * 1024) / line.length));
  const work: CutWork = { units: 0 };
  let at = 0;
  let parts = 0;
  while (at < text.length) {
    const to = Math.min(text.length, at + windowUnits(10_000));
    const cut = cutText(text.slice(at, to), {
      budget: 10_000,
      estimateTokens,
      json: false,
      complete: to === text.length,
      work,
    })!;
    at += cut.end;
    parts++;
  }
  ok(parts > 200);
  // The scan reads a part and at most the line after it: linear in the text.
  ok(work.units <= 1.01 * text.length, `${work.units} units read for ${text.length}`);
});
