/**
 * The HTTP API as a runtime-neutral Hono app: each request carries its catalogue and budget; the
 * session store (in memory, or Durable Objects) is the only state.
 *
 * @module
 */

import { Hono } from "hono/tiny";
import { LinearRouter } from "hono/router/linear-router";
import type { Context } from "hono";
import type { BridgeAction } from "../bridge/action.ts";
import { renderToolFailure } from "../bridge/render.ts";
import { type Hasher, sha256Hex } from "../canonical_json.ts";
import { InvalidConfigError, type ProgressiveConfig } from "../config.ts";
import { type CallToolResultLike, mapResult } from "../tool_result.ts";
import { McpError } from "../tool_error.ts";
import type { Injector } from "../injector.ts";
import { explainSearch } from "../ranking/explain.ts";
import type { RankerFactory } from "../ranking/ranker.ts";
import { routeInSession } from "../session/session_route.ts";
import type { SessionState } from "../session/state.ts";
import {
  SESSION_NAME,
  SessionFullError,
  type SessionKey,
  type SessionStore,
  SessionStoreError,
} from "../session/store.ts";
import { VERSION } from "../version.ts";
import { bearerAuthenticator } from "./auth.ts";
import {
  type CachedCatalog,
  catalogBytes,
  CatalogCache,
  type CatalogStore,
  DEFAULT_CACHE_BYTES,
} from "./catalog_cache.ts";
import { type CatalogBody, type Kind, readCatalogRequest } from "./catalog_request.ts";
import { addNativeRoutes } from "./native_routes.ts";
import { openApiDocument, OPERATIONS } from "./openapi.ts";
import { originGuard } from "./origin.ts";
import { parseBody, type Parsed } from "./body.ts";
import { problem } from "./problems.ts";
import { httpSchemas } from "./schemas.ts";
import { warmUp } from "./warm_up.ts";
import { DEFAULT_SETTINGS, type HttpSettings } from "./settings.ts";

/** What the app needs from its runtime. */
export interface AppDeps {
  /** Where sessions live. */
  store: SessionStore;
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
   * @default {{maxBytes: 64 MiB, maxTools: 50000, ranker: lexicalRanker}}
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
   * Reports unexpected errors (never sent to the caller).
   * @default {console.error}
   */
  onUnexpectedError?: (error: unknown) => void;
}

