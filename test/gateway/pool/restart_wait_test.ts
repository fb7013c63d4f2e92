/**
 * The first-start wait is paid once per server and start-up: an upstream that hangs at each start
 * and then exits is waited for by the first search only; after it has failed once it is named as
 * failed (and the overview does not change while it is tried again), and no search waits for it.
 * The upstream is a connector whose every start hangs until the test ends it; restarts run when
 * the test fires them (no timer, no sleep).
 *
 * @module
 */

import { deepEqual, doesNotMatch, equal, match } from "node:assert/strict";
import { Gateway } from "../../../src/gateway/gateway.ts";
import { openLivePool } from "../../../src/gateway/pool/live_pool.ts";
import { unlistedServers } from "../../../src/gateway/pool/start_wait.ts";
import type { Connector } from "../../../src/gateway/pool/upstreams.ts";
import type { McpConnection } from "../../../src/mcp/types.ts";
import { MemorySessionStore } from "../../../src/session/memory_store.ts";
import { McpError } from "../../../src/tool_error.ts";
import type { CallToolResultLike } from "../../../src/tool_result.ts";

const TOOL = {
  server: "up",
  name: "echo",
  description: "Echoes a text",
  inputSchema: { type: "object" },
};

function connection(server: string): McpConnection {
  return {
    server,
    identity: { name: server, version: "1" },
    instructions: undefined,
    closed: false,
    tools: () => Promise.resolve([TOOL]),
    call: () => Promise.reject(new Error("unused")),
    forward: () => Promise.reject(new Error("unused")),
    onToolsChanged: () => () => {},
    close: () => Promise.resolve(),
  } as unknown as McpConnection;
}

function text(result: CallToolResultLike): string {
  return (result.content?.[0] as { text: string }).text;
}

Deno.test("a server that hangs at each start then exits is waited for once, then named and never waited for", async () => {
  // Each start of "hang" waits until the test makes it exit; "up" answers at once.
  const starts: { exit: () => void }[] = [];
  const connector: Connector = (config, options) => {
    if (config.server === "up") return Promise.resolve(connection("up"));
    const { promise, reject } = Promise.withResolvers<McpConnection>();
    starts.push({ exit: () => reject(new McpError("connect", "the server exited (code 1)")) });
    // Closing the pool stops a start in its handshake, as it stops a process.
    options.signal?.addEventListener("abort", () => reject(new McpError("connect", "stopped")));
    return promise;
  };
  const restarts: (() => void)[] = [];
  const pool = await openLivePool(
    [
      { server: "up", url: "http://up.invalid/mcp", headers: {} },
      { server: "hang", url: "http://hang.invalid/mcp", headers: {} },
    ],
    connector,
    {
      // Opened while "hang" still hangs: what the gateway then serves is the subject.
      startupTimeoutMs: 1,
      schedule: (run) => {
        restarts.push(run);
        return () => {};
      },
    },
  );
  const gateway = await Gateway.open(pool, {
    options: { pinned: [] },
    store: new MemorySessionStore(),
  });
  try {
    equal(starts.length, 1);
    // The first search waits for the server that has never listed: it is answered once the
    // start has ended (an answer before would say the server is still starting).
    const first = gateway.call("mcp", { action: "search", query: "echo" });
    starts[0]!.exit();
    const answered = await first;
    equal(answered.ok, true);
    if (answered.ok) doesNotMatch(text(answered.result), /still starting/);
    const down =
      /Unavailable servers, whose tools cannot be called now: hang \(failed to start: "the server exited \(code 1\)"\)/;
    match(gateway.presentation.bridge.description, down);
    const overview = gateway.presentation.bridge.description;
    for (let cycle = 1; cycle <= 3; cycle++) {
      // The backoff's restart: the server hangs again.
      restarts.shift()!();
      equal(starts.length, cycle + 1);
      await gateway.settled();
      const status = gateway.statuses().find((s) => s.server === "hang")!;
      deepEqual(
        [status.state, status.restarting, status.detail],
        ["starting", "failed", "the server exited (code 1)"],
      );
      deepEqual(unlistedServers(gateway.statuses()), [], "nothing waits for it again");
      // The overview names it as it was, unchanged while it is tried again.
      equal(gateway.presentation.bridge.description, overview);
      // A search is answered while the start still hangs (nothing else happens meanwhile: a
      // search that waited would be answered only at its timeout, saying the server is starting).
      const result = await gateway.call("mcp", { action: "search", query: "echo" });
      equal(result.ok, true);
      if (result.ok) {
        match(text(result.result), /up\/echo/);
        doesNotMatch(text(result.result), /still starting/);
      }
      // A describe of its tools is answered with why, at once.
      const described = await gateway.call("mcp", { action: "describe", name: "hang/echo" });
      equal(described.ok, true);
      if (described.ok) {
        match(
          text(described.result),
          /"hang" is configured but its tools cannot be listed now \(failed: /,
        );
      }
      const changed = new Promise<void>((resolve) => {
        const stop = pool.onChange(() => {
          stop();
          resolve();
        });
      });
      starts[cycle]!.exit();
      await changed;
      await gateway.settled();
      equal(gateway.statuses().find((s) => s.server === "hang")!.state, "failed");
    }
  } finally {
    await gateway.close();
  }
});
