/**
 * Prints the disclosure level, listing tokens and fixed overhead chosen for the 14 real npm MCP
 * servers (228 tools) at several context sizes, for the README.
 *
 * Run: `deno run -A bench/levels.ts [path/to/real-servers/tools.json]`
 *
 * @module
 */

import { estimateTokens } from "../src/tokens.ts";
import { Injector, McpCatalog, type McpTool } from "../mod.ts";

const path = Deno.args[0] ??
  new URL("../testdata/real-servers/tools.json", import.meta.url).pathname;
const raw = JSON.parse(Deno.readTextFileSync(path)) as Record<
  string,
  Array<Omit<McpTool, "server">>
>;
const tools = Object.entries(raw).flatMap(([server, list]) =>
  list.map((t) => ({ ...t, server, description: t.description ?? "" }))
);
const catalog = new McpCatalog(tools);
const everyDefinition = estimateTokens(JSON.stringify(catalog.tools.map((t) => ({
  type: "function",
  function: { name: t.name, description: t.description, parameters: t.inputSchema },
}))));
const rows = [[
  "available",
  "budget",
  "mode",
  "listing tokens",
  "manifest tokens",
  "overhead tokens",
]];
for (const available of [8_000, 32_000, 100_000, 200_000, 1_000_000]) {
  const i = new Injector(catalog, { availableContextTokens: available }).inject()!;
  rows.push(
    [available, i.inventoryBudgetTokens, i.mode, i.promptTokens, i.manifestTokens, i.overheadTokens]
      .map(String),
  );
}
// deno-lint-ignore no-console
console.log(
  `${catalog.size} tools from ${new Set(tools.map((t) => t.server)).size} servers; ` +
    `every definition in OpenAI format: ${everyDefinition} estimated tokens\n` +
    rows.map((r) => `| ${r.join(" | ")} |`).join("\n"),
);
