import { deepEqual, equal, rejects } from "node:assert/strict";
import { poolReaches } from "./_reaches.ts";
import { openLivePool } from "../../../src/gateway/pool/live_pool.ts";
import type { Connector } from "../../../src/gateway/pool/upstreams.ts";
import type { McpConnection } from "../../../src/mcp/types.ts";
import type { McpTool } from "../../../src/tool.ts";
import { McpError } from "../../../src/tool_error.ts";
import { memoryStore } from "../_snapshot_store.ts";

const CONFIG = { server: "srv", url: "http://srv.invalid/mcp", headers: {} };
const ECHO: McpTool = {
  server: "srv",
  name: "echo",
  description: "Echoes",
  inputSchema: { type: "object" },
};

// Counts the connections open now; each listing waits for the gate when one is set.
function countingConnector() {
  const state = { open: 0, opened: 0, gate: undefined as Promise<void> | undefined };
  const connector: Connector = () => {
    state.open += 1;
    state.opened += 1;
    return Promise.resolve({
      server: "srv",
      identity: { name: "srv", version: "1" },
      closed: false,
      tools: async () => {
        await state.gate;
        return [ECHO];
      },
      forward: (_name: string, args: Record<string, unknown>, options: { timeoutMs?: unknown }) =>
        Promise.resolve({
          content: [{ type: "text", text: `${args.text} ${JSON.stringify(options.timeoutMs)}` }],
        }),
      onToolsChanged: () => () => {},
      close: () => (state.open -= 1, Promise.resolve()),
    } as unknown as McpConnection);
  };
  return { connector, state };
}

// A clock and a scheduler the test moves by hand.
function manualTime() {
  let clock = 0;
  const timers: { at: number; run: () => void; live: boolean }[] = [];
  return {
    now: () => clock,
    schedule: (run: () => void, ms: number) => {
      const timer = { at: clock + ms, run, live: true };
      timers.push(timer);
      return () => void (timer.live = false);
    },
    advance(ms: number) {
      clock += ms;
      for (const timer of timers.splice(0)) {
        if (timer.live && timer.at <= clock) timer.run();
        else if (timer.live) timers.push(timer);
      }
    },
  };
}

