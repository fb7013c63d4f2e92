import { deepEqual, equal } from "node:assert/strict";
import { splitMembers } from "../../src/http/json_members.ts";

// A deterministic generator of awkward JSON: strings full of quotes, backslashes and brackets,
// nested values, and white space anywhere it may go.
function generator(seed: number) {
  let state = seed >>> 0;
  const next = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  const pieces = ['"', "\\", "[", "]", "{", "}", ",", ":", "a", " ", "\n", "é", "😀", '\\\\"'];
  const string = () => Array.from({ length: next(6) }, () => pieces[next(pieces.length)]).join("");
  const value = (depth: number): unknown => {
    const kind = next(depth > 2 ? 4 : 6);
    if (kind === 0) return string();
    if (kind === 1) return next(1000) - 500 + next(100) / 7;
    if (kind === 2) return [true, false, null][next(3)];
    if (kind === 3) return next(2) === 0 ? [] : {};
    if (kind === 4) return Array.from({ length: next(4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: next(4) }, () => [string(), value(depth + 1)]));
  };
  const space = () => [" ", "", "\n  ", "\t", "\r\n"][next(5)]!;
  // JSON text with random white space between tokens.
  const spaced = (v: unknown): string => {
    if (Array.isArray(v)) {
      return `[${space()}${v.map(spaced).join(`${space()},${space()}`)}${space()}]`;
    }
    if (v !== null && typeof v === "object") {
      return `{${space()}${
        Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}${space()}:${space()}${spaced(x)}`)
          .join(`${space()},${space()}`)
      }${space()}}`;
    }
    return JSON.stringify(v);
  };
  return { next, value, spaced, space };
}

Deno.test("splitMembers() agrees with JSON.parse on awkward objects with awkward white space", () => {
  const names = ["catalog", "servers"];
  for (let seed = 1; seed <= 3000; seed++) {
    const g = generator(seed);
    const body: Record<string, unknown> = {};
    const keys = ["session", "catalog", "arguments", "servers", 'x"y', "budget"];
    for (const key of keys) if (g.next(3) > 0) body[key] = g.value(0);
    const text = `${g.space()}${g.spaced(body)}${g.space()}`;
    const split = splitMembers(text, names);
    if ('x"y' in body) { // a key with an escape: parsing must decide
      equal(split, undefined);
      continue;
    }
    if (split === undefined) throw new Error(`no answer for ${text}`);
    const expected = JSON.parse(text);
    for (const name of names) {
      if (name in expected) deepEqual(JSON.parse(split.values.get(name)!), expected[name]);
      else equal(split.values.has(name), false);
      delete expected[name];
    }
    deepEqual(JSON.parse(split.rest), expected, text);
  }
});

Deno.test("splitMembers() gives up where parsing must decide: repeats, escaped keys, non-objects", () => {
  equal(splitMembers('{"catalog":[],"catalog":[1]}', ["catalog"]), undefined);
  equal(splitMembers('{"c\\u0061talog":[1],"catalog":[]}', ["catalog"]), undefined);
  equal(splitMembers('[{"catalog":[]}]', ["catalog"]), undefined);
  equal(splitMembers('{"catalog":[]} x', ["catalog"]), undefined);
  equal(splitMembers('{"catalog":[] "x":1}', ["catalog"]), undefined);
  equal(splitMembers('{"catalog":["]}', ["catalog"]), undefined);
  equal(splitMembers("", ["catalog"]), undefined);
  deepEqual(splitMembers(" {} ", ["catalog"]), { values: new Map(), rest: "{}" });
});
