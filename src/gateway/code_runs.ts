/**
 * Code mode at the gateway: a bridge call `{action: "run", code}` runs the model's script in the
 * gateway's sandbox, live, each `call(id, args)` of it forwarded upstream as an execute is.
 *
 * What holds for every call of a script (`runScriptCall`):
 * - the catalogue of the gateway's state resolves the id: the profile's tools alone exist, a tool
 *   held for approval is refused with why and the command that approves it, a server still
 *   starting or down is named as the bridge names it (`explainConfiguredServer`);
 * - `read-only` (the gateway's default) lets a script call only tools whose definition says
 *   `readOnlyHint: true`, and under trust only when the user approved those annotations (a
 *   flagged tool whose annotations are new or changed is refused): any other is executed through
 *   the bridge, where the host's approval sees it;
 * - the tool's input schema checks the arguments (the run's own check), without describe-first;
 * - `ToolCalls.invoke` forwards it: the live definition checked against the lock, the call's
 *   timeout, cancellation (the host's cancel stops the run, and the run's end the call) and the
 *   session's counters;
 * - the session records the run and each tool the script called (`recordRun`).
 *
 * The answer, `{result, logs, calls}` in the text and the structured copy alike, goes through the
 * result ceiling as every answer of the gateway does (`Gateway.call`, `bounded.ts`: cut with the
 * marker, the rest kept for `more`).
 *
 * Doors: the gateway's bridge tool over stdio and Streamable HTTP on Deno (the `unfold` command
 * gives a `DenoSandbox`), each profile's gateway (the same deps), and the gateway Worker (a
 * `WorkerLoaderSandbox` over its `LOADER` binding). A gateway without a sandbox offers no `run`.
 *
 * @module
 */

import { errorAction } from "../bridge/action.ts";
import type { ParsedCall } from "../bridge/parse.ts";
import type { RunAnswer } from "../code_mode/answer.ts";
import { unapprovedRefusal } from "../code_mode/render.ts";
import { runScript, type ScriptBridge } from "../code_mode/run.ts";
import type { Sandbox } from "../code_mode/sandbox.ts";
import type { ProgressiveConfig } from "../config.ts";
import { recordRun } from "../session/session_route.ts";
import type { SessionKey, SessionStore } from "../session/store.ts";
import type { McpTool } from "../tool.ts";
import type { CallToolResultLike } from "../tool_result.ts";
import { isRecord } from "../utils/record.ts";
import type { GatewayState } from "./gateway_state.ts";
import { explainConfiguredServer, visible } from "./results.ts";
import { approveHint, heldMessage, type TrustSource } from "./trust/policy.ts";
import { commandSpan } from "../utils/shell_words.ts";

/**
 * The code of a well-formed `run`, when code mode is on.
 *
 * @param parsed The bridge call, parsed.
 * @param config The injector's configuration.
 * @returns The code, or `undefined` for any other call.
 *
 * @example Usage
 * ```ts
 * import { scriptCode } from "./code_runs.ts";
 * import { equal } from "node:assert/strict";
 *
 * const parsed = { ok: true as const, value: { action: "run" as const, code: "return 1" } };
 * equal(scriptCode(parsed, { codeMode: "read-only" }), "return 1");
 * equal(scriptCode(parsed, { codeMode: "off" }), undefined);
 * ```
 */
export function scriptCode(
  parsed: ParsedCall,
  config: Pick<ProgressiveConfig, "codeMode">,
): string | undefined {
  if (config.codeMode === "off" || !parsed.ok || parsed.value.action !== "run") return undefined;
  return parsed.value.code;
}

