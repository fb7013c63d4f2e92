/**
 * The HTTP API as a Worker builds it: sessions and catalogues in Durable Objects, settings from the
 * Worker's variables. Shared by the API Worker (`entry.ts`) and the gateway Worker
 * (`gateway_entry.ts`).
 *
 * @module
 */

import { createApp, type UnfoldApp } from "../http/app.ts";
import { problem } from "../http/problems.ts";
import { type HttpSettings, settingsFromEnv } from "../http/settings.ts";
import { type CatalogNamespace, DurableCatalogStore } from "./durable_catalogs.ts";
import { DurableSessionStore, type SessionNamespace } from "./durable_store.ts";

// The estimated bytes of catalogues one isolate keeps in memory.
const ISOLATE_CATALOG_BYTES = 32 * 1024 * 1024;

/** The API of one Worker isolate, with what a gateway on the same Worker shares with it. */
export interface WorkerApi {
  /** The HTTP API app. */
  api: UnfoldApp;
  /** The deployment's settings. */
  settings: HttpSettings;
  /** The Durable Object session store. */
  store: DurableSessionStore;
}

/**
 * Builds the HTTP API for a Worker's environment.
 *
 * @param env The bindings (`SESSIONS`, optionally `CATALOGS`) and `UNFOLD_*` variables.
 * @returns The API, its settings and its session store.
 * @throws {RangeError} When a variable is not a valid setting.
 */
export function workerApi(env: Record<string, unknown>): WorkerApi {
  const store = new DurableSessionStore(env.SESSIONS as SessionNamespace);
  const settings = settingsFromEnv(env);
  const api = createApp({
    store,
    settings,
    warmUp: true,
    catalogs: {
      ...(env.CATALOGS === undefined
        ? {}
        : { store: new DurableCatalogStore(env.CATALOGS as CatalogNamespace) }),
      // An isolate has 128 MB: catalogues beyond this are reloaded from their objects.
      maxBytes: ISOLATE_CATALOG_BYTES,
    },
  });
  return { api, settings, store };
}

/** A Worker module's default export. */
export interface WorkerEntry {
  /**
   * Serves one request.
   *
   * @param request The request.
   * @param env The bindings and variables.
   * @returns The response.
   */
  fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response>;
}

/**
 * A Worker's default export: builds its deployment once, at startup when the runtime exposes the
 * environment there (Workers count that CPU apart from each request's), else on the first request;
 * a deployment that cannot be built answers every request with why.
 *
 * @param startupEnv The environment at startup (`env` from `cloudflare:workers`), if any.
 * @param build Builds the deployment; throws when a variable is not a valid setting.
 * @param serve Serves one request with it.
 * @returns The Worker's default export.
 */
export function workerEntry<T>(
  startupEnv: Record<string, unknown> | undefined,
  build: (env: Record<string, unknown>) => T,
  serve: (deployment: T, request: Request) => Response | Promise<Response>,
): WorkerEntry {
  const attempt = (env: Record<string, unknown>): { ok: T } | { why: string } => {
    try {
      return { ok: build(env) };
    } catch (e) {
      return { why: (e as Error).message };
    }
  };
  let built = startupEnv === undefined ? undefined : attempt(startupEnv);
  return {
    fetch(request, env) {
      built ??= attempt(env);
      return "ok" in built
        ? serve(built.ok, request)
        : problem("internal_error", `The deployment is misconfigured: ${built.why}`);
    },
  };
}
