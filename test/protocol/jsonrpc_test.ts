/**
 * The one reading of JSON-RPC of both stdio sides (`src/protocol/jsonrpc.ts`) and their line limit hold to
 * the MCP SDK's: the same messages accepted and refused as the client's `parseJSONRPCMessage` and
 * the server's `deserializeMessage`, and the same 10 MiB.
 */

import { equal } from "node:assert/strict";
import fc from "fast-check";
import {
  parseJSONRPCMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE as CLIENT_LIMIT,
} from "@modelcontextprotocol/client";
import {
  deserializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE as SERVER_LIMIT,
} from "@modelcontextprotocol/server";
import { checkMessage, STDIO_MAX_MESSAGE_BYTES } from "../../src/protocol/jsonrpc.ts";

function accepts(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch {
    return false;
  }
}

// A parsed line (undefined members dropped, -0 as 0, as the wire sees it) read by unfold and by
// both SDK readers: the three verdicts agree, and a refusal says why.
function agree(value: unknown): void {
  const parsed = JSON.parse(JSON.stringify(value) ?? "null");
  const text = JSON.stringify(parsed);
  const ours = checkMessage(parsed);
  equal(ours.ok, accepts(() => parseJSONRPCMessage(parsed)), `the SDK client disagrees on ${text}`);
  equal(ours.ok, accepts(() => deserializeMessage(text)), `the SDK server disagrees on ${text}`);
  if (!ours.ok) equal(ours.error.message.startsWith("Not a JSON-RPC message: "), true, text);
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

// Lines a hostile host or server may write, as text: ids past the safe range, `__proto__` keys.
const HOSTILE = [
  '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}',
  '{"jsonrpc":"2.0","id":null,"method":"ping"}',
  '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}',
  '{"jsonrpc":"2.0","error":{"code":1,"message":"x"}}',
  '{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}',
  '{"jsonrpc":"2.0","id":1,"result":[]}',
  '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}',
  '{"jsonrpc":"2.0","method":"x","params":null}',
  '{"jsonrpc":"2.0","method":"x","params":[]}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":1.5}}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":{"progressToken":null}}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":[]}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{}}',
  '{"jsonrpc":"2.0","id":1,"method":"x","params":{"__proto__":{"_meta":5}}}',
  "[]",
  '"2.0"',
  "null",
];

Deno.test("checkMessage accepts and refuses the same messages as the SDK's readers", () => {
  for (const value of CASES) agree(value);
});

Deno.test("checkMessage agrees with the SDK's readers on hostile lines", () => {
  // Straight from the text: a `__proto__` member is an own member only as JSON.parse makes it.
  for (const text of HOSTILE) {
    const parsed = JSON.parse(text);
    equal(checkMessage(parsed).ok, accepts(() => parseJSONRPCMessage(parsed)), text);
    equal(checkMessage(parsed).ok, accepts(() => deserializeMessage(text)), text);
  }
});

Deno.test("checkMessage agrees with the SDK's readers on messages with members changed at random", () => {
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
  );
  fc.assert(fc.property(message, (value) => agree(value)), { numRuns: 2_000 });
});

Deno.test("checkMessage agrees with the SDK's readers on generated messages of each kind", () => {
  const json = fc.jsonValue({ maxDepth: 2 });
  // Mostly well formed, sometimes absent, now and then any JSON: both verdicts come up often.
  const maybe = <T>(arb: fc.Arbitrary<T>) =>
    fc.oneof(
      { arbitrary: arb, weight: 6 },
      { arbitrary: fc.constant(undefined), weight: 2 },
      { arbitrary: json, weight: 1 },
    );
  const id = fc.oneof(
    fc.string({ maxLength: 3 }),
    fc.integer(),
    fc.constantFrom(0, -0, 1.5, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER, 1e300),
  );
  const meta = fc.record({
    progressToken: maybe(id),
    [TASK]: maybe(fc.record({ taskId: maybe(fc.string()) })),
    other: maybe(json),
  }, { requiredKeys: [] });
  const params = maybe(
    fc.record({ _meta: maybe(meta), name: maybe(fc.string()) }, { requiredKeys: [] }),
  );
  const version = fc.constantFrom("2.0", "2.0", "2.0", "2.0", "1.0", 2);
  const stray = fc.constantFrom(undefined, undefined, undefined, undefined, undefined, 1);
  const method = maybe(fc.constantFrom("ping", "tools/call", "notifications/initialized"));
  const message = fc.oneof(
    fc.record({ jsonrpc: version, id: maybe(id), method, params, extra: stray }),
    fc.record({ jsonrpc: version, method, params, extra: stray }),
    fc.record({
      jsonrpc: version,
      id: maybe(id),
      result: maybe(
        fc.record({ _meta: maybe(fc.dictionary(fc.string(), json)) }, { requiredKeys: [] }),
      ),
      extra: stray,
    }),
    fc.record({
      jsonrpc: version,
      id: maybe(id),
      error: maybe(
        fc.record({ code: maybe(id), message: maybe(fc.string()), data: maybe(json) }, {
          requiredKeys: [],
        }),
      ),
      extra: stray,
    }),
  );
  fc.assert(fc.property(fc.oneof(message, json), (value) => agree(value)), { numRuns: 5_000 });
});

Deno.test("the stdio line limit is the SDK's, on the client's side and the server's", () => {
  equal(STDIO_MAX_MESSAGE_BYTES, CLIENT_LIMIT);
  equal(STDIO_MAX_MESSAGE_BYTES, SERVER_LIMIT);
});
