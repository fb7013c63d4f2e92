/**
 * A bridge call routed with every answer within the ceiling: `more` answered from the session's
 * kept answers, any other call routed (in the session when one is given) and its text bounded.
 * The door the HTTP API's `/v1/route` uses, and the gateway's bridge calls; `handleBounded` adds
 * running an execute through an invoker, as `Injector.handle()` does without a session.
 *
 * @module
 */

import { type ErrorAction, errorAction, type RoutedAction } from "../bridge/action.ts";
import { type CutInfo, resultCeiling } from "../bridge/ceiling.ts";
import { parseBridgeCall } from "../bridge/parse.ts";
import { renderError } from "../bridge/render.ts";
import { executeBounded, type HandledAction, type Injector, type McpInvoker } from "../injector.ts";
import type { Result } from "../result.ts";
import { answerMore, boundAnswer, type BoundContext, boundResult, countAnswer } from "./bound.ts";
import { routeInSession, type SessionRouteOptions } from "./session_route.ts";
import type { SessionFullError } from "./store.ts";

/** A routed call, its answer within the ceiling: any action, or a part; and the facts of a cut. */
export type BoundedAction = RoutedAction & { cut?: CutInfo };

/**
 * Routes one call of the bridge tool with every answer within the ceiling: `more` answered from
 * the session's kept answers, any other call routed (within the session when one is given, see
 * `routeInSession`) and its text bounded; an execute is returned for the host to run (bound its
 * result with {@linkcode boundResult}). The session counts what is handed over.
 *
 * @param injector The injector over the catalogue (its configuration gives the ceiling).
 * @param args The bridge arguments: an object, or the model's raw JSON string.
 * @param session The session's routing options (`routeInSession`); none: the stateless rules.
 * @param context Where the rest is kept, and its scope (the ceiling defaults to the injector's).
 * @returns The action, or the session's failure to record.
 *
 * @example Usage
 * ```ts
 * import { Injector, McpCatalog } from "../../mod.ts";
 * import { routeBounded } from "./bounded_route.ts";
 * import { equal } from "node:assert/strict";
 *
 * const injector = new Injector(new McpCatalog([
 *   { server: "a", name: "b", description: "B", inputSchema: { type: "object" } },
 * ]));
 * const routed = await routeBounded(injector, { action: "describe", name: "a/b" });
 * equal(routed.ok && routed.value.action, "describe");
 * ```
 */
export async function routeBounded(
  injector: Injector,
  args: unknown,
  session?: SessionRouteOptions,
  context: Partial<BoundContext> = {},
): Promise<Result<BoundedAction, SessionFullError>> {
  const full: BoundContext = {
    ...context,
    ceiling: context.ceiling ?? resultCeiling(injector.config),
    ...(session === undefined ? {} : { session: { store: session.store, key: session.key } }),
  };
  const call = parseBridgeCall(args, injector.config);
  const ref = call.ok && call.value.action === "more" ? call.value.ref?.trim() : undefined;
  if (ref !== undefined && ref !== "") {
    const more = await answerMore(ref, full);
    if (more.ok) {
      await countAnswer(full, { tokens: more.value.tokens, cut: false, more: true });
      return {
        ok: true,
        value: { action: "more", ref, toolResult: more.value.answer, cut: more.value.cut! },
      };
    }
    const action: ErrorAction = errorAction(
      more.error.code,
      more.error.message,
      renderError(more.error.code, more.error.message),
    );
    const tokens = full.ceiling.estimateTokens(action.toolResult);
    await countAnswer(full, { tokens, cut: false, more: true, error: more.error.code });
    return { ok: true, value: action };
  }
  const routed = session === undefined
    ? { ok: true as const, value: injector.route(args) }
    : await routeInSession(injector, args, session);
  if (!routed.ok || routed.value.action === "execute") return routed;
  const action = routed.value;
  const result = await boundAnswer({ shape: "text", text: action.toolResult }, full);
  await countAnswer(full, { tokens: result.tokens, cut: result.cut !== undefined, more: false });
  return {
    ok: true,
    value: {
      ...action,
      toolResult: result.answer as string,
      ...(result.cut === undefined ? {} : { cut: result.cut }),
    },
  };
}

/**
 * {@linkcode routeBounded}, and an execute run through the invoker with its result bounded and
 * counted in the session ({@linkcode boundResult}): what `Injector.handle()` does, with a session
 * that keeps the rest of a cut answer for `more`.
 *
 * @param injector The injector over the catalogue.
 * @param args The bridge arguments: an object, or the model's raw JSON string.
 * @param invoker Runs the resolved tool.
 * @param session The session's routing options (`routeInSession`); none: the stateless rules.
 * @param context Where the rest is kept (the session's store, when it keeps results), its scope.
 * @returns The action with its `toolResult`, or the session's failure to record.
 *
 * @example Usage
 * ```ts
 * import { Injector, McpCatalog } from "../../mod.ts";
 * import { handleBounded } from "./bounded_route.ts";
 * import { MemorySessionStore } from "./memory_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const injector = new Injector(new McpCatalog([
 *   { server: "fs", name: "read", description: "Reads", inputSchema: { type: "object" } },
 * ]), { maxResultTokens: 100 });
 * const store = new MemorySessionStore();
 * const session = { store, key: { tenant: "", session: "s" }, catalogHash: "c", describeFirst: "off" as const };
 * const invoker = { invoke: () => "line\n".repeat(1_000) };
 * const first = await handleBounded(injector, { action: "execute", name: "fs/read" }, invoker, session, { results: store });
 * const next = first.ok ? first.value.cut?.next : undefined;
 * const more = await handleBounded(injector, next, invoker, session, { results: store });
 * equal(more.ok && more.value.action, "more");
 * ```
 */
export async function handleBounded(
  injector: Injector,
  args: unknown,
  invoker: McpInvoker,
  session?: SessionRouteOptions,
  context: Partial<BoundContext> = {},
): Promise<Result<HandledAction | BoundedAction, SessionFullError>> {
  const routed = await routeBounded(injector, args, session, context);
  if (!routed.ok || routed.value.action !== "execute") return routed;
  const full: BoundContext = {
    ...context,
    ceiling: context.ceiling ?? resultCeiling(injector.config),
    ...(session === undefined ? {} : { session: { store: session.store, key: session.key } }),
  };
  const executed = await executeBounded(
    routed.value,
    invoker,
    (answer) => boundResult(answer, full),
  );
  return { ok: true, value: executed };
}
