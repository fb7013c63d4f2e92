/**
 * The bounded JSON Schema validator of the bridge, offered to the MCP SDK as its validator
 * provider: the SDK's own checks (a tool's `structuredContent` against its `outputSchema`) run on
 * the same linear-time engine, within the same limits, as the checks of an execute's arguments,
 * and no schema is ever compiled to code (Workers forbid it).
 *
 * @module
 */

import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/client";
import { type ArgumentProblem, validateArguments } from "../schema/validate.ts";
import type { McpTool } from "../tool.ts";

// One stand-in tool per schema object: the bridge caches its compiled schema with the tool, so a
// schema the SDK hands over again (at every call) is compiled once.
const tools = new WeakMap<object, McpTool>();

/**
 * The SDK's validator provider over the bridge's bounded validator. A schema it cannot use, or a
 * check over its limits, fails the value: never a pass.
 *
 * @example Usage
 * ```ts
 * import { BOUNDED_VALIDATOR } from "./_validator.ts";
 * import { equal } from "node:assert/strict";
 *
 * const check = BOUNDED_VALIDATOR.getValidator<{ n: number }>({
 *   type: "object", properties: { n: { type: "number" } }, required: ["n"],
 * });
 * equal(check({ n: 1 }).valid, true);
 * equal(check({ n: "one" }).errorMessage, '/n: Instance type "string" is invalid. Expected "number".');
 * ```
 */
export const BOUNDED_VALIDATOR: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input) => {
      const problems = problemsOf(schema, input);
      if (problems.length === 0) return { valid: true, data: input as T, errorMessage: undefined };
      return { valid: false, data: undefined, errorMessage: words(problems).join("; ") };
    };
  },
};

/**
 * How a value breaks a JSON Schema, as far as the bounded validator can tell: `[]` when it
 * matches, and also when it cannot be checked (a schema the validator cannot use, a check over
 * its limits), where {@linkcode BOUNDED_VALIDATOR} fails closed. For what a server sends, which
 * unfold hands on rather than trusts.
 *
 * @param schema The schema.
 * @param value The value.
 * @returns The problems, each `pointer: message`.
 *
 * @example Usage
 * ```ts
 * import { provenProblems } from "./_validator.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { n: { type: "number" } } };
 * deepEqual(provenProblems(schema, { n: "one" }), ['/n: Instance type "string" is invalid. Expected "number".']);
 * deepEqual(provenProblems({ type: "object", properties: { n: { type: 42 } } }, { n: 1 }), []);
 * ```
 */
export function provenProblems(schema: JsonSchemaType, value: unknown): string[] {
  const problems = problemsOf(schema, value);
  return problems.some(({ message }) => UNCHECKED.test(message)) ? [] : words(problems);
}

// The bridge's words for a check it could not make (its limits, an unusable schema).
const UNCHECKED = /^(cannot be checked|nests deeper than)/;

function words(problems: readonly ArgumentProblem[]): string[] {
  return problems.map(({ pointer, message }) => `${pointer || "(root)"}: ${message}`);
}

function problemsOf(schema: JsonSchemaType, input: unknown): ArgumentProblem[] {
  let tool = tools.get(schema as object);
  if (tool === undefined) {
    tool = { server: "sdk", name: "output", description: "", inputSchema: schema as never };
    tools.set(schema as object, tool);
  }
  return validateArguments(tool, input as Record<string, unknown>);
}