/** What a run at the gateway reaches besides its state. */
export interface ScriptRunSources {
  /** Runs the script. */
  sandbox: Sandbox;
  /** Where the session records the run. */
  store: SessionStore;
  /** The approved definitions (none: trust off). */
  trust?: TrustSource;
  /** Forwards one call of the script (`ToolCalls.invoke`); throws what refuses or fails it. */
  invoke(
    tool: McpTool,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<CallToolResultLike>;
}

/**
 * Runs a script for a call of the bridge and answers it: `{result, logs, calls}` (and `error`),
 * in the text and the structured copy alike (the gateway bounds it, as every answer).
 *
 * @param state The gateway's state at the call.
 * @param code The script.
 * @param sources The sandbox, the session store, trust and the forward.
 * @param context The call's session and cancellation.
 * @returns The result for the host.
 */
export async function runScriptCall(
  state: GatewayState,
  code: string,
  sources: ScriptRunSources,
  context: { session?: SessionKey; signal?: AbortSignal },
): Promise<CallToolResultLike> {
  const answer = await runScript(scriptBridge(state, sources.trust), code, {
    sandbox: sources.sandbox,
    invoker: { invoke: (tool, args, signal) => sources.invoke(tool, args, signal) },
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  }) as RunAnswer;
  const session = context.session;
  if (session !== undefined) {
    // Bookkeeping: a store that fails must not turn the answer into an error.
    await recordRun(sources.store, session, state.catalogHash, answer).catch(() => {});
  }
  return {
    content: [{ type: "text", text: answer.toolResult }],
    structuredContent: visible({
      action: "run",
      ...answer.structuredContent,
      // What the script returned and logged comes from the servers' results.
      untrusted: ["result", "logs", "calls"],
    }) as Record<string, unknown>,
    ...(answer.isError ? { isError: true } : {}),
  };
}

/**
 * The bridge a script's requests take at the gateway: the injector's, with the gateway's own
 * answers first — a held tool is refused with why (the catalogue lacks it), a `read-only`
 * script's call of a tool whose annotations are not approved is refused, and a tool of a server
 * that is configured but not listed is explained as the bridge explains it.
 *
 * @param state The gateway's state at the call.
 * @param trust The approved definitions (none: trust off).
 * @returns The bridge for the run.
 *
 * @example Usage
 * ```ts
 * import { scriptBridge } from "./code_runs.ts";
 * import { buildState } from "./gateway_state.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { equal } from "node:assert/strict";
 *
 * const pool = {
 *   tools: () => [{ server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } }],
 *   statuses: () => [{ server: "a", state: "ready" as const, tools: 1 }],
 *   forward: () => Promise.reject(new Error("unused")),
 *   onChange: () => () => {},
 *   close: () => Promise.resolve(),
 * };
 * const state = await buildState(pool, { options: { pinned: [] } }, sha256Hex);
 * equal(scriptBridge(state).route({ action: "describe", name: "a/b" }).action, "describe");
 * ```
 */
export function scriptBridge(state: GatewayState, trust?: TrustSource): ScriptBridge {
  const injector = state.injector;
  return {
    catalog: injector.catalog,
    config: injector.config,
    route(args, options) {
      const named = isRecord(args) && typeof args.name === "string" ? args.name.trim() : undefined;
      const held = named === undefined ? undefined : state.held.get(named);
      if (held !== undefined && trust !== undefined) {
        const snapshot = state.statuses.some((s) => s.server === held.server && s.snapshot);
        const message = heldMessage(held, trust, snapshot);
        return errorAction("awaiting_approval" as never, message, message, { id: named! });
      }
      const action = explainConfiguredServer(injector.route(args, options ?? {}), state.statuses);
      if (
        action.action === "execute" && injector.config.codeMode === "read-only" &&
        unapprovedAnnotations(state, action.id)
      ) {
        const approve = trust === undefined
          ? undefined
          : commandSpan(approveHint(trust, [action.id]));
        const message = unapprovedRefusal(action.id, approve);
        return errorAction("read_only" as never, message, message, { id: action.id });
      }
      return action;
    },
  };
}

// Whether the user has not approved a flagged tool's annotations (new, or changed in them).
function unapprovedAnnotations(state: GatewayState, id: string): boolean {
  if (state.unapproved.length === 0) return false;
  return state.unapproved.some((tool) =>
    `${tool.server}/${tool.name}` === id &&
    (tool.change === "new" || tool.fields.includes("annotations"))
  );
}
