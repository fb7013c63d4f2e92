/**
 * The parts of a cut answer: each read from the laid-out text (`answer.ts`) where the previous
 * one ended — its content within the token and byte ceilings, cut at clean boundaries (`cut.ts`),
 * its structured copy within the token ceiling (`present.ts` hands it back). The text may be in
 * memory or in chunks in storage: a part reads only a window of it.
 *
 * @module
 */

import { type AnswerLayout, contentEnd, type ItemResource, type StreamItem } from "./answer.ts";
import type { Ceiling } from "./ceiling.ts";
import { cutText, type CutWork, windowUnits } from "./cut.ts";

/** Reads a range of a laid-out answer's text (from memory, or from storage). */
export type TextSource = (from: number, to: number) => string | Promise<string>;

/** Where one channel (the content, or the structured copy) of a part starts. */
export interface ChannelStart {
  /** The position in the text. */
  at: number;
  /** Whether it is inside a JSON string. */
  inString: boolean;
  /** The tokens shown before it. */
  shown: number;
}

/** Where a part starts: its number and each channel's position (none once a channel ended). */
export interface PartStart {
  /** The part's number: 1 for the answer itself. */
  part: number;
  /** The content's start, unless it ended in an earlier part. */
  content?: ChannelStart;
  /** The structured copy's start, unless it ended earlier (or there is none). */
  structured?: ChannelStart;
}

/** One block of a part, before its shape: a piece of a text item, or a block passed whole. */
export type PartBlock =
  | { kind: "text"; text: string; resource?: ItemResource }
  | { kind: "block"; json: string };

/** A part as read: its blocks, its structured piece, and where the next part starts. */
export interface PartRead {
  /** The part's number. */
  part: number;
  /** The content's blocks in this part (none once the content ended). */
  blocks: PartBlock[];
  /** The content's tokens in this part. */
  tokens: number;
  /** This part's piece of the structured copy's JSON, while it lasts. */
  structured?: string;
  /** Its tokens. */
  structuredTokens: number;
  /** Where the next part starts; none when this is the last. */
  next?: PartStart;
}

/**
 * Reads one part of a laid-out answer.
 *
 * @param source Reads the text.
 * @param layout The answer's layout.
 * @param start Where the part starts.
 * @param ceiling The ceilings the part is within.
 * @param work Counts the cutter's work.
 * @returns The part.
 *
 * @example Usage
 * ```ts
 * import { readPart } from "./part.ts";
 * import { layOut } from "./answer.ts";
 * import { estimateTokens } from "../tokens.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ceiling = { maxResultTokens: 100, maxResultBytes: 0, estimateTokens };
 * const laid = layOut({ shape: "text", text: "line\n".repeat(200) }, ceiling);
 * const read = await readPart((a, b) => laid.text.slice(a, b), laid.layout, {
 *   part: 1, content: { at: 0, inString: false, shown: 0 },
 * }, ceiling);
 * equal(read.blocks.length, 1);
 * equal(read.next?.content?.at, 400);
 * ```
 */
export async function readPart(
  source: TextSource,
  layout: AnswerLayout,
  start: PartStart,
  ceiling: Ceiling,
  work?: CutWork,
): Promise<PartRead> {
  const budget = ceiling.maxResultTokens === 0 ? Infinity : ceiling.maxResultTokens;
  const content = start.content === undefined
    ? undefined
    : await readContent(source, layout, start.content, budget, ceiling, work);
  let structured: { piece: string; tokens: number; next?: ChannelStart } | undefined;
  if (start.structured !== undefined && layout.structuredEnd !== undefined) {
    const from = start.structured;
    // Its piece is handed on inside a JSON string: measured escaped, so the copy stays within.
    const cut = await cutFrom(
      source,
      from,
      layout.structuredEnd,
      true,
      budget,
      ceiling,
      work,
      true,
    );
    structured = {
      piece: cut.piece,
      tokens: cut.tokens,
      ...(cut.end < layout.structuredEnd
        ? {
          next: { at: cut.end, inString: cut.inString, shown: from.shown + cut.tokens },
        }
        : {}),
    };
  }
  const next: PartStart = {
    part: start.part + 1,
    ...(content?.next === undefined ? {} : { content: content.next }),
    ...(structured?.next === undefined ? {} : { structured: structured.next }),
  };
  return {
    part: start.part,
    blocks: content?.blocks ?? [],
    tokens: content?.tokens ?? 0,
    ...(structured === undefined ? {} : { structured: structured.piece }),
    structuredTokens: structured?.tokens ?? 0,
    ...(next.content === undefined && next.structured === undefined ? {} : { next }),
  };
}

