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
import { validateArguments } from "../bridge/validate.ts";
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
    let tool = tools.get(schema as object);
    if (tool === undefined) {
      tool = { server: "sdk", name: "output", description: "", inputSchema: schema as never };
      tools.set(schema as object, tool);
    }
    const checked = tool;
    return (input) => {
      const problems = validateArguments(checked, input as Record<string, unknown>);
      if (problems.length === 0) return { valid: true, data: input as T, errorMessage: undefined };
      const errorMessage = problems
        .map(({ pointer, message }) => `${pointer || "(root)"}: ${message}`)
        .join("; ");
      return { valid: false, data: undefined, errorMessage };
    };
  },
};
