/**
 * An answer as the model receives it, laid out for its ceiling: the content as one text (its text
 * blocks and text resources as they are, each block passed whole — image, audio, blob, link — as
 * its JSON) with a small index of items, then the structured copy's JSON. Binary blocks over the
 * byte ceiling are replaced here by a line naming their type, size and URI. What the layout
 * holds is what a cut answer keeps for `more` (`part.ts` reads its parts).
 *
 * @module
 */

import type { Ceiling } from "./ceiling.ts";
import type { CallToolResultLike, MappedResult } from "../tool_result.ts";
import { isRecord } from "../utils/record.ts";
import type { CutWork } from "./cut.ts";
import { renderOmittedBlock } from "./render.ts";

/** How an answer is handed back: a bridge text, a mapped result (`/v1/result`), an MCP result. */
export type AnswerShape = "text" | "mapped" | "mcp";

/** An answer before its ceiling. */
export type Answer =
  | { shape: "text"; text: string }
  | { shape: "mapped"; result: MappedResult }
  | { shape: "mcp"; result: CallToolResultLike };

/**
 * One item of the content: a run of text (a text block, or a text resource with its URI), or a
 * block passed whole (kept as its JSON). Items follow each other in the layout's text: an item
 * starts where the one before it ends.
 */
export type StreamItem =
  | {
    kind: "text";
    /** Where it ends in the text. */
    end: number;
    /** Whether it reads as JSON (its first character is `{` or `[`). */
    json: boolean;
    /** The tokens of its block around the text (`{"type":"text","text":…}`); 0 in a bridge text. */
    frame: number;
    /**
     * A text resource's URI and media type (`nested` as MCP has it, `{type, resource: {...}}`,
     * else flat as a mapped result has it); none for a text block.
     */
    resource?: ItemResource;
  }
  | {
    kind: "block";
    end: number;
    /** Its decoded binary size. */
    bytes: number;
    /** Its tokens, binary data left out. */
    tokens: number;
  };

/** A text resource's URI, media type and nesting. */
export interface ItemResource {
  /** Its URI. */
  uri: string;
  /** Its media type. */
  mimeType?: string;
  /** Whether the block nests it (`{type: "resource", resource: {uri, text}}`, as MCP does). */
  nested?: boolean;
}

/** Where the content and the structured copy are in a laid-out answer's text, and their size. */
export interface AnswerLayout {
  /** How parts are handed back. */
  shape: AnswerShape;
  /** The content's items; the last one's end is where the structured copy starts. */
  items: StreamItem[];
  /** The end of the structured copy's JSON, when the answer has one. */
  structuredEnd?: number;
  /** The content's tokens. */
  contentTokens: number;
  /** The content's binary bytes. */
  contentBytes: number;
  /** The structured copy's tokens (0 without one). */
  structuredTokens: number;
  /** An MCP result flagged as a tool error (its parts keep the flag). */
  isError?: boolean;
}

/** An answer laid out: its text, the layout, and whether a block was replaced by its line. */
export interface LaidOut {
  /** The content's text and blocks, then the structured copy's JSON. */
  text: string;
  /** Where each part is in the text. */
  layout: AnswerLayout;
  /** Whether a binary block over the byte ceiling was replaced by a line. */
  replaced: boolean;
}

/** The most items one layout indexes; the blocks after them are one text item of their JSON. */
export const MAX_ANSWER_ITEMS = 1_000;

/**
 * Lays an answer out for its ceiling.
 *
 * @param answer The answer.
 * @param ceiling The ceilings and the estimate.
 * @param work Counts the code units estimated.
 * @returns The text, the layout and whether a block was replaced.
 *
 * @example Usage
 * ```ts
 * import { layOut } from "./answer.ts";
 * import { estimateTokens } from "../tokens.ts";
 * import { equal } from "node:assert/strict";
 *
 * const laid = layOut({ shape: "text", text: "abcdefgh" }, { maxResultTokens: 100, maxResultBytes: 0, estimateTokens });
 * equal(laid.layout.contentTokens, 2);
 * ```
 */
