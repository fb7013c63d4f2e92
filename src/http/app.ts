/**
 * The HTTP API as a runtime-neutral Hono app: each request carries its catalogue and budget; the
 * session store (in memory, or Durable Objects) is the only state.
 *
 * @module
 */

import { Hono } from "hono/tiny";
import type { Context } from "hono";
import { renderError, renderToolFailure } from "../bridge/render.ts";
import { type Hasher, sha256Hex } from "../canonical_json.ts";
import { checkConfig, type ProgressiveConfig } from "../config.ts";
import { type CallToolResultLike, readResult } from "../tool_result.ts";
import { resultCeiling } from "../bridge/ceiling.ts";
import { boundAnswer, type BoundContext } from "../session/bound.ts";
import { routeBounded } from "../session/bounded_route.ts";
import { isResultStore, type ResultStore } from "../session/result_store.ts";
import type { Injector } from "../injector.ts";
import { explainSearch } from "../ranking/explain.ts";
import type { RankerFactory } from "../ranking/ranker.ts";
import { RANKER_HEADER, rankingFields, reportingOf } from "../ranking/ranking_status.ts";
import { emptySession, type SessionState } from "../session/state.ts";
import type { LearnedScope, Learning } from "../session/learned.ts";
import {
  SESSION_NAME,
  type SessionKey,
  type SessionStore,
  SessionStoreError,
} from "../session/store.ts";
import { VERSION } from "../version.ts";
import {
  type CachedCatalog,
  catalogBytes,
  CatalogCache,
  type CatalogStore,
  DEFAULT_CACHE_BYTES,
  DEFAULT_CACHE_TOOLS,
} from "./catalog_cache.ts";
import { type CatalogBody, type Kind, readCatalogRequest } from "./catalog_request.ts";
import { nativeRoutes } from "./native_routes.ts";
import {
  allowedMethods,
  BODY_PROBLEMS,
  CATALOG_PROBLEMS,
  GUARDED_PREFIX,
  type Route,
  route,
  serveRoutes,
} from "./route.ts";
import { openApiDocument } from "./openapi.ts";
import { originGuard } from "./origin.ts";
import { requestGuard } from "./guard.ts";
import { parseBody, type Parsed } from "./body.ts";
import { problem } from "./problems.ts";
import { httpSchemas, requestSchemas } from "./schemas.ts";
import { warmUp } from "./warm_up.ts";
import { routeResult } from "./route_result.ts";
import type { AppEnv } from "./shapes.ts";
import { DEFAULT_SETTINGS, type HttpSettings } from "./settings.ts";
import { answerRun, type CodeModeDeps, limitsOverDeployment } from "./run_route.ts";

/** What the app needs from its runtime. */
export interface AppDeps {
  /** Where sessions live. */
  store: SessionStore;
  /**
   * Where the rest of a cut answer is kept for `more`, per session.
   * @default {the session store, when it keeps results too (both stores unfold ships do)}
   */
  results?: ResultStore;
  /** Auth and limits; unset fields keep {@linkcode DEFAULT_SETTINGS}. */
  settings?: Partial<HttpSettings>;
  /**
   * Hashes text (catalogues, schemas, tokens).
   * @default {sha256Hex}
   */
  hash?: Hasher;
  /**
   * Where catalogues live and how many are kept in memory: `store` keeps them beyond this process
   * (the Worker's Durable Objects), `maxBytes` and `maxTools` bound the in-memory cache, `ranker`
   * ranks `search` (`deno task start` passes the one with word vectors).
   * @default {{maxBytes: DEFAULT_CACHE_BYTES, maxTools: DEFAULT_CACHE_TOOLS, ranker: lexicalRanker}}
   */
  catalogs?: {
    store?: CatalogStore;
    maxBytes?: number;
    maxTools?: number;
    ranker?: RankerFactory;
  };
  /**
   * Runs the code of a first request once on a tiny catalogue while the app is created
   * (`warm_up.ts`): the Worker does, as it creates the app at startup.
   * @default {false}
   */
  warmUp?: boolean;
  /**
   * Whether the server listens on a loopback address, so that only requests naming a loopback
   * `Host` are answered (`isLoopbackName` of `guard.ts` decides it from the address).
   * @default {false}
   */
  loopbackOnly?: boolean;
  /**
   * Reports unexpected errors (never sent to the caller).
   * @default {console.error}
   */
  onUnexpectedError?: (error: unknown) => void;
  /**
   * What search learns from each tenant's sessions: a tool a session executed successfully
   * (`POST /v1/result`) after searches (`POST /v1/route`) rises for that tenant's later searches
   * with the same words (`options.learn: false` turns it off for a request).
   * @default {none: search does not learn}
   */
  learning?: Learning;
  /**
   * Code mode: the sandbox that runs the scripts of `run` (a request opts in with
   * `options.codeMode`), and the most each bound of a run may be here.
   * @default {{}} (no sandbox: a run answers that it cannot run here)
   */
  codeMode?: CodeModeDeps;
}

