/**
 * Every answer the gateway gives within the result ceiling (`maxResultTokens`, `maxResultBytes`):
 * the core's cut (`boundResult`, `answerMore` in `src/session/bound.ts`), applied to the MCP
 * result the host is sent, its text and its structured copy, with the rest kept in the session
 * for `{action: "more", ref}`. Refs are kept per session (tenant and `Mcp-Session-Id`) and per
 * profile (the scope): a ref from elsewhere is unknown. A cut structured copy of the bridge
 * keeps the bridge's output schema (`action`, `id`, the marker's `cut` and this part's `json`).
 *
 * Doors, each through `Gateway.call` (so every face — stdio, Streamable HTTP on Deno, the Worker —
 * reaches them): the bridge's search, describe, errors and executes, the read-only discovery
 * tool's answers, pinned tools exposed directly, and `more` on the bridge or the discovery tool.
 *
 * @module
 */

import { errorAction } from "../bridge/action.ts";
import { type Ceiling, resultCeiling } from "../bridge/ceiling.ts";
import type { BridgeOutput } from "../bridge/output_schema.ts";
import type { ParsedCall } from "../bridge/parse.ts";
import { renderError } from "../bridge/render.ts";
import type { ProgressiveConfig } from "../config.ts";
import { answerMore, boundAnswer, type BoundContext, countAnswer } from "../session/bound.ts";
import { isResultStore, type ResultStore } from "../session/result_store.ts";
import type { SessionKey, SessionStore } from "../session/store.ts";
import type { CallToolResultLike } from "../tool_result.ts";
import { isRecord } from "../utils/record.ts";
import { actionResult } from "./results.ts";

/** Where the gateway bounds its answers: the sessions, where cut answers are kept, the scope. */
export interface BoundSources {
  /** Where session state lives (it counts what is handed over). */
  store: SessionStore;
  /** Where the rest of a cut answer is kept (default: the store, when it keeps them). */
  results?: ResultStore;
  /** The profile served: refs do not cross profiles (`""`: the gateway-wide one). */
  scope: string;
}

/**
 * Bounds the gateway's answers and answers `more`.
 *
 * @example Usage
 * ```ts
 * import { GatewayBounds } from "./bounded.ts";
 * import { MemorySessionStore } from "../session/memory_store.ts";
 * import { resolveConfig } from "../config.ts";
 * import { match } from "node:assert/strict";
 *
 * const bounds = new GatewayBounds({ store: new MemorySessionStore(), scope: "" });
 * const config = resolveConfig({ maxResultTokens: 100 });
 * const text = "line\n".repeat(1_000);
 * const result = {
 *   content: [{ type: "text", text }],
 *   structuredContent: { action: "execute", id: "a/b", text, untrusted: ["text"] },
 * };
 * const bounded = await bounds.bound(result, config, { tenant: "", session: "s" }, true);
 * match(JSON.stringify(bounded.structuredContent), /"next":\{"action":"more","ref":/);
 * ```
 */
export class GatewayBounds {
  readonly #sources: BoundSources;
  readonly #results: ResultStore | undefined;

  /**
   * Makes the bounds.
   *
   * @param sources The sessions, where cut answers are kept, and the profile.
   */
  constructor(sources: BoundSources) {
    this.#sources = sources;
    this.#results = sources.results ??
      (isResultStore(sources.store) ? sources.store : undefined);
  }

  /**
   * Answers `{action: "more", ref}` from the session's kept parts: the next part, or an
   * `unknown_ref` error that says how to get the data again. Anything else is not its to answer.
   *
   * @param parsed The bridge call, parsed.
   * @param config The injector's configuration (the ceiling).
   * @param session The session, or none (nothing is kept without one).
   * @returns The result for the host, or `undefined` when the call is no `more` with a ref.
   */
  async more(
    parsed: ParsedCall,
    config: CeilingConfig,
    session: SessionKey | undefined,
  ): Promise<CallToolResultLike | undefined> {
    if (!parsed.ok || parsed.value.action !== "more") return undefined;
    const ref = parsed.value.ref?.trim();
    if (ref === undefined || ref === "") return undefined; // the router says "ref" is required
    const context = this.#context(config, session);
    const more = await answerMore(ref, context);
    if (more.ok) {
      await this.#count(context, { tokens: more.value.tokens, cut: false, more: true });
      return moreResult(more.value.answer, ref);
    }
    const failed = actionResult(
      errorAction(
        more.error.code,
        more.error.message,
        renderError(more.error.code, more.error.message),
      ),
    );
    const tokens = context.ceiling.estimateTokens(textOf(failed));
    await this.#count(context, { tokens, cut: false, more: true, error: more.error.code });
    return failed;
  }