export function layOut(answer: Answer, ceiling: Ceiling, work?: CutWork): LaidOut {
  const estimate = (text: string) => {
    if (work !== undefined) work.units += text.length;
    return ceiling.estimateTokens(text);
  };
  const pieces: string[] = [];
  const items: StreamItem[] = [];
  let end = 0;
  let tokens = 0;
  let bytes = 0;
  let replaced = false;
  // A block's framing counts too: 50,000 one-word blocks are not 50,000 tokens.
  const frameOf = (resource?: ItemResource) =>
    answer.shape === "text" ? 0 : estimate(JSON.stringify(
      resource ? { type: "resource", ...resource, text: "" } : {
        type: "text",
        text: "",
      },
    ));
  const addText = (text: string, resource?: ItemResource) => {
    end += text.length;
    pieces.push(text);
    const frame = frameOf(resource);
    tokens += estimate(text) + frame;
    items.push({
      kind: "text",
      end,
      json: readsAsJson(text),
      frame,
      ...(resource ? { resource } : {}),
    });
  };
  const addBlock = (block: Record<string, unknown>, size: number, kind: string) => {
    const limit = ceiling.maxResultBytes;
    const meta = blockMeta(block);
    const metaTokens = estimate(JSON.stringify(meta));
    const maxTokens = ceiling.maxResultTokens;
    if (
      size > 0 && ((limit > 0 && size > limit) || (maxTokens > 0 && metaTokens > maxTokens / 4))
    ) {
      replaced = true;
      const uri = typeof meta.uri === "string" ? meta.uri : undefined;
      const mimeType = typeof meta.mimeType === "string" ? meta.mimeType : undefined;
      addText(renderOmittedBlock({
        type: kind,
        bytes: size,
        ...(mimeType === undefined ? {} : { mimeType }),
        ...(uri === undefined ? {} : { uri }),
      }, limit));
      return;
    }
    const json = JSON.stringify(block);
    if (maxTokens > 0 && metaTokens > maxTokens / 4) {
      addText(json); // a link or an unknown block with a long text: read as text, nothing lost
      return;
    }
    end += json.length;
    pieces.push(json);
    tokens += metaTokens;
    bytes += size;
    items.push({ kind: "block", end, bytes: size, tokens: metaTokens });
  };
  const blocks = contentOf(answer);
  for (let i = 0; i < blocks.length; i++) {
    if (items.length === MAX_ANSWER_ITEMS - 1 && i < blocks.length - 1) {
      addText(JSON.stringify(blocks.slice(i))); // pathological: the rest, exact, as JSON
      break;
    }
    const block = blocks[i];
    if (typeof block === "string") {
      addText(block);
      continue;
    }
    const read = readBlock(block);
    if (read.kind === "text") addText(read.text, read.resource);
    else addBlock(read.block, read.bytes, read.type);
  }
  // One text, the usual result, is read as its text alone: no framing to count.
  const only = items.length === 1 ? items[0] : undefined;
  if (only?.kind === "text" && only.resource === undefined) {
    tokens -= only.frame;
    only.frame = 0;
  }
  const structured = structuredOf(answer);
  let structuredTokens = 0;
  let structuredEnd: number | undefined;
  if (structured !== undefined) {
    const json = JSON.stringify(structured);
    pieces.push(json);
    structuredTokens = estimate(json);
    structuredEnd = end + json.length;
  }
  return {
    text: pieces.join(""),
    layout: {
      shape: answer.shape,
      items,
      ...(structuredEnd === undefined ? {} : { structuredEnd }),
      contentTokens: tokens,
      contentBytes: bytes,
      structuredTokens,
      ...(answer.shape === "mcp" && answer.result.isError === true ? { isError: true } : {}),
    },
    replaced,
  };
}

/**
 * Whether a laid-out answer is within its ceilings as it is.
 *
 * @param layout The layout.
 * @param ceiling The ceilings.
 * @returns Whether nothing needs cutting.
 *
 * @example Usage
 * ```ts
 * import { fitsCeiling, layOut } from "./answer.ts";
 * import { estimateTokens } from "../tokens.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ceiling = { maxResultTokens: 100, maxResultBytes: 0, estimateTokens };
 * equal(fitsCeiling(layOut({ shape: "text", text: "x".repeat(401) }, ceiling).layout, ceiling), false);
 * ```
 */
