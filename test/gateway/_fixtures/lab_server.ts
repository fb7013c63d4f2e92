/**
 * A stdio MCP server for the gateway's fault cases: `wait` runs until cancelled (after one
 * progress notification, so the caller knows it started), `cancelled` answers once the server
 * has seen a cancellation, `grow` adds a tool (the server sends `list_changed`), `exit` makes it
 * exit at the start of the next call of `wait`, so that call is in flight when the server dies.
 *
 * @module
 */

import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const server = new McpServer({ name: "lab", version: "1.0.0" });
const seen = Promise.withResolvers<string>();
let exiting = false;

server.registerTool("wait", { description: "Waits until the call is cancelled" }, async (ctx) => {
  if (exiting) Deno.exit(3);
  const token = ctx.mcpReq._meta?.progressToken;
  if (token !== undefined) {
    await ctx.mcpReq.notify({
      method: "notifications/progress",
      params: { progressToken: token, progress: 1, message: "started" },
    });
  }
  const signal = ctx.mcpReq.signal;
  await new Promise<void>((resolve) => {
    signal.addEventListener("abort", () => {
      seen.resolve(String(signal.reason ?? "cancelled"));
      resolve();
    }, { once: true });
  });
  return { content: [{ type: "text", text: "cancelled" }] };
});
server.registerTool(
  "cancelled",
  { description: "Answers once a call of wait has been cancelled" },
  async () => ({ content: [{ type: "text", text: `seen: ${await seen.promise}` }] }),
);
let grown = 0;
server.registerTool("grow", { description: "Adds a new tool to this server" }, () => {
  grown += 1;
  server.registerTool(`grown-${grown}`, { description: `Grown tool number ${grown}` }, () => ({
    content: [{ type: "text", text: `grown ${grown}` }],
  }));
  return { content: [{ type: "text", text: `now ${grown} grown tools` }] };
});
server.registerTool(
  "exit",
  { description: "Makes this server exit in its next call of wait" },
  () => {
    exiting = true;
    return { content: [{ type: "text", text: "exiting at the next call of wait" }] };
  },
);
await server.connect(new StdioServerTransport());
