import { deepEqual, equal, ok } from "node:assert/strict";
import { Gateway } from "../../src/gateway/gateway.ts";
import type { UpstreamPool } from "../../src/gateway/pool/upstreams.ts";
import type { Profile } from "../../src/gateway/config/profiles.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { Learning } from "../../src/session/learned.ts";
import type { McpTool } from "../../src/tool.ts";

const TOOLS: McpTool[] = [
  {
    server: "s",
    name: "publish",
    description: "Publish a version",
    inputSchema: { type: "object" },
  },
  {
    server: "s",
    name: "list_notes",
    description: "List the notes",
    inputSchema: { type: "object" },
  },
  { server: "s", name: "broken", description: "Publish a draft", inputSchema: { type: "object" } },
];

// Upstream calls in memory: `broken` answers a tool error, the others succeed.
function pool(): UpstreamPool {
  return {
    tools: () => TOOLS,
    statuses: () => [{ server: "s", state: "ready", tools: TOOLS.length }],
    forward: (tool) =>
      Promise.resolve(
        tool.name === "broken"
          ? { content: [{ type: "text", text: "it broke" }], isError: true }
          : { content: [{ type: "text", text: "done" }] },
      ),
    onChange: () => () => {},
    close: () => Promise.resolve(),
  };
}

async function open(learning: Learning, extra: { pinned?: string[]; profile?: Profile } = {}) {
  return await Gateway.open(pool(), {
    options: { pinned: extra.pinned ?? [] },
    store: new MemorySessionStore(),
    learning,
    ...(extra.profile === undefined ? {} : { profile: extra.profile }),
  });
}

async function found(gateway: Gateway, query: string, tenant = "", session = "later") {
  const outcome = await gateway.call("mcp", { action: "search", query }, {
    session: { tenant, session },
  });
  ok(outcome.ok);
  const structured = outcome.result.structuredContent as { matches?: { id: string }[] };
  return (structured.matches ?? []).map((m) => m.id);
}

async function run(gateway: Gateway, query: string, id: string, tenant = "", session = "first") {
  const key = { session: { tenant, session } };
  await gateway.call("mcp", { action: "search", query }, key);
  await gateway.call("mcp", { action: "describe", name: id }, key);
  const outcome = await gateway.call("mcp", { action: "execute", name: id }, key);
  ok(outcome.ok);
  return outcome.result;
}

Deno.test("the gateway learns from a successful execute: the tool rises for the same words", async () => {
  const learning = new Learning(undefined);
  const gateway = await open(learning);
  deepEqual(await found(gateway, "release notes"), ["s/list_notes"]);
  await run(gateway, "ship the release notes", "s/publish");
  deepEqual(await found(gateway, "release notes"), ["s/list_notes", "s/publish"]);
  // Another tenant learned nothing.
  deepEqual(await found(gateway, "release notes", "someone-else"), ["s/list_notes"]);
  await gateway.close();
});

Deno.test("the gateway does not learn from a failed execute, nor from a pinned tool's call", async () => {
  const learning = new Learning(undefined);
  const gateway = await open(learning, { pinned: ["s/publish"] });
  const failed = await run(gateway, "ship the release notes", "s/broken");
  equal(failed.isError, true);
  deepEqual(await found(gateway, "release notes"), ["s/list_notes"]);
  const session = { tenant: "", session: "pinned" };
  await gateway.call("mcp", { action: "search", query: "ship the release notes" }, { session });
  const pinned = await gateway.call("s__publish", {}, { session });
  ok(pinned.ok && pinned.result.isError !== true);
  deepEqual(await found(gateway, "release notes"), ["s/list_notes"]);
  await gateway.close();
});

Deno.test("two profiles' gateways of one process learn apart", async () => {
  const learning = new Learning(undefined);
  const work = await open(learning, { profile: { name: "work" } as Profile });
  const home = await open(learning, { profile: { name: "home" } as Profile });
  await run(work, "ship the release notes", "s/publish");
  deepEqual(await found(work, "release notes"), ["s/list_notes", "s/publish"]);
  deepEqual(await found(home, "release notes"), ["s/list_notes"]);
  await Promise.all([work.close(), home.close()]);
});
