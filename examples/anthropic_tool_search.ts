/**
 * unfold as the tool search of the Claude Messages API, with the official SDK client: every tool
 * of three real MCP servers goes in `tools` with `defer_loading: true`, plus unfold's search tool
 * (its description carries the budgeted overview). When Claude calls the search, unfold answers
 * with `tool_reference` blocks and the API loads those tools; when Claude calls a loaded tool,
 * unfold resolves it to `server/tool` with checked arguments and the host runs it.
 *
 * Run: `ANTHROPIC_API_KEY=… deno run -A examples/anthropic_tool_search.ts "your task"`;
 * `--dry-run` prints the request it would send (and unfold's answer to a sample search) instead.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import Anthropic from "@anthropic-ai/sdk";
import type {
  MessageCreateParamsNonStreaming,
  MessageParam,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import { Injector } from "../mod.ts";
import { CLAUDE_SEARCH_TOOL, claudeResolve, claudeSearch, claudeTools } from "../src/native/mod.ts"; // "@unfold/unfold/native"
import { exampleArgs, exampleSession, resultText, startServers } from "./_native_servers.ts";

const { dryRun, task } = exampleArgs();

const { servers, work, close } = await startServers();
try {
  const injector = new Injector(servers.catalog, { availableContextTokens: 200_000 });
  const tools = claudeTools(injector);
  if (!tools.ok) throw new Error(tools.error);
  const session = exampleSession();
  const request: MessageCreateParamsNonStreaming = {
    model: Deno.env.get("ANTHROPIC_MODEL") ?? "claude-opus-4-5",
    max_tokens: 2048,
    tools: tools.value,
    messages: [{ role: "user", content: `${task} (The shared folder is ${work}.)` }],
  };

  if (dryRun) {
    console.log(JSON.stringify(request, null, 2));
    const sample = await claudeSearch(injector, {
      type: "tool_use",
      id: "toolu_sample",
      name: CLAUDE_SEARCH_TOOL,
      input: { query: "read a text file" },
    });
    console.log(`\nunfold's answer to a sample search:\n${JSON.stringify(sample)}`);
  } else {
    const client = new Anthropic(); // reads ANTHROPIC_API_KEY
    const messages: MessageParam[] = [...request.messages];
    for (let turn = 0; turn < 10; turn++) {
      const response = await client.messages.create({ ...request, messages });
      messages.push({ role: "assistant", content: response.content });
      const results: ToolResultBlockParam[] = [];
      for (const block of response.content) {
        if (block.type === "text") console.log(`claude: ${block.text}`);
        if (block.type !== "tool_use") continue;
        console.log(`> ${block.name} ${JSON.stringify(block.input)}`);
        if (block.name === CLAUDE_SEARCH_TOOL) {
          results.push(await claudeSearch(injector, block, { session }));
          continue;
        }
        const resolved = await claudeResolve(injector, block, session);
        // The host authorises the resolved server/tool here before it runs.
        const content = resolved.ok
          ? resultText(await servers.invoker.invoke(resolved.tool, resolved.arguments))
          : resolved.message;
        results.push({
          type: "tool_result",
          tool_use_id: block.id,
          content,
          ...(resolved.ok ? {} : { is_error: true }),
        });
      }
      for (const result of results) console.log(`< ${JSON.stringify(result.content)}`);
      if (results.length === 0) break;
      messages.push({ role: "user", content: results });
    }
  }
} finally {
  await close();
}
