/**
 * Every answer the model receives, within its ceiling: a search, a describe, an error, an
 * execute's result or a part asked for with `more` carries at most `maxResultTokens` (and
 * `maxResultBytes` of binary blocks) plus a marker; the rest is kept in the session for `more`,
 * and the session counts what was handed over. Doors: `boundResult` (a tool's result:
 * `/v1/result`, the gateway's execute and pinned tools), `answerMore` and `routeBounded`
 * (`bounded_route.ts`: a bridge call at `/v1/route` and the gateway), `Injector.handle()` (the
 * core), each tested at its face.
 *
 * @module
 */

import { type Answer, contentEnd, fitsCeiling, layOut } from "../bridge/answer.ts";
import {
  type Ceiling,
  type ChannelProgress,
  type CutInfo,
  formatRef,
  parseRef,
} from "../bridge/ceiling.ts";
import type { CutWork } from "../bridge/cut.ts";
import { type PartStart, readPart } from "../bridge/part.ts";
import { type PartRest, type PresentedPart, presentPart } from "../bridge/present.ts";
import { type CutProgress, shownPercent, unknownRefMessage } from "../bridge/render.ts";
import type { Result } from "../result.ts";
import type { ResultKey, ResultStore } from "./result_store.ts";
import type { SessionKey, SessionStore } from "./store.ts";

/** Where an answer is bounded: its ceiling, the session that counts it, the store that keeps it. */
export interface BoundContext {
  /** The ceilings (`resultCeiling(injector.config)`). */
  ceiling: Ceiling;
  /** The session that counts what is handed over; none: nothing is counted or kept. */
  session?: { store: SessionStore; key: SessionKey };
  /** Keeps the rest of a cut answer for `more` (with a session only; usually its store). */
  results?: ResultStore;
  /** A boundary inside the session (the gateway's profile): refs do not cross it. */
  scope?: string;
  /** Counts the cutter's work. */
  work?: CutWork;
}

/** An answer within its ceiling. */
export interface Bounded {
  /** The answer as the model is handed it, in the shape it came in. */
  answer: unknown;
  /** The tokens of its text, marker included. */
  tokens: number;
  /** The facts of the cut, when it was cut. */
  cut?: CutInfo;
  /** When it was cut: this part's text, marker included (what a structured copy may mirror). */
  text?: string;
}

/**
 * Bounds one answer: as it came when it is within its ceilings; else its first part, cut at clean
 * boundaries, with a marker in the text and the structured copy, the rest kept for `more` when
 * the context has a session and a result store. A binary block over the byte ceiling is replaced
 * by a line naming it. Counts nothing (see {@linkcode boundResult}).
 *
 * @param answer The answer: a bridge text, a mapped result, an MCP result.
 * @param context The ceiling, and where the rest is kept.
 * @returns The answer within its ceiling.
 *
 * @example Usage
 * ```ts
 * import { boundAnswer } from "./bound.ts";
 * import { estimateTokens } from "../tokens.ts";
 * import { match } from "node:assert/strict";
 *
 * const ceiling = { maxResultTokens: 100, maxResultBytes: 0, estimateTokens };
 * const bounded = await boundAnswer({ shape: "text", text: "line\n".repeat(500) }, { ceiling });
 * match(bounded.answer as string, /The rest is not kept without a session/);
 * ```
 */
export async function boundAnswer(answer: Answer, context: BoundContext): Promise<Bounded> {
  const { ceiling, work } = context;
  const laid = layOut(answer, ceiling, work);
  const { text, layout } = laid;
  const source = (from: number, to: number) => text.slice(from, to);
  const start: PartStart = {
    part: 1,
    content: { at: 0, inString: false, shown: 0 },
    ...(layout.structuredEnd === undefined
      ? {}
      : { structured: { at: contentEnd(layout), inString: false, shown: 0 } }),
  };
  if (fitsCeiling(layout, ceiling)) {
    if (!laid.replaced) return { answer: original(answer), tokens: layout.contentTokens };
    // Within the ceiling once its big blocks are lines: those lines, and nothing cut.
    const all = { ...ceiling, maxResultTokens: 0, maxResultBytes: 0 };
    const read = await readPart(source, layout, start, all);
    const shown = presentPart(layout, start, read, {}, ceiling);
    return { answer: shown.answer, tokens: shown.tokens };
  }
  const read = await readPart(source, layout, start, ceiling, work);
  let rest: PartRest = { notKept: "no_session" };
  if (read.next !== undefined && context.session !== undefined && context.results) {
    const kept = await context.results.keep(keyOf(context), { text, layout, next: read.next });
    rest = kept.ok
      ? { ref: formatRef(kept.id, 2) }
      : { notKept: "too_large", keptBytes: kept.limit };
  }
  return bounded(presentPart(layout, start, read, rest, ceiling), 1, rest);
}

