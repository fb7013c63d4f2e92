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
 * `SessionStoreError` is what a store throws when its backend fails. `Learning` is search that
 * learns from a user's own runs (a tool executed after a search rises for later searches with the
 * same words), with `LearnedStore` the strategy that keeps it (`LearnedScope` says whose,
 * `LearnOrigin` where an execute came from, `LearningOptions` its bounds) and `LearnedRuns` the
 * runs themselves, which `McpCatalog.search` and `Injector.route` take as `learned`.
 * Result ceilings: every answer
 * within `maxResultTokens`, the rest of a cut one kept per session for `{action: "more", ref}` —
 * `routeBounded` (a bridge call), `boundResult` (a tool's result), `handleBounded` (both, with
 * an invoker), `answerMore`; `ResultStore` is the strategy a store implements to keep parts (the
 * memory store and the Durable Object store do).
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
export type { LearnedScope, LearnedStore, LearningOptions, LearnOrigin } from "./learned.ts";
export { Learning } from "./learned.ts";
export { LearnedRuns } from "../ranking/learned.ts";
export type { BoundContext, Bounded, MoreError } from "./bound.ts";
export { answerMore, boundResult } from "./bound.ts";
export type { BoundedAction } from "./bounded_route.ts";
export { handleBounded, routeBounded } from "./bounded_route.ts";
export type { KeepOutcome, KeptAnswer, KeptPart, ResultKey, ResultStore } from "./result_store.ts";
// What a result store keeps and reads: an answer laid out for its ceiling, and its parts.
export type { MoreAction, RoutedAction } from "../bridge/action.ts";
export type {
  Answer,
  AnswerLayout,
  AnswerShape,
  ItemResource,
  StreamItem,
} from "../bridge/answer.ts";
export type { Ceiling, ChannelProgress, CutInfo } from "../bridge/ceiling.ts";
export type { TokenEstimator } from "../tokens.ts";
export type { CutWork } from "../bridge/cut.ts";
export type { ChannelStart, PartBlock, PartRead, PartStart } from "../bridge/part.ts";
