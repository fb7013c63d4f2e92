/**
 * A scripted model on 127.0.0.1 for the real hosts: one HTTP server per host run, speaking one
 * model API (`_anthropic.ts`, `_openai.ts`, `_gemini.ts`), that logs every request the host sends
 * and answers each from a script over the request as the model would read it (its tools, its
 * system prompt, the texts and tool results of the conversation). Strict: a path or a body the API
 * does not define is answered 404 / 400 and logged, so a test sees it.
 *
 * @module
 */

/** A tool as the model is offered it. */
export interface ModelTool {
  /** Its name as the model calls it. */
  name: string;
  /** Its description. */
  description: string;
  /** Its parameters' JSON Schema. */
  parameters: unknown;
  /** Its namespace, where the API has them (OpenAI Responses). */
  namespace?: string;
  /** Whether the host sends it deferred (Claude `defer_loading`). */
  deferred?: boolean;
}

/** One request as the model reads it. */
export interface ModelTurn {
  /** The tools offered, in order (a namespace's tools with their namespace set). */
  tools: ModelTool[];
  /** Namespaces and their descriptions (OpenAI Responses). */
  namespaces: { name: string; description: string }[];
  /** The system prompt (Anthropic `system`, OpenAI `instructions`, Gemini `systemInstruction`). */
  system: string;
  /** Every text of the conversation that is not a tool result, in order (user and developer turns). */
  texts: string[];
  /** Every tool result, in order, as text (a structured one as its JSON). */
  results: string[];
  /** The tool calls the model made so far, in order, each with its result once it came. */
  calls: { name: string; arguments: unknown; result?: string }[];
}

/** What the script answers: a tool call, the host's own tool search, or text. */
export type Reply =
  | { call: { name: string; arguments: Record<string, unknown>; namespace?: string } }
  | { toolSearch: { query: string; limit?: number } }
  | { text: string };

/** Decides the next reply from the request (a promise of it: a model takes time to think). */
export type Script = (turn: ModelTurn) => Reply | Promise<Reply>;

/** One model API: how its requests read and how its answers are written. */
export interface ModelApi {
  /** Its name in logs. */
  readonly name: string;
  /** Whether a method and path is a generation request of the API. */
  generates(method: string, path: string): boolean;
  /** The request as the model reads it. */
  read(body: Record<string, unknown>): ModelTurn;
  /** The answer, streamed as the API streams (or not, when the request did not ask). */
  answer(reply: Reply, body: Record<string, unknown>, path: string, n: number): Response;
  /** Other requests the API defines, answered without the script (token counts, …). */
  other?(method: string, path: string, body: unknown): Response | undefined;
}

/** A request the host sent. */
export interface Logged {
  /** `POST /v1/messages`, … */
  method: string;
  /** The path with its query. */
  path: string;
  /** The parsed body (JSON), or `undefined`. */
  body: unknown;
  /** The request as the model read it, for generation requests. */
  turn?: ModelTurn;
  /** The reply given, for generation requests. */
  reply?: Reply;
  /** The status answered. */
  status: number;
}

/** A running scripted model. */
export interface ModelServer extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Every request so far. */
  log: Logged[];
  /** The generation requests so far. */
  turns(): ModelTurn[];
  /** Stops the server. */
  close(): Promise<void>;
}

// A body larger than this is refused: a host sends a few hundred KiB at most.
const MAX_BODY = 32 * 1024 * 1024;

/**
 * Serves a scripted model.
 *
 * @param api The API it speaks.
 * @param script What it answers.
 * @returns The server, listening on a port the system chose.
 */
