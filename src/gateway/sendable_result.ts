/**
 * Tool results as an MCP server may send them: the verdicts of the SDK's `isCallToolResult` and the
 * values its server sends (v2.4's `CallToolResult` schemas of each era, which drop the members a
 * content block does not name), without loading the SDK or a schema library, so that the gateway's
 * call path and its stdio face stay SDK-free. Property tests hold them to the SDK
 * (`test/gateway/sendable_result_test.ts`, `test/gateway/faces/stdio_server_test.ts`).
 *
 * @module
 */

import { isId } from "../protocol/jsonrpc.ts";
import { RELATED_TASK_META_KEY, SERVER_INFO_META_KEY } from "../protocol/mcp.ts";
import { isRecord } from "../utils/record.ts";

/** Which server's result schema: the 2025 era's, or 2026-07-28's (also the SDK's public check). */
export type ResultSchemaEra = "legacy" | "modern";

const INVALID: unique symbol = Symbol("invalid");
// A parse in the shape of a zod schema: the value as zod outputs it, or INVALID.
type Parse = (value: unknown) => unknown;

const when = (ok: (value: unknown) => boolean): Parse => (value) => ok(value) ? value : INVALID;
const string = when((value) => typeof value === "string");
const boolean = when((value) => typeof value === "boolean");
const number = when((value) => typeof value === "number" && Number.isFinite(value));
const record = when(isRecord);
const any: Parse = (value) => value;
const oneOf = (...values: unknown[]) => when((value) => values.includes(value));
const optional = (parse: Parse): Parse => (value) => value === undefined ? undefined : parse(value);
const orUndefined = (parse: Parse): Parse => (value) => {
  const parsed = parse(value);
  return parsed === INVALID ? undefined : parsed;
};
const arrayOf = (parse: Parse): Parse => (value) => {
  if (!Array.isArray(value)) return INVALID;
  const out: unknown[] = [];
  for (const item of value) {
    const parsed = parse(item);
    if (parsed === INVALID) return INVALID;
    out.push(parsed);
  }
  return out;
};
// zod's object: the named members in order, then (when loose) the others as they are.
const object = (shape: Record<string, Parse>, loose = false): Parse => (value) => {
  if (!isRecord(value)) return INVALID;
  const out: Record<string, unknown> = {};
  for (const key in shape) {
    const parsed = shape[key]!(value[key]);
    if (parsed === INVALID) return INVALID;
    // A member given as `undefined` keeps its place, as in zod's output (and so in what is sent).
    if (parsed !== undefined || Object.hasOwn(value, key)) out[key] = parsed;
  }
  // An upstream's own keys are data: `constructor` is kept like any other, and `__proto__` is
  // dropped (as zod does), never made the copy's prototype.
  if (loose) {
    for (const key in value) {
      if (!Object.hasOwn(shape, key) && key !== "__proto__") out[key] = value[key];
    }
  }
  return out;
};
const union = (...parses: Parse[]): Parse => (value) => {
  for (const parse of parses) {
    const parsed = parse(value);
    if (parsed !== INVALID) return parsed;
  }
  return INVALID;
};

// Base64 as the SDK checks it: what `atob` takes.
const base64 = when((value) => {
  if (typeof value !== "string") return false;
  try {
    atob(value);
    return true;
  } catch {
    return false;
  }
});
// zod v4's `z.iso.datetime({ offset: true })`: RFC 3339 with seconds, `Z` or an offset.
const DATE =
  "(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))";
const TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?";
const DATETIME = new RegExp(`^${DATE}T(?:${TIME}(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$`);
const datetime = when((value) => typeof value === "string" && DATETIME.test(value));

const annotations = object({
  audience: optional(arrayOf(oneOf("user", "assistant"))),
  priority: optional(
    when((value) => number(value) !== INVALID && value as number >= 0 && value as number <= 1),
  ),
  lastModified: optional(datetime),
});
const icon = object({
  src: string,
  mimeType: optional(string),
  sizes: optional(arrayOf(string)),
  theme: optional(oneOf("light", "dark")),
});
const implementation = object({
  name: string,
  title: optional(string),
  icons: optional(arrayOf(icon)),
  version: string,
  websiteUrl: optional(string),
  description: optional(string),
});
const decorations = { annotations: optional(annotations), _meta: optional(record) };
const contents = { uri: string, mimeType: optional(string), _meta: optional(record) };
const block = union(
  object({ type: oneOf("text"), text: string, ...decorations }),
  object({ type: oneOf("image"), data: base64, mimeType: string, ...decorations }),
  object({ type: oneOf("audio"), data: base64, mimeType: string, ...decorations }),
  object({
    name: string,
    title: optional(string),
    icons: optional(arrayOf(icon)),
    uri: string,
    description: optional(string),
    mimeType: optional(string),
    size: optional(number),
    annotations: optional(annotations),
    _meta: optional(object({}, true)),
    type: oneOf("resource_link"),
  }),
  object({
    type: oneOf("resource"),
    resource: union(
      object({ ...contents, text: string }),
      object({ ...contents, blob: base64 }),
    ),
    ...decorations,
  }),
);
const resultMeta = object({ [SERVER_INFO_META_KEY]: orUndefined(optional(implementation)) }, true);
// The SDK's public check and its 2026-07-28 server take the same result.
const RESULT = object({
  _meta: optional(resultMeta),
  content: arrayOf(block),
  structuredContent: any,
  isError: optional(boolean),
}, true);
const RESULTS: Record<ResultSchemaEra, Parse> = {
  // The 2025 era's result `_meta` is a request's, and its structured content an object.
  legacy: object({
    _meta: optional(object({
      progressToken: optional(when(isId)),
      [RELATED_TASK_META_KEY]: optional(object({ taskId: string })),
    }, true)),
    content: arrayOf(block),
    structuredContent: optional(record),
    isError: optional(boolean),
  }, true),
  modern: RESULT,
};

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
  return RESULT(result) !== INVALID;
}

/**
 * A tool result as the SDK's server of an era sends it: its schema's output (a content block
 * loses the members it does not name), or `undefined` when the server refuses it.
 *
 * @param result A tool result with its content (the server adds `content: []` when absent).
 * @param era Which server's schema.
 * @returns The result to send, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { sentResult } from "./sendable_result.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * deepEqual(sentResult({ content: [{ type: "text", text: "a", extra: 1 }] }, "legacy"), {
 *   content: [{ type: "text", text: "a" }],
 * });
 * equal(sentResult({ content: [], structuredContent: [1] }, "legacy"), undefined);
 * ```
 */
export function sentResult(
  result: unknown,
  era: ResultSchemaEra,
): Record<string, unknown> | undefined {
  const parsed = RESULTS[era](result);
  return parsed === INVALID ? undefined : parsed as Record<string, unknown>;
}
