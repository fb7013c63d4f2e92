/**
 * A search never answers an empty list without its reason. While servers are at their first
 * start it waits for every one of them (once per start-up), so the first search of a session with
 * many servers finds the tools of the last one to list; a server whose first start failed is not
 * waited for (nor again while it is tried again), and a search answered without it names it, with
 * its state and why, in the text and in `structuredContent.notSearched`. The upstreams are a
 * connector whose starts end when the test says: events, no timers.
 *
 * @module
 */

import { poolReaches } from "./pool/_reaches.ts";
import { deepEqual, doesNotMatch, equal, match, ok } from "node:assert/strict";
import { Gateway } from "../../src/gateway/gateway.ts";
import { openLivePool } from "../../src/gateway/pool/live_pool.ts";
import type { Connector } from "../../src/gateway/pool/upstreams.ts";
import type { McpConnection } from "../../src/mcp/types.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { McpError } from "../../src/tool_error.ts";
import type { CallToolResultLike } from "../../src/tool_result.ts";

// One server's connection, listing one tool of its own.
function connection(server: string): McpConnection {
  const tool = {
    server,
    name: "act",
    description: `Acts on ${server} records`,
    inputSchema: { type: "object" },
  };
  return {
    server,
    identity: { name: server, version: "1" },
    instructions: undefined,
    closed: false,
    tools: () => Promise.resolve([tool]),
    call: () => Promise.reject(new Error("unused")),
    forward: () => Promise.reject(new Error("unused")),
    onToolsChanged: () => () => {},
    close: () => Promise.resolve(),
  } as unknown as McpConnection;
}

// Starts that end when the test says: `up(name)` lists, `fail(name, why)` ends in a failure.
function scriptedStarts() {
  const pending = new Map<string, PromiseWithResolvers<McpConnection>>();
  let starts = 0;
  const connector: Connector = (config, options) => {
    starts++;
    const start = Promise.withResolvers<McpConnection>();
    pending.set(config.server, start);
    options.signal?.addEventListener("abort", () => start.reject(new McpError("connect", "stop")));
    return start.promise;
  };
  return {
    connector,
    starts: () => starts,
    up: (server: string) => pending.get(server)!.resolve(connection(server)),
    fail: (server: string, why: string) =>
      pending.get(server)!.reject(new McpError("connect", why)),
  };
}

function text(result: CallToolResultLike): string {
  return (result.content?.[0] as { text: string }).text;
}

async function open(servers: string[], connector: Connector) {
  const pool = await openLivePool(
    servers.map((server) => ({ server, url: `http://${server}.invalid/mcp`, headers: {} })),
    connector,
    // Opened at once, before any server has listed (the host's connect window is over), and
    // restarts left unfired: what the first searches get is the subject.
    { startupTimeoutMs: 0, schedule: () => () => {} },
  );
  return await Gateway.open(pool, { options: { pinned: [] }, store: new MemorySessionStore() });
}

const SERVERS = Array.from({ length: 14 }, (_, i) => `s${String(i).padStart(2, "0")}`);

Deno.test("the first search waits for every server at its first start, the last one included", async () => {
  const starts = scriptedStarts();
  const gateway = await open(SERVERS, starts.connector);
  try {
    let answered = false;
    const search = gateway.call("discover", { action: "search", query: "acts on records" })
      .finally(() => answered = true);
    // Listed one by one, the last one last: the search is not answered while one is starting.
    for (const server of SERVERS.slice(0, -1)) {
      starts.up(server);
      await gateway.settled();
    }
    equal(answered, false, "answered before the last server had listed");
    starts.up(SERVERS.at(-1)!);
    const outcome = await search;
    ok(outcome.ok);
    const structured = outcome.result.structuredContent as Record<string, unknown>;
    const found = (structured.matches as { id: string }[]).map((m) => m.id);
    equal(found.length, 5);
    equal(structured.notSearched, undefined);
    doesNotMatch(text(outcome.result), /not searched/);
    // Every server took part: a search of the last one's name finds its tool.
    const last = await gateway.call("mcp", { action: "search", query: SERVERS.at(-1)! });
    ok(last.ok);
    match(text(last.result), new RegExp(`${SERVERS.at(-1)}/act`));
  } finally {
    await gateway.close();
  }
});

