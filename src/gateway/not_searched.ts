/**
 * What a search at the gateway says of the servers whose tools it could not search: a server with
 * no tool in the catalogue that is not up (still at its first start, failed, being tried again,
 * waiting for a sign-in, unavailable as configured). An answer, a miss above all, is never empty
 * without its reason: the text names each such server with its state, and the structured copy
 * carries the same list (`notSearched`), for hosts that show the model only that copy. Pure.
 *
 * The doors: every bridge or discovery search of `Gateway.call` (stdio, HTTP, Workers), through
 * `ToolCalls.bridge`.
 *
 * @module
 */

import type { BridgeAction } from "../bridge/action.ts";
import type { NotSearched } from "../bridge/output_schema.ts";
import { quote } from "../untrusted.ts";
import { unlistedServers } from "./pool/start_wait.ts";
import type { UpstreamStatus } from "./pool/upstreams.ts";

// How much of a server's own error output a search answer quotes.
const MAX_DETAIL_CHARS = 200;

/**
 * The servers a search cannot search now: no tool of theirs in the catalogue (no live listing,
 * no snapshot) and not up.
 *
 * @param statuses The upstreams' states.
 * @returns Them, in the order of the statuses.
 *
 * @example Usage
 * ```ts
 * import { notSearched } from "./not_searched.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(notSearched([
 *   { server: "a", state: "starting", tools: 0 },
 *   { server: "b", state: "starting", tools: 0, restarting: "failed", detail: "exited" },
 *   { server: "c", state: "ready", tools: 0 },
 *   { server: "d", state: "failed", tools: 2, snapshot: true },
 * ]), [{ server: "a", state: "starting" }, { server: "b", state: "failed", detail: "exited" }]);
 * ```
 */
export function notSearched(statuses: readonly UpstreamStatus[]): NotSearched[] {
  return statuses.filter((s) => s.state !== "ready" && s.tools === 0).map((s) => ({
    server: s.server,
    state: s.restarting ?? s.state,
    ...(s.detail === undefined ? {} : { detail: s.detail.slice(0, MAX_DETAIL_CHARS) }),
  }));
}

/**
 * A search answered while some servers could not be searched, with them named: those at their
 * first start (a miss then says to search again in a moment, not with other words), and those
 * down, with their state and why (a miss then says so, and what to do). Other actions, and a
 * search with every server searched, come back as they were.
 *
 * @param action The bridge's action.
 * @param statuses The upstreams' states.
 * @returns The action, its text naming the servers not searched.
 *
 * @example Usage
 * ```ts
 * import { explainNotSearched } from "./not_searched.ts";
 * import { match } from "node:assert/strict";
 *
 * const action = explainNotSearched(
 *   { action: "search", query: "x", limit: 5, matches: [], toolResult: "No tool matches." },
 *   [{ server: "gh", state: "failed", tools: 0, detail: "spawn gh ENOENT" }],
 * );
 * match(
 *   action.action === "search" ? action.toolResult : "",
 *   /Servers not searched, whose tools cannot be listed now: "gh" \(failed: "spawn gh ENOENT"\)/,
 * );
 * ```
 */
export function explainNotSearched(
  action: BridgeAction,
  statuses: readonly UpstreamStatus[],
): BridgeAction {
  if (action.action !== "search") return action;
  const missing = notSearched(statuses);
  if (missing.length === 0) return action;
  const unlisted = new Set(unlistedServers(statuses));
  const starting = missing.filter((s) => unlisted.has(s.server));
  const down = missing.filter((s) => !unlisted.has(s.server));
  const lines = [
    ...(starting.length === 0 ? [] : [
      `Servers still starting, whose tools are not searched yet: ${
        starting.map((s) => quote(s.server)).join(", ")
      }.`,
    ]),
    ...(down.length === 0 ? [] : [
      `Servers not searched, whose tools cannot be listed now: ${
        down.map((s) =>
          `${quote(s.server)} (${s.state}${s.detail === undefined ? "" : `: ${quote(s.detail)}`})`
        ).join(", ")
      }.`,
    ]),
  ];
  const said = lines.join("\n");
  if (action.miss?.why !== "no_match") {
    return { ...action, toolResult: `${action.toolResult}\n${said}` };
  }
  const next = starting.length > 0
    ? "search again in a moment: their tools join the catalogue when they are ready"
    : `search again with other words; the tools of the servers not searched cannot be found until they are up (${
      down.some((s) => s.state === "unavailable" || s.state === "needs_login")
        ? "some need the user: tell the user what their state says"
        : "they are tried again in the background: search again later, or tell the user"
    })`;
  const end = `\nNext: ${action.miss.next}`;
  return {
    ...action,
    miss: { ...action.miss, next },
    toolResult: action.toolResult.endsWith(end)
      ? `${action.toolResult.slice(0, -end.length)}\n${said}\nNext: ${next}`
      : `${action.toolResult}\n${said}`,
  };
}
