/**
 * Waits for servers to start, bounded by the call's own timeout and its cancellation, never by
 * the gateway's startup timeout: a call of a slow server that was listed from its snapshot (or
 * stopped when idle) runs once the server is up, and a bridge call that arrives before a server
 * has listed once waits for its first listing ({@linkcode FIRST_LISTING_WAIT_MS} at most), so
 * the model's first search on a fresh machine finds the tools of servers that `npx -y` is still
 * installing. The doors: stdio and HTTP both reach it through `Gateway.call`.
 *
 * @module
 */

import { within } from "../../utils/deadline.ts";
import type { McpCatalog } from "../../catalog.ts";
import type { McpConnection } from "../../mcp/types.ts";
import { parseBridgeCall } from "../../bridge/parse.ts";
import { McpError } from "../../tool_error.ts";
import { type McpTool, toolId } from "../../tool.ts";
import type { UpstreamStatus } from "./upstreams.ts";

/**
 * The longest a bridge call waits for servers that have not listed yet (less when the call's
 * timeout, `unfold.callTimeoutMs`, is shorter): 30 s, which covers `npx -y` installing a server
 * on a fresh machine (13 s for three servers) within the tool-call timeouts of common hosts.
 */
export const FIRST_LISTING_WAIT_MS = 30_000;

/**
 * The servers at their first start whose tools are not known yet: no live listing and no
 * snapshot. A bridge call waits for them; once a start has failed, none does again (a server
 * `restarting` is named, not waited for), so the wait is paid once per server and start-up.
 *
 * @param statuses The upstreams' states.
 * @returns Their names, in the order of the statuses.
 *
 * @example Usage
 * ```ts
 * import { unlistedServers } from "./start_wait.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(unlistedServers([
 *   { server: "a", state: "starting", tools: 0 },
 *   { server: "b", state: "starting", tools: 3, snapshot: true },
 *   { server: "c", state: "ready", tools: 2 },
 *   { server: "d", state: "starting", tools: 0, restarting: "failed", detail: "exited" },
 * ]), ["a"]);
 * ```
 */
export function unlistedServers(statuses: readonly UpstreamStatus[]): string[] {
  return statuses.filter((s) =>
    s.state === "starting" && s.restarting === undefined && s.snapshot !== true && s.tools === 0
  ).map((s) => s.server);
}

/**
 * The servers that have not listed yet which a bridge call needs: all of them for a search (any
 * may hold the best match), the one named for a describe or an execute whose id is not in the
 * catalogue. Parsed without ranking: the check costs what the call's size does.
 *
 * @param args The bridge arguments.
 * @param catalog The catalogue now.
 * @param limits The bridge's search limits (for the parse).
 * @param unlisted The servers that have not listed yet (see {@linkcode unlistedServers}).
 * @returns The servers the call should wait for (none: answer now).
 *
 * @example Usage
 * ```ts
 * import { unlistedNeeded } from "./start_wait.ts";
 * import { McpCatalog } from "../../catalog.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([{ server: "a", name: "b", description: "B", inputSchema: { type: "object" } }]);
 * const limits = { maxSearchLimit: 20, searchDefaultLimit: 5 };
 * deepEqual(unlistedNeeded({ action: "search", query: "x" }, catalog, limits, ["c", "d"]), ["c", "d"]);
 * deepEqual(unlistedNeeded({ action: "describe", name: "a/b" }, catalog, limits, ["c"]), []);
 * deepEqual(unlistedNeeded({ action: "describe", name: "c/x" }, catalog, limits, ["c", "d"]), ["c"]);
 * ```
 */
export function unlistedNeeded(
  args: unknown,
  catalog: McpCatalog,
  limits: { maxSearchLimit: number; searchDefaultLimit: number },
  unlisted: readonly string[],
): readonly string[] {
  if (unlisted.length === 0) return [];
  const parsed = parseBridgeCall(args, limits);
  if (!parsed.ok) return [];
  if (parsed.value.action === "search") return unlisted;
  const id = parsed.value.name?.trim();
  if (id === undefined || catalog.get(id) !== undefined) return [];
  const server = id.slice(0, Math.max(0, id.indexOf("/")));
  return unlisted.includes(server) ? [server] : [];
}

/**
 * The server a describe or an execute of a held tool waits for when that tool is held on its
 * server's snapshot (the server is starting, listed from its last start): what is held, and why,
 * is told from the live listing, never from a snapshot. Parsed without ranking.
 *
 * @param args The bridge arguments.
 * @param held The ids of the tools held back (trust `pin`).
 * @param statuses The upstreams' states.
 * @param limits The bridge's search limits (for the parse).
 * @returns The server to wait for, or none.
 *
 * @example Usage
 * ```ts
 * import { heldOnSnapshot } from "./start_wait.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const limits = { maxSearchLimit: 20, searchDefaultLimit: 5 };
 * const statuses = [{ server: "a", state: "starting" as const, tools: 1, snapshot: true as const }];
 * deepEqual(heldOnSnapshot({ action: "describe", name: "a/b" }, new Set(["a/b"]), statuses, limits), ["a"]);
 * deepEqual(heldOnSnapshot({ action: "search", query: "b" }, new Set(["a/b"]), statuses, limits), []);
 * ```
 */
