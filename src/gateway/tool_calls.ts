/**
 * One `tools/call` answered: a bridge call routed within its session (or by the stateless rules
 * when it has none, or when its session cannot record), and an execute or a pinned tool forwarded
 * to its upstream, whose failures become results naming the tool and its server. The bridge
 * arguments arrive parsed (by `Gateway.call`) and are not parsed again; the upstream's result is
 * checked once, by the connection, against the schema of the caller's era. Under trust, a
 * forwarded call goes out only once its tool's live definition has been checked against the lock
 * (`admit`): a snapshot never stands in for that check.
 *
 * @module
 */

import type { BridgeAction } from "../bridge/action.ts";
import type { BridgeOutput } from "../bridge/output_schema.ts";
import type { ParsedCall } from "../bridge/parse.ts";
import type { Hasher } from "../canonical_json.ts";
import { routeParsedInSession } from "../session/session_route.ts";
import type { SessionKey, SessionStore } from "../session/store.ts";
import { type McpTool, toolId } from "../tool.ts";
import { McpError } from "../tool_error.ts";
import type { CallToolResultLike } from "../tool_result.ts";
import type { GatewayOptions } from "./config/parse.ts";
import type { GatewayState } from "./gateway_state.ts";
import { pinnedName } from "./presentation.ts";
import {
  actionResult,
  explainConfiguredServer,
  failureResult,
  heldResult,
  stateless,
} from "./results.ts";
import { checkTrust, heldMessage, HeldToolError, type TrustSource } from "./trust/policy.ts";
import type { UpstreamPool } from "./pool/upstreams.ts";
import type { ClientIdentity } from "./host_profiles.ts";
import type { Learning } from "../session/learned.ts";
import type { LearnedRuns } from "../ranking/learned.ts";
import { notSearched } from "./not_searched.ts";
import type { Sandbox } from "../code_mode/sandbox.ts";
import { runScriptCall, scriptCode } from "./code_runs.ts";

/** What one `tools/call` brings besides its name and arguments. */
export interface CallContext {
  /** The session (tenant and `Mcp-Session-Id`), or none: the stateless rules apply. */
  session?: SessionKey;
  /** Aborted when the host cancels the call; the upstream is then told. */
  signal?: AbortSignal;
  /**
   * The host's protocol era: an upstream result its schema refuses is a tool error, not the
   * protocol error the server face would answer (default: the looser 2026-07-28 schema).
   */
  era?: "legacy" | "modern";
  /** Receives the upstream's progress, to pass back to the host. */
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** The client, when it said who it is (what it is shown depends on its host). */
  client?: ClientIdentity;
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
  /** The approved definitions: each forwarded call is checked against them (none: trust off). */
  trust?: TrustSource;
  /** Resolves once the gateway's state follows every upstream change seen so far. */
  settled?: () => Promise<void>;
  /**
   * What search learns from this gateway's runs, and the profile it serves (its scope with the
   * session's tenant); none: search does not learn. `learn: false` in the config turns it off.
   */
  learning?: { learning: Learning; profile: string };
  /** Runs the scripts of `run` (code mode, `code_runs.ts`); none: the bridge offers no `run`. */
  sandbox?: Sandbox;
}

/**
 * Answers the gateway's calls against the state it has at the time of each call.
 *
 * @example Usage
 * ```ts
 * import { ToolCalls } from "./tool_calls.ts";
 * import { buildState } from "./gateway_state.ts";
 * import { parseBridgeCall } from "../bridge/parse.ts";
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
 * const args = { action: "execute", name: "a/b" };
 * const result = await calls.bridge(state, args, parseBridgeCall(args, state.injector.config), {});
 * equal((result.content?.[0] as { text: string }).text, "B done");
 * ```
 */
