/**
 * A server that cannot start as configured is the pool's `unavailable` server: in the states
 * after the pool's own, refused with why when called, and no hindrance to the gateway's
 * announcements (`list_changed` waits for every server's first listing, which it never gives).
 *
 * @module
 */

import { deepEqual, equal, match, rejects } from "node:assert/strict";
import { Gateway } from "../../../src/gateway/gateway.ts";
import { unsetDetail, withUnavailable } from "../../../src/gateway/pool/unavailable.ts";
import type { UpstreamPool, UpstreamStatus } from "../../../src/gateway/pool/upstreams.ts";
import { MemorySessionStore } from "../../../src/session/memory_store.ts";
import type { McpTool } from "../../../src/tool.ts";
import { McpError } from "../../../src/tool_error.ts";

const TOOL: McpTool = {
  server: "up",
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object" },
};
const DETAIL = unsetDetail(["REMOTE_TOKEN"], "/mcpServers/remote/headers/Authorization");

// A pool whose one server starts when the test says.
function startingPool(): UpstreamPool & { list(): void } {
  let status: UpstreamStatus = { server: "up", state: "starting", tools: 0 };
  let tools: McpTool[] = [];
  const listeners = new Set<() => void>();
  return {
    tools: () => tools,
    statuses: () => [{ ...status }],
    listedLive: () => new Set(status.state === "ready" ? ["up"] : []),
    forward: () => Promise.resolve({ content: [{ type: "text", text: "echoed" }] }),
    onChange: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => Promise.resolve(),
    list() {
      tools = [TOOL];
      status = { server: "up", state: "ready", tools: 1 };
      for (const listener of [...listeners]) listener();
    },
  };
}

Deno.test("withUnavailable adds the servers' states and refuses their calls with why", async () => {
  const pool = withUnavailable(startingPool(), [{ server: "remote", detail: DETAIL }]);
  deepEqual(pool.statuses().map((s) => [s.server, s.state]), [["up", "starting"], [
    "remote",
    "unavailable",
  ]]);
  await rejects(
    pool.forward({ ...TOOL, server: "remote" }, {}, {}),
    (error: McpError) => {
      equal(error.code, "connect");
      match(
        error.message,
        /the server "remote" is unavailable \(the environment variable REMOTE_TOKEN is not set/,
      );
      return true;
    },
  );
  equal((await pool.forward(TOOL, {}, {})).content?.length, 1);
  equal(withUnavailable(startingPool(), []).statuses().length, 1);
});

Deno.test("an unavailable server does not keep the gateway from announcing the others' first listing", async () => {
  const inner = startingPool();
  const gateway = await Gateway.open(
    withUnavailable(inner, [{ server: "remote", detail: DETAIL }]),
    {
      options: { pinned: [] },
      store: new MemorySessionStore(),
    },
  );
  try {
    const announced = Promise.withResolvers<void>();
    gateway.onToolsChanged(() => announced.resolve());
    inner.list();
    await gateway.settled();
    await announced.promise;
    match(gateway.presentation.bridge.description, /up\/echo/);
    match(
      gateway.presentation.bridge.description,
      /remote \("the environment variable REMOTE_TOKEN/,
    );
  } finally {
    await gateway.close();
  }
});
