// The native routes against the official SDKs' own types: the typed fixtures (checked by
// `deno check`) must still be what the routes answer, and one whole conversation per API, built
// from the SDK types, replays through the routes.
import { deepEqual, equal, ok } from "node:assert/strict";
import type {
  MessageCreateParamsNonStreaming,
  ToolReferenceBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type {
  NamespaceTool,
  ResponseCreateParamsNonStreaming,
  ResponseFunctionToolCall,
  ResponseInputItem,
  ResponseToolSearchOutputItemParam,
} from "openai/resources/responses/responses";
import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { realServerTools } from "../_data.ts";
import { nativeExchanges, PINNED, QUERY } from "./_exchanges.ts";
import { CLAUDE_MISS_RESULT, CLAUDE_SEARCH_RESULT, CLAUDE_TOOLS } from "./fixtures/claude.ts";
import { OPENAI_MISS, OPENAI_SEARCH_OUTPUT, OPENAI_TOOLS } from "./fixtures/openai.ts";

const app = createApp({ store: new MemorySessionStore() });
const common = { catalog: realServerTools(), budget: { availableContextTokens: 32_000 } };
async function post(path: string, body: unknown) {
  const response = await app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

Deno.test("the typed fixtures are still the routes' answers (else run scripts/build_native_fixtures.ts)", async () => {
  const live = await nativeExchanges();
  deepEqual(live.claude.tools, CLAUDE_TOOLS);
  deepEqual(live.claude.search, CLAUDE_SEARCH_RESULT);
  deepEqual(live.claude.miss, CLAUDE_MISS_RESULT);
  deepEqual(live.openai.tools, OPENAI_TOOLS);
  deepEqual(live.openai.search, OPENAI_SEARCH_OUTPUT);
  deepEqual(live.openai.miss, OPENAI_MISS);
});

Deno.test("a recorded Claude conversation: request, search call, tool_reference answer, call, resolve", async () => {
  const request: MessageCreateParamsNonStreaming = {
    model: "claude-opus-4-5",
    max_tokens: 1024,
    tools: CLAUDE_TOOLS,
    messages: [{ role: "user", content: "File a bug in octo/app: the login button is broken" }],
  };
  const searchCall: ToolUseBlockParam = {
    type: "tool_use",
    id: "toolu_01",
    name: "search_tools",
    input: { query: QUERY },
  };
  const answer = await post("/v1/native/anthropic/search", {
    ...common,
    pinned: [PINNED],
    toolUse: searchCall,
  });
  const toolResult: ToolResultBlockParam = answer.body.toolResult;
  deepEqual(toolResult, CLAUDE_SEARCH_RESULT);
  const names = new Set(request.tools!.map((t) => "name" in t ? t.name : ""));
  const references = (toolResult.content as ToolReferenceBlockParam[]).map((b) => b.tool_name);
  ok(references.includes("github__create_issue"));
  for (const name of references) ok(names.has(name), name);
  const call: ToolUseBlockParam = {
    type: "tool_use",
    id: "toolu_02",
    name: "github__create_issue",
    input: { owner: "octo", repo: "app", title: "The login button is broken" },
  };
  const followUp: MessageCreateParamsNonStreaming = {
    ...request,
    messages: [
      ...request.messages,
      { role: "assistant", content: [searchCall] },
      { role: "user", content: [toolResult] },
      { role: "assistant", content: [call] },
    ],
  };
  equal(followUp.messages.length, 4);
  const resolved = await post("/v1/native/anthropic/resolve", { ...common, toolUse: call });
  equal(resolved.status, 200);
  deepEqual([resolved.body.id, resolved.body.arguments], ["github/create_issue", call.input]);
});

Deno.test("a recorded OpenAI conversation: request, tool_search_call, tool_search_output, function_call, resolve", async () => {
  const request: ResponseCreateParamsNonStreaming = {
    model: "gpt-5.4",
    tools: OPENAI_TOOLS,
    input: [{ role: "user", content: "File a bug in octo/app: the login button is broken" }],
  };
  const searchCall: ResponseInputItem.ToolSearchCall = {
    type: "tool_search_call",
    call_id: "call_01",
    execution: "client",
    arguments: { query: QUERY },
  };
  const answer = await post("/v1/native/openai/search", {
    ...common,
    pinned: [PINNED],
    call: searchCall,
  });
  const output: ResponseToolSearchOutputItemParam = answer.body.output;
  deepEqual(output, OPENAI_SEARCH_OUTPUT);
  const declared = new Map(
    (request.tools as NamespaceTool[]).filter((t) => t.type === "namespace")
      .map((t) => [t.name, new Set(t.tools.map((f) => f.name))]),
  );
  for (const namespace of output.tools as NamespaceTool[]) {
    for (const f of namespace.tools) ok(declared.get(namespace.name)?.has(f.name), f.name);
  }
  const call: ResponseFunctionToolCall = {
    type: "function_call",
    call_id: "call_02",
    namespace: "github",
    name: "github__create_issue",
    arguments: '{"owner":"octo","repo":"app","title":"The login button is broken"}',
  };
  const resolved = await post("/v1/native/openai/resolve", { ...common, call });
  equal(resolved.status, 200);
  equal(resolved.body.id, "github/create_issue");
  const followUp: ResponseCreateParamsNonStreaming = {
    ...request,
    input: [
      ...(request.input as ResponseInputItem[]),
      searchCall,
      output,
      call,
      { type: "function_call_output", call_id: "call_02", output: '{"number":1}' },
    ],
  };
  equal((followUp.input as ResponseInputItem[]).length, 5);
});
