/**
 * The Anthropic Messages API as Claude Code calls it (`POST /v1/messages`, streamed as SSE when
 * `stream` is set; `POST /v1/messages/count_tokens`), for the scripted model of `_model.ts`.
 *
 * @module
 */

import { type ModelApi, type ModelTurn, type Reply, sse, textOf } from "./_model.ts";

type Block = Record<string, unknown>;

function blocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter((b) => typeof b === "object" && b !== null) : [];
}

function read(body: Record<string, unknown>): ModelTurn {
  const tools = (Array.isArray(body.tools) ? body.tools : []).map((raw) => {
    const tool = raw as Block;
    return {
      name: String(tool.name ?? tool.type),
      description: typeof tool.description === "string" ? tool.description : "",
      parameters: tool.input_schema,
      ...(tool.defer_loading === true ? { deferred: true } : {}),
    };
  });
  const system = blocks(body.system).map((b) => textOf(b)).join("\n");
  const texts: string[] = [];
  const results: string[] = [];
  const calls: ModelTurn["calls"] = [];
  const byId = new Map<string, ModelTurn["calls"][number]>();
  for (const raw of Array.isArray(body.messages) ? body.messages : []) {
    const message = raw as Block;
    for (const block of blocks(message.content)) {
      if (block.type === "text") texts.push(String(block.text));
      else if (block.type === "tool_use") {
        const call = { name: String(block.name), arguments: block.input };
        calls.push(call);
        byId.set(String(block.id), call);
      } else if (block.type === "tool_result") {
        const text = textOf(block.content);
        results.push(text);
        const call = byId.get(String(block.tool_use_id));
        if (call !== undefined) Object.assign(call, { result: text });
      }
    }
  }
  return { tools, namespaces: [], system, texts, results, calls };
}

function answer(reply: Reply, body: Record<string, unknown>, _path: string, n: number): Response {
  const content: Block[] = "text" in reply
    ? [{ type: "text", text: reply.text }]
    : "call" in reply
    ? [{ type: "tool_use", id: `toolu_${n}`, name: reply.call.name, input: reply.call.arguments }]
    : [{
      type: "tool_use",
      id: `toolu_${n}`,
      name: "ToolSearch",
      input: { query: reply.toolSearch.query, max_results: reply.toolSearch.limit ?? 5 },
    }];
  const stop = "text" in reply ? "end_turn" : "tool_use";
  const message = {
    id: `msg_${n}`,
    type: "message",
    role: "assistant",
    model: String(body.model ?? "claude"),
    content: [] as Block[],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
  if (body.stream !== true) {
    return Response.json({ ...message, content, stop_reason: stop });
  }
  const events: [string, unknown][] = [["message_start", { type: "message_start", message }]];
  content.forEach((block, index) => {
    if (block.type === "text") {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      }]);
    } else {
      events.push(["content_block_start", {
        type: "content_block_start",
        index,
        content_block: { ...block, input: {} },
      }]);
      events.push(["content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      }]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", {
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: 1 },
  }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return sse(events);
}

/** The Anthropic Messages API. */
export const ANTHROPIC: ModelApi = {
  name: "anthropic",
  generates: (method, path) => method === "POST" && path === "/v1/messages",
  read,
  answer,
  other(method, path) {
    if (method === "POST" && path === "/v1/messages/count_tokens") {
      return Response.json({ input_tokens: 1 });
    }
    return undefined;
  },
};
