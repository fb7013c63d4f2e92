/**
 * The mapping of an MCP `tools/call` result to what a host hands back to the model (DESIGN §7):
 * pure, runtime-neutral, and free of the MCP SDK so that any host, and the HTTP API, can reuse it.
 *
 * @module
 */

import { isRecord } from "./utils/record.ts";
import { McpError } from "./tool_error.ts";
import type { Result } from "./result.ts";

/**
 * An MCP `CallToolResult` as a server sends it: content blocks, optional structured content, and
 * an error flag. Blocks are read loosely, since they come from a third party.
 */
export interface CallToolResultLike {
  /** The content blocks (`text`, `image`, `audio`, `resource`, `resource_link`). */
  content?: readonly unknown[];
  /** The structured result, for tools that declare an `outputSchema`. */
  structuredContent?: Record<string, unknown>;
  /** Whether the tool failed. */
  isError?: boolean;
  /** Anything else the server sent (`_meta`, ...): ignored. */
  [field: string]: unknown;
}

/** A text block. */
export interface TextBlock {
  /** The block's type. */
  type: "text";
  /** The text. */
  text: string;
}

/** An image block: base64 data and its media type. */
export interface ImageBlock {
  /** The block's type. */
  type: "image";
  /** The media type, such as `image/png`. */
  mimeType: string;
  /** The image, base64-encoded. */
  data: string;
}

/**
 * A resource block. An embedded resource carries its content as `text` or `blob` (base64); a
 * resource link (`resource_link` in MCP) carries neither, but a `name` and maybe a `description`:
 * the host may read the `uri` from the server when it needs the content.
 */
export interface ResourceBlock {
  /** The block's type. */
  type: "resource";
  /** The resource's URI. */
  uri: string;
  /** The media type, when the server gives one. */
  mimeType?: string;
  /** The content of a text resource. */
  text?: string;
  /** The content of a binary resource, base64-encoded. */
  blob?: string;
  /** A resource link's name. */
  name?: string;
  /** A resource link's description. */
  description?: string;
}

/**
 * One block of mapped content. An audio block is an image block's shape with `type: "audio"`
 * (base64 `data` and its `mimeType`), mapped only where the caller passes audio on
 * (`{audio: true}`).
 */
export type ContentBlock =
  | TextBlock
  | ImageBlock
  | (Omit<ImageBlock, "type"> & { type: "audio" })
  | ResourceBlock;

/** How a result is mapped. */
export interface MapOptions {
  /**
   * Whether an audio block is passed on as `{type: "audio", mimeType, data}` rather than refused
   * as `unsupported_content` (the HTTP API's `/v1/result` passes it, within its byte ceiling).
   * @default {false}
   */
  audio?: boolean;
}

/** Mapped content: the text of a single text block, or else every block in order. */
export type MappedContent = string | ContentBlock[];

/** A result that came with structured content: the mapped content and the structured value. */
export interface StructuredResult {
  /** The mapped content, as without structured content. */
  content: MappedContent;
  /** The server's `structuredContent`, unchanged. */
  structuredContent: Record<string, unknown>;
}

/**
 * What a successful tool call gives the model: a string for a result of exactly one text block, an
 * array of {@linkcode ContentBlock}s for anything else, and `{content, structuredContent}` when
 * the server sent structured content.
 */
export type MappedResult = MappedContent | StructuredResult;

const NO_MESSAGE = "The tool reported an error without a message";

/**
 * Maps an MCP `tools/call` result to what a host hands back to the model:
 * - exactly one text block → that string;
 * - several blocks, or any non-text block → an array of `{type: "text", text}`,
 *   `{type: "image", mimeType, data}` and `{type: "resource", uri, mimeType?, text | blob}`
 *   (a resource link becomes `{type: "resource", uri, mimeType?, name, description?}`);
 * - `structuredContent`, when present → `{content, structuredContent}` with the content mapped as
 *   above;
 * - `isError: true` → throws a `tool_error` whose message is the text blocks joined by newlines.
 *
 * Annotations and `_meta` are dropped.
 *
 * @param result The `tools/call` result.
 * @returns The mapped result.
 * @throws {McpError} `tool_error` when the result is an error; `unsupported_content` for an
 * audio block, a block of an unknown type, or a malformed block.
 * @throws {TypeError} When `result` is not an object.
 *
 * @example Usage
 * ```ts
 * import { mapContent } from "./tool_result.ts";
 * import { McpError } from "./tool_error.ts";
 * import { deepEqual, equal, throws } from "node:assert/strict";
 *
 * equal(mapContent({ content: [{ type: "text", text: "Echo: hi" }] }), "Echo: hi");
 * deepEqual(mapContent({ content: [{ type: "text", text: "A logo:" }, { type: "image", mimeType: "image/png", data: "iVBO" }] }), [
 *   { type: "text", text: "A logo:" },
 *   { type: "image", mimeType: "image/png", data: "iVBO" },
 * ]);
 * deepEqual(mapContent({ content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } }), {
 *   content: '{"sum":3}',
 *   structuredContent: { sum: 3 },
 * });
 * throws(() => mapContent({ content: [{ type: "text", text: "No such file" }], isError: true }), McpError);
 * ```
 */
export function mapContent(result: CallToolResultLike): MappedResult {
  return mapResult(result, "the result");
}

/** What {@linkcode readResult} gives: the mapped result, or why it is not one. */
export type ReadResult = Result<MappedResult, McpError>;

