/**
 * What a connection checks in a tool's result before handing it on: the shape MCP gives a
 * `CallToolResult`, and its structured content against the tool's output schema (on the bounded
 * validator the SDK is given). A result that fails is the server's error, reported for that call
 * alone.
 *
 * @module
 */

import { isRecord } from "../utils/record.ts";
import type { McpTool } from "../tool.ts";
import { provenProblems } from "./_validator.ts";

// How much of a bad value a message quotes.
const QUOTE_CHARS = 80;

/**
 * Says what is wrong with a `tools/call` result, or `undefined` when it can be handed on: it must
 * be an object whose `content` is a list and whose `isError` is a boolean (each when present), and
 * a successful result's `structuredContent` must not be proven to break the tool's `outputSchema`.
 *
 * @param result The result as the server sent it.
 * @param tool The tool as the server listed it, when it did.
 * @returns The problem in words, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { resultProblem } from "./_result.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(resultProblem({ content: [] }, undefined), undefined);
 * equal(resultProblem({ content: [], isError: "yes" }, undefined), '"isError" must be true or false, got "yes"');
 * ```
 */
export function resultProblem(result: unknown, tool: McpTool | undefined): string | undefined {
  if (!isRecord(result)) return `the result must be an object, got ${quote(result)}`;
  if (result.content !== undefined && !Array.isArray(result.content)) {
    return `"content" must be a list, got ${quote(result.content)}`;
  }
  if (result.isError !== undefined && typeof result.isError !== "boolean") {
    return `"isError" must be true or false, got ${quote(result.isError)}`;
  }
  const schema = tool?.outputSchema;
  if (schema === undefined || result.isError === true || result.structuredContent === undefined) {
    return undefined;
  }
  // Only a proven mismatch fails the call: what the validator cannot check is handed on as sent.
  const problems = provenProblems(schema, result.structuredContent);
  return problems.length === 0
    ? undefined
    : `its structured content does not match the tool's output schema: ${problems.join("; ")}`;
}

function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}
