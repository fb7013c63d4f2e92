import { deepEqual, ok } from "node:assert/strict";
import { clauses, fuseRanks } from "../../src/ranking/segments.ts";

Deno.test("clauses() splits at sentence ends, line breaks, semicolons and then", () => {
  deepEqual(clauses("Get the weather. Then post it\nto the channel; done"), [
    "Get the weather",
    "post it",
    "to the channel",
    "done",
  ]);
  deepEqual(clauses("v1.2 is out"), ["v1.2 is out"]);
  deepEqual(clauses(""), []);
});

Deno.test("fuseRanks() lets each list's best near the top, ties by number", () => {
  deepEqual(fuseRanks([[5, 6, 7], [8], [9]], 1).map((h) => h.doc), [5, 8, 9, 6, 7]);
  deepEqual(fuseRanks([], 1), []);
});

// The boundaries as the regular expression they were (quadratic on runs of white space): the
// scanner must split every short text exactly as it did.
const BOUNDARY = /[.!?](?=\s)|[;\n\r]+|,?\s+(?:and\s+)?then\s+/giu;
const byRegex = (text: string) =>
  text.split(BOUNDARY).map((clause) => clause.trim()).filter((clause) => clause !== "");

Deno.test("clauses() splits as the boundary regular expression does, on random short texts", () => {
  const pieces = [" ", "  ", "\t", "\n", "\r", ";", ",", ".", "!", "?", "\u00a0", "and", "AND"];
  pieces.push("then", "Then", "thenx", "x", "a", "t", "the", "n");
  let seed = 27;
  const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  for (let i = 0; i < 5_000; i++) {
    const text = Array.from({ length: random(16) }, () => pieces[random(pieces.length)]).join("");
    deepEqual(clauses(text), byRegex(text), JSON.stringify(text));
  }
});

Deno.test("clauses() reads each character a bounded number of times, whatever the runs", () => {
  const steps = (text: string) => {
    const meter = { steps: 0 };
    clauses(text, meter);
    return meter.steps;
  };
  const shapes: [string, (n: number) => string][] = [
    ["a run of spaces", (n) => `a${" ".repeat(n)}b`],
    ["spaces before and", (n) => `a${" ".repeat(n)}and${" ".repeat(n)}x`],
    ["commas and spaces", (n) => ", ".repeat(n)],
    ["and and and", (n) => " and".repeat(n)],
    ["then without a space after", (n) => `${" ".repeat(n)}then`],
    ["line breaks and spaces", (n) => "\n ".repeat(n)],
  ];
  for (const [label, shape] of shapes) {
    const small = steps(shape(10_000));
    const large = steps(shape(20_000));
    ok(
      small > 0 && large <= 2.1 * small,
      `${label}: ${small} steps, then ${large} at twice the size`,
    );
    ok(large <= 16 * shape(20_000).length, `${label}: ${large} steps for ${shape(20_000).length}`);
  }
});
