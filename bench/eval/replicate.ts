/**
 * A large catalogue from a small one, for measurements at scale: the catalogue copied under other
 * server names (`server-1`, `server-2`, …), with its server information copied alongside.
 *
 * @module
 */

import type { McpTool, ServerInfo } from "../../mod.ts";

/**
 * Copies a catalogue `copies` times; the first copy keeps its server names.
 *
 * @param data The tools and their server information.
 * @param copies How many copies (1: the catalogue itself).
 * @returns The tools and server information of all copies.
 *
 * @example Usage
 * ```ts
 * import { replicate } from "./replicate.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const tools = [{ server: "a", name: "x", description: "", inputSchema: { type: "object" } }];
 * const large = replicate({ tools, servers: [{ server: "a" }] }, 2);
 * deepEqual(large.tools.map((t) => t.server), ["a", "a-1"]);
 * deepEqual(large.servers.map((s) => s.server), ["a", "a-1"]);
 * ```
 */
export function replicate(
  data: { tools: readonly McpTool[]; servers: readonly ServerInfo[] },
  copies: number,
): { tools: McpTool[]; servers: ServerInfo[] } {
  const rename = (server: string, copy: number) => copy === 0 ? server : `${server}-${copy}`;
  const range = Array.from({ length: copies }, (_, copy) => copy);
  return {
    tools: range.flatMap((copy) =>
      data.tools.map((tool) => ({ ...tool, server: rename(tool.server, copy) }))
    ),
    servers: range.flatMap((copy) =>
      data.servers.map((info) => ({ ...info, server: rename(info.server, copy) }))
    ),
  };
}