export type { AppEnv } from "./shapes.ts";

/** The HTTP API app (a Hono app): `fetch` serves, `request` calls it in-process. */
export interface UnfoldApp {
  /**
   * Serves one request.
   *
   * @param request The request.
   * @returns The response.
   */
  fetch(request: Request): Response | Promise<Response>;
  /**
   * Calls the app in-process, as tests do.
   *
   * @param input A path (`/healthz`), URL or request.
   * @param init Request options.
   * @returns The response.
   */
  request(input: string | URL | Request, init?: RequestInit): Response | Promise<Response>;
  /** The routes the app serves. */
  readonly routes: ReadonlyArray<{ readonly method: string; readonly path: string }>;
  /** The declarations of those routes, which the OpenAPI document is generated from. */
  readonly operations: ReadonlyArray<{
    readonly method: string;
    readonly path: string;
    readonly summary: string;
    readonly request?: string;
    readonly problems: readonly string[];
    readonly authenticated: boolean;
  }>;
}
const BUDGET_FIELDS: ReadonlySet<string> = new Set([
  "availableContextTokens",
  "inventoryThresholdPercent",
]);

/**
 * Creates the HTTP API app (Hono): `POST /v1/inject`, `POST /v1/route`, `POST /v1/explain`,
 * `POST /v1/result`,
 * `GET|DELETE /v1/sessions/{session}`, `GET /healthz`, `GET /openapi.json`.
 *
 * @param deps The session store, settings and hash function.
 * @returns The app; serve it with `Deno.serve(app.fetch)` or export it from a Worker.
 *
 * @example Usage
 * ```ts
 * import { createApp } from "./app.ts";
 * import { MemorySessionStore } from "../session/memory_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const app = createApp({ store: new MemorySessionStore() });
 * const response = await app.request("/v1/route", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({
 *     catalog: [{ server: "a", name: "b", description: "B", inputSchema: { type: "object" } }],
 *     arguments: { action: "describe", name: "a/b" },
 *   }),
 * });
 * equal((await response.json()).action, "describe");
 * ```
 */
