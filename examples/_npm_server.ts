/**
 * An npm MCP server pinned in deno.json, run by this Deno: the examples' way to start the
 * reference servers without Node. A host outside this repository would write
 * `{ command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", dir] }` instead.
 *
 * @module
 */

import type { StdioServerConfig } from "../src/mcp/stdio.ts"; // "@unfold/unfold/stdio"

const CONFIG = new URL("../deno.json", import.meta.url).pathname;

/**
 * The stdio config that runs one pinned npm MCP server with this Deno.
 *
 * @param server The server's name in tool ids.
 * @param pkg The npm package, as pinned in deno.json.
 * @param args The server's own arguments.
 * @param env Its environment (DENO_DIR is passed on when set).
 * @returns The config for `connectStdio`.
 */
export function npmServer(
  server: string,
  pkg: string,
  args: string[] = [],
  env: Record<string, string> = {},
): StdioServerConfig {
  const denoDir = Deno.env.get("DENO_DIR");
  return {
    server,
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--config", CONFIG, `npm:${pkg}`, ...args],
    env: { ...env, ...(denoDir === undefined ? {} : { DENO_DIR: denoDir }) },
  };
}
