/**
 * The HTTP API as a Worker builds it: sessions and catalogues in Durable Objects, settings from the
 * Worker's variables: the API Worker's (`entry.ts`); the gateway Worker reaches it through its
 * `API` service binding (`api_binding.ts`).
 *
 * @module
 */

import { createApp, type UnfoldApp } from "../http/app.ts";
import { type HttpSettings, settingsFromEnv } from "../http/settings.ts";
import { type CatalogNamespace, DurableCatalogStore } from "./durable_catalogs.ts";
import { DurableSessionStore, type SessionNamespace } from "./durable_store.ts";
import { assetRanker } from "../ranking/deno_ranker.ts";
import { type AssetsBinding, type WorkerLoader, WorkerLoaderSandbox } from "./code_sandbox.ts";

// The estimated bytes of catalogues one isolate keeps in memory.
const ISOLATE_CATALOG_BYTES = 32 * 1024 * 1024;

/** The API of one Worker isolate, with its settings and session store. */
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
 * @param env The bindings (`SESSIONS`, optionally `CATALOGS`, `ASSETS` and `LOADER`, the Worker
 * Loader that runs code mode's scripts) and `UNFOLD_*` variables.
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
      // The Deno default, its data fetched from the static assets at the isolate's first search.
      ranker: assetRanker(env.ASSETS as AssetsBinding | undefined),
    },
    // Code mode's sandbox, for requests that turn it on: an isolate per run, no outbound network.
    codeMode: env.LOADER === undefined ? {} : {
      sandbox: new WorkerLoaderSandbox(
        env.LOADER as WorkerLoader,
        env.ASSETS as AssetsBinding | undefined,
      ),
    },
  });
  return { api, settings, store };
}
