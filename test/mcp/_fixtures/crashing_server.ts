/**
 * A stdio MCP server that crashes on demand: its `crash` tool logs to stderr and exits mid-call;
 * started with `--exit-at-start` it logs and exits before the handshake.
 *
 * @module
 */

import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

if (Deno.args.includes("--exit-at-start")) {
  // deno-lint-ignore no-console
  console.error("crashing_server: missing API_KEY, giving up");
  Deno.exit(2);
}

const server = new McpServer({ name: "crashing", version: "1.0.0" });
server.registerTool("crash", { description: "Exits in the middle of the call" }, async () => {
  // deno-lint-ignore no-console
  console.error("crashing_server: out of memory, exiting");
  setTimeout(() => Deno.exit(3), 20);
  await new Promise(() => {});
  return { content: [] };
});
server.registerTool("echo", { description: "Echoes nothing" }, () => ({
  content: [{ type: "text", text: "alive" }],
}));
await server.connect(new StdioServerTransport());
