/**
 * The HTTP API adapter (`@unfold/unfold/http`): a stateless Hono app that serves the core to hosts
 * in any language (`POST /v1/inject`, `POST /v1/route`, `POST /v1/result`, sessions, `/healthz`,
 * `/openapi.json`), and the settings it reads from the environment.
 *
 * ```ts
 * import { createApp, settingsFromEnv } from "./mod.ts";
 * import { MemorySessionStore } from "../session/mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const app = createApp({ store: new MemorySessionStore(), settings: settingsFromEnv({}) });
 * equal((await app.request("/healthz")).status, 200);
 * // Deno.serve(app.fetch), or `export default app` from a Worker
 * ```
 *
 * Why these names: `createApp` and its `AppDeps` (with `UnfoldApp`, what it returns) are the
 * adapter; `HttpSettings`, `DEFAULT_SETTINGS` and `settingsFromEnv` are its limits and how the
 * environment sets them; `CatalogStore`, `StoredCatalog` and `RankerSnapshot` are the catalogue
 * cache a host may supply (the Workers' Durable Object store is one); `Hasher` is the hash a host
 * may inject; `VERSION` is what `/healthz` reports; `CodeModeDeps` is how a host gives code mode
 * its sandbox (and this deployment's bounds of a run). Session types are `./session`'s.
 *
 * @module
 */

export type { AppDeps, UnfoldApp } from "./app.ts";
export type { CatalogStore, RankerSnapshot, StoredCatalog } from "./catalog_cache.ts";
export { createApp } from "./app.ts";
export type { HttpSettings } from "./settings.ts";
export { DEFAULT_SETTINGS, settingsFromEnv } from "./settings.ts";
export type { Hasher } from "../canonical_json.ts";
export type { CodeModeDeps } from "./run_route.ts";
export { VERSION } from "../version.ts";
