/**
 * `startAfter`: the servers listed from a snapshot start once the caller says (the stdio gateway:
 * once it serves its host, so that 14 starts do not take the CPU from its answer), the others at
 * once; a call of a server not started yet starts it at once, and a pool closed first starts
 * nothing. Starts are counted; the promise is the test's to resolve (no timer).
 *
 * @module
 */

import { deepEqual, equal } from "node:assert/strict";
import { openLivePool } from "../../../src/gateway/pool/live_pool.ts";
import type { Connector, Snapshot, SnapshotStore } from "../../../src/gateway/pool/upstreams.ts";
import type { McpConnection } from "../../../src/mcp/types.ts";
import type { McpTool } from "../../../src/tool.ts";

const tool = (server: string): McpTool => ({
  server,
  name: "act",
  description: `Acts on ${server}`,
  inputSchema: { type: "object" },
});

// A store with a snapshot for the servers named.
function storeFor(servers: string[]): SnapshotStore {
  return {
    read: (config) =>
      Promise.resolve<Snapshot | undefined>(
        servers.includes(config.server) ? { tools: [tool(config.server)] } : undefined,
      ),
    write: () => Promise.resolve(),
  };
}

// Counts the starts of each server; each connects and lists at once.
function countingConnector() {
  const started: string[] = [];
  const connector: Connector = (config) => {
    started.push(config.server);
    return Promise.resolve({
      server: config.server,
      identity: { name: config.server, version: "1" },
      instructions: undefined,
      closed: false,
      tools: () => Promise.resolve([tool(config.server)]),
      forward: () => Promise.resolve({ content: [{ type: "text", text: `${config.server} ok` }] }),
      onToolsChanged: () => () => {},
      close: () => Promise.resolve(),
    } as unknown as McpConnection);
  };
  return { connector, started };
}

const CONFIGS = ["cold", "warm", "warmer"].map((server) => ({
  server,
  url: `http://${server}.invalid/mcp`,
  headers: {},
}));

Deno.test("with startAfter, a server with a snapshot starts once it settles, one without at once", async () => {
  const { connector, started } = countingConnector();
  const after = Promise.withResolvers<void>();
  const pool = await openLivePool(CONFIGS, connector, {
    snapshots: storeFor(["warm", "warmer"]),
    startAfter: after.promise,
    startupTimeoutMs: 60_000,
  });
  try {
    // Opened once the server without a snapshot has listed: the others are answered from theirs.
    deepEqual(started, ["cold"]);
    deepEqual(pool.statuses().map((s) => [s.server, s.state, s.snapshot === true]), [
      ["cold", "ready", false],
      ["warm", "starting", true],
      ["warmer", "starting", true],
    ]);
    // A call of one not started yet starts it at once, and is answered.
    const result = await pool.forward(tool("warmer"), {}, {});
    equal((result.content?.[0] as { text: string }).text, "warmer ok");
    deepEqual(started, ["cold", "warmer"]);
    const ready = Promise.withResolvers<void>();
    pool.onChange(() => {
      if (pool.statuses().every((s) => s.state === "ready")) ready.resolve();
    });
    after.resolve();
    await ready.promise;
    // The one left starts now; the one the call started is not started again.
    deepEqual(started, ["cold", "warmer", "warm"]);
  } finally {
    await pool.close();
  }
});

Deno.test("with startAfter, a pool closed before it settles starts no server with a snapshot", async () => {
  const { connector, started } = countingConnector();
  const after = Promise.withResolvers<void>();
  const pool = await openLivePool(CONFIGS, connector, {
    snapshots: storeFor(["warm", "warmer"]),
    startAfter: after.promise,
  });
  await pool.close();
  after.resolve();
  await after.promise;
  deepEqual(started, ["cold"]);
});

Deno.test("without startAfter, every server starts at once, snapshot or not", async () => {
  const { connector, started } = countingConnector();
  const pool = await openLivePool(CONFIGS, connector, { snapshots: storeFor(["warm"]) });
  try {
    deepEqual(started, ["cold", "warm", "warmer"]);
  } finally {
    await pool.close();
  }
});
