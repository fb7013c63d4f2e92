/**
 * Parsing one call of the model: its bridge arguments checked against the very JSON Schema the
 * model is shown ({@linkcode bridgeParameters}), so the check and the definition cannot drift.
 * Lenient where models are predictably sloppy (nulls for "not given", a numeric string limit,
 * tool arguments sent as a JSON string); every refusal says what to send instead.
 *
 * @module
 */

import { isRecord } from "../utils/record.ts";
import type { Result } from "../result.ts";
import { editDistance } from "../utils/edit_distance.ts";
import { oneLine, quote } from "../untrusted.ts";
import { BRIDGE_ACTIONS, bridgeParameters, type BridgeToolOptions, RUN_ACTION } from "./tool.ts";

/** The bridge arguments once checked: the fields of {@linkcode bridgeParameters}. */
export interface BridgeCall {
  /** What the model wants to do. */
  action: typeof BRIDGE_ACTIONS[number] | typeof RUN_ACTION;
  /** search: what the tool should do. */
  query?: string;
  /** search: the most results, a positive integer (not yet capped). */
  limit?: number;
  /** describe, execute: the tool id. */
  name?: string;
  /** execute: the tool's arguments. */
  arguments?: Record<string, unknown>;
  /** more: the ref from a cut answer's marker. */
  ref?: string;
  /** run (code mode on): the JavaScript. */
  code?: string;
}

/** What shapes the bridge's parameters: the search limits the tool announces, and code mode. */
export type BridgeLimits = Pick<
  BridgeToolOptions,
  "maxSearchLimit" | "searchDefaultLimit" | "codeMode"
>;

/** A parse: the call, or the problems that refuse it, in words for the model. */
export type ParsedCall = Result<
  BridgeCall,
  { code: "invalid_json" | "invalid_arguments"; message: string }
>;

/**
 * Arguments hosts add to every tool's schema and send when the model sets them (Gemini CLI's
 * `wait_for_previous`): accepted and ignored, not the model's mistake.
 */
export const HOST_ARGUMENTS: readonly string[] = Object.freeze(["wait_for_previous"]);

/** A JSON object of the right shape, shown in every refusal that has no better hint. */
export const BRIDGE_EXAMPLE = `{"action":"search","query":"what you need"}`;

// The keywords of bridgeParameters() this parser understands; anything else in it is a bug that
// the tests catch (test/bridge/parse_test.ts), never a silently unchecked rule.
const KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "enum",
  "minimum",
  "maximum",
  "description",
]);
const INTEGER = /^\s*\d+\s*$/;
// Unknown fields longer than this are not worth a suggestion.
const MAX_FIELD_CHARS = 64;
// The unknown fields named in one refusal; the rest are counted.
const MAX_UNKNOWN_SHOWN = 5;

/**
 * Parses the model's bridge arguments: an object, or its raw JSON string.
 *
 * @param args What the model sent.
 * @param limits The search limits the bridge tool announces.
 * @returns The checked call, or an `invalid_json` / `invalid_arguments` refusal.
 *
 * @example Usage
 * ```ts
 * import { parseBridgeCall } from "./parse.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const limits = { maxSearchLimit: 20, searchDefaultLimit: 5 };
 * deepEqual(parseBridgeCall('{"action":"search","query":"issues","limit":"3"}', limits), {
 *   ok: true,
 *   value: { action: "search", query: "issues", limit: 3 },
 * });
 * const refused = parseBridgeCall({ action: "search", quer: "issues" }, limits);
 * equal(refused.ok === false && refused.error.message.includes('did you mean "query"'), true);
 * ```
 */
export function parseBridgeCall(args: unknown, limits: BridgeLimits): ParsedCall {
  let input = args;
  if (typeof input === "string") {
    const parsed = parseJson(input.trim() === "" ? "{}" : input);
    if (parsed instanceof SyntaxError) {
      return {
        ok: false,
        error: {
          code: "invalid_json",
          message: `the arguments are not valid JSON (${
            oneLine(parsed.message, 120)
          }). Send a JSON object such as ${BRIDGE_EXAMPLE}`,
        },
      };
    }
    input = parsed.value;
  }
  if (!isRecord(input)) {
    return refuse([`the arguments must be a JSON object such as ${BRIDGE_EXAMPLE}`]);
  }
  const schema = parametersOf(limits);
  const problems: string[] = [];
  const call: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [key, raw] of Object.entries(input)) {
    if (raw === null) continue; // Models often send null for "not given".
    if (HOST_ARGUMENTS.includes(key)) continue;
    const field = Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (field === undefined) {
      unknown.push(key);
      continue;
    }
    const checked = checkField(key, coerce(key, raw), field);
    if (typeof checked === "string") problems.push(checked);
    else call[key] = checked.value;
  }
  for (const key of schema.required) {
    if (call[key] === undefined && !problems.some((p) => p.startsWith(quote(key)))) {
      const values = enumOf(schema.properties[key]);
      problems.unshift(`${quote(key)} is required${values ? `: one of ${values}` : ""}`);
    }
  }
  if (unknown.length > 0) problems.push(unknownFields(unknown, Object.keys(schema.properties)));
  if (problems.length > 0) return refuse(problems);
  return { ok: true, value: call as unknown as BridgeCall };
}

