/**
 * The gateway's upstream servers as one pool: their tools, each server's state (ready, failed to
 * start, lost), and calls forwarded to the right one. Two strategies: live connections held open
 * (Deno, stdio and HTTP upstreams), and connections opened per call (Workers, where a connection
 * cannot outlive the request that opened it).
 *
 * @module
 */

import type { ConnectOptions, ForwardOptions, McpConnection } from "../../mcp/types.ts";
import type { CallToolResultLike } from "../../tool_result.ts";
import type { McpTool } from "../../tool.ts";
import type { StartMode, UpstreamConfig } from "../config/parse.ts";
import { McpError } from "../../tool_error.ts";
import { toolId } from "../../tool.ts";
import type { FieldChange, Unapproved } from "../trust/lock.ts";

/** Opens a connection to one upstream (`connectStdio` or `connectHttp` behind a config). */
export type Connector = (
  config: UpstreamConfig,
  options: ConnectOptions,
) => Promise<McpConnection>;

/** The state of one upstream. */
export interface UpstreamStatus {
  /** The server's name. */
  server: string;
  /**
   * `starting`: connecting or listing (at start, or being restarted); `ready`: listed and
   * answering; `failed`: could not start or list; `lost`: died since it was ready; `stopped`:
   * not running because nothing called it (a lazy start, or idle for `idleTimeoutMs`), its tools
   * those of its last listing; the next call starts it; `unavailable`: never started, because
   * its entry cannot be used as the config has it (a variable it names is not set, or the entry
   * itself is invalid; `detail` says what to do, and it is not retried).
   */
  state: "starting" | "ready" | "failed" | "lost" | "needs_login" | "stopped" | "unavailable";
  /** Why it failed or was lost (third-party text: the server's own error output). */
  detail?: string;
  /**
   * Set while it is `starting` again after a start that failed, a connection lost or a sign-in
   * asked for: that state, whose `detail` it keeps. The wait for a first listing is not paid
   * again: no call waits for it, and the overview names it as it was.
   */
  restarting?: "failed" | "lost" | "needs_login";
  /** How many tools it listed. */
  tools: number;
  /** Set while its tools are the last start's snapshot, not yet a live listing. */
  snapshot?: true;
  /** Its tools left out of the catalogue, and why (absent when there are none). */
  quarantined?: { name: string; reason: string }[];
  /**
   * Its pinned tools (`unfold.pinned`) that its listing lacks (absent when there are none):
   * `live` when its live listing lacks one (the pin is wrong, and left out of `tools/list`),
   * `snapshot` when only its last snapshot does (judged again once it lists live).
   */
  missingPins?: { id: string; listing: "live" | "snapshot"; closest?: string }[];
  /**
   * Its tools whose definitions the user has not approved (absent when there are none or trust
   * is off): `held` ones are left out until approved (`pin`), the others work and are flagged.
   * `changes` gives the approved and the live value of each field that differs, for review (the
   * first tools of each server, each value cut; `unfold inspect` shows them whole).
   */
  unapproved?: {
    name: string;
    change: Unapproved["change"];
    fields: string[];
    held: boolean;
    changes?: FieldChange[];
  }[];
}

/** Options of {@linkcode UpstreamPool.forward}. */
export interface PoolForwardOptions extends ForwardOptions {
  /**
   * Judges the tool's definition in its server's live listing (`undefined`: that listing lacks
   * the tool) right before the call goes out, once the server is up; it throws to refuse the
   * call. A pool calls it again when the listing changed while it judged, so what runs is what
   * was judged. Never given a snapshot's definition.
   * @default {no check}
   */
  admit?: (live: McpTool | undefined) => Promise<void>;
}

