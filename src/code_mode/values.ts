/**
 * What a script's `call` returns, from what a tool gave: `structuredContent` when there is one,
 * else the text of a single text block, else the content blocks; a tool's failure becomes the
 * error the call throws, with its message.
 *
 * @module
 */

import { isRecord } from "../utils/record.ts";
import { readResult } from "../tool_result.ts";

/** A call's outcome, for the script. */
export type ScriptValue =
  | { ok: true; value: unknown }
  | { ok: false; error: string; code: string };

/**
 * The script's value of an MCP `CallToolResult` (a replayed run's `results`, or what an invoker
 * that forwards returns).
 *
 * @param result The result, as the server sent it.
 * @param id The tool's id, for messages.
 * @returns The value, or the failure.
 *
 * @example Usage
 * ```ts
 * import { fromCallResult } from "./values.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(fromCallResult({ content: [{ type: "text", text: "hi" }] }, "a/b"), { ok: true, value: "hi" });
 * deepEqual(fromCallResult({ content: [], structuredContent: { n: 1 } }, "a/b"), { ok: true, value: { n: 1 } });
 * deepEqual(fromCallResult({ isError: true, content: [{ type: "text", text: "no" }] }, "a/b"), { ok: false, error: "no", code: "tool_error" });
 * ```
 */
export function fromCallResult(result: unknown, id: string): ScriptValue {
  if (!isRecord(result)) {
    return {
      ok: false,
      error: `The result of ${JSON.stringify(id)} is not an MCP result`,
      code: "tool_error",
    };
  }
  const read = readResult(result, `the result of ${JSON.stringify(id)}`);
  if (!read.ok) return { ok: false, error: read.error.message, code: read.error.code };
  const mapped = read.value;
  if (typeof mapped === "string" || Array.isArray(mapped)) return { ok: true, value: mapped };
  return { ok: true, value: mapped.structuredContent };
}

/**
 * The script's value of what an invoker returned: an MCP result (read as above), a mapped result
 * (`{content, structuredContent}`: the structured content), or any other value as it is.
 *
 * @param result What the invoker returned.
 * @param id The tool's id, for messages.
 * @returns The value, or the failure.
 *
 * @example Usage
 * ```ts
 * import { fromInvoker } from "./values.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(fromInvoker("Echo: hi", "a/b"), { ok: true, value: "Echo: hi" });
 * deepEqual(fromInvoker({ content: "x", structuredContent: { n: 1 } }, "a/b"), { ok: true, value: { n: 1 } });
 * ```
 */
export function fromInvoker(result: unknown, id: string): ScriptValue {
  if (isRecord(result) && Array.isArray(result.content)) return fromCallResult(result, id);
  if (isRecord(result) && isRecord(result.structuredContent) && "content" in result) {
    return { ok: true, value: result.structuredContent };
  }
  return { ok: true, value: result === undefined ? null : result };
}

/**
 * The failure of a call whose invoker threw: its message, and its code when it has one.
 *
 * @param error What the invoker threw.
 * @returns The failure.
 *
 * @example Usage
 * ```ts
 * import { fromThrown } from "./values.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(fromThrown(new Error("gone")), { ok: false, error: "gone", code: "tool_failed" });
 * ```
 */
export function fromThrown(error: unknown): ScriptValue & { ok: false } {
  const code = typeof (error as { code?: unknown })?.code === "string"
    ? (error as { code: string }).code
    : "tool_failed";
  return { ok: false, error: error instanceof Error ? error.message : String(error), code };
}
