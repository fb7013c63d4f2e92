/**
 * The native tool search routes (`/v1/native/{anthropic,openai}/{tools,search,resolve}`): unfold
 * as the search behind each API's deferred tools, for hosts in any language. Each takes its
 * catalogue by value or `catalogRef`, like the other catalogue routes.
 *
 * @module
 */

import type { Context } from "hono";
import type { Injector } from "../injector.ts";
import {
  claudeResolve,
  claudeSearch,
  claudeTools,
  type ClaudeToolUse,
  type NativeResolved,
  type NativeSession,
  openAiResolve,
  openAiSearch,
  openAiTools,
  type OpenAiToolSearchCall,
} from "../native/mod.ts";
import type { OpenAiFunctionCall } from "../native/types.ts";
import { CLAUDE_SEARCH_TOOL } from "../native/definitions.ts";
import type { SessionKey, SessionStore } from "../session/store.ts";
import type { Parsed } from "./body.ts";
import type { CachedCatalog, CatalogCache } from "./catalog_cache.ts";
import type { CatalogBody } from "./catalog_request.ts";
import type { NativeKind } from "./native_schemas.ts";
import { CATALOG_PROBLEMS, type Route, route } from "./route.ts";
import type { AppEnv, Operation } from "./shapes.ts";
import { problem, type ProblemCode } from "./problems.ts";
import { quoteId } from "../untrusted.ts";

/** What the native routes need from the app. */
export interface NativeRouteDeps {
  /** Reads a request's body and catalogue and makes its injector, or answers a problem. */
  prepare<K extends NativeKind>(
    c: Context<AppEnv>,
    kind: K,
  ): Promise<Parsed<{ body: CatalogBody<K>; entry: CachedCatalog; injector: Injector }>>;
  /** Where sessions live. */
  store: SessionStore;
  /** Hashes schemas and bodies. */
  hash: (text: string) => string | Promise<string>;
  /** The session key of a request. */
  keyOf(c: Context<AppEnv>, session: string): SessionKey;
  /** The catalogue cache, which keeps the index a search built for fresh isolates. */
  cache: CatalogCache;
}

// Per API and route: its schema names' stem and what it answers.
const ROUTES = {
  anthropic: {
    tools: [
      "NativeClaudeTools",
      "Claude `tools`: each tool deferred unless pinned, and a search tool carrying the overview.",
    ],
    search: [
      "NativeClaudeSearch",
      "A `tool_result` of `tool_reference` blocks for the model's search (text on a miss).",
    ],
  },
  openai: {
    tools: [
      "NativeOpenAiTools",
      "OpenAI `tools`: a namespace per server, functions deferred unless pinned, and `tool_search`.",
    ],
    search: [
      "NativeOpenAiSearch",
      "A `tool_search_output` loading the tools found (nothing, and `miss`, on a miss).",
    ],
  },
} as const;

/**
 * The native routes, each declared once with its handler.
 *
 * @param deps What the routes need from the app.
 * @returns The routes.
 *
 * @example Usage
 * ```ts
 * import { createApp } from "./app.ts";
 * import { MemorySessionStore } from "../session/memory_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const app = createApp({ store: new MemorySessionStore() });
 * const response = await app.request("/v1/native/anthropic/tools", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ catalog: [{ server: "a", name: "b", inputSchema: { type: "object" } }] }),
 * });
 * equal((await response.json()).tools[1].name, "a__b");
 * ```
 */
export function nativeRoutes(deps: NativeRouteDeps): Route<AppEnv>[] {
  const handlers = nativeHandlers(deps);
  return (["anthropic", "openai"] as const).flatMap((api) => {
    const resolve = `Native${api === "anthropic" ? "Claude" : "OpenAi"}Resolve`;
    return ([
      [...ROUTES[api].tools, "tools", `${ROUTES[api].tools[0]}Response`, []],
      [...ROUTES[api].search, "search", `${ROUTES[api].search[0]}Response`, []],
      [
        resolve,
        "The model's call of a loaded tool as `server/tool` and its arguments, checked as execute checks them.",
        "resolve",
        "NativeResolveResponse",
        ["unknown_tool", "invalid_arguments"],
      ],
    ] as const).map(([name, summary, verb, response, extra]) =>
      route<AppEnv>({
        method: "post",
        path: `/v1/native/${api}/${verb}`,
        summary,
        request: `${name}Request` as NonNullable<Operation["request"]>,
        success: {
          status: 200,
          schema: response as NonNullable<Operation["success"]["schema"]>,
          description: "The answer.",
        },
        problems: [
          ...CATALOG_PROBLEMS,
          "session_store_unavailable",
          "session_full",
          ...extra as readonly ProblemCode[],
        ],
        handler: handlers[api][verb],
      })
    );
  });
}

type Handler = Route<AppEnv>["handler"];

