import { deepEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { anyJson, toolResult } from "./_tool_results.ts";
import { isCallToolResult } from "@modelcontextprotocol/server";
import { isSendableResult, sentResult } from "../../src/gateway/sendable_result.ts";

Deno.test("isSendableResult gives the SDK's isCallToolResult verdict on generated results", () => {
  fc.assert(
    fc.property(fc.oneof(toolResult, anyJson), (value) => {
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

Deno.test("sentResult keeps an upstream's keys named like Object.prototype's members, as zod does", () => {
  const result = JSON.parse(
    '{"content":[],"constructor":1,"toString":2,"__proto__":{"isError":"x"},"other":3}',
  );
  for (const era of ["legacy", "modern"] as const) {
    const sent = sentResult(result, era)!;
    deepEqual(Object.keys(sent), ["content", "constructor", "toString", "other"], era);
    equal(Object.getPrototypeOf(sent), Object.prototype, era);
  }
});
