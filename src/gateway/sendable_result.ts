/**
 * Whether a tool result is one an MCP server may send: the verdicts of the SDK's
 * `isCallToolResult` (v2.4's `CallToolResultSchema`), without loading the SDK or a schema
 * library, so that the gateway's call path and its stdio face stay SDK-free. A fast-check
 * property test holds the two to the same verdicts (`test/gateway/sendable_result_test.ts`).
 *
 * @module
 */

import { isObject } from "./_jsonrpc.ts";

/**
 * Whether a tool result is one the server faces can send (the SDK checks every result it sends
 * and answers a protocol error otherwise): the gateway turns a malformed upstream result into a
 * tool error instead.
 *
 * @param result A `CallToolResult` as an upstream sent it.
 * @returns `true` when it is well formed.
 *
 * @example Usage
 * ```ts
 * import { isSendableResult } from "./sendable_result.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isSendableResult({ content: [{ type: "text", text: "ok" }] }), true);
 * equal(isSendableResult({ content: [], isError: "yes" }), false);
 * ```
 */
export function isSendableResult(result: unknown): boolean {
  if (!isObject(result) || result.content === undefined) return false;
  if (result._meta !== undefined && !isObject(result._meta)) return false;
  if (result.isError !== undefined && typeof result.isError !== "boolean") return false;
  return Array.isArray(result.content) && result.content.every(isContentBlock);
}

function isContentBlock(block: unknown): boolean {
  if (!isObject(block)) return false;
  if (!optional(block.annotations, isAnnotations) || !optional(block._meta, isObject)) return false;
  switch (block.type) {
    case "text":
      return typeof block.text === "string";
    case "image":
    case "audio":
      return typeof block.data === "string" && isBase64(block.data) &&
        typeof block.mimeType === "string";
    case "resource_link":
      return isResource(block);
    case "resource":
      return isResourceContents(block.resource);
    default:
      return false;
  }
}

function isResource(block: Record<string, unknown>): boolean {
  return typeof block.name === "string" && typeof block.uri === "string" &&
    optional(block.title, isString) && optional(block.description, isString) &&
    optional(block.mimeType, isString) && optional(block.size, isFiniteNumber) &&
    optional(block.icons, (icons) => Array.isArray(icons) && icons.every(isIcon));
}

function isIcon(icon: unknown): boolean {
  return isObject(icon) && typeof icon.src === "string" && optional(icon.mimeType, isString) &&
    optional(icon.sizes, (sizes) => Array.isArray(sizes) && sizes.every(isString)) &&
    optional(icon.theme, (theme) => theme === "light" || theme === "dark");
}

// Text or blob contents; base64 is what `atob` takes, as the SDK checks it.
function isResourceContents(contents: unknown): boolean {
  if (!isObject(contents) || typeof contents.uri !== "string") return false;
  if (!optional(contents.mimeType, isString) || !optional(contents._meta, isObject)) return false;
  return typeof contents.text === "string" ||
    (typeof contents.blob === "string" && isBase64(contents.blob));
}

function isAnnotations(annotations: unknown): boolean {
  return isObject(annotations) &&
    optional(
      annotations.audience,
      (audience) =>
        Array.isArray(audience) &&
        audience.every((role) => role === "user" || role === "assistant"),
    ) &&
    optional(
      annotations.priority,
      (priority) => isFiniteNumber(priority) && priority >= 0 && priority <= 1,
    ) &&
    optional(annotations.lastModified, (at) => typeof at === "string" && DATETIME.test(at));
}

function isBase64(text: string): boolean {
  try {
    atob(text);
    return true;
  } catch {
    return false;
  }
}

// zod v4's `z.iso.datetime({ offset: true })`: RFC 3339 with seconds, `Z` or an offset.
const DATE =
  "(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))";
const TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?";
const DATETIME = new RegExp(`^${DATE}T(?:${TIME}(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$`);

function optional(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || check(value);
}

function isString(value: unknown): boolean {
  return typeof value === "string";
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}
