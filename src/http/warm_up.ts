/**
 * A warm-up run once when a Worker isolate starts: the code every first request runs (reading a
 * body, validating it, a catalogue read back from its store with its index, a search and its
 * rendering) runs once on a tiny catalogue, synchronously and without I/O, so it is compiled before
 * the first request. Workers count startup CPU apart from each request's.
 *
 * @module
 */

import { McpCatalog } from "../catalog.ts";
import { Injector } from "../injector.ts";
import { lexicalRanker } from "../ranking/lexical_ranker.ts";
import type { McpTool } from "../tool.ts";
import { routeResult } from "./route_result.ts";
import { splitMembers } from "./json_members.ts";
import type { RequestSchemas } from "./schemas.ts";

const TOOLS: McpTool[] = [
  {
    server: "warm-up",
    name: "read_file",
    description: "Reads a file. Returns its text.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    server: "warm-up",
    name: "send_message",
    description: "Sends a message to a channel.",
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
  },
];

/**
 * Runs the warm-up.
 *
 * @param schemas The app's schemas.
 * @returns The text of the search it ran (for tests; callers ignore it).
 *
 * @example Usage
 * ```ts
 * import { warmUp } from "./warm_up.ts";
 * import { httpSchemas } from "./schemas.ts";
 * import { DEFAULT_SETTINGS } from "./settings.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(warmUp(httpSchemas(DEFAULT_SETTINGS)).includes("warm-up/read_file"));
 * ```
 */
export function warmUp(schemas: RequestSchemas): string {
  const search = { action: "search", query: "read the text of a file" };
  const text = JSON.stringify({ catalogRef: "0".repeat(64), arguments: search });
  const split = splitMembers(text, ["catalog", "servers"])!;
  schemas.RouteRest.safeParse(JSON.parse(split.rest));
  schemas.InjectRest.safeParse({ catalogRef: "0".repeat(64), budget: {} });
  // A catalogue read back from a store, with its index: validated once, then taken as stored.
  const built = new McpCatalog(TOOLS);
  const ranker = lexicalRanker(built.tools, { servers: [] });
  const snapshot = ranker.snapshot!();
  const stored = JSON.parse(JSON.stringify(built.tools)) as McpCatalog["tools"];
  const catalog = McpCatalog.restore(stored, {
    ranker: (tools, options) =>
      lexicalRanker.restore!(tools, options, snapshot) ?? lexicalRanker(tools, options),
  });
  const action = new Injector(catalog).route(search);
  return JSON.stringify(routeResult(action));
}
