/**
 * A Deno host with real MCP servers: server-everything, server-filesystem and server-memory from
 * npm, gathered into one catalogue; the injection at two budgets; then one scripted model turn per
 * server (search → describe → execute) through `Injector.handle`.
 *
 * Run: `deno run -A examples/deno_host.ts` (after `deno install`; the servers are pinned in
 * deno.json and started with this Deno, so nothing else is installed).
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { connectServers } from "../src/mcp/mod.ts";
import { type HandledAction, Injector } from "../mod.ts";
import { connectStdio } from "../src/mcp/stdio.ts"; // "@unfold/unfold/stdio"
import { npmServer } from "./_npm_server.ts";

const work = await Deno.makeTempDir({ prefix: "unfold-host-" });
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

try {
  const counts = [...servers.connections.keys()].map((server) =>
    `${server} (${servers.catalog.tools.filter((tool) => tool.server === server).length} tools)`
  );
  console.log(`Connected ${servers.connections.size} servers: ${counts.join(", ")}`);

  for (const availableContextTokens of [8_000, 200_000]) {
    const injection = new Injector(servers.catalog, { availableContextTokens }).inject()!;
    console.log(
      `\n== Injection with ${
        availableContextTokens.toLocaleString("en-US")
      } tokens of context: level "${injection.mode}", ` +
        `listing ${injection.promptTokens} of ${injection.inventoryBudgetTokens} tokens ` +
        `(the full manifest: ${injection.manifestTokens})`,
    );
    const lines = injection.prompt.split("\n");
    console.log(lines.slice(0, 12).join("\n"));
    if (lines.length > 12) console.log(`… ${lines.length - 12} more lines`);
  }

  // What a model would send as the arguments of the bridge tool, one call at a time.
  const injector = new Injector(servers.catalog, { availableContextTokens: 8_000 });
  const turns: Array<[string, Array<Record<string, unknown>>]> = [
    ["everything", [
      { action: "search", query: "sum of two numbers" },
      { action: "describe", name: "everything/get-sum" },
      { action: "execute", name: "everything/get-sum", arguments: { a: 2, b: 3 } },
    ]],
    ["filesystem", [
      { action: "search", query: "read a text file" },
      { action: "describe", name: "filesystem/read_text_file" },
      {
        action: "execute",
        name: "filesystem/read_text_file",
        arguments: { path: `${work}/notes.txt` },
      },
    ]],
    ["memory", [
      { action: "search", query: "create entities in the knowledge graph" },
      { action: "describe", name: "memory/create_entities" },
      {
        action: "execute",
        name: "memory/create_entities",
        arguments: {
          entities: [{ name: "unfold", entityType: "project", observations: ["ships soon"] }],
        },
      },
    ]],
  ];
  for (const [server, calls] of turns) {
    console.log(`\n== A model turn on ${server}`);
    for (const call of calls) {
      const result = await injector.handle(call, servers.invoker);
      console.log(`> ${JSON.stringify(call)}`);
      console.log(
        `< [${result.action}${failed(result) ? ", error" : ""}] ${show(result.toolResult)}`,
      );
    }
  }
} finally {
  await servers.close();
  await Deno.remove(work, { recursive: true });
}

function failed(result: HandledAction): boolean {
  return result.action === "error" || (result.action === "execute" && result.isError);
}

// The tool result as the model would get it: text as is, blocks and structured results as JSON.
function show(toolResult: unknown): string {
  const text = typeof toolResult === "string" ? toolResult : JSON.stringify(toolResult);
  return text.length > 1_500 ? `${text.slice(0, 1_500)}… (${text.length} characters)` : text;
}
