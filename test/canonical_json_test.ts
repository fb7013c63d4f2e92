import { equal } from "node:assert/strict";
import { canonicalJson, sha256Hex } from "../src/canonical_json.ts";
import { canonicalCatalog } from "../src/http/catalog_cache.ts";
import { McpCatalog, type McpTool } from "../mod.ts";

Deno.test("canonicalJson writes a 40,000-member enum of small objects in order", () => {
  // Its cost is a benchmark, not a test (rescanning the text per member once made this several
  // hundred times JSON.stringify): bench/canonical_ratio.ts and bench/hostile.ts time this shape.
  const schema = (members: number) => ({
    type: "object",
    properties: { q: { enum: Array.from({ length: members }, (_, i) => ({ b: i, a: "x" })) } },
  });
  const large = schema(40_000);
  const text = canonicalJson(large);
  equal(text.startsWith('{"properties":{"q":{"enum":[{"a":"x","b":0},{"a":"x","b":1},'), true);
  equal(JSON.parse(text).properties.q.enum.length, 40_000);
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

// Hashes are kept by hosts (catalogRef) and by Durable Objects: the text of every odd shape is
// pinned as the member-by-member walk wrote it before the copies took over.
Deno.test("canonicalJson keeps the text and hash of odd shapes: integer-like keys, __proto__, escapes, wide objects", async () => {
  const pinned: Array<[unknown, number, string]> = [
    [
      JSON.parse('{"b":1,"10":2,"2":3,"$a":4,"01":5,"1a":6,"__proto__":{"z":1,"9":2,"10":3}}'),
      74,
      "d13d2bccb7874b99583e6c83ae223c94c642c9280e95db194e8c1483f862d4d0",
    ],
    [
      JSON.parse(
        '[{"z":1,"__proto__":{"b":1,"a":2}},{"__proto__":null,"a":[{"10":1,"9":{"b":2,"a":1}}]}]',
      ),
      87,
      "4571ed78478f455c7bdf1c1c130bba8fa0e2efd3092e21f653eadc8c60a1cf89",
    ],
    [
      JSON.parse(
        '{"\\u00e9":"\\"\\\\\\n\\u0001","\\u0000a":1,"\\ud800":"\\udfff","A":{"\\u2028":1}}',
      ),
      62,
      "6520e630388515bbc11d69aa5942df6c46c66a092be671a75211c803aff37596",
    ],
    [
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [
        String(39 - i).padStart(i % 3 ? 1 : 2, "0"),
        { n: i, [`${i}`]: [i, { y: 1, x: 2 }] },
      ])),
      1485,
      "829244a1e6a7f91a639828c17cb31da178fdb03843bc81c1451452807990a211",
    ],
  ];
  for (const [value, length, hash] of pinned) {
    const text = canonicalJson(value);
    equal(text.length, length, text);
    equal(await sha256Hex(text), hash, text);
  }
  equal(
    canonicalJson(pinned[0]![0]),
    '{"$a":4,"01":5,"10":2,"1a":6,"2":3,"__proto__":{"10":3,"9":2,"z":1},"b":1}',
  );
});

Deno.test("the catalogue hash of tools with integer-like keys, __proto__ members and a wide object is unchanged", async () => {
  const tools = JSON.parse(`[
    {"server":"s","name":"b","description":"","inputSchema":{"type":"object","properties":{"10":{"type":"string"},"9":{"type":"number"},"__proto__":{"type":"boolean"}},"required":["10"]},"_meta":{"z":1,"2":[{"b":1,"a":0,"__proto__":"x"}]}},
    {"server":"s","name":"a","description":"\\u0080\\u00a0 é \\"quoted\\"","inputSchema":{"type":"object","properties":{"q":{"enum":[{"10":1,"9":2},{"__proto__":{"y":1,"x":2}}]}}}}
  ]`) as McpTool[];
  const wide: Record<string, unknown> = {};
  for (let i = 39; i >= 0; i--) wide[String(i * 7)] = { type: "integer", description: `n${i}` };
  tools.push({
    server: "t",
    name: "wide",
    description: "",
    inputSchema: { type: "object", properties: wide },
  });
  const text = canonicalCatalog(new McpCatalog(tools));
  equal(text.length, 2266);
  equal(await sha256Hex(text), "5d1df019f55ee539f6ef8827b5a06fd2ae90d0ec3307306f736b3de8cedc4b77");
});

Deno.test("canonicalJson writes data that holds its marks by the walk, with the same text", async () => {
  // A fresh copy of the module whose marks are drawn from a Math.random that always answers 0.
  const random = Math.random;
  Math.random = () => 0;
  let fresh: typeof import("../src/canonical_json.ts");
  try {
    fresh = await import("../src/canonical_json.ts?marks-of-zero");
    fresh.canonicalJson({ b: 1, a: 2 });
  } finally {
    Math.random = random;
  }
  const name = "\u0080\u00a0\u00a0\u00a0\u00a0";
  const piece = "\u0081\u00a0\u00a0\u00a0\u00a0";
  const wide = (value: string) =>
    Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${19 - i}`, value]));
  for (
    const value of [
      JSON.parse(`{"b":"${name}","10":1,"9":2}`),
      JSON.parse(`{"b":1,"__proto__":"x${name}x"}`),
      [{ b: 1, "10": 2, "9": `${name}${name}` }],
      { x: wide(`${piece}0`), y: { b: 1, "10": 2 } },
      { x: [wide("a")], y: `"${piece}0"`, z: { b: 1, a: [wide(`${piece}1`)] } },
    ]
  ) {
    equal(fresh.canonicalJson(value), canonicalJson(value));
  }
  equal(
    fresh.canonicalJson(JSON.parse(`{"b":"${name}","10":1,"9":2}`)),
    `{"10":1,"9":2,"b":"${name}"}`,
  );
});

Deno.test("canonicalJson sorts each wide object's own keys, whether or not it shares the last one's shape", () => {
  const wide = (keys: string[], value: number) =>
    JSON.parse(`{${keys.map((key, i) => `${JSON.stringify(key)}:${value + i}`).join(",")}}`);
  const names = Array.from({ length: 20 }, (_, i) => `k${19 - i}`);
  const others = names.map((name) => `${name}x`);
  const value = [
    wide(names, 0),
    wide(names, 100),
    wide(others, 200),
    wide([...names].reverse(), 300),
    wide(names.map((_, i) => String(i * 7)), 400),
  ];
  const text = (keys: string[], value: number) =>
    `{${
      keys.map((key, i) => [key, value + i] as const)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, v]) => `${JSON.stringify(key)}:${v}`).join(",")
    }}`;
  equal(
    canonicalJson(value),
    `[${text(names, 0)},${text(names, 100)},${text(others, 200)},${
      text([...names].reverse(), 300)
    },${text(names.map((_, i) => String(i * 7)), 400)}]`,
  );
});
