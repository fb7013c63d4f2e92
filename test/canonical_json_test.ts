import { equal } from "node:assert/strict";
import { canonicalJson } from "../src/canonical_json.ts";

// CPU time of the fastest of five runs after one unmeasured run, so neither one pause of a loaded
// machine nor a first run in unoptimised code decides (the whole suite runs files side by side).
function cost(run: () => unknown): number {
  run();
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return Math.max(best, 0.5);
}

Deno.test("canonicalJson of a 40,000-member enum of small objects grows linearly with the enum", () => {
  // A complexity check, not a speed target (bench/hostile.ts measures that): rescanning the text
  // per member made this several hundred times JSON.stringify, 6 s of CPU for a 458 KiB body. It
  // is compared with itself at an eighth of the size (linear: about 8 times; quadratic: 64), not
  // with JSON.stringify: test files running beside it in the same process slow the walk several
  // times more than the native serialiser, so that ratio went from 7 alone to over 50 in the suite.
  const schema = (members: number) => ({
    type: "object",
    properties: { q: { enum: Array.from({ length: members }, (_, i) => ({ b: i, a: "x" })) } },
  });
  const large = schema(40_000);
  const small = schema(5_000);
  const text = canonicalJson(large);
  equal(text.startsWith('{"properties":{"q":{"enum":[{"a":"x","b":0},{"a":"x","b":1},'), true);
  equal(JSON.parse(text).properties.q.enum.length, 40_000);
  const growth = cost(() => canonicalJson(large)) / cost(() => canonicalJson(small));
  equal(growth < 32, true, `8 times the members took ${growth.toFixed(1)} times as long`);
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