  /**
   * Bounds one result the host is about to be sent: as it is when within the ceiling, else its
   * first part with the marker in its text and its structured copy, the rest kept for `more`.
   * Counted in the session.
   *
   * @param result The result (a bridge answer, an execute's, a pinned tool's).
   * @param config The injector's configuration (the ceiling).
   * @param session The session, or none.
   * @param bridged Whether it is the bridge's (its structured copy follows the bridge's schema).
   * @returns The result within the ceiling.
   */
  async bound(
    result: CallToolResultLike,
    config: CeilingConfig,
    session: SessionKey | undefined,
    bridged: boolean,
  ): Promise<CallToolResultLike> {
    const context = this.#context(config, session);
    let bounded;
    try {
      bounded = await boundAnswer({ shape: "mcp", result }, context);
    } catch {
      // A store that fails to keep: the answer is still bounded, its rest not kept.
      bounded = await boundAnswer({ shape: "mcp", result }, { ceiling: context.ceiling });
    }
    await this.#count(context, {
      tokens: bounded.tokens,
      cut: bounded.cut !== undefined,
      more: false,
    });
    if (bounded.cut === undefined) return bounded.answer as CallToolResultLike;
    const answer = bounded.answer as CallToolResultLike;
    if (!bridged || !isRecord(answer.structuredContent)) return answer;
    return { ...answer, structuredContent: bridgeCopy(answer.structuredContent, result) };
  }

  #context(config: CeilingConfig, session: SessionKey | undefined): BoundContext {
    return {
      ceiling: ceilingOf(config),
      scope: this.#sources.scope,
      ...(session === undefined ? {} : {
        session: { store: this.#sources.store, key: session },
        ...(this.#results === undefined ? {} : { results: this.#results }),
      }),
    };
  }

  // Counting is bookkeeping: a store that fails must not turn the answer into an error.
  async #count(context: BoundContext, answer: Parameters<typeof countAnswer>[1]): Promise<void> {
    try {
      await countAnswer(context, answer);
    } catch {
      // the counters miss one answer
    }
  }
}

/** The keys of the injector's configuration the ceiling is read from. */
export type CeilingConfig = Pick<
  ProgressiveConfig,
  "maxResultTokens" | "maxResultBytes" | "estimateTokens"
>;

function ceilingOf(config: CeilingConfig): Ceiling {
  return resultCeiling(config);
}

// The structured copy of a cut bridge answer, in the bridge's output schema: its action and id,
// the marker's facts (`cut`) and this part's piece of its JSON (`json`), which holds the servers'
// data when the copy did.
function bridgeCopy(copy: unknown, original: CallToolResultLike): Record<string, unknown> {
  const was = isRecord(original.structuredContent) ? original.structuredContent : {};
  if (!isRecord(copy) || !isRecord(copy.cut)) return copy as Record<string, unknown>;
  const untrusted = Array.isArray(was.untrusted) && was.untrusted.length > 0;
  return {
    action: typeof was.action === "string" ? was.action : "execute",
    ...(typeof was.id === "string" ? { id: was.id } : {}),
    cut: copy.cut,
    ...(typeof copy.json === "string" ? { json: copy.json } : {}),
    ...(untrusted && typeof copy.json === "string" ? { untrusted: ["json"] } : {}),
  } as unknown as BridgeOutput as unknown as Record<string, unknown>;
}

// A part asked for with `more`, in the bridge's output schema: its text (the marker ends it) and
// a structured copy that names the part (its piece of the original copy's JSON, when it has one).
function moreResult(answer: unknown, ref: string): CallToolResultLike {
  const part = answer as CallToolResultLike;
  const copy = isRecord(part.structuredContent) ? part.structuredContent : undefined;
  const text = textOf(part);
  const structured: BridgeOutput = {
    action: "more",
    ref,
    ...(copy !== undefined && isRecord(copy.cut)
      ? { cut: copy.cut as NonNullable<BridgeOutput["cut"]> }
      : {}),
    ...(copy !== undefined && typeof copy.json === "string" ? { json: copy.json } : {}),
    // Hosts that show the model only this copy read the part's text here.
    ...(copy === undefined || typeof copy.json !== "string" ? { text } : {}),
    untrusted: copy !== undefined && typeof copy.json === "string" ? ["json"] : ["text"],
  };
  return {
    content: Array.isArray(part.content) ? part.content : [],
    structuredContent: structured as unknown as Record<string, unknown>,
    ...(part.isError === true ? { isError: true } : {}),
  };
}

function textOf(result: CallToolResultLike): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.flatMap((block) =>
    isRecord(block) && block.type === "text" && typeof block.text === "string" ? [block.text] : []
  ).join("\n");
}
