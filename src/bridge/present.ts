/**
 * A part of a cut answer handed back in its answer's shape: a bridge text, a mapped result's
 * blocks, an MCP result; with a marker ending its text (`renderCut`) and the same facts in its
 * structured copy, which hosts such as Claude Code and Codex show the model instead of the text.
 *
 * @module
 */

import type { AnswerLayout } from "./answer.ts";
import type { Ceiling, CutInfo } from "./ceiling.ts";
import type { ChannelStart, PartRead, PartStart } from "./part.ts";
import { type CutProgress, renderCut, shownPercent } from "./render.ts";

/** What a part's marker says besides the part: the next ref, or why there is none. */
export interface PartRest {
  /** The ref of the next part, when the rest is kept. */
  ref?: string;
  /** Why the rest is not kept, when it is not. */
  notKept?: CutInfo["notKept"];
  /** The most bytes a session keeps, with `too_large`. */
  keptBytes?: number;
}

/** The structured copy of a cut answer: the marker's facts, and this part's piece of its JSON. */
export interface StructuredPart {
  /** How much of the structured copy was shown, and the next call. */
  cut: {
    /** This part's number. */
    part: number;
    /** The structured copy's tokens shown so far. */
    shownTokens: number;
    /** Its tokens in all. */
    totalTokens: number;
    /** The share shown, in per cent. */
    percent: number;
    /** The exact call for the next part, while one is kept. */
    next?: { action: "more"; ref: string };
    /** The marker, as the text says it. */
    note: string;
  };
  /** This part's piece of the structured copy's JSON; none once it ended in an earlier part. */
  json?: string;
}

/** A part handed back: the answer in its shape, and each channel's marker facts. */
export interface PresentedPart {
  /** A bridge text (`text`), a mapped result (`mapped`), an MCP result (`mcp`). */
  answer: unknown;
  /** The content's progress, when it was cut (or ended in an earlier part). */
  text?: CutProgress;
  /** The structured copy's progress, when it was cut (or ended in an earlier part). */
  structured?: CutProgress;
  /** The content of this part as one text, its marker included: what a structured copy mirrors. */
  mirror: string;
  /** The tokens the model is handed in the text: this part's content and its marker. */
  tokens: number;
}

/**
 * Hands a part back in its answer's shape: the content's blocks and, when the content was cut,
 * a marker line (a bridge text) or a last text block (a result); the structured copy as it was
 * when it fits whole, else {@linkcode StructuredPart}.
 *
 * @param layout The answer's layout.
 * @param start Where the part started.
 * @param read The part.
 * @param rest The next ref, or why there is none.
 * @param ceiling The estimate, to count the marker.
 * @returns The part.
 *
 * @example Usage
 * ```ts
 * import { presentPart } from "./present.ts";
 * import { readPart } from "./part.ts";
 * import { layOut } from "./answer.ts";
 * import { estimateTokens } from "../tokens.ts";
 * import { match } from "node:assert/strict";
 *
 * const ceiling = { maxResultTokens: 100, maxResultBytes: 0, estimateTokens };
 * const laid = layOut({ shape: "text", text: "line\n".repeat(200) }, ceiling);
 * const start = { part: 1, content: { at: 0, inString: false, shown: 0 } };
 * const read = await readPart((a, b) => laid.text.slice(a, b), laid.layout, start, ceiling);
 * const shown = presentPart(laid.layout, start, read, { notKept: "no_session" }, ceiling);
 * match(shown.answer as string, /\n\[Cut by unfold: 100 of 250 tokens shown \(40 %\)\. The rest is not kept/);
 * ```
 */