Deno.test("a search with every first start failed is no empty answer: it names each server and why", async () => {
  const starts = scriptedStarts();
  const gateway = await open(["github", "slack"], starts.connector);
  try {
    const search = gateway.call("mcp", { action: "search", query: "create an issue" });
    starts.fail("github", "--allow-all conflicts with --allow-read");
    starts.fail("slack", "the server exited (code 1)");
    const outcome = await search;
    ok(outcome.ok);
    const said = text(outcome.result);
    match(
      said,
      /Servers not searched, whose tools cannot be listed now: "github" \(failed: "--allow-all conflicts with --allow-read"\), "slack" \(failed: "the server exited \(code 1\)"\)\./,
    );
    match(said, /Next: search again with other words; the tools of the servers not searched/);
    const structured = outcome.result.structuredContent as Record<string, unknown>;
    deepEqual(structured.matches, []);
    deepEqual(structured.notSearched, [
      { server: "github", state: "failed", detail: "--allow-all conflicts with --allow-read" },
      { server: "slack", state: "failed", detail: "the server exited (code 1)" },
    ]);
    deepEqual(structured.untrusted, ["notSearched"]);
    match(String(structured.next), /cannot be found until they are up/);
    equal((structured.miss as { next: string }).next, structured.next);
  } finally {
    await gateway.close();
  }
});

Deno.test("a server whose first start failed is not waited for again, and is named while it is tried again", async () => {
  const starts = scriptedStarts();
  const restarts: (() => void)[] = [];
  const pool = await openLivePool(
    ["up", "down"].map((server) => ({ server, url: `http://${server}.invalid/mcp`, headers: {} })),
    starts.connector,
    {
      startupTimeoutMs: 0,
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
    starts.up("up");
    const failed = poolReaches(pool, "down", "failed");
    starts.fail("down", "the server exited (code 1)");
    await failed;
    await gateway.settled();
    // The backoff's restart: this start hangs.
    restarts.shift()!();
    await gateway.settled();
    equal(pool.statuses().find((s) => s.server === "down")?.restarting, "failed");
    equal(starts.starts(), 3);
    // Answered while the restart still hangs: nothing else would end a wait.
    const outcome = await gateway.call("mcp", { action: "search", query: "acts on records" });
    ok(outcome.ok);
    match(text(outcome.result), /up\/act/);
    match(
      text(outcome.result),
      /Servers not searched, whose tools cannot be listed now: "down" \(failed: "the server exited \(code 1\)"\)\./,
    );
    doesNotMatch(text(outcome.result), /still starting/);
    const structured = outcome.result.structuredContent as Record<string, unknown>;
    deepEqual(structured.notSearched, [
      { server: "down", state: "failed", detail: "the server exited (code 1)" },
    ]);
    deepEqual(structured.untrusted, ["matches", "notSearched"]);
  } finally {
    await gateway.close();
  }
});

Deno.test("a search answered at its wait's end names the servers still starting, in the text and the structured copy", async () => {
  const starts = scriptedStarts();
  const pool = await openLivePool(
    ["up", "slow"].map((server) => ({ server, url: `http://${server}.invalid/mcp`, headers: {} })),
    starts.connector,
    { startupTimeoutMs: 0, schedule: () => () => {} },
  );
  // The call's timeout ends the wait for the server that never lists.
  const gateway = await Gateway.open(pool, {
    options: { pinned: [], callTimeoutMs: 1 },
    store: new MemorySessionStore(),
  });
  try {
    // Listed once the pool says so (its listing is a step after the start), then built in.
    const listed = poolReaches(pool, "up", "ready");
    starts.up("up");
    await listed;
    await gateway.settled();
    const outcome = await gateway.call("mcp", { action: "search", query: "zqxjv wvkq" });
    ok(outcome.ok);
    match(
      text(outcome.result),
      /Servers still starting, whose tools are not searched yet: "slow"\./,
    );
    match(text(outcome.result), /Next: search again in a moment/);
    const structured = outcome.result.structuredContent as Record<string, unknown>;
    deepEqual(structured.notSearched, [{ server: "slow", state: "starting" }]);
    equal(structured.untrusted, undefined);
  } finally {
    await gateway.close();
  }
});
