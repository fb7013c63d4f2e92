/**
 * unfold as the client-run tool search of the OpenAI Responses API, with the official SDK client:
 * one `namespace` per MCP server of three real servers, its functions with `defer_loading: true`,
 * plus a `tool_search` tool with `execution: "client"`. When the model emits a `tool_search_call`,
 * unfold answers with a `tool_search_output` that loads the tools found; when it calls a loaded
 * function, unfold resolves it to `server/tool` with checked arguments and the host runs it.
 *
 * Run: `OPENAI_API_KEY=… deno run -A examples/openai_tool_search.ts "your task"`; `--dry-run`
 * prints the request it would send (and unfold's answer to a sample search) instead.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import OpenAI from "openai";
import type {
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
} from "openai/resources/responses/responses";
import { Injector } from "../mod.ts";
import { openAiResolve, openAiSearch, openAiTools } from "../src/native/mod.ts"; // "@unfold/unfold/native"
import { exampleArgs, exampleSession, resultText, startServers } from "./_native_servers.ts";

const { dryRun, task } = exampleArgs();

const { servers, work, close } = await startServers();
try {
  const injector = new Injector(servers.catalog, { availableContextTokens: 200_000 });
  const tools = openAiTools(injector);
  if (!tools.ok) throw new Error(tools.error);
  const session = exampleSession();
  const input: ResponseInputItem[] = [
    { role: "user", content: `${task} (The shared folder is ${work}.)` },
  ];
  const request: ResponseCreateParamsNonStreaming = {
    model: Deno.env.get("OPENAI_MODEL") ?? "gpt-5.4",
    tools: tools.value,
    input,
  };

  if (dryRun) {
    console.log(JSON.stringify(request, null, 2));
    const sample = await openAiSearch(injector, {
      type: "tool_search_call",
      call_id: "call_sample",
      arguments: { query: "read a text file" },
    });
    console.log(`\nunfold's answer to a sample search:\n${JSON.stringify(sample)}`);
  } else {
    const client = new OpenAI(); // reads OPENAI_API_KEY
    for (let turn = 0; turn < 10; turn++) {
      const response = await client.responses.create({ ...request, input });
      if (response.output_text) console.log(`model: ${response.output_text}`);
      let answered = 0;
      for (const item of response.output) {
        if (item.type === "tool_search_call" && item.execution === "client") {
          console.log(`> tool_search ${JSON.stringify(item.arguments)}`);
          const answer = await openAiSearch(injector, item, { session });
          input.push(item, answer.output);
          // A miss loads nothing: the model reads why from a developer note.
          if (answer.miss) input.push({ role: "developer", content: answer.miss });
          console.log(`< ${answer.miss ?? JSON.stringify(answer.output.tools.map((t) => t.name))}`);
          answered++;
        } else if (item.type === "function_call") {
          console.log(`> ${item.name} ${item.arguments}`);
          const resolved = await openAiResolve(injector, item, session);
          // The host authorises the resolved server/tool here before it runs.
          const output = resolved.ok
            ? resultText(await servers.invoker.invoke(resolved.tool, resolved.arguments))
            : resolved.message;
          input.push(item, { type: "function_call_output", call_id: item.call_id, output });
          console.log(`< ${output.slice(0, 500)}`);
          answered++;
        } else if (item.type === "reasoning") input.push(item); // reasoning models need it back
      }
      if (answered === 0) break;
    }
  }
} finally {
  await close();
}
