import { equal } from "node:assert/strict";
import fc from "fast-check";
import { isCallToolResult } from "@modelcontextprotocol/server";
import { isSendableResult } from "../../src/gateway/sendable_result.ts";

// Blocks near the valid ones: each member mostly right, sometimes missing, now and then any JSON,
// so that both verdicts come up often.
const anyJson = fc.jsonValue({ maxDepth: 2 });
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof(
    { arbitrary: arb, weight: 12 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: anyJson, weight: 1 },
  );
const optional = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: maybe(arb), weight: 1 });
const dictionary = fc.dictionary(fc.string({ maxLength: 3 }), anyJson, { maxKeys: 2 });
const annotations = fc.record({
  audience: optional(fc.array(fc.constantFrom("user", "assistant", "robot"), { maxLength: 2 })),
  priority: optional(fc.double({ min: -0.5, max: 1.5, noNaN: true })),
  lastModified: optional(
    fc.constantFrom(
      "2025-01-02T03:04:05Z",
      "2025-01-02T03:04:05.123+02:00",
      "2025-02-29T03:04:05Z",
      "2024-02-29T03:04:05Z",
      "2025-01-02T03:04Z",
      "2025-01-02T24:04:05Z",
      "2025-01-02",
    ),
  ),
}, { requiredKeys: [] });
const base64 = fc.constantFrom("aGVsbG8=", "", "aGVsbG8", "not base64!", "=====");
const common = { annotations: optional(annotations), _meta: optional(dictionary) };
const icon = fc.record({
  src: maybe(fc.string()),
  theme: optional(fc.constantFrom("light", "dark", "dim")),
  sizes: optional(fc.array(fc.string(), { maxLength: 2 })),
}, { requiredKeys: [] });
const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text: maybe(fc.string()), ...common }, {
    requiredKeys: ["type"],
  }),
  fc.record({
    type: fc.constantFrom("image", "audio"),
    data: maybe(base64),
    mimeType: maybe(fc.string()),
    ...common,
  }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("resource_link"),
    name: maybe(fc.string()),
    uri: maybe(fc.string()),
    title: optional(fc.string()),
    size: optional(fc.double()),
    icons: optional(fc.array(icon, { maxLength: 2 })),
    ...common,
  }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("resource"),
    resource: maybe(
      fc.record({
        uri: maybe(fc.string()),
        text: optional(fc.string()),
        blob: optional(base64),
        mimeType: optional(fc.string()),
        _meta: optional(dictionary),
      }, { requiredKeys: [] }),
    ),
    ...common,
  }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constantFrom("video", 3), text: fc.string() }),
);
const result = fc.record({
  content: maybe(fc.array(block, { maxLength: 3 })),
  structuredContent: optional(anyJson),
  isError: optional(fc.boolean()),
  _meta: optional(dictionary),
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