export class ToolCalls {
  readonly #sources: CallSources;
  #sessionFailed = false;
  // Live definitions found approved, with the lock that approved them: a listing's tool objects
  // stay the same until the server lists again, so a call does not compare a definition with
  // the lock again (canonical JSON of every field) until the listing or the lock changes.
  readonly #approved = new WeakMap<McpTool, object>();

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
   * @param parsed Them parsed (`parseBridgeCall` with the injector's limits).
   * @param context The session, cancellation and progress.
   * @returns The result for the host.
   */
  async bridge(
    state: GatewayState,
    args: unknown,
    parsed: ParsedCall,
    context: CallContext,
  ): Promise<CallToolResultLike> {
    const held = this.#held(state, parsed);
    if (held !== undefined) return held;
    const code = scriptCode(parsed, state.injector.config);
    if (code !== undefined && this.#sources.sandbox !== undefined) {
      return await runScriptCall(state, code, {
        sandbox: this.#sources.sandbox,
        store: this.#sources.store,
        ...(this.#sources.trust === undefined ? {} : { trust: this.#sources.trust }),
        invoke: (tool, input, signal) => this.invoke(tool, input, context, signal),
      }, context);
    }
    const learning = this.#learning(state, context);
    // The learned prior lifts a search's ranking alone: fetched only for a search.
    const searching = parsed.ok && parsed.value.action === "search";
    const action = context.session === undefined
      ? stateless(state.injector, args, parsed)
      : await this.#inSession(
        state,
        args,
        parsed,
        context.session,
        searching ? await learning?.prior() : undefined,
      );
    if (action.action === "execute") {
      return await this.forward(action.tool, action.arguments, context, true);
    }
    if (action.action === "search") learning?.searched(action.query);
    const answered = explainConfiguredServer(action, state.statuses);
    return actionResult(answered, answered.action === "search" ? notSearched(state.statuses) : []);
  }

  // A session that cannot record (full, or its store failing) must not leave the model stuck: the
  // call is answered by the stateless rules, which still send every schema and validate every
  // execute, and the host is told once on the log.
  async #inSession(
    state: GatewayState,
    args: unknown,
    parsed: ParsedCall,
    session: SessionKey,
    learned?: LearnedRuns,
  ): Promise<BridgeAction> {
    let failure: unknown;
    const describeFirst = executesPinned(state, parsed)
      ? "off"
      : this.#sources.options.describeFirst;
    try {
      const routed = await routeParsedInSession(state.injector, args, parsed, {
        store: this.#sources.store,
        key: session,
        catalogHash: state.catalogHash,
        hash: this.#sources.hash,
        learned,
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
    return stateless(state.injector, args, parsed);
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
    const admit = this.#admitter(tool);
    let result: CallToolResultLike;
    try {
      result = await this.#sources.pool.forward(
        tool,
        args,
        this.#forwarding(context, bridged, admit),
      );
    } catch (error) {
      if (error instanceof HeldToolError) return heldResult(id, error.message, bridged);
      // Whatever went wrong upstream is the model's to read, never a protocol error.
      const code = error instanceof McpError ? error.code : "tool_error";
      const text = message(error);
      await this.#record(context, true);
      return failureResult(id, code, text, bridged);
    }
    await this.#record(context, result.isError === true);
    // A successful execute through the bridge teaches search (a pinned tool's call does not).
    if (result.isError !== true) await this.#learned(context, id, bridged);
    return bridged ? executeResult(id, result) : result;
  }

  /**
   * Runs one call of a script (code mode) as an execute goes out: the same trust check of the
   * live definition, timeout, cancellation (`signal`: the run's) and counters; its result comes
   * back as the upstream sent it. A refusal or a failure throws, for the script to read.
   *
   * @param tool The tool (resolved, its arguments checked, by the run).
   * @param args Its arguments.
   * @param context The call of the bridge that runs the script.
   * @param signal Aborted when the run no longer needs the call.
   * @returns The upstream's result.
   */
  async invoke(
    tool: McpTool,
    args: Record<string, unknown>,
    context: CallContext,
    signal?: AbortSignal,
  ): Promise<CallToolResultLike> {
    const { onProgress: _, ...quiet } = context;
    const call = signal === undefined ? quiet : { ...quiet, signal };
    let result: CallToolResultLike;
    try {
      // The script's value carries the structured content inside the run's answer (wrapped).
      result = await this.#sources.pool.forward(
        tool,
        args,
        this.#forwarding(call, true, this.#admitter(tool)),
      );
    } catch (error) {
      if (!(error instanceof HeldToolError)) await this.#record(context, true);
      throw error;
    }
    await this.#record(context, result.isError === true);
    return result;
  }

  // What a forwarded call goes out with: the check of its tool, cancellation, progress, timeout.
  #forwarding(
    context: CallContext,
    bridged: boolean,
    admit: ((live: McpTool | undefined) => Promise<void>) | undefined,
  ) {
    return {
      ...(admit === undefined ? {} : { admit }),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.onProgress ? { onProgress: context.onProgress } : {}),
      ...(this.#sources.options.callTimeoutMs === undefined
        ? {}
        : { timeoutMs: this.#sources.options.callTimeoutMs }),
      // The one check of the result, by the connection: the caller's era's schema (the bridge
      // puts the structured content in its own object).
      era: context.era ?? "modern",
      wrapsStructuredContent: bridged,
    };
  }

  // The session's scope of learning, when search learns (a session, a store, `learn` on).
  #learning(state: GatewayState, context: CallContext) {
    const source = this.#sources.learning;
    const session = context.session;
    if (source === undefined || session === undefined || !state.injector.config.learn) {
      return undefined;
    }
    const scope = { face: "gateway" as const, profile: source.profile, tenant: session.tenant };
    return {
      prior: () => source.learning.prior(scope),
      searched: (query: string) => source.learning.searched(scope, session.session, query),
    };
  }

