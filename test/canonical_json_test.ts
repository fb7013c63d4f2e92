import { equal } from "node:assert/strict";
import { canonicalJson } from "../src/canonical_json.ts";

// How many times one run costs the other, from the closest of five pairs of runs: each pair runs
// one after the other, so a machine that slows down slows both, and one pause does not decide.
function costRatio(run: () => unknown, base: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    let start = performance.now();
    run();
    const cost = performance.now() - start;
    start = performance.now();
    base();
    best = Math.min(best, cost / Math.max(performance.now() - start, 0.5));
  }
  return best;
}

Deno.test("canonicalJson of a 40,000-member enum of small objects costs the order of JSON.stringify", () => {
  // A complexity check, not a speed target (bench/hostile.ts measures that): rescanning the text
  // per member made this several hundred times JSON.stringify, 6 s of CPU for a 458 KiB body.
  const schema = {
    type: "object",
    properties: { q: { enum: Array.from({ length: 40_000 }, (_, i) => ({ b: i, a: "x" })) } },
  };
  const text = canonicalJson(schema);
  equal(text.startsWith('{"properties":{"q":{"enum":[{"a":"x","b":0},{"a":"x","b":1},'), true);
  equal(JSON.parse(text).properties.q.enum.length, 40_000);
  const ratio = costRatio(() => canonicalJson(schema), () => JSON.stringify(schema));
  equal(ratio < 40, true, `canonicalJson took ${ratio.toFixed(1)}× JSON.stringify`);
});

Deno.test("canonicalJson leaves out undefined members and writes no stray commas", () => {
  equal(
    canonicalJson({ a: undefined, b: 1, c: undefined, d: [undefined, 2] }),
    '{"b":1,"d":[null,2]}',
  );
  equal(canonicalJson({ a: undefined }), "{}");
  equal(canonicalJson({ z: {}, y: [], x: { w: undefined, v: 1 } }), '{"x":{"v":1},"y":[],"z":{}}');
});

Deno.test("canonicalJson sorts integer-like keys as text, keeps a __proto__ member, and serialises any depth", () => {
  equal(canonicalJson({ b: 1, 10: 2, 2: 3, $a: 4 }), '{"$a":4,"10":2,"2":3,"b":1}');
  equal(
    canonicalJson({ x: [{ 1: 1, 0: 0 }, { z: 1, a: 2 }] }),
    '{"x":[{"0":0,"1":1},{"a":2,"z":1}]}',
  );
  equal(
    canonicalJson(JSON.parse('{"z":1,"__proto__":{"b":1,"a":2}}')),
    '{"__proto__":{"a":2,"b":1},"z":1}',
  );
  const deep = JSON.parse(`${'{"b":1,"a":'.repeat(100_000)}0${"}".repeat(100_000)}`);
  const text = canonicalJson(deep);
  equal(text.length, '{"a":'.length * 100_000 + ',"b":1}'.length * 100_000 + 1);
  equal(text.startsWith('{"a":{"a":'), true);
});
