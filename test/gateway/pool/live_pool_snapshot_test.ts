import { deepEqual, equal } from "node:assert/strict";
import { openLivePool } from "../../../src/gateway/pool/live_pool.ts";
import type { Connector } from "../../../src/gateway/pool/upstreams.ts";
import type { McpConnection } from "../../../src/mcp/types.ts";
import type { McpTool } from "../../../src/tool.ts";
import { memoryStore } from "../_snapshot_store.ts";

const CONFIG = { server: "slow", url: "http://slow.invalid/mcp", headers: {} };
const tool = (name: string): McpTool => ({
  server: "slow",
  name,
  description: `Does ${name}`,
  inputSchema: { type: "object" },
});

// A connection whose listing waits until the test lets it answer.
function gatedConnector(tools: McpTool[]) {
  const gate = Promise.withResolvers<void>();
  const connector: Connector = () =>
    Promise.resolve({
      server: "slow",
      identity: { name: "slow", version: "1" },
      instructions: "Live notes",
      closed: false,
      tools: () => gate.promise.then(() => tools),
      forward: () => Promise.resolve({ content: [{ type: "text", text: "ok" }] }),
      onToolsChanged: () => () => {},
      close: () => Promise.resolve(),
    } as unknown as McpConnection);
  return { connector, open: () => gate.resolve() };
}

Deno.test("openLivePool() lists a server still starting from its snapshot, without waiting for it", async () => {
  const store = memoryStore({ tools: [tool("old")], instructions: "Old notes" });
  const { connector, open } = gatedConnector([tool("new")]);
  // The startup timeout is never reached: a server with a snapshot is not waited for.
  const pool = await openLivePool([CONFIG], connector, {
    snapshots: store,
    startupTimeoutMs: 60_000,
  });
  deepEqual(pool.statuses(), [{ server: "slow", state: "starting", tools: 1, snapshot: true }]);
  deepEqual(pool.tools().map((t) => t.name), ["old"]);
  deepEqual([...pool.instructions?.() ?? []], [["slow", "Old notes"]]);
  const changed = Promise.withResolvers<void>();
  pool.onChange(() => changed.resolve());
  open();
  await changed.promise;
  // The live list replaces the snapshot's, is said as a change, and is kept for the next start.
  deepEqual(pool.tools().map((t) => t.name), ["new"]);
  deepEqual(pool.statuses(), [{ server: "slow", state: "ready", tools: 1 }]);
  deepEqual(store.written, [{ tools: [tool("new")], instructions: "Live notes" }]);
  await pool.close();
});

Deno.test("openLivePool() without a snapshot waits for the server and then keeps its listing", async () => {
  const store = memoryStore();
  const { connector, open } = gatedConnector([tool("new")]);
  const opening = openLivePool([CONFIG], connector, { snapshots: store, startupTimeoutMs: 60_000 });
  open();
  const pool = await opening;
  deepEqual(pool.statuses(), [{ server: "slow", state: "ready", tools: 1 }]);
  equal(store.written.length, 1);
  await pool.close();
});

Deno.test("openLivePool() eager spawns every server before it reads their snapshots", async () => {
  const configs = ["a", "b"].map((server) => ({ ...CONFIG, server }));
  let connects = 0;
  const { connector: gated, open } = gatedConnector([tool("new")]);
  const connector: Connector = (config, options) => {
    connects += 1;
    return gated(config, options);
  };
  // How many servers were spawned when each snapshot read began: reading first held them back.
  const spawnedAtRead: number[] = [];
  const store = memoryStore({ tools: [tool("old")] });
  const pool = await openLivePool(configs, connector, {
    snapshots: {
      ...store,
      read: (config) => {
        spawnedAtRead.push(connects);
        return store.read(config);
      },
    },
    startupTimeoutMs: 60_000,
  });
  deepEqual(spawnedAtRead, [2, 2]);
  deepEqual(pool.statuses().map((s) => [s.state, s.tools, s.snapshot]), [
    ["starting", 1, true],
    ["starting", 1, true],
  ]);
  open();
  await pool.close();
});

Deno.test("openLivePool() keeps a live listing that came in before its snapshot was read", async () => {
  const store = memoryStore({ tools: [tool("old")] });
  const { connector, open } = gatedConnector([tool("new")]);
  open();
  // The snapshot is read only once the server has listed live.
  const ready = Promise.withResolvers<void>();
  const pool = await openLivePool([CONFIG], connector, {
    snapshots: { ...store, read: (config) => ready.promise.then(() => store.read(config)) },
    onProgress: (status) => status.state === "ready" ? ready.resolve() : undefined,
    startupTimeoutMs: 60_000,
  });
  deepEqual(pool.tools().map((t) => t.name), ["new"]);
  deepEqual(pool.statuses(), [{ server: "slow", state: "ready", tools: 1 }]);
  await pool.close();
});
