/**
 * Sessions (`@unfold/unfold/session`): what one conversation has been sent and done, so a schema
 * is sent once, execute waits for describe, and counters say how the model used the bridge. The
 * core's stateless `Injector` needs none of it; a host that keeps a conversation adds it.
 *
 * Why these names: `routeInSession` is the one entry point (route + the session's transition),
 * and `recordRun` what a host that runs code mode's scripts records of a run once it ended;
 * `SessionStore` is the strategy a host implements (the HTTP API's Durable Object store is one),
 * `MemorySessionStore` the ready-made one; `SessionKey`, `SessionInput`, `SessionDecision` and
 * `SessionState` are what a store takes, answers and keeps; `SessionFullError` is the expected
 * failure `routeInSession` returns (never throws) when a session outgrows its bound;
 * `SessionStoreError` is what a store throws when its backend fails.
 *
 * ```ts
 * import { Injector, McpCatalog } from "../../mod.ts";
 * import { MemorySessionStore, routeInSession } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const injector = new Injector(new McpCatalog([
 *   { server: "github", name: "create_issue", description: "Create an issue", inputSchema: { type: "object" } },
 * ]));
 * const options = { store: new MemorySessionStore(), key: { tenant: "", session: "s1" }, catalogHash: "h1" };
 * const first = await routeInSession(injector, { action: "execute", name: "github/create_issue" }, options);
 * equal(first.ok && first.value.action === "error" && first.value.error.code, "describe_first");
 * ```
 *
 * @module
 */

export type { SessionDecision, SessionInput, SessionState } from "./state.ts";
export type { SessionKey, SessionStore } from "./store.ts";
export { SessionFullError, SessionStoreError } from "./store.ts";
export type { MemorySessionStoreOptions } from "./memory_store.ts";
export { MemorySessionStore } from "./memory_store.ts";
export type { SessionRouteOptions } from "./session_route.ts";
export { recordRun, routeInSession } from "./session_route.ts";