/**
 * Bounds a tool's result ({@linkcode boundAnswer}) and counts it in the session: the tokens
 * handed over, and whether it was cut.
 *
 * @param answer The result, as a mapped result (`/v1/result`) or an MCP result (the gateway).
 * @param context The ceiling, the session and where the rest is kept.
 * @returns The result within its ceiling.
 *
 * @example Usage
 * ```ts
 * import { boundResult } from "./bound.ts";
 * import { MemorySessionStore } from "./memory_store.ts";
 * import { estimateTokens } from "../tokens.ts";
 * import { equal } from "node:assert/strict";
 *
 * const store = new MemorySessionStore();
 * const key = { tenant: "", session: "s" };
 * const ceiling = { maxResultTokens: 100, maxResultBytes: 0, estimateTokens };
 * const result = { content: [{ type: "text", text: "x".repeat(4_000) }] };
 * const bounded = await boundResult({ shape: "mcp", result }, { ceiling, session: { store, key }, results: store });
 * equal(bounded.cut?.next?.action, "more");
 * equal(store.get(key)?.counters.resultsCut, 1);
 * ```
 */
export async function boundResult(answer: Answer, context: BoundContext): Promise<Bounded> {
  const result = await boundAnswer(answer, context);
  await countAnswer(context, { tokens: result.tokens, cut: result.cut !== undefined, more: false });
  return result;
}

/** Why a `more` is not answered: the ref is not kept here (or is no ref). */
export type MoreError = { code: "unknown_ref"; message: string };

/**
 * Answers `{action: "more", ref}`: the next part of a kept answer, within the ceiling, with its
 * marker. Counts nothing (`routeBounded` does).
 *
 * @param ref The ref the model sent.
 * @param context The ceiling, the session and where the rest was kept.
 * @returns The part, or `unknown_ref` (expired, from another session, tenant or scope, or no
 * session at all).
 *
 * @example Usage
 * ```ts
 * import { answerMore } from "./bound.ts";
 * import { estimateTokens } from "../tokens.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ceiling = { maxResultTokens: 100, maxResultBytes: 0, estimateTokens };
 * const more = await answerMore("k3x9q2m7w1ab.2", { ceiling });
 * equal(more.ok ? "" : more.error.code, "unknown_ref");
 * ```
 */
export async function answerMore(
  ref: string,
  context: BoundContext,
): Promise<Result<Bounded, MoreError>> {
  const stateless = context.session === undefined || context.results === undefined;
  const unknown = (): Result<Bounded, MoreError> => ({
    ok: false,
    error: { code: "unknown_ref", message: unknownRefMessage(ref, stateless) },
  });
  const parsed = parseRef(ref.trim());
  if (stateless || parsed === undefined) return unknown();
  const got = await context.results!.part(keyOf(context), parsed.id, parsed.part, context.ceiling);
  if (got === undefined) return unknown();
  const rest: PartRest = got.read.next === undefined
    ? {}
    : { ref: formatRef(parsed.id, parsed.part + 1) };
  const shown = presentPart(got.layout, got.start, got.read, rest, context.ceiling);
  return { ok: true, value: bounded(shown, parsed.part, rest) };
}

function keyOf(context: BoundContext): ResultKey {
  const key = context.session!.key;
  return { tenant: key.tenant, session: key.session, scope: context.scope ?? "" };
}

/**
 * Counts an answer handed over in the context's session (nothing without one).
 *
 * @param context The context.
 * @param answer Its tokens, whether it was cut, whether it answered `more`, its error code.
 */
export async function countAnswer(
  context: BoundContext,
  answer: { tokens: number; cut: boolean; more: boolean; error?: string },
): Promise<void> {
  if (context.session === undefined) return;
  await context.session.store.apply(context.session.key, { event: { kind: "answer", ...answer } });
}

function original(answer: Answer): unknown {
  return answer.shape === "text" ? answer.text : answer.result;
}

function bounded(shown: PresentedPart, part: number, rest: PartRest): Bounded {
  const next = rest.ref === undefined ? undefined : { action: "more" as const, ref: rest.ref };
  const cut: CutInfo = {
    part,
    ...(next === undefined || !continues(shown) ? {} : { next }),
    ...(rest.notKept === undefined ? {} : { notKept: rest.notKept }),
    ...(shown.text === undefined ? {} : { text: channel(shown.text) }),
    ...(shown.structured === undefined ? {} : { structured: channel(shown.structured) }),
  };
  return { answer: shown.answer, tokens: shown.tokens, cut, text: shown.mirror };
}

function continues(shown: PresentedPart): boolean {
  return shown.text?.rest === "more" || shown.structured?.rest === "more";
}

function channel(progress: CutProgress): ChannelProgress {
  const done = progress.rest === "last" || progress.rest === "done";
  return {
    shownTokens: Math.min(progress.shownTokens, progress.totalTokens),
    totalTokens: progress.totalTokens,
    percent: done ? 100 : shownPercent(progress.shownTokens, progress.totalTokens),
    done,
  };
}
