import { deepEqual, equal, match, rejects } from "node:assert/strict";
import { openLivePool } from "../../../src/gateway/pool/live_pool.ts";
import type { Connector } from "../../../src/gateway/pool/upstreams.ts";
import type { ConnectOptions, McpConnection } from "../../../src/mcp/types.ts";
import { McpError } from "../../../src/tool_error.ts";

const CONFIG = { server: "flaky", url: "http://flaky.invalid/mcp", headers: {} };
const TOOL = {
  server: "flaky",
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object" },
};

// Restarts run only when the test says so, and the clock moves only when the test moves it.
function manualTime() {
  const pending: { run: () => void; ms: number }[] = [];
  const clock = { now: 0 };
  let scheduled = Promise.withResolvers<void>();
  return {
    clock,
    delays: () => pending.map((p) => p.ms),
    schedule: (run: () => void, ms: number) => {
      const item = { run, ms };
      pending.push(item);
      scheduled.resolve();
      return () => void pending.splice(pending.indexOf(item) >>> 0, 1);
    },
    /** Runs the next restart and waits until it has failed: its failure schedules the next. */
    async fire() {
      const next = pending.shift()!;
      clock.now += next.ms;
      scheduled = Promise.withResolvers();
      next.run();
      await scheduled.promise;
    },
  };
}

function connection(options: ConnectOptions): McpConnection & { lose(): void } {
  return {
    server: "flaky",
    identity: { name: "flaky", version: "1" },
    instructions: undefined,
    closed: false,
    tools: () => Promise.resolve([TOOL]),
    call: () => Promise.reject(new Error("unused")),
    forward: () => Promise.resolve({ content: [{ type: "text", text: "ok" }] }),
    onToolsChanged: () => () => {},
    close: () => Promise.resolve(),
    lose: () => options.onError?.(new McpError("disconnected", "the server closed the connection")),
  } as unknown as McpConnection & { lose(): void };
}

Deno.test("openLivePool() restarts a failing upstream with doubling delays up to the cap", async () => {
  const time = manualTime();
  let attempts = 0;
  const connector: Connector = () => {
    attempts += 1;
    return Promise.reject(new McpError("connect", 'Cannot connect to "flaky": refused'));
  };
  const pool = await openLivePool([CONFIG], connector, {
    restart: { initialDelayMs: 100, maxDelayMs: 800 },
    schedule: time.schedule,
    now: () => time.clock.now,
  });
  equal(pool.statuses()[0]?.state, "failed");
  const delays: number[] = [];
  for (let i = 0; i < 6; i++) {
    delays.push(...time.delays());
    await time.fire();
  }
  deepEqual(delays, [100, 200, 400, 800, 800, 800]);
  equal(attempts, 7, "one attempt per delay, none in between");
  // A call before the delay has passed does not start another process: it says when.
  await rejects(pool.forward(TOOL, {}, {}), (error: McpError) => {
    match(
      error.message,
      /is unavailable \(Cannot connect to "flaky": refused\); it is restarted in 1 s/,
    );
    return error.code === "connect";
  });
  equal(attempts, 7);
  await pool.close();
  equal(time.delays().length, 0, "closing cancels the pending restart");
});

Deno.test("openLivePool() shows a lost upstream as lost and restarts it on its next use", async () => {
  const time = manualTime();
  const opened: ReturnType<typeof connection>[] = [];
  const connector: Connector = (_config, options) => {
    const made = connection(options);
    opened.push(made);
    return Promise.resolve(made);
  };
  const pool = await openLivePool([CONFIG], connector, {
    restart: { initialDelayMs: 100, maxDelayMs: 800 },
    schedule: time.schedule,
    now: () => time.clock.now,
  });
  equal(pool.statuses()[0]?.state, "ready");
  opened[0]!.lose();
  deepEqual(pool.statuses()[0], {
    server: "flaky",
    state: "lost",
    detail: "the server closed the connection",
    tools: 1,
  });
  deepEqual(pool.tools().map((t) => t.name), ["echo"], "its tools stay findable while it is lost");
  time.clock.now += 100; // the delay has passed, but the timer has not fired yet
  const result = await pool.forward(TOOL, {}, {});
  deepEqual(result.content, [{ type: "text", text: "ok" }]);
  equal(opened.length, 2, "the call restarted it");
  equal(pool.statuses()[0]?.state, "ready");
  await pool.close();
});

Deno.test("openLivePool() keeps restarting an upstream whose connector throws at once", async () => {
  const time = manualTime();
  let attempts = 0;
  const connector: Connector = () => {
    attempts += 1;
    throw new McpError("connect", 'Cannot connect to "flaky": no such command');
  };
  const pool = await openLivePool([CONFIG], connector, {
    restart: { initialDelayMs: 100, maxDelayMs: 800 },
    schedule: time.schedule,
    now: () => time.clock.now,
  });
  await time.fire();
  await time.fire();
  equal(attempts, 3);
  equal(pool.statuses()[0]?.state, "failed");
  await pool.close();
});