/**
 * {@linkcode mapResult} with the expected failures as values: a result the tool flagged with
 * `isError` (code `tool_error`, its text as the message) and one that cannot be handed on
 * (`unsupported_content`). For callers that report them rather than fail (the HTTP API's
 * `/v1/result`).
 *
 * @param result The `tools/call` result.
 * @param subject What is mapped, for error messages: `the result of "everything/echo"`.
 * @param options Whether audio is passed on.
 * @returns The mapped result, or the error.
 * @throws {TypeError} When `result` is not an object.
 *
 * @example Usage
 * ```ts
 * import { readResult } from "./tool_result.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const read = readResult({ isError: true, content: [{ type: "text", text: "No such file" }] }, "it");
 * deepEqual(read.ok ? undefined : [read.error.code, read.error.message], ["tool_error", "No such file"]);
 * ```
 */
export function readResult(
  result: CallToolResultLike,
  subject: string,
  options: MapOptions = {},
): ReadResult {
  if (isRecord(result) && result.isError === true && Array.isArray(result.content ?? [])) {
    const text = (result.content ?? []).filter(isTextBlock).map((block) => block.text).join("\n");
    return { ok: false, error: new McpError("tool_error", text.trim() === "" ? NO_MESSAGE : text) };
  }
  try {
    return { ok: true, value: mapResult(result, subject, options) };
  } catch (error) {
    if (error instanceof McpError) return { ok: false, error };
    throw error;
  }
}

/**
 * {@linkcode mapContent}, with errors that name what is mapped.
 *
 * @param result The `tools/call` result.
 * @param subject What is mapped, for error messages: `the result of "everything/echo"`.
 * @param options Whether audio is passed on.
 * @returns The mapped result.
 * @throws {McpError} As {@linkcode mapContent}.
 * @throws {TypeError} When `result` is not an object.
 *
 * @example Usage
 * ```ts
 * import { mapResult } from "./tool_result.ts";
 * import { throws } from "node:assert/strict";
 *
 * throws(
 *   () => mapResult({ content: [{ type: "audio", mimeType: "audio/wav", data: "UklG" }] }, 'the result of "demo/speak"'),
 *   { code: "unsupported_content", message: 'Cannot map the result of "demo/speak": block 1 is audio ("audio/wav"), which cannot be handed on' },
 * );
 * ```
 */
export function mapResult(
  result: CallToolResultLike,
  subject: string,
  options: MapOptions = {},
): MappedResult {
  const unsupported = (why: string) =>
    new McpError("unsupported_content", `Cannot map ${subject}: ${why}`);
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw new TypeError(`Cannot map ${subject}: it must be an object`);
  }
  const blocks = result.content ?? [];
  if (!Array.isArray(blocks)) throw unsupported('"content" is not a list');
  if (result.isError === true) {
    const text = blocks.filter(isTextBlock).map((block) => block.text).join("\n");
    throw new McpError("tool_error", text.trim() === "" ? NO_MESSAGE : text);
  }
  const mapped = blocks.map((block, index) =>
    mapBlock(block, `block ${index + 1}`, unsupported, options.audio === true)
  );
  const only = mapped.length === 1 ? mapped[0] : undefined;
  const content: MappedContent = only?.type === "text" ? only.text : mapped;
  const structured = result.structuredContent;
  if (structured === undefined) return content;
  if (!isRecord(structured)) throw unsupported('"structuredContent" is not an object');
  return { content, structuredContent: structured };
}

type Unsupported = (why: string) => McpError;

function mapBlock(
  block: unknown,
  where: string,
  unsupported: Unsupported,
  audio: boolean,
): ContentBlock {
  if (!isRecord(block) || typeof block.type !== "string") {
    throw unsupported(`${where} has no type`);
  }
  switch (block.type) {
    case "text":
      if (!isTextBlock(block)) throw unsupported(`${where} is a text block without text`);
      return { type: "text", text: block.text };
    case "image":
      if (typeof block.data !== "string" || typeof block.mimeType !== "string") {
        throw unsupported(`${where} is an image without data or mimeType`);
      }
      return { type: "image", mimeType: block.mimeType, data: block.data };
    case "resource":
      return embeddedResource(block.resource, where, unsupported);
    case "resource_link":
      return resourceLink(block, where, unsupported);
    case "audio":
      if (audio && typeof block.data === "string" && typeof block.mimeType === "string") {
        return { type: "audio", mimeType: block.mimeType, data: block.data };
      }
      throw unsupported(
        `${where} is audio${
          typeof block.mimeType === "string" ? ` (${JSON.stringify(block.mimeType)})` : ""
        }, which cannot be handed on`,
      );
    default:
      throw unsupported(`${where} has the unknown type ${JSON.stringify(block.type)}`);
  }
}

function embeddedResource(
  resource: unknown,
  where: string,
  unsupported: Unsupported,
): ResourceBlock {
  if (!isRecord(resource) || typeof resource.uri !== "string") {
    throw unsupported(`${where} is a resource without a uri`);
  }
  const out: ResourceBlock = { type: "resource", uri: resource.uri };
  if (typeof resource.mimeType === "string") out.mimeType = resource.mimeType;
  if (typeof resource.text === "string") out.text = resource.text;
  else if (typeof resource.blob === "string") out.blob = resource.blob;
  else throw unsupported(`${where} is a resource without text or blob`);
  return out;
}

function resourceLink(
  link: Record<string, unknown>,
  where: string,
  unsupported: Unsupported,
): ResourceBlock {
  if (typeof link.uri !== "string" || typeof link.name !== "string") {
    throw unsupported(`${where} is a resource link without a uri or name`);
  }
  const out: ResourceBlock = { type: "resource", uri: link.uri };
  if (typeof link.mimeType === "string") out.mimeType = link.mimeType;
  out.name = link.name;
  if (typeof link.description === "string") out.description = link.description;
  return out;
}

function isTextBlock(block: unknown): block is TextBlock {
  return isRecord(block) && block.type === "text" && typeof block.text === "string";
}
