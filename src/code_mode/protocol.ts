/**
 * The messages between a script's harness (inside the sandbox) and the host, one JSON text each:
 * the harness's requests (`call`, `search`, `describe`), notices (`log`) and last word (`done`),
 * and the host's replies. The host reads every message as hostile: `readScriptMessage` checks it
 * before anything acts on it, whatever the sandbox's own harness was made to write.
 *
 * @module
 */

import { isRecord } from "../utils/record.ts";

/** The `console` methods a script may use; a line keeps its level. */
export const LOG_LEVELS = ["log", "info", "warn", "error", "debug"] as const;

/** A message of the harness. */
export type ScriptMessage =
  | {
    /** Call a tool of the catalogue. */
    op: "call";
    /** The request's number: 1, 2, … in the order the script made its requests. */
    seq: number;
    /** The tool id. */
    tool: string;
    /** Its arguments. */
    args: Record<string, unknown>;
  }
  | {
    /** Search the catalogue. */
    op: "search";
    /** The request's number. */
    seq: number;
    /** The query. */
    query: string;
    /** The most results, when the script gave one. */
    limit?: number;
  }
  | {
    /** One tool's definition. */
    op: "describe";
    /** The request's number. */
    seq: number;
    /** The tool id. */
    id: string;
  }
  | {
    /** A `console` line. */
    op: "log";
    /** Its level. */
    level: typeof LOG_LEVELS[number];
    /** The line. */
    text: string;
  };

/** Why the harness ended a run without a value. */
export type ScriptFailure = {
  /**
   * `exception`: the script threw; `not_json`: its value is not JSON; `limit`: it reached a
   * bound; `never_settles`: it waits for nothing that can happen; `syntax_error`: the engine
   * refused what the parser let through.
   */
  kind: "exception" | "not_json" | "limit" | "never_settles" | "syntax_error";
  /** What happened, in words. */
  message: string;
  /** The script's line, when known. */
  line?: number;
  /** The bound, for `limit`. */
  limit?: string;
};

/** The harness's last word: the script's value, or why there is none. */
export type ScriptEnd =
  | { op: "done"; ok: true; result: unknown; steps?: number }
  | { op: "done"; ok: false; error: ScriptFailure; steps?: number };

/** The host's reply to a request. */
export type HostReply =
  | { seq: number; ok: true; value: unknown }
  | { seq: number; ok: false; error: string; code?: string };

const OPS: ReadonlySet<string> = new Set(["call", "search", "describe", "log"]);

/**
 * Reads one message of the harness: the message, or `undefined` when it is not one of the
 * shapes above (what the host then does is stop the run).
 *
 * @param text The message, as the sandbox passed it on.
 * @returns The checked message.
 *
 * @example Usage
 * ```ts
 * import { readScriptMessage } from "./protocol.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * deepEqual(readScriptMessage('{"op":"describe","seq":1,"id":"a/b"}'), { op: "describe", seq: 1, id: "a/b" });
 * equal(readScriptMessage('{"op":"call","seq":0,"tool":"a/b","args":{}}'), undefined);
 * ```
 */
export function readScriptMessage(text: string): ScriptMessage | undefined {
  const value = parse(text);
  if (!isRecord(value) || typeof value.op !== "string" || !OPS.has(value.op)) return undefined;
  if (value.op === "log") {
    return (LOG_LEVELS as readonly unknown[]).includes(value.level) &&
        typeof value.text === "string"
      ? { op: "log", level: value.level as typeof LOG_LEVELS[number], text: value.text }
      : undefined;
  }
  if (!Number.isSafeInteger(value.seq) || (value.seq as number) < 1) return undefined;
  const seq = value.seq as number;
  switch (value.op) {
    case "call":
      return typeof value.tool === "string" && isRecord(value.args)
        ? { op: "call", seq, tool: value.tool, args: value.args }
        : undefined;
    case "search":
      if (typeof value.query !== "string") return undefined;
      if (value.limit === undefined || value.limit === null) {
        return { op: "search", seq, query: value.query };
      }
      return Number.isSafeInteger(value.limit)
        ? { op: "search", seq, query: value.query, limit: value.limit as number }
        : undefined;
    default:
      return typeof value.id === "string" ? { op: "describe", seq, id: value.id } : undefined;
  }
}

/**
 * Reads the harness's last word: the end, or `undefined` when the text is not one.
 *
 * @param text The message.
 * @returns The checked end.
 *
 * @example Usage
 * ```ts
 * import { readScriptEnd } from "./protocol.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(readScriptEnd('{"op":"done","ok":true,"result":[1]}'), { op: "done", ok: true, result: [1] });
 * ```
 */
export function readScriptEnd(text: string): ScriptEnd | undefined {
  const value = parse(text);
  if (!isRecord(value) || value.op !== "done" || typeof value.ok !== "boolean") return undefined;
  const steps = Number.isSafeInteger(value.steps) ? { steps: value.steps as number } : {};
  if (value.ok) return { op: "done", ok: true, result: value.result ?? null, ...steps };
  const error = value.error;
  if (!isRecord(error) || typeof error.message !== "string") return undefined;
  const kinds = ["exception", "not_json", "limit", "never_settles", "syntax_error"];
  if (!kinds.includes(error.kind as string)) return undefined;
  return {
    op: "done",
    ok: false,
    error: {
      kind: error.kind as ScriptFailure["kind"],
      message: error.message,
      ...(Number.isSafeInteger(error.line) && (error.line as number) > 0
        ? { line: error.line as number }
        : {}),
      ...(typeof error.limit === "string" ? { limit: error.limit } : {}),
    },
    ...steps,
  };
}

/**
 * The text of a reply.
 *
 * @param reply The reply.
 * @returns Its JSON text.
 * @throws {TypeError} When a value cannot be written as JSON (a cycle, a BigInt).
 *
 * @example Usage
 * ```ts
 * import { replyText } from "./protocol.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(replyText({ seq: 2, ok: false, error: "no" }), '{"seq":2,"ok":false,"error":"no"}');
 * ```
 */
export function replyText(reply: HostReply): string {
  return JSON.stringify(reply);
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
