/**
 * The gateway's upstream servers as one pool: their tools, each server's state (ready, failed to
 * start, lost), and calls forwarded to the right one. Two strategies: live connections held open
 * (Deno, stdio and HTTP upstreams), and connections opened per call (Workers, where a connection
 * cannot outlive the request that opened it).
 *
 * @module
 */

import type { ConnectOptions, ForwardOptions, McpConnection } from "../mcp/client.ts";
import type { CallToolResultLike } from "../mcp/content.ts";
import { McpError } from "../mcp/error.ts";
import { type McpTool, toolId } from "../tool.ts";
import type { UpstreamConfig } from "./config.ts";

/** Opens a connection to one upstream (`connectStdio` or `connectHttp` behind a config). */
export type Connector = (
  config: UpstreamConfig,
  options: ConnectOptions,
) => Promise<McpConnection>;

/** The state of one upstream. */
export interface UpstreamStatus {
  /** The server's name. */
  server: string;
  /** `ready`: listed and answering; `failed`: could not start or list; `lost`: died since. */
  state: "ready" | "failed" | "lost";
  /** Why it failed or was lost (third-party text: the server's own error output). */
  detail?: string;
  /** How many of its tools are in the catalogue. */
  tools: number;
}

/** The upstreams as one: what the gateway reads and calls. */
export interface UpstreamPool {
  /** The tools of every upstream that listed them. */
  tools(): McpTool[];
  /** Each configured upstream's state, in the order of the config. */
  statuses(): UpstreamStatus[];
  /**
   * Calls a tool on its upstream and returns the result as it came.
   *
   * @param tool The tool.
   * @param args Its arguments.
   * @param options Cancellation, timeout, progress.
   * @returns The upstream's `CallToolResult`.
   * @throws {McpError} `connect` for an upstream that failed to start, `disconnected` for a lost
   * one, and what the connection throws (`tool_error`, `call_timeout`).
   */
  forward(
    tool: McpTool,
    args: Record<string, unknown>,
    options: ForwardOptions,
  ): Promise<CallToolResultLike>;
  /**
   * Listens for changes of tools or states.
   *
   * @param listener Called after each change.
   * @returns A function that stops listening.
   */
  onChange(listener: () => void): () => void;
  /** Closes every connection (stops stdio servers). */
  close(): Promise<void>;
}

/** Options of both pools. */
export interface PoolOptions {
  /** Connection options for every upstream (timeouts, tool issues). */
  connect?: ConnectOptions;
  /**
   * Receives one line per upstream as it connects or fails: what `unfold inspect` prints.
   * @default {nothing}
   */
  onProgress?: (status: UpstreamStatus) => void;
}

interface Entry {
  config: UpstreamConfig;
  status: UpstreamStatus;
  tools: McpTool[];
  connection?: McpConnection;
}

/**
 * Connects to every upstream at once and keeps the connections: one that fails to start or list
 * is recorded as `failed`, one that dies later as `lost`, and the others keep working. Tool-list
 * changes of any upstream are followed.
 *
 * @param configs The upstreams.
 * @param connector Opens one connection.
 * @param options Connection options and a progress listener.
 * @returns The pool, once every upstream has connected or failed.
 *
 * @example Usage
 * ```ts
 * import { openLivePool } from "./upstreams.ts";
 * import { connectTransport } from "../mcp/client.ts";
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
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  const entries = configs.map((config): Entry => ({
    config,
    status: { server: config.server, state: "failed", detail: "not connected yet", tools: 0 },
    tools: [],
  }));
  let closed = false;
  await Promise.all(entries.map(async (entry) => {
    const lost = (error: McpError) => {
      if (error.code !== "disconnected" || closed) return;
      entry.status = { ...entry.status, state: "lost", detail: error.message };
      changed();
    };
    try {
      entry.connection = await connector(entry.config, {
        ...options.connect,
        onError: (error) => {
          lost(error);
          options.connect?.onError?.(error);
        },
      });
      entry.connection.onToolsChanged((tools) => {
        entry.tools = tools;
        entry.status = { ...entry.status, tools: tools.length };
        changed();
      });
      entry.tools = await entry.connection.tools();
      entry.status = { server: entry.config.server, state: "ready", tools: entry.tools.length };
    } catch (error) {
      await entry.connection?.close();
      delete entry.connection;
      entry.status = {
        server: entry.config.server,
        state: "failed",
        detail: message(error),
        tools: 0,
      };
    }
    options.onProgress?.(entry.status);
  }));
  return {
    tools: () => entries.flatMap((entry) => entry.tools),
    statuses: () => entries.map((entry) => ({ ...entry.status })),
    forward(tool, args, forwardOptions) {
      const entry = entries.find((e) => e.config.server === tool.server);
      if (entry?.connection === undefined || entry.status.state !== "ready") {
        return Promise.reject(unavailable(tool, entry?.status));
      }
      return entry.connection.forward(tool.name, args, forwardOptions);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      await Promise.all(entries.map((entry) => entry.connection?.close()));
    },
  };
}

/** Options of {@linkcode openOnDemandPool}. */
export interface OnDemandPoolOptions extends PoolOptions {
  /**
   * How long a listing of the upstreams' tools is reused before `refresh()` lists them again.
   * @default {300_000}
   */
  listingTtlMs?: number;
  /**
   * The clock, in ms since the epoch.
   * @default {Date.now}
   */
  now?: () => number;
}

