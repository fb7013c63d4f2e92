/**
 * The stdio client's own reading of JSON-RPC (`_jsonrpc.ts`) and its line limit hold to the MCP
 * SDK's: the same messages accepted and refused as `parseJSONRPCMessage`, the same 10 MiB.
 */

import { equal } from "node:assert/strict";
import fc from "fast-check";
import { parseJSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/client";
import { jsonRpcMessage } from "../../src/mcp/_jsonrpc.ts";
import { STDIO_MAX_MESSAGE_BYTES } from "../../src/mcp/_stdio_transport.ts";

function accepts(read: (value: unknown) => unknown, value: unknown): boolean {
  try {
    read(value);
    return true;
  } catch {
    return false;
  }
}

function agree(value: unknown): void {
  equal(
    accepts(jsonRpcMessage, value),
    accepts(parseJSONRPCMessage, value),
    `unfold and the SDK disagree on ${JSON.stringify(value)}`,
  );
}

const TASK = "io.modelcontextprotocol/related-task";

// Messages the SDK accepts and refuses, member by member.
const CASES: unknown[] = [
  { jsonrpc: "2.0", id: 1, method: "ping" },
  { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "x" } },
  { jsonrpc: "2.0", id: 1.5, method: "ping" },
  { jsonrpc: "2.0", id: null, method: "ping" },
  { jsonrpc: "2.0", id: 2 ** 53, method: "ping" },
  { jsonrpc: "2.0", id: -3, method: "ping" },
  { jsonrpc: "1.0", id: 1, method: "ping" },
  { id: 1, method: "ping" },
  { jsonrpc: "2.0", id: 1, method: 5 },
  { jsonrpc: "2.0", id: 1, method: "ping", params: [] },
  { jsonrpc: "2.0", id: 1, method: "ping", params: null },
  { jsonrpc: "2.0", id: 1, method: "ping", extra: true },
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
  { jsonrpc: "2.0", method: "n", params: { _meta: { progressToken: "t" } } },
  { jsonrpc: "2.0", method: "n", params: { _meta: { progressToken: 1.5 } } },
  { jsonrpc: "2.0", method: "n", params: { _meta: { progressToken: null } } },
  { jsonrpc: "2.0", method: "n", params: { _meta: [] } },
  { jsonrpc: "2.0", method: "n", params: { _meta: { [TASK]: { taskId: "t" } } } },
  { jsonrpc: "2.0", method: "n", params: { _meta: { [TASK]: { taskId: 1 } } } },
  { jsonrpc: "2.0", method: "n", params: { _meta: { [TASK]: "t" } } },
  { jsonrpc: "2.0", method: "n", result: {} },
  { jsonrpc: "2.0", id: 1, result: {} },
  { jsonrpc: "2.0", id: 1, result: { _meta: { a: 1 } } },
  { jsonrpc: "2.0", id: 1, result: { _meta: "x" } },
  { jsonrpc: "2.0", id: 1, result: { _meta: { "io.modelcontextprotocol/serverInfo": 5 } } },
  { jsonrpc: "2.0", id: 1, result: [] },
  { jsonrpc: "2.0", id: 1, result: "text" },
  { jsonrpc: "2.0", id: 1, result: null },
  { jsonrpc: "2.0", result: {} },
  { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "m" } },
  { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "m", data: { any: [1] } } },
  { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
  { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
  { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "m" } },
  { jsonrpc: "2.0", id: 1, error: { code: 1, message: 2 } },
  { jsonrpc: "2.0", id: 1, error: { code: 1, message: "m", more: true } },
  { jsonrpc: "2.0", id: 1, error: "m" },
  { jsonrpc: "2.0", id: 1 },
  { jsonrpc: "2.0" },
  [],
  null,
  "text",
  42,
];

Deno.test("the stdio client accepts and refuses the same messages as the SDK's parseJSONRPCMessage", () => {
  for (const value of CASES) agree(value);
});

Deno.test("the stdio client agrees with the SDK on messages with members changed at random", () => {
  const id = fc.oneof(fc.integer(), fc.string(), fc.double(), fc.constant(null), fc.boolean());
  const member = fc.oneof(
    fc.constant(undefined),
    id,
    fc.dictionary(fc.constantFrom("_meta", "progressToken", "code", "message", "x"), id),
    fc.array(id, { maxLength: 2 }),
    fc.record({ _meta: fc.oneof(fc.record({ progressToken: id }), id) }),
  );
  const message = fc.record(
    {
      jsonrpc: fc.constantFrom("2.0", "1.0"),
      id,
      method: fc.oneof(fc.constant("tools/call"), id),
      params: member,
      result: member,
      error: fc.oneof(
        member,
        fc.record({ code: id, message: fc.oneof(fc.string(), id), data: member }),
      ),
      extra: member,
    },
    { requiredKeys: [] },
  ).map((value) => JSON.parse(JSON.stringify(value)));
  fc.assert(fc.property(message, (value) => agree(value)), { numRuns: 2_000 });
});

Deno.test("the stdio client's line limit is the SDK's", () => {
  equal(STDIO_MAX_MESSAGE_BYTES, STDIO_DEFAULT_MAX_BUFFER_SIZE);
});
