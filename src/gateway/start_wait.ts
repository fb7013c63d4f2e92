/**
 * A call's wait for its server to start: bounded by the call's own timeout and its cancellation,
 * never by the gateway's startup timeout, so a call of a slow server that was listed from its
 * snapshot (or stopped when idle) runs once the server is up.
 *
 * @module
 */

import { within } from "../_deadline.ts";
import { McpError } from "../tool_error.ts";
import { type McpTool, toolId } from "../tool.ts";

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
