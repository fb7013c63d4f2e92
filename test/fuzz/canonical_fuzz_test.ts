// Canonical JSON against a plain model of its rule (keys sorted by UTF-16 code units at every
// depth, written as JSON.stringify writes each key and value), over JSON parsed from text as the
// HTTP API and the gateway receive it: keys the engine lists out of text order (integer-like ones),
// "__proto__" members, objects wide enough to be written apart, and strings holding the characters
// the copies' marks are made of.
import { equal } from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson } from "../../src/canonical_json.ts";
import { runs } from "./_runs.ts";

// Lists and objects of a few members, so a case stays small at 100,000 runs.
const key = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.constantFrom("__proto__", "0", "1", "2", "9", "10", "01", "-1", "1.5", "4294967294"),
  fc.constantFrom("4294967295", "9007199254740993", "\u0080", "\u0081\u00a0", "é", "\ud800"),
  fc.nat(1_000).map(String),
);
const leaf = fc.oneof(
  fc.constantFrom(null, true, false, 0, -0, 1.5, -1e21, "", "\u0080\u00a0", '"\u0081'),
  fc.integer(),
  fc.string({ maxLength: 4, unit: "binary" }),
  fc.string({ maxLength: 4, unit: fc.constantFrom("\u0080", "\u0081", "\u00a0", '"', "0", "#") }),
);
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const { value: text } = fc.letrec<{ value: string; list: string; object: string }>((
  tie,
) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    leaf.map((v) => JSON.stringify(v)),
    tie("list"),
    tie("object"),
  ),
  list: fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
  object: fc.oneof(
    { weight: 4, arbitrary: fc.array(fc.tuple(key, tie("value")), { maxLength: 5 }) },
    // Wider than the copies take: written as text apart.
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(key, leaf.map((v) => JSON.stringify(v))), {
        minLength: 17,
        maxLength: 24,
      }),
    },
  ).map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
}));

function model(value: Json): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(model).join(",")}]`;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${model(value[k]!)}`).join(",")}}`;
}

Deno.test("canonicalJson of parsed JSON equals the sorted-key model, whatever its keys and strings", () => {
  fc.assert(
    fc.property(text, (source) => {
      const value = JSON.parse(source) as Json;
      equal(canonicalJson(value), model(value));
    }),
    runs(),
  );
});

Deno.test("canonicalJson gives the same text for any order of the same members", () => {
  const members = fc.uniqueArray(fc.tuple(key, leaf), { selector: ([k]) => k, maxLength: 20 });
  fc.assert(
    fc.property(members, fc.func(fc.integer()), (entries, rank) => {
      const shuffled = [...entries].sort((a, b) =>
        rank(a[0]) - rank(b[0]) || (a[0] < b[0] ? -1 : 1)
      );
      // Members defined one by one, as JSON.parse adds them ("__proto__" an own member), not
      // parsed: Deno 2.9.6's JSON.parse, once warm, has read a key "\ud800" as "\\" here.
      const parse = (list: typeof entries) => {
        const object: Record<string, unknown> = {};
        for (const [key, value] of list) {
          Object.defineProperty(object, key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return object;
      };
      equal(canonicalJson(parse(shuffled)), canonicalJson(parse(entries)));
      equal(canonicalJson({ x: [parse(shuffled)] }), canonicalJson({ x: [parse(entries)] }));
    }),
    runs(),
  );
});