  // Learning is bookkeeping too: a store that fails must not turn the result into an error.
  async #learned(context: CallContext, id: string, bridged: boolean): Promise<void> {
    const source = this.#sources.learning;
    if (source === undefined || context.session === undefined) return;
    const scope = {
      face: "gateway" as const,
      profile: source.profile,
      tenant: context.session.tenant,
    };
    await source.learning.executed(
      scope,
      context.session.session,
      id,
      bridged ? "bridge" : "pinned",
    )
      .catch(() => false);
  }

  // A describe or an execute of a tool held back is answered with why and the command that
  // approves it: the catalogue lacks the tool, so the bridge alone would say it does not exist.
  #held(state: GatewayState, parsed: ParsedCall): CallToolResultLike | undefined {
    const trust = this.#sources.trust;
    if (state.held.size === 0 || trust === undefined) return undefined;
    const id = calledName(parsed)?.name;
    const tool = id === undefined ? undefined : state.held.get(id);
    if (id === undefined || tool === undefined) return undefined;
    // Held on a snapshot only when its server did not list live in time (the gateway waited).
    const snapshot = state.statuses.some((s) => s.server === tool.server && s.snapshot === true);
    return heldResult(id, heldMessage(tool, trust, snapshot), true);
  }

  // Judges the live definition right before the call goes out (see PoolForwardOptions.admit).
  // Whatever it finds not approved, the gateway's state (overview, /status, the log) says first.
  #admitter(tool: McpTool): ((live: McpTool | undefined) => Promise<void>) | undefined {
    const { trust, hash, settled } = this.#sources;
    if (trust === undefined || trust.mode === "off") return undefined;
    return async (live) => {
      if (live === undefined) {
        throw new McpError(
          "tool_error",
          `Cannot call ${
            JSON.stringify(toolId(tool))
          }: its server's live listing no longer has it; search again`,
        );
      }
      const lock = trust.lock();
      if (lock !== undefined && this.#approved.get(live) === lock) return;
      const checked = await checkTrust([live], trust, hash);
      if (checked.unapproved.length === 0) {
        if (lock !== undefined) this.#approved.set(live, lock);
        return;
      }
      await settled?.();
      const held = checked.held.get(toolId(live));
      if (held !== undefined) throw new HeldToolError(heldMessage(held, trust));
    };
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
// checked).
function executesPinned(state: GatewayState, parsed: ParsedCall): boolean {
  const pinned = state.presentation.pinned;
  if (pinned.size === 0) return false;
  const called = calledName(parsed);
  if (called?.action !== "execute") return false;
  const tool = state.catalog.get(called.name);
  return tool !== undefined && pinned.get(pinnedName(tool)) === tool;
}

// The tool a describe or an execute names, trimmed.
function calledName(
  parsed: ParsedCall,
): { action: "describe" | "execute"; name: string } | undefined {
  if (!parsed.ok || parsed.value.name === undefined) return undefined;
  const action = parsed.value.action;
  if (action !== "describe" && action !== "execute") return undefined;
  return { action, name: parsed.value.name.trim() };
}

/**
 * An upstream result as the bridge hands it on: its content as it came, its structured content
 * wrapped so that it follows the bridge's output schema.
 *
 * @param id The tool's id.
 * @param result The upstream's result.
 * @returns The tool result.
 *
 * @example Usage
 * ```ts
 * import { executeResult } from "./tool_calls.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(executeResult("a/b", { content: [] }).structuredContent, { action: "execute", id: "a/b" });
 * ```
 */
export function executeResult(id: string, result: CallToolResultLike): CallToolResultLike {
  const { structuredContent, ...rest } = result;
  const content = Array.isArray(result.content) ? result.content : [];
  // Hosts that show the model only the structured copy (Claude Code, Codex) would lose a result
  // that is text alone: its text goes in the copy too.
  const texts = content.flatMap((block) =>
    (block as { type?: unknown }).type === "text" &&
      typeof (block as { text?: unknown }).text === "string"
      ? [(block as { text: string }).text]
      : []
  );
  return {
    ...rest,
    content,
    structuredContent: {
      action: "execute",
      id,
      ...(structuredContent === undefined ? {} : { result: structuredContent }),
      ...(structuredContent === undefined && texts.length > 0 ? { text: texts.join("\n") } : {}),
      ...(structuredContent !== undefined
        ? { untrusted: ["result"] }
        : texts.length > 0
        ? { untrusted: ["text"] }
        : {}),
    } satisfies BridgeOutput,
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
