/**
 * JSON-RPC 2.0 as MCP frames it over stdio, without the SDK: the message types, the one classifier
 * of a parsed line (the verdicts of the SDK v2.4's `JSONRPCMessageSchema`, with the reason in
 * words; `test/protocol/jsonrpc_test.ts` holds it to the SDK's client and server readers), the standard
 * error codes, an error answer, and the line (one message and a newline, at most 10 MiB). Both
 * stdio sides use it: the client of an upstream server (`src/mcp/_line_reader.ts`,
 * `_lite_peer.ts`, `_stdio_transport.ts`) and the gateway's stdio face (`src/gateway/faces/stdio_wire.ts`,
 * `stdio_server.ts`). Linear in the message; no schema library loaded.
 *
 * @module
 */

import { RELATED_TASK_META_KEY } from "./mcp.ts";
import { isRecord } from "../utils/record.ts";
import type { Result } from "../result.ts";

/** A request or response id. */
export type RequestId = string | number;

/** A request: it expects an answer with its id. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

/** A notification: no answer. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

/** A successful answer. */
export interface JsonRpcResult {
  jsonrpc: "2.0";
  id: RequestId;
  result: Record<string, unknown>;
}

/** An error answer (its id is absent or `null` when the request could not be read). */
export interface JsonRpcError {
  jsonrpc: "2.0";
  id?: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** Any message of the wire. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResult | JsonRpcError;

/**
 * The longest line either stdio side reads, in bytes: the SDK's `STDIO_DEFAULT_MAX_BUFFER_SIZE`
 * (10 MiB), written out so that neither side loads the SDK (`test/protocol/jsonrpc_test.ts` holds the two
 * equal).
 *
 * @example Usage
 * ```ts
 * import { STDIO_MAX_MESSAGE_BYTES } from "./jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(STDIO_MAX_MESSAGE_BYTES, 10 * 1024 * 1024);
 * ```
 */
export const STDIO_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The JSON-RPC 2.0 error codes MCP answers with (the spec's reserved range).
 *
 * @example Usage
 * ```ts
 * import { JSON_RPC_CODES } from "./jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(JSON_RPC_CODES.methodNotFound, -32_601);
 * ```
 */
export const JSON_RPC_CODES = {
  parseError: -32_700,
  invalidRequest: -32_600,
  methodNotFound: -32_601,
  invalidParams: -32_602,
  internalError: -32_603,
} as const;

const REQUEST = new Set(["jsonrpc", "id", "method", "params"]);
const NOTIFICATION = new Set(["jsonrpc", "method", "params"]);
const RESULT = new Set(["jsonrpc", "id", "result"]);
const ERROR = new Set(["jsonrpc", "id", "error"]);

/**
 * Reads a parsed JSON value as a JSON-RPC message: exact member sets, integer ids and progress
 * tokens within the safe range, object params, results and `_meta`.
 *
 * @param value A parsed line.
 * @returns The message (the same object), or a `TypeError` that says why it is none.
 *
 * @example Usage
 * ```ts
 * import { checkMessage } from "./jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(checkMessage({ jsonrpc: "2.0", id: 1, method: "ping" }).ok, true);
 * const refused = checkMessage({ jsonrpc: "2.0", id: 1.5, result: {} });
 * equal(refused.ok ? "" : refused.error.message, 'Not a JSON-RPC message: "id" must be a string or an integer');
 * ```
 */
export function checkMessage(value: unknown): Result<JsonRpcMessage, TypeError> {
  const problem = messageProblem(value);
  return problem === undefined
    ? { ok: true, value: value as JsonRpcMessage }
    : { ok: false, error: new TypeError(`Not a JSON-RPC message: ${problem}`) };
}

/**
 * Whether a message is a request.
 *
 * @param message A message.
 * @returns `true` for a request.
 *
 * @example Usage
 * ```ts
 * import { isRequest } from "./jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isRequest({ jsonrpc: "2.0", id: 1, method: "ping" }), true);
 * equal(isRequest({ jsonrpc: "2.0", method: "notifications/initialized" }), false);
 * ```
 */
export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message;
}

/**
 * Whether a message is a notification.
 *
 * @param message A message.
 * @returns `true` for a notification.
 *
 * @example Usage
 * ```ts
 * import { isNotification } from "./jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isNotification({ jsonrpc: "2.0", method: "notifications/initialized" }), true);
 * ```
 */
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

/**
 * Whether a value is a request id or progress token: a string, or an integer within the safe
 * range (the SDK's `z.number().int()`).
 *
 * @param value Any value.
 * @returns `true` for an id.
 *
 * @example Usage
 * ```ts
 * import { isId } from "./jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isId("a"), true);
 * equal(isId(2 ** 53), false);
 * ```
 */
export function isId(value: unknown): value is RequestId {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/**
 * An error answer, members in the order the SDK writes them.
 *
 * @typeParam Id The id's type (`null` only where the request could not be read).
 * @param id The request's id.
 * @param code The error code.
 * @param message The words.
 * @param data What else the answer carries, when anything.
 * @returns The answer.
 *
 * @example Usage
 * ```ts
 * import { errorResponse, JSON_RPC_CODES } from "./jsonrpc.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(errorResponse(1, JSON_RPC_CODES.methodNotFound, "Method not found"), {
 *   jsonrpc: "2.0",
 *   id: 1,
 *   error: { code: -32_601, message: "Method not found" },
 * });
 * ```
 */
export function errorResponse<Id extends RequestId | null>(
  id: Id,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcError & { id: Id } {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/**
 * The answer to a request for a method that is not served, in the SDK's words.
 *
 * @param id The request's id.
 * @returns The answer.
 *
 * @example Usage
 * ```ts
 * import { methodNotFound } from "./jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(methodNotFound(7).error.message, "Method not found");
 * ```
 */
export function methodNotFound(id: RequestId): JsonRpcError & { id: RequestId } {
  return errorResponse(id, JSON_RPC_CODES.methodNotFound, "Method not found");
}

/**
 * A message as one stdio line: its JSON and a newline.
 *
 * @param message The message.
 * @returns The line.
 *
 * @example Usage
 * ```ts
 * import { messageLine } from "./jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(messageLine({ jsonrpc: "2.0", method: "n" }), '{"jsonrpc":"2.0","method":"n"}\n');
 * ```
 */
export function messageLine(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

function messageProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return "not an object";
  if (value.jsonrpc !== "2.0") return '"jsonrpc" must be "2.0"';
  if ("method" in value) {
    if (typeof value.method !== "string") return '"method" must be a string';
    const id = "id" in value;
    if (id && !isId(value.id)) return '"id" must be a string or an integer';
    if (!onlyMembers(value, id ? REQUEST : NOTIFICATION)) return "it has unknown members";
    return paramsProblem(value.params);
  }
  if ("result" in value) {
    if (!isId(value.id)) return '"id" must be a string or an integer';
    if (!onlyMembers(value, RESULT)) return "it has unknown members";
    const result = value.result;
    if (!isRecord(result)) return '"result" must be an object';
    if (result._meta !== undefined && !isRecord(result._meta)) return '"_meta" must be an object';
    return undefined;
  }
  if ("error" in value) {
    if (value.id !== undefined && !isId(value.id)) return '"id" must be a string or an integer';
    if (!onlyMembers(value, ERROR)) return "it has unknown members";
    const error = value.error;
    if (!isRecord(error)) return '"error" must be an object';
    if (!Number.isSafeInteger(error.code)) return '"error.code" must be an integer';
    if (typeof error.message !== "string") return '"error.message" must be a string';
    return undefined;
  }
  return "neither a request, a notification nor a response";
}

// A request's or notification's params: an object whose `_meta`, when present, is an object whose
// `progressToken`, when present, is a string or an integer (and its related task, a 2025-11-25
// key, an object with a string `taskId`).
function paramsProblem(params: unknown): string | undefined {
  if (params === undefined) return undefined;
  if (!isRecord(params)) return '"params" must be an object';
  const meta = params._meta;
  if (meta === undefined) return undefined;
  if (!isRecord(meta)) return '"_meta" must be an object';
  const token = meta.progressToken;
  if (token !== undefined && !isId(token)) return '"progressToken" must be a string or an integer';
  const task = meta[RELATED_TASK_META_KEY];
  if (task !== undefined && !(isRecord(task) && typeof task.taskId === "string")) {
    return `"${RELATED_TASK_META_KEY}" must be an object with a string "taskId"`;
  }
  return undefined;
}

function onlyMembers(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}
