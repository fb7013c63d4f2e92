/**
 * Validation of an execute's arguments against the tool's input schema, bounded and failing
 * closed: a vendored `@cfworker/json-schema` (no `eval`: Workers forbid it) whose patterns and
 * formats run on a linear-time engine, within {@linkcode MAX_VALIDATION_STEPS} units of work and
 * {@linkcode MAX_VALIDATION_DEPTH} levels. Whatever the validator cannot decide is refused.
 *
 * @module
 */

import { tooDeep } from "../utils/json_depth.ts";
import {
  MAX_FORMAT_CHARS,
  MAX_JSON_DEPTH,
  MAX_PATTERN_UNITS,
  MAX_VALIDATION_DEPTH,
  MAX_VALIDATION_STEPS,
} from "../limits.ts";
import type { McpTool } from "../tool.ts";
import {
  type CompiledSchema,
  compileSchema,
  inspectSchema,
  type SchemaError,
  type UncheckedKeyword,
} from "./check.ts";
import { validateWithin, ValidationLimitError } from "./_validate.ts";

/** One way the arguments break the schema. */
export interface ArgumentProblem {
  /** JSON pointer into the arguments (`""` for the whole object, `/query`, `/items/0`). */
  pointer: string;
  /** What is wrong. */
  message: string;
}

// Wrapper errors that only repeat what a nested error says.
const WRAPPERS = new Set(["properties", "false", "items", "prefixItems", "$ref", "allOf"]);
const MAX_PROBLEMS = 10;
const EMPTY: ReadonlySet<string> = new Set();
const compiled = new WeakMap<McpTool, CompiledSchema | SchemaError>();
const checked = new WeakMap<McpTool, SchemaError | readonly UncheckedKeyword[]>();
const NONE: readonly UncheckedKeyword[] = Object.freeze([]);

/**
 * Checks a tool's input schema, once per tool object, and says what is wrong with it: the catalogue
 * calls it for every tool, so that a broken schema is the catalogue's error. Cheap (one walk); the
 * schema is compiled on the tool's first execute, each pattern when a string first needs it.
 * Patterns it cannot check are remembered with the tool (see {@linkcode uncheckedKeywords}).
 *
 * @param tool The tool.
 * @param measured Whether the tool's input schema is known to be acyclic and within
 * `MAX_JSON_DEPTH` (see `inspectSchema`).
 * @returns The first rule the schema breaks, or `undefined` when it is usable.
 *
 * @example Usage
 * ```ts
 * import { prepareSchema } from "./validate.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tool = { server: "a", name: "b", description: "", inputSchema: { type: "object", $ref: "#/$defs/x" } };
 * equal(prepareSchema(tool)?.keyword, "$ref");
 * ```
 */
export function prepareSchema(tool: McpTool, measured = false): SchemaError | undefined {
  const known = checked.get(tool);
  if (known !== undefined) return "rule" in known ? known : undefined;
  const result = inspectSchema(tool.inputSchema, measured);
  const unchecked = result.ok ? result.unchecked : undefined;
  checked.set(
    tool,
    result.ok ? (unchecked!.length === 0 ? NONE : Object.freeze(unchecked!)) : result.error,
  );
  return result.ok ? undefined : result.error;
}

/**
 * The keywords of a tool's input schema that unfold leaves to the tool's server: patterns the
 * linear-time engine cannot run (lookaround, backreferences, repeats over 1,000, a program over
 * its size limit). Arguments are checked against the rest of the schema.
 *
 * @param tool The tool, as a catalogue holds it.
 * @returns The unchecked keywords, in schema order; `[]` when unfold checks everything.
 *
 * @example Usage
 * ```ts
 * import { uncheckedKeywords } from "./validate.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tool = { server: "a", name: "b", description: "", inputSchema: { type: "object", properties: { q: { type: "string", pattern: "^.{0,4096}$" } } } };
 * equal(uncheckedKeywords(tool)[0]?.pointer, "/properties/q/pattern");
 * ```
 */
export function uncheckedKeywords(tool: McpTool): readonly UncheckedKeyword[] {
  prepareSchema(tool);
  const known = checked.get(tool)!;
  return "rule" in known ? NONE : known;
}

