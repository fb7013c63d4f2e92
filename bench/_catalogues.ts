/**
 * Catalogues of a given size for the performance benchmarks: the 14 real servers (228 tools), or
 * LiveMCPBench copied under other server names and cut to the size.
 *
 * @module
 */

import type { McpTool, ServerInfo } from "../mod.ts";
import { realServerTools } from "../test/_data.ts";
import { defaultDataDir, loadEvalData } from "./eval/dataset.ts";
import { replicate } from "./eval/replicate.ts";

/** A catalogue and its server information. */
export interface Catalogue {
  /** The tools. */
  tools: McpTool[];
  /** Server information for the servers that have tools. */
  servers: ServerInfo[];
}

/** The 14 real npm MCP servers: 228 tools, no server information. */
export function realServers(): Catalogue {
  return { tools: realServerTools(), servers: [] };
}

/**
 * LiveMCPBench (527 tools, 70 servers) copied as often as needed, cut to `size` tools.
 *
 * @param size The number of tools.
 * @returns The catalogue.
 */
export function liveMcpBenchOf(size: number): Catalogue {
  const dir = defaultDataDir();
  if (dir === undefined) throw new Error("Cannot find the LiveMCPBench data: set UNFOLD_DATA_DIR");
  const data = loadEvalData(dir);
  const copied = replicate(data, Math.ceil(size / data.tools.length));
  const tools = copied.tools.slice(0, size);
  const used = new Set(tools.map((t) => t.server));
  return { tools, servers: copied.servers.filter((s) => used.has(s.server)) };
}

/** The route request the benchmarks send: a search, as a model's first call usually is. */
export const SEARCH = { action: "search", query: "take a screenshot of the web page" } as const;
