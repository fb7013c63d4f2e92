import { equal } from "node:assert/strict";
import { tooDeep } from "../../src/utils/json_depth.ts";

Deno.test("tooDeep points at the first member past the limit, keys escaped, arrays by index", () => {
  equal(tooDeep({ "a/b": { "~c": [{ d: [] }] } }, 3), "/a~1b/~0c/0");
  equal(tooDeep({ "a/b": { "~c": [{ d: [] }] } }, 4), "/a~1b/~0c/0/d");
  equal(tooDeep({ "a/b": { "~c": [{ d: [] }] } }, 5), undefined);
  equal(tooDeep([1, "x", [[2]]], 2), "/2/0");
  equal(tooDeep("not an object", 0), undefined);
});

Deno.test("tooDeep measures a shared object at every place it sits, and refuses a cycle", () => {
  const shared = { x: { y: {} } };
  equal(tooDeep({ a: shared, b: { c: shared } }, 5), undefined);
  equal(tooDeep({ a: shared, b: { c: shared } }, 4), "/b/c");
  const cycle: Record<string, unknown> = { a: [] };
  (cycle.a as unknown[]).push({ back: cycle });
  equal(tooDeep(cycle, 64), "/a/0/back");
});

Deno.test("tooDeep walks a wide and shared structure once per object", () => {
  // 2^40 paths through 40 shared levels: a walk of every path would never end.
  let node: Record<string, unknown> = {};
  for (let i = 0; i < 40; i++) node = { l: node, r: node };
  equal(tooDeep(node, 41), undefined);
  equal(tooDeep(node, 40), "/l".repeat(40));
});