interface FieldSchema {
  type?: string;
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  description?: string;
}

interface ObjectSchema {
  properties: Record<string, FieldSchema>;
  required: readonly string[];
}

let cached: { key: string; schema: ObjectSchema } | undefined;

// The bridge tool's parameters, checked once per pair of limits for keywords this parser knows.
function parametersOf(limits: BridgeLimits) {
  const key = `${limits.maxSearchLimit}/${limits.searchDefaultLimit}/${limits.codeMode ?? "off"}`;
  if (cached?.key === key) return cached.schema;
  const parameters = bridgeParameters(limits);
  const properties = parameters.properties as Record<string, Record<string, unknown>>;
  for (const [name, field] of Object.entries(properties)) {
    const unsupported = Object.keys(field).filter((k) => !KEYWORDS.has(k));
    if (unsupported.length > 0) {
      throw new TypeError(
        `Cannot check the bridge field "${name}": keyword "${unsupported[0]}" is not supported`,
      );
    }
  }
  if (parameters.additionalProperties !== false) {
    throw new TypeError("Cannot check the bridge arguments: they must be a closed object");
  }
  const schema = {
    properties: properties as Record<string, FieldSchema>,
    required: (parameters.required ?? []) as readonly string[],
  };
  cached = { key, schema };
  return schema;
}

// The leniencies: a limit sent as a numeric string, tool arguments sent as a JSON string.
function coerce(key: string, value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (key === "limit" && INTEGER.test(value)) return Number(value);
  if (key === "arguments") {
    const parsed = parseJson(value);
    if (!(parsed instanceof SyntaxError) && isRecord(parsed.value)) return parsed.value;
  }
  return value;
}

function checkField(key: string, value: unknown, field: FieldSchema): { value: unknown } | string {
  const name = quote(key);
  const values = enumOf(field);
  if (values !== undefined) {
    return field.enum!.includes(value) ? { value } : `${name} must be one of ${values}`;
  }
  const purpose = field.description === undefined ? "" : ` (${field.description})`;
  switch (field.type) {
    case "string":
      return typeof value === "string" ? { value } : `${name} must be a string${purpose}`;
    case "object":
      return isRecord(value) ? { value } : `${name} must be an object${purpose}`;
    case "integer": {
      const minimum = field.minimum ?? -Infinity;
      const rule = minimum === 1 ? "a positive integer" : `an integer of at least ${minimum}`;
      // The announced maximum is a cap, applied by the search itself, not a refusal.
      return typeof value === "number" && Number.isInteger(value) && value >= minimum
        ? { value }
        : `${name} must be ${rule}${purpose}`;
    }
    default:
      throw new TypeError(`Cannot check the bridge field ${name}: type "${field.type}"`);
  }
}

function enumOf(field: FieldSchema | undefined): string | undefined {
  return field?.enum?.map((v) => quote(String(v))).join(", ");
}

function unknownFields(keys: readonly string[], known: readonly string[]): string {
  const shown = keys.slice(0, MAX_UNKNOWN_SHOWN).map((key) => {
    const near = closestField(key, known);
    return `${quote(oneLine(key, 60))}${
      near === undefined ? "" : ` (did you mean ${quote(near)}?)`
    }`;
  });
  if (keys.length > MAX_UNKNOWN_SHOWN) shown.push(`and ${keys.length - MAX_UNKNOWN_SHOWN} more`);
  const list = known.length > 1
    ? `${known.slice(0, -1).join(", ")} and ${known[known.length - 1]}`
    : known.join("");
  return `unknown field${keys.length > 1 ? "s" : ""} ${
    shown.join(", ")
  }: the bridge takes ${list}; put the tool's own arguments inside "arguments"`;
}

// The known field a key probably meant: same letters in another case, a typo or two away, or an
// abbreviation of it.
function closestField(key: string, known: readonly string[]): string | undefined {
  if (key.length > MAX_FIELD_CHARS) return undefined;
  const wanted = key.toLowerCase();
  let best: { field: string; distance: number } | undefined;
  for (const field of known) {
    const distance = editDistance(wanted, field.toLowerCase());
    if (distance < (best?.distance ?? Infinity)) best = { field, distance };
  }
  if (best !== undefined && best.distance <= Math.min(2, Math.floor(best.field.length / 3))) {
    return best.field;
  }
  // An abbreviation: "args", "lim", "qry" (the same first letter, the rest in order).
  if (wanted.length < 3) return undefined;
  return known.find((field) => field[0] === wanted[0] && isSubsequence(wanted, field));
}

function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at]) at++;
  return at === short.length;
}

function refuse(problems: readonly string[]): ParsedCall {
  return {
    ok: false,
    error: { code: "invalid_arguments", message: [...new Set(problems)].join("; ") },
  };
}

// The parsed value, or the SyntaxError for text that is not JSON.
function parseJson(text: string): { value: unknown } | SyntaxError {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return e instanceof SyntaxError ? e : new SyntaxError(String(e));
  }
}