// The compiled schema (a copy, its lookup), made on a tool's first execute.
function compiledSchema(tool: McpTool): CompiledSchema | SchemaError {
  let schema = compiled.get(tool);
  if (schema === undefined) {
    const result = compileSchema(tool.inputSchema);
    schema = result.ok ? result.value : result.error;
    compiled.set(tool, schema);
  }
  return schema;
}

/**
 * Checks arguments against a tool's input schema. Fails closed: arguments nested deeper than
 * {@linkcode MAX_JSON_DEPTH}, a check that needs more work than its limits, a schema the validator
 * cannot use, or any error inside the validator give a problem, never a pass.
 *
 * @param tool The tool; its compiled schema is cached with it.
 * @param args The arguments.
 * @returns The problems, at most 10; `[]` when the arguments are valid.
 *
 * @example Usage
 * ```ts
 * import { validateArguments } from "./validate.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const tool = {
 *   server: "a", name: "b", description: "",
 *   inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
 * };
 * deepEqual(validateArguments(tool, { q: "x" }), []);
 * deepEqual(validateArguments(tool, { q: 1 }), [
 *   { pointer: "/q", message: 'Instance type "number" is invalid. Expected "string".' },
 * ]);
 * equal(validateArguments(tool, { q: "x", "\ud800": 1 }).length, 0); // extra keys are allowed here
 * ```
 */
export function validateArguments(tool: McpTool, args: Record<string, unknown>): ArgumentProblem[] {
  const deep = tooDeep(args, MAX_JSON_DEPTH);
  if (deep !== undefined) {
    return [{
      pointer: deep,
      message: `nests deeper than ${MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH): flatten the arguments`,
    }];
  }
  const schema = compiledSchema(tool);
  if ("rule" in schema) {
    const where = `"${schema.keyword}" at ${schema.pointer || "(root)"}`;
    return [{
      pointer: "",
      message: `cannot be checked: the input schema is invalid (${where} ${schema.rule})`,
    }];
  }
  const unchecked = uncheckedKeywords(tool);
  let result;
  try {
    result = validateWithin(args, schema.schema, schema.draft, schema.lookup, {
      maxSteps: MAX_VALIDATION_STEPS,
      maxDepth: MAX_VALIDATION_DEPTH,
      maxFormatChars: MAX_FORMAT_CHARS,
      maxPatternUnits: MAX_PATTERN_UNITS,
      unchecked: unchecked.length === 0 ? EMPTY : new Set(unchecked.map((u) => u.source)),
    });
  } catch (e) {
    return [{ pointer: "", message: refusal(e) }];
  }
  if (result.valid) return [];
  const problems: ArgumentProblem[] = [];
  const seen = new Set<string>();
  for (const error of result.errors) {
    if (WRAPPERS.has(error.keyword)) continue;
    const pointer = error.instanceLocation.replace(/^#/, "");
    const key = `${pointer}\u0000${error.error}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ pointer, message: error.error });
    if (problems.length === MAX_PROBLEMS) break;
  }
  // Invalid, yet every error only wrapped others: still invalid.
  return problems.length > 0
    ? problems
    : [{ pointer: "", message: "does not match the input schema" }];
}

function refusal(e: unknown): string {
  // A cold process runs the validator unoptimised, with larger stack frames: the engine's stack can
  // run out before the depth limit is reached. It is the same refusal, for the same reason.
  const stackOut = e instanceof RangeError && /call stack/i.test(e.message);
  if (e instanceof ValidationLimitError && e.limit === "patterns") {
    return `cannot be checked within ${MAX_PATTERN_UNITS} instructions of patterns ` +
      "(MAX_PATTERN_UNITS): the arguments reach more of the schema's patterns than one call " +
      "checks; send fewer arguments";
  }
  if (e instanceof ValidationLimitError || stackOut) {
    return e instanceof ValidationLimitError && e.limit === "steps"
      ? `cannot be checked within ${MAX_VALIDATION_STEPS} units of work (MAX_VALIDATION_STEPS): ` +
        "send smaller arguments"
      : `cannot be checked within ${MAX_VALIDATION_DEPTH} levels of schema nesting ` +
        "(MAX_VALIDATION_DEPTH): send flatter arguments";
  }
  const why = e instanceof Error ? e.message.split("\n", 1)[0]!.slice(0, 200) : String(e);
  return `cannot be checked against the input schema (${why}), so the call is refused`;
}
