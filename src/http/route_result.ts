/**
 * The JSON body of a routed bridge action, as `/v1/route` answers it and as the warm-up check
 * renders it.
 *
 * @module
 */

import type { RoutedAction } from "../bridge/action.ts";

/**
 * The response body of `/v1/route` for an action (or a part asked for with `more`): a model
 * error keeps its `error: {code, message, problems?}` and drops the core's top-level copies of
 * them.
 *
 * @param action The routed action.
 * @returns The `RouteResult`.
 *
 * @example Usage
 * ```ts
 * import { routeResult } from "./route_result.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(
 *   routeResult({
 *     action: "error", code: "unknown_tool", message: "m",
 *     error: { code: "unknown_tool", message: "m" }, toolResult: "Error unknown_tool: m",
 *   }),
 *   { action: "error", toolResult: "Error unknown_tool: m", error: { code: "unknown_tool", message: "m" } },
 * );
 * ```
 */
export function routeResult(action: RoutedAction): Record<string, unknown> {
  if (action.action !== "error") return { ...action };
  const { code: _code, message: _message, problems: _problems, ...rest } = action;
  return rest;
}
