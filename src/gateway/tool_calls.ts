/**
 * One `tools/call` answered: a bridge call routed within its session (or by the stateless rules
 * when it has none, or when its session cannot record), and an execute or a pinned tool forwarded
 * to its upstream, whose failures become results naming the tool and its server.
 *
 * @module
 */

import type { BridgeAction } from "../bridge/action.ts";
import { parseBridgeCall } from "../bridge/parse.ts";
import type { Hasher } from "../canonical_json.ts";
import { routeInSession } from "../session/session_route.ts";
import type { SessionKey, SessionStore } from "../session/store.ts";
import { type McpTool, toolId } from "../tool.ts";
import { McpError } from "../tool_error.ts";
import type { CallToolResultLike } from "../tool_result.ts";
import type { GatewayOptions } from "./config.ts";
import { isSendableResult } from "./face.ts";
import type { GatewayState } from "./gateway_state.ts";
import { pinnedName } from "./presentation.ts";
import {
  actionResult,
  executeResult,
  explainConfiguredServer,
  failureResult,
  stateless,
} from "./results.ts";
import type { UpstreamPool } from "./upstreams.ts";

/** What one `tools/call` brings besides its name and arguments. */
export interface CallContext {
  /** The session (tenant and `Mcp-Session-Id`), or none: the stateless rules apply. */
  session?: SessionKey;
  /** Aborted when the host cancels the call; the upstream is then told. */
  signal?: AbortSignal;
  /** Receives the upstream's progress, to pass back to the host. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** What the calls reach: the upstreams, the sessions, the options. */
export interface CallSources {
  /** The upstreams. */
  pool: UpstreamPool;
  /** Where session state lives. */
  store: SessionStore;
  /** The `unfold` block (`describeFirst`, `callTimeoutMs`). */
  options: GatewayOptions;
  /** Hashes schemas for the session. */
  hash: Hasher;
  /** Told once when a session cannot record. */
  log?: (line: string) => void;
}

/**
 * Answers the gateway's calls against the state it has at the time of each call.
 *
 * @example Usage
 * ```ts
 * import { ToolCalls } from "./tool_calls.ts";
 * import { buildState } from "./gateway_state.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { MemorySessionStore } from "../session/memory_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const pool = {
 *   tools: () => [{ server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } }],
 *   statuses: () => [{ server: "a", state: "ready" as const, tools: 1 }],
 *   forward: () => Promise.resolve({ content: [{ type: "text" as const, text: "B done" }] }),
 *   onChange: () => () => {},
 *   close: () => Promise.resolve(),
 * };
 * const options = { pinned: [] };
 * const calls = new ToolCalls({ pool, store: new MemorySessionStore(), options, hash: sha256Hex });
 * const state = await buildState(pool, { options }, sha256Hex);
 * const result = await calls.bridge(state, { action: "execute", name: "a/b" }, {});
 * equal((result.content?.[0] as { text: string }).text, "B done");
 * ```
 */
export class ToolCalls {
  readonly #sources: CallSources;
  #sessionFailed = false;

  /**
   * Makes the calls.
   *
   * @param sources The upstreams, sessions and options.
   */
  constructor(sources: CallSources) {
    this.#sources = sources;
  }

  /**
   * Answers a call of the bridge tool.
   *
   * @param state The gateway's state now.
   * @param args The bridge arguments.
   * @param context The session, cancellation and progress.
   * @returns The result for the host.
   */
  async bridge(
    state: GatewayState,
    args: unknown,
    context: CallContext,
  ): Promise<CallToolResultLike> {
    const action = explainConfiguredServer(
      context.session === undefined
        ? stateless(state.injector, args)
        : await this.#inSession(state, args, context.session),
      state.statuses,
    );
    if (action.action !== "execute") return actionResult(action);
    return await this.forward(action.tool, action.arguments, context, true);
  }

  // A session that cannot record (full, or its store failing) must not leave the model stuck: the
  // call is answered by the stateless rules, which still send every schema and validate every
  // execute, and the host is told once on the log.
  async #inSession(state: GatewayState, args: unknown, session: SessionKey): Promise<BridgeAction> {
    let failure: unknown;
    const describeFirst = executesPinned(state, args) ? "off" : this.#sources.options.describeFirst;
    try {
      const routed = await routeInSession(state.injector, args, {
        store: this.#sources.store,
        key: session,
        catalogHash: state.catalogHash,
        hash: this.#sources.hash,
        ...(describeFirst === undefined ? {} : { describeFirst }),
      });
      if (routed.ok) return routed.value;
      failure = routed.error;
    } catch (error) {
      failure = error;
    }
    if (!this.#sessionFailed) {
      this.#sessionFailed = true;
      this.#sources.log?.(
        `a session could not record (${message(failure)}): answering by the stateless rules`,
      );
    }
    return stateless(state.injector, args);
  }

  /**
   * Calls the upstream; its result goes back as it came (the bridge wraps its structured content
   * so that it follows the bridge's output schema). Failures name the tool and its server.
   *
   * @param tool The tool.
   * @param args Its arguments.
   * @param context The session, cancellation and progress.
   * @param bridged Whether the call came through the bridge (else: a pinned tool).
   * @returns The result for the host.
   */
  async forward(
    tool: McpTool,
    args: Record<string, unknown>,
    context: CallContext,
    bridged: boolean,
  ): Promise<CallToolResultLike> {
    const id = toolId(tool);
    let result: CallToolResultLike;
    try {
      result = await this.#sources.pool.forward(tool, args, {
        ...(context.signal ? { signal: context.signal } : {}),
        ...(context.onProgress ? { onProgress: context.onProgress } : {}),
        ...(this.#sources.options.callTimeoutMs === undefined
          ? {}
          : { timeoutMs: this.#sources.options.callTimeoutMs }),
      });
      if (!isSendableResult(result)) {
        throw new McpError(
          "tool_error",
          `the server ${
            JSON.stringify(tool.server)
          } sent a malformed result (not an MCP CallToolResult: "content" must be a list of content blocks and "isError" true or false)`,
        );
      }
    } catch (error) {
      // Whatever went wrong upstream is the model's to read, never a protocol error.
      const code = error instanceof McpError ? error.code : "tool_error";
      const text = message(error);
      await this.#record(context, true);
      return failureResult(id, code, text, bridged);
    }
    await this.#record(context, result.isError === true);
    return bridged ? executeResult(id, result) : result;
  }

  // Counting a result is bookkeeping: a store that fails must not turn the result into an error.
  async #record(context: CallContext, isError: boolean): Promise<void> {
    if (context.session === undefined) return;
    try {
      await this.#sources.store.apply(context.session, { event: { kind: "result", isError } });
    } catch {
      // the counters miss one result
    }
  }
}

// A pinned tool's whole definition is in the host's tools/list, so the model has its schema
// already: an execute of it through the bridge is not held for a describe (its arguments are still
// checked). Parsed without ranking: the check costs what the call's size does, nothing more.
function executesPinned(state: GatewayState, args: unknown): boolean {
  const pinned = state.presentation.pinned;
  if (pinned.size === 0) return false;
  const parsed = parseBridgeCall(args, state.injector.config);
  if (!parsed.ok || parsed.value.action !== "execute" || parsed.value.name === undefined) {
    return false;
  }
  const tool = state.catalog.get(parsed.value.name.trim());
  return tool !== undefined && pinned.get(pinnedName(tool)) === tool;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
