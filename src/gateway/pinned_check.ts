/**
 * Pinned ids checked against what the upstreams list. A pin that a server's live listing lacks is
 * a mistake in the config (it would be left out of `tools/list` in silence); one that only the
 * server's snapshot lacks may be a stale snapshot, so it is a warning, judged again once the
 * server lists live. A server with no listing yet cannot say either way.
 *
 * @module
 */

import { closestIds } from "../bridge/suggest.ts";
import type { McpCatalog } from "../catalog.ts";
import type { McpTool } from "../tool.ts";
import { GatewayConfigError } from "./config/parse.ts";
import type { UpstreamStatus } from "./pool/upstreams.ts";

/** A pinned id whose server lists no such tool. */
export interface MissingPin {
  /** The pinned id, `server/tool`. */
  id: string;
  /** Its server. */
  server: string;
  /**
   * What lacks it: the server's `live` listing (the pin is wrong), or only its last `snapshot`
   * (judged again once the server lists live).
   */
  listing: "live" | "snapshot";
  /** The id it most likely meant, when there is one. */
  closest?: string;
}

/**
 * The pinned ids that their server's listing lacks, in the order of `pinned`. A server is judged
 * on its live listing when `live` says it has one, else on its snapshot when its tools come from
 * one; a server with neither (still starting without a snapshot, failed) is not judged yet.
 *
 * @param pinned The pinned ids (the config's or the profile's `pinned`).
 * @param listed Every tool the upstreams list (before quarantine: a pin of a quarantined tool is
 * named by the quarantine, not here).
 * @param catalog The catalogue, for the closest spelling of each missing id.
 * @param statuses The upstreams' states.
 * @param live Whether a server's tools come from a live listing taken since the gateway started.
 * @returns The missing pins.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { missingPins } from "./pinned_check.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const tools = [{ server: "memory", name: "read_graph", description: "", inputSchema: { type: "object" } }];
 * const statuses = [{ server: "memory", state: "stopped" as const, tools: 1, snapshot: true as const }];
 * deepEqual(missingPins(["memory/read_grap"], tools, new McpCatalog(tools), statuses, () => false), [
 *   { id: "memory/read_grap", server: "memory", listing: "snapshot", closest: "memory/read_graph" },
 * ]);
 * ```
 */
export function missingPins(
  pinned: readonly string[],
  listed: readonly McpTool[],
  catalog: McpCatalog,
  statuses: readonly UpstreamStatus[],
  live: (server: string) => boolean,
): MissingPin[] {
  if (pinned.length === 0) return [];
  const judged = new Map<string, MissingPin["listing"]>();
  for (const status of statuses) {
    if (live(status.server)) judged.set(status.server, "live");
    else if (status.snapshot === true) judged.set(status.server, "snapshot");
  }
  const ids = new Set(listed.map((tool) => `${tool.server}/${tool.name}`));
  const missing: MissingPin[] = [];
  for (const id of pinned) {
    const server = id.slice(0, id.indexOf("/"));
    const listing = judged.get(server);
    if (listing === undefined || ids.has(id)) continue;
    // Only a near spelling is offered: another tool of the same server is no suggestion.
    const closest = closestIds(catalog, id).ids[0];
    missing.push({ id, server, listing, ...(closest === undefined ? {} : { closest }) });
  }
  return missing;
}

/**
 * A missing pin as the config error it is (when a live listing lacks it), pointing at its place
 * in the config.
 *
 * @param pin The missing pin.
 * @param pointer Where the config sets it, such as `/unfold/pinned/0`.
 * @returns The error.
 *
 * @example Usage
 * ```ts
 * import { pinError } from "./pinned_check.ts";
 * import { equal } from "node:assert/strict";
 *
 * const pin = { id: "memory/read_grap", server: "memory", listing: "live" as const, closest: "memory/read_graph" };
 * equal(
 *   pinError(pin, "/unfold/pinned/0").message,
 *   'Invalid gateway config at "/unfold/pinned/0": the server "memory" has no tool "read_grap"; the closest id is "memory/read_graph"',
 * );
 * ```
 */
export function pinError(pin: MissingPin, pointer: string): GatewayConfigError {
  return new GatewayConfigError(
    pointer,
    `the server ${JSON.stringify(pin.server)} has no tool ${
      JSON.stringify(pin.id.slice(pin.server.length + 1))
    }${closestText(pin)}`,
  );
}

/**
 * The one line that reports a missing pin while the gateway runs (on stderr).
 *
 * @param pin The missing pin.
 * @returns The line.
 *
 * @example Usage
 * ```ts
 * import { pinNotice } from "./pinned_check.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(
 *   pinNotice({ id: "memory/ghost", server: "memory", listing: "snapshot" }),
 *   'the pinned tool "memory/ghost" is not in the last listing of "memory" (its snapshot): it is listed once "memory" starts and lists it, checked again then',
 * );
 * ```
 */
export function pinNotice(pin: MissingPin): string {
  const id = JSON.stringify(pin.id);
  const server = JSON.stringify(pin.server);
  return pin.listing === "snapshot"
    ? `the pinned tool ${id} is not in the last listing of ${server} (its snapshot): it is listed once ${server} starts and lists it, checked again then`
    : `the pinned tool ${id} is not listed by ${server}, so it is left out of tools/list: correct "unfold.pinned"${
      pin.closest === undefined ? "" : ` (the closest id is ${JSON.stringify(pin.closest)})`
    }`;
}

function closestText(pin: MissingPin): string {
  return pin.closest === undefined ? "" : `; the closest id is ${JSON.stringify(pin.closest)}`;
}
