/**
 * The pool of live upstream connections (Deno: stdio and HTTP upstreams held open). Its start is
 * bounded: whatever an upstream does, the pool is ready within the startup timeout, and a server
 * still starting joins later. A server that fails or is lost is restarted in the background and
 * on its next use, with exponential backoff up to a cap, so a crash loop costs a bounded number
 * of processes and log lines. A lazy pool starts a server only when one of its tools is called
 * and stops it when idle.
 *
 * @module
 */

import { within } from "../../utils/deadline.ts";
import type { McpConnection } from "../../mcp/types.ts";
import { DEFAULT_CALL_TIMEOUT_MS } from "../../mcp/_settings.ts";
import type { McpTool } from "../../tool.ts";
import { COMMAND_NOT_FOUND, McpError } from "../../tool_error.ts";
import {
  IDLE_TIMEOUT_MS,
  RESTART_DEFAULTS,
  STARTUP_TIMEOUT_MS,
  type UpstreamConfig,
} from "../config/parse.ts";
import { type Entry, listed, MAX_ISSUES, relisted, snapshotOf } from "./_entry.ts";
import { idleTimer } from "./idle_timer.ts";
import { awaitRelist, notStarted, settled } from "./start_wait.ts";
import { snapshotKeeper } from "./snapshot_keeper.ts";
import {
  type Connector,
  type PoolForwardOptions,
  type PoolOptions,
  unavailable,
  type UpstreamPool,
} from "./upstreams.ts";

// How often a call is judged again when its server's listing changes while it is judged.
const MAX_ADMITS = 3;

// The longest wait between two looks for a stdio server's command that is not installed.
const MISSING_COMMAND_MAX_DELAY_MS = 600_000;

/**
 * Connects to every upstream at once and keeps the connections. Returns once every upstream has
 * connected or failed, or after `startupTimeoutMs`, whichever comes first; the upstreams still
 * starting are `starting` and join with a change. One that fails is `failed`, one that dies later
 * `lost`; both are restarted with backoff. Tool-list changes of any upstream are followed.
 *
 * @param configs The upstreams.
 * @param connector Opens one connection.
 * @param options Connection options, progress listener, startup timeout, restart backoff.
 * @returns The pool.
 *
 * @example Usage
 * ```ts
 * import { openLivePool } from "./live_pool.ts";
 * import { connectTransport } from "../../mcp/client.ts";
 * import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
 * import { deepEqual } from "node:assert/strict";
 *
 * const pool = await openLivePool([{ server: "demo", url: "http://demo.invalid/mcp", headers: {} }], async (config) => {
 *   const server = new McpServer({ name: "demo", version: "1.0.0" });
 *   server.registerTool("hello", { description: "Says hello" }, () => ({ content: [{ type: "text", text: "Hello!" }] }));
 *   const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 *   await server.connect(serverSide);
 *   return connectTransport({ server: config.server, transport: clientSide });
 * });
 * deepEqual(pool.statuses(), [{ server: "demo", state: "ready", tools: 1 }]);
 * await pool.close();
 * ```
 */