export function createApp(deps: AppDeps): UnfoldApp {
  const settings: HttpSettings = { ...DEFAULT_SETTINGS, ...deps.settings };
  const hash = deps.hash ?? sha256Hex;
  // Only what serving a request needs: the response schemas wait for the OpenAPI document.
  const schemas = requestSchemas(settings);
  if (deps.warmUp) warmUp(schemas);
  const cache = new CatalogCache({
    hash,
    // Room for two of the largest catalogues the body limit lets in, whatever the default says.
    maxBytes: Math.max(DEFAULT_CACHE_BYTES, 2 * catalogBytes(settings.maxBodyBytes)),
    maxTools: Math.max(DEFAULT_CACHE_TOOLS, settings.maxTools),
    ...deps.catalogs,
    onStoreError: (e) => report(e),
  });
  const guard = requestGuard({
    tokens: settings.tokens,
    allowedOrigins: settings.allowedOrigins,
    loopbackOnly: deps.loopbackOnly === true,
    hash,
  });
  const store = deps.store;
  const results = deps.results ?? (isResultStore(store) ? store : undefined);
  const learning = deps.learning;
  const bodyOptions = { maxBytes: settings.maxBodyBytes };
  // deno-lint-ignore no-console
  const report = deps.onUnexpectedError ?? ((e: unknown) => console.error(e));
  let openapi: string | undefined;

  // `hono/tiny` routes with its PatternRouter, whatever router the options name: a router passed
  // here would only be bundled, never used.
  const app = new Hono<AppEnv>();
  // A ranker that loads its data says on every response which ranker is in use.
  const ranking = reportingOf(deps.catalogs?.ranker);
  if (ranking !== undefined) {
    app.use(async (c, next) => {
      await next();
      c.res.headers.set(RANKER_HEADER, ranking.status().ranker);
    });
  }

  app.onError((error) => {
    report(error);
    return error instanceof SessionStoreError
      ? problem(
        "session_store_unavailable",
        "The session store did not answer; retry shortly",
        undefined,
        {
          "retry-after": "1",
        },
      )
      : problem("internal_error", "An unexpected error occurred");
  });
  app.notFound((c) => {
    const allowed = allowedMethods(routes, c.req.path);
    if (allowed.length > 0) {
      return problem(
        "method_not_allowed",
        `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(" or ")}`,
        undefined,
        { allow: allowed.join(", ") },
      );
    }
    return problem("not_found", `There is no route ${c.req.method} ${c.req.path}`);
  });

  // Every route, declared once: what it serves, what it answers, and how (route.ts); the
  // OpenAPI document is generated from these declarations.
  const routes: Route<AppEnv>[] = [
    route({
      method: "post",
      path: "/v1/inject",
      summary: "The bridge tool and the richest catalogue listing that fits the budget.",
      request: "InjectRequest",
      success: {
        status: 200,
        schema: "InjectResponse",
        description: "The injection (null for an empty catalogue).",
      },
      problems: [...CATALOG_PROBLEMS, "session_store_unavailable"],
      handler: async (c) => {
        const prepared = await prepare(c, "inject");
        if (!prepared.ok) return prepared.response;
        const { body, entry, injector } = prepared.value;
        if (body.session !== undefined) {
          await store.apply(keyOf(c, body.session), {
            catalogHash: entry.catalogHash,
            event: { kind: "inject" },
          });
        }
        const warnings = entry.catalog.warnings;
        return c.json({
          injection: injector.inject(),
          catalogHash: entry.catalogHash,
          ...(warnings.length === 0 ? {} : { warnings }),
        });
      },
    }),
    route({
      method: "post",
      path: "/v1/route",
      summary: "Routes one call of the bridge tool: search, describe, execute, more (the next " +
        "part of a cut answer), or a model error; every answer within the result ceiling.",
      request: "RouteRequest",
      success: {
        status: 200,
        schema: "RouteResult",
        description: 'The action (narrow on `action`); model mistakes are action "error".',
      },
      problems: [...CATALOG_PROBLEMS, "session_store_unavailable", "session_full"],
      handler: async (c) => {
        const prepared = await prepare(c, "route");
        if (!prepared.ok) return prepared.response;
        const { body, entry, injector } = prepared.value;
        const run = injector.script(body.arguments);
        if (run !== undefined) {
          const ran = await answerRun(injector, run, {
            results: body.results,
            session: body.session === undefined ? undefined : {
              store,
              key: keyOf(c, body.session),
              catalogHash: entry.catalogHash,
            },
            ...(results === undefined ? {} : { kept: results }),
          }, deps.codeMode ?? {});
          if (ran instanceof Response) return ran;
          return c.json({ ...ran, catalogHash: entry.catalogHash });
        }
        if (body.results !== undefined) {
          const message = 'is only for a run: send it with {"action":"run",...} arguments';
          return problem("invalid_request", `"results" ${message}`, [{
            pointer: "/results",
            message,
          }]);
        }
        // A session's tenant learns from its runs (see AppDeps.learning).
        const learns = body.session !== undefined && learning !== undefined &&
          injector.config.learn;
        // Every answer within the ceiling; `more` answered from the session's kept parts.
        const routed = await routeBounded(
          injector,
          body.arguments,
          body.session === undefined ? undefined : {
            store,
            key: keyOf(c, body.session),
            catalogHash: entry.catalogHash,
            hash,
            ...(body.options?.describeFirst ? { describeFirst: body.options.describeFirst } : {}),
            ...(body.options?.resend ? { resend: true } : {}),
            ...(learns ? { learned: await learning!.prior(learnedScope(c)) } : {}),
          },
          results === undefined ? {} : { results },
        );
        if (!routed.ok) return problem("session_full", routed.error.message);
        if (learns && routed.value.action === "search") {
          learning!.searched(learnedScope(c), body.session!, routed.value.query);
        }
        // A search built this catalogue's index: the store keeps it for fresh isolates, after the
        // response where the runtime allows.
        const saving = cache.saveIndex(entry);
        if (saving !== undefined) {
          try {
            c.executionCtx.waitUntil(saving);
          } catch {
            await saving; // no execution context (Deno): the store is in memory anyway
          }
        }
        return c.json({ ...routeResult(routed.value), catalogHash: entry.catalogHash });
      },
    }),
    route({
      method: "post",
      path: "/v1/explain",
      summary: "Why a search ranks what it ranks: each tool's matched query words, and where a " +
        "named tool ranked and why.",
      request: "ExplainRequest",
      success: {
        status: 200,
        schema: "ExplainResponse",
        description: "The ranked tools with their matches; `target` when `id` was given.",
      },
      problems: [...BODY_PROBLEMS, "catalog_unknown", "invalid_catalog"],
      handler: async (c) => {
        const read = await readCatalogRequest(c.req.raw, c.get("tenant"), "explain", {
          schemas,
          cache,
          maxBytes: settings.maxBodyBytes,
        });
        if (!read.ok) return read.response;
        await ranking?.loaded();
        const { body, entry } = read.value;
        // The same bound as a search's query: a longer one is refused, never truncated unsaid.
        if (body.query.length > settings.maxQueryChars) {
          const message = `must be at most ${settings.maxQueryChars} characters`;
          return problem("invalid_request", `The query ${message}; shorten it`, [{
            pointer: "/query",
            message,
          }]);
        }
        const explained = explainSearch(entry.catalog, body.query, {
          ...(body.limit === undefined ? {} : { limit: body.limit }),
          ...(body.id === undefined ? {} : { id: body.id }),
          // As this tenant's searches are: lifted by what its sessions ran.
          ...(learning === undefined ? {} : { learned: await learning.prior(learnedScope(c)) }),
        });
        if (!explained.ok) {
          return problem("invalid_request", explained.error.message, [{
            pointer: "/id",
            message: "is not a tool of this catalogue",
          }]);
        }
        return c.json({ ...explained.value, catalogHash: entry.catalogHash });
      },
    }),
    route({
      method: "post",
      path: "/v1/result",
      summary:
        "Maps an upstream MCP tool result to what the model gets, within the result ceiling (the " +
        "rest kept in the session for more), counting it in the session.",
      request: "ResultRequest",
      success: {
        status: 200,
        schema: "ResultResponse",
        description: "The mapped result; a tool failure is isError with its text.",
      },
      problems: [...BODY_PROBLEMS, "invalid_config", "session_store_unavailable"],
      handler: async (c) => {
        const parsed = await parseBody(c.req.raw, schemas.ResultRequest, bodyOptions);
        if (!parsed.ok) return parsed.response;
        const { session, tool, result, budget, options } = parsed.value;
        const checked = checkConfig(defined({ ...budget, ...options }));
        if (!checked.ok) return invalidConfig(checked.error);
        // zod leaves absent fields absent.
        const read = readResult(
          result as CallToolResultLike,
          `the result of ${JSON.stringify(tool)}`,
          { audio: true },
        );
        const failure = read.ok ? undefined : read.error;
        const context: BoundContext = {
          ceiling: resultCeiling(checked.value),
          ...(session === undefined
            ? {}
            : { session: { store, key: keyOf(c, session) }, ...(results ? { results } : {}) }),
        };
        const bounded = read.ok
          ? await boundAnswer({ shape: "mapped", result: read.value }, context)
          : await boundAnswer({
            shape: "text",
            text: failure!.code === "tool_error"
              ? renderToolFailure(tool, failure!.code, failure!.message)
              : renderError(failure!.code, failure!.message),
          }, context);
        const body: Record<string, unknown> = {
          toolResult: bounded.answer,
          isError: !read.ok,
          ...(failure === undefined
            ? {}
            : { error: { code: failure.code, message: failure.message } }),
          ...(bounded.cut === undefined ? {} : { cut: bounded.cut }),
        };
        if (session !== undefined) {
          await store.apply(keyOf(c, session), {
            event: {
              kind: "result",
              isError: failure?.code === "tool_error",
              tokens: bounded.tokens,
              cut: bounded.cut !== undefined,
            },
          });
          // A success teaches the tenant's search; bookkeeping, so a failing store is not an error.
          if (read.ok && learning !== undefined) {
            await learning.executed(learnedScope(c), session, tool, "bridge").catch(() => false);
          }
        }
        return c.json(body);
      },
    }),
    route({
      method: "get",
      path: "/v1/sessions/{session}",
      summary: "A session's generation, described tools and counters.",
      success: { status: 200, schema: "SessionInfo", description: "The session." },
      problems: ["invalid_request", "not_found", "session_store_unavailable"],
      handler: async (c) => {
        const session = c.req.param("session") ?? "";
        if (!SESSION_NAME.test(session)) return badSession(session);
        const state = await store.get(keyOf(c, session));
        if (state === undefined) {
          return problem("not_found", `There is no session ${JSON.stringify(session)}`);
        }
        return c.json(sessionInfo(session, state));
      },
    }),
    route({
      method: "delete",
      path: "/v1/sessions/{session}",
      summary: "Deletes a session (idempotent).",
      success: { status: 204, description: "Deleted, or there was none." },
      problems: ["invalid_request", "session_store_unavailable"],
      handler: async (c) => {
        const session = c.req.param("session") ?? "";
        if (!SESSION_NAME.test(session)) return badSession(session);
        await store.delete(keyOf(c, session));
        return c.body(null, 204);
      },
    }),
    route({
      method: "get",
      path: "/healthz",
      summary: "Liveness and version.",
      success: { status: 200, schema: "Health", description: "Alive." },
      problems: [],
      handler: (c) => c.json({ ok: true as const, version: VERSION, ...rankingFields(ranking) }),
    }),
    route({
      method: "get",
      path: "/status",
      // Which face this is, for the page (a gateway answers with its upstreams instead).
      summary: "Which face this server is (the page reads it first).",
      success: { status: 200, schema: "ApiStatus", description: "The face and version." },
      problems: [],
      handler: (c) => c.json({ face: "api" as const, version: VERSION, ...rankingFields(ranking) }),
    }),
    route({
      method: "get",
      path: "/openapi.json",
      summary: "This document.",
      success: { status: 200, description: "The OpenAPI 3.1 document." },
      problems: [],
      handler: (c) => {
        openapi ??= JSON.stringify(openApiDocument(httpSchemas(settings), VERSION, routes));
        return c.body(openapi, 200, { "content-type": "application/json" });
      },
    }),
    ...nativeRoutes({ prepare, store, hash, keyOf, cache }),
  ];
  app.use(`${GUARDED_PREFIX}*`, ...originGuard(guard));
  serveRoutes(app, routes);

  // The body of a catalogue request (inject, route, native), its catalogue (cached by content, see
  // catalog_request.ts) and an injector for its budget and options.
  async function prepare<K extends Kind>(
    c: Context<AppEnv>,
    kind: K,
  ): Promise<Parsed<{ body: CatalogBody<K>; entry: CachedCatalog; injector: Injector }>> {
    const read = await readCatalogRequest(c.req.raw, c.get("tenant"), kind as "route", {
      schemas,
      cache,
      maxBytes: settings.maxBodyBytes,
    });
    if (!read.ok) return read;
    // The first search of a Worker isolate waits for the ranking data (fetched once, then kept).
    await ranking?.loaded();
    const { body, entry } = read.value;
    const { describeFirst: _, resend: __, ...options } = body.options ?? {};
    const config = Object.fromEntries(
      Object.entries({
        ...body.budget,
        ...options,
        maxQueryChars: settings.maxQueryChars,
        maxDescriptionChars: settings.maxDescriptionChars,
      }).filter(([, value]) => value !== undefined),
    ) as Partial<ProgressiveConfig>;
    const over = limitsOverDeployment(options.codeLimits, deps.codeMode ?? {});
    if (over !== undefined) return { ok: false, response: over };
    const checked = checkConfig(config);
    if (!checked.ok) return { ok: false, response: invalidConfig(checked.error) };
    return {
      ok: true,
      value: {
        body: body as CatalogBody<K>,
        entry,
        injector: cache.injector(entry, config),
      },
    };
  }

  function keyOf(c: Context<AppEnv>, session: string): SessionKey {
    return { tenant: c.get("tenant"), session };
  }

  function learnedScope(c: Context<AppEnv>): LearnedScope {
    return { face: "http", profile: "", tenant: c.get("tenant") };
  }

  return Object.assign(app, { operations: routes });
}

