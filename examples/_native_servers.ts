/**
 * The real MCP servers the native tool search examples run against: server-everything,
 * server-filesystem (over a temporary folder holding notes.txt) and server-memory, from npm,
 * started with this Deno as in `deno_host.ts`.
 *
 * @module
 */

import { connectServers, type McpServers } from "../src/mcp/mod.ts"; // "@unfold/unfold/mcp"
import { connectStdio, type StdioServerConfig } from "../src/mcp/stdio.ts"; // "@unfold/unfold/stdio"

const CONFIG = new URL("../deno.json", import.meta.url).pathname;

function npmServer(
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

/**
 * Starts the three servers over a fresh folder.
 *
 * @returns The servers, the folder, and a `close` that stops them and removes it.
 */
export async function startServers(): Promise<
  { servers: McpServers; work: string; close(): Promise<void> }
> {
  const work = await Deno.makeTempDir({ prefix: "unfold-native-" });
  await Deno.writeTextFile(`${work}/notes.txt`, "Buy milk.\nShip unfold.\n");
  const servers = await connectServers([
    connectStdio(npmServer("everything", "@modelcontextprotocol/server-everything", ["stdio"])),
    connectStdio(npmServer("filesystem", "@modelcontextprotocol/server-filesystem", [work])),
    connectStdio(
      npmServer("memory", "@modelcontextprotocol/server-memory", [], {
        MEMORY_FILE_PATH: `${work}/memory.jsonl`,
      }),
    ),
  ]);
  return {
    servers,
    work,
    close: async () => {
      await servers.close();
      await Deno.remove(work, { recursive: true });
    },
  };
}

/**
 * A tool's MCP result as tool result text for the model.
 *
 * @param result What the invoker returned.
 * @returns Text.
 */
export function resultText(result: unknown): string {
  return typeof result === "string" ? result : JSON.stringify(result);
}