export function serveModel(api: ModelApi, script: Script): ModelServer {
  const log: Logged[] = [];
  let n = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname + url.search;
    const text = await req.text();
    if (text.length > MAX_BODY) {
      return record(req.method, path, undefined, new Response(null, { status: 413 }));
    }
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      return record(req.method, path, text, new Response("not JSON", { status: 400 }));
    }
    if (api.generates(req.method, url.pathname)) {
      if (typeof body !== "object" || body === null) {
        return record(req.method, path, body, new Response("no body", { status: 400 }));
      }
      const turn = api.read(body as Record<string, unknown>);
      const reply = await script(turn);
      const response = api.answer(reply, body as Record<string, unknown>, url.pathname, n++);
      log.push({ method: req.method, path, body, turn, reply, status: response.status });
      return response;
    }
    const other = api.other?.(req.method, url.pathname, body);
    return record(req.method, path, body, other ?? new Response("not found", { status: 404 }));
  });
  function record(method: string, path: string, body: unknown, response: Response): Response {
    log.push({ method, path, body, status: response.status });
    return response;
  }
  const close = async () => {
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    log,
    turns: () => log.flatMap((entry) => entry.turn === undefined ? [] : [entry.turn]),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * A stream of server-sent events, as the APIs stream.
 *
 * @param events Each event's name (or `undefined` for a data-only event) and data.
 * @returns The response.
 */
export function sse(events: readonly [string | undefined, unknown][]): Response {
  const text = events.map(([event, data]) =>
    `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`
  ).join("");
  return new Response(text, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** The text of a tool result's content, whatever shape the API gives it. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(textOf).join("\n");
  if (typeof content === "object" && content !== null) {
    const block = content as Record<string, unknown>;
    if (typeof block.text === "string") return block.text;
    if (block.type === "tool_reference") return `tool_reference:${String(block.tool_name)}`;
    return JSON.stringify(content);
  }
  return String(content);
}

/**
 * The script of a search → describe → execute round trip through the bridge: it searches for a
 * query, describes the first id found, executes it with the arguments given, then says what it
 * got. A request without the bridge is answered with text.
 *
 * @param bridge Whether a tool is the bridge (by the name the host gives it).
 * @param step The query and the arguments of the execute.
 * @returns The script.
 */
export function roundTrip(
  bridge: (tool: ModelTool) => boolean,
  step: {
    query: string;
    arguments: Record<string, unknown>;
    extra?: Record<string, unknown>;
    /**
     * Where the bridge is deferred: what to ask the host's own tool search for. A search that
     * finds nothing (the host's servers may still be starting) is asked again once `ready`
     * resolved, then at once on each later request, 40 searches at most.
     */
    discover?: string;
    /** Resolves once the gateway has listed its servers (an event, never a timer). */
    ready?: () => Promise<void>;
    /** The read-only discovery tool, used for search and describe when the host offers it. */
    readOnly?: (tool: ModelTool) => boolean;
  },
): Script {
  return async (turn) => {
    const tool = turn.tools.find(bridge);
    if (tool === undefined) {
      const searched = turn.calls.filter((c) => HOST_SEARCH.test(c.name)).length;
      const offered = turn.tools.some((t) => HOST_SEARCH.test(t.name));
      if (step.discover !== undefined && offered && searched < 40) {
        if (searched > 0) await step.ready?.();
        return { toolSearch: { query: step.discover } };
      }
      return { text: "done" };
    }
    const looker = step.readOnly === undefined ? undefined : turn.tools.find(step.readOnly);
    const names = new Set([tool.name, looker?.name]);
    const calls = turn.calls.filter((call) => names.has(call.name));
    const call = (args: Record<string, unknown>) => {
      const using = args.action === "execute" ? tool : looker ?? tool;
      return {
        call: {
          name: using.name,
          arguments: { ...args, ...step.extra },
          ...(using.namespace === undefined ? {} : { namespace: using.namespace }),
        },
      };
    };
    const last = calls.at(-1)?.result ?? "";
    switch (calls.length) {
      case 0:
        return call({ action: "search", query: step.query });
      case 1: {
        const id = firstId(last);
        return id === undefined
          ? { text: `no id in: ${last}` }
          : call({ action: "describe", name: id });
      }
      case 2: {
        const id = firstId(calls[0]?.result ?? "");
        return call({ action: "execute", name: id ?? "", arguments: step.arguments });
      }
      default:
        return { text: `done: ${last.slice(0, 200)}` };
    }
  };
}

// The hosts' own tool searches: Codex's `tool_search`, Claude Code's `ToolSearch`.
const HOST_SEARCH = /^(tool_search|ToolSearch)$/;

// The first tool id of a search's answer: its text ("server/tool: …") or its structured copy.
function firstId(result: string): string | undefined {
  try {
    const parsed = JSON.parse(result.slice(result.indexOf("{")));
    const id = parsed?.matches?.[0]?.id;
    if (typeof id === "string") return id;
  } catch {
    // text
  }
  return /^([A-Za-z0-9_.-]+\/[A-Za-z0-9_.:-]+)(?=: |$)/m.exec(result)?.[1];
}