export function fitsCeiling(layout: AnswerLayout, ceiling: Ceiling): boolean {
  const tokens = ceiling.maxResultTokens;
  const bytes = ceiling.maxResultBytes;
  return (tokens === 0 || (layout.contentTokens <= tokens && layout.structuredTokens <= tokens)) &&
    (bytes === 0 || layout.contentBytes <= bytes);
}

/** Where the content of a layout ends (and the structured copy starts). */
export function contentEnd(layout: AnswerLayout): number {
  return layout.items.at(-1)?.end ?? 0;
}

/**
 * The decoded size of base64 text, without decoding it.
 *
 * @param data The base64 text.
 * @returns Its decoded size in bytes.
 *
 * @example Usage
 * ```ts
 * import { base64Bytes } from "./answer.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(base64Bytes("aGk="), 2);
 * ```
 */
export function base64Bytes(data: string): number {
  let length = data.length;
  while (length > 0 && /\s/.test(data[length - 1]!)) length--;
  const padding = data[length - 1] === "=" ? (data[length - 2] === "=" ? 2 : 1) : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

function readsAsJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d) continue;
    return unit === 0x7b || unit === 0x5b;
  }
  return false;
}

// The blocks of an answer: a text as one string, a mapped result's blocks, an MCP result's.
function contentOf(answer: Answer): readonly unknown[] {
  switch (answer.shape) {
    case "text":
      return [answer.text];
    case "mapped": {
      const content = isStructured(answer.result) ? answer.result.content : answer.result;
      return typeof content === "string" ? [content] : content;
    }
    case "mcp":
      return Array.isArray(answer.result.content) ? answer.result.content : [];
  }
}

function structuredOf(answer: Answer): Record<string, unknown> | undefined {
  if (answer.shape === "mapped") {
    return isStructured(answer.result) ? answer.result.structuredContent : undefined;
  }
  if (answer.shape === "mcp") {
    const structured = answer.result.structuredContent;
    return isRecord(structured) ? structured : undefined;
  }
  return undefined;
}

function isStructured(
  result: MappedResult,
): result is Extract<MappedResult, { structuredContent: unknown }> {
  return !Array.isArray(result) && typeof result === "object" && result !== null;
}

type ReadBlock =
  | { kind: "text"; text: string; resource?: ItemResource }
  | { kind: "block"; block: Record<string, unknown>; bytes: number; type: string };

// A block as an item: text and text resources are text; everything else is passed whole, its
// binary size counted (images, audio, blobs). Mapped and MCP resources differ only in nesting.
function readBlock(block: unknown): ReadBlock {
  if (!isRecord(block)) return { kind: "block", block: { value: block }, bytes: 0, type: "block" };
  const type = typeof block.type === "string" ? block.type : "block";
  if (type === "text" && typeof block.text === "string") return { kind: "text", text: block.text };
  if ((type === "image" || type === "audio") && typeof block.data === "string") {
    return { kind: "block", block, bytes: base64Bytes(block.data), type };
  }
  if (type === "resource") {
    const nested = isRecord(block.resource);
    const resource = nested ? block.resource as Record<string, unknown> : block;
    if (typeof resource.uri === "string") {
      const mimeType = typeof resource.mimeType === "string" ? resource.mimeType : undefined;
      if (typeof resource.text === "string") {
        return {
          kind: "text",
          text: resource.text,
          resource: {
            uri: resource.uri,
            ...(mimeType === undefined ? {} : { mimeType }),
            ...(nested ? { nested } : {}),
          },
        };
      }
      if (typeof resource.blob === "string") {
        return { kind: "block", block, bytes: base64Bytes(resource.blob), type: "resource" };
      }
    }
  }
  return { kind: "block", block, bytes: 0, type };
}

// A block without its binary data: what its tokens are counted on and its line names.
function blockMeta(block: Record<string, unknown>): Record<string, unknown> {
  const { data: _data, blob: _blob, resource, ...rest } = block;
  if (!isRecord(resource)) return rest;
  const { blob: _inner, ...inner } = resource;
  return { ...rest, ...inner };
}
