/**
 * The real MCP servers the native tool search examples run against: server-everything,
 * server-filesystem (over a temporary folder holding notes.txt) and server-memory, from npm,
 * started with this Deno as in `deno_host.ts`.
 *
 * @module
 */

import { connectServers, type McpServers } from "../src/mcp/mod.ts"; // "@unfold/unfold/mcp"
import { connectStdio } from "../src/mcp/stdio.ts"; // "@unfold/unfold/stdio"
import type { NativeSession } from "../src/native/mod.ts"; // "@unfold/unfold/native"
import { MemorySessionStore } from "../src/session/memory_store.ts";
import { npmServer } from "./_npm_server.ts";

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

/**
 * What the examples were asked: `--dry-run`, and the task (the first other argument).
 *
 * @returns Whether to only print the request, and the task for the model.
 */
export function exampleArgs(): { dryRun: boolean; task: string } {
  return {
    dryRun: Deno.args.includes("--dry-run"),
    task: Deno.args.find((arg) => !arg.startsWith("--")) ??
      "Read notes.txt in the shared folder and remember its items in the knowledge graph.",
  };
}

/**
 * The conversation's session, in memory: native searches load nothing twice and count.
 *
 * @returns The session.
 */
export function exampleSession(): NativeSession {
  return {
    store: new MemorySessionStore(),
    key: { tenant: "", session: "example" },
    catalogHash: "example",
  };
}