/** The upstreams as one: what the gateway reads and calls. */
export interface UpstreamPool {
  /** The tools of every upstream that listed them. */
  tools(): McpTool[];
  /** Each configured upstream's state, in the order of the config. */
  statuses(): UpstreamStatus[];
  /**
   * The servers whose tools come from a live listing taken since the pool opened (those ready,
   * and those stopped or lost since); a pool without it lists live only, so its ready servers.
   */
  listedLive?(): Set<string>;
  /**
   * Each ready upstream's own `instructions` (untrusted third-party text), by server; a pool
   * without it has none to give.
   */
  instructions?(): Map<string, string>;
  /**
   * Calls a tool on its upstream and returns the result as it came.
   *
   * @param tool The tool.
   * @param args Its arguments.
   * @param options Cancellation, timeout, progress, and the check of the live definition.
   * @returns The upstream's `CallToolResult`.
   * @throws {McpError} `connect` for an upstream that failed to start, `disconnected` for a lost
   * one, and what the connection throws (`tool_error`, `call_timeout`); what `admit` throws.
   */
  forward(
    tool: McpTool,
    args: Record<string, unknown>,
    options: PoolForwardOptions,
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

/** One upstream's last live listing: its tools and its own instructions. */
export interface Snapshot {
  /** The tools, as listed. */
  tools: McpTool[];
  /** The server's instructions from its handshake, if it gave any. */
  instructions?: string;
}

/** Keeps each upstream's last listing between starts (the Deno CLI keeps them on disk). */
export interface SnapshotStore {
  /** The last listing of an upstream, or `undefined` when none is kept or it is unusable. */
  read(config: UpstreamConfig): Promise<Snapshot | undefined>;
  /** Keeps a listing; failures are the store's to report, never thrown. */
  write(config: UpstreamConfig, snapshot: Snapshot): Promise<void>;
}

/** Options of both pools. */
export interface PoolOptions {
  /**
   * Each upstream's last listing: with one, a server still starting is searched and described
   * from it. The live pool only.
   * @default {none}
   */
  snapshots?: SnapshotStore;
  /** Connection options for every upstream (timeouts, tool issues). */
  connect?: ConnectOptions;
  /**
   * Receives one line per upstream as it connects or fails: what `unfold inspect` prints.
   * @default {nothing}
   */
  onProgress?: (status: UpstreamStatus) => void;
  /**
   * How long the pool waits for the upstreams before it opens anyway (the rest join later).
   * @default {STARTUP_TIMEOUT_MS}
   */
  startupTimeoutMs?: number;
  /**
   * The backoff of restarts: the first delay, doubled at each failure up to the cap.
   * @default {RESTART_DEFAULTS}
   */
  restart?: { initialDelayMs?: number; maxDelayMs?: number };
  /**
   * Runs a restart, an idle stop or the end of a call's wait for its server after a delay, and
   * returns what cancels it (the startup timeout stays on the platform's timer).
   * @default {setTimeout}
   */
  schedule?: (run: () => void, ms: number) => () => void;
  /**
   * When the upstreams run: `"lazy"` starts one at the first call of one of its tools (one
   * without a snapshot is started once to be listed, then stopped) and stops it after
   * `idleTimeoutMs` without a call. The live pool only.
   * @default {"eager"}
   */
  start?: StartMode;
  /**
   * How long a lazily started upstream may go without a call before it is stopped; an eager
   * pool never stops one.
   * @default {IDLE_TIMEOUT_MS}
   */
  idleTimeoutMs?: number;
  /**
   * Eager: the servers listed from a snapshot start once this settles, the others at once: the
   * stdio gateway answers its host from the snapshots before their starts take the CPU (a call
   * of one starts it at once). The live pool only, with `snapshots`.
   * @default {every server starts at once}
   */
  startAfter?: Promise<unknown>;
  /** Stops waiting for the upstreams at start (the caller is shutting down). */
  signal?: AbortSignal;
  /**
   * The clock, in ms since the epoch.
   * @default {Date.now}
   */
  now?: () => number;
}

/** One upstream as a pool last listed it: its config, its state and its tools. */
export interface ListedUpstream {
  /** The upstream's configuration. */
  config: UpstreamConfig;
  /** Its state. */
  status: UpstreamStatus;
  /** Its tools, as last listed. */
  tools: McpTool[];
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
 * import { McpError } from "../../tool_error.ts";
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
  let entries: ListedUpstream[] = [];
  let listedAt = -Infinity;
  let listing: Promise<void> | undefined;
  const list = async () => {
    const next = await Promise.all(configs.map(async (config): Promise<ListedUpstream> => {
      let connection: McpConnection | undefined;
      let entry: ListedUpstream;
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
        // A listing up to listingTtlMs old never stands in for the definition this connection has.
        const { admit, ...rest } = forwardOptions;
        if (admit !== undefined) {
          await admit((await connection.tools()).find((live) => live.name === tool.name));
        }
        return await connection.forward(tool.name, args, rest);
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

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The error of a call to an upstream that cannot take it now.
 *
 * @param tool The tool called.
 * @param status Its server's state, when it is configured.
 * @param retryInMs When the server is tried again.
 * @returns The error.
 */
export function unavailable(
  tool: McpTool,
  status: UpstreamStatus | undefined,
  retryInMs?: number,
): McpError {
  const why = status === undefined
    ? "it is not configured"
    : status.state === "starting"
    ? "it is still starting"
    : status.detail ?? status.state;
  const retry = retryInMs === undefined || status?.state === "starting"
    ? ""
    : `; it is restarted in ${Math.ceil(retryInMs / 1000)} s, try again then`;
  return new McpError(
    status?.state === "lost" ? "disconnected" : "connect",
    `Cannot call ${JSON.stringify(toolId(tool))}: the server ${
      JSON.stringify(tool.server)
    } is unavailable (${why})${retry}`,
  );
}
