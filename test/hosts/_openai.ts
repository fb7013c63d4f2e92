/**
 * The OpenAI Responses API as Codex CLI calls it (`POST /v1/responses`, streamed as SSE), for the
 * scripted model of `_model.ts`. Tools a client-side `tool_search` loaded (its
 * `tool_search_output` items) count as offered, as they are to the model.
 *
 * @module
 */

import {
  type ModelApi,
  type ModelTool,
  type ModelTurn,
  type Reply,
  sse,
  textOf,
} from "./_model.ts";

type Item = Record<string, unknown>;

function functions(raw: unknown, namespace?: string): ModelTool[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry): ModelTool[] => {
    const tool = entry as Item;
    if (tool.type === "namespace") return functions(tool.tools, String(tool.name));
    return [{
      name: String(tool.name ?? tool.type),
      description: typeof tool.description === "string" ? tool.description : "",
      parameters: tool.parameters,
      ...(namespace === undefined ? {} : { namespace }),
      ...(tool.defer_loading === true ? { deferred: true } : {}),
    }];
  });
}

function namespaces(raw: unknown): ModelTurn["namespaces"] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry) => {
    const tool = entry as Item;
    return tool.type === "namespace"
      ? [{ name: String(tool.name), description: String(tool.description ?? "") }]
      : [];
  });
}

function read(body: Record<string, unknown>): ModelTurn {
  const tools = functions(body.tools);
  const spaces = namespaces(body.tools);
  const texts: string[] = [];
  const results: string[] = [];
  const calls: ModelTurn["calls"] = [];
  const byId = new Map<string, ModelTurn["calls"][number]>();
  for (const raw of Array.isArray(body.input) ? body.input : []) {
    const item = raw as Item;
    if (item.type === "message" || (item.type === undefined && "role" in item)) {
      texts.push(textOf(item.content));
    } else if (item.type === "function_call") {
      const call = { name: String(item.name), arguments: parse(item.arguments) };
      calls.push(call);
      byId.set(String(item.call_id), call);
    } else if (item.type === "tool_search_call") {
      const call = { name: "tool_search", arguments: item.arguments };
      calls.push(call);
      byId.set(String(item.call_id), call);
    } else if (item.type === "function_call_output" || item.type === "tool_search_output") {
      if (item.type === "tool_search_output") {
        tools.push(...functions(item.tools));
        spaces.push(...namespaces(item.tools));
      }
      const text = item.type === "tool_search_output"
        ? JSON.stringify(item.tools)
        : textOf(item.output);
      results.push(text);
      const call = byId.get(String(item.call_id));
      if (call !== undefined) Object.assign(call, { result: text });
    }
  }
  const system = typeof body.instructions === "string" ? body.instructions : "";
  return { tools, namespaces: spaces, system, texts, results, calls };
}

function parse(text: unknown): unknown {
  try {
    return typeof text === "string" ? JSON.parse(text) : text;
  } catch {
    return text;
  }
}

function answer(reply: Reply, body: Record<string, unknown>, _path: string, n: number): Response {
  const item: Item = "text" in reply
    ? {
      type: "message",
      id: `msg_${n}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: reply.text, annotations: [] }],
    }
    : "call" in reply
    ? {
      type: "function_call",
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name: reply.call.name,
      ...(reply.call.namespace === undefined ? {} : { namespace: reply.call.namespace }),
      arguments: JSON.stringify(reply.call.arguments),
      status: "completed",
    }
    : {
      type: "tool_search_call",
      id: `ts_${n}`,
      call_id: `call_${n}`,
      execution: "client",
      arguments: { query: reply.toolSearch.query, limit: reply.toolSearch.limit ?? 5 },
      status: "completed",
    };
  const response = {
    id: `resp_${n}`,
    object: "response",
    model: String(body.model ?? "gpt"),
    status: "completed",
    output: [item],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  };
  return sse([
    ["response.created", { type: "response.created", response: { ...response, output: [] } }],
    ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }],
    ["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }],
    ["response.completed", { type: "response.completed", response }],
  ]);
}

/** The OpenAI Responses API. */
export const OPENAI: ModelApi = {
  name: "openai",
  generates: (method, path) => method === "POST" && path === "/v1/responses",
  read,
  answer,
  other(method, path) {
    // Codex asks for the model list once; an empty list keeps its built-in defaults.
    if (method === "GET" && path === "/v1/models") {
      return Response.json({ object: "list", data: [] });
    }
    return undefined;
  },
};
