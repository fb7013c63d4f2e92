import { equal } from "node:assert/strict";
import fc from "fast-check";
import { isCallToolResult } from "@modelcontextprotocol/server";
import { isSendableResult } from "../../src/gateway/sendable_result.ts";

// Blocks near the valid ones: each member right, wrong, or missing, so both verdicts come up.
const anyJson = fc.jsonValue({ maxDepth: 2 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, anyJson, fc.constant(undefined));
const annotations = fc.record({
  audience: maybe(fc.array(fc.constantFrom("user", "assistant", "robot"), { maxLength: 3 })),
  priority: maybe(fc.double({ min: -1, max: 2, noNaN: true })),
  lastModified: maybe(
    fc.constantFrom(
      "2025-01-02T03:04:05Z",
      "2025-01-02T03:04:05.123+02:00",
      "2025-02-29T03:04:05Z",
      "2024-02-29T03:04:05Z",
      "2025-01-02T03:04Z",
      "2025-01-02",
      "yesterday",
    ),
  ),
}, { requiredKeys: [] });
const base64 = fc.constantFrom("aGVsbG8=", "", "not base64!", "aGVsbG8", "=====");
const block = fc.record({
  type: fc.constantFrom("text", "image", "audio", "resource", "resource_link", "video"),
  text: maybe(fc.string()),
  data: maybe(base64),
  mimeType: maybe(fc.string()),
  name: maybe(fc.string()),
  uri: maybe(fc.string()),
  title: maybe(fc.string()),
  size: maybe(fc.integer()),
  icons: maybe(fc.array(
    fc.record({
      src: maybe(fc.string()),
      theme: maybe(fc.constantFrom("light", "dark", "dim")),
      sizes: maybe(fc.array(fc.string(), { maxLength: 2 })),
    }, { requiredKeys: [] }),
    { maxLength: 2 },
  )),
  resource: maybe(fc.record({
    uri: maybe(fc.string()),
    text: maybe(fc.string()),
    blob: maybe(base64),
    _meta: maybe(fc.dictionary(fc.string(), anyJson, { maxKeys: 2 })),
  }, { requiredKeys: [] })),
  annotations: maybe(annotations),
  _meta: maybe(fc.dictionary(fc.string(), anyJson, { maxKeys: 2 })),
}, { requiredKeys: [] });
const result = fc.record({
  content: maybe(fc.array(fc.oneof(block, anyJson), { maxLength: 3 })),
  structuredContent: anyJson,
  isError: maybe(fc.boolean()),
  _meta: maybe(fc.dictionary(fc.string(), anyJson, { maxKeys: 2 })),
}, { requiredKeys: [] });

Deno.test("isSendableResult gives the SDK's isCallToolResult verdict on generated results", () => {
  fc.assert(
    fc.property(fc.oneof(result, anyJson), (value) => {
      equal(isSendableResult(value), isCallToolResult(value), JSON.stringify(value));
    }),
    { numRuns: 3_000 },
  );
});

Deno.test("isSendableResult gives the SDK's verdict on hostile results", () => {
  const hostile: unknown[] = [
    null,
    [],
    "text",
    { content: null },
    { content: {} },
    { content: [], isError: "yes" },
    { content: [], _meta: [] },
    { content: [{ type: "text", text: "a", annotations: { priority: Number.NaN } }] },
    { content: [{ type: "image", data: "\u00ff", mimeType: "x" }] },
    { content: [{ type: "resource", resource: { uri: "u", blob: "@@" } }] },
    { content: [{ type: "resource", resource: { uri: "u", text: 1, blob: "aGk=" } }] },
    { content: [{ type: "resource_link", name: "n", uri: "u", _meta: [] }] },
    { content: [{ type: "resource_link", name: "n", uri: "u", size: Infinity }] },
    {
      content: [{ type: "text", text: "a", annotations: { lastModified: "2025-13-01T00:00:00Z" } }],
    },
    JSON.parse('{"content":[],"__proto__":{"isError":"x"}}'),
  ];
  for (const value of hostile) {
    equal(isSendableResult(value), isCallToolResult(value), JSON.stringify(value));
  }
});