// A budget or an option out of range, at its pointer.
function invalidConfig(error: { field: string; message: string }): Response {
  const where = BUDGET_FIELDS.has(error.field) ? "budget" : "options";
  return problem("invalid_config", error.message, [{
    pointer: `/${where}/${error.field}`,
    message: error.message,
  }]);
}

function defined(fields: Record<string, unknown>): Partial<ProgressiveConfig> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Partial<ProgressiveConfig>;
}

function badSession(session: string): Response {
  return problem(
    "invalid_request",
    `Invalid session name ${
      JSON.stringify(session.slice(0, 200))
    }: use 1 to 128 of A-Z a-z 0-9 . _ : -`,
    [{ pointer: "/session", message: `must match ${SESSION_NAME.source}` }],
  );
}

/**
 * The response body of `GET /v1/sessions/{session}`.
 *
 * @param session The session name.
 * @param state Its state.
 * @returns The `SessionInfo`.
 *
 * @example Usage
 * ```ts
 * import { sessionInfo } from "./app.ts";
 * import { emptySession } from "../session/state.ts";
 * import { equal } from "node:assert/strict";
 *
 * const info = sessionInfo("chat-1", emptySession(0));
 * equal(info.createdAt, "1970-01-01T00:00:00.000Z");
 * ```
 */
export function sessionInfo(session: string, state: SessionState): Record<string, unknown> {
  return {
    session,
    catalogHash: state.catalogHash,
    generation: state.generation,
    described: Object.keys(state.described).sort(),
    // A state kept before a counter existed reads it as 0.
    counters: { ...emptySession(0).counters, ...state.counters },
    createdAt: new Date(state.createdAt).toISOString(),
    updatedAt: new Date(state.updatedAt).toISOString(),
  };
}
