/**
 * The Deno API in one page: build a catalogue, inject it at a budget, route the model's calls.
 *
 * Run: `deno run examples/quickstart.ts`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Injector, McpCatalog, type McpInvoker } from "../mod.ts";

const catalog = new McpCatalog([
  {
    server: "github",
    name: "create_issue",
    description: "Create a new issue in a GitHub repository.",
    inputSchema: {
      type: "object",
      properties: { repo: { type: "string" }, title: { type: "string" } },
      required: ["repo", "title"],
    },
  },
  {
    server: "slack",
    name: "post_message",
    description: "Post a message to a Slack channel.",
    inputSchema: {
      type: "object",
      properties: { channel: { type: "string" }, text: { type: "string" } },
      required: ["channel", "text"],
    },
  },
]);

const injector = new Injector(catalog, { availableContextTokens: 32_000, toolFormat: "openai" });
const injection = injector.inject()!;
console.log(
  `mode: ${injection.mode}, listing ${injection.promptTokens} of ${injection.inventoryBudgetTokens} tokens`,
);
console.log(injection.prompt);
console.log(JSON.stringify(injection.bridgeTool));

// The model's calls of the bridge tool, as a host would receive them.
const invoker: McpInvoker = {
  invoke: (tool, args) => `(${tool.server}/${tool.name} ran with ${JSON.stringify(args)})`,
};
for (
  const call of [
    '{"action":"search","query":"tell the team on slack"}',
    '{"action":"describe","name":"slack/post_message"}',
    '{"action":"execute","name":"slack/post_message","arguments":{"channel":"#dev","text":"hi"}}',
    '{"action":"execute","name":"post_message"}',
  ]
) {
  const result = await injector.handle(call, invoker);
  console.log(`\n> ${call}\n[${result.action}] ${String(result.toolResult)}`);
}
