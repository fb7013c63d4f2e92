// The stdio face (the SDK's serveStdio over unfold's transport, `src/gateway/faces/stdio.ts`) in
// process: what it adds to the SDK's server, and the behaviours a host relies on in both eras.
import { deepEqual, equal, ok } from "node:assert/strict";
import { init, modern, note, rpc, stdioAnswers } from "../_stdio_host.ts";
import { emptySubscriptionAnswers } from "../../_mcp_wire.ts";

type Message = Record<string, unknown>;
const changed = (id?: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/tools/list_changed",
  ...(id === undefined
    ? {}
    : { params: { _meta: { "io.modelcontextprotocol/subscriptionId": id } } }),
});
const listChanges = (written: unknown[]) =>
  written.filter((m) => (m as Message).method === "notifications/tools/list_changed");

Deno.test("a 2025-era connection: initialize, tools/list, a call with its progress in order before its result", async () => {
  const written = await stdioAnswers([
    init(1, "2025-06-18"),
    note("notifications/initialized"),
    rpc(2, "tools/list"),
    rpc(3, "tools/call", { name: "echo", arguments: { a: 1 }, _meta: { progressToken: "p" } }),
    rpc(4, "tools/call", { name: "nope" }),
  ]) as Message[];
  const initialize = written[0]!.result as Message;
  equal(initialize.protocolVersion, "2025-06-18");
  deepEqual(initialize.serverInfo, { name: "fake", version: "1.0.0" });
  equal(initialize.instructions, "Use echo");
  deepEqual((written[1]!.result as { tools: { name: string }[] }).tools.map((t) => t.name), [
    "echo",
  ]);
  deepEqual(written.slice(2, 5).map((m) => m.method ?? m.id), [
    "notifications/progress",
    "notifications/progress",
    3,
  ]);
  deepEqual((written[3]!.params as Message).message, "done");
  deepEqual((written[4]!.result as { content: unknown[] }).content, [
    { type: "text", text: '{"a":1}' },
  ]);
  deepEqual((written[5]!.error as Message).code, -32_602);
});

Deno.test("a cancelled call is never answered, and the connection goes on", async () => {
  const written = await stdioAnswers([
    init(1, "2025-06-18"),
    rpc(2, "tools/call", { name: "slow" }),
    note("notifications/cancelled", { requestId: 2, reason: "no" }),
    rpc(3, "ping"),
  ]) as Message[];
  deepEqual(written.map((m) => m.id), [1, 3]);
});

Deno.test("a 2025-era connection is told of changes after initialized, once however often it says so", async () => {
  const written = await stdioAnswers([
    init(1, "2025-06-18"),
    "change",
    note("notifications/initialized"),
    note("notifications/initialized"),
    "change",
  ]);
  deepEqual(listChanges(written), [changed()]);
});

Deno.test("a 2026-07-28 subscription to tool list changes receives them, on it", async () => {
  const written = await stdioAnswers([
    modern(1, "server/discover"),
    "change",
    modern("tools", "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    modern("prompts", "subscriptions/listen", { notifications: { promptsListChanged: true } }),
    modern(2, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
    "change",
    note("notifications/cancelled", { requestId: 2 }),
    "change",
  ]);
  deepEqual(listChanges(written), [changed("tools"), changed(2), changed("tools")]);
});

Deno.test("a 2026-07-28 subscription to nothing offered ends at once, and once", async () => {
  const written = await stdioAnswers([
    modern(1, "subscriptions/listen", { notifications: { promptsListChanged: true } }),
    "change",
    "close",
  ]);
  deepEqual(written, emptySubscriptionAnswers(1, { name: "fake", version: "1.0.0" }));
});

Deno.test("a 2026-07-28 call is answered with its era's result members", async () => {
  const written = await stdioAnswers([
    modern(1, "tools/call", { name: "echo", arguments: { b: 2 } }),
  ]) as Message[];
  const result = written.at(-1)!.result as Message;
  equal(result.resultType, "complete");
  deepEqual((result._meta as Message)["io.modelcontextprotocol/serverInfo"], {
    name: "fake",
    version: "1.0.0",
  });
});

Deno.test("members a result's schema does not name are dropped in either era, as the SDK sends them", async () => {
  for (
    const call of [
      rpc(1, "tools/call", { name: "extra" }),
      modern(1, "tools/call", { name: "extra" }),
    ]
  ) {
    const [answer] = await stdioAnswers([call]) as Message[];
    const content = (answer!.result as { content: Message[] }).content;
    ok(!("extra" in content[0]!), JSON.stringify(content));
  }
});

Deno.test("an upstream result's keys named like Object.prototype's members are sent as they came, in either era", async () => {
  const result = JSON.parse(
    '{"content":[],"constructor":1,"toString":2,"__proto__":{"isError":"x"},"other":3}',
  );
  for (
    const call of [rpc(1, "tools/call", { name: "r0" }), modern(1, "tools/call", { name: "r0" })]
  ) {
    const [answer] = await stdioAnswers([call], [result]) as Message[];
    const sent = answer!.result as Message;
    for (const key of ["content", "constructor", "toString", "other"]) {
      ok(Object.hasOwn(sent, key), key);
    }
    equal(Object.getPrototypeOf(sent), Object.prototype);
  }
});
