/**
 * One upstream as the live pool holds it (its state, tools, connection and restart bookkeeping),
 * and how a listing is taken into it. Internal to `live_pool.ts`.
 *
 * @module
 */

import type { McpConnection } from "../../mcp/types.ts";
import type { ToolIssue } from "../../mcp/tool_list.ts";
import type { McpTool } from "../../tool.ts";
import type { IdleTimer } from "./idle_timer.ts";
import type { ListedUpstream, Snapshot } from "./upstreams.ts";

/**
 * How many refused tools of one server are remembered: a server listing thousands of broken
 * tools must not make the overview or the memory grow with them.
 */
export const MAX_ISSUES = 100;

/** One upstream as the live pool holds it. */
export interface Entry extends ListedUpstream {
  connection?: McpConnection;
  // The server's own instructions, from its last handshake.
  instructions?: string;
  // Set while the tools and instructions are the snapshot's, not yet a live listing's.
  fromSnapshot?: boolean;
  // Set once the server has listed live since the pool opened: its tools are that listing's
  // from then on, even while it is stopped (a lazy stop keeps them, marked as from a snapshot).
  listedLive?: true;
  // Keeps each live listing as the server's snapshot.
  keep?: (current: () => Snapshot) => void;
  // A connection still listing its tools: closed too when the pool closes.
  opening?: McpConnection;
  connecting?: Promise<void>;
  // Tool issues of the listing in progress, and of the last listing.
  pending: ToolIssue[];
  failures: number;
  readyAt: number;
  retryAt: number;
  // Cancels the pending restart.
  cancel?: () => void;
  // Bumped by each attempt, so callbacks of an abandoned connection are ignored.
  epoch: number;
  // Stops a lazily started server once it is idle (absent when the pool is eager).
  idle?: IdleTimer;
}

/** The entry's listing as a snapshot to keep. */
export function snapshotOf(entry: Entry): Snapshot {
  return entry.instructions === undefined
    ? { tools: entry.tools }
    : { tools: entry.tools, instructions: entry.instructions };
}

/** Takes a listing: its tools, its count, and the tools the client left out. */
export function listed(entry: Entry, tools: McpTool[]): void {
  entry.tools = tools;
  entry.status = { ...entry.status, tools: tools.length };
  withIssues(entry);
}

// The tools the client left out of the last listing, as quarantined tools of the server.
function withIssues(entry: Entry): void {
  const dropped = entry.pending.filter((issue) => issue.dropped);
  entry.pending = [];
  if (dropped.length === 0) delete entry.status.quarantined;
  else {
    entry.status.quarantined = dropped.map((issue) => ({
      name: issue.name.slice(0, 80),
      reason: issue.problem,
    }));
  }
}

/**
 * Takes a re-list. One that changed nothing (the same definitions in the same order, the same
 * refused tools) is no change: the entry keeps its tools as they were, the same array, so nothing
 * is rebuilt and a call judged on them is not judged again. Some servers (server-everything) say
 * their list changed right after the handshake. Compared as JSON: linear in the listing's size.
 *
 * @returns Whether the listing changed.
 */
export function relisted(entry: Entry, tools: McpTool[]): boolean {
  const before = entry.tools;
  const status = JSON.stringify(entry.status);
  listed(entry, tools);
  // One text per listing: two arrays print alike exactly when their entries do, in order.
  const same = JSON.stringify(entry.status) === status &&
    JSON.stringify(before) === JSON.stringify(tools);
  if (same) entry.tools = before;
  return !same;
}
