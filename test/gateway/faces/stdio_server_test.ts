// The SDK-free stdio server answers as the MCP SDK's server did (`_stdio_pair.ts`): the 2025
// era, hostile requests, and tool results of every shape in both eras.
import { deepEqual } from "node:assert/strict";
import fc from "fast-check";
import { assertSameAnswers, init, modern, note, rpc, type Step } from "../_stdio_pair.ts";
import { toolResult } from "../_tool_results.ts";

const SEQUENCES: Record<string, Step[]> = {
  "2025-era handshake, each version": [
    init(1, "2024-11-05"),
    init(2, "2025-03-26"),
    init(3, "2025-06-18"),
    init(4, "2025-11-25"),
    init(5, "1999-01-01"),
    init(6, 7),
    rpc(7, "initialize", {}),
    rpc(8, "initialize"),
    rpc(9, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: [],
      clientInfo: { name: 1 },
    }),
    note("notifications/initialized"),
    rpc(10, "ping"),
    rpc(11, "logging/setLevel", { level: "info" }),
    rpc(12, "logging/setLevel", { level: "loud" }),
    rpc(13, "logging/setLevel"),
    "change",
    rpc(14, "tools/list"),
    rpc(15, "tools/list", { cursor: 3 }),
  ],
  "requests before initialize and hostile ones": [
    rpc(1, "tools/list"),
    rpc("a", "tools/call"),
    rpc(2, "tools/call", {}),
    rpc(3, "tools/call", { name: 5, arguments: [] }),
    rpc(4, "tools/call", { name: "nope" }),
    rpc(5, "tools/call", { name: "echo", arguments: { a: 1 }, _meta: { progressToken: "t" } }),
    rpc(6, "tools/call", { name: "echo", _meta: { progressToken: 0 } }),
    rpc(7, "tools/call", { name: "bare" }),
    rpc(8, "tools/call", { name: "echo", requestState: 5 }),
    rpc(9, "foo/bar"),
    rpc(10, "resources/list"),
    rpc(11, "server/discover"),
    rpc(-0, "ping"),
    rpc(Number.MAX_SAFE_INTEGER, "ping"),
    rpc(2 ** 53 + 2, "ping"),
    "this is not JSON",
    '{"jsonrpc":"1.0","id":12,"method":"ping"}',
    '[{"jsonrpc":"2.0","id":13,"method":"ping"}]',
    '{"jsonrpc":"2.0","id":14,"method":"ping","extra":1}',
    '{"jsonrpc":"2.0","id":15,"result":{}}',
    '{"jsonrpc":"2.0","id":16,"error":{"code":1,"message":"x"}}',
    note("notifications/unknown"),
    note("notifications/progress", { progressToken: 1, progress: 1 }),
    "change",
  ],
  "duplicate initialize, list_changed after initialized, cancellation": [
    init(1, "2025-06-18"),
    init(2, "2025-11-25"),
    "change",
    note("notifications/initialized"),
    "change",
    rpc(3, "tools/call", { name: "slow" }),
    note("notifications/cancelled", { requestId: 3, reason: "no" }),
    rpc(4, "tools/call", { name: "echo", _meta: { progressToken: 9 } }),
    modern(5, "tools/list"),
  ],
  "a host that throws, and a client repeating initialized": [
    init(1, "2025-06-18"),
    note("notifications/initialized"),
    note("notifications/initialized"),
    "change",
    rpc(2, "tools/call", { name: "throws" }),
    rpc(3, "tools/call", { name: "crash" }),
    rpc(4, "tools/call", { name: "gone" }),
    rpc(5, "tools/call", { name: "odd" }),
  ],
  "a whole 2025-era session in one read": [
    [
      init(1, "2025-06-18"),
      note("notifications/initialized"),
      rpc(2, "tools/list"),
      rpc(3, "tools/call", { name: "echo", arguments: { b: 2 }, _meta: { progressToken: "p" } }),
      rpc(4, "tools/call", { name: "nope" }),
      rpc(5, "ping"),
    ].join("\n"),
  ],
  "hostile initialize members": [
    rpc(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { roots: { listChanged: "x" } },
      clientInfo: { name: "c", version: "1" },
    }),
    rpc(2, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { sampling: 5 },
      clientInfo: { name: "c", version: "1" },
    }),
    rpc(3, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { elicitation: 5 },
      clientInfo: { name: "c", version: "1" },
    }),
    rpc(4, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { experimental: 5 },
      clientInfo: { name: "c", version: "1" },
    }),
    rpc(5, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1", title: 5 },
    }),
    rpc(6, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1", icons: [{}] },
    }),
    rpc(7, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { unknown: 5 },
      clientInfo: { name: "c", version: "1", websiteUrl: 1 },
    }),
    rpc(8, "tools/call", { name: "echo", task: 5 }),
    rpc(9, "tools/call", { name: "echo", arguments: null }),
    rpc(10, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: { tasks: 5, extensions: 5 },
      clientInfo: { name: "c", version: "1" },
    }),
  ],
  "deeper hostile initialize members": [
    ...[
      { experimental: { a: 5 } },
      { elicitation: { form: 5 } },
      { elicitation: { form: { applyDefaults: "x" }, url: [] } },
      { elicitation: {} },
      { tasks: { requests: { sampling: { createMessage: 5 } } } },
      { sampling: { context: [], tools: null } },
    ].map((capabilities, i) =>
      rpc(i, "initialize", {
        protocolVersion: "2025-06-18",
        capabilities,
        clientInfo: { name: "c", version: "1" },
      })
    ),
    rpc(10, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", icons: [{ src: "s", theme: "dim", sizes: [1] }] },
    }),
    rpc(11, "tools/call", { name: "echo", task: { ttl: "x" } }),
  ],
  "results with members the schema does not name": [
    rpc(1, "tools/call", { name: "extra" }),
    modern(2, "tools/call", { name: "extra" }),
  ],
};

for (const [name, steps] of Object.entries(SEQUENCES)) {
  Deno.test(`the SDK-free stdio server answers as the SDK's: ${name}`, async () => {
    await assertSameAnswers(steps);
  });
}

Deno.test("the SDK-free stdio server sends generated tool results as the SDK does, in both eras", async () => {
  const results = fc.sample(toolResult, { numRuns: 300, seed: 31 });
  const calls = (call: (id: number, name: string) => string) =>
    results.map((_, i) => call(i, `r${i}`)).join("\n");
  for (
    const steps of [
      [init("init", "2025-06-18"), calls((i, name) => rpc(i, "tools/call", { name }))],
      [calls((i, name) => modern(i, "tools/call", { name }))],
    ]
  ) {
    const expected = await assertSameAnswers(steps, results);
    // Every call was answered, some with the result and some refused.
    const answers = results.map((_, i) => expected[`id ${i}`]?.[0] as Record<string, unknown>);
    deepEqual(answers.every((answer) => answer !== undefined), true);
    deepEqual(answers.some((answer) => "error" in answer), true);
    deepEqual(answers.some((answer) => "result" in answer), true);
  }
});
