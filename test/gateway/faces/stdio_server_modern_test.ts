// The SDK-free stdio server answers as the MCP SDK's server did (`_stdio_pair.ts`): the
// 2026-07-28 era, its opening probe, envelopes and subscriptions.
import { deepEqual } from "node:assert/strict";
import {
  assertSameAnswers,
  envelope,
  init,
  modern,
  note,
  ownAnswers,
  rpc,
  type Step,
} from "../_stdio_pair.ts";
import { emptySubscriptionAnswers } from "../../_mcp_wire.ts";

const SEQUENCES: Record<string, Step[]> = {
  "a discover probe and a 2025-era initialize in one read": [
    [modern(1, "server/discover"), init(2, "2025-03-26"), rpc(3, "tools/list")].join("\n"),
  ],
  "a 2026-07-28 session in one read": [
    [
      modern(1, "server/discover"),
      modern(2, "tools/list"),
      modern(3, "tools/call", { name: "echo", _meta: { progressToken: 1 } }),
      modern(4, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    ].join("\n"),
    "close",
  ],
  "hostile envelopes at the opening": [
    rpc(1, "tools/list", {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { roots: 5 },
      },
    }),
    rpc(2, "tools/list", {
      _meta: { ...envelope, "io.modelcontextprotocol/clientInfo": { name: "c" } },
    }),
    rpc(3, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
      _meta: { ...envelope, "io.modelcontextprotocol/clientCapabilities": 5 },
    }),
  ],
  // Envelopes that are wrong after the opening: `stdio_faces_test.ts` (as the HTTP face answers).
  "hostile envelope members": [
    modern(1, "tools/list", {
      _meta: { "io.modelcontextprotocol/clientCapabilities": { roots: 5 } },
    }),
    modern(4, "tools/call", { name: "echo", task: 5 }),
    modern(7, "tools/call", { name: "echo", requestState: 5 }),
    modern(8, "tools/call", { name: "echo", requestState: "s", inputResponses: {} }),
  ],
  // Pinned, an envelope without its version is the era server's to refuse; the opening's is not.
  "a pinned modern connection: envelopes without their version": [
    modern(1, "tools/list"),
    rpc(2, "tools/list", {
      _meta: { "io.modelcontextprotocol/clientCapabilities": { roots: 5 } },
    }),
    rpc(3, "tools/call", {
      name: "echo",
      _meta: { "io.modelcontextprotocol/clientInfo": { name: 1 }, progressToken: 1 },
    }),
  ],
  "2026-07-28: discover, then requests": [
    modern(1, "server/discover"),
    modern(2, "tools/list"),
    rpc(3, "tools/list"),
    modern(4, "tools/call", { name: "echo", arguments: { a: 1 }, _meta: { progressToken: 5 } }),
    modern(5, "ping"),
    init(6, "2025-06-18"),
    rpc(16, "initialize", { capabilities: {} }),
    modern(7, "logging/setLevel", { level: "info" }),
    modern(8, "subscriptions/listen"),
    modern(9, "tools/call", { name: "x" }),
    modern(12, "foo"),
    modern(13, "tools/call", { name: "bare" }),
    modern(14, "tools/call", {}),
    note("notifications/initialized"),
    "change",
    modern(15, "tools/call", { name: "slow" }),
    note("notifications/cancelled", { requestId: 15 }),
  ],
  "2026-07-28: listen, cancel and close": [
    modern(1, "tools/list"),
    modern(2, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    modern(3, "subscriptions/listen", {
      notifications: { toolsListChanged: true, promptsListChanged: true },
    }),
    modern(4, "subscriptions/listen", { notifications: { toolsListChanged: "yes" } }),
    rpc(5, "subscriptions/listen", { notifications: {} }),
    note("notifications/cancelled", { requestId: 3 }),
    "close",
  ],
  "2026-07-28: subscriptions past the bound are refused": [
    Array.from(
      { length: 1_026 },
      (_, i) => modern(i, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    ).join("\n"),
    note("notifications/cancelled", { requestId: 5 }),
    modern("again", "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    modern("full", "subscriptions/listen", { notifications: { toolsListChanged: true } }),
  ],
  "2026-07-28: a discover probe, then a 2025-era client": [
    modern(1, "server/discover"),
    note("notifications/cancelled", { requestId: 99 }),
    modern(2, "server/discover"),
    init(3, "2025-06-18"),
    modern(4, "tools/list"),
    rpc(5, "ping"),
  ],
  "opening envelopes that are wrong": [
    rpc(1, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }),
    rpc(2, "tools/list", {
      _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2031-01-01" },
    }),
    rpc(3, "tools/list", {
      _meta: { ...envelope, "io.modelcontextprotocol/clientInfo": { name: 1 } },
    }),
    rpc(4, "tools/list", { _meta: { ...envelope, "io.modelcontextprotocol/logLevel": "loud" } }),
    note("notifications/initialized", { _meta: { "io.modelcontextprotocol/protocolVersion": 1 } }),
    '{"jsonrpc":"2.0","id":5,"result":{}}',
    rpc(6, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
      _meta: envelope,
    }),
  ],
  "a malformed result and a 2025-era request on a pinned modern connection": [
    modern(1, "tools/call", { name: "bad" }),
    rpc(2, "ping"),
    rpc(3, "tools/call", { name: "echo" }),
  ],
};

for (const [name, steps] of Object.entries(SEQUENCES)) {
  Deno.test(`the SDK-free stdio server answers as the SDK's: ${name}`, async () => {
    await assertSameAnswers(steps);
  });
}

// The answers that differ from the SDK's stdio server on purpose, given as its HTTP face gives
// them: it never delivered a change in this era (it listened after `notifications/initialized`,
// which the era does not have), and it kept a subscription to nothing offered open.
Deno.test("a 2026-07-28 subscription to tool list changes receives them, on it", async () => {
  const changed = (id: unknown) => ({
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
    params: { _meta: { "io.modelcontextprotocol/subscriptionId": id } },
  });
  const written = await ownAnswers([
    modern(1, "server/discover"),
    "change",
    modern("tools", "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    modern("prompts", "subscriptions/listen", { notifications: { promptsListChanged: true } }),
    modern(2, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    "change",
    note("notifications/cancelled", { requestId: 2 }),
    "change",
  ]);
  const notes = written.filter((message) =>
    (message as { method?: string }).method === "notifications/tools/list_changed"
  );
  deepEqual(notes, [changed("tools"), changed(2), changed("tools")]);
});

Deno.test("a 2025-era connection is told of changes after initialized, as before", async () => {
  const written = await ownAnswers([
    init(1, "2025-06-18"),
    modern(2, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    "change",
    note("notifications/initialized"),
    "change",
  ]);
  deepEqual(written.slice(2), [{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
});

Deno.test("a 2026-07-28 subscription to nothing offered ends at once", async () => {
  const written = await ownAnswers([
    modern(1, "subscriptions/listen", { notifications: { promptsListChanged: true } }),
    "change",
  ]);
  deepEqual(written, emptySubscriptionAnswers(1, { name: "fake", version: "1.0.0" }));
});