export async function openLivePool(
  configs: readonly UpstreamConfig[],
  connector: Connector,
  options: PoolOptions = {},
): Promise<UpstreamPool> {
  const startupMs = options.startupTimeoutMs ?? STARTUP_TIMEOUT_MS;
  const lazy = options.start === "lazy";
  const idleMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const callTimeoutMs = options.connect?.callTimeoutMs === undefined
    ? DEFAULT_CALL_TIMEOUT_MS
    : options.connect.callTimeoutMs;
  const { initialDelayMs, maxDelayMs } = { ...RESTART_DEFAULTS, ...options.restart };
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? ((run: () => void, ms: number) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  });
  // A call's waits (for a start, for a re-list) follow an injected scheduler, so a test's clock
  // bounds them; the open's startup bound stays on the platform's timer, since no one can move a
  // clock before the open returns.
  const timed = options.schedule;
  const listeners = new Set<() => void>();
  let closed = false;
  // Aborted at close: a server still in its handshake then is stopped, not left behind.
  const closing = new AbortController();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  const report = (entry: Entry) => {
    options.onProgress?.({ ...entry.status });
    changed();
  };
  const store = options.snapshots;
  const entries = configs.map((config): Entry => {
    const entry: Entry = {
      config,
      ...(store === undefined
        ? {}
        : { keep: snapshotKeeper((snapshot) => store.write(config, snapshot), () => closed) }),
      status: { server: config.server, state: "starting", tools: 0 },
      tools: [],
      pending: [],
      failures: 0,
      readyAt: 0,
      retryAt: 0,
      epoch: 0,
    };
    if (lazy) entry.idle = idleTimer(() => stop(entry), { idleMs, schedule, now });
    return entry;
  });

  const retry = (entry: Entry) => {
    // A server that stayed up longer than the cap starts its backoff afresh.
    if (entry.readyAt > 0 && now() - entry.readyAt > maxDelayMs) entry.failures = 0;
    entry.failures += 1;
    // A command that is not installed is looked for again, but ever more rarely, up to 10 minutes.
    const missing = entry.status.detail?.includes(`${COMMAND_NOT_FOUND}: `) === true;
    const cap = missing ? Math.max(maxDelayMs, MISSING_COMMAND_MAX_DELAY_MS) : maxDelayMs;
    const delay = Math.min(cap, initialDelayMs * 2 ** Math.min(entry.failures - 1, 30));
    entry.retryAt = now() + delay;
    entry.cancel?.();
    entry.cancel = schedule(() => void start(entry), delay);
  };

  const fail = (entry: Entry, state: "failed" | "lost" | "needs_login", detail: string) => {
    const connection = entry.connection;
    delete entry.connection;
    entry.epoch += 1;
    entry.idle?.disarm();
    void connection?.close().catch(() => {});
    const { restarting: _, ...status } = entry.status;
    entry.status = { ...status, state, detail };
    retry(entry);
    report(entry);
  };

  const start = (entry: Entry): Promise<void> => {
    if (closed) return Promise.resolve();
    if (entry.connecting !== undefined) return entry.connecting;
    entry.cancel?.();
    delete entry.cancel;
    const epoch = ++entry.epoch;
    const current = () => !closed && entry.epoch === epoch;
    const from = entry.status.state;
    if (from !== "starting" && from !== "ready") {
      // A server that failed (or was lost, or needs a sign-in) starts again as what it was: said
      // as that, and waited for by no call for its first listing (that wait is paid once).
      entry.status = {
        ...entry.status,
        state: "starting",
        ...(from === "stopped" || from === "unavailable" ? {} : { restarting: from }),
      };
      report(entry);
    }
    const attempt: Promise<void> = (async () => {
      let connection: McpConnection | undefined;
      try {
        connection = await connector(entry.config, {
          ...options.connect,
          signal: closing.signal,
          onToolIssue: (issue) => {
            if (current() && entry.pending.length < MAX_ISSUES) entry.pending.push(issue);
            options.connect?.onToolIssue?.(issue);
          },
          onError: (error) => {
            if (current() && error.code === "disconnected" && entry.connection !== undefined) {
              fail(entry, "lost", error.message);
            }
            options.connect?.onError?.(error);
          },
        });
        const opened = connection;
        entry.opening = opened;
        opened.onToolsChanged((tools) => {
          if (!current() || entry.connection !== opened || !relisted(entry, tools)) return;
          entry.keep?.(() => snapshotOf(entry));
          changed();
        });
        const tools = await opened.tools().finally(() => delete entry.opening);
        if (!current()) {
          await opened.close().catch(() => {});
          return;
        }
        entry.connection = opened;
        if (opened.instructions === undefined) delete entry.instructions;
        else entry.instructions = opened.instructions;
        entry.readyAt = now();
        entry.status = { server: entry.config.server, state: "ready", tools: 0 };
        delete entry.fromSnapshot;
        entry.listedLive = true;
        listed(entry, tools);
        entry.keep?.(() => snapshotOf(entry));
        report(entry);
        // Lazy: a server started only to be listed (or restarted after a crash, and idle since)
        // stops at once; one started by a call runs until it has been idle long enough.
        if (entry.idle?.idle() === true) stop(entry);
        else entry.idle?.arm();
      } catch (error) {
        await connection?.close().catch(() => {});
        if (!current()) return;
        entry.pending = [];
        // A server that waits for the user to sign in is neither broken nor lost: it is said so,
        // and tried again with the same backoff, so a sign-in made meanwhile is picked up.
        const state = error instanceof McpError && error.code === "needs_login"
          ? "needs_login"
          : entry.status.state === "ready"
          ? "lost"
          : "failed";
        fail(entry, state, message(error));
      }
    })().finally(() => {
      // Cleared only once assigned, even when the connector failed before its first await.
      if (entry.connecting === attempt) delete entry.connecting;
    });
    entry.connecting = attempt;
    return attempt;
  };

  // Lazy: the process goes, its last listing stays, and the next call starts it again.
  function stop(entry: Entry): void {
    if (closed || entry.connection === undefined || entry.status.state !== "ready") return;
    const connection = entry.connection;
    delete entry.connection;
    entry.epoch += 1;
    entry.idle?.disarm();
    entry.retryAt = 0;
    entry.fromSnapshot = true;
    void connection.close().catch(() => {});
    entry.status = { ...entry.status, state: "stopped", snapshot: true };
    report(entry);
  }

  // Waits for a server still starting within the call's own timeout, then calls it with what is
  // left of that timeout: one budget for the whole call, however long the start took.
  const call = async (
    entry: Entry,
    tool: McpTool,
    args: Record<string, unknown>,
    forwardOptions: PoolForwardOptions,
  ) => {
    const { admit, ...options } = forwardOptions;
    const timeoutMs = forwardOptions.timeoutMs === undefined
      ? callTimeoutMs
      : forwardOptions.timeoutMs;
    const began = now();
    let waited = false;
    if (entry.connection === undefined || entry.status.state !== "ready") {
      // On its next use a stopped or lost server is started at once when its backoff allows.
      if (entry.connecting === undefined && now() >= entry.retryAt) void start(entry);
      if (entry.connecting !== undefined) {
        waited = true;
        const outcome = await settled(entry.connecting, timeoutMs, options.signal, timed);
        if (outcome === "aborted") throw options.signal?.reason;
        if (outcome === "timeout") throw notStarted(tool, timeoutMs!);
      }
    }
    const up = () => {
      if (entry.connection === undefined || entry.status.state !== "ready") {
        throw unavailable(tool, entry.status, Math.max(0, entry.retryAt - now()));
      }
      return entry.connection;
    };
    let connection = up();
    // Once ready, the entry's tools are its live listing: the call is judged on that, and again
    // when a re-list came in while it was judged, so what goes out is what was judged. A server
    // that said its tools changed is judged on the listing that follows, once it has come.
    const left = () => timeoutMs === null ? null : Math.max(0, timeoutMs - (now() - began));
    for (let admits = 0; admit !== undefined; admits++) {
      if (admits === MAX_ADMITS) throw relisting(tool);
      if (await awaitRelist(connection, tool, left(), timeoutMs, options.signal, timed)) {
        connection = up();
      }
      const judged = entry.tools;
      await admit(judged.find((live) => live.name === tool.name));
      connection = up();
      waited = true;
      if (entry.tools === judged && connection.relisting === undefined) break;
    }
    const rest = left();
    return await connection.forward(
      tool.name,
      args,
      waited ? { ...options, timeoutMs: rest === null ? null : Math.max(1, rest) } : options,
    );
  };

  // Eager: every server is spawned before anything is awaited, its last listing read meanwhile;
  // with `startAfter`, the listings are read first and the servers that have one wait for it.
  // Lazy: the last listing decides whether a server starts at all, so it is read first.
  const later = lazy || store === undefined ? undefined : options.startAfter;
  const eagerly = lazy || later !== undefined ? [] : entries.map(start);
  // A server still starting is searched and described from its last listing.
  if (store !== undefined) {
    await Promise.all(entries.map(async (entry) => {
      const snapshot = await store.read(entry.config).catch(() => undefined);
      // A live listing that came in first is newer than any snapshot.
      if (snapshot === undefined || entry.listedLive === true) return;
      entry.fromSnapshot = true;
      entry.tools = snapshot.tools;
      entry.status = {
        ...entry.status,
        // Lazy: a listed server is not started until it is called.
        ...(lazy ? { state: "stopped" as const } : {}),
        tools: snapshot.tools.length,
        snapshot: true,
      };
      if (snapshot.instructions !== undefined) entry.instructions = snapshot.instructions;
    }));
  }
  const attempts = lazy
    ? entries.map((entry) => entry.status.state === "stopped" ? Promise.resolve() : start(entry))
    : later === undefined
    ? eagerly
    : entries.map((entry) => {
      if (entry.fromSnapshot !== true) return start(entry);
      // Unless a call started it first (or the pool closed), it starts once the caller says.
      const run = () => {
        if (entry.epoch === 0) void start(entry);
      };
      void later.then(run, run);
      return Promise.resolve();
    });
  // Only the servers without a snapshot are waited for: the others are answered from it already.
  const started = Promise.all(attempts.filter((_, i) => entries[i]!.fromSnapshot !== true));
  await within(started, startupMs, options.signal);

  return {
    tools: () => entries.flatMap((entry) => entry.tools),
    statuses: () => entries.map((entry) => structuredClone(entry.status)),
    listedLive: () =>
      new Set(entries.filter((entry) => entry.listedLive).map((entry) => entry.config.server)),
    instructions: () =>
      new Map(
        entries.flatMap((entry) =>
          (entry.status.state === "ready" || entry.fromSnapshot === true) &&
            entry.instructions !== undefined
            ? [[entry.config.server, entry.instructions]]
            : []
        ),
      ),
    async forward(tool, args, forwardOptions) {
      const entry = entries.find((e) => e.config.server === tool.server);
      if (entry === undefined) throw unavailable(tool, undefined);
      // Counted from before the start it may wait for, so the server is not stopped under it.
      const end = entry.idle?.begin();
      try {
        return await call(entry, tool, args, forwardOptions);
      } finally {
        end?.();
      }
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      closed = true;
      closing.abort();
      listeners.clear();
      for (const entry of entries) {
        entry.cancel?.();
        entry.idle?.disarm();
      }
      await Promise.all([
        ...entries.flatMap((entry) =>
          [entry.connection, entry.opening].map((open) => open?.close().catch(() => {}))
        ),
        // The starts still in their handshake, abandoned above: done once their servers stop.
        ...entries.map((entry) => entry.opening === undefined ? entry.connecting : undefined),
      ]);
    },
  };
}

function relisting(tool: McpTool): McpError {
  return new McpError(
    "tool_error",
    `Cannot call ${
      JSON.stringify(`${tool.server}/${tool.name}`)
    }: its server changed its tools again and again while the call was checked; try again in a moment`,
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
