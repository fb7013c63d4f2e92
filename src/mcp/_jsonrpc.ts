/**
 * Which JSON-RPC message a parsed line is, checked by hand as the MCP SDK's `JSONRPCMessageSchema`
 * checks it (a request, a notification, a result or an error response, each with no other
 * members), without loading the SDK and its schema library: the stdio client reads every line of
 * a server through it.
 *
 * @module
 */

import type { JSONRPCMessage } from "@modelcontextprotocol/client";

// The members each kind of message may have (the SDK's schemas are strict).
const REQUEST = new Set(["jsonrpc", "id", "method", "params"]);
const NOTIFICATION = new Set(["jsonrpc", "method", "params"]);
const RESULT = new Set(["jsonrpc", "id", "result"]);
const ERROR = new Set(["jsonrpc", "id", "error"]);
const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * Checks that a value is a JSON-RPC 2.0 message as MCP defines it.
 *
 * @param value A parsed line.
 * @returns The value, as a message.
 * @throws {TypeError} When it is not one; the message says why.
 *
 * @example Usage
 * ```ts
 * import { jsonRpcMessage } from "./_jsonrpc.ts";
 * import { deepEqual, throws } from "node:assert/strict";
 *
 * deepEqual(jsonRpcMessage({ jsonrpc: "2.0", id: 1, result: {} }), { jsonrpc: "2.0", id: 1, result: {} });
 * throws(() => jsonRpcMessage({ jsonrpc: "2.0", id: 1.5, result: {} }), TypeError);
 * ```
 */
export function jsonRpcMessage(value: unknown): JSONRPCMessage {
  const problem = messageProblem(value);
  if (problem !== undefined) {
    throw new TypeError(`Not a JSON-RPC message: ${problem}`);
  }
  return value as JSONRPCMessage;
}

function messageProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "not an object";
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
    if (!isObject(result)) return '"result" must be an object';
    if (result._meta !== undefined && !isObject(result._meta)) return '"_meta" must be an object';
    return undefined;
  }
  if ("error" in value) {
    if (value.id !== undefined && !isId(value.id)) return '"id" must be a string or an integer';
    if (!onlyMembers(value, ERROR)) return "it has unknown members";
    const error = value.error;
    if (!isObject(error)) return '"error" must be an object';
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
  if (!isObject(params)) return '"params" must be an object';
  const meta = params._meta;
  if (meta === undefined) return undefined;
  if (!isObject(meta)) return '"_meta" must be an object';
  const token = meta.progressToken;
  if (token !== undefined && !isId(token)) return '"progressToken" must be a string or an integer';
  const task = meta[RELATED_TASK];
  if (task !== undefined && !(isObject(task) && typeof task.taskId === "string")) {
    return `"${RELATED_TASK}" must be an object with a string "taskId"`;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): boolean {
  return typeof value === "string" || Number.isSafeInteger(value);
}

function onlyMembers(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}