// A lazy pool of one server with a snapshot, idle after 1 s of the given clock.
function lazyPool(connector: Connector, time: ReturnType<typeof manualTime>) {
  return openLivePool([CONFIG], connector, {
    start: "lazy",
    idleTimeoutMs: 1_000,
    snapshots: memoryStore({ tools: [ECHO] }),
    now: time.now,
    schedule: time.schedule,
  });
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

Deno.test("a lazy pool with a snapshot starts nothing, starts a server on its first call and stops it when idle", async () => {
  const { connector, state } = countingConnector();
  const time = manualTime();
  const pool = await lazyPool(connector, time);
  equal(state.opened, 0);
  deepEqual(pool.statuses(), [{ server: "srv", state: "stopped", tools: 1, snapshot: true }]);
  deepEqual(pool.tools(), [ECHO]);
  // Its tools are the snapshot's until it lists live.
  deepEqual(pool.listedLive?.(), new Set());
  equal(text(await pool.forward(ECHO, { text: "hi" }, {})), "hi 300000");
  deepEqual(pool.listedLive?.(), new Set(["srv"]));
  equal(state.open, 1);
  equal(pool.statuses()[0]!.state, "ready");
  time.advance(999);
  equal(state.open, 1);
  // A call restarts the idle time.
  await pool.forward(ECHO, { text: "again" }, {});
  time.advance(999);
  equal(state.open, 1);
  time.advance(1);
  equal(state.open, 0);
  deepEqual(pool.statuses(), [{ server: "srv", state: "stopped", tools: 1, snapshot: true }]);
  deepEqual(pool.tools(), [ECHO]);
  // Stopped, its tools are still those of its live listing.
  deepEqual(pool.listedLive?.(), new Set(["srv"]));
  // The next call starts it again.
  equal(text(await pool.forward(ECHO, { text: "back" }, {})), "back 300000");
  equal(state.open, 1);
  equal(state.opened, 2);
  await pool.close();
  equal(state.open, 0);
});

Deno.test("a lazy pool without a snapshot starts a server once to list it, then stops it", async () => {
  const { connector, state } = countingConnector();
  const kept = memoryStore();
  const pool = await openLivePool([CONFIG], connector, { start: "lazy", snapshots: kept });
  equal(state.opened, 1);
  equal(state.open, 0);
  deepEqual(pool.statuses(), [{ server: "srv", state: "stopped", tools: 1, snapshot: true }]);
  deepEqual(kept.written, [{ tools: [ECHO] }]);
  // Stopped at once, but listed live: a pin it lacks is a sure mistake.
  deepEqual(pool.listedLive?.(), new Set(["srv"]));
  await pool.close();
});

Deno.test("a lazy server is not stopped while a call waits for it to start", async () => {
  const { connector, state } = countingConnector();
  const time = manualTime();
  const gate = Promise.withResolvers<void>();
  const pool = await lazyPool(connector, time);
  state.gate = gate.promise;
  const called = pool.forward(ECHO, { text: "slow" }, { timeoutMs: 5_000 });
  time.advance(400);
  gate.resolve();
  // What is left of the call's timeout goes to the call.
  equal(text(await called), "slow 4600");
  time.advance(5_000);
  equal(state.open, 0);
  await pool.close();
});

Deno.test("an eager pool never stops a server, whatever idleTimeoutMs says", async () => {
  const { connector, state } = countingConnector();
  const time = manualTime();
  const pool = await openLivePool([CONFIG], connector, {
    idleTimeoutMs: 1,
    now: time.now,
    schedule: time.schedule,
  });
  await pool.forward(ECHO, { text: "x" }, {});
  time.advance(60_000);
  equal(state.open, 1);
  equal(pool.statuses()[0]!.state, "ready");
  await pool.close();
});

Deno.test("a call of a server still starting waits within its own timeout, not the startup timeout", async () => {
  const { connector, state } = countingConnector();
  const gate = Promise.withResolvers<void>();
  state.gate = gate.promise;
  const time = manualTime();
  const pool = await openLivePool([CONFIG], connector, {
    snapshots: memoryStore({ tools: [ECHO] }),
    startupTimeoutMs: 1,
    now: time.now,
    schedule: time.schedule,
  });
  const called = pool.forward(ECHO, { text: "waited" }, { timeoutMs: 60_000 });
  // Far longer than the startup timeout, short of the call's: a wait bounded by the startup
  // timeout would end here (its abort runs now, before the start that the gate holds), and the
  // call would fail with call_timeout.
  time.advance(59_999);
  gate.resolve();
  // The call got what was left of its timeout.
  equal(text(await called), "waited 1");
  await pool.close();
});

Deno.test("a call whose server does not start within the call's timeout says so, naming the server", async () => {
  const { connector, state } = countingConnector();
  state.gate = new Promise(() => {});
  const pool = await openLivePool([CONFIG], connector, {
    snapshots: memoryStore({ tools: [ECHO] }),
    startupTimeoutMs: 1,
  });
  await rejects(
    pool.forward(ECHO, {}, { timeoutMs: 5 }),
    (error) =>
      error instanceof McpError && error.code === "call_timeout" &&
      /the server "srv" did not start within the call's timeout \(5 ms\)/.test(error.message),
  );
  await pool.close();
});

Deno.test("a call whose server fails to start gets the reason and when it is tried again", async () => {
  const pool = await openLivePool(
    [CONFIG],
    () => Promise.reject(new McpError("connect", 'Cannot connect to "srv": refused')),
    { start: "lazy", snapshots: memoryStore({ tools: [ECHO] }) },
  );
  equal(pool.statuses()[0]!.state, "stopped");
  await rejects(
    pool.forward(ECHO, {}, {}),
    (error) =>
      error instanceof McpError &&
      /"srv" is unavailable \(Cannot connect to "srv": refused\); it is restarted in 1 s/.test(
        error.message,
      ),
  );
  await pool.close();
});

Deno.test("a lazily started server that crashes is lost, restarted with backoff, and stopped again once idle", async () => {
  const time = manualTime();
  let open = 0;
  let crash: (() => void) | undefined;
  const connector: Connector = (_config, options) => {
    open += 1;
    const connection = {
      server: "srv",
      identity: { name: "srv", version: "1" },
      closed: false,
      tools: () => Promise.resolve([ECHO]),
      forward: () => Promise.resolve({ content: [{ type: "text", text: "ok" }] }),
      onToolsChanged: () => () => {},
      close: () => {
        if (live) open -= 1;
        live = false;
        return Promise.resolve();
      },
    } as unknown as McpConnection;
    let live = true;
    crash = () => {
      open -= 1;
      live = false;
      options.onError?.(new McpError("disconnected", "the server exited with code 1"));
    };
    return Promise.resolve(connection);
  };
  const pool = await openLivePool([CONFIG], connector, {
    start: "lazy",
    idleTimeoutMs: 10_000,
    restart: { initialDelayMs: 100 },
    snapshots: memoryStore({ tools: [ECHO] }),
    now: time.now,
    schedule: time.schedule,
  });
  await pool.forward(ECHO, {}, {});
  equal(open, 1);
  crash!();
  deepEqual(pool.statuses()[0]!.state, "lost");
  // The backoff's first delay passes: restarted, and up while the idle time runs.
  const ready = poolReaches(pool, pool.statuses()[0]!.server, "ready");
  time.advance(100);
  await ready;
  equal(pool.statuses()[0]!.state, "ready");
  equal(open, 1);
  time.advance(10_000);
  equal(pool.statuses()[0]!.state, "stopped");
  equal(open, 0);
  await pool.close();
});