export function presentPart(
  layout: AnswerLayout,
  start: PartStart,
  read: PartRead,
  rest: PartRest,
  ceiling: Pick<Ceiling, "estimateTokens">,
): PresentedPart {
  const following = (hasNext: boolean): CutProgress["rest"] =>
    !hasNext ? "last" : rest.ref !== undefined ? "more" : rest.notKept ?? "no_session";
  const progress = (
    channel: NonNullable<CutProgress["channel"]>,
    from: ChannelStart | undefined,
    tokens: number,
    total: number,
    hasNext: boolean,
  ): CutProgress | undefined => {
    if (from === undefined) {
      return start.part > 1
        ? { part: start.part, shownTokens: total, totalTokens: total, rest: "done", channel }
        : undefined;
    }
    if (start.part === 1 && !hasNext) return undefined; // whole: nothing was cut
    const kind = following(hasNext);
    return {
      part: start.part,
      shownTokens: from.shown + tokens,
      totalTokens: total,
      rest: kind,
      ...(kind === "more" ? { ref: rest.ref! } : {}),
      ...(kind === "too_large" && rest.keptBytes !== undefined
        ? { keptBytes: rest.keptBytes }
        : {}),
    };
  };
  const text = progress(
    "text",
    start.content,
    read.tokens,
    layout.contentTokens,
    read.next?.content !== undefined,
  );
  const structured = layout.structuredEnd === undefined ? undefined : progress(
    "structured",
    start.structured,
    read.structuredTokens,
    layout.structuredTokens,
    read.next?.structured !== undefined,
  );
  const marker = text === undefined ? undefined : renderCut(text);
  const pieces = read.blocks.map((b) => b.kind === "text" ? b.text : b.json).join("");
  const mirror = marker === undefined ? pieces : `${pieces}\n${marker}`;
  const tokens = read.tokens + (marker === undefined ? 0 : ceiling.estimateTokens(`\n${marker}`));
  const structuredCopy = structuredOf(read, structured);
  const facts = {
    mirror,
    tokens,
    ...(text === undefined ? {} : { text }),
    ...(structured === undefined ? {} : { structured }),
  };
  if (layout.shape === "text") return { answer: mirror, ...facts };
  const blocks: unknown[] = read.blocks.map((b) => {
    if (b.kind === "block") return JSON.parse(b.json);
    if (b.resource === undefined) return { type: "text", text: b.text };
    const resource = {
      uri: b.resource.uri,
      ...(b.resource.mimeType === undefined ? {} : { mimeType: b.resource.mimeType }),
      text: b.text,
    };
    return b.resource.nested ? { type: "resource", resource } : { type: "resource", ...resource };
  });
  if (marker !== undefined) blocks.push({ type: "text", text: marker });
  if (layout.shape === "mcp") {
    return {
      answer: {
        content: blocks,
        ...(structuredCopy === undefined ? {} : { structuredContent: structuredCopy }),
        ...(layout.isError ? { isError: true } : {}),
      },
      ...facts,
    };
  }
  const only = blocks.length === 1 ? blocks[0] as { type: string; text?: string } : undefined;
  // One text block is its text, as a mapped result has it, unless a marker follows the part.
  const content = only?.type === "text" && marker === undefined && start.part === 1
    ? only.text
    : blocks;
  return {
    answer: structuredCopy === undefined ? content : { content, structuredContent: structuredCopy },
    ...facts,
  };
}

// The structured copy of a part: the value itself when it fits whole in the first part, else its
// piece with the marker's facts (or the facts alone once it ended in an earlier part).
function structuredOf(
  read: PartRead,
  progress: CutProgress | undefined,
): Record<string, unknown> | undefined {
  if (progress === undefined) {
    return read.structured === undefined ? undefined : JSON.parse(read.structured);
  }
  const note: StructuredPart = {
    cut: {
      part: progress.part,
      shownTokens: Math.min(progress.shownTokens, progress.totalTokens),
      totalTokens: progress.totalTokens,
      percent: shownPercent(progress.shownTokens, progress.totalTokens),
      ...(progress.rest === "more" ? { next: { action: "more", ref: progress.ref! } } : {}),
      note: renderCut(progress),
    },
    ...(read.structured === undefined ? {} : { json: read.structured }),
  };
  return note as unknown as Record<string, unknown>;
}