/** The app's Hono environment: the tenant of the request, set by the auth middleware. */
export type AppEnv = { Variables: { tenant: string } };

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
  const schemas = httpSchemas(settings);
  if (deps.warmUp) warmUp(schemas);
  const cache = new CatalogCache({
    hash,
    // Room for two of the largest catalogues the body limit lets in, whatever the default says.
    maxBytes: Math.max(DEFAULT_CACHE_BYTES, 2 * catalogBytes(settings.maxBodyBytes)),
    maxTools: Math.max(50_000, settings.maxTools),
    ...deps.catalogs,
    onStoreError: (e) => report(e),
  });
  const auth = bearerAuthenticator(settings.tokens, hash);
  const store = deps.store;
  const bodyOptions = { maxBytes: settings.maxBodyBytes };
  // deno-lint-ignore no-console
  const report = deps.onUnexpectedError ?? ((e: unknown) => console.error(e));
  let openapi: string | undefined;

  // The linear router: no routing table to compile on a fresh isolate's first request (Hono's
  // advice where an app is often created anew), and this app has ten routes.
  const app = new Hono<AppEnv>({ router: new LinearRouter() });

  app.onError((error) => {
    if (error instanceof SessionFullError) return problem("session_full", error.message);
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
    const allowed = OPERATIONS.filter((op) => matches(op.path, c.req.path))
      .map((op) => op.method.toUpperCase());
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

  app.get("/healthz", (c) => c.json({ ok: true as const, version: VERSION }));
  // Which face this is, for the page (a gateway answers with its upstreams instead).
  app.get("/status", (c) => c.json({ face: "api" as const, version: VERSION }));
  app.get("/openapi.json", (c) => {
    openapi ??= JSON.stringify(openApiDocument(schemas, VERSION));
    return c.body(openapi, 200, { "content-type": "application/json" });
  });

  app.use("/v1/*", originGuard(settings.allowedOrigins));
  app.use("/v1/*", async (c, next) => {
    const tenant = await auth.tenant(c.req.header("authorization"));
    if (tenant === null) {
      return problem("unauthorized", "Send Authorization: Bearer <token>", undefined, {
        "www-authenticate": 'Bearer realm="unfold"',
      });
    }
    c.set("tenant", tenant);
    await next();
  });

  app.post("/v1/inject", async (c) => {
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
  });

  app.post("/v1/route", async (c) => {
    const prepared = await prepare(c, "route");
    if (!prepared.ok) return prepared.response;
    const { body, entry, injector } = prepared.value;
    const action = body.session === undefined
      ? injector.route(body.arguments)
      : await routeInSession(injector, body.arguments, {
        store,
        key: keyOf(c, body.session),
        catalogHash: entry.catalogHash,
        hash,
        ...(body.options?.describeFirst ? { describeFirst: body.options.describeFirst } : {}),
        ...(body.options?.resend ? { resend: true } : {}),
      });
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
    return c.json({ ...routeResult(action), catalogHash: entry.catalogHash });
  });

  app.post("/v1/explain", async (c) => {
    const read = await readCatalogRequest(c.req.raw, c.get("tenant"), "explain", {
      schemas,
      cache,
      maxBytes: settings.maxBodyBytes,
    });
    if (!read.ok) return read.response;
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
    });
    if (!explained.ok) {
      return problem("invalid_request", explained.error.message, [{
        pointer: "/id",
        message: "is not a tool of this catalogue",
      }]);
    }
    return c.json({ ...explained.value, catalogHash: entry.catalogHash });
  });

  app.post("/v1/result", async (c) => {
    const parsed = await parseBody(c.req.raw, schemas.ResultRequest, bodyOptions);
    if (!parsed.ok) return parsed.response;
    const { session, tool, result } = parsed.value;
    let body: Record<string, unknown>;
    try {
      body = {
        // zod leaves absent fields absent.
        toolResult: mapResult(
          result as CallToolResultLike,
          `the result of ${JSON.stringify(tool)}`,
        ),
        isError: false,
      };
    } catch (e) {
      if (!(e instanceof McpError)) throw e;
      body = {
        toolResult: e.code === "tool_error"
          ? renderToolFailure(tool, e.code, e.message)
          : `Error ${e.code}: ${e.message}`,
        isError: true,
        error: { code: e.code, message: e.message },
      };
    }
    if (session !== undefined) {
      await store.apply(keyOf(c, session), {
        event: {
          kind: "result",
          isError: (body.error as { code?: string })?.code === "tool_error",
        },
      });
    }
    return c.json(body);
  });

  app.get("/v1/sessions/:session", async (c) => {
    const session = c.req.param("session");
    if (!SESSION_NAME.test(session)) return badSession(session);
    const state = await store.get(keyOf(c, session));
    if (state === undefined) {
      return problem("not_found", `There is no session ${JSON.stringify(session)}`);
    }
    return c.json(sessionInfo(session, state));
  });

  app.delete("/v1/sessions/:session", async (c) => {
    const session = c.req.param("session");
    if (!SESSION_NAME.test(session)) return badSession(session);
    await store.delete(keyOf(c, session));
    return c.body(null, 204);
  });

  addNativeRoutes(app, { prepare, store, hash, keyOf, cache });

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
    try {
      return {
        ok: true,
        value: {
          body: body as CatalogBody<K>,
          entry,
          injector: cache.injector(entry, config),
        },
      };
    } catch (e) {
      if (!(e instanceof InvalidConfigError)) throw e;
      const where = BUDGET_FIELDS.has(e.field) ? "budget" : "options";
      return {
        ok: false,
        response: problem("invalid_config", e.message, [{
          pointer: `/${where}/${e.field}`,
          message: e.message,
        }]),
      };
    }
  }

  function keyOf(c: Context<AppEnv>, session: string): SessionKey {
    return { tenant: c.get("tenant"), session };
  }

  return app;
}

function badSession(session: string): Response {
  return problem(
    "invalid_request",
    `Invalid session name ${
      JSON.stringify(session.slice(0, 200))
    }: use 1 to 128 of A-Z a-z 0-9 . _ : -`,
    [{ pointer: "/session", message: "must match ^[A-Za-z0-9._:-]{1,128}$" }],
  );
}

function matches(template: string, path: string): boolean {
  const pattern = template.replace(/\{[^}]+\}/g, "[^/]+").replaceAll(".", "\\.");
  return new RegExp(`^${pattern}$`).test(path);
}

/**
 * The response body of `/v1/route` for an action: model errors as `error: {code, message}`.
 *
 * @param action The routed action.
 * @returns The `RouteResult`.
 *
 * @example Usage
 * ```ts
 * import { routeResult } from "./app.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(
 *   routeResult({ action: "error", code: "unknown_tool", message: "m", toolResult: "Error unknown_tool: m" }),
 *   { action: "error", toolResult: "Error unknown_tool: m", error: { code: "unknown_tool", message: "m" } },
 * );
 * ```
 */
export function routeResult(action: BridgeAction): Record<string, unknown> {
  if (action.action !== "error") return { ...action };
  const { code, message, problems, ...rest } = action;
  return { ...rest, error: { code, message, ...(problems ? { problems } : {}) } };
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
    counters: state.counters,
    createdAt: new Date(state.createdAt).toISOString(),
    updatedAt: new Date(state.updatedAt).toISOString(),
  };
}
