/**
 * A stdio MCP server (the SDK's `Server`) that serves one server's recorded `tools/list` from
 * `testdata/real-servers/tools.json`, as that server listed it, and answers every call with a
 * short text naming the tool: for the host benches, which need the real servers' catalogues in a
 * real host without their back ends.
 *
 * Run: `deno run --node-modules-dir=auto --allow-read bench/_recorded_server.ts SERVER`
 *
 * @module
 */

import { Server, type Tool } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const name = Deno.args[0] ?? "";
const recorded = JSON.parse(
  Deno.readTextFileSync(new URL("../testdata/real-servers/tools.json", import.meta.url)),
) as Record<string, Tool[]>;
if (!Object.hasOwn(recorded, name)) {
  // deno-lint-ignore no-console
  console.error(`_recorded_server: no recorded server "${name}"`);
  Deno.exit(2);
}
const tools = recorded[name]!;
const server = new Server({ name, version: "recorded" }, { capabilities: { tools: {} } });
server.setRequestHandler("tools/list", () => ({ tools }));
server.setRequestHandler("tools/call", (request) => ({
  content: [{ type: "text", text: `${name}/${request.params.name}: done (recorded server)` }],
}));
await server.connect(new StdioServerTransport());
