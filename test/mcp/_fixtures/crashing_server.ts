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
  // At once, the call in flight: the client reads the line above to its end before it sees the
  // connection close (as it does for a server that exits at start).
  Deno.exit(3);
  return await Promise.resolve({ content: [] });
});
server.registerTool("echo", { description: "Echoes nothing" }, () => ({
  content: [{ type: "text", text: "alive" }],
}));
await server.connect(new StdioServerTransport());