/** A pool whose connections live only as long as one listing or one call. */
export interface OnDemandPool extends UpstreamPool {
  /**
   * Lists every upstream again when the last listing is older than its time to live.
   *
   * @returns When the listing is fresh.
   */
  refresh(): Promise<void>;
}

/**
 * A pool that connects for each listing and each call and closes right after: for runtimes such
 * as Workers, where a connection cannot outlive its request. Listings are reused for a while.
 *
 * @param configs The upstreams.
 * @param connector Opens one connection.
 * @param options Connection options, progress listener, listing time to live and clock.
 * @returns The pool, after a first listing.
 *
 * @example Usage
 * ```ts
 * import { openOnDemandPool } from "./upstreams.ts";
 * import { McpError } from "../mcp/error.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const pool = await openOnDemandPool([{ server: "down", url: "http://down.invalid/mcp", headers: {} }], () =>
 *   Promise.reject(new McpError("connect", 'Cannot connect to "down": refused')));
 * deepEqual(pool.statuses(), [{ server: "down", state: "failed", detail: 'Cannot connect to "down": refused', tools: 0 }]);
 * ```
 */
export async function openOnDemandPool(
  configs: readonly UpstreamConfig[],
  connector: Connector,
  options: OnDemandPoolOptions = {},
): Promise<OnDemandPool> {
  const ttl = options.listingTtlMs ?? 300_000;
  const now = options.now ?? Date.now;
  const listeners = new Set<() => void>();
  let entries: Entry[] = [];
  let listedAt = -Infinity;
  let listing: Promise<void> | undefined;
  const list = async () => {
    const next = await Promise.all(configs.map(async (config): Promise<Entry> => {
      let connection: McpConnection | undefined;
      let entry: Entry;
      try {
        connection = await connector(config, options.connect ?? {});
        const tools = await connection.tools();
        entry = {
          config,
          tools,
          status: { server: config.server, state: "ready", tools: tools.length },
        };
      } catch (error) {
        entry = {
          config,
          tools: [],
          status: { server: config.server, state: "failed", detail: message(error), tools: 0 },
        };
      } finally {
        await connection?.close();
      }
      options.onProgress?.(entry.status);
      return entry;
    }));
    const before = JSON.stringify(entries.map((e) => [e.status, e.tools]));
    entries = next;
    listedAt = now();
    if (JSON.stringify(entries.map((e) => [e.status, e.tools])) !== before) {
      for (const listener of [...listeners]) listener();
    }
  };
  const refresh = () => {
    if (now() - listedAt < ttl) return Promise.resolve();
    listing ??= list().finally(() => listing = undefined);
    return listing;
  };
  await refresh();
  return {
    refresh,
    tools: () => entries.flatMap((entry) => entry.tools),
    statuses: () => entries.map((entry) => ({ ...entry.status })),
    async forward(tool, args, forwardOptions) {
      const config = configs.find((c) => c.server === tool.server);
      if (config === undefined) throw unavailable(tool, undefined);
      const connection = await connector(config, options.connect ?? {});
      try {
        return await connection.forward(tool.name, args, forwardOptions);
      } finally {
        await connection.close();
      }
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => Promise.resolve(),
  };
}

function unavailable(tool: McpTool, status: UpstreamStatus | undefined): McpError {
  const why = status?.detail ?? "it is not configured";
  return new McpError(
    status?.state === "lost" ? "disconnected" : "connect",
    `Cannot call ${JSON.stringify(toolId(tool))}: the server ${
      JSON.stringify(tool.server)
    } is unavailable (${why})`,
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