// Each native route's handler, by API and verb: the type asks for every one the declarations name.
function nativeHandlers(
  deps: NativeRouteDeps,
): Record<"anthropic" | "openai", Record<"tools" | "search" | "resolve", Handler>> {
  const sessionOf = (
    c: Context<AppEnv>,
    session: string | undefined,
    entry: CachedCatalog,
  ): NativeSession | undefined =>
    session === undefined ? undefined : {
      store: deps.store,
      key: deps.keyOf(c, session),
      catalogHash: entry.catalogHash,
      hash: deps.hash,
    };

  const tools = (claude: boolean): Handler => async (c) => {
    const prepared = await deps.prepare(c, claude ? "claudeTools" : "openAiTools");
    if (!prepared.ok) return prepared.response;
    const { body, entry, injector } = prepared.value;
    const pinned = checkPinned(injector, body.pinned);
    if (!pinned.ok) return pinned.response;
    const options = { pinned: pinned.value };
    const tools = claude ? claudeTools(injector, options) : openAiTools(injector, options);
    if (!tools.ok) throw new TypeError(tools.error); // the pinned ids were checked
    const session = sessionOf(c, body.session, entry);
    if (session !== undefined) {
      await deps.store.apply(session.key, {
        catalogHash: entry.catalogHash,
        event: { kind: "inject" },
      });
    }
    return c.json({ tools: tools.value, catalogHash: entry.catalogHash });
  };

  const claudeSearchRoute: Handler = async (c) => {
    const prepared = await deps.prepare(c, "claudeSearch");
    if (!prepared.ok) return prepared.response;
    const { body, entry, injector } = prepared.value;
    const toolUse = body.toolUse as ClaudeToolUse;
    if (toolUse.name !== CLAUDE_SEARCH_TOOL) {
      return problem(
        "invalid_request",
        `toolUse calls ${quoteId(toolUse.name)}, not the search tool ` +
          `"${CLAUDE_SEARCH_TOOL}": post calls of other tools to /v1/native/anthropic/resolve`,
        [{ pointer: "/toolUse/name", message: `must be "${CLAUDE_SEARCH_TOOL}"` }],
      );
    }
    const pinned = checkPinned(injector, body.pinned);
    if (!pinned.ok) return pinned.response;
    const toolResult = await claudeSearch(injector, toolUse, {
      pinned: pinned.value,
      ...optional("session", sessionOf(c, body.session, entry)),
    });
    await keepIndex(c, deps.cache, entry);
    return c.json({ toolResult, catalogHash: entry.catalogHash });
  };

  const openAiSearchRoute: Handler = async (c) => {
    const prepared = await deps.prepare(c, "openAiSearch");
    if (!prepared.ok) return prepared.response;
    const { body, entry, injector } = prepared.value;
    const pinned = checkPinned(injector, body.pinned);
    if (!pinned.ok) return pinned.response;
    const answer = await openAiSearch(injector, body.call as OpenAiToolSearchCall, {
      pinned: pinned.value,
      ...optional("session", sessionOf(c, body.session, entry)),
    });
    await keepIndex(c, deps.cache, entry);
    return c.json({ ...answer, catalogHash: entry.catalogHash });
  };

  const claudeResolveRoute: Handler = async (c) => {
    const prepared = await deps.prepare(c, "claudeResolve");
    if (!prepared.ok) return prepared.response;
    const { body, entry, injector } = prepared.value;
    const resolved = await claudeResolve(
      injector,
      body.toolUse as ClaudeToolUse,
      sessionOf(c, body.session, entry),
    );
    return answer(c, resolved, "/toolUse/name", "/toolUse/input", entry);
  };

  const openAiResolveRoute: Handler = async (c) => {
    const prepared = await deps.prepare(c, "openAiResolve");
    if (!prepared.ok) return prepared.response;
    const { body, entry, injector } = prepared.value;
    const resolved = await openAiResolve(
      injector,
      body.call as OpenAiFunctionCall,
      sessionOf(c, body.session, entry),
    );
    return answer(c, resolved, "/call/name", "/call/arguments", entry);
  };

  return {
    anthropic: { tools: tools(true), search: claudeSearchRoute, resolve: claudeResolveRoute },
    openai: { tools: tools(false), search: openAiSearchRoute, resolve: openAiResolveRoute },
  };
}

// A search built the catalogue's index: the store keeps it for fresh isolates, after the response
// where the runtime allows (as /v1/route does).
async function keepIndex(
  c: Context<AppEnv>,
  cache: CatalogCache,
  entry: CachedCatalog,
): Promise<void> {
  const saving = cache.saveIndex(entry);
  if (saving === undefined) return;
  try {
    c.executionCtx.waitUntil(saving);
  } catch {
    await saving; // no execution context (Deno): the store is in memory anyway
  }
}

function answer(
  c: Context<AppEnv>,
  resolved: NativeResolved,
  namePointer: string,
  argumentsPointer: string,
  entry: CachedCatalog,
): Response {
  if (resolved.ok) {
    return c.json({
      id: resolved.id,
      arguments: resolved.arguments,
      catalogHash: entry.catalogHash,
    });
  }
  if (resolved.code === "session_full") return problem("session_full", resolved.message);
  const errors = resolved.code === "unknown_tool"
    ? [{ pointer: namePointer, message: "names no tool of this catalogue" }]
    : (resolved.problems ?? [{ pointer: "", message: resolved.message }]).map((p) => ({
      pointer: `${argumentsPointer}${p.pointer}`,
      message: p.message,
    }));
  return problem(resolved.code, resolved.message, errors);
}

function checkPinned(
  injector: Injector,
  pinned: readonly string[] | undefined,
): Parsed<readonly string[]> {
  const index = (pinned ?? []).findIndex((id) => injector.catalog.get(id) === undefined);
  if (index === -1) return { ok: true, value: pinned ?? [] };
  return {
    ok: false,
    response: problem(
      "invalid_request",
      `Cannot pin ${quoteId(pinned![index]!)}: the tool is not in this catalogue`,
      [{ pointer: `/pinned/${index}`, message: "must be the id of a tool of the catalogue" }],
    ),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
