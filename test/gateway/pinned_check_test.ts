// Pinned ids judged against what their server lists: a live listing's lack is a wrong pin, a
// snapshot's only a warning that is judged again once the server lists live.
import { deepEqual, equal } from "node:assert/strict";
import { Gateway } from "../../src/gateway/gateway.ts";
import { statusHandler } from "../../src/gateway/faces/status.ts";
import type { UpstreamPool, UpstreamStatus } from "../../src/gateway/pool/upstreams.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import type { McpTool } from "../../src/tool.ts";
import { formatReport, inspectCatalog } from "../../src/cli/inspect.ts";
import { tool } from "../_data.ts";

const READ = tool("memory", "read_graph", "Read the graph");
const GHOST = tool("memory", "ghost", "Gone from the server");

// One server whose listing the test changes: from a snapshot (stopped, not yet listed live), then
// live; changes reach the gateway as they would from the live pool.
function changingPool(tools: McpTool[]) {
  let listed = tools;
  let status: UpstreamStatus = { server: "memory", state: "stopped", tools: 1, snapshot: true };
  let live = false;
  const listeners = new Set<() => void>();
  const pool: UpstreamPool = {
    tools: () => listed,
    statuses: () => [status],
    listedLive: () => new Set(live ? ["memory"] : []),
    forward: () => Promise.reject(new Error("unused")),
    onChange: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => Promise.resolve(),
  };
  // The server starts and lists these tools live, then (lazy) stops again.
  const listLive = (tools: McpTool[], state: UpstreamStatus["state"] = "ready") => {
    listed = tools;
    live = true;
    status = {
      server: "memory",
      state,
      tools: tools.length,
      ...(state === "stopped" ? { snapshot: true as const } : {}),
    };
    for (const listener of listeners) listener();
  };
  return { pool, listLive };
}

async function open(tools: McpTool[], pinned: string[]) {
  const { pool, listLive } = changingPool(tools);
  const lines: string[] = [];
  const gateway = await Gateway.open(pool, {
    options: { pinned },
    store: new MemorySessionStore(),
    log: (line) => lines.push(line),
  });
  let changes = 0;
  gateway.onToolsChanged(() => changes++);
  return { gateway, lines, listLive, changes: () => changes };
}

const names = (gateway: Gateway) => gateway.tools().map((definition) => definition.name);

Deno.test("a pin its server's snapshot lacks is a warning on the statuses, and listed once the live listing has it", async () => {
  const { gateway, lines, listLive, changes } = await open([GHOST], ["memory/read_graph"]);
  deepEqual(gateway.missingPins(), [{
    id: "memory/read_graph",
    server: "memory",
    listing: "snapshot",
  }]);
  deepEqual(gateway.statuses()[0]?.missingPins, [{ id: "memory/read_graph", listing: "snapshot" }]);
  // Said by whoever opened the gateway (the CLI), not twice.
  deepEqual(lines, []);
  deepEqual(names(gateway), ["mcp", "discover"]);
  listLive([READ]);
  await gateway.settled();
  deepEqual(gateway.missingPins(), []);
  equal(gateway.statuses()[0]?.missingPins, undefined);
  deepEqual(names(gateway), ["mcp", "discover", "memory__read_graph"]);
  equal(changes(), 1);
  deepEqual(lines, []);
  await gateway.close();
});

Deno.test("a pin that the live listing lacks after the snapshot had it is reported once, on the log and the statuses", async () => {
  const { gateway, lines, listLive } = await open([READ, GHOST], ["memory/ghost"]);
  deepEqual(gateway.missingPins(), []);
  deepEqual(names(gateway), ["mcp", "discover", "memory__ghost"]);
  listLive([READ]);
  await gateway.settled();
  const line =
    'the pinned tool "memory/ghost" is not listed by "memory", so it is left out of tools/list: correct "unfold.pinned"';
  deepEqual(lines, [line]);
  deepEqual(gateway.statuses()[0]?.missingPins, [{ id: "memory/ghost", listing: "live" }]);
  deepEqual(names(gateway), ["mcp", "discover"]);
  // Stopped when idle, it is still judged on its live listing, and not said again.
  listLive([READ], "stopped");
  await gateway.settled();
  deepEqual(gateway.missingPins(), [{ id: "memory/ghost", server: "memory", listing: "live" }]);
  deepEqual(lines, [line]);
  await gateway.close();
});

Deno.test("GET /status and unfold inspect show a missing pin on its server", async () => {
  const { gateway, listLive } = await open([READ], ["memory/read_grap"]);
  listLive([READ]);
  await gateway.settled();
  const handle = statusHandler({ gateway, options: { pinned: ["memory/read_grap"] } });
  const status = await (await handle(new Request("http://127.0.0.1/status"))).json();
  deepEqual(status.servers[0].missingPins, [
    { id: "memory/read_grap", listing: "live", closest: "memory/read_graph" },
  ]);
  const report = inspectCatalog(gateway.catalog, gateway.statuses(), { pinned: [] });
  equal(
    formatReport(report).split("\n").slice(-2).join("\n"),
    "pinned tools not listed (left out of tools/list):\n  memory/read_grap: not in its listing (closest: memory/read_graph)",
  );
  await gateway.close();
});

Deno.test("a server with no listing yet has its pins judged once it lists", async () => {
  const { pool } = changingPool([]);
  const gateway = await Gateway.open(
    { ...pool, statuses: () => [{ server: "memory", state: "starting", tools: 0 }] },
    { options: { pinned: ["memory/read_graph"] }, store: new MemorySessionStore() },
  );
  deepEqual(gateway.missingPins(), []);
  await gateway.close();
});

Deno.test("a profile's own pin found missing is said once, by the profile's check of its patterns", async () => {
  const { pool, listLive } = changingPool([READ, GHOST]);
  const lines: string[] = [];
  const gateway = await Gateway.open(pool, {
    options: { pinned: [] },
    store: new MemorySessionStore(),
    log: (line) => lines.push(line),
    profile: { name: "work", pinned: ["memory/ghost"] },
  });
  listLive([READ]);
  await gateway.settled();
  deepEqual(lines, ['profile "work": "memory/ghost" matches no tool of memory']);
  deepEqual(gateway.missingPins(), [{ id: "memory/ghost", server: "memory", listing: "live" }]);
  await gateway.close();
});

Deno.test("a pinned tool that is quarantined is named by the quarantine, not as a missing pin", async () => {
  const bad = { ...tool("memory", "bad"), inputSchema: { type: "object", properties: "none" } };
  const { pool, listLive } = changingPool([READ, bad]);
  listLive([READ, bad]);
  const gateway = await Gateway.open(pool, {
    options: { pinned: ["memory/bad"] },
    store: new MemorySessionStore(),
  });
  deepEqual(gateway.missingPins(), []);
  deepEqual(gateway.statuses()[0]?.quarantined?.map((t) => t.name), ["bad"]);
  deepEqual(names(gateway), ["mcp", "discover"]);
  await gateway.close();
});
