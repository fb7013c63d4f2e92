/**
 * What the gateway does with an upstream tool the catalogue cannot accept: it is left out and
 * named with the reason (quarantined), and every other tool stays. One odd tool on one server must
 * never cost the user the rest of their servers.
 *
 * @module
 */

import type { RankerFactory } from "../ranking/ranker.ts";
import { McpCatalog } from "../catalog.ts";
import type { McpTool } from "../tool.ts";
import { validateTools } from "../validate_tools.ts";

/** A tool left out of the gateway's catalogue, and why. */
export interface QuarantinedTool {
  /** The upstream it came from. */
  server: string;
  /** Its name as the upstream listed it (capped for display: names can be any length). */
  name: string;
  /** Why the catalogue refused it, in words. */
  reason: string;
}

/** The catalogue of the accepted tools, and the tools left out. */
export interface Admission {
  /** Every tool that could be accepted. */
  catalog: McpCatalog;
  /** The tools left out, in the order they came. */
  quarantined: QuarantinedTool[];
}

// A refused name may be arbitrarily long, and a reason quotes a pointer as deep as the schema:
// both are cut, so what is kept and shown stays bounded.
const SHOWN_NAME_CHARS = 80;
const REASON_CHARS = 300;

/**
 * Builds a catalogue from whatever the upstreams listed: each tool the catalogue refuses (a
 * broken schema, a name too long, a second tool with the same id) is left out and named with the
 * reason; the others form the catalogue.
 *
 * @param tools Every upstream's tools.
 * @param ranker Ranks the catalogue's searches (the lexical ranker when absent).
 * @returns The catalogue and the quarantined tools.
 *
 * @example Usage
 * ```ts
 * import { admitTools } from "./quarantine.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * const { catalog, quarantined } = admitTools([
 *   { server: "a", name: "good", description: "Fine", inputSchema: { type: "object" } },
 *   { server: "a", name: "bad", description: "Odd", inputSchema: { type: "object", properties: { x: { type: 42 } } } },
 * ]);
 * equal(catalog.size, 1);
 * equal(quarantined[0]?.name, "bad");
 * match(quarantined[0]?.reason ?? "", /not a valid JSON Schema/);
 * ```
 */
export function admitTools(tools: readonly McpTool[], ranker?: RankerFactory): Admission {
  const { accepted, refused } = validateTools(tools);
  const quarantined = refused.map(({ index, error }): QuarantinedTool => ({
    server: String(tools[index]?.server),
    name: showName(tools[index]?.name),
    reason: cut(`"${error.field}" ${error.rule}`),
  }));
  const catalog = new McpCatalog(accepted, ranker === undefined ? {} : { ranker });
  return { catalog, quarantined };
}

function cut(text: string): string {
  return text.length <= REASON_CHARS ? text : `${text.slice(0, REASON_CHARS)}…`;
}

function showName(name: unknown): string {
  const text = String(name);
  return text.length <= SHOWN_NAME_CHARS ? text : `${text.slice(0, SHOWN_NAME_CHARS)}…`;
}
