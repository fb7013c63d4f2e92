/**
 * Pinned ids are checked against what the upstreams list: a pin that names no tool of a server
 * that is up is a mistake in the config (it would be left out of `tools/list` in silence), so it
 * is reported as one, with the id it most likely meant.
 *
 * @module
 */

import { closestIds } from "../bridge/suggest.ts";
import type { McpCatalog } from "../catalog.ts";
import { GatewayConfigError } from "./config.ts";
import type { UpstreamStatus } from "./upstreams.ts";

/**
 * The first pinned id that names no tool of its server, when that server is ready (a server
 * still starting or failed cannot say yet); `undefined` when every pin is found or cannot be
 * judged.
 *
 * @param catalog The live catalogue.
 * @param statuses The upstreams' states.
 * @param pinned The config's `unfold.pinned`, in its order.
 * @returns The config error for the first missing pin.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { missingPin } from "./pinned_check.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "memory", name: "read_graph", description: "", inputSchema: { type: "object" } },
 * ]);
 * const ready = [{ server: "memory", state: "ready" as const, tools: 1 }];
 * equal(
 *   missingPin(catalog, ready, ["memory/read_grap"])?.message,
 *   'Invalid gateway config at "/unfold/pinned/0": the server "memory" has no tool "read_grap"; the closest id is "memory/read_graph"',
 * );
 * equal(missingPin(catalog, ready, ["memory/read_graph"]), undefined);
 * ```
 */
export function missingPin(
  catalog: McpCatalog,
  statuses: readonly UpstreamStatus[],
  pinned: readonly string[],
): GatewayConfigError | undefined {
  const ready = new Set(statuses.filter((s) => s.state === "ready").map((s) => s.server));
  for (const [i, id] of pinned.entries()) {
    const slash = id.indexOf("/");
    const server = id.slice(0, slash);
    if (!ready.has(server) || catalog.get(id) !== undefined) continue;
    const near = closestIds(catalog, id).ids[0] ?? catalog.search(id, 1)[0]?.id;
    return new GatewayConfigError(
      `/unfold/pinned/${i}`,
      `the server ${JSON.stringify(server)} has no tool ${JSON.stringify(id.slice(slash + 1))}${
        near === undefined ? "" : `; the closest id is ${JSON.stringify(near)}`
      }`,
    );
  }
  return undefined;
}
