/**
 * Validation of an execute's arguments against the tool's input schema, with a validator that
 * runs everywhere (no `eval`, no `new Function`: Workers forbid them). The only module that imports
 * `@cfworker/json-schema`.
 *
 * @module
 */

import { type Schema, Validator } from "@cfworker/json-schema";
import type { McpTool } from "../tool.ts";

/** One way the arguments break the schema. */
export interface ArgumentProblem {
  /** JSON pointer into the arguments (`""` for the whole object, `/query`, `/items/0`). */
  pointer: string;
  /** What is wrong. */
  message: string;
}

const DRAFTS: Record<string, "4" | "7" | "2019-09" | "2020-12"> = {
  "draft-04": "4",
  "draft-06": "7",
  "draft-07": "7",
  "2019-09": "2019-09",
  "2020-12": "2020-12",
};
// Wrapper errors that only repeat what a nested error says.
const WRAPPERS = new Set(["properties", "false", "items", "prefixItems", "$ref", "allOf"]);
const MAX_PROBLEMS = 10;
const validators = new WeakMap<McpTool, Validator | null>();

/**
 * Checks arguments against a tool's input schema. A schema the validator cannot compile (an
 * unresolvable `$ref`, say) validates nothing rather than blocking the call: the server still
 * checks its own input.
 *
 * @param tool The tool; its compiled validator is cached with it.
 * @param args The arguments.
 * @returns The problems, at most 10; `[]` when the arguments are valid.
 *
 * @example Usage
 * ```ts
 * import { validateArguments } from "./validate.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const tool = {
 *   server: "a", name: "b", description: "",
 *   inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
 * };
 * deepEqual(validateArguments(tool, { q: "x" }), []);
 * deepEqual(validateArguments(tool, { q: 1 }), [
 *   { pointer: "/q", message: 'Instance type "number" is invalid. Expected "string".' },
 * ]);
 * ```
 */
export function validateArguments(tool: McpTool, args: Record<string, unknown>): ArgumentProblem[] {
  let validator = validators.get(tool);
  if (validator === undefined) {
    validator = compile(tool.inputSchema);
    validators.set(tool, validator);
  }
  if (validator === null) return [];
  let result;
  try {
    result = validator.validate(args);
  } catch {
    return []; // e.g. a $ref that only fails when reached
  }
  if (result.valid) return [];
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const error of result.errors) {
    if (WRAPPERS.has(error.keyword)) continue;
    const pointer = decodeURIComponent(error.instanceLocation.replace(/^#/, ""));
    const key = `${pointer}\u0000${error.error}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ pointer, message: error.error });
    if (problems.length === MAX_PROBLEMS) break;
  }
  return problems;
}

function compile(schema: Record<string, unknown>): Validator | null {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  const draft = Object.entries(DRAFTS).find(([marker]) => declared.includes(marker))?.[1] ??
    "2020-12";
  try {
    return new Validator(schema as Schema, draft, false);
  } catch {
    return null;
  }
}
