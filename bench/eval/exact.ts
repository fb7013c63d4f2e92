/**
 * Exact lookups: how often searching a tool's full id, or a tool name only one server has, puts
 * that tool first (the target: always).
 *
 * @module
 */

import {
  McpCatalog,
  type McpTool,
  type RankerFactory,
  type ServerInfo,
  toolId,
} from "../../mod.ts";

/** Hits at rank 1 out of the lookups tried. */
export interface ExactRate {
  /** Searches for each tool's id `server/name`. */
  ids: { hits: number; total: number };
  /** Searches for each tool name that only one server has. */
  names: { hits: number; total: number };
}

/**
 * Searches every id and every unique name of a catalogue with its default ranker.
 *
 * @param tools The catalogue's tools.
 * @param servers Its server information.
 * @param ranker The ranker (the default one when absent).
 * @returns How many of each kind of lookup ranked the tool first.
 *
 * @example Usage
 * ```ts
 * import { exactRate } from "./exact.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const tools = ["a", "b"].map((server) => ({ server, name: "x", description: "", inputSchema: { type: "object" } }));
 * deepEqual(exactRate(tools), { ids: { hits: 2, total: 2 }, names: { hits: 0, total: 0 } });
 * ```
 */
export function exactRate(
  tools: readonly McpTool[],
  servers: readonly ServerInfo[] = [],
  ranker?: RankerFactory,
): ExactRate {
  const catalog = new McpCatalog(tools, ranker === undefined ? { servers } : { servers, ranker });
  const counts = new Map<string, number>();
  for (const tool of catalog.tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  const rate = { ids: { hits: 0, total: 0 }, names: { hits: 0, total: 0 } };
  for (const tool of catalog.tools) {
    const id = toolId(tool);
    rate.ids.total++;
    if (catalog.search(id, 1)[0]?.id === id) rate.ids.hits++;
    if (counts.get(tool.name) !== 1) continue;
    rate.names.total++;
    if (catalog.search(tool.name, 1)[0]?.id === id) rate.names.hits++;
  }
  return rate;
}

/**
 * Reads a catalogue in the real-servers layout: `{server: [tool without server, ...]}`.
 *
 * @param path The JSON file.
 * @returns The tools, or `undefined` when the file does not exist.
 * @throws {SyntaxError} When the file is not JSON.
 *
 * @example Usage
 * ```ts ignore
 * import { readServerMap } from "./exact.ts";
 *
 * console.log(readServerMap("testdata/real-servers/tools.json")?.length);
 * ```
 */
export function readServerMap(path: string): McpTool[] | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
  const raw = JSON.parse(text) as Record<string, Array<Omit<McpTool, "server">>>;
  return Object.entries(raw).flatMap(([server, list]) =>
    list.map((tool) => ({ ...tool, server, description: tool.description ?? "" }))
  );
}