export function heldOnSnapshot(
  args: unknown,
  held: { has(id: string): boolean; readonly size: number },
  statuses: readonly UpstreamStatus[],
  limits: { maxSearchLimit: number; searchDefaultLimit: number },
): readonly string[] {
  if (held.size === 0) return [];
  const parsed = parseBridgeCall(args, limits);
  if (!parsed.ok || parsed.value.action === "search") return [];
  const id = parsed.value.name?.trim();
  if (id === undefined || !held.has(id)) return [];
  const server = id.slice(0, Math.max(0, id.indexOf("/")));
  const status = statuses.find((s) => s.server === server);
  return status?.state === "starting" && status.snapshot === true &&
      status.restarting === undefined
    ? [server]
    : [];
}

/** How a wait for a server's start ended. */
export type StartWait = "started" | "timeout" | "aborted";

/**
 * Waits for a start to end (whether the server came up or failed is the pool's to read), for
 * at most `ms`, or until `signal` aborts.
 *
 * @param start The start in progress (it never rejects).
 * @param ms The longest wait, or `null` for no bound.
 * @param signal The call's cancellation.
 * @returns How the wait ended.
 *
 * @example Usage
 * ```ts
 * import { settled } from "./start_wait.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(await settled(Promise.resolve(), 1_000, undefined), "started");
 * equal(await settled(new Promise(() => {}), 1, undefined), "timeout");
 * equal(await settled(new Promise(() => {}), null, AbortSignal.abort()), "aborted");
 * ```
 */
export function settled(
  start: Promise<void>,
  ms: number | null,
  signal: AbortSignal | undefined,
): Promise<StartWait> {
  return within(start, ms, signal).then((waited) => waited.ok ? "started" : waited.reason);
}

/**
 * The error of a call whose server did not start within the call's timeout.
 *
 * @param tool The tool called.
 * @param ms The call's timeout.
 * @returns The error (`call_timeout`).
 *
 * @example Usage
 * ```ts
 * import { notStarted } from "./start_wait.ts";
 * import { equal } from "node:assert/strict";
 *
 * const error = notStarted({ server: "a", name: "b", description: "", inputSchema: { type: "object" } }, 500);
 * equal(error.code, "call_timeout");
 * ```
 */
export function notStarted(tool: McpTool, ms: number): McpError {
  return new McpError(
    "call_timeout",
    `Cannot call ${JSON.stringify(toolId(tool))}: the server ${
      JSON.stringify(tool.server)
    } did not start within the call's timeout (${ms} ms); it is still starting: try again in a moment, or ask the user to check its log`,
  );
}

/**
 * Waits, when its server said its tools changed, for the listing that follows (at most `ms`, or
 * until `signal` aborts): the gateway does not vouch for a definition its server has withdrawn.
 * Costs one property read when no such listing is pending.
 *
 * @param connection The tool's server's connection.
 * @param tool The tool called.
 * @param ms What is left of the call's timeout, or `null` for no bound.
 * @param callMs The call's whole timeout, for the error.
 * @param signal The call's cancellation.
 * @returns Whether it waited.
 * @throws {McpError} `call_timeout` when the listing does not end in time; `tool_error` when it
 * failed; the signal's reason when aborted.
 *
 * @example Usage
 * ```ts
 * import { awaitRelist } from "./start_wait.ts";
 * import { equal, rejects } from "node:assert/strict";
 *
 * const tool = { server: "a", name: "b", description: "", inputSchema: { type: "object" } };
 * equal(await awaitRelist({}, tool, 1_000, 1_000, undefined), false);
 * equal(await awaitRelist({ relisting: Promise.resolve(true) }, tool, 1_000, 1_000, undefined), true);
 * await rejects(awaitRelist({ relisting: Promise.resolve(false) }, tool, 1_000, 1_000, undefined), /could not be read again/);
 * await rejects(awaitRelist({ relisting: new Promise(() => {}) }, tool, 1, 1, undefined), /within the call's timeout/);
 * ```
 */
export async function awaitRelist(
  connection: Pick<McpConnection, "relisting">,
  tool: McpTool,
  ms: number | null,
  callMs: number | null,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const relisting = connection.relisting;
  if (relisting === undefined) return false;
  const waited = await within(relisting, ms, signal);
  const changed = `Cannot call ${JSON.stringify(toolId(tool))}: the server ${
    JSON.stringify(tool.server)
  } announced that its tools changed`;
  if (!waited.ok) {
    if (waited.reason === "aborted") throw signal?.reason;
    throw new McpError(
      "call_timeout",
      `${changed} and did not list them again within the call's timeout (${callMs} ms); try again in a moment`,
    );
  }
  if (!waited.value) {
    throw new McpError(
      "tool_error",
      `${changed}, and they could not be read again; try again in a moment, or ask the user to check its log`,
    );
  }
  return true;
}
