/**
 * JSON-RPC 2.0 messages as MCP frames them, without the SDK: the one classifier of what the stdio
 * face reads. It gives the verdicts of the SDK's `JSONRPCMessageSchema` (v2.4, checked against it
 * in `test/gateway/jsonrpc_test.ts`): exact member sets, integer ids and progress tokens within the
 * safe range, object params and `_meta`. Linear in the message, no schema library loaded.
 *
 * @module
 */

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

/** An error answer (its id is absent when the request could not be read). */
export interface JsonRpcError {
  jsonrpc: "2.0";
  id?: RequestId | null;
  error: { code: number; message: string; data?: unknown };
}

/** Any message of the wire. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResult | JsonRpcError;

/** The reserved `_meta` key of a task a message belongs to (2025-11-25). */
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * Reads a parsed JSON value as a JSON-RPC message, or `undefined` when it is none.
 *
 * @param value A parsed JSON value.
 * @returns The message (the same object), or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { asMessage } from "./_jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(asMessage({ jsonrpc: "2.0", id: 1, method: "ping" })?.jsonrpc, "2.0");
 * equal(asMessage({ jsonrpc: "1.0", id: 1, method: "ping" }), undefined);
 * equal(asMessage([{ jsonrpc: "2.0", id: 1, method: "ping" }]), undefined);
 * ```
 */
export function asMessage(value: unknown): JsonRpcMessage | undefined {
  if (!isObject(value) || value.jsonrpc !== "2.0") return undefined;
  if ("method" in value) {
    if (typeof value.method !== "string" || !paramsOk(value.params)) return undefined;
    if ("id" in value) {
      return onlyKeys(value, REQUEST_KEYS) && isId(value.id) ? value as never : undefined;
    }
    return onlyKeys(value, NOTIFICATION_KEYS) ? value as never : undefined;
  }
  if ("result" in value) {
    const result = value.result;
    const ok = onlyKeys(value, RESULT_KEYS) && isId(value.id) && isObject(result) &&
      (result._meta === undefined || isObject(result._meta));
    return ok ? value as never : undefined;
  }
  if ("error" in value) {
    const error = value.error;
    const ok = onlyKeys(value, ERROR_KEYS) && (value.id === undefined || isId(value.id)) &&
      isObject(error) && isInteger(error.code) && typeof error.message === "string";
    return ok ? value as never : undefined;
  }
  return undefined;
}

/**
 * Whether a message is a request.
 *
 * @param message A message.
 * @returns `true` for a request.
 *
 * @example Usage
 * ```ts
 * import { isRequest } from "./_jsonrpc.ts";
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
 * import { isNotification } from "./_jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isNotification({ jsonrpc: "2.0", method: "notifications/initialized" }), true);
 * ```
 */
export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message);
}

/**
 * Whether a value is a plain JSON object (not `null`, not an array).
 *
 * @param value Any value.
 * @returns `true` for an object.
 *
 * @example Usage
 * ```ts
 * import { isObject } from "./_jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isObject({}), true);
 * equal(isObject([]), false);
 * ```
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
 * import { isId } from "./_jsonrpc.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isId("a"), true);
 * equal(isId(2 ** 53), false);
 * ```
 */
export function isId(value: unknown): value is RequestId {
  return typeof value === "string" || isInteger(value);
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const NOTIFICATION_KEYS = new Set(["jsonrpc", "method", "params"]);
const RESULT_KEYS = new Set(["jsonrpc", "id", "result"]);
const ERROR_KEYS = new Set(["jsonrpc", "id", "error"]);

function isInteger(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: Set<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

// Params are an object; its `_meta` an object whose progress token and task are well formed.
function paramsOk(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  if (meta.progressToken !== undefined && !isId(meta.progressToken)) return false;
  const task = meta[RELATED_TASK];
  return task === undefined || (isObject(task) && typeof task.taskId === "string");
}