async function readContent(
  source: TextSource,
  layout: AnswerLayout,
  from: ChannelStart,
  budget: number,
  ceiling: Ceiling,
  work: CutWork | undefined,
): Promise<{ blocks: PartBlock[]; tokens: number; next?: ChannelStart }> {
  const items = layout.items;
  const bytesCeiling = ceiling.maxResultBytes === 0 ? Infinity : ceiling.maxResultBytes;
  const blocks: PartBlock[] = [];
  let used = 0;
  let bytes = 0;
  let at = from.at;
  let inString = from.inString;
  let index = itemAt(items, at);
  while (index < items.length) {
    const item = items[index]!;
    const itemStart = index === 0 ? 0 : items[index - 1]!.end;
    if (item.kind === "block") {
      // A block passed whole; after the first, one that does not fit waits for the next part.
      if (blocks.length > 0 && (used + item.tokens > budget || bytes + item.bytes > bytesCeiling)) {
        break;
      }
      blocks.push({ kind: "block", json: await source(itemStart, item.end) });
      used += item.tokens;
      bytes += item.bytes;
      at = item.end;
      inString = false;
      index++;
      continue;
    }
    const left = budget - used - item.frame;
    if (blocks.length > 0 && left <= 0) break;
    const cut = await cutFrom(
      source,
      { at, inString, shown: 0 },
      item.end,
      item.json,
      Math.max(1, left),
      ceiling,
      work,
    );
    // A text that does not fit, after half the part is used: it starts the next part, whole.
    if (cut.end < item.end && blocks.length > 0 && at === itemStart && used >= budget / 2) break;
    blocks.push({
      kind: "text",
      text: cut.piece,
      ...(item.resource === undefined ? {} : { resource: item.resource }),
    });
    used += cut.tokens + item.frame;
    at = cut.end;
    inString = cut.inString;
    if (cut.end < item.end) break;
    inString = false;
    index++;
  }
  return {
    blocks,
    tokens: used,
    ...(at < contentEnd(layout) ? { next: { at, inString, shown: from.shown + used } } : {}),
  };
}

// The item holding a position (the first whose end is past it).
function itemAt(items: readonly StreamItem[], at: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid]!.end <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// One cut of a text from a position, reading a window of the source (longer windows only for an
// estimator that counts fewer tokens than the default).
async function cutFrom(
  source: TextSource,
  from: ChannelStart,
  end: number,
  json: boolean,
  budget: number,
  ceiling: Ceiling,
  work: CutWork | undefined,
  escaped = false,
): Promise<{ piece: string; tokens: number; end: number; inString: boolean }> {
  let units = budget === Infinity ? end - from.at : windowUnits(budget);
  for (;;) {
    const to = Math.min(end, from.at + units);
    const window = await source(from.at, to);
    const cut = budget === Infinity
      ? { end: window.length, tokens: ceiling.estimateTokens(window), inString: false }
      : cutText(window, {
        budget,
        estimateTokens: ceiling.estimateTokens,
        json,
        inString: from.inString,
        complete: to === end,
        escaped,
        ...(work === undefined ? {} : { work }),
      });
    if (cut !== undefined) {
      const piece = window.slice(0, cut.end);
      return {
        piece,
        // The progress counts the piece as it is, as the whole was counted.
        tokens: escaped ? ceiling.estimateTokens(piece) : cut.tokens,
        end: from.at + cut.end,
        inString: cut.inString,
      };
    }
    units *= 2;
  }
}
